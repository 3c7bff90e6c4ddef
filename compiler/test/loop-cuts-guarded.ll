; lockstep-loop-cuts on loops behind a guard that only some work-items pass
; (GuardedLoops.cpp). The loop comes out of the guard: the work-items that
; fail it go to a join in front of the loop with a flag cleared, the others
; with it set. A loop whose rounds every work-item that passed runs alike
; gets a copy for groups whose work-items all passed (a count of the flags,
; a work_group_reduce_add, at the join), which is cut like any uniform loop;
; the other groups run the loop whole in each work-item that passed. A loop
; whose trip count differs is masked, its `active` flags starting from the
; guard's. A loop nest is copied the same way. A guard that some work-items
; skip by another way is left as it was.
; RUN: %opt -passes=lockstep-loop-cuts -lockstep-last-round-max-size=0 -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-loop-cuts -lockstep-last-round-max-size=0 -lockstep-hoist-guarded-loops=false -S %s \
; RUN:   | FileCheck %s --check-prefix=OFF

declare i64 @__lockstep.local_id(i32) memory(none)

; if (lid0 < n && lid1 < n) { sum over k < n of in[k * 1024 + lid0]; out[lid0] = sum }
define void @guarded(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="guarded" {
prologue:
  %n = load i32, ptr %args, align 4
  %inp = getelementptr i8, ptr %args, i64 8
  %in = load ptr, ptr %inp, align 8
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %lid1 = call i64 @__lockstep.local_id(i32 1)
  %n64 = zext i32 %n to i64
  %in.x = icmp ult i64 %lid, %n64
  br i1 %in.x, label %check.y, label %end

check.y:
  %in.y = icmp ult i64 %lid1, %n64
  br i1 %in.y, label %then, label %end

then:
  br label %header

header:
  %k = phi i32 [ 0, %then ], [ %k.next, %body ]
  %sum = phi float [ 0.0, %then ], [ %sum.next, %body ]
  %more = icmp ult i32 %k, %n
  br i1 %more, label %body, label %done

body:
  %k64 = zext i32 %k to i64
  %row = mul i64 %k64, 1024
  %idx = add i64 %row, %lid
  %p = getelementptr float, ptr %in, i64 %idx
  %v = load float, ptr %p
  %sum.next = fadd float %sum, %v
  %k.next = add i32 %k, 1
  br label %header

done:
  %q = getelementptr float, ptr %out, i64 %lid
  store float %sum, ptr %q
  br label %end

end:
  ret void
}

; CHECK-LABEL: define void @guarded(
; Both guards skip to the same block, which now sets the flag to 0.
; CHECK: br i1 %in.x, label %check.y, label %guard.skip
; CHECK: br i1 %in.y, label %then, label %guard.skip
; CHECK: then:
; CHECK-NEXT: store i32 1, ptr %guard.entered
; CHECK-NEXT: br label %guard.join
; The count of the flags picks the copy or the loop as it was.
; CHECK: guard.join:
; CHECK-NEXT: %[[FLAG:.+]] = load i32, ptr %guard.entered
; CHECK-NEXT: %[[COUNT:[0-9]+]] = call i32 @_Z21work_group_reduce_addi(i32 %[[FLAG]])
; CHECK-NEXT: %[[WIDE:[0-9]+]] = zext i32 %[[COUNT]] to i64
; CHECK-NEXT: %[[SIZE:[0-9]+]] = call i64 @lockstep.work_items()
; CHECK-NEXT: %[[ALL:[0-9]+]] = icmp eq i64 %[[WIDE]], %[[SIZE]]
; CHECK-NEXT: br i1 %[[ALL]], label %guard.all, label %guard.some
; CHECK: guard.all:
; CHECK-NEXT: br label %header.all
; The other groups: the loop for the work-items that passed, whole.
; CHECK: guard.some:
; CHECK-NEXT: %[[SOME:.+]] = load i32, ptr %guard.entered
; CHECK-NEXT: %[[PASSED:[0-9]+]] = icmp ne i32 %[[SOME]], 0
; CHECK-NEXT: br i1 %[[PASSED]], label %header, label %done
; The loop as it was has no cut.
; CHECK: body:
; CHECK-NOT: call void @_Z7barrierj
; CHECK: br label %header
; Past the exit, only the work-items that passed go on to the store.
; CHECK: done:
; CHECK: load i32, ptr %guard.entered
; CHECK: br i1 %{{[0-9]+}}, label %done.entered, label %guard.skipped
; The copy's exit joins the loop's where they store the sum.
; CHECK: done.all:
; CHECK-NEXT: br label %done.entered
; CHECK: done.entered:
; CHECK-NEXT: %sum.lcssa.merged = phi float [ %sum.lcssa, %done ], [ %sum.all, %done.all ]
; CHECK: guard.skipped:
; CHECK-NEXT: br label %end
; The copy: cut at the top of its body.
; CHECK: body.all:
; CHECK-NEXT: call void @_Z7barrierj(i32 0), !lockstep.loop_cut
; OFF-LABEL: define void @guarded(
; OFF-NOT: guard.
; OFF-NOT: _Z7barrierj
; OFF: ret void

; if (lid0 < n) { int m = count[lid0]; for (j = lid0; j < m; j += 256) sum += in[j]; }:
; the trip count differs, so the loop is masked from the guard's flags.
define void @guarded_rows(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="guarded_rows" {
prologue:
  %n = load i64, ptr %args, align 8
  %countp = getelementptr i8, ptr %args, i64 8
  %count = load ptr, ptr %countp, align 8
  %inp = getelementptr i8, ptr %args, i64 16
  %in = load ptr, ptr %inp, align 8
  %outp = getelementptr i8, ptr %args, i64 24
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %inside = icmp ult i64 %lid, %n
  br i1 %inside, label %then, label %end

then:
  %cp = getelementptr i64, ptr %count, i64 %lid
  %last = load i64, ptr %cp
  br label %header

header:
  %j = phi i64 [ %lid, %then ], [ %j.next, %body ]
  %sum = phi float [ 0.0, %then ], [ %sum.next, %body ]
  %more = icmp ult i64 %j, %last
  br i1 %more, label %body, label %done

body:
  %p = getelementptr float, ptr %in, i64 %j
  %v = load float, ptr %p
  %sum.next = fadd float %sum, %v
  %j.next = add i64 %j, 256
  br label %header

done:
  %q = getelementptr float, ptr %out, i64 %lid
  store float %sum, ptr %q
  br label %end

end:
  ret void
}

; CHECK-LABEL: define void @guarded_rows(
; CHECK: br i1 %inside, label %then, label %guard.skip
; The values the guarded code made before the loop go through variables.
; CHECK: then:
; CHECK: store i64 %last, ptr %last.reg2mem
; CHECK: store i32 1, ptr %guard.entered
; CHECK: guard.join:
; CHECK-NOT: _Z21work_group_reduce_addi
; The flags start as the guard left them; the first round reads them.
; CHECK: %[[ENTERED:.+]] = load i32, ptr %guard.entered
; CHECK-NEXT: store i32 %[[ENTERED]], ptr %loop.active
; CHECK-NEXT: store i32 0, ptr %loop.all.active
; CHECK: call i32 @_Z21work_group_reduce_addi({{.*}}!lockstep.masked_count
; OFF-LABEL: define void @guarded_rows(
; OFF-NOT: guard.
; OFF-NOT: loop.active
; OFF: ret void

; if (lid0 < n) { lo = -r; for (j = lo; j <= r; j++) for (i = lo; i <= r; i++)
; sum += in[(j + i) * 1024 + lid0]; }: a nest, whose lower bound the guarded
; code computes. The bound moves before the guard (every work-item computes
; it alike; kept in a variable it would make the nest's rounds differ), and
; the nest is copied for whole groups, its inner loop cut in the copy.
define void @guarded_nest(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="guarded_nest" {
prologue:
  %n = load i64, ptr %args, align 8
  %rp = getelementptr i8, ptr %args, i64 8
  %r = load i32, ptr %rp, align 4
  %inp = getelementptr i8, ptr %args, i64 16
  %in = load ptr, ptr %inp, align 8
  %outp = getelementptr i8, ptr %args, i64 24
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %inside = icmp ult i64 %lid, %n
  br i1 %inside, label %then, label %end

then:
  %lo = sub i32 0, %r
  br label %outer

outer:
  %j = phi i32 [ %lo, %then ], [ %j.next, %outer.latch ]
  %sum = phi float [ 0.0, %then ], [ %sum.inner, %outer.latch ]
  %more.j = icmp sle i32 %j, %r
  br i1 %more.j, label %inner, label %done

inner:
  %i = phi i32 [ %lo, %outer ], [ %i.next, %inner.body ]
  %s = phi float [ %sum, %outer ], [ %s.next, %inner.body ]
  %more.i = icmp sle i32 %i, %r
  br i1 %more.i, label %inner.body, label %outer.latch

inner.body:
  %ji = add i32 %j, %i
  %ji64 = sext i32 %ji to i64
  %row = mul i64 %ji64, 1024
  %idx = add i64 %row, %lid
  %p = getelementptr float, ptr %in, i64 %idx
  %v = load float, ptr %p
  %s.next = fadd float %s, %v
  %i.next = add i32 %i, 1
  br label %inner

outer.latch:
  %sum.inner = phi float [ %s, %inner ]
  %j.next = add i32 %j, 1
  br label %outer

done:
  %q = getelementptr float, ptr %out, i64 %lid
  store float %sum, ptr %q
  br label %end

end:
  ret void
}

; CHECK-LABEL: define void @guarded_nest(
; CHECK: entry:
; CHECK: %lo = sub i32 0, %r
; CHECK-NEXT: br i1 %inside, label %then, label %guard.skip
; CHECK: br i1 %{{[0-9]+}}, label %guard.all, label %guard.some
; CHECK: inner.body.all:
; CHECK-NEXT: call void @_Z7barrierj(i32 0), !lockstep.loop_cut
; OFF-LABEL: define void @guarded_nest(
; OFF-NOT: guard.
; OFF: ret void

; if (lid0 < n) { if (lid1 == 0) { out[lid0] = 0; return; } loop }: the
; second guard leaves another way than the first (a chain of guards, as `&&`
; makes, leaves to one block), so the loop stays behind them.
define void @two_ways_out(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="two_ways_out" {
prologue:
  %n = load i32, ptr %args, align 4
  %inp = getelementptr i8, ptr %args, i64 8
  %in = load ptr, ptr %inp, align 8
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %lid1 = call i64 @__lockstep.local_id(i32 1)
  %n64 = zext i32 %n to i64
  %inside = icmp ult i64 %lid, %n64
  br i1 %inside, label %then, label %end

then:
  %first.row = icmp eq i64 %lid1, 0
  br i1 %first.row, label %early, label %header

early:
  %e = getelementptr float, ptr %out, i64 %lid
  store float 0.0, ptr %e
  br label %end

header:
  %k = phi i32 [ 0, %then ], [ %k.next, %body ]
  %sum = phi float [ 0.0, %then ], [ %sum.next, %body ]
  %more = icmp ult i32 %k, %n
  br i1 %more, label %body, label %done

body:
  %k64 = zext i32 %k to i64
  %row = mul i64 %k64, 1024
  %idx = add i64 %row, %lid
  %p = getelementptr float, ptr %in, i64 %idx
  %v = load float, ptr %p
  %sum.next = fadd float %sum, %v
  %k.next = add i32 %k, 1
  br label %header

done:
  %q = getelementptr float, ptr %out, i64 %lid
  store float %sum, ptr %q
  br label %end

end:
  ret void
}

; CHECK-LABEL: define void @two_ways_out(
; CHECK-NOT: guard.
; CHECK-NOT: _Z7barrierj
; CHECK: ret void

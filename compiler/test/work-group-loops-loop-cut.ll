; A loop that every work-item runs the same number of times, with no barrier
; in it, gets a cut at the top of its body (lockstep-loop-cuts): its exit test
; becomes a decision taken on work-item 0's value between the work-item
; loops, and the counter, uniform, is kept once. A loop whose trip count
; differs between work-items is masked: it goes round while any work-item is
; active (a work_group_any, combined between the work-item loops), its body
; runs for the active ones, unless no work-item goes round more than a few
; times: then those rounds are peeled off and the loop is gone. A loop with
; a small constant trip count is left whole inside one work-item loop (-O3
; unrolls it), unless its rounds, the calls in them counted as their bodies,
; are too many instructions for -O3 to unroll; so is one that walks a row per
; work-item (consecutive along the loop, not across the work-items), which a
; cut would read as gathers, and one over vectors as wide as a register,
; which would not widen across work-items anyway.
; A kernel with cuts is built three times, picked by the group's width:
; below 4 work-items without cuts (whole_loops), below 64 with cuts whose
; work-item loops take one vector a trip, not interleaved (narrow_cut: a
; 16-wide row in one vector, not in the epilogue of a 64-wide loop), else
; as the vectorizer chooses.
; RUN: %opt -passes=lockstep-work-group -lockstep-last-round-max-size=0 -lockstep-strip-vectors=0 -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-work-group -lockstep-last-round-max-size=0 -lockstep-strip-vectors=0 -S %s | FileCheck %s --check-prefix=VERSIONS

declare i64 @__lockstep.local_id(i32) memory(none)

define void @uniform_trip_count(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="a" {
prologue:
  %n = load i32, ptr %args, align 4
  %inp = getelementptr i8, ptr %args, i64 8
  %in = load ptr, ptr %inp, align 8
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  br label %header

header:
  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %body ]
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
  ret void
}

define void @row_per_work_item(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="r" {
prologue:
  %n = load i32, ptr %args, align 4
  %inp = getelementptr i8, ptr %args, i64 8
  %in = load ptr, ptr %inp, align 8
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %n64 = zext i32 %n to i64
  %rowStart = mul i64 %lid, %n64
  br label %header

header:
  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %body ]
  %more = icmp ult i32 %k, %n
  br i1 %more, label %body, label %done

body:
  %k64 = zext i32 %k to i64
  %idx = add i64 %rowStart, %k64
  %p = getelementptr float, ptr %in, i64 %idx
  %v = load float, ptr %p
  %sum.next = fadd float %sum, %v
  %k.next = add i32 %k, 1
  br label %header

done:
  %q = getelementptr float, ptr %out, i64 %lid
  store float %sum, ptr %q
  ret void
}

define void @differing_trip_count(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="b" {
prologue:
  %n = load i32, ptr %args, align 4
  %inp = getelementptr i8, ptr %args, i64 8
  %in = load ptr, ptr %inp, align 8
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  br label %header

header:
  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %body ]
  %lid32 = trunc i64 %lid to i32
  %more = icmp ult i32 %k, %lid32
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
  ret void
}

define void @small_constant_trip_count(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="c" {
prologue:
  %n = load i32, ptr %args, align 4
  %inp = getelementptr i8, ptr %args, i64 8
  %in = load ptr, ptr %inp, align 8
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  br label %header

header:
  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %body ]
  %more = icmp ult i32 %k, 8
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
  ret void
}

; CHECK-LABEL: define void @uniform_trip_count(
; The first region tests the exit for the first time; the decision follows.
; CHECK: region.done:
; CHECK-NEXT: %[[LAST:[0-9]+]] = load i32, ptr %k.reg2mem
; CHECK-NEXT: store i32 %[[LAST]], ptr %[[K:ctx.slot[0-9]*]], align 4
; CHECK-NEXT: %uniform.condition = load i32, ptr %[[D:ctx.slot[0-9]*]], align 4
; CHECK: br i1 %{{[0-9]+}}, label %region{{[0-9]+}}, label %region{{[0-9]+}}
; The body's region: the counter loaded once before its work-item loop, the
; accumulator per work-item inside it, and the exit tested again at its end.
; CHECK: %uniform{{[0-9]*}} = load i32, ptr %[[K]], align 4
; CHECK-NEXT: br label %wi.loop
; CHECK: %uniform.condition{{[0-9]+}} = load i32, ptr %[[D]], align 4
; CHECK: getelementptr float, ptr %ctx.slot{{[0-9]*}}, i64 %wi
; The exit test is the same for every work-item: stored in one place.
; CHECK: store i32 %{{[0-9]+}}, ptr %[[D]], align 4
; CHECK-LABEL: define void @row_per_work_item(
; One region: the loop runs whole inside the work-item loop, no decision and
; nothing kept in the context.
; CHECK-NOT: ctx.slot
; CHECK-NOT: uniform.condition
; CHECK: wi.loop0:
; CHECK: header.r:
; CHECK: load float, ptr %p.r
; CHECK-NOT: ctx.slot
; CHECK-NOT: uniform.condition
; CHECK-LABEL: define void @differing_trip_count(
; CHECK-DAG: %loop.active = alloca i32
; CHECK-DAG: %loop.round = alloca i64
; The active flag lives in the context: read at the top of a round, written
; when the work-item leaves, and summed there by work_group_reduce_add. While
; every work-item was active the round before, the flag is not read.
; CHECK: %[[FLAG:[0-9]+]] = getelementptr i32, ptr %[[FLAGS:ctx.slot[0-9]*]], i64 %wi
; CHECK: masked.loop.r:
; CHECK-NEXT: %[[ALL:[0-9]+]] = load i32, ptr %loop.all.active
; CHECK-NEXT: %[[EVERY:[0-9]+]] = icmp ne i32 %[[ALL]], 0
; CHECK-NEXT: br i1 %[[EVERY]], label %header.r, label %masked.own.r
; The counter is the round times its step (1) from its start (0): the same
; for every active work-item, so it is not kept per work-item.
; CHECK: header.r:
; CHECK: %round.r = load i64, ptr %loop.round
; CHECK-NEXT: %[[R:[0-9]+]] = trunc i64 %round.r to i32
; CHECK-NEXT: %[[T:[0-9]+]] = mul i32 %[[R]], 1
; CHECK-NEXT: %k.at.round.r = add i32 0, %[[T]]
; A work-item that left this round marks the group's count as one that
; must read the flags: one word for the group, updated by every work-item
; (not a parallel access).
; CHECK: masked.latch.r:
; CHECK-NEXT: %[[LEFT:[a-z.0-9]+]] = load i32, ptr %left.reg2mem
; CHECK-NEXT: %[[WAS:[0-9]+]] = load i32, ptr %[[DIRTY:ctx.slot[0-9]+]], align 4, !alias.scope !{{[0-9]+}}, !noalias !{{[0-9]+}}{{$}}
; CHECK-NEXT: %[[NOW:[0-9]+]] = or i32 %[[WAS]], %[[LEFT]]
; CHECK-NEXT: store i32 %[[NOW]], ptr %[[DIRTY]], align 4, !alias.scope !{{[0-9]+}}, !noalias !{{[0-9]+}}{{$}}
; CHECK-NEXT: br label %masked.next.r
; CHECK: masked.next.r:
; CHECK-NEXT: %[[OLD:[0-9]+]] = load i64, ptr %loop.round
; CHECK-NEXT: %[[NEW:[0-9]+]] = add i64 %[[OLD]], 1
; CHECK-NEXT: store i64 %[[NEW]], ptr %loop.round
; CHECK-NOT: store
; CHECK: masked.exit.r:
; CHECK-NEXT: store i32 0, ptr %[[FLAG]]
; CHECK: masked.own.r:
; CHECK-NEXT: %[[A:[0-9]+]] = load i32, ptr %[[FLAG]]
; CHECK-NEXT: %[[ON:[0-9]+]] = icmp ne i32 %[[A]], 0
; CHECK-NEXT: store i32 0, ptr %left.reg2mem
; CHECK-NEXT: br i1 %[[ON]], label %header.r, label %masked.latch.r
; The count of active work-items: any of them goes round again; all of them
; skip the flags next round.
; CHECK: icmp eq i64 %{{[0-9]+}}, %{{[0-9]+}}
; CHECK: store i32 %{{[0-9]+}}, ptr %loop.all.active
; While no work-item has left since a count found them all active, the
; count is the group's size; otherwise the flags are summed, and the sum
; says whether they are all set again.
; CHECK: region.done{{[0-9]+}}:
; CHECK: %[[D:[0-9]+]] = load i32, ptr %[[DIRTY]]
; CHECK-NEXT: %[[SOME:[0-9]+]] = icmp ne i32 %[[D]], 0
; CHECK-NEXT: br i1 %[[SOME]], label %count.flags{{[0-9]+}}, label %count.all.stayed{{[0-9]+}}
; CHECK: count.all.stayed{{[0-9]+}}:
; CHECK-NEXT: %[[AT:[0-9]+]] = getelementptr i32, ptr %[[OUT:ctx.slot[0-9]+]], i64 0
; CHECK-NEXT: store i32 %[[SIZE:[0-9]+]], ptr %[[AT]],
; CHECK: combine.loop{{[0-9]+}}:
; CHECK: %[[F:[0-9]+]] = getelementptr i32, ptr %[[FLAGS]]
; CHECK-NEXT: %[[V:[0-9]+]] = load i32, ptr %[[F]]
; CHECK-NEXT: add i32 %{{[0-9]+}}, %[[V]]
; CHECK: combine.done{{[0-9]+}}:
; CHECK: %[[COUNT:[0-9]+]] = load i32, ptr %[[OUT]],
; CHECK-NEXT: %[[NOTALL:[0-9]+]] = icmp ne i32 %[[COUNT]], %[[SIZE]]
; CHECK-NEXT: %[[Z:[0-9]+]] = zext i1 %[[NOTALL]] to i32
; CHECK-NEXT: store i32 %[[Z]], ptr %[[DIRTY]],
; Its bound is the local id, not a constant: no look-ahead.
; CHECK-NOT: masked.peek
; CHECK-LABEL: define void @small_constant_trip_count(
; CHECK-NOT: uniform.condition
; CHECK-NOT: ctx.slot
; CHECK: ret void

; A grid-stride loop over an int index, `for (int i = gid; i < n; i +=
; get_global_size(0))`, whose step the body truncates from a uniform value
; each time round: the truncation moves before the loop, the index is an
; induction (start + round * step), and nothing keeps it per work-item.
define void @int_grid_stride(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="g" {
prologue:
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  %np = getelementptr i8, ptr %args, i64 24
  %n = load i32, ptr %np, align 4
  %sizep = getelementptr i8, ptr %args, i64 32
  %size = load i64, ptr %sizep, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %start = trunc i64 %lid to i32
  br label %header

header:
  %i = phi i32 [ %start, %entry ], [ %i.next, %body ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %done

body:
  %i64 = sext i32 %i to i64
  %q = getelementptr float, ptr %out, i64 %i64
  store float 1.0, ptr %q
  %step = trunc i64 %size to i32
  %i.next = add nsw i32 %i, %step
  br label %header

done:
  ret void
}

; CHECK-LABEL: define void @int_grid_stride(
; CHECK: %step.r = trunc i64 %size to i32
; The rounds every work-item runs (SureRounds.cpp): those of the group's
; greatest start (a work_group_reduce_max, combined with smax), (n - start -
; 1) / step + 1 while the start is below n and the step positive.
; CHECK: call i32 @llvm.smax.i32
; CHECK: after.collective.r:
; CHECK-NEXT: %[[T:[0-9]+]] = trunc i64 %size to i32
; CHECK-NEXT: %[[S:collective.result.r]] = load i32, ptr %collective.out
; CHECK-NEXT: %[[BELOW:[0-9]+]] = icmp slt i32 %[[S]], %n
; CHECK-NEXT: %[[UP:[0-9]+]] = icmp sgt i32 %[[T]], 0
; CHECK-NEXT: %[[D:[0-9]+]] = sub i32 %n, %[[S]]
; CHECK-NEXT: %[[D1:[0-9]+]] = sub i32 %[[D]], 1
; CHECK-NEXT: %[[BY:[0-9]+]] = select i1 %[[UP]], i32 %[[T]], i32 1
; CHECK-NEXT: %[[Q:[0-9]+]] = udiv i32 %[[D1]], %[[BY]]
; CHECK-NEXT: %[[N:[0-9]+]] = add i32 %[[Q]], 1
; CHECK-NEXT: %[[OK:[0-9]+]] = and i1 %[[BELOW]], %[[UP]]
; CHECK-NEXT: %[[ROUNDS:[0-9]+]] = select i1 %[[OK]], i32 %[[N]], i32 0
; CHECK-NEXT: %sure.rounds.r = zext i32 %[[ROUNDS]] to i64
; CHECK-NEXT: store i64 %sure.rounds.r, ptr %loop.sure.rounds
; Rounds below it run a copy whose header does not test and whose work-items
; do not mark the group's `dirty` word: straight to the round's end.
; CHECK: masked.loop.r:
; CHECK-NEXT: %[[SURE:[0-9]+]] = load i64, ptr %loop.sure.rounds
; CHECK-NEXT: %[[NOW:[0-9]+]] = load i64, ptr %loop.round
; CHECK-NEXT: %[[IN:[0-9]+]] = icmp ult i64 %[[NOW]], %[[SURE]]
; CHECK-NEXT: br i1 %[[IN]], label %header.sure.r, label %masked.unsure.r
; CHECK: header.sure.r:
; CHECK: %i.at.round.sure.r = add i32
; CHECK: br label %body.sure.r
; CHECK: body.sure.r:
; CHECK: store float 1.000000e+00, ptr %q.sure.r
; CHECK-NEXT: load i32
; CHECK-NEXT: %i.next.sure.r = add
; CHECK-NEXT: br label %masked.next.r
; CHECK: masked.unsure.r:
; CHECK-NEXT: load i32, ptr %loop.all.active
; CHECK: header.r:
; CHECK: %round.r = load i64, ptr %loop.round
; CHECK-NEXT: %[[R:[0-9]+]] = trunc i64 %round.r to i32
; CHECK-NEXT: %[[S:[0-9]+]] = mul i32 %[[R]], %{{[0-9]+}}
; CHECK-NEXT: %i.at.round.r = add i32 %{{[0-9]+}}, %[[S]]
; CHECK: br i1 %more.r, label %body.r, label %masked.exit.r
; CHECK: ret void

; A differing loop that passes a constant bound with a constant step in a few
; steps (a tile loaded by a group: at most two trips for a start in [0, 64)):
; a work-item that ran the body tests the next round's exit before the
; latch and leaves there, so the count that decides another round is of the
; work-items that will run it.
define void @few_rounds(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="d" {
prologue:
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %start = trunc i64 %lid to i32
  br label %header

header:
  %i = phi i32 [ %start, %entry ], [ %i.next, %body ]
  %more = icmp slt i32 %i, 100
  br i1 %more, label %body, label %done

body:
  %i64 = sext i32 %i to i64
  %q = getelementptr float, ptr %out, i64 %i64
  store float 1.0, ptr %q
  %i.next = add nsw i32 %i, 64
  br label %header

done:
  ret void
}

; CHECK-LABEL: define void @few_rounds(
; A constant bound below 4096 (a __local array's loop): no sure rounds.
; CHECK-NOT: work_group_reduce_max
; CHECK-NOT: llvm.smax
; CHECK: %[[FLAG:[0-9]+]] = getelementptr i32, ptr %{{ctx.slot[0-9]*}}, i64 %wi
; CHECK-NOT: header.sure
; CHECK: header.r:
; CHECK: %round.r = load i64, ptr %loop.round
; CHECK: %i.at.round.r = add i32 %{{[0-9a-z.]+}}, %{{[0-9]+}}
; CHECK: %more.r = icmp slt i32 %i.at.round{{.*}}, 100
; CHECK: body.r:
; CHECK: br label %masked.peek.r
; The header again, with the round after this one.
; CHECK: masked.peek.r:
; CHECK: %[[ROUND:[0-9]+]] = load i64, ptr %loop.round
; CHECK-NEXT: %round.next.r = add i64 %[[ROUND]], 1
; CHECK-NEXT: %[[R32:[0-9]+]] = trunc i64 %round.next.r to i32
; CHECK-NEXT: %[[STEPS:[0-9]+]] = mul i32 %[[R32]], 64
; CHECK-NEXT: %[[I:[0-9]+]] = add i32 %{{[0-9]+}}, %[[STEPS]]
; CHECK-NEXT: %[[NEXT:[0-9]+]] = icmp slt i32 %[[I]], 100
; CHECK-NEXT: store i32 0, ptr %left.reg2mem
; CHECK-NEXT: br i1 %[[NEXT]], label %masked.latch.r, label %masked.peek.leaves.r
; CHECK: masked.peek.leaves.r:
; CHECK-NEXT: store i32 0, ptr %[[FLAG]]
; CHECK-NEXT: store i32 1, ptr %left.reg2mem
; CHECK-NEXT: br label %masked.latch.r

; The same loop from a local id below 4096 (the range WorkItemBuiltins gives
; it): no work-item goes round more than twice (100 / 64), so the two rounds
; are peeled off in front of the loop and the loop is gone: straight-line
; code in one work-item loop, with no round counter, flag or count.
define void @unrolled_rounds(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="e" {
prologue:
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0), !range !{i64 0, i64 4096}
  %start = trunc i64 %lid to i32
  br label %header

header:
  %i = phi i32 [ %start, %entry ], [ %i.next, %body ]
  %more = icmp slt i32 %i, 100
  br i1 %more, label %body, label %done

body:
  %i64 = sext i32 %i to i64
  %q = getelementptr float, ptr %out, i64 %i64
  store float 1.0, ptr %q
  %i.next = add nsw i32 %i, 64
  br label %header

done:
  ret void
}

; CHECK-LABEL: define void @unrolled_rounds(
; CHECK-NOT: loop.round
; CHECK-NOT: work_group_reduce
; CHECK: header.peel.r:
; CHECK-NEXT: %more.peel.r = icmp slt i32 %start.r, 100
; CHECK: store float 1.000000e+00
; CHECK: %i.next.peel.r = add nsw i32 %start.r, 64
; CHECK: header.peel2.r:
; CHECK-NEXT: %more.peel3.r = icmp slt i32 %i.next.peel.r, 100
; CHECK: store float 1.000000e+00
; What is left of the loop leaves at once.
; CHECK: header.r:
; CHECK-NEXT: icmp slt
; CHECK-NEXT: br label %done.loopexit.r
; CHECK-NOT: masked.

; An unsigned counter needs no range: it starts at 0 or above. 300 / 128:
; three rounds.
define void @unrolled_unsigned(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="f" {
prologue:
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %start = trunc i64 %lid to i32
  br label %header

header:
  %i = phi i32 [ %start, %entry ], [ %i.next, %body ]
  %more = icmp ult i32 %i, 300
  br i1 %more, label %body, label %done

body:
  %i64 = zext i32 %i to i64
  %q = getelementptr float, ptr %out, i64 %i64
  store float 1.0, ptr %q
  %i.next = add i32 %i, 128
  br label %header

done:
  ret void
}

; CHECK-LABEL: define void @unrolled_unsigned(
; CHECK-NOT: loop.round
; CHECK: icmp ult i32 %start.r, 300
; CHECK: icmp ult i32 %i.next.peel.r, 300
; CHECK: icmp ult i32 %i.next.peel7.r, 300
; CHECK: header.r:
; CHECK-NEXT: icmp ult
; CHECK-NEXT: br label %done.loopexit.r
; CHECK-NOT: masked.

; 16 rounds of a helper that comes to 24 instructions once inlined: too many
; for -O3 to unroll whole (clpeak's kernels, mad chains on float8), so the
; loop is cut like one of unknown rounds.
define internal float @chain(float %x, float %y) {
  %a1 = fmul float %x, %y
  %b1 = fadd float %a1, %y
  %a2 = fmul float %b1, %x
  %b2 = fadd float %a2, %x
  %a3 = fmul float %b2, %y
  %b3 = fadd float %a3, %y
  %a4 = fmul float %b3, %x
  %b4 = fadd float %a4, %x
  %a5 = fmul float %b4, %y
  %b5 = fadd float %a5, %y
  %a6 = fmul float %b5, %x
  %b6 = fadd float %a6, %x
  %a7 = fmul float %b6, %y
  %b7 = fadd float %a7, %y
  %a8 = fmul float %b7, %x
  %b8 = fadd float %a8, %x
  %a9 = fmul float %b8, %y
  %b9 = fadd float %a9, %y
  %a10 = fmul float %b9, %x
  %b10 = fadd float %a10, %x
  %a11 = fmul float %b10, %y
  %b11 = fadd float %a11, %y
  %a12 = fmul float %b11, %x
  %b12 = fadd float %a12, %x
  ret float %b12
}

define void @rounds_too_big_to_unroll(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="g" {
prologue:
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %y = uitofp i64 %lid to float
  br label %header

header:
  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]
  %x = phi float [ 1.0, %entry ], [ %x.next, %body ]
  %more = icmp ult i32 %k, 16
  br i1 %more, label %body, label %done

body:
  %x.next = call float @chain(float %x, float %y)
  %k.next = add i32 %k, 1
  br label %header

done:
  %q = getelementptr float, ptr %out, i64 %lid
  store float %x, ptr %q
  ret void
}

; CHECK-LABEL: define void @rounds_too_big_to_unroll(
; CHECK: %uniform.condition = load i32
; CHECK: call float @chain(
; CHECK: ret void

; A kernel with a vector as wide as a register (512 bits, the pass's
; default) keeps its vectors whole, so a loop with vector values, even
; narrower ones, is not cut: one work-item loop around the whole loop.
define void @register_wide_vectors(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="h" {
prologue:
  %n = load i32, ptr %args, align 4
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %y = uitofp i64 %lid to float
  %yv.0 = insertelement <4 x float> poison, float %y, i64 0
  %yv = shufflevector <4 x float> %yv.0, <4 x float> poison, <4 x i32> zeroinitializer
  %wide.0 = insertelement <16 x float> poison, float %y, i64 0
  %wide = shufflevector <16 x float> %wide.0, <16 x float> poison, <16 x i32> zeroinitializer
  %q16 = getelementptr <16 x float>, ptr %out, i64 %lid
  store <16 x float> %wide, ptr %q16
  br label %header

header:
  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]
  %x = phi <4 x float> [ zeroinitializer, %entry ], [ %x.next, %body ]
  %more = icmp ult i32 %k, %n
  br i1 %more, label %body, label %done

body:
  %p = fmul <4 x float> %x, %yv
  %x.next = fadd <4 x float> %p, %yv
  %k.next = add i32 %k, 1
  br label %header

done:
  %q = getelementptr <4 x float>, ptr %out, i64 %lid
  store <4 x float> %x, ptr %q
  ret void
}

; CHECK-LABEL: define void @register_wide_vectors(
; CHECK-NOT: uniform.condition
; CHECK-NOT: ctx.slot
; CHECK: fmul <4 x float>

; The same loop in a kernel whose vectors are all narrower than a register:
; they will be split for widening, so the loop is cut.
define void @narrow_vectors(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="i" {
prologue:
  %n = load i32, ptr %args, align 4
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %y = uitofp i64 %lid to float
  %yv.0 = insertelement <4 x float> poison, float %y, i64 0
  %yv = shufflevector <4 x float> %yv.0, <4 x float> poison, <4 x i32> zeroinitializer
  br label %header

header:
  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]
  %x = phi <4 x float> [ zeroinitializer, %entry ], [ %x.next, %body ]
  %more = icmp ult i32 %k, %n
  br i1 %more, label %body, label %done

body:
  %p = fmul <4 x float> %x, %yv
  %x.next = fadd <4 x float> %p, %yv
  %k.next = add i32 %k, 1
  br label %header

done:
  %q = getelementptr <4 x float>, ptr %out, i64 %lid
  store <4 x float> %x, ptr %q
  ret void
}

; CHECK-LABEL: define void @narrow_vectors(
; CHECK: %uniform.condition = load i32
; CHECK: fmul <4 x float>

; Loops whose unrolling the source asks about. `#pragma unroll` (no count):
; -O3 unrolls the 16 rounds of @chain whole, past its own threshold, so the
; loop is left whole.
define void @pragma_unroll(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="j" {
prologue:
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %y = uitofp i64 %lid to float
  br label %header

header:
  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]
  %x = phi float [ 1.0, %entry ], [ %x.next, %body ]
  %more = icmp ult i32 %k, 16
  br i1 %more, label %body, label %done

body:
  %x.next = call float @chain(float %x, float %y)
  %k.next = add i32 %k, 1
  br label %header, !llvm.loop !100

done:
  %q = getelementptr float, ptr %out, i64 %lid
  store float %x, ptr %q
  ret void
}

; CHECK-LABEL: define void @pragma_unroll(
; CHECK-NOT: uniform.condition
; CHECK: call float @chain(
; CHECK-LABEL: define void @pragma_unroll_by_two(

; `#pragma unroll 2`: rounds remain, so the loop is cut.
define void @pragma_unroll_by_two(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="k" {
prologue:
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %y = uitofp i64 %lid to float
  br label %header

header:
  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]
  %x = phi float [ 1.0, %entry ], [ %x.next, %body ]
  %more = icmp ult i32 %k, 16
  br i1 %more, label %body, label %done

body:
  %x.next = call float @chain(float %x, float %y)
  %k.next = add i32 %k, 1
  br label %header, !llvm.loop !102

done:
  %q = getelementptr float, ptr %out, i64 %lid
  store float %x, ptr %q
  ret void
}

; CHECK: %uniform.condition = load i32
; CHECK: call float @chain(
; CHECK-LABEL: define void @pragma_nounroll(

; `#pragma nounroll` on 8 rounds of @chain, which -O3 would otherwise
; unroll: it stays a loop, so it is cut.
define void @pragma_nounroll(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="l" {
prologue:
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %y = uitofp i64 %lid to float
  br label %header

header:
  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]
  %x = phi float [ 1.0, %entry ], [ %x.next, %body ]
  %more = icmp ult i32 %k, 8
  br i1 %more, label %body, label %done

body:
  %x.next = call float @chain(float %x, float %y)
  %k.next = add i32 %k, 1
  br label %header, !llvm.loop !104

done:
  %q = getelementptr float, ptr %out, i64 %lid
  store float %x, ptr %q
  ret void
}

; CHECK: %uniform.condition = load i32
; CHECK: call float @chain(
; CHECK-LABEL: define void @few_rounds_on_memory(

; 16 rounds of @chain that also read memory: too big to unroll, but its
; values stay in registers across the rounds only if it is whole (a cut
; would store and load them between rounds), so it is left whole.
define void @few_rounds_on_memory(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="m" {
prologue:
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %y = uitofp i64 %lid to float
  br label %header

header:
  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]
  %x = phi float [ 1.0, %entry ], [ %x.next, %body ]
  %more = icmp ult i32 %k, 16
  br i1 %more, label %body, label %done

body:
  %k64 = zext i32 %k to i64
  %row = mul i64 %k64, 1024
  %idx = add i64 %row, %lid
  %p = getelementptr float, ptr %out, i64 %idx
  %v = load float, ptr %p
  %c = call float @chain(float %x, float %v)
  %x.next = fadd float %c, %y
  %k.next = add i32 %k, 1
  br label %header

done:
  %q = getelementptr float, ptr %out, i64 %lid
  store float %x, ptr %q
  ret void
}

; CHECK-NOT: uniform.condition
; CHECK: call float @chain(

!100 = distinct !{!100, !101}
!101 = !{!"llvm.loop.unroll.enable"}
!102 = distinct !{!102, !103}
!103 = !{!"llvm.loop.unroll.count", i32 2}
!104 = distinct !{!104, !105}
!105 = !{!"llvm.loop.unroll.disable"}

; VERSIONS-LABEL: define void @uniform_trip_count(
; VERSIONS: %[[W:[0-9]+]] = icmp ult i64 %{{[0-9]+}}, 64
; VERSIONS: %[[W16:[0-9]+]] = icmp eq i64 %{{[0-9]+}}, 16
; VERSIONS: %[[W4:[0-9]+]] = icmp eq i64 %{{[0-9]+}}, 4
; VERSIONS-NEXT: br i1 %[[W4]], label %vector.rows{{[0-9]+}}, label %[[NEXT4:dispatch.next[0-9]+]]
; VERSIONS: [[NEXT4]]:
; VERSIONS-NEXT: br i1 %[[W16]], label %vector.rows, label %[[NEXT:dispatch.next[0-9]+]]
; VERSIONS: [[NEXT]]:
; VERSIONS-NEXT: br i1 %[[W]], label %narrow.cut, label %dispatch.next
; VERSIONS: narrow.cut:
; VERSIONS-NEXT: call void @uniform_trip_count.narrow_cut(
; VERSIONS: vector.rows:
; VERSIONS-NEXT: call void @uniform_trip_count.vector_rows(
; VERSIONS-LABEL: define internal void @uniform_trip_count.whole_loops(
; VERSIONS-LABEL: define internal void @uniform_trip_count.narrow_cut(
; VERSIONS: %[[N:[0-9]+]] = icmp ult i64 %{{[0-9]+}}, 4
; VERSIONS-NEXT: br i1 %[[N]], label %narrow.group, label %dispatch.next
; VERSIONS: br i1 %{{[0-9]+}}, label %wi.loop0, label %wi.next1, !llvm.loop ![[NARROW:[0-9]+]]
; VERSIONS: narrow.group:
; VERSIONS-NEXT: call void @uniform_trip_count.whole_loops(
; The vector-rows version: rows of 16 work-items, a loop the unroller leaves
; to the vectorizer.
; VERSIONS-LABEL: define internal void @uniform_trip_count.vector_rows(
; VERSIONS: wi.next0:
; VERSIONS: %[[X:[0-9]+]] = icmp ult i64 %{{[0-9]+}}, 16
; VERSIONS-NEXT: br i1 %[[X]], label %wi.loop0, label %wi.next1, !llvm.loop ![[ROWS:[0-9]+]]
; VERSIONS: ![[KEEP:[0-9]+]] = !{!"llvm.loop.unroll.disable"}
; VERSIONS: ![[NARROW]] = distinct !{![[NARROW]], ![[PARALLEL:[0-9]+]], ![[ONE:[0-9]+]]}
; VERSIONS: ![[ONE]] = !{!"llvm.loop.interleave.count", i32 1}
; VERSIONS: ![[ROWS]] = distinct !{![[ROWS]], ![[PARALLEL16:[0-9]+]], ![[ONE]], ![[KEEP]]}

; A work-item loop whose body tests the local id (or the id plus a uniform
; offset: a global id) against a uniform value is split where the answer
; changes; each part knows it. A second round splits the parts at their next
; test.
; RUN: %opt -passes=lockstep-work-item-loop-split -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-work-item-loop-split -lockstep-work-item-split-rounds=1 -S %s \
; RUN:   | FileCheck %s --check-prefix=ONE

; `if ((uint)lid < n)`: [0, min(n, size)) runs the store, the rest does not.
define void @prefix(ptr %out, i32 %n, i64 %size) {
entry:
  br label %wi.loop
wi.loop:
  %x = phi i64 [ 0, %entry ], [ %next, %wi.next ]
  %t = trunc i64 %x to i32
  %c = icmp ult i32 %t, %n
  br i1 %c, label %then, label %wi.next
then:
  %p = getelementptr i32, ptr %out, i64 %x
  store i32 1, ptr %p
  br label %wi.next
wi.next:
  %next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %next, %size
  br i1 %more, label %wi.loop, label %done, !llvm.loop !1, !lockstep.work_item_loop !0
done:
  ret void
}
; CHECK-LABEL: define void @prefix(
; CHECK: %[[N:[0-9]+]] = zext i32 %n to i64
; CHECK-NEXT: %[[END:[0-9]+]] = call i64 @llvm.umin.i64(i64 %[[N]], i64 %size)
; CHECK-NEXT: br label %wi.part0
; CHECK: wi.part0:
; CHECK-NEXT: %[[GO0:[0-9]+]] = icmp ult i64 0, %[[END]]
; CHECK-NEXT: br i1 %[[GO0]], label %wi.loop.part0, label %wi.part1
; CHECK: wi.part1:
; CHECK-NEXT: %[[GO1:[0-9]+]] = icmp ult i64 %[[END]], %size
; CHECK-NEXT: br i1 %[[GO1]], label %wi.loop, label %done
; CHECK: wi.loop:
; CHECK-NEXT: %x = phi i64 [ %[[END]], %wi.part1 ], [ %next, %wi.next ]
; CHECK: br i1 false, label %then, label %wi.next
; CHECK: %more = icmp ult i64 %next, %size
; CHECK-NEXT: br i1 %more, label %wi.loop, label %done, !llvm.loop ![[ORIGINAL:[0-9]+]]{{$}}
; CHECK: wi.loop.part0:
; CHECK-NEXT: %x.part0 = phi i64 [ 0, %wi.part0 ], [ %next.part0, %wi.next.part0 ]
; CHECK: br i1 true, label %then.part0, label %wi.next.part0
; CHECK: %more.part0 = icmp ult i64 %next.part0, %[[END]]
; CHECK-NEXT: br i1 %more.part0, label %wi.loop.part0, label %wi.part1, !llvm.loop ![[COPY:[0-9]+]]

; `if (n >= (int)lid)`, the id on the right and signed: true up to n
; inclusive, nothing when n is negative.
define void @signed_inclusive(ptr %out, i32 %n, i64 %size) {
entry:
  br label %wi.loop
wi.loop:
  %x = phi i64 [ 0, %entry ], [ %next, %wi.next ]
  %t = trunc i64 %x to i32
  %c = icmp sge i32 %n, %t
  br i1 %c, label %then, label %wi.next
then:
  %p = getelementptr i32, ptr %out, i64 %x
  store i32 1, ptr %p
  br label %wi.next
wi.next:
  %next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %next, %size
  br i1 %more, label %wi.loop, label %done, !lockstep.work_item_loop !0
done:
  ret void
}
; CHECK-LABEL: define void @signed_inclusive(
; CHECK: %[[W:[0-9]+]] = sext i32 %n to i64
; CHECK-NEXT: %[[LO:[0-9]+]] = call i64 @llvm.smax.i64(i64 %[[W]], i64 -1)
; CHECK-NEXT: %[[C:[0-9]+]] = call i64 @llvm.smin.i64(i64 %[[LO]], i64 %size)
; CHECK: %[[P:[0-9]+]] = add i64 %[[C]], 1
; CHECK-NEXT: %[[END:[0-9]+]] = call i64 @llvm.umin.i64(i64 %[[P]], i64 %size)
; CHECK: wi.part0:
; CHECK-NEXT: icmp ult i64 0, %[[END]]
; CHECK: wi.loop:
; CHECK-NEXT: %x = phi i64 [ %[[END]], %wi.part1 ]
; CHECK: br i1 false, label %then
; CHECK: wi.loop.part0:
; CHECK: br i1 true, label %then.part0

; `if (lid == 0)`: the one work-item, then the rest; no empty part before it.
; A value the loop computes for every work-item and the code after it uses
; comes from whichever part ran last; one every work-item computes alike
; from values the loop does not change moves before the loop.
define i32 @first_and_live_out(ptr %out, i32 %k, i64 %size) {
entry:
  br label %wi.loop
wi.loop:
  %x = phi i64 [ 0, %entry ], [ %next, %wi.next ]
  %c = icmp eq i64 %x, 0
  br i1 %c, label %then, label %wi.next
then:
  store i32 7, ptr %out
  br label %wi.next
wi.next:
  %xk = trunc i64 %x to i32
  %kk = add i32 %k, 3
  %twice = shl i32 %xk, 1
  %both = add i32 %twice, %kk
  %next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %next, %size
  br i1 %more, label %wi.loop, label %done, !lockstep.work_item_loop !0
done:
  %sum = add i32 %both, %kk
  ret i32 %sum
}
; CHECK-LABEL: define i32 @first_and_live_out(
; CHECK: entry:
; CHECK-NEXT: %kk = add i32 %k, 3
; CHECK: %[[END:[0-9]+]] = call i64 @llvm.umin.i64(i64 1, i64 %size)
; CHECK-NOT: wi.part2
; CHECK: wi.part0:
; CHECK-NEXT: icmp ult i64 0, %[[END]]
; CHECK: wi.part1:
; CHECK-NEXT: %both.part = phi i32 [ %both.part0, %wi.next.part0 ], [ poison, %wi.part0 ]
; CHECK-NEXT: %[[GO:[0-9]+]] = icmp ult i64 %[[END]], %size
; CHECK-NEXT: br i1 %[[GO]], label %wi.loop, label %done
; CHECK: done:
; CHECK-NEXT: %both.last = phi i32 [ %both, %wi.next ], [ %both.part, %wi.part1 ]
; CHECK-NEXT: %sum = add i32 %both.last, %kk

; A bound computed in the loop from uniform values moves before it, and is
; then no longer a value the loop leaves behind (CTS basic local_arg_def).
define i32 @bound_in_loop(ptr %out, i32 %count, i64 %size) {
entry:
  br label %wi.loop
wi.loop:
  %x = phi i64 [ 0, %entry ], [ %next, %wi.next ]
  %half = sdiv i32 %count, 2
  %t = trunc i64 %x to i32
  %c = icmp slt i32 %t, %half
  br i1 %c, label %then, label %wi.next
then:
  %p = getelementptr i32, ptr %out, i64 %x
  store i32 1, ptr %p
  br label %wi.next
wi.next:
  %next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %next, %size
  br i1 %more, label %wi.loop, label %done, !lockstep.work_item_loop !0
done:
  ret i32 %half
}
; CHECK-LABEL: define i32 @bound_in_loop(
; CHECK: %half = sdiv i32 %count, 2
; CHECK: br label %wi.part0
; CHECK-NOT: .last
; CHECK: ret i32 %half

; A grid-stride loop's exit test, `lid + offset < n` (unsigned): the ids
; below n - offset pass it; the rest keep the test, where a sum that wraps
; around may pass again. The offset and the bound are kernel arguments,
; which WorkGroupLoops reads before the loops.
define void @offset_id(ptr %out, ptr %args, i64 %size) {
entry:
  %offset = load i64, ptr %args, align 8, !invariant.load !0
  %np = getelementptr i8, ptr %args, i64 8
  %n = load i64, ptr %np, align 8, !invariant.load !0
  br label %wi.loop
wi.loop:
  %x = phi i64 [ 0, %entry ], [ %next, %wi.next ]
  %i = add i64 %x, %offset
  %c = icmp ult i64 %i, %n
  br i1 %c, label %then, label %wi.next
then:
  %p = getelementptr i32, ptr %out, i64 %i
  store i32 1, ptr %p
  br label %wi.next
wi.next:
  %next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %next, %size
  br i1 %more, label %wi.loop, label %done, !lockstep.work_item_loop !0
done:
  ret void
}
; CHECK-LABEL: define void @offset_id(
; CHECK-DAG: %offset = load i64, ptr %args
; CHECK-DAG: %n = load i64, ptr %np
; CHECK: %[[BELOW:[0-9]+]] = icmp ult i64 %offset, %n
; CHECK-NEXT: %[[ROOM:[0-9]+]] = sub i64 %n, %offset
; CHECK-NEXT: %[[MIN:[0-9]+]] = call i64 @llvm.umin.i64(i64 %[[ROOM]], i64 %size)
; CHECK-NEXT: %wi.passing = select i1 %[[BELOW]], i64 %[[MIN]], i64 0
; CHECK: wi.loop:
; CHECK: %c = icmp ult i64 %i, %n
; CHECK: wi.loop.part0:
; CHECK-NOT: icmp ult i64 %i.part0
; CHECK: br i1 true, label %then.part0

; `if (get_global_id(0) == 0)`, `lid + base == 0`: the one work-item with
; lid == 0 - base, none when the sum wraps past every id (a later group).
define void @offset_equal(ptr %out, ptr %args, i64 %size) {
entry:
  %base = load i64, ptr %args, align 8, !invariant.load !0
  br label %wi.loop
wi.loop:
  %x = phi i64 [ 0, %entry ], [ %next, %wi.next ]
  %gid = add i64 %x, %base
  %c = icmp eq i64 %gid, 0
  br i1 %c, label %then, label %wi.next
then:
  store i32 1, ptr %out
  br label %wi.next
wi.next:
  %next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %next, %size
  br i1 %more, label %wi.loop, label %done, !lockstep.work_item_loop !0
done:
  ret void
}
; CHECK-LABEL: define void @offset_equal(
; CHECK: %[[T:[0-9]+]] = sub i64 0, %base
; CHECK-NEXT: %[[C:[0-9]+]] = call i64 @llvm.umin.i64(i64 %[[T]], i64 %size)
; CHECK-NEXT: %[[P:[0-9]+]] = add i64 %[[C]], 1
; CHECK-NEXT: %[[PAST:[0-9]+]] = call i64 @llvm.umin.i64(i64 %[[P]], i64 %size)
; CHECK: wi.part0:
; CHECK-NEXT: icmp ult i64 0, %[[C]]
; CHECK: wi.part1:
; CHECK: icmp ult i64 %[[C]], %[[PAST]]
; CHECK: wi.part2:
; CHECK: icmp ult i64 %[[PAST]], %size
; CHECK: wi.loop:
; CHECK: br i1 false, label %then
; CHECK: wi.loop.part0:
; CHECK: br i1 false, label %then.part0
; CHECK: wi.loop.part1:
; CHECK: br i1 true, label %then.part1

; `int row = get_global_id(0); if (row < m) { for (k ...) ... }`: the sum's
; truncation to i32 against a signed bound, around a kernel loop. The ids
; below m - offset pass (the sum climbs to m at most there: no wrap); the
; rest keep the test.
define void @signed_global_id(ptr %out, ptr %args, i64 %size) {
entry:
  %base = load i64, ptr %args, align 8, !invariant.load !0
  %mp = getelementptr i8, ptr %args, i64 8
  %m = load i32, ptr %mp, align 4, !invariant.load !0
  br label %wi.loop
wi.loop:
  %x = phi i64 [ 0, %entry ], [ %next, %wi.next ]
  %gid = add i64 %base, %x
  %row = trunc i64 %gid to i32
  %c = icmp slt i32 %row, %m
  br i1 %c, label %then, label %wi.next
then:
  br label %k.loop
k.loop:
  %k = phi i64 [ 0, %then ], [ %k.next, %k.loop ]
  %p = getelementptr i32, ptr %out, i64 %k
  store i32 1, ptr %p
  %k.next = add nuw nsw i64 %k, 1
  %k.more = icmp ult i64 %k.next, 8
  br i1 %k.more, label %k.loop, label %wi.next
wi.next:
  %next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %next, %size
  br i1 %more, label %wi.loop, label %done, !lockstep.work_item_loop !0
done:
  ret void
}
; CHECK-LABEL: define void @signed_global_id(
; CHECK: %[[OFF:[0-9]+]] = trunc i64 %base to i32
; CHECK-NEXT: %[[FIRST:[0-9]+]] = sext i32 %[[OFF]] to i64
; CHECK-NEXT: %[[M:[0-9]+]] = sext i32 %m to i64
; CHECK-NEXT: %[[ROOM:[0-9]+]] = sub i64 %[[M]], %[[FIRST]]
; CHECK-NEXT: %[[POS:[0-9]+]] = call i64 @llvm.smax.i64(i64 %[[ROOM]], i64 0)
; CHECK-NEXT: %wi.passing = call i64 @llvm.umin.i64(i64 %[[POS]], i64 %size)
; CHECK: wi.loop:
; CHECK: %c = icmp slt i32 %row, %m
; CHECK: wi.loop.part0:
; CHECK-NOT: icmp slt i32 %row.part0
; CHECK: br i1 true, label %then.part0

; Left alone: the same test around no kernel loop (a masked store costs less
; than the copies).
define void @signed_no_kernel_loop(ptr %out, ptr %args, i64 %size) {
entry:
  %base = load i64, ptr %args, align 8, !invariant.load !0
  %mp = getelementptr i8, ptr %args, i64 8
  %m = load i32, ptr %mp, align 4, !invariant.load !0
  br label %wi.loop
wi.loop:
  %x = phi i64 [ 0, %entry ], [ %next, %wi.next ]
  %gid = add i64 %base, %x
  %row = trunc i64 %gid to i32
  %c = icmp slt i32 %row, %m
  br i1 %c, label %then, label %wi.next
then:
  %p = getelementptr i32, ptr %out, i64 %gid
  store i32 1, ptr %p
  br label %wi.next
wi.next:
  %next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %next, %size
  br i1 %more, label %wi.loop, label %done, !lockstep.work_item_loop !0
done:
  ret void
}
; CHECK-LABEL: define void @signed_no_kernel_loop(
; CHECK-NOT: wi.part
; CHECK: ret void

; A linear local id in 2-D groups, `ly * 16 + lx < o` (a tree level): the
; sum of local ids cannot wrap, so around no kernel loop too each row splits
; at o - ly * 16, and the rest of the row knows the test fails. Past the first
; row, a row none of whose work-items pass ends the loop over the rows (all
; its work is behind the test, and later rows pass fewer).
define void @linear_local_id(ptr %args, ptr %group, i32 %o) {
entry:
  %lsyp = getelementptr i8, ptr %group, i64 32
  %lsy = load i64, ptr %lsyp, align 8, !invariant.load !0
  br label %row.loop
row.loop:
  %y = phi i64 [ 0, %entry ], [ %y.next, %row.next ]
  br label %wi.loop
wi.loop:
  %x = phi i64 [ 0, %row.loop ], [ %next, %wi.next ]
  %ty = trunc i64 %y to i32
  %rowbase = shl nsw i32 %ty, 4
  %tx = trunc i64 %x to i32
  %l = add nsw i32 %rowbase, %tx
  %c = icmp slt i32 %l, %o
  br i1 %c, label %then, label %wi.next
then:
  %l64 = sext i32 %l to i64
  %p = getelementptr float, ptr %args, i64 %l64
  store float 1.0, ptr %p
  br label %wi.next
wi.next:
  %next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %next, 16
  br i1 %more, label %wi.loop, label %row.next, !lockstep.work_item_loop !0
row.next:
  %y.next = add nuw nsw i64 %y, 1
  %rows = icmp ult i64 %y.next, %lsy
  br i1 %rows, label %row.loop, label %done
done:
  ret void
}
; CHECK-LABEL: define void @linear_local_id(
; CHECK: row.loop:
; CHECK: %[[ROWBASE:[a-z0-9]+]] = shl nsw i32 %ty, 4
; CHECK: %[[FIRST:[0-9]+]] = sext i32 %[[ROWBASE]] to i64
; CHECK: %[[ROOM:[0-9]+]] = sub i64 %{{[0-9]+}}, %[[FIRST]]
; CHECK: %wi.passing = call i64 @llvm.umin.i64(
; CHECK: %[[IDLE:[0-9]+]] = icmp eq i64 %wi.passing, 0
; CHECK-NEXT: %[[LATER:[0-9]+]] = icmp ne i64 %y, 0
; CHECK-NEXT: %[[END:[0-9]+]] = and i1 %[[IDLE]], %[[LATER]]
; CHECK-NEXT: br i1 %[[END]], label %done, label %wi.part0
; CHECK: wi.loop:
; CHECK: br i1 false, label %then, label %wi.next
; CHECK: wi.loop.part0:
; CHECK: br i1 true, label %then.part0

; Every row runs when a work-item also works outside the test.
define void @linear_local_id_all_rows(ptr %args, ptr %group, i32 %o) {
entry:
  %lsyp = getelementptr i8, ptr %group, i64 32
  %lsy = load i64, ptr %lsyp, align 8, !invariant.load !0
  br label %row.loop
row.loop:
  %y = phi i64 [ 0, %entry ], [ %y.next, %row.next ]
  br label %wi.loop
wi.loop:
  %x = phi i64 [ 0, %row.loop ], [ %next, %wi.next ]
  %ty = trunc i64 %y to i32
  %rowbase = shl nsw i32 %ty, 4
  %tx = trunc i64 %x to i32
  %l = add nsw i32 %rowbase, %tx
  %c = icmp slt i32 %l, %o
  br i1 %c, label %then, label %wi.next
then:
  %l64 = sext i32 %l to i64
  %p = getelementptr float, ptr %args, i64 %l64
  store float 1.0, ptr %p
  br label %wi.next
wi.next:
  %q = getelementptr i32, ptr %group, i64 %x
  store i32 %l, ptr %q
  %next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %next, 16
  br i1 %more, label %wi.loop, label %row.next, !lockstep.work_item_loop !0
row.next:
  %y.next = add nuw nsw i64 %y, 1
  %rows = icmp ult i64 %y.next, %lsy
  br i1 %rows, label %row.loop, label %done
done:
  ret void
}
; CHECK-LABEL: define void @linear_local_id_all_rows(
; CHECK: %wi.passing = call i64 @llvm.umin.i64(
; CHECK-NOT: icmp ne i64 %y, 0
; CHECK: ret void

; Left alone: the same sum with a counter that is no local id (its loop ends
; at a kernel argument, so it may be as large as that).
define void @linear_not_local(ptr %args, ptr %group, i32 %o, i64 %n) {
entry:
  br label %row.loop
row.loop:
  %y = phi i64 [ 0, %entry ], [ %y.next, %row.next ]
  br label %wi.loop
wi.loop:
  %x = phi i64 [ 0, %row.loop ], [ %next, %wi.next ]
  %ty = trunc i64 %y to i32
  %rowbase = shl nsw i32 %ty, 4
  %tx = trunc i64 %x to i32
  %l = add nsw i32 %rowbase, %tx
  %c = icmp slt i32 %l, %o
  br i1 %c, label %then, label %wi.next
then:
  %l64 = sext i32 %l to i64
  %p = getelementptr float, ptr %args, i64 %l64
  store float 1.0, ptr %p
  br label %wi.next
wi.next:
  %next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %next, 16
  br i1 %more, label %wi.loop, label %row.next, !lockstep.work_item_loop !0
row.next:
  %y.next = add nuw nsw i64 %y, 1
  %rows = icmp ult i64 %y.next, %n
  br i1 %rows, label %row.loop, label %done
done:
  ret void
}
; CHECK-LABEL: define void @linear_not_local(
; CHECK-NOT: wi.part
; CHECK: ret void

; Two tests, `if (lid == 0)` and `if (lid == 15)` (a tile's halo along x):
; the first round splits at the first, the second splits each part at the
; second, so the parts in [1, 15) run neither store. Parts whose bounds are
; constants (at most 15 work-items) fold their tails into a masked vector
; iteration; the last part, up to the group's size, does not.
define void @two_edges(ptr %out, i64 %size) {
entry:
  br label %wi.loop
wi.loop:
  %x = phi i64 [ 0, %entry ], [ %next, %wi.next ]
  %t = trunc i64 %x to i32
  %p = getelementptr i32, ptr %out, i64 %x
  store i32 0, ptr %p
  %first = icmp eq i32 %t, 0
  br i1 %first, label %left, label %mid
left:
  store i32 1, ptr %out
  br label %mid
mid:
  %last = icmp eq i32 %t, 15
  br i1 %last, label %right, label %wi.next
right:
  %q = getelementptr i32, ptr %out, i64 16
  store i32 2, ptr %q
  br label %wi.next
wi.next:
  %next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %next, %size
  br i1 %more, label %wi.loop, label %done, !llvm.loop !1, !lockstep.work_item_loop !0
done:
  ret void
}
; CHECK-LABEL: define void @two_edges(
; CHECK-NOT:     icmp eq i32
; CHECK:       wi.loop:
; CHECK:         br i1 false, label %left, label %mid
; CHECK:       mid:
; CHECK-NEXT:    br i1 false, label %right, label %wi.next
; CHECK:         br i1 %more, label %wi.loop, label %done, !llvm.loop ![[ORIGINAL]]{{$}}
; CHECK:       wi.loop.part0:
; CHECK:         br i1 true, label %left.part0, label %mid.part0
; CHECK-NOT:     icmp eq i32
; CHECK:         br i1 %more.part016, label %wi.loop.part06, label %wi.part14, !llvm.loop ![[MIDDLE:[0-9]+]]{{$}}
; ONE-LABEL: define void @two_edges(
; ONE:         br i1 false, label %left, label %mid
; ONE:         %last = icmp eq i32 %t, 15
; ONE:         br i1 true, label %left.part0, label %mid.part0
; ONE:         %last.part0 = icmp eq i32 %t.part0, 15
; ONE-LABEL: define void @left_alone(

; Left alone: a bound that differs per work-item, a test of something other
; than the id, and a loop WorkGroupLoops did not mark.
define void @left_alone(ptr %out, ptr %bounds, i64 %size) {
entry:
  br label %wi.loop
wi.loop:
  %x = phi i64 [ 0, %entry ], [ %next, %wi.next ]
  %bp = getelementptr i64, ptr %bounds, i64 %x
  %b = load i64, ptr %bp
  %c = icmp ult i64 %x, %b
  br i1 %c, label %then, label %wi.next
then:
  %twice = shl i64 %x, 1
  %d = icmp ult i64 %twice, %size
  br i1 %d, label %store, label %wi.next
store:
  store i32 1, ptr %out
  br label %wi.next
wi.next:
  %next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %next, %size
  br i1 %more, label %wi.loop, label %other, !lockstep.work_item_loop !0
other:
  %y = phi i64 [ 0, %wi.next ], [ %ynext, %other ]
  %e = icmp ult i64 %y, 5
  %ynext = add nuw nsw i64 %y, 1
  %ymore = icmp ult i64 %ynext, %size
  br i1 %ymore, label %other, label %done
done:
  ret void
}
; CHECK-LABEL: define void @left_alone(
; CHECK-NOT: wi.part
; CHECK: ret void

!0 = !{}
!1 = distinct !{!1, !2}
!2 = !{!"llvm.loop.parallel_accesses", !3}
!3 = distinct !{}
; CHECK-DAG: ![[ORIGINAL]] = distinct !{![[ORIGINAL]], ![[PARALLEL:[0-9]+]]}
; CHECK-DAG: ![[COPY]] = distinct !{![[COPY]], ![[PARALLEL]]}
; CHECK-DAG: ![[MIDDLE]] = distinct !{![[MIDDLE]], ![[PARALLEL]], ![[FOLD:[0-9]+]]}
; CHECK-DAG: ![[FOLD]] = !{!"llvm.loop.vectorize.predicate.enable", i1 true}

; A work-item loop that clamps indices of the work-item into [0, width - 1]
; is split into three: an edge loop for the work-items before the interior
; (scalar: llvm.loop.isvectorized), the interior, where no clamp changes
; its operand, the bounds test before the store is settled and its branch
; always taken, and the loop as it was for the rest (and for every
; work-item when the check finds no interior). Equality tests of a
; coordinate (a stencil's border) are settled too. Loops that clamp something
; else, leave a value behind or are not work-item loops stay as they are.
; RUN: %opt -passes=lockstep-interior-versioning -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define void @row(
; The check: the interior's bounds, taken to the counter's type.
; CHECK:       %interior = and i1
; CHECK:       %interior.begin = select i1 %interior, i64 %{{.*}}, i64 0
; CHECK:       %interior.end = select i1 %interior, i64 %{{.*}}, i64 0
; CHECK:       br i1 %{{.*}}, label %interior.rest.edge, label %interior.enter
; The edge loop: [0, begin), as written.
; CHECK:       wi.loop.edge:
; CHECK-NEXT:    %lid.edge = phi i64 [ 0, %interior.rest.edge ]
; CHECK:         call i32 @llvm.smin.i32(i32 %left.lo.edge, i32 %last.x)
; CHECK:         %done.edge = icmp eq i64 %next.edge, %interior.begin
; CHECK-NEXT:    br i1 %done.edge, label %interior.enter, label %wi.loop.edge, !llvm.loop ![[EDGE:[0-9]+]]
; CHECK:       interior.enter:
; CHECK-NEXT:    %[[ANY:.*]] = icmp ult i64 %interior.begin, %interior.end
; CHECK-NEXT:    br i1 %[[ANY]], label %interior.rest.interior, label %interior.leave
; The interior: [begin, end), the guard taken, loads through x - 1 and x + 1.
; CHECK:       wi.loop.interior:
; CHECK-NEXT:    %lid.interior = phi i64 [ %interior.begin, %interior.rest.interior ]
; CHECK:         br label %body.interior
; CHECK:       body.interior:
; CHECK:         %left.i.interior = sext i32 %x.left.interior to i64
; CHECK-NEXT:    %right.i.interior = sext i32 %x.right.interior to i64
; CHECK:         %done.interior = icmp eq i64 %next.interior, %interior.end
; CHECK-NEXT:    br i1 %done.interior, label %interior.leave, label %wi.loop.interior, !llvm.loop ![[INTERIOR:[0-9]+]]
; The rest: [end, count), or all of it when there is no interior.
; CHECK:       interior.leave:
; CHECK:         %[[NONE:.*]] = xor i1 %interior, true
; CHECK:         br i1 %{{.*}}, label %interior.rest, label %exit
; CHECK:       wi.loop:
; CHECK-NEXT:    %lid = phi i64 [ %interior.end, %interior.rest ]
; CHECK:         br i1 %inside, label %body, label %wi.next
; CHECK:         %left = call i32 @llvm.smin.i32(i32 %left.lo, i32 %last.x)
; CHECK:         %done = icmp eq i64 %next, %count
define void @row(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %base, i32 %width, i64 %size) #0 {
entry:
  %count = call i64 @llvm.umax.i64(i64 %size, i64 1)
  %last.x = add nsw i32 %width, -1
  br label %wi.loop

wi.loop:
  %lid = phi i64 [ 0, %entry ], [ %next, %wi.next ]
  %gid = add i64 %base, %lid
  %x = trunc i64 %gid to i32
  %inside = icmp ult i32 %x, %width
  br i1 %inside, label %body, label %wi.next

body:
  %x.left = add nsw i32 %x, -1
  %left.lo = call i32 @llvm.smax.i32(i32 %x.left, i32 0)
  %left = call i32 @llvm.smin.i32(i32 %left.lo, i32 %last.x)
  %x.right = add nsw i32 %x, 1
  %right.lo = call i32 @llvm.smax.i32(i32 %x.right, i32 0)
  %right = call i32 @llvm.smin.i32(i32 %right.lo, i32 %last.x)
  %left.i = sext i32 %left to i64
  %right.i = sext i32 %right to i64
  %p.left = getelementptr inbounds float, ptr addrspace(1) %in, i64 %left.i
  %p.right = getelementptr inbounds float, ptr addrspace(1) %in, i64 %right.i
  %v.left = load float, ptr addrspace(1) %p.left, align 4, !llvm.access.group !1
  %v.right = load float, ptr addrspace(1) %p.right, align 4, !llvm.access.group !1
  %sum = fadd float %v.left, %v.right
  %x.i = sext i32 %x to i64
  %p.out = getelementptr inbounds float, ptr addrspace(1) %out, i64 %x.i
  store float %sum, ptr addrspace(1) %p.out, align 4, !llvm.access.group !1
  br label %wi.next

wi.next:
  %next = add nuw i64 %lid, 1
  %done = icmp eq i64 %next, %count
  br i1 %done, label %exit, label %wi.loop, !llvm.loop !0

exit:
  ret void
}

; A stencil's border tests, without clamps (`x == 0 || x == width - 1`): in
; the interior, where the run does not reach 0 or width - 1, both are false.
; Runs shorter than 64 work-items skip the check and take the loop as it was.
; CHECK-LABEL: define void @border(
; CHECK:       %[[LONG:[0-9]+]] = icmp uge i64 %count, 64
; CHECK-NEXT:  br i1 %[[LONG]], label %interior.check, label %interior.decided
; CHECK:       interior.check:
; CHECK:       %interior = and i1
; CHECK:       interior.decided:
; CHECK-NEXT:    %interior.begin.checked = phi i64 [ %interior.begin, %interior.check ], [ 0, %entry ]
; CHECK-NEXT:    %interior.end.checked = phi i64 [ %interior.end, %interior.check ], [ 0, %entry ]
; CHECK-NEXT:    %interior.checked = phi i1 [ %interior, %interior.check ], [ false, %entry ]
; CHECK:       wi.loop.interior:
; CHECK:         %edge.interior = or i1 false, false
; CHECK:       wi.loop:
; CHECK:         %at.first = icmp eq i32 %x, 0
; CHECK-NEXT:    %at.last = icmp eq i32 %x, %last.x
define void @border(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %base, i32 %width, i64 %size) #0 {
entry:
  %count = call i64 @llvm.umax.i64(i64 %size, i64 1)
  %last.x = add nsw i32 %width, -1
  br label %wi.loop

wi.loop:
  %lid = phi i64 [ 0, %entry ], [ %next, %wi.next ]
  %gid = add i64 %base, %lid
  %x = trunc i64 %gid to i32
  %at.first = icmp eq i32 %x, 0
  %at.last = icmp eq i32 %x, %last.x
  %edge = or i1 %at.first, %at.last
  %x.i = sext i32 %x to i64
  %p.out = getelementptr inbounds float, ptr addrspace(1) %out, i64 %x.i
  br i1 %edge, label %copy, label %average

copy:
  %p.in = getelementptr inbounds float, ptr addrspace(1) %in, i64 %x.i
  %v = load float, ptr addrspace(1) %p.in, align 4, !llvm.access.group !1
  store float %v, ptr addrspace(1) %p.out, align 4, !llvm.access.group !1
  br label %wi.next

average:
  %x.left = add nsw i32 %x, -1
  %x.right = add nsw i32 %x, 1
  %left.i = sext i32 %x.left to i64
  %right.i = sext i32 %x.right to i64
  %p.left = getelementptr inbounds float, ptr addrspace(1) %in, i64 %left.i
  %p.right = getelementptr inbounds float, ptr addrspace(1) %in, i64 %right.i
  %v.left = load float, ptr addrspace(1) %p.left, align 4, !llvm.access.group !1
  %v.right = load float, ptr addrspace(1) %p.right, align 4, !llvm.access.group !1
  %sum = fadd float %v.left, %v.right
  store float %sum, ptr addrspace(1) %p.out, align 4, !llvm.access.group !1
  br label %wi.next

wi.next:
  %next = add nuw i64 %lid, 1
  %done = icmp eq i64 %next, %count
  br i1 %done, label %exit, label %wi.loop, !llvm.loop !5

exit:
  ret void
}

; A clamp of a loaded value: no recurrence of the loop, no copy.
; CHECK-LABEL: define void @loaded(
; CHECK-NOT:   interior
; CHECK:       ret void
define void @loaded(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %width, i64 %size) #0 {
entry:
  %count = call i64 @llvm.umax.i64(i64 %size, i64 1)
  br label %wi.loop

wi.loop:
  %lid = phi i64 [ 0, %entry ], [ %next, %wi.loop ]
  %p.index = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %lid
  %index = load i32, ptr addrspace(1) %p.index, align 4, !llvm.access.group !1
  %clamped = call i32 @llvm.smin.i32(i32 %index, i32 %width)
  %p.out = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %lid
  store i32 %clamped, ptr addrspace(1) %p.out, align 4, !llvm.access.group !1
  %next = add nuw i64 %lid, 1
  %done = icmp eq i64 %next, %count
  br i1 %done, label %exit, label %wi.loop, !llvm.loop !3

exit:
  ret void
}

; A loop that is not a work-item loop (no parallel accesses): no copy.
; CHECK-LABEL: define void @serial(
; CHECK-NOT:   interior
; CHECK:       ret void
define void @serial(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %width, i64 %size) #0 {
entry:
  %count = call i64 @llvm.umax.i64(i64 %size, i64 1)
  %last.x = add nsw i32 %width, -1
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %x = trunc i64 %i to i32
  %x.right = add nsw i32 %x, 1
  %right = call i32 @llvm.smin.i32(i32 %x.right, i32 %last.x)
  %right.i = sext i32 %right to i64
  %p.in = getelementptr inbounds float, ptr addrspace(1) %in, i64 %right.i
  %v = load float, ptr addrspace(1) %p.in, align 4
  %p.out = getelementptr inbounds float, ptr addrspace(1) %out, i64 %i
  store float %v, ptr addrspace(1) %p.out, align 4
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %count
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; A value the loop leaves behind (the last clamped index): no copy.
; CHECK-LABEL: define i32 @live_out(
; CHECK-NOT:   interior
; CHECK:       ret i32
define i32 @live_out(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %width, i64 %size) #0 {
entry:
  %count = call i64 @llvm.umax.i64(i64 %size, i64 1)
  %last.x = add nsw i32 %width, -1
  br label %wi.loop

wi.loop:
  %lid = phi i64 [ 0, %entry ], [ %next, %wi.loop ]
  %x = trunc i64 %lid to i32
  %x.right = add nsw i32 %x, 1
  %right = call i32 @llvm.smin.i32(i32 %x.right, i32 %last.x)
  %right.i = sext i32 %right to i64
  %p.in = getelementptr inbounds float, ptr addrspace(1) %in, i64 %right.i
  %v = load float, ptr addrspace(1) %p.in, align 4, !llvm.access.group !1
  %p.out = getelementptr inbounds float, ptr addrspace(1) %out, i64 %lid
  store float %v, ptr addrspace(1) %p.out, align 4, !llvm.access.group !1
  %next = add nuw i64 %lid, 1
  %done = icmp eq i64 %next, %count
  br i1 %done, label %exit, label %wi.loop, !llvm.loop !4

exit:
  %last = phi i32 [ %right, %wi.loop ]
  ret i32 %last
}

; A part of a loop WorkItemLoopSplitPass split (its ids from %first), whose
; neighbour is clamped the way InstCombine turns `(x - 1 < lo) ? lo : x - 1`
; around, `lo < x ? x - 1 : lo` (no min for scalar evolution): the interior
; is where the test picks x - 1, the test's answer there true, so the load
; runs consecutive; the edge loop starts at %first.
; CHECK-LABEL: define void @part(
; CHECK:       %interior.begin = select i1 %interior, i64 %{{.*}}, i64 %first
; CHECK:       wi.loop.edge:
; CHECK-NEXT:    %lid.edge = phi i64 [ %first, %interior.rest.edge ]
; CHECK:       wi.loop.interior:
; CHECK:         %w.interior = select i1 true, i32 %w.moved.interior, i32 %lo
; CHECK:       wi.loop:
; CHECK:         %w = select i1 %picks, i32 %w.moved, i32 %lo
define void @part(ptr addrspace(3) %tile, ptr addrspace(1) %out, i64 %first, i64 %count, i32 %lo) #0 {
entry:
  br label %wi.loop

wi.loop:
  %lid = phi i64 [ %first, %entry ], [ %next, %wi.loop ]
  %x = trunc i64 %lid to i32
  %picks = icmp slt i32 %lo, %x
  %w.moved = add nsw i32 %x, -1
  %w = select i1 %picks, i32 %w.moved, i32 %lo
  %w.i = sext i32 %w to i64
  %p.w = getelementptr inbounds i32, ptr addrspace(3) %tile, i64 %w.i
  %v = load i32, ptr addrspace(3) %p.w, align 4, !llvm.access.group !1
  %p.out = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %lid
  store i32 %v, ptr addrspace(1) %p.out, align 4, !llvm.access.group !1
  %next = add nuw i64 %lid, 1
  %done = icmp ult i64 %next, %count
  br i1 %done, label %wi.loop, label %exit, !llvm.loop !6

exit:
  ret void
}

declare i64 @llvm.umax.i64(i64, i64)
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.smin.i32(i32, i32)

attributes #0 = { "lockstep-work-group-code" }
!0 = distinct !{!0, !2}
!1 = distinct !{}
!2 = !{!"llvm.loop.parallel_accesses", !1}
!3 = distinct !{!3, !2}
!4 = distinct !{!4, !2}
!5 = distinct !{!5, !2}

; CHECK:     ![[EDGE]] = distinct !{![[EDGE]], ![[PARALLEL:[0-9]+]], ![[SCALAR:[0-9]+]]}
; CHECK:     ![[SCALAR]] = !{!"llvm.loop.isvectorized", i32 1}
; CHECK:     ![[INTERIOR]] = distinct !{![[INTERIOR]], ![[PARALLEL]]}
!6 = distinct !{!6, !2}

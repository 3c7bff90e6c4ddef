; A work-item loop that divides its ids by a divisor it does not change
; (`x = gid % w; y = gid / w`) runs in runs of one quotient: before each run
; the quotient is divided once and the run ends where the remainder would
; reach the divisor (or, unsigned, where the dividend would wrap); in the
; run's copy, counted from 0, the quotient is that value, the remainder the
; dividend less quotient * divisor, another counter starts where the run's
; first trip has it, and what only the quotient feeds moves before the run.
; The loop as written runs when a divisor is below 16 and, for a signed
; division, when the dividend may be negative or overflow. A constant
; divisor and a dividend that does not step by one are left alone.
; RUN: %opt -passes=lockstep-division-runs -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-division-runs -lockstep-division-runs=false -S %s | FileCheck %s --check-prefix=OFF

define void @rows(ptr %in, ptr %out, i64 %base, i32 %w, i32 %h, i64 %n) #0 {
entry:
  %first = trunc i64 %base to i32
  br label %loop
loop:
  %lid = phi i64 [ 0, %entry ], [ %next, %latch ]
  %iv = phi i32 [ %first, %entry ], [ %iv.next, %latch ]
  %gid = add i64 %base, %lid
  %tid = trunc i64 %gid to i32
  %y = udiv i32 %tid, %w
  %x = urem i32 %iv, %w
  %inside = icmp ult i32 %y, %h
  br i1 %inside, label %body, label %latch
body:
  %row = mul i32 %y, %w
  %i = add i32 %row, %x
  %i64 = zext i32 %i to i64
  %src = getelementptr float, ptr %in, i64 %i64
  %v = load float, ptr %src, align 4, !llvm.access.group !0
  %dst = getelementptr float, ptr %out, i64 %gid
  store float %v, ptr %dst, align 4, !llvm.access.group !0
  br label %latch
latch:
  %next = add nuw nsw i64 %lid, 1
  %iv.next = add i32 %iv, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop, !llvm.loop !1
exit:
  ret void
}
; CHECK-LABEL: define void @rows(
; The check: the divisor at least 16.
; CHECK: entry:
; CHECK: [[OK:%.*]] = icmp uge i32 %w, 16
; CHECK: br i1 {{.*}}, label %runs, label %runs.not
; Each run: its quotient, the trips left in the row or before the wrap.
; CHECK: runs:
; CHECK-NEXT: %run.first = phi i64 [ 0, %entry ], [ %run.end, %runs.next ]
; CHECK: %run.dividend = add i32
; CHECK: %run.quotient = udiv i32 %run.dividend, %w
; CHECK: %run.left = zext i32
; CHECK: call i64 @llvm.umin.i64(i64 %run.left,
; CHECK: %run.end = call i64 @llvm.umin.i64(i64 %n,
; The other counter starts at the run's first trip.
; CHECK: %run.start = add i32 %first,
; CHECK: %run.trips = sub i64 %run.end, %run.first
; CHECK: br label %[[PRE:.*]]
; The row and its test moved out of the run.
; CHECK: [[PRE]]:
; CHECK-NEXT: %row.run = mul i32 %run.quotient, %w
; CHECK-NEXT: %inside.run = icmp ult i32 %run.quotient, %h
; In the run: no division; the remainder from the quotient.
; CHECK: loop.run:
; CHECK-NEXT: %lid.run = phi i64 [ 0, %[[PRE]] ], [ %next.run, %latch.run ]
; CHECK-NEXT: %iv.run = phi i32 [ %run.start, %[[PRE]] ], [ %iv.next.run, %latch.run ]
; CHECK-NEXT: %run.id = add i64 %lid.run, %run.first
; CHECK-NEXT: %gid.run = add i64 %base, %run.id
; CHECK-NOT: udiv
; CHECK-NOT: urem
; CHECK: %run.remainder = sub i32 %iv.run,
; CHECK: body.run:
; CHECK-NEXT: %i.run = add i32 %row.run, %run.remainder
; CHECK: latch.run:
; CHECK: %done.run = icmp eq i64 %next.run, %run.trips
; CHECK-NEXT: br i1 %done.run, label %runs.next, label %loop.run, !llvm.loop [[RUNLOOP:![0-9]+]]
; CHECK: runs.next:
; CHECK-NEXT: icmp ult i64 %run.end, %n
; The loop as written, for the launches the check turns away.
; CHECK: runs.not:
; CHECK: loop:
; CHECK: udiv i32 %tid, %w
; CHECK: urem i32 %iv, %w
; CHECK: br i1 %done, label %exit, label %loop, !llvm.loop [[ORIG:![0-9]+]]
; OFF-LABEL: define void @rows(
; OFF-NOT: runs:
; OFF: udiv i32 %tid, %w

; `int x = gid % w`: the runs need the dividend non-negative, with no
; overflow before the last work-item, and the divisor at least 16 (signed);
; the run divides unsigned. The body uses the next id (`lid + 1`).
define void @signedRows(ptr %out, i64 %base, i32 %w, i64 %n) #0 {
entry:
  br label %loop
loop:
  %lid = phi i64 [ 0, %entry ], [ %next, %loop ]
  %gid = add i64 %base, %lid
  %tid = trunc i64 %gid to i32
  %x = srem i32 %tid, %w
  %next = add nuw nsw i64 %lid, 1
  %dst = getelementptr i32, ptr %out, i64 %next
  store i32 %x, ptr %dst, align 4, !llvm.access.group !0
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop, !llvm.loop !3
exit:
  ret void
}
; CHECK-LABEL: define void @signedRows(
; CHECK: entry:
; CHECK: icmp sge i32 %w, 16
; CHECK: sub i32 2147483647, [[X0:%.*]]
; CHECK: icmp sge i32 [[X0]], 0
; CHECK: icmp ule i64
; CHECK: runs:
; CHECK: %run.quotient = udiv i32 %run.dividend, %w
; No wrap bound: the check rules it out.
; CHECK-NOT: select
; CHECK: loop.run:
; CHECK-NOT: srem
; CHECK: %run.remainder = sub i32 %tid.run,
; The next id, where the body uses it, is the run's too; the exit test
; counts the run's trips.
; CHECK: %next.run = add nuw nsw i64 %lid.run, 1
; CHECK-NEXT: %run.next.id = add i64 %next.run, %run.first
; CHECK-NEXT: %dst.run = getelementptr i32, ptr %out, i64 %run.next.id
; CHECK: %done.run = icmp eq i64 %next.run, %run.trips
; CHECK: runs.not:
; CHECK: srem i32 %tid, %w

; A constant divisor below 16 and a dividend the work-items do not step by
; one are left alone.
define void @notTaken(ptr %out, i64 %base, i32 %w, i64 %n) #0 {
entry:
  br label %loop
loop:
  %lid = phi i64 [ 0, %entry ], [ %next, %loop ]
  %gid = add i64 %base, %lid
  %tid = trunc i64 %gid to i32
  %a = udiv i32 %tid, 10
  %twice = shl i32 %tid, 1
  %b = udiv i32 %twice, %w
  %s = add i32 %a, %b
  %dst = getelementptr i32, ptr %out, i64 %gid
  store i32 %s, ptr %dst, align 4, !llvm.access.group !0
  %next = add nuw nsw i64 %lid, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop, !llvm.loop !4
exit:
  ret void
}
; CHECK-LABEL: define void @notTaken(
; CHECK-NOT: runs:
; CHECK: udiv i32 %tid, 10
; CHECK: udiv i32 %twice, %w
; CHECK: ret void

; Constant divisors: InstCombine's shift and mask for a power of two (`lid /
; 64`, `lid % 64`) and a division by 1000, not one by 32; no check is left.
define void @constants(ptr %out, i64 %base, i64 %n) #0 {
entry:
  br label %loop
loop:
  %lid = phi i64 [ 0, %entry ], [ %next, %loop ]
  %gid = add i64 %base, %lid
  %tid = trunc i64 %gid to i32
  %warp = lshr i32 %tid, 6
  %lane = and i32 %tid, 63
  %small = lshr i32 %tid, 5
  %row = udiv i32 %tid, 1000
  %s = add i32 %warp, %lane
  %t0 = add i32 %s, %row
  %t = add i32 %t0, %small
  %dst = getelementptr i32, ptr %out, i64 %gid
  store i32 %t, ptr %dst, align 4, !llvm.access.group !0
  %next = add nuw nsw i64 %lid, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop, !llvm.loop !5
exit:
  ret void
}
; CHECK-LABEL: define void @constants(
; CHECK: entry:
; CHECK-NEXT: sub i64 %n, 0
; CHECK-NEXT: trunc i64 %base to i32
; CHECK-NEXT: br i1 true, label %runs, label %runs.not
; CHECK: runs:
; CHECK: %run.quotient = udiv i32 %run.dividend, 64
; CHECK: %run.quotient{{[0-9]+}} = udiv i32 %run.dividend{{[0-9]+}}, 1000
; CHECK: loop.run:
; CHECK-NOT: and i32
; CHECK-NOT: udiv
; CHECK: %run.remainder = sub i32 %tid.run,
; CHECK: %small.run = lshr i32 %tid.run, 5
; CHECK: %s.run = add i32 %run.quotient, %run.remainder
; CHECK: %t0.run = add i32 %s.run, %run.quotient{{[0-9]+}}
; CHECK: runs.not:
; CHECK: lshr i32 %tid, 6
; CHECK: and i32 %tid, 63

; A function whose only divisions are shifts and masks (`#define W 1024`).
define void @shiftsOnly(ptr %out, i64 %base, i64 %n) #0 {
entry:
  br label %loop
loop:
  %lid = phi i64 [ 0, %entry ], [ %next, %loop ]
  %gid = add i64 %base, %lid
  %y = lshr i64 %gid, 10
  %x = and i64 %gid, 1023
  %s = sub i64 %x, %y
  %dst = getelementptr i64, ptr %out, i64 %gid
  store i64 %s, ptr %dst, align 8, !llvm.access.group !0
  %next = add nuw nsw i64 %lid, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop, !llvm.loop !6
exit:
  ret void
}
; CHECK-LABEL: define void @shiftsOnly(
; CHECK: runs:
; CHECK: %run.quotient = udiv i64 %run.dividend, 1024
; CHECK: loop.run:
; CHECK: %run.remainder = sub i64 %gid.run,
; CHECK: %s.run = sub i64 %run.remainder, %run.quotient
; The run and the loop as written in @rows both carry the marker, so
; neither is taken again.
; CHECK: [[RUNLOOP]] = distinct !{[[RUNLOOP]], {{.*}}![[MARK:[0-9]+]]}
; CHECK: ![[MARK]] = !{!"lockstep.division.run"}
; CHECK: [[ORIG]] = distinct !{[[ORIG]], {{.*}}![[MARK]]}

attributes #0 = { "lockstep-work-group-code" }

!0 = distinct !{}
!1 = distinct !{!1, !2}
!2 = !{!"llvm.loop.parallel_accesses", !0}
!3 = distinct !{!3, !2}
!4 = distinct !{!4, !2}
!5 = distinct !{!5, !2}
!6 = distinct !{!6, !2}

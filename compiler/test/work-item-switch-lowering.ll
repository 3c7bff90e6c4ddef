; A switch of a few cases in a work-item loop (innermost, accesses marked
; parallel, not vectorized yet) becomes a chain of equality tests, in the
; order of its cases, so that the vectorizer can if-convert the loop; the
; successors' phis take their values from the new edges. Switches outside
; such loops, in loops already vectorized, with more cases than the limit
; or in a loop's latch stay, and so do those of a loop larger than
; -lockstep-work-item-switch-loop-size instructions.
; RUN: %opt -passes=lockstep-work-item-switch-lowering -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-work-item-switch-lowering -lockstep-work-item-switch-cases=1 -S %s \
; RUN:   | FileCheck %s --check-prefix=LIMIT
; RUN: %opt -passes=lockstep-work-item-switch-lowering -lockstep-work-item-switch-loop-size=10 -S %s \
; RUN:   | FileCheck %s --check-prefix=SIZE

; A tile's halo rows: `if (ly == 0) ... if (ly == 15) ...`, made a switch
; by SimplifyCFG; the two cases share the store, through a phi.
define void @halo(ptr %tile, ptr %in, i32 %ly, i64 %n) #0 {
entry:
  br label %loop
loop:
  %x = phi i64 [ 0, %entry ], [ %next, %latch ]
  switch i32 %ly, label %latch [
    i32 0, label %top
    i32 15, label %bottom
  ]
top:
  br label %copy
bottom:
  br label %copy
copy:
  %row = phi i64 [ 0, %top ], [ 17, %bottom ]
  %at = add i64 %row, %x
  %src = getelementptr float, ptr %in, i64 %at
  %v = load float, ptr %src, align 4, !llvm.access.group !0
  %dst = getelementptr float, ptr %tile, i64 %at
  store float %v, ptr %dst, align 4, !llvm.access.group !0
  br label %latch
latch:
  %seen = phi i32 [ 0, %loop ], [ 1, %copy ]
  %next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done, !llvm.loop !1
done:
  ret void
}
; CHECK-LABEL: define void @halo(
; CHECK: loop:
; CHECK-NEXT: %x = phi i64
; CHECK-NEXT: %switch.case = icmp eq i32 %ly, 0
; CHECK-NEXT: br i1 %switch.case, label %top, label %switch.next
; CHECK: switch.next:
; CHECK-NEXT: %switch.case1 = icmp eq i32 %ly, 15
; CHECK-NEXT: br i1 %switch.case1, label %bottom, label %latch
; CHECK: latch:
; CHECK-NEXT: %seen = phi i32 [ 1, %copy ], [ 0, %switch.next ]
; CHECK-NOT: switch i32
; LIMIT-LABEL: define void @halo(
; LIMIT: switch i32 %ly
; SIZE-LABEL: define void @halo(
; SIZE: switch i32 %ly

; Two cases to one block: its phi gets an entry per edge, as before.
define void @shared_successor(ptr %out, i32 %k, i64 %n) #0 {
entry:
  br label %loop
loop:
  %x = phi i64 [ 0, %entry ], [ %next, %latch ]
  switch i32 %k, label %latch [
    i32 1, label %odd
    i32 3, label %odd
  ]
odd:
  %v = phi i32 [ 7, %loop ], [ 7, %loop ]
  %p = getelementptr i32, ptr %out, i64 %x
  store i32 %v, ptr %p, align 4, !llvm.access.group !0
  br label %latch
latch:
  %w = phi i32 [ 2, %loop ], [ 5, %odd ]
  %next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done, !llvm.loop !2
done:
  ret void
}
; CHECK-LABEL: define void @shared_successor(
; CHECK: %switch.case = icmp eq i32 %k, 1
; CHECK-NEXT: br i1 %switch.case, label %odd, label %switch.next
; CHECK: switch.next:
; CHECK-NEXT: %switch.case1 = icmp eq i32 %k, 3
; CHECK-NEXT: br i1 %switch.case1, label %odd, label %latch
; CHECK: odd:
; CHECK-NEXT: %v = phi i32 [ 7, %loop ], [ 7, %switch.next ]
; CHECK: latch:
; CHECK-NEXT: %w = phi i32 [ 5, %odd ], [ 2, %switch.next ]

; `switch (op & 3)` with a case for every value: SimplifyCFG made the
; default unreachable. The last case is the chain's end, untested, and no
; branch leaves the loop for the unreachable block.
define void @covered(ptr %out, ptr %ops, i64 %n) #0 {
entry:
  br label %loop
loop:
  %x = phi i64 [ 0, %entry ], [ %next, %store ]
  %opp = getelementptr i32, ptr %ops, i64 %x
  %op = load i32, ptr %opp, align 4, !llvm.access.group !0
  %k = and i32 %op, 1
  switch i32 %k, label %never [
    i32 0, label %even
    i32 1, label %odd
  ]
even:
  br label %store
odd:
  br label %store
never:
  unreachable
store:
  %v = phi i32 [ 10, %even ], [ 11, %odd ]
  %p = getelementptr i32, ptr %out, i64 %x
  store i32 %v, ptr %p, align 4, !llvm.access.group !0
  %next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done, !llvm.loop !7
done:
  ret void
}
; CHECK-LABEL: define void @covered(
; CHECK: %switch.case = icmp eq i32 %k, 0
; CHECK-NEXT: br i1 %switch.case, label %even, label %odd
; CHECK-NOT: switch.case1
; CHECK: store:

; Already vectorized (its remainder): left alone.
define void @vectorized(ptr %out, i32 %k, i64 %n) #0 {
entry:
  br label %loop
loop:
  %x = phi i64 [ 0, %entry ], [ %next, %latch ]
  switch i32 %k, label %latch [
    i32 0, label %zero
  ]
zero:
  %p = getelementptr i32, ptr %out, i64 %x
  store i32 1, ptr %p, align 4, !llvm.access.group !0
  br label %latch
latch:
  %next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done, !llvm.loop !3
done:
  ret void
}
; CHECK-LABEL: define void @vectorized(
; CHECK: switch i32 %k

; A switch that goes back to the header (the latch, which holds the loop's
; id): left alone.
define void @latch_switch(ptr %out, i32 %k, i64 %n) #0 {
entry:
  br label %loop
loop:
  %x = phi i64 [ 0, %entry ], [ %next, %loop ], [ %next, %odd ]
  %p = getelementptr i32, ptr %out, i64 %x
  store i32 1, ptr %p, align 4, !llvm.access.group !0
  %next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %next, %n
  %sel = select i1 %more, i32 %k, i32 7
  switch i32 %sel, label %loop [
    i32 7, label %done
    i32 1, label %odd
  ], !llvm.loop !6
odd:
  br label %loop, !llvm.loop !6
done:
  ret void
}
; CHECK-LABEL: define void @latch_switch(
; CHECK: switch i32 %sel

; Not a work-item loop (no parallel accesses): left alone.
define void @serial(ptr %out, i32 %k, i64 %n) #0 {
entry:
  br label %loop
loop:
  %x = phi i64 [ 0, %entry ], [ %next, %latch ]
  switch i32 %k, label %latch [
    i32 0, label %zero
  ]
zero:
  %p = getelementptr i32, ptr %out, i64 %x
  store i32 1, ptr %p, align 4
  br label %latch
latch:
  %next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}
; CHECK-LABEL: define void @serial(
; CHECK: switch i32 %k

attributes #0 = { "lockstep-work-group-code" }

!0 = distinct !{}
!1 = distinct !{!1, !4}
!2 = distinct !{!2, !4}
!3 = distinct !{!3, !4, !5}
!4 = !{!"llvm.loop.parallel_accesses", !0}
!5 = !{!"llvm.loop.isvectorized", i32 1}
!6 = distinct !{!6, !4}
!7 = distinct !{!7, !4}

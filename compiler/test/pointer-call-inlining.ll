; A work-item loop's call (marked with the loop's access group) of a
; function that takes a pointer to global memory is inlined before -O3, its
; load joining the loop's access group, so that ArgumentPromotion cannot
; make the call site load the value outside it. A call outside the loops
; (no access group), a `noinline` function and one taking only a private
; pointer stay calls.
; RUN: %opt -passes=lockstep-pointer-call-inlining -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-pointer-call-inlining -lockstep-pointer-call-inlining=false -S %s \
; RUN:   | FileCheck %s --check-prefix=OFF

define internal i32 @at(ptr addrspace(1) %p, i64 %i) {
  %q = getelementptr inbounds i32, ptr addrspace(1) %p, i64 %i
  %v = load i32, ptr addrspace(1) %q, align 1
  ret i32 %v
}

define internal i32 @kept(ptr addrspace(1) %p) noinline {
  %v = load i32, ptr addrspace(1) %p, align 4
  ret i32 %v
}

define internal void @split(float %x, ptr %out) {
  store float %x, ptr %out, align 4
  ret void
}

; CHECK-LABEL: define void @wg(
; CHECK:       wi.loop:
; CHECK-NOT:     call i32 @at(
; CHECK:         %v.i = load i32, ptr addrspace(1) %q.i, align 1, !llvm.access.group ![[GROUP:[0-9]+]]
; CHECK:         call i32 @kept(ptr addrspace(1) %in), !llvm.access.group ![[GROUP]]
; CHECK:         call void @split(float %f, ptr %slot), !llvm.access.group ![[GROUP]]
; CHECK:       done:
; CHECK-NEXT:    call i32 @at(ptr addrspace(1) %in, i64 0)
; OFF-LABEL: define void @wg(
; OFF:         call i32 @at(ptr addrspace(1) %in, i64 %lid), !llvm.access.group
define void @wg(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr %slot) "lockstep-work-group-code" {
entry:
  br label %wi.loop

wi.loop:
  %lid = phi i64 [ 0, %entry ], [ %next, %wi.loop ]
  %v = call i32 @at(ptr addrspace(1) %in, i64 %lid), !llvm.access.group !0
  %w = call i32 @kept(ptr addrspace(1) %in), !llvm.access.group !0
  %f = sitofp i32 %v to float
  call void @split(float %f, ptr %slot), !llvm.access.group !0
  %sum = add i32 %v, %w
  %dst = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %lid
  store i32 %sum, ptr addrspace(1) %dst, align 4, !llvm.access.group !0
  %next = add nuw i64 %lid, 1
  %more = icmp ult i64 %next, 64
  br i1 %more, label %wi.loop, label %done, !llvm.loop !1

done:
  %first = call i32 @at(ptr addrspace(1) %in, i64 0)
  store i32 %first, ptr addrspace(1) %out, align 4
  ret void
}

!0 = distinct !{}
!1 = distinct !{!1, !2}
!2 = !{!"llvm.loop.parallel_accesses", !0}

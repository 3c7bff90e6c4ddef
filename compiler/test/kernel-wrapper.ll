; Each kernel gets a work-group function that unpacks the argument block
; (pointers, values, __local offsets) and has the kernel inlined.
; RUN: %opt -passes=lockstep-kernel-wrapper -S %s | FileCheck %s

target triple = "spir64-unknown-unknown"

define spir_kernel void @k(ptr addrspace(1) %out, i32 %n, ptr addrspace(3) %tmp) !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 !kernel_arg_name !4 {
  store i32 %n, ptr addrspace(3) %tmp
  store i32 %n, ptr addrspace(1) %out
  ret void
}

!0 = !{i32 1, i32 0, i32 3}
!1 = !{!"none", !"none", !"none"}
!2 = !{!"int*", !"int", !"int*"}
!3 = !{!"", !"", !""}
!4 = !{!"out", !"n", !"tmp"}

; CHECK-NOT: define spir_kernel
; CHECK-LABEL: define void @__lockstep_wg_k(ptr noalias nocapture %0, ptr noalias nocapture %1, ptr noalias nocapture %2, ptr noalias nocapture %3)
; CHECK: prologue:
; CHECK: load ptr addrspace(1), ptr {{.*}}, align 8, !invariant.load
; CHECK: getelementptr inbounds i8, ptr %0, i64 8
; CHECK: load i32, ptr {{.*}}, align 4, !invariant.load
; CHECK: getelementptr inbounds i8, ptr %0, i64 16
; CHECK: %[[OFFSET:.*]] = load i64
; CHECK: getelementptr i8, ptr %2, i64 %[[OFFSET]]
; CHECK: addrspacecast ptr {{.*}} to ptr addrspace(3)
; CHECK: body:
; CHECK-NOT: call
; CHECK: ret void
; CHECK: attributes {{.*}}"lockstep-kernel"="k"

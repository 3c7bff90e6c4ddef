; A kernel with reqd_work_group_size whose groups are all full (OpenCL C 1.x
; or -cl-uniform-work-group-size: "lockstep-uniform-groups") gets a
; work-group function that knows its local size: get_local_size and
; get_enqueued_local_size become constants, so the work-item loops have
; known trip counts. Without the promise (remainder groups allowed) or
; without a required size, they stay GroupInfo reads.
; RUN: %opt -passes=lockstep-kernel-wrapper,lockstep-work-item-builtins -S %s | FileCheck %s

target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z14get_local_sizej(i32)
declare spir_func i64 @_Z23get_enqueued_local_sizej(i32)

define spir_kernel void @fixed(ptr addrspace(1) %out) #0 !reqd_work_group_size !5 !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 !kernel_arg_name !4 {
  %x = call spir_func i64 @_Z14get_local_sizej(i32 0)
  %y = call spir_func i64 @_Z14get_local_sizej(i32 1)
  %e = call spir_func i64 @_Z23get_enqueued_local_sizej(i32 2)
  %xy = mul i64 %x, %y
  %all = mul i64 %xy, %e
  store i64 %all, ptr addrspace(1) %out
  ret void
}

define spir_kernel void @remainders(ptr addrspace(1) %out) !reqd_work_group_size !5 !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 !kernel_arg_name !4 {
  %x = call spir_func i64 @_Z14get_local_sizej(i32 0)
  store i64 %x, ptr addrspace(1) %out
  ret void
}

define spir_kernel void @unconstrained(ptr addrspace(1) %out) #0 !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 !kernel_arg_name !4 {
  %x = call spir_func i64 @_Z14get_local_sizej(i32 0)
  store i64 %x, ptr addrspace(1) %out
  ret void
}

attributes #0 = { "lockstep-uniform-groups" }

!0 = !{i32 1}
!1 = !{!"none"}
!2 = !{!"long*"}
!3 = !{!""}
!4 = !{!"out"}
!5 = !{i32 16, i32 2, i32 1}

; CHECK-LABEL: define void @__lockstep_wg_fixed(
; CHECK-NOT: call {{.*}}@_Z
; CHECK-NOT: %lockstep.GroupInfo
; CHECK: %[[XY:.*]] = mul i64 16, 2
; CHECK: %[[ALL:.*]] = mul i64 %[[XY]], 1
; CHECK: store i64 %[[ALL]], ptr addrspace(1)
; CHECK: ret void
; CHECK-LABEL: define void @__lockstep_wg_remainders(
; CHECK: getelementptr inbounds %lockstep.GroupInfo, ptr %1, i32 0, i32 1
; CHECK: ret void
; CHECK-LABEL: define void @__lockstep_wg_unconstrained(
; CHECK: getelementptr inbounds %lockstep.GroupInfo, ptr %1, i32 0, i32 1
; CHECK: ret void
; CHECK: attributes #[[FIXED:[0-9]+]] = {{.*}}"lockstep-fixed-local-size"="16,2,1"

; Image and sampler arguments in the argument block (ImageAbi.h): an image's
; slot holds its descriptor's address, loaded as a pointer to a whole
; descriptor (dereferenceable, aligned, never null) so its fields may be
; hoisted out of conditional code; a sampler's slot holds its 32-bit bits.
; RUN: %opt -passes=lockstep-kernel-wrapper -S %s | FileCheck %s

target triple = "spir64-unknown-unknown"

define spir_kernel void @k(ptr addrspace(1) %img, i32 %s, ptr addrspace(1) %out) !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 !kernel_arg_name !4 {
  store i32 %s, ptr addrspace(1) %out
  %p = getelementptr inbounds i8, ptr addrspace(1) %img, i64 24
  %w = load i32, ptr addrspace(1) %p
  store i32 %w, ptr addrspace(1) %out
  ret void
}

!0 = !{i32 1, i32 0, i32 1}
!1 = !{!"read_only", !"none", !"none"}
!2 = !{!"image2d_t", !"sampler_t", !"int*"}
!3 = !{!"", !"", !""}
!4 = !{!"img", !"s", !"out"}

; CHECK-LABEL: define void @__lockstep_wg_k(
; CHECK: %[[IMGSLOT:.*]] = getelementptr inbounds i8, ptr %0, i64 0
; CHECK-NEXT: %[[IMG:.*]] = load ptr addrspace(1), ptr %[[IMGSLOT]], align 8
; CHECK-SAME: !nonnull
; CHECK-SAME: !dereferenceable ![[SIZE:[0-9]+]]
; CHECK-SAME: !align ![[ALIGN:[0-9]+]]
; CHECK-SAME: !noundef
; CHECK-NEXT: %[[SLOT:.*]] = getelementptr inbounds i8, ptr %0, i64 8
; CHECK-NEXT: %[[BITS:.*]] = load i32, ptr %[[SLOT]], align 4, !invariant.load
; CHECK-NEXT: %[[OUTSLOT:.*]] = getelementptr inbounds i8, ptr %0, i64 16
; CHECK-NEXT: %[[OUT:.*]] = load ptr addrspace(1), ptr %[[OUTSLOT]], align 8, !invariant.load !{{[0-9]+}}{{$}}
; CHECK: store i32 %[[BITS]], ptr addrspace(1) %[[OUT]]
; CHECK: getelementptr inbounds i8, ptr addrspace(1) %[[IMG]], i64 24
; CHECK: ![[SIZE]] = !{i64 80}
; CHECK: ![[ALIGN]] = !{i64 8}

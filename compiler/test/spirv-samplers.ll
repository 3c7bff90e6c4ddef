; The SPIR-V translator's samplers (ptr addrspace(2)) take Clang's type
; where the builtins and kernel arguments meet them: a constant sampler
; becomes its bits as the pointer, a kernel's sampler argument is Clang's
; type turned into that pointer at the entry, and a builtin's sampler
; parameter is given __translate_sampler_initializer of the pointer's bits.
; Samplers in between (an alloca here) stay pointers.
; RUN: %opt -passes=lockstep-spirv-samplers -S %s | FileCheck %s

target triple = "spir64-unknown-unknown"

; CHECK-LABEL: define spir_kernel void @k(ptr addrspace(1) %img, target("spirv.Sampler") %s, ptr addrspace(1) %out)
; CHECK-SAME: !kernel_arg_type
; CHECK: %[[BITS:.*]] = call i32 @_Z18__lockstep_sampler11ocl_sampler(target("spirv.Sampler") %s)
; CHECK: %[[PTR:.*]] = inttoptr i32 %[[BITS]] to ptr addrspace(2)
; CHECK: store ptr addrspace(2) %[[PTR]], ptr %slot
define spir_kernel void @k(ptr addrspace(1) %img, ptr addrspace(2) %s, ptr addrspace(1) %out) !kernel_arg_type !0 {
entry:
  %slot = alloca ptr addrspace(2)
  store ptr addrspace(2) %s, ptr %slot
  %again = load ptr addrspace(2), ptr %slot
; CHECK: %[[ARG:.*]] = ptrtoint ptr addrspace(2) %again to i32
; CHECK: %[[CLANG:.*]] = call target("spirv.Sampler") @__translate_sampler_initializer(i32 %[[ARG]])
; CHECK: call spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr addrspace(1) %img, target("spirv.Sampler") %[[CLANG]], <2 x float> zeroinitializer)
  %v = call spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr addrspace(1) %img, ptr addrspace(2) %again, <2 x float> zeroinitializer)
; CHECK: %[[CONST:.*]] = inttoptr i32 18 to ptr addrspace(2)
; CHECK: %[[CONSTBITS:.*]] = ptrtoint ptr addrspace(2) %[[CONST]] to i32
; CHECK: call target("spirv.Sampler") @__translate_sampler_initializer(i32 %[[CONSTBITS]])
  %c = call ptr addrspace(2) @__translate_sampler_initializer(i32 18)
  %w = call spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr addrspace(1) %img, ptr addrspace(2) %c, <2 x float> zeroinitializer)
  %sum = fadd <4 x float> %v, %w
  store <4 x float> %sum, ptr addrspace(1) %out
  ret void
}

; A builtin without a sampler parameter is left as it is.
; CHECK: declare spir_func <4 x float> @_Z11read_imagef14ocl_image2d_roDv2_i(ptr addrspace(1), <2 x i32>)
define spir_func <4 x float> @plain(ptr addrspace(1) %img) {
  %v = call spir_func <4 x float> @_Z11read_imagef14ocl_image2d_roDv2_i(ptr addrspace(1) %img, <2 x i32> zeroinitializer)
  ret <4 x float> %v
}

; CHECK-NOT: declare ptr addrspace(2) @__translate_sampler_initializer
declare ptr addrspace(2) @__translate_sampler_initializer(i32)
declare spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr addrspace(1), ptr addrspace(2), <2 x float>)
declare spir_func <4 x float> @_Z11read_imagef14ocl_image2d_roDv2_i(ptr addrspace(1), <2 x i32>)

!0 = !{!"image2d_t", !"sampler_t", !"float4*"}

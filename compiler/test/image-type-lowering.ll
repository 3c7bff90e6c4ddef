; Image and sampler types become a descriptor pointer and CLK_* bits: kernels
; and helpers get lowered signatures, values of the types change type, a
; constant sampler folds to its bits, the builtins' accessors fold to their
; argument and the descriptor loads behind them are invariant.
; RUN: %opt -passes=lockstep-image-type-lowering -S %s | FileCheck %s

target triple = "spir64-unknown-unknown"

%struct.desc = type { ptr addrspace(1), i64, i64, i32, i32 }

; CHECK-LABEL: define spir_kernel void @k(ptr addrspace(1) %img, i32 %s, ptr addrspace(1) %out)
; CHECK-SAME: !kernel_arg_type
define spir_kernel void @k(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) %img, target("spirv.Sampler") %s, ptr addrspace(1) %out) !kernel_arg_type !0 {
entry:
; CHECK: %slot = alloca ptr addrspace(1)
; CHECK: store ptr addrspace(1) %img, ptr %slot
; CHECK: %again = load ptr addrspace(1), ptr %slot
  %slot = alloca target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0)
  store target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) %img, ptr %slot
  %again = load target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0), ptr %slot
; CHECK: %w1 = call spir_func i32 @width(ptr addrspace(1) %again, i32 %s)
  %w1 = call spir_func i32 @width(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) %again, target("spirv.Sampler") %s)
; A constant sampler is its bits.
; CHECK-NOT: __translate_sampler_initializer
; CHECK: %w2 = call spir_func i32 @width(ptr addrspace(1) %img, i32 18)
  %c = call spir_func target("spirv.Sampler") @__translate_sampler_initializer(i32 18)
  %w2 = call spir_func i32 @width(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) %img, target("spirv.Sampler") %c)
; CHECK: %pick = phi ptr addrspace(1) [ %img, %entry ], [ poison, %other ]
  br label %join
other:
  br label %join
join:
  %pick = phi target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) [ %img, %entry ], [ poison, %other ]
  %sum = add i32 %w1, %w2
  store i32 %sum, ptr addrspace(1) %out
  ret void
}

; The accessors are gone; the descriptor's field loads are invariant.
; CHECK-LABEL: define spir_func i32 @width(ptr addrspace(1) %image, i32 %sampler)
; CHECK-NOT: __lockstep_image
; CHECK: %field = getelementptr inbounds %struct.desc, ptr addrspace(1) %image, i64 0, i32 3
; CHECK: load i32, ptr addrspace(1) %field, align 4, !invariant.load
; CHECK: %bits = add i32 %sampler, 0
define spir_func i32 @width(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) %image, target("spirv.Sampler") %sampler) {
  %d = call spir_func ptr addrspace(1) @_Z16__lockstep_image14ocl_image2d_ro(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) %image)
  %field = getelementptr inbounds %struct.desc, ptr addrspace(1) %d, i64 0, i32 3
  %w = load i32, ptr addrspace(1) %field, align 4
  %b = call spir_func i32 @_Z18__lockstep_sampler11ocl_sampler(target("spirv.Sampler") %sampler)
  %bits = add i32 %b, 0
  %r = add i32 %w, %bits
  ret i32 %r
}

; An array of device events in private memory (`clk_event_t evts[4]`):
; the array's element type is lowered, in the alloca and the GEPs alike.
; CHECK-LABEL: define spir_func ptr @event_array(i64 %i, ptr %e)
; CHECK: %evts = alloca [4 x ptr]
; CHECK: %slot = getelementptr inbounds [4 x ptr], ptr %evts, i64 0, i64 %i
; CHECK: store ptr %e, ptr %slot
; CHECK: %back = load ptr, ptr %slot
define spir_func target("spirv.DeviceEvent") @event_array(i64 %i, target("spirv.DeviceEvent") %e) {
  %evts = alloca [4 x target("spirv.DeviceEvent")]
  %slot = getelementptr inbounds [4 x target("spirv.DeviceEvent")], ptr %evts, i64 0, i64 %i
  store target("spirv.DeviceEvent") %e, ptr %slot
  %back = load target("spirv.DeviceEvent"), ptr %slot
  ret target("spirv.DeviceEvent") %back
}

; CHECK-NOT: declare {{.*}}@_Z16__lockstep_image
; CHECK-NOT: declare {{.*}}@_Z18__lockstep_sampler
declare spir_func ptr addrspace(1) @_Z16__lockstep_image14ocl_image2d_ro(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0))
declare spir_func i32 @_Z18__lockstep_sampler11ocl_sampler(target("spirv.Sampler"))
declare spir_func target("spirv.Sampler") @__translate_sampler_initializer(i32)

!0 = !{!"image2d_t", !"sampler_t", !"float*"}

; Clang's enqueue_kernel and get_kernel_* calls, which pass the block kernel
; as a function pointer, become calls of the runtime that name the block
; kernel by a constant string; the block kernels get argument metadata (the
; literal by value, the rest __local) and the literal no longer keeps the
; invoke function's address. queue_t and clk_event_t are pointers after the
; image-type lowering.
; RUN: %opt -passes=lockstep-image-type-lowering,lockstep-device-enqueue-lowering -S %s | FileCheck %s

%struct.ndrange_t = type { i32, [3 x i64], [3 x i64], [3 x i64] }

; CHECK: @[[NAME1:.*]] = private unnamed_addr addrspace(2) constant [29 x i8] c"__parent_block_invoke_kernel\00"
; CHECK: @[[NAME2:.*]] = private unnamed_addr addrspace(2) constant [31 x i8] c"__parent_block_invoke_2_kernel\00"

; CHECK-LABEL: define spir_kernel void @parent(
define spir_kernel void @parent(ptr addrspace(1) %out, i32 %v) {
entry:
  %e = alloca target("spirv.DeviceEvent"), align 8
  %range = alloca %struct.ndrange_t, align 8
  %block = alloca <{ i32, i32, ptr addrspace(4), ptr addrspace(1), i32 }>, align 8
  %sizes = alloca [1 x i64], align 8
  %q = call spir_func target("spirv.Queue") @_Z17get_default_queuev()
  %invoke = getelementptr inbounds <{ i32, i32, ptr addrspace(4), ptr addrspace(1), i32 }>, ptr %block, i32 0, i32 2
; The literal's invoke pointer is dropped.
; CHECK: store ptr addrspace(4) null, ptr %invoke
  store ptr addrspace(4) addrspacecast (ptr @__parent_block_invoke to ptr addrspace(4)), ptr %invoke, align 8
  %literal = addrspacecast ptr %block to ptr addrspace(4)
  %event = addrspacecast ptr %e to ptr addrspace(4)
; CHECK: %[[R1:.*]] = call i32 @__lockstep_enqueue_kernel(ptr %q, i32 1, ptr %range, i32 0, ptr addrspace(4) null, ptr addrspace(4) %event, ptr addrspace(4) addrspacecast (ptr addrspace(2) @[[NAME1]] to ptr addrspace(4)), ptr addrspace(4) %literal, i32 0, ptr null)
  %r1 = call spir_func i32 @__enqueue_kernel_basic_events(target("spirv.Queue") %q, i32 1, ptr %range, i32 0, ptr addrspace(4) null, ptr addrspace(4) %event, ptr addrspace(4) addrspacecast (ptr @__parent_block_invoke_kernel to ptr addrspace(4)), ptr addrspace(4) %literal)
; CHECK: call i32 @__lockstep_enqueue_kernel(ptr %q, i32 0, ptr %range, i32 0, ptr addrspace(4) null, ptr addrspace(4) null, ptr addrspace(4) addrspacecast (ptr addrspace(2) @[[NAME1]] to ptr addrspace(4)), ptr addrspace(4) %literal, i32 0, ptr null)
  %r2 = call spir_func i32 @__enqueue_kernel_basic(target("spirv.Queue") %q, i32 0, ptr byval(%struct.ndrange_t) %range, ptr addrspace(4) addrspacecast (ptr @__parent_block_invoke_kernel to ptr addrspace(4)), ptr addrspace(4) %literal)
  store i64 16, ptr %sizes, align 8
; CHECK: call i32 @__lockstep_enqueue_kernel(ptr %q, i32 2, ptr %range, i32 0, ptr addrspace(4) null, ptr addrspace(4) null, ptr addrspace(4) addrspacecast (ptr addrspace(2) @[[NAME2]] to ptr addrspace(4)), ptr addrspace(4) %literal, i32 1, ptr %sizes)
  %r3 = call spir_func i32 @__enqueue_kernel_varargs(target("spirv.Queue") %q, i32 2, ptr %range, ptr addrspace(4) addrspacecast (ptr @__parent_block_invoke_2_kernel to ptr addrspace(4)), ptr addrspace(4) %literal, i32 1, ptr %sizes)
; CHECK: call i32 @__lockstep_enqueue_kernel(ptr %q, i32 0, ptr %range, i32 1, ptr addrspace(4) %event, ptr addrspace(4) null, ptr addrspace(4) addrspacecast (ptr addrspace(2) @[[NAME2]] to ptr addrspace(4)), ptr addrspace(4) %literal, i32 1, ptr %sizes)
  %r4 = call spir_func i32 @__enqueue_kernel_events_varargs(target("spirv.Queue") %q, i32 0, ptr %range, i32 1, ptr addrspace(4) %event, ptr addrspace(4) null, ptr addrspace(4) addrspacecast (ptr @__parent_block_invoke_2_kernel to ptr addrspace(4)), ptr addrspace(4) %literal, i32 1, ptr %sizes)
; The queries: 0 work-group size, 1 preferred multiple, 2 sub-group count, 3 max sub-group size.
; CHECK: call i32 @__lockstep_kernel_query(i32 0, ptr addrspace(4) addrspacecast (ptr addrspace(2) @[[NAME1]] to ptr addrspace(4)), ptr null)
  %q0 = call spir_func i32 @__get_kernel_work_group_size_impl(ptr addrspace(4) addrspacecast (ptr @__parent_block_invoke_kernel to ptr addrspace(4)), ptr addrspace(4) %literal)
; CHECK: call i32 @__lockstep_kernel_query(i32 1,
  %q1 = call spir_func i32 @__get_kernel_preferred_work_group_size_multiple_impl(ptr addrspace(4) addrspacecast (ptr @__parent_block_invoke_kernel to ptr addrspace(4)), ptr addrspace(4) %literal)
; CHECK: call i32 @__lockstep_kernel_query(i32 2, ptr addrspace(4) addrspacecast (ptr addrspace(2) @[[NAME1]] to ptr addrspace(4)), ptr %range)
  %q2 = call spir_func i32 @__get_kernel_sub_group_count_for_ndrange_impl(ptr %range, ptr addrspace(4) addrspacecast (ptr @__parent_block_invoke_kernel to ptr addrspace(4)), ptr addrspace(4) %literal)
; CHECK: call i32 @__lockstep_kernel_query(i32 3,
  %q3 = call spir_func i32 @__get_kernel_max_sub_group_size_for_ndrange_impl(ptr %range, ptr addrspace(4) addrspacecast (ptr @__parent_block_invoke_kernel to ptr addrspace(4)), ptr addrspace(4) %literal)
; CHECK-NOT: __enqueue_kernel_
; CHECK-NOT: _impl(
  ret void
}

define internal spir_func void @__parent_block_invoke(ptr addrspace(4) %literal) {
  ret void
}

; CHECK-LABEL: define spir_kernel void @__parent_block_invoke_kernel(ptr addrspace(4) %0)
; CHECK-SAME: #[[BLOCK:[0-9]+]] !kernel_arg_addr_space ![[SPACES1:[0-9]+]]
define spir_kernel void @__parent_block_invoke_kernel(ptr addrspace(4) %0) {
  call spir_func void @__parent_block_invoke(ptr addrspace(4) %0)
  ret void
}

define internal spir_func void @__parent_block_invoke_2(ptr addrspace(4) %literal, ptr addrspace(3) %a) {
  ret void
}

; CHECK-LABEL: define spir_kernel void @__parent_block_invoke_2_kernel(ptr addrspace(4) %0, ptr addrspace(3) %1)
; CHECK-SAME: !kernel_arg_addr_space ![[SPACES2:[0-9]+]]
define spir_kernel void @__parent_block_invoke_2_kernel(ptr addrspace(4) %0, ptr addrspace(3) %1) {
  call spir_func void @__parent_block_invoke_2(ptr addrspace(4) %0, ptr addrspace(3) %1)
  ret void
}

declare spir_func target("spirv.Queue") @_Z17get_default_queuev()
declare spir_func i32 @__enqueue_kernel_basic(target("spirv.Queue"), i32, ptr, ptr addrspace(4), ptr addrspace(4))
declare spir_func i32 @__enqueue_kernel_basic_events(target("spirv.Queue"), i32, ptr, i32, ptr addrspace(4), ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
declare spir_func i32 @__enqueue_kernel_varargs(target("spirv.Queue"), i32, ptr, ptr addrspace(4), ptr addrspace(4), i32, ptr)
declare spir_func i32 @__enqueue_kernel_events_varargs(target("spirv.Queue"), i32, ptr, i32, ptr addrspace(4), ptr addrspace(4), ptr addrspace(4), ptr addrspace(4), i32, ptr)
declare spir_func i32 @__get_kernel_work_group_size_impl(ptr addrspace(4), ptr addrspace(4))
declare spir_func i32 @__get_kernel_preferred_work_group_size_multiple_impl(ptr addrspace(4), ptr addrspace(4))
declare spir_func i32 @__get_kernel_sub_group_count_for_ndrange_impl(ptr, ptr addrspace(4), ptr addrspace(4))
declare spir_func i32 @__get_kernel_max_sub_group_size_for_ndrange_impl(ptr, ptr addrspace(4), ptr addrspace(4))

; Clang's declarations are gone once nothing calls them.
; CHECK-NOT: declare {{.*}}@__enqueue_kernel
; CHECK: attributes #[[BLOCK]] = { "lockstep-block-kernel" }
; CHECK: ![[SPACES1]] = !{i32 0}
; CHECK: ![[SPACES2]] = !{i32 0, i32 3}

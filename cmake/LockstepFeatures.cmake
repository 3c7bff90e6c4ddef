# What Lockstep's OpenCL C offers: the compiler enables exactly these for the
# frontend, the builtins are compiled with them, and the device query reports
# them (through compiler::Compiler::languageSupport()). Add a name only when
# every function behind it works.
set(LOCKSTEP_OPENCL_C_EXTENSIONS
  cl_khr_byte_addressable_store
  cl_khr_global_int32_base_atomics
  cl_khr_global_int32_extended_atomics
  cl_khr_local_int32_base_atomics
  cl_khr_local_int32_extended_atomics
  cl_khr_int64_base_atomics
  cl_khr_int64_extended_atomics
  cl_khr_fp64
  # half arithmetic and the half overloads of every builtin (docs/half.md).
  # OpenCL C 3.0 has no feature macro for it (Clang 19 knows none either):
  # the extension macro is the whole of it.
  cl_khr_fp16
  # Sub-group extensions: none needs cl_khr_subgroups (they build on
  # __opencl_c_subgroups as well). The non-uniform ones run in the compiler's
  # lane mode (WorkGroupLoops.cpp), which keeps each work-item's place.
  cl_khr_subgroup_extended_types
  cl_khr_subgroup_non_uniform_vote
  cl_khr_subgroup_ballot
  cl_khr_subgroup_non_uniform_arithmetic
  cl_khr_subgroup_shuffle
  cl_khr_subgroup_shuffle_relative
  cl_khr_subgroup_clustered_reduce
  cl_khr_subgroup_rotate
  # Images (runtime/Image.h, builtins/lib/image_*.cl).
  cl_khr_3d_image_writes
  cl_khr_depth_images
  cl_khr_srgb_image_writes
  # __builtin_expect and __builtin_assume (Clang's own; the frontend defines
  # the macro, compiler/lib/Frontend.cpp), and SPIR-V's SPV_KHR_expect_assume.
  cl_khr_expect_assume
  # Builtin-library extensions: builtins/lib/bit_ops.cl, integer_dot.cl,
  # atomic_c11.cl (float/double fetch_add/sub/min/max), kernel_clock.cl,
  # async_copy_2d3d.cl; their device queries in
  # runtime/api/device_extension_info.cpp.
  cl_khr_extended_bit_ops
  cl_khr_integer_dot_product
  cl_ext_float_atomics
  cl_khr_kernel_clock
  cl_khr_extended_async_copies
)
# Implemented, but offered only when the environment asks for them
# (LOCKSTEP_OPT_IN_EXTENSIONS=name,... or all, read once per process): the
# Khronos CTS that conformance/cts pins (b8f8906c) fails any device that
# lists a cl_khr_ name missing from its own approved list
# (test_compiler's compiler_defines_for_extensions), and these are missing.
#   cl_khr_work_group_uniform_arithmetic: work-group reductions and scans of
#   mul, and/or/xor and the logical ones. Clang 19 has neither the macro nor
#   the declarations, which the frontend adds (compiler/lib/Frontend.cpp);
#   the work-group passes lower them as the OpenCL C 2.0 collectives
#   (compiler/lib/WorkGroup/CollectiveCombine.cpp). SPIR-V modules get them
#   (SPV_KHR_uniform_group_instructions) either way.
set(LOCKSTEP_OPENCL_C_OPT_IN_EXTENSIONS
  cl_khr_work_group_uniform_arithmetic
)
# Not cl_khr_subgroups: the extension requires independent forward progress
# of sub-groups, and the sub-groups of a work-group run one after another on
# one thread. OpenCL C 3.0's __opencl_c_subgroups (below) does not.
set(LOCKSTEP_OPENCL_C_FEATURES
  __opencl_c_int64
  __opencl_c_fp64
  __opencl_c_atomic_order_acq_rel
  __opencl_c_atomic_order_seq_cst
  __opencl_c_atomic_scope_device
  __opencl_c_atomic_scope_all_devices
  __opencl_c_generic_address_space
  __opencl_c_program_scope_global_variables
  __opencl_c_work_group_collective_functions
  __opencl_c_subgroups
  __opencl_c_images
  __opencl_c_read_write_images
  __opencl_c_3d_image_writes
  # Pipes: runtime/api/pipe.cpp, builtins/lib/pipe.cl,
  # compiler/lib/PipeRuntime.cpp (docs/pipes.md).
  __opencl_c_pipes
  # Device-side enqueue (docs/device_enqueue.md): blocks, enqueue_kernel,
  # device queues and clk_event_t; needs the generic address space and
  # program-scope globals, above.
  __opencl_c_device_enqueue
  # The feature macros of the extensions above (Clang's opencl-c-base.h
  # defines them; the frontend keeps those listed here).
  __opencl_c_integer_dot_product_input_4x8bit
  __opencl_c_integer_dot_product_input_4x8bit_packed
  __opencl_c_ext_fp32_global_atomic_add
  __opencl_c_ext_fp32_local_atomic_add
  __opencl_c_ext_fp32_global_atomic_min_max
  __opencl_c_ext_fp32_local_atomic_min_max
  __opencl_c_ext_fp64_global_atomic_add
  __opencl_c_ext_fp64_local_atomic_add
  __opencl_c_ext_fp64_global_atomic_min_max
  __opencl_c_ext_fp64_local_atomic_min_max
  __opencl_c_kernel_clock_scope_device
  __opencl_c_kernel_clock_scope_work_group
  __opencl_c_kernel_clock_scope_sub_group
)
# -cl-ext=-all,+a,+b,... for clang
set(_ext "-all")
foreach(name IN LISTS LOCKSTEP_OPENCL_C_EXTENSIONS LOCKSTEP_OPENCL_C_FEATURES)
  string(APPEND _ext ",+${name}")
endforeach()
set(LOCKSTEP_CLANG_CL_EXT "-cl-ext=${_ext}")

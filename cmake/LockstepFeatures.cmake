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
)
# -cl-ext=-all,+a,+b,... for clang
set(_ext "-all")
foreach(name IN LISTS LOCKSTEP_OPENCL_C_EXTENSIONS LOCKSTEP_OPENCL_C_FEATURES)
  string(APPEND _ext ",+${name}")
endforeach()
set(LOCKSTEP_CLANG_CL_EXT "-cl-ext=${_ext}")

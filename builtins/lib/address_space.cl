// OpenCL C 3.0 "Address Space Qualifier Functions": to_global,
// to_local, to_private and get_fence on generic pointers.
//
// Clang lowers to_global(p) & co. to calls of __to_global(generic void *)
// etc. Where a generic pointer points is only known at run time from address
// ranges: the group's __local memory, and the thread's stack and work-item
// context (where __private variables live). The compiler defines the two
// predicates below against the work-group's GroupInfo; anything else is
// __global memory (or null).
#include "ls_gentype.h"

bool __lockstep_is_local_pointer(const __generic void *p);
bool __lockstep_is_private_pointer(const __generic void *p);

__global void *__to_global(__generic void *p) {
  if (__lockstep_is_local_pointer(p) || __lockstep_is_private_pointer(p))
    return (__global void *)0;
  return (__global void *)p;
}

__local void *__to_local(__generic void *p) {
  return __lockstep_is_local_pointer(p) ? (__local void *)p : (__local void *)0;
}

__private void *__to_private(__generic void *p) {
  return __lockstep_is_private_pointer(p) ? (__private void *)p : (__private void *)0;
}

// A fence for __local memory if p points there, else for __global memory
// (also a valid, harmless choice for __private memory, which needs none).
LS_OVERLOAD cl_mem_fence_flags get_fence(const __generic void *p) {
  return __lockstep_is_local_pointer(p) ? CLK_LOCAL_MEM_FENCE : CLK_GLOBAL_MEM_FENCE;
}
LS_OVERLOAD cl_mem_fence_flags get_fence(__generic void *p) {
  return get_fence((const __generic void *)p);
}

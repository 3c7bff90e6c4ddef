// OpenCL C 3.0 sections 6.15.8/6.15.9: atomic_work_item_fence, mem_fence,
// read_mem_fence, write_mem_fence. (barrier/work_group_barrier are the
// compiler's: it cuts work-item loops there.)
//
// All work-items of a group run in turn on one thread, so ordering memory
// among them needs no hardware fence, only that the compiler does not move
// memory operations across the fence: a single-thread fence, free at run
// time. Fences that must order __global (or image) memory as seen by other
// work-groups - device or all-devices scope - run on other threads and get a
// real thread fence of the requested order.
#include "ls_gentype.h"

// The signal/thread fence builtins take the order as a constant in the
// common case; Clang emits a switch over non-constant orders, which folds
// away once the caller's constants are inlined. memory_order_relaxed fences
// nothing (C11 7.17.4), for which the builtins emit no fence.
LS_OVERLOAD void atomic_work_item_fence(cl_mem_fence_flags flags, memory_order order,
                                        memory_scope scope) {
  bool other_threads = (flags & (CLK_GLOBAL_MEM_FENCE | CLK_IMAGE_MEM_FENCE)) != 0 &&
                       (scope == memory_scope_device || scope == memory_scope_all_svm_devices);
  if (other_threads)
    __atomic_thread_fence(order);
  else
    __atomic_signal_fence(order);
}

// The 1.x fences order a work-item's own accesses as seen by its group
// (2.0+ define them as work-group-scope atomic_work_item_fence calls).
LS_OVERLOAD void mem_fence(cl_mem_fence_flags flags) {
  atomic_work_item_fence(flags, memory_order_acq_rel, memory_scope_work_group);
}
LS_OVERLOAD void read_mem_fence(cl_mem_fence_flags flags) {
  atomic_work_item_fence(flags, memory_order_acquire, memory_scope_work_group);
}
LS_OVERLOAD void write_mem_fence(cl_mem_fence_flags flags) {
  atomic_work_item_fence(flags, memory_order_release, memory_scope_work_group);
}

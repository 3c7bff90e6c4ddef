// cl_khr_kernel_clock: clock_read_{device,work_group,sub_group} and their
// clock_read_hilo_* forms (low 32 bits in .x, high in .y).
//
// All three scopes read one counter: the host's monotonic clock in
// nanoseconds (__lockstep_kernel_clock, compiler/lib/KernelClock.cpp), the
// same for every thread of the process. So it is monotonic across the whole
// device, which is what the device scope asks; the work-group and sub-group
// scopes, whose work-items all run on one thread anyway, ask less. The call
// has side effects as far as LLVM knows: two reads are never merged or moved
// across each other.
#include "ls_gentype.h"

ulong __lockstep_kernel_clock(void);

#define LS_KERNEL_CLOCK(SCOPE)                                                \
  LS_OVERLOAD ulong clock_read_##SCOPE(void) { return __lockstep_kernel_clock(); } \
  LS_OVERLOAD uint2 clock_read_hilo_##SCOPE(void) {                           \
    ulong t = __lockstep_kernel_clock();                                      \
    return (uint2)((uint)t, (uint)(t >> 32));                                 \
  }
LS_KERNEL_CLOCK(device)
LS_KERNEL_CLOCK(work_group)
LS_KERNEL_CLOCK(sub_group)

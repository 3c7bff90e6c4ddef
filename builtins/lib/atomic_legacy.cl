// OpenCL C 1.x atomics (section 6.15.12.9 of the 3.0 spec, "legacy"):
// atomic_* on 32-bit __global/__local integers (and atomic_xchg on float),
// and the cl_khr_{global,local}_int32_{base,extended}_atomics /
// cl_khr_int64_{base,extended}_atomics atom_* spellings incl. 64-bit.
//
// They are relaxed read-modify-writes (the 2.0 spec defines them so), at
// work-group scope for __local and device scope for __global memory. The
// plain pointer is viewed as an atomic object so Clang's __opencl_atomic_*
// builtins emit native LLVM atomicrmw/cmpxchg (the GNU __atomic_* ones would
// become libcalls on the spir64 target, which declares no lock-free width).
#include "ls_gentype.h"

// The spir64 target reports no inline atomic width; the x86-64 code these
// become has it, so the "large atomic" performance warning does not apply.
#pragma clang diagnostic ignored "-Watomic-alignment"

#define LS_LEGACY_SCOPE___global memory_scope_device
#define LS_LEGACY_SCOPE___local memory_scope_work_group

#define LS_LEGACY_OBJECT(T, AS, p) ((volatile AS atomic_##T *)(p))

#define LS_LEGACY_RMW(NAME, OP, T, AS)                                         \
  LS_OVERLOAD T NAME(volatile AS T *p, T v) {                                  \
    return __opencl_atomic_fetch_##OP(LS_LEGACY_OBJECT(T, AS, p), v,           \
                                      memory_order_relaxed, LS_LEGACY_SCOPE_##AS); \
  }

#define LS_LEGACY_ALL(PREFIX, T, AS)                                            \
  LS_LEGACY_RMW(PREFIX##add, add, T, AS)                                        \
  LS_LEGACY_RMW(PREFIX##sub, sub, T, AS)                                        \
  LS_LEGACY_RMW(PREFIX##min, min, T, AS)                                        \
  LS_LEGACY_RMW(PREFIX##max, max, T, AS)                                        \
  LS_LEGACY_RMW(PREFIX##and, and, T, AS)                                        \
  LS_LEGACY_RMW(PREFIX##or, or, T, AS)                                          \
  LS_LEGACY_RMW(PREFIX##xor, xor, T, AS)                                        \
  LS_OVERLOAD T PREFIX##xchg(volatile AS T *p, T v) {                           \
    return __opencl_atomic_exchange(LS_LEGACY_OBJECT(T, AS, p), v,              \
                                    memory_order_relaxed, LS_LEGACY_SCOPE_##AS); \
  }                                                                             \
  LS_OVERLOAD T PREFIX##inc(volatile AS T *p) {                                 \
    return __opencl_atomic_fetch_add(LS_LEGACY_OBJECT(T, AS, p), (T)1,          \
                                     memory_order_relaxed, LS_LEGACY_SCOPE_##AS); \
  }                                                                             \
  LS_OVERLOAD T PREFIX##dec(volatile AS T *p) {                                 \
    return __opencl_atomic_fetch_sub(LS_LEGACY_OBJECT(T, AS, p), (T)1,          \
                                     memory_order_relaxed, LS_LEGACY_SCOPE_##AS); \
  }                                                                             \
  /* Returns the old value whether or not it was replaced. */                  \
  LS_OVERLOAD T PREFIX##cmpxchg(volatile AS T *p, T cmp, T v) {                 \
    __opencl_atomic_compare_exchange_strong(LS_LEGACY_OBJECT(T, AS, p), &cmp, v, \
                                            memory_order_relaxed,               \
                                            memory_order_relaxed,               \
                                            LS_LEGACY_SCOPE_##AS);              \
    return cmp;                                                                 \
  }

#define LS_LEGACY_AS(T, AS) LS_LEGACY_ALL(atomic_, T, AS) LS_LEGACY_ALL(atom_, T, AS)
LS_LEGACY_AS(int, __global)
LS_LEGACY_AS(uint, __global)
LS_LEGACY_AS(int, __local)
LS_LEGACY_AS(uint, __local)
LS_LEGACY_ALL(atom_, long, __global)
LS_LEGACY_ALL(atom_, ulong, __global)
LS_LEGACY_ALL(atom_, long, __local)
LS_LEGACY_ALL(atom_, ulong, __local)

#define LS_LEGACY_XCHG_FLOAT(AS)                                                \
  LS_OVERLOAD float atomic_xchg(volatile AS float *p, float v) {                \
    return __opencl_atomic_exchange(LS_LEGACY_OBJECT(float, AS, p), v,          \
                                    memory_order_relaxed, LS_LEGACY_SCOPE_##AS); \
  }
LS_LEGACY_XCHG_FLOAT(__global)
LS_LEGACY_XCHG_FLOAT(__local)

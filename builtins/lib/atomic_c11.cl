// OpenCL C 2.0/3.0 atomics (section 6.15.12): atomic_init, atomic_load/
// store/exchange, atomic_compare_exchange_strong/weak, atomic_fetch_<op> and
// atomic_flag_*, each with its _explicit(order) and _explicit(order, scope)
// forms, on generic, __global and __local objects, for (u)int, (u)long and
// the cl_ext_float_atomics float/double/half operations Clang declares for
// SPIR.
//
// Everything maps onto Clang's __opencl_atomic_* builtins (LLVM atomicrmw/
// cmpxchg/atomic load and store with the requested ordering and syncscope).
// The forms without order/scope are seq_cst at device scope, as the spec
// says. Orders and scopes are usually constants in the caller: once inlined,
// Clang's switch over a non-constant order folds away.
#include "ls_gentype.h"

#pragma clang diagnostic ignored "-Watomic-alignment"

#define LS_SEQ memory_order_seq_cst
#define LS_DEV memory_scope_device

// Load, store, exchange and init of atomic_T in address space AS.
#define LS_C11_BASIC(T, AS)                                                      \
  LS_OVERLOAD void atomic_init(volatile AS atomic_##T *p, T v) {                 \
    __opencl_atomic_init(p, v);                                                  \
  }                                                                              \
  LS_OVERLOAD void atomic_store_explicit(volatile AS atomic_##T *p, T v,         \
                                         memory_order o, memory_scope s) {       \
    __opencl_atomic_store(p, v, o, s);                                           \
  }                                                                              \
  LS_OVERLOAD void atomic_store_explicit(volatile AS atomic_##T *p, T v, memory_order o) { \
    __opencl_atomic_store(p, v, o, LS_DEV);                                      \
  }                                                                              \
  LS_OVERLOAD void atomic_store(volatile AS atomic_##T *p, T v) {                \
    __opencl_atomic_store(p, v, LS_SEQ, LS_DEV);                                 \
  }                                                                              \
  LS_OVERLOAD T atomic_load_explicit(volatile AS atomic_##T *p, memory_order o,  \
                                     memory_scope s) {                           \
    return __opencl_atomic_load(p, o, s);                                        \
  }                                                                              \
  LS_OVERLOAD T atomic_load_explicit(volatile AS atomic_##T *p, memory_order o) { \
    return __opencl_atomic_load(p, o, LS_DEV);                                   \
  }                                                                              \
  LS_OVERLOAD T atomic_load(volatile AS atomic_##T *p) {                         \
    return __opencl_atomic_load(p, LS_SEQ, LS_DEV);                              \
  }                                                                              \
  LS_OVERLOAD T atomic_exchange_explicit(volatile AS atomic_##T *p, T v,         \
                                         memory_order o, memory_scope s) {       \
    return __opencl_atomic_exchange(p, v, o, s);                                 \
  }                                                                              \
  LS_OVERLOAD T atomic_exchange_explicit(volatile AS atomic_##T *p, T v, memory_order o) { \
    return __opencl_atomic_exchange(p, v, o, LS_DEV);                            \
  }                                                                              \
  LS_OVERLOAD T atomic_exchange(volatile AS atomic_##T *p, T v) {                \
    return __opencl_atomic_exchange(p, v, LS_SEQ, LS_DEV);                       \
  }

// compare_exchange_{strong,weak} with the expected value in address space EAS.
#define LS_C11_CMPXCHG_KIND(T, AS, EAS, KIND)                                     \
  LS_OVERLOAD bool atomic_compare_exchange_##KIND##_explicit(                     \
      volatile AS atomic_##T *p, EAS T *expected, T desired, memory_order success, \
      memory_order failure, memory_scope s) {                                     \
    return __opencl_atomic_compare_exchange_##KIND(p, (__generic T *)expected,    \
                                                   desired, success, failure, s); \
  }                                                                               \
  LS_OVERLOAD bool atomic_compare_exchange_##KIND##_explicit(                     \
      volatile AS atomic_##T *p, EAS T *expected, T desired, memory_order success, \
      memory_order failure) {                                                     \
    return __opencl_atomic_compare_exchange_##KIND(p, (__generic T *)expected,    \
                                                   desired, success, failure, LS_DEV); \
  }                                                                               \
  LS_OVERLOAD bool atomic_compare_exchange_##KIND(volatile AS atomic_##T *p,      \
                                                  EAS T *expected, T desired) {   \
    return __opencl_atomic_compare_exchange_##KIND(p, (__generic T *)expected,    \
                                                   desired, LS_SEQ, LS_SEQ, LS_DEV); \
  }
#define LS_C11_CMPXCHG(T, AS, EAS)          \
  LS_C11_CMPXCHG_KIND(T, AS, EAS, strong)   \
  LS_C11_CMPXCHG_KIND(T, AS, EAS, weak)

// atomic_fetch_<op> of atomic_T with an operand of type V (the intptr_t
// variants mix signedness; the operand is converted to T as in C11).
#define LS_C11_FETCH(OP, T, V, AS)                                                \
  LS_OVERLOAD T atomic_fetch_##OP##_explicit(volatile AS atomic_##T *p, V v,      \
                                             memory_order o, memory_scope s) {    \
    return __opencl_atomic_fetch_##OP(p, (T)v, o, s);                             \
  }                                                                               \
  LS_OVERLOAD T atomic_fetch_##OP##_explicit(volatile AS atomic_##T *p, V v,      \
                                             memory_order o) {                    \
    return __opencl_atomic_fetch_##OP(p, (T)v, o, LS_DEV);                        \
  }                                                                               \
  LS_OVERLOAD T atomic_fetch_##OP(volatile AS atomic_##T *p, V v) {               \
    return __opencl_atomic_fetch_##OP(p, (T)v, LS_SEQ, LS_DEV);                   \
  }

#define LS_C11_INTEGER_OPS(T, V, AS)                                               \
  LS_C11_FETCH(add, T, V, AS) LS_C11_FETCH(sub, T, V, AS) LS_C11_FETCH(or, T, V, AS) \
  LS_C11_FETCH(xor, T, V, AS) LS_C11_FETCH(and, T, V, AS) LS_C11_FETCH(min, T, V, AS) \
  LS_C11_FETCH(max, T, V, AS)
// Floating point: add/sub are LLVM fadd/fsub RMWs, min/max have fmin/fmax's
// NaN handling (LLVM atomicrmw fmin/fmax are minnum/maxnum).
#define LS_C11_FLOAT_OPS(T, AS)                                                     \
  LS_C11_FETCH(add, T, T, AS) LS_C11_FETCH(sub, T, T, AS) LS_C11_FETCH(min, T, T, AS) \
  LS_C11_FETCH(max, T, T, AS)

#define LS_C11_FLAG(AS)                                                           \
  LS_OVERLOAD bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *p,  \
                                                     memory_order o, memory_scope s) { \
    return __opencl_atomic_exchange((volatile AS atomic_int *)p, 1, o, s) != 0;   \
  }                                                                               \
  LS_OVERLOAD bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *p,  \
                                                     memory_order o) {            \
    return atomic_flag_test_and_set_explicit(p, o, LS_DEV);                       \
  }                                                                               \
  LS_OVERLOAD bool atomic_flag_test_and_set(volatile AS atomic_flag *p) {         \
    return atomic_flag_test_and_set_explicit(p, LS_SEQ, LS_DEV);                  \
  }                                                                               \
  LS_OVERLOAD void atomic_flag_clear_explicit(volatile AS atomic_flag *p,         \
                                              memory_order o, memory_scope s) {   \
    __opencl_atomic_store((volatile AS atomic_int *)p, 0, o, s);                  \
  }                                                                               \
  LS_OVERLOAD void atomic_flag_clear_explicit(volatile AS atomic_flag *p,         \
                                              memory_order o) {                   \
    atomic_flag_clear_explicit(p, o, LS_DEV);                                     \
  }                                                                               \
  LS_OVERLOAD void atomic_flag_clear(volatile AS atomic_flag *p) {                \
    atomic_flag_clear_explicit(p, LS_SEQ, LS_DEV);                                \
  }

// Generic objects take generic expected pointers; __global and __local
// objects take expected values in __global, __local or __private memory.
#define LS_C11_TYPE(T)                        \
  LS_C11_BASIC(T, __generic)                  \
  LS_C11_BASIC(T, __global)                   \
  LS_C11_BASIC(T, __local)                    \
  LS_C11_CMPXCHG(T, __generic, __generic)     \
  LS_C11_CMPXCHG(T, __global, __global)       \
  LS_C11_CMPXCHG(T, __global, __local)        \
  LS_C11_CMPXCHG(T, __global, __private)      \
  LS_C11_CMPXCHG(T, __local, __global)        \
  LS_C11_CMPXCHG(T, __local, __local)         \
  LS_C11_CMPXCHG(T, __local, __private)
LS_C11_TYPE(int)
LS_C11_TYPE(uint)
LS_C11_TYPE(long)
LS_C11_TYPE(ulong)
LS_C11_TYPE(float)
LS_C11_TYPE(double)
// atomic_half (cl_ext_float_atomics' fp16 operations, which Clang declares
// with cl_khr_fp16): load, store, exchange and the float RMWs; Clang
// declares no compare-exchange of half.
LS_C11_BASIC(half, __generic)
LS_C11_BASIC(half, __global)
LS_C11_BASIC(half, __local)

#define LS_C11_INTEGER_AS(AS)               \
  LS_C11_INTEGER_OPS(int, int, AS)          \
  LS_C11_INTEGER_OPS(uint, uint, AS)        \
  LS_C11_INTEGER_OPS(long, long, AS)        \
  LS_C11_INTEGER_OPS(ulong, ulong, AS)      \
  LS_C11_INTEGER_OPS(ulong, long, AS)       \
  LS_C11_INTEGER_OPS(long, ulong, AS)       \
  LS_C11_FLOAT_OPS(float, AS)               \
  LS_C11_FLOAT_OPS(double, AS)              \
  LS_C11_FLOAT_OPS(half, AS)                \
  LS_C11_FLAG(AS)
LS_C11_INTEGER_AS(__generic)
LS_C11_INTEGER_AS(__global)
LS_C11_INTEGER_AS(__local)

// Shared by the builtins sources: how a builtin is declared, and how the
// vector overloads of a builtin are built from its scalar one.
//
// User kernels call builtins by their Itanium-mangled overloaded names, so
// every definition is overloadable; helpers that are not builtins are static
// so that they stay out of the linked library's symbol table.

// Tables of macro definitions and invocations, which clang-format would run
// together; they are kept within 100 columns by hand.
// clang-format off
#ifndef LOCKSTEP_BUILTINS_LS_COMMON_H
#define LOCKSTEP_BUILTINS_LS_COMMON_H

// half arithmetic (cl_khr_fp16) is on for the whole library, as for kernels.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define LS_OVERLOAD __attribute__((overloadable))
// A library-internal helper: inlined into its caller, never exported.
#define LS_HELPER static inline __attribute__((overloadable, always_inline))

// Applies M to a scalar type name and to each of its vector types.
#define LS_FOR_WIDTHS(M, T) M(T) M(T##2) M(T##3) M(T##4) M(T##8) M(T##16)
#define LS_FOR_VECTOR_WIDTHS(M, T) M(T##2) M(T##3) M(T##4) M(T##8) M(T##16)

// Vector overloads of a builtin computed component by component from the
// overload one width down (n=2, 3 from scalars; 4, 8, 16 from halves). After
// inlining they are straight-line code the vectorizer can widen.
// RET/A/B/C are scalar type names; the vector widths are pasted on.
#define LS_EXPAND_UNARY(RET, NAME, A)                                   \
  LS_OVERLOAD RET##2 NAME(A##2 x) { return (RET##2)(NAME(x.s0), NAME(x.s1)); } \
  LS_OVERLOAD RET##3 NAME(A##3 x) {                                     \
    return (RET##3)(NAME(x.s0), NAME(x.s1), NAME(x.s2));                \
  }                                                                     \
  LS_OVERLOAD RET##4 NAME(A##4 x) { return (RET##4)(NAME(x.lo), NAME(x.hi)); } \
  LS_OVERLOAD RET##8 NAME(A##8 x) { return (RET##8)(NAME(x.lo), NAME(x.hi)); } \
  LS_OVERLOAD RET##16 NAME(A##16 x) { return (RET##16)(NAME(x.lo), NAME(x.hi)); }

// Both arguments are vectors of the same width.
#define LS_EXPAND_BINARY(RET, NAME, A, B)                                        \
  LS_OVERLOAD RET##2 NAME(A##2 x, B##2 y) {                                      \
    return (RET##2)(NAME(x.s0, y.s0), NAME(x.s1, y.s1));                         \
  }                                                                              \
  LS_OVERLOAD RET##3 NAME(A##3 x, B##3 y) {                                      \
    return (RET##3)(NAME(x.s0, y.s0), NAME(x.s1, y.s1), NAME(x.s2, y.s2));       \
  }                                                                              \
  LS_OVERLOAD RET##4 NAME(A##4 x, B##4 y) {                                      \
    return (RET##4)(NAME(x.lo, y.lo), NAME(x.hi, y.hi));                         \
  }                                                                              \
  LS_OVERLOAD RET##8 NAME(A##8 x, B##8 y) {                                      \
    return (RET##8)(NAME(x.lo, y.lo), NAME(x.hi, y.hi));                         \
  }                                                                              \
  LS_OVERLOAD RET##16 NAME(A##16 x, B##16 y) {                                   \
    return (RET##16)(NAME(x.lo, y.lo), NAME(x.hi, y.hi));                        \
  }

// The first argument is a vector, the second one scalar (e.g. ldexp(float4, int)).
#define LS_EXPAND_BINARY_SCALAR_Y(RET, NAME, A, B)                         \
  LS_OVERLOAD RET##2 NAME(A##2 x, B y) { return (RET##2)(NAME(x.s0, y), NAME(x.s1, y)); } \
  LS_OVERLOAD RET##3 NAME(A##3 x, B y) {                                   \
    return (RET##3)(NAME(x.s0, y), NAME(x.s1, y), NAME(x.s2, y));          \
  }                                                                        \
  LS_OVERLOAD RET##4 NAME(A##4 x, B y) { return (RET##4)(NAME(x.lo, y), NAME(x.hi, y)); } \
  LS_OVERLOAD RET##8 NAME(A##8 x, B y) { return (RET##8)(NAME(x.lo, y), NAME(x.hi, y)); } \
  LS_OVERLOAD RET##16 NAME(A##16 x, B y) { return (RET##16)(NAME(x.lo, y), NAME(x.hi, y)); }

// All three arguments are vectors of the same width (e.g. mad_sat(long4, ...)).
#define LS_EXPAND_TERNARY(RET, NAME, A)                                           \
  LS_OVERLOAD RET##2 NAME(A##2 x, A##2 y, A##2 z) {                               \
    return (RET##2)(NAME(x.s0, y.s0, z.s0), NAME(x.s1, y.s1, z.s1));              \
  }                                                                               \
  LS_OVERLOAD RET##3 NAME(A##3 x, A##3 y, A##3 z) {                               \
    return (RET##3)(NAME(x.s0, y.s0, z.s0), NAME(x.s1, y.s1, z.s1),               \
                    NAME(x.s2, y.s2, z.s2));                                      \
  }                                                                               \
  LS_OVERLOAD RET##4 NAME(A##4 x, A##4 y, A##4 z) {                               \
    return (RET##4)(NAME(x.lo, y.lo, z.lo), NAME(x.hi, y.hi, z.hi));              \
  }                                                                               \
  LS_OVERLOAD RET##8 NAME(A##8 x, A##8 y, A##8 z) {                               \
    return (RET##8)(NAME(x.lo, y.lo, z.lo), NAME(x.hi, y.hi, z.hi));              \
  }                                                                               \
  LS_OVERLOAD RET##16 NAME(A##16 x, A##16 y, A##16 z) {                           \
    return (RET##16)(NAME(x.lo, y.lo, z.lo), NAME(x.hi, y.hi, z.hi));             \
  }

#endif  // LOCKSTEP_BUILTINS_LS_COMMON_H

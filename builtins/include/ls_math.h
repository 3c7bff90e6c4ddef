// Helpers of the math, common, geometric and relational builtins (B1).

// Tables of macro definitions and invocations, which clang-format would run
// together; they are kept within 100 columns by hand.
// clang-format off
#ifndef LOCKSTEP_BUILTINS_LS_MATH_H
#define LOCKSTEP_BUILTINS_LS_MATH_H

#include "ls_common.h"

// Applies M(T, ...) to every float and double type, scalar and vector.
#define LS_FOR_FLOAT_TYPES(M, ...)                                                 \
  M(float, __VA_ARGS__) M(float2, __VA_ARGS__) M(float3, __VA_ARGS__)             \
  M(float4, __VA_ARGS__) M(float8, __VA_ARGS__) M(float16, __VA_ARGS__)
#define LS_FOR_DOUBLE_TYPES(M, ...)                                                \
  M(double, __VA_ARGS__) M(double2, __VA_ARGS__) M(double3, __VA_ARGS__)           \
  M(double4, __VA_ARGS__) M(double8, __VA_ARGS__) M(double16, __VA_ARGS__)
// half (cl_khr_fp16) is listed apart: most of its builtins are computed in
// float (half_math.cl), not instantiated from the float/double bodies.
#define LS_FOR_HALF_TYPES(M, ...)                                                  \
  M(half, __VA_ARGS__) M(half2, __VA_ARGS__) M(half3, __VA_ARGS__)                 \
  M(half4, __VA_ARGS__) M(half8, __VA_ARGS__) M(half16, __VA_ARGS__)
#define LS_FOR_FP_TYPES(M, ...) \
  LS_FOR_FLOAT_TYPES(M, __VA_ARGS__) LS_FOR_DOUBLE_TYPES(M, __VA_ARGS__)

// Applies M(T, S) to every float and double vector type T with S its scalar
// type: the overloads that take one scalar argument beside vectors.
#define LS_FOR_FP_VECTORS_WITH_SCALAR(M, ...)                                      \
  M(float2, float, __VA_ARGS__) M(float3, float, __VA_ARGS__)                      \
  M(float4, float, __VA_ARGS__) M(float8, float, __VA_ARGS__)                      \
  M(float16, float, __VA_ARGS__) M(double2, double, __VA_ARGS__)                   \
  M(double3, double, __VA_ARGS__) M(double4, double, __VA_ARGS__)                  \
  M(double8, double, __VA_ARGS__) M(double16, double, __VA_ARGS__)

// A builtin that is exactly one Clang elementwise builtin, i.e. one LLVM
// intrinsic the vectorizer and the backend know (transcendental ones lower to
// glibc's correctly or nearly correctly rounded functions).
#define LS_UNARY_AS(T, NAME, BUILTIN) \
  LS_OVERLOAD T NAME(T x) { return BUILTIN(x); }
#define LS_BINARY_AS(T, NAME, BUILTIN) \
  LS_OVERLOAD T NAME(T x, T y) { return BUILTIN(x, y); }
#define LS_TERNARY_AS(T, NAME, BUILTIN) \
  LS_OVERLOAD T NAME(T x, T y, T z) { return BUILTIN(x, y, z); }

// A builtin computed by glibc's scalar function (float: NAMEf, double: NAME),
// per component for vectors. Clang emits the LLVM intrinsic where one exists,
// otherwise a plain call the JIT resolves in the process's libm.
#define LS_LIBM_UNARY(NAME)                                               \
  LS_OVERLOAD float NAME(float x) { return __builtin_##NAME##f(x); }      \
  LS_OVERLOAD double NAME(double x) { return __builtin_##NAME(x); }       \
  LS_EXPAND_UNARY(float, NAME, float)                                     \
  LS_EXPAND_UNARY(double, NAME, double)
#define LS_LIBM_BINARY(NAME)                                                    \
  LS_OVERLOAD float NAME(float x, float y) { return __builtin_##NAME##f(x, y); } \
  LS_OVERLOAD double NAME(double x, double y) { return __builtin_##NAME(x, y); } \
  LS_EXPAND_BINARY(float, NAME, float, float)                                   \
  LS_EXPAND_BINARY(double, NAME, double, double)

// glibc's reentrant lgamma (the plain one writes the global signgam, a data
// race between work-groups on several threads). The double one is renamed
// because lgamma_r is also the OpenCL builtin's name.
float lgammaf_r(float, __private int *);
double ls_libm_lgamma_r(double, __private int *) __asm__("lgamma_r");

// Applies M(T, S) to every half vector type T with S = half.
#define LS_FOR_HALF_VECTORS_WITH_SCALAR(M, ...)                                    \
  M(half2, half, __VA_ARGS__) M(half3, half, __VA_ARGS__)                          \
  M(half4, half, __VA_ARGS__) M(half8, half, __VA_ARGS__)                          \
  M(half16, half, __VA_ARGS__)

// Bit patterns and limits used by the bit-level implementations.
#define LS_FLT_SIGN 0x80000000u
#define LS_FLT_ABS 0x7fffffffu
#define LS_FLT_INF_BITS 0x7f800000u
#define LS_DBL_SIGN 0x8000000000000000ul
#define LS_DBL_ABS 0x7ffffffffffffffful
#define LS_DBL_INF_BITS 0x7ff0000000000000ul

#endif  // LOCKSTEP_BUILTINS_LS_MATH_H

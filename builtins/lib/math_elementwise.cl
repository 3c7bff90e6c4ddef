// Math builtins (OpenCL C 3.0 s6.15.2) that are one LLVM intrinsic each, for
// float and double, scalar and every vector width. Rounding, fabs, copysign,
// fma, sqrt, fmin/fmax are exact; the transcendental intrinsics lower to
// glibc's functions, which are within 1 ulp (s7.4 allows 3-4 ulp).

// Tables of macro definitions and invocations, which clang-format would run
// together; they are kept within 100 columns by hand.
// clang-format off
#include "ls_math.h"

LS_FOR_FP_TYPES(LS_UNARY_AS, fabs, __builtin_elementwise_abs)
LS_FOR_FP_TYPES(LS_UNARY_AS, floor, __builtin_elementwise_floor)
LS_FOR_FP_TYPES(LS_UNARY_AS, ceil, __builtin_elementwise_ceil)
LS_FOR_FP_TYPES(LS_UNARY_AS, trunc, __builtin_elementwise_trunc)
LS_FOR_FP_TYPES(LS_UNARY_AS, round, __builtin_elementwise_round)
LS_FOR_FP_TYPES(LS_UNARY_AS, rint, __builtin_elementwise_rint)
LS_FOR_FP_TYPES(LS_BINARY_AS, copysign, __builtin_elementwise_copysign)
LS_FOR_FP_TYPES(LS_TERNARY_AS, fma, __builtin_elementwise_fma)
// Clang tags float sqrt with !fpmath 3.0 (the ulp s7.4 allows); x86 ignores
// it and returns the correctly rounded root.
LS_FOR_FP_TYPES(LS_UNARY_AS, sqrt, __builtin_elementwise_sqrt)

// fmin/fmax: a NaN argument yields the other one (s7.5), which is exactly
// llvm.minnum/maxnum.
LS_FOR_FP_TYPES(LS_BINARY_AS, fmax, __builtin_elementwise_max)
LS_FOR_FP_TYPES(LS_BINARY_AS, fmin, __builtin_elementwise_min)
#define LS_FMINMAX_BROADCAST(T, S, NAME, BUILTIN) \
  LS_OVERLOAD T NAME(T x, S y) { return BUILTIN(x, (T)y); }
LS_FOR_FP_VECTORS_WITH_SCALAR(LS_FMINMAX_BROADCAST, fmax, __builtin_elementwise_max)
LS_FOR_FP_VECTORS_WITH_SCALAR(LS_FMINMAX_BROADCAST, fmin, __builtin_elementwise_min)

LS_FOR_FP_TYPES(LS_UNARY_AS, sin, __builtin_elementwise_sin)
LS_FOR_FP_TYPES(LS_UNARY_AS, cos, __builtin_elementwise_cos)
LS_FOR_FP_TYPES(LS_UNARY_AS, tan, __builtin_elementwise_tan)
LS_FOR_FP_TYPES(LS_UNARY_AS, asin, __builtin_elementwise_asin)
LS_FOR_FP_TYPES(LS_UNARY_AS, acos, __builtin_elementwise_acos)
LS_FOR_FP_TYPES(LS_UNARY_AS, atan, __builtin_elementwise_atan)
LS_FOR_FP_TYPES(LS_UNARY_AS, sinh, __builtin_elementwise_sinh)
LS_FOR_FP_TYPES(LS_UNARY_AS, cosh, __builtin_elementwise_cosh)
LS_FOR_FP_TYPES(LS_UNARY_AS, tanh, __builtin_elementwise_tanh)
LS_FOR_FP_TYPES(LS_UNARY_AS, exp, __builtin_elementwise_exp)
LS_FOR_FP_TYPES(LS_UNARY_AS, exp2, __builtin_elementwise_exp2)
// float log and log10 go through double: in a widened work-item loop the
// double function has a vector variant (glibc's libmvec) accurate enough to
// round to float within 0.5 ulp, while the float ones reach 3.9 and 3.3 ulp
// (3 allowed) and are left out (compiler/lib/VectorMath.cpp).
LS_FOR_DOUBLE_TYPES(LS_UNARY_AS, log, __builtin_elementwise_log)
LS_OVERLOAD float log(float x) { return (float)__builtin_elementwise_log((double)x); }
LS_EXPAND_UNARY(float, log, float)
LS_FOR_FP_TYPES(LS_UNARY_AS, log2, __builtin_elementwise_log2)
LS_FOR_DOUBLE_TYPES(LS_UNARY_AS, log10, __builtin_elementwise_log10)
LS_OVERLOAD float log10(float x) { return (float)__builtin_elementwise_log10((double)x); }
LS_EXPAND_UNARY(float, log10, float)
LS_FOR_FP_TYPES(LS_BINARY_AS, pow, __builtin_elementwise_pow)

// mad may be either fma or a multiply then an add (s6.15.2): contracted
// here (llvm.fmuladd), it is one FMA instruction where the CPU has FMA
// units and the two operations where it has none, each the cheaper there
// (clpeak's mad chains ran at half the FMA rate as a multiply and an add).
// The rest of the library is built with -ffp-contract=off.
#define LS_MAD(T, unused) \
  LS_OVERLOAD T mad(T a, T b, T c) {     \
    _Pragma("OPENCL FP_CONTRACT ON") return a * b + c; \
  }
LS_FOR_FP_TYPES(LS_MAD, 0)

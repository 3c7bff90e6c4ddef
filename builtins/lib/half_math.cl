// Math builtins (OpenCL C 3.0 s6.15.2) for half and its vectors
// (cl_khr_fp16). Every half is exactly a float, so each function is its
// float overload on the widened argument, rounded once to half (fptrunc:
// vcvtps2ph with F16C). The float functions are within a few float ulp, 2^13
// times finer than a half ulp, so the half result is within 0.5 ulp plus a
// hair: inside every bound of s7.4's half table, and the exact functions
// (rounding, fmod, remainder, fdim, ldexp...) stay exact. Special values come
// through float unchanged; results beyond HALF_MAX round to infinity.
// fma must be correctly rounded and float cannot hold a*b+c exactly: it is
// done in double and rounded to odd before the one rounding to half.

// Tables of macro definitions and invocations, which clang-format would run
// together; they are kept within 100 columns by hand.
// clang-format off
#include "ls_half.h"
#include "ls_math.h"

// The widened argument and the rounded result, for width N (empty: scalar).
#define LS_F(x, N) LS_CONVERT(x, float, N)
#define LS_H(x, N) LS_CONVERT(x, half, N)

// Each float overload called is declared again first: once this file
// defines a half overload of a name, Clang 19 no longer finds the other
// overloads opencl-c.h declares under it, only those declared here.
#define LS_HALF_UNARY(NAME, N)                                   \
  LS_OVERLOAD float##N NAME(float##N);                           \
  LS_OVERLOAD half##N NAME(half##N x) { return LS_H(NAME(LS_F(x, N)), N); }
#define LS_HALF_BINARY(NAME, N)                                  \
  LS_OVERLOAD float##N NAME(float##N, float##N);                 \
  LS_OVERLOAD half##N NAME(half##N x, half##N y) {               \
    return LS_H(NAME(LS_F(x, N), LS_F(y, N)), N);                \
  }
#define LS_HALF_WITH_INT(NAME, N)                                \
  LS_OVERLOAD float##N NAME(float##N, int##N);                   \
  LS_OVERLOAD half##N NAME(half##N x, int##N n) {                \
    return LS_H(NAME(LS_F(x, N), n), N);                         \
  }
#define LS_UNARY(NAME) LS_FOR_EACH_WIDTH(LS_HALF_UNARY, NAME)
#define LS_BINARY(NAME) LS_FOR_EACH_WIDTH(LS_HALF_BINARY, NAME)

LS_UNARY(acos) LS_UNARY(acosh) LS_UNARY(acospi) LS_UNARY(asin) LS_UNARY(asinh)
LS_UNARY(asinpi) LS_UNARY(atan) LS_UNARY(atanh) LS_UNARY(atanpi) LS_UNARY(cbrt)
LS_UNARY(cos) LS_UNARY(cosh) LS_UNARY(cospi) LS_UNARY(erfc) LS_UNARY(erf)
LS_UNARY(exp) LS_UNARY(exp2) LS_UNARY(exp10) LS_UNARY(expm1)
LS_UNARY(lgamma) LS_UNARY(log) LS_UNARY(log2) LS_UNARY(log10) LS_UNARY(log1p)
LS_UNARY(logb) LS_UNARY(rsqrt) LS_UNARY(sin)
LS_UNARY(sinh) LS_UNARY(sinpi) LS_UNARY(tan) LS_UNARY(tanh)
LS_UNARY(tanpi) LS_UNARY(tgamma)

LS_BINARY(atan2) LS_BINARY(atan2pi) LS_BINARY(fdim)
LS_BINARY(fmod) LS_BINARY(hypot) LS_BINARY(maxmag) LS_BINARY(minmag) LS_BINARY(pow)
LS_BINARY(powr) LS_BINARY(remainder)

// The exact operations are LLVM's half intrinsics: native instructions with
// AVX512-FP16 (vrndscaleph, vsqrtph, vminph...), elsewhere promoted to
// float and rounded back, which is exact for them (and correctly rounded
// for sqrt: float has 2 * 11 + 2 bits).
LS_FOR_HALF_TYPES(LS_UNARY_AS, ceil, __builtin_elementwise_ceil)
LS_FOR_HALF_TYPES(LS_UNARY_AS, floor, __builtin_elementwise_floor)
LS_FOR_HALF_TYPES(LS_UNARY_AS, trunc, __builtin_elementwise_trunc)
LS_FOR_HALF_TYPES(LS_UNARY_AS, round, __builtin_elementwise_round)
LS_FOR_HALF_TYPES(LS_UNARY_AS, rint, __builtin_elementwise_rint)
LS_FOR_HALF_TYPES(LS_UNARY_AS, sqrt, __builtin_elementwise_sqrt)
// fmin/fmax: a NaN argument yields the other one, llvm.minnum/maxnum.
LS_FOR_HALF_TYPES(LS_BINARY_AS, fmax, __builtin_elementwise_max)
LS_FOR_HALF_TYPES(LS_BINARY_AS, fmin, __builtin_elementwise_min)

LS_FOR_EACH_WIDTH(LS_HALF_WITH_INT, ldexp)
LS_FOR_EACH_WIDTH(LS_HALF_WITH_INT, pown)
LS_FOR_EACH_WIDTH(LS_HALF_WITH_INT, rootn)

// fabs and copysign work on the sign bit alone (a NaN keeps its payload).
LS_FOR_HALF_TYPES(LS_UNARY_AS, fabs, __builtin_elementwise_abs)
LS_FOR_HALF_TYPES(LS_BINARY_AS, copysign, __builtin_elementwise_copysign)

// ilogb is exact in float (half's subnormals are normal there).
#define LS_HALF_ILOGB(unused, N)                                 \
  LS_OVERLOAD int##N ilogb(float##N);                            \
  LS_OVERLOAD int##N ilogb(half##N x) { return ilogb(LS_F(x, N)); }
LS_FOR_EACH_WIDTH(LS_HALF_ILOGB, 0)

// The overloads with a scalar beside a vector.
#define LS_HALF_MINMAX_BROADCAST(T, S, NAME)                     \
  LS_OVERLOAD T NAME(T x, S y) { return NAME(x, (T)y); }
LS_FOR_HALF_VECTORS_WITH_SCALAR(LS_HALF_MINMAX_BROADCAST, fmax)
LS_FOR_HALF_VECTORS_WITH_SCALAR(LS_HALF_MINMAX_BROADCAST, fmin)
#define LS_HALF_LDEXP_SCALAR(unused, N) \
  LS_OVERLOAD half##N ldexp(half##N x, int n) { return ldexp(x, (int##N)n); }
LS_FOR_EACH_VECTOR_WIDTH(LS_HALF_LDEXP_SCALAR, 0)

// nextafter: one step on the sign-magnitude encoding, as for float.
LS_OVERLOAD half nextafter(half x, half y) {
  short ix = as_short(x);
  short step = ((x < y) == (x > 0.0h)) ? (short)(ix + 1) : (short)(ix - 1);
  step = x == 0.0h ? (short)((as_short(y) & (short)0x8000) | 1) : step;
  half r = x == y ? y : as_half(step);
  return isnan(x) || isnan(y) ? x + y : r;
}
LS_EXPAND_BINARY(half, nextafter, half, half)

// A quiet NaN carrying nancode in the rest of its significand.
#define LS_HALF_NAN(unused, N)                                               \
  LS_OVERLOAD half##N nan(ushort##N code) {                                  \
    return LS_AS((ushort##N)((ushort##N)0x7e00 | (code & (ushort##N)0x01ff)), half##N); \
  }
LS_FOR_EACH_WIDTH(LS_HALF_NAN, 0)

// fma, correctly rounded: a*b is exact in double (22 bits); the sum s is
// rounded there, and its error (two-sum, exact) says which way. Rounding
// to odd (an inexact s with an even last bit moves one ulp towards the
// true value) keeps that information through the second rounding to half,
// which is then correct because double has far more than 11 + 2 bits.
LS_OVERLOAD half fma(half a, half b, half c) {
  double p = (double)a * (double)b, dc = (double)c;
  double s = p + dc;
  double t = s - p;
  double err = (p - (s - t)) + (dc - t);
  long bits = as_long(s);
  long toward = (err > 0.0) == (s > 0.0) ? bits + 1 : bits - 1;
  bool inexact = __builtin_isfinite(s) && err != 0.0 && (bits & 1) == 0;
  return as_half(ls_to_half_rte(as_double(inexact ? toward : bits)));
}
LS_EXPAND_TERNARY(half, fma, half)

// mad may be fused or not (s6.15.2): contracted half arithmetic
// (llvm.fmuladd.f16), as for float. With AVX512-FP16 it is one vfmadd*ph
// on whole vectors; elsewhere LLVM does a multiply and an add, each rounded
// to half. (Measured on an AVX512-FP16 Xeon, a widened chain of 512 mads
// per work-item: 1106 ms through a float fma against float's 158 ms;
// contracted, 46 ms against float's 63 ms.)
#define LS_HALF_MAD(T, unused)                                                \
  LS_OVERLOAD T mad(T a, T b, T c) {                                          \
    _Pragma("OPENCL FP_CONTRACT ON") return a * b + c;                        \
  }
LS_FOR_HALF_TYPES(LS_HALF_MAD, 0)

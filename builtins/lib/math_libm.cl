// Math builtins (OpenCL C 3.0 s6.15.2) computed by glibc's scalar functions,
// component by component for vectors. glibc stays within the ulp bounds of
// s7.4 (its float functions are within 1-2 ulp, tgamma/erf well under the 16
// allowed) and follows C99 Annex F for the special values of s7.5.

// Tables of macro definitions and invocations, which clang-format would run
// together; they are kept within 100 columns by hand.
// clang-format off
#include "ls_math.h"

LS_LIBM_UNARY(acosh)
LS_LIBM_UNARY(asinh)
LS_LIBM_UNARY(atanh)
LS_LIBM_UNARY(erf)
LS_LIBM_UNARY(erfc)
// float exp10 through double, as float log (math_elementwise.cl): the
// AVX-512 vector variant of exp10f reaches 3.8 ulp (3 allowed).
LS_OVERLOAD float exp10(float x) { return (float)__builtin_exp10((double)x); }
LS_OVERLOAD double exp10(double x) { return __builtin_exp10(x); }
LS_EXPAND_UNARY(float, exp10, float)
LS_EXPAND_UNARY(double, exp10, double)
LS_LIBM_UNARY(expm1)
LS_LIBM_UNARY(log1p)
LS_LIBM_UNARY(tgamma)
LS_LIBM_BINARY(atan2)
// fmod and remainder are exact by definition; fmod becomes LLVM's frem.
LS_LIBM_BINARY(fmod)
LS_LIBM_BINARY(remainder)

// cbrt: glibc's float cbrtf is within 1 ulp, but its double cbrt is off by
// up to 3-4 ulp and s7.4 allows 2. One Newton step on y^3 = x, with the
// residual y^3 - x computed exactly enough through fma, brings glibc's value
// within 1 ulp. The step is done on x scaled by 2^-+600 into a range where
// y^3 neither overflows nor goes subnormal; inf, NaN and zeros skip it.
LS_OVERLOAD float cbrt(float x) { return __builtin_cbrtf(x); }
LS_OVERLOAD double cbrt(double x) {
  double ax = __builtin_elementwise_abs(x);
  double scale = ax > 0x1p+900 ? 0x1p-600 : (ax < 0x1p-900 ? 0x1p+600 : 1.0);
  double unscale = ax > 0x1p+900 ? 0x1p+200 : (ax < 0x1p-900 ? 0x1p-200 : 1.0);
  double xs = x * scale;
  double y = __builtin_cbrt(xs);
  double y2 = y * y;
  double y2_error = __builtin_elementwise_fma(y, y, -y2);
  double y3 = y2 * y;
  double y3_error = __builtin_elementwise_fma(y2, y, -y3) + y2_error * y;
  double residual = (y3 - xs) + y3_error;
  double refined = (y - residual / (3.0 * y2)) * unscale;
  return __builtin_isfinite(x) && x != 0.0 ? refined : x;
}
LS_EXPAND_UNARY(float, cbrt, float)
LS_EXPAND_UNARY(double, cbrt, double)

// lgamma through the reentrant lgamma_r (see ls_math.h).

LS_OVERLOAD float lgamma(float x) {
  int sign;
  return lgammaf_r(x, &sign);
}
LS_OVERLOAD double lgamma(double x) {
  int sign;
  return ls_libm_lgamma_r(x, &sign);
}
LS_EXPAND_UNARY(float, lgamma, float)
LS_EXPAND_UNARY(double, lgamma, double)

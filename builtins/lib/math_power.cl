// pown, powr and rootn (OpenCL C 3.0 s6.15.2, special values s7.5), built on
// pow (glibc, < 1 ulp). float goes through double, where every float result
// is exact to far below a float ulp; the bound is 16 ulp.

// Tables of macro definitions and invocations, which clang-format would run
// together; they are kept within 100 columns by hand.
// clang-format off
#include "ls_math.h"

// pown(x, n) is C's pow with an integral exponent, which any int is exactly
// in double; C's special values at +-0 and n = 0 are those of s7.5.
LS_OVERLOAD double pown(double x, int n) { return __builtin_elementwise_pow(x, (double)n); }
LS_OVERLOAD float pown(float x, int n) { return (float)pown((double)x, n); }

// powr is pow restricted to x >= 0: C's pow gives the magnitude, the
// domain errors of s7.5 are NaN (x < 0, 0^0, inf^0, 1^inf, any NaN).
LS_OVERLOAD double powr(double x, double y) {
  double r = __builtin_elementwise_pow(__builtin_elementwise_abs(x), y);
  bool domain_error = x < 0.0 || (x == 0.0 && y == 0.0) || (__builtin_isinf(x) && y == 0.0) ||
                      (x == 1.0 && __builtin_isinf(y)) || __builtin_isnan(x) || __builtin_isnan(y);
  return domain_error ? NAN : r;
}
LS_OVERLOAD float powr(float x, float y) { return (float)powr((double)x, (double)y); }

// The n-th root of |x| with the sign of x for odd n: NaN for n = 0 or x < 0
// with n even; C's pow gives the +-0 and +-inf cases of s7.5.
// 1/n rounded to double would cost up to |log x| * 2^-53 relative, some 100
// ulp for x near DBL_MAX, so the exponent's rounding error lo is added back:
// |x|^(hi + lo) = |x|^hi * (1 + lo * log|x|).
LS_OVERLOAD double rootn(double x, int n) {
  double ax = __builtin_elementwise_abs(x);
  double hi = 1.0 / (double)n;
  double lo = __builtin_elementwise_fma(-(double)n, hi, 1.0) / (double)n;
  double r = __builtin_elementwise_pow(ax, hi);
  double corrected = r + r * (lo * __builtin_elementwise_log(ax));
  r = __builtin_isfinite(r) && r != 0.0 ? corrected : r;
  r = (n & 1) ? __builtin_elementwise_copysign(r, x) : r;
  return n == 0 || (x < 0.0 && !(n & 1)) ? NAN : r;
}
LS_OVERLOAD float rootn(float x, int n) { return (float)rootn((double)x, n); }

LS_EXPAND_BINARY(float, pown, float, int)
LS_EXPAND_BINARY(double, pown, double, int)
LS_EXPAND_BINARY(float, powr, float, float)
LS_EXPAND_BINARY(double, powr, double, double)
LS_EXPAND_BINARY(float, rootn, float, int)
LS_EXPAND_BINARY(double, rootn, double, int)

// The *pi math builtins (OpenCL C 3.0 s6.15.2): sinpi, cospi, tanpi (of pi*x)
// and asinpi, acospi, atanpi, atan2pi (divided by pi). glibc 2.36 has none.
// The argument is reduced exactly (x mod 2 is exact in floating point), so
// large arguments lose nothing; float is then computed in double, double in
// double-double where the product with pi needs it.

// Tables of macro definitions and invocations, which clang-format would run
// together; they are kept within 100 columns by hand.
// clang-format off
#include "ls_math.h"

// pi = PI_HI + PI_LO to about 107 bits.
#define LS_PI_HI 0x1.921fb54442d18p+1
#define LS_PI_LO 0x1.1a62633145c07p-53

// sin(pi * t) for |t| <= 0.5, with pi * t as a double-double hi + lo:
// sin(hi + lo) = sin(hi) + lo * cos(hi) to far below an ulp.
LS_HELPER double ls_sinpi_kernel(double t) {
  double hi = t * LS_PI_HI;
  double lo = __builtin_elementwise_fma(t, LS_PI_HI, -hi) + t * LS_PI_LO;
  return __builtin_elementwise_sin(hi) + lo * __builtin_elementwise_cos(hi);
}

// |x| mod 2, in [0, 2); exact for every finite double (NaN for inf/NaN).
LS_HELPER double ls_mod2(double ax) { return ax - 2.0 * __builtin_elementwise_floor(0.5 * ax); }

LS_OVERLOAD double sinpi(double x) {
  double r = ls_mod2(__builtin_elementwise_abs(x));
  // sin(pi r) = -sin(pi (r - 1)) for r in [1, 2); then fold onto [0, 0.5].
  bool negate = r >= 1.0;
  r = negate ? r - 1.0 : r;
  r = r > 0.5 ? 1.0 - r : r;
  double m = ls_sinpi_kernel(r);
  // An exact zero takes the sign of x (sinpi(+n) = +0, sinpi(-n) = -0);
  // otherwise the sign of x flips that of sin(pi |x|) (sinpi is odd).
  m = (negate && m != 0.0) ? -m : m;
  return as_double(as_ulong(m) ^ (as_ulong(x) & LS_DBL_SIGN));
}

LS_OVERLOAD double cospi(double x) {
  double r = ls_mod2(__builtin_elementwise_abs(x));
  r = r > 1.0 ? 2.0 - r : r;  // cos(pi r) = cos(pi (2 - r)); exact
  // cos(pi r) = sin(pi (0.5 - r)); cospi(n + 0.5) is then +0 as required.
  return ls_sinpi_kernel(0.5 - r);
}

// The signs of sinpi and cospi give exactly the zeros and infinities s7.5
// asks of tanpi at integers and half-integers.
LS_OVERLOAD double tanpi(double x) { return sinpi(x) / cospi(x); }

LS_OVERLOAD float sinpi(float x) { return (float)sinpi((double)x); }
LS_OVERLOAD float cospi(float x) { return (float)cospi((double)x); }
LS_OVERLOAD float tanpi(float x) { return (float)tanpi((double)x); }

// The inverse functions divided by pi: float in double is exact to well
// below a float ulp; double is asin/acos/atan (< 1 ulp) then one correctly
// rounded division, within 2 ulp of the 5-6 allowed. Zeros keep their sign.
LS_OVERLOAD double asinpi(double x) { return __builtin_elementwise_asin(x) / M_PI; }
LS_OVERLOAD double acospi(double x) { return __builtin_elementwise_acos(x) / M_PI; }
LS_OVERLOAD double atanpi(double x) { return __builtin_elementwise_atan(x) / M_PI; }
LS_OVERLOAD double atan2pi(double y, double x) { return __builtin_atan2(y, x) / M_PI; }
LS_OVERLOAD float asinpi(float x) { return (float)asinpi((double)x); }
LS_OVERLOAD float acospi(float x) { return (float)acospi((double)x); }
LS_OVERLOAD float atanpi(float x) { return (float)atanpi((double)x); }
LS_OVERLOAD float atan2pi(float y, float x) { return (float)atan2pi((double)y, (double)x); }

LS_EXPAND_UNARY(float, sinpi, float)
LS_EXPAND_UNARY(double, sinpi, double)
LS_EXPAND_UNARY(float, cospi, float)
LS_EXPAND_UNARY(double, cospi, double)
LS_EXPAND_UNARY(float, tanpi, float)
LS_EXPAND_UNARY(double, tanpi, double)
LS_EXPAND_UNARY(float, asinpi, float)
LS_EXPAND_UNARY(double, asinpi, double)
LS_EXPAND_UNARY(float, acospi, float)
LS_EXPAND_UNARY(double, acospi, double)
LS_EXPAND_UNARY(float, atanpi, float)
LS_EXPAND_UNARY(double, atanpi, double)
LS_EXPAND_BINARY(float, atan2pi, float, float)
LS_EXPAND_BINARY(double, atan2pi, double, double)

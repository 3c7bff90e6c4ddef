// Math builtins (OpenCL C 3.0 s6.15.2) that are exact by nature and done on
// the encoding or with a few selects, so they vectorize: ilogb, logb, ldexp,
// nextafter, nan, fdim, maxmag, minmag, and rsqrt.

// Tables of macro definitions and invocations, which clang-format would run
// together; they are kept within 100 columns by hand.
// clang-format off
#include "ls_math.h"

LS_OVERLOAD int ilogb(float x) {
  uint u = as_uint(x) & LS_FLT_ABS;
  int e = (int)(u >> 23) - 127;
  // A subnormal m * 2^-149 has ilogb = (31 - clz(m)) - 149.
  int subnormal = -118 - (int)__builtin_clzg(u, 32);
  e = u < 0x00800000u ? subnormal : e;
  e = u == 0 ? FP_ILOGB0 : e;
  e = u == LS_FLT_INF_BITS ? INT_MAX : e;
  return u > LS_FLT_INF_BITS ? FP_ILOGBNAN : e;
}

LS_OVERLOAD int ilogb(double x) {
  ulong u = as_ulong(x) & LS_DBL_ABS;
  int e = (int)(u >> 52) - 1023;
  int subnormal = -1011 - (int)__builtin_clzg(u, 64);
  e = u < 0x0010000000000000ul ? subnormal : e;
  e = u == 0 ? FP_ILOGB0 : e;
  e = u == LS_DBL_INF_BITS ? INT_MAX : e;
  return u > LS_DBL_INF_BITS ? FP_ILOGBNAN : e;
}
LS_EXPAND_UNARY(int, ilogb, float)
LS_EXPAND_UNARY(int, ilogb, double)

// logb(+-0) = -inf, logb(+-inf) = +inf, logb(NaN) = NaN (C99 F.9.3.11).
LS_OVERLOAD float logb(float x) {
  float special = x == 0.0f ? -INFINITY : x * x;
  return __builtin_isfinite(x) && x != 0.0f ? (float)ilogb(x) : special;
}
LS_OVERLOAD double logb(double x) {
  double special = x == 0.0 ? -(double)INFINITY : x * x;
  return __builtin_isfinite(x) && x != 0.0 ? (double)ilogb(x) : special;
}
LS_EXPAND_UNARY(float, logb, float)
LS_EXPAND_UNARY(double, logb, double)

LS_OVERLOAD float ldexp(float x, int n) { return __builtin_ldexpf(x, n); }
LS_OVERLOAD double ldexp(double x, int n) { return __builtin_ldexp(x, n); }
LS_EXPAND_BINARY(float, ldexp, float, int)
LS_EXPAND_BINARY(double, ldexp, double, int)
LS_EXPAND_BINARY_SCALAR_Y(float, ldexp, float, int)
LS_EXPAND_BINARY_SCALAR_Y(double, ldexp, double, int)

// One step on the sign-magnitude encoding: +1 moves away from zero.
#define LS_NEXTAFTER(T, I, AS_I, AS_T, SIGN)                         \
  LS_OVERLOAD T nextafter(T x, T y) {                                \
    I ix = AS_I(x);                                                  \
    I away = ix + 1, toward = ix - 1;                                \
    I step = ((x < y) == (x > (T)0)) ? away : toward;                \
    /* From a zero, the smallest subnormal with the sign of y. */    \
    step = x == (T)0 ? ((AS_I(y) & (I)SIGN) | (I)1) : step;          \
    T r = x == y ? y : AS_T(step);                                   \
    return __builtin_isnan(x) || __builtin_isnan(y) ? x + y : r;                         \
  }
LS_NEXTAFTER(float, int, as_int, as_float, LS_FLT_SIGN)
LS_NEXTAFTER(double, long, as_long, as_double, LS_DBL_SIGN)
LS_EXPAND_BINARY(float, nextafter, float, float)
LS_EXPAND_BINARY(double, nextafter, double, double)

// A quiet NaN carrying nancode in the rest of its significand.
#define LS_NAN(T, C, AS_T, QUIET, PAYLOAD) \
  LS_OVERLOAD T nan(C code) { return AS_T((C)QUIET | (code & (C)PAYLOAD)); }
#define LS_NAN_FLOAT(N) LS_NAN(float##N, uint##N, as_float##N, 0x7fc00000u, 0x003fffffu)
#define LS_NAN_DOUBLE(N) \
  LS_NAN(double##N, ulong##N, as_double##N, 0x7ff8000000000000ul, 0x0007fffffffffffful)
LS_NAN_FLOAT() LS_NAN_FLOAT(2) LS_NAN_FLOAT(3) LS_NAN_FLOAT(4) LS_NAN_FLOAT(8) LS_NAN_FLOAT(16)
LS_NAN_DOUBLE() LS_NAN_DOUBLE(2) LS_NAN_DOUBLE(3) LS_NAN_DOUBLE(4) LS_NAN_DOUBLE(8)
LS_NAN_DOUBLE(16)

// fdim: x - y if x > y, +0 if x <= y, NaN if either is (the subtraction
// propagates it since every comparison with a NaN is false).
#define LS_FDIM(T, unused) \
  LS_OVERLOAD T fdim(T x, T y) { return x <= y ? (T)0 : x - y; }
LS_FOR_FP_TYPES(LS_FDIM, 0)

#define LS_MAXMAG(T, unused)                                              \
  LS_OVERLOAD T maxmag(T x, T y) {                                        \
    T ax = __builtin_elementwise_abs(x), ay = __builtin_elementwise_abs(y); \
    return ax > ay ? x : (ay > ax ? y : __builtin_elementwise_max(x, y)); \
  }                                                                       \
  LS_OVERLOAD T minmag(T x, T y) {                                        \
    T ax = __builtin_elementwise_abs(x), ay = __builtin_elementwise_abs(y); \
    return ax < ay ? x : (ay < ax ? y : __builtin_elementwise_min(x, y)); \
  }
LS_FOR_FP_TYPES(LS_MAXMAG, 0)

// hypot without glibc, so that it inlines and vectorizes. float: the squares
// are exact in double and cannot overflow there, so one rounding of the sum
// and the root leave the float result correctly rounded but for double
// rounding. double: scaled by a power of two (exactly undone) so that the
// larger square neither overflows nor underflows; about 1.5 ulp (s7.4: 4).
// hypot(+-inf, NaN) is +inf (C99 F.9.4.3); otherwise a NaN propagates.
LS_HELPER double ls_hypot_special(double x, double y, double r) {
  r = __builtin_isnan(x) || __builtin_isnan(y) ? x + y : r;
  return __builtin_isinf(x) || __builtin_isinf(y) ? (double)INFINITY : r;
}
LS_OVERLOAD float hypot(float x, float y) {
  double dx = (double)x, dy = (double)y;
  return (float)ls_hypot_special(dx, dy, __builtin_elementwise_sqrt(dx * dx + dy * dy));
}
LS_OVERLOAD double hypot(double x, double y) {
  double ax = __builtin_elementwise_abs(x), ay = __builtin_elementwise_abs(y);
  double big = __builtin_elementwise_max(ax, ay), small = __builtin_elementwise_min(ax, ay);
  double scale = big > 0x1p+500 ? 0x1p-600 : (big < 0x1p-500 ? 0x1p+600 : 1.0);
  double b = big * scale, s = small * scale;
  return ls_hypot_special(x, y, __builtin_elementwise_sqrt(b * b + s * s) / scale);
}
LS_EXPAND_BINARY(float, hypot, float, float)
LS_EXPAND_BINARY(double, hypot, double, double)

// rsqrt: two correctly rounded steps, 1/sqrt(x), stay under the 2 ulp the
// spec allows (s7.4) for float and double alike, and keep the work in the
// vector unit at the argument's own width (a detour through double halved
// the lanes and cost a double divide per element).
#define LS_RSQRT_FLOAT(T, unused) \
  LS_OVERLOAD T rsqrt(T x) { return (T)1.0f / __builtin_elementwise_sqrt(x); }
LS_FOR_FLOAT_TYPES(LS_RSQRT_FLOAT, 0)
#define LS_RSQRT_DOUBLE(T, unused) \
  LS_OVERLOAD T rsqrt(T x) { return (T)1.0 / __builtin_elementwise_sqrt(x); }
LS_FOR_DOUBLE_TYPES(LS_RSQRT_DOUBLE, 0)

// Math builtins with a pointer result (OpenCL C 3.0 s6.15.2): fract, modf,
// sincos, frexp, lgamma_r, remquo. Each is computed by a helper writing its
// second result to a private variable; one overload per address space then
// stores it: __global, __local, __private (OpenCL C 1.x, 2.0) and generic
// (OpenCL C 3.0 with __opencl_c_generic_address_space).

// Tables of macro definitions and invocations, which clang-format would run
// together; they are kept within 100 columns by hand.
// clang-format off
#include "ls_math.h"

// fract: floor(x) to *iptr and x - floor(x), below 1 (s7.5: +-0 for +-0,
// +-0 for +-inf, the NaN for a NaN).
#define LS_FRACT(T, BELOW_ONE)                                                 \
  LS_HELPER T ls_fract(T x, __private T *iptr) {                                \
    T fl = __builtin_elementwise_floor(x);                                      \
    *iptr = fl;                                                                 \
    T r = __builtin_elementwise_min(x - fl, (T)(BELOW_ONE));                    \
    r = __builtin_elementwise_abs(x) == (T)INFINITY                             \
            ? __builtin_elementwise_copysign((T)0, x) : r;                      \
    r = x == (T)0 ? x : r;                                                      \
    return x != x ? x : r;                                                      \
  }
#define LS_FRACT_FLOAT(T, unused) LS_FRACT(T, 0x1.fffffep-1f)
#define LS_FRACT_DOUBLE(T, unused) LS_FRACT(T, 0x1.fffffffffffffp-1)
LS_FOR_FLOAT_TYPES(LS_FRACT_FLOAT, 0)
LS_FOR_DOUBLE_TYPES(LS_FRACT_DOUBLE, 0)

// modf: the integral part to *iptr; the fraction has the sign of x and is
// +-0 for +-inf (C99 F.9.3.12).
#define LS_MODF(T, unused)                                                        \
  LS_HELPER T ls_modf(T x, __private T *iptr) {                                   \
    T i = __builtin_elementwise_trunc(x);                                         \
    *iptr = i;                                                                    \
    T f = __builtin_elementwise_abs(x) == (T)INFINITY ? (T)0 : x - i;             \
    return __builtin_elementwise_copysign(f, x);                                  \
  }
LS_FOR_FP_TYPES(LS_MODF, 0)

#define LS_SINCOS(T, unused)                                  \
  LS_HELPER T ls_sincos(T x, __private T *cosval) {           \
    *cosval = __builtin_elementwise_cos(x);                   \
    return __builtin_elementwise_sin(x);                      \
  }
LS_FOR_FP_TYPES(LS_SINCOS, 0)

// frexp: llvm.frexp leaves the exponent of inf/NaN unspecified; store 0 as
// glibc does.
LS_HELPER float ls_frexp(float x, __private int *e) {
  float m = __builtin_frexpf(x, e);
  *e = __builtin_isfinite(x) ? *e : 0;
  return m;
}
LS_HELPER double ls_frexp(double x, __private int *e) {
  double m = __builtin_frexp(x, e);
  *e = __builtin_isfinite(x) ? *e : 0;
  return m;
}

LS_HELPER float ls_lgamma_r(float x, __private int *sign) { return lgammaf_r(x, sign); }
LS_HELPER double ls_lgamma_r(double x, __private int *sign) { return ls_libm_lgamma_r(x, sign); }

// remquo: the remainder of remainder() and at least the 7 low bits of the
// rounded quotient x/y with its sign (s6.15.2). glibc's remquo gives only 3.
// fmod by 128|y| is exact and keeps the quotient mod 128; the bits are then
// taken off one by one, each subtraction exact (Sterbenz), and the quotient
// rounded to nearest even as remainder() does. A 128|y| that overflows means
// |x/y| < 128 already, and inf compares as needed all the way.
#define LS_REMQUO(T, U, AS_U, AS_T, SIGN)                                 \
  LS_HELPER T ls_remquo(T x, T y, __private int *quo) {                   \
    T ax = __builtin_elementwise_abs(x), ay = __builtin_elementwise_abs(y); \
    T r = __builtin_fmod(ax, (T)128 * ay);                                \
    int q = 0;                                                            \
    _Pragma("unroll") for (int bit = 6; bit >= 0; --bit) {                \
      T part = ay * (T)(1 << bit);                                        \
      bool take = r >= part;                                              \
      r = take ? r - part : r;                                            \
      q = take ? q | (1 << bit) : q;                                      \
    }                                                                     \
    T twice = (T)2 * r;                                                   \
    bool up = twice > ay || (twice == ay && (q & 1));                     \
    r = up ? r - ay : r;                                                  \
    q = up ? q + 1 : q;                                                   \
    bool opposite = ((AS_U(x) ^ AS_U(y)) & SIGN) != 0;                    \
    bool invalid = y == (T)0 || __builtin_isinf(x) || __builtin_isnan(x) || \
                   __builtin_isnan(y);                                    \
    *quo = invalid ? 0 : (opposite ? -q : q);                             \
    r = AS_T(AS_U(r) ^ (AS_U(x) & SIGN)); /* sign of x, also for 0 */     \
    return invalid ? (T)NAN : r;                                          \
  }
LS_REMQUO(float, uint, as_uint, as_float, LS_FLT_SIGN)
LS_REMQUO(double, ulong, as_ulong, as_double, LS_DBL_SIGN)

// Vector helpers from the scalar ones, component by component.
#define LS_EXPAND_OUT_HELPER(T, O, NAME)                                          \
  LS_HELPER T##2 NAME(T##2 x, __private O##2 *out) {                              \
    O a, b;                                                                       \
    T##2 r = (T##2)(NAME(x.s0, &a), NAME(x.s1, &b));                              \
    *out = (O##2)(a, b);                                                          \
    return r;                                                                     \
  }                                                                               \
  LS_HELPER T##3 NAME(T##3 x, __private O##3 *out) {                              \
    O a, b, c;                                                                    \
    T##3 r = (T##3)(NAME(x.s0, &a), NAME(x.s1, &b), NAME(x.s2, &c));              \
    *out = (O##3)(a, b, c);                                                       \
    return r;                                                                     \
  }                                                                               \
  LS_EXPAND_OUT_HELPER_HALVES(T, O, NAME, 4, 2)                                   \
  LS_EXPAND_OUT_HELPER_HALVES(T, O, NAME, 8, 4)                                   \
  LS_EXPAND_OUT_HELPER_HALVES(T, O, NAME, 16, 8)
#define LS_EXPAND_OUT_HELPER_HALVES(T, O, NAME, N, H)                             \
  LS_HELPER T##N NAME(T##N x, __private O##N *out) {                              \
    O##H a, b;                                                                    \
    T##N r = (T##N)(NAME(x.lo, &a), NAME(x.hi, &b));                              \
    *out = (O##N)(a, b);                                                          \
    return r;                                                                     \
  }
LS_EXPAND_OUT_HELPER(float, int, ls_frexp)
LS_EXPAND_OUT_HELPER(double, int, ls_frexp)
LS_EXPAND_OUT_HELPER(float, int, ls_lgamma_r)
LS_EXPAND_OUT_HELPER(double, int, ls_lgamma_r)

#define LS_EXPAND_OUT2_HELPER_N(T, O, NAME, N)                                    \
  LS_HELPER T##N NAME(T##N x, T##N y, __private O##N *out) {                      \
    T##N r;                                                                       \
    O##N o;                                                                       \
    _Pragma("unroll") for (int i = 0; i < N; ++i) {                               \
      O oi;                                                                       \
      r[i] = NAME(x[i], y[i], &oi);                                               \
      o[i] = oi;                                                                  \
    }                                                                             \
    *out = o;                                                                     \
    return r;                                                                     \
  }
#define LS_EXPAND_OUT2_HELPER(T, O, NAME)                                          \
  LS_EXPAND_OUT2_HELPER_N(T, O, NAME, 2) LS_EXPAND_OUT2_HELPER_N(T, O, NAME, 3)    \
  LS_EXPAND_OUT2_HELPER_N(T, O, NAME, 4) LS_EXPAND_OUT2_HELPER_N(T, O, NAME, 8)    \
  LS_EXPAND_OUT2_HELPER_N(T, O, NAME, 16)
LS_EXPAND_OUT2_HELPER(float, int, ls_remquo)
LS_EXPAND_OUT2_HELPER(double, int, ls_remquo)

// The builtins, one overload per address space of the pointer.
#define LS_OUT_OVERLOAD(AS, T, O, NAME)                  \
  LS_OVERLOAD T NAME(T x, AS O *out) {                   \
    O value;                                             \
    T r = ls_##NAME(x, &value);                          \
    *out = value;                                        \
    return r;                                            \
  }
#define LS_OUT2_OVERLOAD(AS, T, O, NAME)                 \
  LS_OVERLOAD T NAME(T x, T y, AS O *out) {              \
    O value;                                             \
    T r = ls_##NAME(x, y, &value);                       \
    *out = value;                                        \
    return r;                                            \
  }
#define LS_ALL_SPACES(OVERLOAD, T, O, NAME)                           \
  OVERLOAD(__global, T, O, NAME) OVERLOAD(__local, T, O, NAME)        \
  OVERLOAD(__private, T, O, NAME) OVERLOAD(, T, O, NAME)
#define LS_ALL_WIDTHS(OVERLOAD, T, O, NAME)                                      \
  LS_ALL_SPACES(OVERLOAD, T, O, NAME) LS_ALL_SPACES(OVERLOAD, T##2, O##2, NAME)  \
  LS_ALL_SPACES(OVERLOAD, T##3, O##3, NAME)                                      \
  LS_ALL_SPACES(OVERLOAD, T##4, O##4, NAME)                                      \
  LS_ALL_SPACES(OVERLOAD, T##8, O##8, NAME)                                      \
  LS_ALL_SPACES(OVERLOAD, T##16, O##16, NAME)

#define LS_SAME_TYPE_OUT(T, NAME) LS_ALL_WIDTHS(LS_OUT_OVERLOAD, T, T, NAME)
LS_SAME_TYPE_OUT(float, fract)
LS_SAME_TYPE_OUT(double, fract)
LS_SAME_TYPE_OUT(float, modf)
LS_SAME_TYPE_OUT(double, modf)
LS_SAME_TYPE_OUT(float, sincos)
LS_SAME_TYPE_OUT(double, sincos)
LS_ALL_WIDTHS(LS_OUT_OVERLOAD, float, int, frexp)
LS_ALL_WIDTHS(LS_OUT_OVERLOAD, double, int, frexp)
LS_ALL_WIDTHS(LS_OUT_OVERLOAD, float, int, lgamma_r)
LS_ALL_WIDTHS(LS_OUT_OVERLOAD, double, int, lgamma_r)
LS_ALL_WIDTHS(LS_OUT2_OVERLOAD, float, int, remquo)
LS_ALL_WIDTHS(LS_OUT2_OVERLOAD, double, int, remquo)

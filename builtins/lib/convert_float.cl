// Explicit conversions to float and double (see ls_convert.h). There is no
// _sat form for floating-point destinations.
#include "ls_convert.h"

// The neighbours of a finite or infinite f towards +inf / -inf, from its
// sign-magnitude bit pattern. Zero steps to the smallest denormal.
#define LS_NEXT_AFTER(F, I)                                               \
  static LS_CONST_OVERLOAD F ls_next_up(F f) {                            \
    I bits = LS_AS(f, I);                                                 \
    if (f == (F)0) return LS_AS((I)1, F);                                 \
    return LS_AS(f > (F)0 ? bits + 1 : bits - 1, F);                      \
  }                                                                       \
  static LS_CONST_OVERLOAD F ls_next_down(F f) {                          \
    I bits = LS_AS(f, I);                                                 \
    if (f == (F)0) return -LS_AS((I)1, F);                                \
    return LS_AS(f > (F)0 ? bits - 1 : bits + 1, F);                      \
  }
LS_NEXT_AFTER(float, int)
LS_NEXT_AFTER(double, long)

// Sign of (f - x), exactly, for f = x rounded to nearest. For an integer x,
// f is compared back in the integer type, except when the rounding went up
// to 2^k just past the type's maximum ((D)MAX is that 2^k). double -> float
// compares in double, where float is exact; NaN compares equal (no step).
#define LS_ROUNDING_ERROR_SIGN(D, S, f, x)                                      \
  (LS_IS_FLOAT_##S                                                              \
       ? ((double)(f) > (double)(x)) - ((double)(f) < (double)(x))              \
       : ((f) >= (D)LS_MAX_##S ? 1 : ((S)(f) > (x)) - ((S)(f) < (x))))

#define LS_CVT_EXACT(S, D)                                                      \
  (LS_IS_FLOAT_##S ? LS_BITS_##S <= LS_BITS_##D : LS_VALUE_BITS(S) <= LS_MANT_##D)

// Whether the nearest value f must step one ulp up or down for the mode.
#define LS_STEP_UP__rtz(err, x) ((err) < 0 && (x) < 0)
#define LS_STEP_DOWN__rtz(err, x) ((err) > 0 && (x) > 0)
#define LS_STEP_UP__rtp(err, x) ((err) < 0)
#define LS_STEP_DOWN__rtp(err, x) 0
#define LS_STEP_UP__rtn(err, x) 0
#define LS_STEP_DOWN__rtn(err, x) ((err) > 0)

// Directed rounding: the hardware conversion rounds to nearest; when that
// result lies on the wrong side of x, step it one ulp (x is between f and
// its neighbour). Scalar; vectors go lane by lane (rare, and LLVM has no
// directed-rounding conversion outside constrained intrinsics).
#define LS_CVT_DIRECTED(D, S, MODE)                                              \
  LS_CONST_OVERLOAD D convert_##D##MODE(S x) {                                   \
    D f = (D)x;                                                                  \
    if (LS_CVT_EXACT(S, D)) return f;                                            \
    int err = LS_ROUNDING_ERROR_SIGN(D, S, f, x);                                \
    if (LS_STEP_UP_##MODE(err, x)) return ls_next_up(f);                         \
    if (LS_STEP_DOWN_##MODE(err, x)) return ls_next_down(f);                     \
    return f;                                                                    \
  }                                                                              \
  LS_CONST_OVERLOAD D##2 convert_##D##2##MODE(S##2 x) {                          \
    return (D##2)(convert_##D##MODE(x.s0), convert_##D##MODE(x.s1));             \
  }                                                                              \
  LS_CONST_OVERLOAD D##3 convert_##D##3##MODE(S##3 x) {                          \
    return (D##3)(convert_##D##MODE(x.s0), convert_##D##MODE(x.s1),              \
                  convert_##D##MODE(x.s2));                                      \
  }                                                                              \
  LS_CONST_OVERLOAD D##4 convert_##D##4##MODE(S##4 x) {                          \
    return (D##4)(convert_##D##2##MODE(x.lo), convert_##D##2##MODE(x.hi));       \
  }                                                                              \
  LS_CONST_OVERLOAD D##8 convert_##D##8##MODE(S##8 x) {                          \
    return (D##8)(convert_##D##4##MODE(x.lo), convert_##D##4##MODE(x.hi));       \
  }                                                                              \
  LS_CONST_OVERLOAD D##16 convert_##D##16##MODE(S##16 x) {                       \
    return (D##16)(convert_##D##8##MODE(x.lo), convert_##D##8##MODE(x.hi));      \
  }

// Default and _rte: LLVM's sitofp/uitofp/fptrunc/fpext round to nearest even.
#define LS_CVT_NEAREST(D, S, n)                                                       \
  LS_CONST_OVERLOAD D##n convert_##D##n(S##n x) { return LS_CONVERT(x, D, n); }       \
  LS_CONST_OVERLOAD D##n convert_##D##n##_rte(S##n x) { return LS_CONVERT(x, D, n); }

#define LS_CVT_TO_FLOAT_PAIR(D, S)                        \
  LS_FOR_EACH_WIDTH(LS_CVT_NEAREST, D, S)                 \
  LS_CVT_FOR_EACH_DIRECTED_MODE(LS_CVT_DIRECTED, D, S)
#define LS_CVT_TO_FLOAT(D) LS_CVT_FOR_EACH_SOURCE(LS_CVT_TO_FLOAT_PAIR, D)

LS_CVT_TO_FLOAT(float)
LS_CVT_TO_FLOAT(double)

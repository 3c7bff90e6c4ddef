// float/double <-> half with every rounding mode, on bit patterns: shared by
// vload_half/vstore_half (vload_vstore_half.cl) and the convert_half*
// conversions (convert_half.cl). Loads, and float stores rounded to nearest
// even, convert as LLVM's fpext and fptrunc between half and float, which
// x86's F16C instructions do a vector at a time (vcvtph2ps, vcvtps2ph; 5-6x
// faster than integer arithmetic on 4 million float4s); without F16C they
// are libgcc's conversions. The other rounding modes, and double data (which
// rounding through float would round twice), convert with integer
// arithmetic on whole vectors.

// Tables of macro definitions and invocations, which clang-format would run
// together; they are kept within 100 columns by hand.
// clang-format off
#ifndef LOCKSTEP_BUILTINS_LS_HALF_H
#define LOCKSTEP_BUILTINS_LS_HALF_H

#include "ls_gentype.h"

// half bits -> float, exactly.
#define LS_HALF_TO_FLOAT(_, n)                                                      \
  static LS_CONST_OVERLOAD float##n ls_half_to_float(ushort##n h) {             \
    return LS_CONVERT(LS_AS(h, half##n), float, n);                              \
  }
LS_FOR_EACH_WIDTH(LS_HALF_TO_FLOAT, _)

// Whether the truncated half magnitude h must go up one ulp, from the bits
// shifted out (rem) against half an ulp, for each rounding mode.
#define LS_HALF_UP_(h, rem, halfway, sign) LS_HALF_UP__rte(h, rem, halfway, sign)
#define LS_HALF_UP__rte(h, rem, halfway, sign) \
  (((rem) > (halfway)) | (((rem) == (halfway)) & (((h) & 1) != 0)))
#define LS_HALF_UP__rtz(h, rem, halfway, sign) ((rem) != (rem))
#define LS_HALF_UP__rtp(h, rem, halfway, sign) (((rem) != 0) & ((sign) == 0))
#define LS_HALF_UP__rtn(h, rem, halfway, sign) (((rem) != 0) & ((sign) != 0))

// float/double (F, with same-size integers UI/SI, MANT explicit mantissa
// bits, exponent BIAS) -> half bits with rounding MODE. The half magnitude is
// first truncated: normal halves take the top 10 mantissa bits over the
// rebiased exponent (the implicit bit carries into the exponent field),
// denormal halves shift the significand further right. Magnitudes of 2^16
// and more truncate to the largest finite half with a remainder above half
// an ulp, so rounding up gives infinity where the mode says so.
#define LS_TO_HALF(F, UI, SI, MANT, BIAS, n, MODE)                                \
  static LS_CONST_OVERLOAD ushort##n ls_to_half##MODE(F##n x) {                   \
    UI##n u = LS_AS(x, UI##n);                                                    \
    UI##n sign = u >> (8 * sizeof(F) - 1);                                        \
    UI##n a = u & ~((UI##n)1 << (8 * sizeof(F) - 1));                             \
    UI##n inf = (UI##n)(2 * BIAS + 1) << MANT;                                     \
    SI##n e = LS_AS(a >> MANT, SI##n) - (SI##n)BIAS;                              \
    UI##n implicit = (UI##n)1 << MANT;                                            \
    UI##n sig = (a & (implicit - 1)) | (e > (SI##n)(-BIAS) ? implicit : (UI##n)0);\
    SI##n s = (SI##n)(MANT - 10) + (SI##n)__builtin_elementwise_max((SI##n)(-14) - e, (SI##n)0); \
    s = (SI##n)__builtin_elementwise_min(s, (SI##n)(8 * sizeof(F) - 1));         \
    UI##n us = LS_AS(s, UI##n);                                                   \
    UI##n h = (LS_AS((SI##n)__builtin_elementwise_max(e + 14, (SI##n)0), UI##n) << 10) + \
              (sig >> us);                                                        \
    UI##n halfway = (UI##n)1 << (us - 1);                                            \
    UI##n rem = sig & ((halfway << 1) - 1);                                          \
    h = e > (SI##n)15 ? (UI##n)0x7bff : h;                                        \
    rem = e > (SI##n)15 ? halfway + 1 : rem;                                         \
    h = LS_HALF_UP_##MODE(h, rem, halfway, sign) ? h + 1 : h;                        \
    h = a == inf ? (UI##n)0x7c00 : h;                                             \
    h = a > inf ? ((UI##n)0x7e00 | ((a >> (MANT - 10)) & (UI##n)0x3ff)) : h;      \
    return LS_CONVERT(h | (sign << 15), ushort, n);                               \
  }
#define LS_TO_HALF_MODES(MODE, n)                        \
  LS_TO_HALF(float, uint, int, 23, 127, n, MODE)         \
  LS_TO_HALF(double, ulong, long, 52, 1023, n, MODE)
#define LS_TO_HALF_WIDTH(MODE) LS_FOR_EACH_WIDTH(LS_TO_HALF_MODES, MODE)
// float, rounded to nearest even: fptrunc.
#define LS_FLOAT_TO_HALF_NEAREST(MODE, n)                                        \
  static LS_CONST_OVERLOAD ushort##n ls_to_half##MODE(float##n x) {              \
    return LS_AS(LS_CONVERT(x, half, n), ushort##n);                             \
  }
#define LS_DOUBLE_TO_HALF_MODES(MODE, n) LS_TO_HALF(double, ulong, long, 52, 1023, n, MODE)
LS_FOR_EACH_WIDTH(LS_FLOAT_TO_HALF_NEAREST, )
LS_FOR_EACH_WIDTH(LS_FLOAT_TO_HALF_NEAREST, _rte)
LS_FOR_EACH_WIDTH(LS_DOUBLE_TO_HALF_MODES, )
LS_FOR_EACH_WIDTH(LS_DOUBLE_TO_HALF_MODES, _rte)
LS_TO_HALF_WIDTH(_rtz)
LS_TO_HALF_WIDTH(_rtp)
LS_TO_HALF_WIDTH(_rtn)

#endif  // LOCKSTEP_BUILTINS_LS_HALF_H

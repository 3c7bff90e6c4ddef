// Explicit conversions to the eight integer types (see ls_convert.h).
#include "ls_convert.h"

// Rounding of a floating-point source before the conversion, which itself
// truncates (the default for integer destinations is _rtz).
#define LS_ROUND_(x) (x)
#define LS_ROUND__rtz(x) (x)
#define LS_ROUND__rte(x) __builtin_elementwise_roundeven(x)
#define LS_ROUND__rtp(x) __builtin_elementwise_ceil(x)
#define LS_ROUND__rtn(x) __builtin_elementwise_floor(x)

// Integer to integer: the rounding mode is moot. Without _sat the value
// wraps (LLVM trunc/sext/zext); with _sat it is clamped in the source type to
// the part of the destination's range the source can hold, each bound only
// where the source can exceed it (the conditions are compile-time constants).
#define LS_CVT_FROM_INT(D, S, n, MODE)                                          \
  LS_CONST_OVERLOAD D##n convert_##D##n##MODE(S##n x) { return LS_CONVERT(x, D, n); } \
  LS_CONST_OVERLOAD D##n convert_##D##n##_sat##MODE(S##n x) {                   \
    S##n v = x;                                                                 \
    if (LS_SIGNED_##S && (!LS_SIGNED_##D || LS_BITS_##D < LS_BITS_##S))         \
      v = (S##n)__builtin_elementwise_max(v, (S##n)(S)LS_MIN_##D);              \
    if (LS_VALUE_BITS(D) < LS_VALUE_BITS(S))                                    \
      v = (S##n)__builtin_elementwise_min(v, (S##n)(S)LS_MAX_##D);              \
    return LS_CONVERT(v, D, n);                                                 \
  }

// The largest source value not above the destination's maximum: the maximum
// itself when the significand holds it, else 2^k rounded down one ulp
// ((S)MAX rounds to 2^k there).
#define LS_FLOAT_MAX_BELOW(S, D)                                              \
  (LS_VALUE_BITS(D) <= LS_MANT_##S ? (S)LS_MAX_##D                            \
                                   : (S)LS_MAX_##D * LS_ONE_BELOW_##S)

// Floating point to integer: round as asked, then convert. Out-of-range
// values are undefined without _sat; with _sat the value is clamped in the
// floating-point domain, NaN becomes 0, and where the destination's maximum
// is not representable (int from float, long from double...) values at or
// above 2^k are patched to the maximum after the conversion.
#define LS_CVT_FROM_FLOAT(D, S, n, MODE)                                        \
  LS_CONST_OVERLOAD D##n convert_##D##n##MODE(S##n x) {                         \
    return LS_CONVERT(LS_ROUND_##MODE(x), D, n);                                \
  }                                                                             \
  LS_CONST_OVERLOAD D##n convert_##D##n##_sat##MODE(S##n x) {                   \
    S##n r = LS_ROUND_##MODE(x);                                                \
    S##n c = __builtin_elementwise_max(r, (S##n)(S)LS_MIN_##D);                 \
    c = __builtin_elementwise_min(c, (S##n)LS_FLOAT_MAX_BELOW(S, D));           \
    c = x != x ? (S##n)0 : c;                                                   \
    D##n result = LS_CONVERT(c, D, n);                                          \
    if (LS_VALUE_BITS(D) > LS_MANT_##S) {                                       \
      LS_CAT(LS_SINT_##D, n) too_big =                                          \
          LS_CONVERT_TO(r >= (S##n)(S)LS_MAX_##D, LS_CAT(LS_SINT_##D, n), n);   \
      result = too_big ? (D##n)LS_MAX_##D : result;                             \
    }                                                                           \
    return result;                                                              \
  }

#define LS_CVT_FROM_0 LS_CVT_FROM_INT
#define LS_CVT_FROM_1 LS_CVT_FROM_FLOAT
#define LS_CVT_TO_INT_ONE(D, S, n, MODE) \
  LS_CAT(LS_CVT_FROM_, LS_IS_FLOAT_##S)(D, S, n, MODE)
#define LS_CVT_TO_INT_WIDTH(D, S, n) LS_CVT_FOR_EACH_MODE(LS_CVT_TO_INT_ONE, D, S, n)
#define LS_CVT_TO_INT_PAIR(D, S) LS_FOR_EACH_WIDTH(LS_CVT_TO_INT_WIDTH, D, S)
#define LS_CVT_TO_INT(D) LS_CVT_FOR_EACH_SOURCE(LS_CVT_TO_INT_PAIR, D)

LS_CVT_TO_INT(char)
LS_CVT_TO_INT(uchar)
LS_CVT_TO_INT(short)
LS_CVT_TO_INT(ushort)
LS_CVT_TO_INT(int)
LS_CVT_TO_INT(uint)
LS_CVT_TO_INT(long)
LS_CVT_TO_INT(ulong)

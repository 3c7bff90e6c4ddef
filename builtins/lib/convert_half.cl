// Explicit conversions to and from half (OpenCL C 3.0 s6.4.3 with
// cl_khr_fp16): convert_half[n][_rte|_rtz|_rtp|_rtn](S[n]) from every
// scalar type, and convert_D[n][_sat][mode](half[n]) to every one.
//
// Every half is exactly a float, so a half source converts to float first
// (exact) and then takes the float conversion, rounding mode and saturation
// included. To half: float and double round once with the mode (ls_half.h);
// integers up to 24 value bits are exact in float and round from there; the
// wider ones are first clamped to +-2^17, beyond half's range (65504) so
// that every mode rounds the clamped value as it would the original, and
// then converted exactly to float.

// Tables of macro definitions and invocations, which clang-format would run
// together; they are kept within 100 columns by hand.
// clang-format off
#include "ls_convert.h"
#include "ls_half.h"

// float/double -> half with a rounding mode (the default is _rte).
#define LS_FP_TO_HALF(S, n, MODE)                                                  \
  LS_CONST_OVERLOAD half##n convert_half##n##MODE(S##n x) {                         \
    return LS_AS(ls_to_half##MODE(x), half##n);                                     \
  }
#define LS_FP_TO_HALF_MODES(S, n) LS_CVT_FOR_EACH_MODE(LS_FP_TO_HALF, S, n)
LS_FOR_EACH_WIDTH(LS_FP_TO_HALF_MODES, float)
LS_FOR_EACH_WIDTH(LS_FP_TO_HALF_MODES, double)

// Integers: exact in float (after the clamp for the wide ones), then the
// float conversion above with the same mode.
// How an integer source is brought into float's exact range: as it is (up
// to 24 value bits), or clamped to +-2^17 (signed) / 2^17 (unsigned).
#define LS_HALF_CLAMP_char LS_HALF_CLAMP_NONE
#define LS_HALF_CLAMP_uchar LS_HALF_CLAMP_NONE
#define LS_HALF_CLAMP_short LS_HALF_CLAMP_NONE
#define LS_HALF_CLAMP_ushort LS_HALF_CLAMP_NONE
#define LS_HALF_CLAMP_int LS_HALF_CLAMP_SIGNED
#define LS_HALF_CLAMP_uint LS_HALF_CLAMP_UNSIGNED
#define LS_HALF_CLAMP_long LS_HALF_CLAMP_SIGNED
#define LS_HALF_CLAMP_ulong LS_HALF_CLAMP_UNSIGNED
#define LS_HALF_CLAMP_NONE(S, n, x) (x)
#define LS_HALF_CLAMP_SIGNED(S, n, x) \
  __builtin_elementwise_min(__builtin_elementwise_max(x, (S##n)(S)-131072), (S##n)(S)131072)
#define LS_HALF_CLAMP_UNSIGNED(S, n, x) __builtin_elementwise_min(x, (S##n)(S)131072)
#define LS_INT_TO_HALF(S, n, MODE)                                                 \
  LS_CONST_OVERLOAD half##n convert_half##n##MODE(S##n x) {                         \
    return convert_half##n##MODE(LS_CONVERT(LS_HALF_CLAMP_##S(S, n, x), float, n));  \
  }
#define LS_INT_TO_HALF_MODES(S, n) LS_CVT_FOR_EACH_MODE(LS_INT_TO_HALF, S, n)
#define LS_INT_TO_HALF_ALL(S, unused1, unused2, unused3) LS_FOR_EACH_WIDTH(LS_INT_TO_HALF_MODES, S)
LS_FOR_EACH_INTEGER_TYPE(LS_INT_TO_HALF_ALL)

// half -> half: every mode is the identity.
#define LS_HALF_TO_HALF(S, n, MODE) \
  LS_CONST_OVERLOAD half##n convert_half##n##MODE(half##n x) { return x; }
#define LS_HALF_TO_HALF_MODES(S, n) LS_CVT_FOR_EACH_MODE(LS_HALF_TO_HALF, S, n)
LS_FOR_EACH_WIDTH(LS_HALF_TO_HALF_MODES, half)

// half -> float/double: exact, so every mode is the plain extension.
#define LS_HALF_TO_FP(D, n, MODE)                                                  \
  LS_CONST_OVERLOAD D##n convert_##D##n##MODE(half##n x) { return LS_CONVERT(x, D, n); }
#define LS_HALF_TO_FP_MODES(D, n) LS_CVT_FOR_EACH_MODE(LS_HALF_TO_FP, D, n)
LS_FOR_EACH_WIDTH(LS_HALF_TO_FP_MODES, float)
LS_FOR_EACH_WIDTH(LS_HALF_TO_FP_MODES, double)

// half -> integers, plain and saturated: through the exact float.
// The float conversions called are declared again first: once this file
// defines a half overload of a name, Clang 19 no longer finds the other
// overloads opencl-c.h declares under it.
#define LS_HALF_TO_INT(D, n, MODE)                                                 \
  LS_CONST_OVERLOAD D##n convert_##D##n##MODE(float##n);                            \
  LS_CONST_OVERLOAD D##n convert_##D##n##_sat##MODE(float##n);                      \
  LS_CONST_OVERLOAD D##n convert_##D##n##MODE(half##n x) {                          \
    return convert_##D##n##MODE(LS_CONVERT(x, float, n));                           \
  }                                                                                 \
  LS_CONST_OVERLOAD D##n convert_##D##n##_sat##MODE(half##n x) {                    \
    return convert_##D##n##_sat##MODE(LS_CONVERT(x, float, n));                     \
  }
#define LS_HALF_TO_INT_MODES(D, n) LS_CVT_FOR_EACH_MODE(LS_HALF_TO_INT, D, n)
#define LS_HALF_TO_INT_ALL(D, unused1, unused2, unused3) LS_FOR_EACH_WIDTH(LS_HALF_TO_INT_MODES, D)
LS_FOR_EACH_INTEGER_TYPE(LS_HALF_TO_INT_ALL)

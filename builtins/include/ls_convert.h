// Explicit conversions, OpenCL C 3.0 section 6.4.3:
// convert_<dst>[n][_sat][_rte|_rtz|_rtp|_rtn](<src>[n]) for the ten scalar
// types. convert_int.cl instantiates the integer destinations,
// convert_float.cl the floating-point ones.
//
// Vector conversions are written on whole vectors (__builtin_convertvector,
// elementwise min/max/rounding) so LLVM sees one vector instruction per step;
// only the directed roundings of inexact int/double -> float conversions are
// scalar code, split per lane for vectors.
#ifndef LOCKSTEP_BUILTINS_LS_CONVERT_H
#define LOCKSTEP_BUILTINS_LS_CONVERT_H

#include "ls_gentype.h"

#define LS_IS_FLOAT_char 0
#define LS_IS_FLOAT_uchar 0
#define LS_IS_FLOAT_short 0
#define LS_IS_FLOAT_ushort 0
#define LS_IS_FLOAT_int 0
#define LS_IS_FLOAT_uint 0
#define LS_IS_FLOAT_long 0
#define LS_IS_FLOAT_ulong 0
#define LS_IS_FLOAT_float 1
#define LS_IS_FLOAT_double 1

// Significand bits (with the implicit one), and the largest value below one.
#define LS_MANT_float 24
#define LS_MANT_double 53
#define LS_ONE_BELOW_float 0x1.fffffep-1f
#define LS_ONE_BELOW_double 0x1.fffffffffffffp-1

// Value bits of an integer type: its maximum is 2^LS_VALUE_BITS - 1.
#define LS_VALUE_BITS(T) (LS_BITS_##T - LS_SIGNED_##T)

// LS_CONVERT with the destination type already pasted (T_n = int4, ...), for
// destination names computed by other macros.
#define LS_CONVERT_TO(x, T_n, n) LS_CONVERT_##n(x, T_n)

// M(..., src) for the ten source types; M(..., mode) for the rounding
// suffixes. (Separate lists from ls_gentype.h's so they can nest.)
#define LS_CVT_FOR_EACH_SOURCE(M, ...) \
  M(__VA_ARGS__, char)                 \
  M(__VA_ARGS__, uchar)                \
  M(__VA_ARGS__, short)                \
  M(__VA_ARGS__, ushort)               \
  M(__VA_ARGS__, int)                  \
  M(__VA_ARGS__, uint)                 \
  M(__VA_ARGS__, long)                 \
  M(__VA_ARGS__, ulong)                \
  M(__VA_ARGS__, float)                \
  M(__VA_ARGS__, double)
#define LS_CVT_FOR_EACH_MODE(M, ...) \
  M(__VA_ARGS__, )                   \
  M(__VA_ARGS__, _rte)               \
  M(__VA_ARGS__, _rtz)               \
  M(__VA_ARGS__, _rtp)               \
  M(__VA_ARGS__, _rtn)
#define LS_CVT_FOR_EACH_DIRECTED_MODE(M, ...) \
  M(__VA_ARGS__, _rtz)                        \
  M(__VA_ARGS__, _rtp)                        \
  M(__VA_ARGS__, _rtn)

#endif  // LOCKSTEP_BUILTINS_LS_CONVERT_H

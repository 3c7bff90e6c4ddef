// Type lists and vector helpers shared by the integer, conversion, load/store,
// shuffle and async-copy builtins. The OpenCL C builtins are overloaded over
// every scalar type and vector width; these X-macros enumerate them once so
// each family is written as one macro body instantiated per type.
#ifndef LOCKSTEP_BUILTINS_LS_GENTYPE_H
#define LOCKSTEP_BUILTINS_LS_GENTYPE_H

#include "ls_common.h"

// A builtin whose result depends on its arguments only.
#define LS_CONST_OVERLOAD __attribute__((overloadable, const))

// M(scalar, unsigned scalar, bits, is_signed) for the eight integer types.
#define LS_FOR_EACH_INTEGER_TYPE(M) \
  M(char, uchar, 8, 1)              \
  M(uchar, uchar, 8, 0)             \
  M(short, ushort, 16, 1)           \
  M(ushort, ushort, 16, 0)          \
  M(int, uint, 32, 1)               \
  M(uint, uint, 32, 0)              \
  M(long, ulong, 64, 1)             \
  M(ulong, ulong, 64, 0)

// Range of each integer type, and the type twice as wide (same signedness)
// where one exists, for products that must not overflow.
#define LS_MIN_char CHAR_MIN
#define LS_MAX_char CHAR_MAX
#define LS_MIN_uchar 0
#define LS_MAX_uchar UCHAR_MAX
#define LS_MIN_short SHRT_MIN
#define LS_MAX_short SHRT_MAX
#define LS_MIN_ushort 0
#define LS_MAX_ushort USHRT_MAX
#define LS_MIN_int INT_MIN
#define LS_MAX_int INT_MAX
#define LS_MIN_uint 0
#define LS_MAX_uint UINT_MAX
#define LS_MIN_long LONG_MIN
#define LS_MAX_long LONG_MAX
#define LS_MIN_ulong 0
#define LS_MAX_ulong ULONG_MAX
#define LS_MAX_float FLT_MAX
#define LS_MAX_double DBL_MAX
#define LS_SIGNED_char 1
#define LS_SIGNED_uchar 0
#define LS_SIGNED_short 1
#define LS_SIGNED_ushort 0
#define LS_SIGNED_int 1
#define LS_SIGNED_uint 0
#define LS_SIGNED_long 1
#define LS_SIGNED_ulong 0
#define LS_SIGNED_float 1
#define LS_SIGNED_double 1
#define LS_BITS_char 8
#define LS_BITS_uchar 8
#define LS_BITS_short 16
#define LS_BITS_ushort 16
#define LS_BITS_int 32
#define LS_BITS_uint 32
#define LS_BITS_long 64
#define LS_BITS_ulong 64
#define LS_BITS_float 32
#define LS_BITS_double 64
// The signed integer type of the same width (the type of vector masks).
#define LS_SINT_char char
#define LS_SINT_uchar char
#define LS_SINT_short short
#define LS_SINT_ushort short
#define LS_SINT_int int
#define LS_SINT_uint int
#define LS_SINT_long long
#define LS_SINT_ulong long
#define LS_SINT_float int
#define LS_SINT_double long
#define LS_WIDER_char short
#define LS_WIDER_uchar ushort
#define LS_WIDER_short int
#define LS_WIDER_ushort uint
#define LS_WIDER_int long
#define LS_WIDER_uint ulong

// M(scalar) for the eleven element types of vload/vstore, shuffle, async
// copies (half: cl_khr_fp16).
#define LS_FOR_EACH_ELEMENT_TYPE(M) \
  M(char)                           \
  M(uchar)                          \
  M(short)                          \
  M(ushort)                         \
  M(int)                            \
  M(uint)                           \
  M(long)                           \
  M(ulong)                          \
  M(half)                           \
  M(float)                          \
  M(double)

// M(..., n) for n = the scalar (empty) and every vector width. The width is
// pasted onto type names (int##n), so an empty n names the scalar type.
#define LS_FOR_EACH_WIDTH(M, ...) \
  M(__VA_ARGS__, )                \
  M(__VA_ARGS__, 2)               \
  M(__VA_ARGS__, 3)               \
  M(__VA_ARGS__, 4)               \
  M(__VA_ARGS__, 8)               \
  M(__VA_ARGS__, 16)

#define LS_FOR_EACH_VECTOR_WIDTH(M, ...) \
  M(__VA_ARGS__, 2)                      \
  M(__VA_ARGS__, 3)                      \
  M(__VA_ARGS__, 4)                      \
  M(__VA_ARGS__, 8)                      \
  M(__VA_ARGS__, 16)

// Token pasting after macro expansion of both sides (LS_CAT(LS_WIDER_char, 4)
// is short4).
#define LS_CAT(a, b) LS_CAT_(a, b)
#define LS_CAT_(a, b) a##b

// Value conversion of x to T##n, as a cast for scalars (empty n) and
// __builtin_convertvector for vectors (OpenCL C has no vector casts).
#define LS_CONVERT(x, T, n) LS_CONVERT_##n(x, T##n)
#define LS_CONVERT_(x, T) ((T)(x))
#define LS_CONVERT_2(x, T) __builtin_convertvector((x), T)
#define LS_CONVERT_3(x, T) __builtin_convertvector((x), T)
#define LS_CONVERT_4(x, T) __builtin_convertvector((x), T)
#define LS_CONVERT_8(x, T) __builtin_convertvector((x), T)
#define LS_CONVERT_16(x, T) __builtin_convertvector((x), T)

// Reinterprets the bits of x as type T (same size): scalars and vectors.
#define LS_AS(x, T) __builtin_astype((x), T)

#endif  // LOCKSTEP_BUILTINS_LS_GENTYPE_H

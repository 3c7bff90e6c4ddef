// OpenCL C 3.0 section 6.15.3: integer functions, for the eight integer types
// and every vector width.
//
// Most functions are written once on the vector type with OpenCL C vector
// operators and Clang's elementwise builtins (LLVM's abs, add/sub_sat,
// smin/umax... intrinsics), so that scalar calls stay scalar instructions the
// loop vectorizer widens across work-items. Arithmetic that may wrap is done
// in the unsigned type: signed overflow would be undefined in OpenCL C, while
// these builtins are specified with wrapping results.
#include "ls_gentype.h"

// Clang promotes scalar char/short operands of the elementwise builtins to
// int; the casts back are exact for abs, min and max (not for add_sat, which
// gets its own scalar form below).
#define LS_ABS_1(x, ST, UT) LS_AS((ST)__builtin_elementwise_abs(x), UT)
#define LS_ABS_0(x, ST, UT) (x)

// Functions of one gentype S##n (U##n its unsigned counterpart, B bits).
#define LS_INTEGER_BASIC(S, U, B, SIGNED, n)                                   \
  LS_CONST_OVERLOAD U##n abs(S##n x) { return LS_CAT(LS_ABS_, SIGNED)(x, S##n, U##n); } \
  LS_CONST_OVERLOAD U##n abs_diff(S##n x, S##n y) {                           \
    U##n ux = LS_AS(x, U##n), uy = LS_AS(y, U##n);                            \
    return (U##n)(x > y ? (U##n)(ux - uy) : (U##n)(uy - ux));                 \
  }                                                                           \
  /* (x + y) >> 1 without the intermediate overflow. */                       \
  LS_CONST_OVERLOAD S##n hadd(S##n x, S##n y) {                               \
    return (S##n)((x >> 1) + (y >> 1) + (x & y & (S##n)1));                         \
  }                                                                           \
  LS_CONST_OVERLOAD S##n rhadd(S##n x, S##n y) {                              \
    return (S##n)((x >> 1) + (y >> 1) + ((x | y) & (S##n)1));                       \
  }                                                                           \
  LS_CONST_OVERLOAD S##n max(S##n x, S##n y) { return (S##n)__builtin_elementwise_max(x, y); } \
  LS_CONST_OVERLOAD S##n min(S##n x, S##n y) { return (S##n)__builtin_elementwise_min(x, y); } \
  LS_CONST_OVERLOAD S##n clamp(S##n x, S##n lo, S##n hi) {                    \
    return min(max(x, lo), hi);                                               \
  }                                                                           \
  LS_CONST_OVERLOAD S##n mad_hi(S##n a, S##n b, S##n c) {                     \
    return LS_AS((U##n)(LS_AS(mul_hi(a, b), U##n) + LS_AS(c, U##n)), S##n);   \
  }                                                                           \
  /* The shift counts are reduced modulo B first, as the spec requires. */    \
  LS_CONST_OVERLOAD S##n rotate(S##n v, S##n i) {                             \
    U##n u = LS_AS(v, U##n);                                                  \
    U##n s = (U##n)(LS_AS(i, U##n) & (U##n)(B - 1));                          \
    U##n r = (U##n)((u << s) | (u >> (((U##n)B - s) & (U##n)(B - 1))));       \
    return LS_AS(r, S##n);                                                    \
  }

// Saturating add/sub: vectors use LLVM's sadd.sat & co. directly; scalars go
// through the overflow builtins (no int promotion there), whose overflow
// direction is the sign of y.
#define LS_INTEGER_SAT_VECTOR(S, U, B, SIGNED, n)                             \
  LS_CONST_OVERLOAD S##n add_sat(S##n x, S##n y) {                            \
    return __builtin_elementwise_add_sat(x, y);                               \
  }                                                                           \
  LS_CONST_OVERLOAD S##n sub_sat(S##n x, S##n y) {                            \
    return __builtin_elementwise_sub_sat(x, y);                               \
  }
#define LS_INTEGER_SAT_SCALAR(S, U, B, SIGNED)                                \
  LS_CONST_OVERLOAD S add_sat(S x, S y) {                                     \
    S r;                                                                      \
    if (__builtin_add_overflow(x, y, &r)) r = y > (S)0 ? (S)LS_MAX_##S : (S)LS_MIN_##S; \
    return r;                                                                 \
  }                                                                           \
  LS_CONST_OVERLOAD S sub_sat(S x, S y) {                                     \
    S r;                                                                      \
    if (__builtin_sub_overflow(x, y, &r)) r = y < (S)0 ? (S)LS_MAX_##S : (S)LS_MIN_##S; \
    return r;                                                                 \
  }

// The broadcast overloads: max(gentype, sgentype) and friends, vectors only.
#define LS_INTEGER_BROADCAST(S, U, B, SIGNED, n)                             \
  LS_CONST_OVERLOAD S##n max(S##n x, S y) { return max(x, (S##n)y); }        \
  LS_CONST_OVERLOAD S##n min(S##n x, S y) { return min(x, (S##n)y); }        \
  LS_CONST_OVERLOAD S##n clamp(S##n x, S lo, S hi) {                         \
    return clamp(x, (S##n)lo, (S##n)hi);                                     \
  }

// Scalar bit counts; LLVM's ctlz/cttz/ctpop, defined at zero.
#define LS_INTEGER_BITS(S, U, B, SIGNED)                                      \
  LS_CONST_OVERLOAD S clz(S x) { return (S)__builtin_clzg((U)x, B); }         \
  LS_CONST_OVERLOAD S ctz(S x) { return (S)__builtin_ctzg((U)x, B); }         \
  LS_CONST_OVERLOAD S popcount(S x) { return (S)__builtin_popcountg((U)x); }  \
  LS_EXPAND_UNARY(S, clz, S)                                                   \
  LS_EXPAND_UNARY(S, ctz, S)                                                   \
  LS_EXPAND_UNARY(S, popcount, S)

#define LS_INTEGER_ALL(S, U, B, SIGNED)                      \
  LS_FOR_EACH_WIDTH(LS_INTEGER_BASIC, S, U, B, SIGNED)       \
  LS_FOR_EACH_VECTOR_WIDTH(LS_INTEGER_BROADCAST, S, U, B, SIGNED) \
  LS_INTEGER_BITS(S, U, B, SIGNED)                           \
  LS_INTEGER_SAT_SCALAR(S, U, B, SIGNED)                     \
  LS_FOR_EACH_VECTOR_WIDTH(LS_INTEGER_SAT_VECTOR, S, U, B, SIGNED)

LS_FOR_EACH_INTEGER_TYPE(LS_INTEGER_ALL)

// mul_hi and mad_sat for the types with a twice-as-wide type W: the exact
// product (plus addend) fits W, even after C's promotion of the scalar
// operands to int (W is unsigned where the product could exceed INT_MAX).
#define LS_INTEGER_WIDE(S, W, n)                                                  \
  LS_CONST_OVERLOAD S##n mul_hi(S##n x, S##n y) {                                \
    W##n p = LS_CONVERT(x, W, n) * LS_CONVERT(y, W, n);                          \
    return LS_CONVERT(p >> (8 * sizeof(S)), S, n);                               \
  }                                                                              \
  LS_CONST_OVERLOAD S##n mad_sat(S##n a, S##n b, S##n c) {                       \
    W##n p = LS_CONVERT(a, W, n) * LS_CONVERT(b, W, n) + LS_CONVERT(c, W, n);    \
    p = __builtin_elementwise_max(p, (W##n)(W)LS_MIN_##S);                       \
    p = __builtin_elementwise_min(p, (W##n)(W)LS_MAX_##S);                       \
    return LS_CONVERT(p, S, n);                                                  \
  }
#define LS_INTEGER_WIDE_ALL(S) LS_FOR_EACH_WIDTH(LS_INTEGER_WIDE, S, LS_WIDER_##S)
LS_INTEGER_WIDE_ALL(char)
LS_INTEGER_WIDE_ALL(uchar)
LS_INTEGER_WIDE_ALL(short)
LS_INTEGER_WIDE_ALL(ushort)
LS_INTEGER_WIDE_ALL(int)
LS_INTEGER_WIDE_ALL(uint)

// 64-bit: the 128-bit product is an i128 multiply (one mul on x86-64).
typedef _BitInt(128) ls_int128;
typedef unsigned _BitInt(128) ls_uint128;

LS_CONST_OVERLOAD long mul_hi(long x, long y) {
  return (long)(((ls_int128)x * (ls_int128)y) >> 64);
}
LS_CONST_OVERLOAD ulong mul_hi(ulong x, ulong y) {
  return (ulong)(((ls_uint128)x * (ls_uint128)y) >> 64);
}
// |a * b + c| < 2^127 for longs and < 2^128 for ulongs: no 128-bit overflow.
LS_CONST_OVERLOAD long mad_sat(long a, long b, long c) {
  ls_int128 p = (ls_int128)a * (ls_int128)b + (ls_int128)c;
  p = p < (ls_int128)LONG_MIN ? (ls_int128)LONG_MIN : p;
  p = p > (ls_int128)LONG_MAX ? (ls_int128)LONG_MAX : p;
  return (long)p;
}
LS_CONST_OVERLOAD ulong mad_sat(ulong a, ulong b, ulong c) {
  ls_uint128 p = (ls_uint128)a * (ls_uint128)b + (ls_uint128)c;
  return p > (ls_uint128)ULONG_MAX ? ULONG_MAX : (ulong)p;
}
LS_EXPAND_BINARY(long, mul_hi, long, long)
LS_EXPAND_BINARY(ulong, mul_hi, ulong, ulong)
LS_EXPAND_TERNARY(long, mad_sat, long)
LS_EXPAND_TERNARY(ulong, mad_sat, ulong)

// upsample(hi, lo) = hi << bits(lo) | lo, built in the unsigned wide type so
// a negative hi is not shifted as a signed value.
#define LS_UPSAMPLE(S, U, W, UW, n)                                        \
  LS_CONST_OVERLOAD W##n upsample(S##n hi, U##n lo) {                      \
    UW##n r = (LS_CONVERT(LS_AS(hi, U##n), UW, n) << (8 * sizeof(S))) |    \
              LS_CONVERT(lo, UW, n);                                       \
    return LS_AS(r, W##n);                                                 \
  }
LS_FOR_EACH_WIDTH(LS_UPSAMPLE, char, uchar, short, ushort)
LS_FOR_EACH_WIDTH(LS_UPSAMPLE, uchar, uchar, ushort, ushort)
LS_FOR_EACH_WIDTH(LS_UPSAMPLE, short, ushort, int, uint)
LS_FOR_EACH_WIDTH(LS_UPSAMPLE, ushort, ushort, uint, uint)
LS_FOR_EACH_WIDTH(LS_UPSAMPLE, int, uint, long, ulong)
LS_FOR_EACH_WIDTH(LS_UPSAMPLE, uint, uint, ulong, ulong)

// mul24/mad24: only the low 24 bits of each operand are significant, so the
// full 32-bit product is a correct result; computed unsigned to wrap.
#define LS_MUL24(S, n)                                                        \
  LS_CONST_OVERLOAD S##n mul24(S##n x, S##n y) {                              \
    return LS_AS(LS_AS(x, uint##n) * LS_AS(y, uint##n), S##n);                \
  }                                                                           \
  LS_CONST_OVERLOAD S##n mad24(S##n x, S##n y, S##n z) {                      \
    return LS_AS(LS_AS(x, uint##n) * LS_AS(y, uint##n) + LS_AS(z, uint##n), S##n); \
  }
LS_FOR_EACH_WIDTH(LS_MUL24, int)
LS_FOR_EACH_WIDTH(LS_MUL24, uint)

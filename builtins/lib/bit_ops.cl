// cl_khr_extended_bit_ops: bitfield_insert, bitfield_extract_signed,
// bitfield_extract_unsigned and bit_reverse for the eight integer types and
// every vector width.
//
// A field is `count` bits starting at bit `offset` (both scalar uints, the
// same for every component). The spec leaves offset + count > bits
// undefined; count == 0 is defined: insert returns base, the extracts 0.
// Shifts are written so that no shift count reaches the type's width for
// any defined input (OpenCL C would reduce it modulo the width), and in the
// unsigned type so nothing is shifted as a negative value; the scalar char
// and short forms compute in int after C's promotion and are cast back.
#include "ls_gentype.h"

// The field's mask in the unsigned scalar type U of B bits.
#define LS_FIELD_MASK(U, B, offset, count) \
  ((count) == 0u ? (U)0 : (U)((U)((U)~(U)0 >> ((B) - (count))) << (offset)))

// Functions whose argument is the gentype T##n (S: its signed, U: its
// unsigned counterpart, B bits).
#define LS_BIT_OPS(T, S, U, B, n)                                                   \
  LS_CONST_OVERLOAD T##n bitfield_insert(T##n base, T##n insert, uint offset,      \
                                         uint count) {                              \
    U##n mask = (U##n)LS_FIELD_MASK(U, B, offset, count);                           \
    U##n shifted = (U##n)(LS_AS(insert, U##n) << (U##n)(U)(offset & (B - 1)));      \
    return LS_AS((U##n)((LS_AS(base, U##n) & (U##n)~mask) | (shifted & mask)), T##n); \
  }                                                                                 \
  /* The field moved to the top bits, then shifted down: arithmetically in   */    \
  /* the signed type (sign-extending), logically in the unsigned one.        */    \
  LS_CONST_OVERLOAD S##n bitfield_extract_signed(T##n base, uint offset, uint count) { \
    if (count == 0u) return (S##n)0;                                                \
    U##n top = (U##n)(LS_AS(base, U##n) << (U##n)(U)(B - offset - count));          \
    return (S##n)(LS_AS(top, S##n) >> (S##n)(S)(B - count));                        \
  }                                                                                 \
  LS_CONST_OVERLOAD U##n bitfield_extract_unsigned(T##n base, uint offset, uint count) { \
    if (count == 0u) return (U##n)0;                                                \
    U##n top = (U##n)(LS_AS(base, U##n) << (U##n)(U)(B - offset - count));          \
    return (U##n)(top >> (U##n)(U)(B - count));                                     \
  }

#define LS_BIT_OPS_SIGNEDNESS(S, U, B, n) \
  LS_BIT_OPS(S, S, U, B, n)               \
  LS_BIT_OPS(U, S, U, B, n)
LS_FOR_EACH_WIDTH(LS_BIT_OPS_SIGNEDNESS, char, uchar, 8)
LS_FOR_EACH_WIDTH(LS_BIT_OPS_SIGNEDNESS, short, ushort, 16)
LS_FOR_EACH_WIDTH(LS_BIT_OPS_SIGNEDNESS, int, uint, 32)
LS_FOR_EACH_WIDTH(LS_BIT_OPS_SIGNEDNESS, long, ulong, 64)

// bit_reverse: LLVM's bitreverse. Scalars use the sized builtins (the
// elementwise builtin would promote char and short to int); vectors the
// elementwise one on the unsigned vector.
#define LS_BIT_REVERSE_SCALAR(T, U, B) \
  LS_CONST_OVERLOAD T bit_reverse(T x) { return (T)LS_CAT(__builtin_bitreverse, B)((U)x); }
#define LS_BIT_REVERSE_VECTOR(T, U, n)                                   \
  LS_CONST_OVERLOAD T##n bit_reverse(T##n x) {                           \
    return LS_AS(__builtin_elementwise_bitreverse(LS_AS(x, U##n)), T##n); \
  }
#define LS_BIT_REVERSE(T, U, B, SIGNED) \
  LS_BIT_REVERSE_SCALAR(T, U, B)        \
  LS_FOR_EACH_VECTOR_WIDTH(LS_BIT_REVERSE_VECTOR, T, U)
LS_FOR_EACH_INTEGER_TYPE(LS_BIT_REVERSE)

// OpenCL C 3.0 section 6.15.13: shuffle and shuffle2 for every element type
// and every pair of input/output widths in {2, 4, 8, 16}. Only the low
// log2(m) (shuffle) or log2(2m) (shuffle2) bits of each mask element count,
// so every index is in range. Lane-by-lane extracts with variable indices:
// LLVM turns constant masks into one shufflevector after inlining.
#include "ls_gentype.h"

// The mask's element type: unsigned, as wide as the data's element type.
#define LS_MASK_char uchar
#define LS_MASK_uchar uchar
#define LS_MASK_short ushort
#define LS_MASK_ushort ushort
#define LS_MASK_int uint
#define LS_MASK_uint uint
#define LS_MASK_long ulong
#define LS_MASK_ulong ulong
#define LS_MASK_half ushort
#define LS_MASK_float uint
#define LS_MASK_double ulong

#define LS_SHUFFLE(T, m, n)                                                         \
  LS_CONST_OVERLOAD T##n shuffle(T##m x, LS_CAT(LS_MASK_##T, n) mask) {             \
    T##n r;                                                                         \
    for (int i = 0; i < n; ++i) r[i] = x[mask[i] & (m - 1)];                        \
    return r;                                                                       \
  }                                                                                 \
  LS_CONST_OVERLOAD T##n shuffle2(T##m x, T##m y, LS_CAT(LS_MASK_##T, n) mask) {    \
    T##n r;                                                                         \
    for (int i = 0; i < n; ++i) {                                                   \
      size_t k = mask[i] & (2 * m - 1);                                             \
      r[i] = k < m ? x[k] : y[k - m];                                               \
    }                                                                               \
    return r;                                                                       \
  }
#define LS_SHUFFLE_IN(T, m) \
  LS_SHUFFLE(T, m, 2) LS_SHUFFLE(T, m, 4) LS_SHUFFLE(T, m, 8) LS_SHUFFLE(T, m, 16)
#define LS_SHUFFLE_ALL(T) \
  LS_SHUFFLE_IN(T, 2) LS_SHUFFLE_IN(T, 4) LS_SHUFFLE_IN(T, 8) LS_SHUFFLE_IN(T, 16)
LS_FOR_EACH_ELEMENT_TYPE(LS_SHUFFLE_ALL)

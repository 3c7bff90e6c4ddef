// cl_khr_integer_dot_product (2.0): dot and dot_acc_sat of four 8-bit
// components, as char4/uchar4 vectors (__opencl_c_integer_dot_product_
// input_4x8bit) and packed into a uint (..._input_4x8bit_packed, component
// 0 in the least significant byte).
//
// The four products are summed exactly in 32 bits (|sum| <= 4 * 255 * 255),
// so only the accumulation of dot_acc_sat can overflow: it saturates with
// add_sat. The result is uint when both inputs are unsigned, int otherwise.
#include "ls_gentype.h"

// dot of A4 and B4 vectors in the 32-bit type R.
#define LS_DOT(R, A, B)                                                      \
  LS_CONST_OVERLOAD R dot(A##4 a, B##4 b) {                                  \
    R##4 p = __builtin_convertvector(a, R##4) * __builtin_convertvector(b, R##4); \
    return p.x + p.y + p.z + p.w;                                            \
  }                                                                          \
  LS_CONST_OVERLOAD R dot_acc_sat(A##4 a, B##4 b, R acc) {                   \
    return add_sat(dot(a, b), acc);                                          \
  }
LS_DOT(uint, uchar, uchar)
LS_DOT(int, char, char)
LS_DOT(int, uchar, char)
LS_DOT(int, char, uchar)

// The packed forms: SIGNS names the signedness of a's and b's components.
#define LS_DOT_PACKED(SIGNS, R, A, B)                                          \
  LS_CONST_OVERLOAD R dot_4x8packed_##SIGNS##_##R(uint a, uint b) {            \
    return dot(LS_AS(a, A##4), LS_AS(b, B##4));                                \
  }                                                                            \
  LS_CONST_OVERLOAD R dot_acc_sat_4x8packed_##SIGNS##_##R(uint a, uint b, R acc) { \
    return dot_acc_sat(LS_AS(a, A##4), LS_AS(b, B##4), acc);                   \
  }
LS_DOT_PACKED(uu, uint, uchar, uchar)
LS_DOT_PACKED(ss, int, char, char)
LS_DOT_PACKED(us, int, uchar, char)
LS_DOT_PACKED(su, int, char, uchar)

// Math builtins with a pointer result (OpenCL C 3.0 s6.15.2) for half and
// its vectors (cl_khr_fp16): fract, modf, sincos, frexp, lgamma_r, remquo.
// As in half_math.cl, each is its float overload on the widened argument
// with the results rounded once to half; the second result is exact for
// every one of them (an integral part, an exponent, a sign, quotient bits)
// but sincos's cosine. One overload per address space of the pointer, as
// math_pointer.cl does for float and double.

// Tables of macro definitions and invocations, which clang-format would run
// together; they are kept within 100 columns by hand.
// clang-format off
#include "ls_math.h"
#include "ls_gentype.h"

#define LS_F(x, N) LS_CONVERT(x, float, N)
#define LS_H(x, N) LS_CONVERT(x, half, N)

// fract: the float fraction below 1 may round up to 1.0 in half (fract of
// -2^-24 is 1 - 2^-24); it is held at the largest half below 1 (s6.15.2).
// A NaN fails the comparison and stays.
#define LS_HALF_FRACT(unused, N)                                                \
  LS_HELPER half##N ls_fract(half##N x, __private half##N *iptr) {              \
    float##N whole;                                                             \
    half##N r = LS_H(fract(LS_F(x, N), &whole), N);                             \
    *iptr = LS_H(whole, N);                                                     \
    return r >= (half##N)1.0h ? (half##N)0x1.ffcp-1h : r;                       \
  }
#define LS_HALF_SAME_OUT(NAME, N)                                               \
  LS_HELPER half##N ls_##NAME(half##N x, __private half##N *out) {              \
    float##N second;                                                            \
    half##N r = LS_H(NAME(LS_F(x, N), &second), N);                             \
    *out = LS_H(second, N);                                                     \
    return r;                                                                   \
  }
#define LS_HALF_INT_OUT(NAME, N)                                                \
  LS_HELPER half##N ls_##NAME(half##N x, __private int##N *out) {               \
    return LS_H(NAME(LS_F(x, N), out), N);                                      \
  }
#define LS_HALF_REMQUO(unused, N)                                               \
  LS_HELPER half##N ls_remquo(half##N x, half##N y, __private int##N *quo) {    \
    return LS_H(remquo(LS_F(x, N), LS_F(y, N), quo), N);                        \
  }
LS_FOR_EACH_WIDTH(LS_HALF_FRACT, 0)
LS_FOR_EACH_WIDTH(LS_HALF_SAME_OUT, modf)
LS_FOR_EACH_WIDTH(LS_HALF_SAME_OUT, sincos)
LS_FOR_EACH_WIDTH(LS_HALF_INT_OUT, frexp)
LS_FOR_EACH_WIDTH(LS_HALF_INT_OUT, lgamma_r)
LS_FOR_EACH_WIDTH(LS_HALF_REMQUO, 0)

// The builtins, one overload per address space of the pointer.
#define LS_HALF_OUT_OVERLOAD(AS, T, O, NAME)             \
  LS_OVERLOAD T NAME(T x, AS O *out) {                   \
    O value;                                             \
    T r = ls_##NAME(x, &value);                          \
    *out = value;                                        \
    return r;                                            \
  }
#define LS_HALF_OUT2_OVERLOAD(AS, T, O, NAME)            \
  LS_OVERLOAD T NAME(T x, T y, AS O *out) {              \
    O value;                                             \
    T r = ls_##NAME(x, y, &value);                       \
    *out = value;                                        \
    return r;                                            \
  }
#define LS_HALF_ALL_SPACES(OVERLOAD, T, O, NAME)                      \
  OVERLOAD(__global, T, O, NAME) OVERLOAD(__local, T, O, NAME)        \
  OVERLOAD(__private, T, O, NAME) OVERLOAD(, T, O, NAME)
#define LS_HALF_ALL_WIDTHS(OVERLOAD, O, NAME)                                      \
  LS_HALF_ALL_SPACES(OVERLOAD, half, O, NAME)                                      \
  LS_HALF_ALL_SPACES(OVERLOAD, half2, O##2, NAME)                                  \
  LS_HALF_ALL_SPACES(OVERLOAD, half3, O##3, NAME)                                  \
  LS_HALF_ALL_SPACES(OVERLOAD, half4, O##4, NAME)                                  \
  LS_HALF_ALL_SPACES(OVERLOAD, half8, O##8, NAME)                                  \
  LS_HALF_ALL_SPACES(OVERLOAD, half16, O##16, NAME)

LS_HALF_ALL_WIDTHS(LS_HALF_OUT_OVERLOAD, half, fract)
LS_HALF_ALL_WIDTHS(LS_HALF_OUT_OVERLOAD, half, modf)
LS_HALF_ALL_WIDTHS(LS_HALF_OUT_OVERLOAD, half, sincos)
LS_HALF_ALL_WIDTHS(LS_HALF_OUT_OVERLOAD, int, frexp)
LS_HALF_ALL_WIDTHS(LS_HALF_OUT_OVERLOAD, int, lgamma_r)
LS_HALF_ALL_WIDTHS(LS_HALF_OUT2_OVERLOAD, int, remquo)

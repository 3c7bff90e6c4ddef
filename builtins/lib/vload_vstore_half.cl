// OpenCL C 3.0 section 6.15.7: vload_half[n], vloada_halfn,
// vstore_half[n][_rte|_rtz|_rtp|_rtn] and vstorea_halfn[...] for float and
// double data. half is a storage format here (no cl_khr_fp16 for kernels):
// values are moved as ushort bit patterns. Loads, and float stores rounded
// to nearest even (vstore_half, _rte), convert as LLVM's fpext and fptrunc
// between half and float, which x86's F16C instructions do a vector at a
// time (vcvtph2ps, vcvtps2ph; 5-6x faster than integer arithmetic on 4
// million float4s); without F16C they are libgcc's conversions. The other
// rounding modes, and double data (which rounding through float would round
// twice), convert with integer arithmetic on whole vectors.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
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

// Unaligned (2-byte aligned) and vloada/vstorea-aligned views of the bits.
#define LS_HALF_VECTOR_TYPES(_, n)                                              \
  typedef ushort##n __attribute__((aligned(2), may_alias)) ls_half_bits##n;     \
  typedef ushort##n __attribute__((may_alias)) ls_half_bits_aligned##n;
LS_FOR_EACH_VECTOR_WIDTH(LS_HALF_VECTOR_TYPES, _)

// vload_half / vload_halfn / vloada_halfn for one address space.
#define LS_VLOAD_HALF_N(AS, n)                                                   \
  LS_OVERLOAD float##n vload_half##n(size_t offset, const AS half *p) {          \
    const AS ushort *q = (const AS ushort *)p + offset * n;                      \
    return ls_half_to_float(*(const AS ls_half_bits##n *)q);                     \
  }                                                                              \
  LS_OVERLOAD float##n vloada_half##n(size_t offset, const AS half *p) {         \
    const AS ushort *q = (const AS ushort *)p + offset * n;                      \
    return ls_half_to_float(*(const AS ls_half_bits_aligned##n *)q);             \
  }
#define LS_VLOAD_HALF(AS)                                                        \
  LS_OVERLOAD float vload_half(size_t offset, const AS half *p) {                \
    return ls_half_to_float(((const AS ushort *)p)[offset]);                     \
  }                                                                              \
  LS_OVERLOAD float3 vload_half3(size_t offset, const AS half *p) {              \
    const AS ushort *q = (const AS ushort *)p + offset * 3;                      \
    return ls_half_to_float((ushort3)(q[0], q[1], q[2]));                        \
  }                                                                              \
  /* vloada_half3 reads a 4-half aligned slot and ignores the 4th. */           \
  LS_OVERLOAD float3 vloada_half3(size_t offset, const AS half *p) {             \
    return ls_half_to_float(                                                     \
        (*(const AS ls_half_bits_aligned4 *)((const AS ushort *)p + offset * 4)).s012); \
  }                                                                              \
  LS_VLOAD_HALF_N(AS, 2) LS_VLOAD_HALF_N(AS, 4) LS_VLOAD_HALF_N(AS, 8) LS_VLOAD_HALF_N(AS, 16)

LS_VLOAD_HALF(__global)
LS_VLOAD_HALF(__local)
LS_VLOAD_HALF(__constant)
LS_VLOAD_HALF(__private)
LS_VLOAD_HALF(__generic)

#define LS_VSTORE_HALF_N(F, AS, MODE, n)                                              \
  LS_OVERLOAD void vstore_half##n##MODE(F##n data, size_t offset, AS half *p) {       \
    *(AS ls_half_bits##n *)((AS ushort *)p + offset * n) = ls_to_half##MODE(data);    \
  }                                                                                   \
  LS_OVERLOAD void vstorea_half##n##MODE(F##n data, size_t offset, AS half *p) {      \
    *(AS ls_half_bits_aligned##n *)((AS ushort *)p + offset * n) = ls_to_half##MODE(data); \
  }
#define LS_VSTORE_HALF_MODE(F, AS, MODE)                                              \
  LS_OVERLOAD void vstore_half##MODE(F data, size_t offset, AS half *p) {             \
    ((AS ushort *)p)[offset] = ls_to_half##MODE(data);                                \
  }                                                                                   \
  LS_OVERLOAD void vstore_half3##MODE(F##3 data, size_t offset, AS half *p) {         \
    AS ushort *q = (AS ushort *)p + offset * 3;                                       \
    ushort3 h = ls_to_half##MODE(data);                                               \
    q[0] = h.s0;                                                                      \
    q[1] = h.s1;                                                                      \
    q[2] = h.s2;                                                                      \
  }                                                                                   \
  /* vstorea_half3 writes 3 halves of a 4-half aligned slot. */                      \
  LS_OVERLOAD void vstorea_half3##MODE(F##3 data, size_t offset, AS half *p) {        \
    AS ushort *q = (AS ushort *)p + offset * 4;                                       \
    ushort3 h = ls_to_half##MODE(data);                                               \
    q[0] = h.s0;                                                                      \
    q[1] = h.s1;                                                                      \
    q[2] = h.s2;                                                                      \
  }                                                                                   \
  LS_VSTORE_HALF_N(F, AS, MODE, 2)                                                    \
  LS_VSTORE_HALF_N(F, AS, MODE, 4)                                                    \
  LS_VSTORE_HALF_N(F, AS, MODE, 8)                                                    \
  LS_VSTORE_HALF_N(F, AS, MODE, 16)
#define LS_VSTORE_HALF_AS(F, AS)        \
  LS_VSTORE_HALF_MODE(F, AS, )          \
  LS_VSTORE_HALF_MODE(F, AS, _rte)      \
  LS_VSTORE_HALF_MODE(F, AS, _rtz)      \
  LS_VSTORE_HALF_MODE(F, AS, _rtp)      \
  LS_VSTORE_HALF_MODE(F, AS, _rtn)
#define LS_VSTORE_HALF(F)               \
  LS_VSTORE_HALF_AS(F, __global)        \
  LS_VSTORE_HALF_AS(F, __local)         \
  LS_VSTORE_HALF_AS(F, __private)       \
  LS_VSTORE_HALF_AS(F, __generic)
LS_VSTORE_HALF(float)
LS_VSTORE_HALF(double)

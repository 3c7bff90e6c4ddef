// OpenCL C 3.0 section 6.15.7: vload_half[n], vloada_halfn,
// vstore_half[n][_rte|_rtz|_rtp|_rtn] and vstorea_halfn[...] for float and
// double data. These work on half storage whether or not a kernel enables
// cl_khr_fp16, so values are moved as ushort bit patterns; the conversions
// are ls_half.h's (shared with convert_half*).
#include "ls_half.h"

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

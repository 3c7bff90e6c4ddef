// OpenCL C 3.0 section 6.15.7: vloadn / vstoren. The address p + offset * n
// is only aligned to the element type, so the vector is accessed through a
// typedef with the element's alignment: one unaligned vector load or store
// (vmovups) instead of n scalar accesses. 3-element vectors are accessed
// element by element: their vector type is 4 elements wide in memory and a
// whole-vector access would touch the element after them.
#include "ls_gentype.h"

#define LS_UNALIGNED_TYPES(T, n) \
  typedef T##n __attribute__((aligned(sizeof(T)), may_alias)) ls_unaligned_##T##n;
#define LS_UNALIGNED_ALL(T) LS_FOR_EACH_VECTOR_WIDTH(LS_UNALIGNED_TYPES, T)
LS_FOR_EACH_ELEMENT_TYPE(LS_UNALIGNED_ALL)

#define LS_VLOAD(T, AS, n)                                                  \
  LS_OVERLOAD T##n vload##n(size_t offset, const AS T *p) {                 \
    return *(const AS ls_unaligned_##T##n *)(p + offset * n);               \
  }
#define LS_VSTORE(T, AS, n)                                                 \
  LS_OVERLOAD void vstore##n(T##n data, size_t offset, AS T *p) {           \
    *(AS ls_unaligned_##T##n *)(p + offset * n) = data;                     \
  }
#define LS_VLOAD3(T, AS)                                                    \
  LS_OVERLOAD T##3 vload3(size_t offset, const AS T *p) {                   \
    const AS T *q = p + offset * 3;                                         \
    return (T##3)(q[0], q[1], q[2]);                                        \
  }
#define LS_VSTORE3(T, AS)                                                   \
  LS_OVERLOAD void vstore3(T##3 data, size_t offset, AS T *p) {             \
    AS T *q = p + offset * 3;                                               \
    q[0] = data.s0;                                                         \
    q[1] = data.s1;                                                         \
    q[2] = data.s2;                                                         \
  }

#define LS_VLOAD_AS(T, AS) \
  LS_VLOAD(T, AS, 2) LS_VLOAD3(T, AS) LS_VLOAD(T, AS, 4) LS_VLOAD(T, AS, 8) LS_VLOAD(T, AS, 16)
#define LS_VSTORE_AS(T, AS)                                                      \
  LS_VSTORE(T, AS, 2) LS_VSTORE3(T, AS) LS_VSTORE(T, AS, 4) LS_VSTORE(T, AS, 8) \
  LS_VSTORE(T, AS, 16)

// Loads from every address space (named ones for OpenCL C 1.x kernels,
// generic for 2.0+), stores to all but __constant.
#define LS_VLOAD_VSTORE(T)      \
  LS_VLOAD_AS(T, __global)      \
  LS_VLOAD_AS(T, __local)       \
  LS_VLOAD_AS(T, __constant)    \
  LS_VLOAD_AS(T, __private)     \
  LS_VLOAD_AS(T, __generic)     \
  LS_VSTORE_AS(T, __global)     \
  LS_VSTORE_AS(T, __local)      \
  LS_VSTORE_AS(T, __private)    \
  LS_VSTORE_AS(T, __generic)
LS_FOR_EACH_ELEMENT_TYPE(LS_VLOAD_VSTORE)

// cl_khr_extended_async_copies: async_work_group_copy_2D2D and
// async_work_group_copy_3D3D, between __global and __local memory, of
// num_lines lines (of num_planes planes) of num_elements_per_line elements
// of num_bytes_per_element bytes each. Offsets and strides count elements.
//
// Clang 19 does not declare these: the frontend declares them for kernels
// (compiler/lib/Frontend.cpp) with exactly these prototypes. As for the 1D
// copies (async_copy.cl), every work-item of the group calls the copy with
// the same arguments and does its share on the spot: the line and plane
// loops are the same in every work-item, and work-item i copies bytes i,
// i + local size, ... of each line, so consecutive work-items copy
// consecutive bytes. wait_group_events (a barrier) completes the copy.
#include "ls_gentype.h"

static size_t ls_copy_group_size(void) {
  return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

// One line of `bytes` bytes, this work-item's share.
#define LS_COPY_LINE(DST, SRC, d, s, bytes)                                  \
  for (size_t b = get_local_linear_id(); b < (bytes); b += step) (DST)[(d) + b] = (SRC)[(s) + b];

#define LS_ASYNC_COPY_2D3D(DAS, SAS)                                                          \
  LS_OVERLOAD event_t async_work_group_copy_2D2D(                                            \
      DAS void *dst, size_t dst_offset, const SAS void *src, size_t src_offset,              \
      size_t num_bytes_per_element, size_t num_elements_per_line, size_t num_lines,          \
      size_t src_line_stride, size_t dst_line_stride, event_t event) {                       \
    DAS uchar *d = (DAS uchar *)dst;                                                         \
    const SAS uchar *s = (const SAS uchar *)src;                                             \
    size_t e = num_bytes_per_element, line = num_elements_per_line * e;                      \
    size_t step = ls_copy_group_size();                                                      \
    for (size_t y = 0; y < num_lines; ++y) {                                                 \
      size_t dl = (dst_offset + y * dst_line_stride) * e, sl = (src_offset + y * src_line_stride) * e; \
      LS_COPY_LINE(d, s, dl, sl, line)                                                       \
    }                                                                                        \
    return event;                                                                            \
  }                                                                                          \
  LS_OVERLOAD event_t async_work_group_copy_3D3D(                                            \
      DAS void *dst, size_t dst_offset, const SAS void *src, size_t src_offset,              \
      size_t num_bytes_per_element, size_t num_elements_per_line, size_t num_lines,          \
      size_t num_planes, size_t src_line_stride, size_t src_plane_stride,                    \
      size_t dst_line_stride, size_t dst_plane_stride, event_t event) {                      \
    DAS uchar *d = (DAS uchar *)dst;                                                         \
    const SAS uchar *s = (const SAS uchar *)src;                                             \
    size_t e = num_bytes_per_element, line = num_elements_per_line * e;                      \
    size_t step = ls_copy_group_size();                                                      \
    for (size_t z = 0; z < num_planes; ++z)                                                  \
      for (size_t y = 0; y < num_lines; ++y) {                                               \
        size_t dl = (dst_offset + z * dst_plane_stride + y * dst_line_stride) * e;           \
        size_t sl = (src_offset + z * src_plane_stride + y * src_line_stride) * e;           \
        LS_COPY_LINE(d, s, dl, sl, line)                                                     \
      }                                                                                      \
    return event;                                                                            \
  }
LS_ASYNC_COPY_2D3D(__local, __global)
LS_ASYNC_COPY_2D3D(__global, __local)

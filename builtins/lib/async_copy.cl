// OpenCL C 3.0 sections 6.15.10/6.15.11: async_work_group_copy,
// async_work_group_strided_copy, wait_group_events and prefetch.
//
// Every work-item of the group calls a copy with the same arguments, so the
// copy is split among them: work-item i (linear id) copies elements i,
// i + local size, ... - done on the spot, which the spec allows (the copy
// need only be complete at wait_group_events). The loop is inlined into the
// work-item loop, where consecutive work-items copy consecutive elements.
// wait_group_events is a group barrier: after it every work-item's part of
// every copy is done and visible to the whole group. Events carry no state;
// a copy returns the event it was given (the spec's event to reuse), else
// the null event, which waits like any other.
#include "ls_gentype.h"

static size_t ls_local_size(void) {
  return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

#define LS_ASYNC_COPY(T, n)                                                        \
  LS_OVERLOAD event_t async_work_group_copy(__local T##n *dst, const __global T##n *src, \
                                            size_t count, event_t event) {         \
    size_t step = ls_local_size();                                                 \
    for (size_t i = get_local_linear_id(); i < count; i += step) dst[i] = src[i];  \
    return event;                                                                  \
  }                                                                                \
  LS_OVERLOAD event_t async_work_group_copy(__global T##n *dst, const __local T##n *src, \
                                            size_t count, event_t event) {         \
    size_t step = ls_local_size();                                                 \
    for (size_t i = get_local_linear_id(); i < count; i += step) dst[i] = src[i];  \
    return event;                                                                  \
  }                                                                                \
  LS_OVERLOAD event_t async_work_group_strided_copy(__local T##n *dst,             \
                                                    const __global T##n *src,      \
                                                    size_t count, size_t src_stride, \
                                                    event_t event) {               \
    size_t step = ls_local_size();                                                 \
    for (size_t i = get_local_linear_id(); i < count; i += step)                   \
      dst[i] = src[i * src_stride];                                                \
    return event;                                                                  \
  }                                                                                \
  LS_OVERLOAD event_t async_work_group_strided_copy(__global T##n *dst,            \
                                                    const __local T##n *src,       \
                                                    size_t count, size_t dst_stride, \
                                                    event_t event) {               \
    size_t step = ls_local_size();                                                 \
    for (size_t i = get_local_linear_id(); i < count; i += step)                   \
      dst[i * dst_stride] = src[i];                                                \
    return event;                                                                  \
  }                                                                                \
  /* A hint only: the data is in host memory the caches already see. */          \
  LS_OVERLOAD void prefetch(const __global T##n *p, size_t count) {                \
    (void)p;                                                                       \
    (void)count;                                                                   \
  }
#define LS_ASYNC_COPY_ALL(T) LS_FOR_EACH_WIDTH(LS_ASYNC_COPY, T)
LS_FOR_EACH_ELEMENT_TYPE(LS_ASYNC_COPY_ALL)

// The event list is __private in OpenCL C 1.x and generic in 2.0+.
LS_OVERLOAD void wait_group_events(int num_events, __private event_t *event_list) {
  (void)num_events;
  (void)event_list;
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
LS_OVERLOAD void wait_group_events(int num_events, __generic event_t *event_list) {
  (void)num_events;
  (void)event_list;
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

// OpenCL C 2.0 device-side enqueue (__opencl_c_device_enqueue), the
// built-ins besides enqueue_kernel and the get_kernel_* queries, which
// Clang lowers itself (compiler/lib/DeviceEnqueueLowering.cpp):
// ndrange_1D/2D/3D fill Clang's ndrange_t; get_default_queue, enqueue_marker
// and the clk_event_t functions call the runtime (runtime/exec/DeviceEnqueue.cpp,
// reached through compiler/lib/DeviceEnqueueRuntime.cpp), whose queue_t is a
// cl_command_queue and clk_event_t a cl_event. A local size of zeros in an
// ndrange_t means none was given: the runtime chooses one.
#include "ls_gentype.h"

queue_t __lockstep_default_queue(void);
int __lockstep_enqueue_marker(queue_t queue, uint count, const clk_event_t *wait, clk_event_t *event);
void __lockstep_retain_event(clk_event_t event);
void __lockstep_release_event(clk_event_t event);
clk_event_t __lockstep_create_user_event(void);
int __lockstep_is_valid_event(clk_event_t event);
void __lockstep_set_user_event_status(clk_event_t event, int status);
void __lockstep_capture_event_profiling_info(clk_event_t event, clk_profiling_info name, __global void *value);

static ndrange_t ls_ndrange(uint dims, const size_t *offset, const size_t *gws, const size_t *lws) {
  ndrange_t range;
  range.workDimension = dims;
  for (uint d = 0; d < 3; ++d) {
    range.globalWorkOffset[d] = offset && d < dims ? offset[d] : 0;
    range.globalWorkSize[d] = d < dims ? gws[d] : 1;
    range.localWorkSize[d] = lws && d < dims ? lws[d] : 0;
  }
  return range;
}

LS_OVERLOAD ndrange_t ndrange_1D(size_t gws) { return ls_ndrange(1, 0, &gws, 0); }
LS_OVERLOAD ndrange_t ndrange_1D(size_t gws, size_t lws) { return ls_ndrange(1, 0, &gws, &lws); }
LS_OVERLOAD ndrange_t ndrange_1D(size_t offset, size_t gws, size_t lws) {
  return ls_ndrange(1, &offset, &gws, &lws);
}

#define LS_NDRANGE(N)                                                                         \
  LS_OVERLOAD ndrange_t ndrange_##N##D(const size_t gws[N]) { return ls_ndrange(N, 0, gws, 0); } \
  LS_OVERLOAD ndrange_t ndrange_##N##D(const size_t gws[N], const size_t lws[N]) {      \
    return ls_ndrange(N, 0, gws, lws);                                                   \
  }                                                                                           \
  LS_OVERLOAD ndrange_t ndrange_##N##D(const size_t offset[N], const size_t gws[N],       \
                                       const size_t lws[N]) {                              \
    return ls_ndrange(N, offset, gws, lws);                                              \
  }
LS_NDRANGE(2)
LS_NDRANGE(3)

LS_OVERLOAD queue_t get_default_queue(void) { return __lockstep_default_queue(); }

LS_OVERLOAD int enqueue_marker(queue_t queue, uint count, const clk_event_t *wait, clk_event_t *event) {
  return __lockstep_enqueue_marker(queue, count, wait, event);
}

LS_OVERLOAD void retain_event(clk_event_t event) { __lockstep_retain_event(event); }
LS_OVERLOAD void release_event(clk_event_t event) { __lockstep_release_event(event); }
LS_OVERLOAD clk_event_t create_user_event(void) { return __lockstep_create_user_event(); }
LS_OVERLOAD void set_user_event_status(clk_event_t event, int status) {
  __lockstep_set_user_event_status(event, status);
}
LS_OVERLOAD bool is_valid_event(clk_event_t event) { return __lockstep_is_valid_event(event) != 0; }
LS_OVERLOAD void capture_event_profiling_info(clk_event_t event, clk_profiling_info name, __global void *value) {
  __lockstep_capture_event_profiling_info(event, name, value);
}

// cl_khr_command_buffer_mutable_dispatch's side of clCommandNDRangeKernelKHR
// (api/command_buffer_record.cpp): the launch's properties, and the
// recording of a launch whose handle the application asked for
// (api/command_buffer_mutable.cpp).
#pragma once

#include <vector>

#include "CommandBuffer.h"

namespace lockstep::api {

// CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR: every field may change.
constexpr cl_mutable_dispatch_fields_khr kMutableDispatchCapabilities =
    CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR | CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR |
    CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR | CL_MUTABLE_DISPATCH_ARGUMENTS_KHR |
    CL_MUTABLE_DISPATCH_EXEC_INFO_KHR;

// The properties of a kernel launch command: CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR
// (fields the device supports; every one if not given) and
// CL_MUTABLE_DISPATCH_ASSERTS_KHR, each once; anything else is
// CL_INVALID_VALUE.
struct LaunchProperties {
  cl_mutable_dispatch_fields_khr updatable = kMutableDispatchCapabilities;
  cl_bitfield asserts = 0;
  std::vector<cl_properties> list;  // as given, with its 0; empty if none
};
LaunchProperties checkedLaunchProperties(const cl_properties *properties);

// Records a mutable launch into `buffer` (created mutable) after the sync
// points of the wait list; returns its handle and sets `*syncPoint` if
// given. The launch's checks are clEnqueueNDRangeKernel's, except that
// arguments still unset are allowed when they may be updated.
cl_mutable_command_khr recordMutableLaunch(_cl_command_buffer_khr *buffer, cl_kernel kernel,
                                           cl_uint workDim, const size_t *globalWorkOffset,
                                           const size_t *globalWorkSize,
                                           const size_t *localWorkSize, LaunchProperties properties,
                                           cl_uint numSyncPoints,
                                           const cl_sync_point_khr *syncPointWaitList,
                                           cl_sync_point_khr *syncPoint);

}  // namespace lockstep::api

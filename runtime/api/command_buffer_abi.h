// The interface of cl_khr_command_buffer as Lockstep implements it: version
// 0.9.8 of the provisional extension, the one the Khronos headers of
// OpenCL-Headers 15b536b (and the CTS built against them) describe. The
// extension's interface changed between its versions (a properties argument
// on every clCommand*KHR, the command-buffer's context query, new error
// codes), and Debian's opencl-headers (2023.02) declare an older one, so
// Lockstep states the version it implements here, in its own words: the
// function types (lockstep::khr::<name>_fn, what
// clGetExtensionFunctionAddressForPlatform hands out) and the values the
// older headers lack. Handle types (cl_command_buffer_khr,
// cl_sync_point_khr, cl_mutable_command_khr) and the values common to every
// version come from CL/cl_ext.h. conformance/test_command_buffer.cpp
// includes this header too.
#pragma once

#include <CL/cl_ext.h>

#define LOCKSTEP_COMMAND_BUFFER_VERSION CL_MAKE_VERSION(0, 9, 8)

// Values of 0.9.8 that older headers do not define.
#ifndef CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR
#define CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR 0x129A
#endif
#ifndef CL_COMMAND_BUFFER_CONTEXT_KHR
#define CL_COMMAND_BUFFER_CONTEXT_KHR 0x1299
#endif
#ifndef CL_INVALID_SYNC_POINT_WAIT_LIST_KHR
#define CL_INVALID_SYNC_POINT_WAIT_LIST_KHR -1139
#endif
#ifndef CL_INCOMPATIBLE_COMMAND_QUEUE_KHR
#define CL_INCOMPATIBLE_COMMAND_QUEUE_KHR -1140
#endif

namespace lockstep::khr {

// cl_command_properties_khr: a zero-terminated list of (name, value) pairs
// given to each recorded command; 0.9.8 defines no name of its own.
using CommandProperties = cl_properties;

// clCommand*KHR share their tail: the sync points the command waits for,
// the one it defines, and the mutable-dispatch handle.
#define LOCKSTEP_COMMAND_TAIL                                                          \
  cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list, \
      cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle

using clCreateCommandBufferKHR_fn = cl_command_buffer_khr(CL_API_CALL *)(
    cl_uint num_queues, const cl_command_queue *queues,
    const cl_command_buffer_properties_khr *properties, cl_int *errcode_ret);
using clFinalizeCommandBufferKHR_fn = cl_int(CL_API_CALL *)(cl_command_buffer_khr command_buffer);
using clRetainCommandBufferKHR_fn = cl_int(CL_API_CALL *)(cl_command_buffer_khr command_buffer);
using clReleaseCommandBufferKHR_fn = cl_int(CL_API_CALL *)(cl_command_buffer_khr command_buffer);
using clEnqueueCommandBufferKHR_fn = cl_int(CL_API_CALL *)(
    cl_uint num_queues, cl_command_queue *queues, cl_command_buffer_khr command_buffer,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);
using clGetCommandBufferInfoKHR_fn = cl_int(CL_API_CALL *)(cl_command_buffer_khr command_buffer,
                                                           cl_command_buffer_info_khr param_name,
                                                           size_t param_value_size,
                                                           void *param_value,
                                                           size_t *param_value_size_ret);

using clCommandBarrierWithWaitListKHR_fn =
    cl_int(CL_API_CALL *)(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                          const CommandProperties *properties, LOCKSTEP_COMMAND_TAIL);
using clCommandCopyBufferKHR_fn = cl_int(CL_API_CALL *)(cl_command_buffer_khr command_buffer,
                                                        cl_command_queue command_queue,
                                                        const CommandProperties *properties,
                                                        cl_mem src_buffer, cl_mem dst_buffer,
                                                        size_t src_offset, size_t dst_offset,
                                                        size_t size, LOCKSTEP_COMMAND_TAIL);
using clCommandCopyBufferRectKHR_fn = cl_int(CL_API_CALL *)(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, cl_mem src_buffer, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region, size_t src_row_pitch,
    size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch, LOCKSTEP_COMMAND_TAIL);
using clCommandCopyBufferToImageKHR_fn = cl_int(CL_API_CALL *)(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, cl_mem src_buffer, cl_mem dst_image, size_t src_offset,
    const size_t *dst_origin, const size_t *region, LOCKSTEP_COMMAND_TAIL);
using clCommandCopyImageKHR_fn = cl_int(CL_API_CALL *)(cl_command_buffer_khr command_buffer,
                                                       cl_command_queue command_queue,
                                                       const CommandProperties *properties,
                                                       cl_mem src_image, cl_mem dst_image,
                                                       const size_t *src_origin,
                                                       const size_t *dst_origin,
                                                       const size_t *region, LOCKSTEP_COMMAND_TAIL);
using clCommandCopyImageToBufferKHR_fn = cl_int(CL_API_CALL *)(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, cl_mem src_image, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *region, size_t dst_offset, LOCKSTEP_COMMAND_TAIL);
using clCommandFillBufferKHR_fn = cl_int(CL_API_CALL *)(cl_command_buffer_khr command_buffer,
                                                        cl_command_queue command_queue,
                                                        const CommandProperties *properties,
                                                        cl_mem buffer, const void *pattern,
                                                        size_t pattern_size, size_t offset,
                                                        size_t size, LOCKSTEP_COMMAND_TAIL);
using clCommandFillImageKHR_fn = cl_int(CL_API_CALL *)(cl_command_buffer_khr command_buffer,
                                                       cl_command_queue command_queue,
                                                       const CommandProperties *properties,
                                                       cl_mem image, const void *fill_color,
                                                       const size_t *origin, const size_t *region,
                                                       LOCKSTEP_COMMAND_TAIL);
using clCommandNDRangeKernelKHR_fn =
    cl_int(CL_API_CALL *)(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                          const CommandProperties *properties, cl_kernel kernel, cl_uint work_dim,
                          const size_t *global_work_offset, const size_t *global_work_size,
                          const size_t *local_work_size, LOCKSTEP_COMMAND_TAIL);
using clCommandSVMMemcpyKHR_fn = cl_int(CL_API_CALL *)(cl_command_buffer_khr command_buffer,
                                                       cl_command_queue command_queue,
                                                       const CommandProperties *properties,
                                                       void *dst_ptr, const void *src_ptr,
                                                       size_t size, LOCKSTEP_COMMAND_TAIL);
using clCommandSVMMemFillKHR_fn = cl_int(CL_API_CALL *)(cl_command_buffer_khr command_buffer,
                                                        cl_command_queue command_queue,
                                                        const CommandProperties *properties,
                                                        void *svm_ptr, const void *pattern,
                                                        size_t pattern_size, size_t size,
                                                        LOCKSTEP_COMMAND_TAIL);

#undef LOCKSTEP_COMMAND_TAIL

// cl_khr_command_buffer_mutable_dispatch 0.9.5, the version of the same
// headers. Debian's headers declare an older version whose configuration
// structures and some values differ (its
// CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR is 1, 0.9.5's 0): those are
// Lockstep's own names here. The values both versions share (the
// CL_MUTABLE_DISPATCH_* fields and queries, CL_INVALID_MUTABLE_COMMAND_KHR,
// CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR) come from CL/cl_ext.h.
#define LOCKSTEP_MUTABLE_DISPATCH_VERSION CL_MAKE_VERSION(0, 9, 5)

// CL_COMMAND_BUFFER_FLAGS_KHR bits.
constexpr cl_command_buffer_flags_khr kSimultaneousUse = 1 << 0;
constexpr cl_command_buffer_flags_khr kMutable = 1 << 1;
// CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR.
constexpr cl_device_command_buffer_capabilities_khr kCapabilitySimultaneousUse = 1 << 2;
// CL_COMMAND_BUFFER_STATE_FINALIZED_KHR: finalized, but a mutable command
// still lacks an argument.
constexpr cl_command_buffer_state_khr kStateFinalized = 2;
// CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR.
constexpr cl_uint kMutableDispatchConfigType = 0;
// CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR (a command-buffer
// property), CL_MUTABLE_DISPATCH_ASSERTS_KHR (a command property) and their
// one bit, CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR.
constexpr cl_properties kCommandBufferMutableDispatchAsserts = 0x12B7;
constexpr cl_properties kMutableDispatchAsserts = 0x12B8;
constexpr cl_bitfield kAssertNoAdditionalWorkGroups = 1 << 0;
// CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR.
constexpr cl_uint kMutableCommandPropertiesArray = 0x12A2;

// cl_mutable_dispatch_arg_khr, cl_mutable_dispatch_exec_info_khr and
// cl_mutable_dispatch_config_khr of 0.9.5.
struct MutableDispatchArg {
  cl_uint arg_index;
  size_t arg_size;
  const void *arg_value;
};
struct MutableDispatchExecInfo {
  cl_uint param_name;
  size_t param_value_size;
  const void *param_value;
};
struct MutableDispatchConfig {
  cl_mutable_command_khr command;
  cl_uint num_args;
  cl_uint num_svm_args;
  cl_uint num_exec_infos;
  cl_uint work_dim;
  const MutableDispatchArg *arg_list;
  const MutableDispatchArg *arg_svm_list;
  const MutableDispatchExecInfo *exec_info_list;
  const size_t *global_work_offset;
  const size_t *global_work_size;
  const size_t *local_work_size;
};

using clUpdateMutableCommandsKHR_fn = cl_int(CL_API_CALL *)(cl_command_buffer_khr command_buffer,
                                                            cl_uint num_configs,
                                                            const cl_uint *config_types,
                                                            const void **configs);
using clGetMutableCommandInfoKHR_fn = cl_int(CL_API_CALL *)(cl_mutable_command_khr command,
                                                            cl_uint param_name,
                                                            size_t param_value_size,
                                                            void *param_value,
                                                            size_t *param_value_size_ret);

}  // namespace lockstep::khr

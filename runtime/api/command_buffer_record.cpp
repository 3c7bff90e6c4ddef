// cl_khr_command_buffer's recording entry points (clCommand*KHR, version
// 0.9.8): the checks every one makes (the queue, which must be NULL without
// cl_khr_command_buffer_multi_device; the command-buffer and its state; the
// properties, of which 0.9.8 defines none for these commands; the mutable
// handle, which needs cl_khr_command_buffer_mutable_dispatch; the sync-point
// wait list), then the same checks and the same command as the clEnqueue*
// entry point (api/commands.h), made against the command-buffer's queue and
// recorded to run many times.
#include "CommandBuffer.h"
#include "Kernel.h"
#include "api/command_buffer_mutable.h"
#include "api/commands.h"
#include "api/entry_points.h"

using namespace lockstep::runtime;

namespace lockstep::api {

namespace {

// The checks every clCommand*KHR makes first: the command-buffer, the
// queue, the state, the shape of the sync-point wait list (the sync points
// themselves are checked as the command is recorded).
_cl_command_buffer_khr *bufferForRecording(cl_command_buffer_khr command_buffer,
                                           cl_command_queue command_queue, cl_uint numSyncPoints,
                                           const cl_sync_point_khr *syncPointWaitList) {
  // The command-buffer first: the queue is checked against it (the CTS
  // expects CL_INVALID_COMMAND_BUFFER_KHR for a NULL command-buffer with
  // a queue given).
  _cl_command_buffer_khr *buffer = checked(command_buffer);
  // "CL_INVALID_COMMAND_QUEUE if command_queue is not NULL."
  check(command_queue == nullptr, CL_INVALID_COMMAND_QUEUE);
  // "CL_INVALID_OPERATION if command_buffer has been finalized."
  check(!buffer->finalized(), CL_INVALID_OPERATION);
  // "CL_INVALID_SYNC_POINT_WAIT_LIST_KHR if sync_point_wait_list is NULL
  // and num_sync_points_in_wait_list is > 0, or sync_point_wait_list is
  // not NULL and num_sync_points_in_wait_list is 0".
  check((numSyncPoints == 0) == (syncPointWaitList == nullptr),
        CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  return buffer;
}

// Records the command `build` makes for the command-buffer's queue, after
// the checks common to every clCommand*KHR but the kernel launch.
template <class Build>
cl_int recordCommand(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                     const khr::CommandProperties *properties, cl_uint numSyncPoints,
                     const cl_sync_point_khr *syncPointWaitList, cl_sync_point_khr *syncPoint,
                     cl_mutable_command_khr *mutableHandle, Build &&build) {
  return guarded([&] {
    _cl_command_buffer_khr *buffer =
        bufferForRecording(command_buffer, command_queue, numSyncPoints, syncPointWaitList);
    // "CL_INVALID_VALUE if values specified in properties are not valid":
    // these commands have none.
    check(properties == nullptr || properties[0] == 0, CL_INVALID_VALUE);
    // "CL_INVALID_VALUE if mutable_handle is not NULL": only kernel
    // launches are mutable.
    check(mutableHandle == nullptr, CL_INVALID_VALUE);
    Command work = build(buffer->queue());
    cl_sync_point_khr point = buffer->record(numSyncPoints, syncPointWaitList, std::move(work));
    if (syncPoint) *syncPoint = point;
  });
}

}  // namespace

cl_int CL_API_CALL clCommandBarrierWithWaitListKHR(cl_command_buffer_khr command_buffer,
                                                   cl_command_queue command_queue,
                                                   const khr::CommandProperties *properties,
                                                   cl_uint num_sync_points_in_wait_list,
                                                   const cl_sync_point_khr *sync_point_wait_list,
                                                   cl_sync_point_khr *sync_point,
                                                   cl_mutable_command_khr *mutable_handle) {
  // The recorded commands run in order: a barrier has nothing left to do
  // but hand out its sync point.
  return recordCommand(command_buffer, command_queue, properties, num_sync_points_in_wait_list,
                       sync_point_wait_list, sync_point, mutable_handle,
                       [&](_cl_command_queue *) { return Command(); });
}

cl_int CL_API_CALL clCommandCopyBufferKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const khr::CommandProperties *properties, cl_mem src_buffer, cl_mem dst_buffer,
    size_t src_offset, size_t dst_offset, size_t size, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle) {
  return recordCommand(
      command_buffer, command_queue, properties, num_sync_points_in_wait_list, sync_point_wait_list,
      sync_point, mutable_handle, [&](_cl_command_queue *queue) {
        return copyBufferCommand(queue, src_buffer, dst_buffer, src_offset, dst_offset, size);
      });
}

cl_int CL_API_CALL clCommandCopyBufferRectKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const khr::CommandProperties *properties, cl_mem src_buffer, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region, size_t src_row_pitch,
    size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  return recordCommand(command_buffer, command_queue, properties, num_sync_points_in_wait_list,
                       sync_point_wait_list, sync_point, mutable_handle,
                       [&](_cl_command_queue *queue) {
                         return copyBufferRectCommand(
                             queue, src_buffer, dst_buffer, src_origin, dst_origin, region,
                             src_row_pitch, src_slice_pitch, dst_row_pitch, dst_slice_pitch);
                       });
}

cl_int CL_API_CALL clCommandCopyBufferToImageKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const khr::CommandProperties *properties, cl_mem src_buffer, cl_mem dst_image,
    size_t src_offset, const size_t *dst_origin, const size_t *region,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  return recordCommand(command_buffer, command_queue, properties, num_sync_points_in_wait_list,
                       sync_point_wait_list, sync_point, mutable_handle,
                       [&](_cl_command_queue *queue) {
                         return copyBufferToImageCommand(queue, src_buffer, dst_image, src_offset,
                                                         dst_origin, region);
                       });
}

cl_int CL_API_CALL clCommandCopyImageKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const khr::CommandProperties *properties, cl_mem src_image, cl_mem dst_image,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  return recordCommand(command_buffer, command_queue, properties, num_sync_points_in_wait_list,
                       sync_point_wait_list, sync_point, mutable_handle,
                       [&](_cl_command_queue *queue) {
                         return copyImageCommand(queue, src_image, dst_image, src_origin,
                                                 dst_origin, region, 0, nullptr);
                       });
}

cl_int CL_API_CALL clCommandCopyImageToBufferKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const khr::CommandProperties *properties, cl_mem src_image, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *region, size_t dst_offset,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  return recordCommand(command_buffer, command_queue, properties, num_sync_points_in_wait_list,
                       sync_point_wait_list, sync_point, mutable_handle,
                       [&](_cl_command_queue *queue) {
                         return copyImageToBufferCommand(queue, src_image, dst_buffer, src_origin,
                                                         region, dst_offset);
                       });
}

cl_int CL_API_CALL clCommandFillBufferKHR(cl_command_buffer_khr command_buffer,
                                          cl_command_queue command_queue,
                                          const khr::CommandProperties *properties, cl_mem buffer,
                                          const void *pattern, size_t pattern_size, size_t offset,
                                          size_t size, cl_uint num_sync_points_in_wait_list,
                                          const cl_sync_point_khr *sync_point_wait_list,
                                          cl_sync_point_khr *sync_point,
                                          cl_mutable_command_khr *mutable_handle) {
  return recordCommand(
      command_buffer, command_queue, properties, num_sync_points_in_wait_list, sync_point_wait_list,
      sync_point, mutable_handle, [&](_cl_command_queue *queue) {
        return fillBufferCommand(queue, buffer, pattern, pattern_size, offset, size);
      });
}

cl_int CL_API_CALL clCommandFillImageKHR(cl_command_buffer_khr command_buffer,
                                         cl_command_queue command_queue,
                                         const khr::CommandProperties *properties, cl_mem image,
                                         const void *fill_color, const size_t *origin,
                                         const size_t *region, cl_uint num_sync_points_in_wait_list,
                                         const cl_sync_point_khr *sync_point_wait_list,
                                         cl_sync_point_khr *sync_point,
                                         cl_mutable_command_khr *mutable_handle) {
  return recordCommand(command_buffer, command_queue, properties, num_sync_points_in_wait_list,
                       sync_point_wait_list, sync_point, mutable_handle,
                       [&](_cl_command_queue *queue) {
                         return fillImageCommand(queue, image, fill_color, origin, region);
                       });
}

cl_int CL_API_CALL clCommandNDRangeKernelKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const khr::CommandProperties *properties, cl_kernel kernel, cl_uint work_dim,
    const size_t *global_work_offset, const size_t *global_work_size, const size_t *local_work_size,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  return guarded([&] {
    _cl_command_buffer_khr *buffer = bufferForRecording(
        command_buffer, command_queue, num_sync_points_in_wait_list, sync_point_wait_list);
    LaunchProperties launchProperties = checkedLaunchProperties(properties);
    // "CL_INVALID_OPERATION if the device associated with command_queue does
    // not support CL_COMMAND_BUFFER_CAPABILITY_DEVICE_SIDE_ENQUEUE_KHR and
    // kernel contains a kernel-enqueue call."
    check(!checked(kernel)->description().enqueuesKernels, CL_INVALID_OPERATION);
    if (mutable_handle) {
      // A handle only of a command-buffer created mutable
      // (cl_khr_command_buffer_mutable_dispatch).
      check(buffer->isMutable(), CL_INVALID_VALUE);
      *mutable_handle =
          recordMutableLaunch(buffer, kernel, work_dim, global_work_offset, global_work_size,
                              local_work_size, std::move(launchProperties),
                              num_sync_points_in_wait_list, sync_point_wait_list, sync_point);
      return;
    }
    // The launch is checked and its arguments captured now, as
    // clEnqueueNDRangeKernel would; every replay runs that snapshot.
    Command work = kernelCommand(buffer->queue(), kernel, work_dim, global_work_offset,
                                 global_work_size, local_work_size, true);
    cl_sync_point_khr point =
        buffer->record(num_sync_points_in_wait_list, sync_point_wait_list, std::move(work));
    if (sync_point) *sync_point = point;
  });
}

cl_int CL_API_CALL clCommandSVMMemcpyKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const khr::CommandProperties *properties, void *dst_ptr, const void *src_ptr, size_t size,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  return recordCommand(
      command_buffer, command_queue, properties, num_sync_points_in_wait_list, sync_point_wait_list,
      sync_point, mutable_handle,
      [&](_cl_command_queue *queue) { return hostMemcpyCommand(queue, dst_ptr, src_ptr, size); });
}

cl_int CL_API_CALL clCommandSVMMemFillKHR(cl_command_buffer_khr command_buffer,
                                          cl_command_queue command_queue,
                                          const khr::CommandProperties *properties, void *svm_ptr,
                                          const void *pattern, size_t pattern_size, size_t size,
                                          cl_uint num_sync_points_in_wait_list,
                                          const cl_sync_point_khr *sync_point_wait_list,
                                          cl_sync_point_khr *sync_point,
                                          cl_mutable_command_khr *mutable_handle) {
  return recordCommand(command_buffer, command_queue, properties, num_sync_points_in_wait_list,
                       sync_point_wait_list, sync_point, mutable_handle,
                       [&](_cl_command_queue *queue) {
                         return hostFillCommand(queue, svm_ptr, pattern, pattern_size, size);
                       });
}

}  // namespace lockstep::api

// Kernel launches: clEnqueueNDRangeKernel and clEnqueueTask. Every check the
// spec asks of a launch is here, in the order it lists the errors: the
// queue, kernel and arguments; the range (work_dim, global_work_offset,
// global_work_size, local_work_size); what the launch needs (local memory,
// stack, scratch: CL_OUT_OF_RESOURCES); then the wait list. The launch itself
// is exec/NDRangeCommand's. clGetKernelSuggestedLocalWorkSizeKHR
// (api/suggested_local_size.cpp) makes the same checks through checkLaunch.
#include "api/ndrange.h"

#include <limits>

#include "Device.h"
#include "Kernel.h"
#include "Queue.h"
#include "api/commands.h"
#include "api/enqueue.h"
#include "api/entry_points.h"

namespace lockstep::api {

using namespace runtime;

namespace {

// "... if the work-group size must be uniform and ... the global_work_size
// is not evenly divisible by the local_work_size." Each kernel says whether
// its groups must be (KernelDescription::uniformWorkGroups).
void checkUniform(const _cl_kernel &kernel, cl_uint workDim, const Dims &global, const Dims &local) {
  if (!kernel.description().uniformWorkGroups) return;
  for (cl_uint d = 0; d < workDim; ++d) check(global[d] % local[d] == 0, CL_INVALID_WORK_GROUP_SIZE);
}

// The local size of an explicit local_work_size.
Dims checkLocalSize(const _cl_kernel &kernel, cl_uint workDim, const Dims &global,
                    const size_t *localWorkSize) {
  const compiler::KernelDescription &description = kernel.description();
  Dims local{1, 1, 1};
  for (cl_uint d = 0; d < workDim; ++d) {
    local[d] = localWorkSize[d];
    check(local[d] != 0, CL_INVALID_WORK_GROUP_SIZE);
  }
  // "CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified and does not
  // match the required work-group size for kernel in the program source."
  if (description.requiredWorkGroupSize[0] != 0) {
    for (int d = 0; d < 3; ++d)
      check(local[d] == description.requiredWorkGroupSize[d], CL_INVALID_WORK_GROUP_SIZE);
  }
  // "... if local_work_size is specified and the total number of work-items
  // in the work-group ... is greater than the value specified by
  // CL_KERNEL_WORK_GROUP_SIZE". Dimension by dimension, so the product
  // cannot overflow.
  uint64_t items = 1;
  for (int d = 0; d < 3; ++d) {
    check(local[d] <= kernel.maxWorkGroupSize() / items, CL_INVALID_WORK_GROUP_SIZE);
    items *= local[d];
  }
  checkUniform(kernel, workDim, global, local);
  // "CL_INVALID_WORK_ITEM_SIZE if the number of work-items specified in any
  // of local_work_size[0], ... is greater than the corresponding values
  // specified by CL_DEVICE_MAX_WORK_ITEM_SIZES".
  for (cl_uint d = 0; d < workDim; ++d)
    check(local[d] <= _cl_device_id::kMaxWorkGroupSize, CL_INVALID_WORK_ITEM_SIZE);
  return local;
}

// The local size for a NULL local_work_size: a required work-group size
// must fit the range as an explicit one would.
Dims checkedLocalSizeForNull(const _cl_kernel &kernel, cl_device_id device, cl_uint workDim,
                             const Dims &global) {
  Dims local = localSizeForNull(kernel, device, workDim, global);
  if (kernel.description().requiredWorkGroupSize[0] == 0) return local;
  // The kernel fixes its work-group size; the dimensions past work_dim are
  // 1 in the NDRange, so the requirement must be 1 there too.
  for (cl_uint d = workDim; d < 3; ++d) check(local[d] == 1, CL_INVALID_WORK_GROUP_SIZE);
  checkUniform(kernel, workDim, global, local);
  return local;
}

// The range of a launch from work_dim, global_work_offset, global_work_size
// and local_work_size, checked; an empty range (global_work_size NULL or a
// zero size, allowed since OpenCL 2.1) comes back with empty() true.
NDRange checkRange(const _cl_kernel &kernel, cl_device_id device, cl_uint workDim,
                   const size_t *globalWorkOffset, const size_t *globalWorkSize,
                   const size_t *localWorkSize, EmptyRange emptyRange) {
  // "CL_INVALID_WORK_DIMENSION if work_dim is not a valid value (i.e. a value
  // between 1 and CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS)."
  check(workDim >= 1 && workDim <= _cl_device_id::kMaxWorkItemDimensions,
        CL_INVALID_WORK_DIMENSION);
  // "CL_INVALID_GLOBAL_WORK_SIZE if global_work_size is NULL or if any of
  // the values specified in global_work_size are 0" (the query's, and
  // clEnqueueNDRangeKernel's before OpenCL 2.1).
  if (emptyRange == EmptyRange::Invalid) {
    check(globalWorkSize != nullptr, CL_INVALID_GLOBAL_WORK_SIZE);
    for (cl_uint d = 0; d < workDim; ++d) check(globalWorkSize[d] != 0, CL_INVALID_GLOBAL_WORK_SIZE);
  }
  // OpenCL 2.1 and later: "If global_work_size is NULL, or the value in any
  // passed dimension is 0 then the kernel command will trivially succeed".
  Dims offset{0, 0, 0}, global{0, 0, 0};
  for (cl_uint d = 0; d < workDim; ++d) {
    global[d] = globalWorkSize ? globalWorkSize[d] : 0;
    offset[d] = globalWorkOffset ? globalWorkOffset[d] : 0;
    // "CL_INVALID_GLOBAL_OFFSET if the value specified in global_work_size +
    // the corresponding values in global_work_offset for any dimensions is
    // greater than the maximum value representable by size_t on the device."
    check(global[d] <= std::numeric_limits<size_t>::max() - offset[d], CL_INVALID_GLOBAL_OFFSET);
  }
  // A range of more work-items than size_t counts has no
  // get_global_linear_id for its last ones (2^32 x 2^32 wrapped to an
  // empty launch that returned CL_SUCCESS): the global size is too large
  // for the device, as a dimension beyond size_t would be.
  // (A dimension of 0 makes any range empty.)
  uint64_t total = 1;
  bool overflows = false, empty = false;
  for (cl_uint d = 0; d < workDim; ++d) {
    overflows |= __builtin_mul_overflow(total, global[d], &total);
    empty |= global[d] == 0;
  }
  check(!overflows || empty, CL_INVALID_GLOBAL_WORK_SIZE);
  // A given local size is checked as given, then may give way to the
  // driver's choice where the kernel cannot tell (launchLocalSize).
  Dims local = localWorkSize ? launchLocalSize(kernel, device, workDim, global,
                                               checkLocalSize(kernel, workDim, global, localWorkSize))
                             : checkedLocalSizeForNull(kernel, device, workDim, global);
  NDRange range = NDRange::make(workDim, offset, global, local);
  if (range.empty()) range.numGroups = {0, 0, 0};
  return range;
}

// "CL_OUT_OF_RESOURCES if there is a failure to queue the execution
// instance of kernel ... because of insufficient resources needed to
// execute the kernel ... such as registers or local memory."
void checkResources(const PreparedLaunch &launch, const _cl_kernel &kernel, cl_device_id device,
                    const NDRange &range) {
  check(launch.localMemorySize() <= _cl_device_id::kLocalMemSize, CL_OUT_OF_RESOURCES);
  if (range.groupCount() == 0) return;  // nothing runs: nothing else is needed
  // Private memory: the arrays no barrier crosses live in the work-group
  // function's frame, which must fit a worker's stack; the values that cross
  // barriers live in a group's context scratch, one allocation per thread.
  const compiler::KernelDescription &description = kernel.description();
  check(
      description.frameBytes + _cl_device_id::kStackMarginBytes <= _cl_device_id::kWorkerStackBytes,
      CL_OUT_OF_RESOURCES);
  uint64_t contextBytes = 0;
  check(!__builtin_mul_overflow(description.contextBytesPerWorkItem, range.workItemsPerGroup(),
                                &contextBytes) &&
            contextBytes <= device->maxAllocSize,
        CL_OUT_OF_RESOURCES);
}

cl_int enqueueKernel(cl_command_type type, cl_command_queue command_queue, cl_kernel kernel,
                     cl_uint work_dim, const size_t *global_work_offset,
                     const size_t *global_work_size, const size_t *local_work_size,
                     cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                     cl_event *event) {
  return guarded([&] {
    _cl_command_queue *queue = checkedHostQueue(command_queue);
    enqueueCommand(queue, type, num_events_in_wait_list, event_wait_list, event,
                   kernelCommand(queue, kernel, work_dim, global_work_offset, global_work_size,
                                 local_work_size, false));
  });
}

}  // namespace

CheckedLaunch checkLaunch(_cl_command_queue *queue, cl_kernel kernel, cl_uint work_dim,
                          const size_t *global_work_offset, const size_t *global_work_size,
                          const size_t *local_work_size, EmptyRange emptyRange) {
  _cl_kernel *k = checked(kernel);
  // "CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built
  // program executable available for device associated with
  // command_queue."
  check(k->program()->hasDevice(queue->device()), CL_INVALID_PROGRAM_EXECUTABLE);
  // "CL_INVALID_CONTEXT if context associated with command_queue and
  // kernel are not the same".
  check(queue->context() == k->context(), CL_INVALID_CONTEXT);
  // "CL_INVALID_KERNEL_ARGS if the kernel argument values have not been
  // specified."
  check(k->allArgumentsSet(), CL_INVALID_KERNEL_ARGS);
  NDRange range = checkRange(*k, queue->device(), work_dim, global_work_offset, global_work_size,
                             local_work_size, emptyRange);
  // The snapshot is taken now: clSetKernelArg after this call does not
  // change what the command runs. A buffer or image set and released
  // since is no valid argument value any more.
  PreparedLaunch launch(k);
  check(launch.argumentsComplete(), CL_INVALID_KERNEL_ARGS);
  checkResources(launch, *k, queue->device(), range);
  return {range, std::move(launch)};
}

Command kernelCommand(_cl_command_queue *queue, cl_kernel kernel, cl_uint work_dim,
                      const size_t *global_work_offset, const size_t *global_work_size,
                      const size_t *local_work_size, bool replayable) {
  CheckedLaunch checked = checkLaunch(queue, kernel, work_dim, global_work_offset, global_work_size,
                                      local_work_size, EmptyRange::Allowed);
  return replayable ? std::move(checked.launch).replayableCommand(queue->device(), checked.range)
                    : std::move(checked.launch).command(queue->device(), checked.range);
}

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel,
                                          cl_uint work_dim, const size_t *global_work_offset,
                                          const size_t *global_work_size,
                                          const size_t *local_work_size,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event) {
  return enqueueKernel(CL_COMMAND_NDRANGE_KERNEL, command_queue, kernel, work_dim,
                       global_work_offset, global_work_size, local_work_size,
                       num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                                 cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                 cl_event *event) {
  // "equivalent to calling clEnqueueNDRangeKernel with work_dim set to 1,
  // global_work_offset set to NULL, global_work_size[0] set to 1, and
  // local_work_size[0] set to 1."
  const size_t one = 1;
  return enqueueKernel(CL_COMMAND_TASK, command_queue, kernel, 1, nullptr, &one, &one,
                       num_events_in_wait_list, event_wait_list, event);
}

}  // namespace lockstep::api

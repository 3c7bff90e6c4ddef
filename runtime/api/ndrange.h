// The checks of a kernel launch, shared by clEnqueueNDRangeKernel and
// clEnqueueTask (api/ndrange.cpp) and clGetKernelSuggestedLocalWorkSizeKHR
// (api/suggested_local_size.cpp), which must answer with the local size and
// the errors the launch would have.
#pragma once

#include "Queue.h"
#include "exec/NDRange.h"
#include "exec/NDRangeCommand.h"

namespace lockstep::api {

// Whether a NULL global_work_size or a zero in it is an empty launch
// (clEnqueueNDRangeKernel since OpenCL 2.1) or CL_INVALID_GLOBAL_WORK_SIZE
// (the suggested-local-size query).
enum class EmptyRange { Allowed, Invalid };

// A launch that passed every check: its range, with the local size chosen
// for a NULL local_work_size, and the snapshot of the kernel's arguments.
struct CheckedLaunch {
  runtime::NDRange range;
  runtime::PreparedLaunch launch;
};

// Every check clEnqueueNDRangeKernel makes before its wait list, in the
// spec's order: the kernel (`queue` is checked already), its program's
// executable for the queue's device, the contexts, the arguments, the range
// (work_dim, the global size and offset, the local size: a required
// work-group size must fit the range) and the resources the launch needs.
// Throws the spec's error.
CheckedLaunch checkLaunch(_cl_command_queue *queue, cl_kernel kernel, cl_uint work_dim,
                          const size_t *global_work_offset, const size_t *global_work_size,
                          const size_t *local_work_size, EmptyRange emptyRange);

}  // namespace lockstep::api

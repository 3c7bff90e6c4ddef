// From the arguments of clEnqueueNDRangeKernel to a command: the geometry
// checks of the spec, and the command that runs the launch with its own
// snapshot of the kernel's arguments.
#pragma once

#include <cstddef>

#include "Event.h"
#include "Kernel.h"
#include "exec/NDRange.h"

namespace lockstep::runtime {

// Validates work_dim, global_work_offset, global_work_size and
// local_work_size (spec order, throwing its errors) and fixes the local size
// when local_work_size is NULL. An empty range (global_work_size NULL or a
// zero size, allowed since OpenCL 2.1) comes back with empty() true.
NDRange resolveNDRange(const _cl_kernel &kernel, cl_device_id device, cl_uint workDim,
                       const size_t *globalWorkOffset, const size_t *globalWorkSize,
                       const size_t *localWorkSize);

// The command that runs `range` of `kernel` on `device`: snapshots the
// arguments now (CL_INVALID_KERNEL_ARGS, CL_OUT_OF_RESOURCES when the
// __local memory exceeds the device's) and keeps the kernel and the buffers
// alive until it has run.
Command makeNDRangeCommand(cl_kernel kernel, cl_device_id device, const NDRange &range);

}  // namespace lockstep::runtime

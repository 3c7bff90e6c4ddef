// cl_khr_suggested_local_work_size: clGetKernelSuggestedLocalWorkSizeKHR
// answers with the local size clEnqueueNDRangeKernel would choose for the
// same kernel, arguments and range with a NULL local_work_size (the
// kernel's required work-group size if it has one, else chooseLocalSize's
// choice: exec/NDRangeCommand's localSizeForNull), after the checks that
// launch would make (api/ndrange.h's checkLaunch), so a range the launch
// would refuse gets its error here too.
#include "api/enqueue.h"
#include "api/entry_points.h"
#include "api/ndrange.h"

namespace lockstep::api {

using namespace runtime;

cl_int CL_API_CALL clGetKernelSuggestedLocalWorkSizeKHR(cl_command_queue command_queue,
                                                        cl_kernel kernel, cl_uint work_dim,
                                                        const size_t *global_work_offset,
                                                        const size_t *global_work_size,
                                                        size_t *suggested_local_work_size) {
  return guarded([&] {
    _cl_command_queue *queue = checkedHostQueue(command_queue);
    // Unlike the launch, the query has no empty range: "CL_INVALID_GLOBAL_WORK_SIZE
    // if global_work_size is NULL or if any of the values specified in
    // global_work_size are 0."
    CheckedLaunch launch = checkLaunch(queue, kernel, work_dim, global_work_offset,
                                       global_work_size, nullptr, EmptyRange::Invalid);
    // "CL_INVALID_VALUE if suggested_local_work_size is NULL."
    check(suggested_local_work_size != nullptr, CL_INVALID_VALUE);
    for (cl_uint d = 0; d < work_dim; ++d)
      suggested_local_work_size[d] = size_t(launch.range.localSize[d]);
  });
}

}  // namespace lockstep::api

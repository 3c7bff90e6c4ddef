// The geometry of one kernel launch: global size and offset, the enqueued
// local size and the number of work-groups per dimension. Fixed when the
// command is enqueued; the launcher derives every GroupInfo from it.
#pragma once

#include <array>
#include <cstdint>

namespace lockstep::runtime {

using Dims = std::array<uint64_t, 3>;

struct NDRange {
  uint32_t workDim = 1;
  Dims globalOffset{0, 0, 0};
  Dims globalSize{1, 1, 1};
  Dims localSize{1, 1, 1};  // the enqueued local size (a remainder group is smaller)
  Dims numGroups{1, 1, 1};

  // Builds the range; unused dimensions are size 1, offset 0.
  static NDRange make(uint32_t workDim, const Dims &globalOffset, const Dims &globalSize,
                      const Dims &localSize);

  uint64_t groupCount() const { return numGroups[0] * numGroups[1] * numGroups[2]; }
  uint64_t workItemsPerGroup() const { return localSize[0] * localSize[1] * localSize[2]; }
  bool empty() const { return globalSize[0] == 0 || globalSize[1] == 0 || globalSize[2] == 0; }
};

// What bounds the choice of a local size.
struct LocalSizeLimits {
  uint64_t maxWorkGroupSize = 1;  // min(device, kernel) CL_KERNEL_WORK_GROUP_SIZE
  Dims maxWorkItemSizes{1, 1, 1};
  unsigned computeUnits = 1;
  bool uniformRequired = false;  // OpenCL C 1.x or -cl-uniform-work-group-size
  // Beyond this many work-items a group gains nothing from being larger,
  // while its per-work-item context scratch stops fitting the caches.
  uint64_t preferredMaxGroupItems = 1024;
  // A kernel whose regions run this many rows of work-items together (the
  // compiler's row jam) gets at least this many rows in a 2D or 3D range.
  uint64_t preferredRows = 1;
  // The widest a group of a 2D or 3D range may be along x: a kernel whose
  // accesses walk down columns gets narrow, tall groups.
  uint64_t maxWidth = UINT64_MAX;
};

// The local size used when clEnqueueNDRangeKernel gets local_work_size NULL:
// groups large enough to amortize a call of the work-group function, an
// x-size that is a multiple of 16 where possible (the vectorized work-item
// loop runs along x), and enough groups to keep every core busy. Uses
// remainder groups only when uniform groups are not required and no divisor
// of the global size fits well; where they are required, a divisor larger
// than those targets (up to the kernel's and device's limits) rather than a
// sliver of a few work-items.
Dims chooseLocalSize(uint32_t workDim, const Dims &globalSize, const LocalSizeLimits &limits);

}  // namespace lockstep::runtime

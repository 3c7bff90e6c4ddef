// From a kernel and a validated range to the command that runs the launch:
// the local size for a NULL local_work_size, and the launch's own snapshot of
// the kernel's arguments, which the command keeps alive until it has run.
// The spec's checks of both are api/ndrange.cpp's.
#pragma once

#include <cstddef>

#include "Event.h"
#include "Kernel.h"
#include "exec/NDRange.h"

namespace lockstep::runtime {

// The local size for a NULL local_work_size: the kernel's required size if
// it has one (as given: the caller checks it fits the range), else one
// chosen for `global` on `device` (chooseLocalSize).
Dims localSizeForNull(const _cl_kernel &kernel, cl_device_id device, cl_uint workDim,
                      const Dims &global);

// The local size a launch given `given` (checked) runs with: `given`, or,
// for a kernel that cannot observe the shape of its groups and whose
// accesses suit a shape (rows or columns), localSizeForNull's choice: the
// same work-items in the groups that suit them.
Dims launchLocalSize(const _cl_kernel &kernel, cl_device_id device, cl_uint workDim, const Dims &global,
                     const Dims &given);

struct PendingLaunch;
class DeviceEnqueueTree;

// A launch being made. Takes the snapshot of the kernel's arguments at once,
// so clSetKernelArg after the enqueue does not change what the command runs;
// the caller checks what the snapshot found, then makes the command.
class PreparedLaunch {
 public:
  explicit PreparedLaunch(cl_kernel kernel);
  PreparedLaunch(PreparedLaunch &&other) noexcept;
  PreparedLaunch &operator=(PreparedLaunch &&) = delete;
  ~PreparedLaunch();

  // Every argument was set, and no buffer or image set has been released
  // since (_cl_kernel::snapshotInto).
  bool argumentsComplete() const { return complete_; }
  // Static __local memory and the __local arguments, laid out.
  uint64_t localMemorySize() const;

  // The command that runs `range` (empty: a command that does nothing) on
  // `device`. Consumes the launch. `tree`: for a kernel enqueued by a
  // kernel, the tree of its host launch (exec/DeviceEnqueue.h).
  Command command(cl_device_id device, const NDRange &range, DeviceEnqueueTree *tree = nullptr) &&;
  // The same, as a command that may run any number of times, runs
  // overlapping each other included (a command-buffer's recorded launch):
  // each run launches a fresh copy of the launch, on the calling thread's
  // stack, and the snapshot stays until the command goes.
  Command replayableCommand(cl_device_id device, const NDRange &range) &&;

 private:
  // Fills in the launch of `range`; null for an empty range.
  PendingLaunch *prepare(cl_device_id device, const NDRange &range);

  cl_kernel kernel_;
  PendingLaunch *pending_;
  bool complete_ = false;
};

}  // namespace lockstep::runtime

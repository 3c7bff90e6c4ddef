// Runs every work-group of one NDRange launch: one call of the kernel's
// work-group function per group, the groups spread over the device's cores in
// chunks that the threads of the device's task arena take from one counter
// (guided self-scheduling, one TBB task per thread), or run on the calling
// thread when the kernel's last launch says they take less than waking a
// worker would.
#pragma once

#include <oneapi/tbb/task_arena.h>

#include <CL/cl.h>

#include <atomic>
#include <cstdint>

#include "exec/NDRange.h"
#include "lockstep/compiler/GroupAbi.h"

namespace lockstep::runtime {

class LaunchScope;

// Everything a launch needs, all of it owned by the command that runs it.
struct WorkGroupLaunch {
  WorkGroupLaunch() = default;
  // A copy is a fresh run of the same launch, neither failed nor stopped: a
  // command-buffer's recorded launch runs each replay from its own copy
  // (NDRangeCommand.cpp), so replays may overlap.
  WorkGroupLaunch(const WorkGroupLaunch &other)
      : function(other.function),
        arguments(other.arguments),
        range(other.range),
        localMemorySize(other.localMemorySize),
        contextBytesPerWorkItem(other.contextBytesPerWorkItem),
        frameBytes(other.frameBytes),
        stackMarginBytes(other.stackMarginBytes),
        streamingStoreMiB(other.streamingStoreMiB),
        checksFailures(other.checksFailures),
        pollsStop(other.pollsStop),
        fenceStores(other.fenceStores),
        flushDenormals(other.flushDenormals),
        combinesAtomics(other.combinesAtomics),
        workCost(other.workCost) {}
  WorkGroupLaunch &operator=(const WorkGroupLaunch &) = delete;

  compiler::WorkGroupFunction function = nullptr;
  const void *arguments = nullptr;  // the argument block, __local slots already hold offsets
  NDRange range;
  uint64_t localMemorySize = 0;          // static __local + every __local argument
  uint64_t contextBytesPerWorkItem = 0;  // scratch for values live across barriers
  // The work-group function's private arrays on the stack (allocas): a
  // thread runs its groups only with this much stack free, and more
  // (WorkGroupLauncher.cpp, kStackMarginBytes).
  uint64_t frameBytes = 0;
  size_t stackMarginBytes = 0;
  uint32_t streamingStoreMiB = 0;        // GroupInfo::streamingStoreMiB
  // Built with LOCKSTEP_CHECK_BARRIERS or LOCKSTEP_CHECK_BOUNDS: a group may
  // fail a check (compiler::takeKernelFailure), which fails the launch.
  bool checksFailures = false;
  // The kernel has loops that poll `stop` (KernelDescription::pollsStop):
  // its groups run through runCheckedGroup so that they can leave.
  bool pollsStop = false;
  // The kernel may store with non-temporal stores: each run of groups ends
  // with a store fence (KernelDescription::streamingStores).
  bool fenceStores = false;
  // KernelDescription::flushDenormals.
  bool flushDenormals = false;
  // The kernel's combined atomic adds are held back in each thread's
  // AtomicCombiner (GroupAbi.h), flushed at the end of each run of groups
  // (ArgumentSnapshot::combinesAtomics).
  bool combinesAtomics = false;
  // The kernel's cost per work-item on its last launch, in picoseconds of
  // one thread's time, 0 if unknown (_cl_kernel::workCost); each launch
  // measures it again. Null: always spread the groups.
  std::atomic<uint64_t> *workCost = nullptr;
  mutable std::atomic<bool> failed{false};
  // A thread's AtomicCombiner stopped holding adds back (too many
  // addresses): the launch's other runs of groups go without one.
  mutable std::atomic<bool> atomicsBypassed{false};
  // Set by the watchdog (Watchdog.h) when the launch ran too long:
  // GroupInfo::stop points here; no group starts once it is set.
  mutable std::atomic<uint32_t> stop{0};
  // Device-side enqueue (exec/DeviceEnqueue.h): the launch's scope, current
  // on each thread while it runs the launch's groups; null: none.
  LaunchScope *enqueueScope = nullptr;
};

// Runs the launch to completion on `arena` (the calling thread joins in). A
// launch of one group, or one whose groups the kernel's last launch says take
// less than waking a worker thread, runs inline on the calling thread.
// CL_SUCCESS, or CL_OUT_OF_RESOURCES when a checked kernel stopped on a
// divergent barrier or a thread had too little stack for the frame (the
// remaining groups are skipped). A launch whose frame does not fit the
// calling thread's free stack runs from a thread of its own with the stack
// it needs while the caller waits.
cl_int runWorkGroups(const WorkGroupLaunch &launch, tbb::task_arena &arena);

}  // namespace lockstep::runtime

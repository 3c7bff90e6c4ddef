// The launch behind clEnqueueNDRangeKernel: the local size chosen for a NULL
// local_work_size, the pending launch (argument snapshot, kernel) recycled
// between launches, and the command that runs its work-groups.
#include "exec/NDRangeCommand.h"

#include <array>
#include <cstring>
#include <limits>
#include <memory>

#include "Device.h"
#include "Recycler.h"
#include "exec/DeviceEnqueue.h"
#include "exec/Watchdog.h"
#include "exec/WorkGroupLauncher.h"
#include "lockstep/compiler/ImageAbi.h"

namespace lockstep::runtime {

namespace {

// The most work-items of a NULL-local-size group for a kernel with masked
// loops: 8 vectors of 16 lanes, enough to amortize the any-active test.
constexpr uint64_t kMaskedLoopGroupItems = 128;
// Rows of a group of a kernel whose accesses run along x: a few rows share
// a stencil's neighbours, and few enough streams stay in flight for the
// hardware prefetchers (a 5-point stencil on a 2-core EPYC: 30 GB/s in
// 1024 x 1 groups, 33 in 256 x 4, 20 in 16 x 16).
constexpr uint64_t kRowsGroupRows = 4;
// The width of a group of a kernel with an access down a column: one
// vector, the group as tall as the budget allows (a naive transpose: 2.3
// GB/s in 1024 x 1 groups, 5.2-7.7 in 16 x 64).
constexpr uint64_t kColumnsGroupWidth = 16;

}  // namespace

Dims localSizeForNull(const _cl_kernel &kernel, cl_device_id device, cl_uint workDim,
                      const Dims &global) {
  const uint32_t *required = kernel.description().requiredWorkGroupSize;
  if (required[0] != 0) return {required[0], required[1], required[2]};
  LocalSizeLimits limits;
  limits.maxWorkGroupSize = kernel.maxWorkGroupSize();
  limits.maxWorkItemSizes = {_cl_device_id::kMaxWorkGroupSize, _cl_device_id::kMaxWorkGroupSize,
                             _cl_device_id::kMaxWorkGroupSize};
  limits.computeUnits = device->computeUnits;
  limits.uniformRequired = kernel.description().uniformWorkGroups;
  // A masked loop goes round until the last work-item of the group is
  // done (mandelbrot: the slowest pixel of a 1024-pixel row set the pace
  // of all of them); smaller groups waste fewer of those trips.
  if (kernel.description().maskedLoops != 0) limits.preferredMaxGroupItems = kMaskedLoopGroupItems;
  // A group of a single row (1024 x 1) would never run a jammed region's
  // rows together, and each group would stream all of a matrix for one row.
  limits.preferredRows = std::max<uint32_t>(kernel.description().jammedRows, 1);
  using Shape = compiler::KernelDescription::GroupShape;
  if (kernel.description().groupShape == Shape::Rows)
    limits.preferredRows = std::max(limits.preferredRows, kRowsGroupRows);
  if (kernel.description().groupShape == Shape::Columns) limits.maxWidth = kColumnsGroupWidth;
  return chooseLocalSize(workDim, global, limits);
}

Dims launchLocalSize(const _cl_kernel &kernel, cl_device_id device, cl_uint workDim, const Dims &global,
                     const Dims &given) {
  const compiler::KernelDescription &description = kernel.description();
  if (!description.groupFree || description.groupShape == compiler::KernelDescription::GroupShape::None ||
      description.requiredWorkGroupSize[0] != 0 || description.enqueuesKernels)
    return given;
  return localSizeForNull(kernel, device, workDim, global);
}

// What a launch owns while it is pending: the kernel (and so its program and
// executable), the argument snapshot and the buffers it names. Recycled
// (Recycler.h), with the memory of its argument block and buffer list.
struct PendingLaunch {
  Ref<_cl_kernel> kernel;
  ArgumentSnapshot arguments;
  WorkGroupLaunch launch;
};

namespace {

using LaunchRecycler = Recycler<PendingLaunch, 64>;

// The one owner of a PendingLaunch, held by the command: when the command
// has run (or will not run), the kernel and buffers are let go and the
// object goes back to the recycler.
class LaunchHandle {
 public:
  explicit LaunchHandle(PendingLaunch *pending) : pending_(pending) {}
  PendingLaunch *release() { return std::exchange(pending_, nullptr); }
  LaunchHandle(LaunchHandle &&other) noexcept : pending_(std::exchange(other.pending_, nullptr)) {}
  LaunchHandle &operator=(LaunchHandle &&) = delete;
  ~LaunchHandle() {
    if (!pending_) return;
    pending_->kernel = {};
    pending_->arguments.buffers.clear();
    if (!LaunchRecycler::instance().give(pending_)) delete pending_;
  }
  PendingLaunch *operator->() const { return pending_; }
  PendingLaunch *get() const { return pending_; }

 private:
  PendingLaunch *pending_;
};

// The work-group function for this launch: the kernel's own, or, for a
// kernel with image or sampler arguments, the version compiled for this
// launch's image formats and sampler values when the compiler finds the
// launch large enough for it (Executable::specialize).
compiler::WorkGroupFunction chooseFunction(const _cl_kernel &kernel, const ArgumentBlock &block,
                                           const NDRange &range) {
  const compiler::KernelDescription &description = kernel.description();
  std::array<uint32_t, 64> key;  // four values per image or sampler argument
  size_t size = 0;
  for (const compiler::KernelArgument &arg : description.arguments) {
    if (arg.kind != compiler::ArgKind::Image && arg.kind != compiler::ArgKind::Sampler) continue;
    if (size + 4 > key.size()) return description.function;
    const std::byte *slot = block.data() + arg.offset;
    if (arg.kind == compiler::ArgKind::Sampler) {
      std::memcpy(&key[size], slot, sizeof(uint32_t));
      key[size + 1] = key[size + 2] = key[size + 3] = 0;
    } else {
      const lockstep_image_descriptor *image;
      std::memcpy(&image, slot, sizeof image);
      key[size] = image->channelOrder;
      key[size + 1] = image->channelType;
      key[size + 2] = image->elementSize;
      key[size + 3] = image->channelCount;
    }
    size += 4;
  }
  if (size == 0) return description.function;
  uint64_t workItems;  // groups times their enqueued size: may pass 2^64 - 1
  if (__builtin_mul_overflow(range.groupCount(), range.workItemsPerGroup(), &workItems))
    workItems = std::numeric_limits<uint64_t>::max();
  compiler::WorkGroupFunction specialized = kernel.executable().specialize(description, {key.data(), size}, workItems);
  return specialized ? specialized : description.function;
}

}  // namespace

PreparedLaunch::PreparedLaunch(cl_kernel kernel) : kernel_(kernel), pending_(nullptr) {
  PendingLaunch *recycled = LaunchRecycler::instance().take();
  LaunchHandle pending(recycled ? recycled : new PendingLaunch);
  complete_ = kernel->snapshotInto(pending->arguments);
  pending_ = pending.release();
}

PreparedLaunch::PreparedLaunch(PreparedLaunch &&other) noexcept
    : kernel_(other.kernel_),
      pending_(std::exchange(other.pending_, nullptr)),
      complete_(other.complete_) {}

PreparedLaunch::~PreparedLaunch() { LaunchHandle discarded(pending_); }

uint64_t PreparedLaunch::localMemorySize() const { return pending_->arguments.localMemorySize; }

PendingLaunch *PreparedLaunch::prepare(cl_device_id device, const NDRange &range) {
  LaunchHandle pending(std::exchange(pending_, nullptr));
  if (range.groupCount() == 0) return nullptr;
  const compiler::KernelDescription &description = kernel_->description();
  pending->kernel = Ref<_cl_kernel>(kernel_);
  WorkGroupLaunch &launch = pending->launch;
  launch.function = chooseFunction(*kernel_, pending->arguments.block, range);
  launch.arguments = pending->arguments.block.data();
  launch.range = range;
  launch.localMemorySize = pending->arguments.localMemorySize;
  launch.contextBytesPerWorkItem = description.contextBytesPerWorkItem;
  // Private memory: the arrays no barrier crosses live in the work-group
  // function's frame, on a worker's stack; the values that cross barriers
  // live in a group's context scratch, one allocation per thread.
  launch.frameBytes = description.frameBytes;
  launch.stackMarginBytes = _cl_device_id::kStackMarginBytes;
  launch.checksFailures = description.checksBarriers || description.checksBounds;
  launch.fenceStores = description.streamingStores;
  launch.flushDenormals = description.flushDenormals;
  launch.streamingStoreMiB = device->streamingStoreMiB();
  launch.workCost = &kernel_->workCost();
  launch.pollsStop = description.pollsStop;
  launch.combinesAtomics = pending->arguments.combinesAtomics;
  launch.failed = false;
  launch.atomicsBypassed = false;
  launch.stop = 0;
  return pending.release();
}

Command PreparedLaunch::command(cl_device_id device, const NDRange &range, DeviceEnqueueTree *tree) && {
  LaunchHandle pending(prepare(device, range));
  if (!pending.get()) return [] { return CL_SUCCESS; };
  // The device outlives every command: the command's event keeps its queue,
  // and the queue its device (a sub-device's arena goes with it).
  tbb::task_arena *arena = &device->arena();
  return [pending = std::move(pending), arena, device, tree]() -> cl_int {
    // A launch of one group whose loops all end cannot be stopped part-way:
    // it is not watched (no lock on the path of the smallest launches).
    WorkGroupLaunch &launch = pending->launch;
    Watched watched(launch, pending->kernel->description().name,
                    launch.pollsStop || launch.range.groupCount() > 1);
    // Kernels the launch's work-items enqueue (exec/DeviceEnqueue.h).
    LaunchScope scope(pending->kernel.get(), device, tree);
    launch.enqueueScope = &scope;
    cl_int status = runWorkGroups(launch, *arena);
    scope.launchEnded();
    return status;
  };
}

Command PreparedLaunch::replayableCommand(cl_device_id device, const NDRange &range) && {
  LaunchHandle pending(prepare(device, range));
  if (!pending.get()) return [] { return CL_SUCCESS; };
  // The command-buffer that holds this command keeps its queue, and so the
  // device, alive.
  tbb::task_arena *arena = &device->arena();
  return [pending = std::move(pending), arena, device]() -> cl_int {
    WorkGroupLaunch launch(pending->launch);  // this run's own failure and stop words
    Watched watched(launch, pending->kernel->description().name,
                    launch.pollsStop || launch.range.groupCount() > 1);
    LaunchScope scope(pending->kernel.get(), device, nullptr);
    launch.enqueueScope = &scope;
    cl_int status = runWorkGroups(launch, *arena);
    scope.launchEnded();
    return status;
  };
}

}  // namespace lockstep::runtime

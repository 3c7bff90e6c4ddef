#include "exec/NDRangeCommand.h"

#include <array>
#include <cstring>
#include <limits>
#include <memory>

#include "Device.h"
#include "Recycler.h"
#include "exec/Watchdog.h"
#include "exec/WorkGroupLauncher.h"
#include "lockstep/compiler/ImageAbi.h"

namespace lockstep::runtime {

namespace {

// The validated local size of an explicit local_work_size.
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
  // "... if the work-group size must be uniform and ... the global_work_size
  // is not evenly divisible by the local_work_size."
  if (kernel.description().uniformWorkGroups) {
    for (cl_uint d = 0; d < workDim; ++d)
      check(global[d] % local[d] == 0, CL_INVALID_WORK_GROUP_SIZE);
  }
  // "CL_INVALID_WORK_ITEM_SIZE if the number of work-items specified in any
  // of local_work_size[0], ... is greater than the corresponding values
  // specified by CL_DEVICE_MAX_WORK_ITEM_SIZES".
  for (cl_uint d = 0; d < workDim; ++d)
    check(local[d] <= _cl_device_id::kMaxWorkGroupSize, CL_INVALID_WORK_ITEM_SIZE);
  return local;
}

// The most work-items of a NULL-local-size group for a kernel with masked
// loops: 8 vectors of 16 lanes, enough to amortize the any-active test.
constexpr uint64_t kMaskedLoopGroupItems = 128;

// The local size for a NULL local_work_size.
Dims localSizeForNull(const _cl_kernel &kernel, cl_device_id device, cl_uint workDim,
                      const Dims &global) {
  const uint32_t *required = kernel.description().requiredWorkGroupSize;
  if (required[0] == 0) {
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
    return chooseLocalSize(workDim, global, limits);
  }
  // The kernel fixes its work-group size; the dimensions past work_dim are
  // 1 in the NDRange, so the requirement must be 1 there too.
  Dims local{required[0], required[1], required[2]};
  for (cl_uint d = workDim; d < 3; ++d) check(local[d] == 1, CL_INVALID_WORK_GROUP_SIZE);
  if (kernel.description().uniformWorkGroups) {
    for (cl_uint d = 0; d < workDim; ++d)
      check(global[d] % local[d] == 0, CL_INVALID_WORK_GROUP_SIZE);
  }
  return local;
}

}  // namespace

NDRange resolveNDRange(const _cl_kernel &kernel, cl_device_id device, cl_uint workDim,
                       const size_t *globalWorkOffset, const size_t *globalWorkSize,
                       const size_t *localWorkSize) {
  // "CL_INVALID_WORK_DIMENSION if work_dim is not a valid value (i.e. a value
  // between 1 and CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS)."
  check(workDim >= 1 && workDim <= _cl_device_id::kMaxWorkItemDimensions,
        CL_INVALID_WORK_DIMENSION);
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
  Dims local = localWorkSize ? checkLocalSize(kernel, workDim, global, localWorkSize)
                             : localSizeForNull(kernel, device, workDim, global);
  NDRange range = NDRange::make(workDim, offset, global, local);
  if (range.empty()) range.numGroups = {0, 0, 0};
  return range;
}

namespace {

// What a launch owns while it is pending: the kernel (and so its program and
// executable), the argument snapshot and the buffers it names. Recycled
// (Recycler.h), with the memory of its argument block and buffer list.
struct PendingLaunch {
  Ref<_cl_kernel> kernel;
  ArgumentSnapshot arguments;
  WorkGroupLaunch launch;
};

using LaunchRecycler = Recycler<PendingLaunch, 64>;

// The one owner of a PendingLaunch, held by the command: when the command
// has run (or will not run), the kernel and buffers are let go and the
// object goes back to the recycler.
class LaunchHandle {
 public:
  explicit LaunchHandle(PendingLaunch *pending) : pending_(pending) {}
  LaunchHandle(LaunchHandle &&other) noexcept : pending_(std::exchange(other.pending_, nullptr)) {}
  LaunchHandle &operator=(LaunchHandle &&) = delete;
  ~LaunchHandle() {
    if (!pending_) return;
    pending_->kernel = {};
    pending_->arguments.buffers.clear();
    if (!LaunchRecycler::instance().give(pending_)) delete pending_;
  }
  PendingLaunch *operator->() const { return pending_; }

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

Command makeNDRangeCommand(cl_kernel kernel, cl_device_id device, const NDRange &range) {
  PendingLaunch *recycled = LaunchRecycler::instance().take();
  LaunchHandle pending(recycled ? recycled : new PendingLaunch);
  kernel->snapshotInto(pending->arguments);
  // "CL_OUT_OF_RESOURCES if there is a failure to queue the execution
  // instance of kernel ... because of insufficient resources needed to
  // execute the kernel ... such as registers or local memory."
  check(pending->arguments.localMemorySize <= _cl_device_id::kLocalMemSize, CL_OUT_OF_RESOURCES);
  if (range.groupCount() == 0) return [] { return CL_SUCCESS; };

  const compiler::KernelDescription &description = kernel->description();
  // Private memory: the arrays no barrier crosses live in the work-group
  // function's frame, which must fit a worker's stack; the values that cross
  // barriers live in a group's context scratch, one allocation per thread.
  uint64_t frameBytes = description.frameBytes;
  check(frameBytes + _cl_device_id::kStackMarginBytes <= _cl_device_id::kWorkerStackBytes,
        CL_OUT_OF_RESOURCES);
  uint64_t contextBytes = 0;
  check(!__builtin_mul_overflow(description.contextBytesPerWorkItem, range.workItemsPerGroup(),
                                &contextBytes) &&
            contextBytes <= device->maxAllocSize,
        CL_OUT_OF_RESOURCES);
  pending->kernel = Ref<_cl_kernel>(kernel);
  WorkGroupLaunch &launch = pending->launch;
  launch.function = chooseFunction(*kernel, pending->arguments.block, range);
  launch.arguments = pending->arguments.block.data();
  launch.range = range;
  launch.localMemorySize = pending->arguments.localMemorySize;
  launch.contextBytesPerWorkItem = description.contextBytesPerWorkItem;
  launch.frameBytes = frameBytes;
  launch.stackMarginBytes = _cl_device_id::kStackMarginBytes;
  launch.checksFailures = description.checksBarriers || description.checksBounds;
  launch.fenceStores = description.streamingStores;
  launch.flushDenormals = description.flushDenormals;
  launch.streamingStoreMiB = device->streamingStoreMiB();
  launch.workCost = &kernel->workCost();
  launch.pollsStop = description.pollsStop;
  launch.failed = false;
  launch.stop = 0;
  // The root device lives as long as the platform, so its arena outlives
  // every command.
  tbb::task_arena *arena = &device->arena();
  return [pending = std::move(pending), arena]() -> cl_int {
    // A launch of one group whose loops all end cannot be stopped part-way:
    // it is not watched (no lock on the path of the smallest launches).
    const WorkGroupLaunch &launch = pending->launch;
    Watched watched(launch, pending->kernel->description().name,
                    launch.pollsStop || launch.range.groupCount() > 1);
    return runWorkGroups(pending->launch, *arena);
  };
}

}  // namespace lockstep::runtime

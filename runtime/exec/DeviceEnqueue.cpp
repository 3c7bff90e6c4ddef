// Device-side enqueue (exec/DeviceEnqueue.h): the launch scopes and the
// tree a host launch waits for, and the functions kernels call
// (compiler::DeviceEnqueueHooks): enqueue_kernel, the get_kernel_* queries,
// get_default_queue, enqueue_marker and the clk_event_t built-ins. Each
// checks its input as the OpenCL C specification (6.15.16) says and returns
// its error codes; nothing a kernel passes makes it throw or crash.
#include "exec/DeviceEnqueue.h"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "Context.h"
#include "Device.h"
#include "Event.h"
#include "Kernel.h"
#include "Platform.h"
#include "Program.h"
#include "Queue.h"
#include "exec/NDRangeCommand.h"
#include "exec/Scheduler.h"
#include "lockstep/compiler/Compiler.h"

namespace lockstep::runtime {

namespace {

// OpenCL C's return values (opencl-c-base.h).
constexpr int32_t kSuccess = 0;
constexpr int32_t kEnqueueFailure = -101;
constexpr int32_t kInvalidQueue = -102;
constexpr int32_t kInvalidNDRange = -160;
constexpr int32_t kInvalidEventWaitList = -57;
constexpr int32_t kDeviceQueueFull = -161;
constexpr int32_t kInvalidArgSize = -51;
constexpr int32_t kEventAllocationFailure = -100;
constexpr int32_t kProfilingExecTime = 1;  // CLK_PROFILING_COMMAND_EXEC_TIME
constexpr int32_t kNoWait = 0, kWaitKernel = 1, kWaitWorkGroup = 2;  // CLK_ENQUEUE_FLAGS_*
// __lockstep_kernel_query's first argument (compiler::DeviceEnqueueHooks).
enum KernelQuery : int32_t { kWorkGroupSize = 0, kPreferredMultiple = 1, kSubGroupCount = 2, kMaxSubGroupSize = 3 };

thread_local LaunchScope *tlScope = nullptr;
// The WAIT_WORK_GROUP children of the group this thread is running.
thread_local std::vector<_cl_event *> tlGroupChildren;

}  // namespace

void DeviceEnqueueTree::done() {
  if (outstanding_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  if (held) Scheduler::releaseCompletion(held);
  delete this;
}

DeviceEnqueueTree *LaunchScope::tree() {
  DeviceEnqueueTree *tree = tree_.load(std::memory_order_acquire);
  if (tree) return tree;
  // A host launch's first enqueue: its own tree.
  auto *made = new DeviceEnqueueTree;
  if (tree_.compare_exchange_strong(tree, made, std::memory_order_acq_rel)) {
    ownsTree_ = true;
    return made;
  }
  delete made;
  return tree;
}

void LaunchScope::holdUntilEnd(_cl_event *child) {
  std::lock_guard lock(mutex_);
  afterLaunch_.push_back(child);
}

void LaunchScope::launchEnded() {
  DeviceEnqueueTree *tree = tree_.load(std::memory_order_acquire);
  if (!tree) return;  // nothing enqueued
  std::vector<_cl_event *> children;
  {
    std::lock_guard lock(mutex_);
    children.swap(afterLaunch_);
  }
  // A host launch's event waits for its tree; set before its own count goes.
  if (ownsTree_) tree->held = Scheduler::holdCompletion();
  for (_cl_event *child : children) Scheduler::dependencyDone(child, false);
  if (ownsTree_) tree->done();
}

ScopeEntry::ScopeEntry(LaunchScope *scope) : outer_(tlScope) { tlScope = scope; }
ScopeEntry::~ScopeEntry() {
  // A group that failed part-way still lets its children go.
  if (tlScope) groupEnded();
  tlScope = outer_;
}

void groupEnded() {
  if (tlGroupChildren.empty()) return;
  std::vector<_cl_event *> children;
  children.swap(tlGroupChildren);
  for (_cl_event *child : children) Scheduler::dependencyDone(child, false);
}

namespace {

// A device queue of the running kernel's context, or null.
_cl_command_queue *deviceQueue(void *handle, cl_context context) {
  auto *queue = static_cast<_cl_command_queue *>(handle);
  if (!isValid(queue) || !queue->onDevice() || queue->context() != context) return nullptr;
  return queue;
}

// The wait list's checks: CLK_INVALID_EVENT_WAIT_LIST, else kSuccess.
int32_t checkWaitList(uint32_t count, void *const *events, cl_context context) {
  if ((count == 0) != (events == nullptr)) return kInvalidEventWaitList;
  for (uint32_t i = 0; i < count; ++i) {
    auto *event = static_cast<_cl_event *>(events[i]);
    if (!isValid(event) || event->context() != context) return kInvalidEventWaitList;
  }
  return kSuccess;
}

// The events kernels hold count against a device queue's budget.
bool takeEventBudget(_cl_command_queue *queue) {
  if (queue->deviceEvents.fetch_add(1, std::memory_order_relaxed) < kMaxDeviceEvents) return true;
  queue->deviceEvents.fetch_sub(1, std::memory_order_relaxed);
  return false;
}

void handToKernel(_cl_event *event, _cl_command_queue *budget, void **eventOut) {
  event->deviceEventBudget = budget;
  budget->retainInternal();
  *eventOut = event;
}

// A command of a device queue, counted in `tree`, waiting for `waitList`;
// the caller releases the enqueuer's guard (Scheduler::dependencyDone).
_cl_event *makeCommand(_cl_command_queue *queue, cl_command_type type, Command work, uint32_t count,
                       void *const *waitList, DeviceEnqueueTree *tree) {
  auto *event = new _cl_event(queue->context(), queue, type);
  event->timeQueued = nowNs();
  Scheduler::prepare(event, std::move(work));
  event->retainInternal();  // the scheduler's, dropped when it completes
  event->retainInternal();  // the queue's, dropped by commandDone
  tree->add();
  event->addCallback(
      CL_COMPLETE, [](cl_event, cl_int, void *data) { static_cast<DeviceEnqueueTree *>(data)->done(); }, tree);
  for (uint32_t i = 0; i < count; ++i) Scheduler::addDependent(static_cast<_cl_event *>(waitList[i]), event, true);
  return event;
}

// Checks `range` against the block kernel and turns it into the launch's
// geometry; false: CLK_INVALID_NDRANGE.
bool launchRange(const compiler::DeviceNDRange &in, const _cl_kernel &kernel, cl_device_id device,
                 NDRange &out) {
  if (in.workDim < 1 || in.workDim > 3) return false;
  Dims offset{0, 0, 0}, global{1, 1, 1}, local{1, 1, 1};
  bool localGiven = false;
  for (uint32_t d = 0; d < in.workDim; ++d) {
    if (in.globalSize[d] == 0) return false;
    uint64_t end;
    if (__builtin_add_overflow(in.globalOffset[d], in.globalSize[d], &end)) return false;
    offset[d] = in.globalOffset[d];
    global[d] = in.globalSize[d];
    localGiven |= in.localSize[d] != 0;
  }
  if (localGiven) {
    uint64_t items = 1;
    for (uint32_t d = 0; d < in.workDim; ++d) {
      if (in.localSize[d] == 0 || in.localSize[d] > _cl_device_id::kMaxWorkGroupSize) return false;
      local[d] = in.localSize[d];
      items *= local[d];
      if (kernel.description().uniformWorkGroups && global[d] % local[d] != 0) return false;
    }
    if (items > kernel.maxWorkGroupSize()) return false;
    const uint32_t *required = kernel.description().requiredWorkGroupSize;
    if (required[0] != 0)
      for (int d = 0; d < 3; ++d)
        if (local[d] != required[d]) return false;
    local = launchLocalSize(kernel, device, in.workDim, global, local);
  } else {
    local = localSizeForNull(kernel, device, in.workDim, global);
    for (uint32_t d = 0; d < in.workDim; ++d)
      if (kernel.description().uniformWorkGroups && global[d] % local[d] != 0) return false;
  }
  out = NDRange::make(in.workDim, offset, global, local);
  return true;
}

// The block kernel `name` of the running kernel's program, as a kernel of
// its own (an internal reference for the caller), or null. The application
// never holds it: it does not count as attached to its program, which may
// then be rebuilt once the application's kernels are gone.
_cl_kernel *blockKernel(const _cl_kernel &parent, const char *name) {
  if (!name) return nullptr;
  const compiler::KernelDescription *description = parent.executable().find(name);
  if (!description) return nullptr;
  auto *kernel = new _cl_kernel(parent.program(), parent.sharedExecutable(), *description);
  kernel->retainInternal();
  kernel->release();  // detaches it from the program
  return kernel;
}

int32_t enqueueKernel(void *queueHandle, int32_t flags, const compiler::DeviceNDRange *range, uint32_t numEvents,
                      void *const *waitList, void **eventOut, const char *name, const void *literal,
                      uint32_t numLocals, const uint64_t *localSizes) try {
  LaunchScope *scope = tlScope;
  if (!scope) return kEnqueueFailure;
  cl_context context = scope->kernel()->context();
  _cl_command_queue *queue = deviceQueue(queueHandle, context);
  if (!queue) return kInvalidQueue;
  if (flags != kNoWait && flags != kWaitKernel &&
      flags != kWaitWorkGroup)
    return kEnqueueFailure;
  if (int32_t error = checkWaitList(numEvents, waitList, context)) return error;
  for (uint32_t i = 0; i < numLocals; ++i)
    if (localSizes[i] == 0) return kInvalidArgSize;
  if (!range || !literal) return kEnqueueFailure;
  Ref<_cl_kernel> kernel = Ref<_cl_kernel>::adopt(blockKernel(*scope->kernel(), name));
  if (!kernel.get() || kernel->argumentCount() != numLocals + 1) return kEnqueueFailure;
  NDRange ndrange;
  if (!launchRange(*range, *kernel, queue->device(), ndrange)) return kInvalidNDRange;

  // The block literal, copied now: the enqueuing work-item's frame goes.
  // Clang's literal starts with its size and alignment.
  uint32_t literalSize, literalAlign;
  std::memcpy(&literalSize, literal, sizeof literalSize);
  std::memcpy(&literalAlign, static_cast<const char *>(literal) + sizeof literalSize, sizeof literalAlign);
  if (literalSize < 2 * sizeof(uint32_t)) return kEnqueueFailure;
  size_t align = std::max<size_t>(alignof(std::max_align_t), literalAlign);
  if (align & (align - 1)) return kEnqueueFailure;
  size_t rounded = (literalSize + align - 1) / align * align;
  std::shared_ptr<void> copy(std::aligned_alloc(align, rounded), std::free);
  if (!copy) return kEnqueueFailure;
  std::memcpy(copy.get(), literal, literalSize);
  void *copyAddress = copy.get();
  kernel->setArgument(0, sizeof copyAddress, &copyAddress);
  for (uint32_t i = 0; i < numLocals; ++i) kernel->setArgument(i + 1, localSizes[i], nullptr);
  PreparedLaunch launch(kernel.get());
  if (!launch.argumentsComplete()) return kEnqueueFailure;
  if (launch.localMemorySize() > _cl_device_id::kLocalMemSize) return kEnqueueFailure;

  if (!queue->reserveDeviceCommand()) return kDeviceQueueFull;
  if (eventOut && !takeEventBudget(queue)) {
    queue->releaseDeviceCommand();
    return kEventAllocationFailure;
  }
  DeviceEnqueueTree *tree = scope->tree();
  Command launchCommand = std::move(launch).command(queue->device(), ndrange, tree);
  Command work = [launchCommand = std::move(launchCommand), copy = std::move(copy)]() mutable -> cl_int {
    return launchCommand();
  };
  _cl_event *event = makeCommand(queue, CL_COMMAND_NDRANGE_KERNEL, std::move(work), numEvents, waitList, tree);
  // The application's reference is the kernel's if it asked for the event.
  if (eventOut) handToKernel(event, queue, eventOut);
  else event->release();
  if (flags == kWaitKernel) scope->holdUntilEnd(event);
  else if (flags == kWaitWorkGroup) tlGroupChildren.push_back(event);
  else Scheduler::dependencyDone(event, false);
  return kSuccess;
} catch (...) {
  return kEnqueueFailure;
}

int32_t enqueueMarker(void *queueHandle, uint32_t numEvents, void *const *waitList, void **eventOut) try {
  LaunchScope *scope = tlScope;
  if (!scope) return kEnqueueFailure;
  cl_context context = scope->kernel()->context();
  _cl_command_queue *queue = deviceQueue(queueHandle, context);
  if (!queue) return kInvalidQueue;
  // A marker waits for the events it is given: it needs some.
  if (numEvents == 0 || !waitList) return kInvalidEventWaitList;
  if (int32_t error = checkWaitList(numEvents, waitList, context)) return error;
  if (!eventOut) return kEventAllocationFailure;
  if (!queue->reserveDeviceCommand()) return kDeviceQueueFull;
  if (!takeEventBudget(queue)) {
    queue->releaseDeviceCommand();
    return kEventAllocationFailure;
  }
  _cl_event *event = makeCommand(queue, CL_COMMAND_MARKER, nullptr, numEvents, waitList, scope->tree());
  handToKernel(event, queue, eventOut);
  Scheduler::dependencyDone(event, false);
  return kSuccess;
} catch (...) {
  return kEnqueueFailure;
}

uint32_t kernelQuery(int32_t query, const char *name, const compiler::DeviceNDRange *range) try {
  LaunchScope *scope = tlScope;
  if (!scope || !name) return 0;
  const compiler::KernelDescription *description = scope->kernel()->executable().find(name);
  if (!description) return 0;
  const uint32_t *required = description->requiredWorkGroupSize;
  uint64_t maxGroup = required[0] != 0 ? uint64_t{required[0]} * required[1] * required[2]
                                       : _cl_device_id::kMaxWorkGroupSize;
  uint64_t subGroup = std::max<uint32_t>(1, description->subGroupSize);
  if (query == kWorkGroupSize) return static_cast<uint32_t>(maxGroup);
  if (query == kPreferredMultiple) return description->preferredWorkGroupSizeMultiple;
  if (query != kSubGroupCount && query != kMaxSubGroupSize) return 0;
  if (!range || range->workDim < 1 || range->workDim > 3) return 0;
  uint64_t items = 1;
  bool given = false;
  for (uint32_t d = 0; d < range->workDim; ++d) given |= range->localSize[d] != 0;
  if (given) {
    for (uint32_t d = 0; d < range->workDim; ++d) items *= range->localSize[d];
  } else {
    Ref<_cl_kernel> kernel = Ref<_cl_kernel>::adopt(blockKernel(*scope->kernel(), name));
    Dims global{1, 1, 1};
    for (uint32_t d = 0; d < range->workDim; ++d) global[d] = std::max<uint64_t>(1, range->globalSize[d]);
    Dims local = localSizeForNull(*kernel, scope->device(), range->workDim, global);
    items = local[0] * local[1] * local[2];
  }
  if (query == kSubGroupCount) return static_cast<uint32_t>((items + subGroup - 1) / subGroup);
  return static_cast<uint32_t>(std::min(items, subGroup));
} catch (...) {
  return 0;
}

void *defaultQueue() {
  LaunchScope *scope = tlScope;
  if (!scope) return nullptr;
  return scope->kernel()->context()->defaultDeviceQueue(scope->device());
}

void retainEvent(void *handle) try {
  auto *event = static_cast<_cl_event *>(handle);
  if (isValid(event)) event->retain();
} catch (...) {
}

void releaseEvent(void *handle) try {
  auto *event = static_cast<_cl_event *>(handle);
  if (!isValid(event)) return;
  _cl_command_queue *budget = event->referenceCount() == 1 ? event->deviceEventBudget : nullptr;
  event->release();
  if (budget) {
    budget->deviceEvents.fetch_sub(1, std::memory_order_relaxed);
    budget->releaseInternal();
  }
} catch (...) {
}

void *createUserEvent() try {
  LaunchScope *scope = tlScope;
  if (!scope) return nullptr;
  cl_context context = scope->kernel()->context();
  // Counted on the default device queue; none: no event.
  auto *queue = static_cast<_cl_command_queue *>(context->defaultDeviceQueue(scope->device()));
  if (!queue || !takeEventBudget(queue)) return nullptr;
  auto *event = new _cl_event(context, nullptr, CL_COMMAND_USER);
  void *out;
  handToKernel(event, queue, &out);
  return out;
} catch (...) {
  return nullptr;
}

int32_t isValidEvent(void *handle) { return isValid(static_cast<_cl_event *>(handle)) ? 1 : 0; }

void setUserEventStatus(void *handle, int32_t status) try {
  auto *event = static_cast<_cl_event *>(handle);
  if (!isValid(event) || event->queue() != nullptr) return;
  if (status != CL_COMPLETE && status >= 0) return;
  event->setUserStatus(status);
} catch (...) {
}

// Writes, once the command of `event` has completed, its END - START and
// COMPLETE - START times to `value`; the tree waits for the write.
struct Capture {
  cl_ulong *value;
  DeviceEnqueueTree *tree;
};

void captureEventProfilingInfo(void *handle, int32_t name, void *value) try {
  auto *event = static_cast<_cl_event *>(handle);
  LaunchScope *scope = tlScope;
  if (!scope || !value || name != kProfilingExecTime || !isValid(event) || !event->queue() ||
      !event->queue()->onDevice())
    return;
  DeviceEnqueueTree *tree = scope->tree();
  tree->add();
  event->addCallback(
      CL_COMPLETE,
      [](cl_event e, cl_int, void *data) {
        std::unique_ptr<Capture> capture(static_cast<Capture *>(data));
        cl_ulong completed = e->timeCompleted ? e->timeCompleted : e->timeEnded;
        capture->value[0] = e->timeEnded - e->timeStarted;
        capture->value[1] = completed - e->timeStarted;
        capture->tree->done();
      },
      new Capture{static_cast<cl_ulong *>(value), tree});
} catch (...) {
}

}  // namespace

void installDeviceEnqueueHooks() {
  compiler::DeviceEnqueueHooks hooks;
  hooks.enqueueKernel = &enqueueKernel;
  hooks.kernelQuery = &kernelQuery;
  hooks.defaultQueue = &defaultQueue;
  hooks.enqueueMarker = &enqueueMarker;
  hooks.retainEvent = &retainEvent;
  hooks.releaseEvent = &releaseEvent;
  hooks.createUserEvent = &createUserEvent;
  hooks.isValidEvent = &isValidEvent;
  hooks.setUserEventStatus = &setUserEventStatus;
  hooks.captureEventProfilingInfo = &captureEventProfilingInfo;
  compiler::setDeviceEnqueueHooks(hooks);
}

}  // namespace lockstep::runtime

namespace {
// The hooks are in place before any kernel can run.
const bool gHooksInstalled = (lockstep::runtime::installDeviceEnqueueHooks(), true);
}  // namespace

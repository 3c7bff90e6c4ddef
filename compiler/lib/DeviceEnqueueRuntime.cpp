// The functions compiled kernels call for device-side enqueue
// (DeviceEnqueueLoweringPass, builtins/lib/device_enqueue.cl): trampolines
// to the hooks the runtime sets (Compiler.h, DeviceEnqueueHooks), which the
// JIT gives every program by name. Until the runtime sets them, an enqueue
// fails with CLK_ENQUEUE_FAILURE and queues and events are null.
#include <atomic>

#include "Internal.h"
#include "lockstep/compiler/Compiler.h"

namespace lockstep::compiler {

namespace {

constexpr int32_t kEnqueueFailure = -101;  // CLK_ENQUEUE_FAILURE

DeviceEnqueueHooks gHooks;
std::atomic<bool> gHooksSet{false};

const DeviceEnqueueHooks *hooks() { return gHooksSet.load(std::memory_order_acquire) ? &gHooks : nullptr; }

int32_t enqueueKernel(void *queue, int32_t flags, const DeviceNDRange *range, uint32_t numEvents,
                      void *const *waitList, void **eventOut, const char *kernel, const void *literal,
                      uint32_t numLocals, const uint64_t *localSizes) {
  const DeviceEnqueueHooks *h = hooks();
  return h ? h->enqueueKernel(queue, flags, range, numEvents, waitList, eventOut, kernel, literal, numLocals,
                              localSizes)
           : kEnqueueFailure;
}
uint32_t kernelQuery(int32_t query, const char *kernel, const DeviceNDRange *range) {
  const DeviceEnqueueHooks *h = hooks();
  return h ? h->kernelQuery(query, kernel, range) : 0;
}
void *defaultQueue() {
  const DeviceEnqueueHooks *h = hooks();
  return h ? h->defaultQueue() : nullptr;
}
int32_t enqueueMarker(void *queue, uint32_t numEvents, void *const *waitList, void **eventOut) {
  const DeviceEnqueueHooks *h = hooks();
  return h ? h->enqueueMarker(queue, numEvents, waitList, eventOut) : kEnqueueFailure;
}
void retainEvent(void *event) {
  if (const DeviceEnqueueHooks *h = hooks()) h->retainEvent(event);
}
void releaseEvent(void *event) {
  if (const DeviceEnqueueHooks *h = hooks()) h->releaseEvent(event);
}
void *createUserEvent() {
  const DeviceEnqueueHooks *h = hooks();
  return h ? h->createUserEvent() : nullptr;
}
int32_t isValidEvent(void *event) {
  const DeviceEnqueueHooks *h = hooks();
  return h ? h->isValidEvent(event) : 0;
}
void setUserEventStatus(void *event, int32_t status) {
  if (const DeviceEnqueueHooks *h = hooks()) h->setUserEventStatus(event, status);
}
void captureEventProfilingInfo(void *event, int32_t name, void *value) {
  if (const DeviceEnqueueHooks *h = hooks()) h->captureEventProfilingInfo(event, name, value);
}

const RuntimeSymbol kSymbols[] = {
    {kEnqueueKernelSymbol, reinterpret_cast<void *>(&enqueueKernel)},
    {kKernelQuerySymbol, reinterpret_cast<void *>(&kernelQuery)},
    {"__lockstep_default_queue", reinterpret_cast<void *>(&defaultQueue)},
    {"__lockstep_enqueue_marker", reinterpret_cast<void *>(&enqueueMarker)},
    {"__lockstep_retain_event", reinterpret_cast<void *>(&retainEvent)},
    {"__lockstep_release_event", reinterpret_cast<void *>(&releaseEvent)},
    {"__lockstep_create_user_event", reinterpret_cast<void *>(&createUserEvent)},
    {"__lockstep_is_valid_event", reinterpret_cast<void *>(&isValidEvent)},
    {"__lockstep_set_user_event_status", reinterpret_cast<void *>(&setUserEventStatus)},
    {"__lockstep_capture_event_profiling_info", reinterpret_cast<void *>(&captureEventProfilingInfo)},
};

}  // namespace

void setDeviceEnqueueHooks(const DeviceEnqueueHooks &hooks) {
  if (gHooksSet.load(std::memory_order_acquire)) return;  // once: kernels may be calling them
  gHooks = hooks;
  gHooksSet.store(true, std::memory_order_release);
}

bool isBlockKernelName(std::string_view name) {
  return name.starts_with("__") && name.ends_with("_kernel") && name.find("_block_invoke") != std::string_view::npos;
}

std::span<const RuntimeSymbol> deviceEnqueueSymbols() { return kSymbols; }

bool isDeviceEnqueueFunction(llvm::StringRef name) {
  if (name.starts_with("__enqueue_kernel_") ||
      (name.starts_with("__get_kernel_") && name.ends_with("_impl")))
    return true;
  for (const RuntimeSymbol &symbol : kSymbols)
    if (name == symbol.name) return true;
  return false;
}

}  // namespace lockstep::compiler

// Which command-queues a command-buffer may be recorded for and enqueued on
// (cl_khr_command_buffer): the queue properties the device supports for
// command-buffers, which api/device.cpp reports, and the compatibility of a
// substitute queue with the queue a command-buffer was recorded for.
#pragma once

#include "Queue.h"

namespace lockstep::api {

// CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR: a command-buffer
// runs as one command of its queue, so it takes part in an out-of-order
// queue as any command does, and has profiling times on a profiling queue.
constexpr cl_command_queue_properties kCommandBufferSupportedQueueProperties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
// CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR: none.
constexpr cl_command_queue_properties kCommandBufferRequiredQueueProperties = 0;

// A queue of these properties may hold a command-buffer.
inline bool propertiesSupported(cl_command_queue_properties properties) {
  return (properties & ~kCommandBufferSupportedQueueProperties) == 0 &&
         (properties & kCommandBufferRequiredQueueProperties) ==
             kCommandBufferRequiredQueueProperties;
}

// `substitute` may run what was recorded for `recorded`: the same device,
// and properties the device supports for command-buffers (they need not be
// the same: in order or not, profiling or not, the recorded commands run
// alike). The context is checked apart (CL_INVALID_CONTEXT).
inline bool compatible(const _cl_command_queue &substitute, const _cl_command_queue &recorded) {
  return substitute.device() == recorded.device() && propertiesSupported(substitute.properties());
}

}  // namespace lockstep::api

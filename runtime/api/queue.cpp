// Command-queues, and what every clEnqueue* entry point checks before its
// command goes to the queue (api/enqueue.h).
#include "Queue.h"

#include "Context.h"
#include "Device.h"
#include "api/enqueue.h"
#include "api/entry_points.h"
#include "exec/DeviceEnqueue.h"

using namespace lockstep::runtime;

namespace lockstep::api {

namespace {

constexpr cl_command_queue_properties kKnownQueueFlags =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE |
    CL_QUEUE_ON_DEVICE_DEFAULT;
// Host queues, in order or not, with or without profiling; device queues
// (out of order), the default one too (exec/DeviceEnqueue.h).
constexpr cl_command_queue_properties kSupportedQueueFlags =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE |
    CL_QUEUE_ON_DEVICE_DEFAULT;

void checkContextDevice(cl_context context, cl_device_id device) {
  checked(context);
  // "CL_INVALID_DEVICE if device is not a valid device or is not associated
  // with context."
  check(isValid(device) && context->hasDevice(device), CL_INVALID_DEVICE);
}

// Checks the queue flags: CL_INVALID_VALUE for unknown bits or combinations,
// CL_INVALID_QUEUE_PROPERTIES for valid ones the device does not support.
void checkQueueFlags(cl_command_queue_properties flags) {
  check(!(flags & ~kKnownQueueFlags), CL_INVALID_VALUE);
  check(!(flags & CL_QUEUE_ON_DEVICE_DEFAULT) || (flags & CL_QUEUE_ON_DEVICE), CL_INVALID_VALUE);
  check(!(flags & CL_QUEUE_ON_DEVICE) || (flags & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE),
        CL_INVALID_VALUE);
  check(!(flags & ~kSupportedQueueFlags), CL_INVALID_QUEUE_PROPERTIES);
}

// A device queue (CL_QUEUE_ON_DEVICE, out of order: checked). "CL_INVALID_
// QUEUE_PROPERTIES if ... the device does not support" a size beyond
// CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE (CL_INVALID_VALUE, as the CTS and
// other drivers read it); more device queues than
// CL_DEVICE_MAX_ON_DEVICE_QUEUES is CL_OUT_OF_RESOURCES. A default device
// queue that exists already is returned again (retained), as the spec says.
cl_command_queue createDeviceQueue(cl_context context, cl_device_id device, cl_command_queue_properties flags,
                                   std::vector<cl_queue_properties> properties) {
  cl_uint size = kDeviceQueuePreferredSize;
  for (size_t i = 0; i + 1 < properties.size(); i += 2)
    if (properties[i] == CL_QUEUE_SIZE) {
      check(properties[i + 1] <= kDeviceQueueMaxSize, CL_INVALID_VALUE);
      size = static_cast<cl_uint>(properties[i + 1]);
    }
  if (flags & CL_QUEUE_ON_DEVICE_DEFAULT) {
    // "If CL_QUEUE_ON_DEVICE_DEFAULT is specified ... and a default device
    // command-queue already exists, the existing one is returned."
    if (cl_command_queue existing = context->defaultDeviceQueue(device)) {
      existing->retain();
      return existing;
    }
  }
  check(context->addDeviceQueue(device, kMaxDeviceQueues), CL_OUT_OF_RESOURCES);
  auto *queue = new _cl_command_queue(context, device, flags, std::move(properties));
  queue->setDeviceQueueSize(size);
  if (flags & CL_QUEUE_ON_DEVICE_DEFAULT) context->setDefaultDeviceQueue(device, queue);
  return queue;
}

}  // namespace

_cl_command_queue *checkedHostQueue(cl_command_queue queue) {
  _cl_command_queue *q = checked(queue);
  // Only kernels enqueue to a device queue.
  check(!q->onDevice(), CL_INVALID_COMMAND_QUEUE);
  return q;
}

void checkWaitList(const _cl_command_queue &queue, cl_uint numEvents, const cl_event *waitList) {
  // "CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and
  // num_events_in_wait_list > 0, or event_wait_list is not NULL and
  // num_events_in_wait_list is 0, or if event objects in event_wait_list are
  // not valid events."
  check((numEvents == 0) == (waitList == nullptr), CL_INVALID_EVENT_WAIT_LIST);
  for (cl_uint i = 0; i < numEvents; ++i) {
    check(isValid(waitList[i]), CL_INVALID_EVENT_WAIT_LIST);
    // "CL_INVALID_CONTEXT if context associated with command_queue and events
    // in event_wait_list are not the same."
    check(waitList[i]->context() == queue.context(), CL_INVALID_CONTEXT);
  }
}

void enqueueCommand(_cl_command_queue *queue, cl_command_type type, cl_uint numEvents,
                    const cl_event *waitList, cl_event *eventOut, Command work, bool blocking,
                    bool runHereIfBlocking) {
  checkWaitList(*queue, numEvents, waitList);
  cl_int status = queue->enqueue(type, numEvents, waitList, eventOut, std::move(work), blocking,
                                 runHereIfBlocking);
  // "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the ... operation is
  // blocking and the execution status of any of the events in
  // event_wait_list is a negative integer value."
  check(status >= 0, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
}

cl_command_queue CL_API_CALL
clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                   const cl_queue_properties *properties, cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&] {
    checkContextDevice(context, device);
    cl_command_queue_properties flags = 0;
    std::vector<cl_queue_properties> copy;
    bool seenFlags = false, seenSize = false;
    for (const cl_queue_properties *p = properties; p && *p != 0; p += 2) {
      if (p[0] == CL_QUEUE_PROPERTIES && !seenFlags) {
        seenFlags = true;
        flags = p[1];
      } else if (p[0] == CL_QUEUE_SIZE && !seenSize) {
        seenSize = true;  // only meaningful for device queues: checked below
      } else {
        fail(CL_INVALID_VALUE);  // unknown or repeated
      }
      copy.insert(copy.end(), p, p + 2);
    }
    if (properties) copy.push_back(0);
    checkQueueFlags(flags);
    if (!(flags & CL_QUEUE_ON_DEVICE)) {
      check(!seenSize, CL_INVALID_VALUE);  // a size without CL_QUEUE_ON_DEVICE
      return new _cl_command_queue(context, device, flags, std::move(copy));
    }
    return createDeviceQueue(context, device, flags, std::move(copy));
  });
}

cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context, cl_device_id device,
                                                  cl_command_queue_properties properties,
                                                  cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&] {
    checkContextDevice(context, device);
    // The 1.x entry point knows only these two flags.
    check(!(properties & ~(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE)),
          CL_INVALID_VALUE);
    checkQueueFlags(properties);
    return new _cl_command_queue(context, device, properties, {});
  });
}

cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue command_queue) {
  return guarded([&] { checked(command_queue)->retain(); });
}

cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue command_queue) {
  // The implicit flush the spec asks for is a no-op: commands never wait
  // for a flush. Pending commands keep the queue alive until they are done.
  return guarded([&] { checked(command_queue)->release(); });
}

cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue command_queue,
                                         cl_command_queue_info param_name, size_t param_value_size,
                                         void *param_value, size_t *param_value_size_ret) {
  return guarded([&] {
    cl_command_queue q = checked(command_queue);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
      case CL_QUEUE_CONTEXT:
        return out.value<cl_context>(q->context());
      case CL_QUEUE_DEVICE:
        return out.value<cl_device_id>(q->device());
      case CL_QUEUE_REFERENCE_COUNT:
        return out.value<cl_uint>(q->referenceCount());
      case CL_QUEUE_PROPERTIES:
        return out.value<cl_command_queue_properties>(q->properties());
      case CL_QUEUE_PROPERTIES_ARRAY:
        return out.array<cl_queue_properties>(q->propertiesArray());
      case CL_QUEUE_SIZE:
        // "CL_INVALID_COMMAND_QUEUE ... if command_queue is not a valid
        // command-queue for param_name": only device queues have a size.
        check(q->onDevice(), CL_INVALID_COMMAND_QUEUE);
        return out.value<cl_uint>(q->deviceQueueSize());
      case CL_QUEUE_DEVICE_DEFAULT:
        // The device's default device queue in the queue's context (now).
        return out.value<cl_command_queue>(q->context()->defaultDeviceQueue(q->device()));
      default:
        fail(CL_INVALID_VALUE);
    }
  });
}

// "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host
// command-queue."
cl_int CL_API_CALL clFlush(cl_command_queue command_queue) {
  return guarded([&] { checkedHostQueue(command_queue)->flush(); });
}

cl_int CL_API_CALL clFinish(cl_command_queue command_queue) {
  return guarded([&] { checkedHostQueue(command_queue)->finish(); });
}

cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
                                                  cl_command_queue command_queue) {
  return guarded([&] {
    checkContextDevice(context, device);
    // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue
    // for device" (a device queue of this context and device).
    _cl_command_queue *queue = checked(command_queue);
    check(queue->onDevice() && queue->context() == context && queue->device() == device,
          CL_INVALID_COMMAND_QUEUE);
    context->setDefaultDeviceQueue(device, queue);
  });
}

}  // namespace lockstep::api

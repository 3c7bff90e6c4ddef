// cl_khr_command_buffer's object entry points: clCreateCommandBufferKHR,
// clFinalizeCommandBufferKHR, clRetainCommandBufferKHR,
// clReleaseCommandBufferKHR, clEnqueueCommandBufferKHR and
// clGetCommandBufferInfoKHR, with the checks of version 0.9.8 of the
// extension. Recording is api/command_buffer_record.cpp's; the object is
// runtime/CommandBuffer.h.
#include "CommandBuffer.h"
#include "Device.h"
#include "api/command_buffer_queues.h"
#include "api/enqueue.h"
#include "api/entry_points.h"

using namespace lockstep::runtime;

namespace lockstep::api {

namespace {

// The flags of CL_COMMAND_BUFFER_FLAGS_KHR that some version of the
// extensions defines: simultaneous use and mutable
// (cl_khr_command_buffer_mutable_dispatch, offered), device-side sync
// (cl_khr_command_buffer_multi_device, not offered: CL_INVALID_PROPERTY).
// Any other bit is no valid value (CL_INVALID_VALUE).
constexpr cl_command_buffer_flags_khr kSupportedFlags = khr::kSimultaneousUse | khr::kMutable;
constexpr cl_command_buffer_flags_khr kDefinedFlags = kSupportedFlags | (1 << 2);

struct CheckedProperties {
  std::vector<cl_command_buffer_properties_khr> kept;  // with its 0, or empty
  cl_command_buffer_flags_khr flags = 0;
  cl_bitfield asserts = 0;
};

// "CL_INVALID_VALUE if values specified in properties are not valid, or if
// the same property name is specified more than once"; "CL_INVALID_PROPERTY
// if values specified in properties are valid but are not supported by all
// the devices associated with command-queues in queues".
CheckedProperties checkedProperties(const cl_command_buffer_properties_khr *properties) {
  CheckedProperties result;
  if (!properties) return result;
  bool flagsSeen = false, assertsSeen = false;
  for (; properties[0] != 0; properties += 2) {
    if (properties[0] == CL_COMMAND_BUFFER_FLAGS_KHR) {
      check(!flagsSeen, CL_INVALID_VALUE);
      flagsSeen = true;
      result.flags = properties[1];
      check((result.flags & ~kDefinedFlags) == 0, CL_INVALID_VALUE);
      check((result.flags & ~kSupportedFlags) == 0, CL_INVALID_PROPERTY);
    } else if (properties[0] == khr::kCommandBufferMutableDispatchAsserts) {
      check(!assertsSeen, CL_INVALID_VALUE);
      assertsSeen = true;
      result.asserts = properties[1];
      check((result.asserts & ~khr::kAssertNoAdditionalWorkGroups) == 0, CL_INVALID_VALUE);
    } else {
      fail(CL_INVALID_VALUE);
    }
    result.kept.insert(result.kept.end(), properties, properties + 2);
  }
  result.kept.push_back(0);
  return result;
}

}  // namespace

cl_command_buffer_khr CL_API_CALL
clCreateCommandBufferKHR(cl_uint num_queues, const cl_command_queue *queues,
                         const cl_command_buffer_properties_khr *properties, cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&]() -> cl_command_buffer_khr {
    // "CL_INVALID_VALUE if num_queues is not one" (a device without
    // cl_khr_command_buffer_multi_device) "or queues is NULL".
    check(num_queues == 1 && queues != nullptr, CL_INVALID_VALUE);
    _cl_command_queue *queue = checkedHostQueue(queues[0]);
    CheckedProperties checkedList = checkedProperties(properties);
    // "CL_INCOMPATIBLE_COMMAND_QUEUE_KHR if any command-queue in queues is
    // an out-of-order command-queue and the device associated with the
    // command-queue does not support" it, or lacks the required properties.
    check(propertiesSupported(queue->properties()), CL_INCOMPATIBLE_COMMAND_QUEUE_KHR);
    return new _cl_command_buffer_khr(queue, std::move(checkedList.kept), checkedList.flags,
                                      checkedList.asserts);
  });
}

cl_int CL_API_CALL clFinalizeCommandBufferKHR(cl_command_buffer_khr command_buffer) {
  // "CL_INVALID_OPERATION if command_buffer is not in the Recording state."
  return guarded([&] { checked(command_buffer)->finalize(); });
}

cl_int CL_API_CALL clRetainCommandBufferKHR(cl_command_buffer_khr command_buffer) {
  return guarded([&] { checked(command_buffer)->retain(); });
}

cl_int CL_API_CALL clReleaseCommandBufferKHR(cl_command_buffer_khr command_buffer) {
  // A command-buffer enqueued and still pending lives on: its command holds
  // an internal reference.
  return guarded([&] { checked(command_buffer)->release(); });
}

cl_int CL_API_CALL clEnqueueCommandBufferKHR(cl_uint num_queues, cl_command_queue *queues,
                                             cl_command_buffer_khr command_buffer,
                                             cl_uint num_events_in_wait_list,
                                             const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    _cl_command_buffer_khr *buffer = checked(command_buffer);
    // "CL_INVALID_OPERATION if command_buffer has not been finalized", or
    // is finalized with a mutable launch still missing an argument (not in
    // the Executable state).
    std::shared_ptr<const _cl_command_buffer_khr::Plan> plan = buffer->plan();
    check(plan && plan->complete, CL_INVALID_OPERATION);
    // "CL_INVALID_VALUE if queues is NULL and num_queues is > 0, or queues
    // is not NULL and num_queues is 0", "if num_queues is > 0 and not the
    // same value as num_queues set on command_buffer creation".
    check((num_queues == 0) == (queues == nullptr), CL_INVALID_VALUE);
    check(num_queues == 0 || num_queues == 1, CL_INVALID_VALUE);
    _cl_command_queue *queue = buffer->queue();
    // Without queues, the command-buffer's own, which it holds (the
    // application may have released its handle since).
    if (num_queues == 1) {
      // "CL_INVALID_COMMAND_QUEUE if any element of queues is not a valid
      // command-queue."
      queue = checkedHostQueue(queues[0]);
      // "CL_INCOMPATIBLE_COMMAND_QUEUE_KHR if any element of queues is not
      // compatible with the command-queue set on command_buffer creation at
      // the same list index."
      check(compatible(*queue, *buffer->queue()), CL_INCOMPATIBLE_COMMAND_QUEUE_KHR);
      // "CL_INVALID_CONTEXT if any element of queues does not have the same
      // context as the command-queue set on command_buffer creation".
      check(queue->context() == buffer->context(), CL_INVALID_CONTEXT);
    }
    // The wait list's checks (CL_INVALID_CONTEXT for an event of another
    // context, CL_INVALID_EVENT_WAIT_LIST), then one command that runs the
    // recorded ones: no check and no allocation per recorded command.
    // The plan as it is now: an update after this call does not change
    // what this enqueue runs.
    enqueueCommand(queue, CL_COMMAND_COMMAND_BUFFER_KHR, num_events_in_wait_list, event_wait_list,
                   event, [plan = std::move(plan)] { return _cl_command_buffer_khr::run(*plan); });
  });
}

cl_int CL_API_CALL clGetCommandBufferInfoKHR(cl_command_buffer_khr command_buffer,
                                             cl_command_buffer_info_khr param_name,
                                             size_t param_value_size, void *param_value,
                                             size_t *param_value_size_ret) {
  return guarded([&] {
    _cl_command_buffer_khr *buffer = checked(command_buffer);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
      case CL_COMMAND_BUFFER_QUEUES_KHR:
        return out.value<cl_command_queue>(buffer->queue());
      case CL_COMMAND_BUFFER_NUM_QUEUES_KHR:
        return out.value<cl_uint>(1);
      case CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR:
        return out.value<cl_uint>(buffer->referenceCount());
      case CL_COMMAND_BUFFER_STATE_KHR:
        return out.value<cl_command_buffer_state_khr>(buffer->state());
      case CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR:
        return out.array<cl_command_buffer_properties_khr>(buffer->properties());
      case CL_COMMAND_BUFFER_CONTEXT_KHR:
        return out.value<cl_context>(buffer->context());
      default:
        fail(CL_INVALID_VALUE);
    }
  });
}

}  // namespace lockstep::api

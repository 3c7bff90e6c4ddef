// Events, user events, markers and barriers.
#include "Event.h"

#include "Context.h"
#include "Queue.h"
#include "api/enqueue.h"
#include "api/entry_points.h"

using namespace lockstep::runtime;

namespace lockstep::api {

cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event *event_list) {
  return guarded([&] {
    check(num_events != 0 && event_list != nullptr, CL_INVALID_VALUE);
    for (cl_uint i = 0; i < num_events; ++i) {
      checked(event_list[i]);
      check(event_list[i]->context() == event_list[0]->context(), CL_INVALID_CONTEXT);
    }
    bool failed = false;
    for (cl_uint i = 0; i < num_events; ++i) failed |= event_list[i]->wait() < 0;
    check(!failed, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  });
}

cl_int CL_API_CALL clGetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size,
                                  void *param_value, size_t *param_value_size_ret) {
  return guarded([&] {
    checked(event);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
      case CL_EVENT_COMMAND_QUEUE:
        return out.value<cl_command_queue>(event->queue());
      case CL_EVENT_CONTEXT:
        return out.value<cl_context>(event->context());
      case CL_EVENT_COMMAND_TYPE:
        return out.value<cl_command_type>(event->commandType());
      case CL_EVENT_COMMAND_EXECUTION_STATUS:
        return out.value<cl_int>(event->status());
      case CL_EVENT_REFERENCE_COUNT:
        return out.value<cl_uint>(event->referenceCount());
      default:
        fail(CL_INVALID_VALUE);
    }
  });
}

cl_int CL_API_CALL clRetainEvent(cl_event event) {
  return guarded([&] { checked(event)->retain(); });
}

cl_int CL_API_CALL clReleaseEvent(cl_event event) {
  return guarded([&] { checked(event)->release(); });
}

cl_int CL_API_CALL clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name,
                                           size_t param_value_size, void *param_value,
                                           size_t *param_value_size_ret) {
  return guarded([&] {
    checked(event);
    // "CL_PROFILING_INFO_NOT_AVAILABLE if the CL_QUEUE_PROFILING_ENABLE flag
    // is not set for the command-queue, if the execution status of the
    // command identified by event is not CL_COMPLETE or if event is a user
    // event object."
    check(event->profiling() && event->status() == CL_COMPLETE, CL_PROFILING_INFO_NOT_AVAILABLE);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
      case CL_PROFILING_COMMAND_QUEUED:
        return out.value<cl_ulong>(event->timeQueued);
      case CL_PROFILING_COMMAND_SUBMIT:
        return out.value<cl_ulong>(event->timeSubmitted);
      case CL_PROFILING_COMMAND_START:
        return out.value<cl_ulong>(event->timeStarted);
      case CL_PROFILING_COMMAND_END:
        return out.value<cl_ulong>(event->timeEnded);
      case CL_PROFILING_COMMAND_COMPLETE:
        // A kernel that enqueued kernels completes with its last descendant
        // (exec/DeviceEnqueue.h); any other command when it ends.
        return out.value<cl_ulong>(event->timeCompleted ? event->timeCompleted : event->timeEnded);
      default:
        fail(CL_INVALID_VALUE);
    }
  });
}

cl_int CL_API_CALL clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                                      void(CL_CALLBACK *pfn_notify)(cl_event, cl_int, void *),
                                      void *user_data) {
  return guarded([&] {
    checked(event);
    check(pfn_notify != nullptr, CL_INVALID_VALUE);
    check(command_exec_callback_type == CL_SUBMITTED || command_exec_callback_type == CL_RUNNING ||
              command_exec_callback_type == CL_COMPLETE,
          CL_INVALID_VALUE);
    event->addCallback(command_exec_callback_type, pfn_notify, user_data);
  });
}

cl_event CL_API_CALL clCreateUserEvent(cl_context context, cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&] {
    checked(context);
    return new _cl_event(context, nullptr, CL_COMMAND_USER);
  });
}

cl_int CL_API_CALL clSetUserEventStatus(cl_event event, cl_int execution_status) {
  return guarded([&] {
    check(isValid(event) && event->queue() == nullptr, CL_INVALID_EVENT);
    check(execution_status == CL_COMPLETE || execution_status < 0, CL_INVALID_VALUE);
    // "CL_INVALID_OPERATION if the execution_status for event has already
    // been changed by a previous call to clSetUserEventStatus."
    check(event->setUserStatus(execution_status), CL_INVALID_OPERATION);
  });
}

cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue command_queue,
                                               cl_uint num_events_in_wait_list,
                                               const cl_event *event_wait_list, cl_event *event) {
  // With an empty wait list a marker waits for every earlier command
  // (_cl_command_queue::enqueue).
  return guarded([&] {
    enqueueCommand(checkedHostQueue(command_queue), CL_COMMAND_MARKER, num_events_in_wait_list,
                   event_wait_list, event, {});
  });
}

cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue command_queue,
                                                cl_uint num_events_in_wait_list,
                                                const cl_event *event_wait_list, cl_event *event) {
  // Later commands wait for it (_cl_command_queue::enqueue).
  return guarded([&] {
    enqueueCommand(checkedHostQueue(command_queue), CL_COMMAND_BARRIER, num_events_in_wait_list,
                   event_wait_list, event, {});
  });
}

cl_int CL_API_CALL clEnqueueMarker(cl_command_queue command_queue, cl_event *event) {
  return guarded([&] {
    checkedHostQueue(command_queue);
    check(event != nullptr, CL_INVALID_VALUE);
    enqueueCommand(command_queue, CL_COMMAND_MARKER, 0, nullptr, event, {});
  });
}

cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue command_queue) {
  return guarded(
      [&] { enqueueCommand(checkedHostQueue(command_queue), CL_COMMAND_BARRIER, 0, nullptr, nullptr, {}); });
}

cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
                                          const cl_event *event_list) {
  return guarded([&] {
    checkedHostQueue(command_queue);
    check(num_events != 0 && event_list != nullptr, CL_INVALID_VALUE);
    for (cl_uint i = 0; i < num_events; ++i) {
      checked(event_list[i]);
      check(event_list[i]->context() == command_queue->context(), CL_INVALID_CONTEXT);
    }
    enqueueCommand(command_queue, CL_COMMAND_BARRIER, num_events, event_list, nullptr, {});
  });
}

}  // namespace lockstep::api

// How the clEnqueue* entry points hand a command to its queue: the spec's
// checks of the wait list, and the error of a blocking command whose wait
// list failed (api/queue.cpp).
#pragma once

#include "Queue.h"

namespace lockstep::api {

// A command-queue of the application that host commands may go to:
// CL_INVALID_COMMAND_QUEUE if invalid or a device queue (CL_QUEUE_ON_DEVICE).
_cl_command_queue *checkedHostQueue(cl_command_queue queue);

// The spec's checks of (num_events_in_wait_list, event_wait_list):
// CL_INVALID_EVENT_WAIT_LIST if the count and the pointer disagree or an
// event is invalid; CL_INVALID_CONTEXT if an event is of another context
// than `queue`.
void checkWaitList(const _cl_command_queue &queue, cl_uint numEvents, const cl_event *waitList);

// checkWaitList, then _cl_command_queue::enqueue (which says what the other
// arguments mean). A blocking command that failed (an event of its wait list
// did, or it did itself) gives CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
// and no event.
void enqueueCommand(_cl_command_queue *queue, cl_command_type type, cl_uint numEvents,
                    const cl_event *waitList, cl_event *eventOut, runtime::Command work,
                    bool blocking = false, bool runHereIfBlocking = false);

}  // namespace lockstep::api

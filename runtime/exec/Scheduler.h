// The command graph and who runs its commands. A command starts when every
// event it waits for is complete (its wait list and, in an in-order queue,
// the previous command): the event that completes last starts it, so nothing
// polls and no thread waits for a dependency. A ready command runs as a task
// of its device's arena, or on a thread that is at hand: the thread that
// completed its last dependency (in order, the next command of the queue
// starts without a wake-up), a caller of clWaitForEvents whose command has
// not started yet, a blocking enqueue whose command is ready at once.
//
// Each event carries the graph's state for its command (CommandNode); the
// Scheduler moves it through CL_QUEUED, CL_SUBMITTED, CL_RUNNING and its
// final status, and starts its dependents. _cl_event is the event object
// itself: its status, callbacks, profiling times and waiters.
#pragma once

#include <CL/cl.h>

#include <atomic>
#include <vector>

#include "exec/Command.h"

namespace lockstep::runtime {

// The graph state of one event's command, inside the event. Only the
// Scheduler touches it; the dependents are guarded by the event's mutex.
class CommandNode {
  friend class Scheduler;

  struct Dependent {
    _cl_event *event;  // alive: it cannot finish before this one
    bool propagateFailure;
  };
  std::atomic<cl_uint> pending_{1};  // dependencies + the enqueuer's guard
  std::atomic<bool> dependencyFailed_{false};
  std::atomic<bool> claimed_{false};  // someone runs (or ran) the command
  // Device-side enqueue: the command's work asked its completion to wait
  // (Scheduler::holdCompletion); holds_ counts the holds and the run.
  bool held_ = false;
  std::atomic<int> holds_{0};
  cl_int heldResult_ = CL_SUCCESS;
  Command work_;
  // Most events have one dependent (the next command of an in-order
  // queue): the first ones are kept inline, so adding them allocates nothing.
  static constexpr unsigned kInlineDependents = 2;
  Dependent inlineDependents_[kInlineDependents];
  unsigned inlineDependentCount_ = 0;
  std::vector<Dependent> moreDependents_;
};

class Scheduler {
 public:
  // Sets the work of a command's event, before any dependency is added.
  static void prepare(_cl_event *event, Command work);
  // Makes `dependent` wait for `event` (nothing if `event` is done). If
  // `propagateFailure` (a wait-list edge, not the in-order edge) and `event`
  // fails, `dependent` fails with CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.
  static void addDependent(_cl_event *event, _cl_event *dependent, bool propagateFailure);
  // Called once per dependency of `event` that finished, and once by the
  // enqueuer when all dependencies are registered; the last call starts the
  // command. With `runHere`, a command that is ready runs on the calling
  // thread instead of as a task (a blocking enqueue whose caller would only
  // wait anyway).
  static void dependencyDone(_cl_event *event, bool failed, bool runHere = false);
  // A waiter's turn (_cl_event::wait): a command that is ready but not yet
  // started runs on this thread (and the commands that become ready after
  // it, until `event` is done) instead of the waiter sleeping while a worker
  // wakes up. Not inside another command (a callback waiting), which could
  // be the one it waits for.
  static void runIfWaiting(_cl_event *event);
  // `event` reached its final status (its command ran or failed, or a user
  // event was set): calls the callbacks of the states it skipped, lets its
  // queue know, starts its dependents and wakes its waiters.
  static void complete(_cl_event *event, cl_int status);
  // Device-side enqueue: called by the work of the command this thread is
  // running, keeps its event from completing when the work returns (a
  // kernel whose device-enqueued descendants are still to run, whose host
  // event completes with the last of them), until releaseCompletion. Returns
  // the event (null if this thread runs no command).
  static _cl_event *holdCompletion();
  static void releaseCompletion(_cl_event *event);

 private:
  static void submit(_cl_event *event, bool runHere);
  // Takes the right to run the command: true for exactly one caller.
  static bool claim(_cl_event *event);
  // Runs this claimed command, then the commands that became ready after it
  // and that this thread took over (see submit), until `until` is done (or,
  // with null, until none is left).
  static void runClaimed(_cl_event *event, _cl_event *until);
  // Runs the command as a task of `device`'s arena, which drops a reference
  // the caller took for it. Unless `claimed`, a waiter may take it over first.
  static void enqueueTask(_cl_event *event, cl_device_id device, bool claimed);
  static void run(_cl_event *event);
  // The end of a command that ran: its status, timestamps, completion.
  static void finishRun(_cl_event *event, cl_int result);
};

}  // namespace lockstep::runtime

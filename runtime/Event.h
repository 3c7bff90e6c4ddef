// An event: the state of one command (or a user event) and the edges of the
// command graph. A command starts when every event it waits for is complete;
// the event that completes last starts it, so nothing polls and no thread
// waits for a dependency.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <vector>

#include "Object.h"

namespace lockstep::runtime {

// The work of a command. Runs once, as a task of the device's arena, when its
// wait list (and, in an in-order queue, the previous command) is complete.
// Returns CL_SUCCESS, or a negative error that becomes the event's status.
// Whatever it captures (Ref<> to buffers, kernels...) is released when it has
// run, before the event turns CL_COMPLETE.
using Command = std::function<cl_int()>;

}  // namespace lockstep::runtime

struct _cl_event
    : lockstep::runtime::Object<_cl_event, lockstep::runtime::Tag::Event, CL_INVALID_EVENT> {
  using CallbackFn = void(CL_CALLBACK *)(cl_event, cl_int, void *);

  // A user event (queue null, status CL_SUBMITTED) or a command's event
  // (status CL_QUEUED).
  _cl_event(cl_context context, cl_command_queue queue, cl_command_type type);
  ~_cl_event();

  // A command's event holds its queue and context only until it is done, so
  // that what the application releases after waiting is gone when its
  // clRelease* returns (context destructor callbacks run there). Afterwards
  // these are the handles as the application knew them.
  cl_context context() const { return context_; }
  cl_command_queue queue() const { return queue_; }  // null for user events
  bool profiling() const { return profiling_; }      // of the queue
  cl_command_type commandType() const { return type_; }
  // CL_QUEUED, CL_SUBMITTED, CL_RUNNING, CL_COMPLETE or a negative error.
  cl_int status() const { return status_.load(std::memory_order_acquire); }
  bool done() const { return status() <= CL_COMPLETE; }

  // Waits until the event is complete or failed and its dependents started;
  // returns the final status. A waiter whose command is ready but not yet
  // started runs it itself (and the commands that become ready after it,
  // until this event is done) instead of sleeping while a worker wakes up.
  cl_int wait();
  // clSetUserEventStatus: CL_INVALID_OPERATION if already set.
  void setUserStatus(cl_int status);
  // clSetEventCallback; called at once (on this thread) if already reached.
  void addCallback(cl_int callbackType, CallbackFn fn, void *userData);

  // CL_PROFILING_COMMAND_* timestamps (ns, nowNs() clock); 0 until reached.
  cl_ulong timeQueued = 0, timeSubmitted = 0, timeStarted = 0, timeEnded = 0;

  // --- the command graph (used by _cl_command_queue) ---
  // Makes `dependent` wait for this event (nothing if this one is done). If
  // `propagateFailure` (a wait-list edge, not the in-order edge) and this
  // event fails, `dependent` fails with
  // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.
  void addDependent(_cl_event *dependent, bool propagateFailure);
  // Called once per dependency that finished, and once by the enqueuer when
  // all dependencies are registered; the last call starts the command. With
  // `runHere`, a command that is ready runs on the calling thread instead of
  // as a task (a blocking enqueue whose caller would only wait anyway).
  void dependencyDone(bool failed, bool runHere = false);
  // Where this command sits in its out-of-order queue's list of outstanding
  // commands (guarded by the queue's mutex).
  size_t queueSlot = 0;
  // Sets the work before any dependency is added.
  void prepare(lockstep::runtime::Command work) { work_ = std::move(work); }

 private:
  void submit(bool runHere);
  // Takes the right to run the command: true for exactly one caller.
  bool claim() { return !claimed_.exchange(true, std::memory_order_acq_rel); }
  // Runs this claimed command, then the commands that became ready after it
  // and that this thread took over (see submit), until `until` is done (or,
  // with null, until none is left).
  void runClaimed(_cl_event *until);
  void run();
  void finish(cl_int status);
  void setStatus(cl_int status);  // and fires that status' callbacks
  void releaseOwners();

  struct Callback {
    cl_int type;
    CallbackFn fn;
    void *userData;
  };

  cl_context context_;
  cl_command_queue queue_;
  cl_command_type type_;
  bool profiling_;
  bool holdsOwners_ = true;  // the internal references to queue_ and context_
  std::atomic<cl_int> status_;
  std::atomic<cl_uint> pending_{1};  // dependencies + the enqueuer's guard
  std::atomic<bool> dependencyFailed_{false};
  std::atomic<bool> claimed_{false};  // someone runs (or ran) the command
  lockstep::runtime::Command work_;
  std::mutex mutex_;
  std::condition_variable completed_;
  bool settled_ = false;  // done and every consequence handled: waiters may go
  struct Dependent {
    _cl_event *event;  // alive: it cannot finish before this one
    bool propagateFailure;
  };
  std::vector<Dependent> dependents_;
  std::vector<Callback> callbacks_;
};

// An event: the state of one command (or a user event): its status, the
// callbacks waiting for a status, profiling times, and the threads waiting
// for it to complete. The command graph the event is a node of, and the
// running of its command, are exec/Scheduler's.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <vector>

#include "Object.h"
#include "exec/Scheduler.h"

struct _cl_event
    : lockstep::runtime::Object<_cl_event, lockstep::runtime::Tag::Event, CL_INVALID_EVENT> {
  using CallbackFn = void(CL_CALLBACK *)(cl_event, cl_int, void *);

  // Events are recycled (Recycler.h): every launch makes one.
  static void *operator new(size_t size);
  static void operator delete(void *memory, size_t size);

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
  // started runs it itself (Scheduler::runIfWaiting).
  cl_int wait();
  // clSetUserEventStatus: false (and nothing changes) if the status was set
  // already.
  bool setUserStatus(cl_int status);
  // clSetEventCallback; called at once (on this thread) if already reached.
  void addCallback(cl_int callbackType, CallbackFn fn, void *userData);

  // CL_PROFILING_COMMAND_* timestamps (ns, nowNs() clock); 0 until reached.
  cl_ulong timeQueued = 0, timeSubmitted = 0, timeStarted = 0, timeEnded = 0;
  // CL_PROFILING_COMMAND_COMPLETE when it differs from timeEnded: a kernel
  // whose device-enqueued descendants ended later (exec/DeviceEnqueue.h).
  cl_ulong timeCompleted = 0;
  // Device-side enqueue: the device queue whose event budget
  // (CL_DEVICE_MAX_ON_DEVICE_EVENTS) this event counts against while a
  // kernel holds it, or null.
  cl_command_queue deviceEventBudget = nullptr;

  // Where this command sits in its out-of-order queue's list of outstanding
  // commands (guarded by the queue's mutex).
  size_t queueSlot = 0;

 private:
  friend class lockstep::runtime::Scheduler;

  struct Callback {
    cl_int type;
    CallbackFn fn;
    void *userData;
  };

  void setStatus(cl_int status);  // and fires that status' callbacks
  // Calls the callbacks of states the event skipped on its way to `status`
  // (a user event never runs; a failed command never completes): with the
  // error if it failed, else as the state they asked for.
  void callSkipped(const std::vector<Callback> &callbacks, cl_int status);
  // Lets the waiters go (wait()): the event is done and every consequence
  // handled.
  void settle();
  void releaseOwners();

  cl_context context_;
  cl_command_queue queue_;
  cl_command_type type_;
  bool profiling_;
  bool holdsOwners_ = true;  // the internal references to queue_ and context_
  std::atomic<cl_int> status_;
  lockstep::runtime::CommandNode node_;
  std::mutex mutex_;  // the status, callbacks_ and node_'s dependents
  std::condition_variable completed_;
  bool settled_ = false;  // done and every consequence handled: waiters may go
  std::vector<Callback> callbacks_;
};

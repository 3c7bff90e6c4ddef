// The command graph's moves (exec/Scheduler.h): dependents counted down to a
// command's start, its submission to the arena or to a thread at hand, its
// run, and its completion, which starts the commands that waited for it.
#include "exec/Scheduler.h"

#include <algorithm>
#include <string>

#include "Context.h"
#include "Device.h"
#include "Event.h"
#include "Platform.h"
#include "Queue.h"
#include "exec/HandOff.h"

namespace lockstep::runtime {

namespace {

// A thread that runs commands (an arena worker, or a waiter that took over
// its command) continues with a command that becomes ready when one of its
// commands completes, instead of handing it to another thread: in order,
// the next command of the queue starts without a wake-up. Only one is kept;
// others go to the arena as tasks.
thread_local bool tlRunsCommands = false;
thread_local _cl_event *tlContinuation = nullptr;

// The device whose arena task this thread is running (null: an application
// thread). A thread runs another device's command only as a task of that
// device's arena: the commands of a sub-device run on its CPUs only, and an
// application thread, pinned to none, runs none of a sub-device's.
thread_local cl_device_id tlArenaDevice = nullptr;

// The command this thread is running (Scheduler::holdCompletion).
thread_local _cl_event *tlRunning = nullptr;

bool mayRunHere(cl_device_id device) {
  return tlArenaDevice ? device == tlArenaDevice : !device->isSubDevice();
}

}  // namespace

void Scheduler::prepare(_cl_event *event, Command work) { event->node_.work_ = std::move(work); }

bool Scheduler::claim(_cl_event *event) {
  return !event->node_.claimed_.exchange(true, std::memory_order_acq_rel);
}

void Scheduler::runIfWaiting(_cl_event *event) {
  if (!tlRunsCommands && event->status() == CL_SUBMITTED && mayRunHere(event->queue_->device()) &&
      claim(event))
    runClaimed(event, event);
}

void Scheduler::addDependent(_cl_event *event, _cl_event *dependent, bool propagateFailure) {
  CommandNode &node = event->node_;
  {
    std::lock_guard lock(event->mutex_);
    if (!event->done()) {
      // Counted before it is visible to complete(), so the count cannot
      // reach zero early.
      dependent->node_.pending_.fetch_add(1, std::memory_order_relaxed);
      if (node.inlineDependentCount_ < CommandNode::kInlineDependents)
        node.inlineDependents_[node.inlineDependentCount_++] = {dependent, propagateFailure};
      else
        node.moreDependents_.push_back({dependent, propagateFailure});
      return;
    }
  }
  if (propagateFailure && event->status() < 0)
    dependent->node_.dependencyFailed_.store(true, std::memory_order_relaxed);
}

void Scheduler::dependencyDone(_cl_event *event, bool failed, bool runHere) {
  CommandNode &node = event->node_;
  if (failed) node.dependencyFailed_.store(true, std::memory_order_relaxed);
  if (node.pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) submit(event, runHere);
}

void Scheduler::submit(_cl_event *event, bool runHere) {
  CommandNode &node = event->node_;
  // Timestamps only where clGetEventProfilingInfo may read them: reading the
  // clock four times was 5% of a launch.
  if (event->profiling_) event->timeSubmitted = nowNs();
  if (node.dependencyFailed_.load(std::memory_order_relaxed)) {
    event->timeStarted = event->timeEnded = event->timeSubmitted;
    node.work_ = nullptr;
    complete(event, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    return;
  }
  // Who runs the command is settled before it shows as CL_SUBMITTED, which
  // lets a waiter claim it (runIfWaiting): from then on this thread may not
  // touch an event it holds no reference to.
  if (!node.work_ || runHere) {
    // Markers and barriers have nothing to run: no task to pay for.
    claim(event);
    event->setStatus(CL_SUBMITTED);
    run(event);
    return;
  }
  if (tlRunsCommands && !tlContinuation && mayRunHere(event->queue_->device())) {
    // The thread that completed this command's last dependency runs it next.
    claim(event);
    event->setStatus(CL_SUBMITTED);
    tlContinuation = event;
    return;
  }
  // A waiter may take it over before a worker gets to it; the task holds a
  // reference so that it can find out.
  // (A waiter that ran it may also have let the queue go: the device is
  // looked up first.)
  cl_device_id device = event->queue_->device();
  event->retainInternal();
  event->setStatus(CL_SUBMITTED);
  enqueueTask(event, device, false);
}

void Scheduler::enqueueTask(_cl_event *event, cl_device_id device, bool claimed) {
  handOff(event);
  device->arena().enqueue([event, claimed, device] {
    takeOver(event);
    cl_device_id outer = std::exchange(tlArenaDevice, device);
    if (claimed || claim(event)) runClaimed(event, nullptr);
    tlArenaDevice = outer;
    event->releaseInternal();
  });
}

void Scheduler::runClaimed(_cl_event *event, _cl_event *until) {
  bool outer = !tlRunsCommands;
  tlRunsCommands = true;
  _cl_event *next = event;
  while (next) {
    run(next);
    next = std::exchange(tlContinuation, nullptr);
    if (next && until && until->done()) {
      // The waiter's own command is done: it returns, and a worker takes
      // the rest.
      next->retainInternal();
      enqueueTask(next, next->queue_->device(), true);
      next = nullptr;
    }
  }
  tlRunsCommands = !outer;
}

void Scheduler::run(_cl_event *event) {
  CommandNode &node = event->node_;
  if (event->profiling_) event->timeStarted = nowNs();
  event->setStatus(CL_RUNNING);
  cl_int result = CL_SUCCESS;
  if (node.work_) {
    _cl_event *outer = std::exchange(tlRunning, event);
    try {
      result = node.work_();
    } catch (...) {
      result = errorOf(std::current_exception());
    }
    tlRunning = outer;
    node.work_ = nullptr;  // releases what the command captured, before completion
  }
  if (node.held_) {
    // Device-side enqueue: the last of the run and the holds completes it.
    if (event->profiling_) event->timeEnded = nowNs();
    node.heldResult_ = result;
    if (node.holds_.fetch_sub(1, std::memory_order_acq_rel) == 1) finishRun(event, result);
    return;
  }
  finishRun(event, result);
}

_cl_event *Scheduler::holdCompletion() {
  _cl_event *event = tlRunning;
  if (!event) return nullptr;
  CommandNode &node = event->node_;
  if (!node.held_) {
    node.held_ = true;
    node.holds_.store(1, std::memory_order_relaxed);  // the run's own
  }
  node.holds_.fetch_add(1, std::memory_order_relaxed);
  return event;
}

void Scheduler::releaseCompletion(_cl_event *event) {
  CommandNode &node = event->node_;
  if (node.holds_.fetch_sub(1, std::memory_order_acq_rel) == 1) finishRun(event, node.heldResult_);
}

void Scheduler::finishRun(_cl_event *event, cl_int result) {
  CommandNode &node = event->node_;
  if (node.held_) {
    node.held_ = false;
    if (event->profiling_) event->timeCompleted = nowNs();
  }
  if (result != CL_SUCCESS) {
    // Asynchronous errors are what pfn_notify of clCreateContext is for.
    std::string message = "Lockstep: a command failed with error " + std::to_string(result);
    event->context_->notify(message.c_str());
  }
  if (event->profiling_ && !event->timeCompleted) event->timeEnded = nowNs();
  complete(event, result == CL_SUCCESS ? CL_COMPLETE : result);
}

void Scheduler::complete(_cl_event *event, cl_int status) {
  CommandNode &node = event->node_;
  CommandNode::Dependent first[CommandNode::kInlineDependents];
  unsigned firstCount;
  std::vector<CommandNode::Dependent> more;
  std::vector<_cl_event::Callback> callbacks;
  {
    std::lock_guard lock(event->mutex_);
    event->status_.store(status, std::memory_order_release);
    firstCount = std::exchange(node.inlineDependentCount_, 0);
    std::copy_n(node.inlineDependents_, firstCount, first);
    more.swap(node.moreDependents_);
    callbacks.swap(event->callbacks_);
  }
  cl_command_queue queue = event->queue_;
  // A device queue's command lets go of its queue and context before its
  // callbacks, which are the runtime's own: the last child's completes the
  // host launch, whose waiter may then release the context and leave, while
  // this thread still held them (LeakSanitizer saw the context and the
  // default device queue at exit).
  bool onDevice = queue && queue->onDevice();
  if (onDevice) {
    queue->commandDone(event);
    event->releaseOwners();
  }
  event->callSkipped(callbacks, status);
  if (queue && !onDevice) {
    queue->commandDone(event);
    // Before anything can observe that this command is done (a later command
    // completing, a waiter returning): from then on the application's
    // references alone decide when the queue and the context go.
    event->releaseOwners();
  }
  for (unsigned i = 0; i < firstCount; ++i)
    dependencyDone(first[i].event, first[i].propagateFailure && status < 0);
  for (const CommandNode::Dependent &dependent : more)
    dependencyDone(dependent.event, dependent.propagateFailure && status < 0);
  event->settle();
  if (queue) event->releaseInternal();  // the scheduler's reference (Queue::enqueue); may delete it
}

}  // namespace lockstep::runtime

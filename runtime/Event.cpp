#include "Event.h"

#include <algorithm>
#include <string>

#include "Context.h"
#include "Device.h"
#include "Platform.h"
#include "Queue.h"
#include "Recycler.h"
#include "exec/HandOff.h"

using namespace lockstep::runtime;

namespace {

// An event is a valid handle inside its own callbacks (Object::lendHandle).
class CallbackLoan {
 public:
  explicit CallbackLoan(_cl_event *event) : event_(event) { event_->lendHandle(); }
  ~CallbackLoan() { event_->endLoan(); }
  CallbackLoan(const CallbackLoan &) = delete;
  CallbackLoan &operator=(const CallbackLoan &) = delete;

 private:
  _cl_event *event_;
};

// A thread that runs commands (an arena worker, or a waiter that took over
// its command) continues with a command that becomes ready when one of its
// commands completes, instead of handing it to another thread: in order,
// the next command of the queue starts without a wake-up. Only one is kept;
// others go to the arena as tasks.
thread_local bool tlRunsCommands = false;
thread_local _cl_event *tlContinuation = nullptr;

}  // namespace

_cl_event::_cl_event(cl_context context, cl_command_queue queue, cl_command_type type)
    : context_(context),
      queue_(queue),
      type_(type),
      profiling_(queue && queue->profiling()),
      status_(queue ? CL_QUEUED : CL_SUBMITTED) {
  context_->retainInternal();
  if (queue_) queue_->retainInternal();
}

_cl_event::~_cl_event() { releaseOwners(); }

namespace {
using EventStorage = lockstep::runtime::Recycler<void, 256>;
}  // namespace

// Every block in the recycler is sizeof(_cl_event) bytes (the size check
// keeps it so should a derived class ever be allocated through these).
void *_cl_event::operator new(size_t size) {
  if (size == sizeof(_cl_event))
    if (void *memory = EventStorage::instance().take()) return memory;
  return lockstep::runtime::arena::allocate(size);
}

void _cl_event::operator delete(void *memory, size_t size) {
  if (size != sizeof(_cl_event) || !EventStorage::instance().give(memory))
    lockstep::runtime::arena::release(memory, size);
}

void _cl_event::releaseOwners() {
  if (!holdsOwners_) return;
  holdsOwners_ = false;
  if (queue_) queue_->releaseInternal();
  context_->releaseInternal();
}

cl_int _cl_event::wait() {
  // A command that is ready and not started runs here: the caller would
  // only sleep until a worker woke up and ran it. Not inside another
  // command (a callback waiting), which could be the one it waits for.
  if (queue_ && !tlRunsCommands && status() == CL_SUBMITTED && claim()) runClaimed(this);
  std::unique_lock lock(mutex_);
  completed_.wait(lock, [this] { return settled_; });
  return status();
}

void _cl_event::setUserStatus(cl_int status) {
  timeEnded = nowNs();
  {
    // Only the first call may set it (the status is CL_SUBMITTED until then);
    // storing it here, under the lock, makes a concurrent second call fail.
    std::lock_guard lock(mutex_);
    check(status_.load(std::memory_order_relaxed) == CL_SUBMITTED, CL_INVALID_OPERATION);
    status_.store(status, std::memory_order_release);
  }
  finish(status);
}

void _cl_event::addCallback(cl_int callbackType, CallbackFn fn, void *userData) {
  cl_int now;
  {
    std::lock_guard lock(mutex_);
    now = status_.load(std::memory_order_relaxed);
    // Statuses count down: CL_QUEUED 3 ... CL_COMPLETE 0, errors below.
    if (now > callbackType) {
      callbacks_.push_back({callbackType, fn, userData});
      return;
    }
  }
  CallbackLoan loan(this);
  fn(this, now < 0 ? now : callbackType, userData);
}

void _cl_event::addDependent(_cl_event *dependent, bool propagateFailure) {
  {
    std::lock_guard lock(mutex_);
    if (!done()) {
      // Counted before it is visible to finish(), so the count cannot reach
      // zero early.
      dependent->pending_.fetch_add(1, std::memory_order_relaxed);
      if (inlineDependentCount_ < kInlineDependents)
        inlineDependents_[inlineDependentCount_++] = {dependent, propagateFailure};
      else
        moreDependents_.push_back({dependent, propagateFailure});
      return;
    }
  }
  if (propagateFailure && status() < 0)
    dependent->dependencyFailed_.store(true, std::memory_order_relaxed);
}

void _cl_event::dependencyDone(bool failed, bool runHere) {
  if (failed) dependencyFailed_.store(true, std::memory_order_relaxed);
  if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) submit(runHere);
}

void _cl_event::setStatus(cl_int status) {
  std::vector<Callback> due;
  {
    std::lock_guard lock(mutex_);
    status_.store(status, std::memory_order_release);
    for (size_t i = 0; i < callbacks_.size();) {
      if (callbacks_[i].type == status) {
        due.push_back(callbacks_[i]);
        callbacks_.erase(callbacks_.begin() + i);
      } else {
        ++i;
      }
    }
  }
  if (due.empty()) return;
  CallbackLoan loan(this);
  for (const Callback &callback : due) callback.fn(this, status, callback.userData);
}

void _cl_event::submit(bool runHere) {
  // Timestamps only where clGetEventProfilingInfo may read them: reading the
  // clock four times was 5% of a launch.
  if (profiling_) timeSubmitted = nowNs();
  if (dependencyFailed_.load(std::memory_order_relaxed)) {
    timeStarted = timeEnded = timeSubmitted;
    work_ = nullptr;
    finish(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    return;
  }
  // Who runs the command is settled before it shows as CL_SUBMITTED, which
  // lets a waiter claim it (wait()): from then on this thread may not touch
  // an event it holds no reference to.
  if (!work_ || runHere) {
    // Markers and barriers have nothing to run: no task to pay for.
    claim();
    setStatus(CL_SUBMITTED);
    run();
    return;
  }
  if (tlRunsCommands && !tlContinuation) {
    // The thread that completed this command's last dependency runs it next.
    claim();
    setStatus(CL_SUBMITTED);
    tlContinuation = this;
    return;
  }
  // A waiter may take it over before a worker gets to it; the task holds a
  // reference so that it can find out.
  // (A waiter that ran it may also have let the queue go: the device is
  // looked up first.)
  cl_device_id device = queue_->device();
  retainInternal();
  setStatus(CL_SUBMITTED);
  enqueueTask(device, false);
}

void _cl_event::enqueueTask(cl_device_id device, bool claimed) {
  lockstep::runtime::handOff(this);
  device->arena().enqueue([this, claimed] {
    lockstep::runtime::takeOver(this);
    if (claimed || claim()) runClaimed(nullptr);
    releaseInternal();
  });
}

void _cl_event::runClaimed(_cl_event *until) {
  bool outer = !tlRunsCommands;
  tlRunsCommands = true;
  _cl_event *next = this;
  while (next) {
    next->run();
    next = std::exchange(tlContinuation, nullptr);
    if (next && until && until->done()) {
      // The waiter's own command is done: it returns, and a worker takes
      // the rest.
      next->retainInternal();
      next->enqueueTask(next->queue_->device(), true);
      next = nullptr;
    }
  }
  tlRunsCommands = !outer;
}

void _cl_event::run() {
  if (profiling_) timeStarted = nowNs();
  setStatus(CL_RUNNING);
  cl_int result = CL_SUCCESS;
  if (work_) {
    try {
      result = work_();
    } catch (...) {
      result = errorOf(std::current_exception());
    }
    work_ = nullptr;  // releases what the command captured, before completion
  }
  if (result != CL_SUCCESS) {
    // Asynchronous errors are what pfn_notify of clCreateContext is for.
    std::string message = "Lockstep: a command failed with error " + std::to_string(result);
    context_->notify(message.c_str());
  }
  if (profiling_) timeEnded = nowNs();
  finish(result == CL_SUCCESS ? CL_COMPLETE : result);
}

void _cl_event::finish(cl_int status) {
  Dependent first[kInlineDependents];
  unsigned firstCount;
  std::vector<Dependent> more;
  std::vector<Callback> callbacks;
  {
    std::lock_guard lock(mutex_);
    status_.store(status, std::memory_order_release);
    firstCount = std::exchange(inlineDependentCount_, 0);
    std::copy_n(inlineDependents_, firstCount, first);
    more.swap(moreDependents_);
    callbacks.swap(callbacks_);
  }
  // Callbacks of states this event skipped (a user event never runs; a
  // failed command never completes) are called too: with the error if it
  // failed, else as the state they asked for.
  if (!callbacks.empty()) {
    CallbackLoan loan(this);
    for (const Callback &callback : callbacks)
      callback.fn(this, status < 0 ? status : callback.type, callback.userData);
  }
  if (queue_) {
    queue_->commandDone(this);
    // Before anything can observe that this command is done (a later command
    // completing, a waiter returning): from then on the application's
    // references alone decide when the queue and the context go.
    releaseOwners();
  }
  for (unsigned i = 0; i < firstCount; ++i)
    first[i].event->dependencyDone(first[i].propagateFailure && status < 0);
  for (const Dependent &dependent : more)
    dependent.event->dependencyDone(dependent.propagateFailure && status < 0);
  {
    std::lock_guard lock(mutex_);
    settled_ = true;
  }
  completed_.notify_all();
  if (queue_) releaseInternal();  // the scheduler's reference (Queue::enqueue); may delete this
}

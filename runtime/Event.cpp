#include "Event.h"

#include "Context.h"
#include "Platform.h"
#include "Queue.h"
#include "Recycler.h"

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
  if (queue_) Scheduler::runIfWaiting(this);
  std::unique_lock lock(mutex_);
  completed_.wait(lock, [this] { return settled_; });
  return status();
}

bool _cl_event::setUserStatus(cl_int status) {
  timeEnded = nowNs();
  {
    // Only the first call may set it (the status is CL_SUBMITTED until then);
    // storing it here, under the lock, makes a concurrent second call fail.
    std::lock_guard lock(mutex_);
    if (status_.load(std::memory_order_relaxed) != CL_SUBMITTED) return false;
    status_.store(status, std::memory_order_release);
  }
  Scheduler::complete(this, status);
  return true;
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

void _cl_event::callSkipped(const std::vector<Callback> &callbacks, cl_int status) {
  if (callbacks.empty()) return;
  CallbackLoan loan(this);
  for (const Callback &callback : callbacks)
    callback.fn(this, status < 0 ? status : callback.type, callback.userData);
}

void _cl_event::settle() {
  {
    std::lock_guard lock(mutex_);
    settled_ = true;
  }
  completed_.notify_all();
}

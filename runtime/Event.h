// An event: the state of one command (or a user event) and the edges of the
// command graph. A command starts when every event it waits for is complete;
// the event that completes last starts it, so nothing polls and no thread
// waits for a dependency.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "Object.h"

namespace lockstep::runtime {

// The work of a command. Runs once, as a task of the device's arena, when its
// wait list (and, in an in-order queue, the previous command) is complete.
// Returns CL_SUCCESS, or a negative error that becomes the event's status.
// Whatever it captures (Ref<> to buffers, kernels...) is released when it has
// run, before the event turns CL_COMPLETE.
//
// Move-only, like std::move_only_function, and a kernel launch's work (a
// handle of its pending state) is kept inline: no allocation per command.
class Command {
 public:
  Command() = default;
  Command(std::nullptr_t) {}
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, Command> &&
                                                    std::is_invocable_r_v<cl_int, std::decay_t<F> &>>>
  Command(F &&work) {
    using Stored = std::decay_t<F>;
    if constexpr (sizeof(Stored) <= kInlineBytes && alignof(Stored) <= alignof(std::max_align_t) &&
                  std::is_nothrow_move_constructible_v<Stored>) {
      new (storage_) Stored(std::forward<F>(work));
      ops_ = &kInlineOps<Stored>;
    } else {
      *reinterpret_cast<Stored **>(storage_) = new Stored(std::forward<F>(work));
      ops_ = &kHeapOps<Stored>;
    }
  }
  Command(Command &&other) noexcept { take(other); }
  Command &operator=(Command &&other) noexcept {
    if (this != &other) {
      reset();
      take(other);
    }
    return *this;
  }
  Command &operator=(std::nullptr_t) {
    reset();
    return *this;
  }
  ~Command() { reset(); }

  explicit operator bool() const { return ops_ != nullptr; }
  cl_int operator()() { return ops_->call(storage_); }

 private:
  static constexpr size_t kInlineBytes = 48;
  struct Ops {
    cl_int (*call)(void *);
    void (*destroy)(void *);
    void (*move)(void *from, void *to);  // leaves `from` destroyed
  };
  template <typename T>
  static constexpr Ops kInlineOps = {
      [](void *p) -> cl_int { return (*static_cast<T *>(p))(); },
      [](void *p) { static_cast<T *>(p)->~T(); },
      [](void *from, void *to) {
        new (to) T(std::move(*static_cast<T *>(from)));
        static_cast<T *>(from)->~T();
      }};
  template <typename T>
  static constexpr Ops kHeapOps = {
      [](void *p) -> cl_int { return (**static_cast<T **>(p))(); },
      [](void *p) { delete *static_cast<T **>(p); },
      [](void *from, void *to) { *static_cast<T **>(to) = *static_cast<T **>(from); }};

  void reset() {
    if (ops_) std::exchange(ops_, nullptr)->destroy(storage_);
  }
  void take(Command &other) {
    if (!other.ops_) return;
    other.ops_->move(other.storage_, storage_);
    ops_ = std::exchange(other.ops_, nullptr);
  }

  alignas(std::max_align_t) std::byte storage_[kInlineBytes];
  const Ops *ops_ = nullptr;
};

}  // namespace lockstep::runtime

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
  // Runs the command as a task of `device`'s arena, which drops a reference
  // the caller took for it. Unless `claimed`, a waiter may take it over first.
  void enqueueTask(cl_device_id device, bool claimed);
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
  // Most events have one dependent (the next command of an in-order
  // queue): the first ones are kept inline, so adding them allocates nothing.
  static constexpr unsigned kInlineDependents = 2;
  Dependent inlineDependents_[kInlineDependents];
  unsigned inlineDependentCount_ = 0;
  std::vector<Dependent> moreDependents_;
  std::vector<Callback> callbacks_;
};

// The work of a command (exec/Scheduler.h runs it): a move-only callable
// that returns the command's status, stored inline when small, so that a
// kernel launch's command allocates nothing.
#pragma once

#include <CL/cl.h>

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

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

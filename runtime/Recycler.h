// Recycling of the objects every launch creates (its event, its pending
// state). The application's thread allocates them and a worker frees them;
// through malloc that is a lock handed between the two threads on every
// launch (glibc returns a block to the arena of the thread that allocated
// it), which made back-to-back launches swing between two speeds. A free
// list under a spin lock (held for a push or a pop) keeps a few dozen of
// each, so a warm launch allocates nothing.
#pragma once

#include <atomic>
#include <cstddef>
#include <new>
#include <vector>

#include <immintrin.h>

namespace lockstep::runtime {

// Up to `Kept` objects of type T, whose storage outlives the process's static
// destructors (commands may still finish during exit).
template <typename T, size_t Kept>
class Recycler {
 public:
  static Recycler &instance() {
    static Recycler *recycler = new Recycler;  // never destroyed
    return *recycler;
  }

  // A recycled object, or null: the caller makes a new one.
  T *take() {
    Guard guard(lock_);
    if (free_.empty()) return nullptr;
    T *object = free_.back();
    free_.pop_back();
    return object;
  }
  // Keeps `object` for a later take(), or returns false when enough are
  // kept already (the caller frees it).
  bool give(T *object) {
    Guard guard(lock_);
    if (free_.size() == Kept) return false;
    free_.push_back(object);  // capacity reserved: never allocates
    return true;
  }

 private:
  Recycler() { free_.reserve(Kept); }

  struct Guard {
    explicit Guard(std::atomic_flag &flag) : flag(flag) {
      while (flag.test_and_set(std::memory_order_acquire)) _mm_pause();
    }
    ~Guard() { flag.clear(std::memory_order_release); }
    std::atomic_flag &flag;
  };

  std::atomic_flag lock_ = ATOMIC_FLAG_INIT;
  std::vector<T *> free_;
};

}  // namespace lockstep::runtime

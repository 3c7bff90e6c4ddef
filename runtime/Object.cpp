// The object arena (Object.h, arena::): address space reserved once, made
// readable and writable a slab at a time as objects need it, and never
// unmapped, so that any address below the committed end can be read safely;
// freed objects go to a free list of their size and are reused by objects of
// that size. One lock guards allocation and release (objects are created
// far less often than their handles are checked, which takes no lock).
#include "Object.h"

#include <sys/mman.h>

// LeakSanitizer comes with AddressSanitizer (GCC and Clang) or alone.
#if defined(__SANITIZE_ADDRESS__)
#define LOCKSTEP_HAS_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#define LOCKSTEP_HAS_LSAN 1
#endif
#endif
#ifdef LOCKSTEP_HAS_LSAN
#include <sanitizer/lsan_interface.h>
#endif

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace lockstep::runtime::arena {
namespace {

constexpr size_t kAlignment = 16;              // alignas(std::max_align_t) members
constexpr size_t kReserved = size_t(1) << 38;  // 256 GiB of address space, never all used
constexpr size_t kSlab = size_t(1) << 21;      // committed 2 MiB at a time

size_t rounded(size_t bytes) {
  return (std::max<size_t>(bytes, 1) + kAlignment - 1) / kAlignment * kAlignment;
}

class Arena {
 public:
  Arena() {
    void *base =
        mmap(nullptr, kReserved, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) return;
    base_ = static_cast<std::byte *>(base);
    next_ = committed_ = base_;
  }

  void *allocate(size_t bytes) {
    size_t size = rounded(bytes);
    std::lock_guard lock(mutex_);
    if (auto found = free_.find(size); found != free_.end() && !found->second.empty()) {
      void *object = found->second.back();
      found->second.pop_back();
      return object;
    }
    if (!base_ || size > size_t(base_ + kReserved - next_)) throw std::bad_alloc();
    std::byte *end = committed_.load(std::memory_order_relaxed);
    if (next_ + size > end) {
      size_t grow = (next_ + size - end + kSlab - 1) / kSlab * kSlab;
      grow = std::min(grow, size_t(base_ + kReserved - end));
      if (mprotect(end, grow, PROT_READ | PROT_WRITE) != 0) throw std::bad_alloc();
      committed_.store(end + grow, std::memory_order_release);
    }
    void *object = next_;
    next_ += size;
    return object;
  }

  void release(void *object, size_t bytes) noexcept {
    std::lock_guard lock(mutex_);
    try {
      free_[rounded(bytes)].push_back(object);
    } catch (...) {
      // No room to remember it: the block stays unused, still mapped.
    }
  }

  bool contains(const void *object) const noexcept {
    auto *address = static_cast<const std::byte *>(object);
    return address >= base_ && address < committed_.load(std::memory_order_acquire) &&
           (reinterpret_cast<uintptr_t>(address) % kAlignment) == 0;
  }

 private:
  std::byte *base_ = nullptr;
  std::byte *next_ = nullptr;
  std::atomic<std::byte *> committed_{nullptr};
  std::mutex mutex_;
  std::map<size_t, std::vector<void *>> free_;
};

// Built on first use (the platform is created during a first call) and
// never destroyed: objects may outlive static destruction.
Arena &theArena() {
  static Arena *arena = new Arena;
  return *arena;
}

}  // namespace

void *allocate(size_t bytes) { return theArena().allocate(bytes); }
void release(void *object, size_t bytes) noexcept { theArena().release(object, bytes); }
bool contains(const void *object) noexcept { return theArena().contains(object); }

void keepForever(const void *object, size_t bytes) noexcept {
#ifdef LOCKSTEP_HAS_LSAN
  __lsan_register_root_region(object, bytes);
#else
  (void)object;
  (void)bytes;
#endif
}

}  // namespace lockstep::runtime::arena

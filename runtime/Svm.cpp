#include "Svm.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>

#include <sys/mman.h>

#include "Stagger.h"

namespace lockstep::runtime {

namespace {

// Large allocations are aligned to, and asked to be backed by, 2 MiB pages,
// as buffers are (Memory.cpp): kernels stream through them.
constexpr size_t kHugePageBytes = size_t{2} << 20;

}  // namespace

SvmRegistry::~SvmRegistry() {
  for (auto &[base, allocation] : allocations_) std::free(allocation.storage);
}

void *SvmRegistry::allocate(cl_svm_mem_flags flags, size_t size, size_t alignment, UsmInfo usm) {
  size_t align = std::max(alignment, kDefaultAlignment);
  // A large allocation asked for no more than the default alignment starts
  // at the next stagger past its 2 MiB boundary (Stagger.h).
  size_t stagger = size >= kHugePageBytes && align == kDefaultAlignment ? nextStagger() : 0;
  if (size >= kHugePageBytes) align = std::max(align, kHugePageBytes);
  // aligned_alloc wants a multiple of the alignment.
  if (size > SIZE_MAX - (align - 1) - stagger) return nullptr;
  size_t rounded = (size + stagger + align - 1) / align * align;
  auto *storage = static_cast<char *>(std::aligned_alloc(align, rounded));
  if (!storage) return nullptr;
  if (align >= kHugePageBytes) madvise(storage, rounded, MADV_HUGEPAGE);
  char *base = storage + stagger;
  try {
    std::unique_lock lock(mutex_);
    allocations_.emplace(reinterpret_cast<uintptr_t>(base),
                         SvmAllocation{base, storage, size, flags, alignment, usm});
  } catch (...) {
    std::free(storage);
    return nullptr;
  }
  return base;
}

bool SvmRegistry::free(void *base) {
  char *storage = nullptr;
  {
    std::unique_lock lock(mutex_);
    auto it = allocations_.find(reinterpret_cast<uintptr_t>(base));
    if (it == allocations_.end()) return false;
    storage = it->second.storage;
    allocations_.erase(it);
  }
  std::free(storage);
  return true;
}

std::optional<SvmAllocation> SvmRegistry::find(const void *pointer) const {
  auto address = reinterpret_cast<uintptr_t>(pointer);
  std::shared_lock lock(mutex_);
  // The allocation with the greatest base at or below the pointer.
  auto it = allocations_.upper_bound(address);
  if (it == allocations_.begin()) return std::nullopt;
  --it;
  // One past the end is not in it: that address may be the start of other
  // memory (a host vector the allocator placed right behind it).
  if (address - it->first >= it->second.size) return std::nullopt;
  return it->second;
}

bool SvmRegistry::fitsAllocation(const void *pointer, size_t size) const {
  std::optional<SvmAllocation> allocation = find(pointer);
  return !allocation || size <= allocation->bytesFrom(pointer);
}

}  // namespace lockstep::runtime

// The slow half of the atomic combiner (GroupAbi.h, AtomicCombiner): what
// generated code calls when an add's address is not in its entry
// (GlobalAtomicCombiningPass), and the flush the launcher runs at the end of
// each run of groups (runtime/exec/WorkGroupLauncher.cpp).
//
// An entry's key is the address of the integer its adds go to, ORed with 1
// for a 64-bit integer; its value is the sum of the adds held back, modulo
// 2^64, of which a 32-bit integer takes the low half (adds modulo 2^32 are
// the same either way). The window holds the adds to one buffer's first 256
// integers by index. Flushing adds each value to memory with one relaxed
// atomic add: the kernel never reads those integers, so the sum reaching
// memory later and in one step is an order of the same adds that the
// kernel's other work-items could not tell from any other.
#include <cstdint>

#include "lockstep/compiler/GroupAbi.h"

namespace lockstep::compiler {
namespace {

// Misses that took an entry from another address, per run of groups, after
// which the table stops holding adds back: a kernel that adds to more
// addresses than the table has entries (a scatter into a large array, a
// histogram of thousands of bins) would pay a miss on most adds.
constexpr uint64_t kEvictionLimit = 8 * AtomicCombiner::kEntries;

void addToMemory(uint64_t key, uint64_t value) {
  if (key & 1) {
    __atomic_fetch_add(reinterpret_cast<uint64_t *>(key & ~uint64_t{7}), value, __ATOMIC_RELAXED);
  } else {
    __atomic_fetch_add(reinterpret_cast<uint32_t *>(key), static_cast<uint32_t>(value), __ATOMIC_RELAXED);
  }
}

// The table's entries to memory, the window left as it is: a group that
// holds the window's pointer still adds to it until its run ends.
void flushEntries(AtomicCombiner &combiner) {
  for (AtomicCombiner::Entry &entry : combiner.entries)
    if (entry.key != 0) {
      if (entry.value != 0) addToMemory(entry.key, entry.value);
      entry = {};
    }
}

}  // namespace

void atomicCombinerMiss(AtomicCombiner *combiner, uint64_t key, uint64_t delta) {
  if (combiner->bypass) {
    addToMemory(key, delta);
    return;
  }
  AtomicCombiner::Entry &entry = combiner->entries[(key >> 2) % AtomicCombiner::kEntries];
  if (entry.key != 0) {
    addToMemory(entry.key, entry.value);
    entry = {};
    if (++combiner->evictions > kEvictionLimit) {
      flushEntries(*combiner);
      combiner->bypass = true;
      addToMemory(key, delta);
      return;
    }
  }
  entry.key = key;
  entry.value = delta;
}

uint64_t *atomicCombinerWindow(AtomicCombiner *combiner, uint64_t base, uint64_t wide) {
  if (!combiner || combiner->bypass || base == 0) return nullptr;
  if (combiner->windowBase == 0) {
    combiner->windowBase = base;
    combiner->windowWide = wide;
  }
  return combiner->windowBase == base && combiner->windowWide == wide ? combiner->window : nullptr;
}

void flushAtomicCombiner(AtomicCombiner &combiner) {
  flushEntries(combiner);
  if (combiner.windowBase == 0) return;
  uint64_t size = combiner.windowWide ? 8 : 4;
  for (unsigned i = 0; i < AtomicCombiner::kWindowEntries; ++i)
    if (combiner.window[i] != 0) {
      uint64_t address = combiner.windowBase + i * size;
      addToMemory(combiner.windowWide ? address | 1 : address, combiner.window[i]);
      combiner.window[i] = 0;
    }
  combiner.windowBase = 0;
}

}  // namespace lockstep::compiler

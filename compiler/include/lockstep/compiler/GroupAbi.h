// The binary interface between the runtime and compiled work-group functions.
// Generated code reads these structures by field index, so the layout here and
// the GEPs in compiler/lib/WorkGroupFunction.cpp must change together.
#pragma once

#include <cstdint>

namespace lockstep::compiler {

// The most work-items a group may have (CL_DEVICE_MAX_WORK_GROUP_SIZE, and
// each CL_DEVICE_MAX_WORK_ITEM_SIZES): generated code may assume that every
// local id is below it.
constexpr uint64_t kMaxWorkGroupSize = 4096;

// Everything a work-group function needs to know about the NDRange and the
// group it runs. One per call; the runtime fills it per group.
struct GroupInfo {
  uint64_t groupId[3];
  uint64_t localSize[3];          // this group's size (smaller in a remainder group)
  uint64_t enqueuedLocalSize[3];  // the size of every non-remainder group
  uint64_t numGroups[3];
  uint64_t globalSize[3];
  uint64_t globalOffset[3];
  uint32_t workDim;
  // A straight-line kernel's loops store with non-temporal stores when the
  // launch stores at least this many MiB (StreamingStoresPass; the runtime
  // sets half the last-level cache, at least 16 MiB). Below that, ordinary
  // stores leave the data in the cache for whatever reads it next.
  uint32_t streamingStoreMiB;
  // Address ranges that to_local/to_private/get_fence on generic pointers
  // test against: this group's __local memory, the calling thread's stack
  // and its work-item context scratch.
  const void *localMemory;
  uint64_t localMemorySize;
  const void *stackLow;
  const void *stackHigh;
  const void *contextMemory;
  uint64_t contextMemorySize;
  // A uint32_t the runtime sets to nonzero when the launch must stop (it ran
  // past LOCKSTEP_KERNEL_TIMEOUT): loops whose trip count the compiler could
  // not bound poll it (StopPollPass) and leave the group.
  const void *stop;
  // The calling thread's AtomicCombiner for this launch, or null: the
  // launch's global atomic adds go straight to memory (see AtomicCombiner).
  void *atomicCombiner;
};

enum GroupInfoField : unsigned {
  kGroupId = 0,
  kLocalSize = 1,
  kEnqueuedLocalSize = 2,
  kNumGroups = 3,
  kGlobalSize = 4,
  kGlobalOffset = 5,
  kWorkDim = 6,
  kStreamingStoreMiB = 7,
  kLocalMemory = 8,
  kLocalMemorySize = 9,
  kStackLow = 10,
  kStackHigh = 11,
  kContextMemory = 12,
  kContextMemorySize = 13,
  kStop = 14,
  kAtomicCombiner = 15,
};

// Global atomic adds whose results a kernel never uses, to a buffer that it
// touches in no other way, held back per thread and added to memory once
// per run of groups (GlobalAtomicCombiningPass; docs/runtime.md). A direct-
// mapped table: generated code finds an address's entry at
// entries[(address >> 2) % kEntries] and, when its key is the address (ORed
// with 1 for a 64-bit add), adds to its value; otherwise it calls
// atomicCombinerMiss (compiler/lib/AtomicCombinerRuntime.cpp). Generated code reads
// `entries` only, by this layout.
struct AtomicCombiner {
  static constexpr unsigned kEntries = 512;
  struct Entry {
    uint64_t key;   // 0: empty
    uint64_t value; // the adds held back, modulo 2^64 (2^32 for a 32-bit add)
  };
  Entry entries[kEntries];
  // Entries that a miss took from another address; past a limit the table
  // stops holding adds back (too many addresses for it to pay).
  uint64_t evictions;
  bool bypass;
  // The window: the adds to one buffer's first kWindowEntries integers
  // (a histogram's bins indexed by a byte), held back by index, with no key
  // to compare: generated code adds to window[index] the pointer that
  // atomicCombinerWindow returned. 0: no buffer's.
  static constexpr unsigned kWindowEntries = 256;
  uint64_t windowBase;
  uint64_t windowWide;  // 64-bit integers (else 32-bit)
  uint64_t window[kWindowEntries];
};

// A miss in `combiner` for `key` (GroupAbi above): adds the evicted entry's
// value to memory and takes the entry, or adds `delta` to memory at once
// when the table has been bypassed.
void atomicCombinerMiss(AtomicCombiner *combiner, uint64_t key, uint64_t delta);
// The window for the integers at `base` (64-bit ones if `wide`): the
// combiner's window when it is free or already theirs, else null (null for
// a null or bypassed combiner too).
uint64_t *atomicCombinerWindow(AtomicCombiner *combiner, uint64_t base, uint64_t wide);
// Adds every entry and window integer held back to memory, atomically, and
// empties the table and the window (the end of a run of groups).
void flushAtomicCombiner(AtomicCombiner &combiner);

// void wg(const void *args, const GroupInfo *group, void *localMemory,
//         void *workItemContext)
//  - args: the argument block laid out as KernelDescription::arguments says.
//  - localMemory: at least staticLocalMemorySize + the __local argument
//    sizes, 128-byte aligned; reused from group to group on one thread.
//  - workItemContext: contextBytesPerWorkItem * work-items in the group,
//    64-byte aligned; per-thread scratch for values live across barriers.
using WorkGroupFunction = void (*)(const void *args, const GroupInfo *group,
                                   void *localMemory, void *workItemContext);

}  // namespace lockstep::compiler

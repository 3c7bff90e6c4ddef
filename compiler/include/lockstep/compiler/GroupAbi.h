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
};

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

#include "exec/WorkGroupLauncher.h"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <pthread.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <memory>
#include <new>

#include "lockstep/compiler/Compiler.h"
#include "exec/DeviceEnqueue.h"
#include "exec/HandOff.h"

namespace lockstep::runtime {

namespace {

using compiler::GroupInfo;

// A buffer that only grows, so a thread allocates for its first launches and
// then never again on the hot path.
template <size_t Alignment>
class GrowOnlyBuffer {
 public:
  void *reserve(size_t bytes) {
    if (bytes > capacity_ || !data_) {
      // Grow geometrically so a sequence of slightly larger launches does
      // not reallocate each time.
      size_t capacity = std::max({bytes, capacity_ * 2, size_t{4096}});
      data_.reset(static_cast<std::byte *>(::operator new (capacity, std::align_val_t{Alignment})));
      capacity_ = capacity;
    }
    return data_.get();
  }

 private:
  struct Free {
    void operator()(std::byte *p) const { ::operator delete (p, std::align_val_t{Alignment}); }
  };
  std::unique_ptr<std::byte, Free> data_;
  size_t capacity_ = 0;
};

// What one thread lends the work-groups it runs: __local memory, work-item
// context scratch, and the bounds of its stack (for to_private and friends).
// A group never yields to the scheduler, so a thread runs one group at a time
// and one set of buffers per thread suffices.
struct ThreadScratch {
  GrowOnlyBuffer<128> localMemory;   // GroupAbi: __local is 128-byte aligned
  GrowOnlyBuffer<64> contextMemory;  // GroupAbi: context is 64-byte aligned
  // Empty between runs of groups (CombinedRun); made at a thread's first
  // launch that combines atomics.
  std::unique_ptr<compiler::AtomicCombiner> atomicCombiner;
  const void *stackLow = nullptr;
  const void *stackHigh = nullptr;

  ThreadScratch() {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
    void *base = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &base, &size) == 0) {
      stackLow = base;
      stackHigh = static_cast<const std::byte *>(base) + size;
    }
    pthread_attr_destroy(&attr);
  }

  static ThreadScratch &current() {
    thread_local ThreadScratch scratch;
    return scratch;
  }
};

// Whether this thread has the stack a group of the launch needs free.
bool stackFits(const WorkGroupLaunch &launch) {
  const ThreadScratch &scratch = ThreadScratch::current();
  if (scratch.stackLow == nullptr) return true;  // unknown: as before
  auto *here = static_cast<const std::byte *>(__builtin_frame_address(0));
  auto *low = static_cast<const std::byte *>(scratch.stackLow);
  return here > low && uint64_t(here - low) >= launch.frameBytes + launch.stackMarginBytes;
}

// Work-items per chunk below which the per-chunk overhead shows, for a
// kernel whose cost is not known yet.
constexpr uint64_t kMinWorkItemsPerChunk = 4096;
// Chunks per thread, at least, that let the threads balance uneven groups
// when the cost is not known.
constexpr uint64_t kChunksPerThread = 8;
// The smallest chunk, in one thread's time, for a kernel whose cost per
// work-item its last launch measured.
constexpr uint64_t kMinChunkNs = 20'000;
// A thread takes 1/(kGuidedDivisor * threads) of the groups still left.
constexpr uint64_t kGuidedDivisor = 2;

// A launch whose groups should take one thread less than this runs on the
// calling thread: waking a sleeping worker and waiting for its share to come
// back costs tens of microseconds (an empty kernel over a million work-items
// took 5 us on one thread and 25-35 us spread over two cores of a VM).
constexpr uint64_t kInlineWorkNs = 20'000;

using Clock = std::chrono::steady_clock;

uint64_t nanosecondsSince(Clock::time_point start) {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
}

cl_int launchStatus(const WorkGroupLaunch &launch) { return launch.failed ? CL_OUT_OF_RESOURCES : CL_SUCCESS; }

// The fewest groups one thread takes at a time: about kMinChunkNs of work
// when the kernel's cost per work-item is known (picoseconds), else
// kMinWorkItemsPerChunk work-items; never so many that fewer than
// kChunksPerThread chunks per thread would be left to balance.
uint64_t minimumChunk(uint64_t groups, uint64_t itemsPerGroup, unsigned concurrency, uint64_t cost) {
  uint64_t chunk = cost != 0 ? kMinChunkNs * 1000 / std::max<uint64_t>(1, cost * itemsPerGroup)
                             : kMinWorkItemsPerChunk / itemsPerGroup;
  uint64_t balanced = groups / (uint64_t{concurrency} * kChunksPerThread);
  return std::max<uint64_t>(1, std::min(chunk, balanced));
}

// Denormal floats read as and written as zero (MXCSR DAZ and FTZ) while it
// lives, for kernels built with -cl-denorms-are-zero; the thread's own mode
// comes back after.
class DenormalsFlushed {
 public:
  explicit DenormalsFlushed(bool flush) : flush_(flush) {
#if defined(__x86_64__) || defined(__i386__)
    if (flush_) {
      saved_ = _mm_getcsr();
      _mm_setcsr(saved_ | kDenormalsAreZero | kFlushToZero);
    }
#endif
  }
  ~DenormalsFlushed() {
#if defined(__x86_64__) || defined(__i386__)
    if (flush_) _mm_setcsr(saved_);
#endif
  }
  DenormalsFlushed(const DenormalsFlushed &) = delete;
  DenormalsFlushed &operator=(const DenormalsFlushed &) = delete;

 private:
  static constexpr unsigned kDenormalsAreZero = 1u << 6, kFlushToZero = 1u << 15;
  bool flush_;
  unsigned saved_ = 0;
};

// The thread's atomic combiner over one run of groups of a launch that
// combines atomics: what the groups held back reaches memory when the run
// ends, however it ends (before the launch can report itself done). Once a
// table has stopped holding adds back, the run's next groups and the
// launch's later runs get none: their adds go straight to memory, without
// the call a bypassed table's every add makes.
class CombinedRun {
 public:
  CombinedRun(const WorkGroupLaunch &launch, ThreadScratch &scratch) : launch_(launch) {
    if (!launch.combinesAtomics || launch.atomicsBypassed.load(std::memory_order_relaxed)) return;
    if (!scratch.atomicCombiner) scratch.atomicCombiner = std::make_unique<compiler::AtomicCombiner>();
    combiner_ = scratch.atomicCombiner.get();
    combiner_->evictions = 0;
    combiner_->bypass = false;
  }
  ~CombinedRun() {
    if (!combiner_) return;
    if (combiner_->bypass) launch_.atomicsBypassed.store(true, std::memory_order_relaxed);
    compiler::flushAtomicCombiner(*combiner_);
  }
  CombinedRun(const CombinedRun &) = delete;
  CombinedRun &operator=(const CombinedRun &) = delete;
  // The table for the next group, or null.
  compiler::AtomicCombiner *combiner() const { return combiner_ && !combiner_->bypass ? combiner_ : nullptr; }

 private:
  const WorkGroupLaunch &launch_;
  compiler::AtomicCombiner *combiner_ = nullptr;
};

// Runs groups [begin, end) of the flattened group ids (x fastest) on the
// calling thread.
void runGroupRange(const WorkGroupLaunch &launch, uint64_t begin, uint64_t end) {
  if (launch.failed) return;
  if (!stackFits(launch)) {  // a thread with a small stack: refuse, not overflow
    launch.failed = true;
    return;
  }
  DenormalsFlushed denormals(launch.flushDenormals);
  ScopeEntry enqueueScope(launch.enqueueScope);
  const NDRange &range = launch.range;
  ThreadScratch &scratch = ThreadScratch::current();
  uint64_t contextBytes = launch.contextBytesPerWorkItem * range.workItemsPerGroup();

  GroupInfo info{};
  info.workDim = range.workDim;
  info.streamingStoreMiB = launch.streamingStoreMiB;
  info.localMemory = scratch.localMemory.reserve(launch.localMemorySize);
  info.localMemorySize = launch.localMemorySize;
  info.contextMemory = scratch.contextMemory.reserve(contextBytes);
  info.contextMemorySize = contextBytes;
  info.stackLow = scratch.stackLow;
  info.stackHigh = scratch.stackHigh;
  info.stop = &launch.stop;
  CombinedRun combined(launch, scratch);
  info.atomicCombiner = combined.combiner();
  for (int d = 0; d < 3; ++d) {
    info.enqueuedLocalSize[d] = range.localSize[d];
    info.numGroups[d] = range.numGroups[d];
    info.globalSize[d] = range.globalSize[d];
    info.globalOffset[d] = range.globalOffset[d];
  }
  uint64_t planeGroups = range.numGroups[0] * range.numGroups[1];
  info.groupId[2] = begin / planeGroups;
  info.groupId[1] = begin % planeGroups / range.numGroups[0];
  info.groupId[0] = begin % range.numGroups[0];

  void *localMemory = const_cast<void *>(info.localMemory);
  void *contextMemory = const_cast<void *>(info.contextMemory);
  for (uint64_t group = begin; group < end; ++group) {
    // A remainder group (the last one of a dimension that the enqueued local
    // size does not divide) is smaller.
    for (int d = 0; d < 3; ++d)
      info.localSize[d] =
          std::min(range.localSize[d], range.globalSize[d] - info.groupId[d] * range.localSize[d]);
    if (launch.stop.load(std::memory_order_relaxed) != 0) {  // the watchdog stopped the launch
      launch.failed = true;
      return;
    }
    if (!launch.checksFailures && !launch.pollsStop) {
      launch.function(launch.arguments, &info, localMemory, contextMemory);
    } else {
      bool finished = compiler::runCheckedGroup(launch.function, launch.arguments, &info, localMemory, contextMemory);
      // Taken either way: a failure must not stay behind for the thread's
      // next launch.
      if (!compiler::takeKernelFailure().empty() || !finished) {
        launch.failed = true;
        return;
      }
    }
    // Device-side enqueue: the group's WAIT_WORK_GROUP children may start.
    if (launch.enqueueScope) groupEnded();
    if (info.atomicCombiner) info.atomicCombiner = combined.combiner();
    if (++info.groupId[0] == range.numGroups[0]) {
      info.groupId[0] = 0;
      if (++info.groupId[1] == range.numGroups[1]) {
        info.groupId[1] = 0;
        ++info.groupId[2];
      }
    }
  }
#if defined(__x86_64__) || defined(__i386__)
  // Non-temporal stores (StreamingStoresPass) are not ordered with other
  // stores: fenced here, once per run of groups, before the launch reports
  // them done. Only for kernels that may have made them; other kernels have
  // nothing for the fence to order.
  if (launch.fenceStores) _mm_sfence();
#endif
}

}  // namespace

namespace {

struct Offloaded {
  const WorkGroupLaunch *launch;
  tbb::task_arena *arena;
  cl_int status = CL_SUCCESS;
};

void *runOffloaded(void *data) {
  auto *offloaded = static_cast<Offloaded *>(data);
  offloaded->status = runWorkGroups(*offloaded->launch, *offloaded->arena);
  return nullptr;
}

// Runs the launch from a new thread whose stack holds its frame, and waits.
cl_int runOnThreadWithStack(const WorkGroupLaunch &launch, tbb::task_arena &arena) {
  Offloaded offloaded{&launch, &arena};
  size_t stack = (launch.frameBytes + 2 * launch.stackMarginBytes + 4095) / 4096 * 4096;
  pthread_attr_t attributes;
  pthread_t thread;
  bool started = pthread_attr_init(&attributes) == 0 &&
                 pthread_attr_setstacksize(&attributes, stack) == 0 &&
                 pthread_create(&thread, &attributes, runOffloaded, &offloaded) == 0;
  pthread_attr_destroy(&attributes);
  if (!started) return CL_OUT_OF_RESOURCES;
  pthread_join(thread, nullptr);
  return offloaded.status;
}

}  // namespace

cl_int runWorkGroups(const WorkGroupLaunch &launch, tbb::task_arena &arena) {
  uint64_t groups = launch.range.groupCount();
  if (groups == 0) return CL_SUCCESS;
  // A frame larger than this thread's free stack (an application thread's
  // 8 MiB or less): the launch runs from a thread of its own with the stack
  // it needs, and this thread waits for it. (Not through the arena: this
  // thread may be one of its masters, and an arena thread waiting for the
  // arena could wait for itself.)
  if (!stackFits(launch)) return runOnThreadWithStack(launch, arena);
  if (groups == 1) {
    runGroupRange(launch, 0, 1);
    return launchStatus(launch);
  }
  unsigned concurrency = static_cast<unsigned>(arena.max_concurrency());
  uint64_t itemsPerGroup = launch.range.workItemsPerGroup();
  uint64_t cost = launch.workCost ? launch.workCost->load(std::memory_order_relaxed) : 0;
  uint64_t minChunk = minimumChunk(groups, itemsPerGroup, concurrency, cost);
  // The kernel's cost per work-item is measured on every launch: the groups'
  // own time (a thread's, without the wait for workers), per work-item run.
  auto remember = [&](uint64_t busyNs, uint64_t groupsRun) {
    if (launch.workCost && groupsRun != 0)
      launch.workCost->store(std::max<uint64_t>(1, busyNs * 1000 / (groupsRun * itemsPerGroup)),
                             std::memory_order_relaxed);
  };

  // A launch the last one says is small runs here, a sixteenth of the
  // groups (or a minimum chunk) at a time; should it outlast twice the budget
  // (the kernel's work depends on its arguments), the groups left are spread
  // after all.
  uint64_t begin = 0;
  if (cost != 0 && double(cost) * double(itemsPerGroup) * double(groups) < kInlineWorkNs * 1000.0) {
    Clock::time_point start = Clock::now();
    uint64_t busyNs = 0, step = std::max(minChunk, (groups + 15) / 16);
    while (begin < groups && !launch.failed) {
      uint64_t end = std::min(groups, begin + step);
      runGroupRange(launch, begin, end);
      begin = end;
      busyNs = nanosecondsSince(start);
      if (busyNs > 2 * kInlineWorkNs) break;
    }
    remember(busyNs, begin);
    if (begin == groups || launch.failed) return launchStatus(launch);
  }

  // Guided self-scheduling: every thread that joins takes chunks of groups
  // from one shared counter until none are left, each chunk
  // 1/(kGuidedDivisor * threads) of the groups still left, at least
  // minChunk. The first chunks are large (few atomic operations, neighbouring
  // groups on one core), the last ones small, so a thread that joins late or
  // runs slower leaves no long tail. TBB's auto partitioner, which split the
  // range up front, left 16 cores of a VM 52-86% busy on sgemm_tiled when a
  // worker woke milliseconds late; this keeps them 92-99% busy
  // (bench/results/scaling-xeon-16c.md).
  std::atomic<uint64_t> next{begin}, busyNs{0};
  auto takeChunks = [&] {
    takeOver(&launch);
    uint64_t first = next.load(std::memory_order_relaxed), count;
    for (;;) {
      do {
        if (first >= groups) return handOff(&launch);
        uint64_t left = groups - first;
        count = std::min(left, std::max(minChunk, left / (kGuidedDivisor * concurrency)));
      } while (!next.compare_exchange_weak(first, first + count, std::memory_order_relaxed));
      Clock::time_point start = Clock::now();
      runGroupRange(launch, first, first + count);
      busyNs.fetch_add(nanosecondsSince(start), std::memory_order_relaxed);
      first = next.load(std::memory_order_relaxed);
    }
  };
  // One task per thread that could help; a task that starts after the
  // counter ran out returns at once.
  uint64_t tasks = std::min<uint64_t>(concurrency, (groups - begin + minChunk - 1) / minChunk);
  handOff(&launch);
  arena.execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<uint64_t>(0, tasks, 1), [&](const tbb::blocked_range<uint64_t> &) { takeChunks(); },
        tbb::simple_partitioner());
  });
  takeOver(&launch);
  if (begin == 0) remember(busyNs.load(std::memory_order_relaxed), groups);
  return launchStatus(launch);
}

}  // namespace lockstep::runtime

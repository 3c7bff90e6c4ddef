// Pinning arena threads to their device's CPUs (exec/ThreadPinning.h).
#include "exec/ThreadPinning.h"

#include <atomic>
#include <vector>

namespace lockstep::runtime {

namespace {

std::atomic<uint64_t> gNextId{1};

// The arena this thread was last pinned for (0: none, its affinity is
// whatever it was created with: a worker inherits its creator's).
thread_local uint64_t tlPinnedFor = 0;

// An application thread's affinity before it entered an arena, and the arena
// it was pinned for then, one entry per arena it is inside.
struct Saved {
  cpu_set_t cpus;
  bool restore;
  uint64_t pinnedFor;
};
thread_local std::vector<Saved> tlSaved;

}  // namespace

ThreadPinning::ThreadPinning(tbb::task_arena &arena, const std::vector<int> &cpus, bool pinApplicationThreads)
    : tbb::task_scheduler_observer(arena),
      pinApplicationThreads_(pinApplicationThreads),
      id_(gNextId.fetch_add(1, std::memory_order_relaxed)) {
  CPU_ZERO(&cpus_);
  for (int cpu : cpus)
    if (cpu >= 0 && cpu < CPU_SETSIZE) CPU_SET(cpu, &cpus_);
  observe(true);
}

ThreadPinning::~ThreadPinning() { observe(false); }

void ThreadPinning::on_scheduler_entry(bool isWorker) {
  if (!isWorker && !pinApplicationThreads_) return;
  if (!isWorker) {
    Saved saved{};
    saved.pinnedFor = tlPinnedFor;
    saved.restore = sched_getaffinity(0, sizeof saved.cpus, &saved.cpus) == 0;
    tlSaved.push_back(saved);
  }
  if (tlPinnedFor == id_) return;
  // A failure (a CPU taken away from the process since) leaves the thread
  // where it may run: the work still runs, on other CPUs.
  if (sched_setaffinity(0, sizeof cpus_, &cpus_) == 0) tlPinnedFor = id_;
}

void ThreadPinning::on_scheduler_exit(bool isWorker) {
  if (isWorker || !pinApplicationThreads_ || tlSaved.empty()) return;
  Saved saved = tlSaved.back();
  tlSaved.pop_back();
  if (saved.restore && tlPinnedFor != saved.pinnedFor &&
      sched_setaffinity(0, sizeof saved.cpus, &saved.cpus) == 0)
    tlPinnedFor = saved.pinnedFor;
}

}  // namespace lockstep::runtime

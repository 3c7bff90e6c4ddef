// Keeps the threads of a device's arena on the device's CPUs: a TBB
// observer that sets a thread's CPU affinity as it enters the arena.
//
// oneTBB's worker threads are one pool shared by every arena, so a worker
// that served a sub-device (pinned to its few CPUs) may next serve another
// sub-device or the root device. Every device's arena has one of these, the
// root device's too: a worker entering an arena is re-pinned unless the
// last arena it was pinned for is this one (one syscall per change of arena,
// none while a worker stays with one device). An application thread that
// joins a sub-device's arena (task_arena::execute) gets its own affinity
// back on leaving; one that joins the root device's, whose CPUs are all the
// process may use, is left alone (no system call on a launch's path).
#pragma once

#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_scheduler_observer.h>
#include <sched.h>

#include <cstdint>
#include <vector>

namespace lockstep::runtime {

class ThreadPinning : public tbb::task_scheduler_observer {
 public:
  // Starts observing `arena`, whose threads then run on `cpus` only
  // (application threads too, with `pinApplicationThreads`).
  ThreadPinning(tbb::task_arena &arena, const std::vector<int> &cpus, bool pinApplicationThreads);
  ~ThreadPinning() override;

  void on_scheduler_entry(bool isWorker) override;
  void on_scheduler_exit(bool isWorker) override;

 private:
  cpu_set_t cpus_;
  bool pinApplicationThreads_;
  uint64_t id_;  // unique per arena, never reused (addresses are)
};

}  // namespace lockstep::runtime

// The launches running are a list (each entry lives on the stack of the
// thread that runs the launch); one thread, started with the first watched
// launch, looks at it a few times per timeout and stops the launches past
// their deadline. Entries join and leave under the list's mutex, so the
// thread never touches a launch that has ended; a launch costs no system
// call (the thread is not woken for it).
#include "exec/Watchdog.h"

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "exec/WorkGroupLauncher.h"

namespace lockstep::runtime {
namespace {

using Clock = std::chrono::steady_clock;

class Watchdog {
 public:
  explicit Watchdog(double seconds)
      : seconds_(seconds),
        period_(std::chrono::duration_cast<Clock::duration>(
            std::chrono::duration<double>(std::clamp(seconds / 4, 0.01, 1.0)))) {}

  void add(Watched *entry) {
    std::lock_guard lock(mutex_);
    if (!started_) {
      std::thread([this] { run(); }).detach();
      started_ = true;
    }
    entry->next = head_;
    if (head_) head_->previous = entry;
    head_ = entry;
  }
  void remove(Watched *entry) {
    std::lock_guard lock(mutex_);
    if (!entry->launch) return;  // stopped and taken off already
    unlink(entry);
  }

 private:
  void unlink(Watched *entry) {
    if (entry->previous) entry->previous->next = entry->next;
    else head_ = entry->next;
    if (entry->next) entry->next->previous = entry->previous;
    entry->previous = entry->next = nullptr;
    entry->launch = nullptr;
  }
  void run() {
    std::unique_lock lock(mutex_);
    for (;;) {
      idle_.wait_for(lock, period_);
      Clock::time_point now = Clock::now();
      for (Watched *entry = head_; entry;) {
        Watched *next = entry->next;
        if (entry->deadline <= now) {
          std::fprintf(stderr,
                       "Lockstep: kernel '%s' ran longer than LOCKSTEP_KERNEL_TIMEOUT (%g s): stopped; its "
                       "launch ends with CL_OUT_OF_RESOURCES\n",
                       entry->kernel->c_str(), seconds_);
          entry->launch->failed.store(true);
          entry->launch->stop.store(1, std::memory_order_relaxed);
          unlink(entry);
        }
        entry = next;
      }
    }
  }

  double seconds_;
  Clock::duration period_;
  std::mutex mutex_;
  std::condition_variable idle_;  // never notified: the thread wakes each period
  Watched *head_ = nullptr;
  bool started_ = false;
};

// Lives as long as the process (its thread runs to the end); null when
// launches are not watched.
Watchdog *watchdog() {
  static Watchdog *instance = [] {
    double seconds = kernelTimeoutSeconds();
    return seconds > 0 ? new Watchdog(seconds) : nullptr;
  }();
  return instance;
}

}  // namespace

double kernelTimeoutSeconds() {
  static const double seconds = [] {
    const char *text = std::getenv("LOCKSTEP_KERNEL_TIMEOUT");
    if (!text || !*text) return 60.0;
    char *end = nullptr;
    double value = std::strtod(text, &end);
    return end != text && value > 0 ? value : 0.0;
  }();
  return seconds;
}

Watched::Watched(const WorkGroupLaunch &launch, const std::string &kernelName, bool stoppable) {
  Watchdog *dog = stoppable ? watchdog() : nullptr;
  if (!dog) return;
  this->launch = &launch;
  kernel = &kernelName;
  deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                std::chrono::duration<double>(kernelTimeoutSeconds()));
  dog->add(this);
  added_ = true;
}

Watched::~Watched() {
  if (added_) watchdog()->remove(this);
}

}  // namespace lockstep::runtime

// Stops launches that run too long. A kernel stuck in a loop would otherwise
// keep its launch, and every clFinish and clWaitForEvents on it, waiting for
// ever. LOCKSTEP_KERNEL_TIMEOUT (seconds; read at the process's first
// launch; default 60, like a GPU driver's compute watchdog; 0: never) bounds
// the time a launch runs: past it, the watchdog sets the launch's stop word,
// loops that might not end leave their groups (compiler StopPollPass), no
// further group starts, and the launch ends with CL_OUT_OF_RESOURCES with a
// message on stderr.
#pragma once

#include <chrono>
#include <string>

namespace lockstep::runtime {

struct WorkGroupLaunch;

// While it lives, `launch` is watched (if `stoppable`): past the timeout
// its `stop` word is set and it is marked failed. Costs a lock and an
// unlock at each end.
class Watched {
 public:
  Watched(const WorkGroupLaunch &launch, const std::string &kernelName, bool stoppable);
  ~Watched();
  Watched(const Watched &) = delete;
  Watched &operator=(const Watched &) = delete;

  // The list of running launches (Watchdog.cpp), under its mutex.
  Watched *previous = nullptr, *next = nullptr;
  const WorkGroupLaunch *launch = nullptr;
  const std::string *kernel = nullptr;
  std::chrono::steady_clock::time_point deadline;

 private:
  bool added_ = false;
};

// LOCKSTEP_KERNEL_TIMEOUT in seconds (0: none), as read at the first launch.
double kernelTimeoutSeconds();

}  // namespace lockstep::runtime

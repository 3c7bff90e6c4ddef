// The counter behind cl_khr_kernel_clock's clock_read_* builtins
// (builtins/lib/kernel_clock.cl): the host's monotonic clock in nanoseconds.
// CLOCK_MONOTONIC is one clock for every thread of the process, so readings
// taken on any worker thread, in any work-group, never go backwards in real
// time order: a device-scope clock, and so also a work-group and sub-group
// one. Kernels reach it by name through the JIT (Jit.cpp).
#include <chrono>

#include "Internal.h"

namespace lockstep::compiler {

uint64_t kernelClock() {
  static_assert(std::chrono::steady_clock::is_steady);
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

}  // namespace lockstep::compiler

// Where large allocations start past their 2 MiB boundary (buffers and
// images, Memory.cpp; SVM and USM, Svm.cpp).
//
// Large allocations are 2 MiB-aligned (and asked for huge pages), so any two
// would share their addresses' low 21 bits. On Intel's cores a load whose
// address matches an earlier store's in bits 11:0 waits for it (4 KiB
// aliasing): a stencil reading `in[i + 1]` just after storing `out[i]`, both
// arrays 2 MiB-aligned, did so every iteration and ran at half the speed of
// the same loop with its arrays apart (9.4-9.7 against 20-22 GB/s on 2 Xeon
// cores); AMD's cores compare more bits. So each starts at the next of 16
// offsets 4 KiB + 640 bytes apart: two made one after the other start 640
// bytes apart within a 4 KiB page (and on another page). The offsets are
// multiples of 128 bytes (CL_DEVICE_MEM_BASE_ADDR_ALIGN, the SVM default).
#pragma once

#include <atomic>
#include <cstddef>

namespace lockstep::runtime {

inline constexpr size_t kStaggerStep = 4096 + 640;
inline constexpr size_t kStaggerSlots = 16;

// The next allocation's offset past its boundary.
inline size_t nextStagger() {
  static std::atomic<size_t> next{0};
  return next.fetch_add(1, std::memory_order_relaxed) % kStaggerSlots * kStaggerStep;
}

}  // namespace lockstep::runtime

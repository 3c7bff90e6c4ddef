// Shared virtual memory of one context: the allocations clSVMAlloc made,
// by base address, so that any pointer into one (a kernel argument into the
// middle of an allocation, a buffer over it, a range to copy) is resolved to
// its allocation.
//
// A CPU shares the host's address space, so an SVM allocation is ordinary
// host memory: the pointer the host uses is the one kernels use, coarse and
// fine grained alike, and x86's atomics are coherent between the host's
// threads and the threads running kernels. The registry only remembers what
// was allocated, for the queries and checks that need it; memory that the
// application allocated itself (fine-grained system SVM) is just as usable
// and is simply not found here.
//
// Unified shared memory (cl_intel_unified_shared_memory, api/usm.cpp) is the
// same memory: host, device and shared allocations are registered here too,
// with their kind, device and flags, so that SVM commands, kernel argument
// bounds and the USM queries all resolve any of them.
#pragma once

#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <shared_mutex>

namespace lockstep::runtime {

// What a USM allocation records besides its memory (all zero for one of
// clSVMAlloc).
struct UsmInfo {
  // CL_MEM_TYPE_HOST_INTEL, _DEVICE_INTEL or _SHARED_INTEL; 0 for clSVMAlloc.
  cl_unified_shared_memory_type_intel type = 0;
  cl_device_id device = nullptr;  // none for host (and device-less shared)
  cl_mem_alloc_flags_intel flags = 0;
};

// One clSVMAlloc (or USM) allocation.
struct SvmAllocation {
  char *base = nullptr;     // what the application sees
  char *storage = nullptr;  // what was allocated (base may start past it: Stagger.h)
  size_t size = 0;
  cl_svm_mem_flags flags = 0;
  size_t alignment = 0;  // as asked (0: the default)
  UsmInfo usm;

  // Bytes from `pointer` (inside the allocation, or at its end) to the end.
  size_t bytesFrom(const void *pointer) const {
    return size - static_cast<size_t>(static_cast<const char *>(pointer) - base);
  }
};

class SvmRegistry {
 public:
  SvmRegistry() = default;
  SvmRegistry(const SvmRegistry &) = delete;
  SvmRegistry &operator=(const SvmRegistry &) = delete;
  // Frees what the application did not (its context is destroyed).
  ~SvmRegistry();

  // `size` bytes aligned to `alignment` (a power of two up to
  // kMaxAlignment, or 0 for the default, kDefaultAlignment); flags and size
  // are validated by the caller.
  // Null if the memory cannot be had.
  // `usm`: what a USM allocation records (api/usm.cpp).
  void *allocate(cl_svm_mem_flags flags, size_t size, size_t alignment, UsmInfo usm = {});
  // Frees the allocation `base` starts; false (and nothing happens) if no
  // allocation starts there.
  bool free(void *base);
  // The allocation `pointer` lies in, its end included (a pointer one past
  // the last byte belongs to it, with no byte left); none if it lies in no
  // allocation of this registry.
  std::optional<SvmAllocation> find(const void *pointer) const;
  // True if [pointer, pointer + size) lies in one allocation, or in none:
  // false only for a range that starts in an allocation and runs past its
  // end, which no command may touch.
  bool fitsAllocation(const void *pointer, size_t size) const;

  // Alignment 0 means the size of the largest built-in type (long16, 128
  // bytes); every allocation is aligned at least as much, as buffers are
  // (CL_DEVICE_MEM_BASE_ADDR_ALIGN), so a buffer over one is well aligned.
  static constexpr size_t kDefaultAlignment = 128;
  // The largest alignment granted: the spec asks for long16's at most;
  // applications ask for a page, or a 2 MiB huge page. More would reserve
  // that much address space per allocation for nothing.
  static constexpr size_t kMaxAlignment = size_t{2} << 20;

 private:
  mutable std::shared_mutex mutex_;
  std::map<uintptr_t, SvmAllocation> allocations_;  // by base address
};

}  // namespace lockstep::runtime

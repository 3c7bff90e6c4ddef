#include "api/mem_flags.h"

#include <bit>

#include "Object.h"

using lockstep::runtime::check;

namespace lockstep::api {

namespace {

constexpr cl_mem_flags kAccessFlags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_mem_flags kHostPtrFlags =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
constexpr cl_mem_flags kHostAccessFlags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
constexpr cl_mem_flags kKnownFlags =
    kAccessFlags | kHostPtrFlags | kHostAccessFlags | CL_MEM_KERNEL_READ_AND_WRITE;

bool atMostOne(cl_mem_flags flags) { return std::popcount(flags) <= 1; }

}  // namespace

void checkMemFlags(cl_mem_flags flags) {
  check(!(flags & ~kKnownFlags), CL_INVALID_VALUE);
  check(atMostOne(flags & kAccessFlags), CL_INVALID_VALUE);
  check(atMostOne(flags & kHostAccessFlags), CL_INVALID_VALUE);
  check(
      !((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))),
      CL_INVALID_VALUE);
}

cl_mem_flags inheritedMemFlags(cl_mem_flags parentFlags, cl_mem_flags flags) {
  checkMemFlags(flags);
  check(!(flags & kHostPtrFlags), CL_INVALID_VALUE);
  // Access may only narrow: a write-only parent cannot give a readable child...
  if (parentFlags & CL_MEM_WRITE_ONLY)
    check(!(flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY)), CL_INVALID_VALUE);
  if (parentFlags & CL_MEM_READ_ONLY)
    check(!(flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)), CL_INVALID_VALUE);
  // ...and likewise for the host's access.
  if (parentFlags & CL_MEM_HOST_WRITE_ONLY)
    check(!(flags & CL_MEM_HOST_READ_ONLY), CL_INVALID_VALUE);
  if (parentFlags & CL_MEM_HOST_READ_ONLY)
    check(!(flags & CL_MEM_HOST_WRITE_ONLY), CL_INVALID_VALUE);
  if (parentFlags & CL_MEM_HOST_NO_ACCESS)
    check(!(flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)), CL_INVALID_VALUE);
  if (!(flags & kAccessFlags)) flags |= parentFlags & kAccessFlags;
  if (!(flags & kHostAccessFlags)) flags |= parentFlags & kHostAccessFlags;
  return flags | (parentFlags & kHostPtrFlags);
}

cl_mem_flags withDefaultAccess(cl_mem_flags flags) {
  return flags & kAccessFlags ? flags : flags | CL_MEM_READ_WRITE;
}

}  // namespace lockstep::api

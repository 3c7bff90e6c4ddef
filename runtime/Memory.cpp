#include "Memory.h"

#include <cstdlib>
#include <cstring>

#include <sys/mman.h>

#include "Context.h"
#include "Device.h"

using lockstep::runtime::fail;

namespace {
constexpr size_t kHugePageBytes = size_t{2} << 20;
}  // namespace

_cl_mem::_cl_mem(cl_context context, cl_mem_flags flags, size_t size, void *hostPtr,
                 std::vector<cl_mem_properties> properties)
    : context_(context), flags_(flags), size_(size), properties_(std::move(properties)) {
  if (flags & CL_MEM_USE_HOST_PTR) {
    // Zero copy: the application's memory is the buffer.
    data_ = static_cast<char *>(hostPtr);
    hostPtr_ = hostPtr;
  } else {
    // Aligned as CL_DEVICE_MEM_BASE_ADDR_ALIGN promises; the size rounded up
    // as aligned_alloc requires. Large buffers are aligned to, and asked to
    // be backed by, 2 MiB pages (the kernel's default only gives them on
    // request): kernels stream through them, and with 4 KiB pages every
    // 64 cache lines cost a TLB miss.
    size_t align = size >= kHugePageBytes ? kHugePageBytes : _cl_device_id::kMemBaseAddrAlignBytes;
    size_t rounded = (size + align - 1) / align * align;
    data_ = static_cast<char *>(std::aligned_alloc(align, rounded));
    if (!data_) fail(CL_MEM_OBJECT_ALLOCATION_FAILURE);
    if (align == kHugePageBytes) madvise(data_, rounded, MADV_HUGEPAGE);
    ownsData_ = true;
    if (flags & CL_MEM_COPY_HOST_PTR) std::memcpy(data_, hostPtr, size);
  }
  context_->retainInternal();
}

_cl_mem::_cl_mem(_cl_mem *parent, cl_mem_flags flags, size_t origin, size_t size)
    : context_(parent->context_),
      flags_(flags),
      size_(size),
      data_(parent->data_ + origin),
      parent_(parent),
      offset_(origin) {
  // CL_MEM_HOST_PTR of a sub-buffer: host_ptr + origin when the parent has
  // CL_MEM_USE_HOST_PTR.
  if (parent->flags_ & CL_MEM_USE_HOST_PTR)
    hostPtr_ = static_cast<char *>(parent->hostPtr_) + origin;
  parent_->retainInternal();
  context_->retainInternal();
}

_cl_mem::~_cl_mem() {
  // "called in the reverse order they were registered" when the memory object
  // is deleted, before its storage is freed (a USE_HOST_PTR region may be
  // reused by the application once the callback ran).
  for (auto it = destructorCallbacks_.rbegin(); it != destructorCallbacks_.rend(); ++it)
    it->first(this, it->second);
  if (ownsData_) std::free(data_);
  if (parent_) parent_->releaseInternal();
  context_->releaseInternal();
}

void _cl_mem::addDestructorCallback(DestructorFn fn, void *userData) {
  std::lock_guard lock(mutex_);
  destructorCallbacks_.emplace_back(fn, userData);
}

void _cl_mem::addMapping(void *pointer) {
  std::lock_guard lock(mutex_);
  mappings_.push_back(pointer);
}

bool _cl_mem::removeMapping(void *pointer) {
  std::lock_guard lock(mutex_);
  for (auto it = mappings_.begin(); it != mappings_.end(); ++it) {
    if (*it == pointer) {
      mappings_.erase(it);
      return true;
    }
  }
  return false;
}

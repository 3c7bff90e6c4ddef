#include "Memory.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <sys/mman.h>

#include "Context.h"
#include "Device.h"
#include "Stagger.h"
#include "lockstep/compiler/PipeAbi.h"

using lockstep::runtime::fail;
using lockstep::runtime::ImageLayout;

namespace {

constexpr size_t kHugePageBytes = size_t{2} << 20;

// Storage of a buffer or image: aligned as CL_DEVICE_MEM_BASE_ADDR_ALIGN
// promises; the size rounded up as aligned_alloc requires. Large objects are
// aligned to, and asked to be backed by, 2 MiB pages (the kernel's default
// only gives them on request): kernels stream through them, and with 4 KiB
// pages every 64 cache lines cost a TLB miss; they start at the next
// stagger past the boundary (Stagger.h). Returns where the object starts;
// `storage` is what to free.
char *allocateStorage(size_t size, char *&storage) {
  bool large = size >= kHugePageBytes;
  size_t align = large ? kHugePageBytes : _cl_device_id::kMemBaseAddrAlignBytes;
  size_t stagger = large ? lockstep::runtime::nextStagger() : 0;
  size_t rounded = (std::max<size_t>(size, 1) + stagger + align - 1) / align * align;
  storage = static_cast<char *>(std::aligned_alloc(align, rounded));
  if (!storage) fail(CL_MEM_OBJECT_ALLOCATION_FAILURE);
  if (large) madvise(storage, rounded, MADV_HUGEPAGE);
  return storage + stagger;
}

// Bytes an image's storage spans, pitches included (CL_MEM_SIZE): every
// row, slice or layer whole, as the application's memory must be for
// CL_MEM_USE_HOST_PTR.
size_t imageBytes(const ImageLayout &layout) {
  switch (layout.type) {
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    case CL_MEM_OBJECT_IMAGE2D:
      return layout.rowPitch * layout.extent(1);
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    case CL_MEM_OBJECT_IMAGE3D:
      return layout.slicePitch * layout.extent(2);
    default:
      return layout.rowPitch;
  }
}

// What kernels read (ImageAbi.h): a 1D array's layers lie one row apart,
// dimensions an image lacks are 1, the array size of a non-array 0.
lockstep_image_descriptor describe(const ImageLayout &layout, char *data) {
  lockstep_image_descriptor d{};
  d.data = reinterpret_cast<unsigned char *>(data);
  d.rowPitch = layout.rowPitch;
  d.slicePitch = layout.slicePitch ? layout.slicePitch : layout.rowPitch * layout.extent(1);
  d.width = int32_t(layout.width);
  d.height = int32_t(std::max<size_t>(layout.height, 1));
  d.depth = int32_t(std::max<size_t>(layout.depth, 1));
  d.arraySize = int32_t(layout.arraySize);
  d.channelOrder = int32_t(layout.format.image_channel_order);
  d.channelType = int32_t(layout.format.image_channel_data_type);
  d.elementSize = int32_t(layout.elementSize);
  d.channelCount = lockstep::runtime::imageChannelCount(layout.format);
  d.imageType = int32_t(layout.type);
  return d;
}

}  // namespace

_cl_mem::_cl_mem(cl_context context, cl_mem_flags flags, size_t size, void *hostPtr,
                 std::vector<cl_mem_properties> properties)
    : context_(context), flags_(flags), size_(size), properties_(std::move(properties)) {
  if (flags & CL_MEM_USE_HOST_PTR) {
    // Zero copy: the application's memory is the buffer; over an SVM
    // allocation, "the shared memory as the underlying storage".
    data_ = static_cast<char *>(hostPtr);
    hostPtr_ = hostPtr;
    usesSvmPointer_ = context->svm().find(hostPtr).has_value();
  } else {
    data_ = allocateStorage(size, storage_);
    if ((flags & CL_MEM_COPY_HOST_PTR) && hostPtr) std::memcpy(data_, hostPtr, size);
  }
  context_->retainInternal();
}

_cl_mem::_cl_mem(_cl_mem *parent, cl_mem_flags flags, size_t origin, size_t size)
    : context_(parent->context_),
      flags_(flags),
      size_(size),
      data_(parent->data_ + origin),
      parent_(parent),
      offset_(origin),
      usesSvmPointer_(parent->usesSvmPointer_) {
  // CL_MEM_HOST_PTR of a sub-buffer: host_ptr + origin when the parent has
  // CL_MEM_USE_HOST_PTR.
  if (parent->flags_ & CL_MEM_USE_HOST_PTR)
    hostPtr_ = static_cast<char *>(parent->hostPtr_) + origin;
  parent_->retainInternal();
  context_->retainInternal();
}

_cl_mem::_cl_mem(cl_context context, cl_mem_flags flags, const ImageLayout &layout, void *hostPtr,
                 size_t hostRowPitch, size_t hostSlicePitch, _cl_mem *source,
                 std::vector<cl_mem_properties> properties)
    : context_(context),
      flags_(flags),
      size_(imageBytes(layout)),
      properties_(std::move(properties)),
      image_(std::make_unique<ImageLayout>(layout)) {
  if (source) {
    // Another object's bytes, seen as this image; CL_MEM_HOST_PTR follows
    // the storage (the buffer's or image's application memory, if any).
    data_ = source->data_;
    hostPtr_ = source->hostPtr_;
  } else if (flags & CL_MEM_USE_HOST_PTR) {
    data_ = static_cast<char *>(hostPtr);  // zero copy, with the application's pitches
    hostPtr_ = hostPtr;
  } else {
    data_ = allocateStorage(size_, storage_);
    if (flags & CL_MEM_COPY_HOST_PTR)
      copyRowsFrom(static_cast<const char *>(hostPtr), hostRowPitch, hostSlicePitch);
  }
  image_->descriptor = describe(*image_, data_);
  if (source) {
    parent_ = source;
    parent_->retainInternal();
  }
  context_->retainInternal();
}

_cl_mem::_cl_mem(cl_context context, cl_mem_flags flags, PipeShape pipe)
    : _cl_mem(context, flags, lockstep::compiler::pipeStorageBytes(pipe.packetSize, pipe.maxPackets),
              nullptr, {}) {
  pipe_ = pipe;
  lockstep::compiler::initPipe(data_, pipe.packetSize, pipe.maxPackets);
}

void _cl_mem::copyRowsFrom(const char *host, size_t hostRowPitch, size_t hostSlicePitch) {
  const ImageLayout &layout = *image_;
  size_t rowBytes = layout.width * layout.elementSize;
  for (size_t z = 0; z < layout.extent(2); ++z) {
    for (size_t y = 0; y < layout.extent(1); ++y) {
      const size_t origin[3] = {0, y, z};
      std::memcpy(data_ + layout.offsetOf(origin), host + y * hostRowPitch + z * hostSlicePitch,
                  rowBytes);
    }
  }
}

_cl_mem::~_cl_mem() {
  // "called in the reverse order they were registered" when the memory object
  // is deleted, before its storage is freed (a USE_HOST_PTR region may be
  // reused by the application once the callback ran).
  for (auto it = destructorCallbacks_.rbegin(); it != destructorCallbacks_.rend(); ++it)
    it->first(this, it->second);
  std::free(storage_);
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

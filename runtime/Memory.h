// A buffer, sub-buffer, image or pipe: host memory the device reads and
// writes directly. An image is a memory object whose image() describes its
// type, format and geometry (Image.h); a pipe one whose pipe() gives its
// packet size and count, over storage laid out as PipeAbi.h says.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "Image.h"
#include "Object.h"

struct _cl_mem
    : lockstep::runtime::Object<_cl_mem, lockstep::runtime::Tag::Memory, CL_INVALID_MEM_OBJECT> {
  using DestructorFn = void(CL_CALLBACK *)(cl_mem, void *);

  // A buffer: allocates (or, with CL_MEM_USE_HOST_PTR, adopts) its storage;
  // flags are validated by the caller.
  _cl_mem(cl_context context, cl_mem_flags flags, size_t size, void *hostPtr,
          std::vector<cl_mem_properties> properties);
  // A sub-buffer of `parent` (a buffer, not a sub-buffer).
  _cl_mem(_cl_mem *parent, cl_mem_flags flags, size_t origin, size_t size);
  // An image laid out as `layout` says (type, format, sizes and the
  // storage's pitches filled in; the descriptor is filled here). Its storage
  // is `source`'s when given (a 1D buffer image or a 2D image from a buffer:
  // the buffer, CL_MEM_ASSOCIATED_MEMOBJECT; an image from an image: that
  // image), else the host pointer's (CL_MEM_USE_HOST_PTR, whose pitches the
  // layout has), else its own, filled from hostPtr with CL_MEM_COPY_HOST_PTR
  // (hostRowPitch and hostSlicePitch are those of the host memory).
  _cl_mem(cl_context context, cl_mem_flags flags, const lockstep::runtime::ImageLayout &layout,
          void *hostPtr, size_t hostRowPitch, size_t hostSlicePitch, _cl_mem *source,
          std::vector<cl_mem_properties> properties);
  // A pipe of maxPackets packets of packetSize bytes (validated by the
  // caller), empty.
  struct PipeShape {
    uint32_t packetSize;
    uint32_t maxPackets;
    bool emptyProperties;  // created with a properties list (just its 0)
  };
  _cl_mem(cl_context context, cl_mem_flags flags, PipeShape pipe);
  ~_cl_mem();

  cl_context context() const { return context_; }
  cl_mem_object_type type() const {
    return image_ ? image_->type : pipe_ ? CL_MEM_OBJECT_PIPE : CL_MEM_OBJECT_BUFFER;
  }
  // The image's layout, or null for a buffer.
  const lockstep::runtime::ImageLayout *image() const { return image_.get(); }
  // The pipe's packet size and count, or null for another object.
  const PipeShape *pipe() const { return pipe_ ? &*pipe_ : nullptr; }
  cl_mem_flags flags() const { return flags_; }
  size_t size() const { return size_; }
  // Where kernels and copies read and write this buffer (a sub-buffer: the
  // parent's storage + offset). Never changes during the object's life.
  char *address() const { return data_; }
  void *hostPtr() const { return hostPtr_; }   // CL_MEM_HOST_PTR
  _cl_mem *parent() const { return parent_; }  // CL_MEM_ASSOCIATED_MEMOBJECT
  size_t offset() const { return offset_; }    // CL_MEM_OFFSET
  // CL_MEM_USES_SVM_POINTER: a buffer over memory of one of its context's
  // SVM allocations (CL_MEM_USE_HOST_PTR), or a sub-buffer of one.
  bool usesSvmPointer() const { return usesSvmPointer_; }
  const std::vector<cl_mem_properties> &properties() const { return properties_; }

  // Map bookkeeping; maps are zero copy. mapCount (CL_MEM_MAP_COUNT) follows
  // the map/unmap commands as they run; the pointer list is updated at
  // enqueue time, so clEnqueueUnmapMemObject can validate its pointer.
  std::atomic<cl_uint> mapCount{0};
  void addMapping(void *pointer);
  bool removeMapping(void *pointer);  // false if `pointer` is not mapped

  void addDestructorCallback(DestructorFn fn, void *userData);

  // Host-access checks of the enqueue functions (CL_INVALID_OPERATION).
  bool hostCanRead() const { return !(flags_ & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)); }
  bool hostCanWrite() const { return !(flags_ & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)); }

 private:
  cl_context context_;
  cl_mem_flags flags_;
  size_t size_;
  char *data_ = nullptr;
  void *hostPtr_ = nullptr;
  _cl_mem *parent_ = nullptr;  // internal reference
  size_t offset_ = 0;
  char *storage_ = nullptr;  // what allocateStorage allocated, freed with the object (data_ may start past it)
  bool usesSvmPointer_ = false;
  std::vector<cl_mem_properties> properties_;
  std::unique_ptr<lockstep::runtime::ImageLayout> image_;
  std::optional<PipeShape> pipe_;
  std::mutex mutex_;
  std::vector<std::pair<DestructorFn, void *>> destructorCallbacks_;
  std::vector<void *> mappings_;  // one entry per outstanding map

  // CL_MEM_COPY_HOST_PTR of an image: row by row from the host's pitches.
  void copyRowsFrom(const char *host, size_t hostRowPitch, size_t hostSlicePitch);
};

namespace lockstep::runtime {
// The host address of a buffer argument (a kernel launch): the buffer's
// storage, which lives while a Ref<_cl_mem> to it is held.
inline void *hostAddress(cl_mem mem) { return mem->address(); }
}  // namespace lockstep::runtime

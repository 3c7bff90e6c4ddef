// A kernel: one kernel of a built program and the argument values set so
// far. A launch takes a snapshot of the arguments (ArgumentSnapshot), so
// clSetKernelArg after an enqueue does not change what the command runs.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "Memory.h"
#include "Object.h"
#include "Program.h"
#include "lockstep/compiler/Compiler.h"

namespace lockstep::runtime {

// An argument block: 128-byte aligned, the strictest alignment of an
// OpenCL C type (double16), so every slot is aligned as the kernel expects.
class ArgumentBlock {
 public:
  static constexpr size_t kAlignment = 128;

  explicit ArgumentBlock(size_t size);
  ArgumentBlock(const ArgumentBlock &other);
  ArgumentBlock(ArgumentBlock &&) noexcept = default;
  ArgumentBlock &operator=(const ArgumentBlock &) = delete;

  // Becomes a copy of `other`, reusing this block's memory when it is large
  // enough (a recycled launch's block).
  void assign(const ArgumentBlock &other);

  std::byte *data() { return data_.get(); }
  const std::byte *data() const { return data_.get(); }
  size_t size() const { return size_; }

 private:
  struct Free {
    void operator()(std::byte *p) const { ::operator delete (p, std::align_val_t{kAlignment}); }
  };
  std::unique_ptr<std::byte, Free> data_;
  size_t size_;
  size_t capacity_;
};

// The arguments of one launch, owned by its command: the block with buffer
// addresses, image descriptor addresses and __local offsets filled in, and
// the buffers and images it must keep alive.
struct ArgumentSnapshot {
  ArgumentBlock block{0};
  std::vector<Ref<_cl_mem>> buffers;  // images too
  uint64_t localMemorySize = 0;  // static __local + the __local arguments
  // The kernel's combined atomic adds may be held back this launch
  // (KernelDescription::combinedAtomicArguments): no other argument's memory
  // overlaps those arguments' buffers, and none is an SVM pointer.
  bool combinesAtomics = false;
};

}  // namespace lockstep::runtime

struct _cl_kernel
    : lockstep::runtime::Object<_cl_kernel, lockstep::runtime::Tag::Kernel, CL_INVALID_KERNEL> {
  _cl_kernel(cl_program program, std::shared_ptr<const lockstep::compiler::Executable> executable,
             const lockstep::compiler::KernelDescription &description);
  // clCloneKernel: the same kernel with a copy of the arguments set so far.
  struct Clone {};
  _cl_kernel(Clone, const _cl_kernel &source);
  ~_cl_kernel();

  // The application released the kernel: it no longer counts as attached to
  // its program (which may then be rebuilt), though a pending launch may
  // still hold it.
  void onLastExternalRelease() { program_->detachKernel(); }

  cl_program program() const { return program_.get(); }
  cl_context context() const { return program_->context(); }
  const lockstep::compiler::KernelDescription &description() const { return *description_; }
  cl_uint argumentCount() const { return static_cast<cl_uint>(description_->arguments.size()); }
  // Argument `index` (below argumentCount()).
  const lockstep::compiler::KernelArgument &argument(cl_uint index) const {
    return description_->arguments[index];
  }

  // clSetKernelArg, once api/kernel_arguments.cpp has checked the value
  // against the argument's kind: a buffer or image handle (or, for a
  // buffer, none), a sampler, a __local size, or a value's bytes.
  void setArgument(cl_uint index, size_t size, const void *value);
  // clSetKernelArgSVMPointer, once checked: a __global or __constant
  // pointer argument gets `pointer` itself (SVM memory, or any host memory:
  // fine-grained system SVM). `bytes` is what bounds-checked kernels may
  // reach from it (kNoLimit: unknown).
  void setSvmArgument(cl_uint index, const void *pointer, uint64_t bytes);
  static constexpr uint64_t kNoLimit = UINT64_MAX;
  bool allArgumentsSet() const;
  // CL_KERNEL_WORK_GROUP_SIZE: the required size if the kernel has one, else
  // the device's maximum.
  size_t maxWorkGroupSize() const;
  // CL_KERNEL_LOCAL_MEM_SIZE: static __local and the __local arguments set.
  uint64_t localMemorySize() const;
  // A launch's copy of the arguments, into `snapshot` (reusing its memory: a
  // recycled launch's). False, with the snapshot incomplete, if an argument
  // was never set or a buffer or image set has been released since.
  bool snapshotInto(lockstep::runtime::ArgumentSnapshot &snapshot) const;

  // What a work-item of this kernel cost on its last launch, in picoseconds
  // of a thread's time (0: never launched), whichever cl_kernel of the same
  // program build launched it: the launcher runs a launch that should take
  // less than waking a worker on the calling thread
  // (WorkGroupLaunch::workCost).
  std::atomic<uint64_t> &workCost() const { return executable_->workCost(*description_); }
  const lockstep::compiler::Executable &executable() const { return *executable_; }
  std::shared_ptr<const lockstep::compiler::Executable> sharedExecutable() const { return executable_; }

 private:
  // What clSetKernelArg recorded beyond the bytes in the block.
  struct ArgumentState {
    bool set = false;
    // Global/ConstantPointer (null: a null pointer) or Image. Not retained: the
    // spec lets the application release a buffer once it is set (its
    // destructor callback must then run), and using it in a later launch is
    // the application's error, caught by the tag check where possible.
    cl_mem buffer = nullptr;
    uint64_t localSize = 0;  // LocalPointer
    // Global/ConstantPointer set by clSetKernelArgSVMPointer (buffer null):
    // the pointer, and its bytes to the end of its SVM allocation.
    bool svm = false;
    const void *svmPointer = nullptr;
    uint64_t svmBytes = 0;
  };

  // Whether the arguments set let a launch hold back the kernel's combined
  // atomic adds (ArgumentSnapshot::combinesAtomics); called with mutex_ held.
  bool atomicsCombinable() const;
  // Lays the __local arguments out after the static __local variables, each
  // 128-byte aligned; writes their offsets into `block` if given.
  uint64_t layOutLocalMemory(std::byte *block) const;

  lockstep::runtime::Ref<_cl_program> program_;
  std::shared_ptr<const lockstep::compiler::Executable> executable_;
  const lockstep::compiler::KernelDescription *description_;
  mutable std::mutex mutex_;  // clSetKernelArg vs. a concurrent enqueue
  lockstep::runtime::ArgumentBlock arguments_;
  std::vector<ArgumentState> states_;
};

#include "Kernel.h"

#include <algorithm>
#include <cstring>

#include "Device.h"
#include "Sampler.h"

using namespace lockstep;
using compiler::ArgKind;
using runtime::check;
using runtime::fail;

namespace lockstep::runtime {

ArgumentBlock::ArgumentBlock(size_t size)
    // Never a null block, even for a kernel without arguments: the
    // work-group function receives a valid pointer either way.
    : data_(static_cast<std::byte *>(
          ::operator new (std::max<size_t>(size, 1), std::align_val_t{kAlignment}))),
      size_(size),
      capacity_(std::max<size_t>(size, 1)) {
  std::memset(data_.get(), 0, capacity_);
}

void ArgumentBlock::assign(const ArgumentBlock &other) {
  if (other.size_ > capacity_) {
    data_.reset(static_cast<std::byte *>(::operator new (other.size_, std::align_val_t{kAlignment})));
    capacity_ = other.size_;
  }
  size_ = other.size_;
  std::memcpy(data_.get(), other.data_.get(), size_);
}

ArgumentBlock::ArgumentBlock(const ArgumentBlock &other) : ArgumentBlock(other.size_) {
  std::memcpy(data_.get(), other.data_.get(), size_);
}

}  // namespace lockstep::runtime

namespace {

constexpr uint64_t kLocalArgumentAlignment = 128;

uint64_t alignUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

}  // namespace

_cl_kernel::_cl_kernel(cl_program program, std::shared_ptr<const compiler::Executable> executable,
                       const compiler::KernelDescription &description)
    : program_(program),
      executable_(std::move(executable)),
      description_(&description),
      arguments_(description.argumentBlockSize),
      states_(description.arguments.size()) {
  program_->attachKernel();
}

_cl_kernel::_cl_kernel(Clone, const _cl_kernel &source)
    : program_(source.program_),
      executable_(source.executable_),
      description_(source.description_),
      arguments_([&] {
        std::lock_guard lock(source.mutex_);
        return runtime::ArgumentBlock(source.arguments_);
      }()),
      states_([&] {
        std::lock_guard lock(source.mutex_);
        return source.states_;
      }()) {
  program_->attachKernel();
}

_cl_kernel::~_cl_kernel() {
  // Destroyed while the application still counts a reference: only when a
  // creation failed half-way (clCreateKernelsInProgram), so the last external
  // release never came to detach it.
  if (referenceCount() != 0) program_->detachKernel();
}

const compiler::KernelArgument &_cl_kernel::argument(cl_uint index) const {
  // "CL_INVALID_ARG_INDEX if arg_index is not a valid argument index."
  check(index < description_->arguments.size(), CL_INVALID_ARG_INDEX);
  return description_->arguments[index];
}

void _cl_kernel::setArgument(cl_uint index, size_t size, const void *value) {
  switch (argument(index).kind) {
    case ArgKind::GlobalPointer:
    case ArgKind::ConstantPointer:
      return setBuffer(index, size, value);
    case ArgKind::LocalPointer:
      return setLocal(index, size, value);
    case ArgKind::Image:
      return setImage(index, size, value);
    case ArgKind::Sampler:
      return setSampler(index, size, value);
    case ArgKind::Value:
      return setValue(index, size, value);
  }
  fail(CL_INVALID_ARG_INDEX);
}

void _cl_kernel::setBuffer(cl_uint index, size_t size, const void *value) {
  // "CL_INVALID_ARG_SIZE if ... the argument is a memory object and arg_size
  // != sizeof(cl_mem)". Checked first: arg_value points at arg_size bytes.
  check(size == sizeof(cl_mem), CL_INVALID_ARG_SIZE);
  // "the arg_value pointer can be NULL or point to a NULL value in which case
  // a NULL value will be used as the value for the argument declared as a
  // pointer to global or constant memory in the kernel."
  cl_mem mem = value ? *static_cast<const cl_mem *>(value) : nullptr;
  if (mem) {
    // "CL_INVALID_MEM_OBJECT for an argument declared to be a memory object
    // when the specified arg_value is not a valid memory object": a pointer
    // argument takes a buffer, not an image's storage.
    check(
        runtime::isValid(mem) && mem->context() == context() && mem->type() == CL_MEM_OBJECT_BUFFER,
        CL_INVALID_MEM_OBJECT);
  }
  std::lock_guard lock(mutex_);
  states_[index].buffer = mem;
  states_[index].set = true;
}

void _cl_kernel::setImage(cl_uint index, size_t size, const void *value) {
  const compiler::KernelArgument &arg = description_->arguments[index];
  // "CL_INVALID_ARG_SIZE if ... the argument is a memory object and arg_size
  // != sizeof(cl_mem)"; an image argument has no NULL value.
  check(size == sizeof(cl_mem), CL_INVALID_ARG_SIZE);
  check(value != nullptr, CL_INVALID_ARG_VALUE);
  cl_mem mem = *static_cast<const cl_mem *>(value);
  // "CL_INVALID_MEM_OBJECT for an argument declared to be a memory object
  // when the specified arg_value is not a valid memory object" (an image).
  check(runtime::isValid(mem) && mem->image() && mem->context() == context(),
        CL_INVALID_MEM_OBJECT);
  // An image of another type than declared (image2d_depth_t is declared
  // as CL_MEM_OBJECT_IMAGE2D) is no valid value.
  check(mem->type() == arg.imageType, CL_INVALID_ARG_VALUE);
  // "CL_INVALID_ARG_VALUE if the argument is an image declared with the
  // read_only qualifier and arg_value refers to an image object created
  // with cl_mem_flags of CL_MEM_WRITE_ONLY or if the image argument is
  // declared with the write_only qualifier and arg_value refers to an image
  // object created with cl_mem_flags of CL_MEM_READ_ONLY."
  if (arg.accessQualifier == CL_KERNEL_ARG_ACCESS_READ_ONLY)
    check(!(mem->flags() & CL_MEM_WRITE_ONLY), CL_INVALID_ARG_VALUE);
  if (arg.accessQualifier == CL_KERNEL_ARG_ACCESS_WRITE_ONLY)
    check(!(mem->flags() & CL_MEM_READ_ONLY), CL_INVALID_ARG_VALUE);
  std::lock_guard lock(mutex_);
  states_[index].buffer = mem;
  states_[index].set = true;
}

void _cl_kernel::setSampler(cl_uint index, size_t size, const void *value) {
  // "CL_INVALID_ARG_SIZE if ... the argument is a sampler and arg_size
  // != sizeof(cl_sampler)": before the value is read as one.
  check(size == sizeof(cl_sampler), CL_INVALID_ARG_SIZE);
  // "CL_INVALID_SAMPLER for an argument declared to be of type sampler_t
  // when the specified arg_value is not a valid sampler object" (a NULL
  // arg_value too, as the Khronos CTS expects).
  check(value != nullptr, CL_INVALID_SAMPLER);
  cl_sampler sampler = *static_cast<const cl_sampler *>(value);
  check(runtime::isValid(sampler), CL_INVALID_SAMPLER);
  // The kernel reads the sampler's bits (ImageAbi.h), which never change:
  // the object itself need not live on.
  uint32_t bits = sampler->bits();
  std::lock_guard lock(mutex_);
  std::memcpy(arguments_.data() + description_->arguments[index].offset, &bits, sizeof bits);
  states_[index].set = true;
}

void _cl_kernel::setLocal(cl_uint index, size_t size, const void *value) {
  // "CL_INVALID_ARG_VALUE if ... arg_value is not NULL for an argument
  // declared with the __local qualifier."
  check(value == nullptr, CL_INVALID_ARG_VALUE);
  // "CL_INVALID_ARG_SIZE if arg_size is zero and the argument is declared
  // with the local qualifier."
  check(size != 0, CL_INVALID_ARG_SIZE);
  std::lock_guard lock(mutex_);
  states_[index].localSize = size;
  states_[index].set = true;
}

void _cl_kernel::setValue(cl_uint index, size_t size, const void *value) {
  const compiler::KernelArgument &arg = description_->arguments[index];
  // "CL_INVALID_ARG_VALUE if arg_value specified is not a valid value."
  check(value != nullptr, CL_INVALID_ARG_VALUE);
  // "CL_INVALID_ARG_SIZE if arg_size does not match the size of the data
  // type for an argument that is not a memory object". The compiler's size is
  // the allocation size, so a 3-component vector takes 4 components.
  check(size == arg.size, CL_INVALID_ARG_SIZE);
  std::lock_guard lock(mutex_);
  std::memcpy(arguments_.data() + arg.offset, value, size);
  states_[index].set = true;
}

size_t _cl_kernel::maxWorkGroupSize() const {
  const uint32_t *required = description_->requiredWorkGroupSize;
  if (required[0] != 0) return size_t{required[0]} * required[1] * required[2];
  return _cl_device_id::kMaxWorkGroupSize;
}

bool _cl_kernel::allArgumentsSet() const {
  std::lock_guard lock(mutex_);
  for (const ArgumentState &state : states_)
    if (!state.set) return false;
  return true;
}

uint64_t _cl_kernel::layOutLocalMemory(std::byte *block) const {
  uint64_t end = description_->staticLocalMemorySize;
  for (size_t i = 0; i < states_.size(); ++i) {
    const compiler::KernelArgument &arg = description_->arguments[i];
    if (arg.kind != ArgKind::LocalPointer) continue;
    uint64_t offset = alignUp(end, kLocalArgumentAlignment);
    // GroupAbi: a __local argument's slot holds its byte offset into the
    // group's local memory.
    if (block) std::memcpy(block + arg.offset, &offset, sizeof offset);
    end = offset + states_[i].localSize;
  }
  return end;
}

uint64_t _cl_kernel::localMemorySize() const {
  std::lock_guard lock(mutex_);
  return layOutLocalMemory(nullptr);
}

void _cl_kernel::snapshotInto(runtime::ArgumentSnapshot &snapshot) const {
  std::lock_guard lock(mutex_);
  snapshot.block.assign(arguments_);
  snapshot.buffers.clear();
  for (size_t i = 0; i < states_.size(); ++i) {
    const ArgumentState &state = states_[i];
    // "CL_INVALID_KERNEL_ARGS if the kernel argument values have not been
    // specified."
    check(state.set, CL_INVALID_KERNEL_ARGS);
    const compiler::KernelArgument &arg = description_->arguments[i];
    // Bounds-checked kernels read each buffer's and __local argument's size.
    if (description_->argumentSizesOffset != 0) {
      uint64_t bytes = arg.kind == ArgKind::LocalPointer ? state.localSize
                       : (arg.kind == ArgKind::GlobalPointer || arg.kind == ArgKind::ConstantPointer) &&
                               state.buffer && runtime::isValid(state.buffer)
                           ? state.buffer->size()
                           : 0;
      std::memcpy(snapshot.block.data() + description_->argumentSizesOffset + i * sizeof(uint64_t), &bytes,
                  sizeof bytes);
    }
    bool image = arg.kind == ArgKind::Image;
    if (arg.kind != ArgKind::GlobalPointer && arg.kind != ArgKind::ConstantPointer && !image)
      continue;
    const void *address = nullptr;
    if (state.buffer) {
      // A buffer or image the application released since clSetKernelArg is
      // no valid argument value any more.
      check(runtime::isValid(state.buffer) && state.buffer->referenceCount() != 0,
            CL_INVALID_KERNEL_ARGS);
      // ImageAbi.h: an image's slot holds the address of its descriptor.
      address = image ? static_cast<const void *>(&state.buffer->image()->descriptor)
                      : runtime::hostAddress(state.buffer);
      snapshot.buffers.emplace_back(state.buffer);
    }
    std::memcpy(snapshot.block.data() + arg.offset, &address, sizeof address);
  }
  snapshot.localMemorySize = layOutLocalMemory(snapshot.block.data());
}

#include "Kernel.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "Device.h"
#include "Sampler.h"

using namespace lockstep;
using compiler::ArgKind;

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

void _cl_kernel::setArgument(cl_uint index, size_t size, const void *value) {
  const compiler::KernelArgument &arg = description_->arguments[index];
  std::lock_guard lock(mutex_);
  ArgumentState &state = states_[index];
  switch (arg.kind) {
    case ArgKind::GlobalPointer:
    case ArgKind::ConstantPointer:
      // A NULL arg_value, or one that points at NULL, is a NULL pointer.
      state.buffer = value ? *static_cast<const cl_mem *>(value) : nullptr;
      state.svm = false;
      break;
    case ArgKind::Image:
    case ArgKind::Pipe:
      state.buffer = *static_cast<const cl_mem *>(value);
      break;
    case ArgKind::Sampler: {
      // The kernel reads the sampler's bits (ImageAbi.h), which never
      // change: the object itself need not live on.
      uint32_t bits = (*static_cast<const cl_sampler *>(value))->bits();
      std::memcpy(arguments_.data() + arg.offset, &bits, sizeof bits);
      break;
    }
    case ArgKind::LocalPointer:
      state.localSize = size;
      break;
    case ArgKind::Value:
      std::memcpy(arguments_.data() + arg.offset, value, size);
      break;
  }
  state.set = true;
}

void _cl_kernel::setSvmArgument(cl_uint index, const void *pointer, uint64_t bytes) {
  std::lock_guard lock(mutex_);
  ArgumentState &state = states_[index];
  state.buffer = nullptr;
  state.svm = true;
  state.svmPointer = pointer;
  state.svmBytes = pointer ? bytes : 0;  // NULL: as a NULL buffer
  state.set = true;
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

bool _cl_kernel::snapshotInto(runtime::ArgumentSnapshot &snapshot) const {
  std::lock_guard lock(mutex_);
  snapshot.block.assign(arguments_);
  snapshot.buffers.clear();
  snapshot.localMemorySize = 0;
  for (size_t i = 0; i < states_.size(); ++i) {
    const ArgumentState &state = states_[i];
    if (!state.set) return false;
    const compiler::KernelArgument &arg = description_->arguments[i];
    // Bounds-checked kernels read each buffer's and __local argument's size
    // (an SVM pointer's: its bytes to the end of its allocation).
    if (description_->argumentSizesOffset != 0) {
      uint64_t bytes = arg.kind == ArgKind::LocalPointer ? state.localSize
                       : state.svm                        ? state.svmBytes
                       : (arg.kind == ArgKind::GlobalPointer || arg.kind == ArgKind::ConstantPointer) &&
                               state.buffer && runtime::isValid(state.buffer)
                           ? state.buffer->size()
                           : 0;
      std::memcpy(snapshot.block.data() + description_->argumentSizesOffset + i * sizeof(uint64_t), &bytes,
                  sizeof bytes);
    }
    bool image = arg.kind == ArgKind::Image;
    // A pipe's slot holds the address of its storage (PipeAbi.h), as a
    // buffer's does.
    if (arg.kind != ArgKind::GlobalPointer && arg.kind != ArgKind::ConstantPointer && !image &&
        arg.kind != ArgKind::Pipe)
      continue;
    const void *address = nullptr;
    if (state.svm) {
      // An SVM pointer is the memory itself; nothing to keep alive (the
      // application frees it only after the commands using it).
      address = state.svmPointer;
    } else if (state.buffer) {
      // A buffer or image the application released since clSetKernelArg is
      // no valid argument value any more.
      if (!runtime::isValid(state.buffer) || state.buffer->referenceCount() == 0) return false;
      // ImageAbi.h: an image's slot holds the address of its descriptor.
      address = image ? static_cast<const void *>(&state.buffer->image()->descriptor)
                      : runtime::hostAddress(state.buffer);
      snapshot.buffers.emplace_back(state.buffer);
    }
    std::memcpy(snapshot.block.data() + arg.offset, &address, sizeof address);
  }
  snapshot.localMemorySize = layOutLocalMemory(snapshot.block.data());
  snapshot.combinesAtomics = atomicsCombinable();
  return true;
}

bool _cl_kernel::atomicsCombinable() const {
  const std::vector<uint32_t> &combined = description_->combinedAtomicArguments;
  // A kernel that enqueues kernels: its children may read the buffer before
  // the launch's held-back adds reach it.
  if (combined.empty() || description_->enqueuesKernels) return false;
  // The storage an argument's kernel code may reach, [first, last).
  struct Range {
    uintptr_t first, last;
  };
  auto rangeOf = [&](size_t i) -> std::optional<Range> {
    const ArgumentState &state = states_[i];
    ArgKind kind = description_->arguments[i].kind;
    if (kind != ArgKind::GlobalPointer && kind != ArgKind::ConstantPointer && kind != ArgKind::Image) return Range{};
    if (state.svm) return std::nullopt;  // SVM: the host and other kernels may share it
    if (!state.buffer) return Range{};  // a null pointer reaches nothing
    // (snapshotInto has checked that the buffer is valid.) A buffer over
    // SVM memory: as SVM.
    if (state.buffer->usesSvmPointer()) return std::nullopt;
    auto first = reinterpret_cast<uintptr_t>(state.buffer->address());
    return Range{first, first + state.buffer->size()};
  };
  for (uint32_t i : combined) {
    std::optional<Range> mine = rangeOf(i);
    if (!mine || mine->first == mine->last) return false;
    for (size_t j = 0; j < states_.size(); ++j) {
      if (j == i) continue;
      std::optional<Range> other = rangeOf(j);
      if (!other) return false;
      if (other->first < mine->last && mine->first < other->last) return false;
    }
  }
  return true;
}

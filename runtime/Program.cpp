#include "Program.h"

#include <algorithm>
#include <cstring>

namespace lockstep::runtime {

cl_program_binary_type binaryTypeOf(compiler::BinaryKind kind) {
  switch (kind) {
    case compiler::BinaryKind::CompiledObject:
      return CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
    case compiler::BinaryKind::Library:
      return CL_PROGRAM_BINARY_TYPE_LIBRARY;
    case compiler::BinaryKind::Executable:
      return CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    case compiler::BinaryKind::None:
      break;
  }
  return CL_PROGRAM_BINARY_TYPE_NONE;
}

}  // namespace lockstep::runtime

using namespace lockstep;
using runtime::fail;

_cl_program::_cl_program(cl_context context, std::vector<cl_device_id> devices, Origin origin,
                         std::string source)
    : context_(context), devices_(std::move(devices)), origin_(origin), source_(std::move(source)) {
  builds_.resize(devices_.size());
  for (size_t i = 0; i < devices_.size(); ++i) builds_[i].device = devices_[i];
}

_cl_program::_cl_program(cl_context context, std::vector<cl_device_id> devices, std::vector<uint8_t> il,
                         compiler::IntermediateLanguage info)
    : _cl_program(context, std::move(devices), Origin::IL, "") {
  il_ = std::move(il);
  ilInfo_ = std::move(info);
}

_cl_program::~_cl_program() = default;

void _cl_program::setSpecConstant(cl_uint id, size_t size, const void *value) {
  auto declared = std::find_if(ilInfo_.specConstants.begin(), ilInfo_.specConstants.end(),
                               [&](const compiler::SpecConstant &constant) { return constant.id == id; });
  // "CL_INVALID_SPEC_ID if spec_id is not a valid specialization constant
  // identifier."
  if (declared == ilInfo_.specConstants.end()) fail(CL_INVALID_SPEC_ID);
  // "CL_INVALID_VALUE if spec_size does not match the size of the
  // specialization constant in the module, or if spec_value is NULL."
  if (size != declared->size || value == nullptr) fail(CL_INVALID_VALUE);
  uint64_t bits = 0;
  std::memcpy(&bits, value, size);  // little-endian: the low bytes
  std::lock_guard lock(mutex_);
  for (compiler::SpecValue &set : specValues_)
    if (set.id == id) {
      set.bits = bits;
      return;
    }
  specValues_.push_back({id, bits});
}

bool _cl_program::hasDevice(cl_device_id device) const {
  return std::find(devices_.begin(), devices_.end(), device) != devices_.end();
}

_cl_program::DeviceBuild &_cl_program::buildOfLocked(cl_device_id device) {
  for (DeviceBuild &build : builds_)
    if (build.device == device) return build;
  fail(CL_INVALID_DEVICE);
}

_cl_program::DeviceBuild _cl_program::buildOf(cl_device_id device) const {
  std::lock_guard lock(mutex_);
  return const_cast<_cl_program *>(this)->buildOfLocked(device);
}

std::shared_ptr<const compiler::Executable> _cl_program::anyExecutable() const {
  std::lock_guard lock(mutex_);
  for (const DeviceBuild &build : builds_)
    if (build.executable) return build.executable;
  return nullptr;
}

void _cl_program::loadBinary(cl_device_id device, std::vector<uint8_t> binary,
                             compiler::BinaryKind kind) {
  std::lock_guard lock(mutex_);
  DeviceBuild &build = buildOfLocked(device);
  build.binary = std::move(binary);
  build.binaryType = runtime::binaryTypeOf(kind);
}

std::vector<compiler::SpecValue> _cl_program::specValuesNow() const {
  std::lock_guard lock(mutex_);
  return specValues_;
}

void _cl_program::beginOperation(std::span<const cl_device_id> devices) {
  std::lock_guard lock(mutex_);
  // "CL_INVALID_OPERATION if the build of a program executable for any of
  // the devices listed in device_list by a previous call ... has not
  // completed."
  for (cl_device_id device : devices)
    if (buildOfLocked(device).status == CL_BUILD_IN_PROGRESS) fail(CL_INVALID_OPERATION);
  // "CL_INVALID_OPERATION if there are kernel objects attached to program."
  if (attachedKernels() != 0) fail(CL_INVALID_OPERATION);
  for (cl_device_id device : devices) buildOfLocked(device).status = CL_BUILD_IN_PROGRESS;
}

void _cl_program::abandonOperation(std::span<const cl_device_id> devices) {
  std::lock_guard lock(mutex_);
  for (cl_device_id device : devices) {
    DeviceBuild &build = buildOfLocked(device);
    if (build.status == CL_BUILD_IN_PROGRESS) build.status = CL_BUILD_ERROR;
  }
}

cl_int _cl_program::finishOperation(cl_device_id device, const std::string &options,
                                    compiler::Result result, cl_int failure, cl_int invalidOptions) {
  std::lock_guard lock(mutex_);
  DeviceBuild &build = buildOfLocked(device);
  build.options = options;
  build.log = std::move(result.log);
  build.executable.reset();
  build.kernelNames.clear();
  if (!result.ok()) {
    build.status = CL_BUILD_ERROR;
    // A program created from a binary keeps it, so a later build can retry.
    if (origin_ != Origin::Binary) {
      build.binary.clear();
      build.binaryType = CL_PROGRAM_BINARY_TYPE_NONE;
    }
    switch (result.status) {
      case compiler::Status::InvalidOptions:
        return invalidOptions;
      case compiler::Status::InvalidBinary:
        return CL_INVALID_BINARY;
      default:
        return failure;
    }
  }
  build.status = CL_BUILD_SUCCESS;
  build.binaryType = runtime::binaryTypeOf(result.kind);
  build.binary = std::move(result.binary);
  build.executable = std::move(result.executable);
  build.kernelNames = std::move(result.kernelNames);
  return CL_SUCCESS;
}

cl_int _cl_program::build(std::span<const cl_device_id> devices, const std::string &options) {
  beginOperation(devices);
  cl_int status = CL_SUCCESS;
  try {
    compiler::Compiler &compiler = compiler::Compiler::instance();
    for (cl_device_id device : devices) {
      compiler::Result result;
      if (origin_ == Origin::Source) {
        result = compiler.build(source_, options);
      } else if (origin_ == Origin::IL) {
        result = compiler.buildIL(il_, specValuesNow(), options);
      } else {
        std::vector<uint8_t> binary = buildOf(device).binary;
        result = compiler.buildFromBinary(binary, options);
      }
      cl_int deviceStatus = finishOperation(device, options, std::move(result), CL_BUILD_PROGRAM_FAILURE,
                                            CL_INVALID_BUILD_OPTIONS);
      if (status == CL_SUCCESS) status = deviceStatus;
    }
  } catch (...) {
    abandonOperation(devices);
    throw;
  }
  return status;
}

cl_int _cl_program::compile(std::span<const cl_device_id> devices, const std::string &options,
                            std::span<const compiler::Header> headers) {
  beginOperation(devices);
  cl_int status = CL_SUCCESS;
  try {
    compiler::Compiler &compiler = compiler::Compiler::instance();
    for (cl_device_id device : devices) {
      // An IL program's input headers have nothing to be included by.
      compiler::Result result = origin_ == Origin::IL ? compiler.compileIL(il_, specValuesNow(), options)
                                                      : compiler.compile(source_, options, headers);
      cl_int deviceStatus = finishOperation(device, options, std::move(result), CL_COMPILE_PROGRAM_FAILURE,
                                            CL_INVALID_COMPILER_OPTIONS);
      if (status == CL_SUCCESS) status = deviceStatus;
    }
  } catch (...) {
    abandonOperation(devices);
    throw;
  }
  return status;
}

cl_int _cl_program::link(std::span<const cl_device_id> devices, const std::string &options,
                         std::span<const cl_program> inputs) {
  beginOperation(devices);
  cl_int status = CL_SUCCESS;
  try {
    compiler::Compiler &compiler = compiler::Compiler::instance();
    for (cl_device_id device : devices) {
      // Each input's binary for this device; the caller checked they exist.
      std::vector<DeviceBuild> inputBuilds;
      std::vector<std::span<const uint8_t>> binaries;
      inputBuilds.reserve(inputs.size());
      for (cl_program input : inputs) {
        inputBuilds.push_back(input->buildOf(device));
        binaries.emplace_back(inputBuilds.back().binary);
      }
      cl_int deviceStatus = finishOperation(device, options, compiler.link(binaries, options),
                                            CL_LINK_PROGRAM_FAILURE, CL_INVALID_LINKER_OPTIONS);
      if (status == CL_SUCCESS) status = deviceStatus;
    }
  } catch (...) {
    abandonOperation(devices);
    throw;
  }
  return status;
}

// A program: its source, SPIR-V or binary, and per device the state of its last
// build, compile or link (status, options, log, binary, and the JIT-compiled
// executable whose kernels clCreateKernel hands out).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "Context.h"
#include "Object.h"
#include "lockstep/compiler/Compiler.h"

struct _cl_program
    : lockstep::runtime::Object<_cl_program, lockstep::runtime::Tag::Program, CL_INVALID_PROGRAM> {
  using NotifyFn = void(CL_CALLBACK *)(cl_program, void *);

  // How the program was created decides what clBuildProgram and
  // clCompileProgram may do with it.
  enum class Origin : uint8_t { Source, IL, Binary, Linked };

  // The program on one of its devices.
  struct DeviceBuild {
    cl_device_id device = nullptr;
    cl_build_status status = CL_BUILD_NONE;
    cl_program_binary_type binaryType = CL_PROGRAM_BINARY_TYPE_NONE;
    std::string options;
    std::string log;
    std::vector<uint8_t> binary;
    std::shared_ptr<const lockstep::compiler::Executable> executable;
    std::vector<std::string> kernelNames;
  };

  _cl_program(cl_context context, std::vector<cl_device_id> devices, Origin origin,
              std::string source);
  // From SPIR-V that Compiler::inspectIL accepted.
  _cl_program(cl_context context, std::vector<cl_device_id> devices, std::vector<uint8_t> il,
              lockstep::compiler::IntermediateLanguage info);
  ~_cl_program();

  cl_context context() const { return context_.get(); }
  const std::vector<cl_device_id> &devices() const { return devices_; }
  bool hasDevice(cl_device_id device) const;
  Origin origin() const { return origin_; }
  const std::string &source() const { return source_; }
  const std::vector<uint8_t> &il() const { return il_; }

  // clSetProgramSpecializationConstant: CL_INVALID_SPEC_ID for an id the
  // module does not declare, CL_INVALID_VALUE for the wrong size. The value
  // is used by the next build or compile.
  void setSpecConstant(cl_uint id, size_t size, const void *value);

  // Runs `f(const std::vector<DeviceBuild>&)` with the build state locked,
  // so a query never sees a build half-way.
  template <class F>
  decltype(auto) withBuilds(F &&f) const {
    std::lock_guard lock(mutex_);
    return f(builds_);
  }
  // A copy of the state on `device` (which must be one of the program's).
  DeviceBuild buildOf(cl_device_id device) const;
  // The executable of the first device build that has one (null if none):
  // where clCreateKernel finds its kernels.
  std::shared_ptr<const lockstep::compiler::Executable> anyExecutable() const;
  bool hasExecutable() const { return anyExecutable() != nullptr; }

  // Loads a binary given to clCreateProgramWithBinary for `device`.
  void loadBinary(cl_device_id device, std::vector<uint8_t> binary,
                  lockstep::compiler::BinaryKind kind);

  // clBuildProgram / clCompileProgram / clLinkProgram for `devices` (already
  // validated as the program's). Throw CL_INVALID_OPERATION if the operation
  // cannot begin (another one in progress, kernels attached); once it began,
  // return its status (the spec's failure code; the log stays queryable), so
  // the caller notifies pfn_notify either way. link() builds into this new,
  // Origin::Linked program from `inputs`.
  cl_int build(std::span<const cl_device_id> devices, const std::string &options);
  cl_int compile(std::span<const cl_device_id> devices, const std::string &options,
                 std::span<const lockstep::compiler::Header> headers);
  cl_int link(std::span<const cl_device_id> devices, const std::string &options,
              std::span<const cl_program> inputs);

  // Kernel objects the application still holds: a program with any may not
  // be rebuilt.
  void attachKernel() { attachedKernels_.fetch_add(1, std::memory_order_relaxed); }
  void detachKernel() { attachedKernels_.fetch_sub(1, std::memory_order_relaxed); }
  cl_uint attachedKernels() const { return attachedKernels_.load(std::memory_order_relaxed); }

 private:
  DeviceBuild &buildOfLocked(cl_device_id device);
  std::vector<lockstep::compiler::SpecValue> specValuesNow() const;
  // Marks `devices` in progress (CL_INVALID_OPERATION if one already is, or
  // if kernels are attached).
  void beginOperation(std::span<const cl_device_id> devices);
  // Stores the outcome for `device` and returns the spec's status for it
  // (`failure` when the compiler reports a build failure).
  cl_int finishOperation(cl_device_id device, const std::string &options,
                         lockstep::compiler::Result result, cl_int failure, cl_int invalidOptions);
  // Puts `devices` back to CL_BUILD_ERROR when an operation throws midway.
  void abandonOperation(std::span<const cl_device_id> devices);

  lockstep::runtime::Ref<_cl_context> context_;
  std::vector<cl_device_id> devices_;
  Origin origin_;
  std::string source_;
  std::vector<uint8_t> il_;
  lockstep::compiler::IntermediateLanguage ilInfo_;
  mutable std::mutex mutex_;
  std::vector<lockstep::compiler::SpecValue> specValues_;  // by mutex_
  std::vector<DeviceBuild> builds_;
  std::atomic<cl_uint> attachedKernels_{0};
};

namespace lockstep::runtime {

cl_program_binary_type binaryTypeOf(compiler::BinaryKind kind);

}  // namespace lockstep::runtime

// A mutable kernel launch of a command-buffer
// (cl_khr_command_buffer_mutable_dispatch): the handle clCommandNDRangeKernelKHR
// returns, whose arguments and range clUpdateMutableCommandsKHR may change
// between enqueues. It keeps a private clone of the kernel that holds the
// current argument values, the current geometry, and its place in the
// command-buffer's plan (CommandBuffer.h), where the launch made from them
// (as api/commands.h's kernelCommand makes it) lies. An update makes a new
// clone and a new launch and swaps in a new plan: an enqueue made before
// keeps the launch it took. A launch whose arguments are not all set yet
// (recorded with CL_MUTABLE_DISPATCH_ARGUMENTS_KHR updatable) is missing
// from the plan, which keeps the command-buffer from being executable. The
// checks are api/command_buffer_mutable.cpp's; the command-buffer owns the
// handle.
#pragma once

#include <array>
#include <memory>
#include <mutex>
#include <vector>

#include "Kernel.h"
#include "Object.h"
#include "api/command_buffer_abi.h"

struct _cl_mutable_command_khr
    : lockstep::runtime::Object<_cl_mutable_command_khr, lockstep::runtime::Tag::MutableCommand,
                                CL_INVALID_MUTABLE_COMMAND_KHR> {
  using Sizes = std::array<size_t, 3>;

  // A clone of a kernel this command holds: the application-level reference
  // of a kernel the application never sees, released with it (a kernel's
  // last release detaches it from its program).
  struct KernelRelease {
    void operator()(cl_kernel kernel) const { kernel->release(); }
  };
  using OwnedKernel = std::unique_ptr<_cl_kernel, KernelRelease>;

  // The geometry of a launch as the application gave it: each array holds
  // work_dim values, `local` only if `localGiven`.
  struct Geometry {
    cl_uint workDim = 1;
    Sizes offset{0, 0, 0}, global{0, 0, 0}, local{0, 0, 0};
    bool localGiven = false;
  };

  _cl_mutable_command_khr(cl_command_buffer_khr owner, cl_command_queue queue, cl_kernel kernel,
                          cl_mutable_dispatch_fields_khr updatable, cl_bitfield asserts,
                          std::vector<cl_properties> properties);

  cl_command_buffer_khr owner() const { return owner_; }
  cl_command_queue queue() const { return queue_; }
  cl_kernel kernel() const { return kernel_.get(); }
  cl_mutable_dispatch_fields_khr updatable() const { return updatable_; }
  cl_bitfield asserts() const { return asserts_; }
  const std::vector<cl_properties> &properties() const { return properties_; }

  // The current state (under the command's lock): the clone holding the
  // arguments, the geometry, the work-groups of the recorded launch.
  cl_kernel arguments() const;
  Geometry geometry() const;
  uint64_t recordedGroups() const { return recordedGroups_; }
  // The launch's place in its command-buffer's plan.
  size_t place() const { return place_; }

  // Sets the state: the clone with the arguments, and the geometry.
  void set(OwnedKernel arguments, const Geometry &geometry);
  void setRecordedGroups(uint64_t groups) { recordedGroups_ = groups; }
  void setPlace(size_t place) { place_ = place; }

 private:
  cl_command_buffer_khr owner_;  // outlives the command: it owns it
  cl_command_queue queue_;
  lockstep::runtime::Ref<_cl_kernel> kernel_;
  cl_mutable_dispatch_fields_khr updatable_;
  cl_bitfield asserts_;
  std::vector<cl_properties> properties_;
  uint64_t recordedGroups_ = 0;
  size_t place_ = 0;
  mutable std::mutex mutex_;
  OwnedKernel arguments_;
  Geometry geometry_;
};

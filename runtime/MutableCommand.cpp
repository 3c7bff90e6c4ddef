// A mutable kernel launch of a command-buffer (MutableCommand.h).
#include "MutableCommand.h"

using namespace lockstep::runtime;

_cl_mutable_command_khr::_cl_mutable_command_khr(cl_command_buffer_khr owner,
                                                 cl_command_queue queue, cl_kernel kernel,
                                                 cl_mutable_dispatch_fields_khr updatable,
                                                 cl_bitfield asserts,
                                                 std::vector<cl_properties> properties)
    : owner_(owner),
      queue_(queue),
      kernel_(kernel),
      updatable_(updatable),
      asserts_(asserts),
      properties_(std::move(properties)) {}

cl_kernel _cl_mutable_command_khr::arguments() const {
  std::lock_guard lock(mutex_);
  return arguments_.get();
}

_cl_mutable_command_khr::Geometry _cl_mutable_command_khr::geometry() const {
  std::lock_guard lock(mutex_);
  return geometry_;
}

void _cl_mutable_command_khr::set(OwnedKernel arguments, const Geometry &geometry) {
  OwnedKernel previous;  // released outside the lock
  std::lock_guard lock(mutex_);
  previous = std::exchange(arguments_, std::move(arguments));
  geometry_ = geometry;
}

// The command-buffer object (CommandBuffer.h): recording, finalizing and
// running the recorded commands.
#include "CommandBuffer.h"

using namespace lockstep::runtime;

_cl_command_buffer_khr::_cl_command_buffer_khr(
    cl_command_queue queue, std::vector<cl_command_buffer_properties_khr> properties)
    : queue_(queue), properties_(std::move(properties)) {}

cl_sync_point_khr _cl_command_buffer_khr::record(cl_uint numSyncPoints,
                                                 const cl_sync_point_khr *waitList, Command work) {
  std::lock_guard lock(mutex_);
  check(!finalized(), CL_INVALID_OPERATION);
  for (cl_uint i = 0; i < numSyncPoints; ++i)
    check(waitList[i] >= 1 && waitList[i] <= syncPoints_, CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  // Running in recording order waits for every earlier command, those of
  // the wait list included.
  if (work) commands_.push_back(std::move(work));
  return ++syncPoints_;
}

void _cl_command_buffer_khr::finalize() {
  std::lock_guard lock(mutex_);
  check(!finalized(), CL_INVALID_OPERATION);
  commands_.shrink_to_fit();
  finalized_.store(true, std::memory_order_release);
}

cl_int _cl_command_buffer_khr::run() {
  for (Command &command : commands_) {
    cl_int status = command();
    if (status != CL_SUCCESS) return status;
  }
  return CL_SUCCESS;
}

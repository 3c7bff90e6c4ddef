// A command-buffer (cl_khr_command_buffer): commands recorded once against
// a queue, then run as one command, any number of times. Recording keeps
// the same command objects the clEnqueue* path builds (api/commands.h),
// made to run many times; a kernel launch keeps the argument snapshot taken
// when it was recorded. The recorded commands run in the order they were
// recorded, on the thread that runs the command-buffer's command (a kernel
// launch still spreads its work-groups over the device): that order
// satisfies every sync point, which can only name a command recorded
// earlier. The spec's checks are api/command_buffer*.cpp's.
#pragma once

#include <atomic>
#include <mutex>
#include <vector>

#include "Object.h"
#include "Queue.h"
#include "api/command_buffer_abi.h"
#include "exec/Command.h"

struct _cl_command_buffer_khr
    : lockstep::runtime::Object<_cl_command_buffer_khr, lockstep::runtime::Tag::CommandBuffer,
                                CL_INVALID_COMMAND_BUFFER_KHR> {
  // `properties` as the application gave them (with the terminating 0), or
  // empty.
  _cl_command_buffer_khr(cl_command_queue queue,
                         std::vector<cl_command_buffer_properties_khr> properties);

  cl_command_queue queue() const { return queue_.get(); }
  cl_context context() const { return queue_->context(); }
  const std::vector<cl_command_buffer_properties_khr> &properties() const { return properties_; }
  // CL_COMMAND_BUFFER_STATE_RECORDING_KHR until finalized, then
  // CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR.
  bool finalized() const { return finalized_.load(std::memory_order_acquire); }

  // Records `work` (empty: a barrier, which has nothing to run) after the
  // sync points of the wait list and returns its own sync point.
  // CL_INVALID_OPERATION once finalized; CL_INVALID_SYNC_POINT_WAIT_LIST_KHR
  // for a sync point this command-buffer did not hand out.
  cl_sync_point_khr record(cl_uint numSyncPoints, const cl_sync_point_khr *waitList,
                           lockstep::runtime::Command work);
  // CL_INVALID_OPERATION if finalized already.
  void finalize();

  // Runs every recorded command, in order; the first failure ends the run
  // with its status. Only once finalized; runs may overlap.
  cl_int run();

 private:
  lockstep::runtime::Ref<_cl_command_queue> queue_;
  std::vector<cl_command_buffer_properties_khr> properties_;
  std::mutex mutex_;  // recording
  std::atomic<bool> finalized_{false};
  cl_uint syncPoints_ = 0;  // handed out: 1 ... syncPoints_
  std::vector<lockstep::runtime::Command> commands_;
};

// A command-buffer (cl_khr_command_buffer): commands recorded once against
// a queue, then run as one command, any number of times. Recording keeps
// the same command objects the clEnqueue* path builds (api/commands.h),
// made to run many times; a kernel launch keeps the argument snapshot taken
// when it was recorded. The recorded commands run in the order they were
// recorded, on the thread that runs the command-buffer's command (a kernel
// launch still spreads its work-groups over the device): that order
// satisfies every sync point, which can only name a command recorded
// earlier.
//
// Finalizing turns the recorded commands into a plan, which each enqueue
// takes (a reference, no copy) and runs. A mutable launch
// (cl_khr_command_buffer_mutable_dispatch, MutableCommand.h) is changed by
// swapping in a new plan with the new launch: an enqueue made before the
// update runs the plan it took, even if it starts after the update. The
// command-buffer owns the handles of its mutable launches. The spec's
// checks are api/command_buffer*.cpp's.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "Object.h"
#include "Queue.h"
#include "api/command_buffer_abi.h"
#include "exec/Command.h"

struct _cl_command_buffer_khr
    : lockstep::runtime::Object<_cl_command_buffer_khr, lockstep::runtime::Tag::CommandBuffer,
                                CL_INVALID_COMMAND_BUFFER_KHR> {
  // What an enqueue runs: the recorded commands in order. A mutable launch
  // still missing an argument is null (the plan is then not complete, and
  // the command-buffer not executable).
  struct Plan {
    std::vector<std::shared_ptr<lockstep::runtime::Command>> commands;
    bool complete = true;
  };

  // `properties` as the application gave them (with the terminating 0), or
  // empty; `flags`: CL_COMMAND_BUFFER_FLAGS_KHR (simultaneous use,
  // mutable); `asserts`: CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR.
  _cl_command_buffer_khr(cl_command_queue queue,
                         std::vector<cl_command_buffer_properties_khr> properties,
                         cl_command_buffer_flags_khr flags, cl_bitfield asserts);
  ~_cl_command_buffer_khr();

  cl_command_queue queue() const { return queue_.get(); }
  cl_context context() const { return queue_->context(); }
  const std::vector<cl_command_buffer_properties_khr> &properties() const { return properties_; }
  bool isMutable() const { return flags_ & lockstep::khr::kMutable; }
  cl_bitfield asserts() const { return asserts_; }
  bool finalized() const { return finalized_.load(std::memory_order_acquire); }
  // Finalized with a complete plan: CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR
  // (finalized otherwise: CL_COMMAND_BUFFER_STATE_FINALIZED_KHR).
  bool executable() const;
  cl_command_buffer_state_khr state() const;

  // Records `work` (empty: a barrier, which has nothing to run) after the
  // sync points of the wait list and returns its own sync point.
  // CL_INVALID_OPERATION once finalized; CL_INVALID_SYNC_POINT_WAIT_LIST_KHR
  // for a sync point this command-buffer did not hand out.
  cl_sync_point_khr record(cl_uint numSyncPoints, const cl_sync_point_khr *waitList,
                           lockstep::runtime::Command work);
  // The same for a mutable launch (null while an argument is missing),
  // which `command` (whose handle the command-buffer keeps from now on)
  // may replace later: sets its place in the plan.
  cl_sync_point_khr recordMutable(cl_uint numSyncPoints, const cl_sync_point_khr *waitList,
                                  std::shared_ptr<lockstep::runtime::Command> launch,
                                  _cl_mutable_command_khr *command);
  // CL_INVALID_OPERATION if finalized already.
  void finalize();

  // The plan an enqueue runs (null before finalizing).
  std::shared_ptr<const Plan> plan() const;
  // Replaces commands of the plan (place, new command), all at once.
  void update(
      const std::vector<std::pair<size_t, std::shared_ptr<lockstep::runtime::Command>>> &changes);

  // Held through a clUpdateMutableCommandsKHR: updates of one
  // command-buffer from several threads apply one after the other.
  std::mutex &updating() { return updating_; }

  // Runs every command of `plan`, in order; the first failure ends the run
  // with its status. Runs may overlap.
  static cl_int run(const Plan &plan);

 private:
  lockstep::runtime::Ref<_cl_command_queue> queue_;
  std::vector<cl_command_buffer_properties_khr> properties_;
  cl_command_buffer_flags_khr flags_;
  cl_bitfield asserts_;
  mutable std::mutex mutex_;
  std::mutex updating_;
  std::atomic<bool> finalized_{false};
  cl_uint syncPoints_ = 0;  // handed out: 1 ... syncPoints_
  Plan recording_;          // until finalized
  std::shared_ptr<const Plan> plan_;
  std::vector<_cl_mutable_command_khr *> mutables_;  // their handles' references
};

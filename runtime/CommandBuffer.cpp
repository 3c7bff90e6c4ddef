// The command-buffer object (CommandBuffer.h): recording, finalizing,
// updating the plan and running it.
#include "CommandBuffer.h"

#include "MutableCommand.h"

using namespace lockstep::runtime;

_cl_command_buffer_khr::_cl_command_buffer_khr(
    cl_command_queue queue, std::vector<cl_command_buffer_properties_khr> properties,
    cl_command_buffer_flags_khr flags, cl_bitfield asserts)
    : queue_(queue), properties_(std::move(properties)), flags_(flags), asserts_(asserts) {}

_cl_command_buffer_khr::~_cl_command_buffer_khr() {
  for (_cl_mutable_command_khr *command : mutables_) command->release();
}

cl_sync_point_khr _cl_command_buffer_khr::record(cl_uint numSyncPoints,
                                                 const cl_sync_point_khr *waitList, Command work) {
  std::shared_ptr<Command> command;
  if (work) command = std::make_shared<Command>(std::move(work));
  std::lock_guard lock(mutex_);
  check(!finalized(), CL_INVALID_OPERATION);
  for (cl_uint i = 0; i < numSyncPoints; ++i)
    check(waitList[i] >= 1 && waitList[i] <= syncPoints_, CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  // Running in recording order waits for every earlier command, those of
  // the wait list included.
  if (command) recording_.commands.push_back(std::move(command));
  return ++syncPoints_;
}

cl_sync_point_khr _cl_command_buffer_khr::recordMutable(cl_uint numSyncPoints,
                                                        const cl_sync_point_khr *waitList,
                                                        std::shared_ptr<Command> launch,
                                                        _cl_mutable_command_khr *command) {
  std::lock_guard lock(mutex_);
  check(!finalized(), CL_INVALID_OPERATION);
  for (cl_uint i = 0; i < numSyncPoints; ++i)
    check(waitList[i] >= 1 && waitList[i] <= syncPoints_, CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  mutables_.reserve(mutables_.size() + 1);
  recording_.commands.reserve(recording_.commands.size() + 1);
  command->setPlace(recording_.commands.size());
  if (!launch) recording_.complete = false;
  recording_.commands.push_back(std::move(launch));
  mutables_.push_back(command);
  return ++syncPoints_;
}

void _cl_command_buffer_khr::finalize() {
  std::lock_guard lock(mutex_);
  check(!finalized(), CL_INVALID_OPERATION);
  recording_.commands.shrink_to_fit();
  plan_ = std::make_shared<const Plan>(std::move(recording_));
  finalized_.store(true, std::memory_order_release);
}

std::shared_ptr<const _cl_command_buffer_khr::Plan> _cl_command_buffer_khr::plan() const {
  std::lock_guard lock(mutex_);
  return plan_;
}

bool _cl_command_buffer_khr::executable() const {
  std::shared_ptr<const Plan> current = plan();
  return current && current->complete;
}

cl_command_buffer_state_khr _cl_command_buffer_khr::state() const {
  if (!finalized()) return CL_COMMAND_BUFFER_STATE_RECORDING_KHR;
  return executable() ? CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR : lockstep::khr::kStateFinalized;
}

void _cl_command_buffer_khr::update(
    const std::vector<std::pair<size_t, std::shared_ptr<Command>>> &changes) {
  std::lock_guard lock(mutex_);
  auto next = std::make_shared<Plan>(*plan_);
  for (const auto &[place, command] : changes) next->commands[place] = command;
  next->complete = true;
  for (const std::shared_ptr<Command> &command : next->commands)
    if (!command) next->complete = false;
  plan_ = std::move(next);
}

cl_int _cl_command_buffer_khr::run(const Plan &plan) {
  for (const std::shared_ptr<Command> &command : plan.commands) {
    cl_int status = (*command)();
    if (status != CL_SUCCESS) return status;
  }
  return CL_SUCCESS;
}

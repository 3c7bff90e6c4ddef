// cl_khr_command_buffer_mutable_dispatch 0.9.5: recording a launch the
// application may change later, clUpdateMutableCommandsKHR and
// clGetMutableCommandInfoKHR. An update is made on a fresh clone of the
// launch's kernel, through the clSetKernelArg* and clSetKernelExecInfo
// entry points themselves (their checks are the update's), and turned into
// a new launch by the clEnqueueNDRangeKernel path (kernelCommand); every
// configuration of a call is checked and built before any is applied, so a
// refused update changes nothing.
#include "api/command_buffer_mutable.h"

#include "Device.h"
#include "MutableCommand.h"
#include "Program.h"
#include "api/commands.h"
#include "api/entry_points.h"
#include "exec/NDRangeCommand.h"

using namespace lockstep::runtime;

namespace lockstep::api {

namespace {

using Geometry = _cl_mutable_command_khr::Geometry;
using OwnedKernel = _cl_mutable_command_khr::OwnedKernel;

struct MutableRelease {
  void operator()(_cl_mutable_command_khr *command) const { command->release(); }
};

// The geometry as given (checked by the launch that is made from it).
Geometry geometryOf(cl_uint workDim, const size_t *offset, const size_t *global,
                    const size_t *local) {
  // "CL_INVALID_WORK_DIMENSION if work_dim is not a valid value".
  check(workDim >= 1 && workDim <= _cl_device_id::kMaxWorkItemDimensions,
        CL_INVALID_WORK_DIMENSION);
  Geometry g;
  g.workDim = workDim;
  g.localGiven = local != nullptr;
  for (cl_uint d = 0; d < workDim; ++d) {
    g.offset[d] = offset ? offset[d] : 0;
    g.global[d] = global ? global[d] : 0;
    g.local[d] = local ? local[d] : 0;
  }
  return g;
}

// The work-groups a launch of `g` runs (the local size chosen as a launch
// would for none given).
uint64_t groupsOf(const _cl_kernel &kernel, cl_device_id device, const Geometry &g) {
  Dims global{1, 1, 1};
  for (cl_uint d = 0; d < g.workDim; ++d) global[d] = g.global[d];
  Dims local{1, 1, 1};
  if (g.localGiven) {
    for (cl_uint d = 0; d < g.workDim; ++d) local[d] = g.local[d];
  } else {
    local = localSizeForNull(kernel, device, g.workDim, global);
  }
  uint64_t groups = 1;
  for (cl_uint d = 0; d < g.workDim; ++d)
    groups *= local[d] ? (global[d] + local[d] - 1) / local[d] : 0;
  return groups;
}

// The launch of `g` with the arguments of `kernel`, or null while one of
// them is unset and may still be set by an update.
std::shared_ptr<Command> launchOf(_cl_command_queue *queue, cl_kernel kernel, const Geometry &g,
                                  bool argumentsUpdatable) {
  if (argumentsUpdatable && !kernel->allArgumentsSet()) {
    // The launch's other checks wait for its arguments, but those of the
    // kernel itself are made now.
    check(kernel->program()->hasDevice(queue->device()), CL_INVALID_PROGRAM_EXECUTABLE);
    check(queue->context() == kernel->context(), CL_INVALID_CONTEXT);
    return nullptr;
  }
  return std::make_shared<Command>(kernelCommand(queue, kernel, g.workDim, g.offset.data(),
                                                 g.global.data(),
                                                 g.localGiven ? g.local.data() : nullptr, true));
}

OwnedKernel cloneOf(cl_kernel kernel) {
  return OwnedKernel(new _cl_kernel(_cl_kernel::Clone{}, *kernel));
}

}  // namespace

LaunchProperties checkedLaunchProperties(const cl_properties *properties) {
  LaunchProperties result;
  if (!properties) return result;
  bool fieldsSeen = false, assertsSeen = false;
  for (; properties[0] != 0; properties += 2) {
    if (properties[0] == CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR) {
      check(!fieldsSeen, CL_INVALID_VALUE);
      fieldsSeen = true;
      result.updatable = properties[1];
      check((result.updatable & ~kMutableDispatchCapabilities) == 0, CL_INVALID_VALUE);
    } else if (properties[0] == khr::kMutableDispatchAsserts) {
      check(!assertsSeen, CL_INVALID_VALUE);
      assertsSeen = true;
      result.asserts = properties[1];
      check((result.asserts & ~khr::kAssertNoAdditionalWorkGroups) == 0, CL_INVALID_VALUE);
    } else {
      fail(CL_INVALID_VALUE);
    }
    result.list.insert(result.list.end(), properties, properties + 2);
  }
  result.list.push_back(0);
  return result;
}

cl_mutable_command_khr recordMutableLaunch(_cl_command_buffer_khr *buffer, cl_kernel kernel,
                                           cl_uint workDim, const size_t *globalWorkOffset,
                                           const size_t *globalWorkSize,
                                           const size_t *localWorkSize, LaunchProperties properties,
                                           cl_uint numSyncPoints,
                                           const cl_sync_point_khr *syncPointWaitList,
                                           cl_sync_point_khr *syncPoint) {
  _cl_kernel *k = checked(kernel);
  _cl_command_queue *queue = buffer->queue();
  Geometry g = geometryOf(workDim, globalWorkOffset, globalWorkSize, localWorkSize);
  OwnedKernel arguments = cloneOf(k);
  std::shared_ptr<Command> launch =
      launchOf(queue, arguments.get(), g, properties.updatable & CL_MUTABLE_DISPATCH_ARGUMENTS_KHR);
  std::unique_ptr<_cl_mutable_command_khr, MutableRelease> command(new _cl_mutable_command_khr(
      buffer, queue, k, properties.updatable, properties.asserts, std::move(properties.list)));
  command->setRecordedGroups(groupsOf(*k, queue->device(), g));
  command->set(std::move(arguments), g);
  cl_sync_point_khr point =
      buffer->recordMutable(numSyncPoints, syncPointWaitList, std::move(launch), command.get());
  if (syncPoint) *syncPoint = point;
  return command.release();  // the command-buffer's now
}

cl_int CL_API_CALL clUpdateMutableCommandsKHR(cl_command_buffer_khr command_buffer,
                                              cl_uint num_configs, const cl_uint *config_types,
                                              const void **configs) {
  return guarded([&] {
    _cl_command_buffer_khr *buffer = checked(command_buffer);
    // "CL_INVALID_OPERATION if command_buffer has not been finalized", "if
    // command_buffer was not created with CL_COMMAND_BUFFER_MUTABLE_KHR".
    check(buffer->finalized() && buffer->isMutable(), CL_INVALID_OPERATION);
    check(num_configs > 0 && config_types != nullptr && configs != nullptr, CL_INVALID_VALUE);
    std::lock_guard serial(buffer->updating());

    struct Staged {
      _cl_mutable_command_khr *command;
      OwnedKernel arguments;
      Geometry geometry;
      std::shared_ptr<Command> launch;
    };
    std::vector<Staged> staged;
    for (cl_uint i = 0; i < num_configs; ++i) {
      check(config_types[i] == khr::kMutableDispatchConfigType && configs[i] != nullptr,
            CL_INVALID_VALUE);
      const auto &config = *static_cast<const khr::MutableDispatchConfig *>(configs[i]);
      _cl_mutable_command_khr *command = checked(config.command);
      // "CL_INVALID_VALUE if ... command is not a command of command_buffer".
      check(command->owner() == buffer, CL_INVALID_VALUE);
      cl_mutable_dispatch_fields_khr updatable = command->updatable();
      // A command updated twice in one call: the second starts from the first.
      Staged *earlier = nullptr;
      for (Staged &s : staged)
        if (s.command == command) earlier = &s;
      Geometry g = earlier ? earlier->geometry : command->geometry();
      OwnedKernel arguments = cloneOf(earlier ? earlier->arguments.get() : command->arguments());

      // "CL_INVALID_VALUE if work_dim is not 0 and differs from the
      // command's."
      check(config.work_dim == 0 || config.work_dim == g.workDim, CL_INVALID_VALUE);
      if (config.num_args || config.num_svm_args)
        check(updatable & CL_MUTABLE_DISPATCH_ARGUMENTS_KHR, CL_INVALID_OPERATION);
      check((config.num_args == 0) == (config.arg_list == nullptr) &&
                (config.num_svm_args == 0) == (config.arg_svm_list == nullptr) &&
                (config.num_exec_infos == 0) == (config.exec_info_list == nullptr),
            CL_INVALID_VALUE);
      for (cl_uint a = 0; a < config.num_args; ++a) {
        const khr::MutableDispatchArg &arg = config.arg_list[a];
        cl_int status =
            api::clSetKernelArg(arguments.get(), arg.arg_index, arg.arg_size, arg.arg_value);
        check(status == CL_SUCCESS, status);
      }
      for (cl_uint a = 0; a < config.num_svm_args; ++a) {
        const khr::MutableDispatchArg &arg = config.arg_svm_list[a];
        cl_int status =
            api::clSetKernelArgSVMPointer(arguments.get(), arg.arg_index, arg.arg_value);
        check(status == CL_SUCCESS, status);
      }
      if (config.num_exec_infos)
        check(updatable & CL_MUTABLE_DISPATCH_EXEC_INFO_KHR, CL_INVALID_OPERATION);
      for (cl_uint a = 0; a < config.num_exec_infos; ++a) {
        const khr::MutableDispatchExecInfo &info = config.exec_info_list[a];
        cl_int status = api::clSetKernelExecInfo(arguments.get(), info.param_name,
                                                 info.param_value_size, info.param_value);
        check(status == CL_SUCCESS, status);
      }
      // "CL_INVALID_OPERATION if ... the field was not made updatable".
      if (config.global_work_offset) {
        check(updatable & CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR, CL_INVALID_OPERATION);
        for (cl_uint d = 0; d < g.workDim; ++d) g.offset[d] = config.global_work_offset[d];
      }
      if (config.global_work_size) {
        check(updatable & CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR, CL_INVALID_OPERATION);
        for (cl_uint d = 0; d < g.workDim; ++d) g.global[d] = config.global_work_size[d];
      }
      if (config.local_work_size) {
        check(updatable & CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR, CL_INVALID_OPERATION);
        for (cl_uint d = 0; d < g.workDim; ++d) g.local[d] = config.local_work_size[d];
        g.localGiven = true;
      }
      // The launch promised to run no more work-groups than recorded.
      if ((command->asserts() | buffer->asserts()) & khr::kAssertNoAdditionalWorkGroups)
        check(groupsOf(*arguments, command->queue()->device(), g) <= command->recordedGroups(),
              CL_INVALID_VALUE);
      std::shared_ptr<Command> launch = launchOf(command->queue(), arguments.get(), g, true);
      if (earlier) {
        earlier->arguments = std::move(arguments);
        earlier->geometry = g;
        earlier->launch = std::move(launch);
      } else {
        staged.push_back({command, std::move(arguments), g, std::move(launch)});
      }
    }
    // All at once: one new plan, then each command's new state.
    std::vector<std::pair<size_t, std::shared_ptr<Command>>> changes;
    for (Staged &s : staged) changes.emplace_back(s.command->place(), s.launch);
    buffer->update(changes);
    for (Staged &s : staged) s.command->set(std::move(s.arguments), s.geometry);
  });
}

cl_int CL_API_CALL clGetMutableCommandInfoKHR(cl_mutable_command_khr command, cl_uint param_name,
                                              size_t param_value_size, void *param_value,
                                              size_t *param_value_size_ret) {
  return guarded([&] {
    _cl_mutable_command_khr *c = checked(command);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    Geometry g = c->geometry();
    switch (param_name) {
      case CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR:
        return out.value<cl_command_queue>(c->queue());
      case CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR:
        return out.value<cl_command_buffer_khr>(c->owner());
      case CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR:
        return out.value<cl_command_type>(CL_COMMAND_NDRANGE_KERNEL);
      case khr::kMutableCommandPropertiesArray:
        return out.array<cl_properties>(c->properties());
      case CL_MUTABLE_DISPATCH_KERNEL_KHR:
        return out.value<cl_kernel>(c->kernel());
      case CL_MUTABLE_DISPATCH_DIMENSIONS_KHR:
        return out.value<cl_uint>(g.workDim);
      case CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR:
        return out.array<size_t>({g.offset.data(), g.workDim});
      case CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR:
        return out.array<size_t>({g.global.data(), g.workDim});
      case CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR:
        return out.array<size_t>({g.local.data(), g.workDim});
      default:
        fail(CL_INVALID_VALUE);
    }
  });
}

}  // namespace lockstep::api

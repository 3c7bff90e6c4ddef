// Program entry points: creation from source or binary, build, compile,
// link and queries. Each validates its arguments in the order the OpenCL 3.0
// API specification lists its errors; the spec's clause is quoted above the
// check that implements it.
#include "Program.h"

#include <algorithm>
#include <string>
#include <vector>

#include "Context.h"
#include "Device.h"
#include "api/entry_points.h"

namespace lockstep::api {

using namespace runtime;

namespace {

// "CL_INVALID_VALUE if device_list is NULL and num_devices is greater than
// zero, or if device_list is not NULL and num_devices is zero."
void checkDeviceListShape(cl_uint numDevices, const cl_device_id *deviceList) {
  check((deviceList == nullptr) == (numDevices == 0), CL_INVALID_VALUE);
}

// "CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL."
template <class Fn>
void checkNotify(Fn notify, void *userData) {
  check(notify != nullptr || userData == nullptr, CL_INVALID_VALUE);
}

// The devices an operation is for: device_list (each one of `allowed`,
// else CL_INVALID_DEVICE), or all of `allowed` when it is NULL.
std::vector<cl_device_id> selectDevices(cl_uint numDevices, const cl_device_id *deviceList,
                                        const std::vector<cl_device_id> &allowed) {
  if (!deviceList) return allowed;
  std::vector<cl_device_id> devices(deviceList, deviceList + numDevices);
  for (cl_device_id device : devices)
    check(std::find(allowed.begin(), allowed.end(), device) != allowed.end(), CL_INVALID_DEVICE);
  return devices;
}

// A build or compile for a device is one for its sub-devices in the
// program too (they run the same code): `devices` and those of the
// program's devices that descend from one of them (for a program from
// binaries, those given a binary).
std::vector<cl_device_id> withSubDevices(std::vector<cl_device_id> devices, const _cl_program &program) {
  auto listed = [&](cl_device_id device) {
    return std::find(devices.begin(), devices.end(), device) != devices.end();
  };
  for (cl_device_id device : program.devices()) {
    if (listed(device)) continue;
    if (program.origin() == _cl_program::Origin::Binary &&
        program.buildOf(device).binaryType == CL_PROGRAM_BINARY_TYPE_NONE)
      continue;
    for (cl_device_id up = device->parent(); up; up = up->parent())
      if (listed(up)) {
        devices.push_back(device);
        break;
      }
  }
  return devices;
}

std::string optionsOf(const char *options) { return options ? options : ""; }

std::string joinNames(const std::vector<std::string> &names) {
  std::string joined;
  for (const std::string &name : names) {
    if (!joined.empty()) joined += ';';
    joined += name;
  }
  return joined;
}

// CL_PROGRAM_BINARIES: param_value is an array of one pointer per device;
// each non-NULL pointer receives that device's binary.
void writeBinaries(const _cl_program &program, size_t size, void *value, size_t *sizeRet) {
  program.withBuilds([&](const std::vector<_cl_program::DeviceBuild> &builds) {
    size_t needed = builds.size() * sizeof(unsigned char *);
    if (value) {
      check(size >= needed, CL_INVALID_VALUE);
      auto **targets = static_cast<unsigned char **>(value);
      for (size_t i = 0; i < builds.size(); ++i)
        if (targets[i] && !builds[i].binary.empty())
          std::copy(builds[i].binary.begin(), builds[i].binary.end(), targets[i]);
    }
    if (sizeRet) *sizeRet = needed;
  });
}

// The kernel names of the program's executable: CL_INVALID_PROGRAM_EXECUTABLE
// "if ... a successful program executable has not been built for at least
// one device in the list of devices associated with program."
std::vector<std::string> executableKernelNames(const _cl_program &program) {
  return program.withBuilds([](const std::vector<_cl_program::DeviceBuild> &builds) {
    for (const _cl_program::DeviceBuild &build : builds)
      if (build.executable) return build.kernelNames;
    fail(CL_INVALID_PROGRAM_EXECUTABLE);
  });
}

}  // namespace

cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count,
                                                 const char **strings, const size_t *lengths,
                                                 cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&]() -> cl_program {
    _cl_context *ctx = checked(context);
    // "CL_INVALID_VALUE if count is zero or if strings or any entry in
    // strings is NULL."
    check(count != 0 && strings != nullptr, CL_INVALID_VALUE);
    std::string source;
    for (cl_uint i = 0; i < count; ++i) {
      check(strings[i] != nullptr, CL_INVALID_VALUE);
      // A length of zero (or no lengths) means the string is NUL-terminated.
      if (lengths && lengths[i] != 0)
        source.append(strings[i], lengths[i]);
      else
        source.append(strings[i]);
    }
    return new _cl_program(ctx, ctx->devices(), _cl_program::Origin::Source, std::move(source));
  });
}

cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                 const cl_device_id *device_list,
                                                 const size_t *lengths,
                                                 const unsigned char **binaries,
                                                 cl_int *binary_status, cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&]() -> cl_program {
    _cl_context *ctx = checked(context);
    // "CL_INVALID_VALUE if device_list is NULL or num_devices is zero."
    check(device_list != nullptr && num_devices != 0, CL_INVALID_VALUE);
    // "CL_INVALID_DEVICE if any device in device_list is not in the list of
    // devices associated with context."
    std::vector<cl_device_id> devices = selectDevices(num_devices, device_list, ctx->devices());
    // "CL_INVALID_VALUE if lengths or binaries is NULL or if any entry in
    // lengths[i] is zero or binaries[i] is NULL."
    check(lengths != nullptr && binaries != nullptr, CL_INVALID_VALUE);
    std::vector<cl_int> status(num_devices, CL_SUCCESS);
    std::vector<compiler::BinaryKind> kinds(num_devices, compiler::BinaryKind::None);
    for (cl_uint i = 0; i < num_devices; ++i) {
      if (lengths[i] == 0 || binaries[i] == nullptr) {
        status[i] = CL_INVALID_VALUE;
        continue;
      }
      kinds[i] = compiler::Compiler::instance().inspect({binaries[i], lengths[i]});
      // "CL_INVALID_BINARY if an invalid program binary was encountered for
      // any device."
      if (kinds[i] == compiler::BinaryKind::None) status[i] = CL_INVALID_BINARY;
    }
    if (binary_status) std::copy(status.begin(), status.end(), binary_status);
    for (cl_int s : status) check(s != CL_INVALID_VALUE, CL_INVALID_VALUE);
    for (cl_int s : status) check(s == CL_SUCCESS, s);

    auto *program = new _cl_program(ctx, devices, _cl_program::Origin::Binary, "");
    Ref<_cl_program> owner = Ref<_cl_program>::adopt(program);
    for (cl_uint i = 0; i < num_devices; ++i)
      program->loadBinary(devices[i], {binaries[i], binaries[i] + lengths[i]}, kinds[i]);
    return owner.detach();
  });
}

cl_int CL_API_CALL clRetainProgram(cl_program program) {
  return guarded([&] { checked(program)->retain(); });
}

cl_int CL_API_CALL clReleaseProgram(cl_program program) {
  return guarded([&] { checked(program)->release(); });
}

cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices,
                                  const cl_device_id *device_list, const char *options,
                                  void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                  void *user_data) {
  return guarded([&] {
    _cl_program *p = checked(program);
    checkDeviceListShape(num_devices, device_list);
    checkNotify(pfn_notify, user_data);
    // "CL_INVALID_DEVICE if any device in device_list is not in the list of
    // devices associated with program."
    std::vector<cl_device_id> devices = selectDevices(num_devices, device_list, p->devices());
    // "CL_INVALID_BINARY if program is created with clCreateProgramWithBinary
    // and devices listed in device_list do not have a valid program binary
    // loaded."
    if (p->origin() == _cl_program::Origin::Binary) {
      for (cl_device_id device : devices)
        check(p->buildOf(device).binaryType != CL_PROGRAM_BINARY_TYPE_NONE, CL_INVALID_BINARY);
    }
    // "CL_INVALID_OPERATION if program was not created with
    // clCreateProgramWithSource, clCreateProgramWithIL or
    // clCreateProgramWithBinary."
    check(p->origin() != _cl_program::Origin::Linked, CL_INVALID_OPERATION);
    // The build is synchronous ("clBuildProgram does not need to wait" is a
    // permission), so pfn_notify runs before returning, on this thread.
    cl_int status = p->build(withSubDevices(std::move(devices), *p), optionsOf(options));
    if (pfn_notify) pfn_notify(program, user_data);
    check(status == CL_SUCCESS, status);
  });
}

cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint num_devices,
                                    const cl_device_id *device_list, const char *options,
                                    cl_uint num_input_headers, const cl_program *input_headers,
                                    const char **header_include_names,
                                    void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                    void *user_data) {
  return guarded([&] {
    _cl_program *p = checked(program);
    checkDeviceListShape(num_devices, device_list);
    // "CL_INVALID_VALUE if num_input_headers is zero and
    // header_include_names or input_headers are not NULL or if
    // num_input_headers is not zero and header_include_names or
    // input_headers are NULL."
    if (num_input_headers == 0)
      check(header_include_names == nullptr && input_headers == nullptr, CL_INVALID_VALUE);
    else
      check(header_include_names != nullptr && input_headers != nullptr, CL_INVALID_VALUE);
    checkNotify(pfn_notify, user_data);
    std::vector<cl_device_id> devices = selectDevices(num_devices, device_list, p->devices());
    std::vector<compiler::Header> headers;
    for (cl_uint i = 0; i < num_input_headers; ++i) {
      // Each header is a program created from source: its source is the text.
      check(header_include_names[i] != nullptr, CL_INVALID_VALUE);
      headers.push_back({header_include_names[i], checked(input_headers[i])->source()});
    }
    // "CL_INVALID_OPERATION if program has no source available, i.e. it has
    // not been created with clCreateProgramWithSource or
    // clCreateProgramWithIL."
    check(p->origin() == _cl_program::Origin::Source || p->origin() == _cl_program::Origin::IL,
          CL_INVALID_OPERATION);
    cl_int status = p->compile(withSubDevices(std::move(devices), *p), optionsOf(options), headers);
    if (pfn_notify) pfn_notify(program, user_data);
    check(status == CL_SUCCESS, status);
  });
}

namespace {

// The devices clLinkProgram links for, after the spec's checks of the inputs:
// every input holds a compiled object or library for each device.
std::vector<cl_device_id> linkDevices(_cl_context *ctx, cl_uint numDevices,
                                      const cl_device_id *deviceList,
                                      std::span<const cl_program> inputs) {
  std::vector<cl_device_id> candidates = selectDevices(numDevices, deviceList, ctx->devices());
  std::vector<cl_device_id> devices;
  for (cl_device_id device : candidates) {
    size_t withBinary = 0;
    for (cl_program input : inputs) {
      if (!input->hasDevice(device)) continue;
      _cl_program::DeviceBuild build = input->buildOf(device);
      // "CL_INVALID_OPERATION if the compilation or build of a program
      // executable for any of the devices listed in device_list by a
      // previous call to clCompileProgram or clBuildProgram for program has
      // not completed."
      check(build.status != CL_BUILD_IN_PROGRESS, CL_INVALID_OPERATION);
      if (build.binaryType == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT ||
          build.binaryType == CL_PROGRAM_BINARY_TYPE_LIBRARY)
        ++withBinary;
    }
    // "CL_INVALID_OPERATION if the rules for devices containing compiled
    // binaries or libraries as described in input_programs argument below
    // are not followed": all inputs or (without a device_list) none.
    if (withBinary == inputs.size())
      devices.push_back(device);
    else
      check(withBinary == 0 && deviceList == nullptr, CL_INVALID_OPERATION);
  }
  check(!devices.empty(), CL_INVALID_OPERATION);
  return devices;
}

}  // namespace

cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices,
                                     const cl_device_id *device_list, const char *options,
                                     cl_uint num_input_programs, const cl_program *input_programs,
                                     void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                     void *user_data, cl_int *errcode_ret) {
  // A failed link still returns its program (with the log); this carries
  // that status past guardedCreate, which reports success for a program.
  cl_int linkStatus = CL_SUCCESS;
  cl_program linked = guardedCreate(errcode_ret, [&]() -> cl_program {
    _cl_context *ctx = checked(context);
    checkDeviceListShape(num_devices, device_list);
    // "CL_INVALID_VALUE if num_input_programs is zero and input_programs is
    // NULL or if num_input_programs is zero and input_programs is not NULL
    // or if num_input_programs is not zero and input_programs is NULL."
    check(num_input_programs != 0 && input_programs != nullptr, CL_INVALID_VALUE);
    // "CL_INVALID_PROGRAM if programs specified in input_programs are not
    // valid program objects."
    std::span<const cl_program> inputs(input_programs, num_input_programs);
    for (cl_program input : inputs) checked(input);
    checkNotify(pfn_notify, user_data);
    std::vector<cl_device_id> devices = linkDevices(ctx, num_devices, device_list, inputs);

    auto *program = new _cl_program(ctx, devices, _cl_program::Origin::Linked, "");
    Ref<_cl_program> owner = Ref<_cl_program>::adopt(program);
    linkStatus = program->link(devices, optionsOf(options), inputs);
    // "CL_INVALID_LINKER_OPTIONS if the linker options specified by options
    // are invalid": the link could not begin, so there is no program.
    check(linkStatus != CL_INVALID_LINKER_OPTIONS, CL_INVALID_LINKER_OPTIONS);
    if (pfn_notify) pfn_notify(program, user_data);
    return owner.detach();
  });
  if (linked && linkStatus != CL_SUCCESS && errcode_ret) *errcode_ret = linkStatus;
  return linked;
}

cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param_name,
                                    size_t param_value_size, void *param_value,
                                    size_t *param_value_size_ret) {
  return guarded([&] {
    _cl_program *p = checked(program);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
      case CL_PROGRAM_REFERENCE_COUNT:
        return out.value<cl_uint>(p->referenceCount());
      case CL_PROGRAM_CONTEXT:
        return out.value(p->context());
      case CL_PROGRAM_NUM_DEVICES:
        return out.value<cl_uint>(static_cast<cl_uint>(p->devices().size()));
      case CL_PROGRAM_DEVICES:
        return out.array<cl_device_id>(p->devices());
      case CL_PROGRAM_SOURCE:
        // Empty for a program created from a binary or by linking.
        return out.string(p->source());
      case CL_PROGRAM_IL:
        // Empty unless created from IL: "param_value_size_ret will be set
        // to 0".
        return out.bytes(p->il().data(), p->il().size());
      case CL_PROGRAM_BINARY_SIZES:
        return p->withBuilds([&](const std::vector<_cl_program::DeviceBuild> &builds) {
          std::vector<size_t> sizes;
          for (const _cl_program::DeviceBuild &build : builds) sizes.push_back(build.binary.size());
          out.array<size_t>(sizes);
        });
      case CL_PROGRAM_BINARIES:
        return writeBinaries(*p, param_value_size, param_value, param_value_size_ret);
      case CL_PROGRAM_NUM_KERNELS:
        return out.value<size_t>(executableKernelNames(*p).size());
      case CL_PROGRAM_KERNEL_NAMES:
        return out.string(joinNames(executableKernelNames(*p)));
      case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
      case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
        // OpenCL C has no program-scope constructors or destructors.
        return out.value<cl_bool>(CL_FALSE);
      default:
        fail(CL_INVALID_VALUE);
    }
  });
}

cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program, cl_device_id device,
                                         cl_program_build_info param_name, size_t param_value_size,
                                         void *param_value, size_t *param_value_size_ret) {
  return guarded([&] {
    _cl_program *p = checked(program);
    // "CL_INVALID_DEVICE if device is not in the list of devices associated
    // with program."
    check(p->hasDevice(device), CL_INVALID_DEVICE);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    p->withBuilds([&](const std::vector<_cl_program::DeviceBuild> &builds) {
      const _cl_program::DeviceBuild &build =
          *std::find_if(builds.begin(), builds.end(), [&](auto &b) { return b.device == device; });
      switch (param_name) {
        case CL_PROGRAM_BUILD_STATUS:
          return out.value<cl_build_status>(build.status);
        case CL_PROGRAM_BUILD_OPTIONS:
          return out.string(build.options);
        case CL_PROGRAM_BUILD_LOG:
          return out.string(build.log);
        case CL_PROGRAM_BINARY_TYPE:
          return out.value<cl_program_binary_type>(build.binaryType);
        case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
          return out.value<size_t>(build.executable ? build.executable->globalVariableTotalSize()
                                                    : 0);
        default:
          fail(CL_INVALID_VALUE);
      }
    });
  });
}

}  // namespace lockstep::api

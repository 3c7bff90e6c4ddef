// Kernel entry points: creation and queries (arguments are set in
// api/kernel_arguments.cpp, launches made in api/ndrange.cpp). Each
// validates its arguments in the order the OpenCL 3.0 API specification
// lists its errors; the spec's clause is quoted above the check.
#include "Kernel.h"

#include <vector>

#include "Context.h"
#include "Device.h"
#include "Program.h"
#include "api/entry_points.h"

namespace lockstep::api {

using namespace runtime;

namespace {

// The program executable kernels come from: "CL_INVALID_PROGRAM_EXECUTABLE
// if there is no successfully built executable for program."
std::shared_ptr<const compiler::Executable> executableOf(_cl_program *program) {
  std::shared_ptr<const compiler::Executable> executable = program->anyExecutable();
  check(executable != nullptr, CL_INVALID_PROGRAM_EXECUTABLE);
  return executable;
}

// A device argument of a kernel query: "CL_INVALID_DEVICE if device is not
// in the list of devices associated with kernel or if device is NULL but
// there is more than one device associated with kernel."
void checkKernelDevice(const _cl_kernel &kernel, cl_device_id device) {
  const std::vector<cl_device_id> &devices = kernel.program()->devices();
  if (device == nullptr)
    check(devices.size() == 1, CL_INVALID_DEVICE);
  else
    check(kernel.program()->hasDevice(device), CL_INVALID_DEVICE);
}

}  // namespace

cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char *kernel_name,
                                     cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&]() -> cl_kernel {
    _cl_program *p = checked(program);
    std::shared_ptr<const compiler::Executable> executable = executableOf(p);
    // "CL_INVALID_VALUE if kernel_name is NULL."
    check(kernel_name != nullptr, CL_INVALID_VALUE);
    // "CL_INVALID_KERNEL_NAME if kernel_name is not found in program."
    const compiler::KernelDescription *description = executable->find(kernel_name);
    // The kernels Clang makes of blocks are the implementation's, not the
    // program's (device-side enqueue).
    check(description != nullptr && !compiler::isBlockKernelName(description->name), CL_INVALID_KERNEL_NAME);
    return new _cl_kernel(p, executable, *description);
  });
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels,
                                            cl_kernel *kernels, cl_uint *num_kernels_ret) {
  return guarded([&] {
    _cl_program *p = checked(program);
    std::shared_ptr<const compiler::Executable> executable = executableOf(p);
    std::vector<const compiler::KernelDescription *> all;
    for (const compiler::KernelDescription &description : executable->kernels())
      if (!compiler::isBlockKernelName(description.name)) all.push_back(&description);
    // "CL_INVALID_VALUE if kernels is not NULL and num_kernels is less than
    // the number of kernels in program."
    check(kernels == nullptr || num_kernels >= all.size(), CL_INVALID_VALUE);
    if (kernels) {
      // All or nothing: if one creation fails the others are released.
      std::vector<Ref<_cl_kernel>> created;
      for (const compiler::KernelDescription *description : all)
        created.push_back(Ref<_cl_kernel>::adopt(new _cl_kernel(p, executable, *description)));
      for (size_t i = 0; i < created.size(); ++i) kernels[i] = created[i].detach();
    }
    if (num_kernels_ret) *num_kernels_ret = static_cast<cl_uint>(all.size());
  });
}

cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&]() -> cl_kernel {
    return new _cl_kernel(_cl_kernel::Clone{}, *checked(source_kernel));
  });
}

cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
  return guarded([&] { checked(kernel)->retain(); });
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
  return guarded([&] { checked(kernel)->release(); });
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name,
                                   size_t param_value_size, void *param_value,
                                   size_t *param_value_size_ret) {
  return guarded([&] {
    _cl_kernel *k = checked(kernel);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    const compiler::KernelDescription &description = k->description();
    switch (param_name) {
      case CL_KERNEL_FUNCTION_NAME:
        return out.string(description.name);
      case CL_KERNEL_NUM_ARGS:
        return out.value<cl_uint>(static_cast<cl_uint>(description.arguments.size()));
      case CL_KERNEL_REFERENCE_COUNT:
        return out.value<cl_uint>(k->referenceCount());
      case CL_KERNEL_CONTEXT:
        return out.value(k->context());
      case CL_KERNEL_PROGRAM:
        return out.value(k->program());
      case CL_KERNEL_ATTRIBUTES:
        return out.string(description.attributes);
      default:
        fail(CL_INVALID_VALUE);
    }
  });
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_index,
                                      cl_kernel_arg_info param_name, size_t param_value_size,
                                      void *param_value, size_t *param_value_size_ret) {
  return guarded([&] {
    _cl_kernel *k = checked(kernel);
    // "CL_INVALID_ARG_INDEX if arg_index is not a valid argument index."
    check(arg_index < k->argumentCount(), CL_INVALID_ARG_INDEX);
    const compiler::KernelArgument &arg = k->argument(arg_index);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    auto available = [&] {
      // "CL_KERNEL_ARG_INFO_NOT_AVAILABLE if the argument information is not
      // available for kernel": the compiler records it unless the binary
      // came without it.
      check(!arg.typeName.empty(), CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
    };
    switch (param_name) {
      case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
        available();
        return out.value<cl_kernel_arg_address_qualifier>(arg.addressQualifier);
      case CL_KERNEL_ARG_ACCESS_QUALIFIER:
        available();
        return out.value<cl_kernel_arg_access_qualifier>(arg.accessQualifier);
      case CL_KERNEL_ARG_TYPE_NAME:
        available();
        return out.string(arg.typeName);
      case CL_KERNEL_ARG_TYPE_QUALIFIER:
        available();
        return out.value<cl_kernel_arg_type_qualifier>(arg.typeQualifier);
      case CL_KERNEL_ARG_NAME:
        available();
        return out.string(arg.name);
      default:
        fail(CL_INVALID_VALUE);
    }
  });
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                            cl_kernel_work_group_info param_name,
                                            size_t param_value_size, void *param_value,
                                            size_t *param_value_size_ret) {
  return guarded([&] {
    _cl_kernel *k = checked(kernel);
    checkKernelDevice(*k, device);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    const compiler::KernelDescription &description = k->description();
    switch (param_name) {
      case CL_KERNEL_GLOBAL_WORK_SIZE:
        // "CL_INVALID_VALUE if param_name is CL_KERNEL_GLOBAL_WORK_SIZE and
        // device is not a custom device and kernel is not a built-in kernel."
        fail(CL_INVALID_VALUE);
      case CL_KERNEL_WORK_GROUP_SIZE:
        return out.value<size_t>(k->maxWorkGroupSize());
      case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
        const uint32_t *required = description.requiredWorkGroupSize;
        size_t sizes[3] = {required[0], required[1], required[2]};
        return out.value(sizes);
      }
      case CL_KERNEL_LOCAL_MEM_SIZE:
        return out.value<cl_ulong>(k->localMemorySize());
      case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
        return out.value<size_t>(description.preferredWorkGroupSizeMultiple);
      case CL_KERNEL_PRIVATE_MEM_SIZE:
        return out.value<cl_ulong>(description.privateMemorySize);
      default:
        fail(CL_INVALID_VALUE);
    }
  });
}

cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                                           cl_kernel_sub_group_info param_name,
                                           size_t input_value_size, const void *input_value,
                                           size_t param_value_size, void *param_value,
                                           size_t *param_value_size_ret) {
  return guarded([&] {
    _cl_kernel *k = checked(kernel);
    checkKernelDevice(*k, device);
    // "CL_INVALID_OPERATION if device does not support subgroups."
    uint64_t size = k->description().subGroupSize;
    check(compiler::Compiler::instance().languageSupport().subGroupSize != 0 && size != 0,
          CL_INVALID_OPERATION);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    // A local size given as input: 1 to 3 size_t values.
    auto localSizeProduct = [&] {
      check(input_value != nullptr && input_value_size != 0 && input_value_size % sizeof(size_t) == 0 &&
                input_value_size <= 3 * sizeof(size_t),
            CL_INVALID_VALUE);
      const size_t *sizes = static_cast<const size_t *>(input_value);
      uint64_t product = 1;
      for (size_t d = 0; d < input_value_size / sizeof(size_t); ++d) product *= sizes[d];
      return product;
    };
    uint64_t maxGroup = k->maxWorkGroupSize();
    switch (param_name) {
      case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
        out.value<size_t>(std::min<uint64_t>(size, localSizeProduct()));
        return;
      case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE:
        out.value<size_t>((localSizeProduct() + size - 1) / size);
        return;
      case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
        check(input_value != nullptr && input_value_size == sizeof(size_t), CL_INVALID_VALUE);
        size_t count = *static_cast<const size_t *>(input_value);
        // As many dimensions as param_value has room for; (count * size, 1, 1),
        // or zeros when no local size gives that many sub-groups.
        size_t dims = param_value ? param_value_size / sizeof(size_t) : 3;
        check(dims >= 1 && dims <= 3 && (!param_value || param_value_size % sizeof(size_t) == 0),
              CL_INVALID_VALUE);
        size_t local[3] = {0, 0, 0};
        if (count != 0 && count * size <= maxGroup) {
          local[0] = count * size;
          local[1] = local[2] = 1;
        }
        out.array(std::span<const size_t>(local, dims));
        return;
      }
      case CL_KERNEL_MAX_NUM_SUB_GROUPS:
        out.value<size_t>((maxGroup + size - 1) / size);
        return;
      case CL_KERNEL_COMPILE_NUM_SUB_GROUPS:
        out.value<size_t>(0);  // no attribute fixes the number of sub-groups
        return;
      default:
        fail(CL_INVALID_VALUE);
    }
  });
}

// cl_khr_subgroups' name for the same query (the loader dispatches it
// through its own slot of the dispatch table).
cl_int CL_API_CALL clGetKernelSubGroupInfoKHR(cl_kernel kernel, cl_device_id device,
                                              cl_kernel_sub_group_info param_name, size_t input_value_size,
                                              const void *input_value, size_t param_value_size,
                                              void *param_value, size_t *param_value_size_ret) {
  return api::clGetKernelSubGroupInfo(kernel, device, param_name, input_value_size, input_value, param_value_size,
                                 param_value, param_value_size_ret);
}

}  // namespace lockstep::api

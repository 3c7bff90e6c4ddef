// clSetKernelArg: the spec's checks of arg_index, arg_size and arg_value
// against the kind of the argument (buffer, image, pipe, sampler, __local,
// value, device queue), in the order the OpenCL 3.0 API specification lists
// its errors; the kernel then records the value (_cl_kernel::setArgument). And the SVM
// side of a kernel's arguments: clSetKernelArgSVMPointer (a pointer
// argument given SVM or any host memory) and clSetKernelExecInfo.
#include <cstring>

#include "Context.h"
#include "Kernel.h"
#include "Memory.h"
#include "Queue.h"
#include "Sampler.h"
#include "api/entry_points.h"

namespace lockstep::api {

using namespace runtime;
using compiler::ArgKind;

namespace {

void checkBuffer(const _cl_kernel &kernel, size_t size, const void *value) {
  // "CL_INVALID_ARG_SIZE if ... the argument is a memory object and arg_size
  // != sizeof(cl_mem)". Checked first: arg_value points at arg_size bytes.
  check(size == sizeof(cl_mem), CL_INVALID_ARG_SIZE);
  // "the arg_value pointer can be NULL or point to a NULL value in which case
  // a NULL value will be used as the value for the argument declared as a
  // pointer to global or constant memory in the kernel."
  cl_mem mem = value ? *static_cast<const cl_mem *>(value) : nullptr;
  if (!mem) return;
  // "CL_INVALID_MEM_OBJECT for an argument declared to be a memory object
  // when the specified arg_value is not a valid memory object": a pointer
  // argument takes a buffer, not an image's storage.
  check(isValid(mem) && mem->context() == kernel.context() && mem->type() == CL_MEM_OBJECT_BUFFER,
        CL_INVALID_MEM_OBJECT);
}

void checkImage(const _cl_kernel &kernel, const compiler::KernelArgument &arg, size_t size,
                const void *value) {
  // "CL_INVALID_ARG_SIZE if ... the argument is a memory object and arg_size
  // != sizeof(cl_mem)"; an image argument has no NULL value.
  check(size == sizeof(cl_mem), CL_INVALID_ARG_SIZE);
  check(value != nullptr, CL_INVALID_ARG_VALUE);
  cl_mem mem = *static_cast<const cl_mem *>(value);
  // "CL_INVALID_MEM_OBJECT for an argument declared to be a memory object
  // when the specified arg_value is not a valid memory object" (an image).
  check(isValid(mem) && mem->image() && mem->context() == kernel.context(), CL_INVALID_MEM_OBJECT);
  // An image of another type than declared (image2d_depth_t is declared
  // as CL_MEM_OBJECT_IMAGE2D) is no valid value.
  check(mem->type() == arg.imageType, CL_INVALID_ARG_VALUE);
  // "CL_INVALID_ARG_VALUE if the argument is an image declared with the
  // read_only qualifier and arg_value refers to an image object created
  // with cl_mem_flags of CL_MEM_WRITE_ONLY or if the image argument is
  // declared with the write_only qualifier and arg_value refers to an image
  // object created with cl_mem_flags of CL_MEM_READ_ONLY."
  if (arg.accessQualifier == CL_KERNEL_ARG_ACCESS_READ_ONLY)
    check(!(mem->flags() & CL_MEM_WRITE_ONLY), CL_INVALID_ARG_VALUE);
  if (arg.accessQualifier == CL_KERNEL_ARG_ACCESS_WRITE_ONLY)
    check(!(mem->flags() & CL_MEM_READ_ONLY), CL_INVALID_ARG_VALUE);
}

void checkPipe(const _cl_kernel &kernel, size_t size, const void *value) {
  // "CL_INVALID_ARG_SIZE if ... the argument is a memory object and arg_size
  // != sizeof(cl_mem)"; a pipe argument has no NULL value.
  check(size == sizeof(cl_mem), CL_INVALID_ARG_SIZE);
  check(value != nullptr, CL_INVALID_ARG_VALUE);
  cl_mem mem = *static_cast<const cl_mem *>(value);
  // "CL_INVALID_MEM_OBJECT for an argument declared to be a memory object
  // when the specified arg_value is not a valid memory object".
  check(isValid(mem) && mem->context() == kernel.context(), CL_INVALID_MEM_OBJECT);
  // A buffer or image is no value for a pipe argument (nor a pipe for a
  // pointer: checkBuffer).
  check(mem->type() == CL_MEM_OBJECT_PIPE, CL_INVALID_ARG_VALUE);
}

void checkSampler(size_t size, const void *value) {
  // "CL_INVALID_ARG_SIZE if ... the argument is a sampler and arg_size
  // != sizeof(cl_sampler)": before the value is read as one.
  check(size == sizeof(cl_sampler), CL_INVALID_ARG_SIZE);
  // "CL_INVALID_SAMPLER for an argument declared to be of type sampler_t
  // when the specified arg_value is not a valid sampler object" (a NULL
  // arg_value too, as the Khronos CTS expects).
  check(value != nullptr, CL_INVALID_SAMPLER);
  check(isValid(*static_cast<const cl_sampler *>(value)), CL_INVALID_SAMPLER);
}

void checkLocal(size_t size, const void *value) {
  // "CL_INVALID_ARG_VALUE if ... arg_value is not NULL for an argument
  // declared with the __local qualifier."
  check(value == nullptr, CL_INVALID_ARG_VALUE);
  // "CL_INVALID_ARG_SIZE if arg_size is zero and the argument is declared
  // with the local qualifier."
  check(size != 0, CL_INVALID_ARG_SIZE);
}

void checkValue(const compiler::KernelArgument &arg, size_t size, const void *value) {
  // "CL_INVALID_ARG_VALUE if arg_value specified is not a valid value."
  check(value != nullptr, CL_INVALID_ARG_VALUE);
  // "CL_INVALID_ARG_SIZE if arg_size does not match the size of the data
  // type for an argument that is not a memory object". The compiler's size is
  // the allocation size, so a 3-component vector takes 4 components.
  check(size == arg.size, CL_INVALID_ARG_SIZE);
}

// A queue_t argument (device-side enqueue): "CL_INVALID_DEVICE_QUEUE for an
// argument declared to be of type queue_t when the specified arg_value is
// not a valid device queue object" (of the kernel's context).
void checkDeviceQueue(const _cl_kernel &kernel, size_t size, const void *value) {
  check(size == sizeof(cl_command_queue), CL_INVALID_ARG_SIZE);
  check(value != nullptr, CL_INVALID_DEVICE_QUEUE);
  cl_command_queue queue;
  std::memcpy(&queue, value, sizeof queue);
  check(isValid(queue) && queue->onDevice() && queue->context() == kernel.context(), CL_INVALID_DEVICE_QUEUE);
}

}  // namespace

cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                  const void *arg_value) {
  return guarded([&] {
    _cl_kernel *k = checked(kernel);
    // "CL_INVALID_ARG_INDEX if arg_index is not a valid argument index."
    check(arg_index < k->argumentCount(), CL_INVALID_ARG_INDEX);
    const compiler::KernelArgument &arg = k->argument(arg_index);
    switch (arg.kind) {
      case ArgKind::GlobalPointer:
      case ArgKind::ConstantPointer:
        checkBuffer(*k, arg_size, arg_value);
        break;
      case ArgKind::Image:
        checkImage(*k, arg, arg_size, arg_value);
        break;
      case ArgKind::Pipe:
        checkPipe(*k, arg_size, arg_value);
        break;
      case ArgKind::Sampler:
        checkSampler(arg_size, arg_value);
        break;
      case ArgKind::LocalPointer:
        checkLocal(arg_size, arg_value);
        break;
      case ArgKind::Value:
        if (arg.typeName == "queue_t") checkDeviceQueue(*k, arg_size, arg_value);
        else checkValue(arg, arg_size, arg_value);
        break;
    }
    k->setArgument(arg_index, arg_size, arg_value);
  });
}

cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index,
                                            const void *arg_value) {
  return guarded([&] {
    _cl_kernel *k = checked(kernel);
    // The device supports SVM: "CL_INVALID_OPERATION if no devices in the
    // context associated with kernel support SVM" never applies.
    // "CL_INVALID_ARG_INDEX if arg_index is not a valid argument index."
    check(arg_index < k->argumentCount(), CL_INVALID_ARG_INDEX);
    // "The SVM pointer can only be used for arguments that are declared to
    // be a pointer to global or constant memory": for any other, arg_value
    // is "not a valid value" (CL_INVALID_ARG_VALUE). Any pointer is valid
    // for those (fine-grained system SVM: memory the application allocated
    // itself too); NULL is a NULL pointer.
    ArgKind kind = k->argument(arg_index).kind;
    check(kind == ArgKind::GlobalPointer || kind == ArgKind::ConstantPointer,
          CL_INVALID_ARG_VALUE);
    // What bounds-checked kernels may reach: up to the end of the SVM
    // allocation the pointer lies in (which may start before it); memory
    // clSVMAlloc did not make has no known end.
    std::optional<SvmAllocation> allocation = k->context()->svm().find(arg_value);
    k->setSvmArgument(arg_index, arg_value,
                      allocation ? allocation->bytesFrom(arg_value) : _cl_kernel::kNoLimit);
  });
}

// cl_intel_unified_shared_memory: a USM pointer is an SVM pointer here (the
// registry bounds it by its allocation alike).
cl_int CL_API_CALL clSetKernelArgMemPointerINTEL(cl_kernel kernel, cl_uint arg_index,
                                                 const void *arg_value) {
  return api::clSetKernelArgSVMPointer(kernel, arg_index, arg_value);
}

cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name,
                                       size_t param_value_size, const void *param_value) {
  return guarded([&] {
    checked(kernel);
    // "CL_INVALID_VALUE if param_value is NULL and param_value_size is
    // greater than zero".
    check(param_value != nullptr || param_value_size == 0, CL_INVALID_VALUE);
    switch (param_name) {
      case CL_KERNEL_EXEC_INFO_SVM_PTRS:
        // The SVM allocations the kernel may reach besides its arguments,
        // as an array of pointers ("or if the size specified by
        // param_value_size is not valid": not a whole number of them). On
        // a CPU every allocation is in reach of every kernel already:
        // there is nothing to make resident, so the set is not kept.
        check(param_value_size % sizeof(void *) == 0, CL_INVALID_VALUE);
        return;
      case CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL:
        // The USM allocations reached other than through arguments: on a
        // CPU as in reach as SVM's, so validated alike and not kept.
        check(param_value_size % sizeof(void *) == 0, CL_INVALID_VALUE);
        return;
      case CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL:
      case CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL:
      case CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL:
        // A cl_bool: whether the kernel may reach allocations of that kind
        // that are not its arguments. Every allocation is host memory in
        // reach of every kernel: nothing to record.
      case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM:
        // A cl_bool. CL_TRUE is always allowed (the device supports
        // fine-grained system SVM), and CL_FALSE only makes such accesses
        // undefined: nothing to record either way.
        check(param_value_size == sizeof(cl_bool) && param_value != nullptr, CL_INVALID_VALUE);
        return;
      default:
        // "CL_INVALID_VALUE if param_name is not valid".
        fail(CL_INVALID_VALUE);
    }
  });
}

}  // namespace lockstep::api

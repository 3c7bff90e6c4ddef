// Pipes (OpenCL 2.x/3.0, __opencl_c_pipes): clCreatePipe and clGetPipeInfo.
// A pipe is a memory object (CL_MEM_OBJECT_PIPE) whose storage is laid out
// as lockstep/compiler/PipeAbi.h says; kernels take it as a pipe argument
// (api/kernel_arguments.cpp) and move packets through it with the pipe
// built-ins (builtins/lib/pipe.cl, compiler/lib/PipeRuntime.cpp). The host
// has no access to its packets: every command that reads, writes, copies,
// fills or maps memory refuses a pipe (they take buffers or images only).
// docs/pipes.md says how it works.
#include "Context.h"
#include "Device.h"
#include "Memory.h"
#include "api/entry_points.h"
#include "lockstep/compiler/PipeAbi.h"

using namespace lockstep::runtime;

namespace lockstep::api {

namespace {

cl_mem createPipe(cl_context context, cl_mem_flags flags, cl_uint packetSize, cl_uint maxPackets,
                  const cl_pipe_properties *properties) {
  _cl_context *ctx = checked(context);
  // "CL_INVALID_VALUE if values specified in flags are not as defined
  // above": "Only CL_MEM_READ_WRITE and CL_MEM_HOST_NO_ACCESS can be
  // specified when creating a pipe object. If the value specified for flags
  // is 0, the default is used which is CL_MEM_READ_WRITE |
  // CL_MEM_HOST_NO_ACCESS."
  check((flags & ~cl_mem_flags(CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS)) == 0, CL_INVALID_VALUE);
  if (flags == 0) flags = CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS;
  // "CL_INVALID_VALUE if properties is not NULL" and names a property:
  // OpenCL 3.0 defines none, so only an empty list (a lone 0) is valid.
  check(properties == nullptr || properties[0] == 0, CL_INVALID_VALUE);
  // "CL_INVALID_PIPE_SIZE if pipe_packet_size is 0 or the pipe_packet_size
  // exceeds CL_DEVICE_PIPE_MAX_PACKET_SIZE value ... for all devices in
  // context or if pipe_max_packets is 0."
  check(packetSize != 0 && packetSize <= _cl_device_id::kPipeMaxPacketSize, CL_INVALID_PIPE_SIZE);
  check(maxPackets != 0, CL_INVALID_PIPE_SIZE);
  // "CL_MEM_OBJECT_ALLOCATION_FAILURE if there is a failure to allocate
  // memory for the pipe object": more than any device may allocate at once.
  uint64_t bytes = compiler::pipeStorageBytes(packetSize, maxPackets);
  bool fits = false;
  for (cl_device_id device : ctx->devices()) fits |= bytes <= device->maxAllocSize;
  check(fits, CL_MEM_OBJECT_ALLOCATION_FAILURE);
  return new _cl_mem(context, flags, _cl_mem::PipeShape{packetSize, maxPackets, properties != nullptr});
}

}  // namespace

cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags flags, cl_uint pipe_packet_size,
                                cl_uint pipe_max_packets, const cl_pipe_properties *properties,
                                cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&] {
    return createPipe(context, flags, pipe_packet_size, pipe_max_packets, properties);
  });
}

cl_int CL_API_CALL clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name, size_t param_value_size,
                                 void *param_value, size_t *param_value_size_ret) {
  return guarded([&] {
    // "CL_INVALID_MEM_OBJECT if pipe is a not a valid pipe object."
    check(isValid(pipe) && pipe->pipe() != nullptr, CL_INVALID_MEM_OBJECT);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
      case CL_PIPE_PACKET_SIZE:
        return out.value<cl_uint>(pipe->pipe()->packetSize);
      case CL_PIPE_MAX_PACKETS:
        return out.value<cl_uint>(pipe->pipe()->maxPackets);
      case CL_PIPE_PROPERTIES:
      {
        // "If the properties argument specified in clCreatePipe used to
        // create pipe was not NULL, the implementation must return the
        // values specified in the properties argument in the same order"
        // (OpenCL 3.0 defines no property: the list was its terminator);
        // if it "was NULL, the implementation must return
        // param_value_size_ret equal to 0".
        static constexpr cl_pipe_properties kTerminator[] = {0};
        if (pipe->pipe()->emptyProperties) return out.array<cl_pipe_properties>(kTerminator);
        return out.array<cl_pipe_properties>({});
      }
      default:
        fail(CL_INVALID_VALUE);
    }
  });
}

}  // namespace lockstep::api

// Pipes, the host side: the device queries and feature macro, clCreatePipe's
// and clGetPipeInfo's validation and answers, a pipe as a memory object
// (clGetMemObjectInfo, reference counts, destructor callbacks), the host
// commands that refuse it, and a pipe as a kernel argument (clSetKernelArg,
// clGetKernelArgInfo). What kernels do with pipes is in test_pipe_kernels.cpp
// and test_pipe_collectives.cpp.
#include "ClTest.h"

namespace lockstep::test {
namespace {

class Pipes : public ClTest {
 protected:
  cl_mem pipe(cl_uint packetSize, cl_uint maxPackets, cl_mem_flags flags = CL_MEM_HOST_NO_ACCESS,
              const cl_pipe_properties *properties = nullptr) {
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreatePipe(context_, flags, packetSize, maxPackets, properties, &err);
    EXPECT_EQ(err, CL_SUCCESS) << errorName(err);
    return mem ? track(mem) : nullptr;
  }
  cl_int createError(cl_context context, cl_mem_flags flags, cl_uint packetSize, cl_uint maxPackets,
                     const cl_pipe_properties *properties = nullptr) {
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreatePipe(context, flags, packetSize, maxPackets, properties, &err);
    if (mem) clReleaseMemObject(mem);
    EXPECT_EQ(mem == nullptr, err != CL_SUCCESS);
    return err;
  }
};

TEST_F(Pipes, DeviceReportsPipes) {
  EXPECT_EQ(deviceInfo<cl_bool>(device_, CL_DEVICE_PIPE_SUPPORT), CL_TRUE);
  EXPECT_GE(deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_PIPE_ARGS), 16u);
  EXPECT_GE(deviceInfo<cl_uint>(device_, CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS), 1u);
  EXPECT_GE(deviceInfo<cl_uint>(device_, CL_DEVICE_PIPE_MAX_PACKET_SIZE), 1024u);
  // Pipes need the generic address space (the CTS checks the pair).
  EXPECT_EQ(deviceInfo<cl_bool>(device_, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT), CL_TRUE);
  EXPECT_TRUE(hasFeature("__opencl_c_pipes"));
  // The macro and the pipe type in OpenCL C 3.0; pipes in 2.0 without one
  // (offered once every OpenCL C 2.0 feature is).
  const char *source = R"CLC(
#if defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ >= 300 && !defined(__opencl_c_pipes)
#error __opencl_c_pipes missing
#endif
kernel void k(read_only pipe int p, global int *out) { out[0] = get_pipe_max_packets(p); }
)CLC";
  EXPECT_NE(kernel(source, "k", "-cl-std=CL3.0"), nullptr);
  if (offersOpenCLC(2, 0)) EXPECT_NE(kernel(source, "k", "-cl-std=CL2.0"), nullptr);
}

TEST_F(Pipes, CreateValidatesItsArguments) {
  const cl_uint maxPacket = deviceInfo<cl_uint>(device_, CL_DEVICE_PIPE_MAX_PACKET_SIZE);
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT, createError(nullptr, 0, 4, 4));
  // Only CL_MEM_READ_WRITE and CL_MEM_HOST_NO_ACCESS.
  for (cl_mem_flags flags : {cl_mem_flags(CL_MEM_READ_ONLY), cl_mem_flags(CL_MEM_WRITE_ONLY),
                             cl_mem_flags(CL_MEM_USE_HOST_PTR), cl_mem_flags(CL_MEM_ALLOC_HOST_PTR),
                             cl_mem_flags(CL_MEM_COPY_HOST_PTR), cl_mem_flags(CL_MEM_HOST_READ_ONLY),
                             cl_mem_flags(CL_MEM_HOST_WRITE_ONLY), cl_mem_flags(CL_MEM_READ_WRITE | CL_MEM_READ_ONLY),
                             cl_mem_flags(1) << 40}) {
    SCOPED_TRACE(flags);
    EXPECT_CL_ERROR(CL_INVALID_VALUE, createError(context_, flags, 4, 4));
  }
  EXPECT_CL_ERROR(CL_INVALID_PIPE_SIZE, createError(context_, 0, 0, 4));
  EXPECT_CL_ERROR(CL_INVALID_PIPE_SIZE, createError(context_, 0, maxPacket + 1, 4));
  EXPECT_CL_ERROR(CL_INVALID_PIPE_SIZE, createError(context_, 0, 4, 0));
  const cl_pipe_properties unknown[] = {0x1234, 1, 0};
  EXPECT_CL_ERROR(CL_INVALID_VALUE, createError(context_, 0, 4, 4, unknown));
  // More than the device may allocate.
  EXPECT_CL_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE, createError(context_, 0, maxPacket, 0xffffffffu));
  // The valid ones.
  for (cl_mem_flags flags : {cl_mem_flags(0), cl_mem_flags(CL_MEM_READ_WRITE), cl_mem_flags(CL_MEM_HOST_NO_ACCESS),
                             cl_mem_flags(CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS)}) {
    SCOPED_TRACE(flags);
    EXPECT_CL(createError(context_, flags, 4, 4));
  }
  EXPECT_CL(createError(context_, 0, maxPacket, 2));
}

TEST_F(Pipes, InfoAnswersWhatWasAsked) {
  cl_mem p = pipe(48, 1000);
  ASSERT_NE(p, nullptr);
  cl_uint value = 0;
  EXPECT_CL(clGetPipeInfo(p, CL_PIPE_PACKET_SIZE, sizeof value, &value, nullptr));
  EXPECT_EQ(value, 48u);
  EXPECT_CL(clGetPipeInfo(p, CL_PIPE_MAX_PACKETS, sizeof value, &value, nullptr));
  EXPECT_EQ(value, 1000u);
  size_t size = 1;
  EXPECT_CL(clGetPipeInfo(p, CL_PIPE_PROPERTIES, 0, nullptr, &size));
  EXPECT_EQ(size, 0u);  // created with NULL properties
  const cl_pipe_properties empty[] = {0};
  cl_mem q = pipe(4, 4, 0, empty);
  ASSERT_NE(q, nullptr);
  EXPECT_CL(clGetPipeInfo(q, CL_PIPE_PROPERTIES, 0, nullptr, &size));
  EXPECT_EQ(size, sizeof(cl_pipe_properties));
  cl_pipe_properties back = 7;
  EXPECT_CL(clGetPipeInfo(q, CL_PIPE_PROPERTIES, sizeof back, &back, nullptr));
  EXPECT_EQ(back, 0);
  // Errors.
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetPipeInfo(p, CL_PIPE_PACKET_SIZE, 1, &value, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetPipeInfo(p, 0x1234, sizeof value, &value, nullptr));
  cl_mem notAPipe = buffer(CL_MEM_READ_WRITE, 64);
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clGetPipeInfo(notAPipe, CL_PIPE_PACKET_SIZE, sizeof value, &value, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clGetPipeInfo(nullptr, CL_PIPE_PACKET_SIZE, sizeof value, &value, nullptr));
}

TEST_F(Pipes, IsAMemoryObject) {
  cl_mem p = pipe(16, 100, 0);
  ASSERT_NE(p, nullptr);
  cl_mem_object_type type = 0;
  EXPECT_CL(clGetMemObjectInfo(p, CL_MEM_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(type, cl_mem_object_type(CL_MEM_OBJECT_PIPE));
  cl_mem_flags flags = 0;
  EXPECT_CL(clGetMemObjectInfo(p, CL_MEM_FLAGS, sizeof flags, &flags, nullptr));
  EXPECT_EQ(flags, cl_mem_flags(CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS));  // the default for 0
  size_t size = 0;
  EXPECT_CL(clGetMemObjectInfo(p, CL_MEM_SIZE, sizeof size, &size, nullptr));
  EXPECT_GE(size, size_t{16 * 100});  // the packets and the pipe's own bookkeeping
  void *hostPtr = &size;
  EXPECT_CL(clGetMemObjectInfo(p, CL_MEM_HOST_PTR, sizeof hostPtr, &hostPtr, nullptr));
  EXPECT_EQ(hostPtr, nullptr);
  cl_context context = nullptr;
  EXPECT_CL(clGetMemObjectInfo(p, CL_MEM_CONTEXT, sizeof context, &context, nullptr));
  EXPECT_EQ(context, context_);
  EXPECT_CL(clGetMemObjectInfo(p, CL_MEM_PROPERTIES, 0, nullptr, &size));
  EXPECT_EQ(size, 0u);
  cl_mem q = pipe(4, 4, CL_MEM_READ_WRITE);
  EXPECT_CL(clGetMemObjectInfo(q, CL_MEM_FLAGS, sizeof flags, &flags, nullptr));
  EXPECT_EQ(flags, cl_mem_flags(CL_MEM_READ_WRITE));

  // Reference counts and destructor callbacks, which run when the last
  // reference goes.
  cl_int err = CL_SUCCESS;
  cl_mem r = clCreatePipe(context_, 0, 8, 8, nullptr, &err);
  ASSERT_CL(err);
  cl_uint count = 0;
  EXPECT_CL(clRetainMemObject(r));
  EXPECT_CL(clGetMemObjectInfo(r, CL_MEM_REFERENCE_COUNT, sizeof count, &count, nullptr));
  EXPECT_EQ(count, 2u);
  std::vector<int> calls;
  auto first = [](cl_mem, void *data) { static_cast<std::vector<int> *>(data)->push_back(1); };
  auto second = [](cl_mem, void *data) { static_cast<std::vector<int> *>(data)->push_back(2); };
  EXPECT_CL(clSetMemObjectDestructorCallback(r, first, &calls));
  EXPECT_CL(clSetMemObjectDestructorCallback(r, second, &calls));
  EXPECT_CL(clReleaseMemObject(r));
  EXPECT_TRUE(calls.empty());
  EXPECT_CL(clReleaseMemObject(r));
  EXPECT_EQ(calls, (std::vector<int>{2, 1}));  // in reverse order of registration
}

TEST_F(Pipes, HostCommandsRefuseAPipe) {
  cl_mem p = pipe(4, 64);
  ASSERT_NE(p, nullptr);
  cl_mem b = buffer(CL_MEM_READ_WRITE, 256);
  std::vector<char> host(256);
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clEnqueueReadBuffer(queue_, p, CL_TRUE, 0, 4, host.data(), 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clEnqueueWriteBuffer(queue_, p, CL_TRUE, 0, 4, host.data(), 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clEnqueueCopyBuffer(queue_, p, b, 0, 0, 4, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clEnqueueCopyBuffer(queue_, b, p, 0, 0, 4, 0, nullptr, nullptr));
  int zero = 0;
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clEnqueueFillBuffer(queue_, p, &zero, sizeof zero, 0, 4, 0, nullptr, nullptr));
  const size_t origin[3] = {0, 0, 0}, region[3] = {4, 1, 1};
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clEnqueueReadBufferRect(queue_, p, CL_TRUE, origin, origin, region, 0, 0, 0,
                                                                 0, host.data(), 0, nullptr, nullptr));
  cl_int err = CL_SUCCESS;
  void *mapped = clEnqueueMapBuffer(queue_, p, CL_TRUE, CL_MAP_READ, 0, 4, 0, nullptr, nullptr, &err);
  EXPECT_EQ(mapped, nullptr);
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, err);
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clEnqueueUnmapMemObject(queue_, p, host.data(), 0, nullptr, nullptr));
  cl_buffer_region sub = {0, 4};
  cl_mem subBuffer = clCreateSubBuffer(p, 0, CL_BUFFER_CREATE_TYPE_REGION, &sub, &err);
  EXPECT_EQ(subBuffer, nullptr);
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, err);
  cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT8};
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT,
                  clGetImageInfo(p, CL_IMAGE_FORMAT, sizeof format, &format, nullptr));
}

TEST_F(Pipes, KernelArguments) {
  const char *source = R"CLC(
typedef struct { int a; float b[3]; } Packet;
kernel void k(read_only pipe int in, write_only pipe float4 out, global int *data,
              const read_only pipe Packet structs) {
  int v;
  if (read_pipe(in, &v) == 0) data[0] = v;
}
)CLC";
  cl_kernel k = kernel(source, "k", "-cl-std=CL3.0 -cl-kernel-arg-info");
  ASSERT_NE(k, nullptr);
  cl_mem p = pipe(4, 4), b = buffer(CL_MEM_READ_WRITE, 16);
  EXPECT_CL(clSetKernelArg(k, 0, sizeof p, &p));
  EXPECT_CL(clSetKernelArg(k, 1, sizeof p, &p));
  EXPECT_CL(clSetKernelArg(k, 3, sizeof p, &p));
  // A buffer is no pipe, and a pipe no buffer.
  EXPECT_CL_ERROR(CL_INVALID_ARG_VALUE, clSetKernelArg(k, 0, sizeof b, &b));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 2, sizeof p, &p));
  EXPECT_CL_ERROR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 0, sizeof p - 1, &p));
  EXPECT_CL_ERROR(CL_INVALID_ARG_VALUE, clSetKernelArg(k, 0, sizeof p, nullptr));
  cl_mem null = nullptr;
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 0, sizeof null, &null));
  EXPECT_CL_ERROR(CL_INVALID_ARG_VALUE, clSetKernelArgSVMPointer(k, 0, b));

  struct Expected {
    const char *type;
    cl_kernel_arg_access_qualifier access;
    cl_kernel_arg_type_qualifier qualifier;
    cl_kernel_arg_address_qualifier address;
  };
  const Expected expected[] = {
      {"int", CL_KERNEL_ARG_ACCESS_READ_ONLY, CL_KERNEL_ARG_TYPE_PIPE, CL_KERNEL_ARG_ADDRESS_GLOBAL},
      {"float4", CL_KERNEL_ARG_ACCESS_WRITE_ONLY, CL_KERNEL_ARG_TYPE_PIPE, CL_KERNEL_ARG_ADDRESS_GLOBAL},
      {"int*", CL_KERNEL_ARG_ACCESS_NONE, CL_KERNEL_ARG_TYPE_NONE, CL_KERNEL_ARG_ADDRESS_GLOBAL},
      {"Packet", CL_KERNEL_ARG_ACCESS_READ_ONLY, CL_KERNEL_ARG_TYPE_PIPE, CL_KERNEL_ARG_ADDRESS_GLOBAL},
  };
  for (cl_uint i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    char type[64] = {};
    EXPECT_CL(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, nullptr));
    EXPECT_STREQ(type, expected[i].type);
    cl_kernel_arg_access_qualifier access = 0;
    EXPECT_CL(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access, &access, nullptr));
    EXPECT_EQ(access, expected[i].access);
    cl_kernel_arg_type_qualifier qualifier = 0;
    EXPECT_CL(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof qualifier, &qualifier, nullptr));
    EXPECT_EQ(qualifier, expected[i].qualifier);
    cl_kernel_arg_address_qualifier address = 0;
    EXPECT_CL(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof address, &address, nullptr));
    EXPECT_EQ(address, expected[i].address);
  }
}

}  // namespace
}  // namespace lockstep::test

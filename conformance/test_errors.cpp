// Bad arguments get the spec's error code, never a crash. Handles of the wrong
// kind (a cl_mem passed as a cl_kernel) reach Lockstep through the loader's
// dispatch table, so they test Lockstep's own handle checks.
#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ClTest.h"

namespace lockstep::test {
namespace {

class Errors : public ClTest {
 protected:
  void SetUp() override {
    ClTest::SetUp();
    if (HasFatalFailure()) return;
    program_ = build(R"CLC(
      kernel void k(global int *out, int value, local int *scratch) {
        scratch[get_local_id(0)] = value;
        out[get_global_id(0)] = scratch[get_local_id(0)];
      }
      __attribute__((reqd_work_group_size(8, 1, 1)))
      kernel void fixed(global int *out) { out[get_global_id(0)] = 1; }
    )CLC");
    ASSERT_NE(program_, nullptr);
    kernel_ = kernelOf(program_, "k");
    mem_ = buffer(CL_MEM_READ_WRITE, 1024);
    ASSERT_TRUE(kernel_ && mem_);
  }
  template <typename To, typename From>
  static To as(From handle) {  // deliberately the wrong kind of handle
    return reinterpret_cast<To>(handle);
  }
  cl_program program_ = nullptr;
  cl_kernel kernel_ = nullptr;
  cl_mem mem_ = nullptr;
};

TEST_F(Errors, PlatformAndDevice) {
  cl_platform_id platform = nullptr;
  cl_uint count = 0;
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetPlatformIDs(0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetPlatformIDs(0, &platform, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetPlatformInfo(platform_, 0x7fff0000, 0, nullptr, nullptr));
  char tiny[2];
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clGetPlatformInfo(platform_, CL_PLATFORM_VERSION, sizeof tiny, tiny, nullptr));
  EXPECT_CL_ERROR(CL_DEVICE_NOT_FOUND,
                  clGetDeviceIDs(platform_, CL_DEVICE_TYPE_GPU, 0, nullptr, &count));
  EXPECT_CL_ERROR(CL_INVALID_DEVICE_TYPE, clGetDeviceIDs(platform_, 0x10000, 0, nullptr, &count));
  cl_device_id device = nullptr;
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, 0, &device, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, 0, nullptr, nullptr));
  size_t size = 0;
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetDeviceInfo(device_, 0x7fff0000, 0, nullptr, &size));
  cl_uint units = 0;
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clGetDeviceInfo(device_, CL_DEVICE_MAX_COMPUTE_UNITS, 2, &units, nullptr));
}

TEST_F(Errors, Context) {
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateContext(nullptr, 1, nullptr, nullptr, nullptr, &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, err);
  EXPECT_EQ(clCreateContext(nullptr, 0, &device_, nullptr, nullptr, &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, err);
  int userData = 0;
  EXPECT_EQ(clCreateContext(nullptr, 1, &device_, nullptr, &userData, &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, err);
  cl_context_properties badProperty[] = {0x7fff0000, 0, 0};
  EXPECT_EQ(clCreateContext(badProperty, 1, &device_, nullptr, nullptr, &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_PROPERTY, err);
  cl_context_properties badPlatform[] = {CL_CONTEXT_PLATFORM,
                                         reinterpret_cast<cl_context_properties>(mem_), 0};
  EXPECT_EQ(clCreateContext(badPlatform, 1, &device_, nullptr, nullptr, &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_PLATFORM, err);
  cl_context_properties platformOnly[] = {CL_CONTEXT_PLATFORM,
                                          reinterpret_cast<cl_context_properties>(platform_), 0};
  EXPECT_EQ(clCreateContextFromType(platformOnly, CL_DEVICE_TYPE_GPU, nullptr, nullptr, &err),
            nullptr);
  EXPECT_CL_ERROR(CL_DEVICE_NOT_FOUND, err);
}

TEST_F(Errors, CommandQueue) {
  cl_int err = CL_SUCCESS;
  cl_queue_properties bogus[] = {0x7fff0000, 0, 0};
  EXPECT_EQ(clCreateCommandQueueWithProperties(context_, device_, bogus, &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, err);
  cl_queue_properties badBits[] = {CL_QUEUE_PROPERTIES, cl_queue_properties(1) << 40, 0};
  EXPECT_EQ(clCreateCommandQueueWithProperties(context_, device_, badBits, &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, err);
}

TEST_F(Errors, BufferCreation) {
  cl_int err = CL_SUCCESS;
  char host[64] = {};
  auto create = [&](cl_mem_flags flags, size_t size, void *ptr) {
    cl_mem mem = clCreateBuffer(context_, flags, size, ptr, &err);
    if (mem) clReleaseMemObject(mem);
    return mem;
  };
  EXPECT_EQ(create(CL_MEM_READ_WRITE, 0, nullptr), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_BUFFER_SIZE, err);
  EXPECT_EQ(create(CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, nullptr), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, err);
  EXPECT_EQ(create(CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 64, nullptr), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, err);
  EXPECT_EQ(create(CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 64, host), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, err);
  EXPECT_EQ(create(cl_mem_flags(1) << 40, 64, nullptr), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, err);
  EXPECT_EQ(create(CL_MEM_USE_HOST_PTR, 64, nullptr), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_HOST_PTR, err);
  EXPECT_EQ(create(CL_MEM_COPY_HOST_PTR, 64, nullptr), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_HOST_PTR, err);
  EXPECT_EQ(create(CL_MEM_READ_WRITE, 64, host), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_HOST_PTR, err);
  cl_ulong maxAlloc = deviceInfo<cl_ulong>(device_, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  EXPECT_EQ(create(CL_MEM_READ_WRITE, size_t(maxAlloc) + 1, nullptr), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_BUFFER_SIZE, err);
}

TEST_F(Errors, SubBuffers) {
  cl_int err = CL_SUCCESS;
  cl_uint alignBits = deviceInfo<cl_uint>(device_, CL_DEVICE_MEM_BASE_ADDR_ALIGN);
  size_t align = alignBits / 8;
  cl_mem parent = buffer(CL_MEM_READ_WRITE, align * 4);
  cl_buffer_region outside = {align * 3, align * 2};
  EXPECT_EQ(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &outside, &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, err);
  cl_buffer_region empty = {0, 0};
  EXPECT_EQ(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &empty, &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_BUFFER_SIZE, err);
  cl_buffer_region misaligned = {1, 16};
  EXPECT_EQ(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &misaligned, &err), nullptr);
  EXPECT_CL_ERROR(CL_MISALIGNED_SUB_BUFFER_OFFSET, err);
  cl_buffer_region good = {align, align};
  EXPECT_EQ(clCreateSubBuffer(parent, 0, 0x7fff, &good, &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, err);
  EXPECT_EQ(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, nullptr, &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, err);
  cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &good, &err);
  ASSERT_CL(err);
  cl_buffer_region inner = {0, 16};
  EXPECT_EQ(clCreateSubBuffer(sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &inner, &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, err);
  EXPECT_CL(clReleaseMemObject(sub));
  // A write-only parent cannot have a read-only sub-buffer.
  cl_mem writeOnly = buffer(CL_MEM_WRITE_ONLY, align * 2);
  EXPECT_EQ(
      clCreateSubBuffer(writeOnly, CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &good, &err),
      nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, err);
}

TEST_F(Errors, ReadWriteCopyFill) {
  static char host[16384] = {};  // larger than any refused copy
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueReadBuffer(queue_, mem_, CL_TRUE, 1000, 100, host, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueReadBuffer(queue_, mem_, CL_TRUE, 0, 16, nullptr, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST,
                  clEnqueueReadBuffer(queue_, mem_, CL_TRUE, 0, 16, host, 1, nullptr, nullptr));
  cl_mem noHost = buffer(CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS, 64);
  EXPECT_CL_ERROR(CL_INVALID_OPERATION,
                  clEnqueueReadBuffer(queue_, noHost, CL_TRUE, 0, 16, host, 0, nullptr, nullptr));
  cl_mem hostReadOnly = buffer(CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY, 64);
  EXPECT_CL_ERROR(CL_INVALID_OPERATION, clEnqueueWriteBuffer(queue_, hostReadOnly, CL_TRUE, 0, 16,
                                                             host, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_MEM_COPY_OVERLAP,
                  clEnqueueCopyBuffer(queue_, mem_, mem_, 0, 8, 64, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueCopyBuffer(queue_, mem_, mem_, 0, 1000, 64, 0, nullptr, nullptr));
  int pattern = 7;
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueFillBuffer(queue_, mem_, &pattern, 3, 0, 12, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueFillBuffer(queue_, mem_, &pattern, 4, 2, 16, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueFillBuffer(queue_, mem_, nullptr, 4, 0, 16, 0, nullptr, nullptr));
  size_t origin[3] = {0, 0, 0}, region[3] = {16, 4, 1};
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueReadBufferRect(queue_, mem_, CL_TRUE, origin, origin, region, 8, 0, 0, 0,
                                          host, 0, nullptr, nullptr));  // row pitch < width
  size_t bigRegion[3] = {64, 64, 1};
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueReadBufferRect(queue_, mem_, CL_TRUE, origin, origin, bigRegion, 0, 0, 0,
                                          0, host, 0, nullptr, nullptr));  // beyond the buffer
}

TEST_F(Errors, MapAndUnmap) {
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clEnqueueMapBuffer(queue_, mem_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION,
                               0, 64, 0, nullptr, nullptr, &err),
            nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, err);
  EXPECT_EQ(
      clEnqueueMapBuffer(queue_, mem_, CL_TRUE, CL_MAP_READ, 1000, 100, 0, nullptr, nullptr, &err),
      nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, err);
  cl_mem noHost = buffer(CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS, 64);
  EXPECT_EQ(
      clEnqueueMapBuffer(queue_, noHost, CL_TRUE, CL_MAP_READ, 0, 64, 0, nullptr, nullptr, &err),
      nullptr);
  EXPECT_CL_ERROR(CL_INVALID_OPERATION, err);
  char notMapped[16];
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueUnmapMemObject(queue_, mem_, notMapped, 0, nullptr, nullptr));
}

// The SVM entry points check their handles and wait lists like every other
// command: a queue, kernel or context of the wrong kind, a released queue,
// a wait list that is no list or holds an event of another context.
TEST_F(Errors, SvmHandlesAndWaitLists) {
  cl_int err = CL_SUCCESS;
  char *svm = static_cast<char *>(clSVMAlloc(context_, CL_MEM_READ_WRITE, 256, 0));
  ASSERT_NE(svm, nullptr);
  const int pattern = 7;
  const void *list[] = {svm};
  void *freeList[] = {svm};
  cl_command_queue released = clCreateCommandQueueWithProperties(context_, device_, nullptr, &err);
  ASSERT_CL(err);
  ASSERT_CL(clReleaseCommandQueue(released));
  for (cl_command_queue bad : {as<cl_command_queue>(mem_), as<cl_command_queue>(context_), released}) {
    EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE, clEnqueueSVMFree(bad, 1, freeList, nullptr, nullptr, 0, nullptr, nullptr));
    EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE, clEnqueueSVMMemcpy(bad, CL_TRUE, svm, svm + 128, 64, 0, nullptr, nullptr));
    EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE, clEnqueueSVMMemFill(bad, svm, &pattern, sizeof pattern, 64, 0, nullptr, nullptr));
    EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE, clEnqueueSVMMap(bad, CL_TRUE, CL_MAP_READ, svm, 64, 0, nullptr, nullptr));
    EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE, clEnqueueSVMUnmap(bad, svm, 0, nullptr, nullptr));
    EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE, clEnqueueSVMMigrateMem(bad, 1, list, nullptr, 0, 0, nullptr, nullptr));
  }
  // Wait lists: no list for a count, a list for no count, a handle that is
  // no event, an event of another context.
  cl_event notAnEvent = as<cl_event>(mem_);
  cl_context other = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &err);
  ASSERT_CL(err);
  cl_event foreign = clCreateUserEvent(other, &err);
  ASSERT_CL(err);
  struct Case {
    cl_uint count;
    const cl_event *events;
    cl_int expected;
  };
  for (Case c : {Case{1, nullptr, CL_INVALID_EVENT_WAIT_LIST}, Case{0, &notAnEvent, CL_INVALID_EVENT_WAIT_LIST},
                 Case{1, &notAnEvent, CL_INVALID_EVENT_WAIT_LIST}, Case{1, &foreign, CL_INVALID_CONTEXT}}) {
    SCOPED_TRACE(c.expected);
    EXPECT_CL_ERROR(c.expected, clEnqueueSVMFree(queue_, 1, freeList, nullptr, nullptr, c.count, c.events, nullptr));
    EXPECT_CL_ERROR(c.expected, clEnqueueSVMMemcpy(queue_, CL_TRUE, svm, svm + 128, 64, c.count, c.events, nullptr));
    EXPECT_CL_ERROR(c.expected, clEnqueueSVMMemFill(queue_, svm, &pattern, sizeof pattern, 64, c.count, c.events, nullptr));
    EXPECT_CL_ERROR(c.expected, clEnqueueSVMMap(queue_, CL_TRUE, CL_MAP_READ, svm, 64, c.count, c.events, nullptr));
    EXPECT_CL_ERROR(c.expected, clEnqueueSVMUnmap(queue_, svm, c.count, c.events, nullptr));
    EXPECT_CL_ERROR(c.expected, clEnqueueSVMMigrateMem(queue_, 1, list, nullptr, 0, c.count, c.events, nullptr));
  }
  EXPECT_CL(clSetUserEventStatus(foreign, CL_COMPLETE));
  EXPECT_CL(clReleaseEvent(foreign));
  EXPECT_CL(clReleaseContext(other));
  // Kernels and contexts of the wrong kind.
  EXPECT_CL_ERROR(CL_INVALID_KERNEL, clSetKernelArgSVMPointer(as<cl_kernel>(mem_), 0, svm));
  EXPECT_CL_ERROR(CL_INVALID_KERNEL, clSetKernelExecInfo(as<cl_kernel>(queue_), CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, nullptr));
  EXPECT_EQ(clSVMAlloc(as<cl_context>(queue_), CL_MEM_READ_WRITE, 64, 0), nullptr);
  clSVMFree(as<cl_context>(mem_), svm);  // nothing happens: the allocation stays
  EXPECT_CL(clEnqueueSVMMemFill(queue_, svm, &pattern, sizeof pattern, 256, 0, nullptr, nullptr));
  EXPECT_CL(clFinish(queue_));
  EXPECT_EQ(reinterpret_cast<int *>(svm)[63], pattern);
  // The allocation was freed by none of the refused frees.
  clSVMFree(context_, svm);
}

TEST_F(Errors, ProgramCreationAndBuild) {
  cl_int err = CL_SUCCESS;
  const char *text = "kernel void k(global int *o) { o[0] = 1; }";
  EXPECT_EQ(clCreateProgramWithSource(context_, 0, &text, nullptr, &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, err);
  EXPECT_EQ(clCreateProgramWithSource(context_, 1, nullptr, nullptr, &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, err);
  const char *nullString[] = {nullptr};
  EXPECT_EQ(clCreateProgramWithSource(context_, 1, nullString, nullptr, &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, err);

  cl_program unbuilt = clCreateProgramWithSource(context_, 1, &text, nullptr, &err);
  ASSERT_CL(err);
  EXPECT_EQ(clCreateKernel(unbuilt, "k", &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE, err);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clBuildProgram(unbuilt, 1, nullptr, "", nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clBuildProgram(unbuilt, 0, &device_, "", nullptr, nullptr));
  int userData = 0;
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clBuildProgram(unbuilt, 1, &device_, "", nullptr, &userData));
  EXPECT_CL(clReleaseProgram(unbuilt));

  EXPECT_EQ(clCreateKernel(program_, "no_such_kernel", &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_KERNEL_NAME, err);
  EXPECT_EQ(clCreateKernel(program_, nullptr, &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, err);
  cl_kernel one[1];
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clCreateKernelsInProgram(program_, 1, one, nullptr));

  size_t zero = 0;
  const unsigned char *bytes[] = {reinterpret_cast<const unsigned char *>(text)};
  cl_int status = CL_SUCCESS;
  EXPECT_EQ(clCreateProgramWithBinary(context_, 1, &device_, &zero, bytes, &status, &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, err);
  size_t length = 8;
  EXPECT_EQ(clCreateProgramWithBinary(context_, 0, &device_, &length, bytes, &status, &err),
            nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, err);
}

// A program binary with one byte changed or cut short (found by
// fuzz/host_api_fuzzer.cpp): "CL_INVALID_BINARY if an invalid program binary
// was encountered", at creation, before any of it reaches the compiler.
TEST_F(Errors, DamagedProgramBinary) {
  size_t size = 0;
  ASSERT_CL(clGetProgramInfo(program_, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr));
  ASSERT_GT(size, 64u);
  std::vector<unsigned char> binary(size);
  unsigned char *target = binary.data();
  ASSERT_CL(clGetProgramInfo(program_, CL_PROGRAM_BINARIES, sizeof target, &target, nullptr));
  auto refused = [&](std::vector<unsigned char> damaged) {
    const unsigned char *bytes = damaged.data();
    size_t length = damaged.size();
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program program =
        clCreateProgramWithBinary(context_, 1, &device_, &length, &bytes, &status, &err);
    if (program) clReleaseProgram(program);
    return program == nullptr && err == CL_INVALID_BINARY && status == CL_INVALID_BINARY;
  };
  for (size_t at : {size / 3, size / 2, size - 1}) {
    std::vector<unsigned char> flipped = binary;
    flipped[at] ^= 0x10;
    EXPECT_TRUE(refused(flipped)) << "a bit flipped at byte " << at;
    EXPECT_TRUE(refused(std::vector<unsigned char>(binary.begin(), binary.begin() + at)))
        << "cut at byte " << at;
  }
}

// A handle the application released completely is invalid to retain too,
// even while a pending command keeps the object alive inside (found by
// fuzz/host_api_fuzzer.cpp): retaining it brought the object back, and a
// kernel brought back left its program twice when released again, after
// which the program could never be rebuilt.
TEST_F(Errors, RetainAfterLastRelease) {
  cl_int err;
  cl_event gate = clCreateUserEvent(context_, &err);
  ASSERT_CL(err);
  // Made and released here, not by the fixture (which would release them
  // again at the end).
  cl_mem pending = clCreateBuffer(context_, CL_MEM_READ_WRITE, 64, nullptr, &err);
  ASSERT_CL(err);
  int host[16] = {};
  ASSERT_CL(clEnqueueWriteBuffer(queue_, pending, CL_FALSE, 0, sizeof host, host, 1, &gate, nullptr));
  cl_kernel kernel = clCreateKernel(program_, "k", &err);
  ASSERT_CL(err);
  ASSERT_TRUE(setArgs(kernel, mem_, 7, LocalBytes{8 * sizeof(int)}));
  size_t global = 8, local = 8;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &global, &local, 1, &gate, nullptr));
  // Both still in use by the commands waiting on `gate`.
  ASSERT_CL(clReleaseMemObject(pending));
  ASSERT_CL(clReleaseKernel(kernel));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clRetainMemObject(pending));
  EXPECT_CL_ERROR(CL_INVALID_KERNEL, clRetainKernel(kernel));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clReleaseMemObject(pending));
  EXPECT_CL_ERROR(CL_INVALID_KERNEL, clReleaseKernel(kernel));
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clFinish(queue_));
  ASSERT_CL(clReleaseEvent(gate));
}

// Nor may any other call use it: a command made from a released handle took
// a reference to an object that its pending commands were about to destroy,
// and destroyed it twice (found by fuzz/host_api_fuzzer.cpp: an unmap of a
// released buffer racing with the end of its map).
TEST_F(Errors, UseAfterLastRelease) {
  cl_int err;
  cl_event gate = clCreateUserEvent(context_, &err);
  ASSERT_CL(err);
  cl_mem pending = clCreateBuffer(context_, CL_MEM_READ_WRITE, 64, nullptr, &err);
  ASSERT_CL(err);
  cl_event mapped = nullptr;
  void *pointer = clEnqueueMapBuffer(queue_, pending, CL_FALSE, CL_MAP_WRITE, 0, 64, 1, &gate,
                                     &mapped, &err);
  ASSERT_CL(err);
  ASSERT_CL(clReleaseMemObject(pending));
  ASSERT_CL(clReleaseEvent(mapped));
  // The map still waits on `gate`, holding both.
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT,
                  clEnqueueUnmapMemObject(queue_, pending, pointer, 0, nullptr, nullptr));
  int host[16] = {};
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clEnqueueWriteBuffer(queue_, pending, CL_FALSE, 0,
                                                              sizeof host, host, 0, nullptr,
                                                              nullptr));
  size_t size = 0;
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT,
                  clGetMemObjectInfo(pending, CL_MEM_SIZE, sizeof size, &size, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueMarkerWithWaitList(queue_, 1, &mapped, nullptr));
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clFinish(queue_));
  ASSERT_CL(clReleaseEvent(gate));
}

// Host pitches whose rows run past the end of the address space are no
// valid image_desc (found by fuzz/host_api_fuzzer.cpp: CL_MEM_COPY_HOST_PTR
// copied from wrapped-around addresses before host_ptr).
TEST_F(Errors, ImageHostPitchPastAddressSpace) {
  unsigned char host[256] = {};
  cl_image_format format{CL_RGBA, CL_UNORM_INT8};
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = 4;
  desc.image_height = 4;
  desc.image_row_pitch = SIZE_MAX / 2 / 4 * 4;  // whole texels; 4 rows overflow
  for (cl_mem_flags flags : {CL_MEM_COPY_HOST_PTR, CL_MEM_USE_HOST_PTR}) {
    cl_int err = CL_SUCCESS;
    cl_mem image = clCreateImage(context_, flags, &format, &desc, host, &err);
    if (image) clReleaseMemObject(image);
    EXPECT_EQ(image, nullptr) << flags;
    EXPECT_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, err);
  }
}

// Rectangular transfers whose origin plus region runs past SIZE_MAX are out
// of bounds (found by fuzz/host_api_fuzzer.cpp: the sum wrapped around to a
// small end, and the copy wrote the byte before the buffer).
TEST_F(Errors, RectOriginPastAddressSpace) {
  unsigned char host[64] = {};
  const size_t region[3] = {1, 1, 1}, zero[3] = {0, 0, 0};
  for (int axis = 0; axis < 3; ++axis) {
    SCOPED_TRACE(axis);
    size_t origin[3] = {0, 0, 0};
    origin[axis] = SIZE_MAX;
    // The buffer's origin, the host's, a copy's source.
    EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueWriteBufferRect(queue_, mem_, CL_TRUE, origin, zero,
                                                               region, 0, 0, 0, 0, host, 0,
                                                               nullptr, nullptr));
    EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueReadBufferRect(queue_, mem_, CL_TRUE, zero, origin,
                                                              region, 0, 0, 0, 0, host, 0,
                                                              nullptr, nullptr));
    EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueCopyBufferRect(queue_, mem_, mem_, origin, zero,
                                                              region, 0, 0, 0, 0, 0, nullptr,
                                                              nullptr));
  }
}

TEST_F(Errors, KernelArguments) {
  int value = 1;
  EXPECT_CL_ERROR(CL_INVALID_ARG_INDEX, clSetKernelArg(kernel_, 3, sizeof value, &value));
  EXPECT_CL_ERROR(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel_, 1, 2, &value));
  EXPECT_CL_ERROR(CL_INVALID_ARG_VALUE, clSetKernelArg(kernel_, 1, sizeof value, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel_, 2, 0, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_ARG_VALUE, clSetKernelArg(kernel_, 2, 16, &value));
  EXPECT_CL_ERROR(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel_, 0, 4, &mem_));
  // Unset arguments: enqueueing is refused.
  size_t global = 8;
  EXPECT_CL_ERROR(
      CL_INVALID_KERNEL_ARGS,
      clEnqueueNDRangeKernel(queue_, kernel_, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  EXPECT_CL(clSetKernelArg(kernel_, 0, sizeof mem_, &mem_));
  EXPECT_CL(clSetKernelArg(kernel_, 1, sizeof value, &value));
  EXPECT_CL_ERROR(
      CL_INVALID_KERNEL_ARGS,
      clEnqueueNDRangeKernel(queue_, kernel_, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  // A NULL buffer for a global pointer is allowed (the kernel sees NULL).
  cl_mem none = nullptr;
  EXPECT_CL(clSetKernelArg(kernel_, 0, sizeof none, &none));
}

// A sampler_t argument: its size is checked before the value is taken for
// a sampler; a NULL value is no sampler (as the Khronos CTS expects).
TEST_F(Errors, SamplerArguments) {
  cl_kernel k = kernel("kernel void s(sampler_t smp, global int *o) { o[0] = 1; }", "s");
  ASSERT_NE(k, nullptr);
  cl_sampler bogus = reinterpret_cast<cl_sampler>(mem_);
  EXPECT_CL_ERROR(CL_INVALID_SAMPLER, clSetKernelArg(k, 0, sizeof bogus, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 0, 2, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 0, 2, &bogus));
  EXPECT_CL_ERROR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 0, 2 * sizeof bogus, &bogus));
  EXPECT_CL_ERROR(CL_INVALID_SAMPLER, clSetKernelArg(k, 0, sizeof bogus, &bogus));
  cl_int err = CL_SUCCESS;
  const cl_sampler_properties badMode[] = {CL_SAMPLER_ADDRESSING_MODE, 0x7fff, 0};
  EXPECT_EQ(clCreateSamplerWithProperties(context_, badMode, &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, err);
  cl_sampler sampler = clCreateSamplerWithProperties(context_, nullptr, &err);
  ASSERT_CL(err);
  EXPECT_CL(clSetKernelArg(k, 0, sizeof sampler, &sampler));
  EXPECT_CL(clReleaseSampler(sampler));
}

// Image creation validates the format, then the descriptor, then the limits
// and the host pointer; an image argument takes an image of its type.
TEST_F(Errors, Images) {
  cl_image_format rgba{CL_RGBA, CL_UNORM_INT8}, rgb8{CL_RGB, CL_UNORM_INT8};
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = desc.image_height = 4;
  cl_int err = CL_SUCCESS;
  auto create = [&](const cl_image_format &format, void *host = nullptr) {
    cl_mem_flags flags = host ? CL_MEM_USE_HOST_PTR : 0;
    cl_mem image = clCreateImage(context_, flags, &format, &desc, host, &err);
    if (image) clReleaseMemObject(image);
    return err;
  };
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, create(rgb8));
  desc.image_row_pitch = 20;
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, create(rgba));  // a pitch without host memory
  uint32_t host[32] = {};
  desc.image_row_pitch = 18;
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, create(rgba, host));  // not whole texels
  desc.image_row_pitch = 0;
  desc.image_width = 16385;
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_SIZE, create(rgba));
  desc.image_width = 4;
  size_t width = 0;
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT,
                  clGetImageInfo(mem_, CL_IMAGE_WIDTH, sizeof width, &width, nullptr));
  cl_kernel k = kernel("kernel void r(read_only image2d_t i, global int *o) { o[0] = 1; }", "r");
  ASSERT_NE(k, nullptr);
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 0, sizeof mem_, &mem_));
  cl_mem image = clCreateImage(context_, CL_MEM_WRITE_ONLY, &rgba, &desc, nullptr, &err);
  ASSERT_CL(err);
  EXPECT_CL_ERROR(CL_INVALID_ARG_VALUE, clSetKernelArg(k, 0, sizeof image, &image));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 1, sizeof image, &image));
  EXPECT_CL(clReleaseMemObject(image));
}

TEST_F(Errors, NdRangeGeometry) {
  int value = 1;
  ASSERT_TRUE(setArgs(kernel_, mem_, value, LocalBytes{64 * sizeof(int)}));
  size_t global[3] = {64, 1, 1}, local[3] = {8, 1, 1};
  auto enqueue = [&](cl_kernel k, cl_uint dims, const size_t *offset, const size_t *g,
                     const size_t *l) {
    return clEnqueueNDRangeKernel(queue_, k, dims, offset, g, l, 0, nullptr, nullptr);
  };
  EXPECT_CL_ERROR(CL_INVALID_WORK_DIMENSION, enqueue(kernel_, 0, nullptr, global, nullptr));
  cl_uint maxDims = deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  std::vector<size_t> many(maxDims + 1, 1);
  EXPECT_CL_ERROR(CL_INVALID_WORK_DIMENSION,
                  enqueue(kernel_, maxDims + 1, nullptr, many.data(), nullptr));
  size_t maxGroup = kernelMaxGroupSize(kernel_);
  std::vector<size_t> itemSizes(maxDims);
  ASSERT_CL(clGetDeviceInfo(device_, CL_DEVICE_MAX_WORK_ITEM_SIZES, maxDims * sizeof(size_t),
                            itemSizes.data(), nullptr));
  // Too many items per group: split over two dimensions so that no single
  // dimension exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES.
  size_t tooBig[2] = {std::min(maxGroup, itemSizes[0]), 0};
  tooBig[1] = maxGroup / tooBig[0] + 1;
  if (tooBig[1] <= itemSizes[1]) {
    size_t bigGlobal[2] = {tooBig[0], tooBig[1]};
    EXPECT_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE, enqueue(kernel_, 2, nullptr, bigGlobal, tooBig));
  }
  // A zero local size is no valid work-group size (either code describes it).
  size_t zeroLocal[1] = {0};
  cl_int zeroStatus = enqueue(kernel_, 1, nullptr, global, zeroLocal);
  EXPECT_TRUE(zeroStatus == CL_INVALID_WORK_GROUP_SIZE || zeroStatus == CL_INVALID_WORK_ITEM_SIZE)
      << errorName(zeroStatus);
  if (itemSizes[2] < maxGroup) {
    size_t l3[3] = {1, 1, itemSizes[2] + 1}, g3[3] = {1, 1, (itemSizes[2] + 1) * 2};
    EXPECT_CL_ERROR(CL_INVALID_WORK_ITEM_SIZE, enqueue(kernel_, 3, nullptr, g3, l3));
  }
  cl_kernel fixed = kernelOf(program_, "fixed");
  ASSERT_TRUE(setArgs(fixed, mem_));
  size_t four[1] = {4};
  EXPECT_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE, enqueue(fixed, 1, nullptr, global, four));
  EXPECT_CL(enqueue(fixed, 1, nullptr, global, local));

  // A kernel of another context.
  cl_int err = CL_SUCCESS;
  cl_context other = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &err);
  ASSERT_CL(err);
  cl_command_queue otherQueue = clCreateCommandQueueWithProperties(other, device_, nullptr, &err);
  ASSERT_CL(err);
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT, clEnqueueNDRangeKernel(otherQueue, kernel_, 1, nullptr,
                                                             global, nullptr, 0, nullptr, nullptr));
  char host[16];
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT,
                  clEnqueueReadBuffer(otherQueue, mem_, CL_TRUE, 0, 16, host, 0, nullptr, nullptr));
  EXPECT_CL(clReleaseCommandQueue(otherQueue));
  EXPECT_CL(clReleaseContext(other));
}

TEST_F(Errors, Events) {
  cl_int err = CL_SUCCESS;
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clWaitForEvents(0, nullptr));
  cl_event user = clCreateUserEvent(context_, &err);
  ASSERT_CL(err);
  track(user);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clSetUserEventStatus(user, CL_RUNNING));
  cl_ulong time = 0;
  EXPECT_CL_ERROR(
      CL_PROFILING_INFO_NOT_AVAILABLE,
      clGetEventProfilingInfo(user, CL_PROFILING_COMMAND_START, sizeof time, &time, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clSetEventCallback(user, CL_COMPLETE, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clSetEventCallback(
                                        user, CL_QUEUED, [](cl_event, cl_int, void *) {}, nullptr));
  EXPECT_CL(clSetUserEventStatus(user, CL_COMPLETE));
  EXPECT_CL_ERROR(CL_INVALID_OPERATION, clSetUserEventStatus(user, CL_COMPLETE));
  // Profiling on a queue created without CL_QUEUE_PROFILING_ENABLE.
  cl_event write = nullptr;
  int v = 0;
  ASSERT_CL(clEnqueueWriteBuffer(queue_, mem_, CL_TRUE, 0, sizeof v, &v, 0, nullptr, &write));
  track(write);
  EXPECT_CL_ERROR(
      CL_PROFILING_INFO_NOT_AVAILABLE,
      clGetEventProfilingInfo(write, CL_PROFILING_COMMAND_END, sizeof time, &time, nullptr));
  cl_command_type type = 0;
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetEventInfo(write, 0x7fff0000, sizeof type, &type, nullptr));
}

TEST_F(Errors, InfoQueriesWithBadNames) {
  size_t size = 0;
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetMemObjectInfo(mem_, 0x7fff0000, 0, nullptr, &size));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetKernelInfo(kernel_, 0x7fff0000, 0, nullptr, &size));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetProgramInfo(program_, 0x7fff0000, 0, nullptr, &size));
}

// Handles of the wrong kind: the loader dispatches them to Lockstep, whose type
// tag on every object must refuse them. (Platforms without such tags, PoCL for
// one, may crash here: run this test only against Lockstep.)
// Handles that are no object at all, where only Lockstep reads them (a
// cl_mem by value in clSetKernelArg, a second handle of an enqueue, an
// event of a wait list): an address never mapped, a small integer and a
// released buffer are refused, never read. (The loader itself reads the
// first handle of a call, clWaitForEvents's first event included, to find
// its platform: such a handle never reaches Lockstep.)
TEST_F(Errors, HandlesThatAreNoObjects) {
  void *page = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(page, MAP_FAILED);
  ASSERT_EQ(munmap(page, 4096), 0);  // nothing is mapped there now
  cl_int err = CL_SUCCESS;
  cl_mem released = clCreateBuffer(context_, CL_MEM_READ_WRITE, 64, nullptr, &err);
  ASSERT_CL(err);
  ASSERT_CL(clReleaseMemObject(released));
  char host[16] = {};
  for (cl_mem bogus : {static_cast<cl_mem>(page), reinterpret_cast<cl_mem>(uintptr_t(0x10)),
                       released}) {
    EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clSetKernelArg(kernel_, 0, sizeof bogus, &bogus));
    EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clEnqueueReadBuffer(queue_, bogus, CL_TRUE, 0, 16, host,
                                                               0, nullptr, nullptr));
    EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clEnqueueCopyBuffer(queue_, mem_, bogus, 0, 0, 16, 0,
                                                               nullptr, nullptr));
    cl_event event = reinterpret_cast<cl_event>(bogus);
    EXPECT_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueReadBuffer(queue_, mem_, CL_TRUE, 0, 16,
                                                                    host, 1, &event, nullptr));
  }
  // The kernel still takes a real buffer afterwards.
  EXPECT_CL(clSetKernelArg(kernel_, 0, sizeof mem_, &mem_));
}

TEST_F(Errors, WrongKindsOfHandles) {
  cl_int err = CL_SUCCESS;
  cl_uint units = 0;
  size_t size = 0;
  char host[64] = {};
  const char *text = "kernel void k(global int *o) { o[0] = 1; }";
  cl_program unbuilt = clCreateProgramWithSource(context_, 1, &text, nullptr, &err);
  ASSERT_CL(err);
  size_t global[1] = {8};
  auto enqueue = [&](cl_kernel k, cl_uint dims, const size_t *offset, const size_t *g,
                     const size_t *l) {
    return clEnqueueNDRangeKernel(queue_, k, dims, offset, g, l, 0, nullptr, nullptr);
  };
  EXPECT_CL_ERROR(CL_INVALID_DEVICE,
                  clGetDeviceInfo(as<cl_device_id>(context_), CL_DEVICE_MAX_COMPUTE_UNITS,
                                  sizeof units, &units, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_DEVICE, clRetainDevice(as<cl_device_id>(queue_)));
  cl_uint refs = 0;
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT,
                  clGetContextInfo(as<cl_context>(queue_), CL_CONTEXT_REFERENCE_COUNT, sizeof refs,
                                   &refs, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT, clRetainContext(as<cl_context>(mem_)));
  EXPECT_EQ(clCreateCommandQueueWithProperties(as<cl_context>(mem_), device_, nullptr, &err),
            nullptr);
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT, err);
  EXPECT_EQ(clCreateCommandQueueWithProperties(context_, as<cl_device_id>(mem_), nullptr, &err),
            nullptr);
  EXPECT_CL_ERROR(CL_INVALID_DEVICE, err);
  EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE, clFinish(as<cl_command_queue>(context_)));
  EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE, clFlush(as<cl_command_queue>(mem_)));
  EXPECT_EQ(clCreateBuffer(as<cl_context>(queue_), CL_MEM_READ_WRITE, 64, nullptr, &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT, err);
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clRetainMemObject(as<cl_mem>(kernel_)));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clEnqueueReadBuffer(queue_, as<cl_mem>(kernel_), CL_TRUE,
                                                             0, 16, host, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE,
                  clEnqueueReadBuffer(as<cl_command_queue>(mem_), mem_, CL_TRUE, 0, 16, host, 0,
                                      nullptr, nullptr));
  cl_event notAnEvent = as<cl_event>(mem_);
  EXPECT_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST,
                  clEnqueueReadBuffer(queue_, mem_, CL_TRUE, 0, 16, host, 1, &notAnEvent, nullptr));
  EXPECT_EQ(clCreateProgramWithSource(as<cl_context>(mem_), 1, &text, nullptr, &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT, err);
  cl_device_id notADevice = as<cl_device_id>(mem_);
  EXPECT_CL_ERROR(CL_INVALID_DEVICE, clBuildProgram(unbuilt, 1, &notADevice, "", nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_PROGRAM,
                  clBuildProgram(as<cl_program>(mem_), 1, &device_, "", nullptr, nullptr));
  cl_mem notAMem = as<cl_mem>(kernel_);
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clSetKernelArg(kernel_, 0, sizeof notAMem, &notAMem));
  EXPECT_CL_ERROR(CL_INVALID_KERNEL, clSetKernelArg(as<cl_kernel>(mem_), 0, sizeof mem_, &mem_));
  EXPECT_CL_ERROR(CL_INVALID_KERNEL, enqueue(as<cl_kernel>(mem_), 1, nullptr, global, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_EVENT, clWaitForEvents(1, &notAnEvent));
  EXPECT_EQ(clCreateUserEvent(as<cl_context>(mem_), &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT, err);
  EXPECT_CL_ERROR(CL_INVALID_EVENT, clRetainEvent(as<cl_event>(kernel_)));
  EXPECT_CL_ERROR(CL_INVALID_KERNEL,
                  clGetKernelInfo(as<cl_kernel>(program_), CL_KERNEL_NUM_ARGS, 0, nullptr, &size));
  EXPECT_CL_ERROR(CL_INVALID_PROGRAM, clGetProgramInfo(as<cl_program>(kernel_),
                                                       CL_PROGRAM_NUM_KERNELS, 0, nullptr, &size));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT,
                  clGetMemObjectInfo(as<cl_mem>(queue_), CL_MEM_SIZE, 0, nullptr, &size));
  EXPECT_CL_ERROR(CL_INVALID_DEVICE,
                  clGetKernelWorkGroupInfo(kernel_, as<cl_device_id>(mem_),
                                           CL_KERNEL_WORK_GROUP_SIZE, 0, nullptr, &size));
  EXPECT_CL_ERROR(
      CL_INVALID_COMMAND_QUEUE,
      clGetCommandQueueInfo(as<cl_command_queue>(mem_), CL_QUEUE_CONTEXT, 0, nullptr, &size));
  EXPECT_CL(clReleaseProgram(unbuilt));
}

}  // namespace
}  // namespace lockstep::test

// The fixture of the command-buffer tests (test_command_buffer.cpp,
// test_command_buffer_mutable.cpp): the extension functions through
// clGetExtensionFunctionAddressForPlatform, command-buffers released at the
// end, and a small kernel with its host reference.
#pragma once

#include <vector>

#include "../../runtime/api/command_buffer_abi.h"
#include "ClTest.h"

namespace lockstep::test {

inline const char *kAxpbSource = R"(
kernel void axpb(global const int *in, global int *out, int a, int b) {
  size_t i = get_global_id(0);
  out[i] = in[i] * a + b;
})";

class CommandBuffer : public ClTest {
 protected:
  void SetUp() override {
    ClTest::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_NE(deviceString(device_, CL_DEVICE_EXTENSIONS).find("cl_khr_command_buffer"),
              std::string::npos);
#define LOCKSTEP_LOAD(name)                                        \
  name = reinterpret_cast<khr::name##_fn>(                         \
      clGetExtensionFunctionAddressForPlatform(platform_, #name)); \
  ASSERT_NE(name, nullptr) << #name;
    LOCKSTEP_LOAD(clCreateCommandBufferKHR)
    LOCKSTEP_LOAD(clFinalizeCommandBufferKHR)
    LOCKSTEP_LOAD(clRetainCommandBufferKHR)
    LOCKSTEP_LOAD(clReleaseCommandBufferKHR)
    LOCKSTEP_LOAD(clEnqueueCommandBufferKHR)
    LOCKSTEP_LOAD(clGetCommandBufferInfoKHR)
    LOCKSTEP_LOAD(clCommandBarrierWithWaitListKHR)
    LOCKSTEP_LOAD(clCommandCopyBufferKHR)
    LOCKSTEP_LOAD(clCommandCopyBufferRectKHR)
    LOCKSTEP_LOAD(clCommandCopyBufferToImageKHR)
    LOCKSTEP_LOAD(clCommandCopyImageKHR)
    LOCKSTEP_LOAD(clCommandCopyImageToBufferKHR)
    LOCKSTEP_LOAD(clCommandFillBufferKHR)
    LOCKSTEP_LOAD(clCommandFillImageKHR)
    LOCKSTEP_LOAD(clCommandNDRangeKernelKHR)
    LOCKSTEP_LOAD(clCommandSVMMemcpyKHR)
    LOCKSTEP_LOAD(clCommandSVMMemFillKHR)
    LOCKSTEP_LOAD(clUpdateMutableCommandsKHR)
    LOCKSTEP_LOAD(clGetMutableCommandInfoKHR)
#undef LOCKSTEP_LOAD
  }
  void TearDown() override {
    for (cl_command_buffer_khr b : buffers_) EXPECT_CL(clReleaseCommandBufferKHR(b));
    ClTest::TearDown();
  }

  // A command-buffer for `queue` (the test's by default), released at the end.
  cl_command_buffer_khr commandBuffer(
      cl_command_queue queue = nullptr,
      const cl_command_buffer_properties_khr *properties = nullptr) {
    cl_command_queue q = queue ? queue : queue_;
    cl_int err = CL_INVALID_VALUE;
    cl_command_buffer_khr b = clCreateCommandBufferKHR(1, &q, properties, &err);
    EXPECT_EQ(err, CL_SUCCESS) << errorName(err);
    if (b) buffers_.push_back(b);
    return b;
  }
  void write(cl_mem mem, const std::vector<cl_int> &data) {
    ASSERT_CL(clEnqueueWriteBuffer(queue_, mem, CL_TRUE, 0, data.size() * sizeof(cl_int),
                                   data.data(), 0, nullptr, nullptr));
  }
  cl_command_buffer_state_khr state(cl_command_buffer_khr b) {
    cl_command_buffer_state_khr value = 99;
    EXPECT_CL(
        clGetCommandBufferInfoKHR(b, CL_COMMAND_BUFFER_STATE_KHR, sizeof value, &value, nullptr));
    return value;
  }

#define LOCKSTEP_DECLARE(name) khr::name##_fn name = nullptr;
  LOCKSTEP_DECLARE(clCreateCommandBufferKHR)
  LOCKSTEP_DECLARE(clFinalizeCommandBufferKHR)
  LOCKSTEP_DECLARE(clRetainCommandBufferKHR)
  LOCKSTEP_DECLARE(clReleaseCommandBufferKHR)
  LOCKSTEP_DECLARE(clEnqueueCommandBufferKHR)
  LOCKSTEP_DECLARE(clGetCommandBufferInfoKHR)
  LOCKSTEP_DECLARE(clCommandBarrierWithWaitListKHR)
  LOCKSTEP_DECLARE(clCommandCopyBufferKHR)
  LOCKSTEP_DECLARE(clCommandCopyBufferRectKHR)
  LOCKSTEP_DECLARE(clCommandCopyBufferToImageKHR)
  LOCKSTEP_DECLARE(clCommandCopyImageKHR)
  LOCKSTEP_DECLARE(clCommandCopyImageToBufferKHR)
  LOCKSTEP_DECLARE(clCommandFillBufferKHR)
  LOCKSTEP_DECLARE(clCommandFillImageKHR)
  LOCKSTEP_DECLARE(clCommandNDRangeKernelKHR)
  LOCKSTEP_DECLARE(clCommandSVMMemcpyKHR)
  LOCKSTEP_DECLARE(clCommandSVMMemFillKHR)
  LOCKSTEP_DECLARE(clUpdateMutableCommandsKHR)
  LOCKSTEP_DECLARE(clGetMutableCommandInfoKHR)
#undef LOCKSTEP_DECLARE

  std::vector<cl_command_buffer_khr> buffers_;
};

inline std::vector<cl_int> axpb(const std::vector<cl_int> &in, cl_int a, cl_int b) {
  std::vector<cl_int> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) out[i] = in[i] * a + b;
  return out;
}

}  // namespace lockstep::test

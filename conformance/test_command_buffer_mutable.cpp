// Mutable kernel launches in command-buffers
// (cl_khr_command_buffer_mutable_dispatch 0.9.5): arguments, global size and
// offset changed between replays against host references; an enqueue made
// before an update runs the launch it was enqueued with; arguments left
// unset at recording and set by an update; the handle's queries; and the
// errors of clUpdateMutableCommandsKHR, after which the launch is unchanged.
#include <algorithm>
#include <cstring>
#include <vector>

#include "CommandBufferTest.h"

namespace lockstep::test {
namespace {

class MutableDispatch : public CommandBuffer {
 protected:
  void SetUp() override {
    CommandBuffer::SetUp();
    if (HasFatalFailure()) return;
    k_ = kernel(kAxpbSource, "axpb");
    ASSERT_NE(k_, nullptr);
    in_ = buffer(CL_MEM_READ_WRITE, kN * sizeof(cl_int));
    out_ = buffer(CL_MEM_READ_WRITE, kN * sizeof(cl_int));
    other_ = buffer(CL_MEM_READ_WRITE, kN * sizeof(cl_int));
    input_ = randomValues<cl_int>(kN, -1000, 1000);
    write(in_, input_);
  }
  cl_command_buffer_khr mutableBuffer() {
    cl_command_buffer_properties_khr properties[] = {CL_COMMAND_BUFFER_FLAGS_KHR, khr::kMutable, 0};
    return commandBuffer(nullptr, properties);
  }
  // Records axpb over `global` work-items with a handle, then finalizes.
  cl_mutable_command_khr recordLaunch(cl_command_buffer_khr cb, size_t global,
                                      const cl_properties *properties = nullptr) {
    cl_mutable_command_khr handle = nullptr;
    EXPECT_CL(clCommandNDRangeKernelKHR(cb, nullptr, properties, k_, 1, nullptr, &global, nullptr,
                                        0, nullptr, nullptr, &handle));
    EXPECT_CL(clFinalizeCommandBufferKHR(cb));
    return handle;
  }
  cl_int update(cl_command_buffer_khr cb, const khr::MutableDispatchConfig &config) {
    const cl_uint type = khr::kMutableDispatchConfigType;
    const void *configs[] = {&config};
    return clUpdateMutableCommandsKHR(cb, 1, &type, configs);
  }
  void zero(cl_mem mem) {
    const cl_int zero = 0;
    ASSERT_CL(clEnqueueFillBuffer(queue_, mem, &zero, sizeof zero, 0, kN * sizeof(cl_int), 0,
                                  nullptr, nullptr));
  }

  static constexpr size_t kN = 1000;
  cl_kernel k_ = nullptr;
  cl_mem in_ = nullptr, out_ = nullptr, other_ = nullptr;
  std::vector<cl_int> input_;
};

TEST_F(MutableDispatch, DeviceReportsTheExtension) {
  size_t size = 0;
  ASSERT_CL(clGetDeviceInfo(device_, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, nullptr, &size));
  std::vector<cl_name_version> list(size / sizeof(cl_name_version));
  ASSERT_CL(
      clGetDeviceInfo(device_, CL_DEVICE_EXTENSIONS_WITH_VERSION, size, list.data(), nullptr));
  auto found = std::find_if(list.begin(), list.end(), [](const cl_name_version &e) {
    return std::strcmp(e.name, "cl_khr_command_buffer_mutable_dispatch") == 0;
  });
  ASSERT_NE(found, list.end());
  EXPECT_EQ(found->version, CL_MAKE_VERSION(0, 9, 5));
  auto fields = deviceInfo<cl_mutable_dispatch_fields_khr>(
      device_, CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR);
  EXPECT_EQ(fields, cl_mutable_dispatch_fields_khr(
                        CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR |
                        CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR | CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR |
                        CL_MUTABLE_DISPATCH_ARGUMENTS_KHR | CL_MUTABLE_DISPATCH_EXEC_INFO_KHR));
  auto capabilities = deviceInfo<cl_device_command_buffer_capabilities_khr>(
      device_, CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR);
  EXPECT_NE(capabilities & khr::kCapabilitySimultaneousUse, 0u);
}

// Arguments (a scalar, the output buffer), then the range, changed between
// replays; each replay computes what its launch says.
TEST_F(MutableDispatch, UpdatesArgumentsAndRangeBetweenReplays) {
  ASSERT_TRUE(setArgs(k_, in_, out_, cl_int(2), cl_int(1)));
  cl_command_buffer_khr cb = mutableBuffer();
  cl_mutable_command_khr handle = recordLaunch(cb, kN);
  ASSERT_NE(handle, nullptr);
  ASSERT_CL(clEnqueueCommandBufferKHR(0, nullptr, cb, 0, nullptr, nullptr));
  EXPECT_EQ(read<cl_int>(out_, kN), axpb(input_, 2, 1));

  zero(other_);
  const cl_int a = -3;
  khr::MutableDispatchArg args[] = {{1, sizeof(cl_mem), &other_}, {2, sizeof a, &a}};
  khr::MutableDispatchConfig config{};
  config.command = handle;
  config.num_args = 2;
  config.arg_list = args;
  ASSERT_CL(update(cb, config));
  std::vector<cl_int> before = read<cl_int>(out_, kN);
  ASSERT_CL(clEnqueueCommandBufferKHR(0, nullptr, cb, 0, nullptr, nullptr));
  EXPECT_EQ(read<cl_int>(other_, kN), axpb(input_, -3, 1));
  EXPECT_EQ(read<cl_int>(out_, kN), before);  // the old output is left alone

  // The second half only: 500 work-items from offset 500.
  zero(other_);
  const size_t offset = kN / 2, global = kN / 2;
  khr::MutableDispatchConfig range{};
  range.command = handle;
  range.global_work_offset = &offset;
  range.global_work_size = &global;
  ASSERT_CL(update(cb, range));
  ASSERT_CL(clEnqueueCommandBufferKHR(0, nullptr, cb, 0, nullptr, nullptr));
  std::vector<cl_int> expected = axpb(input_, -3, 1);
  std::fill_n(expected.begin(), kN / 2, 0);
  EXPECT_EQ(read<cl_int>(other_, kN), expected);
}

// Two enqueues held by a user event, an update between them: each runs the
// launch it was enqueued with.
TEST_F(MutableDispatch, AnEnqueueBeforeAnUpdateRunsItsOwnLaunch) {
  ASSERT_TRUE(setArgs(k_, in_, out_, cl_int(4), cl_int(0)));
  cl_command_buffer_properties_khr properties[] = {CL_COMMAND_BUFFER_FLAGS_KHR,
                                                   khr::kMutable | khr::kSimultaneousUse, 0};
  cl_command_buffer_khr cb = commandBuffer(nullptr, properties);
  cl_mutable_command_khr handle = recordLaunch(cb, kN);
  cl_event gate = userEvent();
  ASSERT_CL(clEnqueueCommandBufferKHR(0, nullptr, cb, 1, &gate, nullptr));
  const cl_int a = 9;
  khr::MutableDispatchArg args[] = {{1, sizeof(cl_mem), &other_}, {2, sizeof a, &a}};
  khr::MutableDispatchConfig config{};
  config.command = handle;
  config.num_args = 2;
  config.arg_list = args;
  ASSERT_CL(update(cb, config));
  ASSERT_CL(clEnqueueCommandBufferKHR(0, nullptr, cb, 0, nullptr, nullptr));
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clFinish(queue_));
  EXPECT_EQ(read<cl_int>(out_, kN), axpb(input_, 4, 0));
  EXPECT_EQ(read<cl_int>(other_, kN), axpb(input_, 9, 0));
}

// An argument left unset at recording, which an update sets: finalized but
// not executable until then.
TEST_F(MutableDispatch, ArgumentsSetByAnUpdate) {
  cl_kernel fresh = kernel(kAxpbSource, "axpb");
  ASSERT_NE(fresh, nullptr);
  ASSERT_CL(clSetKernelArg(fresh, 0, sizeof in_, &in_));
  cl_command_buffer_khr cb = mutableBuffer();
  const cl_properties fields[] = {CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
                                  CL_MUTABLE_DISPATCH_ARGUMENTS_KHR, 0};
  cl_mutable_command_khr handle = nullptr;
  ASSERT_CL(clCommandNDRangeKernelKHR(cb, nullptr, fields, fresh, 1, nullptr, &kN, nullptr, 0,
                                      nullptr, nullptr, &handle));
  ASSERT_CL(clFinalizeCommandBufferKHR(cb));
  EXPECT_EQ(state(cb), khr::kStateFinalized);
  EXPECT_CL_ERROR(CL_INVALID_OPERATION,
                  clEnqueueCommandBufferKHR(0, nullptr, cb, 0, nullptr, nullptr));
  const cl_int a = 7, b = -2;
  khr::MutableDispatchArg args[] = {
      {1, sizeof(cl_mem), &out_}, {2, sizeof a, &a}, {3, sizeof b, &b}};
  khr::MutableDispatchConfig config{};
  config.command = handle;
  config.num_args = 3;
  config.arg_list = args;
  ASSERT_CL(update(cb, config));
  EXPECT_EQ(state(cb), CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR);
  ASSERT_CL(clEnqueueCommandBufferKHR(0, nullptr, cb, 0, nullptr, nullptr));
  EXPECT_EQ(read<cl_int>(out_, kN), axpb(input_, 7, -2));
}

TEST_F(MutableDispatch, HandleQueries) {
  ASSERT_TRUE(setArgs(k_, in_, out_, cl_int(1), cl_int(1)));
  cl_command_buffer_khr cb = mutableBuffer();
  const cl_properties fields[] = {CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
                                  CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR, 0};
  cl_mutable_command_khr handle = recordLaunch(cb, kN, fields);
  cl_command_queue queue = nullptr;
  cl_command_buffer_khr owner = nullptr;
  cl_command_type type = 0;
  cl_kernel k = nullptr;
  cl_uint dims = 0;
  ASSERT_CL(clGetMutableCommandInfoKHR(handle, CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR, sizeof queue,
                                       &queue, nullptr));
  EXPECT_EQ(queue, queue_);
  ASSERT_CL(clGetMutableCommandInfoKHR(handle, CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR, sizeof owner,
                                       &owner, nullptr));
  EXPECT_EQ(owner, cb);
  ASSERT_CL(clGetMutableCommandInfoKHR(handle, CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR, sizeof type,
                                       &type, nullptr));
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_NDRANGE_KERNEL));
  ASSERT_CL(
      clGetMutableCommandInfoKHR(handle, CL_MUTABLE_DISPATCH_KERNEL_KHR, sizeof k, &k, nullptr));
  EXPECT_EQ(k, k_);
  ASSERT_CL(clGetMutableCommandInfoKHR(handle, CL_MUTABLE_DISPATCH_DIMENSIONS_KHR, sizeof dims,
                                       &dims, nullptr));
  EXPECT_EQ(dims, 1u);
  cl_properties back[3] = {};
  size_t size = 0;
  ASSERT_CL(clGetMutableCommandInfoKHR(handle, khr::kMutableCommandPropertiesArray, sizeof back,
                                       back, &size));
  EXPECT_EQ(size, sizeof fields);
  EXPECT_TRUE(std::equal(back, back + 3, fields));
  const size_t global = 123;
  khr::MutableDispatchConfig config{};
  config.command = handle;
  config.global_work_size = &global;
  ASSERT_CL(update(cb, config));
  size_t now = 0;
  ASSERT_CL(clGetMutableCommandInfoKHR(handle, CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR, sizeof now,
                                       &now, nullptr));
  EXPECT_EQ(now, global);
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clGetMutableCommandInfoKHR(handle, 0x7777, sizeof now, &now, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_MUTABLE_COMMAND_KHR,
                  clGetMutableCommandInfoKHR(nullptr, CL_MUTABLE_DISPATCH_DIMENSIONS_KHR,
                                             sizeof dims, &dims, nullptr));
}

// Refused updates change nothing: the launch runs as before.
TEST_F(MutableDispatch, UpdateErrors) {
  ASSERT_TRUE(setArgs(k_, in_, out_, cl_int(5), cl_int(5)));
  // A handle needs a mutable command-buffer.
  cl_command_buffer_khr plain = commandBuffer();
  cl_mutable_command_khr handle = nullptr;
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clCommandNDRangeKernelKHR(plain, nullptr, nullptr, k_, 1, nullptr, &kN, nullptr,
                                            0, nullptr, nullptr, &handle));
  ASSERT_CL(clFinalizeCommandBufferKHR(plain));

  cl_command_buffer_khr cb = mutableBuffer();
  const cl_properties fields[] = {CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
                                  CL_MUTABLE_DISPATCH_ARGUMENTS_KHR, khr::kMutableDispatchAsserts,
                                  khr::kAssertNoAdditionalWorkGroups, 0};
  ASSERT_CL(clCommandNDRangeKernelKHR(cb, nullptr, fields, k_, 1, nullptr, &kN, nullptr, 0, nullptr,
                                      nullptr, &handle));
  khr::MutableDispatchConfig config{};
  config.command = handle;
  // Before finalizing.
  EXPECT_CL_ERROR(CL_INVALID_OPERATION, update(cb, config));
  ASSERT_CL(clFinalizeCommandBufferKHR(cb));
  // Not a mutable command-buffer; not its command.
  EXPECT_CL_ERROR(CL_INVALID_OPERATION, update(plain, config));
  cl_command_buffer_khr another = mutableBuffer();
  ASSERT_CL(clFinalizeCommandBufferKHR(another));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, update(another, config));
  // Not a handle; not a configuration type of 0.9.5; no configuration.
  khr::MutableDispatchConfig invalid{};
  EXPECT_CL_ERROR(CL_INVALID_MUTABLE_COMMAND_KHR, update(cb, invalid));
  const cl_uint wrongType = 1;
  const void *configs[] = {&config};
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clUpdateMutableCommandsKHR(cb, 1, &wrongType, configs));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clUpdateMutableCommandsKHR(cb, 0, nullptr, nullptr));
  // A field not made updatable; another work_dim; more work-groups than
  // the asserts promised; a bad argument (the clSetKernelArg error).
  const size_t smaller = kN / 2;
  khr::MutableDispatchConfig size = config;
  size.global_work_size = &smaller;
  EXPECT_CL_ERROR(CL_INVALID_OPERATION, update(cb, size));
  khr::MutableDispatchConfig dims = config;
  dims.work_dim = 2;
  EXPECT_CL_ERROR(CL_INVALID_VALUE, update(cb, dims));
  const cl_int a = 100;
  khr::MutableDispatchArg good{2, sizeof a, &a};
  khr::MutableDispatchArg badIndex[] = {good, {9, sizeof a, &a}};
  khr::MutableDispatchConfig args = config;
  args.num_args = 2;
  args.arg_list = badIndex;
  EXPECT_CL_ERROR(CL_INVALID_ARG_INDEX, update(cb, args));
  khr::MutableDispatchArg badSize[] = {good, {3, 1, &a}};
  args.arg_list = badSize;
  EXPECT_CL_ERROR(CL_INVALID_ARG_SIZE, update(cb, args));

  ASSERT_CL(clEnqueueCommandBufferKHR(0, nullptr, cb, 0, nullptr, nullptr));
  EXPECT_EQ(read<cl_int>(out_, kN), axpb(input_, 5, 5));
}

TEST_F(MutableDispatch, NoAdditionalWorkGroupsAssert) {
  ASSERT_TRUE(setArgs(k_, in_, out_, cl_int(1), cl_int(0)));
  cl_command_buffer_properties_khr properties[] = {CL_COMMAND_BUFFER_FLAGS_KHR, khr::kMutable,
                                                   khr::kCommandBufferMutableDispatchAsserts,
                                                   khr::kAssertNoAdditionalWorkGroups, 0};
  cl_command_buffer_khr cb = commandBuffer(nullptr, properties);
  const size_t local = 10, half = kN / 2;
  cl_mutable_command_khr handle = nullptr;
  ASSERT_CL(clCommandNDRangeKernelKHR(cb, nullptr, nullptr, k_, 1, nullptr, &half, &local, 0,
                                      nullptr, nullptr, &handle));
  ASSERT_CL(clFinalizeCommandBufferKHR(cb));
  khr::MutableDispatchConfig config{};
  config.command = handle;
  config.global_work_size = &kN;  // twice the groups
  EXPECT_CL_ERROR(CL_INVALID_VALUE, update(cb, config));
  const size_t fewer = 200;
  config.global_work_size = &fewer;
  EXPECT_CL(update(cb, config));
}

}  // namespace
}  // namespace lockstep::test

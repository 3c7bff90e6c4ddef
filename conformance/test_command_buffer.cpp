// Command-buffers (cl_khr_command_buffer 0.9.8), as an application uses
// them: the functions through clGetExtensionFunctionAddressForPlatform; a
// recorded kernel replayed several times over changed inputs, with the
// arguments it was recorded with; copies and fills (buffer, rectangle,
// image, SVM) ordered by sync points, against host references; the
// command-buffer's event (its type, wait list, profiling times); replays on
// a substitute queue, overlapping replays and a command-buffer released
// while pending; and the errors the extension specifies. Mutable launches
// (cl_khr_command_buffer_mutable_dispatch 0.9.5) are test_command_buffer_mutable.cpp's.
#include <algorithm>
#include <array>
#include <cstring>
#include <numeric>
#include <vector>

#include "CommandBufferTest.h"

namespace lockstep::test {
namespace {

TEST_F(CommandBuffer, DeviceReportsTheExtensionAndItsQueries) {
  size_t size = 0;
  ASSERT_CL(clGetDeviceInfo(device_, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, nullptr, &size));
  std::vector<cl_name_version> list(size / sizeof(cl_name_version));
  ASSERT_CL(
      clGetDeviceInfo(device_, CL_DEVICE_EXTENSIONS_WITH_VERSION, size, list.data(), nullptr));
  auto found = std::find_if(list.begin(), list.end(), [](const cl_name_version &e) {
    return std::strcmp(e.name, "cl_khr_command_buffer") == 0;
  });
  ASSERT_NE(found, list.end());
  EXPECT_EQ(found->version, CL_MAKE_VERSION(0, 9, 8));

  auto capabilities = deviceInfo<cl_device_command_buffer_capabilities_khr>(
      device_, CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR);
  EXPECT_EQ(capabilities & CL_COMMAND_BUFFER_CAPABILITY_DEVICE_SIDE_ENQUEUE_KHR, 0u);
  auto supported = deviceInfo<cl_command_queue_properties>(
      device_, CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR);
  auto required = deviceInfo<cl_command_queue_properties>(
      device_, CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR);
  EXPECT_EQ(required & ~supported, 0u);
  auto queueProperties =
      deviceInfo<cl_command_queue_properties>(device_, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
  EXPECT_EQ(supported & ~queueProperties, 0u);
}

// A recorded launch keeps the arguments it was recorded with; each replay
// reads the buffers as they are when it runs.
TEST_F(CommandBuffer, ReplaysAKernelOverChangedInputs) {
  constexpr size_t n = 4099;
  cl_kernel k = kernel(kAxpbSource, "axpb");
  ASSERT_NE(k, nullptr);
  cl_mem in = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
  cl_mem out = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
  const cl_int a = 3, b = -7;
  ASSERT_TRUE(setArgs(k, in, out, a, b));
  cl_command_buffer_khr cb = commandBuffer();
  EXPECT_EQ(state(cb), CL_COMMAND_BUFFER_STATE_RECORDING_KHR);
  ASSERT_CL(clCommandNDRangeKernelKHR(cb, nullptr, nullptr, k, 1, nullptr, &n, nullptr, 0, nullptr,
                                      nullptr, nullptr));
  ASSERT_CL(clFinalizeCommandBufferKHR(cb));
  EXPECT_EQ(state(cb), CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR);
  // Changed after recording: the replays do not see it.
  const cl_int other = 1000;
  ASSERT_CL(clSetKernelArg(k, 2, sizeof other, &other));

  for (int replay = 0; replay < 4; ++replay) {
    std::vector<cl_int> input = randomValues<cl_int>(n, -100000, 100000);
    write(in, input);
    ASSERT_CL(clEnqueueCommandBufferKHR(0, nullptr, cb, 0, nullptr, nullptr));
    EXPECT_EQ(read<cl_int>(out, n), axpb(input, a, b)) << "replay " << replay;
  }
}

// Fill -> kernel -> copy -> rectangle copy, each waiting for the previous
// one's sync point; the results are overwritten between replays.
TEST_F(CommandBuffer, SyncPointsOrderFillKernelAndCopies) {
  constexpr size_t n = 1024;
  cl_kernel k = kernel(kAxpbSource, "axpb");
  ASSERT_NE(k, nullptr);
  cl_mem a = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
  cl_mem b = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
  cl_mem c = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
  cl_mem d = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
  ASSERT_TRUE(setArgs(k, a, b, cl_int(5), cl_int(1)));
  cl_command_buffer_khr cb = commandBuffer();
  const cl_int pattern[2] = {11, -4};
  cl_sync_point_khr filled = 0, launched = 0, copied = 0, barrier = 0;
  ASSERT_CL(clCommandFillBufferKHR(cb, nullptr, nullptr, a, pattern, sizeof pattern, 0,
                                   n * sizeof(cl_int), 0, nullptr, &filled, nullptr));
  ASSERT_CL(clCommandNDRangeKernelKHR(cb, nullptr, nullptr, k, 1, nullptr, &n, nullptr, 1, &filled,
                                      &launched, nullptr));
  ASSERT_CL(clCommandCopyBufferKHR(cb, nullptr, nullptr, b, c, 0, 0, n * sizeof(cl_int), 1,
                                   &launched, &copied, nullptr));
  ASSERT_CL(clCommandBarrierWithWaitListKHR(cb, nullptr, nullptr, 1, &copied, &barrier, nullptr));
  EXPECT_NE(filled, launched);
  EXPECT_NE(launched, copied);
  // d's rows of 16 ints: row r gets c's row 63 - r (a 2D box, row by row).
  const size_t rowBytes = 16 * sizeof(cl_int);
  for (size_t r = 0; r < 64; ++r) {
    size_t src[3] = {0, 63 - r, 0}, dst[3] = {0, r, 0}, region[3] = {rowBytes, 1, 1};
    ASSERT_CL(clCommandCopyBufferRectKHR(cb, nullptr, nullptr, c, d, src, dst, region, rowBytes, 0,
                                         rowBytes, 0, 1, &barrier, nullptr, nullptr));
  }
  ASSERT_CL(clFinalizeCommandBufferKHR(cb));

  std::vector<cl_int> expectedB(n), expectedD(n);
  for (size_t i = 0; i < n; ++i) expectedB[i] = pattern[i % 2] * 5 + 1;
  for (size_t r = 0; r < 64; ++r) std::copy_n(&expectedB[(63 - r) * 16], 16, &expectedD[r * 16]);
  for (int replay = 0; replay < 3; ++replay) {
    for (cl_mem m : {a, b, c, d}) write(m, randomValues<cl_int>(n, -50, 50));
    ASSERT_CL(clEnqueueCommandBufferKHR(0, nullptr, cb, 0, nullptr, nullptr));
    EXPECT_EQ(read<cl_int>(c, n), expectedB) << "replay " << replay;
    EXPECT_EQ(read<cl_int>(d, n), expectedD) << "replay " << replay;
  }
}

TEST_F(CommandBuffer, ImageFillAndCopies) {
  const cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT8};
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = 8;
  desc.image_height = 4;
  cl_int err = CL_SUCCESS;
  cl_mem image = track(clCreateImage(context_, CL_MEM_READ_WRITE, &format, &desc, nullptr, &err));
  ASSERT_CL(err);
  cl_mem copy = track(clCreateImage(context_, CL_MEM_READ_WRITE, &format, &desc, nullptr, &err));
  ASSERT_CL(err);
  constexpr size_t texels = 8 * 4;
  cl_mem source = buffer(CL_MEM_READ_WRITE, texels * 4);
  cl_mem out = buffer(CL_MEM_READ_WRITE, texels * 4);

  cl_command_buffer_khr cb = commandBuffer();
  const cl_uint color[4] = {9, 8, 7, 6};
  size_t origin[3] = {0, 0, 0}, whole[3] = {8, 4, 1}, box[3] = {3, 2, 1}, at[3] = {4, 1, 0};
  cl_sync_point_khr loaded, filled, copied;
  ASSERT_CL(clCommandCopyBufferToImageKHR(cb, nullptr, nullptr, source, image, 0, origin, whole, 0,
                                          nullptr, &loaded, nullptr));
  ASSERT_CL(clCommandFillImageKHR(cb, nullptr, nullptr, image, color, at, box, 1, &loaded, &filled,
                                  nullptr));
  ASSERT_CL(clCommandCopyImageKHR(cb, nullptr, nullptr, image, copy, origin, origin, whole, 1,
                                  &filled, &copied, nullptr));
  ASSERT_CL(clCommandCopyImageToBufferKHR(cb, nullptr, nullptr, copy, out, origin, whole, 0, 1,
                                          &copied, nullptr, nullptr));
  ASSERT_CL(clFinalizeCommandBufferKHR(cb));

  for (int replay = 0; replay < 2; ++replay) {
    std::vector<cl_uchar> input(texels * 4);
    for (cl_uchar &v : input) v = cl_uchar(randomValues<int>(1, 0, 255)[0]);
    ASSERT_CL(clEnqueueWriteBuffer(queue_, source, CL_TRUE, 0, input.size(), input.data(), 0,
                                   nullptr, nullptr));
    std::vector<cl_uchar> expected = input;
    for (size_t y = at[1]; y < at[1] + box[1]; ++y)
      for (size_t x = at[0]; x < at[0] + box[0]; ++x)
        for (int c = 0; c < 4; ++c) expected[(y * 8 + x) * 4 + c] = cl_uchar(color[c]);
    ASSERT_CL(clEnqueueCommandBufferKHR(0, nullptr, cb, 0, nullptr, nullptr));
    std::vector<cl_uchar> result(texels * 4);
    ASSERT_CL(clEnqueueReadBuffer(queue_, out, CL_TRUE, 0, result.size(), result.data(), 0, nullptr,
                                  nullptr));
    EXPECT_EQ(result, expected) << "replay " << replay;
  }
}

TEST_F(CommandBuffer, SvmCopyAndFill) {
  constexpr size_t n = 256;
  auto *src = static_cast<cl_int *>(clSVMAlloc(context_, CL_MEM_READ_WRITE, n * sizeof(cl_int), 0));
  auto *dst = static_cast<cl_int *>(clSVMAlloc(context_, CL_MEM_READ_WRITE, n * sizeof(cl_int), 0));
  ASSERT_NE(src, nullptr);
  ASSERT_NE(dst, nullptr);
  cl_command_buffer_khr cb = commandBuffer();
  cl_sync_point_khr copied;
  const cl_int pattern = 0x5a5a1234;
  ASSERT_CL(clCommandSVMMemcpyKHR(cb, nullptr, nullptr, dst, src, n * sizeof(cl_int), 0, nullptr,
                                  &copied, nullptr));
  ASSERT_CL(clCommandSVMMemFillKHR(cb, nullptr, nullptr, dst + 10, &pattern, sizeof pattern,
                                   20 * sizeof(cl_int), 1, &copied, nullptr, nullptr));
  ASSERT_CL(clFinalizeCommandBufferKHR(cb));
  for (int replay = 0; replay < 2; ++replay) {
    std::vector<cl_int> input = randomValues<cl_int>(n, -9, 9);
    std::copy(input.begin(), input.end(), src);
    std::fill_n(dst, n, 0);
    ASSERT_CL(clEnqueueCommandBufferKHR(0, nullptr, cb, 0, nullptr, nullptr));
    ASSERT_CL(clFinish(queue_));
    std::fill_n(input.begin() + 10, 20, pattern);
    EXPECT_EQ(std::vector<cl_int>(dst, dst + n), input) << "replay " << replay;
  }
  clSVMFree(context_, src);
  clSVMFree(context_, dst);
}

// The command-buffer's command waits for its wait list, has its own event
// type and, on a profiling queue (a substitute for the recording queue),
// ordered profiling times.
TEST_F(CommandBuffer, EventWaitListAndProfilingOnASubstituteQueue) {
  constexpr size_t n = 512;
  cl_kernel k = kernel(kAxpbSource, "axpb");
  ASSERT_NE(k, nullptr);
  cl_mem in = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
  cl_mem out = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
  ASSERT_TRUE(setArgs(k, in, out, cl_int(-2), cl_int(9)));
  cl_command_buffer_khr cb = commandBuffer();
  ASSERT_CL(clCommandNDRangeKernelKHR(cb, nullptr, nullptr, k, 1, nullptr, &n, nullptr, 0, nullptr,
                                      nullptr, nullptr));
  ASSERT_CL(clFinalizeCommandBufferKHR(cb));

  cl_command_queue profiling =
      makeQueue(CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  ASSERT_NE(profiling, nullptr);
  std::vector<cl_int> input = randomValues<cl_int>(n, -1000, 1000);
  write(in, input);
  cl_event gate = userEvent();
  cl_event done = nullptr;
  ASSERT_CL(clEnqueueCommandBufferKHR(1, &profiling, cb, 1, &gate, &done));
  track(done);
  EXPECT_EQ(typeOf(done), cl_command_type(CL_COMMAND_COMMAND_BUFFER_KHR));
  EXPECT_GT(status(done), CL_COMPLETE);  // waits for the gate
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clWaitForEvents(1, &done));
  EXPECT_EQ(status(done), CL_COMPLETE);
  EXPECT_EQ(read<cl_int>(out, n), axpb(input, -2, 9));
  cl_ulong t[4] = {};
  const cl_profiling_info names[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                      CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
  for (int i = 0; i < 4; ++i)
    ASSERT_CL(clGetEventProfilingInfo(done, names[i], sizeof t[i], &t[i], nullptr));
  EXPECT_GT(t[0], 0u);
  EXPECT_LE(t[0], t[1]);
  EXPECT_LE(t[1], t[2]);
  EXPECT_LE(t[2], t[3]);
}

// Two replays pending at once (one per queue, both held by a user event),
// and a command-buffer the application released while they are pending.
TEST_F(CommandBuffer, OverlappingReplaysAndReleaseWhilePending) {
  constexpr size_t n = 20000;
  cl_kernel k = kernel(kAxpbSource, "axpb");
  ASSERT_NE(k, nullptr);
  cl_mem in = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
  cl_mem out = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
  cl_mem mirror = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
  ASSERT_TRUE(setArgs(k, in, out, cl_int(7), cl_int(0)));
  cl_command_queue q = queue_;
  cl_int err = CL_SUCCESS;
  cl_command_buffer_khr cb = clCreateCommandBufferKHR(1, &q, nullptr, &err);
  ASSERT_CL(err);
  cl_sync_point_khr launched;
  ASSERT_CL(clCommandNDRangeKernelKHR(cb, nullptr, nullptr, k, 1, nullptr, &n, nullptr, 0, nullptr,
                                      &launched, nullptr));
  ASSERT_CL(clCommandCopyBufferKHR(cb, nullptr, nullptr, out, mirror, 0, 0, n * sizeof(cl_int), 1,
                                   &launched, nullptr, nullptr));
  ASSERT_CL(clFinalizeCommandBufferKHR(cb));
  std::vector<cl_int> input = randomValues<cl_int>(n, -300, 300);
  write(in, input);

  cl_command_queue second = makeQueue(0);
  cl_event gate = userEvent();
  cl_event first = nullptr, other = nullptr;
  // Both replays pending at once; the second waits for the first, since
  // both write `out` and `mirror` (run side by side, their copies raced).
  ASSERT_CL(clEnqueueCommandBufferKHR(0, nullptr, cb, 1, &gate, &first));
  ASSERT_CL(clEnqueueCommandBufferKHR(1, &second, cb, 1, &first, &other));
  track(first);
  track(other);
  ASSERT_CL(clReleaseCommandBufferKHR(cb));  // the pending replays keep it
  EXPECT_CL_ERROR(CL_INVALID_COMMAND_BUFFER_KHR, clRetainCommandBufferKHR(cb));
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  cl_event both[2] = {first, other};
  ASSERT_CL(clWaitForEvents(2, both));
  std::vector<cl_int> expected = axpb(input, 7, 0);
  EXPECT_EQ(read<cl_int>(out, n), expected);
  EXPECT_EQ(read<cl_int>(mirror, n), expected);
}

TEST_F(CommandBuffer, Queries) {
  cl_command_buffer_properties_khr properties[] = {CL_COMMAND_BUFFER_FLAGS_KHR, 0, 0};
  cl_command_buffer_khr cb = commandBuffer(nullptr, properties);
  cl_command_queue queue = nullptr;
  cl_uint count = 0, references = 0;
  cl_context context = nullptr;
  ASSERT_CL(
      clGetCommandBufferInfoKHR(cb, CL_COMMAND_BUFFER_QUEUES_KHR, sizeof queue, &queue, nullptr));
  EXPECT_EQ(queue, queue_);
  ASSERT_CL(clGetCommandBufferInfoKHR(cb, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, sizeof count, &count,
                                      nullptr));
  EXPECT_EQ(count, 1u);
  ASSERT_CL(clGetCommandBufferInfoKHR(cb, CL_COMMAND_BUFFER_CONTEXT_KHR, sizeof context, &context,
                                      nullptr));
  EXPECT_EQ(context, context_);
  ASSERT_CL(clRetainCommandBufferKHR(cb));
  ASSERT_CL(clGetCommandBufferInfoKHR(cb, CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR, sizeof references,
                                      &references, nullptr));
  EXPECT_EQ(references, 2u);
  ASSERT_CL(clReleaseCommandBufferKHR(cb));
  size_t size = 0;
  ASSERT_CL(
      clGetCommandBufferInfoKHR(cb, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR, 0, nullptr, &size));
  ASSERT_EQ(size, sizeof properties);
  cl_command_buffer_properties_khr back[3] = {9, 9, 9};
  ASSERT_CL(
      clGetCommandBufferInfoKHR(cb, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR, size, back, nullptr));
  EXPECT_TRUE(std::equal(back, back + 3, properties));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clGetCommandBufferInfoKHR(cb, CL_COMMAND_BUFFER_QUEUES_KHR, 1, &queue, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clGetCommandBufferInfoKHR(cb, 0x7fff, sizeof count, &count, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_COMMAND_BUFFER_KHR,
                  clGetCommandBufferInfoKHR(nullptr, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, sizeof count,
                                            &count, nullptr));
}

TEST_F(CommandBuffer, CreationErrors) {
  cl_int err = CL_SUCCESS;
  cl_command_queue q = queue_;
  cl_command_queue two[2] = {queue_, queue_};
  EXPECT_EQ(clCreateCommandBufferKHR(0, &q, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateCommandBufferKHR(1, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateCommandBufferKHR(2, two, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  cl_command_queue invalid = nullptr;
  EXPECT_EQ(clCreateCommandBufferKHR(1, &invalid, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_COMMAND_QUEUE);
  cl_command_buffer_properties_khr twice[] = {CL_COMMAND_BUFFER_FLAGS_KHR, 0,
                                              CL_COMMAND_BUFFER_FLAGS_KHR, 0, 0};
  EXPECT_EQ(clCreateCommandBufferKHR(1, &q, twice, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  cl_command_buffer_properties_khr unknownName[] = {0x7777, 0, 0};
  EXPECT_EQ(clCreateCommandBufferKHR(1, &q, unknownName, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  cl_command_buffer_properties_khr unknownFlag[] = {CL_COMMAND_BUFFER_FLAGS_KHR, 1u << 20, 0};
  EXPECT_EQ(clCreateCommandBufferKHR(1, &q, unknownFlag, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  // Device-side sync is cl_khr_command_buffer_multi_device's flag: a valid
  // value this device does not support.
  cl_command_buffer_properties_khr deviceSideSync[] = {CL_COMMAND_BUFFER_FLAGS_KHR, 1 << 2, 0};
  EXPECT_EQ(clCreateCommandBufferKHR(1, &q, deviceSideSync, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PROPERTY);
  // Simultaneous use and mutable (cl_khr_command_buffer_mutable_dispatch).
  cl_command_buffer_properties_khr both[] = {CL_COMMAND_BUFFER_FLAGS_KHR,
                                             khr::kSimultaneousUse | khr::kMutable, 0};
  EXPECT_NE(commandBuffer(nullptr, both), nullptr);
}

TEST_F(CommandBuffer, RecordingAndEnqueueErrors) {
  constexpr size_t n = 64;
  cl_kernel k = kernel(kAxpbSource, "axpb");
  ASSERT_NE(k, nullptr);
  cl_mem in = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
  cl_mem out = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
  cl_command_buffer_khr cb = commandBuffer();
  cl_sync_point_khr point = 0;
  cl_mutable_command_khr handle = nullptr;
  const cl_int pattern = 1;

  // Not every argument set yet.
  EXPECT_CL_ERROR(CL_INVALID_KERNEL_ARGS,
                  clCommandNDRangeKernelKHR(cb, nullptr, nullptr, k, 1, nullptr, &n, nullptr, 0,
                                            nullptr, nullptr, nullptr));
  ASSERT_TRUE(setArgs(k, in, out, cl_int(1), cl_int(2)));
  EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE,
                  clCommandNDRangeKernelKHR(cb, queue_, nullptr, k, 1, nullptr, &n, nullptr, 0,
                                            nullptr, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_COMMAND_BUFFER_KHR,
                  clCommandNDRangeKernelKHR(nullptr, nullptr, nullptr, k, 1, nullptr, &n, nullptr,
                                            0, nullptr, nullptr, nullptr));
  const cl_properties someProperty[] = {0x1234, 1, 0};
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clCommandNDRangeKernelKHR(cb, nullptr, someProperty, k, 1, nullptr, &n, nullptr,
                                            0, nullptr, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clCommandNDRangeKernelKHR(cb, nullptr, nullptr, k, 1, nullptr, &n, nullptr, 0,
                                            nullptr, nullptr, &handle));
  EXPECT_CL_ERROR(CL_INVALID_WORK_DIMENSION,
                  clCommandNDRangeKernelKHR(cb, nullptr, nullptr, k, 0, nullptr, &n, nullptr, 0,
                                            nullptr, nullptr, nullptr));
  // Sync points: count and list disagree; one this buffer never handed out.
  EXPECT_CL_ERROR(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
                  clCommandFillBufferKHR(cb, nullptr, nullptr, in, &pattern, sizeof pattern, 0,
                                         n * sizeof(cl_int), 1, nullptr, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
                  clCommandFillBufferKHR(cb, nullptr, nullptr, in, &pattern, sizeof pattern, 0,
                                         n * sizeof(cl_int), 0, &point, nullptr, nullptr));
  cl_sync_point_khr unknown = 12345;
  EXPECT_CL_ERROR(
      CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
      clCommandBarrierWithWaitListKHR(cb, nullptr, nullptr, 1, &unknown, nullptr, nullptr));
  // The clEnqueue* checks apply as they are.
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clCommandCopyBufferKHR(cb, nullptr, nullptr, in, out, 0, 4, n * sizeof(cl_int), 0,
                                         nullptr, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_MEM_COPY_OVERLAP, clCommandCopyBufferKHR(cb, nullptr, nullptr, in, in, 0, 4,
                                                              16, 0, nullptr, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clCommandFillBufferKHR(cb, nullptr, nullptr, in, &pattern, 3, 0,
                                                           12, 0, nullptr, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT,
                  clCommandFillBufferKHR(cb, nullptr, nullptr, nullptr, &pattern, sizeof pattern, 0,
                                         4, 0, nullptr, nullptr, nullptr));

  // A buffer of another context.
  cl_int err = CL_SUCCESS;
  cl_context otherContext = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &err);
  ASSERT_CL(err);
  cl_mem foreign = clCreateBuffer(otherContext, CL_MEM_READ_WRITE, 64, nullptr, &err);
  ASSERT_CL(err);
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT, clCommandCopyBufferKHR(cb, nullptr, nullptr, in, foreign, 0,
                                                             0, 16, 0, nullptr, nullptr, nullptr));

  // Enqueue before finalizing; then finalize, and record or finalize again.
  EXPECT_CL_ERROR(CL_INVALID_OPERATION,
                  clEnqueueCommandBufferKHR(0, nullptr, cb, 0, nullptr, nullptr));
  ASSERT_CL(clCommandNDRangeKernelKHR(cb, nullptr, nullptr, k, 1, nullptr, &n, nullptr, 0, nullptr,
                                      &point, nullptr));
  ASSERT_CL(clFinalizeCommandBufferKHR(cb));
  EXPECT_CL_ERROR(CL_INVALID_OPERATION, clFinalizeCommandBufferKHR(cb));
  EXPECT_CL_ERROR(CL_INVALID_OPERATION, clCommandBarrierWithWaitListKHR(cb, nullptr, nullptr, 1,
                                                                        &point, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_COMMAND_BUFFER_KHR, clFinalizeCommandBufferKHR(nullptr));
  EXPECT_CL_ERROR(CL_INVALID_COMMAND_BUFFER_KHR, clReleaseCommandBufferKHR(nullptr));
  EXPECT_CL_ERROR(CL_INVALID_COMMAND_BUFFER_KHR,
                  clEnqueueCommandBufferKHR(0, nullptr, nullptr, 0, nullptr, nullptr));

  // Queues: count and list disagree; more than recorded; an invalid one;
  // another context's; an event of another context.
  cl_command_queue q = queue_;
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueCommandBufferKHR(1, nullptr, cb, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueCommandBufferKHR(0, &q, cb, 0, nullptr, nullptr));
  cl_command_queue two[2] = {queue_, queue_};
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueCommandBufferKHR(2, two, cb, 0, nullptr, nullptr));
  cl_command_queue invalid[1] = {nullptr};
  EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE,
                  clEnqueueCommandBufferKHR(1, invalid, cb, 0, nullptr, nullptr));
  cl_command_queue foreignQueue =
      clCreateCommandQueueWithProperties(otherContext, device_, nullptr, &err);
  ASSERT_CL(err);
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT,
                  clEnqueueCommandBufferKHR(1, &foreignQueue, cb, 0, nullptr, nullptr));
  cl_event foreignEvent = clCreateUserEvent(otherContext, &err);
  ASSERT_CL(err);
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT,
                  clEnqueueCommandBufferKHR(0, nullptr, cb, 1, &foreignEvent, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST,
                  clEnqueueCommandBufferKHR(0, nullptr, cb, 1, nullptr, nullptr));
  EXPECT_CL(clSetUserEventStatus(foreignEvent, CL_COMPLETE));
  EXPECT_CL(clReleaseEvent(foreignEvent));
  EXPECT_CL(clReleaseCommandQueue(foreignQueue));
  EXPECT_CL(clReleaseMemObject(foreign));
  EXPECT_CL(clReleaseContext(otherContext));

  // Nothing refused above was recorded: the buffer runs its one launch.
  std::vector<cl_int> input = randomValues<cl_int>(n, -10, 10);
  write(in, input);
  ASSERT_CL(clEnqueueCommandBufferKHR(1, &q, cb, 0, nullptr, nullptr));
  EXPECT_EQ(read<cl_int>(out, n), axpb(input, 1, 2));
}

// Without CL_COMMAND_BUFFER_CAPABILITY_DEVICE_SIDE_ENQUEUE_KHR, a kernel
// that enqueues kernels (directly or through a function it calls) is not
// recorded; one that does not is.
TEST_F(CommandBuffer, KernelsThatEnqueueKernelsAreRefused) {
  const char *source = R"(
    void spawn(global int *out) {
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1), ^{ out[1] = 1; });
    }
    kernel void direct(global int *out) {
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ out[0] = 1; });
    }
    kernel void indirect(global int *out) { spawn(out); }
    kernel void plain(global int *out) { out[2] = 1; })";
  cl_program program = build(source, "-cl-std=CL3.0");
  cl_mem out = buffer(CL_MEM_READ_WRITE, 16);
  cl_command_buffer_khr cb = commandBuffer();
  size_t one = 1;
  for (const char *name : {"direct", "indirect"}) {
    cl_kernel k = kernelOf(program, name);
    ASSERT_TRUE(setArgs(k, out));
    EXPECT_EQ(clCommandNDRangeKernelKHR(cb, nullptr, nullptr, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr,
                                        nullptr),
              CL_INVALID_OPERATION)
        << name;
  }
  cl_kernel plain = kernelOf(program, "plain");
  ASSERT_TRUE(setArgs(plain, out));
  EXPECT_CL(clCommandNDRangeKernelKHR(cb, nullptr, nullptr, plain, 1, nullptr, &one, nullptr, 0, nullptr, nullptr,
                                      nullptr));
}

}  // namespace
}  // namespace lockstep::test

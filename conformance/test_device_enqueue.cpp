// Device-side enqueue (__opencl_c_device_enqueue): device queues through the
// host API, and kernels that enqueue kernels (every enqueue_kernel form,
// the flags, nesting, events and markers, __local block arguments, the
// ndrange forms, the error returns, profiling, the get_kernel_* queries),
// each checked against a reference the test computes on the host.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "ClTest.h"

namespace lockstep::test {
namespace {

class DeviceEnqueue : public ClTest {
 protected:
  void SetUp() override {
    ClTest::SetUp();
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES,
                                   CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE |
                                       CL_QUEUE_ON_DEVICE_DEFAULT,
                                   CL_QUEUE_SIZE, queueSize(), 0};
    cl_int err = CL_SUCCESS;
    deviceQueue_ = clCreateCommandQueueWithProperties(context_, device_, props, &err);
    ASSERT_EQ(err, CL_SUCCESS) << errorName(err);
  }
  void TearDown() override {
    if (deviceQueue_) clReleaseCommandQueue(deviceQueue_);
    ClTest::TearDown();
  }
  virtual cl_uint queueSize() {
    cl_uint size = 0;
    clGetDeviceInfo(device_, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, sizeof size, &size, nullptr);
    return size;
  }
  // Runs `kernel` over `global` on the host queue and waits for it (and so
  // for everything it enqueued).
  void runAndFinish(cl_kernel k, size_t global, size_t local = 0) {
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, local ? &local : nullptr, 0, nullptr,
                                     nullptr));
    ASSERT_CL(clFinish(queue_));
  }
  cl_command_queue deviceQueue_ = nullptr;
};

// ---- host API ----

TEST_F(DeviceEnqueue, DeviceReportsDeviceQueues) {
  cl_device_device_enqueue_capabilities caps = 0;
  ASSERT_CL(clGetDeviceInfo(device_, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof caps, &caps, nullptr));
  EXPECT_EQ(caps, cl_device_device_enqueue_capabilities(CL_DEVICE_QUEUE_SUPPORTED |
                                                        CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT));
  cl_command_queue_properties props = 0;
  ASSERT_CL(clGetDeviceInfo(device_, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, sizeof props, &props, nullptr));
  EXPECT_EQ(props, cl_command_queue_properties(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE));
  cl_uint preferred = 0, max = 0, queues = 0, events = 0;
  ASSERT_CL(clGetDeviceInfo(device_, CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, sizeof preferred, &preferred, nullptr));
  ASSERT_CL(clGetDeviceInfo(device_, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, sizeof max, &max, nullptr));
  ASSERT_CL(clGetDeviceInfo(device_, CL_DEVICE_MAX_ON_DEVICE_QUEUES, sizeof queues, &queues, nullptr));
  ASSERT_CL(clGetDeviceInfo(device_, CL_DEVICE_MAX_ON_DEVICE_EVENTS, sizeof events, &events, nullptr));
  EXPECT_GE(preferred, 16u * 1024);  // the spec's minimums (full profile)
  EXPECT_GE(max, 256u * 1024);
  EXPECT_LE(preferred, max);
  EXPECT_GE(queues, 1u);
  EXPECT_GE(events, 1024u);
  EXPECT_TRUE(hasFeature("__opencl_c_device_enqueue"));
  EXPECT_TRUE(hasFeature("__opencl_c_generic_address_space"));
  EXPECT_TRUE(hasFeature("__opencl_c_program_scope_global_variables"));
}

TEST_F(DeviceEnqueue, DeviceQueueCreationIsValidated) {
  cl_int err = CL_SUCCESS;
  // CL_QUEUE_ON_DEVICE requires out-of-order.
  cl_queue_properties inOrder[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0};
  EXPECT_EQ(clCreateCommandQueueWithProperties(context_, device_, inOrder, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  // The default flag requires the device flag.
  cl_queue_properties defaultOnly[] = {CL_QUEUE_PROPERTIES,
                                       CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE_DEFAULT, 0};
  EXPECT_EQ(clCreateCommandQueueWithProperties(context_, device_, defaultOnly, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  // A size beyond the maximum; a size on a host queue.
  cl_uint max = queueSize();
  cl_queue_properties tooBig[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE,
                                  CL_QUEUE_SIZE, cl_queue_properties(max) + 1, 0};
  EXPECT_EQ(clCreateCommandQueueWithProperties(context_, device_, tooBig, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  cl_queue_properties hostSize[] = {CL_QUEUE_SIZE, 1024, 0};
  EXPECT_EQ(clCreateCommandQueueWithProperties(context_, device_, hostSize, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);

  // A second device queue with its own size; the default one stays.
  cl_queue_properties sized[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE,
                                 CL_QUEUE_SIZE, 4096, 0};
  cl_command_queue second = clCreateCommandQueueWithProperties(context_, device_, sized, &err);
  ASSERT_CL(err);
  cl_uint size = 0;
  ASSERT_CL(clGetCommandQueueInfo(second, CL_QUEUE_SIZE, sizeof size, &size, nullptr));
  EXPECT_EQ(size, 4096u);
  cl_command_queue defaultQueue = nullptr;
  ASSERT_CL(clGetCommandQueueInfo(second, CL_QUEUE_DEVICE_DEFAULT, sizeof defaultQueue, &defaultQueue, nullptr));
  EXPECT_EQ(defaultQueue, deviceQueue_);
  std::vector<cl_queue_properties> array(5);
  size_t bytes = 0;
  ASSERT_CL(clGetCommandQueueInfo(second, CL_QUEUE_PROPERTIES_ARRAY, array.size() * sizeof(cl_queue_properties),
                                  array.data(), &bytes));
  EXPECT_EQ(bytes, sizeof sized);
  EXPECT_TRUE(std::equal(std::begin(sized), std::end(sized), array.begin()));
  // Replaceable default.
  ASSERT_CL(clSetDefaultDeviceCommandQueue(context_, device_, second));
  ASSERT_CL(clGetCommandQueueInfo(deviceQueue_, CL_QUEUE_DEVICE_DEFAULT, sizeof defaultQueue, &defaultQueue, nullptr));
  EXPECT_EQ(defaultQueue, second);
  EXPECT_EQ(clSetDefaultDeviceCommandQueue(context_, device_, queue_), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clSetDefaultDeviceCommandQueue(context_, device_, nullptr), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clSetDefaultDeviceCommandQueue(nullptr, device_, second), CL_INVALID_CONTEXT);
  EXPECT_EQ(clSetDefaultDeviceCommandQueue(context_, nullptr, second), CL_INVALID_DEVICE);
  ASSERT_CL(clSetDefaultDeviceCommandQueue(context_, device_, deviceQueue_));
  // A host queue has no size.
  EXPECT_EQ(clGetCommandQueueInfo(queue_, CL_QUEUE_SIZE, sizeof size, &size, nullptr), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clReleaseCommandQueue(second));
}

TEST_F(DeviceEnqueue, HostCommandsOnADeviceQueueAreRefused) {
  cl_mem mem = buffer(CL_MEM_READ_WRITE, 64);
  int value = 0;
  EXPECT_EQ(clEnqueueWriteBuffer(deviceQueue_, mem, CL_TRUE, 0, 4, &value, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clEnqueueFillBuffer(deviceQueue_, mem, &value, 4, 0, 64, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
  cl_kernel k = kernel("kernel void k(global int *a) { a[0] = 1; }", "k");
  ASSERT_TRUE(setArgs(k, mem));
  size_t one = 1;
  EXPECT_EQ(clEnqueueNDRangeKernel(deviceQueue_, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  cl_event event = nullptr;
  EXPECT_EQ(clEnqueueMarkerWithWaitList(deviceQueue_, 0, nullptr, &event), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clEnqueueBarrierWithWaitList(deviceQueue_, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clFinish(deviceQueue_), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clFlush(deviceQueue_), CL_INVALID_COMMAND_QUEUE);
  // Asking for the default queue again returns it (retained).
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES,
                                 CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT,
                                 0};
  cl_int err = CL_SUCCESS;
  cl_command_queue again = clCreateCommandQueueWithProperties(context_, device_, props, &err);
  ASSERT_CL(err);
  EXPECT_EQ(again, deviceQueue_);
  ASSERT_CL(clReleaseCommandQueue(again));
}

// A queue_t kernel argument takes a device queue of the kernel's context
// only; the kernel enqueues to the queue it was given.
TEST_F(DeviceEnqueue, QueueArgumentsAreDeviceQueues) {
  const char *source = R"(
    kernel void parent(queue_t q, global int *out, int v) {
      out[get_global_size(0)] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(get_global_size(0)),
                                               ^{ out[get_global_id(0)] = (int)get_global_id(0) * v; });
    })";
  cl_kernel k = kernel(source, "parent", "-cl-std=CL3.0");
  cl_command_queue none = nullptr;
  EXPECT_EQ(clSetKernelArg(k, 0, sizeof none, &none), CL_INVALID_DEVICE_QUEUE);
  EXPECT_EQ(clSetKernelArg(k, 0, sizeof queue_, &queue_), CL_INVALID_DEVICE_QUEUE);  // a host queue
  EXPECT_EQ(clSetKernelArg(k, 0, sizeof deviceQueue_, nullptr), CL_INVALID_DEVICE_QUEUE);
  EXPECT_EQ(clSetKernelArg(k, 0, 4, &deviceQueue_), CL_INVALID_ARG_SIZE);
  // Another device queue than the default: the children go there.
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE, 0};
  cl_int err = CL_SUCCESS;
  cl_command_queue other = clCreateCommandQueueWithProperties(context_, device_, props, &err);
  ASSERT_CL(err);
  const int n = 100, v = 3;
  cl_mem out = bufferFrom(std::vector<int>(n + 1, -1));
  ASSERT_CL(clSetKernelArg(k, 0, sizeof other, &other));
  ASSERT_TRUE(setArgs(k, other, out, v));
  runAndFinish(k, n);
  std::vector<int> got = read<int>(out, n + 1);
  for (int i = 0; i < n; ++i) ASSERT_EQ(got[i], i * v) << i;
  EXPECT_EQ(got[n], 0);
  ASSERT_CL(clReleaseCommandQueue(other));
}

TEST_F(DeviceEnqueue, BlockKernelsAreNotThePrograms) {
  const char *source = R"(
    kernel void parent(global int *out) {
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ out[0] = 1; });
    })";
  cl_program program = build(source, "-cl-std=CL3.0");
  cl_uint count = 0;
  ASSERT_CL(clCreateKernelsInProgram(program, 0, nullptr, &count));
  EXPECT_EQ(count, 1u);
  size_t bytes = 0;
  ASSERT_CL(clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &bytes));
  std::string names(bytes, '\0');
  ASSERT_CL(clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, bytes, names.data(), nullptr));
  EXPECT_EQ(std::string(names.c_str()), "parent");
}

// ---- kernels that enqueue kernels ----

// The kernels the runtime makes of blocks are not the application's: once
// its own kernel is released, the program may be built again.
TEST_F(DeviceEnqueue, ProgramsRebuildAfterTheirKernelsEnqueued) {
  const char *source = R"(
    kernel void parent(global int *out, int v) {
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(8), ^{
        out[get_global_id(0)] = v + (int)get_global_id(0); });
      if (get_kernel_work_group_size(^{ out[9] = 1; }) == 0) out[8] = -2;
    })";
  cl_int err = CL_SUCCESS;
  const char *text = source;
  cl_program program = clCreateProgramWithSource(context_, 1, &text, nullptr, &err);
  ASSERT_CL(err);
  cl_mem out = bufferFrom(std::vector<int>(10, -1));
  for (int round = 0; round < 2; ++round) {
    ASSERT_CL(clBuildProgram(program, 1, &device_, "-cl-std=CL3.0", nullptr, nullptr));
    cl_kernel k = clCreateKernel(program, "parent", &err);
    ASSERT_CL(err);
    const int v = 100 * (round + 1);
    ASSERT_CL(clSetKernelArg(k, 0, sizeof out, &out));
    ASSERT_CL(clSetKernelArg(k, 1, sizeof v, &v));
    runAndFinish(k, 4);
    std::vector<int> got = read<int>(out, 10);
    for (int i = 0; i < 8; ++i) EXPECT_EQ(got[i], v + i) << i;
    EXPECT_EQ(got[8], -1);
    ASSERT_CL(clReleaseKernel(k));
  }
  ASSERT_CL(clReleaseProgram(program));
}

// The child of every enqueue_kernel form writes out[i] = i * v + form.
TEST_F(DeviceEnqueue, EveryEnqueueFormRuns) {
  const char *source = R"(
    kernel void parent(global int *out, int v, int n, global int *codes) {
      queue_t q = get_default_queue();
      ndrange_t r = ndrange_1D(n);
      clk_event_t e1, e2;
      codes[0] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, r, ^{
        size_t i = get_global_id(0); out[i] = i * v + 0; });
      codes[1] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, r, 0, NULL, &e1, ^{
        size_t i = get_global_id(0); out[n + i] = i * v + 1; });
      codes[2] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, r, 1, &e1, &e2, ^{
        size_t i = get_global_id(0); out[2 * n + i] = out[n + i] + 1; });
      codes[3] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, r, ^(local void *a) {
        size_t i = get_global_id(0); ((local int *)a)[get_local_id(0)] = i * v + 3;
        out[3 * n + i] = ((local int *)a)[get_local_id(0)]; }, (uint)(get_kernel_work_group_size(^(local void *a){}) * 4));
      codes[4] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, r, 1, &e2, NULL, ^(local void *a) {
        size_t i = get_global_id(0); ((local int *)a)[get_local_id(0)] = out[2 * n + i] + 2;
        out[4 * n + i] = ((local int *)a)[get_local_id(0)]; }, (uint)(get_kernel_work_group_size(^(local void *a){}) * 4));
      release_event(e1);
      release_event(e2);
    })";
  {
    const char *std = "-cl-std=CL3.0";
    const int n = 300, v = 7;
    cl_mem out = buffer(CL_MEM_READ_WRITE, 5 * n * sizeof(int));
    cl_mem codes = bufferFrom(std::vector<int>(5, 99));
    cl_kernel k = kernel(source, "parent", std);
    ASSERT_TRUE(setArgs(k, out, v, n, codes));
    runAndFinish(k, 1);
    EXPECT_EQ(read<int>(codes, 5), std::vector<int>(5, 0));
    std::vector<int> got = read<int>(out, 5 * n);
    for (int form = 0; form < 5; ++form)
      for (int i = 0; i < n; ++i) ASSERT_EQ(got[form * n + i], i * v + form) << "form " << form << " i " << i;
  }
}

// WAIT_KERNEL: the child sees every parent work-item's write; WAIT_WORK_GROUP:
// every write of the enqueuing group; NO_WAIT children run all the same.
TEST_F(DeviceEnqueue, FlagsOrderChildrenAfterTheirParent) {
  const char *source = R"(
    kernel void parent(global int *a, global int *sums, global int *groupSums, global int *noWait) {
      size_t i = get_global_id(0), g = get_group_id(0), ls = get_local_size(0), n = get_global_size(0);
      if (i == 0)
        enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1), ^{
          int s = 0; for (size_t j = 0; j < n; ++j) s += a[j]; sums[0] = s; });
      if (get_local_id(0) == 0) {
        enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP, ndrange_1D(1), ^{
          int s = 0; for (size_t j = 0; j < ls; ++j) s += a[g * ls + j]; groupSums[g] = s; });
        enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(ls), ^{
          noWait[g * ls + get_global_id(0)] = (int)g; });
      }
      // Slow writers: work-item order within the group is the last to write.
      for (volatile int spin = 0; spin < 2000; ++spin) {}
      a[i] = (int)(i * 3 + 1);
    })";
  const size_t n = 4096, ls = 64, groups = n / ls;
  cl_mem a = buffer(CL_MEM_READ_WRITE, n * sizeof(int));
  cl_mem sums = bufferFrom(std::vector<int>(1, -1));
  cl_mem groupSums = bufferFrom(std::vector<int>(groups, -1));
  cl_mem noWait = bufferFrom(std::vector<int>(n, -1));
  cl_kernel k = kernel(source, "parent", "-cl-std=CL3.0");
  ASSERT_TRUE(setArgs(k, a, sums, groupSums, noWait));
  for (int round = 0; round < 5; ++round) {
    int zero = 0;
    ASSERT_CL(clEnqueueFillBuffer(queue_, a, &zero, 4, 0, n * 4, 0, nullptr, nullptr));
    runAndFinish(k, n, ls);
    long long total = 0;
    std::vector<int> expectGroups(groups, 0);
    for (size_t i = 0; i < n; ++i) {
      total += int(i * 3 + 1);
      expectGroups[i / ls] += int(i * 3 + 1);
    }
    EXPECT_EQ(read<int>(sums, 1)[0], int(total));
    EXPECT_EQ(read<int>(groupSums, groups), expectGroups);
    std::vector<int> got = read<int>(noWait, n);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], int(i / ls)) << i;
  }
}

// Children enqueue children, several levels deep; the host's clFinish
// returns only once the deepest has run.
TEST_F(DeviceEnqueue, NestedEnqueuesCompleteBeforeTheParentsEvent) {
  const char *source = R"(
    void level(global int *out, int depth, int max, int width) {
      size_t i = get_global_id(0);
      out[depth * width + i] = depth * 1000 + (int)i;
      if (i == 0 && depth + 1 < max)
        enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(width, 8),
                       ^{ level(out, depth + 1, max, width); });
    }
    kernel void parent(global int *out, int max, int width) { level(out, 0, max, width); })";
  const int depth = 24, width = 64;
  cl_mem out = bufferFrom(std::vector<int>(depth * width, -1));
  cl_kernel k = kernel(source, "parent", "-cl-std=CL3.0");
  ASSERT_TRUE(setArgs(k, out, depth, width));
  size_t global = width, local = 8;
  cl_event done = nullptr;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, &done));
  track(done);
  ASSERT_CL(clWaitForEvents(1, &done));
  std::vector<int> got(depth * width);
  // Read without a queue order: the event alone must cover the descendants.
  cl_command_queue other = makeQueue(0);
  ASSERT_CL(clEnqueueReadBuffer(other, out, CL_TRUE, 0, got.size() * 4, got.data(), 0, nullptr, nullptr));
  for (int d = 0; d < depth; ++d)
    for (int i = 0; i < width; ++i) ASSERT_EQ(got[d * width + i], d * 1000 + i) << d << " " << i;
}

// A fan-out tree: every work-item of every level enqueues, so many children
// are pending at once on the workers; none may deadlock.
TEST_F(DeviceEnqueue, WideTreesRunOnTheWorkersWithoutDeadlock) {
  const char *source = R"(
    void node(global atomic_int *count, int depth) {
      atomic_fetch_add(count, 1);
      if (depth > 0)
        enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(3),
                       ^{ node(count, depth - 1); });
    }
    kernel void parent(global atomic_int *count, int depth) { node(count, depth); })";
  const int depth = 6;
  for (int round = 0; round < 3; ++round) {
    cl_mem count = bufferFrom(std::vector<int>(1, 0));
    cl_kernel k = kernel(source, "parent", "-cl-std=CL3.0");
    ASSERT_TRUE(setArgs(k, count, depth));
    runAndFinish(k, 3);
    // 3 + 9 + ... + 3^(depth+1) work-items in all.
    int expect = 0;
    for (int level = 1, width = 3; level <= depth + 1; ++level, width *= 3) expect += width;
    EXPECT_EQ(read<int>(count, 1)[0], expect);
  }
}

// Events between device commands order them; markers join them; a user
// event created in the kernel gates a child until the kernel sets it.
TEST_F(DeviceEnqueue, EventsAndMarkersOrderDeviceCommands) {
  const char *source = R"(
    kernel void parent(global int *a, global int *b, global int *c, global int *flags, int n) {
      queue_t q = get_default_queue();
      clk_event_t first, second, marker;
      clk_event_t user = create_user_event();
      flags[0] = is_valid_event(user);
      enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(n), 1, &user, &first, ^{
        size_t i = get_global_id(0); for (volatile int s = 0; s < 500; ++s) {} a[i] = (int)i * 2; });
      enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(n), 1, &first, &second, ^{
        size_t i = get_global_id(0); b[i] = a[i] + 1; });
      clk_event_t both[2] = {first, second};
      flags[1] = enqueue_marker(q, 2, both, &marker);
      enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(n), 1, &marker, NULL, ^{
        size_t i = get_global_id(0); c[i] = a[i] + b[i]; });
      set_user_event_status(user, CL_COMPLETE);
      retain_event(first);
      release_event(first);
      release_event(first);
      release_event(second);
      release_event(marker);
      release_event(user);
    })";
  const int n = 2000;
  cl_mem a = bufferFrom(std::vector<int>(n, -1));
  cl_mem b = bufferFrom(std::vector<int>(n, -1));
  cl_mem c = bufferFrom(std::vector<int>(n, -1));
  cl_mem flags = bufferFrom(std::vector<int>(2, -1));
  cl_kernel k = kernel(source, "parent", "-cl-std=CL3.0");
  ASSERT_TRUE(setArgs(k, a, b, c, flags, n));
  runAndFinish(k, 1);
  std::vector<int> fa = read<int>(a, n), fb = read<int>(b, n), fc = read<int>(c, n);
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(fa[i], 2 * i) << i;
    ASSERT_EQ(fb[i], 2 * i + 1) << i;
    ASSERT_EQ(fc[i], 4 * i + 1) << i;
  }
  EXPECT_EQ(read<int>(flags, 2), (std::vector<int>{1, 0}));
}

// Events kept in a private array indexed at run time (as the CTS's
// enqueue_multi_queue keeps 1000): the last child waits for all of them.
TEST_F(DeviceEnqueue, EventsInAnArrayOrderTheLastChild) {
  const char *source = R"(
    kernel void fan(global int *out, int n) {
      queue_t q = get_default_queue();
      clk_event_t evts[8];
      for (int j = 0; j < n; ++j)
        enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 0, NULL, &evts[j], ^{
          for (volatile int s = 0; s < 200; ++s) {}
          out[j] = j * 3 + 1; });
      enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), n, evts, NULL, ^{
        int sum = 0;
        for (int k = 0; k < n; ++k) sum += out[k];
        out[8] = sum; });
      for (int j = 0; j < n; ++j) release_event(evts[j]);
    })";
  for (int n : {1, 5, 8}) {
    cl_mem out = bufferFrom(std::vector<int>(9, -1));
    cl_kernel k = kernel(source, "fan", "-cl-std=CL2.0");
    ASSERT_TRUE(setArgs(k, out, n));
    runAndFinish(k, 1);
    std::vector<int> got = read<int>(out, 9);
    int sum = 0;
    for (int j = 0; j < n; ++j) {
      EXPECT_EQ(got[j], j * 3 + 1) << j;
      sum += j * 3 + 1;
    }
    EXPECT_EQ(got[8], sum) << n;
  }
}

// A block with __local pointer parameters: each group reduces its slice in
// two local arrays whose sizes the enqueue gives.
TEST_F(DeviceEnqueue, LocalPointerArgumentsHaveTheirSizes) {
  const char *source = R"(
    kernel void parent(global const int *in, global int *sums, global int *maxes, uint ls, uint n) {
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(n, ls),
        ^(local void *sp, local void *mp) {
          local int *s = (local int *)sp; local long *m = (local long *)mp;
          size_t l = get_local_id(0);
          s[l] = in[get_global_id(0)]; m[l] = in[get_global_id(0)];
          barrier(CLK_LOCAL_MEM_FENCE);
          if (l == 0) {
            int t = 0; long mx = m[0];
            for (uint j = 0; j < get_local_size(0); ++j) { t += s[j]; mx = max(mx, m[j]); }
            sums[get_group_id(0)] = t; maxes[get_group_id(0)] = (int)mx;
          }
        }, ls * 4, ls * 8);
    })";
  const unsigned ls = 32, n = 32 * 50;
  std::vector<int> in = randomValues<int>(n, -1000, 1000);
  cl_mem inMem = bufferFrom(in);
  cl_mem sums = bufferFrom(std::vector<int>(n / ls, 0));
  cl_mem maxes = bufferFrom(std::vector<int>(n / ls, 0));
  cl_kernel k = kernel(source, "parent", "-cl-std=CL3.0");
  ASSERT_TRUE(setArgs(k, inMem, sums, maxes, ls, n));
  runAndFinish(k, 1);
  std::vector<int> gotSums = read<int>(sums, n / ls), gotMaxes = read<int>(maxes, n / ls);
  for (unsigned g = 0; g < n / ls; ++g) {
    int s = 0, m = in[g * ls];
    for (unsigned j = 0; j < ls; ++j) s += in[g * ls + j], m = std::max(m, in[g * ls + j]);
    EXPECT_EQ(gotSums[g], s) << g;
    EXPECT_EQ(gotMaxes[g], m) << g;
  }
}

// Every ndrange form: the child records each work-item's global id, offset
// and local size; the host enumerates the same range.
TEST_F(DeviceEnqueue, NDRangeFormsGiveTheirGeometry) {
  const char *source = R"(
    void record(global int *out, int form) {
      size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
      size_t ox = get_global_offset(0), oy = get_global_offset(1), oz = get_global_offset(2);
      size_t sx = get_global_size(0), sy = get_global_size(1);
      size_t lin = (z - oz) * sx * sy + (y - oy) * sx + (x - ox);
      out[form * 512 + lin] = (int)(x + 10 * y + 100 * z) * 8 + (int)get_work_dim() +
                              (int)(get_local_size(0) * get_local_size(1) * get_local_size(2)) * 100000;
    }
    kernel void parent(global int *out) {
      queue_t q = get_default_queue();
      size_t g2[2] = {8, 4}, l2[2] = {4, 2}, o2[2] = {3, 5};
      size_t g3[3] = {4, 4, 2}, l3[3] = {2, 2, 2}, o3[3] = {1, 2, 3};
      enqueue_kernel(q, 0, ndrange_1D(32), ^{ record(out, 0); });
      enqueue_kernel(q, 0, ndrange_1D(32, 8), ^{ record(out, 1); });
      enqueue_kernel(q, 0, ndrange_1D(5, 32, 16), ^{ record(out, 2); });
      enqueue_kernel(q, 0, ndrange_2D(g2), ^{ record(out, 3); });
      enqueue_kernel(q, 0, ndrange_2D(g2, l2), ^{ record(out, 4); });
      enqueue_kernel(q, 0, ndrange_2D(o2, g2, l2), ^{ record(out, 5); });
      enqueue_kernel(q, 0, ndrange_3D(g3), ^{ record(out, 6); });
      enqueue_kernel(q, 0, ndrange_3D(g3, l3), ^{ record(out, 7); });
      enqueue_kernel(q, 0, ndrange_3D(o3, g3, l3), ^{ record(out, 8); });
    })";
  struct Form {
    int dims;
    size_t offset[3], global[3], local[3];  // local 0: the runtime's choice
  };
  const Form forms[] = {{1, {0, 0, 0}, {32, 1, 1}, {0, 0, 0}}, {1, {0, 0, 0}, {32, 1, 1}, {8, 1, 1}},
                        {1, {5, 0, 0}, {32, 1, 1}, {16, 1, 1}}, {2, {0, 0, 0}, {8, 4, 1}, {0, 0, 0}},
                        {2, {0, 0, 0}, {8, 4, 1}, {4, 2, 1}},   {2, {3, 5, 0}, {8, 4, 1}, {4, 2, 1}},
                        {3, {0, 0, 0}, {4, 4, 2}, {0, 0, 0}},   {3, {0, 0, 0}, {4, 4, 2}, {2, 2, 2}},
                        {3, {1, 2, 3}, {4, 4, 2}, {2, 2, 2}}};
  const int count = sizeof forms / sizeof forms[0];
  cl_mem out = bufferFrom(std::vector<int>(count * 512, -1));
  cl_kernel k = kernel(source, "parent", "-cl-std=CL3.0");
  ASSERT_TRUE(setArgs(k, out));
  runAndFinish(k, 1);
  std::vector<int> got = read<int>(out, count * 512);
  for (int f = 0; f < count; ++f) {
    const Form &form = forms[f];
    size_t items = form.global[0] * form.global[1] * form.global[2];
    for (size_t lin = 0; lin < 512; ++lin) {
      int value = got[f * 512 + lin];
      if (lin >= items) {
        ASSERT_EQ(value, -1) << "form " << f << " wrote past its range at " << lin;
        continue;
      }
      size_t x = lin % form.global[0] + form.offset[0];
      size_t y = lin / form.global[0] % form.global[1] + form.offset[1];
      size_t z = lin / (form.global[0] * form.global[1]) + form.offset[2];
      int base = int(x + 10 * y + 100 * z) * 8 + form.dims;
      ASSERT_EQ(value % 100000, base) << "form " << f << " at " << lin;
      if (form.local[0] != 0)
        ASSERT_EQ(value / 100000, int(form.local[0] * form.local[1] * form.local[2])) << "form " << f;
      else
        ASSERT_GE(value / 100000, 1) << "form " << f;
    }
  }
}

// The spec's error values: an invalid ndrange, an inconsistent wait list,
// no device queue, a zero __local size.
TEST_F(DeviceEnqueue, EnqueueErrorsReturnTheSpecsValues) {
  const char *simple = R"(
    kernel void parent(global int *codes, global int *ran) {
      queue_t q = get_default_queue();
      clk_event_t e;
      codes[0] = enqueue_kernel(q, 0, ndrange_1D(64, 8192), ^{ ran[0] = 1; });
      codes[1] = enqueue_kernel(q, 0, ndrange_1D(0), ^{ ran[1] = 1; });
      codes[2] = enqueue_kernel(q, 0, ndrange_1D(64), 1, NULL, &e, ^{ ran[2] = 1; });
      queue_t none = CLK_NULL_QUEUE;
      codes[3] = enqueue_kernel(none, 0, ndrange_1D(64), ^{ ran[3] = 1; });
      codes[4] = enqueue_kernel(q, 0, ndrange_1D(64), ^(local void *p){ ran[4] = 1; }, 0u);
      codes[5] = enqueue_marker(q, 0, NULL, &e);
      codes[6] = enqueue_kernel(q, 0, ndrange_1D(64), ^{ ran[6] = 1; });
    })";
  cl_mem codes = bufferFrom(std::vector<int>(7, 99));
  cl_mem ran = bufferFrom(std::vector<int>(7, 0));
  cl_kernel k = kernel(simple, "parent", "-cl-std=CL3.0");
  ASSERT_TRUE(setArgs(k, codes, ran));
  runAndFinish(k, 1);
  const int kInvalidNDRange = -160, kInvalidWaitList = -57, kInvalidQueue = -102, kInvalidArgSize = -51;
  EXPECT_EQ(read<int>(codes, 7),
            (std::vector<int>{kInvalidNDRange, kInvalidNDRange, kInvalidWaitList, kInvalidQueue, kInvalidArgSize,
                              kInvalidWaitList, 0}));
  EXPECT_EQ(read<int>(ran, 7), (std::vector<int>{0, 0, 0, 0, 0, 0, 1}));
}

// A small queue fills up while its children wait for the parent: the
// enqueues past its room return CLK_DEVICE_QUEUE_FULL, and the children that
// were taken all run.
class SmallDeviceQueue : public DeviceEnqueue {
 protected:
  cl_uint queueSize() override { return 2048; }
};

TEST_F(SmallDeviceQueue, AFullQueueRefusesWithDeviceQueueFull) {
  const char *source = R"(
    kernel void parent(global int *codes, global atomic_int *ran, int tries) {
      for (int t = 0; t < tries; ++t)
        codes[t] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1),
                                  ^{ atomic_fetch_add(ran, 1); });
    })";
  const int tries = 200;
  cl_mem codes = bufferFrom(std::vector<int>(tries, 99));
  cl_mem ran = bufferFrom(std::vector<int>(1, 0));
  cl_kernel k = kernel(source, "parent", "-cl-std=CL3.0");
  ASSERT_TRUE(setArgs(k, codes, ran, tries));
  runAndFinish(k, 1);
  std::vector<int> got = read<int>(codes, tries);
  const int kQueueFull = -161;
  int taken = int(std::count(got.begin(), got.end(), 0));
  EXPECT_GT(taken, 0);
  EXPECT_LT(taken, tries);
  for (int t = 0; t < tries; ++t) ASSERT_EQ(got[t], t < taken ? 0 : kQueueFull) << t;
  EXPECT_EQ(read<int>(ran, 1)[0], taken);
  // Once they ran, the queue has room again.
  int zero = 0;
  ASSERT_CL(clEnqueueFillBuffer(queue_, ran, &zero, 4, 0, 4, 0, nullptr, nullptr));
  runAndFinish(k, 1);
  EXPECT_EQ(read<int>(ran, 1)[0], taken);
}

// capture_event_profiling_info: the child's execution time, and its time to
// completion, both positive and ordered; measured around a child that spins
// for a known while. Its chain is not linear (the shift): a linear
// x = x * a + c, unrolled, folds 32 rounds into one multiply-add, and the
// child then took 70 us on a 2-core EPYC, under the test's 0.1 ms floor.
TEST_F(DeviceEnqueue, ProfilingInfoIsCaptured) {
  const char *source = R"(
    kernel void parent(global ulong *times, global int *out) {
      clk_event_t e;
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 0, NULL, &e, ^{
        ulong x = 1;
        for (int i = 0; i < 2000000; ++i) x = (x ^ (x >> 29)) * 6364136223846793005UL + 1442695040888963407UL;
        out[0] = (int)(x >> 40) | 1; });
      capture_event_profiling_info(e, CLK_PROFILING_COMMAND_EXEC_TIME, times);
      release_event(e);
    })";
  cl_mem times = bufferFrom(std::vector<cl_ulong>(2, 0));
  cl_mem out = bufferFrom(std::vector<int>(1, 0));
  cl_kernel k = kernel(source, "parent", "-cl-std=CL3.0");
  ASSERT_TRUE(setArgs(k, times, out));
  runAndFinish(k, 1);
  std::vector<cl_ulong> got = read<cl_ulong>(times, 2);
  EXPECT_NE(read<int>(out, 1)[0], 0);
  EXPECT_GT(got[0], 100000u);  // 2M dependent multiply-adds: well over 0.1 ms
  EXPECT_LT(got[0], 60ull * 1000 * 1000 * 1000);
  EXPECT_GE(got[1], got[0]);
}

// The get_kernel_* queries of a block kernel agree with the device's limits
// and with each other.
TEST_F(DeviceEnqueue, KernelQueriesDescribeTheBlock) {
  const char *source = R"(
    kernel void parent(global uint *out) {
      size_t g2[2] = {64, 64}, l2[2] = {10, 3};
      out[0] = get_kernel_work_group_size(^{ out[9] = 1; });
      out[1] = get_kernel_preferred_work_group_size_multiple(^{ out[9] = 1; });
      out[2] = get_kernel_max_sub_group_size_for_ndrange(ndrange_1D(256, 64), ^{ out[9] = 1; });
      out[3] = get_kernel_sub_group_count_for_ndrange(ndrange_1D(256, 64), ^{ out[9] = 1; });
      out[4] = get_kernel_sub_group_count_for_ndrange(ndrange_2D(g2, l2),
                                                     ^{ out[9] = 1; });
    })";
  cl_mem out = bufferFrom(std::vector<cl_uint>(10, 0));
  cl_kernel k = kernel(source, "parent", "-cl-std=CL3.0");
  ASSERT_TRUE(setArgs(k, out));
  runAndFinish(k, 1);
  std::vector<cl_uint> got = read<cl_uint>(out, 10);
  size_t maxGroup = 0;
  ASSERT_CL(clGetDeviceInfo(device_, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof maxGroup, &maxGroup, nullptr));
  EXPECT_EQ(got[0], maxGroup);
  EXPECT_GE(got[1], 1u);
  EXPECT_EQ(maxGroup % got[1], 0u);
  cl_uint sub = got[2];
  EXPECT_GE(sub, 1u);
  EXPECT_LE(sub, 64u);
  EXPECT_EQ(got[3], (64 + sub - 1) / sub);
  EXPECT_EQ(got[4], (30 + sub - 1) / sub);
  EXPECT_EQ(got[9], 0u);  // queries run nothing
}

}  // namespace
}  // namespace lockstep::test

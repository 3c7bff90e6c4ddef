// cl_khr_suggested_local_work_size: clGetKernelSuggestedLocalWorkSizeKHR,
// found through clGetExtensionFunctionAddressForPlatform, answers with the
// local size a launch with a NULL local_work_size really runs with (read
// back from the kernel's get_enqueued_local_size), keeps a required
// work-group size and, where groups must be uniform, divides the global
// size; and it refuses what the launch would refuse, with the spec's codes.
#include <CL/cl_ext.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "ClTest.h"

namespace lockstep::test {
namespace {

class SuggestedLocalSize : public ClTest {
 protected:
  void SetUp() override {
    ClTest::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_NE(deviceString(device_, CL_DEVICE_EXTENSIONS).find("cl_khr_suggested_local_work_size"),
              std::string::npos);
    ASSERT_NE(platformString(platform_, CL_PLATFORM_EXTENSIONS).find("cl_khr_suggested_local_work_size"),
              std::string::npos);
    suggest_ = reinterpret_cast<clGetKernelSuggestedLocalWorkSizeKHR_fn>(
        clGetExtensionFunctionAddressForPlatform(platform_, "clGetKernelSuggestedLocalWorkSizeKHR"));
    ASSERT_NE(suggest_, nullptr);
  }

  // A kernel that writes the enqueued local size once per launch (global
  // work-item 0) to out_, its argument.
  cl_kernel sizeKernel(const std::string &attributes = "", const std::string &options = "-cl-std=CL3.0") {
    cl_kernel k = kernel(R"CLC(
      kernel )CLC" + attributes + R"CLC( void sizes(global ulong *out) {
        if (get_global_id(0) == 0 && get_global_id(1) == 0 && get_global_id(2) == 0) {
          for (uint d = 0; d < 3; ++d) out[d] = get_local_size(d);
        }
      }
    )CLC",
                         "sizes", options);
    if (!out_) out_ = buffer(CL_MEM_READ_WRITE, 3 * sizeof(cl_ulong));
    if (k) EXPECT_TRUE(setArgs(k, out_));
    return k;
  }

  // The local size the runtime used for a NULL local size: each dimension
  // of the first group's get_local_size (a full group's: the remainder
  // groups are the last ones).
  std::vector<size_t> launchedLocalSize(cl_kernel k, const std::vector<size_t> &global) {
    EXPECT_TRUE(run(k, global));
    std::vector<cl_ulong> sizes = read<cl_ulong>(out_, 3);
    return std::vector<size_t>(sizes.begin(), sizes.begin() + global.size());
  }

  cl_mem out_ = nullptr;

  std::vector<size_t> suggested(cl_kernel k, const std::vector<size_t> &global, const size_t *offset = nullptr) {
    std::vector<size_t> local(global.size(), 0);
    cl_int err = suggest_(queue_, k, cl_uint(global.size()), offset, global.data(), local.data());
    EXPECT_EQ(err, CL_SUCCESS) << errorName(err);
    return local;
  }

  clGetKernelSuggestedLocalWorkSizeKHR_fn suggest_ = nullptr;
};

// The same local size as the launch, for ranges of every shape: powers of
// two, primes (no divisor but 1 and itself), large and tiny ones; an offset
// changes nothing.
TEST_F(SuggestedLocalSize, MatchesTheLaunchWithNullLocalSize) {
  cl_kernel k = sizeKernel();
  ASSERT_NE(k, nullptr);
  const std::vector<std::vector<size_t>> ranges = {
      {1}, {7}, {16}, {1000}, {1024}, {997}, {1 << 20}, {123457},
      {64, 64}, {640, 480}, {31, 17}, {1, 4096}, {1920, 1080},
      {8, 8, 8}, {100, 3, 5}, {17, 19, 23}, {256, 256, 4}, {1, 1, 1}};
  for (const std::vector<size_t> &global : ranges) {
    SCOPED_TRACE(::testing::PrintToString(global));
    std::vector<size_t> local = suggested(k, global);
    EXPECT_EQ(local, launchedLocalSize(k, global));
    size_t items = 1;
    for (size_t d = 0; d < global.size(); ++d) {
      EXPECT_GE(local[d], 1u);
      items *= local[d];
    }
    EXPECT_LE(items, kernelMaxGroupSize(k));
    const size_t offset[3] = {5, 9, 11};
    EXPECT_EQ(suggested(k, global, offset), local);
  }
}

// A kernel whose work-items loop a different number of times (a masked
// loop, for which the runtime keeps groups smaller) gets the launch's size
// too.
TEST_F(SuggestedLocalSize, MatchesTheLaunchForDivergentLoops) {
  cl_kernel k = kernel(R"CLC(
    kernel void steps(global ulong *out, global uint *steps) {
      size_t g = get_global_id(1) * get_global_size(0) + get_global_id(0);
      uint x = (uint)g + 1, n = 0;
      while (x != 1) { x = (x & 1) ? 3 * x + 1 : x / 2; ++n; }
      steps[g] = n;
      if (g == 0) for (uint d = 0; d < 3; ++d) out[d] = get_local_size(d);
    }
  )CLC",
                       "steps", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  cl_mem out = buffer(CL_MEM_READ_WRITE, 3 * sizeof(cl_ulong));
  cl_mem steps = buffer(CL_MEM_READ_WRITE, 4096 * 64 * sizeof(cl_uint));
  ASSERT_TRUE(setArgs(k, out, steps));
  for (const std::vector<size_t> &global : std::vector<std::vector<size_t>>{{4096}, {1000}, {512, 64}, {97, 13}}) {
    SCOPED_TRACE(::testing::PrintToString(global));
    std::vector<size_t> local = suggested(k, global);
    ASSERT_TRUE(run(k, global));
    std::vector<cl_ulong> used = read<cl_ulong>(out, 3);
    for (size_t d = 0; d < global.size(); ++d) EXPECT_EQ(local[d], used[d]) << "dimension " << d;
  }
}

// A required work-group size is the answer (all three dimensions of it).
TEST_F(SuggestedLocalSize, RequiredWorkGroupSize) {
  cl_kernel k = sizeKernel("__attribute__((reqd_work_group_size(4, 2, 1)))");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(suggested(k, {16, 6}), (std::vector<size_t>{4, 2}));
  EXPECT_EQ(launchedLocalSize(k, {16, 6}), (std::vector<size_t>{4, 2}));
  // OpenCL C 3.0 allows a remainder group: the required size still holds.
  EXPECT_EQ(suggested(k, {18, 7}), (std::vector<size_t>{4, 2}));
}

// Where groups must be uniform (OpenCL C 1.2, or -cl-uniform-work-group-size)
// each suggested dimension divides the global size.
TEST_F(SuggestedLocalSize, UniformGroupsDivideTheGlobalSize) {
  for (const char *options : {"-cl-std=CL1.2", "-cl-std=CL3.0 -cl-uniform-work-group-size"}) {
    SCOPED_TRACE(options);
    cl_kernel k = sizeKernel("", options);
    ASSERT_NE(k, nullptr);
    for (const std::vector<size_t> &global :
         std::vector<std::vector<size_t>>{{997}, {1000}, {6 * 1024 + 8}, {30, 49}, {7, 11, 13}, {96, 4, 9}}) {
      SCOPED_TRACE(::testing::PrintToString(global));
      std::vector<size_t> local = suggested(k, global);
      for (size_t d = 0; d < global.size(); ++d) EXPECT_EQ(global[d] % local[d], 0u) << "dimension " << d;
      EXPECT_EQ(local, launchedLocalSize(k, global));
    }
  }
}

// A width with no divisor near the chosen budget (3837 = 3 x 1279, the
// primes 1913 and 1021) still gets groups at least a vector wide along x
// where the kernel's largest work-group allows a divisor that wide, not
// slivers of 3 or 1 work-items.
TEST_F(SuggestedLocalSize, UniformGroupsAreNotSlivers) {
  cl_kernel k = sizeKernel("", "-cl-std=CL1.2");
  ASSERT_NE(k, nullptr);
  size_t largest = 0;
  ASSERT_EQ(clGetKernelWorkGroupInfo(k, device_, CL_KERNEL_WORK_GROUP_SIZE, sizeof largest, &largest, nullptr),
            CL_SUCCESS);
  for (const std::vector<size_t> &global : std::vector<std::vector<size_t>>{
           {3837, 2161}, {1913, 1079}, {1021, 1024}, {1021}, {3 * 1279}, {2161, 3837}}) {
    SCOPED_TRACE(::testing::PrintToString(global));
    std::vector<size_t> local = suggested(k, global);
    EXPECT_EQ(local, launchedLocalSize(k, global));
    for (size_t d = 0; d < global.size(); ++d) EXPECT_EQ(global[d] % local[d], 0u) << "dimension " << d;
    bool wideDivisor = false;
    for (size_t w = 16; w <= std::min(global[0], largest); ++w) wideDivisor |= global[0] % w == 0;
    if (wideDivisor) EXPECT_GE(local[0], 16u);
  }
}

TEST_F(SuggestedLocalSize, Errors) {
  size_t global[3] = {64, 4, 2}, local[3] = {};
  // CL_INVALID_KERNEL_ARGS: as the launch, before any argument is set.
  cl_kernel unset = kernel("kernel void unset(global int *out) { out[get_global_id(0)] = 1; }", "unset",
                           "-cl-std=CL3.0");
  ASSERT_NE(unset, nullptr);
  EXPECT_CL_ERROR(CL_INVALID_KERNEL_ARGS, suggest_(queue_, unset, 1, nullptr, global, local));
  EXPECT_CL_ERROR(CL_INVALID_KERNEL_ARGS, clEnqueueNDRangeKernel(queue_, unset, 1, nullptr, global, nullptr, 0,
                                                                 nullptr, nullptr));
  cl_kernel k = sizeKernel();
  ASSERT_NE(k, nullptr);

  EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE, suggest_(nullptr, k, 1, nullptr, global, local));
  EXPECT_CL_ERROR(CL_INVALID_KERNEL, suggest_(queue_, nullptr, 1, nullptr, global, local));
  EXPECT_CL_ERROR(CL_INVALID_WORK_DIMENSION, suggest_(queue_, k, 0, nullptr, global, local));
  EXPECT_CL_ERROR(CL_INVALID_WORK_DIMENSION, suggest_(queue_, k, 4, nullptr, global, local));
  // Unlike the launch, no empty range.
  EXPECT_CL_ERROR(CL_INVALID_GLOBAL_WORK_SIZE, suggest_(queue_, k, 1, nullptr, nullptr, local));
  size_t zero[3] = {64, 0, 2};
  EXPECT_CL_ERROR(CL_INVALID_GLOBAL_WORK_SIZE, suggest_(queue_, k, 3, nullptr, zero, local));
  // More work-items than size_t counts.
  size_t huge[2] = {size_t(1) << 32, size_t(1) << 32};
  EXPECT_CL_ERROR(CL_INVALID_GLOBAL_WORK_SIZE, suggest_(queue_, k, 2, nullptr, huge, local));
  size_t offset[1] = {SIZE_MAX - 10};
  EXPECT_CL_ERROR(CL_INVALID_GLOBAL_OFFSET, suggest_(queue_, k, 1, offset, global, local));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, suggest_(queue_, k, 1, nullptr, global, nullptr));

  // A queue of another context.
  cl_int err;
  cl_context other = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &err);
  ASSERT_CL(err);
  cl_command_queue otherQueue = clCreateCommandQueueWithProperties(other, device_, nullptr, &err);
  ASSERT_CL(err);
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT, suggest_(otherQueue, k, 1, nullptr, global, local));
  clReleaseCommandQueue(otherQueue);
  clReleaseContext(other);

  // A buffer argument released since it was set: the launch's snapshot
  // refuses it, and so does the query.
  cl_mem gone = clCreateBuffer(context_, CL_MEM_READ_WRITE, 64, nullptr, &err);
  ASSERT_CL(err);
  ASSERT_CL(clSetKernelArg(k, 0, sizeof gone, &gone));
  ASSERT_CL(clReleaseMemObject(gone));
  EXPECT_CL_ERROR(CL_INVALID_KERNEL_ARGS, suggest_(queue_, k, 1, nullptr, global, local));
}

// A required work-group size that cannot fit the range where groups must be
// uniform: the launch fails with CL_INVALID_WORK_GROUP_SIZE, and so does the
// query.
TEST_F(SuggestedLocalSize, RequiredSizeThatDoesNotFitAUniformRange) {
  cl_kernel k = sizeKernel("__attribute__((reqd_work_group_size(8, 1, 1)))", "-cl-std=CL1.2");
  ASSERT_NE(k, nullptr);
  size_t global[1] = {12}, local[1] = {};
  EXPECT_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE,
                  clEnqueueNDRangeKernel(queue_, k, 1, nullptr, global, nullptr, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE, suggest_(queue_, k, 1, nullptr, global, local));
  global[0] = 24;
  ASSERT_CL(suggest_(queue_, k, 1, nullptr, global, local));
  EXPECT_EQ(local[0], 8u);
}

}  // namespace
}  // namespace lockstep::test

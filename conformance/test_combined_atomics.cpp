// Global atomic adds whose results a kernel ignores, to a buffer it touches
// in no other way: the compiler holds them back in a per-thread table that
// reaches memory at the end of each run of groups (GlobalAtomicCombiningPass,
// docs/runtime.md). Every count must still come out exact, for 32- and
// 64-bit adds and subs, for a few hot addresses and for more addresses than
// the table holds; and where another argument shows the same memory, the
// adds must be in memory when the kernel's own barrier says so.
#include "ClTest.h"

namespace lockstep::test {
namespace {

const char *kCounters = R"CLC(
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
// Every work-item of a grid-stride loop adds to `nbins` counters.
kernel void histogram(global const uint *data, int n, uint nbins, global uint *bins) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) atomic_inc(&bins[data[i] % nbins]);
}
// Adds and subs of 32-bit values that wrap around, to two buffers.
kernel void mixed(global const uint *data, int n, global int *up, global int *down) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    uint v = data[i];
    atomic_add(&up[v % 7], (int)(v * 2654435761u));
    atomic_sub(&down[v % 5], (int)v);
    atomic_dec(&down[5]);
  }
}
// 64-bit adds past 2^32.
kernel void wide(global const uint *data, int n, global long *sums) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    uint v = data[i];
    atom_add(&sums[v % 3], (long)v << 24);
    atom_sub(&sums[3], (long)v);
  }
}
)CLC";

class CombinedAtomics : public LocalSizeTest {
 protected:
  // Values for `n` work-items' data.
  std::vector<cl_uint> values(size_t n) { return randomValues<cl_uint>(n, 0, UINT32_MAX); }
  bool hasInt64Atomics() const {
    size_t size = 0;
    clGetDeviceInfo(device_, CL_DEVICE_EXTENSIONS, 0, nullptr, &size);
    std::string extensions(size, '\0');
    clGetDeviceInfo(device_, CL_DEVICE_EXTENSIONS, size, extensions.data(), nullptr);
    return extensions.find("cl_khr_int64_base_atomics") != std::string::npos;
  }
};

// A few hot counters, a histogram's 256 bins, and more bins than the table
// holds (its entries are taken over and over, then it stops holding adds).
TEST_P(CombinedAtomics, HistogramsOfEveryWorkItem) {
  const size_t local = GetParam(), groups = 37, n = 200003;
  cl_kernel histogram = kernel(kCounters, "histogram");
  ASSERT_NE(histogram, nullptr);
  if (local > kernelMaxGroupSize(histogram)) GTEST_SKIP();
  std::vector<cl_uint> data = values(n);
  cl_mem md = bufferFrom(data);
  for (cl_uint nbins : {1u, 3u, 256u, 4099u, 65536u}) {
    std::vector<cl_uint> want(nbins, 0);
    for (cl_uint v : data) ++want[v % nbins];
    cl_mem bins = bufferFrom(std::vector<cl_uint>(nbins, 0));
    ASSERT_TRUE(setArgs(histogram, md, cl_int(n), nbins, bins));
    ASSERT_TRUE(run(histogram, {local * groups}, {local}));
    EXPECT_EQ(read<cl_uint>(bins, nbins), want) << nbins << " bins";
  }
}

TEST_P(CombinedAtomics, AddsAndSubsThatWrap) {
  const size_t local = GetParam(), groups = 19, n = 100000;
  cl_kernel mixed = kernel(kCounters, "mixed");
  ASSERT_NE(mixed, nullptr);
  if (local > kernelMaxGroupSize(mixed)) GTEST_SKIP();
  std::vector<cl_uint> data = values(n);
  std::vector<cl_uint> up(7, 0), down(6, 0);
  for (cl_uint v : data) {
    up[v % 7] += v * 2654435761u;
    down[v % 5] -= v;
    down[5] -= 1;
  }
  cl_mem md = bufferFrom(data), mu = bufferFrom(std::vector<cl_uint>(7, 0)),
         mdown = bufferFrom(std::vector<cl_uint>(6, 0));
  ASSERT_TRUE(setArgs(mixed, md, cl_int(n), mu, mdown));
  ASSERT_TRUE(run(mixed, {local * groups}, {local}));
  EXPECT_EQ(read<cl_uint>(mu, 7), up);
  EXPECT_EQ(read<cl_uint>(mdown, 6), down);
}

TEST_P(CombinedAtomics, SixtyFourBitSums) {
  if (!hasInt64Atomics()) GTEST_SKIP() << "no cl_khr_int64_base_atomics";
  const size_t local = GetParam(), groups = 23, n = 100000;
  cl_kernel wide = kernel(kCounters, "wide");
  ASSERT_NE(wide, nullptr);
  if (local > kernelMaxGroupSize(wide)) GTEST_SKIP();
  std::vector<cl_uint> data = values(n);
  std::vector<cl_ulong> want(4, 0);
  want[3] = 5;  // a starting value the subs take below zero
  for (cl_uint v : data) {
    want[v % 3] += cl_ulong(v) << 24;
    want[3] -= v;
  }
  cl_mem md = bufferFrom(data), sums = bufferFrom(std::vector<cl_ulong>{0, 0, 0, 5});
  ASSERT_TRUE(setArgs(wide, md, cl_int(n), sums));
  ASSERT_TRUE(run(wide, {local * groups}, {local}));
  EXPECT_EQ(read<cl_ulong>(sums, 4), want);
}

// The work-items of one group add, then read the counters back through a
// second argument after a barrier: the same buffer, or its parent when the
// adds go through a sub-buffer. The adds cannot be held back there.
const char *kSeen = R"CLC(
kernel void seen(global uint *counters, global const uint *view, global uint *out) {
  atomic_inc(&counters[get_local_id(0) % 4]);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    for (int k = 0; k < 4; ++k) out[k] = view[k];
}
)CLC";

class CombinedAtomicsAliased : public ClTest {};

TEST_F(CombinedAtomicsAliased, AddsSeenThroughAnotherArgument) {
  cl_kernel seen = kernel(kSeen, "seen");
  ASSERT_NE(seen, nullptr);
  const size_t local = std::min<size_t>(64, kernelMaxGroupSize(seen));
  std::vector<cl_uint> want(4, 0);
  for (size_t i = 0; i < local; ++i) ++want[i % 4];
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, 4 * sizeof(cl_uint));

  cl_mem counters = bufferFrom(std::vector<cl_uint>(4, 0));
  ASSERT_TRUE(setArgs(seen, counters, counters, out));
  ASSERT_TRUE(run(seen, {local}, {local}));
  EXPECT_EQ(read<cl_uint>(out, 4), want) << "the same buffer";

  cl_mem parent = bufferFrom(std::vector<cl_uint>(1024, 0));
  cl_buffer_region region{0, 4 * sizeof(cl_uint)};
  cl_int err = CL_SUCCESS;
  cl_mem sub = track(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err));
  ASSERT_CL(err);
  ASSERT_TRUE(setArgs(seen, sub, parent, out));
  ASSERT_TRUE(run(seen, {local}, {local}));
  EXPECT_EQ(read<cl_uint>(out, 4), want) << "a sub-buffer and its parent";
}

INSTANTIATE_TEST_SUITE_P(LocalSizes, CombinedAtomics, ::testing::ValuesIn(kLocalSizes),
                         [](const ::testing::TestParamInfo<size_t> &info) {
                           return "local" + std::to_string(info.param);
                         });

}  // namespace
}  // namespace lockstep::test

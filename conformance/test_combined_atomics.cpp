// Global atomic adds whose results a kernel ignores, to a buffer it touches
// in no other way: the compiler holds them back in a per-thread table that
// reaches memory at the end of each run of groups (GlobalAtomicCombiningPass,
// docs/runtime.md). Every count must still come out exact, for 32- and
// 64-bit adds and subs, for a few hot addresses and for more addresses than
// the table holds; and where another argument shows the same memory, the
// adds must be in memory when the kernel's own barrier says so. Adds to a
// bin a byte indexes go to the table's window, by index: with 32- and
// 64-bit bins, beside adds to the same buffer that the window does not
// take, with a second byte-indexed buffer (the window is one buffer's), and
// in a kernel whose other adds make the table stop holding adds back while
// the window still holds some.
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
// A byte's bin (the window), another bin of the same buffer past the
// window, and a second buffer of byte-indexed bins.
kernel void bytes(global const uchar *data, int n, global uint *bins, global uint *other) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    uchar b = data[i];
    atomic_inc(&bins[b]);
    atomic_add(&bins[256 + (b & 7)], 3);
    atomic_sub(&other[b ^ 0x5a], 2);
  }
}
// 64-bit byte bins, and adds to more addresses than the table holds.
kernel void bytes_spread(global const uchar *data, int n, global long *bins, global uint *spread) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    atom_add(&bins[data[i]], (long)i << 20);
    atomic_inc(&spread[(i * 7919) % 100003]);
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

TEST_P(CombinedAtomics, ByteIndexedBins) {
  const size_t local = GetParam(), groups = 29, n = 300007;
  cl_kernel bytes = kernel(kCounters, "bytes");
  ASSERT_NE(bytes, nullptr);
  if (local > kernelMaxGroupSize(bytes)) GTEST_SKIP();
  std::vector<int> values = randomValues<int>(n, 0, 255);
  std::vector<cl_uchar> data(values.begin(), values.end());
  std::vector<cl_uint> bins(264, 0), other(256, 7);
  for (cl_uchar b : data) {
    ++bins[b];
    bins[256 + (b & 7)] += 3;
    other[b ^ 0x5a] -= 2;
  }
  cl_mem md = bufferFrom(data), mb = bufferFrom(std::vector<cl_uint>(264, 0)),
         mo = bufferFrom(std::vector<cl_uint>(256, 7));
  ASSERT_TRUE(setArgs(bytes, md, cl_int(n), mb, mo));
  ASSERT_TRUE(run(bytes, {local * groups}, {local}));
  EXPECT_EQ(read<cl_uint>(mb, 264), bins);
  EXPECT_EQ(read<cl_uint>(mo, 256), other);
}

TEST_P(CombinedAtomics, ByteBinsBesideAddsTheTableStopsHolding) {
  if (!hasInt64Atomics()) GTEST_SKIP() << "no cl_khr_int64_base_atomics";
  const size_t local = GetParam(), groups = 31, n = 250000;
  cl_kernel spread = kernel(kCounters, "bytes_spread");
  ASSERT_NE(spread, nullptr);
  if (local > kernelMaxGroupSize(spread)) GTEST_SKIP();
  std::vector<int> values = randomValues<int>(n, 0, 255);
  std::vector<cl_uchar> data(values.begin(), values.end());
  std::vector<cl_ulong> bins(256, 0);
  std::vector<cl_uint> counts(100003, 0);
  for (size_t i = 0; i < n; ++i) {
    bins[data[i]] += cl_ulong(i) << 20;
    ++counts[(i * 7919) % 100003];
  }
  cl_mem md = bufferFrom(data), mb = bufferFrom(std::vector<cl_ulong>(256, 0)),
         ms = bufferFrom(std::vector<cl_uint>(100003, 0));
  ASSERT_TRUE(setArgs(spread, md, cl_int(n), mb, ms));
  ASSERT_TRUE(run(spread, {local * groups}, {local}));
  EXPECT_EQ(read<cl_ulong>(mb, 256), bins);
  EXPECT_EQ(read<cl_uint>(ms, 100003), counts);
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

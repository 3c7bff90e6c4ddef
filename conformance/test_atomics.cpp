// Atomics on global and local ints: every work-item of every group races on the
// same words, so only real atomics give the host's count.
#include <algorithm>

#include "ClTest.h"

namespace lockstep::test {
namespace {

const char *kAtomics = R"CLC(
kernel void counters(global int *g, global int *per_group) {
  local int l[3];
  uint lid = get_local_id(0);
  if (lid == 0) { l[0] = 0; l[1] = 0; l[2] = 0; }
  barrier(CLK_LOCAL_MEM_FENCE);
  int id = (int)get_global_id(0);
  atomic_add(&g[0], id);
  atomic_inc(&g[1]);
  atomic_max(&g[2], id);
  atomic_min(&g[3], -id);
  atomic_xor(&g[4], id);
  atomic_sub(&g[5], 2);
  atomic_add(&l[0], id);
  atomic_inc(&l[1]);
  /* compare-and-swap loop: a multiplication has no atomic of its own */
  int old, desired;
  do {
    old = l[2];
    desired = old + (id & 3);
  } while (atomic_cmpxchg(&l[2], old, desired) != old);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    uint grp = get_group_id(0);
    per_group[grp * 3 + 0] = l[0];
    per_group[grp * 3 + 1] = l[1];
    per_group[grp * 3 + 2] = l[2];
  }
  /* a global compare-and-swap spin counter */
  do { old = g[6]; } while (atomic_cmpxchg(&g[6], old, old + 1) != old);
  atomic_xchg(&g[7], 12345);
}
)CLC";

class Atomics : public LocalSizeTest {};

class AtomicsAnyGroup : public ClTest {};

TEST_P(Atomics, GlobalAndLocalInts) {
  const size_t local = GetParam(), groups = 64, n = local * groups;
  cl_kernel counters = kernel(kAtomics, "counters");
  ASSERT_NE(counters, nullptr);
  if (local > kernelMaxGroupSize(counters)) GTEST_SKIP();
  std::vector<int> init = {0, 0, INT32_MIN, INT32_MAX, 0, 0, 0, 0};
  cl_mem g = bufferFrom(init), perGroup = buffer(CL_MEM_WRITE_ONLY, groups * 3 * sizeof(int));
  ASSERT_TRUE(setArgs(counters, g, perGroup));
  ASSERT_TRUE(run(counters, {n}, {local}));
  std::vector<int> out = read<int>(g, 8), groupsOut = read<int>(perGroup, groups * 3);
  long long sum = 0;
  int xorAll = 0;
  for (size_t i = 0; i < n; ++i) sum += static_cast<long long>(i), xorAll ^= int(i);
  EXPECT_EQ(out[0], int(sum));
  EXPECT_EQ(out[1], int(n));
  EXPECT_EQ(out[2], int(n - 1));
  EXPECT_EQ(out[3], -int(n - 1));
  EXPECT_EQ(out[4], xorAll);
  EXPECT_EQ(out[5], -2 * int(n));
  EXPECT_EQ(out[6], int(n));
  EXPECT_EQ(out[7], 12345);
  for (size_t grp = 0; grp < groups; ++grp) {
    int idSum = 0, bits = 0;
    for (size_t i = grp * local; i < (grp + 1) * local; ++i) idSum += int(i), bits += int(i & 3);
    EXPECT_EQ(groupsOut[grp * 3 + 0], idSum) << "group " << grp;
    EXPECT_EQ(groupsOut[grp * 3 + 1], int(local)) << "group " << grp;
    EXPECT_EQ(groupsOut[grp * 3 + 2], bits) << "group " << grp;
  }
}

// A histogram: per-group counts in __local memory, merged into global with
// atomic_add, compared with the host's counts.
const char *kHistogram = R"CLC(
kernel void histogram(global const uchar *data, uint n, global uint *bins, local uint *lbins) {
  uint lid = get_local_id(0), lsize = get_local_size(0);
  for (uint b = lid; b < 256; b += lsize) lbins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    atomic_inc(&lbins[data[i]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < 256; b += lsize)
    if (lbins[b]) atomic_add(&bins[b], lbins[b]);
}
)CLC";

TEST_P(Atomics, Histogram) {
  const size_t local = GetParam(), groups = 16, n = 1000003;
  cl_kernel histogram = kernel(kHistogram, "histogram");
  ASSERT_NE(histogram, nullptr);
  if (local > kernelMaxGroupSize(histogram)) GTEST_SKIP();
  std::vector<unsigned char> data(n);
  // A skewed distribution so some bins are hot.
  std::geometric_distribution<int> dist(0.05);
  for (unsigned char &v : data) v = static_cast<unsigned char>(std::min(dist(rng_), 255));
  std::vector<cl_uint> want(256, 0);
  for (unsigned char v : data) ++want[v];
  cl_mem md = bufferFrom(data), bins = bufferFrom(std::vector<cl_uint>(256, 0));
  ASSERT_TRUE(setArgs(histogram, md, cl_uint(n), bins, LocalBytes{256 * sizeof(cl_uint)}));
  ASSERT_TRUE(run(histogram, {local * groups}, {local}));
  EXPECT_EQ(read<cl_uint>(bins, 256), want);
}

// OpenCL C 2.0 atomics (atomic_int with explicit order and scope) on global
// memory, when the device reports the features they need.
TEST_P(Atomics, OpenClC20AtomicFetchAdd) {
  const size_t local = GetParam(), groups = 32, n = local * groups;
  size_t size = 0;
  ASSERT_CL(clGetDeviceInfo(device_, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &size));
  std::vector<cl_name_version> features(size / sizeof(cl_name_version));
  ASSERT_CL(clGetDeviceInfo(device_, CL_DEVICE_OPENCL_C_FEATURES, size, features.data(), nullptr));
  int needed = 0;
  for (const cl_name_version &f : features)
    needed += std::string(f.name) == "__opencl_c_atomic_order_seq_cst" ||
              std::string(f.name) == "__opencl_c_atomic_scope_device";
  if (needed != 2) GTEST_SKIP() << "device lacks seq_cst order or device scope atomics";
  cl_kernel k = kernel(R"CLC(
    kernel void k(global atomic_int *counter, global atomic_int *maximum) {
      int id = (int)get_global_id(0);
      atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, memory_scope_device);
      atomic_fetch_max(maximum, id);
    }
  )CLC",
                       "k", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  if (local > kernelMaxGroupSize(k)) GTEST_SKIP();
  cl_mem counter = bufferFrom(std::vector<int>{0}), maximum = bufferFrom(std::vector<int>{-1});
  ASSERT_TRUE(setArgs(k, counter, maximum));
  ASSERT_TRUE(run(k, {n}, {local}));
  EXPECT_EQ(read<int>(counter, 1)[0], int(n));
  EXPECT_EQ(read<int>(maximum, 1)[0], int(n - 1));
}

// Slots taken from counters (`out[atomic_inc(&n)] = x` under a condition,
// as stream compaction and a detector's list do; an add of a step the group
// shares; a sub from a top; a 64-bit counter): a vector's work-items make
// one atomic and each takes the old value plus its rank
// (UniformAtomicAggregationPass). Every kept value lands in one slot of its
// own, the counters end at the host's totals, and the slots each work-item
// got are all different, whatever the local size and with groups none of
// whose work-items keeps anything.
TEST_P(Atomics, SlotsTakenFromCounters) {
  const size_t local = GetParam(), groups = 9, n = local * groups;
  cl_kernel k = kernel(R"CLC(
    kernel void k(global const int *in, int t, int step, global int *out, volatile global int *count,
                  global int *slots, global int *top, global long *wide) {
      int i = get_global_id(0), x = in[i], slot = -1, s2 = -1, s3 = -1;
      if (x > t) {
        slot = atomic_inc(count);
        out[slot] = x;
      }
      if (x % 3 == 0) s2 = atomic_add(&count[1], step);
      if (x & 1) s3 = atomic_sub(top, 2);
      slots[3 * i] = slot;
      slots[3 * i + 1] = s2;
      slots[3 * i + 2] = s3;
      if (x > 10) wide[1 + i] = atom_add(wide, (long)step << 33);
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  for (int t : {50, 90, 1000}) {
    std::vector<int> in = randomValues<int>(n, 0, 100);
    // The third group keeps nothing and takes no slot.
    for (size_t i = 2 * local; i < std::min(n, 3 * local); ++i) in[i] = 4;
    const int step = 5, start = 1000;
    const long long wideStart = 7;
    cl_mem mi = bufferFrom(in), mo = bufferFrom(std::vector<int>(n, -7)), mc = bufferFrom(std::vector<int>{0, 0});
    cl_mem ms = buffer(CL_MEM_READ_WRITE, 3 * n * sizeof(int)), mt = bufferFrom(std::vector<int>{start});
    std::vector<cl_long> wideInit(n + 1, -1);
    wideInit[0] = wideStart;
    cl_mem mw = bufferFrom(wideInit);
    ASSERT_TRUE(setArgs(k, mi, cl_int(t), cl_int(step), mo, mc, ms, mt, mw));
    ASSERT_TRUE(run(k, {n}, {local}));
    std::vector<int> out = read<int>(mo, n), counts = read<int>(mc, 2), slots = read<int>(ms, 3 * n),
                     top = read<int>(mt, 1);
    std::vector<cl_long> wide = read<cl_long>(mw, n + 1);
    std::vector<int> kept, gotKept, slot2, slot3;
    std::vector<cl_long> slotWide;
    int multiples = 0, odd = 0, large = 0;
    for (size_t i = 0; i < n; ++i) {
      int x = in[i];
      if (x > t) {
        kept.push_back(x);
        ASSERT_GE(slots[3 * i], 0) << "work-item " << i;
        ASSERT_LT(slots[3 * i], int(n)) << "work-item " << i;
        ASSERT_EQ(out[slots[3 * i]], x) << "work-item " << i << "'s slot " << slots[3 * i];
      } else {
        ASSERT_EQ(slots[3 * i], -1) << "work-item " << i;
      }
      if (x % 3 == 0) {
        ++multiples;
        slot2.push_back(slots[3 * i + 1]);
      } else {
        ASSERT_EQ(slots[3 * i + 1], -1) << "work-item " << i;
      }
      if (x & 1) {
        ++odd;
        slot3.push_back(slots[3 * i + 2]);
      } else {
        ASSERT_EQ(slots[3 * i + 2], -1) << "work-item " << i;
      }
      if (x > 10) {
        ++large;
        slotWide.push_back(wide[1 + i]);
      } else {
        ASSERT_EQ(wide[1 + i], -1) << "work-item " << i;
      }
    }
    ASSERT_EQ(counts[0], int(kept.size())) << "t " << t;
    // The first count slots hold the kept values, each once.
    gotKept.assign(out.begin(), out.begin() + kept.size());
    std::sort(kept.begin(), kept.end());
    std::sort(gotKept.begin(), gotKept.end());
    EXPECT_EQ(gotKept, kept) << "t " << t;
    // Each counter's old values are its start, start + step, ... in some order.
    ASSERT_EQ(counts[1], multiples * step);
    std::sort(slot2.begin(), slot2.end());
    for (int j = 0; j < multiples; ++j) ASSERT_EQ(slot2[j], j * step);
    ASSERT_EQ(top[0], start - 2 * odd);
    std::sort(slot3.begin(), slot3.end());
    for (int j = 0; j < odd; ++j) ASSERT_EQ(slot3[j], start - 2 * (odd - 1) + 2 * j);
    ASSERT_EQ(wide[0], wideStart + (cl_long(large) * step << 33));
    std::sort(slotWide.begin(), slotWide.end());
    for (int j = 0; j < large; ++j) ASSERT_EQ(slotWide[j], wideStart + (cl_long(j) * step << 33));
  }
}

// A group's list in __local memory, filled through a __local counter
// (`buf[atomic_inc(&n)] = x`, aggregated per vector like a global one and
// then a plain add, a group running on one thread), then copied out: each
// group's kept values, each once, and their count.
TEST_P(Atomics, GroupListThroughALocalCounter) {
  const size_t local = GetParam(), groups = 7, n = local * groups;
  cl_kernel k = kernel(R"CLC(
    kernel void k(global const int *in, global int *out, global int *counts, int t, local int *buf) {
      local int count;
      if (get_local_id(0) == 0) count = 0;
      barrier(CLK_LOCAL_MEM_FENCE);
      int x = in[get_global_id(0)];
      if (x > t) buf[atomic_inc(&count)] = x;
      barrier(CLK_LOCAL_MEM_FENCE);
      int kept = count;
      size_t base = get_group_id(0) * get_local_size(0);
      if (get_local_id(0) < kept) out[base + get_local_id(0)] = buf[get_local_id(0)];
      if (get_local_id(0) == 0) counts[get_group_id(0)] = kept;
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  if (local > kernelMaxGroupSize(k)) GTEST_SKIP();
  for (int t : {30, 95}) {
    std::vector<int> in = randomValues<int>(n, 0, 100);
    cl_mem mi = bufferFrom(in), mo = bufferFrom(std::vector<int>(n, -1)),
           mc = bufferFrom(std::vector<int>(groups, -1));
    ASSERT_TRUE(setArgs(k, mi, mo, mc, cl_int(t), LocalBytes{local * sizeof(int)}));
    ASSERT_TRUE(run(k, {n}, {local}));
    std::vector<int> out = read<int>(mo, n), counts = read<int>(mc, groups);
    for (size_t g = 0; g < groups; ++g) {
      std::vector<int> want, got;
      for (size_t i = g * local; i < (g + 1) * local; ++i)
        if (in[i] > t) want.push_back(in[i]);
      ASSERT_EQ(counts[g], int(want.size())) << "group " << g << ", t " << t;
      got.assign(out.begin() + g * local, out.begin() + g * local + want.size());
      std::sort(want.begin(), want.end());
      std::sort(got.begin(), got.end());
      ASSERT_EQ(got, want) << "group " << g << ", t " << t;
    }
  }
}

// Slots taken through a global counter by a kernel that reads its local id
// (so its groups run as they are), in groups of 7 to 1000 work-items: the
// compiler widens the work-item loop for 512 work-items a trip, for 64, or
// as the vectorizer chooses, by the group's size at run time. Every slot is
// taken once, and holds its work-item's value and id.
TEST_F(AtomicsAnyGroup, SlotsTakenInGroupsOfEverySize) {
  cl_kernel k = kernel(R"CLC(
    kernel void k(global const int *in, int t, global int *out, global int *who, volatile global int *count) {
      int x = in[get_global_id(0)];
      if (x > t) {
        int slot = atomic_inc(count);
        out[slot] = x;
        who[slot] = get_local_id(0) + 100000 * get_group_id(0);
      }
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  for (size_t local : {7, 63, 64, 100, 511, 512, 1000}) {
    const size_t n = local * 5;
    std::vector<int> in = randomValues<int>(n, 0, 100);
    cl_mem mi = bufferFrom(in), mo = bufferFrom(std::vector<int>(n, -1));
    cl_mem mw = bufferFrom(std::vector<int>(n, -1)), mc = bufferFrom(std::vector<int>{0});
    ASSERT_TRUE(setArgs(k, mi, cl_int(40), mo, mw, mc));
    ASSERT_TRUE(run(k, {n}, {local}));
    std::vector<int> out = read<int>(mo, n), who = read<int>(mw, n), count = read<int>(mc, 1);
    size_t kept = 0;
    for (int x : in) kept += x > 40;
    ASSERT_EQ(count[0], int(kept)) << "local " << local;
    std::vector<bool> seen(n, false);
    for (size_t s = 0; s < kept; ++s) {
      ASSERT_GE(who[s], 0) << "slot " << s << ", local " << local;
      size_t i = size_t(who[s] / 100000) * local + size_t(who[s] % 100000);
      ASSERT_LT(i, n) << "slot " << s << ", local " << local;
      ASSERT_FALSE(seen[i]) << "work-item " << i << " took two slots, local " << local;
      seen[i] = true;
      ASSERT_EQ(out[s], in[i]) << "slot " << s << ", local " << local;
    }
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(seen[i], in[i] > 40) << "work-item " << i << ", local " << local;
  }
}

INSTANTIATE_TEST_SUITE_P(LocalSizes, Atomics, ::testing::ValuesIn(kLocalSizes),
                         [](const ::testing::TestParamInfo<size_t> &info) {
                           return "local" + std::to_string(info.param);
                         });

}  // namespace
}  // namespace lockstep::test

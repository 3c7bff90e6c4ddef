// Harder work-group shapes for the barrier compiler: 3D groups, barriers in
// nested loops with trip counts from memory, global fences, the OpenCL 2.0
// work_group_barrier, large private state and large __local allocations, and
// (when the device reports them) work-group collective functions and
// sub-groups.
#include <algorithm>
#include <map>
#include <numeric>

#include "ClTest.h"

namespace lockstep::test {
namespace {

class WorkGroup : public ClTest {};

// A 3D work-group exchanges values through __local memory: each item reads
// the item mirrored in all three dimensions.
TEST_F(WorkGroup, ThreeDimensionalGroupMirror) {
  cl_kernel k = kernel(R"CLC(
    kernel void mirror(global const int *in, global int *out) {
      local int tile[4 * 3 * 5];
      uint lx = get_local_id(0), ly = get_local_id(1), lz = get_local_id(2);
      uint nx = get_local_size(0), ny = get_local_size(1), nz = get_local_size(2);
      size_t g = get_global_linear_id();
      tile[(lz * ny + ly) * nx + lx] = in[g];
      barrier(CLK_LOCAL_MEM_FENCE);
      out[g] = tile[((nz - 1 - lz) * ny + (ny - 1 - ly)) * nx + (nx - 1 - lx)];
    }
  )CLC",
                       "mirror", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  const size_t gx = 8, gy = 6, gz = 10, lx = 4, ly = 3, lz = 5, n = gx * gy * gz;
  std::vector<int> in = randomValues(n, -1000, 1000);
  cl_mem mi = bufferFrom(in), mo = buffer(CL_MEM_WRITE_ONLY, n * sizeof(int));
  ASSERT_TRUE(setArgs(k, mi, mo));
  ASSERT_TRUE(run(k, {gx, gy, gz}, {lx, ly, lz}));
  std::vector<int> out = read<int>(mo, n);
  for (size_t z = 0; z < gz; ++z)
    for (size_t y = 0; y < gy; ++y)
      for (size_t x = 0; x < gx; ++x) {
        size_t mx = x / lx * lx + (lx - 1 - x % lx), my = y / ly * ly + (ly - 1 - y % ly),
               mz = z / lz * lz + (lz - 1 - z % lz);
        ASSERT_EQ(out[(z * gy + y) * gx + x], in[(mz * gy + my) * gx + mx])
            << x << "," << y << "," << z;
      }
}

// Barriers in an inner loop whose trip count is read from __local memory
// (uniform: every item reads the same word), inside an outer loop bounded by
// an argument; values of each item live across all of them.
TEST_F(WorkGroup, BarriersInNestedLoopsWithTripCountsFromMemory) {
  cl_kernel k = kernel(R"CLC(
    kernel void nested(global const int *in, global const int *trips, global int *out,
                       local int *buf, int outer) {
      uint lid = get_local_id(0), n = get_local_size(0);
      local int count;
      int acc = in[get_global_id(0)];
      for (int o = 0; o < outer; ++o) {
        if (lid == 0) count = trips[o];
        barrier(CLK_LOCAL_MEM_FENCE);
        int inner = count;
        for (int i = 0; i < inner; ++i) {
          buf[lid] = acc;
          barrier(CLK_LOCAL_MEM_FENCE);
          acc += buf[(lid + 1) % n] & 0xff;
          barrier(CLK_LOCAL_MEM_FENCE);
        }
      }
      out[get_global_id(0)] = acc;
    }
  )CLC",
                       "nested");
  ASSERT_NE(k, nullptr);
  const size_t local = 24, groups = 6, n = local * groups;
  const std::vector<int> trips = {3, 0, 1, 4};
  std::vector<int> in = randomValues(n, -1000, 1000);
  cl_mem mi = bufferFrom(in), mt = bufferFrom(trips),
         mo = buffer(CL_MEM_WRITE_ONLY, n * sizeof(int));
  ASSERT_TRUE(setArgs(k, mi, mt, mo, LocalBytes{local * 4}, int(trips.size())));
  ASSERT_TRUE(run(k, {n}, {local}));
  std::vector<int> out = read<int>(mo, n);
  for (size_t g = 0; g < groups; ++g) {
    std::vector<int> acc(in.begin() + g * local, in.begin() + (g + 1) * local);
    for (int t : trips)
      for (int i = 0; i < t; ++i) {
        std::vector<int> buf = acc;
        for (size_t l = 0; l < local; ++l) acc[l] += buf[(l + 1) % local] & 0xff;
      }
    for (size_t l = 0; l < local; ++l) ASSERT_EQ(out[g * local + l], acc[l]) << g << "," << l;
  }
}

// A global-memory fence makes one item's global writes visible to the other
// items of its group after the barrier; the OpenCL 2.0 spelling as well.
TEST_F(WorkGroup, GlobalFenceAndWorkGroupBarrier) {
  cl_kernel k = kernel(R"CLC(
    kernel void neighbours(global int *scratch, global int *out) {
      size_t g = get_global_id(0), base = g - get_local_id(0);
      uint lid = get_local_id(0), n = get_local_size(0);
      scratch[g] = (int)(g * 3);
      barrier(CLK_GLOBAL_MEM_FENCE);
      int a = scratch[base + (lid + 1) % n];
      work_group_barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_scope_work_group);
      scratch[g] = a + 1;
      work_group_barrier(CLK_GLOBAL_MEM_FENCE);
      out[g] = scratch[base + (lid + n - 1) % n];
    }
  )CLC",
                       "neighbours", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  const size_t local = 64, n = local * 16;
  cl_mem scratch = buffer(CL_MEM_READ_WRITE, n * 4), out = buffer(CL_MEM_WRITE_ONLY, n * 4);
  ASSERT_TRUE(setArgs(k, scratch, out));
  ASSERT_TRUE(run(k, {n}, {local}));
  std::vector<int> got = read<int>(out, n);
  for (size_t g = 0; g < n; ++g) {
    size_t base = g / local * local, lid = g % local;
    // Item lid reads what item lid-1 wrote: (its right neighbour, i.e. lid) * 3 + 1.
    size_t left = base + (lid + local - 1) % local;
    size_t leftsRight = base + ((left - base) + 1) % local;
    ASSERT_EQ(got[g], int(leftsRight * 3 + 1)) << g;
  }
}

// A large private array per item (256 items x 64 ints) live across barriers.
TEST_F(WorkGroup, LargePrivateStateAcrossBarriers) {
  cl_kernel k = kernel(R"CLC(
    kernel void big(global const int *in, global int *out, local int *tmp) {
      uint lid = get_local_id(0), n = get_local_size(0);
      int p[64];
      for (int i = 0; i < 64; ++i) p[i] = in[get_global_id(0)] + i * (int)lid;
      for (int round = 0; round < 3; ++round) {
        tmp[lid] = p[(lid + round) & 63];
        barrier(CLK_LOCAL_MEM_FENCE);
        p[round] += tmp[(lid + 1) % n];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      int s = 0;
      for (int i = 0; i < 64; ++i) s += p[i] * (i + 1);
      out[get_global_id(0)] = s;
    }
  )CLC",
                       "big");
  ASSERT_NE(k, nullptr);
  const size_t local = 256, groups = 4, n = local * groups;
  if (local > kernelMaxGroupSize(k)) GTEST_SKIP() << "kernel work-group size limit";
  std::vector<int> in = randomValues(n, -1000, 1000);
  cl_mem mi = bufferFrom(in), mo = buffer(CL_MEM_WRITE_ONLY, n * 4);
  ASSERT_TRUE(setArgs(k, mi, mo, LocalBytes{local * 4}));
  ASSERT_TRUE(run(k, {n}, {local}));
  std::vector<int> out = read<int>(mo, n);
  for (size_t g = 0; g < groups; ++g) {
    std::vector<std::vector<int>> p(local, std::vector<int>(64));
    for (size_t l = 0; l < local; ++l)
      for (int i = 0; i < 64; ++i) p[l][i] = in[g * local + l] + i * int(l);
    for (int round = 0; round < 3; ++round) {
      std::vector<int> tmp(local);
      for (size_t l = 0; l < local; ++l) tmp[l] = p[l][(l + round) & 63];
      for (size_t l = 0; l < local; ++l) p[l][round] += tmp[(l + 1) % local];
    }
    for (size_t l = 0; l < local; ++l) {
      int s = 0;
      for (int i = 0; i < 64; ++i) s += p[l][i] * (i + 1);
      ASSERT_EQ(out[g * local + l], s) << g << "," << l;
    }
  }
}

// Half of the device's __local memory in one argument, every byte used.
TEST_F(WorkGroup, LargeLocalAllocation) {
  cl_kernel k = kernel(R"CLC(
    kernel void fill(global uint *out, local uint *big, uint words) {
      uint lid = get_local_id(0), n = get_local_size(0);
      for (uint i = lid; i < words; i += n) big[i] = i * 7u + get_group_id(0);
      barrier(CLK_LOCAL_MEM_FENCE);
      uint s = 0;
      for (uint i = (lid + 1) % n; i < words; i += n) s += big[i];
      out[get_global_id(0)] = s;
    }
  )CLC",
                       "fill");
  ASSERT_NE(k, nullptr);
  cl_ulong localMem = deviceInfo<cl_ulong>(device_, CL_DEVICE_LOCAL_MEM_SIZE);
  const cl_uint words = cl_uint(localMem / 2 / sizeof(cl_uint));
  const size_t local = 32, groups = 8, n = local * groups;
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, n * 4);
  ASSERT_TRUE(setArgs(k, out, LocalBytes{words * sizeof(cl_uint)}, words));
  ASSERT_TRUE(run(k, {n}, {local}));
  std::vector<cl_uint> got = read<cl_uint>(out, n);
  for (size_t g = 0; g < groups; ++g)
    for (size_t l = 0; l < local; ++l) {
      cl_uint s = 0;
      for (cl_uint i = cl_uint((l + 1) % local); i < words; i += cl_uint(local))
        s += i * 7u + cl_uint(g);
      ASSERT_EQ(got[g * local + l], s) << g << "," << l;
    }
  // More __local memory than the device has is refused at enqueue.
  ASSERT_CL(clSetKernelArg(k, 1, size_t(localMem) + 4096, nullptr));
  size_t global = n, groupSize = local;
  cl_int err =
      clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &groupSize, 0, nullptr, nullptr);
  EXPECT_EQ(err, CL_OUT_OF_RESOURCES) << errorName(err);
}

// Work-group collective functions, when the device reports them.
TEST_F(WorkGroup, CollectiveFunctionsWhenSupported) {
  if (!deviceInfo<cl_bool>(device_, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT))
    GTEST_SKIP() << "device reports no work-group collective functions";
  cl_kernel k = kernel(R"CLC(
    kernel void coll(global const int *in, global int *out) {
      size_t g = get_global_id(0);
      int v = in[g];
      out[5 * g + 0] = work_group_reduce_add(v);
      out[5 * g + 1] = work_group_reduce_max(v);
      out[5 * g + 2] = work_group_scan_inclusive_add(v);
      out[5 * g + 3] = work_group_scan_exclusive_add(v);
      out[5 * g + 4] = work_group_broadcast(v, 3) + work_group_any(v > 990) * 10000 +
                       work_group_all(v > -2000) * 100000;
    }
  )CLC",
                       "coll", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  const size_t local = 48, groups = 5, n = local * groups;
  std::vector<int> in = randomValues(n, -1000, 1000);
  cl_mem mi = bufferFrom(in), mo = buffer(CL_MEM_WRITE_ONLY, 5 * n * 4);
  ASSERT_TRUE(setArgs(k, mi, mo));
  ASSERT_TRUE(run(k, {n}, {local}));
  std::vector<int> out = read<int>(mo, 5 * n);
  for (size_t g = 0; g < groups; ++g) {
    const int *v = &in[g * local];
    int sum = std::accumulate(v, v + local, 0), max = *std::max_element(v, v + local);
    bool any = std::any_of(v, v + local, [](int x) { return x > 990; });
    int prefix = 0;
    for (size_t l = 0; l < local; ++l) {
      const int *o = &out[5 * (g * local + l)];
      EXPECT_EQ(o[0], sum);
      EXPECT_EQ(o[1], max);
      EXPECT_EQ(o[3], prefix);
      prefix += v[l];
      EXPECT_EQ(o[2], prefix);
      EXPECT_EQ(o[4], v[3] + any * 10000 + 100000);
    }
  }
}

// Sub-groups, when the device reports them: every sub-group's items agree on
// its size and id, ids cover the group, and a sub-group reduction is right.
TEST_F(WorkGroup, SubGroupsWhenSupported) {
  if (deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_NUM_SUB_GROUPS) == 0)
    GTEST_SKIP() << "device reports no sub-groups";
  cl_kernel k = kernel(R"CLC(
    kernel void sg(global const int *in, global int *out) {
      size_t g = get_global_id(0);
      out[4 * g + 0] = (int)get_sub_group_id();
      out[4 * g + 1] = (int)get_sub_group_local_id();
      out[4 * g + 2] = (int)get_sub_group_size();
      out[4 * g + 3] = sub_group_reduce_add(in[g]);
    }
  )CLC",
                       "sg", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  const size_t local = 64, groups = 3, n = local * groups;
  std::vector<int> in = randomValues(n, -1000, 1000);
  cl_mem mi = bufferFrom(in), mo = buffer(CL_MEM_WRITE_ONLY, 4 * n * 4);
  ASSERT_TRUE(setArgs(k, mi, mo));
  ASSERT_TRUE(run(k, {n}, {local}));
  std::vector<int> out = read<int>(mo, 4 * n);
  for (size_t g = 0; g < groups; ++g) {
    std::map<int, std::vector<size_t>> members;  // sub-group id -> items
    for (size_t l = 0; l < local; ++l) members[out[4 * (g * local + l)]].push_back(l);
    size_t covered = 0;
    for (auto &[id, items] : members) {
      int sum = 0;
      for (size_t l : items) sum += in[g * local + l];
      for (size_t i = 0; i < items.size(); ++i) {
        const int *o = &out[4 * (g * local + items[i])];
        EXPECT_EQ(o[1], int(i)) << "sub-group local ids follow the local id";
        EXPECT_EQ(o[2], int(items.size()));
        EXPECT_EQ(o[3], sum);
      }
      covered += items.size();
    }
    EXPECT_EQ(covered, local);
  }
}

}  // namespace
}  // namespace lockstep::test

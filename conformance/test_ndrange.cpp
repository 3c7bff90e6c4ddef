// NDRange geometry: vector addition over 1, 2 and 3 dimensions with global
// offsets, an implementation-chosen local size (NULL) and given local sizes;
// the work-item functions in every dimension; OpenCL 2.0+ non-uniform
// work-groups (remainder groups) and their refusal under OpenCL C 1.2; a
// kernel whose cost changes between launches (run inline, then spread);
// groups of uneven cost handed out in chunks, each run once.
#include <array>
#include <numeric>

#include "ClTest.h"

namespace lockstep::test {
namespace {

const char *kVectorAdd = R"CLC(
kernel void add(global const int *a, global const int *b, global int *c,
                uint width, uint height) {
  size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  size_t i = (z * height + y) * width + x;
  c[i] = a[i] + b[i];
}
)CLC";

class VectorAdd : public ClTest {
 protected:
  // Adds over a box of `full` elements the range [offset, offset+global) and
  // checks that exactly those elements were written.
  void check(std::array<size_t, 3> full, std::vector<size_t> global, std::vector<size_t> offset,
             std::vector<size_t> local) {
    size_t total = full[0] * full[1] * full[2];
    std::vector<int> a = randomValues(total, -1000000, 1000000), b = randomValues(total, -1000000, 1000000),
                     c(total, -1);
    cl_kernel add = kernel(kVectorAdd, "add");
    ASSERT_NE(add, nullptr);
    cl_mem ma = bufferFrom(a), mb = bufferFrom(b), mc = bufferFrom(c);
    ASSERT_TRUE(setArgs(add, ma, mb, mc, cl_uint(full[0]), cl_uint(full[1])));
    ASSERT_TRUE(run(add, global, local, offset));
    std::vector<int> out = read<int>(mc, total);
    global.resize(3, 1);
    offset.resize(3, 0);
    size_t mismatches = 0;
    for (size_t z = 0; z < full[2]; ++z)
      for (size_t y = 0; y < full[1]; ++y)
        for (size_t x = 0; x < full[0]; ++x) {
          size_t i = (z * full[1] + y) * full[0] + x;
          bool inside = x >= offset[0] && x < offset[0] + global[0] && y >= offset[1] &&
                        y < offset[1] + global[1] && z >= offset[2] && z < offset[2] + global[2];
          int want = inside ? a[i] + b[i] : -1;
          if (out[i] != want && ++mismatches <= 5)
            ADD_FAILURE() << "at (" << x << "," << y << "," << z << "): got " << out[i] << ", want "
                          << want;
        }
    EXPECT_EQ(mismatches, 0u);
  }
};

TEST_F(VectorAdd, OneDimensionNullLocal) { check({100003, 1, 1}, {100003}, {}, {}); }
TEST_F(VectorAdd, OneDimensionWithOffset) { check({4096, 1, 1}, {3000}, {1000}, {}); }
TEST_F(VectorAdd, OneDimensionLocal64) { check({8192, 1, 1}, {8192}, {}, {64}); }
TEST_F(VectorAdd, TwoDimensionsNullLocal) { check({123, 77, 1}, {123, 77}, {}, {}); }
TEST_F(VectorAdd, TwoDimensionsOffsetAndLocal) { check({64, 48, 1}, {32, 24}, {16, 8}, {8, 4}); }
TEST_F(VectorAdd, ThreeDimensionsNullLocal) { check({17, 13, 11}, {17, 13, 11}, {}, {}); }
TEST_F(VectorAdd, ThreeDimensionsOffsetAndLocal) {
  check({20, 18, 12}, {8, 12, 6}, {4, 3, 5}, {2, 3, 2});
}

// Every work-item function, for every dimension, against the host's geometry.
const char *kWorkItem = R"CLC(
kernel void ids(global ulong *out) {
  uint d = get_work_dim();
  size_t lin = get_global_linear_id();
  global ulong *o = out + lin * 32;
  for (uint i = 0; i < 3; ++i) {
    o[i * 9 + 0] = get_global_id(i);
    o[i * 9 + 1] = get_local_id(i);
    o[i * 9 + 2] = get_group_id(i);
    o[i * 9 + 3] = get_global_size(i);
    o[i * 9 + 4] = get_local_size(i);
    o[i * 9 + 5] = get_num_groups(i);
    o[i * 9 + 6] = get_global_offset(i);
    o[i * 9 + 7] = get_enqueued_local_size(i);
    o[i * 9 + 8] = 0;
  }
  o[27] = d;
  o[28] = get_local_linear_id();
  o[29] = get_global_id(3);   /* out-of-range dimension: 0 */
  o[30] = get_global_size(3); /* out-of-range dimension: 1 */
  o[31] = lin;
}
)CLC";

class WorkItem : public ClTest {
 protected:
  void check(std::vector<size_t> global, std::vector<size_t> local, std::vector<size_t> offset) {
    cl_uint dims = cl_uint(global.size());
    size_t total = std::accumulate(global.begin(), global.end(), size_t{1}, std::multiplies<>());
    cl_kernel ids = kernel(kWorkItem, "ids", "-cl-std=CL3.0");
    ASSERT_NE(ids, nullptr);
    cl_mem out = buffer(CL_MEM_WRITE_ONLY, total * 32 * sizeof(cl_ulong));
    ASSERT_TRUE(setArgs(ids, out));
    ASSERT_TRUE(run(ids, global, local, offset));
    std::vector<cl_ulong> got = read<cl_ulong>(out, total * 32);
    global.resize(3, 1), local.resize(3, 1), offset.resize(3, 0);
    size_t errors = 0;
    for (size_t z = 0; z < global[2]; ++z)
      for (size_t y = 0; y < global[1]; ++y)
        for (size_t x = 0; x < global[0]; ++x) {
          size_t lin = (z * global[1] + y) * global[0] + x;
          const cl_ulong *o = &got[lin * 32];
          size_t pos[3] = {x, y, z};
          for (int i = 0; i < 3; ++i) {
            size_t want[9] = {pos[i] + offset[i], pos[i] % local[i], pos[i] / local[i],
                              global[i],          local[i],          global[i] / local[i],
                              offset[i],          local[i],          0};
            for (int k = 0; k < 9; ++k)
              if (o[i * 9 + k] != want[k] && ++errors <= 5)
                ADD_FAILURE() << "item (" << x << "," << y << "," << z << ") dim " << i
                              << " function #" << k << ": got " << o[i * 9 + k] << ", want "
                              << want[k];
          }
          size_t localLinear = ((z % local[2]) * local[1] + y % local[1]) * local[0] + x % local[0];
          cl_ulong tail[5] = {dims, localLinear, 0, 1, lin};
          for (int k = 0; k < 5; ++k)
            if (o[27 + k] != tail[k] && ++errors <= 5)
              ADD_FAILURE() << "item " << lin << " field " << 27 + k << ": got " << o[27 + k]
                            << ", want " << tail[k];
        }
    EXPECT_EQ(errors, 0u);
  }
};

TEST_F(WorkItem, OneDimension) { check({256}, {64}, {5}); }
TEST_F(WorkItem, OneDimensionLocalOne) { check({10}, {1}, {0}); }
TEST_F(WorkItem, TwoDimensions) { check({14, 6}, {7, 3}, {1, 2}); }
TEST_F(WorkItem, ThreeDimensions) { check({8, 6, 4}, {4, 3, 2}, {3, 2, 1}); }
TEST_F(WorkItem, ThreeDimensionsLarge) { check({16, 16, 2}, {16, 16, 1}, {0, 0, 9}); }

// OpenCL 2.0+: when the global size is not a multiple of the local size, the
// last group of a dimension is smaller: get_local_size gives its real size,
// get_enqueued_local_size the one asked for.
const char *kNonUniform = R"CLC(
kernel void sizes(global uint *local_size, global uint *enqueued, global uint *sum) {
  size_t i = get_global_linear_id();
  local_size[i] = get_local_size(0) * 1000 + get_local_size(1);
  enqueued[i] = get_enqueued_local_size(0) * 1000 + get_enqueued_local_size(1);
  /* A barrier in a remainder group must wait only for its own items. */
  local uint count;
  if (get_local_linear_id() == 0) count = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&count);
  barrier(CLK_LOCAL_MEM_FENCE);
  sum[i] = count;
}
)CLC";

class NonUniform : public ClTest {};

TEST_F(NonUniform, RemainderGroupsHaveTheirOwnSize) {
  if (!deviceInfo<cl_bool>(device_, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT))
    GTEST_SKIP() << "device reports no non-uniform work-group support";
  cl_kernel sizes = kernel(kNonUniform, "sizes", "-cl-std=CL3.0");
  ASSERT_NE(sizes, nullptr);
  const size_t gx = 37, gy = 10, lx = 8, ly = 4;
  cl_mem ls = buffer(CL_MEM_WRITE_ONLY, gx * gy * 4), es = buffer(CL_MEM_WRITE_ONLY, gx * gy * 4),
         cs = buffer(CL_MEM_WRITE_ONLY, gx * gy * 4);
  ASSERT_TRUE(setArgs(sizes, ls, es, cs));
  ASSERT_TRUE(run(sizes, {gx, gy}, {lx, ly}));
  std::vector<cl_uint> local = read<cl_uint>(ls, gx * gy), enq = read<cl_uint>(es, gx * gy),
                       count = read<cl_uint>(cs, gx * gy);
  for (size_t y = 0; y < gy; ++y)
    for (size_t x = 0; x < gx; ++x) {
      size_t i = y * gx + x;
      size_t wantX = x >= gx / lx * lx ? gx % lx : lx;
      size_t wantY = y >= gy / ly * ly ? gy % ly : ly;
      ASSERT_EQ(local[i], wantX * 1000 + wantY) << "at " << x << "," << y;
      ASSERT_EQ(enq[i], lx * 1000 + ly) << "at " << x << "," << y;
      ASSERT_EQ(count[i], wantX * wantY) << "at " << x << "," << y;
    }
}

TEST_F(NonUniform, RefusedForOpenClC12) {
  cl_kernel sizes =
      kernel("kernel void k(global int *o) { o[get_global_id(0)] = (int)get_local_size(0); }", "k",
             "-cl-std=CL1.2");
  ASSERT_NE(sizes, nullptr);
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, 64 * sizeof(int));
  ASSERT_TRUE(setArgs(sizes, out));
  size_t global = 37, local = 8;
  EXPECT_CL_ERROR(
      CL_INVALID_WORK_GROUP_SIZE,
      clEnqueueNDRangeKernel(queue_, sizes, 1, nullptr, &global, &local, 0, nullptr, nullptr));
}

TEST_F(NonUniform, RefusedWithUniformWorkGroupSizeOption) {
  cl_kernel sizes =
      kernel("kernel void k(global int *o) { o[get_global_id(0)] = (int)get_local_size(0); }", "k",
             "-cl-std=CL3.0 -cl-uniform-work-group-size");
  ASSERT_NE(sizes, nullptr);
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, 64 * sizeof(int));
  ASSERT_TRUE(setArgs(sizes, out));
  size_t global = 37, local = 8;
  EXPECT_CL_ERROR(
      CL_INVALID_WORK_GROUP_SIZE,
      clEnqueueNDRangeKernel(queue_, sizes, 1, nullptr, &global, &local, 0, nullptr, nullptr));
}

// With a NULL local size the implementation picks one; under OpenCL C 1.2 it
// must divide the global size, whatever that is.
TEST_F(NonUniform, NullLocalSizeDividesAPrimeGlobalSizeUnderCl12) {
  cl_kernel k = kernel("kernel void k(global uint *o) { o[get_global_id(0)] = get_local_size(0); }",
                       "k", "-cl-std=CL1.2");
  ASSERT_NE(k, nullptr);
  const size_t n = 997;
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, n * sizeof(cl_uint));
  ASSERT_TRUE(setArgs(k, out));
  ASSERT_TRUE(run(k, {n}));
  for (cl_uint size : read<cl_uint>(out, n)) {
    ASSERT_GE(size, 1u);
    ASSERT_EQ(n % size, 0u) << size;
  }
}

// A kernel whose work grows between launches: after a cheap launch the
// driver runs the next one on the calling thread, sees it take long and
// spreads the groups left over the cores. Every group must run once and
// only once in each launch: the kernel adds to what the previous launches
// left, and the sums are checked after each.
const char *kGrowing = R"CLC(
kernel void grow(global uint *out, uint rounds) {
  size_t i = get_global_id(0);
  uint h = (uint)i;
  for (uint r = 0; r < rounds; ++r) h = h * 1664525u + 1013904223u;
  out[i] += h;
}
)CLC";

class Launches : public ClTest {};

TEST_F(Launches, WorkThatGrowsBetweenLaunchesRunsEveryGroupOnce) {
  cl_kernel grow = kernel(kGrowing, "grow");
  ASSERT_NE(grow, nullptr);
  const size_t n = size_t(1) << 14;
  std::vector<cl_uint> want(n, 0);
  cl_mem out = bufferFrom(want);
  for (cl_uint rounds : {0u, 0u, 10000u, 0u, 1u, 10000u, 10000u}) {
    ASSERT_TRUE(setArgs(grow, out, rounds));
    ASSERT_TRUE(run(grow, {n}, {64}));
    for (size_t i = 0; i < n; ++i) {
      cl_uint h = cl_uint(i);
      for (cl_uint r = 0; r < rounds; ++r) h = h * 1664525u + 1013904223u;
      want[i] += h;
    }
    std::vector<cl_uint> got = read<cl_uint>(out, n);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], want[i]) << "at " << i << " after rounds=" << rounds;
  }
}

// Groups of very different cost, over a 3-D range with remainder groups and
// an offset: the threads take the groups in chunks of changing size from a
// shared counter, and every group must still run once, with its own ids. Each
// work-item counts its runs and records its group and local ids; the costly
// groups (a pseudo-random third) spin, so the chunks end in different places
// from launch to launch.
const char *kUneven = R"CLC(
kernel void uneven(global uint *runs, global uint *ids, uint spin) {
  size_t x = get_global_id(0) - get_global_offset(0), y = get_global_id(1) - get_global_offset(1),
         z = get_global_id(2) - get_global_offset(2);
  size_t i = (z * get_global_size(1) + y) * get_global_size(0) + x;
  uint group = (uint)((get_group_id(2) * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) +
                      get_group_id(0));
  uint h = group * 2654435761u;
  if ((h >> 16) % 3 == 0)
    for (uint r = 0; r < spin; ++r) h = h * 1664525u + 1013904223u;
  atomic_inc(&runs[i]);
  ids[2 * i] = group;
  ids[2 * i + 1] = (uint)((get_local_id(2) * 8 + get_local_id(1)) * 8 + get_local_id(0)) + (h & 0x80000000u);
}
)CLC";

TEST_F(Launches, UnevenGroupsEachRunOnceWithTheirOwnIds) {
  cl_kernel uneven = kernel(kUneven, "uneven", "-cl-std=CL3.0");  // remainder groups
  ASSERT_NE(uneven, nullptr);
  const size_t global[3] = {61, 37, 23}, local[3] = {4, 3, 2}, offset[3] = {5, 7, 11};
  const size_t n = global[0] * global[1] * global[2];
  size_t groups[3];
  for (int d = 0; d < 3; ++d) groups[d] = (global[d] + local[d] - 1) / local[d];
  // The high bit of the second id is the spin's last step, which the host
  // repeats to know what to expect.
  auto spun = [](cl_uint group, cl_uint spin) {
    cl_uint h = group * 2654435761u;
    if ((h >> 16) % 3 == 0)
      for (cl_uint r = 0; r < spin; ++r) h = h * 1664525u + 1013904223u;
    return h & 0x80000000u;
  };
  for (cl_uint spin : {0u, 20000u, 3u, 20000u}) {
    cl_mem runs = bufferFrom(std::vector<cl_uint>(n, 0)), ids = bufferFrom(std::vector<cl_uint>(2 * n, ~0u));
    ASSERT_TRUE(setArgs(uneven, runs, ids, spin));
    ASSERT_TRUE(run(uneven, {global[0], global[1], global[2]}, {local[0], local[1], local[2]},
                    {offset[0], offset[1], offset[2]}));
    std::vector<cl_uint> gotRuns = read<cl_uint>(runs, n), gotIds = read<cl_uint>(ids, 2 * n);
    size_t mismatches = 0;
    for (size_t z = 0; z < global[2]; ++z)
      for (size_t y = 0; y < global[1]; ++y)
        for (size_t x = 0; x < global[0]; ++x) {
          size_t i = (z * global[1] + y) * global[0] + x;
          cl_uint group = cl_uint(((z / local[2]) * groups[1] + y / local[1]) * groups[0] + x / local[0]);
          cl_uint lid = cl_uint((z % local[2] * 8 + y % local[1]) * 8 + x % local[0]) + spun(group, spin);
          if ((gotRuns[i] != 1 || gotIds[2 * i] != group || gotIds[2 * i + 1] != lid) && ++mismatches <= 5)
            ADD_FAILURE() << "spin " << spin << " at (" << x << "," << y << "," << z << "): ran " << gotRuns[i]
                          << " times, group " << gotIds[2 * i] << " (want " << group << "), local ids "
                          << gotIds[2 * i + 1] << " (want " << lid << ")";
        }
    EXPECT_EQ(mismatches, 0u) << "spin " << spin;
  }
}

// reqd_work_group_size is reported and honoured; another local size is refused.
// More work-items than size_t counts: refused, where the product of the
// sizes once wrapped to 0 and the launch ran nothing and reported success.
// A range with a dimension of 0 is empty however large the others are.
TEST_F(Launches, RangesOfMoreThanSizeTWorkItemsAreRefused) {
  cl_kernel k = kernel("kernel void k(global uint *o) { o[0] = 1; }", "k");
  ASSERT_NE(k, nullptr);
  std::vector<cl_uint> zero(1, 0);
  cl_mem out = bufferFrom(zero);
  ASSERT_TRUE(setArgs(k, out));
  const size_t big = size_t(1) << 32;
  size_t two[2] = {big, big}, three[3] = {size_t(1) << 22, size_t(1) << 22, size_t(1) << 22};
  EXPECT_CL_ERROR(CL_INVALID_GLOBAL_WORK_SIZE,
                  clEnqueueNDRangeKernel(queue_, k, 2, nullptr, two, nullptr, 0, nullptr, nullptr));
  size_t local[2] = {1, 1};
  EXPECT_CL_ERROR(CL_INVALID_GLOBAL_WORK_SIZE,
                  clEnqueueNDRangeKernel(queue_, k, 2, nullptr, two, local, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_GLOBAL_WORK_SIZE,
                  clEnqueueNDRangeKernel(queue_, k, 3, nullptr, three, nullptr, 0, nullptr, nullptr));
  size_t empty[3] = {size_t(1) << 63, 4, 0};
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 3, nullptr, empty, nullptr, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
  EXPECT_EQ(read<cl_uint>(out, 1)[0], 0u);
}

// Private arrays live in the work-group function's frame: 16 MB runs (on a
// worker's stack, whatever the calling thread's), 128 MB is refused with
// CL_OUT_OF_RESOURCES at enqueue. Both crashed the process on a worker
// thread once.
TEST_F(Launches, LargePrivateArraysRunOrAreRefused) {
  const char *source = R"CLC(
    kernel void big16(global int *out, int n, int step) {
      int a[4 * 1024 * 1024];  // 16 MB
      for (int i = 0; i < n; ++i) a[i * step] = i * 3 + (int)get_global_id(0);
      out[get_global_id(0)] = a[(n - 1) * step] + a[step];
    }
    kernel void big128(global int *out, int n, int step) {
      int a[32 * 1024 * 1024];  // 128 MB
      for (int i = 0; i < n; ++i) a[i * step] = i;
      out[get_global_id(0)] = a[(n - 1) * step];
    }
  )CLC";
  cl_program program = build(source);
  ASSERT_NE(program, nullptr);
  cl_kernel big16 = kernelOf(program, "big16"), big128 = kernelOf(program, "big128");
  ASSERT_TRUE(big16 && big128);
  cl_ulong bytes = 0;
  ASSERT_CL(clGetKernelWorkGroupInfo(big16, device_, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof bytes,
                                     &bytes, nullptr));
  EXPECT_GE(bytes, cl_ulong(16) << 20);
  const size_t n = 64;
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, n * sizeof(cl_int));
  const cl_int count = 1000, step = 4001;  // the last element written is near 16 MB
  ASSERT_TRUE(setArgs(big16, out, count, step));
  for (std::vector<size_t> local : {std::vector<size_t>{1}, std::vector<size_t>{16}, std::vector<size_t>{}}) {
    ASSERT_TRUE(run(big16, {n}, local));
    std::vector<cl_int> got = read<cl_int>(out, n);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], (count - 1) * 3 + 3 + 2 * cl_int(i)) << i;
  }
  ASSERT_TRUE(setArgs(big128, out, count, step));
  size_t global[1] = {n};
  EXPECT_CL_ERROR(CL_OUT_OF_RESOURCES,
                  clEnqueueNDRangeKernel(queue_, big128, 1, nullptr, global, nullptr, 0, nullptr, nullptr));
}

TEST_F(NonUniform, RequiredWorkGroupSize) {
  cl_kernel k = kernel(
      "__attribute__((reqd_work_group_size(4, 2, 1)))\n"
      "kernel void k(global uint *o) {\n"
      "  o[get_global_id(1) * get_global_size(0) + get_global_id(0)] =\n"
      "      get_local_size(0) * 10 + get_local_size(1);\n"
      "}\n",
      "k");
  ASSERT_NE(k, nullptr);
  size_t compiled[3] = {};
  ASSERT_CL(clGetKernelWorkGroupInfo(k, device_, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compiled,
                                     compiled, nullptr));
  EXPECT_EQ(compiled[0], 4u);
  EXPECT_EQ(compiled[1], 2u);
  EXPECT_EQ(compiled[2], 1u);
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, 16 * 4 * sizeof(cl_uint));
  ASSERT_TRUE(setArgs(k, out));
  ASSERT_TRUE(run(k, {16, 4}, {4, 2}));
  for (cl_uint v : read<cl_uint>(out, 64)) ASSERT_EQ(v, 42u);
  size_t global[2] = {16, 4}, other[2] = {2, 2};
  EXPECT_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE, clEnqueueNDRangeKernel(queue_, k, 2, nullptr, global,
                                                                     other, 0, nullptr, nullptr));
}

}  // namespace
}  // namespace lockstep::test

// A kernel that never asks for its group (GroupShape.cpp: no local or group
// id, barrier, __local memory, narrow atomics) runs in the groups its
// accesses suit, whatever local size the launch gives: every work-item of
// the range still runs once, with its own global id. Checked against the
// host: a 5-point stencil with `int` indices (rows), a naive transpose
// (columns) and a gather whose slope the compiler cannot read (no shape),
// each at local sizes of 1 x 1 to 16 x 16, with global offsets, with
// remainder groups (OpenCL C 2.0), in 1, 2 and 3 dimensions; and kernels
// that do ask for their group, which must see exactly the local size given;
// and kernels whose stores run down the columns, run with y innermost.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "ClTest.h"

namespace lockstep::test {
namespace {

const char *kShapes = R"CLC(
kernel void stencil(global const float *in, global float *out, int W, int H) {
  int x = get_global_id(0), y = get_global_id(1);
  int i = y * W + x;
  if (x == 0 || y == 0 || x == W - 1 || y == H - 1) {
    out[i] = in[i];
    return;
  }
  out[i] = 0.25f * (in[i - W] + in[i + W] + in[i - 1] + in[i + 1]);
}
// With the global offset: the ids start there.
kernel void transpose(global const float *in, global float *out, int W, int H) {
  int x = get_global_id(0) - get_global_offset(0), y = get_global_id(1) - get_global_offset(1);
  out[x * H + y] = in[y * W + x];
}
// Group-aware, its stores down columns: run with y innermost in the groups
// the launch gives.
kernel void transpose_rows_of(global const int *in, global int *out, int W, int H) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  out[(z * W + x) * H + y] = in[(z * H + y) * W + x] + (int)get_local_id(1) * 1000 + (int)get_local_id(2);
}
kernel void gather(global const float *in, global const int *index, global float *out) {
  size_t i = get_global_id(0);
  out[i] = in[index[i]] + (float)get_global_size(0);
}
kernel void cube(global int *out, int n) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  out[(z * n + y) * n + x] += x + 1000 * y + 1000000 * z;
}
// Group-aware: each work-item records where it sits in its group.
kernel void where(global int *out, int W) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * W + x] = (int)(get_local_id(0) + 100 * get_local_id(1) + 10000 * get_local_size(0));
}
)CLC";

// OpenCL C 2.0.
const char *kScopedAtomics = R"CLC(
kernel void group_atomic(global atomic_int *counts) {
  atomic_fetch_add_explicit(&counts[get_global_id(0) % 7], 1, memory_order_relaxed, memory_scope_work_group);
}
)CLC";

class GroupShape : public ClTest {};

TEST_F(GroupShape, StencilInAnyLocalSize) {
  cl_kernel stencil = kernel(kShapes, "stencil");
  ASSERT_NE(stencil, nullptr);
  const int W = 240, H = 48;
  std::vector<float> in = randomValues<float>(W * H, -1.0f, 1.0f), want(in);
  for (int y = 1; y < H - 1; ++y)
    for (int x = 1; x < W - 1; ++x) {
      int i = y * W + x;
      want[i] = 0.25f * (in[i - W] + in[i + W] + in[i - 1] + in[i + 1]);
    }
  for (std::vector<size_t> local :
       std::vector<std::vector<size_t>>{{1, 1}, {8, 8}, {16, 16}, {240, 1}, {40, 4}, {8, 48}, {}}) {
    cl_mem mi = bufferFrom(in), mo = bufferFrom(std::vector<float>(in.size(), 7.0f));
    ASSERT_TRUE(setArgs(stencil, mi, mo, cl_int(W), cl_int(H)));
    ASSERT_TRUE(run(stencil, {size_t(W), size_t(H)}, local));
    EXPECT_EQ(read<float>(mo, in.size()), want)
        << "local " << (local.empty() ? 0 : local[0]) << " x " << (local.empty() ? 0 : local[1]);
  }
}

TEST_F(GroupShape, TransposeWithOffsetsAndRemainderGroups) {
  if (!offersOpenCLC(2, 0)) GTEST_SKIP() << "remainder groups need OpenCL C 2.0";
  cl_kernel transpose = kernel(kShapes, "transpose", "-cl-std=CL2.0");
  ASSERT_NE(transpose, nullptr);
  const int W = 77, H = 45;
  std::vector<float> in = randomValues<float>(W * H, -1.0f, 1.0f), want(in.size());
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) want[x * H + y] = in[y * W + x];
  for (std::vector<size_t> local :
       std::vector<std::vector<size_t>>{{16, 16}, {1, 1}, {5, 9}, {64, 2}, {}}) {
    cl_mem mi = bufferFrom(in), mo = bufferFrom(std::vector<float>(in.size(), 0.0f));
    ASSERT_TRUE(setArgs(transpose, mi, mo, cl_int(W), cl_int(H)));
    ASSERT_TRUE(run(transpose, {size_t(W), size_t(H)}, local, {3, 1000}));
    EXPECT_EQ(read<float>(mo, in.size()), want)
        << "local " << (local.empty() ? 0 : local[0]) << " x " << (local.empty() ? 0 : local[1]);
  }
}

// A kernel whose stores run down columns runs its work-item loops y
// innermost (GroupShape.cpp, WorkItemLoopNest.cpp): in the groups given, 2-D
// and 3-D, with remainder groups.
TEST_F(GroupShape, ColumnStoresInGivenGroups) {
  if (!offersOpenCLC(2, 0)) GTEST_SKIP() << "remainder groups need OpenCL C 2.0";
  cl_kernel transpose = kernel(kShapes, "transpose_rows_of", "-cl-std=CL2.0");
  ASSERT_NE(transpose, nullptr);
  const int W = 70, H = 45, D = 3;
  std::vector<int> in = randomValues<int>(W * H * D, -100000, 100000);
  for (std::vector<size_t> local : std::vector<std::vector<size_t>>{
           {16, 16, 1}, {1, 64, 1}, {64, 1, 1}, {5, 9, 1}, {16, 4, 2}, {7, 16, 3}, {1, 1, 1}}) {
    std::vector<int> want(in.size());
    for (int z = 0; z < D; ++z)
      for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x)
          want[(z * W + x) * H + y] =
              in[(z * H + y) * W + x] + int(y % local[1]) * 1000 + int(z % local[2]);
    cl_mem mi = bufferFrom(in), mo = bufferFrom(std::vector<int>(in.size(), 0));
    ASSERT_TRUE(setArgs(transpose, mi, mo, cl_int(W), cl_int(H)));
    ASSERT_TRUE(run(transpose, {size_t(W), size_t(H), size_t(D)}, local));
    EXPECT_EQ(read<int>(mo, in.size()), want)
        << "local " << local[0] << " x " << local[1] << " x " << local[2];
  }
}

// Gaussian elimination's row update (Rodinia's Fan2): stores down the
// columns, and one store per row where y is 0, which stays in one place
// along y; the kernel runs with y innermost. Rows and columns past the
// square end inside groups of 16 x 16 and others; several steps t.
TEST_F(GroupShape, EliminationStepDownTheColumns) {
  cl_kernel fan2 = kernel(R"CLC(
    kernel void fan2(global float *m, global float *a, global float *b, int size, int t) {
      int x = get_global_id(0);
      int y = get_global_id(1);
      if (x >= size - 1 - t || y >= size - t) return;
      a[size * (x + 1 + t) + (y + t)] -= m[size * (x + 1 + t) + t] * a[size * t + (y + t)];
      if (y == 0) b[x + 1 + t] -= m[size * (x + 1 + t) + (y + t)] * b[t];
    }
  )CLC",
                          "fan2");
  ASSERT_NE(fan2, nullptr);
  for (int size : {1, 2, 19, 70}) {
    for (std::vector<size_t> local :
         std::vector<std::vector<size_t>>{{16, 16}, {4, 4}, {1, 32}, {8, 1}}) {
      std::vector<float> a = randomValues<float>(size_t(size) * size, -4.0f, 4.0f);
      std::vector<float> m = randomValues<float>(size_t(size) * size, -1.0f, 1.0f);
      std::vector<float> b = randomValues<float>(size, -4.0f, 4.0f);
      cl_mem ma = bufferFrom(a), mm = bufferFrom(m), mb = bufferFrom(b);
      for (int t = 0; t < std::min(size, 3); ++t) {
        for (int x = 0; x < size - 1 - t; ++x) {
          for (int y = 0; y < size - t; ++y)
            a[size * (x + 1 + t) + y + t] -= m[size * (x + 1 + t) + t] * a[size * t + y + t];
          b[x + 1 + t] -= m[size * (x + 1 + t) + t] * b[t];
        }
        size_t gx = (size + local[0] - 1) / local[0] * local[0],
               gy = (size + local[1] - 1) / local[1] * local[1];
        ASSERT_TRUE(setArgs(fan2, mm, ma, mb, cl_int(size), cl_int(t)));
        ASSERT_TRUE(run(fan2, {gx, gy}, local));
      }
      // One multiply-subtract per element and step (which the kernel may
      // contract): equal within rounding.
      std::vector<float> gotA = read<float>(ma, a.size()), gotB = read<float>(mb, b.size());
      for (size_t i = 0; i < a.size(); ++i)
        ASSERT_NEAR(gotA[i], a[i], 1e-4f * (1.0f + std::fabs(a[i])))
            << "size " << size << ", local " << local[0] << " x " << local[1] << ", element " << i;
      for (size_t i = 0; i < b.size(); ++i)
        ASSERT_NEAR(gotB[i], b[i], 1e-4f * (1.0f + std::fabs(b[i])))
            << "size " << size << ", local " << local[0] << " x " << local[1] << ", b " << i;
    }
  }
}

TEST_F(GroupShape, GatherIn1D) {
  cl_kernel gather = kernel(kShapes, "gather");
  ASSERT_NE(gather, nullptr);
  const size_t n = 3000;
  std::vector<float> in = randomValues<float>(n, -1.0f, 1.0f), want(n);
  std::vector<int> index = randomValues<int>(n, 0, int(n) - 1);
  for (size_t i = 0; i < n; ++i) want[i] = in[index[i]] + float(n);
  for (size_t local : {1u, 8u, 100u, 1000u}) {
    cl_mem mi = bufferFrom(in), mx = bufferFrom(index),
           mo = bufferFrom(std::vector<float>(n, 0.0f));
    ASSERT_TRUE(setArgs(gather, mi, mx, mo));
    ASSERT_TRUE(run(gather, {n}, {local}));
    EXPECT_EQ(read<float>(mo, n), want) << "local " << local;
  }
}

TEST_F(GroupShape, EveryWorkItemOnceIn3D) {
  cl_kernel cube = kernel(kShapes, "cube");
  ASSERT_NE(cube, nullptr);
  const int n = 24;
  std::vector<int> want(n * n * n);
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) want[(z * n + y) * n + x] = x + 1000 * y + 1000000 * z;
  for (std::vector<size_t> local :
       std::vector<std::vector<size_t>>{{2, 3, 4}, {24, 1, 1}, {1, 1, 24}, {8, 8, 8}, {}}) {
    cl_mem mo = bufferFrom(std::vector<int>(want.size(), 0));
    ASSERT_TRUE(setArgs(cube, mo, cl_int(n)));
    ASSERT_TRUE(run(cube, {size_t(n), size_t(n), size_t(n)}, local));
    EXPECT_EQ(read<int>(mo, want.size()), want) << "local " << (local.empty() ? 0 : local[0]);
  }
}

// A kernel that asks for its local id keeps the local size it was given.
TEST_F(GroupShape, GroupAwareKernelKeepsItsLocalSize) {
  cl_kernel where = kernel(kShapes, "where");
  ASSERT_NE(where, nullptr);
  const int W = 64, H = 32;
  for (std::vector<size_t> local :
       std::vector<std::vector<size_t>>{{16, 16}, {8, 2}, {64, 1}, {1, 32}}) {
    std::vector<int> want(W * H);
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x)
        want[y * W + x] = int(x % local[0] + 100 * (y % local[1]) + 10000 * local[0]);
    cl_mem mo = bufferFrom(std::vector<int>(want.size(), -1));
    ASSERT_TRUE(setArgs(where, mo, cl_int(W)));
    ASSERT_TRUE(run(where, {size_t(W), size_t(H)}, local));
    EXPECT_EQ(read<int>(mo, want.size()), want) << "local " << local[0] << " x " << local[1];
  }
}

// Work-group scope atomics: the kernel's groups are the application's (and
// the counts come out right at any local size).
TEST_F(GroupShape, WorkGroupScopeAtomics) {
  if (!offersOpenCLC(2, 0)) GTEST_SKIP() << "memory scopes need OpenCL C 2.0";
  cl_kernel atomics = kernel(kScopedAtomics, "group_atomic", "-cl-std=CL2.0");
  ASSERT_NE(atomics, nullptr);
  const size_t n = 4096;
  std::vector<int> want(7, 0);
  for (size_t i = 0; i < n; ++i) ++want[i % 7];
  for (size_t local : {1u, 64u, 256u}) {
    cl_mem mc = bufferFrom(std::vector<int>(7, 0));
    ASSERT_TRUE(setArgs(atomics, mc));
    ASSERT_TRUE(run(atomics, {n}, {local}));
    EXPECT_EQ(read<int>(mc, 7), want) << "local " << local;
  }
}

}  // namespace
}  // namespace lockstep::test

// Register blocking of kernels with an inner loop: rows of work-items jammed
// into one trip of a region's x loop (RowJam.cpp) and cut kernel loops
// unrolled a few rounds (CutLoopUnroll.cpp). This binary forces both on with
// factors of 3, so group heights and trip counts leave remainders of every
// kind (the defaults, 4 rows and no unrolling on AVX-512, run in every other
// test binary), and turns the kernel cache off so that the build is its own.
// SGEMM-like kernels at awkward sizes, with `int` and `uint` indices, a trip
// count that differs between rows, a branch on the row inside the jammed
// body, and a kernel with a barrier, all against a host reference. The
// matrices hold small integers, so every sum is exact in float in any order
// and the results compare equal.
#include <cstdlib>

#include "ClTest.h"

namespace lockstep::test {
namespace {

// Read by the library once, at its first build in this process.
const bool kForced = [] {
  setenv("LOCKSTEP_LLVM_OPTIONS", "-lockstep-row-jam=3 -lockstep-cut-loop-unroll=3", 1);
  setenv("LOCKSTEP_CACHE", "0", 1);
  return true;
}();

class RowJam : public ClTest {
 protected:
  // Small integers as floats: products and sums stay exact.
  std::vector<float> matrix(size_t n) {
    std::vector<int> values = randomValues<int>(n, -4, 4);
    return std::vector<float>(values.begin(), values.end());
  }
  // C (m x n) = A (m x k) * B (k x n), each row using `depth(row)` terms.
  template <typename Depth>
  static std::vector<float> product(const std::vector<float> &a, const std::vector<float> &b, size_t m, size_t n,
                                    size_t k, Depth depth) {
    std::vector<float> c(m * n);
    for (size_t row = 0; row < m; ++row)
      for (size_t col = 0; col < n; ++col) {
        double sum = 0;
        for (size_t i = 0; i < depth(row); ++i) sum += double(a[row * k + i]) * b[i * n + col];
        c[row * n + col] = float(sum);
      }
    return c;
  }
  void expectEqual(const std::vector<float> &got, const std::vector<float> &want, size_t n, const char *what,
                   size_t lx, size_t ly) {
    for (size_t i = 0; i < want.size(); ++i)
      ASSERT_EQ(got[i], want[i]) << what << ": row " << i / n << ", column " << i % n << ", local size " << lx
                                 << " x " << ly;
  }
};

// Group sizes whose heights leave every remainder of 3 rows, narrow and wide
// rows, and the NULL local size (0 x 0); the last groups are partial.
const std::vector<std::pair<size_t, size_t>> kLocalSizes = {{16, 16}, {8, 8}, {16, 5}, {4, 7}, {32, 4},
                                                            {1, 9},   {5, 3}, {64, 2}, {0, 0}};

TEST_F(RowJam, NaiveSgemmIntIndices) {
  ASSERT_TRUE(kForced);
  cl_kernel k = kernel(R"CLC(
    kernel void sgemm(global const float *A, global const float *B, global float *C, int M, int N, int K) {
      int col = get_global_id(0);
      int row = get_global_id(1);
      float acc = 0.0f;
      for (int k = 0; k < K; k++) acc += A[row * K + k] * B[k * N + col];
      C[row * N + col] = acc;
    }
  )CLC",
                       "sgemm", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  for (auto [m, n, depth] : {std::tuple<size_t, size_t, size_t>{37, 45, 29}, {16, 64, 64}, {23, 17, 1},
                            {40, 33, 0}, {9, 80, 31}}) {
    std::vector<float> a = matrix(m * depth), b = matrix(depth * n);
    std::vector<float> want = product(a, b, m, n, depth, [&](size_t) { return depth; });
    cl_mem ma = bufferFrom(a.empty() ? std::vector<float>{0} : a),
           mb = bufferFrom(b.empty() ? std::vector<float>{0} : b), mc = buffer(CL_MEM_WRITE_ONLY, m * n * 4);
    for (auto [lx, ly] : kLocalSizes) {
      ASSERT_TRUE(setArgs(k, ma, mb, mc, cl_int(m), cl_int(n), cl_int(depth)));
      ASSERT_TRUE(lx ? run(k, {n, m}, {lx, ly}) : run(k, {n, m}));
      expectEqual(read<float>(mc, m * n), want, n, "int sgemm", lx, ly);
    }
  }
}

TEST_F(RowJam, NaiveSgemmUintIndices) {
  cl_kernel k = kernel(R"CLC(
    kernel void sgemm(global const float *a, global const float *b, global float *c, uint n, uint depth) {
      uint col = get_global_id(0);
      uint row = get_global_id(1);
      float sum = 0.0f;
      for (uint k = 0; k < depth; ++k) sum += a[row * depth + k] * b[k * n + col];
      c[row * n + col] = sum;
    }
  )CLC",
                       "sgemm", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  const size_t m = 50, n = 41, depth = 35;
  std::vector<float> a = matrix(m * depth), b = matrix(depth * n);
  std::vector<float> want = product(a, b, m, n, depth, [&](size_t) { return depth; });
  cl_mem ma = bufferFrom(a), mb = bufferFrom(b), mc = buffer(CL_MEM_WRITE_ONLY, m * n * 4);
  for (auto [lx, ly] : kLocalSizes) {
    ASSERT_TRUE(setArgs(k, ma, mb, mc, cl_uint(n), cl_uint(depth)));
    ASSERT_TRUE(lx ? run(k, {n, m}, {lx, ly}) : run(k, {n, m}));
    expectEqual(read<float>(mc, m * n), want, n, "uint sgemm", lx, ly);
  }
}

// The inner loop's trip count differs between rows (masked, not cut), and a
// branch on the row picks the operand inside the loop of a second kernel.
TEST_F(RowJam, RowDependentTripCountAndBranch) {
  cl_program program = build(R"CLC(
    kernel void ragged(global const float *A, global const float *B, global float *C, int N, int K) {
      int col = get_global_id(0);
      int row = get_global_id(1);
      float acc = 0.0f;
      for (int k = 0; k < K - row % 4; k++) acc += A[row * K + k] * B[k * N + col];
      C[row * N + col] = acc;
    }
    kernel void branchy(global const float *A, global const float *B, global float *C, int N, int K) {
      int col = get_global_id(0);
      int row = get_global_id(1);
      float acc = 0.0f;
      for (int k = 0; k < K; k++) {
        float a = (row & 1) ? A[row * K + k] : -A[row * K + k];
        acc += a * B[k * N + col];
      }
      C[row * N + col] = acc;
    }
  )CLC",
                             "-cl-std=CL3.0");
  ASSERT_NE(program, nullptr);
  const size_t m = 29, n = 38, depth = 27;
  std::vector<float> a = matrix(m * depth), b = matrix(depth * n);
  cl_mem ma = bufferFrom(a), mb = bufferFrom(b), mc = buffer(CL_MEM_WRITE_ONLY, m * n * 4);
  std::vector<float> ragged = product(a, b, m, n, depth, [&](size_t row) { return depth - row % 4; });
  std::vector<float> negated = a;
  for (size_t row = 0; row < m; row += 2)
    for (size_t i = 0; i < depth; ++i) negated[row * depth + i] = -a[row * depth + i];
  std::vector<float> branchy = product(negated, b, m, n, depth, [&](size_t) { return depth; });
  for (const char *name : {"ragged", "branchy"}) {
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, name, &err);
    ASSERT_EQ(err, CL_SUCCESS) << name;
    for (auto [lx, ly] : kLocalSizes) {
      ASSERT_TRUE(setArgs(k, ma, mb, mc, cl_int(n), cl_int(depth)));
      ASSERT_TRUE(lx ? run(k, {n, m}, {lx, ly}) : run(k, {n, m}));
      expectEqual(read<float>(mc, m * n), std::string(name) == "ragged" ? ragged : branchy, n, name, lx, ly);
    }
    clReleaseKernel(k);
  }
}

// A barrier: the group stages a row of B in __local memory, and after the
// barrier every row of work-items scales it by its own A value (a region
// whose __local load every row shares). Then the tiled SGEMM, whose tile
// loop holds barriers and whose 8-round k loop is not jammed.
TEST_F(RowJam, BarrierKernels) {
  cl_program program = build(R"CLC(
    kernel void staged(global const float *A, global const float *B, global float *C, int N, int K) {
      local float row[64];
      int lx = get_local_id(0), col = get_global_id(0), r = get_global_id(1);
      float acc = 0.0f;
      for (int k = 0; k < K; k++) {
        if (get_local_id(1) == 0) row[lx] = B[k * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        acc += A[r * K + k] * row[lx];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      C[r * N + col] = acc;
    }
    #define TS 8
    kernel void tiled(global const float *A, global const float *B, global float *C, int N) {
      local float As[TS][TS], Bs[TS][TS];
      int tx = get_local_id(0), ty = get_local_id(1);
      int col = get_group_id(0) * TS + tx, row = get_group_id(1) * TS + ty;
      float acc = 0.0f;
      for (int t = 0; t < N / TS; t++) {
        As[ty][tx] = A[row * N + t * TS + tx];
        Bs[ty][tx] = B[(t * TS + ty) * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; k++) acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      C[row * N + col] = acc;
    }
  )CLC",
                             "-cl-std=CL3.0");
  ASSERT_NE(program, nullptr);
  cl_int err = CL_SUCCESS;
  cl_kernel staged = clCreateKernel(program, "staged", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_kernel tiled = clCreateKernel(program, "tiled", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  {
    const size_t m = 31, n = 44, depth = 13;
    std::vector<float> a = matrix(m * depth), b = matrix(depth * n);
    std::vector<float> want = product(a, b, m, n, depth, [&](size_t) { return depth; });
    cl_mem ma = bufferFrom(a), mb = bufferFrom(b), mc = buffer(CL_MEM_WRITE_ONLY, m * n * 4);
    for (auto [lx, ly] : {std::pair<size_t, size_t>{16, 16}, {44, 5}, {11, 7}, {4, 31}, {64, 1}}) {
      ASSERT_TRUE(setArgs(staged, ma, mb, mc, cl_int(n), cl_int(depth)));
      ASSERT_TRUE(run(staged, {n, m}, {lx, ly}));
      expectEqual(read<float>(mc, m * n), want, n, "staged", lx, ly);
    }
  }
  {
    const size_t n = 40;
    std::vector<float> a = matrix(n * n), b = matrix(n * n);
    std::vector<float> want = product(a, b, n, n, n, [&](size_t) { return n; });
    cl_mem ma = bufferFrom(a), mb = bufferFrom(b), mc = buffer(CL_MEM_WRITE_ONLY, n * n * 4);
    ASSERT_TRUE(setArgs(tiled, ma, mb, mc, cl_int(n)));
    ASSERT_TRUE(run(tiled, {n, n}, {8, 8}));
    expectEqual(read<float>(mc, n * n), want, n, "tiled", 8, 8);
  }
  clReleaseKernel(staged);
  clReleaseKernel(tiled);
}

}  // namespace
}  // namespace lockstep::test

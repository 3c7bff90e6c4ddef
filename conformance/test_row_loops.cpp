// Loops that walk a row of memory per work-item (a matrix-vector product's
// row, a sparse row of a CSR matrix): the compiler runs them whole inside
// each work-item instead of moving the work-item loop inside them. Results
// against the host, for several local sizes and row lengths, including rows
// of different lengths between neighbouring work-items.
#include <cmath>

#include "ClTest.h"

namespace lockstep::test {
namespace {

class RowLoops : public ClTest {};

TEST_F(RowLoops, MatrixVectorProduct) {
  cl_kernel k = kernel(R"CLC(
    kernel void gemv(global const float *a, global const float *x, global float *y, int n) {
      int r = get_global_id(0);
      float s = 0.0f;
      for (int c = 0; c < n; ++c) s += a[r * n + c] * x[c];
      y[r] = s;
    }
  )CLC",
                       "gemv");
  ASSERT_NE(k, nullptr);
  for (int n : {1, 7, 64, 300}) {
    const size_t rows = 512;
    std::vector<float> a = randomValues<float>(rows * n, -1.0f, 1.0f),
                       x = randomValues<float>(n, -1.0f, 1.0f);
    cl_mem ma = bufferFrom(a), mx = bufferFrom(x),
           my = buffer(CL_MEM_WRITE_ONLY, rows * sizeof(float));
    for (size_t local : {size_t(1), size_t(16), size_t(64)}) {
      ASSERT_TRUE(setArgs(k, ma, mx, my, cl_int(n)));
      ASSERT_TRUE(run(k, {rows}, {local}));
      std::vector<float> y = read<float>(my, rows);
      for (size_t r = 0; r < rows; ++r) {
        float want = 0.0f, bound = 0.0f;
        for (int c = 0; c < n; ++c) {
          want += a[r * n + c] * x[c];
          bound += std::fabs(a[r * n + c] * x[c]);
        }
        // In order, with or without contraction: a few rounding errors of the sum.
        ASSERT_NEAR(y[r], want, 2 * n * 0x1p-24f * bound + 1e-30f) << "n " << n << ", row " << r;
      }
    }
  }
}

TEST_F(RowLoops, SparseRowsOfDifferentLengths) {
  cl_kernel k = kernel(R"CLC(
    kernel void spmv(global const int *rows, global const int *cols, global const int *vals,
                     global const int *x, global int *y) {
      int r = get_global_id(0);
      int s = 0;
      for (int j = rows[r]; j < rows[r + 1]; ++j) s += vals[j] * x[cols[j]];
      y[r] = s;
    }
  )CLC",
                       "spmv");
  ASSERT_NE(k, nullptr);
  const size_t n = 1000;
  std::vector<int> lengths = randomValues<int>(n, 0, 40), rows(n + 1, 0);
  for (size_t r = 0; r < n; ++r) rows[r + 1] = rows[r] + lengths[r];
  std::vector<int> cols = randomValues<int>(rows[n], 0, int(n) - 1),
                   vals = randomValues<int>(rows[n], -100, 100),
                   x = randomValues<int>(n, -100, 100);
  cl_mem mr = bufferFrom(rows), mc = bufferFrom(cols), mv = bufferFrom(vals), mx = bufferFrom(x),
         my = buffer(CL_MEM_WRITE_ONLY, n * sizeof(int));
  for (size_t local : {size_t(1), size_t(8), size_t(40), size_t(100)}) {
    ASSERT_TRUE(setArgs(k, mr, mc, mv, mx, my));
    ASSERT_TRUE(run(k, {n}, {local}));
    std::vector<int> y = read<int>(my, n);
    for (size_t r = 0; r < n; ++r) {
      int want = 0;
      for (int j = rows[r]; j < rows[r + 1]; ++j) want += vals[j] * x[cols[j]];
      ASSERT_EQ(y[r], want) << "local size " << local << ", row " << r;
    }
  }
}

}  // namespace
}  // namespace lockstep::test

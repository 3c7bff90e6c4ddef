// Kernels whose work-items each run a loop along their own row, carrying a
// chain the vectorizer cannot widen (a float sum in program order, an
// integer hash): the compiler unrolls and jams the loop over the
// work-items around that loop (WorkItemJamPass), so one trip of the row loop
// steps several work-items' chains. Every work-item's result must still be
// its own, bit for bit what it computes alone in program order: float sums
// of values of every magnitude (their order shows in the low bits), two sums
// a row, hash chains, at local sizes that leave every remainder of the jam
// factor, rows of no and of one element, rows guarded by `if (row < m)` (at
// global offsets, and where the `int` id wraps), C = A B^T in a range larger
// than the matrix, a 2D range, a region after a barrier, and kernels the
// pass must leave alone (a trip count that differs per row, a private array
// the work-items share). And rows of work-items jammed around their x loop:
// a 16-wide tiled product whose inner product is a chain of 16
// multiply-adds per work-item, in groups of 16, 6, 5, 4 and 1 rows.
#include <cmath>
#include <cstring>
#include <functional>

#include "ClTest.h"

namespace lockstep::test {
namespace {

const char *kRows = R"CLC(
// One row per work-item: its sum in program order.
kernel void row_sums(global const float *a, int n, global float *out) {
  int row = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < n; k++) sum += a[row * n + k];
  out[row] = sum;
}
// A matrix-vector product (small integers: exact in any order).
kernel void gemv(global const float *a, global const float *x, int n, global float *y) {
  int row = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < n; k++) sum += a[row * n + k] * x[k];
  y[row] = sum;
}
// Two sums a row (jammed by fewer work-items than one sum).
kernel void sums_and_squares(global const float *a, int n, global float2 *out) {
  int row = get_global_id(0);
  float sum = 0.0f, squares = 0.0f;
  for (int k = 0; k < n; k++) {
    float v = a[row * n + k];
    sum += v;
    squares += v * v;
  }
  out[row] = (float2)(sum, squares);
}
// An integer chain that is no reduction.
kernel void hashes(global const uint *data, int n, global uint *out) {
  size_t row = get_global_id(0);
  uint h = 2166136261u;
  for (int k = 0; k < n; k++) h = (h ^ data[row * n + k]) * 16777619u;
  out[row] = h;
}
// Guarded the common way: rows past `m` do nothing; the id is an `int`.
kernel void guarded_sums(global const float *a, int n, int m, global float *out) {
  int row = get_global_id(0) - (int)get_global_offset(0);
  if (row < m) {
    float sum = 0.0f;
    for (int k = 0; k < n; k++) sum += a[row * n + k];
    out[row] = sum;
  }
}
// The same guard on the id itself, whose `int` wraps past INT_MAX when the
// range's offset is near it: those rows fail `id < limit` and stay undone.
kernel void wrapping_guard(global const float *a, int n, int limit, global float *out) {
  int id = get_global_id(0);
  size_t row = get_global_id(0) - get_global_offset(0);
  if (id < limit) {
    float sum = 0.0f;
    for (int k = 0; k < n; k++) sum += a[row * n + k];
    out[row] = sum;
  }
}
// C = A B^T, a work-item per element: both loads run along k.
kernel void product_bt(global const float *a, global const float *bt, global float *c, int m, int n, int k) {
  int col = get_global_id(0), row = get_global_id(1);
  if (row < m && col < n) {
    float sum = 0.0f;
    for (int i = 0; i < k; i++) sum += a[row * k + i] * bt[col * k + i];
    c[row * n + col] = sum;
  }
}
// Rows along x, planes along y: a 2D range.
kernel void plane_sums(global const float *a, int n, global float *out) {
  int row = get_global_id(0), plane = get_global_id(1);
  int rows = get_global_size(0);
  float sum = 0.0f;
  for (int k = 0; k < n; k++) sum += a[(plane * rows + row) * n + k];
  out[plane * rows + row] = sum;
}
// The row loop after a barrier, over rows the group staged in local memory.
kernel void staged_sums(global const float *a, int n, global float *out, local float *scale) {
  int lid = get_local_id(0), row = get_global_id(0);
  scale[lid] = (float)(lid + 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  int other = get_local_size(0) - 1 - lid;
  float sum = 0.0f;
  for (int k = 0; k < n; k++) sum += a[row * n + k] * scale[other];
  out[row] = sum;
}
// C = A B through 16 x 16 tiles of __local memory: rows of 16 work-items
// (the group's height varies; the B tile takes several rows each then).
#define TS 16
kernel void tiled_product(global const float *a, global const float *b, global float *c, int n, int k) {
  __local float as[TS][TS], bs[TS][TS];
  int tx = get_local_id(0), ty = get_local_id(1), rows = get_local_size(1);
  int col = get_group_id(0) * TS + tx, row = get_group_id(1) * rows + ty;
  float acc = 0.0f;
  for (int t = 0; t < k / TS; t++) {
    as[ty][tx] = a[row * k + t * TS + tx];
    for (int r = ty; r < TS; r += rows) bs[r][tx] = b[(t * TS + r) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < TS; i++) acc += as[ty][i] * bs[i][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = acc;
}
// A trip count of the row's own: not jammed, still right.
kernel void ragged_sums(global const float *a, int n, global float *out) {
  int row = get_global_id(0);
  int count = row % (n + 1);
  float sum = 0.0f;
  for (int k = 0; k < count; k++) sum += a[row * n + k];
  out[row] = sum;
}
// A private array indexed by the loop: every work-item's own.
kernel void windowed_sums(global const float *a, int n, global float *out) {
  int row = get_global_id(0);
  float window[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  float sum = 0.0f;
  for (int k = 0; k < n; k++) {
    sum += a[row * n + k] - window[k & 3];
    window[k & 3] = a[row * n + k];
  }
  out[row] = sum;
}
)CLC";

class WorkItemJam : public ClTest {
 protected:
  // Floats of magnitudes 2^-20 to 2^20 and both signs: a sum's low bits
  // depend on the order of its adds.
  std::vector<float> spreadFloats(size_t n) {
    std::vector<float> mantissas = randomValues<float>(n, 1.0f, 2.0f);
    std::vector<int> exponents = randomValues<int>(n, -20, 20), signs = randomValues<int>(n, 0, 1);
    for (size_t i = 0; i < n; ++i)
      mantissas[i] = std::ldexp(signs[i] ? -mantissas[i] : mantissas[i], exponents[i]);
    return mantissas;
  }
  std::vector<float> smallIntegers(size_t n) {
    std::vector<int> values = randomValues<int>(n, -8, 8);
    return std::vector<float>(values.begin(), values.end());
  }
  // Each row's sum of `count(row)` terms, in program order, in float.
  template <typename Count>
  static std::vector<float> rowSums(const std::vector<float> &a, size_t rows, size_t n,
                                    Count count) {
    std::vector<float> sums(rows);
    for (size_t row = 0; row < rows; ++row) {
      float sum = 0.0f;
      for (size_t k = 0; k < count(row); ++k) sum += a[row * n + k];
      sums[row] = sum;
    }
    return sums;
  }
  // Runs `kernel`, its arguments set by `setArgsWith` given the output
  // buffer (filled with -1 first), with run()'s ranges, and checks the
  // output against `want` bit for bit.
  void expectRun(cl_kernel kernel, const std::vector<float> &want,
                 const std::function<::testing::AssertionResult(cl_mem)> &setArgsWith,
                 std::initializer_list<std::vector<size_t>> ranges, const std::string &what) {
    cl_mem out = bufferFrom(std::vector<float>(want.size(), -1.0f));
    ASSERT_TRUE(setArgsWith(out));
    std::vector<std::vector<size_t>> r(ranges);
    r.resize(3);
    ASSERT_TRUE(run(kernel, r[0], r[1], r[2]));
    expectBitsEqual(read<float>(out, want.size()), want, what);
  }
  static void expectBitsEqual(const std::vector<float> &got, const std::vector<float> &want,
                              const std::string &what) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      uint32_t g, w;
      std::memcpy(&g, &got[i], 4);
      std::memcpy(&w, &want[i], 4);
      ASSERT_EQ(g, w) << what << ": row " << i << " is " << got[i] << ", want " << want[i];
    }
  }
};

// Local sizes below, at and above the jam factor (8), with every remainder.
const size_t kJamLocalSizes[] = {1, 3, 7, 8, 13, 16, 64, 100};

TEST_F(WorkItemJam, FloatRowSumsKeepEachRowsOrder) {
  cl_kernel sums = kernel(kRows, "row_sums");
  ASSERT_NE(sums, nullptr);
  for (size_t n : {0u, 1u, 5u, 64u, 257u})
    for (size_t local : kJamLocalSizes) {
      if (local > kernelMaxGroupSize(sums)) continue;
      const size_t rows = local * 3;
      std::vector<float> a = spreadFloats(std::max<size_t>(rows * n, 1));
      cl_mem ma = bufferFrom(a);
      expectRun(
          sums, rowSums(a, rows, n, [n](size_t) { return n; }),
          [&](cl_mem out) { return setArgs(sums, ma, cl_int(n), out); }, {{rows}, {local}},
          "n " + std::to_string(n) + ", local " + std::to_string(local));
    }
}

TEST_F(WorkItemJam, MatrixVectorProducts) {
  cl_kernel gemv = kernel(kRows, "gemv");
  ASSERT_NE(gemv, nullptr);
  const size_t n = 131;
  for (size_t local : kJamLocalSizes) {
    if (local > kernelMaxGroupSize(gemv)) continue;
    const size_t rows = local * 5;
    std::vector<float> a = smallIntegers(rows * n), x = smallIntegers(n), want(rows);
    for (size_t row = 0; row < rows; ++row) {
      double sum = 0;
      for (size_t k = 0; k < n; ++k) sum += double(a[row * n + k]) * x[k];
      want[row] = float(sum);
    }
    cl_mem ma = bufferFrom(a), mx = bufferFrom(x);
    expectRun(
        gemv, want, [&](cl_mem my) { return setArgs(gemv, ma, mx, cl_int(n), my); },
        {{rows}, {local}}, "local " + std::to_string(local));
  }
}

TEST_F(WorkItemJam, TwoSumsARow) {
  cl_kernel sums = kernel(kRows, "sums_and_squares");
  ASSERT_NE(sums, nullptr);
  const size_t n = 61;
  for (size_t local : kJamLocalSizes) {
    if (local > kernelMaxGroupSize(sums)) continue;
    const size_t rows = local * 3;
    std::vector<float> a = smallIntegers(rows * n), want(2 * rows);
    for (size_t row = 0; row < rows; ++row)
      for (size_t k = 0; k < n; ++k) {
        want[2 * row] += a[row * n + k];
        want[2 * row + 1] += a[row * n + k] * a[row * n + k];
      }
    cl_mem ma = bufferFrom(a);
    expectRun(
        sums, want, [&](cl_mem out) { return setArgs(sums, ma, cl_int(n), out); },
        {{rows}, {local}}, "local " + std::to_string(local));
  }
}

// `if (row < m)` with m inside a group, at global offsets: the rows below m
// are done (jammed), the rest keep their -1.
TEST_F(WorkItemJam, GuardedRows) {
  cl_kernel sums = kernel(kRows, "guarded_sums");
  ASSERT_NE(sums, nullptr);
  const size_t n = 37;
  for (size_t local : kJamLocalSizes) {
    if (local > kernelMaxGroupSize(sums)) continue;
    const size_t rows = local * 4;
    for (size_t m : {size_t(0), rows / 2 + 1, rows - 1, rows})
      for (size_t offset : {size_t(0), size_t(1000)}) {
        std::vector<float> a = spreadFloats(rows * n);
        std::vector<float> want = rowSums(a, rows, n, [n](size_t) { return n; });
        for (size_t row = m; row < rows; ++row) want[row] = -1.0f;
        cl_mem ma = bufferFrom(a);
        expectRun(
            sums, want, [&](cl_mem out) { return setArgs(sums, ma, cl_int(n), cl_int(m), out); },
            {{rows}, {local}, {offset}},
            "m " + std::to_string(m) + ", offset " + std::to_string(offset) + ", local " +
                std::to_string(local));
      }
  }
}

// Global ids near INT_MAX: as `int` they wrap to negative values, which pass
// `id < limit` again; groups whose ids may wrap keep the test for every id.
TEST_F(WorkItemJam, GuardWhereTheIntIdWraps) {
  cl_kernel sums = kernel(kRows, "wrapping_guard");
  ASSERT_NE(sums, nullptr);
  const size_t n = 21, local = 64, rows = local * 4;
  if (local > kernelMaxGroupSize(sums)) GTEST_SKIP();
  const size_t offset = size_t(INT32_MAX) - 100;  // ids wrap after row 100
  for (cl_int limit : {cl_int(INT32_MAX - 30), cl_int(INT32_MIN + 50), cl_int(0)}) {
    std::vector<float> a = spreadFloats(rows * n);
    std::vector<float> all = rowSums(a, rows, n, [n](size_t) { return n; }), want(rows, -1.0f);
    for (size_t row = 0; row < rows; ++row) {
      int32_t id = int32_t(uint32_t(offset + row));
      if (id < limit) want[row] = all[row];
    }
    cl_mem ma = bufferFrom(a);
    expectRun(
        sums, want, [&](cl_mem out) { return setArgs(sums, ma, cl_int(n), limit, out); },
        {{rows}, {local}, {offset}}, "limit " + std::to_string(limit));
  }
}

// A 2D range larger than the matrix (m, n not multiples of the group): the
// elements outside keep their -1.
TEST_F(WorkItemJam, ProductWithTransposedB) {
  cl_kernel product = kernel(kRows, "product_bt");
  ASSERT_NE(product, nullptr);
  const size_t m = 37, n = 45, k = 29;
  std::vector<float> a = smallIntegers(m * k), bt = smallIntegers(n * k);
  std::vector<float> want(m * n);
  for (size_t row = 0; row < m; ++row)
    for (size_t col = 0; col < n; ++col) {
      double sum = 0;
      for (size_t i = 0; i < k; ++i) sum += double(a[row * k + i]) * bt[col * k + i];
      want[row * n + col] = float(sum);
    }
  for (std::vector<size_t> local : {std::vector<size_t>{16, 16}, {8, 4}, {1, 1}, {48, 1}}) {
    if (local[0] * local[1] > kernelMaxGroupSize(product)) continue;
    std::vector<size_t> global = {(n + local[0] - 1) / local[0] * local[0],
                                  (m + local[1] - 1) / local[1] * local[1]};
    cl_mem ma = bufferFrom(a), mb = bufferFrom(bt);
    expectRun(
        product, want,
        [&](cl_mem mc) { return setArgs(product, ma, mb, mc, cl_int(m), cl_int(n), cl_int(k)); },
        {global, local}, "local " + std::to_string(local[0]) + " x " + std::to_string(local[1]));
  }
}

TEST_F(WorkItemJam, IntegerHashChains) {
  cl_kernel hashes = kernel(kRows, "hashes");
  ASSERT_NE(hashes, nullptr);
  const size_t n = 77;
  for (size_t local : kJamLocalSizes) {
    if (local > kernelMaxGroupSize(hashes)) continue;
    const size_t rows = local * 4;
    std::vector<cl_uint> data = randomValues<cl_uint>(rows * n, 0, UINT32_MAX), want(rows);
    for (size_t row = 0; row < rows; ++row) {
      cl_uint h = 2166136261u;
      for (size_t k = 0; k < n; ++k) h = (h ^ data[row * n + k]) * 16777619u;
      want[row] = h;
    }
    cl_mem md = bufferFrom(data), out = bufferFrom(std::vector<cl_uint>(rows, 0));
    ASSERT_TRUE(setArgs(hashes, md, cl_int(n), out));
    ASSERT_TRUE(run(hashes, {rows}, {local}));
    EXPECT_EQ(read<cl_uint>(out, rows), want) << "local " << local;
  }
}

TEST_F(WorkItemJam, RowsOfATwoDimensionalRange) {
  cl_kernel sums = kernel(kRows, "plane_sums");
  ASSERT_NE(sums, nullptr);
  const size_t n = 45, rows = 36, planes = 6;
  std::vector<float> a = spreadFloats(rows * planes * n);
  std::vector<float> want = rowSums(a, rows * planes, n, [n](size_t) { return n; });
  for (std::vector<size_t> local : {std::vector<size_t>{12, 2}, {9, 3}, {4, 6}, {36, 1}}) {
    if (local[0] * local[1] > kernelMaxGroupSize(sums)) continue;
    cl_mem ma = bufferFrom(a);
    expectRun(
        sums, want, [&](cl_mem out) { return setArgs(sums, ma, cl_int(n), out); },
        {{rows, planes}, local},
        "local " + std::to_string(local[0]) + " x " + std::to_string(local[1]));
  }
}

TEST_F(WorkItemJam, RowsAfterABarrier) {
  cl_kernel sums = kernel(kRows, "staged_sums");
  ASSERT_NE(sums, nullptr);
  const size_t n = 33;
  for (size_t local : kJamLocalSizes) {
    if (local > kernelMaxGroupSize(sums)) continue;
    const size_t rows = local * 3;
    std::vector<float> a = smallIntegers(rows * n), want(rows);
    for (size_t row = 0; row < rows; ++row) {
      double scale = double(local - row % local), sum = 0;
      for (size_t k = 0; k < n; ++k) sum += a[row * n + k] * scale;
      want[row] = float(sum);
    }
    cl_mem ma = bufferFrom(a);
    expectRun(
        sums, want,
        [&](cl_mem out) {
          return setArgs(sums, ma, cl_int(n), out, LocalBytes{local * sizeof(float)});
        },
        {{rows}, {local}}, "local " + std::to_string(local));
  }
}

TEST_F(WorkItemJam, TiledProductRowsJammed) {
  cl_kernel product = kernel(kRows, "tiled_product");
  ASSERT_NE(product, nullptr);
  const size_t n = 32, k = 48;
  for (size_t rows : {16u, 6u, 5u, 4u, 1u}) {
    if (16 * rows > kernelMaxGroupSize(product)) continue;
    const size_t m = rows * 3;
    // Spread values times powers of two: every product exact (fused or
    // not), every sum's low bits its order's.
    std::vector<float> a = spreadFloats(m * k), b(k * n);
    std::vector<int> shifts = randomValues<int>(k * n, -2, 2);
    for (size_t i = 0; i < b.size(); ++i) b[i] = std::ldexp(i % 3 ? 1.0f : -1.0f, shifts[i]);
    std::vector<float> want(m * n);
    for (size_t row = 0; row < m; ++row)
      for (size_t col = 0; col < n; ++col) {
        float acc = 0.0f;
        for (size_t i = 0; i < k; ++i) acc += a[row * k + i] * b[i * n + col];
        want[row * n + col] = acc;
      }
    cl_mem ma = bufferFrom(a), mb = bufferFrom(b);
    expectRun(
        product, want,
        [&](cl_mem out) { return setArgs(product, ma, mb, out, cl_int(n), cl_int(k)); },
        {{n, m}, {16, rows}}, "rows " + std::to_string(rows));
  }
}

TEST_F(WorkItemJam, LoopsItLeavesAlone) {
  cl_kernel ragged = kernel(kRows, "ragged_sums"), windowed = kernel(kRows, "windowed_sums");
  ASSERT_NE(ragged, nullptr);
  ASSERT_NE(windowed, nullptr);
  const size_t n = 29;
  for (size_t local : kJamLocalSizes) {
    const size_t rows = local * 3;
    std::vector<float> a = spreadFloats(rows * n);
    cl_mem ma = bufferFrom(a);
    if (local <= kernelMaxGroupSize(ragged)) {
      expectRun(
          ragged, rowSums(a, rows, n, [n](size_t row) { return row % (n + 1); }),
          [&](cl_mem out) { return setArgs(ragged, ma, cl_int(n), out); }, {{rows}, {local}},
          "ragged, local " + std::to_string(local));
    }
    if (local <= kernelMaxGroupSize(windowed)) {
      std::vector<float> want(rows);
      for (size_t row = 0; row < rows; ++row) {
        float window[4] = {0, 0, 0, 0}, sum = 0;
        for (size_t k = 0; k < n; ++k) {
          sum += a[row * n + k] - window[k & 3];
          window[k & 3] = a[row * n + k];
        }
        want[row] = sum;
      }
      expectRun(
          windowed, want, [&](cl_mem out) { return setArgs(windowed, ma, cl_int(n), out); },
          {{rows}, {local}}, "windowed, local " + std::to_string(local));
    }
  }
}

}  // namespace
}  // namespace lockstep::test

// Kernels that index with `int` and `uint` arithmetic on the work-item ids:
// the compiler runs their loops over the work-items with that arithmetic in
// 64 bits when a check before them finds no value leaves the 32-bit range
// (WideIndicesPass), and as written otherwise. Results against the host for
// a tiled product (indices that step along rows and tiles), 2-D copies with
// global offsets, and values that wrap in 32 bits in some groups and not in
// others, ids whose conversion to int drops bits, and offsets that make an
// int index negative.
#include <climits>
#include <cmath>

#include "ClTest.h"

namespace lockstep::test {
namespace {

class WideIndices : public ClTest {};

// The value OpenCL C gives a size_t converted to int (two's complement).
int asInt(uint64_t value) { return int(uint32_t(value)); }

TEST_F(WideIndices, TiledProductWithIntIndices) {
  cl_kernel k = kernel(R"CLC(
    #define TS 16
    kernel void product(global const float *A, global const float *B, global float *C, int N) {
      local float As[TS][TS], Bs[TS][TS];
      int tx = get_local_id(0), ty = get_local_id(1);
      int col = get_group_id(0) * TS + tx, row = get_group_id(1) * TS + ty;
      float acc = 0.0f;
      for (int t = 0; t < N / TS; t++) {
        As[ty][tx] = A[row * N + t * TS + tx];
        Bs[ty][tx] = B[(t * TS + ty) * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; k++) acc = fma(As[ty][k], Bs[k][tx], acc);
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      C[row * N + col] = acc;
    }
  )CLC",
                       "product");
  ASSERT_NE(k, nullptr);
  for (int n : {16, 48, 128}) {
    std::vector<float> a = randomValues<float>(size_t(n) * n, -1.0f, 1.0f);
    std::vector<float> b = randomValues<float>(size_t(n) * n, -1.0f, 1.0f);
    cl_mem ma = bufferFrom(a), mb = bufferFrom(b);
    cl_mem mc = buffer(CL_MEM_READ_WRITE, size_t(n) * n * sizeof(float));
    ASSERT_TRUE(setArgs(k, ma, mb, mc, cl_int(n)));
    ASSERT_TRUE(run(k, {size_t(n), size_t(n)}, {16, 16}));
    std::vector<float> c = read<float>(mc, size_t(n) * n);
    for (int row = 0; row < n; ++row)
      for (int col = 0; col < n; ++col) {
        float want = 0.0f;
        for (int i = 0; i < n; ++i) want = std::fma(a[row * n + i], b[i * n + col], want);
        ASSERT_EQ(c[row * n + col], want) << "n " << n << ", row " << row << ", col " << col;
      }
  }
}

TEST_F(WideIndices, CopiesWithGlobalOffsets) {
  cl_kernel k = kernel(R"CLC(
    kernel void scaled(global const int *in, global int *out, int width, int x0, int y0) {
      int x = get_global_id(0) - x0, y = get_global_id(1) - y0;
      out[y * width + x] = 3 * in[y * width + x] + x - y;
    }
  )CLC",
                       "scaled");
  ASSERT_NE(k, nullptr);
  for (size_t local : {size_t(1), size_t(4), size_t(16)}) {
    for (size_t offset : {size_t(0), size_t(3), size_t(64)}) {
      const int width = 80, height = 48;
      std::vector<int> in = randomValues<int>(size_t(width) * height, -1000, 1000);
      cl_mem min = bufferFrom(in);
      cl_mem mout = bufferFrom(std::vector<int>(size_t(width) * height, INT_MIN));
      ASSERT_TRUE(setArgs(k, min, mout, cl_int(width), cl_int(offset), cl_int(offset)));
      ASSERT_TRUE(run(k, {size_t(width), size_t(height)}, {local, local}, {offset, offset}));
      std::vector<int> out = read<int>(mout, size_t(width) * height);
      for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
          ASSERT_EQ(out[y * width + x], 3 * in[y * width + x] + x - y)
              << "local " << local << ", offset " << offset << ", x " << x << ", y " << y;
    }
  }
}

// Sums that pass 2^31 (int) or 2^32 (uint) partway through the grid: the
// groups below run the 64-bit copy, the groups across and above run the
// loops as written, and every value is the 32-bit one.
TEST_F(WideIndices, ValuesThatWrapInSomeGroups) {
  cl_kernel k = kernel(R"CLC(
    kernel void wrapped(global long *out, uint ubias, int sbias) {
      int x = get_global_id(0), y = get_global_id(1);
      size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
      uint u = x + ubias;
      int s = (int)((uint)(x + y) + (uint)sbias);
      out[2 * i] = u;
      out[2 * i + 1] = s;
    }
  )CLC",
                       "wrapped");
  ASSERT_NE(k, nullptr);
  const size_t columns = 4096, rows = 3;
  for (size_t local : {size_t(16), size_t(64), size_t(256)}) {
    for (uint32_t ubias : {0u, 0xFFFFFF00u, 0xFFFFF000u}) {
      const int sbias = INT_MAX - 1000;
      cl_mem mout = buffer(CL_MEM_READ_WRITE, columns * rows * 2 * sizeof(cl_long));
      ASSERT_TRUE(setArgs(k, mout, cl_uint(ubias), cl_int(sbias)));
      ASSERT_TRUE(run(k, {columns, rows}, {local, 1}));
      std::vector<cl_long> out = read<cl_long>(mout, columns * rows * 2);
      for (size_t y = 0; y < rows; ++y)
        for (size_t x = 0; x < columns; ++x) {
          size_t i = y * columns + x;
          ASSERT_EQ(out[2 * i], cl_long(uint32_t(x) + ubias))
              << "local " << local << ", bias " << ubias << ", x " << x << ", y " << y;
          ASSERT_EQ(out[2 * i + 1], cl_long(asInt(uint32_t(x + y) + uint32_t(sbias))))
              << "local " << local << ", x " << x << ", y " << y;
        }
    }
  }
}

// Ids 2^32 past the buffer, converted to int: the conversion drops the
// high bits, and the kernel indexes its buffers in range.
TEST_F(WideIndices, IdsWhoseConversionDropsBits) {
  cl_kernel k = kernel(R"CLC(
    kernel void shifted(global const float *in, global float *out, ulong shift, int width) {
      int x = get_global_id(0) + shift, y = get_global_id(1);
      out[y * width + x] = 2.0f * in[y * width + x] + (float)x;
    }
  )CLC",
                       "shifted");
  ASSERT_NE(k, nullptr);
  const int width = 64, height = 16;
  std::vector<float> in = randomValues<float>(width * height, -1.0f, 1.0f);
  cl_mem min = bufferFrom(in);
  for (uint64_t shift : {uint64_t(1) << 32, uint64_t(3) << 32, uint64_t(0)}) {
    cl_mem mout = bufferFrom(std::vector<float>(width * height, -1.0f));
    ASSERT_TRUE(setArgs(k, min, mout, cl_ulong(shift), cl_int(width)));
    ASSERT_TRUE(run(k, {size_t(width), size_t(height)}, {16, 4}));
    std::vector<float> out = read<float>(mout, width * height);
    for (int i = 0; i < width * height; ++i)
      ASSERT_EQ(out[i], 2.0f * in[i] + float(i % width)) << "shift " << shift << ", i " << i;
  }
}

// A global offset just below 2^32 along x: the first work-items' int x is
// negative (the offset converted to int), the rest count up from 0.
TEST_F(WideIndices, OffsetsThatMakeIndicesNegative) {
  cl_kernel k = kernel(R"CLC(
    kernel void from_offset(global const int *in, global int *out, int width, int back) {
      int x = get_global_id(0), y = get_global_id(1);
      int i = y * width + x + back;
      out[i] = in[i] * 5 - x;
    }
  )CLC",
                       "from_offset");
  ASSERT_NE(k, nullptr);
  const int width = 256, height = 8;
  std::vector<int> in = randomValues<int>(width * height, -1000, 1000);
  cl_mem min = bufferFrom(in);
  for (int back : {1, 16, 100}) {
    size_t offset = (size_t(1) << 32) - size_t(back);
    cl_mem mout = bufferFrom(std::vector<int>(width * height, INT_MIN));
    ASSERT_TRUE(setArgs(k, min, mout, cl_int(width), cl_int(back)));
    ASSERT_TRUE(run(k, {size_t(width), size_t(height)}, {32, 2}, {offset, 0}));
    std::vector<int> out = read<int>(mout, width * height);
    for (int y = 0; y < height; ++y)
      for (int j = 0; j < width; ++j) {
        int x = j - back, i = y * width + j;
        ASSERT_EQ(out[i], in[i] * 5 - x) << "back " << back << ", x " << x << ", y " << y;
      }
  }
}

}  // namespace
}  // namespace lockstep::test

// Kernels that walk a 2-D array with a 1-D range, `x = gid % width` and
// `y = gid / width`: the compiler runs their loops over the work-items in
// runs that share the quotient (DivisionRunsPass) when the divisor is at
// least 16 and, for signed division, the dividends are not negative, and as
// written otherwise. Results against the host for widths that are and are
// not multiples of the group, widths below 16, widths the program defines,
// AMD's SimpleConvolution
// (unsigned window loops bounded by the row), unsigned ids that wrap inside
// a group, negative dividends and divisors, and 64-bit ids.
#include <algorithm>
#include <climits>
#include <cstdint>

#include "ClTest.h"

namespace lockstep::test {
namespace {

class DivisionRuns : public ClTest {};

TEST_F(DivisionRuns, ImageWalkedByALinearRange) {
  cl_kernel k = kernel(R"CLC(
    kernel void edges(global const int *in, global int *out, int W, int H) {
      int gid = get_global_id(0);
      int x = gid % W, y = gid / W;
      if (y >= H) return;
      int right = in[y * W + clamp(x + 1, 0, W - 1)], left = in[y * W + clamp(x - 1, 0, W - 1)];
      int up = y > 0 ? in[(y - 1) * W + x] : 0;
      out[gid] = right - left + 3 * up + x - 2 * y;
    }
  )CLC",
                       "edges");
  ASSERT_NE(k, nullptr);
  for (int W : {1, 5, 15, 16, 17, 100, 256, 1000}) {
    for (size_t local : {size_t(0), size_t(64), size_t(256)}) {
      const int H = 23;
      std::vector<int> in = randomValues<int>(size_t(W) * H, -1000, 1000);
      cl_mem min = bufferFrom(in);
      size_t n = size_t(W) * H, global = local ? (n + local - 1) / local * local : n;
      cl_mem mout = bufferFrom(std::vector<int>(global, INT_MIN));
      ASSERT_TRUE(setArgs(k, min, mout, cl_int(W), cl_int(H)));
      ASSERT_TRUE(local ? run(k, {global}, {local}) : run(k, {global}));
      std::vector<int> out = read<int>(mout, global);
      for (size_t g = 0; g < global; ++g) {
        int x = int(g) % W, y = int(g) / W;
        int want = INT_MIN;
        if (y < H) {
          int right = in[y * W + std::clamp(x + 1, 0, W - 1)], left = in[y * W + std::clamp(x - 1, 0, W - 1)];
          int up = y > 0 ? in[(y - 1) * W + x] : 0;
          want = right - left + 3 * up + x - 2 * y;
        }
        ASSERT_EQ(out[g], want) << "W " << W << ", local " << local << ", gid " << g;
      }
    }
  }
}

// AMD APP SDK's SimpleConvolution: unsigned loops from the work-item's row
// and column to the mask's end, behind a guard on both.
TEST_F(DivisionRuns, ConvolutionWindowsBoundedByTheRow) {
  cl_kernel k = kernel(R"CLC(
    kernel void conv(global const uint *input, global const float *mask, global int *output,
                     uint2 inputDimensions, uint2 maskDimensions, uint nExWidth) {
      uint tid = get_global_id(0);
      uint width = inputDimensions.x, height = inputDimensions.y;
      uint x = tid % width, y = tid / width;
      uint maskWidth = maskDimensions.x, maskHeight = maskDimensions.y;
      if (x >= width || y >= height) return;
      float sum = 0.0f;
      int m = 0, n = 0;
      for (uint j = y; j < y + maskHeight; ++j, m++) {
        n = 0;
        for (uint i = x; i < x + maskWidth; ++i, n++)
          sum += (float)input[j * nExWidth + i] * mask[m * maskWidth + n];
      }
      output[tid] = (int)(sum + 0.5f);
    }
  )CLC",
                       "conv");
  ASSERT_NE(k, nullptr);
  for (uint32_t width : {7u, 16u, 33u, 300u}) {
    for (uint32_t maskSize : {1u, 3u, 5u}) {
      const uint32_t height = 19, exWidth = width + maskSize - 1, exHeight = height + maskSize - 1;
      std::vector<uint32_t> input = randomValues<uint32_t>(size_t(exWidth) * exHeight, 0u, 255u);
      std::vector<float> mask = randomValues<float>(size_t(maskSize) * maskSize, -2.0f, 2.0f);
      cl_mem mi = bufferFrom(input), mm = bufferFrom(mask);
      const size_t local = 64, global = (size_t(width) * height + local - 1) / local * local;
      cl_mem mo = bufferFrom(std::vector<int>(global, INT_MIN));
      ASSERT_TRUE(setArgs(k, mi, mm, mo, cl_uint2{{width, height}}, cl_uint2{{maskSize, maskSize}}, exWidth));
      ASSERT_TRUE(run(k, {global}, {local}));
      std::vector<int> out = read<int>(mo, global);
      for (size_t g = 0; g < global; ++g) {
        uint32_t x = uint32_t(g) % width, y = uint32_t(g) / width;
        int want = INT_MIN;
        if (y < height) {
          float sum = 0.0f;
          for (uint32_t m = 0; m < maskSize; ++m)
            for (uint32_t n = 0; n < maskSize; ++n)
              sum += float(input[(y + m) * exWidth + x + n]) * mask[m * maskSize + n];
          want = int(sum + 0.5f);
        }
        // The kernel may contract the products and sums: a float's last bits.
        ASSERT_NEAR(out[g], want, 1) << "width " << width << ", mask " << maskSize << ", gid " << g;
      }
    }
  }
}

// `uint` ids from a global offset just below 2^32: they wrap to 0 inside a
// group, where the quotient starts again.
TEST_F(DivisionRuns, UnsignedIdsThatWrapInAGroup) {
  cl_kernel k = kernel(R"CLC(
    kernel void split(global uint *out, uint w, ulong offset) {
      uint tid = get_global_id(0);
      out[2 * (get_global_id(0) - offset)] = tid / w;
      out[2 * (get_global_id(0) - offset) + 1] = tid % w;
    }
  )CLC",
                       "split");
  ASSERT_NE(k, nullptr);
  for (uint32_t w : {3u, 16u, 17u, 1000u, 0x80000001u}) {
    for (uint64_t back : {uint64_t(1), uint64_t(100), uint64_t(300)}) {
      const size_t n = 1024, local = 256;
      uint64_t offset = (uint64_t(1) << 32) - back;
      cl_mem mout = bufferFrom(std::vector<uint32_t>(2 * n, 0xDEADBEEF));
      ASSERT_TRUE(setArgs(k, mout, cl_uint(w), cl_ulong(offset)));
      ASSERT_TRUE(run(k, {n}, {local}, {size_t(offset)}));
      std::vector<uint32_t> out = read<uint32_t>(mout, 2 * n);
      for (size_t i = 0; i < n; ++i) {
        uint32_t tid = uint32_t(offset + i);
        ASSERT_EQ(out[2 * i], tid / w) << "w " << w << ", back " << back << ", i " << i;
        ASSERT_EQ(out[2 * i + 1], tid % w) << "w " << w << ", back " << back << ", i " << i;
      }
    }
  }
}

// `int` dividends that start negative, or overflow, and negative divisors:
// C's division rounds toward zero, which the runs (unsigned) do not; those
// launches run the loop as written.
TEST_F(DivisionRuns, SignedDividendsAndDivisors) {
  cl_kernel k = kernel(R"CLC(
    kernel void signed_split(global int *out, int w, int bias) {
      int t = (int)get_global_id(0) + bias;
      out[2 * get_global_id(0)] = t / w;
      out[2 * get_global_id(0) + 1] = t % w;
    }
  )CLC",
                       "signed_split");
  ASSERT_NE(k, nullptr);
  for (int w : {-37, -16, 5, 16, 100}) {
    for (int bias : {0, -500, -3, INT_MAX - 600}) {
      const size_t n = 1024;
      cl_mem mout = bufferFrom(std::vector<int>(2 * n, INT_MIN));
      ASSERT_TRUE(setArgs(k, mout, cl_int(w), cl_int(bias)));
      ASSERT_TRUE(run(k, {n}, {128}));
      std::vector<int> out = read<int>(mout, 2 * n);
      for (size_t i = 0; i < n; ++i) {
        int t = int(uint32_t(i) + uint32_t(bias));
        ASSERT_EQ(out[2 * i], t / w) << "w " << w << ", bias " << bias << ", i " << i;
        ASSERT_EQ(out[2 * i + 1], t % w) << "w " << w << ", bias " << bias << ", i " << i;
      }
    }
  }
}

// Widths the program defines: divisions by constants, and the shifts and
// masks InstCombine makes of powers of two, with group sizes that straddle
// the rows and a global offset.
TEST_F(DivisionRuns, ConstantWidths) {
  const char *source = R"CLC(
    kernel void tiles(global const int *in, global int *out, int H) {
      int gid = get_global_id(0);
      int x = gid % W, y = gid / W;
      uint u = get_global_id(0);
      if (y >= H) return;
      out[gid] = in[y * W + x] * 7 + in[y * W + min(x + 1, W - 1)] - x + (int)(u / 64u) * 3 + (int)(u % 64u);
    }
  )CLC";
  for (int W : {48, 64, 1000, 1024}) {
    cl_kernel k = kernel(source, "tiles", "-DW=" + std::to_string(W));
    ASSERT_NE(k, nullptr);
    for (size_t offset : {size_t(0), size_t(40)}) {
      const int H = 21;
      const size_t n = size_t(W) * H, local = 96, global = (n - offset + local - 1) / local * local;
      std::vector<int> in = randomValues<int>(n, -1000, 1000);
      cl_mem min = bufferFrom(in);
      cl_mem mout = bufferFrom(std::vector<int>(offset + global, INT_MIN));
      ASSERT_TRUE(setArgs(k, min, mout, cl_int(H)));
      ASSERT_TRUE(run(k, {global}, {local}, {offset}));
      std::vector<int> out = read<int>(mout, offset + global);
      for (size_t g = offset; g < offset + global; ++g) {
        int x = int(g) % W, y = int(g) / W;
        int want = INT_MIN;
        if (y < H)
          want = in[y * W + x] * 7 + in[y * W + std::min(x + 1, W - 1)] - x + int(g / 64) * 3 + int(g % 64);
        ASSERT_EQ(out[g], want) << "W " << W << ", offset " << offset << ", gid " << g;
      }
    }
  }
}

// 64-bit ids divided by a size_t width, with a 2-D range whose rows the
// division ignores.
TEST_F(DivisionRuns, SizeTIds) {
  cl_kernel k = kernel(R"CLC(
    kernel void wide(global const float *in, global float *out, ulong W) {
      size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
      size_t x = i % W, y = i / W;
      out[i] = in[y * W + x] * 2.0f + (float)x - (float)y;
    }
  )CLC",
                       "wide");
  ASSERT_NE(k, nullptr);
  for (uint64_t W : {uint64_t(10), uint64_t(64), uint64_t(77)}) {
    const size_t columns = 96, rows = 8, n = columns * rows;
    std::vector<float> in = randomValues<float>(n, -1.0f, 1.0f);
    cl_mem min = bufferFrom(in);
    cl_mem mout = bufferFrom(std::vector<float>(n, -1.0f));
    ASSERT_TRUE(setArgs(k, min, mout, cl_ulong(W)));
    ASSERT_TRUE(run(k, {columns, rows}, {32, 2}));
    std::vector<float> out = read<float>(mout, n);
    for (size_t i = 0; i < n; ++i)
      ASSERT_EQ(out[i], in[i] * 2.0f + float(i % W) - float(i / W)) << "W " << W << ", i " << i;
  }
}

}  // namespace
}  // namespace lockstep::test

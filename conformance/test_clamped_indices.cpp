// Kernels that clamp their indices into an array (the edges of a stencil or
// a blur repeated outward): the compiler runs the work-items whose clamps
// change nothing in a loop without the clamps (InteriorVersioningPass), and
// the others as written. Results against the host for arrays shorter and
// longer than a work-group, groups that straddle one edge, both edges or
// none, global offsets (one that takes the int index through INT_MAX),
// indices that run backwards, unsigned 64-bit clamps, and bounds tests that
// the interior settles.
#include <algorithm>
#include <climits>

#include "ClTest.h"

namespace lockstep::test {
namespace {

class ClampedIndices : public ClTest {};

int clampInt(int64_t v, int lo, int hi) {
  return int(std::min<int64_t>(std::max<int64_t>(v, lo), hi));
}

// The work-item's int index as the kernel computes it: the global id
// converted to int (two's complement, as OpenCL C converts).
int asInt(size_t id) { return int(uint32_t(id)); }

TEST_F(ClampedIndices, StencilWithEdgesRepeated) {
  cl_kernel k = kernel(R"CLC(
    kernel void stencil(global const int *in, global int *out, int n) {
      int x = get_global_id(0);
      size_t slot = get_global_id(0) - get_global_offset(0);
      int s = 0;
      for (int d = -3; d <= 3; ++d) s += (d + 4) * in[clamp(x + d, 0, n - 1)];
      if (x >= 0 && x < n) out[slot] = s;
    }
  )CLC",
                       "stencil");
  ASSERT_NE(k, nullptr);
  for (int n : {1, 2, 5, 16, 17, 100, 1000}) {
    std::vector<int> in = randomValues<int>(n, -1000, 1000);
    cl_mem min = bufferFrom(in);
    for (size_t local : {size_t(1), size_t(7), size_t(16), size_t(64), size_t(256)}) {
      for (size_t offset : {size_t(0), size_t(5)}) {
        size_t global = (n + local - 1) / local * local;
        std::vector<int> poison(global, INT_MIN);
        cl_mem mout = bufferFrom(poison);
        ASSERT_TRUE(setArgs(k, min, mout, cl_int(n)));
        ASSERT_TRUE(run(k, {global}, {local}, {offset}));
        std::vector<int> out = read<int>(mout, global);
        for (size_t slot = 0; slot < global; ++slot) {
          int x = asInt(slot + offset);
          int want = INT_MIN;
          if (x >= 0 && x < n) {
            want = 0;
            for (int d = -3; d <= 3; ++d) want += (d + 4) * in[clampInt(int64_t(x) + d, 0, n - 1)];
          }
          ASSERT_EQ(out[slot], want)
              << "n " << n << ", local " << local << ", offset " << offset << ", slot " << slot;
        }
      }
    }
  }
}

TEST_F(ClampedIndices, IndicesThatRunBackwards) {
  cl_kernel k = kernel(R"CLC(
    kernel void mirror(global const float *in, global float *out, int n) {
      int x = get_global_id(0);
      int r = n - 1 - x;
      float s = in[min(max(r - 1, 0), n - 1)] + 2.0f * in[min(max(r, 0), n - 1)] +
                in[min(max(r + 1, 0), n - 1)];
      out[x] = s;
    }
  )CLC",
                       "mirror");
  ASSERT_NE(k, nullptr);
  for (int n : {3, 64, 333}) {
    std::vector<float> in = randomValues<float>(n, -1.0f, 1.0f);
    cl_mem min = bufferFrom(in);
    cl_mem mout = buffer(CL_MEM_WRITE_ONLY, n * sizeof(float));
    for (size_t local : {size_t(1), size_t(3), size_t(n)}) {
      if (n % local) continue;
      ASSERT_TRUE(setArgs(k, min, mout, cl_int(n)));
      ASSERT_TRUE(run(k, {size_t(n)}, {local}));
      std::vector<float> out = read<float>(mout, n);
      for (int x = 0; x < n; ++x) {
        int r = n - 1 - x;
        float want = in[clampInt(r - 1, 0, n - 1)] + 2.0f * in[clampInt(r, 0, n - 1)] +
                     in[clampInt(r + 1, 0, n - 1)];
        ASSERT_EQ(out[x], want) << "n " << n << ", local " << local << ", x " << x;
      }
    }
  }
}

// A 64-bit index clamped from above only (umin): the groups past the end
// repeat the last element.
TEST_F(ClampedIndices, UnsignedClampOfTheGlobalId) {
  cl_kernel k = kernel(R"CLC(
    kernel void tail(global const long *in, global long *out, ulong n) {
      size_t i = get_global_id(0);
      out[i] = in[min(i + 1, (size_t)n - 1)] - in[min(i, (size_t)n - 1)];
    }
  )CLC",
                       "tail");
  ASSERT_NE(k, nullptr);
  const size_t n = 200;
  std::vector<cl_long> in = randomValues<cl_long>(n, -100000, 100000);
  cl_mem min = bufferFrom(in);
  for (size_t global : {size_t(64), size_t(200), size_t(256)}) {
    cl_mem mout = buffer(CL_MEM_WRITE_ONLY, global * sizeof(cl_long));
    for (size_t local : {size_t(8), size_t(64)}) {
      if (global % local) continue;
      ASSERT_TRUE(setArgs(k, min, mout, cl_ulong(n)));
      ASSERT_TRUE(run(k, {global}, {local}));
      std::vector<cl_long> out = read<cl_long>(mout, global);
      for (size_t i = 0; i < global; ++i)
        ASSERT_EQ(out[i], in[std::min(i + 1, n - 1)] - in[std::min(i, n - 1)])
            << "global " << global << ", local " << local << ", i " << i;
    }
  }
}

// An offset that takes the int index past INT_MAX: the clamps see it wrap
// to INT_MIN inside a group.
TEST_F(ClampedIndices, IndexThatWrapsInsideAGroup) {
  cl_kernel k = kernel(R"CLC(
    kernel void wrap(global const int *in, global int *out, int n) {
      int x = get_global_id(0);
      size_t slot = get_global_id(0) - get_global_offset(0);
      int before = as_int(as_uint(x) - 1u);  // wraps, where x - 1 would overflow
      out[slot] = in[clamp(before, 0, n - 1)] * 3 + in[clamp(x, 0, n - 1)] + (x < 0 ? 1000 : 0);
    }
  )CLC",
                       "wrap");
  ASSERT_NE(k, nullptr);
  const int n = 40;
  std::vector<int> in = randomValues<int>(n, -100, 100);
  cl_mem min = bufferFrom(in);
  const size_t global = 64;
  cl_mem mout = buffer(CL_MEM_WRITE_ONLY, global * sizeof(int));
  for (size_t offset : {size_t(INT_MAX) - 20, size_t(UINT_MAX) - 20}) {
    for (size_t local : {size_t(16), size_t(64)}) {
      ASSERT_TRUE(setArgs(k, min, mout, cl_int(n)));
      ASSERT_TRUE(run(k, {global}, {local}, {offset}));
      std::vector<int> out = read<int>(mout, global);
      for (size_t slot = 0; slot < global; ++slot) {
        int x = asInt(slot + offset);
        int before = int(uint32_t(x) - 1u);
        int want =
            in[clampInt(before, 0, n - 1)] * 3 + in[clampInt(x, 0, n - 1)] + (x < 0 ? 1000 : 0);
        ASSERT_EQ(out[slot], want)
            << "offset " << offset << ", local " << local << ", slot " << slot;
      }
    }
  }
}

// A 2D blur over rows in a buffer, with the guard against the launch's
// rounding up and a border read as 0 through a test (not a clamp).
TEST_F(ClampedIndices, BlurOfRowsWithBorderTests) {
  cl_kernel k = kernel(R"CLC(
    kernel void blur(global const float *in, global float *out, int w, int h) {
      int x = get_global_id(0), y = get_global_id(1);
      if (x >= w || y >= h) return;
      float s = 0.0f;
      for (int dy = -1; dy <= 1; ++dy) {
        int row = clamp(y + dy, 0, h - 1) * w;
        for (int dx = -1; dx <= 1; ++dx) s += in[row + clamp(x + dx, 0, w - 1)];
      }
      float left = x - 2 >= 0 ? in[y * w + x - 2] : 0.0f;
      out[y * w + x] = s + left;
    }
  )CLC",
                       "blur");
  ASSERT_NE(k, nullptr);
  for (auto [w, h] : {std::pair{1, 1}, std::pair{2, 3}, std::pair{37, 5}, std::pair{130, 9}}) {
    std::vector<float> in = randomValues<float>(size_t(w) * h, -1.0f, 1.0f);
    cl_mem min = bufferFrom(in);
    cl_mem mout = buffer(CL_MEM_WRITE_ONLY, size_t(w) * h * sizeof(float));
    for (auto [lx, ly] : {std::pair{size_t(1), size_t(1)}, std::pair{size_t(16), size_t(2)},
                          std::pair{size_t(64), size_t(1)}, std::pair{size_t(4), size_t(4)}}) {
      size_t gx = (w + lx - 1) / lx * lx, gy = (h + ly - 1) / ly * ly;
      ASSERT_TRUE(setArgs(k, min, mout, cl_int(w), cl_int(h)));
      ASSERT_TRUE(run(k, {gx, gy}, {lx, ly}));
      std::vector<float> out = read<float>(mout, size_t(w) * h);
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          float s = 0.0f;
          for (int dy = -1; dy <= 1; ++dy) {
            int row = clampInt(y + dy, 0, h - 1) * w;
            for (int dx = -1; dx <= 1; ++dx) s += in[row + clampInt(x + dx, 0, w - 1)];
          }
          float left = x - 2 >= 0 ? in[y * w + x - 2] : 0.0f;
          ASSERT_EQ(out[y * w + x], s + left)
              << w << "x" << h << ", local " << lx << "x" << ly << ", at " << x << "," << y;
        }
    }
  }
}

// Border tests without clamps (`x == 0 || x == n - 1`, `x != c`): the
// interior of a run is where the run does not reach the tested values, which
// may fall at its start, its end, near its middle (both sides of it), outside
// it, or twice in it; the index runs forwards and backwards, from offsets
// that take it through INT_MAX, in runs shorter and longer than 64.
TEST_F(ClampedIndices, EqualityTestsOfTheIndex) {
  cl_kernel k = kernel(R"CLC(
    kernel void border(global const int *in, global int *out, int n, int c, int flip) {
      int x = get_global_id(0);
      size_t slot = get_global_id(0) - get_global_offset(0);
      int r = flip ? (int)(get_global_size(0) - 1 - slot) : x;
      int v = in[slot];
      int s;
      if (r == 0 || r == n - 1) s = v;
      else s = v * 3 + (r != c ? 1 : 100);
      out[slot] = s + (r == c ? 7 : 0);
    }
  )CLC",
                       "border");
  ASSERT_NE(k, nullptr);
  for (size_t global : {size_t(48), size_t(256), size_t(1000)}) {
    std::vector<int> in = randomValues<int>(global, -1000, 1000);
    cl_mem min = bufferFrom(in);
    cl_mem mout = buffer(CL_MEM_WRITE_ONLY, global * sizeof(int));
    for (size_t local : {size_t(0), size_t(16), size_t(64), size_t(200), size_t(256)}) {
      if (local != 0 && global % local != 0) continue;
      for (size_t offset : {size_t(0), size_t(7), size_t(INT_MAX) - 100}) {
        for (int flip : {0, 1}) {
          const int64_t first = flip ? 0 : asInt(offset);
          for (int64_t n : {first + 1, first + 30, first + 100, first + int64_t(global)}) {
            for (int64_t c : {first, first + 1, first + 31, first + 32, first + 500, int64_t(-5)}) {
              // Values past INT_MAX would make `n - 1` overflow in the kernel.
              if (n > INT_MAX || c > INT_MAX) continue;
              ASSERT_TRUE(setArgs(k, min, mout, cl_int(n), cl_int(c), cl_int(flip)));
              if (local == 0) ASSERT_TRUE(run(k, {global}, {}, {offset}));
              else ASSERT_TRUE(run(k, {global}, {local}, {offset}));
              std::vector<int> out = read<int>(mout, global);
              for (size_t slot = 0; slot < global; ++slot) {
                int x = asInt(slot + offset);
                int r = flip ? int(global - 1 - slot) : x;
                int v = in[slot];
                int want = (r == 0 || r == n - 1) ? v : v * 3 + (r != c ? 1 : 100);
                want += r == c ? 7 : 0;
                ASSERT_EQ(out[slot], want) << "global " << global << ", local " << local << ", offset " << offset
                                           << ", flip " << flip << ", n " << n << ", c " << c << ", slot "
                                           << slot;
              }
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace lockstep::test

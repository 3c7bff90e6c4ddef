// Loops behind a guard that only some work-items of a group pass: the groups
// at the grid's edges run a version of the kernel that masks the loop for the
// work-items the guard kept out (GuardedLoops.cpp, KernelVersions.cpp), the
// other groups the kernel's own body (a copy of the loop for groups whose
// work-items all pass, the loop whole per work-item in a group the guard
// splits anyway). Every result is checked against the host's: Parboil's
// z-marching 3-D stencil behind `i >= nx - 1 || j >= ny - 1` at grid sizes
// whose last groups the guard splits and sizes it does not, with several
// group shapes and a NULL local size; a 1-D filter behind a guard at both
// ends (the first and the last group split), with a global offset; a 2-D
// launch whose remainder groups (OpenCL C 2.0) are its edges; a guard on
// the data, which splits groups inside the grid; and nothing written by the
// work-items the guard keeps out. Integer arithmetic, so that every result
// is exact.
#include <cstdint>

#include "ClTest.h"

namespace lockstep::test {
namespace {

const char *kGuarded = R"CLC(
#define AT(nx, ny, i, j, k) ((i) + (nx) * ((j) + (ny) * (k)))
// Parboil's stencil, on ints: each work-item marches along z, carrying the
// planes below and at it.
kernel void stencil(global const int *a0, global int *an, int nx, int ny, int nz) {
  int i = get_global_id(0) + 1;
  int j = get_global_id(1) + 1;
  if (i >= nx - 1 || j >= ny - 1) return;
  int bottom = a0[AT(nx, ny, i, j, 0)];
  int current = a0[AT(nx, ny, i, j, 1)];
  for (int k = 1; k < nz - 1; k++) {
    int top = a0[AT(nx, ny, i, j, k + 1)];
    an[AT(nx, ny, i, j, k)] = top + bottom + a0[AT(nx, ny, i, j + 1, k)] + a0[AT(nx, ny, i, j - 1, k)] +
                              a0[AT(nx, ny, i + 1, j, k)] + a0[AT(nx, ny, i - 1, j, k)] - 3 * current;
    bottom = current;
    current = top;
  }
}
// A filter over [lo, hi): the first and the last groups split.
kernel void filter(global const int *in, global int *out, int lo, int hi, int taps) {
  int x = get_global_id(0);
  if (x < lo || x >= hi) return;
  int acc = 0;
  for (int k = 0; k < taps; k++) acc += in[x + k] * (k + 1);
  out[x] = acc;
}
// A guard on the data: the groups it splits lie anywhere.
kernel void on_data(global const int *keep, global const int *in, global int *out, int rounds) {
  int x = get_global_id(0);
  if (keep[x] == 0) return;
  uint acc = x;
  for (int r = 0; r < rounds; r++) acc = acc * 3u + (uint)in[(x + r) % 97];
  out[x] = (int)acc;
}
// Rows of a matrix, a row per work-item along y and a column per
// work-item along x, each summing the column over the rows up to its own
// (every row read, the later ones times 0: one loop for all).
kernel void prefix_columns(global const int *m, global int *out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h) return;
  int acc = 0;
  for (int r = 0; r < h; r++) acc += m[r * w + x] * (r <= y);
  out[y * w + x] = acc;
}
)CLC";

constexpr int kUntouched = -12345;

class EdgeGroups : public ClTest {};

std::vector<int> hostStencil(const std::vector<int> &a0, int nx, int ny, int nz) {
  std::vector<int> an(a0.size(), kUntouched);
  auto at = [&](int i, int j, int k) { return size_t(i + nx * (j + ny * k)); };
  for (int j = 1; j < ny - 1; ++j)
    for (int i = 1; i < nx - 1; ++i)
      for (int k = 1; k < nz - 1; ++k)
        an[at(i, j, k)] = a0[at(i, j, k + 1)] + a0[at(i, j, k - 1)] + a0[at(i, j + 1, k)] +
                          a0[at(i, j - 1, k)] + a0[at(i + 1, j, k)] + a0[at(i - 1, j, k)] -
                          3 * a0[at(i, j, k)];
  return an;
}

size_t roundUp(size_t n, size_t multiple) { return (n + multiple - 1) / multiple * multiple; }

TEST_F(EdgeGroups, ZMarchingStencil) {
  cl_kernel stencil = kernel(kGuarded, "stencil");
  ASSERT_NE(stencil, nullptr);
  struct Case {
    int nx, ny;
    size_t lx, ly;  // 0: a NULL local size
  };
  // 66 x 66: the guard splits the last groups along both dimensions; 34 x
  // 34 in 32 x 4 groups: it splits none; odd sizes; one group along x.
  const Case cases[] = {{66, 66, 32, 4}, {34, 34, 32, 4}, {66, 66, 16, 16},
                        {37, 21, 8, 4},  {40, 9, 16, 16}, {300, 5, 64, 1},
                        {66, 66, 1, 1},  {66, 66, 0, 0},  {37, 21, 0, 0}};
  const int nz = 7;
  for (const Case &c : cases) {
    if (c.lx * c.ly > kernelMaxGroupSize(stencil)) continue;
    std::vector<int> a0 = randomValues<int>(size_t(c.nx) * c.ny * nz, -1000, 1000);
    std::vector<int> want = hostStencil(a0, c.nx, c.ny, nz);
    cl_mem ma = bufferFrom(a0), mn = bufferFrom(std::vector<int>(a0.size(), kUntouched));
    ASSERT_TRUE(setArgs(stencil, ma, mn, cl_int(c.nx), cl_int(c.ny), cl_int(nz)));
    size_t gx = size_t(c.nx - 2), gy = size_t(c.ny - 2);
    if (c.lx != 0) {
      gx = roundUp(gx, c.lx);
      gy = roundUp(gy, c.ly);
    }
    ASSERT_TRUE(
        run(stencil, {gx, gy}, c.lx ? std::vector<size_t>{c.lx, c.ly} : std::vector<size_t>{}));
    EXPECT_EQ(read<int>(mn, a0.size()), want)
        << c.nx << " x " << c.ny << " in " << c.lx << " x " << c.ly;
  }
}

TEST_F(EdgeGroups, FilterSplitAtBothEnds) {
  cl_kernel filter = kernel(kGuarded, "filter");
  ASSERT_NE(filter, nullptr);
  const int taps = 9;
  for (size_t local : {1u, 7u, 64u, 256u}) {
    if (local > kernelMaxGroupSize(filter)) continue;
    for (size_t offset : {0u, 5u}) {
      const size_t global = local * 6;
      const int lo = 3, hi = int(offset + global) - 5;
      std::vector<int> in = randomValues<int>(offset + global + taps, -100, 100);
      std::vector<int> want(offset + global, kUntouched);
      for (int x = std::max<int>(lo, int(offset)); x < hi; ++x) {
        int acc = 0;
        for (int k = 0; k < taps; ++k) acc += in[size_t(x + k)] * (k + 1);
        want[size_t(x)] = acc;
      }
      cl_mem mi = bufferFrom(in), mo = bufferFrom(std::vector<int>(want.size(), kUntouched));
      ASSERT_TRUE(setArgs(filter, mi, mo, cl_int(lo), cl_int(hi), cl_int(taps)));
      ASSERT_TRUE(run(filter, {global}, {local}, {offset}));
      EXPECT_EQ(read<int>(mo, want.size()), want) << "local " << local << ", offset " << offset;
    }
  }
}

TEST_F(EdgeGroups, GuardOnTheData) {
  cl_kernel onData = kernel(kGuarded, "on_data");
  ASSERT_NE(onData, nullptr);
  const size_t n = 64 * 16;
  std::vector<int> keep = randomValues<int>(n, 0, 1), in = randomValues<int>(97, -50, 50);
  // Whole groups kept and whole groups left out too.
  for (size_t i = 64; i < 128; ++i) keep[i] = 1;
  for (size_t i = 128; i < 192; ++i) keep[i] = 0;
  for (int rounds : {0, 1, 13}) {
    std::vector<int> want(n, kUntouched);
    for (size_t x = 0; x < n; ++x) {
      if (keep[x] == 0) continue;
      uint32_t acc = uint32_t(x);
      for (int r = 0; r < rounds; ++r) acc = acc * 3u + uint32_t(in[(x + size_t(r)) % 97]);
      want[x] = int(acc);
    }
    cl_mem mk = bufferFrom(keep), mi = bufferFrom(in),
           mo = bufferFrom(std::vector<int>(n, kUntouched));
    ASSERT_TRUE(setArgs(onData, mk, mi, mo, cl_int(rounds)));
    ASSERT_TRUE(run(onData, {n}, {64}));
    EXPECT_EQ(read<int>(mo, n), want) << rounds << " rounds";
  }
}

TEST_F(EdgeGroups, RemainderGroupsAreEdges) {
  if (!offersOpenCLC(2, 0)) GTEST_SKIP() << "OpenCL C 2.0 (non-uniform groups) is not offered";
  cl_kernel prefix = kernel(kGuarded, "prefix_columns", "-cl-std=CL2.0");
  ASSERT_NE(prefix, nullptr);
  const int w = 100, h = 37;
  std::vector<int> m = randomValues<int>(size_t(w) * h, -9, 9), want(m.size());
  for (int x = 0; x < w; ++x) {
    int acc = 0;
    for (int y = 0; y < h; ++y) want[size_t(y * w + x)] = acc += m[size_t(y * w + x)];
  }
  // Groups of 16 x 8 over 100 x 37: remainder groups along both; and a
  // grid larger than the matrix, whose last groups the guard splits.
  for (auto [gx, gy] : {std::pair<size_t, size_t>{100, 37}, {112, 40}}) {
    cl_mem mm = bufferFrom(m), mo = bufferFrom(std::vector<int>(m.size(), kUntouched));
    ASSERT_TRUE(setArgs(prefix, mm, mo, cl_int(w), cl_int(h)));
    ASSERT_TRUE(run(prefix, {gx, gy}, {16, 8}));
    EXPECT_EQ(read<int>(mo, m.size()), want) << gx << " x " << gy;
  }
}

}  // namespace
}  // namespace lockstep::test

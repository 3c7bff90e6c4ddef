// Values a kernel computes with ternaries and `&&` before its barriers and
// uses after them, and bools kept per work-item across barriers: the
// compiler makes such ifs selects (DiamondSelects.cpp) and recomputes them
// after each barrier, and keeps the bools as bytes in the context
// (ContextLayout.cpp). Results against the host for Rodinia's pathfinder
// (clamped neighbours, a validity test and a `computed` flag across a loop of
// barriers that ends with a break) at widths that leave the last group
// partial, one column, and pyramids of 1 to 20 rows; arms that must not run
// for every work-item (a division by a zero, a load past the end); and flags
// set, kept and changed across several barriers at local sizes 1 to 256.
#include <algorithm>
#include <climits>

#include "ClTest.h"

namespace lockstep::test {
namespace {

class BarrierSelects : public ClTest {};

const char *kPathfinder = R"CLC(
#define IN_RANGE(x, min, max) ((x) >= (min) && (x) <= (max))
#define MIN(a, b) ((a) <= (b) ? (a) : (b))
kernel void dynproc(int iteration, global const int *wall, global const int *src, global int *results,
                    int cols, int startStep, int border, local int *prev, local int *result) {
  int BLOCK = get_local_size(0);
  int bx = get_group_id(0);
  int tx = get_local_id(0);
  int small_block_cols = BLOCK - iteration * 2;
  int blkX = small_block_cols * bx - border;
  int blkXmax = blkX + BLOCK - 1;
  int xidx = blkX + tx;
  int validXmin = (blkX < 0) ? -blkX : 0;
  int validXmax = (blkXmax > cols - 1) ? BLOCK - 1 - (blkXmax - cols + 1) : BLOCK - 1;
  int W = tx - 1;
  int E = tx + 1;
  W = (W < validXmin) ? validXmin : W;
  E = (E > validXmax) ? validXmax : E;
  bool isValid = IN_RANGE(tx, validXmin, validXmax);
  if (IN_RANGE(xidx, 0, cols - 1)) prev[tx] = src[xidx];
  barrier(CLK_LOCAL_MEM_FENCE);
  bool computed;
  for (int i = 0; i < iteration; i++) {
    computed = false;
    if (IN_RANGE(tx, i + 1, BLOCK - i - 2) && isValid) {
      computed = true;
      int shortest = MIN(prev[W], prev[tx]);
      shortest = MIN(shortest, prev[E]);
      result[tx] = shortest + wall[cols * (startStep + i) + xidx];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i == iteration - 1) break;
    if (computed) prev[tx] = result[tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (computed) results[xidx] = result[tx];
}
)CLC";

TEST_F(BarrierSelects, PathfinderMatchesTheHost) {
  cl_kernel k = kernel(kPathfinder, "dynproc");
  ASSERT_NE(k, nullptr);
  for (int cols : {1, 37, 300, 5000}) {
    const int rows = 24;
    std::vector<int> wall = randomValues<int>(size_t(rows) * cols, 0, 9);
    // Row by row: each cell adds its wall to the least of the three above,
    // the edges taking the nearest column.
    std::vector<int> want(wall.begin(), wall.begin() + cols);
    for (int r = 1; r < rows; ++r) {
      std::vector<int> next(cols);
      for (int x = 0; x < cols; ++x) {
        int best = want[x];
        if (x > 0) best = std::min(best, want[x - 1]);
        if (x < cols - 1) best = std::min(best, want[x + 1]);
        next[x] = best + wall[size_t(r) * cols + x];
      }
      want = next;
    }
    cl_mem mwall = bufferFrom(std::vector<int>(wall.begin() + cols, wall.end()));
    for (int block : {64, 256}) {
      for (int pyramid : {1, 3, 20}) {
        if (block <= 2 * pyramid) continue;
        int smallBlock = block - 2 * pyramid;
        int groups = (cols + smallBlock - 1) / smallBlock;
        std::vector<int> first(wall.begin(), wall.begin() + cols);
        cl_mem buffers[2] = {bufferFrom(first), bufferFrom(std::vector<int>(cols, -1))};
        int from = 0;
        for (int t = 0; t < rows - 1; t += pyramid) {
          int iteration = std::min(pyramid, rows - 1 - t);
          ASSERT_TRUE(setArgs(k, cl_int(iteration), mwall, buffers[from], buffers[1 - from],
                              cl_int(cols), cl_int(t), cl_int(pyramid),
                              LocalBytes{block * sizeof(int)}, LocalBytes{block * sizeof(int)}));
          ASSERT_TRUE(run(k, {size_t(groups) * block}, {size_t(block)}));
          from = 1 - from;
        }
        std::vector<int> got = read<int>(buffers[from], cols);
        for (int x = 0; x < cols; ++x)
          ASSERT_EQ(got[x], want[x]) << "cols " << cols << ", block " << block << ", pyramid "
                                     << pyramid << ", column " << x;
      }
    }
  }
}

// The arms of these ifs fault or read past the end where the work-item does
// not take them: they must stay behind their conditions.
TEST_F(BarrierSelects, ArmsThatMustNotRunStayBehindTheirConditions) {
  cl_kernel k = kernel(R"CLC(
    kernel void guarded(global const int *num, global const int *den, global const int *in, int n,
                        global int *out, local int *tile) {
      int i = get_global_id(0);
      int lid = get_local_id(0);
      int a = num[i], d = den[i];
      int q = d != 0 ? a / d : -7;
      int r = (d != 0 && a % d == 1) ? 1 : 0;
      int v = i < n ? in[i] : 1000;
      tile[lid] = v;
      barrier(CLK_LOCAL_MEM_FENCE);
      int next = tile[(lid + 1) % get_local_size(0)];
      barrier(CLK_LOCAL_MEM_FENCE);
      tile[lid] = q;
      barrier(CLK_LOCAL_MEM_FENCE);
      out[i] = q * 4 + r + v + next + tile[get_local_size(0) - 1 - lid];
    }
  )CLC",
                       "guarded");
  ASSERT_NE(k, nullptr);
  for (size_t local : {size_t(1), size_t(7), size_t(64), size_t(256)}) {
    size_t global = local * 5;
    int n = int(global) - int(local) / 2 - 1;  // `in` ends inside the last group
    std::vector<int> num = randomValues<int>(global, -1000, 1000);
    std::vector<int> den = randomValues<int>(global, -3, 3);  // zeros among them
    std::vector<int> in = randomValues<int>(std::max(n, 1), -50, 50);
    cl_mem mnum = bufferFrom(num), mden = bufferFrom(den), min = bufferFrom(in);
    cl_mem mout = bufferFrom(std::vector<int>(global, INT_MIN));
    ASSERT_TRUE(setArgs(k, mnum, mden, min, cl_int(n), mout, LocalBytes{local * sizeof(int)}));
    ASSERT_TRUE(run(k, {global}, {local}));
    std::vector<int> got = read<int>(mout, global);
    auto q = [&](size_t i) { return den[i] != 0 ? num[i] / den[i] : -7; };
    auto v = [&](size_t i) { return int(i) < n ? in[i] : 1000; };
    for (size_t i = 0; i < global; ++i) {
      size_t group = i / local * local, lid = i % local;
      int r = (den[i] != 0 && num[i] % den[i] == 1) ? 1 : 0;
      int want = q(i) * 4 + r + v(i) + v(group + (lid + 1) % local) + q(group + local - 1 - lid);
      ASSERT_EQ(got[i], want) << "local " << local << ", work-item " << i;
    }
  }
}

// Bools kept per work-item across barriers, changed between them.
TEST_F(BarrierSelects, FlagsKeptAcrossBarriers) {
  cl_kernel k = kernel(R"CLC(
    kernel void flags(global const int *in, global int *out, local int *tile) {
      int lid = get_local_id(0);
      int size = get_local_size(0);
      int x = in[get_global_id(0)];
      bool odd = (x & 1) != 0;
      bool big = x > 50 && lid != 0;
      tile[lid] = x;
      barrier(CLK_LOCAL_MEM_FENCE);
      int count = 0;
      for (int round = 0; round < 3; ++round) {
        bool neighbourOdd = (tile[(lid + round + 1) % size] & 1) != 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (odd && neighbourOdd) ++count;
        odd = odd != big;
        tile[lid] = x + round + (odd ? 1 : 0);
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      out[get_global_id(0)] = count * 4 + (odd ? 2 : 0) + (big ? 1 : 0);
    }
  )CLC",
                       "flags");
  ASSERT_NE(k, nullptr);
  for (size_t local : {size_t(1), size_t(7), size_t(16), size_t(64), size_t(256)}) {
    size_t global = local * 3;
    std::vector<int> in = randomValues<int>(global, 0, 100);
    cl_mem min = bufferFrom(in), mout = bufferFrom(std::vector<int>(global, -1));
    ASSERT_TRUE(setArgs(k, min, mout, LocalBytes{local * sizeof(int)}));
    ASSERT_TRUE(run(k, {global}, {local}));
    std::vector<int> got = read<int>(mout, global);
    for (size_t group = 0; group < global; group += local) {
      std::vector<int> tile(in.begin() + group, in.begin() + group + local);
      std::vector<bool> odd(local), big(local);
      std::vector<int> count(local, 0);
      for (size_t l = 0; l < local; ++l) {
        odd[l] = (tile[l] & 1) != 0;
        big[l] = tile[l] > 50 && l != 0;
      }
      for (int round = 0; round < 3; ++round) {
        std::vector<int> next = tile;
        for (size_t l = 0; l < local; ++l) {
          bool neighbourOdd = (tile[(l + round + 1) % local] & 1) != 0;
          if (odd[l] && neighbourOdd) ++count[l];
          odd[l] = odd[l] != big[l];
          next[l] = in[group + l] + round + (odd[l] ? 1 : 0);
        }
        tile = next;
      }
      for (size_t l = 0; l < local; ++l)
        ASSERT_EQ(got[group + l], count[l] * 4 + (odd[l] ? 2 : 0) + (big[l] ? 1 : 0))
            << "local " << local << ", work-item " << group + l;
    }
  }
}

}  // namespace
}  // namespace lockstep::test

// Memory accesses under a work-item condition. Vectorized, a conditional
// access that is not consecutive across work-items is a masked gather or
// scatter; Lockstep runs those only when a lane is active and turns those of
// one address into scalar accesses (MaskedMemoryGuardsPass). These kernels
// check, against host references, that every active work-item's access
// happens and no inactive one's does: at every position of a vector, in
// groups of every width the vectorizer handles (main loop, epilogue, scalar
// tail), and with the mask all-false for whole groups.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "ClTest.h"

namespace lockstep::test {
namespace {

class DivergentAccess : public LocalSizeTest {};
class TileAccess : public ClTest {};
class TreeScan : public ClTest {};
class ByteCounters : public ClTest {};

// One work-item (each position in turn) adds to a uniform counter, as
// `if (get_global_id(0) == 0) counter[0] += 1` does; then a group-sparse
// set of work-items adds to it twice per launch.
TEST_P(DivergentAccess, OneWorkItemUpdatesAUniformAddress) {
  cl_kernel k = kernel(R"CLC(
    kernel void k(global uint *counter, uint chosen, uint step) {
      uint i = get_global_id(0);
      if (i == chosen) counter[0] += i + 1;
      if (i % step == 0) atomic_add(&counter[1], 2);
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  const size_t local = GetParam(), global = local * 37;
  cl_mem counter = buffer(CL_MEM_READ_WRITE, 2 * sizeof(cl_uint));
  for (cl_uint chosen : {0u, 1u, 7u, 8u, 15u, 16u, 17u, 31u, 100u, cl_uint(global - 1)}) {
    if (chosen >= global) continue;
    const cl_uint zero[2] = {0, 0};
    ASSERT_CL(clEnqueueWriteBuffer(queue_, counter, CL_TRUE, 0, sizeof zero, zero, 0, nullptr,
                                   nullptr));
    cl_uint step = 3 + chosen % 50;
    ASSERT_TRUE(setArgs(k, counter, chosen, step));
    ASSERT_TRUE(run(k, {global}, {local}));
    std::vector<cl_uint> got = read<cl_uint>(counter, 2);
    EXPECT_EQ(got[0], chosen + 1) << "chosen work-item " << chosen;
    EXPECT_EQ(got[1], 2 * ((global + step - 1) / step)) << "step " << step;
  }
}

// Work-items store to addresses that are not consecutive, under a
// condition that holds for a few lanes of some vectors and none of others.
TEST_P(DivergentAccess, SparseScatterAndGather) {
  cl_kernel k = kernel(R"CLC(
    kernel void k(global const int *in, global int *out, global int *sparse, uint n, uint every) {
      uint i = get_global_id(0);
      int value = -1;
      if (i % every == 0) {
        value = in[(i * 7) % n] + in[0];      // gathered, and one address
        sparse[(i / every) * 3] = value * 2;  // scattered
      }
      out[i] = value;
    }
  )CLC",
                       "k", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  const size_t local = GetParam(), global = local * 29 + (local > 1 ? local / 2 : 0);
  std::vector<int> in(global);
  std::iota(in.begin(), in.end(), 1000);
  cl_mem mi = bufferFrom(in);
  cl_mem mo = buffer(CL_MEM_READ_WRITE, global * sizeof(int));
  for (cl_uint every : {1u, 5u, 16u, 33u, cl_uint(global)}) {
    size_t sparseCount = 3 * ((global + every - 1) / every);
    std::vector<int> sentinel(sparseCount, 77);
    cl_mem ms = bufferFrom(sentinel);
    ASSERT_TRUE(setArgs(k, mi, mo, ms, cl_uint(global), every));
    // Non-uniform groups: the last group is a remainder.
    ASSERT_TRUE(run(k, {global}, {local}));
    std::vector<int> out = read<int>(mo, global), sparse = read<int>(ms, sparseCount);
    for (size_t i = 0; i < global; ++i) {
      int want = i % every == 0 ? in[(i * 7) % global] + in[0] : -1;
      ASSERT_EQ(out[i], want) << "work-item " << i << ", every " << every;
    }
    for (size_t j = 0; j < sparseCount; ++j) {
      int want = j % 3 == 0 ? 2 * (in[(j / 3 * every * 7) % global] + in[0]) : 77;
      ASSERT_EQ(sparse[j], want) << "sparse[" << j << "], every " << every;
    }
  }
}

// Several work-items of a vector store to one address under a condition.
// They race, so which one's value is kept is not defined; it must be one of
// theirs, and a work-item whose condition is false never stores.
TEST_P(DivergentAccess, ConditionalStoresToOneAddress) {
  cl_kernel k = kernel(R"CLC(
    kernel void k(global int *slot, global const int *pick) {
      uint i = get_global_id(0);
      if (pick[i]) slot[get_group_id(0)] = (int)i;
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  const size_t local = GetParam(), groups = 23, global = local * groups;
  std::vector<int> pick(global, 0);
  std::uniform_int_distribution<int> coin(0, 9);
  for (size_t i = 0; i < global; ++i) pick[i] = coin(rng_) == 0;
  for (size_t g = 0; g < groups; g += 4)  // some groups store nothing
    std::fill(pick.begin() + g * local, pick.begin() + (g + 1) * local, 0);
  cl_mem mp = bufferFrom(pick);
  cl_mem slot = bufferFrom(std::vector<int>(groups, -5));
  ASSERT_TRUE(setArgs(k, slot, mp));
  ASSERT_TRUE(run(k, {global}, {local}));
  std::vector<int> got = read<int>(slot, groups);
  for (size_t g = 0; g < groups; ++g) {
    bool any = false;
    for (size_t i = g * local; i < (g + 1) * local; ++i) any |= pick[i] != 0;
    if (!any) {
      EXPECT_EQ(got[g], -5) << "group " << g << " has no picked work-item";
      continue;
    }
    ASSERT_GE(got[g], int(g * local)) << "group " << g;
    ASSERT_LT(got[g], int((g + 1) * local)) << "group " << g;
    EXPECT_TRUE(pick[got[g]]) << "group " << g << " kept unpicked work-item " << got[g];
  }
}

// A 2-D __local tile with a halo, filled through a linear index as GPU code
// does (`tile[i / W][i % W]`, which Lockstep flattens to `tile[0][i]`), a
// loop whose trip count differs between work-items; then each work-item
// reads its neighbours from it.
TEST_F(TileAccess, TileFilledThroughALinearIndex) {
  cl_kernel k = kernel(R"CLC(
    #define W 7
    kernel void k(global const int *in, global int *out, uint n) {
      local int tile[W + 2][W + 2];
      int lx = get_local_id(0), ly = get_local_id(1);
      int ox = get_group_id(0) * W - 1, oy = get_group_id(1) * W - 1;
      for (int i = ly * W + lx; i < (W + 2) * (W + 2); i += W * W) {
        int sx = clamp(ox + i % (W + 2), 0, (int)n - 1);
        int sy = clamp(oy + i / (W + 2), 0, (int)n - 1);
        tile[i / (W + 2)][i % (W + 2)] = in[sy * n + sx];
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      uint x = get_global_id(0), y = get_global_id(1);
      out[y * n + x] = tile[ly][lx + 1] * 1000 + tile[ly + 1][lx] * 100 + tile[ly + 1][lx + 2] * 10 +
                       tile[ly + 2][lx + 1];
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  const int n = 7 * 5;
  std::vector<int> in(n * n);
  for (int i = 0; i < n * n; ++i) in[i] = (i * 37 + 11) % 10;
  cl_mem mi = bufferFrom(in), mo = buffer(CL_MEM_WRITE_ONLY, n * n * sizeof(int));
  ASSERT_TRUE(setArgs(k, mi, mo, cl_uint(n)));
  ASSERT_TRUE(run(k, {size_t(n), size_t(n)}, {7, 7}));
  std::vector<int> out = read<int>(mo, n * n);
  auto at = [&](int x, int y) { return in[std::clamp(y, 0, n - 1) * n + std::clamp(x, 0, n - 1)]; };
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      ASSERT_EQ(out[y * n + x], at(x, y - 1) * 1000 + at(x - 1, y) * 100 + at(x + 1, y) * 10 + at(x, y + 1))
          << "at (" << x << ", " << y << ")";
}

// Regions guarded by a test of the local id against a uniform value, one
// per barrier, in every comparison and integer type: Lockstep splits the
// loop over the work-items where the answer changes (WorkItemLoopSplitPass).
// Bounds at and around the edges of the group, negative, and far outside.
TEST_P(DivergentAccess, RegionsGuardedByTheLocalId) {
  cl_kernel k = kernel(R"CLC(
    #define MARK(bit) out[get_global_id(0) * 16 + bit] = bit + 1
    #define STEP barrier(CLK_LOCAL_MEM_FENCE)
    kernel void k(global int *out, uint u, int s, ulong ul, long sl) {
      uint lid = get_local_id(0);
      int slid = lid;
      size_t wide = get_local_id(0);
      long swide = get_local_id(0);
      short narrow = lid;
      if (lid < u) MARK(0); STEP;
      if (lid <= u) MARK(1); STEP;
      if (lid > u) MARK(2); STEP;
      if (lid >= u) MARK(3); STEP;
      if (slid < s) MARK(4); STEP;
      if (slid <= s) MARK(5); STEP;
      if (slid > s) MARK(6); STEP;
      if (slid >= s) MARK(7); STEP;
      if (lid == u) MARK(8); STEP;
      if (lid != u) MARK(9); STEP;
      if (u > lid) MARK(10); STEP;
      if (wide < ul) MARK(11); STEP;
      if (swide >= sl) MARK(12); STEP;
      if (narrow < (short)s) MARK(13); STEP;
      if (lid == 0) MARK(14); STEP;
      if (s <= slid) MARK(15);
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  const size_t local = GetParam(), groups = 3, global = local * groups;
  const long long l = static_cast<long long>(local);
  cl_mem out = buffer(CL_MEM_READ_WRITE, global * 16 * sizeof(int));
  for (long long bound : {-1000000LL, -2LL, -1LL, 0LL, 1LL, 2LL, l / 2, l - 1, l, l + 1, l + 17,
                          2147483647LL, -2147483647LL - 1, 4294967295LL}) {
    const std::vector<int> blank(global * 16, 0);
    ASSERT_CL(clEnqueueWriteBuffer(queue_, out, CL_TRUE, 0, blank.size() * sizeof(int), blank.data(), 0,
                                   nullptr, nullptr));
    const cl_uint u = static_cast<cl_uint>(bound);
    const cl_int s = static_cast<cl_int>(bound);
    const cl_ulong ul = static_cast<cl_ulong>(bound);
    const cl_long sl = bound;
    ASSERT_TRUE(setArgs(k, out, u, s, ul, sl));
    ASSERT_TRUE(run(k, {global}, {local}));
    std::vector<int> got = read<int>(out, global * 16);
    for (size_t i = 0; i < global; ++i) {
      const cl_uint lid = static_cast<cl_uint>(i % local);
      const cl_int slid = static_cast<cl_int>(lid);
      const bool want[16] = {lid < u, lid <= u, lid > u, lid >= u, slid < s, slid <= s, slid > s, slid >= s,
                             lid == u, lid != u, u > lid, cl_ulong(lid) < ul, cl_long(lid) >= sl,
                             cl_short(lid) < cl_short(s), lid == 0, s <= slid};
      for (int bit = 0; bit < 16; ++bit)
        ASSERT_EQ(got[i * 16 + bit], want[bit] ? bit + 1 : 0)
            << "test " << bit << ", work-item " << i << ", bound " << bound;
    }
  }
}

// The same with the id plus a uniform offset, `lid + offset < n` as a
// grid-stride loop tests it, in 32 and 64 bits: the split holds where the
// sum cannot wrap around, and leaves the test in place where it can.
TEST_P(DivergentAccess, RegionsGuardedByTheLocalIdPlusAnOffset) {
  cl_kernel k = kernel(R"CLC(
    #define MARK(bit) out[get_global_id(0) * 4 + bit] = bit + 1
    #define STEP barrier(CLK_LOCAL_MEM_FENCE)
    kernel void k(global int *out, uint offset, uint n, ulong offset64, ulong n64) {
      uint lid = get_local_id(0);
      size_t wide = get_local_id(0);
      if (lid + offset < n) MARK(0); STEP;
      if (lid + offset <= n) MARK(1); STEP;
      if (offset64 + wide < n64) MARK(2); STEP;
      if (wide + offset64 <= n64) MARK(3);
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  const size_t local = GetParam(), groups = 2, global = local * groups;
  const cl_ulong l = local;
  cl_mem out = buffer(CL_MEM_READ_WRITE, global * 4 * sizeof(int));
  const cl_ulong offsets[] = {0, 1, l - 1, l, l + 3, 0xFFFFFFFFull, 0xFFFFFFFEull, 0x100000000ull - l,
                              0x100000000ull - l + 1, ~0ull, ~0ull - l + 1, ~0ull - l + 2};
  const cl_ulong bounds[] = {0, 1, l / 2, l, 2 * l, 0xFFFFFFFFull, 0x100000003ull, ~0ull, ~0ull - 1};
  for (cl_ulong offset : offsets)
    for (cl_ulong n : bounds) {
      const std::vector<int> blank(global * 4, 0);
      ASSERT_CL(clEnqueueWriteBuffer(queue_, out, CL_TRUE, 0, blank.size() * sizeof(int), blank.data(), 0,
                                     nullptr, nullptr));
      ASSERT_TRUE(setArgs(k, out, cl_uint(offset), cl_uint(n), offset, n));
      ASSERT_TRUE(run(k, {global}, {local}));
      std::vector<int> got = read<int>(out, global * 4);
      for (size_t i = 0; i < global; ++i) {
        const cl_uint lid = static_cast<cl_uint>(i % local);
        const cl_uint sum32 = lid + cl_uint(offset);  // wraps like OpenCL's uint
        const cl_ulong sum64 = cl_ulong(lid) + offset;
        const bool want[4] = {sum32 < cl_uint(n), sum32 <= cl_uint(n), sum64 < n, sum64 <= n};
        for (int bit = 0; bit < 4; ++bit)
          ASSERT_EQ(got[i * 4 + bit], want[bit] ? bit + 1 : 0)
              << "test " << bit << ", work-item " << i << ", offset " << offset << ", bound " << n;
      }
    }
}

// A work-efficient scan (the up-sweep and down-sweep of a tree, as in
// bench/'s scan_blocks): every level's region runs work-items below a
// uniform count that changes per level, kept in a variable across barriers.
TEST_F(TreeScan, ShrinkingAndGrowingActiveCounts) {
  cl_kernel k = kernel(R"CLC(
    kernel void k(global const uint *in, global uint *out, global uint *sums, local uint *tree) {
      uint lid = get_local_id(0), items = get_local_size(0), count = 2 * items;
      size_t base = get_group_id(0) * count;
      tree[lid] = in[base + lid];
      tree[lid + items] = in[base + lid + items];
      uint stride = 1;
      for (uint active = items; active > 0; active /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < active) tree[stride * (2 * lid + 2) - 1] += tree[stride * (2 * lid + 1) - 1];
        stride *= 2;
      }
      if (lid == 0) {
        sums[get_group_id(0)] = tree[count - 1];
        tree[count - 1] = 0;
      }
      for (uint active = 1; active < count; active *= 2) {
        stride /= 2;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < active) {
          uint left = stride * (2 * lid + 1) - 1;
          uint carried = tree[left];
          tree[left] = tree[left + stride];
          tree[left + stride] += carried;
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      out[base + lid] = tree[lid];
      out[base + lid + items] = tree[lid + items];
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  // The tree needs a power-of-two group.
  for (size_t local : {1, 2, 4, 16, 64, 256, 1024}) {
    const size_t groups = 9, count = 2 * local, n = count * groups;
    std::vector<cl_uint> in(n);
    std::uniform_int_distribution<cl_uint> value(0, 1000);
    for (cl_uint &v : in) v = value(rng_);
    cl_mem mi = bufferFrom(in), mo = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_uint));
    cl_mem ms = buffer(CL_MEM_READ_WRITE, groups * sizeof(cl_uint));
    ASSERT_TRUE(setArgs(k, mi, mo, ms, LocalBytes{count * sizeof(cl_uint)}));
    ASSERT_TRUE(run(k, {local * groups}, {local}));
    std::vector<cl_uint> out = read<cl_uint>(mo, n), sums = read<cl_uint>(ms, groups);
    for (size_t g = 0; g < groups; ++g) {
      cl_uint running = 0;
      for (size_t i = g * count; i < (g + 1) * count; ++i) {
        ASSERT_EQ(out[i], running) << "element " << i << " of group " << g << ", local size " << local;
        running += in[i];
      }
      EXPECT_EQ(sums[g], running) << "group " << g << ", local size " << local;
    }
  }
}

// A halving sum whose bound (`size / 2`) is computed in the guarded region
// from a variable the region also updates and the next region reads, with
// odd sizes folding their last element in.
TEST_F(TreeScan, HalvingSumOfAnySize) {
  cl_kernel k = kernel(R"CLC(
    kernel void k(global const int *in, int n, local int *partial, global int *sums) {
      int id = get_local_id(0), size = get_local_size(0);
      partial[id] = 0;
      for (int i = id; i < n; i += size) partial[id] += in[get_group_id(0) * n + i];
      do {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (id < size / 2) {
          int sum = partial[id];
          if ((size & 1) && id == 0) sum += partial[id + size - 1];
          partial[id] = sum + partial[id + size / 2];
        }
        size = size / 2;
      } while (size > 1);
      if (id == 0) sums[get_group_id(0)] = partial[0];
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  const int n = 1000, groups = 3;
  std::vector<cl_int> in(n * groups);
  std::uniform_int_distribution<cl_int> value(-1000, 1000);
  for (cl_int &v : in) v = value(rng_);
  cl_mem mi = bufferFrom(in), ms = buffer(CL_MEM_READ_WRITE, groups * sizeof(cl_int));
  for (size_t local : {1, 2, 3, 5, 7, 16, 17, 31, 64, 100, 255, 256, 513}) {
    ASSERT_TRUE(setArgs(k, mi, cl_int(n), LocalBytes{local * sizeof(cl_int)}, ms));
    ASSERT_TRUE(run(k, {local * groups}, {local}));
    std::vector<cl_int> sums = read<cl_int>(ms, groups);
    for (int g = 0; g < groups; ++g) {
      cl_int want = 0;
      for (int i = 0; i < n; ++i) want += in[g * n + i];
      EXPECT_EQ(sums[g], want) << "group " << g << ", local size " << local;
    }
  }
}

// Grid-stride loops (`for (i = gid; i < n; i += global_size)`), which run as
// masked loops: rounds in lockstep, each work-item active until it leaves.
// While the whole group was active the round before, a round does not read
// the flags; the last rounds have only part of the group, or none of it,
// active. Each round's run is prefetched a few rounds ahead
// (StridedRunPrefetchPass). Lengths around multiples of the global size;
// a sum and a round count per work-item and a __local-atomic histogram.
TEST_P(DivergentAccess, GridStrideLoopsOfEveryLength) {
  cl_kernel k = kernel(R"CLC(
    kernel void k(global const uchar *data, uint n, global uint *sums, global uint *bins) {
      local uint counts[256];
      uint lid = get_local_id(0), size = get_local_size(0);
      for (uint b = lid; b < 256; b += size) counts[b] = 0;
      barrier(CLK_LOCAL_MEM_FENCE);
      uint sum = 0, rounds = 0;
      for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) {
        atomic_inc(&counts[data[i]]);
        sum = sum * 3 + data[i];
        ++rounds;
      }
      sums[2 * get_global_id(0)] = sum;
      sums[2 * get_global_id(0) + 1] = rounds;
      barrier(CLK_LOCAL_MEM_FENCE);
      for (uint b = lid; b < 256; b += size)
        if (counts[b] != 0) atomic_add(&bins[b], counts[b]);
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  const size_t local = GetParam(), groups = 5, global = local * groups;
  const size_t lengths[] = {0, 1, global - 1, global, global + 1, 3 * global - 5, 64 * global + 17};
  std::vector<cl_uchar> data(64 * global + 17);
  std::uniform_int_distribution<int> byte(0, 255);
  for (cl_uchar &d : data) d = static_cast<cl_uchar>(byte(rng_));
  cl_mem md = bufferFrom(data);
  cl_mem ms = buffer(CL_MEM_READ_WRITE, 2 * global * sizeof(cl_uint));
  cl_mem mb = buffer(CL_MEM_READ_WRITE, 256 * sizeof(cl_uint));
  for (size_t n : lengths) {
    const std::vector<cl_uint> zero(256, 0);
    ASSERT_CL(clEnqueueWriteBuffer(queue_, mb, CL_TRUE, 0, 256 * sizeof(cl_uint), zero.data(), 0, nullptr,
                                   nullptr));
    ASSERT_TRUE(setArgs(k, md, cl_uint(n), ms, mb));
    ASSERT_TRUE(run(k, {global}, {local}));
    std::vector<cl_uint> sums = read<cl_uint>(ms, 2 * global), bins = read<cl_uint>(mb, 256);
    std::vector<cl_uint> want(256, 0);
    for (size_t i = 0; i < n; ++i) ++want[data[i]];
    for (int b = 0; b < 256; ++b) ASSERT_EQ(bins[b], want[b]) << "bin " << b << ", n " << n;
    for (size_t g = 0; g < global; ++g) {
      cl_uint sum = 0, rounds = 0;
      for (size_t i = g; i < n; i += global) {
        sum = sum * 3 + data[i];
        ++rounds;
      }
      ASSERT_EQ(sums[2 * g], sum) << "work-item " << g << ", n " << n;
      ASSERT_EQ(sums[2 * g + 1], rounds) << "work-item " << g << ", n " << n;
    }
  }
}

// Search loops that each work-item leaves at its own round by a `break`:
// the first table entry a key hits, with the value found and the rounds
// taken carried out of the loop, and a second search whose break leaves
// through a store. Masked (their empty exit block merged into the code
// after them): every work-item must stop at its own round, none earlier or
// later, also when a whole group finds nothing.
TEST_P(DivergentAccess, SearchLoopsLeftByABreak) {
  cl_program program = build(R"CLC(
    kernel void k(global const int *keys, global const int *table, int n, global int *out) {
      int key = keys[get_global_id(0)], found = -1, rounds = 0, value = 0;
      for (int s = 0; s < n; s++) {
        rounds++;
        int t = table[s];
        if ((t ^ key) % 7 == 0 && t > key) { found = s; value = t - key; break; }
      }
      out[3 * get_global_id(0)] = found;
      out[3 * get_global_id(0) + 1] = rounds;
      int i = 0;
      while (i < n) {
        if (table[(i + key) % n] == key) { out[3 * get_global_id(0) + 2] = i; break; }
        i++;
      }
      if (i == n) out[3 * get_global_id(0) + 2] = value;
    }
    kernel void first(global const int *keys, global const int *table, int n, global int *out) {
      int key = keys[get_global_id(0)], h = -1;
      for (int s = 0; s < n; s++) {
        int t = table[s], u = t ^ key;
        if (u % 7 == 0 && t > key) { h = s; break; }
      }
      out[get_global_id(0)] = h;
    }
  )CLC");
  ASSERT_NE(program, nullptr);
  cl_kernel k = kernelOf(program, "k"), first = kernelOf(program, "first");
  ASSERT_TRUE(k && first);
  const size_t local = GetParam(), global = local * 3;
  for (int n : {0, 1, 5, 40}) {
    std::vector<int> keys = randomValues<int>(global, 0, 60), table = randomValues<int>(std::max(n, 1), 0, 60);
    // The last group finds nothing in the first search.
    for (size_t g = 2 * local; g < global; ++g) keys[g] = 1000 + int(g);
    cl_mem mk = bufferFrom(keys), mt = bufferFrom(table), mo = buffer(CL_MEM_READ_WRITE, 3 * global * sizeof(int));
    cl_mem mf = buffer(CL_MEM_READ_WRITE, global * sizeof(int));
    ASSERT_TRUE(setArgs(k, mk, mt, cl_int(n), mo));
    ASSERT_TRUE(run(k, {global}, {local}));
    ASSERT_TRUE(setArgs(first, mk, mt, cl_int(n), mf));
    ASSERT_TRUE(run(first, {global}, {local}));
    std::vector<int> out = read<int>(mo, 3 * global), firsts = read<int>(mf, global);
    for (size_t g = 0; g < global; ++g) {
      int key = keys[g], found = -1, rounds = 0, value = 0;
      for (int s = 0; s < n; s++) {
        rounds++;
        int t = table[s];
        if ((t ^ key) % 7 == 0 && t > key) {
          found = s;
          value = t - key;
          break;
        }
      }
      int i = 0, third = 0;
      while (i < n) {
        if (table[(i + key) % n] == key) {
          third = i;
          break;
        }
        i++;
      }
      if (i == n) third = value;
      ASSERT_EQ(firsts[g], found) << "work-item " << g << ", n " << n;
      ASSERT_EQ(out[3 * g], found) << "work-item " << g << ", n " << n;
      ASSERT_EQ(out[3 * g + 1], rounds) << "work-item " << g << ", n " << n;
      ASSERT_EQ(out[3 * g + 2], third) << "work-item " << g << ", n " << n;
    }
  }
}

// Gathers whose lanes fall in one or two runs of consecutive elements (a
// tile's row end and the next row's start), which Lockstep loads with two
// masked vector loads after checking every lane (MaskedMemoryGuardsPass);
// and gathers that are not, which stay gathers. Index blocks of every kind,
// at every alignment against the vector: one run, two runs split at each
// lane, runs with gaps, descending and scattered indices, and inactive lanes
// whose index would put a run somewhere else (0xffffffff, which a 32-bit
// run check could take for the element before 0).
TEST_P(DivergentAccess, GathersOfOneOrTwoRuns) {
  cl_kernel k = kernel(R"CLC(
    kernel void k(global const int *in, global const uint *index, global const int *on, global int *out) {
      size_t i = get_global_id(0);
      int value = -1;
      if (on[i]) value = in[index[i]];
      out[i] = value;
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  const size_t local = GetParam(), blocks = 96, n = 16 * blocks + 5;
  const size_t global = (n + local - 1) / local * local;
  const size_t elements = 4096;
  std::vector<cl_int> in(elements);
  for (size_t e = 0; e < elements; ++e) in[e] = static_cast<cl_int>(e * 7 + 3);
  std::vector<cl_uint> index(global, 0);
  std::vector<cl_int> on(global, 0);
  std::uniform_int_distribution<cl_uint> start(0, elements - 40), lane(0, 15), coin(0, 3);
  for (size_t b = 0; b * 16 < n; ++b) {
    const size_t shift = b % 5;  // blocks not aligned to the vector too
    const size_t first = std::min(global, b * 16 + shift), end = std::min(global, first + 16);
    cl_uint a = start(rng_), c = start(rng_);
    const size_t split = lane(rng_);
    for (size_t i = first; i < end; ++i) {
      const size_t j = i - first;
      switch (b % 6) {
        case 0: index[i] = a + cl_uint(j); break;                                 // one run
        case 1: index[i] = j < split ? a + cl_uint(j) : c + cl_uint(j); break;    // two runs
        case 2: index[i] = a + cl_uint(j) + (j == split ? 2 : 0); break;          // a gap
        case 3: index[i] = a + 20 - cl_uint(j); break;                            // descending
        case 4: index[i] = start(rng_); break;                                    // scattered
        default: index[i] = j == 0 ? 0xffffffffu : cl_uint(j - 1); break;        // see below
      }
      on[i] = b % 6 == 5 ? j != 0 : coin(rng_) != 0;
      if (!on[i] && b % 6 != 5) index[i] = 0xffffffffu;  // an inactive lane's garbage
    }
  }
  cl_mem mi = bufferFrom(in), mx = bufferFrom(index), mo = bufferFrom(on);
  cl_mem out = buffer(CL_MEM_READ_WRITE, global * sizeof(cl_int));
  ASSERT_TRUE(setArgs(k, mi, mx, mo, out));
  ASSERT_TRUE(run(k, {global}, {local}));
  std::vector<cl_int> got = read<cl_int>(out, global);
  for (size_t i = 0; i < global; ++i)
    ASSERT_EQ(got[i], on[i] ? in[index[i]] : -1) << "work-item " << i << ", index " << index[i];
}

// Work-items that store and load __local elements evenly spaced (a tree
// level's `tree[stride * (2 * lid + 1) - 1]`), under a mask, at spacings the
// compiler turns into masked vector accesses (2, 4, 8 elements) and others
// (6, 16). The whole tile is copied out, so a store to any element but the
// active work-items' own shows, and so does a load of any other element.
TEST_P(DivergentAccess, SpacedLocalStoresAndLoads) {
  cl_kernel k = kernel(R"CLC(
    kernel void k(global const int *in, global const int *on, global int *out, global int *tiles,
                  uint factor, uint offset) {
      local int tile[16 * 256 + 32];
      uint lid = get_local_id(0), items = get_local_size(0);
      size_t g = get_global_id(0);
      uint span = 16 * items + 32;
      for (uint i = lid; i < span; i += items) tile[i] = -7 - (int)i;
      barrier(CLK_LOCAL_MEM_FENCE);
      if (on[g] & 1) tile[factor * (2 * lid) + offset] = in[g];
      barrier(CLK_LOCAL_MEM_FENCE);
      out[g] = (on[g] & 2) ? tile[factor * (2 * lid + 1) + offset - 1] : -1;
      for (uint i = lid; i < span; i += items) tiles[get_group_id(0) * span + i] = tile[i];
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  const size_t local = GetParam(), groups = 5, global = local * groups, span = 16 * local + 32;
  std::uniform_int_distribution<int> value(0, 1 << 20), mask(0, 3), offsets(1, 31);
  for (cl_uint factor : {1u, 2u, 3u, 4u, 8u}) {
    for (int pattern = 0; pattern < 3; ++pattern) {
      std::vector<cl_int> in(global), on(global);
      for (size_t g = 0; g < global; ++g) {
        in[g] = value(rng_);
        on[g] = pattern == 0 ? 3 : pattern == 1 ? mask(rng_) : (g % local == 0 ? 0 : 3);
      }
      const cl_uint offset = cl_uint(offsets(rng_));
      cl_mem mi = bufferFrom(in), mo = bufferFrom(on);
      cl_mem out = buffer(CL_MEM_READ_WRITE, global * sizeof(cl_int));
      cl_mem tiles = buffer(CL_MEM_READ_WRITE, groups * span * sizeof(cl_int));
      ASSERT_TRUE(setArgs(k, mi, mo, out, tiles, factor, offset));
      ASSERT_TRUE(run(k, {global}, {local}));
      std::vector<cl_int> got = read<cl_int>(out, global), gotTiles = read<cl_int>(tiles, groups * span);
      for (size_t group = 0; group < groups; ++group) {
        std::vector<cl_int> tile(span);
        for (size_t i = 0; i < span; ++i) tile[i] = -7 - cl_int(i);
        for (size_t lid = 0; lid < local; ++lid)
          if (on[group * local + lid] & 1) tile[factor * 2 * lid + offset] = in[group * local + lid];
        for (size_t i = 0; i < span; ++i)
          ASSERT_EQ(gotTiles[group * span + i], tile[i])
              << "tile element " << i << " of group " << group << ", spacing " << 2 * factor << ", pattern " << pattern;
        for (size_t lid = 0; lid < local; ++lid) {
          const size_t g = group * local + lid;
          ASSERT_EQ(got[g], (on[g] & 2) ? tile[factor * (2 * lid + 1) + offset - 1] : -1)
              << "work-item " << g << ", spacing " << 2 * factor << ", pattern " << pattern;
        }
      }
    }
  }
}

// Global loads and stores whose indices are evenly spaced across a vector's
// lanes (1, 2, 4, 8 elements apart, and 3), and some that only look so: a
// lane off its place, a uint index that wraps around past 2^32 (inactive
// lanes before the wrap, active ones after it). Each block of 16 work-items
// stores into a region of its own.
TEST_P(DivergentAccess, SpacedGlobalGathersAndScatters) {
  cl_kernel k = kernel(R"CLC(
    kernel void k(global const int *in, global const uint *index, global const int *on, global int *out,
                  global int *scattered) {
      size_t i = get_global_id(0);
      uint x = index[i];  // read by every work-item: an inactive lane's index is in the vector
      out[i] = on[i] ? in[x] : -(int)x;
      if (on[i] & 2) scattered[x] = (int)i;
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  const size_t local = GetParam(), blocks = 120, n = 16 * blocks;
  const size_t global = (n + local - 1) / local * local;
  const size_t region = 272, elements = region * (global / 16 + 2);
  std::vector<cl_int> in(elements);
  for (size_t e = 0; e < elements; ++e) in[e] = static_cast<cl_int>(e * 5 + 1);
  std::vector<cl_uint> index(global, 0);
  std::vector<cl_int> on(global, 0);
  std::uniform_int_distribution<cl_uint> start(0, 7), lane(0, 15), coin(0, 3);
  const cl_uint spacings[] = {1, 2, 4, 8, 3};
  for (size_t b = 0; b * 16 < global; ++b) {
    const size_t shift = b % 3;  // blocks not aligned to the vector too
    const size_t first = std::min(global, b * 16 + shift), end = std::min(global, first + 16);
    const cl_uint spacing = spacings[b % 5], a = cl_uint((b + 1) * region) + start(rng_), off = lane(rng_);
    for (size_t i = first; i < end; ++i) {
      const cl_uint j = cl_uint(i - first);
      switch (b / 5 % 4) {
        case 0: index[i] = a + spacing * j; on[i] = 3; break;                          // all active
        case 1: index[i] = a + spacing * j; on[i] = coin(rng_) ? 3 : 0; break;         // some
        case 2: index[i] = a + spacing * j + (j == off ? 136 : 0); on[i] = 3; break;   // one astray
        default: index[i] = 0u - 2 * spacing + spacing * j; on[i] = j >= 2; break;     // wraps
      }
      if (!on[i] && b / 5 % 4 == 1) index[i] = 0xffffffffu;  // an inactive lane's garbage
    }
  }
  std::vector<cl_int> scatteredBefore(elements, -3);
  cl_mem mi = bufferFrom(in), mx = bufferFrom(index), mo = bufferFrom(on), ms = bufferFrom(scatteredBefore);
  cl_mem out = buffer(CL_MEM_READ_WRITE, global * sizeof(cl_int));
  ASSERT_TRUE(setArgs(k, mi, mx, mo, out, ms));
  ASSERT_TRUE(run(k, {global}, {local}));
  std::vector<cl_int> got = read<cl_int>(out, global), scattered = read<cl_int>(ms, elements);
  std::vector<cl_int> expected = scatteredBefore;
  for (size_t i = 0; i < global; ++i) {
    ASSERT_EQ(got[i], on[i] ? in[index[i]] : -cl_int(index[i])) << "work-item " << i << ", index " << index[i];
    if (on[i] & 2) expected[index[i]] = cl_int(i);
  }
  for (size_t e = 0; e < elements; ++e) ASSERT_EQ(scattered[e], expected[e]) << "element " << e;
}

// Work-items that read and write through a uint index whose step only the
// launch knows (`out[step * i + offset]`, as a tree level indexes). Lockstep
// runs such a loop as scalar code with 64-bit indices when the step is more
// than 2 elements and no index of the group wraps (SpreadLoopsPass), and
// vectorized otherwise. Steps on both sides of that line, and steps whose
// indices descend through 2^32 (`step * i` wraps), where a 64-bit index
// would be wrong.
TEST_P(DivergentAccess, UniformStepThroughAUintIndex) {
  cl_kernel k = kernel(R"CLC(
    kernel void k(global const int *in, global int *out, uint step, uint offset) {
      uint i = get_global_id(0);
      uint at = step * i + offset;
      out[at] += 3 * in[i] + 1;
    }
  )CLC",
                       "k", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  // Non-uniform groups: the last group is a remainder.
  const size_t local = GetParam(), global = local * 5 + local / 2;
  std::vector<cl_int> in(global);
  std::iota(in.begin(), in.end(), -40);
  cl_mem mi = bufferFrom(in);
  const cl_uint g = cl_uint(global);
  const std::pair<cl_uint, cl_uint> cases[] = {
      {1, 5}, {2, 3}, {3, 0}, {5, 7}, {16, 1}, {1000, 2}, {0xffffffffu, g + 5}, {0xfffffffdu, 3 * g + 2},
  };
  for (auto [step, offset] : cases) {
    size_t elements = 0;
    for (cl_uint i = 0; i < g; ++i) elements = std::max<size_t>(elements, cl_uint(step * i + offset) + 1);
    std::vector<cl_int> before(elements);
    for (size_t e = 0; e < elements; ++e) before[e] = cl_int(e % 13) - 6;
    cl_mem mo = bufferFrom(before);
    ASSERT_TRUE(setArgs(k, mi, mo, step, offset));
    ASSERT_TRUE(run(k, {global}, {local}));
    std::vector<cl_int> got = read<cl_int>(mo, elements), want = before;
    for (cl_uint i = 0; i < g; ++i) want[cl_uint(step * i + offset)] += 3 * in[i] + 1;
    for (size_t e = 0; e < elements; ++e)
      ASSERT_EQ(got[e], want[e]) << "element " << e << ", step " << step << ", offset " << offset;
  }
}

// Loads of one address that only some work-items make: a substring search
// (each active work-item compares its byte with `pat[j]`, masked rounds),
// and short, float and double coefficients under a data condition. Widened,
// each is one scalar load made when some lane is active
// (GuardedUniformLoadsPass): checked with a pattern of length 0 passed as a
// NULL buffer (no work-item may load it), and with groups no work-item of
// which takes the branch.
TEST_P(DivergentAccess, UniformLoadsUnderAWorkItemCondition) {
  cl_program program = build(R"CLC(
    kernel void search(global const uchar *text, int n, constant uchar *pat, int m, global int *hits) {
      int i = get_global_id(0), ok = 0;
      if (i + m <= n) {
        int j = 0;
        while (j < m && text[i + j] == pat[j]) j++;
        ok = j == m;
      }
      hits[i] = ok;
    }
    kernel void coefficients(global const int *x, global const short *cs, global const float *cf,
                             global const double *cd, int c, global double *out) {
      int i = get_global_id(0), v = x[i];
      double r = v;
      if (v % 3 == 0) r += cs[c];
      if (v > 40) r *= cf[c + 1];
      if ((v & 5) == 5) r -= cd[c + 2];
      out[i] = r;
    }
  )CLC");
  ASSERT_NE(program, nullptr);
  cl_kernel search = kernelOf(program, "search"), coefficients = kernelOf(program, "coefficients");
  ASSERT_TRUE(search && coefficients);
  const size_t local = GetParam(), global = local * 5;
  // Text of three letters, so that patterns match partway often.
  std::vector<cl_uchar> text = randomValues<cl_uchar>(global + 8, 'a', 'c');
  cl_mem mt = bufferFrom(text), mh = buffer(CL_MEM_READ_WRITE, global * sizeof(cl_int));
  for (std::string pattern : {"", "b", "ab", "abca", "cabcab"}) {
    std::vector<cl_uchar> pat(pattern.begin(), pattern.end());
    cl_mem mp = pat.empty() ? nullptr : bufferFrom(pat, CL_MEM_READ_ONLY);
    const int n = int(global) + 3, m = int(pat.size());
    ASSERT_TRUE(setArgs(search, mt, cl_int(n), mp, cl_int(m), mh));
    ASSERT_TRUE(run(search, {global}, {local}));
    std::vector<cl_int> hits = read<cl_int>(mh, global);
    for (size_t i = 0; i < global; ++i) {
      int want = int(i) + m <= n && std::equal(pat.begin(), pat.end(), text.begin() + i);
      ASSERT_EQ(hits[i], want) << "position " << i << ", pattern '" << pattern << "'";
    }
  }
  std::vector<cl_short> cs = randomValues<cl_short>(8, -100, 100);
  std::vector<float> cf = randomValues<float>(8, 0.5f, 2.0f);
  std::vector<double> cd = randomValues<double>(8, -1.0, 1.0);
  cl_mem ms = bufferFrom(cs), mf = bufferFrom(cf), md = bufferFrom(cd);
  cl_mem mo = buffer(CL_MEM_READ_WRITE, global * sizeof(double));
  for (int c : {0, 3, 5}) {
    std::vector<cl_int> x = randomValues<cl_int>(global, 0, 60);
    // The second group takes none of the branches.
    for (size_t i = local; i < 2 * local; ++i) x[i] = 1;
    cl_mem mx = bufferFrom(x);
    ASSERT_TRUE(setArgs(coefficients, mx, ms, mf, md, cl_int(c), mo));
    ASSERT_TRUE(run(coefficients, {global}, {local}));
    std::vector<double> out = read<double>(mo, global);
    for (size_t i = 0; i < global; ++i) {
      int v = x[i];
      double r = v;
      if (v % 3 == 0) r += cs[c];
      if (v > 40) r *= cf[c + 1];
      if ((v & 5) == 5) r -= cd[c + 2];
      ASSERT_EQ(out[i], r) << "work-item " << i << ", c " << c;
    }
  }
}

// Table lookups of bytes and halfwords at indices read from memory
// (`out[i] = lut[in[i]]`, a gamma map, a 16-bit table, halves through
// vload_half), some under a work-item condition. Widened, the integer ones
// are gathers of the 32-bit words that hold the elements
// (NarrowGathersPass): tables of odd lengths, so that the last entries'
// words reach past the table's end, and entries at every position within a
// word.
TEST_P(DivergentAccess, TableLookupsOfBytesAndHalfwords) {
  cl_program program = build(R"CLC(
    kernel void k(global const uchar *in, constant uchar *bytes, global const ushort *shorts, int nshorts,
                  global const ushort *halves, int nhalves, global uint *out, global float *outf) {
      int i = get_global_id(0), x = in[i];
      uint v = bytes[x];
      v |= (uint)shorts[(x * 7 + i) % nshorts] << 8;
      if (x & 1) v ^= (uint)bytes[252 - x % 253] << 24;
      out[i] = v;
      outf[i] = vload_half((x * 13) % nhalves, (global const half *)halves) + (x > 200 ? vload_half(x - 200, (global const half *)halves) : 0.0f);
    }
  )CLC");
  ASSERT_NE(program, nullptr);
  cl_kernel k = kernelOf(program, "k");
  ASSERT_TRUE(k);
  const size_t local = GetParam(), global = local * 6;
  const int nshorts = 1021, nhalves = 251;
  std::vector<cl_uchar> in = randomValues<cl_uchar>(global, 0, 252), bytes = randomValues<cl_uchar>(253, 0, 255);
  std::vector<cl_ushort> shorts = randomValues<cl_ushort>(nshorts, 0, 65535), halves(nhalves);
  std::vector<float> halfValues(nhalves);
  for (int h = 0; h < nhalves; ++h) {
    // Small integers over 8: exact in half precision.
    halfValues[h] = float(h % 37) / 8.0f;
    cl_ushort mantissa = 0;
    float value = halfValues[h];
    if (value == 0.0f) {
      halves[h] = 0;
      continue;
    }
    int exponent = 0;
    float m = std::frexp(value, &exponent);  // value = m * 2^exponent, m in [0.5, 1)
    mantissa = cl_ushort((m * 2.0f - 1.0f) * 1024.0f);
    halves[h] = cl_ushort(((exponent - 1 + 15) << 10) | mantissa);
  }
  // The second group's indices all hit the tables' last entries.
  for (size_t i = local; i < 2 * local; ++i) in[i] = cl_uchar(250 + i % 3);
  cl_mem mi = bufferFrom(in), mb = bufferFrom(bytes, CL_MEM_READ_ONLY), ms = bufferFrom(shorts),
         mh = bufferFrom(halves), mo = buffer(CL_MEM_READ_WRITE, global * sizeof(cl_uint)),
         mf = buffer(CL_MEM_READ_WRITE, global * sizeof(float));
  ASSERT_TRUE(setArgs(k, mi, mb, ms, cl_int(nshorts), mh, cl_int(nhalves), mo, mf));
  ASSERT_TRUE(run(k, {global}, {local}));
  std::vector<cl_uint> out = read<cl_uint>(mo, global);
  std::vector<float> outf = read<float>(mf, global);
  for (size_t i = 0; i < global; ++i) {
    int x = in[i];
    cl_uint v = bytes[x] | cl_uint(shorts[(x * 7 + int(i)) % nshorts]) << 8;
    if (x & 1) v ^= cl_uint(bytes[252 - x % 253]) << 24;
    ASSERT_EQ(out[i], v) << "work-item " << i << ", index " << x;
    float f = halfValues[(x * 13) % nhalves] + (x > 200 ? halfValues[x - 200] : 0.0f);
    ASSERT_EQ(outf[i], f) << "work-item " << i << ", index " << x;
  }
}

// SHOC's CSR-vector SpMV: `width` work-items per row, each summing the
// row's elements a width apart from a start read from memory, behind a
// guard on the row, then a tree over the group's partial sums. Rows of
// every length (none, fewer than the lanes, many), widths 1 to 32. The loop
// is left whole in each work-item (masked it would only gather:
// LoopCutCost's gathersWhenMasked); each work-item must still run exactly
// its own rounds. Small integers: the sums are exact.
TEST_P(DivergentAccess, RowsSummedAWidthApart) {
  cl_kernel k = kernel(R"CLC(
    kernel void k(global const float *val, global const float *vec, global const int *cols,
                  global const int *rowStart, int dim, int width, global float *out, local float *partial) {
      int t = get_local_id(0);
      int lane = t & (width - 1);
      int row = get_group_id(0) * (get_local_size(0) / width) + t / width;
      float sum = 0;
      if (row < dim) {
        for (int j = rowStart[row] + lane; j < rowStart[row + 1]; j += width) sum += val[j] * vec[cols[j]];
      }
      partial[t] = sum;
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int span = width / 2; span > 0; span /= 2) {
        if (lane < span) partial[t] += partial[t + span];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      if (lane == 0 && row < dim) out[row] = partial[t];
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  const size_t local = GetParam();
  const int columns = 300;
  std::uniform_int_distribution<int> length(0, 70), value(-8, 8), column(0, columns - 1);
  for (int width : {1, 2, 4, 8, 16, 32}) {
    if (size_t(width) > local || local % width != 0) continue;
    const size_t rowsPerGroup = local / width, groups = 5;
    const int dim = int(rowsPerGroup * groups) - (rowsPerGroup > 1 ? 1 : 0);  // the last group one row short
    std::vector<cl_int> rowStart(dim + 1, 0);
    for (int r = 0; r < dim; ++r) {
      int n = length(rng_);
      if (r % 7 == 0) n = 0;
      if (r % 5 == 1) n = 150 + n;
      rowStart[r + 1] = rowStart[r] + n;
    }
    const int nnz = std::max(rowStart[dim], 1);
    std::vector<float> val(nnz), vec(columns);
    std::vector<cl_int> cols(nnz);
    for (float &v : val) v = float(value(rng_));
    for (float &v : vec) v = float(value(rng_));
    for (cl_int &c : cols) c = column(rng_);
    cl_mem mv = bufferFrom(val), mx = bufferFrom(vec), mc = bufferFrom(cols), mr = bufferFrom(rowStart),
           mo = buffer(CL_MEM_READ_WRITE, std::max(dim, 1) * sizeof(float));
    ASSERT_TRUE(setArgs(k, mv, mx, mc, mr, cl_int(dim), cl_int(width), mo, LocalBytes{local * sizeof(float)}));
    ASSERT_TRUE(run(k, {local * groups}, {local}));
    std::vector<float> out = read<float>(mo, std::max(dim, 1));
    for (int r = 0; r < dim; ++r) {
      double want = 0;
      for (int j = rowStart[r]; j < rowStart[r + 1]; ++j) want += double(val[j]) * vec[cols[j]];
      ASSERT_EQ(out[r], float(want)) << "row " << r << " of " << dim << ", width " << width;
    }
  }
}

// NVIDIA's histogram64: each work-item counts into its own byte column of a
// __local array (`column[bin * size]++`, four bins a word, sixteen a round
// of a grid-stride loop), then one work-item per bin sums the bin's row.
// The byte loads and stores at computed addresses stay scalar (a byte
// scatter goes out a lane at a time: NarrowGathers leaves such loops
// alone); every count must land, at every group size.
TEST_F(ByteCounters, OneColumnPerWorkItem) {
  for (size_t local : {64, 128, 256}) {
    std::string options = "-D GROUP=" + std::to_string(local);
    cl_program program = build(R"CLC(
      kernel void k(global uint *partial, global const uint4 *data, uint count) {
        local uchar counts[GROUP * 64];
        uint lid = get_local_id(0);
        for (uint i = 0; i < 16; i++) ((local uint *)counts)[lid + i * GROUP] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        local uchar *column = counts + lid;
        for (uint pos = get_global_id(0); pos < count; pos += get_global_size(0)) {
          uint4 d = data[pos];
          uint w[4] = {d.x, d.y, d.z, d.w};
          for (int j = 0; j < 4; j++) {
            column[((w[j] >> 2) & 63) * GROUP]++;
            column[((w[j] >> 10) & 63) * GROUP]++;
            column[((w[j] >> 18) & 63) * GROUP]++;
            column[((w[j] >> 26) & 63) * GROUP]++;
          }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < 64) {
          uint sum = 0;
          for (uint i = 0; i < GROUP; i++) sum += counts[lid * GROUP + i];
          partial[get_group_id(0) * 64 + lid] = sum;
        }
      }
    )CLC",
                               options.c_str());
    ASSERT_NE(program, nullptr);
    cl_kernel k = kernelOf(program, "k");
    ASSERT_TRUE(k);
    const size_t groups = 7, global = local * groups;
    // At most 15 rounds a work-item: each byte counter stays under 256.
    for (size_t count : {size_t(0), size_t(1), global - 3, 4 * global + 5, 15 * global}) {
      std::vector<cl_uint> data =
          randomValues<cl_uint>(std::max(count, size_t(1)) * 4, 0, 0xffffffffu);
      cl_mem md = bufferFrom(data), mp = buffer(CL_MEM_READ_WRITE, groups * 64 * sizeof(cl_uint));
      ASSERT_TRUE(setArgs(k, mp, md, cl_uint(count)));
      ASSERT_TRUE(run(k, {global}, {local}));
      std::vector<cl_uint> partial = read<cl_uint>(mp, groups * 64);
      std::vector<cl_uint> want(64, 0), got(64, 0);
      for (size_t i = 0; i < count * 4; ++i)
        for (int shift : {2, 10, 18, 26}) ++want[(data[i] >> shift) & 63];
      for (size_t g = 0; g < groups; ++g)
        for (int b = 0; b < 64; ++b) got[b] += partial[g * 64 + b];
      for (int b = 0; b < 64; ++b)
        ASSERT_EQ(got[b], want[b]) << "bin " << b << ", count " << count << ", group " << local;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(LocalSizes, DivergentAccess, ::testing::ValuesIn(kLocalSizes));

}  // namespace
}  // namespace lockstep::test

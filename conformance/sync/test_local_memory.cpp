// __local memory algorithms that depend on barriers: tree reductions, scans
// (Hillis-Steele and Blelloch), a transpose through a tile, a tiled matrix
// multiply, stencils with a halo, and several __local arguments and
// kernel-scope __local arrays used at once.
#include <algorithm>
#include <bit>

#include "SyncTest.h"

namespace lockstep::test::sync {
namespace {

using u32 = uint32_t;

class LocalMemory : public SyncTest {
 protected:
  // Shapes of one dimensionality out of allShapes.
  std::vector<Shape> shapesOf(cl_uint dims) {
    std::vector<Shape> out;
    for (const Shape &s : allShapes(device_))
      if (s.dims == dims) out.push_back(s);
    return out;
  }
  // 2D shapes with groups of 1, 7x1, 8x8 (remainders, offset) and 16x16.
  std::vector<Shape> planeShapes() {
    std::vector<Shape> out;
    auto add = [&](std::array<size_t, 3> g, std::array<size_t, 3> l, std::array<size_t, 3> o) {
      Shape s;
      s.dims = 2;
      s.global = g;
      s.local = l;
      s.offset = o;
      if (s.uniform() || deviceInfo<cl_bool>(device_, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT))
        out.push_back(s);
    };
    add({5, 3, 1}, {1, 1, 1}, {0, 0, 0});
    add({21, 4, 1}, {7, 1, 1}, {1, 1, 0});
    add({29, 19, 1}, {8, 8, 1}, {2, 7, 0});
    add({48, 32, 1}, {16, 16, 1}, {0, 0, 0});
    add({35, 37, 1}, {16, 16, 1}, {3, 0, 0});
    return out;
  }
  // Runs kernel(in, out, extra...) over `shapes` with a per-group reference
  // that maps the group's inputs (linear local id order) to its outputs.
  void checkGroups(cl_kernel k, const std::vector<Shape> &shapes,
                   std::function<cl_int(cl_kernel, const Shape &)> extra,
                   std::function<std::vector<u32>(const Group &, const std::vector<u32> &)> ref) {
    std::vector<int> data = randomInts(1 << 16, 0, 1 << 20);
    PerItem<u32, u32> spec;
    spec.input = [&](size_t i) { return u32(data[i]); };
    spec.extra = extra;
    spec.reference = [&](const Shape &, const Group &g, const std::vector<u32> &in,
                         std::vector<u32> &want) {
      std::vector<u32> v(g.count());
      for (size_t l = 0; l < g.count(); ++l) v[l] = in[g.items[l].index];
      std::vector<u32> out = ref(g, v);
      for (size_t l = 0; l < g.count(); ++l) want[g.items[l].index] = out[l];
    };
    checkPerItem(k, shapes, spec);
  }
};

// Two tree reductions (sum, max) in kernel-scope __local arrays, sequential
// addressing from the next power of two down so that any group size works.
const char *kReduce = R"CLC(
kernel void reduce(global const uint *in, global uint *out) {
  local uint sums[256];
  local uint maxes[256];
  uint lid = LID, n = LSZ;
  uint x = in[GIDX];
  sums[lid] = x;
  maxes[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint top = 1;
  while (top < n) top <<= 1;
  for (uint s = top >> 1; s > 0; s >>= 1) {
    if (lid < s && lid + s < n) {
      sums[lid] += sums[lid + s];
      maxes[lid] = max(maxes[lid], maxes[lid + s]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[GIDX] = sums[0] * 3u + maxes[0] + x;
}
)CLC";

TEST_F(LocalMemory, TreeReductionsInKernelScopeArrays) {
  checkGroups(make(kReduce, "reduce"), allShapes(device_), nullptr,
              [](const Group &, const std::vector<u32> &v) {
                u32 sum = 0, mx = 0;
                for (u32 x : v) sum += x, mx = std::max(mx, x);
                std::vector<u32> out(v.size());
                for (size_t l = 0; l < v.size(); ++l) out[l] = sum * 3u + mx + v[l];
                return out;
              });
}

// The same sum over the linear local id as `int` arithmetic, the way 2-D
// image code writes it (`int l = ly * w + lx; if (l < s)`): a signed test of
// a sum of local ids, which the compiler splits per row of the group.
const char *kSignedLinearReduce = R"CLC(
kernel void reduce(global const uint *in, global uint *out) {
  local uint sums[256];
  int w = (int)get_local_size(0), h = (int)get_local_size(1);
  int l = ((int)get_local_id(2) * h + (int)get_local_id(1)) * w + (int)get_local_id(0);
  int n = w * h * (int)get_local_size(2);
  sums[l] = in[GIDX];
  int top = 1;
  while (top < n) top <<= 1;
  for (int s = top >> 1; s > 0; s >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < s && l + s < n) sums[l] += sums[l + s];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[GIDX] = sums[0] + (uint)l;
}
)CLC";

TEST_F(LocalMemory, TreeReductionOverSignedLinearIds) {
  checkGroups(make(kSignedLinearReduce, "reduce"), allShapes(device_), nullptr,
              [](const Group &, const std::vector<u32> &v) {
                u32 sum = 0;
                for (u32 x : v) sum += x;
                std::vector<u32> out(v.size());
                for (size_t l = 0; l < v.size(); ++l) out[l] = sum + u32(l);
                return out;
              });
}

// 2-D code written for 16-wide groups: the linear id as `ly * 16 + lx`, a
// __local histogram cleared over it in a strided loop, counted by each
// work-item's own value (lx and ly apart: its global id), a tree over it,
// and every result read back at it. The regions that see only the linear id
// run as one loop over it; the counting region keeps its rows.
const char *kSixteenWide = R"CLC(
kernel void tiles(global const uint *in, global uint *out) {
  local uint part[256];
  local uint hist[64];
  int lx = get_local_id(0), ly = get_local_id(1), l = ly * 16 + lx;
  int n = 16 * (int)get_local_size(1);
  for (int i = l; i < 64; i += n) hist[i] = 0;
  uint x = in[GIDX];
  part[l] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&hist[x & 63]);
  int top = 1;
  while (top < n) top <<= 1;
  for (int o = top >> 1; o > 0; o >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < o && l + o < n) part[l] += part[l + o];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[GIDX] = part[0] * 3u + hist[l & 63] * 7u + (uint)l;
}
)CLC";

TEST_F(LocalMemory, SixteenWideGroupsOverTheirLinearIds) {
  std::vector<Shape> shapes;
  for (const Shape &s : planeShapes())
    if (s.local[0] == 16 && s.uniform()) shapes.push_back(s);
  for (std::array<size_t, 3> local : {std::array<size_t, 3>{16, 1, 1}, {16, 4, 1}, {16, 8, 1}}) {
    Shape s;
    s.dims = 2;
    s.global = {64, 16, 1};
    s.local = local;
    s.offset = {16, 3, 0};
    shapes.push_back(s);
  }
  checkGroups(make(kSixteenWide, "tiles"), shapes, nullptr, [](const Group &, const std::vector<u32> &v) {
    u32 sum = 0, count[64] = {};
    for (u32 x : v) sum += x, ++count[x & 63];
    std::vector<u32> out(v.size());
    for (size_t l = 0; l < v.size(); ++l) out[l] = sum * 3u + count[l & 63] * 7u + u32(l);
    return out;
  });
}

// Hillis-Steele inclusive scan, double buffered in two __local arguments.
const char *kHillisSteele = R"CLC(
kernel void hillis_steele(global const uint *in, global uint *out, local uint *a,
                          local uint *b) {
  uint lid = LID, n = LSZ;
  a[lid] = in[GIDX];
  barrier(CLK_LOCAL_MEM_FENCE);
  local uint *src = a, *dst = b;
  for (uint offset = 1; offset < n; offset <<= 1) {
    dst[lid] = lid >= offset ? src[lid] + src[lid - offset] : src[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    local uint *t = src;
    src = dst;
    dst = t;
  }
  out[GIDX] = src[lid];
}
)CLC";

std::vector<u32> inclusiveSum(const Group &, const std::vector<u32> &v) {
  std::vector<u32> out(v.size());
  u32 s = 0;
  for (size_t l = 0; l < v.size(); ++l) out[l] = s += v[l];
  return out;
}

TEST_F(LocalMemory, HillisSteeleScan) {
  checkGroups(
      make(kHillisSteele, "hillis_steele"), allShapes(device_),
      [](cl_kernel k, const Shape &s) {
        return setKernelArgs(k, 2, LocalBytes{s.groupItems() * 4}, LocalBytes{s.groupItems() * 4});
      },
      inclusiveSum);
}

// Blelloch's work-efficient exclusive scan over the group padded with zeros
// to a power of two (`m`, the __local array's length): up-sweep, clear the
// root, down-sweep; every item handles the tree nodes it owns in strides.
const char *kBlelloch = R"CLC(
kernel void blelloch(global const uint *in, global uint *out, local uint *t, uint m) {
  uint lid = LID, n = LSZ;
  for (uint i = lid; i < m; i += n) t[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  t[lid] = in[GIDX];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint offset = 1;
  for (uint d = m >> 1; d > 0; d >>= 1) {
    for (uint i = lid; i < d; i += n) {
      uint ai = offset * (2 * i + 1) - 1, bi = offset * (2 * i + 2) - 1;
      t[bi] += t[ai];
    }
    offset <<= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) t[m - 1] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = 1; d < m; d <<= 1) {
    offset >>= 1;
    for (uint i = lid; i < d; i += n) {
      uint ai = offset * (2 * i + 1) - 1, bi = offset * (2 * i + 2) - 1;
      uint left = t[ai];
      t[ai] = t[bi];
      t[bi] += left;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[GIDX] = t[lid];
}
)CLC";

TEST_F(LocalMemory, BlellochScan) {
  checkGroups(
      make(kBlelloch, "blelloch"), allShapes(device_),
      [](cl_kernel k, const Shape &s) {
        cl_uint m = std::bit_ceil(cl_uint(s.groupItems()));
        return setKernelArgs(k, 2, LocalBytes{m * 4}, m);
      },
      [](const Group &, const std::vector<u32> &v) {
        std::vector<u32> out(v.size());
        u32 s = 0;
        for (size_t l = 0; l < v.size(); ++l) out[l] = s, s += v[l];
        return out;
      });
}

// The linear local id says which transposed element an item writes, so a
// remainder group (sx x sy) writes its tile as sy x sx.
const char *kTranspose = R"CLC(
kernel void transpose(global const float *in, global float *out) {
  local float tile[16][17];
  uint W = get_global_size(0), H = get_global_size(1);
  uint bx = get_group_id(0) * get_enqueued_local_size(0);
  uint by = get_group_id(1) * get_enqueued_local_size(1);
  uint sx = get_local_size(0), sy = get_local_size(1);
  uint lx = get_local_id(0), ly = get_local_id(1);
  tile[ly][lx] = in[(by + ly) * W + bx + lx];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint l = ly * sx + lx, tx = l % sy, ty = l / sy;
  out[(bx + ty) * H + by + tx] = tile[tx][ty];
}
)CLC";

TEST_F(LocalMemory, TransposeThroughATile) {
  cl_kernel k = make(kTranspose, "transpose");
  PerItem<float, float> spec;
  spec.input = [](size_t i) { return float(i) * 0.5f + 1.0f; };
  spec.reference = [](const Shape &s, const Group &g, const std::vector<float> &in,
                      std::vector<float> &want) {
    const size_t W = s.global[0], H = s.global[1];
    for (const Item &it : g.items) {
      size_t x = it.global[0] - s.offset[0], y = it.global[1] - s.offset[1];
      want[x * H + y] = in[y * W + x];
    }
  };
  checkPerItem(k, planeShapes(), spec);
}

// C = A x B in tiles of T x T (T the enqueued group width, square groups);
// items of a remainder group load several tile elements each, and elements
// outside the matrices load as zero.
const char *kMatMul = R"CLC(
kernel void matmul(global const int *a, global int *c, global const int *b, local int *ta,
                   local int *tb, uint K, uint T) {
  uint M = get_global_size(1), N = get_global_size(0);
  uint row0 = get_group_id(1) * T, col0 = get_group_id(0) * T;
  uint lx = get_local_id(0), ly = get_local_id(1);
  uint sx = get_local_size(0), sy = get_local_size(1);
  int acc = 0;
  for (uint k0 = 0; k0 < K; k0 += T) {
    for (uint i = ly; i < T; i += sy)
      for (uint j = lx; j < T; j += sx) {
        uint ar = row0 + i, ac = k0 + j, br = k0 + i, bc = col0 + j;
        ta[i * T + j] = ar < M && ac < K ? a[ar * K + ac] : 0;
        tb[i * T + j] = br < K && bc < N ? b[br * N + bc] : 0;
      }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < T; ++k) acc += ta[ly * T + k] * tb[k * T + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[(row0 + ly) * N + col0 + lx] = acc;
}
)CLC";

TEST_F(LocalMemory, TiledMatrixMultiply) {
  cl_kernel k = make(kMatMul, "matmul");
  const cl_uint K = 37;
  std::vector<Shape> shapes;
  for (const Shape &s : planeShapes())
    if (s.local[0] == s.local[1]) shapes.push_back(s);
  size_t maxN = 0, maxM = 0;
  for (const Shape &s : shapes)
    maxN = std::max(maxN, s.global[0]), maxM = std::max(maxM, s.global[1]);
  std::vector<int> A = randomInts(maxM * K, -20, 20), B = randomInts(K * maxN, -20, 20);
  // Each shape uses the top-left corner of A and B laid out for its own size.
  for (const Shape &shape : shapes) {
    SCOPED_TRACE("shape " + shape.name());
    if (!fits(k, shape)) continue;
    const size_t M = shape.global[1], N = shape.global[0];
    std::vector<int> a(A.begin(), A.begin() + M * K), b(B.begin(), B.begin() + K * N);
    std::vector<int> want(M * N, 0);
    for (size_t r = 0; r < M; ++r)
      for (size_t c = 0; c < N; ++c)
        for (size_t i = 0; i < K; ++i) want[r * N + c] += a[r * K + i] * b[i * N + c];
    cl_uint T = cl_uint(shape.local[0]);
    cl_mem ma = bufferFrom(a), mb = bufferFrom(b), mc = buffer(CL_MEM_WRITE_ONLY, M * N * 4);
    ASSERT_CL(setKernelArgs(k, 0, ma, mc, mb, LocalBytes{T * T * 4}, LocalBytes{T * T * 4}, K, T));
    ASSERT_TRUE(launch(k, shape));
    EXPECT_TRUE(sameValues(read<int>(mc, M * N), want));
  }
}

// 1D stencil of radius 3 with a halo loaded into __local memory; the items
// of a group load the group's span plus the halo in strides (a group of one
// item loads all seven). The ends of the range are clamped.
const char *kStencil1D = R"CLC(
#define R 3
kernel void stencil1d(global const uint *in, global uint *out, local uint *tile) {
  uint lid = get_local_id(0), n = get_local_size(0), total = get_global_size(0);
  int start = (int)(get_group_id(0) * get_enqueued_local_size(0)) - R;
  for (uint i = lid; i < n + 2 * R; i += n)
    tile[i] = in[clamp(start + (int)i, 0, (int)total - 1)];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint s = 0;
  for (int d = -R; d <= R; ++d) s += tile[lid + R + d] * (uint)(d + 5);
  out[GIDX] = s;
}
)CLC";

TEST_F(LocalMemory, StencilWithHalo1D) {
  cl_kernel k = make(kStencil1D, "stencil1d");
  PerItem<u32, u32> spec;
  std::vector<int> data = randomInts(1 << 16, 0, 1 << 20);
  spec.input = [&](size_t i) { return u32(data[i]); };
  spec.extra = [](cl_kernel k, const Shape &s) {
    return setKernelArgs(k, 2, LocalBytes{(s.groupItems() + 6) * 4});
  };
  spec.reference = [](const Shape &s, const Group &g, const std::vector<u32> &in,
                      std::vector<u32> &want) {
    const long total = long(s.global[0]);
    for (const Item &it : g.items) {
      u32 sum = 0;
      for (int d = -3; d <= 3; ++d)
        sum += in[std::clamp(long(it.index) + d, 0L, total - 1)] * u32(d + 5);
      want[it.index] = sum;
    }
  };
  checkPerItem(k, shapesOf(1), spec);
}

// 2D five-point stencil with a one-element halo around the group's tile.
const char *kStencil2D = R"CLC(
kernel void stencil2d(global const uint *in, global uint *out, local uint *tile) {
  int W = get_global_size(0), H = get_global_size(1);
  int sx = get_local_size(0), sy = get_local_size(1), tw = sx + 2;
  int x0 = (int)(get_group_id(0) * get_enqueued_local_size(0)) - 1;
  int y0 = (int)(get_group_id(1) * get_enqueued_local_size(1)) - 1;
  int lx = get_local_id(0), ly = get_local_id(1);
  for (int i = ly * sx + lx; i < tw * (sy + 2); i += sx * sy) {
    int x = clamp(x0 + i % tw, 0, W - 1), y = clamp(y0 + i / tw, 0, H - 1);
    tile[i] = in[y * W + x];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int cx = lx + 1, cy = ly + 1;
  out[GIDX] = 4 * tile[cy * tw + cx] + tile[cy * tw + cx - 1] + 2 * tile[cy * tw + cx + 1] +
              3 * tile[(cy - 1) * tw + cx] + 5 * tile[(cy + 1) * tw + cx];
}
)CLC";

TEST_F(LocalMemory, StencilWithHalo2D) {
  cl_kernel k = make(kStencil2D, "stencil2d");
  PerItem<u32, u32> spec;
  std::vector<int> data = randomInts(1 << 16, 0, 1 << 20);
  spec.input = [&](size_t i) { return u32(data[i]); };
  spec.extra = [](cl_kernel k, const Shape &s) {
    return setKernelArgs(k, 2, LocalBytes{(s.local[0] + 2) * (s.local[1] + 2) * 4});
  };
  spec.reference = [](const Shape &s, const Group &g, const std::vector<u32> &in,
                      std::vector<u32> &want) {
    const long W = long(s.global[0]), H = long(s.global[1]);
    auto at = [&](long x, long y) {
      return in[std::clamp(y, 0L, H - 1) * W + std::clamp(x, 0L, W - 1)];
    };
    for (const Item &it : g.items) {
      long x = long(it.global[0] - s.offset[0]), y = long(it.global[1] - s.offset[1]);
      want[it.index] =
          4 * at(x, y) + at(x - 1, y) + 2 * at(x + 1, y) + 3 * at(x, y - 1) + 5 * at(x, y + 1);
    }
  };
  checkPerItem(k, planeShapes(), spec);
}

// Three __local arguments of different element types and sizes, two
// kernel-scope __local arrays, and a non-inlined function that works on a
// __local pointer with barriers: no two may overlap.
const char *kManyLocals = R"CLC(
__attribute__((noinline)) void reverse_in_place(local ushort *p, uint lid, uint n) {
  ushort mine = p[n - 1 - lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  p[lid] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
}
kernel void many_locals(global const uint *in, global uint *out, local uchar *bytes,
                        local ulong *longs, local float4 *vecs) {
  local uint words[256];
  local ushort halves[300];
  uint lid = LID, n = LSZ;
  uint x = in[GIDX];
  bytes[lid] = (uchar)x;
  longs[2 * lid] = (ulong)x << 20;
  longs[2 * lid + 1] = ~(ulong)x;
  vecs[lid] = (float4)((float)(x & 0xff), 1.0f, 2.0f, (float)lid);
  words[lid] = x * 5u;
  halves[lid] = (ushort)(x >> 4);
  barrier(CLK_LOCAL_MEM_FENCE);
  reverse_in_place(halves, lid, n);
  uint j = (lid + 1) % n;
  out[GIDX] = (uint)bytes[j] + (uint)(longs[2 * j] >> 20) + (uint)~longs[2 * j + 1] +
              (uint)vecs[j].x + (uint)vecs[j].w + words[j] + (uint)halves[lid] * 3u;
}
)CLC";

TEST_F(LocalMemory, SeveralLocalArgumentsKernelScopeArraysAndALocalPointerParameter) {
  checkGroups(
      make(kManyLocals, "many_locals"), allShapes(device_),
      [](cl_kernel k, const Shape &s) {
        size_t n = s.groupItems();
        return setKernelArgs(k, 2, LocalBytes{n}, LocalBytes{2 * n * 8}, LocalBytes{n * 16});
      },
      [](const Group &, const std::vector<u32> &v) {
        const size_t n = v.size();
        std::vector<u32> out(n);
        for (size_t l = 0; l < n; ++l) {
          size_t j = (l + 1) % n;
          u32 x = v[j];
          out[l] = (x & 0xff) + x + x + (x & 0xff) + u32(j) + x * 5u +
                   ((v[n - 1 - l] >> 4) & 0xffff) * 3u;
        }
        return out;
      });
}

}  // namespace
}  // namespace lockstep::test::sync

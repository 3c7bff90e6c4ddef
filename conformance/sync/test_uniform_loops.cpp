// Loops without barriers. The compiler cuts a loop that every work-item of a
// group runs the same number of times at the top of its body (a barrier
// fencing nothing): the work-item loop runs inside it, the exit test is taken
// once per iteration, and the uniform counter is kept once. A loop reached
// alike whose trip count differs between work-items (divergent bounds,
// breaks) is masked: it goes round while any work-item is active. Loops in
// divergent branches or after divergent returns, loops with barriers and
// small constant trip counts are left alone. None of it may change a result:
// every kernel here runs over every shape (1D local sizes 1, 7, 64, 256; 2D
// and 3D with offsets and remainder groups; widths around the one below which
// groups run the kernel without loop cuts) against a reference computed on
// the host.
#include <algorithm>
#include <array>
#include <cmath>

#include "SyncTest.h"

namespace lockstep::test::sync {
namespace {

using u32 = uint32_t;
using ExtraArgs = std::function<cl_int(cl_kernel, const Shape &)>;
// Fills item l's `perItem` outputs at o from the whole input (indexed like
// GIDX), knowing the shape and the item's group.
using ItemReference =
    std::function<void(const Shape &, const Group &, size_t l, const std::vector<u32> &in, u32 *o)>;
// Returns the outputs of a group (linear local id order, perItem each) from
// the group's inputs.
using GroupReference =
    std::function<std::vector<u32>(const Shape &, const Group &, const std::vector<u32> &v)>;

// Groups narrower than 4 work-items along x run a version of the kernel
// without loop cuts: shapes on both sides of that width, in one dispatch
// (remainder groups narrower than the others), and a wide 1D group.
std::vector<Shape> cutWidthShapes() {
  return {
      shapeN(1, {4 * 5 + 2, 1, 1}, {4, 1, 1}),                     // widths 4 and 2
      shapeN(1, {5 * 9 + 3, 1, 1}, {5, 1, 1}, {11, 0, 0}),         // widths 5 and 3
      shapeN(1, {3 * 7, 1, 1}, {3, 1, 1}),                         // width 3 only
      shapeN(2, {4 * 3 + 1, 3 * 2 + 2, 1}, {4, 3, 1}, {1, 2, 0}),  // x remainder 1
      shapeN(2, {2 * 4, 16 * 2, 1}, {2, 16, 1}),                   // narrow, 32 per group
      shapeN(2, {1 * 3, 64 * 2, 1}, {1, 64, 1}),                   // narrow, 64 per group
      shapeN(3, {5 * 2 + 4, 2 * 2 + 1, 3 * 2}, {5, 2, 3}, {3, 0, 1}),
      shapeN(1, {1024 * 2 + 37, 1, 1}, {1024, 1, 1}, {7, 0, 0}),  // wide, remainder 37
  };
}

class UniformLoops : public SyncTest {
 protected:
  // The corpus's shapes and those around the loop-cut width.
  std::vector<Shape> shapes() {
    std::vector<Shape> out = allShapes(device_);
    cl_bool nonUniform = deviceInfo<cl_bool>(device_, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT);
    for (const Shape &s : cutWidthShapes())
      if (nonUniform || s.uniform()) out.push_back(s);
    return out;
  }

  void SetUp() override {
    SyncTest::SetUp();
    data_ = randomInts(1 << 16, 0, (1 << 24) - 1);
  }

  // kernel(global const uint *in, global uint *out, extra...) over every shape.
  void checkItems(cl_kernel k, size_t perItem, ExtraArgs extra, ItemReference reference) {
    PerItem<u32, u32> spec = specOf(perItem, std::move(extra));
    spec.reference = [&](const Shape &s, const Group &g, const std::vector<u32> &in,
                         std::vector<u32> &want) {
      for (size_t l = 0; l < g.count(); ++l)
        reference(s, g, l, in, &want[g.items[l].index * perItem]);
    };
    checkPerItem(k, shapes(), spec);
  }
  void checkGroups(cl_kernel k, size_t perItem, ExtraArgs extra, GroupReference reference) {
    PerItem<u32, u32> spec = specOf(perItem, std::move(extra));
    spec.reference = [&](const Shape &s, const Group &g, const std::vector<u32> &in,
                         std::vector<u32> &want) {
      std::vector<u32> v(g.count());
      for (size_t l = 0; l < g.count(); ++l) v[l] = in[g.items[l].index];
      std::vector<u32> out = reference(s, g, v);
      ASSERT_EQ(out.size(), g.count() * perItem);
      for (size_t l = 0; l < g.count(); ++l)
        for (size_t j = 0; j < perItem; ++j)
          want[g.items[l].index * perItem + j] = out[l * perItem + j];
    };
    checkPerItem(k, shapes(), spec);
  }

  std::vector<int> data_;

 private:
  PerItem<u32, u32> specOf(size_t perItem, ExtraArgs extra) {
    PerItem<u32, u32> spec;
    spec.perItem = perItem;
    spec.input = [this](size_t i) { return u32(data_[i]); };
    spec.extra = std::move(extra);
    return spec;
  }
};

// ---------------------------------------------------------------------------
// 1. A naive matrix multiply: each item takes the dot product of row
// GIDX % rows of A with column (GIDX / rows) % cols of B over `depth` terms,
// the trip count coming from an argument (0, 1, 2, 33 and 100). Float and int
// accumulators are carried by the loop; `base`, computed before it, is used in
// it and after it, and so is the counter. A and B hold small integers, so
// every float sum is exact. `late`, computed before the loop, is used only
// after it. Built with and without -cl-opt-disable.
const char *kMatrixMultiply = R"CLC(
kernel void matmul(global const uint *in, global uint *out, global const float *a,
                   global const float *b, int depth, int lda, int rows, int cols) {
  uint g = GIDX;
  int row = (int)(g % (uint)rows), col = (int)((g / (uint)rows) % (uint)cols);
  uint x = in[g];
  float base = (float)(x & 7u);
  float dot = 0.0f, weighted = base;
  int isum = (int)(x & 0xffu);
  uint hash = x, late = x * 0x2545f491u;
  int k;
  for (k = 0; k < depth; ++k) {
    float av = a[row * lda + k], bv = b[k * cols + col];
    dot += av * bv;
    weighted += av * base;
    isum += (int)bv - k;
    hash = hash * 31u + (uint)(int)av;
  }
  global uint *o = out + 7 * g;
  o[0] = (uint)(int)dot;
  o[1] = (uint)(int)(weighted - base);
  o[2] = (uint)isum;
  o[3] = hash;
  o[4] = (uint)k;
  o[5] = (uint)(int)(dot * base + (float)k);
  o[6] = late ^ (uint)k;
}
)CLC";

TEST_F(UniformLoops, MatrixMultiplyWithTripCountFromArgument) {
  const int lda = 100, rows = 37, cols = 29;
  std::vector<float> a(size_t(rows) * lda), b(size_t(lda) * cols);
  std::vector<int> ra = randomInts(a.size(), -8, 8), rb = randomInts(b.size(), -8, 8);
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(ra[i]);
  for (size_t i = 0; i < b.size(); ++i) b[i] = float(rb[i]);
  cl_mem ma = bufferFrom(a), mb = bufferFrom(b);
  for (const std::string options : {"-cl-std=CL3.0", "-cl-std=CL3.0 -cl-opt-disable"}) {
    SCOPED_TRACE(options);
    cl_kernel k = make(kMatrixMultiply, "matmul", options);
    for (cl_int depth : {0, 1, 2, 33, 100}) {
      SCOPED_TRACE("depth " + std::to_string(depth));
      checkItems(
          k, 7,
          [&](cl_kernel k, const Shape &) {
            return setKernelArgs(k, 2, ma, mb, depth, lda, rows, cols);
          },
          [&](const Shape &, const Group &g, size_t l, const std::vector<u32> &in, u32 *o) {
            const size_t gi = g.items[l].index;
            const int row = int(gi % rows), col = int((gi / rows) % cols);
            const u32 x = in[gi];
            const float base = float(x & 7u);
            float dot = 0.0f, weighted = base;
            int isum = int(x & 0xffu);
            u32 hash = x;
            int k;
            for (k = 0; k < depth; ++k) {
              float av = a[row * lda + k], bv = b[k * cols + col];
              dot += av * bv;
              weighted += av * base;
              isum += int(bv) - k;
              hash = hash * 31u + u32(int(av));
            }
            o[0] = u32(int(dot));
            o[1] = u32(int(weighted - base));
            o[2] = u32(isum);
            o[3] = hash;
            o[4] = u32(k);
            o[5] = u32(int(dot * base + float(k)));
            o[6] = (x * 0x2545f491u) ^ u32(k);
          });
    }
  }
}

// ---------------------------------------------------------------------------
// 2. Trip counts from the group's geometry: uniform within a group, different
// between groups (remainder groups have a smaller local size; the group id and
// the number of groups differ between dispatches), a loop in a branch on the
// group id, and a bound from the global size and the work dimension.
const char *kGeometry = R"CLC(
kernel void geometry(global const uint *in, global uint *out, uint salt) {
  uint x = in[GIDX];
  uint a = x, s = 0;
  for (uint i = 0; i < get_local_size(0); ++i) {
    a = a * 1664525u + (i ^ salt);
    s += i;
  }
  uint b = x, t = 0;
  for (uint j = 0; j < get_group_id(0) * 3u + 2u; ++j) {
    b = ((b << 3) | (b >> 29)) ^ (j * 0x9e3779b9u);
    t += 2u;
  }
  uint c = 0;
  for (size_t j = LSZ + get_group_id(1) + get_group_id(2); j > 0; --j) c += (x >> (j & 15)) & 1u;
  uint d = x;
  for (uint j = get_num_groups(0) + (uint)get_global_offset(0); j != 0u; --j) d = d * 7u + j;
  uint e = x;
  for (uint j = 0; j < get_local_size(1) * get_local_size(2) + 33u; ++j) e ^= e << 1 ^ j;
  uint f = x;
  for (size_t j = 0; j < get_enqueued_local_size(0) - get_local_size(0) + 40; ++j)
    f = f * 3u + (uint)j;
  uint h = x;
  if (GRP & 1u)  /* a uniform branch */
    for (uint j = 0; j < GRP + 35u; ++j) h = (h ^ j) * 0x01000193u;
  uint w = x;
  for (size_t j = 0; j < get_global_size(1) + get_work_dim() * 10u; ++j) w += w >> 3 ^ (uint)j;
  global uint *o = out + 10 * GIDX;
  o[0] = a; o[1] = s; o[2] = b; o[3] = t; o[4] = c; o[5] = d; o[6] = e; o[7] = f;
  o[8] = h; o[9] = w;
}
)CLC";

TEST_F(UniformLoops, TripCountsFromLocalSizeGroupIdAndNumGroups) {
  const cl_uint salt = 0x1234;
  checkItems(
      make(kGeometry, "geometry"), 10,
      [&](cl_kernel k, const Shape &) { return setKernelArgs(k, 2, salt); },
      [&](const Shape &s, const Group &g, size_t l, const std::vector<u32> &in, u32 *o) {
        const u32 x = in[g.items[l].index];
        u32 a = x, sum = 0;
        for (u32 i = 0; i < g.size[0]; ++i) {
          a = a * 1664525u + (i ^ salt);
          sum += i;
        }
        u32 b = x, t = 0;
        for (u32 j = 0; j < u32(g.id[0]) * 3u + 2u; ++j) {
          b = ((b << 3) | (b >> 29)) ^ (j * 0x9e3779b9u);
          t += 2u;
        }
        u32 c = 0;
        for (size_t j = g.count() + g.id[1] + g.id[2]; j > 0; --j) c += (x >> (j & 15)) & 1u;
        u32 d = x;
        for (u32 j = u32(s.groups(0) + s.offset[0]); j != 0u; --j) d = d * 7u + j;
        u32 e = x;
        for (u32 j = 0; j < u32(g.size[1] * g.size[2]) + 33u; ++j) e ^= e << 1 ^ j;
        u32 f = x;
        for (size_t j = 0; j < s.local[0] - g.size[0] + 40; ++j) f = f * 3u + u32(j);
        const u32 grp = u32(g.linearId);
        u32 h = x;
        if (grp & 1u)
          for (u32 j = 0; j < grp + 35u; ++j) h = (h ^ j) * 0x01000193u;
        u32 w = x;
        for (size_t j = 0; j < s.global[1] + s.dims * 10u; ++j) w += w >> 3 ^ u32(j);
        u32 want[10] = {a, sum, b, t, c, d, e, f, h, w};
        std::copy(want, want + 10, o);
      });
}

// ---------------------------------------------------------------------------
// 3. Uniform break (the counter reaching an argument) and continue, a
// do-while whose exit test is at the bottom, a while (1) left by a break, and
// a loop that goes on from the first one's counter with a uniform switch.
const char *kBreakContinue = R"CLC(
kernel void break_continue(global const uint *in, global uint *out, int limit, int stop,
                           int skip) {
  uint x = in[GIDX];
  uint acc = x;
  int i;
  for (i = 0; i < limit; ++i) {
    if (i == stop) break;
    if (i % skip == 0) continue;
    acc = acc * 3u + (uint)i;
  }
  uint d = x, rounds = 0;
  int m = limit;
  do {
    d = (d >> 1) ^ (d << 3) ^ (uint)m;
    ++rounds;
  } while (--m > stop);
  uint w = x & 0xffffu;
  int n = 0;
  while (1) {
    w = w * 5u + (uint)n;
    if (++n >= limit + skip) break;
  }
  int first_end = i;
  uint sw = x;
  for (; i < 2 * limit + 40; ++i) {  /* goes on from the first loop's counter */
    switch (i % 4) {
      case 0: sw += (uint)i; break;
      case 1: sw ^= sw >> 3; /* fall through */
      case 2: sw = sw * 7u + (x & 15u); break;
      default: sw = ~sw;
    }
  }
  global uint *o = out + 8 * GIDX;
  o[0] = acc; o[1] = (uint)first_end; o[2] = d; o[3] = rounds; o[4] = w; o[5] = (uint)n;
  o[6] = sw; o[7] = (uint)i;
}
)CLC";

TEST_F(UniformLoops, UniformBreakContinueAndBottomExit) {
  cl_kernel k = make(kBreakContinue, "break_continue");
  struct Case {
    cl_int limit, stop, skip;
  };
  for (Case c : {Case{60, 1000, 3}, Case{100, 47, 4}, Case{45, 0, 1}, Case{0, 5, 2}, Case{1, -1, 7},
                 Case{70, 69, 5}}) {
    SCOPED_TRACE("limit " + std::to_string(c.limit) + " stop " + std::to_string(c.stop) + " skip " +
                 std::to_string(c.skip));
    checkItems(
        k, 8,
        [&](cl_kernel k, const Shape &) { return setKernelArgs(k, 2, c.limit, c.stop, c.skip); },
        [&](const Shape &, const Group &g, size_t l, const std::vector<u32> &in, u32 *o) {
          const u32 x = in[g.items[l].index];
          u32 acc = x;
          int i;
          for (i = 0; i < c.limit; ++i) {
            if (i == c.stop) break;
            if (i % c.skip == 0) continue;
            acc = acc * 3u + u32(i);
          }
          u32 d = x, rounds = 0;
          int m = c.limit;
          do {
            d = (d >> 1) ^ (d << 3) ^ u32(m);
            ++rounds;
          } while (--m > c.stop);
          u32 w = x & 0xffffu;
          int n = 0;
          while (true) {
            w = w * 5u + u32(n);
            if (++n >= c.limit + c.skip) break;
          }
          const int firstEnd = i;
          u32 sw = x;
          for (; i < 2 * c.limit + 40; ++i) {
            switch (i % 4) {
              case 0:
                sw += u32(i);
                break;
              case 1:
                sw ^= sw >> 3;
                [[fallthrough]];
              case 2:
                sw = sw * 7u + (x & 15u);
                break;
              default:
                sw = ~sw;
            }
          }
          u32 want[8] = {acc, u32(firstEnd), d, rounds, w, u32(n), sw, u32(i)};
          std::copy(want, want + 8, o);
        });
  }
}

// A uniform return from inside the loop: every item leaves at the same
// iteration (or none does and the code after the loop runs).
const char *kReturnInLoop = R"CLC(
kernel void return_in_loop(global const uint *in, global uint *out, int limit, int at) {
  uint x = in[GIDX];
  global uint *o = out + 2 * GIDX;
  uint acc = x;
  for (int i = 0; i < limit; ++i) {
    acc = acc * 9u + (uint)i;
    if (i == at) {
      o[0] = acc;
      o[1] = (uint)i;
      return;
    }
  }
  o[0] = ~acc;
  o[1] = 12345u;
}
)CLC";

TEST_F(UniformLoops, UniformReturnFromInsideTheLoop) {
  cl_kernel k = make(kReturnInLoop, "return_in_loop");
  for (auto [limit, at] : {std::pair<cl_int, cl_int>{80, 50}, {80, 200}, {40, 0}, {0, 0}}) {
    SCOPED_TRACE("limit " + std::to_string(limit) + " at " + std::to_string(at));
    checkItems(
        k, 2, [&](cl_kernel k, const Shape &) { return setKernelArgs(k, 2, limit, at); },
        [&](const Shape &, const Group &g, size_t l, const std::vector<u32> &in, u32 *o) {
          u32 acc = in[g.items[l].index];
          for (int i = 0; i < limit; ++i) {
            acc = acc * 9u + u32(i);
            if (i == at) {
              o[0] = acc;
              o[1] = u32(i);
              return;
            }
          }
          o[0] = ~acc;
          o[1] = 12345u;
        });
  }
}

// ---------------------------------------------------------------------------
// 4. Divergence next to uniform loops: a divergent if inside a uniform loop
// (one the optimizer may turn into a select, one it cannot: it guards a load,
// and the same divergence written with select() and masks, no branch),
// a loop inside a divergent branch and a uniform loop right after that region.
const char *kDivergentInside = R"CLC(
kernel void divergent_inside(global const uint *in, global uint *out, int n, uint total) {
  uint lid = LID, x = in[GIDX];
  uint acc = x, odd = 0, far = x;
  for (int i = 0; i < n; ++i) {
    if (lid & 1) {
      acc = acc * 5u + (uint)i;
      ++odd;
    } else {
      acc ^= (uint)i << (i & 7);
    }
  }
  for (int i = 0; i < n; ++i) {
    if (lid % 3 == 0) far += in[(GIDX + (uint)i * 7u) % total];
    else far ^= (uint)i;
  }
  uint sel = x, masked = 0;
  for (int i = 0; i < n; ++i) {  /* the same divergence without a branch */
    sel = select(sel ^ ((uint)i << (i & 7)), sel * 5u + (uint)i, lid & 1u);
    masked += (0u - (lid & 1u)) & (uint)(i + 1);
  }
  global uint *o = out + 5 * GIDX;
  o[0] = acc; o[1] = odd; o[2] = far; o[3] = sel; o[4] = masked;
}
)CLC";

TEST_F(UniformLoops, DivergentIfInsideUniformLoop) {
  cl_kernel k = make(kDivergentInside, "divergent_inside");
  for (cl_int n : {0, 1, 40, 100}) {
    SCOPED_TRACE("n " + std::to_string(n));
    checkItems(
        k, 5,
        [&](cl_kernel k, const Shape &s) { return setKernelArgs(k, 2, n, cl_uint(s.items())); },
        [&](const Shape &s, const Group &g, size_t l, const std::vector<u32> &in, u32 *o) {
          const size_t gi = g.items[l].index, total = s.items();
          const u32 x = in[gi];
          u32 acc = x, odd = 0, far = x;
          for (int i = 0; i < n; ++i) {
            if (l & 1) {
              acc = acc * 5u + u32(i);
              ++odd;
            } else {
              acc ^= u32(i) << (i & 7);
            }
          }
          for (int i = 0; i < n; ++i) {
            if (l % 3 == 0)
              far += in[(gi + size_t(i) * 7) % total];
            else
              far ^= u32(i);
          }
          u32 sel = x, masked = 0;
          for (int i = 0; i < n; ++i) {
            sel = (l & 1) ? sel * 5u + u32(i) : sel ^ (u32(i) << (i & 7));
            if (l & 1) masked += u32(i + 1);
          }
          o[0] = acc;
          o[1] = odd;
          o[2] = far;
          o[3] = sel;
          o[4] = masked;
        });
  }
}

const char *kAfterDivergent = R"CLC(
kernel void after_divergent(global const uint *in, global uint *out, int n) {
  uint lid = LID, x = in[GIDX];
  uint v = x, inside = 0;
  if (lid < 3) {
    v = x * 7u + 1u;
    for (int i = 0; i < n; ++i) inside += (v >> (i & 15)) ^ (uint)i;
  }
  uint acc = v;
  for (int i = 0; i < n; ++i) acc = (acc * 33u) ^ (v + (uint)i);
  global uint *o = out + 3 * GIDX;
  o[0] = acc; o[1] = inside; o[2] = v;
}
)CLC";

TEST_F(UniformLoops, LoopAfterDivergentRegion) {
  cl_kernel k = make(kAfterDivergent, "after_divergent");
  for (cl_int n : {0, 1, 50, 100}) {
    SCOPED_TRACE("n " + std::to_string(n));
    checkItems(
        k, 3, [&](cl_kernel k, const Shape &) { return setKernelArgs(k, 2, n); },
        [&](const Shape &, const Group &g, size_t l, const std::vector<u32> &in, u32 *o) {
          const u32 x = in[g.items[l].index];
          u32 v = x, inside = 0;
          if (l < 3) {
            v = x * 7u + 1u;
            for (int i = 0; i < n; ++i) inside += (v >> (i & 15)) ^ u32(i);
          }
          u32 acc = v;
          for (int i = 0; i < n; ++i) acc = (acc * 33u) ^ (v + u32(i));
          o[0] = acc;
          o[1] = inside;
          o[2] = v;
        });
  }
}

// A loop after a divergent early return (the usual bounds check, and one that
// work-item 0 takes): only the remaining items run it.
const char *kAfterReturn = R"CLC(
kernel void after_return(global const uint *in, global uint *out, int n, uint cutoff,
                         uint shift) {
  uint lid = LID, x = in[GIDX];
  out[2 * GIDX] = 777u;
  out[2 * GIDX + 1] = lid;
  if ((lid + shift) % 4u == 0u || GIDX >= cutoff) return;
  uint acc = x;
  for (int i = 0; i < n; ++i) acc = acc * 3u + (x >> (i & 7));
  out[2 * GIDX] = acc;
}
)CLC";

TEST_F(UniformLoops, LoopAfterDivergentReturn) {
  cl_kernel k = make(kAfterReturn, "after_return");
  for (cl_uint shift : {0u, 1u}) {
    for (cl_int n : {0, 3, 60}) {
      SCOPED_TRACE("shift " + std::to_string(shift) + " n " + std::to_string(n));
      checkItems(
          k, 2,
          [&](cl_kernel k, const Shape &s) {
            return setKernelArgs(k, 2, n, cl_uint(s.items() - 5), shift);
          },
          [&](const Shape &s, const Group &g, size_t l, const std::vector<u32> &in, u32 *o) {
            const size_t gi = g.items[l].index;
            const u32 x = in[gi];
            o[0] = 777u;
            o[1] = u32(l);
            if ((l + shift) % 4 == 0 || gi >= s.items() - 5) return;
            u32 acc = x;
            for (int i = 0; i < n; ++i) acc = acc * 3u + (x >> (i & 7));
            o[0] = acc;
          });
    }
  }
}

// A uniform loop between two barriers that writes __local memory (each item
// its own slot), read by other items after the following barrier.
const char *kBetweenBarriers = R"CLC(
kernel void between_barriers(global const uint *in, global uint *out, local uint *buf, int n) {
  uint lid = LID, sz = LSZ;
  buf[lid] = in[GIDX];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint nb = buf[(lid + 1) % sz];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint acc = nb;
  for (int i = 0; i < n; ++i) {
    acc = acc * 3u + (uint)i;
    buf[lid] = (buf[lid] ^ acc) + (uint)i;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  global uint *o = out + 2 * GIDX;
  o[0] = buf[(lid + 2) % sz];
  o[1] = acc;
}
)CLC";

TEST_F(UniformLoops, LoopBetweenBarriersWritingLocalMemory) {
  cl_kernel k = make(kBetweenBarriers, "between_barriers");
  for (cl_int n : {0, 1, 45, 100}) {
    SCOPED_TRACE("n " + std::to_string(n));
    checkGroups(
        k, 2,
        [&](cl_kernel k, const Shape &s) {
          return setKernelArgs(k, 2, LocalBytes{s.groupItems() * 4}, n);
        },
        [&](const Shape &, const Group &, const std::vector<u32> &v) {
          const size_t sz = v.size();
          std::vector<u32> buf = v, acc(sz), out(2 * sz);
          for (size_t l = 0; l < sz; ++l) {
            acc[l] = v[(l + 1) % sz];
            for (int i = 0; i < n; ++i) {
              acc[l] = acc[l] * 3u + u32(i);
              buf[l] = (buf[l] ^ acc[l]) + u32(i);
            }
          }
          for (size_t l = 0; l < sz; ++l) {
            out[2 * l] = buf[(l + 2) % sz];
            out[2 * l + 1] = acc[l];
          }
          return out;
        });
  }
}

// ---------------------------------------------------------------------------
// 5. Nested loops: both uniform; a uniform outer loop around an inner loop
// whose trip count depends on the local id; a divergent outer loop around a
// uniform inner loop; three levels with a small constant middle loop. Built
// with and without -cl-opt-disable.
const char *kNested = R"CLC(
kernel void nested(global const uint *in, global uint *out, int outer, int inner) {
  uint lid = LID, x = in[GIDX];
  uint both = x;
  for (int p = 0; p < outer; ++p) {
    uint t = x + (uint)p;
    for (int i = 0; i < inner; ++i) {
      t = t * 1103515245u + 12345u + (uint)i;
      both += t >> 16;
    }
    both ^= t;
  }
  uint varying = x;
  for (int p = 0; p < outer; ++p)
    for (uint i = 0; i < lid % 5u + (uint)p; ++i) varying = varying * 3u + i;
  uint outer_div = x;
  for (uint p = 0; p < lid % 4u; ++p)
    for (int i = 0; i < inner; ++i) outer_div = (outer_div ^ (uint)i) * 7u + p;
  uint triple = x;
  for (int a = 0; a < outer; ++a)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < inner; ++c) triple += (uint)(a * b) ^ (triple >> 5) ^ (uint)c;
  global uint *o = out + 4 * GIDX;
  o[0] = both; o[1] = varying; o[2] = outer_div; o[3] = triple;
}
)CLC";

TEST_F(UniformLoops, NestedLoops) {
  for (const std::string options : {"-cl-std=CL3.0", "-cl-std=CL3.0 -cl-opt-disable"}) {
    SCOPED_TRACE(options);
    cl_kernel k = make(kNested, "nested", options);
    for (auto [outer, inner] :
         {std::pair<cl_int, cl_int>{3, 40}, {0, 50}, {5, 0}, {1, 1}, {2, 100}, {40, 33}}) {
      SCOPED_TRACE("outer " + std::to_string(outer) + " inner " + std::to_string(inner));
      checkItems(
          k, 4, [&](cl_kernel k, const Shape &) { return setKernelArgs(k, 2, outer, inner); },
          [&](const Shape &, const Group &g, size_t l, const std::vector<u32> &in, u32 *o) {
            const u32 x = in[g.items[l].index], lid = u32(l);
            u32 both = x;
            for (int p = 0; p < outer; ++p) {
              u32 t = x + u32(p);
              for (int i = 0; i < inner; ++i) {
                t = t * 1103515245u + 12345u + u32(i);
                both += t >> 16;
              }
              both ^= t;
            }
            u32 varying = x;
            for (int p = 0; p < outer; ++p)
              for (u32 i = 0; i < lid % 5u + u32(p); ++i) varying = varying * 3u + i;
            u32 outerDiv = x;
            for (u32 p = 0; p < lid % 4u; ++p)
              for (int i = 0; i < inner; ++i) outerDiv = (outerDiv ^ u32(i)) * 7u + p;
            u32 triple = x;
            for (int a = 0; a < outer; ++a)
              for (int b = 0; b < 3; ++b)
                for (int c = 0; c < inner; ++c) triple += u32(a * b) ^ (triple >> 5) ^ u32(c);
            o[0] = both;
            o[1] = varying;
            o[2] = outerDiv;
            o[3] = triple;
          });
    }
  }
}

// ---------------------------------------------------------------------------
// 6. Loops whose trip count differs, or may differ, between work-items (masked,
// not cut as uniform): a trip count from the local id, an exit that depends
// on memory (a Collatz walk), a divergent break out of a loop whose bound is
// uniform, a grid-stride loop over the global id, a trip count loaded from a
// buffer (the same within a group, but not provably so), a divergent
// continue, and a divergent loop carrying a private array and a float.
const char *kDivergentTrips = R"CLC(
kernel void divergent_trips(global const uint *in, global uint *out, int n,
                            global const int *limits) {
  uint lid = LID, x = in[GIDX];
  uint a = x;
  for (uint i = 0; i < lid * 3u + (x & 7u); ++i) a = a * 5u + i;
  uint v = (x & 0xfffu) + 1u, steps = 0;
  while (v != 1u) {
    v = (v & 1u) ? 3u * v + 1u : v >> 1;
    ++steps;
  }
  uint b = x;
  int i;
  for (i = 0; i < n; ++i) {
    if ((uint)i == (x & 63u)) break;
    b += (uint)i * x;
  }
  uint c = 0;
  for (size_t j = get_global_id(0); j < 4000; j += get_global_size(0)) c += (uint)j ^ x;
  uint d = x;
  for (int j = 0; j < limits[GRP % 4u]; ++j) d = d * 13u + (uint)j;
  uint e = x;
  for (int j = 0; j < n; ++j) {
    if ((x >> (j & 15)) & 1u) continue;  /* divergent continue */
    e = e * 3u + (uint)j;
  }
  uint p[8] = {x, 1u, 2u, 3u, 4u, 5u, 6u, 7u};
  float fs = 0.5f;
  for (uint j = 0; j < lid % 7u * 9u + (uint)n; ++j) {  /* private array, float */
    p[j & 7u] = p[(j + 5u) & 7u] * 3u + j;
    fs += 0.25f * (float)(j & 3u);
  }
  global uint *o = out + 10 * GIDX;
  o[0] = a; o[1] = steps; o[2] = b; o[3] = (uint)i; o[4] = c; o[5] = d; o[6] = e;
  o[7] = p[0] ^ p[3]; o[8] = p[6] + p[7]; o[9] = (uint)(int)(fs * 4.0f);
}
)CLC";

TEST_F(UniformLoops, DivergentTripCountsStayCorrect) {
  const std::vector<cl_int> limits = {0, 77, 3, 40};
  cl_mem ml = bufferFrom(limits);
  cl_kernel k = make(kDivergentTrips, "divergent_trips");
  for (cl_int n : {0, 30, 100}) {
    SCOPED_TRACE("n " + std::to_string(n));
    checkItems(
        k, 10, [&](cl_kernel k, const Shape &) { return setKernelArgs(k, 2, n, ml); },
        [&](const Shape &s, const Group &g, size_t l, const std::vector<u32> &in, u32 *o) {
          const Item &it = g.items[l];
          const u32 x = in[it.index], lid = u32(l);
          u32 a = x;
          for (u32 i = 0; i < lid * 3u + (x & 7u); ++i) a = a * 5u + i;
          u32 v = (x & 0xfffu) + 1u, steps = 0;
          while (v != 1u) {
            v = (v & 1u) ? 3u * v + 1u : v >> 1;
            ++steps;
          }
          u32 b = x;
          int i;
          for (i = 0; i < n; ++i) {
            if (u32(i) == (x & 63u)) break;
            b += u32(i) * x;
          }
          u32 c = 0;
          for (size_t j = it.global[0]; j < 4000; j += s.global[0]) c += u32(j) ^ x;
          u32 d = x;
          for (int j = 0; j < limits[g.linearId % 4]; ++j) d = d * 13u + u32(j);
          u32 e = x;
          for (int j = 0; j < n; ++j) {
            if ((x >> (j & 15)) & 1u) continue;
            e = e * 3u + u32(j);
          }
          u32 p[8] = {x, 1u, 2u, 3u, 4u, 5u, 6u, 7u};
          float fs = 0.5f;
          for (u32 j = 0; j < lid % 7u * 9u + u32(n); ++j) {
            p[j & 7u] = p[(j + 5u) & 7u] * 3u + j;
            fs += 0.25f * float(j & 3u);
          }
          u32 want[10] = {a, steps, b,           u32(i),      c,
                          d, e,     p[0] ^ p[3], p[6] + p[7], u32(int(fs * 4.0f))};
          std::copy(want, want + 10, o);
        });
  }
}

// Calls in and around loops: a bound from a non-inlined function of uniform
// arguments (uniform) and of the local id (divergent), a bound from a function
// that reads the local id itself (inlined), a non-inlined function with a
// loop of its own called in a divergent branch and in uniform flow, and a
// uniform loop calling non-inlined functions, one of them through a pointer
// to a private variable.
const char *kCalls = R"CLC(
__attribute__((noinline)) uint mix(uint a, uint b) { return (a ^ (b * 0x9e3779b9u)) + (a >> 7); }
__attribute__((noinline)) int bound(int n, uint k) { return n + (int)(k % 3u); }
uint local_bound(void) { return LID % 6u + 30u; }
__attribute__((noinline)) void advance(uint *state, uint i) { *state = *state * 5u + i; }
__attribute__((noinline)) uint sum_to(global const uint *p, int n) {
  uint s = 0;
  for (int i = 0; i < n; ++i) s = s * 3u + p[i];
  return s;
}
kernel void calls(global const uint *in, global uint *out, int n, global const uint *table) {
  uint lid = LID, x = in[GIDX];
  uint a = x;
  for (int i = 0; i < bound(n, 4u); ++i) a = mix(a, (uint)i);
  uint b = x;
  for (int i = 0; i < bound(n, lid); ++i) b = mix(b, (uint)i + 1u);
  uint c = x;
  for (uint i = 0; i < local_bound(); ++i) c = c * 3u + i;
  uint d = 0;
  if (lid & 1) d = sum_to(table, n + (int)(lid % 5u));
  uint e = sum_to(table, n) ^ x;
  uint f = x, st = x ^ lid;
  for (int i = 0; i < n; ++i) {  /* uniform bound, calls in the body */
    f = mix(f, (uint)i);
    advance(&st, (uint)i);
  }
  global uint *o = out + 7 * GIDX;
  o[0] = a; o[1] = b; o[2] = c; o[3] = d; o[4] = e; o[5] = f; o[6] = st;
}
)CLC";

TEST_F(UniformLoops, CallsInAndAroundLoops) {
  std::vector<int> tableData = randomInts(128, 0, 1 << 30);
  std::vector<u32> table(tableData.begin(), tableData.end());
  cl_mem mt = bufferFrom(table);
  cl_kernel k = make(kCalls, "calls");
  auto mix = [](u32 a, u32 b) { return (a ^ (b * 0x9e3779b9u)) + (a >> 7); };
  auto bound = [](int n, u32 k) { return n + int(k % 3u); };
  auto sumTo = [&](int n) {
    u32 s = 0;
    for (int i = 0; i < n; ++i) s = s * 3u + table[i];
    return s;
  };
  for (cl_int n : {0, 1, 40, 100}) {
    SCOPED_TRACE("n " + std::to_string(n));
    checkItems(
        k, 7, [&](cl_kernel k, const Shape &) { return setKernelArgs(k, 2, n, mt); },
        [&](const Shape &, const Group &g, size_t l, const std::vector<u32> &in, u32 *o) {
          const u32 x = in[g.items[l].index], lid = u32(l);
          u32 a = x;
          for (int i = 0; i < bound(n, 4u); ++i) a = mix(a, u32(i));
          u32 b = x;
          for (int i = 0; i < bound(n, lid); ++i) b = mix(b, u32(i) + 1u);
          u32 c = x;
          for (u32 i = 0; i < lid % 6u + 30u; ++i) c = c * 3u + i;
          u32 d = (lid & 1) ? sumTo(n + int(lid % 5u)) : 0u;
          u32 f = x, st = x ^ lid;
          for (int i = 0; i < n; ++i) {
            f = mix(f, u32(i));
            st = st * 5u + u32(i);
          }
          u32 want[7] = {a, b, c, d, sumTo(n) ^ x, f, st};
          std::copy(want, want + 7, o);
        });
  }
}

// ---------------------------------------------------------------------------
// 7. Vector values carried by a uniform loop (float4, uint4, int4, a swizzle
// rotating every iteration), a private array indexed by the counter, and one
// whose contents are the same in every item until a divergent update after
// the loop.
const char *kVectors = R"CLC(
kernel void vectors(global const uint *in, global uint *out, int n) {
  uint lid = LID, x = in[GIDX];
  float4 f = (float4)((float)(x & 15u), (float)((x >> 4) & 15u), 1.0f, -2.0f);
  uint4 v = (uint4)(x, x >> 3, lid, 7u);
  float4 fa = (float4)(0.0f);
  uint4 ua = (uint4)(1u);
  int4 ia = (int4)(0);
  uint p[8];
  uint q[4] = {1u, 2u, 3u, 4u};
  for (int k = 0; k < 8; ++k) p[k] = x + (uint)k * lid;
  for (int i = 0; i < n; ++i) {
    fa += f * (float)(i & 3);
    ua = ua * 3u + v.yzwx + (uint)i;
    ia += (int4)(i, -i, (int)(x & 3u), -1);
    p[i & 7] = p[(i + 3) & 7] * 5u + (uint)i;
    q[i & 3] += q[(i + 1) & 3] ^ (uint)i;  /* the same in every item */
    v = v.wxyz;
  }
  if (lid & 1) q[(x >> 2) & 3] ^= x;       /* then no longer */
  global uint *o = out + 22 * GIDX;
  o[20] = q[0] + 3u * q[1]; o[21] = q[2] ^ (q[3] << 1);
  int4 fi = convert_int4(fa);
  o[0] = (uint)fi.x; o[1] = (uint)fi.y; o[2] = (uint)fi.z; o[3] = (uint)fi.w;
  o[4] = ua.x; o[5] = ua.y; o[6] = ua.z; o[7] = ua.w;
  o[8] = (uint)ia.x; o[9] = (uint)ia.y; o[10] = (uint)ia.z; o[11] = (uint)ia.w;
  for (int k = 0; k < 8; ++k) o[12 + k] = p[k];
}
)CLC";

TEST_F(UniformLoops, VectorValuesAndPrivateArrayIndexedByCounter) {
  cl_kernel k = make(kVectors, "vectors");
  for (cl_int n : {0, 1, 7, 64, 100}) {
    SCOPED_TRACE("n " + std::to_string(n));
    checkItems(
        k, 22, [&](cl_kernel k, const Shape &) { return setKernelArgs(k, 2, n); },
        [&](const Shape &, const Group &g, size_t l, const std::vector<u32> &in, u32 *o) {
          const u32 x = in[g.items[l].index], lid = u32(l);
          std::array<float, 4> f = {float(x & 15u), float((x >> 4) & 15u), 1.0f, -2.0f};
          std::array<u32, 4> v = {x, x >> 3, lid, 7u};
          std::array<float, 4> fa{};
          std::array<u32, 4> ua = {1u, 1u, 1u, 1u};
          std::array<int, 4> ia{};
          u32 p[8], q[4] = {1u, 2u, 3u, 4u};
          for (u32 k = 0; k < 8; ++k) p[k] = x + k * lid;
          for (int i = 0; i < n; ++i) {
            std::array<int, 4> step = {i, -i, int(x & 3u), -1};
            for (int c = 0; c < 4; ++c) {
              fa[c] += f[c] * float(i & 3);
              ua[c] = ua[c] * 3u + v[(c + 1) % 4] + u32(i);  // v.yzwx
              ia[c] += step[c];
            }
            p[i & 7] = p[(i + 3) & 7] * 5u + u32(i);
            q[i & 3] += q[(i + 1) & 3] ^ u32(i);
            v = {v[3], v[0], v[1], v[2]};  // v.wxyz
          }
          if (lid & 1) q[(x >> 2) & 3] ^= x;
          o[20] = q[0] + 3u * q[1];
          o[21] = q[2] ^ (q[3] << 1);
          for (int c = 0; c < 4; ++c) {
            o[c] = u32(int(fa[c]));
            o[4 + c] = ua[c];
            o[8 + c] = u32(ia[c]);
          }
          for (int k = 0; k < 8; ++k) o[12 + k] = p[k];
        });
  }
}

// ---------------------------------------------------------------------------
// 8. Uniform loops in a kernel with explicit barriers in another loop: one
// before it, one inside it between its barriers (reading __local memory, and
// a divergent one beside it) and one after it.
const char *kBesideBarriers = R"CLC(
kernel void beside_barriers(global const uint *in, global uint *out, local uint *buf, int n,
                            int rounds) {
  uint lid = LID, sz = LSZ;
  uint acc = in[GIDX];
  for (int i = 0; i < n; ++i) acc = acc * 7u + (uint)i;
  for (int r = 0; r < rounds; ++r) {
    buf[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint s = 0;
    for (int i = 0; i < n; ++i) s += buf[(lid + (uint)i) % sz] ^ (uint)i;
    for (uint i = 0; i < lid % 7u + (uint)r; ++i) s = s * 5u + buf[(lid * 3u + i) % sz];
    barrier(CLK_LOCAL_MEM_FENCE);
    acc = acc * 3u + s + (uint)r;
  }
  for (int i = 0; i < n; ++i) acc ^= acc >> ((i & 7) + 1);
  out[GIDX] = acc;
}
)CLC";

TEST_F(UniformLoops, UniformLoopsBesideABarrierLoop) {
  cl_kernel k = make(kBesideBarriers, "beside_barriers");
  for (auto [n, rounds] : {std::pair<cl_int, cl_int>{0, 3}, {1, 1}, {40, 3}, {100, 2}, {50, 0}}) {
    SCOPED_TRACE("n " + std::to_string(n) + " rounds " + std::to_string(rounds));
    checkGroups(
        k, 1,
        [&](cl_kernel k, const Shape &s) {
          return setKernelArgs(k, 2, LocalBytes{s.groupItems() * 4}, n, rounds);
        },
        [&](const Shape &, const Group &, const std::vector<u32> &v) {
          const size_t sz = v.size();
          std::vector<u32> acc = v;
          for (u32 &a : acc)
            for (int i = 0; i < n; ++i) a = a * 7u + u32(i);
          for (int r = 0; r < rounds; ++r) {
            std::vector<u32> buf = acc;
            for (size_t l = 0; l < sz; ++l) {
              u32 s = 0;
              for (int i = 0; i < n; ++i) s += buf[(l + size_t(i)) % sz] ^ u32(i);
              for (u32 i = 0; i < u32(l) % 7u + u32(r); ++i) s = s * 5u + buf[(l * 3 + i) % sz];
              acc[l] = acc[l] * 3u + s + u32(r);
            }
          }
          for (u32 &a : acc)
            for (int i = 0; i < n; ++i) a ^= a >> ((i & 7) + 1);
          return acc;
        });
  }
}

// Uniform loops around work-group collectives: one feeding a reduction, one
// consuming its result.
const char *kAroundCollectives = R"CLC(
kernel void around_collectives(global const uint *in, global uint *out, int n) {
  uint x = in[GIDX] & 0xffffu, acc = x;
  for (int i = 0; i < n; ++i) acc = acc * 3u + (uint)i;
  uint total = work_group_reduce_add(acc);
  uint m = total;
  for (int i = 0; i < n; ++i) m = m * 5u + (x ^ (uint)i);
  uint top = work_group_reduce_max(m);
  global uint *o = out + 3 * GIDX;
  o[0] = total; o[1] = m; o[2] = top;
}
)CLC";

TEST_F(UniformLoops, UniformLoopsAroundWorkGroupCollectives) {
  if (!hasFeature("__opencl_c_work_group_collective_functions"))
    GTEST_SKIP() << "no work-group collective functions";
  cl_kernel k = make(kAroundCollectives, "around_collectives");
  for (cl_int n : {0, 1, 60}) {
    SCOPED_TRACE("n " + std::to_string(n));
    checkGroups(
        k, 3, [&](cl_kernel k, const Shape &) { return setKernelArgs(k, 2, n); },
        [&](const Shape &, const Group &, const std::vector<u32> &v) {
          const size_t sz = v.size();
          u32 total = 0, top = 0;
          std::vector<u32> m(sz), out(3 * sz);
          for (size_t l = 0; l < sz; ++l) {
            u32 acc = v[l] & 0xffffu;
            for (int i = 0; i < n; ++i) acc = acc * 3u + u32(i);
            total += acc;
          }
          for (size_t l = 0; l < sz; ++l) {
            m[l] = total;
            for (int i = 0; i < n; ++i) m[l] = m[l] * 5u + ((v[l] & 0xffffu) ^ u32(i));
            top = std::max(top, m[l]);
          }
          for (size_t l = 0; l < sz; ++l) {
            out[3 * l] = total;
            out[3 * l + 1] = m[l];
            out[3 * l + 2] = top;
          }
          return out;
        });
  }
}

// Atomics on __global and __local memory in a uniform loop (and on __local
// memory in a divergent one); their totals do not depend on the order of the
// work-items.
const char *kAtomics = R"CLC(
kernel void atomics(global const uint *in, global uint *out, global uint *counts,
                    local uint *tally, int n) {
  uint lid = LID, x = in[GIDX];
  if (lid == 0) *tally = 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = 0; i < n; ++i) {
    atomic_add(&counts[GRP], (x >> (i & 15)) & 1u);
    atomic_add(tally, 1u + (uint)i);
  }
  for (uint i = 0; i < lid % 5u; ++i) atomic_add(tally, 1000u);  /* divergent */
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  out[2 * GIDX] = *tally;
  out[2 * GIDX + 1] = atomic_add(&counts[GRP], 0u);
}
)CLC";

TEST_F(UniformLoops, AtomicsInUniformLoop) {
  cl_kernel k = make(kAtomics, "atomics");
  for (cl_int n : {0, 1, 70}) {
    SCOPED_TRACE("n " + std::to_string(n));
    checkGroups(
        k, 2,
        [&](cl_kernel k, const Shape &s) {
          cl_mem counts = bufferFrom(std::vector<u32>(s.groupCount(), 0u));
          return setKernelArgs(k, 2, counts, LocalBytes{4}, n);
        },
        [&](const Shape &, const Group &, const std::vector<u32> &v) {
          const size_t sz = v.size();
          u32 tally = 0, count = 0;
          for (size_t l = 0; l < sz; ++l) {
            for (int i = 0; i < n; ++i) {
              count += (v[l] >> (i & 15)) & 1u;
              tally += 1u + u32(i);
            }
            tally += u32(l % 5) * 1000u;
          }
          std::vector<u32> out(2 * sz);
          for (size_t l = 0; l < sz; ++l) {
            out[2 * l] = tally;
            out[2 * l + 1] = count;
          }
          return out;
        });
  }
}

// Atomics in loops whose trip count differs between work-items (masked
// loops): __local atomics into bins, and a work queue whose exit depends on
// what a global atomic returns. Which work-item takes which ticket depends on
// how work-items interleave; the group's totals do not.
const char *kDivergentAtomics = R"CLC(
kernel void divergent_atomics(global const uint *in, global uint *out, global uint *next,
                              local uint *bins) {
  uint lid = LID, sz = LSZ, x = in[GIDX];
  for (uint b = lid; b < 17u; b += sz) bins[b] = 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = 0; i < (x & 7u) + lid % 3u; ++i) atomic_inc(&bins[(x + i) & 15u]);
  uint t, taken = 0;
  while ((t = atomic_inc(&next[GRP])) < 3u * sz) taken += t;
  atomic_add(&bins[16], taken);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[2 * GIDX] = bins[lid % 16u];
  out[2 * GIDX + 1] = bins[16];
}
)CLC";

TEST_F(UniformLoops, AtomicsInDivergentLoops) {
  checkGroups(
      make(kDivergentAtomics, "divergent_atomics"), 2,
      [&](cl_kernel k, const Shape &s) {
        cl_mem next = bufferFrom(std::vector<u32>(s.groupCount(), 0u));
        return setKernelArgs(k, 2, next, LocalBytes{17 * 4});
      },
      [&](const Shape &, const Group &, const std::vector<u32> &v) {
        const size_t sz = v.size();
        std::vector<u32> bins(16, 0u);
        for (size_t l = 0; l < sz; ++l)
          for (u32 i = 0; i < (v[l] & 7u) + u32(l % 3); ++i) ++bins[(v[l] + i) & 15u];
        u32 tickets = 3u * u32(sz), total = tickets * (tickets - 1) / 2;
        std::vector<u32> out(2 * sz);
        for (size_t l = 0; l < sz; ++l) {
          out[2 * l] = bins[l % 16];
          out[2 * l + 1] = total;
        }
        return out;
      });
}

// Counters of masked loops, which Lockstep computes from the round the loop
// is in: a start and a step of each work-item's own, the counter read after
// the loop, a loop entered again by an outer loop (its count starts over),
// and a 32-bit counter that wraps around.
const char *kMaskedCounters = R"CLC(
kernel void masked_counters(global const uint *in, global uint *out) {
  uint lid = LID, x = in[GIDX];
  uint acc = 0;
  for (uint outer = 0; outer < 3u; ++outer) {
    uint i;
    for (i = lid % 7u; i < 40u + (x & 15u); i += 3u + (lid & 3u)) acc += i * (outer + 1u);
    acc ^= i << outer;
  }
  uint w = 0xfffffff0u + (x & 7u), steps = 0;
  while (w != 5u) {
    w += 1u;
    ++steps;
  }
  out[2 * GIDX] = acc;
  out[2 * GIDX + 1] = steps * 1000u + w;
}
)CLC";

TEST_F(UniformLoops, MaskedLoopCounters) {
  checkGroups(
      make(kMaskedCounters, "masked_counters"), 2,
      [&](cl_kernel, const Shape &) { return CL_SUCCESS; },
      [&](const Shape &, const Group &, const std::vector<u32> &v) {
        const size_t sz = v.size();
        std::vector<u32> out(2 * sz);
        for (size_t l = 0; l < sz; ++l) {
          u32 x = v[l], acc = 0;
          for (u32 outer = 0; outer < 3u; ++outer) {
            u32 i;
            for (i = u32(l % 7); i < 40u + (x & 15u); i += 3u + (u32(l) & 3u)) acc += i * (outer + 1u);
            acc ^= i << outer;
          }
          u32 w = 0xfffffff0u + (x & 7u), steps = 0;
          while (w != 5u) {
            w += 1u;
            ++steps;
          }
          out[2 * l] = acc;
          out[2 * l + 1] = steps * 1000u + w;
        }
        return out;
      });
}

// Divergent loops that write memory: one whose exit reads the __local word it
// decrements, one storing to __global memory a number of times that depends on
// the local id (the rest of the item's slots written by a second loop), read
// after a barrier by a neighbour.
const char *kDivergentStores = R"CLC(
kernel void divergent_stores(global const uint *in, global uint *out, local uint *buf) {
  uint lid = LID, sz = LSZ, x = in[GIDX];
  buf[lid] = x & 0xffu;
  uint cnt = 0;
  while (buf[lid] > 2u) {
    buf[lid] -= 3u;
    ++cnt;
  }
  global uint *o = out + 9 * GIDX;
  uint i;
  for (i = 0; i < lid % 9u; ++i) o[i] = x + i * 0x101u;
  for (; i < 8u; ++i) o[i] = ~x ^ i;
  barrier(CLK_LOCAL_MEM_FENCE);
  o[8] = buf[(lid + 1) % sz] + cnt * 1000u;
}
)CLC";

TEST_F(UniformLoops, DivergentLoopsWritingMemory) {
  checkGroups(
      make(kDivergentStores, "divergent_stores"), 9,
      [&](cl_kernel k, const Shape &s) {
        return setKernelArgs(k, 2, LocalBytes{s.groupItems() * 4});
      },
      [&](const Shape &, const Group &, const std::vector<u32> &v) {
        const size_t sz = v.size();
        std::vector<u32> buf(sz), cnt(sz), out(9 * sz);
        for (size_t l = 0; l < sz; ++l) {
          buf[l] = v[l] & 0xffu;
          while (buf[l] > 2u) {
            buf[l] -= 3u;
            ++cnt[l];
          }
          u32 i;
          for (i = 0; i < u32(l % 9); ++i) out[9 * l + i] = v[l] + i * 0x101u;
          for (; i < 8u; ++i) out[9 * l + i] = ~v[l] ^ i;
        }
        for (size_t l = 0; l < sz; ++l) out[9 * l + 8] = buf[(l + 1) % sz] + cnt[l] * 1000u;
        return out;
      });
}

// Divergent loops of a few rounds: a counter with a constant step leaving at
// a constant bound, from a first value known not to be below zero (unsigned,
// or built from local ids by constant factors), at most four rounds for any
// work-item; the compiler unrolls those rather than masking them. Strict and
// inclusive bounds, a counter read after its loop, a signed counter that may
// start below zero (masked, not unrolled), such a loop inside a uniform
// loop, stores to __global memory, and a tile of __local memory filled in two
// rounds and read after a barrier.
const char *kFewRounds = R"CLC(
kernel void few_rounds(global const uint *in, global uint *out, local uint *tile, int n) {
  uint lid = LID, sz = LSZ, x = in[GIDX];
  uint a = x;
  for (uint i = lid; i < 300u; i += 128u) a = a * 7u + i;
  uint j, b = 0;
  for (j = lid % 50u; j <= 70u; j += 32u) b += j ^ x;
  int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
  int c = 0, k;
  for (k = ly * 4 + lx; k < 37; k += 16) c += k * (int)(x & 15u);
  int e = 0;
  for (int m = (int)(lid % 9u) - 5; m < 20; m += 8) e += m;
  uint f = x;
  for (int r = 0; r < n; ++r)
    for (uint i = lid; i < 100u; i += 64u) f = f * 3u + i + (uint)r;
  global uint *o = out + 28 * GIDX;
  for (uint i = 0; i < 20u; ++i) o[8 + i] = i;
  for (uint i = lid % 8u; i < 20u; i += 8u) o[8 + i] = x + i * 0x10001u;
  for (uint i = lid; i < 1500u; i += 1024u) tile[i] = i * 0x9e3779b9u + 1u;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint t = tile[lid * 7u % sz] ^ tile[1024u + lid * 3u % min(sz, 476u)];
  o[0] = a; o[1] = b; o[2] = j; o[3] = (uint)c; o[4] = (uint)k; o[5] = (uint)e; o[6] = f; o[7] = t;
}
)CLC";

TEST_F(UniformLoops, FewRoundDivergentLoops) {
  cl_kernel k = make(kFewRounds, "few_rounds");
  for (cl_int n : {0, 3}) {
    SCOPED_TRACE("n " + std::to_string(n));
    checkItems(
        k, 28, [&](cl_kernel k, const Shape &) { return setKernelArgs(k, 2, LocalBytes{1500 * 4}, n); },
        [&](const Shape &, const Group &g, size_t l, const std::vector<u32> &in, u32 *o) {
          const Item &it = g.items[l];
          const u32 x = in[it.index], lid = u32(l), sz = u32(g.count());
          u32 a = x;
          for (u32 i = lid; i < 300u; i += 128u) a = a * 7u + i;
          u32 j, b = 0;
          for (j = lid % 50u; j <= 70u; j += 32u) b += j ^ x;
          int lx = int(it.local[0]), ly = int(it.local[1]);
          int c = 0, kk;
          for (kk = ly * 4 + lx; kk < 37; kk += 16) c += kk * int(x & 15u);
          int e = 0;
          for (int m = int(lid % 9u) - 5; m < 20; m += 8) e += m;
          u32 f = x;
          for (int r = 0; r < n; ++r)
            for (u32 i = lid; i < 100u; i += 64u) f = f * 3u + i + u32(r);
          for (u32 i = 0; i < 20u; ++i) o[8 + i] = i;
          for (u32 i = lid % 8u; i < 20u; i += 8u) o[8 + i] = x + i * 0x10001u;
          auto tile = [](u32 i) { return i * 0x9e3779b9u + 1u; };
          u32 t = tile(lid * 7u % sz) ^ tile(1024u + lid * 3u % std::min(sz, 476u));
          u32 want[8] = {a, b, j, u32(c), u32(kk), u32(e), f, t};
          std::copy(want, want + 8, o);
        });
  }
}

// A kernel with a sub-group barrier (which runs sub-group by sub-group, so
// no loop of it is cut) and loops of both kinds.
const char *kWithSubGroupBarrier = R"CLC(
kernel void with_sub_group_barrier(global const uint *in, global uint *out, int n) {
  uint lid = LID, x = in[GIDX];
  uint a = x;
  for (int i = 0; i < n; ++i) a = a * 3u + (uint)i;
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  uint b = x;
  for (uint i = 0; i < lid % 6u + (uint)n; ++i) b = (b ^ i) * 0x01000193u;
  global uint *o = out + 2 * GIDX;
  o[0] = a; o[1] = b;
}
)CLC";

TEST_F(UniformLoops, KernelWithSubGroupBarrier) {
  if (!hasFeature("__opencl_c_subgroups") && !hasFeature("cl_khr_subgroups"))
    GTEST_SKIP() << "no sub-groups";
  std::string options = "-cl-std=CL3.0";
  std::string source = kWithSubGroupBarrier;
  if (!hasFeature("__opencl_c_subgroups"))
    source = "#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n" + source;
  cl_kernel k = make(source, "with_sub_group_barrier", options);
  for (cl_int n : {0, 50}) {
    SCOPED_TRACE("n " + std::to_string(n));
    checkItems(
        k, 2, [&](cl_kernel k, const Shape &) { return setKernelArgs(k, 2, n); },
        [&](const Shape &, const Group &g, size_t l, const std::vector<u32> &in, u32 *o) {
          const u32 x = in[g.items[l].index];
          u32 a = x, b = x;
          for (int i = 0; i < n; ++i) a = a * 3u + u32(i);
          for (u32 i = 0; i < u32(l % 6) + u32(n); ++i) b = (b ^ i) * 0x01000193u;
          o[0] = a;
          o[1] = b;
        });
  }
}

// Masked loops whose first rounds every work-item of the group runs, which
// run without their exit test: counters that start apart and pass a bound
// the group shares, signed and unsigned, 32 and 64 bits, going up and down,
// strict and inclusive, from a group-wide step, a local size or an argument
// (n below every start, at 0, past all of them), an unsigned counter that
// wraps past 2^32 after its sure rounds, and a loop entered again by an
// outer loop with another step each time.
const char *kSureRounds = R"CLC(
kernel void sure_rounds(global const uint *in, global uint *out, int n, int step, uint ubound,
                        long n64) {
  uint lid = LID, x = in[GIDX];
  uint a = 0, ca = 0;
  for (int i = (int)lid - 3; i < n; i += step) { a = a * 31u + (uint)i + x; ++ca; }
  uint b = 0;
  for (int i = (int)(lid * 2u); i <= n; i += 5) b += (uint)i ^ x;
  uint c = 0, cc = 0, w;
  for (w = lid; w < 0xe0000000u; w += 0x60000000u) { c += w >> 20; ++cc; }
  uint d = 0;
  for (uint i = lid % 5u; i <= ubound; i += 3u) d += i * x;
  int e = 0;
  for (int i = n - (int)lid; i >= -7; i -= step) e += i;
  uint f = 0;
  for (uint i = ubound + lid; i > 6u; i -= 7u) f = f * 3u + i;
  ulong g = 0;
  for (long i = (long)lid; i < n64; i += (long)step) g += (ulong)i * x;
  ulong h = 0;
  for (size_t i = lid; i < (size_t)n64; i += get_local_size(0)) h ^= i + x;
  uint o = 0;
  for (int r = 0; r < 3; ++r)
    for (int i = (int)lid + r; i < n; i += step + r) o += (uint)(i * (r + 1));
  global uint *p = out + 13 * GIDX;
  p[0] = a; p[1] = ca; p[2] = b; p[3] = c; p[4] = cc; p[5] = w; p[6] = d; p[7] = (uint)e;
  p[8] = f; p[9] = (uint)g; p[10] = (uint)(g >> 32); p[11] = (uint)h; p[12] = o;
}
)CLC";

TEST_F(UniformLoops, SureRoundsOfMaskedLoops) {
  cl_kernel k = make(kSureRounds, "sure_rounds");
  struct Case {
    cl_int n, step;
    cl_uint ubound;
    cl_long n64;
  };
  for (Case c : {Case{-5, 1, 0, 0}, Case{0, 7, 30, 10}, Case{40, 3, 500, 700}, Case{1000, 64, 2000, 5000}}) {
    SCOPED_TRACE("n " + std::to_string(c.n) + " step " + std::to_string(c.step));
    checkItems(
        k, 13, [&](cl_kernel k, const Shape &) { return setKernelArgs(k, 2, c.n, c.step, c.ubound, c.n64); },
        [&](const Shape &, const Group &g, size_t l, const std::vector<u32> &in, u32 *p) {
          const u32 x = in[g.items[l].index], lid = u32(l);
          u32 a = 0, ca = 0;
          for (int32_t i = int32_t(lid) - 3; i < c.n; i += c.step) {
            a = a * 31u + u32(i) + x;
            ++ca;
          }
          u32 b = 0;
          for (int32_t i = int32_t(lid * 2u); i <= c.n; i += 5) b += u32(i) ^ x;
          u32 cs = 0, cc = 0, w;
          for (w = lid; w < 0xe0000000u; w += 0x60000000u) {
            cs += w >> 20;
            ++cc;
          }
          u32 d = 0;
          for (u32 i = lid % 5u; i <= c.ubound; i += 3u) d += i * x;
          int32_t e = 0;
          for (int32_t i = c.n - int32_t(lid); i >= -7; i -= c.step) e += i;
          u32 f = 0;
          for (u32 i = c.ubound + lid; i > 6u; i -= 7u) f = f * 3u + i;
          uint64_t gs = 0;
          for (int64_t i = int64_t(lid); i < c.n64; i += int64_t(c.step)) gs += uint64_t(i) * x;
          uint64_t h = 0;
          for (uint64_t i = lid; i < uint64_t(c.n64); i += g.size[0]) h ^= i + x;
          u32 o = 0;
          for (int32_t r = 0; r < 3; ++r)
            for (int32_t i = int32_t(lid) + r; i < c.n; i += c.step + r) o += u32(i * (r + 1));
          u32 want[13] = {a, ca, b, cs, cc, w, d, u32(e), f, u32(gs), u32(gs >> 32), u32(h), o};
          std::copy(want, want + 13, p);
        });
  }
}

// ---------------------------------------------------------------------------
// Counters of other kinds: a float counter with a float step, a uchar counter
// that wraps around, a doubling step, a 64-bit counter counting down from a
// large value, a while loop stepping down by 3, a pointer walk over a buffer
// shared by all items, and a bound from a struct passed by value.
const char *kCounters = R"CLC(
typedef struct { int n; uint salt; } Params;
kernel void counters(global const uint *in, global uint *out, int n, float limit, float step,
                     uchar from, uchar to, ulong big, global const uint *shared, Params params) {
  uint x = in[GIDX];
  uint a = x;
  int fc = 0;
  for (float t = 0.0f; t < limit; t += step) {
    a = a * 3u + (uint)(int)t;
    ++fc;
  }
  uint b = x;
  for (uchar c = from; c != to; ++c) b = b * 5u + c;
  uint d = x;
  for (uint s = 1; s < (uint)n; s *= 2u) d ^= d * s + s;
  uint e = x;
  for (long j = (long)big; j > (long)big - n; --j) e += (uint)(j >> 30) ^ (uint)j;
  uint f = x;
  int k = n;
  while (k > 0) {
    f = f * 11u + (uint)k;
    k -= 3;
  }
  uint g = x;
  for (global const uint *p = shared; p != shared + n; ++p) g = g * 17u + *p;
  uint h = x;
  for (int j = 0; j < params.n; ++j) h = h * 7u + (params.salt ^ (uint)j);
  global uint *o = out + 9 * GIDX;
  o[0] = a; o[1] = (uint)fc; o[2] = b; o[3] = d; o[4] = e; o[5] = f; o[6] = (uint)k; o[7] = g;
  o[8] = h;
}
)CLC";

// The same layout on both sides: two 4-byte members.
struct Params {
  cl_int n;
  cl_uint salt;
};
static_assert(sizeof(Params) == 8);

TEST_F(UniformLoops, CountersOfOtherKinds) {
  std::vector<int> sharedData = randomInts(128, 0, 1 << 30);
  std::vector<u32> shared(sharedData.begin(), sharedData.end());
  cl_mem ms = bufferFrom(shared);
  cl_kernel k = make(kCounters, "counters");
  const cl_ulong big = 5000000000ull;
  const Params params = {61, 0xc0ffeeu};
  struct Case {
    cl_int n;
    cl_float limit, step;
    cl_uchar from, to;
  };
  for (Case c : {Case{0, 0.0f, 1.0f, 7, 7}, Case{1, 1.0f, 0.5f, 255, 0},
                 Case{100, 37.5f, 0.5f, 250, 40}, Case{47, 20.0f, 0.25f, 3, 90}}) {
    SCOPED_TRACE("n " + std::to_string(c.n) + " limit " + std::to_string(c.limit));
    checkItems(
        k, 9,
        [&](cl_kernel k, const Shape &) {
          return setKernelArgs(k, 2, c.n, c.limit, c.step, c.from, c.to, big, ms, params);
        },
        [&](const Shape &, const Group &g, size_t l, const std::vector<u32> &in, u32 *o) {
          const u32 x = in[g.items[l].index];
          u32 a = x;
          int fc = 0;
          for (float t = 0.0f; t < c.limit; t += c.step) {
            a = a * 3u + u32(int(t));
            ++fc;
          }
          u32 b = x;
          for (uint8_t ch = c.from; ch != c.to; ++ch) b = b * 5u + ch;
          u32 d = x;
          for (u32 s = 1; s < u32(c.n); s *= 2u) d ^= d * s + s;
          u32 e = x;
          for (int64_t j = int64_t(big); j > int64_t(big) - c.n; --j) e += u32(j >> 30) ^ u32(j);
          u32 f = x;
          int kk = c.n;
          while (kk > 0) {
            f = f * 11u + u32(kk);
            kk -= 3;
          }
          u32 gg = x;
          for (int i = 0; i < c.n; ++i) gg = gg * 17u + shared[i];
          u32 h = x;
          for (int j = 0; j < params.n; ++j) h = h * 7u + (params.salt ^ u32(j));
          u32 want[9] = {a, u32(fc), b, d, e, f, u32(kk), gg, h};
          std::copy(want, want + 9, o);
        });
  }
}

// ---------------------------------------------------------------------------
// A uniform loop calling math builtins (sin, exp): compared with a double
// precision host value within a tolerance.
const char *kMath = R"CLC(
kernel void math(global const uint *in, global float *out, int n) {
  float x = (float)(in[GIDX] & 1023u) / 1024.0f;
  float s = 0.0f;
  for (int i = 0; i < n; ++i) s += sin(x + (float)i * 0.01f) * exp(-(float)i * 0.01f);
  out[GIDX] = s;
}
)CLC";

TEST_F(UniformLoops, MathBuiltinsInUniformLoop) {
  cl_kernel k = make(kMath, "math");
  ASSERT_NE(k, nullptr);
  for (cl_int n : {0, 1, 100}) {
    SCOPED_TRACE("n " + std::to_string(n));
    for (const Shape &shape : shapes()) {
      SCOPED_TRACE("shape " + shape.name());
      if (!fits(k, shape)) continue;
      const size_t items = shape.items();
      std::vector<u32> in(data_.begin(), data_.begin() + items);
      std::vector<float> sentinel(items, -12345.0f);
      cl_mem mi = bufferFrom(in), mo = bufferFrom(sentinel);
      ASSERT_CL(setKernelArgs(k, 0, mi, mo, n));
      ASSERT_TRUE(launch(k, shape));
      std::vector<float> got = read<float>(mo, items);
      size_t bad = 0;
      for (size_t i = 0; i < items; ++i) {
        float xf = float(in[i] & 1023u) / 1024.0f;
        double want = 0.0;
        for (int j = 0; j < n; ++j)
          want += std::sin(double(xf + float(j) * 0.01f)) * std::exp(-double(float(j) * 0.01f));
        if (!(std::fabs(double(got[i]) - want) <= 1e-3 * std::max(1.0, std::fabs(want))) &&
            ++bad <= 8)
          ADD_FAILURE() << "[" << i << "] got " << got[i] << ", want " << want;
      }
      ASSERT_EQ(bad, 0u);
    }
  }
}

// Loops behind guards that only some work-items pass (GuardedLoops.cpp):
// out of the guard, groups whose work-items all pass run a cut copy and the
// others the loop as written; a loop whose trip count differs is masked from
// the guard's flags. The cutoff falls inside groups and between them, and
// sometimes leaves every work-item out.
//   o[0]: `if (g < cutoff)` around a loop reading across the work-items,
//         with a value made inside the guard before the loop and used after;
//   o[1]: two guards chained by && (a guard on the local id too) around a
//         loop that adds to memory: a skipped work-item must not run it;
//   o[2]: an early return's loop whose trip count differs (masked);
//   o[3]: the counter's last value, read after the loop.
const char *kGuarded = R"CLC(
kernel void guarded(global const uint *in, global uint *out, int n, uint cutoff, uint total) {
  uint g = GIDX, lid = LID;
  global uint *o = out + 4 * g;
  uint a = 1u;
  if (g < cutoff) {
    uint seed = in[g] * 3u + 1u;
    uint acc = seed;
    for (int i = 0; i < n; ++i) acc = acc * 5u + in[(g + (uint)i * 13u) % total];
    a = acc ^ seed;
  }
  o[0] = a;
  o[1] = 7u;
  if (g < cutoff && lid % 5u != 3u)
    for (int i = 0; i < n; ++i) o[1] += in[((uint)i * 101u + g) % total] >> (i & 3);
  o[2] = 0xdeadu;
  o[3] = 0xbeefu;
  if (g >= cutoff) return;
  uint c = 0u;
  int i;
  for (i = (int)(lid % 4u); i < n; i += 3) c = c * 7u + in[(g + (uint)i) % total];
  o[2] = c;
  o[3] = (uint)i;
}
)CLC";

TEST_F(UniformLoops, LoopsBehindGuards) {
  cl_kernel k = make(kGuarded, "guarded");
  for (cl_int n : {0, 1, 37}) {
    for (int cut : {0, 1, 2, 3}) {
      SCOPED_TRACE("n " + std::to_string(n) + " cutoff " + std::to_string(cut));
      auto cutoff = [cut](const Shape &s) -> cl_uint {
        size_t items = s.items();
        switch (cut) {
          case 0: return cl_uint(items);          // every group passes whole
          case 1: return cl_uint(items * 2 / 3);  // inside a group, mostly
          case 2: return cl_uint(items / 2 + 1);
          default: return 0;                      // none passes
        }
      };
      checkItems(
          k, 4,
          [&](cl_kernel k, const Shape &s) { return setKernelArgs(k, 2, n, cutoff(s), cl_uint(s.items())); },
          [&](const Shape &s, const Group &g, size_t l, const std::vector<u32> &in, u32 *o) {
            const size_t gi = g.items[l].index, total = s.items(), limit = cutoff(s);
            u32 a = 1u;
            if (gi < limit) {
              u32 seed = in[gi] * 3u + 1u, acc = seed;
              for (int i = 0; i < n; ++i) acc = acc * 5u + in[(gi + size_t(i) * 13) % total];
              a = acc ^ seed;
            }
            o[0] = a;
            o[1] = 7u;
            if (gi < limit && l % 5 != 3)
              for (int i = 0; i < n; ++i) o[1] += in[(size_t(i) * 101 + gi) % total] >> (i & 3);
            o[2] = 0xdeadu;
            o[3] = 0xbeefu;
            if (gi >= limit) return;
            u32 c = 0u;
            int i;
            for (i = int(l % 4); i < n; i += 3) c = c * 7u + in[(gi + size_t(i)) % total];
            o[2] = c;
            o[3] = u32(i);
          });
    }
  }
}

// A loop nest behind a guard (a filter's window whose radius is an
// argument), with the window's bounds computed inside the guard: groups
// whose work-items all pass run a copy of the nest whose inner loop is cut.
const char *kGuardedNest = R"CLC(
kernel void guarded_nest(global const uint *in, global uint *out, int r, uint cutoff, uint total) {
  uint g = GIDX;
  uint acc = 5u;
  if (g < cutoff) {
    int lo = -r, w = 2 * r + 1;
    acc = (uint)w;
    for (int j = lo; j <= r; j++)
      for (int i = lo; i <= r; i++) acc = acc * 3u + in[(g + 4u * total + (uint)(j * w + i)) % total];
  }
  out[g] = acc;
}
)CLC";

TEST_F(UniformLoops, LoopNestBehindGuard) {
  cl_kernel k = make(kGuardedNest, "guarded_nest");
  for (cl_int r : {0, 1, 3}) {
    for (int cut : {0, 1}) {
      SCOPED_TRACE("r " + std::to_string(r) + " cutoff " + std::to_string(cut));
      auto cutoff = [cut](const Shape &s) { return cl_uint(cut == 0 ? s.items() : s.items() * 3 / 5); };
      checkItems(
          k, 1,
          [&](cl_kernel k, const Shape &s) { return setKernelArgs(k, 2, r, cutoff(s), cl_uint(s.items())); },
          [&](const Shape &s, const Group &g, size_t l, const std::vector<u32> &in, u32 *o) {
            const u32 gi = u32(g.items[l].index), total = u32(s.items());
            u32 acc = 5u;
            if (gi < cutoff(s)) {
              const int lo = -r, w = 2 * r + 1;
              acc = u32(w);
              for (int j = lo; j <= r; j++)
                for (int i = lo; i <= r; i++) acc = acc * 3u + in[(gi + 4u * total + u32(j * w + i)) % total];
            }
            o[0] = acc;
          });
    }
  }
}

}  // namespace
}  // namespace lockstep::test::sync

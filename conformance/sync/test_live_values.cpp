// Values of every kind live across barriers: scalars of each width, vectors,
// dynamically indexed private arrays, structs (private, __local and a
// by-value argument), pointers to __local and __global chosen per work-item,
// loop induction variables, and values computed from the work-item ids.
// Each must come out of the barrier exactly as each work-item left it.
#include <bit>
#include <cstring>

#include "SyncTest.h"

namespace lockstep::test::sync {
namespace {

using u32 = uint32_t;

class LiveValues : public SyncTest {
 protected:
  // kernel(in, out, extra...) with `perItem` outputs; simulate(group, inputs)
  // returns the group's outputs in linear local id order, perItem each.
  void check(cl_kernel k, size_t perItem, std::function<cl_int(cl_kernel, const Shape &)> extra,
             std::function<std::vector<u32>(const Group &, const std::vector<u32> &)> simulate) {
    std::vector<int> data = randomInts(1 << 16, 0, (1 << 20) - 1);
    PerItem<u32, u32> spec;
    spec.perItem = perItem;
    spec.input = [&](size_t i) { return u32(data[i]); };
    spec.extra = extra;
    spec.reference = [&](const Shape &, const Group &g, const std::vector<u32> &in,
                         std::vector<u32> &want) {
      std::vector<u32> v(g.count());
      for (size_t l = 0; l < g.count(); ++l) v[l] = in[g.items[l].index];
      std::vector<u32> out = simulate(g, v);
      for (size_t l = 0; l < g.count(); ++l)
        for (size_t k = 0; k < perItem; ++k)
          want[g.items[l].index * perItem + k] = out[l * perItem + k];
    };
    checkPerItem(k, allShapes(device_), spec);
  }
  static cl_int localWords(cl_kernel k, const Shape &s) {
    return setKernelArgs(k, 2, LocalBytes{s.groupItems() * 4});
  }
};

const char *kScalars = R"CLC(
kernel void scalars(global const uint *in, global uint *out, local uint *buf) {
  uint lid = LID, n = LSZ;
  uint x = in[GIDX];
  char c = (char)((int)(x & 0x7f) - 60);
  uchar uc = (uchar)(x >> 3);
  short s = (short)((int)((x >> 5) & 0x7fff) - 1000);
  ushort us = (ushort)(x * 3u);
  long l = (long)x * -3000000007L;
  float f = (float)(x & 0xffff) * 0.25f;
  double d = (double)x * 0.5;
  bool odd = x & 1;
  buf[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint nb = buf[(lid + 1) % n];
  barrier(CLK_LOCAL_MEM_FENCE);
  buf[lid] = nb ^ 0x5555;
  barrier(CLK_LOCAL_MEM_FENCE);
  global uint *o = out + 9 * GIDX;
  o[0] = (uint)(int)c + nb;
  o[1] = (uint)uc * 7u + buf[n - 1 - lid];
  o[2] = (uint)(int)s;
  o[3] = (uint)us;
  o[4] = (uint)l;
  o[5] = (uint)(l >> 32);
  o[6] = as_uint(f + (float)nb);
  ulong bits = as_ulong(d * (double)nb);
  o[7] = (uint)bits ^ (uint)(bits >> 32);
  o[8] = odd ? nb : ~nb;
}
)CLC";

TEST_F(LiveValues, ScalarsOfEveryWidth) {
  if (!hasFeature("__opencl_c_fp64") && !hasFeature("cl_khr_fp64"))
    GTEST_SKIP() << "the kernel uses double";
  check(make(kScalars, "scalars"), 9, localWords, [](const Group &, const std::vector<u32> &v) {
    const size_t n = v.size();
    std::vector<u32> out(9 * n);
    for (size_t l = 0; l < n; ++l) {
      u32 x = v[l], nb = v[(l + 1) % n];
      u32 *o = &out[9 * l];
      int c = int(x & 0x7f) - 60;
      int64_t big = int64_t(x) * -3000000007LL;
      float f = float(x & 0xffff) * 0.25f;
      uint64_t bits = std::bit_cast<uint64_t>(double(x) * 0.5 * double(nb));
      o[0] = u32(c) + nb;
      o[1] = ((x >> 3) & 0xff) * 7u + (v[(n - l) % n] ^ 0x5555);
      o[2] = u32(int((x >> 5) & 0x7fff) - 1000);
      o[3] = (x * 3u) & 0xffff;
      o[4] = u32(uint64_t(big));
      o[5] = u32(uint64_t(big) >> 32);
      o[6] = std::bit_cast<u32>(f + float(nb));
      o[7] = u32(bits) ^ u32(bits >> 32);
      o[8] = (x & 1) ? nb : ~nb;
    }
    return out;
  });
}

// buf[n-1-lid] after the third barrier holds item n-1-lid's neighbour, which
// is item (n - lid) % n: the reference above reads v[(n - l) % n] for it.

const char *kVectors = R"CLC(
kernel void vectors(global const uint *in, global uint *out, local int8 *lv, local float4 *lf) {
  uint lid = LID, n = LSZ;
  uint x = in[GIDX];
  int xi = (int)x;
  float4 f = (float4)((float)(x & 0xff), (float)((x >> 8) & 0xff), (float)lid, 1.5f);
  int8 i8 = (int8)(xi, -xi, xi * 2, 3, (int)lid, (int)n, xi ^ 5, 7);
  uchar16 c16 = (uchar16)((uchar)x) + (uchar16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
                                                14, 15);
  double2 d2 = (double2)((double)x * 0.25, -(double)lid);
  long3 l3 = (long3)((long)x, (long)x << 33, -(long)lid);
  short2 s2 = (short2)((short)(x & 0xfff), (short)-7);
  lv[lid] = i8;
  lf[lid] = f;
  barrier(CLK_LOCAL_MEM_FENCE);
  int8 o8 = lv[(lid + 1) % n];
  float4 of = lf[n - 1 - lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  lv[lid] = o8 * 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  int8 sum = i8 + o8 + lv[(lid + 2) % n];
  global uint *o = out + 25 * GIDX;
  for (int k = 0; k < 8; ++k) o[k] = (uint)((int *)&sum)[k];
  float4 fs = f + of;
  o[8] = as_uint(fs.x); o[9] = as_uint(fs.y); o[10] = as_uint(fs.z); o[11] = as_uint(fs.w);
  uint4 packed = as_uint4(c16);
  o[12] = packed.x; o[13] = packed.y; o[14] = packed.z; o[15] = packed.w;
  o[16] = (uint)(long)(d2.x * 4.0);
  o[17] = (uint)(long)d2.y;
  o[18] = (uint)l3.x; o[19] = (uint)(l3.y >> 32); o[20] = (uint)l3.z;
  o[21] = (uint)(int)s2.x; o[22] = (uint)(int)s2.y;
  o[23] = (uint)lid; o[24] = (uint)n;
}
)CLC";

TEST_F(LiveValues, Vectors) {
  if (!hasFeature("__opencl_c_fp64") && !hasFeature("cl_khr_fp64"))
    GTEST_SKIP() << "the kernel uses double";
  check(
      make(kVectors, "vectors"), 25,
      [](cl_kernel k, const Shape &s) {
        return setKernelArgs(k, 2, LocalBytes{s.groupItems() * 32},
                             LocalBytes{s.groupItems() * 16});
      },
      [](const Group &, const std::vector<u32> &v) {
        const size_t n = v.size();
        auto i8 = [&](size_t l) {
          int x = int(v[l]);
          return std::array<int, 8>{x, -x, x * 2, 3, int(l), int(n), x ^ 5, 7};
        };
        auto f4 = [&](size_t l) {
          u32 x = v[l];
          return std::array<float, 4>{float(x & 0xff), float((x >> 8) & 0xff), float(l), 1.5f};
        };
        std::vector<u32> out(25 * n);
        for (size_t l = 0; l < n; ++l) {
          u32 x = v[l], *o = &out[25 * l];
          auto mine = i8(l), next = i8((l + 1) % n), later = i8((l + 3) % n);
          for (int k = 0; k < 8; ++k) o[k] = u32(mine[k] + next[k] + 2 * later[k]);
          auto f = f4(l), g = f4(n - 1 - l);
          for (int k = 0; k < 4; ++k) o[8 + k] = std::bit_cast<u32>(f[k] + g[k]);
          for (int w = 0; w < 4; ++w) {
            u32 word = 0;
            for (int b = 0; b < 4; ++b) word |= ((x + u32(4 * w + b)) & 0xff) << (8 * b);
            o[12 + w] = word;
          }
          o[16] = u32(int64_t(double(x) * 0.25 * 4.0));
          o[17] = u32(-int64_t(l));
          o[18] = x;
          o[19] = u32((uint64_t(x) << 33) >> 32);
          o[20] = u32(-int64_t(l));
          o[21] = x & 0xfff;
          o[22] = u32(-7);
          o[23] = u32(l);
          o[24] = u32(n);
        }
        return out;
      });
}

// Vector accumulators carried around a loop that every work-item runs alike
// (n-body's shape): the loop is cut at the top of its body, so each vector
// lives in the context from one trip to the next, element by element.
const char *kVectorAccumulators = R"CLC(
kernel void vector_accumulators(global const uint *in, global uint *out, local uint4 *tile,
                                uint rounds) {
  uint lid = LID, n = LSZ;
  uint x = in[GIDX];
  uint4 me = (uint4)(x & 0xff, (x >> 8) & 0xff, lid, 1);
  uint4 acc = (uint4)(0);
  float3 distance = (float3)(0.0f);
  uchar16 bytes = (uchar16)((uchar)x);
  ulong2 wide = (ulong2)(x, 0);
  for (uint r = 0; r < rounds; ++r) {
    tile[lid] = me + (uint4)(r);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < n; ++j) {
      uint4 other = tile[j];
      acc += other * (uint4)(1, 2, 3, 4) - me;
      distance += convert_float3(convert_int3(other.xyz) - convert_int3(me.xyz));
      bytes ^= as_uchar16(other);
      wide += (ulong2)(other.x, other.y) << 20;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  global uint *o = out + 15 * GIDX;
  o[0] = acc.x; o[1] = acc.y; o[2] = acc.z; o[3] = acc.w;
  o[4] = as_uint(distance.x); o[5] = as_uint(distance.y); o[6] = as_uint(distance.z);
  uint4 packed = as_uint4(bytes);
  o[7] = packed.x; o[8] = packed.y; o[9] = packed.z; o[10] = packed.w;
  o[11] = (uint)wide.x; o[12] = (uint)(wide.x >> 32);
  o[13] = (uint)wide.y; o[14] = (uint)(wide.y >> 32);
}
)CLC";

TEST_F(LiveValues, VectorAccumulatorsAroundALoopWithBarriers) {
  const cl_uint rounds = 3;
  check(
      make(kVectorAccumulators, "vector_accumulators"), 15,
      [&](cl_kernel k, const Shape &s) {
        return setKernelArgs(k, 2, LocalBytes{s.groupItems() * 16}, rounds);
      },
      [&](const Group &, const std::vector<u32> &v) {
        const size_t n = v.size();
        using U4 = std::array<u32, 4>;
        std::vector<U4> me(n);
        for (size_t l = 0; l < n; ++l) me[l] = {v[l] & 0xff, (v[l] >> 8) & 0xff, u32(l), 1};
        std::vector<u32> out(15 * n);
        for (size_t l = 0; l < n; ++l) {
          U4 acc{};
          float distance[3] = {};
          uint8_t bytes[16];
          std::memset(bytes, int(v[l] & 0xff), 16);
          uint64_t wide[2] = {v[l], 0};
          for (u32 r = 0; r < rounds; ++r)
            for (size_t j = 0; j < n; ++j) {
              U4 other = me[j];
              for (u32 &e : other) e += r;
              for (int k = 0; k < 4; ++k) acc[k] += other[k] * u32(k + 1) - me[l][k];
              for (int k = 0; k < 3; ++k) distance[k] += float(int(other[k]) - int(me[l][k]));
              uint8_t otherBytes[16];
              std::memcpy(otherBytes, other.data(), 16);
              for (int b = 0; b < 16; ++b) bytes[b] ^= otherBytes[b];
              wide[0] += uint64_t(other[0]) << 20;
              wide[1] += uint64_t(other[1]) << 20;
            }
          u32 *o = &out[15 * l];
          for (int k = 0; k < 4; ++k) o[k] = acc[k];
          for (int k = 0; k < 3; ++k) o[4 + k] = std::bit_cast<u32>(distance[k]);
          std::memcpy(o + 7, bytes, 16);
          for (int k = 0; k < 2; ++k) {
            o[11 + 2 * k] = u32(wide[k]);
            o[12 + 2 * k] = u32(wide[k] >> 32);
          }
        }
        return out;
      });
}

const char *kPrivateArrays = R"CLC(
kernel void private_arrays(global const uint *in, global uint *out, local uint *buf,
                           uint rounds) {
  uint lid = LID, n = LSZ;
  uint p[16];
  uint m[3][5];
  uint x = in[GIDX];
  for (uint k = 0; k < 16; ++k) p[k] = x * (k + 1) + lid;
  for (uint r = 0; r < 3; ++r)
    for (uint c = 0; c < 5; ++c) m[r][c] = x ^ (r * 5 + c);
  for (uint r = 0; r < rounds; ++r) {
    buf[lid] = p[(x + r * 7) & 15];
    barrier(CLK_LOCAL_MEM_FENCE);
    p[(lid + r) & 15] += buf[(lid + 1) % n];
    m[(x + r) % 3][(lid + r) % 5] += p[r & 15];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  uint s = 0;
  for (uint k = 0; k < 16; ++k) s = s * 31u + p[k];
  for (uint r = 0; r < 3; ++r)
    for (uint c = 0; c < 5; ++c) s = s * 17u + m[r][c];
  out[GIDX] = s;
}
)CLC";

TEST_F(LiveValues, PrivateArraysIndexedDynamically) {
  const cl_uint rounds = 5;
  check(
      make(kPrivateArrays, "private_arrays"), 1,
      [&](cl_kernel k, const Shape &s) {
        return setKernelArgs(k, 2, LocalBytes{s.groupItems() * 4}, rounds);
      },
      [&](const Group &, const std::vector<u32> &v) {
        const size_t n = v.size();
        std::vector<std::array<u32, 16>> p(n);
        std::vector<std::array<std::array<u32, 5>, 3>> m(n);
        for (size_t l = 0; l < n; ++l) {
          for (u32 k = 0; k < 16; ++k) p[l][k] = v[l] * (k + 1) + u32(l);
          for (u32 r = 0; r < 3; ++r)
            for (u32 c = 0; c < 5; ++c) m[l][r][c] = v[l] ^ (r * 5 + c);
        }
        for (u32 r = 0; r < rounds; ++r) {
          std::vector<u32> buf(n);
          for (size_t l = 0; l < n; ++l) buf[l] = p[l][(v[l] + r * 7) & 15];
          for (size_t l = 0; l < n; ++l) {
            p[l][(l + r) & 15] += buf[(l + 1) % n];
            m[l][(v[l] + r) % 3][(l + r) % 5] += p[l][r & 15];
          }
        }
        std::vector<u32> out(n);
        for (size_t l = 0; l < n; ++l) {
          u32 s = 0;
          for (u32 k = 0; k < 16; ++k) s = s * 31u + p[l][k];
          for (auto &row : m[l])
            for (u32 c : row) s = s * 17u + c;
          out[l] = s;
        }
        return out;
      });
}

// Register tiles, as tuned GEMM kernels keep them: private arrays that loops
// of constant rounds index (the compiler unrolls those loops so that the
// arrays become values), live around a loop with barriers, and one of them
// read at a dynamic index after it (which keeps that one in memory).
const char *kRegisterTiles = R"CLC(
kernel void register_tiles(global const uint *in, global uint *out, local uint *buf, uint rounds) {
  uint lid = LID, n = LSZ;
  uint x = in[GIDX];
  uint acc[4][2];
  uint hist[8];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j) acc[i][j] = x + (uint)(i * 2 + j);
  for (int b = 0; b < 8; ++b) hist[b] = (uint)b;
  for (uint r = 0; r < rounds; ++r) {
    buf[lid] = x + r;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 2; ++j) acc[i][j] += buf[(lid + (uint)i) % n] * (uint)(j + 1) + r;
    for (int b = 0; b < 8; ++b) hist[b] += (buf[(lid + (uint)b) % n] >> b) & 1u;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  global uint *o = out + 9 * GIDX;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j) o[i * 2 + j] = acc[i][j];
  o[8] = hist[x & 7];
}
)CLC";

TEST_F(LiveValues, RegisterTilesAroundALoopWithBarriers) {
  const cl_uint rounds = 4;
  check(
      make(kRegisterTiles, "register_tiles"), 9,
      [&](cl_kernel k, const Shape &s) {
        return setKernelArgs(k, 2, LocalBytes{s.groupItems() * 4}, rounds);
      },
      [&](const Group &, const std::vector<u32> &v) {
        const size_t n = v.size();
        std::vector<std::array<u32, 8>> acc(n), hist(n);
        for (size_t l = 0; l < n; ++l)
          for (u32 k = 0; k < 8; ++k) {
            acc[l][k] = v[l] + k;
            hist[l][k] = k;
          }
        for (u32 r = 0; r < rounds; ++r) {
          std::vector<u32> buf(n);
          for (size_t l = 0; l < n; ++l) buf[l] = v[l] + r;
          for (size_t l = 0; l < n; ++l) {
            for (u32 i = 0; i < 4; ++i)
              for (u32 j = 0; j < 2; ++j) acc[l][i * 2 + j] += buf[(l + i) % n] * (j + 1) + r;
            for (u32 b = 0; b < 8; ++b) hist[l][b] += (buf[(l + b) % n] >> b) & 1u;
          }
        }
        std::vector<u32> out(9 * n);
        for (size_t l = 0; l < n; ++l) {
          for (u32 k = 0; k < 8; ++k) out[9 * l + k] = acc[l][k];
          out[9 * l + 8] = hist[l][v[l] & 7];
        }
        return out;
      });
}

// The same layout on both sides: OpenCL C struct rules match the host's here
// (4-byte members, then a short: 28 bytes with padding).
struct Rec {
  cl_int id;
  cl_float w;
  cl_uint hist[4];
  cl_short tag;
};
static_assert(sizeof(Rec) == 28);

const char *kStructs = R"CLC(
typedef struct { int id; float w; uint hist[4]; short tag; } Rec;
kernel void structs(global const uint *in, global uint *out, local Rec *recs, Rec seed) {
  uint lid = LID, n = LSZ;
  uint x = in[GIDX];
  Rec r = seed;
  r.id += (int)lid;
  r.w = (float)(x & 0xff) + r.w;
  for (int k = 0; k < 4; ++k) r.hist[k] = seed.hist[k] ^ (x >> k);
  r.tag = (short)(x & 0x3fff);
  recs[lid] = r;
  barrier(CLK_LOCAL_MEM_FENCE);
  Rec o = recs[(lid + 2) % n];
  barrier(CLK_LOCAL_MEM_FENCE);
  recs[lid].hist[lid & 3] = o.hist[(lid + 1) & 3];
  barrier(CLK_LOCAL_MEM_FENCE);
  Rec m = recs[n - 1 - lid];
  global uint *d = out + 6 * GIDX;
  d[0] = (uint)(r.id + o.id);
  d[1] = as_uint(r.w + o.w);
  d[2] = r.hist[x & 3] + m.hist[0];
  d[3] = m.hist[1] + m.hist[2] + m.hist[3];
  d[4] = (uint)((int)r.tag - (int)o.tag);
  d[5] = (uint)(int)m.tag;
}
)CLC";

TEST_F(LiveValues, StructsPrivateLocalAndByValueArgument) {
  const Rec seed = {100, 0.5f, {0x1111, 0x2222, 0x3333, 0x4444}, 9};
  check(
      make(kStructs, "structs"), 6,
      [&](cl_kernel k, const Shape &s) {
        return setKernelArgs(k, 2, LocalBytes{s.groupItems() * sizeof(Rec)}, seed);
      },
      [&](const Group &, const std::vector<u32> &v) {
        const size_t n = v.size();
        std::vector<Rec> r(n);
        for (size_t l = 0; l < n; ++l) {
          r[l] = seed;
          r[l].id += int(l);
          r[l].w = float(v[l] & 0xff) + seed.w;
          for (int k = 0; k < 4; ++k) r[l].hist[k] = seed.hist[k] ^ (v[l] >> k);
          r[l].tag = cl_short(v[l] & 0x3fff);
        }
        std::vector<Rec> recs = r;
        for (size_t l = 0; l < n; ++l) recs[l].hist[l & 3] = r[(l + 2) % n].hist[(l + 1) & 3];
        std::vector<u32> out(6 * n);
        for (size_t l = 0; l < n; ++l) {
          const Rec &o = r[(l + 2) % n], &m = recs[n - 1 - l];
          u32 *d = &out[6 * l];
          d[0] = u32(r[l].id + o.id);
          d[1] = std::bit_cast<u32>(r[l].w + o.w);
          d[2] = r[l].hist[v[l] & 3] + m.hist[0];
          d[3] = m.hist[1] + m.hist[2] + m.hist[3];
          d[4] = u32(int(r[l].tag) - int(o.tag));
          d[5] = u32(int(m.tag));
        }
        return out;
      });
}

const char *kPointers = R"CLC(
kernel void pointers(global const uint *in, global uint *out, global const uint *other,
                     local uint *a, local uint *b) {
  uint lid = LID, n = LSZ;
  local uint *mine = (lid & 1) ? a : b;
  local uint *theirs = (lid & 1) ? b : a;
  global const uint *src = (lid % 3 == 0) ? in : other;
  global uint *dst = out + 2 * GIDX;
  uint x = src[GIDX];
  mine[lid] = x;
  theirs[lid] = ~x;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint j = (lid + 1) % n;
  uint first = mine[j] + theirs[n - 1 - lid];
  local uint *p = mine + j;
  barrier(CLK_LOCAL_MEM_FENCE);
  mine[lid] = 5 * lid + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  dst[0] = first + src[GIDX];
  dst[1] = *p + (uint)(p - mine);
}
)CLC";

TEST_F(LiveValues, PointersToLocalAndGlobalChosenPerItem) {
  std::vector<int> otherData = randomInts(1 << 16, 0, 1 << 30);
  cl_mem other = bufferFrom(otherData);
  check(
      make(kPointers, "pointers"), 2,
      [&](cl_kernel k, const Shape &s) {
        return setKernelArgs(k, 2, other, LocalBytes{s.groupItems() * 4},
                             LocalBytes{s.groupItems() * 4});
      },
      [&](const Group &g, const std::vector<u32> &v) {
        const size_t n = v.size();
        std::vector<u32> src(n), a(n), b(n), out(2 * n);
        for (size_t l = 0; l < n; ++l) {
          src[l] = l % 3 == 0 ? v[l] : u32(otherData[g.items[l].index]);
          (l & 1 ? a : b)[l] = src[l];
          (l & 1 ? b : a)[l] = ~src[l];
        }
        std::vector<u32> first(n);
        for (size_t l = 0; l < n; ++l)
          first[l] = (l & 1 ? a : b)[(l + 1) % n] + (l & 1 ? b : a)[n - 1 - l];
        for (size_t l = 0; l < n; ++l) (l & 1 ? a : b)[l] = u32(5 * l + 1);
        for (size_t l = 0; l < n; ++l) {
          size_t j = (l + 1) % n;
          out[2 * l] = first[l] + src[l];
          out[2 * l + 1] = (l & 1 ? a : b)[j] + u32(j);
        }
        return out;
      });
}

const char *kInduction = R"CLC(
kernel void induction(global const uint *in, global uint *out, local uint *buf, uint steps) {
  uint lid = LID, n = LSZ;
  uint x = in[GIDX];
  uint i, acc = 0;
  for (i = lid % 5; i < 9; i += 2) acc += x >> i;  /* per-item trip count, no barrier */
  uint k;
  for (k = 0; k < steps; ++k) {
    buf[lid] = acc + k;
    barrier(CLK_LOCAL_MEM_FENCE);
    acc ^= buf[(lid + k) % n] * (k + 1);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[3 * GIDX] = acc;
  out[3 * GIDX + 1] = i;
  out[3 * GIDX + 2] = k * 100 + i;
}
)CLC";

TEST_F(LiveValues, LoopInductionVariables) {
  const cl_uint steps = 6;
  check(
      make(kInduction, "induction"), 3,
      [&](cl_kernel k, const Shape &s) {
        return setKernelArgs(k, 2, LocalBytes{s.groupItems() * 4}, steps);
      },
      [&](const Group &, const std::vector<u32> &v) {
        const size_t n = v.size();
        std::vector<u32> acc(n, 0), last(n);
        for (size_t l = 0; l < n; ++l) {
          u32 i;
          for (i = u32(l % 5); i < 9; i += 2) acc[l] += v[l] >> i;
          last[l] = i;
        }
        for (u32 k = 0; k < steps; ++k) {
          std::vector<u32> buf(n);
          for (size_t l = 0; l < n; ++l) buf[l] = acc[l] + k;
          for (size_t l = 0; l < n; ++l) acc[l] ^= buf[(l + k) % n] * (k + 1);
        }
        std::vector<u32> out(3 * n);
        for (size_t l = 0; l < n; ++l) {
          out[3 * l] = acc[l];
          out[3 * l + 1] = last[l];
          out[3 * l + 2] = steps * 100 + last[l];
        }
        return out;
      });
}

const char *kIds = R"CLC(
kernel void ids(global const uint *in, global uint *out, local uint *buf) {
  size_t gx = get_global_id(0), gy = get_global_id(1), gz = get_global_id(2);
  size_t lx = get_local_id(0), ly = get_local_id(1), lz = get_local_id(2);
  size_t wx = get_group_id(0), wy = get_group_id(1), wz = get_group_id(2);
  size_t linear = get_global_linear_id(), local_linear = get_local_linear_id();
  uint lid = LID;
  buf[lid] = in[GIDX];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint nb = buf[(lid + 1) % LSZ];
  barrier(CLK_LOCAL_MEM_FENCE);
  global uint *o = out + 12 * GIDX;
  o[0] = gx; o[1] = gy; o[2] = gz; o[3] = lx; o[4] = ly; o[5] = lz;
  o[6] = wx; o[7] = wy; o[8] = wz; o[9] = linear; o[10] = local_linear;
  o[11] = nb + (uint)(gx * 7 + gy * 13 + gz * 17);
}
)CLC";

TEST_F(LiveValues, ValuesComputedFromWorkItemIds) {
  check(make(kIds, "ids"), 12, localWords, [](const Group &g, const std::vector<u32> &v) {
    const size_t n = v.size();
    std::vector<u32> out(12 * n);
    for (size_t l = 0; l < n; ++l) {
      const Item &it = g.items[l];
      u32 *o = &out[12 * l];
      for (int d = 0; d < 3; ++d) {
        o[d] = u32(it.global[d]);
        o[3 + d] = u32(it.local[d]);
        o[6 + d] = u32(g.id[d]);
      }
      o[9] = u32(it.index);
      o[10] = u32(l);
      o[11] = v[(l + 1) % n] + u32(it.global[0] * 7 + it.global[1] * 13 + it.global[2] * 17);
    }
    return out;
  });
}

}  // namespace
}  // namespace lockstep::test::sync

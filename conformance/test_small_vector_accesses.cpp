// Loads and stores of vectors of bytes and shorts no wider than 64 bits
// (uchar4 pixels, char2, short2, ushort4, char3 and short3 with their
// undefined fourth element), which the compiler turns into
// accesses of one integer word per work-item whose elements are shifts of it
// (ScalarizeWorkGroupCodePass). Results against the host for images whose
// rows are and are not a multiple of the group width, in groups of one
// work-item to 16 x 16, with border work-items that return early.
#include <algorithm>

#include "ClTest.h"

namespace lockstep::test {
namespace {

class SmallVectorAccesses : public ClTest {};

struct Pixel {
  cl_uchar r, g, b, a;
};

TEST_F(SmallVectorAccesses, RgbaPixelsWithEarlyReturnAtTheBorder) {
  cl_kernel k = kernel(R"CLC(
    kernel void pixels(global const uchar4 *in, global uchar4 *out, int W, int H) {
      int x = get_global_id(0), y = get_global_id(1);
      if (x >= W || y >= H) return;
      if (x == 0 || y == 0) { out[y * W + x] = (uchar4)(1, 2, 3, 4); return; }
      uchar4 p = in[y * W + x], left = in[y * W + x - 1], up = in[(y - 1) * W + x];
      float grey = 0.25f * p.x + 0.5f * p.y + 0.25f * p.z;
      out[y * W + x] = (uchar4)(255 - p.x, add_sat(left.y, up.y), p.z ^ p.w, convert_uchar_sat(grey));
    }
  )CLC",
                       "pixels");
  ASSERT_NE(k, nullptr);
  for (auto [W, H] : {std::pair{1, 1}, {7, 5}, {16, 16}, {33, 19}, {100, 3}}) {
    std::vector<cl_uint> bytes = randomValues<cl_uint>(size_t(W) * H * 4, 0, 255);
    std::vector<Pixel> in(size_t(W) * H);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = {cl_uchar(bytes[4 * i]), cl_uchar(bytes[4 * i + 1]), cl_uchar(bytes[4 * i + 2]),
               cl_uchar(bytes[4 * i + 3])};
    cl_mem min = bufferFrom(in);
    for (size_t local : {size_t(1), size_t(4), size_t(8), size_t(16)}) {
      size_t gx = (W + local - 1) / local * local, gy = (H + local - 1) / local * local;
      std::vector<Pixel> poison(size_t(W) * H, Pixel{9, 9, 9, 9});
      cl_mem mout = bufferFrom(poison);
      ASSERT_TRUE(setArgs(k, min, mout, cl_int(W), cl_int(H)));
      ASSERT_TRUE(run(k, {gx, gy}, {local, local}));
      std::vector<Pixel> out = read<Pixel>(mout, poison.size());
      for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
          Pixel want{1, 2, 3, 4};
          if (x != 0 && y != 0) {
            Pixel p = in[y * W + x], left = in[y * W + x - 1], up = in[(y - 1) * W + x];
            float grey = 0.25f * p.r + 0.5f * p.g + 0.25f * p.b;
            want = {cl_uchar(255 - p.r), cl_uchar(std::min(255, left.g + up.g)), cl_uchar(p.b ^ p.a),
                    cl_uchar(std::clamp(int(grey + 0.5f), 0, 255))};
          }
          Pixel got = out[y * W + x];
          // convert_uchar_sat rounds to zero: the grey may be one below the
          // rounded value.
          bool greyOk = got.a == want.a || (want.a > 0 && got.a == want.a - 1);
          ASSERT_TRUE(got.r == want.r && got.g == want.g && got.b == want.b && greyOk)
              << "W " << W << ", H " << H << ", local " << local << ", pixel (" << x << ", " << y << "): got "
              << int(got.r) << " " << int(got.g) << " " << int(got.b) << " " << int(got.a) << ", want "
              << int(want.r) << " " << int(want.g) << " " << int(want.b) << " " << int(want.a);
        }
    }
  }
}

TEST_F(SmallVectorAccesses, Char2Short2AndUshort4) {
  cl_kernel k = kernel(R"CLC(
    kernel void mixed(global const char2 *c, global const short2 *s, global const ushort4 *u,
                      global char2 *oc, global short2 *os, global ushort4 *ou) {
      size_t i = get_global_id(0);
      char2 a = c[i];
      short2 b = s[i];
      ushort4 v = u[i];
      oc[i] = (char2)(a.y, (char)(a.x - 3));
      os[i] = (short2)((short)(b.x + a.x), (short)(b.y * 2));
      ou[i] = (ushort4)(v.w, v.z, (ushort)(v.y + 1), (ushort)(v.x ^ 0x8001));
    }
  )CLC",
                       "mixed");
  ASSERT_NE(k, nullptr);
  for (size_t n : {size_t(1), size_t(13), size_t(64), size_t(1000)}) {
    std::vector<cl_int> r = randomValues<cl_int>(n * 8, -32768, 32767);
    std::vector<cl_char> c(2 * n);
    std::vector<cl_short> s(2 * n);
    std::vector<cl_ushort> u(4 * n);
    for (size_t i = 0; i < 2 * n; ++i) c[i] = cl_char(r[i] & 0xff), s[i] = cl_short(r[2 * n + i]);
    for (size_t i = 0; i < 4 * n; ++i) u[i] = cl_ushort(r[4 * n + i]);
    cl_mem mc = bufferFrom(c), ms = bufferFrom(s), mu = bufferFrom(u);
    cl_mem oc = bufferFrom(std::vector<cl_char>(2 * n)), os = bufferFrom(std::vector<cl_short>(2 * n)),
           ou = bufferFrom(std::vector<cl_ushort>(4 * n));
    ASSERT_TRUE(setArgs(k, mc, ms, mu, oc, os, ou));
    ASSERT_TRUE(run(k, {n}));
    std::vector<cl_char> gc = read<cl_char>(oc, 2 * n);
    std::vector<cl_short> gs = read<cl_short>(os, 2 * n);
    std::vector<cl_ushort> gu = read<cl_ushort>(ou, 4 * n);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(gc[2 * i], c[2 * i + 1]) << i;
      ASSERT_EQ(gc[2 * i + 1], cl_char(c[2 * i] - 3)) << i;
      ASSERT_EQ(gs[2 * i], cl_short(s[2 * i] + c[2 * i])) << i;
      ASSERT_EQ(gs[2 * i + 1], cl_short(s[2 * i + 1] * 2)) << i;
      ASSERT_EQ(gu[4 * i], u[4 * i + 3]) << i;
      ASSERT_EQ(gu[4 * i + 1], u[4 * i + 2]) << i;
      ASSERT_EQ(gu[4 * i + 2], cl_ushort(u[4 * i + 1] + 1)) << i;
      ASSERT_EQ(gu[4 * i + 3], cl_ushort(u[4 * i] ^ 0x8001)) << i;
    }
  }
}

// char3 and short3 occupy 4 and 8 bytes; their stores leave the fourth
// element undefined, which must not undefine the three others.
TEST_F(SmallVectorAccesses, Char3AndShort3) {
  cl_kernel k = kernel(R"CLC(
    kernel void three(global const char3 *c, global const short3 *s, global char3 *oc, global short3 *os) {
      size_t i = get_global_id(0);
      char3 a = c[i];
      short3 b = s[i];
      oc[i] = (char3)(a.z, a.x, (char)(a.y + 1));
      os[i] = (short3)((short)(b.y - a.x), b.z, b.x);
    }
  )CLC",
                       "three");
  ASSERT_NE(k, nullptr);
  for (size_t n : {size_t(1), size_t(17), size_t(300)}) {
    std::vector<cl_int> r = randomValues<cl_int>(n * 8, -32768, 32767);
    std::vector<cl_char> c(4 * n);
    std::vector<cl_short> s(4 * n);
    for (size_t i = 0; i < 4 * n; ++i) c[i] = cl_char(r[i] & 0xff), s[i] = cl_short(r[4 * n + i]);
    cl_mem mc = bufferFrom(c), ms = bufferFrom(s);
    cl_mem oc = bufferFrom(std::vector<cl_char>(4 * n, 0)), os = bufferFrom(std::vector<cl_short>(4 * n, 0));
    ASSERT_TRUE(setArgs(k, mc, ms, oc, os));
    ASSERT_TRUE(run(k, {n}));
    std::vector<cl_char> gc = read<cl_char>(oc, 4 * n);
    std::vector<cl_short> gs = read<cl_short>(os, 4 * n);
    for (size_t i = 0; i < n; ++i) {
      const cl_char *a = &c[4 * i];
      const cl_short *b = &s[4 * i];
      ASSERT_EQ(gc[4 * i], a[2]) << i;
      ASSERT_EQ(gc[4 * i + 1], a[0]) << i;
      ASSERT_EQ(gc[4 * i + 2], cl_char(a[1] + 1)) << i;
      ASSERT_EQ(gs[4 * i], cl_short(b[1] - a[0])) << i;
      ASSERT_EQ(gs[4 * i + 1], b[2]) << i;
      ASSERT_EQ(gs[4 * i + 2], b[0]) << i;
    }
  }
}

}  // namespace
}  // namespace lockstep::test

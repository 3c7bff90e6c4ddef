// cl_khr_extended_async_copies: async_work_group_copy_2D2D and _3D3D, each
// group copying its block of lines (planes) from __global into a __local
// tile with strides of its own and back out into __global with other
// strides, for several element sizes and local sizes. The host reference
// moves the same bytes; every byte outside the copied elements must keep
// its initial value.
#include <algorithm>

#include "ClTest.h"

namespace lockstep::test {
namespace {

const char *kCopySource = R"CLC(
#pragma OPENCL EXTENSION cl_khr_extended_async_copies : enable
#ifndef cl_khr_extended_async_copies
#error no cl_khr_extended_async_copies
#endif
kernel void copy2d(global const uchar *src, global uchar *dst, local uchar *tile, ulong esize, ulong perLine,
                   ulong lines, ulong srcStride, ulong tileStride, ulong dstStride) {
  size_t g = get_group_id(0);
  event_t e = async_work_group_copy_2D2D(tile, 0, src, g * lines * srcStride, esize, perLine, lines, srcStride,
                                         tileStride, 0);
  wait_group_events(1, &e);
  e = async_work_group_copy_2D2D(dst, g * lines * dstStride, tile, 0, esize, perLine, lines, tileStride, dstStride, e);
  wait_group_events(1, &e);
}
kernel void copy3d(global const uchar *src, global uchar *dst, local uchar *tile, ulong esize, ulong perLine,
                   ulong lines, ulong planes, ulong srcLine, ulong srcPlane, ulong tileLine, ulong tilePlane,
                   ulong dstLine, ulong dstPlane) {
  size_t g = get_group_id(0);
  event_t e = async_work_group_copy_3D3D(tile, 0, src, g * planes * srcPlane, esize, perLine, lines, planes, srcLine,
                                         srcPlane, tileLine, tilePlane, 0);
  wait_group_events(1, &e);
  e = async_work_group_copy_3D3D(dst, g * planes * dstPlane, tile, 0, esize, perLine, lines, planes, tileLine,
                                 tilePlane, dstLine, dstPlane, 0);
  wait_group_events(1, &e);
}
)CLC";

struct Shape {
  size_t esize, perLine, lines, planes;
  size_t srcLine, tileLine, dstLine;  // in elements, >= perLine
};

class AsyncCopies2D3D : public LocalSizeTest {
 protected:
  // Copies `shape` for 4 groups (2D when planes == 0) and checks dst.
  void check(const Shape &s) {
    const size_t groups = 4, local = GetParam();
    const bool is3d = s.planes != 0;
    const size_t planes = is3d ? s.planes : 1;
    // Planes are their lines plus a margin of one line.
    const size_t srcPlane = (s.lines + 1) * s.srcLine, tilePlane = (s.lines + 1) * s.tileLine,
                 dstPlane = (s.lines + 1) * s.dstLine;
    // Per group, in elements: 2D groups own `lines` lines, 3D groups `planes` planes.
    const size_t srcGroup = is3d ? planes * srcPlane : s.lines * s.srcLine,
                 dstGroup = is3d ? planes * dstPlane : s.lines * s.dstLine,
                 tileElements = is3d ? planes * tilePlane : s.lines * s.tileLine;
    std::vector<int> srcValues = randomValues<int>(groups * srcGroup * s.esize, 0, 255),
                     dstValues = randomValues<int>(groups * dstGroup * s.esize, 0, 255);
    std::vector<uint8_t> src(srcValues.begin(), srcValues.end()), dst(dstValues.begin(), dstValues.end());
    std::vector<uint8_t> expected = dst;
    for (size_t g = 0; g < groups; ++g)
      for (size_t z = 0; z < planes; ++z)
        for (size_t y = 0; y < s.lines; ++y)
          for (size_t x = 0; x < s.perLine; ++x)
            for (size_t b = 0; b < s.esize; ++b) {
              size_t from = g * srcGroup + (is3d ? z * srcPlane : 0) + y * s.srcLine + x;
              size_t to = g * dstGroup + (is3d ? z * dstPlane : 0) + y * s.dstLine + x;
              expected[to * s.esize + b] = src[from * s.esize + b];
            }
    cl_kernel k = kernel(kCopySource, is3d ? "copy3d" : "copy2d", "-cl-std=CL3.0");
    ASSERT_NE(k, nullptr);
    if (local > kernelMaxGroupSize(k)) GTEST_SKIP();
    cl_mem srcMem = bufferFrom(src), dstMem = bufferFrom(dst);
    LocalBytes tile{tileElements * s.esize};
    if (is3d) {
      ASSERT_TRUE(setArgs(k, srcMem, dstMem, tile, cl_ulong(s.esize), cl_ulong(s.perLine), cl_ulong(s.lines),
                          cl_ulong(planes), cl_ulong(s.srcLine), cl_ulong(srcPlane), cl_ulong(s.tileLine),
                          cl_ulong(tilePlane), cl_ulong(s.dstLine), cl_ulong(dstPlane)));
    } else {
      ASSERT_TRUE(setArgs(k, srcMem, dstMem, tile, cl_ulong(s.esize), cl_ulong(s.perLine), cl_ulong(s.lines),
                          cl_ulong(s.srcLine), cl_ulong(s.tileLine), cl_ulong(s.dstLine)));
    }
    ASSERT_TRUE(run(k, {groups * local}, {local}));
    std::vector<uint8_t> got = read<uint8_t>(dstMem, dst.size());
    size_t wrong = 0, first = got.size();
    for (size_t i = 0; i < got.size(); ++i)
      if (got[i] != expected[i]) wrong++, first = std::min(first, i);
    EXPECT_EQ(wrong, 0u) << "first wrong byte " << first << " of " << got.size();
  }
};

TEST_P(AsyncCopies2D3D, Lines) {
  for (size_t esize : {1, 2, 4, 8, 16, 3, 12})
    check({esize, 13, 5, 0, 17, 13, 20});
  check({4, 1, 1, 0, 1, 1, 1});
  check({8, 64, 3, 0, 64, 70, 64});
}

TEST_P(AsyncCopies2D3D, Planes) {
  for (size_t esize : {1, 4, 16, 7})
    check({esize, 9, 4, 3, 11, 9, 15});
  check({2, 1, 1, 1, 1, 1, 1});
  check({4, 32, 2, 2, 32, 40, 33});
}

INSTANTIATE_TEST_SUITE_P(LocalSizes, AsyncCopies2D3D, ::testing::ValuesIn(kLocalSizes));

}  // namespace
}  // namespace lockstep::test

// Kernels that stream through memory (no loops, no barriers), launched large
// enough that Lockstep stores their results with non-temporal stores
// (StreamingStoresPass: at least 16 MiB stored, and half the last-level
// cache or 2 MiB per CPU where either is less; every vector store aligned),
// and beside them the same kernels where a store is misaligned, the launch
// is small, or the range has an offset, which take the ordinary stores. Each
// result is checked in full against a host reference, read right after the
// launch completes.
#include <algorithm>
#include <cmath>

#include "ClTest.h"

namespace lockstep::test {
namespace {

class Streaming : public ClTest {
 protected:
  // Floats: 48 MiB stored, or the whole last-level cache where that is
  // more, so that the launch streams on any machine.
  const size_t kLarge = std::max<size_t>(
      size_t(12) << 20, deviceInfo<cl_ulong>(testDevice(), CL_DEVICE_GLOBAL_MEM_CACHE_SIZE) / sizeof(float));
};
constexpr size_t kSmall = size_t(1) << 16;

// c = a + b, and d = 2a - b shifted by `shift` elements (a misaligned store
// when shift is not a multiple of the vector).
const char *kAdd = R"CLC(
  kernel void add(global const float *a, global const float *b, global float *c) {
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
  }
  kernel void shifted(global const float *a, global const float *b, global float *d, uint shift) {
    size_t i = get_global_id(0);
    d[i + shift] = 2.0f * a[i] - b[i];
  }
  kernel void triad4(global const float4 *a, global const float4 *b, global float4 *c, float s) {
    size_t i = get_global_id(0);
    c[i] = a[i] + s * b[i];
  }
)CLC";

TEST_F(Streaming, LargeAlignedAndSmallLaunchesStoreEveryElement) {
  cl_kernel add = kernel(kAdd, "add");
  ASSERT_NE(add, nullptr);
  std::vector<float> a = randomValues(kLarge, -100.0f, 100.0f), b = randomValues(kLarge, -100.0f, 100.0f);
  cl_mem ma = bufferFrom(a), mb = bufferFrom(b), mc = buffer(CL_MEM_READ_WRITE, kLarge * sizeof(float));
  for (size_t n : {kLarge, kSmall, kLarge - 3}) {
    for (size_t local : {size_t(0), size_t(256), size_t(100)}) {
      if (local && n % local) continue;
      const std::vector<float> poison(kLarge, -1.0f);
      ASSERT_CL(clEnqueueWriteBuffer(queue_, mc, CL_TRUE, 0, kLarge * sizeof(float), poison.data(), 0, nullptr,
                                     nullptr));
      ASSERT_TRUE(setArgs(add, ma, mb, mc));
      ASSERT_TRUE(run(add, {n}, local ? std::vector<size_t>{local} : std::vector<size_t>{}));
      std::vector<float> c = read<float>(mc, kLarge);
      for (size_t i = 0; i < kLarge; ++i)
        ASSERT_EQ(c[i], i < n ? a[i] + b[i] : -1.0f) << "element " << i << " of " << n << ", local " << local;
    }
  }
}

TEST_F(Streaming, MisalignedStoresAndOffsetRanges) {
  cl_kernel shifted = kernel(kAdd, "shifted");
  ASSERT_NE(shifted, nullptr);
  std::vector<float> a = randomValues(kLarge, -100.0f, 100.0f), b = randomValues(kLarge, -100.0f, 100.0f);
  const size_t room = kLarge + 64;
  cl_mem ma = bufferFrom(a), mb = bufferFrom(b), md = buffer(CL_MEM_READ_WRITE, room * sizeof(float));
  for (cl_uint shift : {0u, 1u, 7u, 8u, 16u}) {
    for (size_t offset : {size_t(0), size_t(3)}) {
      const size_t n = kLarge - offset;
      const std::vector<float> poison(room, -1.0f);
      ASSERT_CL(clEnqueueWriteBuffer(queue_, md, CL_TRUE, 0, room * sizeof(float), poison.data(), 0, nullptr,
                                     nullptr));
      ASSERT_TRUE(setArgs(shifted, ma, mb, md, shift));
      ASSERT_TRUE(run(shifted, {n}, {}, {offset}));
      std::vector<float> d = read<float>(md, room);
      for (size_t j = 0; j < room; ++j) {
        const bool written = j >= offset + shift && j < offset + shift + n;
        const float want = written ? 2.0f * a[j - shift] - b[j - shift] : -1.0f;
        ASSERT_EQ(d[j], want) << "element " << j << ", shift " << shift << ", offset " << offset;
      }
    }
  }
}

TEST_F(Streaming, VectorElementsPerWorkItem) {
  cl_kernel triad = kernel(kAdd, "triad4");
  ASSERT_NE(triad, nullptr);
  const size_t items = kLarge / 4;
  std::vector<float> a = randomValues(kLarge, -100.0f, 100.0f), b = randomValues(kLarge, -100.0f, 100.0f);
  cl_mem ma = bufferFrom(a), mb = bufferFrom(b), mc = buffer(CL_MEM_READ_WRITE, kLarge * sizeof(float));
  const float s = 3.0f;
  ASSERT_TRUE(setArgs(triad, ma, mb, mc, s));
  ASSERT_TRUE(run(triad, {items}));
  std::vector<float> c = read<float>(mc, kLarge);
  for (size_t i = 0; i < kLarge; ++i) {
    const float want = a[i] + s * b[i];
    // The kernel may contract a + s * b into one rounding (an fma).
    ASSERT_LE(std::fabs(c[i] - want), 1e-5f * (std::fabs(want) + std::fabs(s * b[i])))
        << "element " << i;
  }
}

// A straight-line kernel in groups whose width is not a multiple of 64
// work-items runs a version whose work-item loops mask their tails
// (WorkGroup/VersionDispatch.cpp, kFullRowMultiple) on AVX-512 machines. Every width,
// remainder groups included, must write exactly its own elements: a 2D
// image kernel with a float store and a divergent byte store. s = 0.5 makes
// the product exact, so a contracted fma rounds as the host does.
const char *kImage = R"CLC(
  kernel void scale(global const float *in, global float *out, global uchar *mark, uint width, float s) {
    size_t x = get_global_id(0), y = get_global_id(1);
    size_t i = y * width + x;
    float v = in[i] * s + (float)x - (float)y;
    out[i] = v;
    if (v > 0.0f) mark[i] = (uchar)(x + 3 * y);
  }
)CLC";

TEST_F(Streaming, NarrowAndOddGroupWidthsStoreEveryElement) {
  cl_kernel scale = kernel(kImage, "scale", "-cl-std=CL3.0");  // remainder groups
  ASSERT_NE(scale, nullptr);
  const cl_uint width = 203, height = 37;  // no local size below divides either
  const size_t n = size_t(width) * height;
  std::vector<float> in = randomValues(n, -100.0f, 100.0f);
  cl_mem mi = bufferFrom(in), mo = buffer(CL_MEM_READ_WRITE, n * sizeof(float)), mm = buffer(CL_MEM_READ_WRITE, n);
  const float s = 0.5f;
  const std::vector<size_t> locals[] = {{16, 16}, {8, 8}, {5, 3},  {12, 4}, {64, 4},
                                        {100, 1}, {1, 7}, {33, 2}, {128, 1}};
  for (const std::vector<size_t> &local : locals) {
    for (const std::vector<size_t> &global :
         {std::vector<size_t>{width, height},
          std::vector<size_t>{std::min<size_t>(local[0] * 3, width), std::min<size_t>(local[1] * 2, height)}}) {
      const std::vector<float> poison(n, -1000.0f);
      const std::vector<cl_uchar> noMark(n, 0xee);
      ASSERT_CL(clEnqueueWriteBuffer(queue_, mo, CL_TRUE, 0, n * sizeof(float), poison.data(), 0, nullptr, nullptr));
      ASSERT_CL(clEnqueueWriteBuffer(queue_, mm, CL_TRUE, 0, n, noMark.data(), 0, nullptr, nullptr));
      ASSERT_TRUE(setArgs(scale, mi, mo, mm, width, s));
      ASSERT_TRUE(run(scale, global, local));
      std::vector<float> out = read<float>(mo, n);
      std::vector<cl_uchar> mark = read<cl_uchar>(mm, n);
      for (size_t y = 0; y < height; ++y)
        for (size_t x = 0; x < width; ++x) {
          const size_t i = y * width + x;
          const bool inRange = x < global[0] && y < global[1];
          const float v = in[i] * s + float(x) - float(y);
          ASSERT_EQ(out[i], inRange ? v : -1000.0f)
              << "(" << x << ", " << y << "), local " << local[0] << "x" << local[1] << ", global " << global[0];
          ASSERT_EQ(mark[i], inRange && v > 0.0f ? cl_uchar(x + 3 * y) : 0xee)
              << "mark (" << x << ", " << y << "), local " << local[0] << "x" << local[1];
        }
    }
  }
}

}  // namespace
}  // namespace lockstep::test

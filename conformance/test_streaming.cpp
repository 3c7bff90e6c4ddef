// Kernels that stream through memory (no loops, no barriers), launched large
// enough that Lockstep stores their results with non-temporal stores
// (StreamingStoresPass: at least 16 MiB stored, every vector store aligned),
// and beside them the same kernels where a store is misaligned, the launch
// is small, or the range has an offset, which take the ordinary stores. Each
// result is checked in full against a host reference, read right after the
// launch completes.
#include <cmath>

#include "ClTest.h"

namespace lockstep::test {
namespace {

class Streaming : public ClTest {};

constexpr size_t kLarge = size_t(12) << 20;  // floats: 48 MiB stored
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

}  // namespace
}  // namespace lockstep::test

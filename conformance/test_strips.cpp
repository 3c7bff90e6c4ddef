// Kernels without barriers whose work-items differ along x alone run their
// loop cuts strip by strip (compiler/lib/WorkGroup/Strips.cpp): every trip of
// a loop for 64 work-items of a row, then the next 64; rows the strips do not
// divide, and launches whose global ids pass INT_MAX where the kernel takes
// `int` ids, run the loop cuts over whole rows. Each kernel here runs at
// group widths on both sides of that (strips of 1, 2, 3 and 4 per row, 100,
// the narrow widths that have versions of their own), with global offsets
// and a remainder group (each kernel reads its local id, so that the groups
// are the launch's: a kernel that never asks runs in groups the runtime
// picks), against a reference computed on the host: uniform
// loops over `int` and `size_t` ids, a loop whose trip count differs (masked:
// its count is the strip's), a loop behind a guard some work-items fail, a
// loop nest with a uniform break, and a 2-D launch of groups one row high.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>

#include "ClTest.h"

namespace lockstep::test {
namespace {

using u32 = uint32_t;

const char *kStripKernels = R"CLC(
// int ids: in[i + k] through a sign extension of 32-bit arithmetic, the id
// the global one or the group's start plus the local one.
kernel void int_conv(global const uint *in, global uint *out, constant uint *w, int taps, int off, int n) {
  int i = get_global_id(0);
  if (i - off >= n) return;
  uint acc = 1u;
  for (int k = 0; k < taps; k++) acc = acc * 3u + in[i - off + k] * w[k];
  out[i - off] = acc ^ ((uint)get_local_id(0) << 24);  // the group's shape is the launch's
}
kernel void int_start(global const uint *in, global uint *out, constant uint *w, int taps) {
  int i = get_group_id(0) * get_local_size(0) + get_local_id(0);
  uint acc = 2u;
  for (int k = 0; k < taps; k++) acc = acc * 3u + in[i + k] * w[k];
  out[i] = acc;
}
// An int id past INT_MAX is negative, and so is i + k extended to long.
kernel void wrapping_ids(global long *out, int taps, uint first) {
  int i = get_global_id(0);
  uint j = (uint)get_global_id(0) - first;
  long group = (long)get_local_id(0) << 40;
  for (int k = 0; k < taps; k++) out[k * 256 + j] = i <= 0x7ffffff0 ? (long)(i + k) + group : -1;
}
kernel void size_conv(global const uint *in, global uint *out, constant uint *w, int taps) {
  size_t i = get_global_id(0) - get_global_offset(0);
  uint acc = 7u, sum = 0u;
  for (int k = 0; k < taps; k++) {
    acc = acc * 5u + in[i + k];
    sum += w[k] ^ (uint)k;
  }
  out[2 * i] = acc;
  out[2 * i + 1] = sum + (uint)get_local_id(0);
}
// A trip count of its own per work-item.
kernel void masked(global const uint *in, global uint *out) {
  int i = get_global_id(0) - get_global_offset(0);
  uint acc = (uint)i;
  for (int j = 0; j < i % 13; j++) acc = acc * 5u + in[i + 7 * j];
  out[i] = acc ^ ((uint)get_local_id(0) << 24);
}
// A guard that only the work-items below `cutoff` pass.
kernel void guarded(global const uint *in, global uint *out, int taps, int cutoff) {
  int i = get_global_id(0) - get_global_offset(0);
  uint acc = 11u;
  if (i < cutoff) {
    for (int k = 0; k < taps; k++) acc = acc * 3u + in[i + 2 * k];
  }
  out[i] = acc ^ ((uint)get_local_id(0) << 24);
}
// A nest, its inner loop left by a uniform break.
kernel void nest(global const uint *in, global uint *out, int rows, int cols, int stop) {
  int i = get_global_id(0) - get_global_offset(0);
  uint acc = 0u;
  for (int r = 0; r < rows; r++) {
    for (int c = 0; c < cols; c++) {
      if (r * cols + c == stop) break;
      acc = acc * 7u + in[i + r * cols + c];
    }
  }
  out[i] = acc ^ ((uint)get_local_id(0) << 24);
}
// A 2-D launch of groups one row high: x ids and the group's row.
kernel void rows(global const uint *in, global uint *out, int taps) {
  int x = get_global_id(0);
  size_t at = get_group_id(1) * get_global_size(0) + (size_t)x;
  uint acc = (uint)get_group_id(1);
  for (int k = 0; k < taps; k++) acc = acc * 3u + in[x + k + (int)get_group_id(1)];
  out[at] = acc;
}
)CLC";

constexpr size_t kInput = 8192;

class Strips : public ClTest {
 protected:
  void SetUp() override {
    ClTest::SetUp();
    in_ = randomValues<u32>(kInput, 0, 0xffffffu);
    w_ = randomValues<u32>(32, 0, 1000);
  }
  // Widths at which the strips run (64 x 1..4), rows they do not divide
  // (100), the narrow widths with versions of their own (16, 32, 4) and the
  // widest; each in five groups and, where the device allows, with a
  // remainder group, at offsets 0 and 13.
  struct Launch {
    size_t local, global, offset;
  };
  std::vector<Launch> launches(cl_kernel k) {
    cl_bool nonUniform = CL_FALSE;
    clGetDeviceInfo(device_, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof nonUniform, &nonUniform, nullptr);
    std::vector<Launch> out;
    for (size_t local : {64u, 128u, 192u, 256u, 100u, 16u, 32u, 4u, 1024u}) {
      if (local > kernelMaxGroupSize(k)) continue;
      for (size_t offset : {0u, 13u}) {
        out.push_back({local, local * 5, offset});
        if (nonUniform) out.push_back({local, local * 4 + 37, offset});
      }
    }
    return out;
  }
  static std::string where(const Launch &l) {
    return "local " + std::to_string(l.local) + ", global " + std::to_string(l.global) + ", offset " +
           std::to_string(l.offset);
  }
  // The `words` of output a launch of `k` writes, its arguments set by
  // `set` given the output buffer (filled with `fill` first).
  std::vector<u32> outputOf(cl_kernel k, const Launch &l, size_t words, u32 fill,
                            const std::function<::testing::AssertionResult(cl_mem)> &set) {
    cl_mem mo = bufferFrom(std::vector<u32>(words, fill));
    ::testing::AssertionResult ok = set(mo);
    if (ok) ok = run(k, {l.global}, {l.local}, {l.offset});
    if (!ok) ADD_FAILURE() << ok.message() << " (" << where(l) << ")";
    return read<u32>(mo, words);
  }
  std::vector<u32> in_, w_;
};

TEST_F(Strips, IntIdsUniformLoop) {
  cl_kernel k = kernel(kStripKernels, "int_conv", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  cl_mem mi = bufferFrom(in_), mw = bufferFrom(w_);
  for (int taps : {0, 1, 17, 31})
    for (const Launch &l : launches(k)) {
      int n = int(l.global) - (taps == 17 ? 45 : 0);  // some work-items return early
      std::vector<u32> want(l.global, 0xabcdu);
      for (int i = 0; i < n; ++i) {
        u32 acc = 1u;
        for (int t = 0; t < taps; ++t) acc = acc * 3u + in_[i + t] * w_[t];
        want[i] = acc ^ (u32(i % l.local) << 24);
      }
      auto set = [&](cl_mem mo) { return setArgs(k, mi, mo, mw, cl_int(taps), cl_int(l.offset), cl_int(n)); };
      EXPECT_EQ(outputOf(k, l, l.global, 0xabcdu, set), want)
          << where(l) << ", taps " << taps;
    }
}

TEST_F(Strips, IntGroupStartPlusLocalId) {
  cl_kernel k = kernel(kStripKernels, "int_start", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  cl_mem mi = bufferFrom(in_), mw = bufferFrom(w_);
  for (int taps : {2, 23})
    for (const Launch &l : launches(k)) {
      if (l.global % l.local != 0) continue;  // a remainder group's size is its own: not an id
      std::vector<u32> want(l.global);
      for (size_t i = 0; i < l.global; ++i) {
        u32 acc = 2u;
        for (int t = 0; t < taps; ++t) acc = acc * 3u + in_[i + t] * w_[t];
        want[i] = acc;
      }
      auto set = [&](cl_mem mo) { return setArgs(k, mi, mo, mw, cl_int(taps)); };
      EXPECT_EQ(outputOf(k, l, l.global, 0u, set), want) << where(l) << ", taps " << taps;
    }
}

// Launches whose global ids pass INT_MAX run the version that keeps int ids
// 32 bits wide.
TEST_F(Strips, IntIdsPastIntMax) {
  cl_kernel k = kernel(kStripKernels, "wrapping_ids", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  const int taps = 5;
  const size_t global = 256, local = 64;
  for (size_t first : {size_t(0x7fffffff) - 70, size_t(0x7fffffff) - 1000, size_t(0x80000000)}) {
    std::vector<int64_t> want(taps * global, -1);
    for (size_t j = 0; j < global; ++j) {
      int32_t id = int32_t(uint32_t(first + j));
      if (id <= 0x7ffffff0)
        for (int t = 0; t < taps; ++t) want[t * global + j] = int64_t(id + t) + (int64_t(j % local) << 40);
    }
    cl_mem mo = bufferFrom(std::vector<int64_t>(taps * global, 0));
    ASSERT_TRUE(setArgs(k, mo, cl_int(taps), cl_uint(first)));
    ASSERT_TRUE(run(k, {global}, {local}, {first}));
    EXPECT_EQ(read<int64_t>(mo, taps * global), want) << "first id " << first;
  }
}

TEST_F(Strips, SizeIdsUniformLoop) {
  cl_kernel k = kernel(kStripKernels, "size_conv", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  cl_mem mi = bufferFrom(in_), mw = bufferFrom(w_);
  for (int taps : {0, 3, 29})
    for (const Launch &l : launches(k)) {
      std::vector<u32> want(2 * l.global);
      for (size_t i = 0; i < l.global; ++i) {
        u32 acc = 7u, sum = 0u;
        for (int t = 0; t < taps; ++t) {
          acc = acc * 5u + in_[i + t];
          sum += w_[t] ^ u32(t);
        }
        want[2 * i] = acc;
        want[2 * i + 1] = sum + u32(i % l.local);
      }
      auto set = [&](cl_mem mo) { return setArgs(k, mi, mo, mw, cl_int(taps)); };
      EXPECT_EQ(outputOf(k, l, 2 * l.global, 0u, set), want) << where(l) << ", taps " << taps;
    }
}

TEST_F(Strips, MaskedLoopCountsTheStrip) {
  cl_kernel k = kernel(kStripKernels, "masked", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  cl_mem mi = bufferFrom(in_);
  for (const Launch &l : launches(k)) {
    std::vector<u32> want(l.global);
    for (size_t i = 0; i < l.global; ++i) {
      u32 acc = u32(i);
      for (size_t j = 0; j < i % 13; ++j) acc = acc * 5u + in_[i + 7 * j];
      want[i] = acc ^ (u32(i % l.local) << 24);
    }
    auto set = [&](cl_mem mo) { return setArgs(k, mi, mo); };
    EXPECT_EQ(outputOf(k, l, l.global, 0u, set), want) << where(l);
  }
}

TEST_F(Strips, LoopBehindAGuard) {
  cl_kernel k = kernel(kStripKernels, "guarded", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  cl_mem mi = bufferFrom(in_);
  for (const Launch &l : launches(k))
    for (size_t cut : {size_t(0), l.global / 3 + 1, l.global}) {
      const int taps = 9;
      std::vector<u32> want(l.global);
      for (size_t i = 0; i < l.global; ++i) {
        u32 acc = 11u;
        if (i < cut)
          for (int t = 0; t < taps; ++t) acc = acc * 3u + in_[i + 2 * t];
        want[i] = acc ^ (u32(i % l.local) << 24);
      }
      auto set = [&](cl_mem mo) { return setArgs(k, mi, mo, cl_int(taps), cl_int(cut)); };
      EXPECT_EQ(outputOf(k, l, l.global, 0u, set), want) << where(l) << ", cutoff " << cut;
    }
}

TEST_F(Strips, NestWithUniformBreak) {
  cl_kernel k = kernel(kStripKernels, "nest", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  cl_mem mi = bufferFrom(in_);
  const int rows = 4, cols = 6;
  for (int stop : {-1, 0, 9})
    for (const Launch &l : launches(k)) {
      std::vector<u32> want(l.global);
      for (size_t i = 0; i < l.global; ++i) {
        u32 acc = 0u;
        for (int r = 0; r < rows; ++r)
          for (int c = 0; c < cols; ++c) {
            if (r * cols + c == stop) break;
            acc = acc * 7u + in_[i + r * cols + c];
          }
        want[i] = acc ^ (u32(i % l.local) << 24);
      }
      auto set = [&](cl_mem mo) { return setArgs(k, mi, mo, cl_int(rows), cl_int(cols), cl_int(stop)); };
      EXPECT_EQ(outputOf(k, l, l.global, 0u, set), want) << where(l) << ", stop " << stop;
    }
}

TEST_F(Strips, RowsOfATwoDimensionalLaunch) {
  cl_kernel k = kernel(kStripKernels, "rows", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  cl_mem mi = bufferFrom(in_);
  const int taps = 13;
  for (size_t local : {64u, 192u, 100u}) {
    if (local > kernelMaxGroupSize(k)) continue;
    const size_t width = local * 3, height = 5;
    std::vector<u32> want(width * height);
    for (size_t y = 0; y < height; ++y)
      for (size_t x = 0; x < width; ++x) {
        u32 acc = u32(y);
        for (int t = 0; t < taps; ++t) acc = acc * 3u + in_[x + t + y];
        want[y * width + x] = acc;
      }
    cl_mem mo = bufferFrom(std::vector<u32>(width * height, 0u));
    ASSERT_TRUE(setArgs(k, mi, mo, cl_int(taps)));
    ASSERT_TRUE(run(k, {width, height}, {local, 1}));
    EXPECT_EQ(read<u32>(mo, width * height), want) << "local " << local;
  }
}

}  // namespace
}  // namespace lockstep::test

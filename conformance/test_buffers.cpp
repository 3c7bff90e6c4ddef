// Buffers: every host-pointer flag, read/write/copy/fill and their rectangular
// forms, mapping (zero copy with CL_MEM_USE_HOST_PTR) and sub-buffers.
#include <cstring>
#include <numeric>
#include <random>

#include "ClTest.h"

namespace lockstep::test {
namespace {

class Buffers : public ClTest {
 protected:
  std::vector<int> iota(size_t n, int start = 0) {
    std::vector<int> v(n);
    std::iota(v.begin(), v.end(), start);
    return v;
  }
  // Doubles every int of `mem` in a kernel.
  void doubleInKernel(cl_mem mem, size_t n) {
    cl_kernel twice =
        kernel("kernel void twice(global int *a) { a[get_global_id(0)] *= 2; }", "twice");
    ASSERT_NE(twice, nullptr);
    ASSERT_TRUE(setArgs(twice, mem));
    ASSERT_TRUE(run(twice, {n}));
  }
};

// Large buffers start past their 2 MiB boundary at staggered offsets, so
// that two made one after the other do not share their offset within a
// 4 KiB page (which costs Intel's cores a wait on every load that follows a
// store to the other): each still starts on CL_DEVICE_MEM_BASE_ADDR_ALIGN,
// holds its data (written and read back whole, and by a kernel), and no two
// consecutive ones start at the same offset in a page.
TEST_F(Buffers, LargeBuffersStaggeredAndAligned) {
  cl_uint alignBits = 0;
  ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof alignBits, &alignBits, nullptr),
            CL_SUCCESS);
  cl_kernel where = kernel(
      "kernel void where(global const int *a, global ulong *out) { out[0] = (ulong)a; out[1] = a[get_global_size(0) "
      "- 1]; }",
      "where");
  ASSERT_NE(where, nullptr);
  const size_t n = (size_t{3} << 20) / sizeof(int) + 17;
  std::vector<cl_ulong> offsets;
  for (int i = 0; i < 20; ++i) {
    std::vector<int> data = iota(n, i * 1000);
    cl_mem big = bufferFrom(data);
    cl_mem out = buffer(CL_MEM_READ_WRITE, 2 * sizeof(cl_ulong));
    ASSERT_TRUE(setArgs(where, big, out));
    ASSERT_TRUE(run(where, {n}, {1}));
    std::vector<cl_ulong> got = read<cl_ulong>(out, 2);
    EXPECT_EQ(got[0] % (alignBits / 8), 0u) << "buffer " << i;
    EXPECT_EQ(got[1], cl_ulong(data.back())) << "buffer " << i;
    doubleInKernel(big, n);
    std::vector<int> doubled = read<int>(big, n);
    for (size_t j = 0; j < n; j += 4099) ASSERT_EQ(doubled[j], 2 * data[j]) << "buffer " << i << ", int " << j;
    ASSERT_EQ(doubled[n - 1], 2 * data[n - 1]);
    offsets.push_back(got[0] % 4096);
  }
  for (size_t i = 1; i < offsets.size(); ++i)
    EXPECT_NE(offsets[i], offsets[i - 1]) << "buffers " << i - 1 << " and " << i << " start at the same offset in a page";
}

TEST_F(Buffers, EveryHostPointerFlag) {
  const size_t n = 4096;
  std::vector<int> data = iota(n, -100);
  struct Case {
    cl_mem_flags flags;
    bool passHost;
  } cases[] = {{CL_MEM_READ_WRITE, false},
               {CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, true},
               {CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, true},
               {CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, false},
               {CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, true}};
  for (const Case &c : cases) {
    SCOPED_TRACE("flags " + std::to_string(c.flags));
    std::vector<int> host = data;
    cl_mem mem = buffer(c.flags, n * sizeof(int), c.passHost ? host.data() : nullptr);
    ASSERT_NE(mem, nullptr);
    if (!c.passHost)
      ASSERT_CL(
          clEnqueueWriteBuffer(queue_, mem, CL_TRUE, 0, n * 4, data.data(), 0, nullptr, nullptr));
    if (c.flags & CL_MEM_COPY_HOST_PTR) host.assign(n, 0);  // the copy must not alias
    doubleInKernel(mem, n);
    std::vector<int> out = read<int>(mem, n);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], data[i] * 2) << i;
    cl_mem_flags reported = 0;
    ASSERT_CL(clGetMemObjectInfo(mem, CL_MEM_FLAGS, sizeof reported, &reported, nullptr));
    EXPECT_EQ(reported, c.flags);
    void *hostPtr = nullptr;
    ASSERT_CL(clGetMemObjectInfo(mem, CL_MEM_HOST_PTR, sizeof hostPtr, &hostPtr, nullptr));
    EXPECT_EQ(hostPtr, (c.flags & CL_MEM_USE_HOST_PTR) ? host.data() : nullptr);
    size_t size = 0;
    ASSERT_CL(clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof size, &size, nullptr));
    EXPECT_EQ(size, n * sizeof(int));
    if (c.flags & CL_MEM_USE_HOST_PTR) {
      // After a blocking read the application's memory holds the result too
      // (the buffer's storage is that memory, or was synchronized with it).
      void *mapped = clEnqueueMapBuffer(queue_, mem, CL_TRUE, CL_MAP_READ, 0, n * 4, 0, nullptr,
                                        nullptr, nullptr);
      ASSERT_EQ(mapped, host.data());
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(host[i], data[i] * 2) << i;
      ASSERT_CL(clEnqueueUnmapMemObject(queue_, mem, mapped, 0, nullptr, nullptr));
      ASSERT_CL(clFinish(queue_));
    }
  }
}

TEST_F(Buffers, ReadWriteWithOffsetsNonBlocking) {
  const size_t n = 1000;
  cl_mem mem = buffer(CL_MEM_READ_WRITE, n * sizeof(int));
  std::vector<int> a = iota(n), b = iota(100, 5000), out(n, -1);
  ASSERT_CL(clEnqueueWriteBuffer(queue_, mem, CL_FALSE, 0, n * 4, a.data(), 0, nullptr, nullptr));
  ASSERT_CL(
      clEnqueueWriteBuffer(queue_, mem, CL_FALSE, 300 * 4, 100 * 4, b.data(), 0, nullptr, nullptr));
  ASSERT_CL(clEnqueueReadBuffer(queue_, mem, CL_FALSE, 0, n * 4, out.data(), 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], i >= 300 && i < 400 ? b[i - 300] : a[i]) << i;
}

TEST_F(Buffers, CopyAndFill) {
  const size_t n = 1024;
  std::vector<int> a = iota(n);
  cl_mem src = bufferFrom(a), dst = buffer(CL_MEM_READ_WRITE, n * sizeof(int));
  int zero = 0;
  ASSERT_CL(clEnqueueFillBuffer(queue_, dst, &zero, sizeof zero, 0, n * 4, 0, nullptr, nullptr));
  ASSERT_CL(clEnqueueCopyBuffer(queue_, src, dst, 8 * 4, 100 * 4, 50 * 4, 0, nullptr, nullptr));
  // Patterns of 1, 2, 8 and 16 bytes at offsets that are multiples of them.
  cl_uchar byte = 0xAB;
  ASSERT_CL(clEnqueueFillBuffer(queue_, dst, &byte, 1, 200 * 4 + 1, 6, 0, nullptr, nullptr));
  cl_short shortPattern = 0x1234;
  ASSERT_CL(clEnqueueFillBuffer(queue_, dst, &shortPattern, 2, 300 * 4, 8, 0, nullptr, nullptr));
  cl_long longPattern = 0x0102030405060708LL;
  ASSERT_CL(clEnqueueFillBuffer(queue_, dst, &longPattern, 8, 400 * 4, 32, 0, nullptr, nullptr));
  cl_int4 vecPattern = {{1, 2, 3, 4}};
  ASSERT_CL(clEnqueueFillBuffer(queue_, dst, &vecPattern, 16, 512 * 4, 64, 0, nullptr, nullptr));
  std::vector<unsigned char> want(n * 4, 0);
  std::memcpy(&want[100 * 4], &a[8], 50 * 4);
  std::memset(&want[200 * 4 + 1], 0xAB, 6);
  for (int i = 0; i < 4; ++i) std::memcpy(&want[300 * 4 + 2 * i], &shortPattern, 2);
  for (int i = 0; i < 4; ++i) std::memcpy(&want[400 * 4 + 8 * i], &longPattern, 8);
  for (int i = 0; i < 4; ++i) std::memcpy(&want[512 * 4 + 16 * i], &vecPattern, 16);
  std::vector<unsigned char> got = read<unsigned char>(dst, n * 4);
  for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(got[i], want[i]) << "byte " << i;
}

// Fills larger than the runtime's copy chunk (64 KiB), of every pattern
// size, at offsets and lengths that are not multiples of the chunk; the
// bytes around each fill keep their value.
TEST_F(Buffers, LargeFillsOfEveryPatternSize) {
  const size_t total = 3 * 65536 + 4096;
  std::vector<unsigned char> want(total);
  for (size_t i = 0; i < total; ++i) want[i] = static_cast<unsigned char>(i * 7 + 3);
  cl_mem dst = bufferFrom(want);
  for (size_t patternSize = 1; patternSize <= 128; patternSize *= 2) {
    unsigned char pattern[128];
    for (size_t i = 0; i < patternSize; ++i) pattern[i] = static_cast<unsigned char>(0x40 + patternSize + i * 13);
    size_t offset = patternSize * (3 + patternSize % 5);
    size_t size = (total - offset - 256) / patternSize * patternSize;
    ASSERT_CL(clEnqueueFillBuffer(queue_, dst, pattern, patternSize, offset, size, 0, nullptr, nullptr));
    for (size_t i = 0; i < size; ++i) want[offset + i] = pattern[i % patternSize];
    std::vector<unsigned char> got = read<unsigned char>(dst, total);
    for (size_t i = 0; i < total; ++i) ASSERT_EQ(got[i], want[i]) << "pattern " << patternSize << " byte " << i;
  }
}

// A host-side model of a rectangle copy between two 3D byte arrays.
void copyRect(const unsigned char *src, unsigned char *dst, const size_t srcOrigin[3],
              const size_t dstOrigin[3], const size_t region[3], size_t srcRow, size_t srcSlice,
              size_t dstRow, size_t dstSlice) {
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      std::memcpy(dst + (dstOrigin[2] + z) * dstSlice + (dstOrigin[1] + y) * dstRow + dstOrigin[0],
                  src + (srcOrigin[2] + z) * srcSlice + (srcOrigin[1] + y) * srcRow + srcOrigin[0],
                  region[0]);
}

TEST_F(Buffers, RectangularReadWriteCopy) {
  // The buffer is a 3D box of 40 x 10 x 4 bytes; the host a box of 64 x 16 x 3.
  const size_t bufRow = 40, bufSlice = 400, bufSize = 1600;
  const size_t hostRow = 64, hostSlice = 64 * 16, hostSize = hostSlice * 3;
  std::vector<unsigned char> host(hostSize), model(bufSize, 0);
  for (size_t i = 0; i < hostSize; ++i) host[i] = static_cast<unsigned char>(i * 7 + 3);
  cl_mem mem = bufferFrom(model);
  size_t bufOrigin[3] = {5, 2, 1}, hostOrigin[3] = {10, 3, 0}, region[3] = {17, 6, 3};
  ASSERT_CL(clEnqueueWriteBufferRect(queue_, mem, CL_TRUE, bufOrigin, hostOrigin, region, bufRow,
                                     bufSlice, hostRow, hostSlice, host.data(), 0, nullptr,
                                     nullptr));
  copyRect(host.data(), model.data(), hostOrigin, bufOrigin, region, hostRow, hostSlice, bufRow,
           bufSlice);
  ASSERT_EQ(read<unsigned char>(mem, bufSize), model);

  // Copy a rectangle inside the buffer to another buffer, then read a
  // rectangle of that back with default (0) pitches.
  cl_mem other = buffer(CL_MEM_READ_WRITE, bufSize);
  std::vector<unsigned char> zeros(bufSize, 0), otherModel(bufSize, 0);
  ASSERT_CL(
      clEnqueueWriteBuffer(queue_, other, CL_TRUE, 0, bufSize, zeros.data(), 0, nullptr, nullptr));
  size_t srcOrigin[3] = {6, 3, 1}, dstOrigin[3] = {1, 0, 0}, copyRegion[3] = {12, 4, 2};
  ASSERT_CL(clEnqueueCopyBufferRect(queue_, mem, other, srcOrigin, dstOrigin, copyRegion, bufRow,
                                    bufSlice, 20, 100, 0, nullptr, nullptr));
  copyRect(model.data(), otherModel.data(), srcOrigin, dstOrigin, copyRegion, bufRow, bufSlice, 20,
           100);
  std::vector<unsigned char> back(12 * 4 * 2, 0), backModel(12 * 4 * 2, 0);
  size_t zero[3] = {0, 0, 0};
  ASSERT_CL(clEnqueueReadBufferRect(queue_, other, CL_TRUE, dstOrigin, zero, copyRegion, 20, 100, 0,
                                    0, back.data(), 0, nullptr, nullptr));
  copyRect(otherModel.data(), backModel.data(), dstOrigin, zero, copyRegion, 20, 100, 12, 48);
  EXPECT_EQ(back, backModel);
}

// Within one buffer, a copy is refused only where the spec's
// check_copy_overlap (Appendix D) finds the boxes overlapping. Here rows run
// past the row pitch (the origin's x plus the region's width exceed it: rows
// follow each other without a gap), yet the destination's slices fit in the
// gap the source's leave: no byte is shared, the copy must run (Khronos CTS
// test_basic bufferreadwriterect drew such a copy). With a packed slice
// pitch the same boxes do share bytes.
TEST_F(Buffers, CopyRectWithinOneBufferFollowsTheSpecsOverlapRule) {
  std::vector<unsigned char> model(64);
  for (size_t i = 0; i < model.size(); ++i) model[i] = static_cast<unsigned char>(i * 5 + 1);
  cl_mem mem = bufferFrom(model);
  size_t src[3] = {3, 0, 0}, dst[3] = {3, 2, 0}, region[3] = {4, 2, 2};
  ASSERT_CL(clEnqueueCopyBufferRect(queue_, mem, mem, src, dst, region, 0, 16, 0, 16, 0, nullptr,
                                    nullptr));
  std::vector<unsigned char> before = model;
  copyRect(before.data(), model.data(), src, dst, region, 4, 16, 4, 16);
  ASSERT_EQ(read<unsigned char>(mem, model.size()), model);
  size_t below[3] = {3, 1, 0};
  EXPECT_CL_ERROR(CL_MEM_COPY_OVERLAP, clEnqueueCopyBufferRect(queue_, mem, mem, src, below, region,
                                                               0, 0, 0, 0, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_MEM_COPY_OVERLAP, clEnqueueCopyBufferRect(queue_, mem, mem, src, dst, region,
                                                               0, 0, 0, 0, 0, nullptr, nullptr));
}

// The spec's check_copy_overlap (Appendix D), written here from the spec's
// text for the test: true when the two boxes, with these pitches, overlap.
bool specOverlap(const size_t src[3], const size_t dst[3], const size_t region[3], size_t row,
                 size_t slice) {
  const size_t sliceSize = (region[1] - 1) * row + region[0];
  const size_t blockSize = (region[2] - 1) * slice + sliceSize;
  const size_t srcStart = src[2] * slice + src[1] * row + src[0];
  const size_t dstStart = dst[2] * slice + dst[1] * row + dst[0];
  if (dstStart + blockSize <= srcStart || srcStart + blockSize <= dstStart) return false;
  const size_t srcDx = src[0] % row, dstDx = dst[0] % row;
  if ((dstDx >= srcDx + region[0] && dstDx + region[0] <= srcDx + row) ||
      (srcDx >= dstDx + region[0] && srcDx + region[0] <= dstDx + row))
    return false;
  const size_t srcDy = (src[1] * row + src[0]) % slice, dstDy = (dst[1] * row + dst[0]) % slice;
  if ((dstDy >= srcDy + sliceSize && dstDy + sliceSize <= srcDy + slice) ||
      (srcDy >= dstDy + sliceSize && srcDy + sliceSize <= dstDy + slice))
    return false;
  return true;
}

// Random copies within one small buffer: each is refused exactly when the
// spec's rule finds an overlap, and one that runs never shares a byte
// between its source and destination (checked byte by byte) and moves the
// bytes the host model says.
TEST_F(Buffers, CopyRectWithinOneBufferAgreesWithTheSpecsRuleOnRandomBoxes) {
  const size_t total = 512;
  std::vector<unsigned char> model(total);
  for (size_t i = 0; i < total; ++i) model[i] = static_cast<unsigned char>(i * 7 + 3);
  cl_mem mem = bufferFrom(model);
  std::mt19937 rng(20261127);
  auto pick = [&](size_t lo, size_t hi) { return std::uniform_int_distribution<size_t>(lo, hi)(rng); };
  int ran = 0, refused = 0;
  for (int attempt = 0; attempt < 3000 && ran + refused < 400; ++attempt) {
    size_t region[3] = {pick(1, 8), pick(1, 4), pick(1, 3)};
    size_t row = region[0] + pick(0, 6) * pick(0, 1);
    size_t slice = row * (region[1] + pick(0, 3) * pick(0, 1));
    size_t src[3] = {pick(0, 9), pick(0, 5), pick(0, 3)}, dst[3] = {pick(0, 9), pick(0, 5), pick(0, 3)};
    auto end = [&](const size_t o[3]) {
      return (o[2] + region[2] - 1) * slice + (o[1] + region[1] - 1) * row + o[0] + region[0];
    };
    if (end(src) > total || end(dst) > total) continue;
    // Pitches as the call gives them: 0 where they are the packed ones.
    size_t rowArg = row == region[0] && pick(0, 1) ? 0 : row;
    size_t sliceArg = slice == region[1] * row && pick(0, 1) ? 0 : slice;
    cl_int err = clEnqueueCopyBufferRect(queue_, mem, mem, src, dst, region, rowArg, sliceArg,
                                         rowArg, sliceArg, 0, nullptr, nullptr);
    bool overlap = specOverlap(src, dst, region, row, slice);
    SCOPED_TRACE(testing::Message() << "region " << region[0] << "x" << region[1] << "x" << region[2]
                                    << " row " << row << " slice " << slice << " src " << src[0] << ","
                                    << src[1] << "," << src[2] << " dst " << dst[0] << "," << dst[1]
                                    << "," << dst[2]);
    ASSERT_EQ(err, overlap ? CL_MEM_COPY_OVERLAP : CL_SUCCESS);
    if (overlap) {
      ++refused;
      continue;
    }
    std::vector<bool> source(total, false);
    for (size_t z = 0; z < region[2]; ++z)
      for (size_t y = 0; y < region[1]; ++y)
        for (size_t x = 0; x < region[0]; ++x)
          source[(src[2] + z) * slice + (src[1] + y) * row + src[0] + x] = true;
    for (size_t z = 0; z < region[2]; ++z)
      for (size_t y = 0; y < region[1]; ++y)
        for (size_t x = 0; x < region[0]; ++x)
          ASSERT_FALSE(source[(dst[2] + z) * slice + (dst[1] + y) * row + dst[0] + x]);
    std::vector<unsigned char> before = model;
    copyRect(before.data(), model.data(), src, dst, region, row, slice, row, slice);
    ++ran;
  }
  ASSERT_EQ(read<unsigned char>(mem, total), model);
  // Both outcomes were drawn often.
  EXPECT_GT(ran, 50);
  EXPECT_GT(refused, 50);
}

TEST_F(Buffers, MapUseHostPtrIsZeroCopy) {
  const size_t n = 2048;
  std::vector<int> host = iota(n);
  cl_mem mem = buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, n * 4, host.data());
  cl_int err = CL_SUCCESS;
  auto *mapped =
      static_cast<int *>(clEnqueueMapBuffer(queue_, mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                            16 * 4, 100 * 4, 0, nullptr, nullptr, &err));
  ASSERT_CL(err);
  EXPECT_EQ(mapped, host.data() + 16) << "a mapping of a USE_HOST_PTR buffer is the host memory";
  cl_uint mapCount = 0;
  ASSERT_CL(clGetMemObjectInfo(mem, CL_MEM_MAP_COUNT, sizeof mapCount, &mapCount, nullptr));
  EXPECT_EQ(mapCount, 1u);
  for (int i = 0; i < 100; ++i) mapped[i] = -i;
  ASSERT_CL(clEnqueueUnmapMemObject(queue_, mem, mapped, 0, nullptr, nullptr));
  doubleInKernel(mem, n);
  mapped = static_cast<int *>(
      clEnqueueMapBuffer(queue_, mem, CL_TRUE, CL_MAP_READ, 0, n * 4, 0, nullptr, nullptr, &err));
  ASSERT_CL(err);
  EXPECT_EQ(mapped, host.data());
  for (int i = 0; i < int(n); ++i)
    ASSERT_EQ(mapped[i], (i >= 16 && i < 116 ? -(i - 16) : i) * 2) << i;
  ASSERT_CL(clEnqueueUnmapMemObject(queue_, mem, mapped, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
}

TEST_F(Buffers, MapWriteInvalidateAndMapOfDeviceBuffer) {
  const size_t n = 512;
  cl_mem mem = buffer(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, n * 4);
  cl_int err = CL_SUCCESS;
  auto *mapped = static_cast<int *>(clEnqueueMapBuffer(
      queue_, mem, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, n * 4, 0, nullptr, nullptr, &err));
  ASSERT_CL(err);
  for (int i = 0; i < int(n); ++i) mapped[i] = 3 * i;
  ASSERT_CL(clEnqueueUnmapMemObject(queue_, mem, mapped, 0, nullptr, nullptr));
  doubleInKernel(mem, n);
  // Two overlapping read mappings at once are allowed.
  auto *first = static_cast<int *>(
      clEnqueueMapBuffer(queue_, mem, CL_TRUE, CL_MAP_READ, 0, n * 4, 0, nullptr, nullptr, &err));
  ASSERT_CL(err);
  auto *second = static_cast<int *>(
      clEnqueueMapBuffer(queue_, mem, CL_TRUE, CL_MAP_READ, 40 * 4, 8, 0, nullptr, nullptr, &err));
  ASSERT_CL(err);
  for (int i = 0; i < int(n); ++i) ASSERT_EQ(first[i], 6 * i) << i;
  EXPECT_EQ(second[0], 240);
  EXPECT_EQ(second[1], 246);
  ASSERT_CL(clEnqueueUnmapMemObject(queue_, mem, second, 0, nullptr, nullptr));
  ASSERT_CL(clEnqueueUnmapMemObject(queue_, mem, first, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
}

TEST_F(Buffers, SubBuffersShareTheParentsStorage) {
  size_t align = deviceInfo<cl_uint>(device_, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
  const size_t n = align;  // ints
  std::vector<int> data = iota(3 * n);
  cl_mem parent = bufferFrom(data);
  cl_buffer_region region = {align, n * sizeof(int) - align};  // starts at int #align/4
  cl_int err = CL_SUCCESS;
  cl_mem sub =
      clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  ASSERT_CL(err);
  size_t first = align / sizeof(int), count = region.size / sizeof(int);
  cl_mem associated = nullptr;
  size_t offset = 0, size = 0;
  ASSERT_CL(clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof associated, &associated,
                               nullptr));
  ASSERT_CL(clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof offset, &offset, nullptr));
  ASSERT_CL(clGetMemObjectInfo(sub, CL_MEM_SIZE, sizeof size, &size, nullptr));
  EXPECT_EQ(associated, parent);
  EXPECT_EQ(offset, region.origin);
  EXPECT_EQ(size, region.size);
  doubleInKernel(sub, count);  // the kernel's index 0 is the sub-buffer's start
  std::vector<int> viaSub = read<int>(sub, count);
  std::vector<int> viaParent = read<int>(parent, 3 * n);
  EXPECT_CL(clReleaseMemObject(sub));
  for (size_t i = 0; i < count; ++i) ASSERT_EQ(viaSub[i], data[first + i] * 2) << i;
  for (size_t i = 0; i < 3 * n; ++i) {
    bool inside = i >= first && i < first + count;
    ASSERT_EQ(viaParent[i], inside ? data[i] * 2 : data[i]) << i;
  }
}

TEST_F(Buffers, SubBufferOfUseHostPtrMapsIntoTheHostMemory) {
  size_t align = deviceInfo<cl_uint>(device_, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
  // Host memory aligned like the device wants, so USE_HOST_PTR can be zero copy.
  std::vector<unsigned char> storage(4 * align + align);
  auto *host = reinterpret_cast<unsigned char *>(
      (reinterpret_cast<uintptr_t>(storage.data()) + align - 1) / align * align);
  cl_mem parent = buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, 4 * align, host);
  cl_buffer_region region = {2 * align, align};
  cl_int err = CL_SUCCESS;
  cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  ASSERT_CL(err);
  void *hostPtr = nullptr;
  EXPECT_CL(clGetMemObjectInfo(sub, CL_MEM_HOST_PTR, sizeof hostPtr, &hostPtr, nullptr));
  EXPECT_EQ(hostPtr, host + 2 * align);
  void *mapped =
      clEnqueueMapBuffer(queue_, sub, CL_TRUE, CL_MAP_READ, 0, align, 0, nullptr, nullptr, &err);
  EXPECT_CL(err);
  EXPECT_EQ(mapped, host + 2 * align);
  if (mapped) EXPECT_CL(clEnqueueUnmapMemObject(queue_, sub, mapped, 0, nullptr, nullptr));
  EXPECT_CL(clFinish(queue_));
  EXPECT_CL(clReleaseMemObject(sub));
}

TEST_F(Buffers, DestructorCallbacksRunInReverseOrderOnRelease) {
  cl_int err = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(context_, CL_MEM_READ_WRITE, 64, nullptr, &err);
  ASSERT_CL(err);
  static std::vector<int> order;
  order.clear();
  auto first = [](cl_mem, void *) { order.push_back(1); };
  auto second = [](cl_mem, void *) { order.push_back(2); };
  ASSERT_CL(clSetMemObjectDestructorCallback(mem, first, nullptr));
  ASSERT_CL(clSetMemObjectDestructorCallback(mem, second, nullptr));
  ASSERT_CL(clReleaseMemObject(mem));
  EXPECT_EQ(order, (std::vector<int>{2, 1}));
}

TEST_F(Buffers, ReferenceCounts) {
  cl_mem mem = buffer(CL_MEM_READ_WRITE, 64);
  cl_uint count = 0;
  ASSERT_CL(clRetainMemObject(mem));
  ASSERT_CL(clGetMemObjectInfo(mem, CL_MEM_REFERENCE_COUNT, sizeof count, &count, nullptr));
  EXPECT_EQ(count, 2u);
  ASSERT_CL(clReleaseMemObject(mem));
  ASSERT_CL(clGetMemObjectInfo(mem, CL_MEM_REFERENCE_COUNT, sizeof count, &count, nullptr));
  EXPECT_EQ(count, 1u);
  cl_context context = nullptr;
  ASSERT_CL(clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof context, &context, nullptr));
  EXPECT_EQ(context, context_);
}

// A large buffer through a kernel that strides over it (many work-groups).
TEST_F(Buffers, LargeBufferThroughKernel) {
  const size_t n = size_t(16) << 20;  // 64 MiB of ints
  cl_kernel fill = kernel(
      "kernel void fill(global uint *a) { size_t i = get_global_id(0); a[i] = (uint)(i * "
      "2654435761u); }",
      "fill");
  ASSERT_NE(fill, nullptr);
  cl_mem mem = buffer(CL_MEM_WRITE_ONLY, n * 4);
  ASSERT_TRUE(setArgs(fill, mem));
  ASSERT_TRUE(run(fill, {n}));
  std::vector<cl_uint> out = read<cl_uint>(mem, n);
  for (size_t i = 0; i < n; i += 4099) ASSERT_EQ(out[i], cl_uint(i * 2654435761u)) << i;
  EXPECT_EQ(out[n - 1], cl_uint((n - 1) * 2654435761u));
}

}  // namespace
}  // namespace lockstep::test

// Shared virtual memory, the host side: the device reports every SVM
// capability; clSVMAlloc honours flags, sizes and alignments and refuses
// what the spec refuses; each SVM command (free, memcpy, fill, map, unmap,
// migrate) does its work in queue order, after its wait list, with its own
// command type and profiling times, and refuses what the spec refuses.
// Every result is checked against the host's own computation. Kernels over
// SVM are in test_svm_kernels.cpp, bad handles in test_errors.cpp, bounds
// checking of SVM arguments in test_bounds_check.cpp.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "SvmTest.h"

namespace lockstep::test {
namespace {

using Svm = SvmTest;

TEST_F(Svm, DeviceReportsEveryKindAndAllDevicesScopeAtomics) {
  EXPECT_EQ(deviceInfo<cl_device_svm_capabilities>(device_, CL_DEVICE_SVM_CAPABILITIES), kAllSvm);
  // Atomics of all-devices scope (what the host shares with kernels) are in
  // both capability sets and the OpenCL C feature that names them.
  auto memory = deviceInfo<cl_device_atomic_capabilities>(device_, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
  auto fence = deviceInfo<cl_device_atomic_capabilities>(device_, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES);
  EXPECT_TRUE(memory & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES);
  EXPECT_TRUE(fence & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES);
  EXPECT_TRUE(hasFeature("__opencl_c_atomic_scope_all_devices"));
  // 0: naturally aligned atomics are enough.
  for (cl_device_info query : {CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT,
                               CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT,
                               CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT})
    EXPECT_EQ(deviceInfo<cl_uint>(device_, query), 0u) << std::hex << query;
  EXPECT_EQ(deviceString(device_, CL_DEVICE_VERSION).rfind("OpenCL 3.0", 0), 0u);
}

TEST_F(Svm, AllocHonoursFlagsAndAlignment) {
  const cl_svm_mem_flags flagSets[] = {
      0,
      CL_MEM_READ_WRITE,
      CL_MEM_READ_ONLY,
      CL_MEM_WRITE_ONLY,
      CL_MEM_SVM_FINE_GRAIN_BUFFER,
      CL_MEM_READ_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER,
      CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
      CL_MEM_WRITE_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
  };
  for (cl_svm_mem_flags flags : flagSets) {
    for (cl_uint alignment : {0u, 1u, 2u, 4u, 16u, 64u, 128u, 256u, 4096u, 65536u, 2u << 20}) {
      const size_t size = 1000 + alignment;
      auto *p = static_cast<unsigned char *>(clSVMAlloc(context_, flags, size, alignment));
      ASSERT_NE(p, nullptr) << "flags " << flags << " alignment " << alignment;
      // Alignment 0 is the largest built-in type's size: long16, 128 bytes.
      uintptr_t expected = alignment == 0 ? 128 : alignment;
      EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % expected, 0u) << alignment;
      // Every byte is the host's to use.
      for (size_t i = 0; i < size; ++i) p[i] = static_cast<unsigned char>(i * 7);
      for (size_t i = 0; i < size; ++i) ASSERT_EQ(p[i], static_cast<unsigned char>(i * 7));
      EXPECT_TRUE(inAllocation(p, size));
      EXPECT_FALSE(inAllocation(p, size + 1));
      clSVMFree(context_, p);
      EXPECT_FALSE(inAllocation(p, 1)) << "clSVMFree left the allocation in place";
    }
  }
}

// Large allocations asked for the default alignment or less start at
// staggered offsets past their 2 MiB boundary (consecutive ones not at the
// same offset in a 4 KiB page), still on the alignment asked for; one asked
// for more keeps it. Every byte is the host's, and only those.
TEST_F(Svm, LargeAllocationsStaggeredAndAligned) {
  const size_t size = (size_t{3} << 20) + 12;
  std::vector<void *> allocations;
  uintptr_t previous = ~uintptr_t{0};
  for (int i = 0; i < 20; ++i) {
    cl_uint alignment = i % 2 ? 64 : 0;
    auto *p = static_cast<unsigned char *>(clSVMAlloc(context_, CL_MEM_READ_WRITE, size, alignment));
    ASSERT_NE(p, nullptr);
    allocations.push_back(p);
    auto address = reinterpret_cast<uintptr_t>(p);
    EXPECT_EQ(address % 128, 0u) << "allocation " << i;
    EXPECT_NE(address % 4096, previous) << "allocations " << i - 1 << " and " << i << " at one offset in a page";
    previous = address % 4096;
    std::memset(p, i, size);
    EXPECT_EQ(p[size - 1], static_cast<unsigned char>(i));
    EXPECT_TRUE(inAllocation(p, size));
    EXPECT_FALSE(inAllocation(p, size + 1));
  }
  auto *page = static_cast<unsigned char *>(clSVMAlloc(context_, CL_MEM_READ_WRITE, size, 4096));
  ASSERT_NE(page, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(page) % 4096, 0u);
  allocations.push_back(page);
  for (void *p : allocations) clSVMFree(context_, p);
  for (void *p : allocations) EXPECT_FALSE(inAllocation(p, 1));
}

TEST_F(Svm, AllocRefusesWhatTheSpecRefuses) {
  cl_ulong maxAlloc = deviceInfo<cl_ulong>(device_, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  EXPECT_EQ(clSVMAlloc(context_, CL_MEM_READ_WRITE, 0, 0), nullptr);
  EXPECT_EQ(clSVMAlloc(context_, CL_MEM_READ_WRITE, size_t(maxAlloc) + 1, 0), nullptr);
  EXPECT_EQ(clSVMAlloc(context_, CL_MEM_READ_WRITE, SIZE_MAX, 0), nullptr);
  // Not a power of two; past the largest alignment offered (2 MiB).
  for (cl_uint alignment : {3u, 6u, 100u, 0x80000001u, 4u << 20, 0x80000000u})
    EXPECT_EQ(clSVMAlloc(context_, CL_MEM_READ_WRITE, 64, alignment), nullptr) << alignment;
  // CL_MEM_SVM_ATOMICS "is valid only if CL_MEM_SVM_FINE_GRAIN_BUFFER is
  // specified"; the access flags exclude each other; buffer-only flags and
  // unknown bits are no SVM flags.
  for (cl_svm_mem_flags flags :
       {cl_svm_mem_flags(CL_MEM_SVM_ATOMICS), cl_svm_mem_flags(CL_MEM_READ_WRITE | CL_MEM_SVM_ATOMICS),
        cl_svm_mem_flags(CL_MEM_READ_WRITE | CL_MEM_READ_ONLY),
        cl_svm_mem_flags(CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY),
        cl_svm_mem_flags(CL_MEM_USE_HOST_PTR), cl_svm_mem_flags(CL_MEM_ALLOC_HOST_PTR),
        cl_svm_mem_flags(CL_MEM_HOST_READ_ONLY), cl_svm_mem_flags(1) << 40})
    EXPECT_EQ(clSVMAlloc(context_, flags, 64, 0), nullptr) << std::hex << flags;
  // No context, or a handle that is no context.
  EXPECT_EQ(clSVMAlloc(nullptr, CL_MEM_READ_WRITE, 64, 0), nullptr);
  cl_mem notAContext = buffer(CL_MEM_READ_WRITE, 64);
  EXPECT_EQ(clSVMAlloc(reinterpret_cast<cl_context>(notAContext), CL_MEM_READ_WRITE, 64, 0), nullptr);
  // clSVMFree: NULL does nothing; so does memory clSVMAlloc did not make, or
  // a pointer into the middle of an allocation, which stays usable.
  clSVMFree(context_, nullptr);
  int onStack[4] = {1, 2, 3, 4};
  clSVMFree(context_, onStack);
  EXPECT_EQ(onStack[3], 4);
  char *p = alloc(256);
  clSVMFree(context_, p + 16);
  EXPECT_TRUE(inAllocation(p, 256));
  clSVMFree(reinterpret_cast<cl_context>(notAContext), p);
  EXPECT_TRUE(inAllocation(p, 256));
  clSVMFree(context_, p);
  EXPECT_FALSE(inAllocation(p, 1));
}

TEST_F(Svm, MemcpyBetweenSvmAndHostBlockingAndNot) {
  const size_t n = 4096;
  std::vector<int> host = randomValues<int>(n, -1000000, 1000000);
  int *a = alloc<int>(n);
  int *b = alloc<int>(n, CL_MEM_SVM_FINE_GRAIN_BUFFER);
  std::vector<int> back(n, 0);
  // Host -> SVM (blocking), SVM -> SVM (non-blocking, with an event), SVM
  // -> host (blocking, after that event).
  ASSERT_CL(clEnqueueSVMMemcpy(queue_, CL_TRUE, a, host.data(), n * sizeof(int), 0, nullptr, nullptr));
  EXPECT_EQ(std::memcmp(a, host.data(), n * sizeof(int)), 0);
  cl_event copied = nullptr;
  ASSERT_CL(clEnqueueSVMMemcpy(queue_, CL_FALSE, b, a, n * sizeof(int), 0, nullptr, &copied));
  track(copied);
  EXPECT_EQ(typeOf(copied), cl_command_type(CL_COMMAND_SVM_MEMCPY));
  ASSERT_CL(clEnqueueSVMMemcpy(queue_, CL_TRUE, back.data(), b, n * sizeof(int), 1, &copied, nullptr));
  EXPECT_EQ(status(copied), CL_COMPLETE);
  EXPECT_EQ(back, host);
  // Part of one allocation into the middle of another; a zero-size copy.
  ASSERT_CL(clEnqueueSVMMemcpy(queue_, CL_TRUE, b + 100, a + 3000, 500 * sizeof(int), 0, nullptr, nullptr));
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(b[i], (i >= 100 && i < 600) ? host[i + 2900] : host[i]) << i;
  ASSERT_CL(clEnqueueSVMMemcpy(queue_, CL_TRUE, b, a, 0, 0, nullptr, nullptr));
}

TEST_F(Svm, MemcpyWaitsForItsWaitList) {
  const size_t n = 1024;
  int *src = alloc<int>(n);
  int *dst = alloc<int>(n);
  for (size_t i = 0; i < n; ++i) src[i] = int(i * 3), dst[i] = -1;
  cl_event gate = userEvent();
  cl_event copied = nullptr;
  ASSERT_CL(clEnqueueSVMMemcpy(queue_, CL_FALSE, dst, src, n * sizeof(int), 1, &gate, &copied));
  track(copied);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_GE(status(copied), CL_SUBMITTED);
  EXPECT_EQ(dst[0], -1) << "the copy ran before its wait list was complete";
  EXPECT_EQ(dst[n - 1], -1);
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clWaitForEvents(1, &copied));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(dst[i], int(i * 3)) << i;
  // A failed wait list fails a blocking copy, which copies nothing.
  cl_event failed = userEvent();
  ASSERT_CL(clSetUserEventStatus(failed, -1));
  dst[0] = -5;
  EXPECT_CL_ERROR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                  clEnqueueSVMMemcpy(queue_, CL_TRUE, dst, src, n * sizeof(int), 1, &failed, nullptr));
  EXPECT_EQ(dst[0], -5);
}

TEST_F(Svm, MemcpyRefusesOverlapAndBadPointers) {
  const size_t size = 32;
  char *p = alloc(2 * size);
  // The end of the source over the start of the destination, the reverse,
  // and the very same bytes.
  EXPECT_CL_ERROR(CL_MEM_COPY_OVERLAP, clEnqueueSVMMemcpy(queue_, CL_TRUE, p + size / 2, p, size, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_MEM_COPY_OVERLAP, clEnqueueSVMMemcpy(queue_, CL_TRUE, p, p + size / 2, size, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_MEM_COPY_OVERLAP, clEnqueueSVMMemcpy(queue_, CL_TRUE, p, p, size, 0, nullptr, nullptr));
  std::vector<char> host(3 * size);
  EXPECT_CL_ERROR(CL_MEM_COPY_OVERLAP,
                  clEnqueueSVMMemcpy(queue_, CL_TRUE, host.data() + 1, host.data(), size, 0, nullptr, nullptr));
  // Adjacent ranges do not overlap.
  std::memset(p, 9, size);
  ASSERT_CL(clEnqueueSVMMemcpy(queue_, CL_TRUE, p + size, p, size, 0, nullptr, nullptr));
  EXPECT_EQ(p[2 * size - 1], 9);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueSVMMemcpy(queue_, CL_TRUE, nullptr, p, size, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueSVMMemcpy(queue_, CL_TRUE, p, nullptr, size, 0, nullptr, nullptr));
  // A range that runs past the end of its SVM allocation.
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueSVMMemcpy(queue_, CL_TRUE, host.data(), p + size, size + 1, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueSVMMemcpy(queue_, CL_TRUE, p + 1, host.data(), 2 * size, 0, nullptr, nullptr));
  // A wait list that disagrees with its count.
  EXPECT_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST,
                  clEnqueueSVMMemcpy(queue_, CL_TRUE, host.data(), p, size, 1, nullptr, nullptr));
}

TEST_F(Svm, FillWithEveryPatternSize) {
  const size_t total = 4096, offset = 256, size = 2048;
  unsigned char *p = alloc<unsigned char>(total);
  for (size_t patternSize = 1; patternSize <= 128; patternSize *= 2) {
    std::memset(p, 0xEE, total);
    std::vector<unsigned char> pattern(patternSize);
    for (unsigned char &byte : pattern) byte = static_cast<unsigned char>(randomValues<int>(1, 0, 255)[0]);
    if (patternSize > 1) pattern.back() = static_cast<unsigned char>(pattern[0] + 1);  // not one repeated byte
    const std::vector<unsigned char> original = pattern;
    cl_event filled = nullptr;
    ASSERT_CL(clEnqueueSVMMemFill(queue_, p + offset, pattern.data(), patternSize, size, 0, nullptr, &filled));
    track(filled);
    // The command keeps its own copy of the pattern.
    std::fill(pattern.begin(), pattern.end(), 0);
    ASSERT_CL(clWaitForEvents(1, &filled));
    EXPECT_EQ(typeOf(filled), cl_command_type(CL_COMMAND_SVM_MEMFILL));
    for (size_t i = 0; i < total; ++i) {
      unsigned char expected = (i >= offset && i < offset + size) ? original[(i - offset) % patternSize] : 0xEE;
      ASSERT_EQ(p[i], expected) << "pattern " << patternSize << " byte " << i;
    }
  }
  // The pattern itself: fill a float4 pattern over fine-grained memory and
  // compare with the values.
  auto *f = alloc<float>(64, CL_MEM_SVM_FINE_GRAIN_BUFFER);
  const float quad[4] = {1.5f, -2.25f, 3.0f, 1e-3f};
  ASSERT_CL(clEnqueueSVMMemFill(queue_, f, quad, sizeof quad, 64 * sizeof(float), 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
  for (size_t i = 0; i < 64; ++i) ASSERT_EQ(f[i], quad[i % 4]) << i;
}

TEST_F(Svm, FillRefusesBadPatternsAndAlignment) {
  char *p = alloc(1024);
  const char pattern[256] = {1};
  for (size_t bad : {size_t(0), size_t(3), size_t(12), size_t(256)}) {
    SCOPED_TRACE(bad);
    EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueSVMMemFill(queue_, p, pattern, bad, 768, 0, nullptr, nullptr));
  }
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueSVMMemFill(queue_, p, nullptr, 4, 64, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueSVMMemFill(queue_, nullptr, pattern, 4, 64, 0, nullptr, nullptr));
  // svm_ptr not aligned to pattern_size; size not a multiple of it.
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueSVMMemFill(queue_, p + 2, pattern, 4, 64, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueSVMMemFill(queue_, p + 64, pattern, 64, 65, 0, nullptr, nullptr));
  // Past the end of the allocation.
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueSVMMemFill(queue_, p + 512, pattern, 8, 520, 0, nullptr, nullptr));
  // A zero size fills nothing.
  p[0] = 42;
  ASSERT_CL(clEnqueueSVMMemFill(queue_, p, pattern, 4, 0, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
  EXPECT_EQ(p[0], 42);
}

TEST_F(Svm, MapAndUnmapAreOrderedCommands) {
  const size_t n = 512;
  int *data = alloc<int>(n);  // coarse grained: the host uses it between map and unmap
  cl_kernel k = kernel(kScaleSource, "scale");
  ASSERT_NE(k, nullptr);
  ASSERT_CL(clEnqueueSVMMap(queue_, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, data, n * sizeof(int), 0, nullptr, nullptr));
  for (size_t i = 0; i < n; ++i) data[i] = int(i) - 100;
  cl_event unmapped = nullptr;
  ASSERT_CL(clEnqueueSVMUnmap(queue_, data, 0, nullptr, &unmapped));
  track(unmapped);
  ASSERT_CL(clSetKernelArgSVMPointer(k, 0, data));
  cl_int factor = 3;
  ASSERT_CL(clSetKernelArg(k, 1, sizeof factor, &factor));
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
  // A non-blocking map after the kernel (in order), gated by a user event.
  cl_event gate = userEvent();
  cl_event mapped = nullptr;
  ASSERT_CL(clEnqueueSVMMap(queue_, CL_FALSE, CL_MAP_READ, data, n * sizeof(int), 1, &gate, &mapped));
  track(mapped);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_GE(status(mapped), CL_SUBMITTED) << "the map completed before its wait list";
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clWaitForEvents(1, &mapped));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(data[i], (int(i) - 100) * 3 + int(i)) << i;
  cl_event unmappedAgain = nullptr;
  ASSERT_CL(clEnqueueSVMUnmap(queue_, data, 1, &mapped, &unmappedAgain));
  track(unmappedAgain);
  ASSERT_CL(clWaitForEvents(1, &unmappedAgain));
  EXPECT_EQ(typeOf(mapped), cl_command_type(CL_COMMAND_SVM_MAP));
  EXPECT_EQ(typeOf(unmapped), cl_command_type(CL_COMMAND_SVM_UNMAP));
  EXPECT_EQ(typeOf(unmappedAgain), cl_command_type(CL_COMMAND_SVM_UNMAP));
  // The spec's refusals.
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueSVMMap(queue_, CL_TRUE, CL_MAP_READ, nullptr, 4, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueSVMMap(queue_, CL_TRUE, CL_MAP_READ, data, 0, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueSVMMap(queue_, CL_TRUE, 0x100, data, 4, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueSVMMap(queue_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION,
                                                    data, 4, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueSVMMap(queue_, CL_TRUE, CL_MAP_READ, data, n * sizeof(int) + 1, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueSVMUnmap(queue_, nullptr, 0, nullptr, nullptr));
  cl_event any = nullptr;
  EXPECT_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueSVMUnmap(queue_, data, 0, &any, nullptr));
}

TEST_F(Svm, MigrateIsAnOrderedCommandThatChecksItsRanges) {
  const size_t n = 256;
  int *a = alloc<int>(n);
  int *b = alloc<int>(n, CL_MEM_SVM_FINE_GRAIN_BUFFER);
  const void *both[] = {a, b + 10};
  const size_t sizes[] = {n * sizeof(int), 0};
  cl_event gate = userEvent();
  cl_event migrated = nullptr;
  ASSERT_CL(clEnqueueSVMMigrateMem(queue_, 2, both, sizes, CL_MIGRATE_MEM_OBJECT_HOST, 1, &gate, &migrated));
  track(migrated);
  EXPECT_EQ(typeOf(migrated), cl_command_type(CL_COMMAND_SVM_MIGRATE_MEM));
  EXPECT_GE(status(migrated), CL_SUBMITTED);
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clWaitForEvents(1, &migrated));
  EXPECT_EQ(status(migrated), CL_COMPLETE);
  // No sizes: the allocations the pointers lie in; both flags.
  ASSERT_CL(clEnqueueSVMMigrateMem(queue_, 2, both, nullptr,
                                   CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, nullptr,
                                   nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueSVMMigrateMem(queue_, 0, both, nullptr, 0, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueSVMMigrateMem(queue_, 2, nullptr, nullptr, 0, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueSVMMigrateMem(queue_, 2, both, nullptr, 0x80, 0, nullptr, nullptr));
  // A range past the end of its allocation, or in no allocation at all.
  const size_t tooLong[] = {n * sizeof(int) + 1, 0};
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueSVMMigrateMem(queue_, 2, both, tooLong, 0, 0, nullptr, nullptr));
  int host[4];
  const void *notSvm[] = {host};
  const size_t four[] = {sizeof host};
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueSVMMigrateMem(queue_, 1, notSvm, four, 0, 0, nullptr, nullptr));
}

struct FreeLog {
  std::atomic<int> calls{0};
  cl_command_queue queue = nullptr;
  std::vector<void *> pointers;
  cl_context queueContext = nullptr;
};

void CL_CALLBACK logFree(cl_command_queue queue, cl_uint count, void **pointers, void *userData) {
  auto *log = static_cast<FreeLog *>(userData);
  log->queue = queue;
  log->pointers.assign(pointers, pointers + count);
  // The queue is a valid handle inside the callback: free through it.
  clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof log->queueContext, &log->queueContext, nullptr);
  for (cl_uint i = 0; i < count; ++i) clSVMFree(log->queueContext, pointers[i]);
  log->calls.fetch_add(1, std::memory_order_release);
}

TEST_F(Svm, EnqueuedFreeWithoutCallbackFreesAfterItsWaitList) {
  char *a = alloc(64);
  char *b = alloc(4096, CL_MEM_SVM_FINE_GRAIN_BUFFER);
  void *list[] = {a, nullptr, b};
  cl_event gate = userEvent();
  cl_event freed = nullptr;
  ASSERT_CL(clEnqueueSVMFree(queue_, 3, list, nullptr, nullptr, 1, &gate, &freed));
  track(freed);
  list[0] = list[2] = nullptr;  // the command kept its own list
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_TRUE(inAllocation(a, 64)) << "freed before its wait list was complete";
  EXPECT_TRUE(inAllocation(b, 4096));
  EXPECT_EQ(typeOf(freed), cl_command_type(CL_COMMAND_SVM_FREE));
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clWaitForEvents(1, &freed));
  EXPECT_FALSE(inAllocation(a, 1));
  EXPECT_FALSE(inAllocation(b, 1));
  // An empty list is a command that frees nothing.
  ASSERT_CL(clEnqueueSVMFree(queue_, 0, nullptr, nullptr, nullptr, 0, nullptr, nullptr));
}

TEST_F(Svm, EnqueuedFreeCallsTheCallbackWithThePointers) {
  std::vector<void *> pointers;
  for (int i = 0; i < 8; ++i) pointers.push_back(alloc(100 + 10 * i));
  int *system = static_cast<int *>(std::malloc(64));  // not SVM: only a callback may free it
  FreeLog log;
  // With a callback, the list may hold system memory too (the callback
  // frees what it knows; clSVMFree leaves what clSVMAlloc did not make).
  pointers.push_back(system);
  std::vector<void *> list = pointers;
  ASSERT_CL(clEnqueueSVMFree(queue_, cl_uint(list.size()), list.data(), logFree, &log, 0, nullptr, nullptr));
  std::fill(list.begin(), list.end(), nullptr);  // the command kept its own list
  ASSERT_CL(clFinish(queue_));
  EXPECT_EQ(log.calls.load(std::memory_order_acquire), 1);
  EXPECT_EQ(log.queue, queue_);
  EXPECT_EQ(log.queueContext, context_);
  EXPECT_EQ(log.pointers, pointers);
  for (size_t i = 0; i + 1 < pointers.size(); ++i) EXPECT_FALSE(inAllocation(pointers[i], 1));
  // A system allocation needs the callback; without one it is refused.
  void *systemList[] = {system};
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueSVMFree(queue_, 1, systemList, nullptr, nullptr, 0, nullptr, nullptr));
  char *svm = alloc(32);
  void *middle[] = {svm + 8};
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueSVMFree(queue_, 1, middle, nullptr, nullptr, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueSVMFree(queue_, 0, systemList, nullptr, nullptr, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueSVMFree(queue_, 1, nullptr, nullptr, nullptr, 0, nullptr, nullptr));
  std::free(system);
}

// The callback runs even when the application released the queue right
// after enqueuing; the handle it gets is still valid inside it.
TEST_F(Svm, EnqueuedFreeCallbackOutlivesTheQueueHandle) {
  cl_int err = CL_SUCCESS;
  cl_command_queue queue = clCreateCommandQueueWithProperties(context_, device_, nullptr, &err);
  ASSERT_CL(err);
  char *p = alloc(128);
  void *list[] = {p};
  cl_event gate = userEvent();
  FreeLog log;
  ASSERT_CL(clEnqueueSVMFree(queue, 1, list, logFree, &log, 1, &gate, nullptr));
  ASSERT_CL(clReleaseCommandQueue(queue));
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  for (int i = 0; i < 5000 && log.calls.load(std::memory_order_acquire) == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_EQ(log.calls.load(std::memory_order_acquire), 1);
  EXPECT_EQ(log.queueContext, context_);
  EXPECT_FALSE(inAllocation(p, 1));
}

TEST_F(Svm, CommandsTakePartInOutOfOrderQueuesAndProfiling) {
  cl_command_queue queue = makeQueue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  ASSERT_NE(queue, nullptr);
  const size_t n = 1 << 16;
  auto *src = alloc<cl_uint>(n);
  auto *dst = alloc<cl_uint>(n);
  const cl_uint value = 0xA5A55A5Au;
  // fill -> memcpy -> map, chained only by wait lists on an out-of-order
  // queue; then a marker.
  cl_event filled = nullptr, copied = nullptr, mapped = nullptr;
  ASSERT_CL(clEnqueueSVMMemFill(queue, src, &value, sizeof value, n * sizeof(cl_uint), 0, nullptr, &filled));
  track(filled);
  ASSERT_CL(clEnqueueSVMMemcpy(queue, CL_FALSE, dst, src, n * sizeof(cl_uint), 1, &filled, &copied));
  track(copied);
  ASSERT_CL(clEnqueueSVMMap(queue, CL_FALSE, CL_MAP_READ, dst, n * sizeof(cl_uint), 1, &copied, &mapped));
  track(mapped);
  ASSERT_CL(clWaitForEvents(1, &mapped));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(dst[i], value) << i;
  cl_event unmapped = nullptr;
  ASSERT_CL(clEnqueueSVMUnmap(queue, dst, 0, nullptr, &unmapped));
  track(unmapped);
  ASSERT_CL(clFinish(queue));
  cl_event chain[] = {filled, copied, mapped, unmapped};
  cl_ulong previousEnd = 0;
  for (int i = 0; i < 4; ++i) {
    cl_ulong times[4];
    const cl_profiling_info names[] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                       CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
    for (int t = 0; t < 4; ++t)
      ASSERT_CL(clGetEventProfilingInfo(chain[i], names[t], sizeof times[t], &times[t], nullptr));
    EXPECT_GT(times[0], 0u);
    EXPECT_LE(times[0], times[1]);
    EXPECT_LE(times[1], times[2]);
    EXPECT_LE(times[2], times[3]);
    if (i < 3) {
      EXPECT_LE(previousEnd, times[2]) << "command " << i << " started before the one it waits for ended";
    }
    previousEnd = times[3];
  }
}

}  // namespace
}  // namespace lockstep::test

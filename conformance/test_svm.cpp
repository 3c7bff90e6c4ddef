// Shared virtual memory: the device reports every SVM capability; clSVMAlloc
// honours flags, sizes and alignments and refuses what the spec refuses;
// each SVM command (free, memcpy, fill, map, unmap, migrate) does its work
// in queue order, after its wait list, with its own command type and
// profiling times; kernels take SVM pointers (into the middle of an
// allocation too, for __global and __constant arguments) and plain malloc'd
// memory (fine-grained system SVM), follow pointers stored in SVM, and
// share atomics with host threads while they run; a buffer made over SVM
// memory aliases it. Every result is checked against the host's own
// computation. Bad handles are in test_errors.cpp, bounds checking of SVM
// arguments in test_bounds_check.cpp.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <thread>
#include <vector>

#include "ClTest.h"

namespace lockstep::test {
namespace {

constexpr cl_device_svm_capabilities kAllSvm =
    CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
    CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS;

class Svm : public ClTest {
 protected:
  void SetUp() override {
    ClTest::SetUp();
    if (HasFatalFailure()) return;
    if (deviceInfo<cl_device_svm_capabilities>(device_, CL_DEVICE_SVM_CAPABILITIES) != kAllSvm)
      GTEST_SKIP() << "the device does not offer every kind of SVM";
  }
  // An allocation the context frees when the test releases it, if the test
  // did not free it itself.
  template <typename T = char>
  T *alloc(size_t count, cl_svm_mem_flags flags = CL_MEM_READ_WRITE, cl_uint alignment = 0) {
    void *p = clSVMAlloc(context_, flags, count * sizeof(T), alignment);
    EXPECT_NE(p, nullptr) << "clSVMAlloc of " << count * sizeof(T) << " bytes";
    return static_cast<T *>(p);
  }
  cl_event userEvent() {
    cl_int err = CL_SUCCESS;
    cl_event event = clCreateUserEvent(context_, &err);
    EXPECT_CL(err);
    return track(event);
  }
  static cl_int status(cl_event event) {
    cl_int value = 1234;
    EXPECT_CL(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof value, &value, nullptr));
    return value;
  }
  static cl_command_type typeOf(cl_event event) {
    cl_command_type type = 0;
    EXPECT_CL(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr));
    return type;
  }
  // Whether `pointer` lies in an SVM allocation of the context, with
  // `bytes` of it from there: a migration of that range is refused
  // otherwise.
  bool inAllocation(const void *pointer, size_t bytes) {
    const void *list[] = {pointer};
    return clEnqueueSVMMigrateMem(queue_, 1, list, &bytes, 0, 0, nullptr, nullptr) == CL_SUCCESS;
  }
};

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

const char *kScale = R"CLC(
kernel void scale(global int *data, int factor) {
  size_t i = get_global_id(0);
  data[i] = data[i] * factor + (int)i;
}
)CLC";

TEST_F(Svm, MapAndUnmapAreOrderedCommands) {
  const size_t n = 512;
  int *data = alloc<int>(n);  // coarse grained: the host uses it between map and unmap
  cl_kernel k = kernel(kScale, "scale");
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

const char *kMiddle = R"CLC(
kernel void combine(global const int *a, constant int *b, global int *out, int bias) {
  size_t i = get_global_id(0);
  out[i] = a[i] * 2 + b[i] + bias;
}
kernel void values(int x, local int *scratch, global int *out) { out[0] = x; }
)CLC";

TEST_F(Svm, KernelArgumentsMayPointIntoTheMiddleOfAnAllocation) {
  const size_t total = 1000, offset = 123, n = 600;
  int *a = alloc<int>(total);
  int *b = alloc<int>(total, CL_MEM_READ_ONLY);
  int *out = alloc<int>(total, CL_MEM_SVM_FINE_GRAIN_BUFFER);
  for (size_t i = 0; i < total; ++i) a[i] = int(i * 5) - 77, b[i] = int(i * i % 1009), out[i] = -1;
  cl_program program = build(kMiddle);
  ASSERT_NE(program, nullptr);
  cl_kernel k = kernelOf(program, "combine");
  ASSERT_NE(k, nullptr);
  // a and b from element `offset`, out from element 7 of its own.
  ASSERT_CL(clSetKernelArgSVMPointer(k, 0, a + offset));
  ASSERT_CL(clSetKernelArgSVMPointer(k, 1, b + offset));
  ASSERT_CL(clSetKernelArgSVMPointer(k, 2, out + 7));
  cl_int bias = 11;
  ASSERT_CL(clSetKernelArg(k, 3, sizeof bias, &bias));
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
  for (size_t i = 0; i < total; ++i) {
    int expected = (i >= 7 && i < 7 + n) ? a[i - 7 + offset] * 2 + b[i - 7 + offset] + bias : -1;
    ASSERT_EQ(out[i], expected) << i;
  }
  // The argument is the pointer set when the kernel was enqueued: setting
  // another one afterwards, or a buffer in its place, changes later
  // launches only.
  cl_mem outBuffer = buffer(CL_MEM_READ_WRITE, n * sizeof(int));
  ASSERT_CL(clSetKernelArg(k, 2, sizeof outBuffer, &outBuffer));
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
  std::vector<int> viaBuffer = read<int>(outBuffer, n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(viaBuffer[i], a[i + offset] * 2 + b[i + offset] + bias) << i;
  // A NULL SVM pointer is a NULL argument, as a NULL buffer is.
  ASSERT_CL(clSetKernelArgSVMPointer(k, 2, nullptr));
  // A clone keeps the SVM arguments.
  ASSERT_CL(clSetKernelArgSVMPointer(k, 2, out));
  cl_int err = CL_SUCCESS;
  cl_kernel clone = clCloneKernel(k, &err);
  ASSERT_CL(err);
  ASSERT_CL(clSetKernelArgSVMPointer(k, 2, nullptr));
  std::fill(out, out + total, 0);
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, clone, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], a[i + offset] * 2 + b[i + offset] + bias) << i;
  EXPECT_CL(clReleaseKernel(clone));
}

TEST_F(Svm, SetKernelArgSvmPointerRefusesWhatTheSpecRefuses) {
  cl_program program = build(kMiddle);
  ASSERT_NE(program, nullptr);
  cl_kernel combine = kernelOf(program, "combine");
  cl_kernel values = kernelOf(program, "values");
  ASSERT_TRUE(combine && values);
  int *p = alloc<int>(16);
  EXPECT_CL_ERROR(CL_INVALID_ARG_INDEX, clSetKernelArgSVMPointer(combine, 4, p));
  EXPECT_CL_ERROR(CL_INVALID_ARG_INDEX, clSetKernelArgSVMPointer(combine, 0xFFFFFFFFu, p));
  // Only __global and __constant pointer arguments take an SVM pointer.
  EXPECT_CL_ERROR(CL_INVALID_ARG_VALUE, clSetKernelArgSVMPointer(combine, 3, p));
  EXPECT_CL_ERROR(CL_INVALID_ARG_VALUE, clSetKernelArgSVMPointer(values, 0, p));
  EXPECT_CL_ERROR(CL_INVALID_ARG_VALUE, clSetKernelArgSVMPointer(values, 1, p));
  ASSERT_CL(clSetKernelArgSVMPointer(values, 2, p));
  EXPECT_CL_ERROR(CL_INVALID_KERNEL, clSetKernelArgSVMPointer(nullptr, 0, p));
  // A refused call leaves the kernel's arguments unset: it cannot launch.
  size_t one = 1;
  EXPECT_CL_ERROR(CL_INVALID_KERNEL_ARGS, clEnqueueNDRangeKernel(queue_, values, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
}

// Fine-grained system SVM: memory from malloc, never given to OpenCL, is a
// kernel argument, and a kernel follows pointers stored in it.
struct Node {
  Node *next;  // a host pointer, the kernel's too
  cl_int value;
  cl_int seen;
};

const char *kSystem = R"CLC(
typedef struct Node { global struct Node *next; int value; int seen; } Node;
kernel void square(global const float *in, global float *out) {
  size_t i = get_global_id(0);
  out[i] = in[i] * in[i];
}
kernel void walk(global Node *head, global long *sum) {
  long total = 0;
  for (global Node *n = head; n; n = n->next) { total += n->value; n->seen += 1; }
  sum[0] = total;
}
)CLC";

TEST_F(Svm, KernelsUseMallocMemoryDirectly) {
  cl_program program = build(kSystem);
  ASSERT_NE(program, nullptr);
  cl_kernel square = kernelOf(program, "square");
  cl_kernel walk = kernelOf(program, "walk");
  ASSERT_TRUE(square && walk);
  const size_t n = 10000;
  std::vector<float> values = randomValues<float>(n, -100.0f, 100.0f);
  auto *in = static_cast<float *>(std::malloc(n * sizeof(float)));
  auto *out = static_cast<float *>(std::malloc(n * sizeof(float)));
  ASSERT_TRUE(in && out);
  std::memcpy(in, values.data(), n * sizeof(float));
  const cl_bool yes = CL_TRUE;
  ASSERT_CL(clSetKernelExecInfo(square, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof yes, &yes));
  ASSERT_CL(clSetKernelArgSVMPointer(square, 0, in));
  ASSERT_CL(clSetKernelArgSVMPointer(square, 1, out));
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, square, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], values[i] * values[i]) << i;

  // A linked list of nodes scattered over separate mallocs.
  std::vector<Node *> nodes;
  Node *head = nullptr;
  int64_t expected = 0;
  for (int i = 0; i < 300; ++i) {
    auto *node = static_cast<Node *>(std::malloc(sizeof(Node)));
    ASSERT_NE(node, nullptr);
    node->next = head;
    node->value = i * 37 - 4000;
    node->seen = 0;
    expected += node->value;
    head = node;
    nodes.push_back(node);
  }
  auto *sum = static_cast<cl_long *>(std::malloc(sizeof(cl_long)));
  *sum = 0;
  ASSERT_CL(clSetKernelArgSVMPointer(walk, 0, head));
  ASSERT_CL(clSetKernelArgSVMPointer(walk, 1, sum));
  const size_t one = 1;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, walk, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
  EXPECT_EQ(*sum, expected);
  for (Node *node : nodes) EXPECT_EQ(node->seen, 1);
  // SVM commands take system memory too.
  std::vector<float> copy(n);
  ASSERT_CL(clEnqueueSVMMemcpy(queue_, CL_TRUE, copy.data(), out, n * sizeof(float), 0, nullptr, nullptr));
  EXPECT_EQ(std::memcmp(copy.data(), out, n * sizeof(float)), 0);
  for (Node *node : nodes) std::free(node);
  std::free(sum);
  std::free(in);
  std::free(out);
}

// Coarse-grained SVM holds pointers the kernel follows: a list built by the
// host inside one allocation, and a second allocation reached only through
// a pointer stored in the first (named by CL_KERNEL_EXEC_INFO_SVM_PTRS).
TEST_F(Svm, KernelsFollowPointersStoredInSvm) {
  cl_program program = build(kSystem);
  ASSERT_NE(program, nullptr);
  cl_kernel walk = kernelOf(program, "walk");
  ASSERT_NE(walk, nullptr);
  const int count = 200;
  Node *pool = alloc<Node>(count);
  Node *extra = alloc<Node>(1, CL_MEM_SVM_FINE_GRAIN_BUFFER);
  auto *sum = alloc<cl_long>(1);
  int64_t expected = 0;
  // Every third node in order, then the others: links jump about the pool.
  std::vector<int> order;
  for (int start = 0; start < 3; ++start)
    for (int i = start; i < count; i += 3) order.push_back(i);
  ASSERT_CL(clEnqueueSVMMap(queue_, CL_TRUE, CL_MAP_WRITE, pool, count * sizeof(Node), 0, nullptr, nullptr));
  for (size_t j = 0; j < order.size(); ++j) {
    Node &node = pool[order[j]];
    node.next = j + 1 < order.size() ? &pool[order[j + 1]] : extra;
    node.value = order[j] * order[j] - 5 * order[j];
    node.seen = 0;
    expected += node.value;
  }
  extra->next = nullptr;
  extra->value = 123456;
  extra->seen = 0;
  expected += extra->value;
  ASSERT_CL(clEnqueueSVMUnmap(queue_, pool, 0, nullptr, nullptr));
  void *reached[] = {extra};
  ASSERT_CL(clSetKernelExecInfo(walk, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof reached, reached));
  ASSERT_CL(clSetKernelArgSVMPointer(walk, 0, &pool[order[0]]));
  ASSERT_CL(clSetKernelArgSVMPointer(walk, 1, sum));
  const size_t one = 1;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, walk, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
  ASSERT_CL(clEnqueueSVMMap(queue_, CL_TRUE, CL_MAP_READ, sum, sizeof(cl_long), 0, nullptr, nullptr));
  EXPECT_EQ(*sum, expected);
  for (int i = 0; i < count; ++i) ASSERT_EQ(pool[i].seen, 1) << i;
  EXPECT_EQ(extra->seen, 1);
  ASSERT_CL(clEnqueueSVMUnmap(queue_, sum, 0, nullptr, nullptr));
  // An empty set is valid too.
  ASSERT_CL(clSetKernelExecInfo(walk, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, nullptr));
}

TEST_F(Svm, SetKernelExecInfoRefusesWhatTheSpecRefuses) {
  cl_kernel k = kernel(kScale, "scale");
  ASSERT_NE(k, nullptr);
  void *pointers[2] = {alloc(8), alloc(8)};
  const cl_bool no = CL_FALSE;
  ASSERT_CL(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof no, &no));
  ASSERT_CL(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof pointers, pointers));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clSetKernelExecInfo(k, 0x7fff, sizeof no, &no));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof pointers, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 5, pointers));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 1, &no));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof no, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_KERNEL, clSetKernelExecInfo(nullptr, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, nullptr));
}

// Host threads and a running kernel increment one counter together with
// all-devices-scope atomics; not one increment may be lost. The kernel's
// work-items wait until the host has started, and the host keeps adding
// until the kernel is done, so every kernel increment races with the host's.
const char *kSharedCounter = R"CLC(
kernel void bump(volatile global atomic_int *counter, volatile global atomic_int *hostStarted,
                 int perItem) {
  for (int spin = 0; spin < (1 << 30); ++spin)
    if (atomic_load_explicit(hostStarted, memory_order_acquire, memory_scope_all_svm_devices)) break;
  for (int i = 0; i < perItem; ++i)
    atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, memory_scope_all_svm_devices);
}
)CLC";

void countWithHost(cl_kernel k, int *counter, int *hostStarted, cl_command_queue queue,
                   size_t global, size_t local, int perItem) {
  std::atomic_ref<int>(*counter).store(0, std::memory_order_relaxed);
  std::atomic_ref<int>(*hostStarted).store(0, std::memory_order_relaxed);
  ASSERT_CL(clSetKernelArgSVMPointer(k, 0, counter));
  ASSERT_CL(clSetKernelArgSVMPointer(k, 1, hostStarted));
  ASSERT_CL(clSetKernelArg(k, 2, sizeof perItem, &perItem));
  cl_event done = nullptr;
  ASSERT_CL(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &local, 0, nullptr, &done));
  ASSERT_CL(clFlush(queue));
  // A second host thread adds too, so the host side is itself concurrent.
  std::atomic<bool> kernelDone{false};
  std::atomic<int64_t> helperCount{0};
  std::thread helper([&] {
    std::atomic_ref<int> shared(*counter);
    int64_t mine = 0;
    while (!kernelDone.load(std::memory_order_acquire)) {
      shared.fetch_add(1, std::memory_order_relaxed);
      ++mine;
    }
    helperCount.store(mine);
  });
  std::atomic_ref<int> shared(*counter);
  std::atomic_ref<int>(*hostStarted).store(1, std::memory_order_release);
  int64_t hostCount = 0;
  cl_int status = CL_QUEUED;
  while (status > CL_COMPLETE) {
    for (int i = 0; i < 256; ++i) shared.fetch_add(1, std::memory_order_relaxed);
    hostCount += 256;
    EXPECT_CL(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr));
  }
  kernelDone.store(true, std::memory_order_release);
  helper.join();
  EXPECT_EQ(status, CL_COMPLETE);
  clReleaseEvent(done);
  int64_t expected = int64_t(global) * perItem + hostCount + helperCount.load();
  EXPECT_EQ(int64_t(shared.load(std::memory_order_relaxed)), expected)
      << "kernel " << int64_t(global) * perItem << " + host " << hostCount << " + helper "
      << helperCount.load();
  EXPECT_GT(hostCount, 0);
}

TEST_F(Svm, HostThreadsAndAKernelShareAtomicsOnFineGrainedBuffers) {
  cl_kernel k = kernel(kSharedCounter, "bump", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  int *flags = alloc<int>(32, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS);
  countWithHost(k, &flags[0], &flags[16], queue_, 256, 64, 4000);
}

TEST_F(Svm, HostThreadsAndAKernelShareAtomicsOnMallocMemory) {
  cl_kernel k = kernel(kSharedCounter, "bump", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  auto *shared = static_cast<int *>(std::aligned_alloc(64, 128));
  ASSERT_NE(shared, nullptr);
  countWithHost(k, &shared[0], &shared[16], queue_, 128, 32, 8000);
  std::free(shared);
}

TEST_F(Svm, BufferOverSvmMemoryAliasesIt) {
  const size_t n = 1024;
  int *svm = alloc<int>(n);
  for (size_t i = 0; i < n; ++i) svm[i] = int(i);
  cl_int err = CL_SUCCESS;
  // A buffer over the whole allocation, and one over its second half.
  cl_mem whole = track(clCreateBuffer(context_, CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE, n * sizeof(int), svm, &err));
  ASSERT_CL(err);
  cl_mem half = track(clCreateBuffer(context_, CL_MEM_USE_HOST_PTR, n / 2 * sizeof(int), svm + n / 2, &err));
  ASSERT_CL(err);
  cl_buffer_region region{256, 512};
  cl_mem sub = track(clCreateSubBuffer(whole, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err));
  ASSERT_CL(err);
  std::vector<int> plainHost(n);
  cl_mem plain = buffer(CL_MEM_USE_HOST_PTR, n * sizeof(int), plainHost.data());
  cl_mem owned = buffer(CL_MEM_READ_WRITE, 64);
  auto usesSvm = [](cl_mem mem) {
    cl_bool value = CL_FALSE;
    EXPECT_CL(clGetMemObjectInfo(mem, CL_MEM_USES_SVM_POINTER, sizeof value, &value, nullptr));
    return value;
  };
  EXPECT_EQ(usesSvm(whole), CL_TRUE);
  EXPECT_EQ(usesSvm(half), CL_TRUE);
  EXPECT_EQ(usesSvm(sub), CL_TRUE);
  EXPECT_EQ(usesSvm(plain), CL_FALSE);
  EXPECT_EQ(usesSvm(owned), CL_FALSE);
  void *hostPtr = nullptr;
  ASSERT_CL(clGetMemObjectInfo(whole, CL_MEM_HOST_PTR, sizeof hostPtr, &hostPtr, nullptr));
  EXPECT_EQ(hostPtr, svm);
  // A kernel writes through the buffer; the SVM pointer sees it. The host
  // writes through the SVM pointer; the buffer's reads see it.
  cl_kernel k = kernel(kScale, "scale");
  ASSERT_NE(k, nullptr);
  cl_int factor = -2;
  ASSERT_TRUE(setArgs(k, whole, factor));
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
  ASSERT_CL(clEnqueueSVMMap(queue_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, svm, n * sizeof(int), 0, nullptr, nullptr));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(svm[i], int(i) * -2 + int(i)) << i;
  for (size_t i = 0; i < n; ++i) svm[i] = int(i * 11);
  ASSERT_CL(clEnqueueSVMUnmap(queue_, svm, 0, nullptr, nullptr));
  std::vector<int> viaHalf = read<int>(half, n / 2);
  for (size_t i = 0; i < n / 2; ++i) ASSERT_EQ(viaHalf[i], int((i + n / 2) * 11)) << i;
  std::vector<int> viaSub = read<int>(sub, 128);
  for (size_t i = 0; i < 128; ++i) ASSERT_EQ(viaSub[i], int((i + 64) * 11)) << i;
  // "size is greater than the size passed to clSVMAlloc" (or, from the
  // middle, than the bytes left): CL_INVALID_BUFFER_SIZE, with
  // CL_MEM_USE_HOST_PTR and CL_MEM_COPY_HOST_PTR alike.
  EXPECT_EQ(clCreateBuffer(context_, CL_MEM_USE_HOST_PTR, n * sizeof(int) + 1, svm, &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_BUFFER_SIZE, err);
  EXPECT_EQ(clCreateBuffer(context_, CL_MEM_COPY_HOST_PTR, n * sizeof(int) + 4, svm, &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_BUFFER_SIZE, err);
  EXPECT_EQ(clCreateBuffer(context_, CL_MEM_USE_HOST_PTR, n / 2 * sizeof(int) + 1, svm + n / 2, &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_BUFFER_SIZE, err);
}

}  // namespace
}  // namespace lockstep::test

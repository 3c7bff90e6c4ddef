// Unified shared memory (cl_intel_unified_shared_memory), as an application
// uses it: the functions through clGetExtensionFunctionAddressForPlatform;
// host, device and shared allocations used by kernels (a pointer into the
// middle of one too) with results checked against the host's computation;
// the USM commands (memcpy, fill, memset, migrate, advise) with events and
// wait lists; clGetMemAllocInfoINTEL for each kind, the middle of an
// allocation and memory USM did not make; and the errors the functions
// return for what the extension refuses.
#include <CL/cl_ext.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <thread>
#include <vector>

#include "ClTest.h"

namespace lockstep::test {
namespace {

class Usm : public ClTest {
 protected:
  void SetUp() override {
    ClTest::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_NE(deviceString(device_, CL_DEVICE_EXTENSIONS).find("cl_intel_unified_shared_memory"),
              std::string::npos);
#define LOCKSTEP_LOAD(name)                                                              \
  name = reinterpret_cast<name##_fn>(clGetExtensionFunctionAddressForPlatform(platform_, #name)); \
  ASSERT_NE(name, nullptr) << #name;
    LOCKSTEP_LOAD(clHostMemAllocINTEL)
    LOCKSTEP_LOAD(clDeviceMemAllocINTEL)
    LOCKSTEP_LOAD(clSharedMemAllocINTEL)
    LOCKSTEP_LOAD(clMemFreeINTEL)
    LOCKSTEP_LOAD(clMemBlockingFreeINTEL)
    LOCKSTEP_LOAD(clGetMemAllocInfoINTEL)
    LOCKSTEP_LOAD(clSetKernelArgMemPointerINTEL)
    LOCKSTEP_LOAD(clEnqueueMemFillINTEL)
    LOCKSTEP_LOAD(clEnqueueMemcpyINTEL)
    LOCKSTEP_LOAD(clEnqueueMemsetINTEL)
    LOCKSTEP_LOAD(clEnqueueMigrateMemINTEL)
    LOCKSTEP_LOAD(clEnqueueMemAdviseINTEL)
#undef LOCKSTEP_LOAD
  }
  void TearDown() override {
    if (clMemFreeINTEL)
      for (void *p : allocations_) EXPECT_CL(clMemFreeINTEL(context_, p));
    ClTest::TearDown();
  }

  // A USM allocation of `kind`, freed at the end of the test.
  template <typename T = char>
  T *usm(cl_unified_shared_memory_type_intel kind, size_t count, cl_uint alignment = 0,
         const cl_mem_properties_intel *properties = nullptr) {
    cl_int err = CL_INVALID_VALUE;
    size_t bytes = count * sizeof(T);
    void *p = nullptr;
    if (kind == CL_MEM_TYPE_HOST_INTEL)
      p = clHostMemAllocINTEL(context_, properties, bytes, alignment, &err);
    else if (kind == CL_MEM_TYPE_DEVICE_INTEL)
      p = clDeviceMemAllocINTEL(context_, device_, properties, bytes, alignment, &err);
    else
      p = clSharedMemAllocINTEL(context_, device_, properties, bytes, alignment, &err);
    EXPECT_CL(err);
    EXPECT_NE(p, nullptr);
    if (p) allocations_.push_back(p);
    return static_cast<T *>(p);
  }
  template <typename T>
  T info(const void *ptr, cl_mem_info_intel param) {
    T value{};
    size_t size = 0;
    EXPECT_CL(clGetMemAllocInfoINTEL(context_, ptr, param, sizeof value, &value, &size));
    EXPECT_EQ(size, sizeof value);
    return value;
  }

  clHostMemAllocINTEL_fn clHostMemAllocINTEL = nullptr;
  clDeviceMemAllocINTEL_fn clDeviceMemAllocINTEL = nullptr;
  clSharedMemAllocINTEL_fn clSharedMemAllocINTEL = nullptr;
  clMemFreeINTEL_fn clMemFreeINTEL = nullptr;
  clMemBlockingFreeINTEL_fn clMemBlockingFreeINTEL = nullptr;
  clGetMemAllocInfoINTEL_fn clGetMemAllocInfoINTEL = nullptr;
  clSetKernelArgMemPointerINTEL_fn clSetKernelArgMemPointerINTEL = nullptr;
  clEnqueueMemFillINTEL_fn clEnqueueMemFillINTEL = nullptr;
  clEnqueueMemcpyINTEL_fn clEnqueueMemcpyINTEL = nullptr;
  clEnqueueMemsetINTEL_fn clEnqueueMemsetINTEL = nullptr;
  clEnqueueMigrateMemINTEL_fn clEnqueueMigrateMemINTEL = nullptr;
  clEnqueueMemAdviseINTEL_fn clEnqueueMemAdviseINTEL = nullptr;
  std::vector<void *> allocations_;
};

constexpr cl_unified_shared_memory_type_intel kKinds[] = {
    CL_MEM_TYPE_HOST_INTEL, CL_MEM_TYPE_DEVICE_INTEL, CL_MEM_TYPE_SHARED_INTEL};

TEST_F(Usm, PlatformAndDeviceAdvertiseTheExtensionAndItsCapabilities) {
  EXPECT_NE(platformString(platform_, CL_PLATFORM_EXTENSIONS).find("cl_intel_unified_shared_memory"),
            std::string::npos);
  constexpr cl_device_unified_shared_memory_capabilities_intel kAll =
      CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL | CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL |
      CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL |
      CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL;
  for (cl_device_info param :
       {CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL, CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL,
        CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL,
        CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL,
        CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL}) {
    EXPECT_EQ(deviceInfo<cl_device_unified_shared_memory_capabilities_intel>(device_, param), kAll)
        << std::hex << param;
  }
  // Unknown names are NULL.
  EXPECT_EQ(clGetExtensionFunctionAddressForPlatform(platform_, "clMemFreeINTELX"), nullptr);
}

const char *kCombine = R"CLC(
kernel void combine(global const int *a, constant int *b, global int *out, int bias) {
  size_t i = get_global_id(0);
  out[i] = a[i] * 3 - b[i] + bias;
}
)CLC";

TEST_F(Usm, KernelsUseEveryKindOfAllocationIncludingTheMiddleOfOne) {
  const size_t total = 1000, offset = 100, n = 700;
  std::vector<int> hostA(total), hostB(total);
  for (size_t i = 0; i < total; ++i) hostA[i] = int(i * 7) - 300, hostB[i] = int(i * i % 997);
  cl_kernel k = kernel(kCombine, "combine");
  ASSERT_NE(k, nullptr);
  // Every arrangement of the three kinds over the three pointer arguments.
  for (auto kindA : kKinds)
    for (auto kindB : kKinds)
      for (auto kindOut : kKinds) {
        int *a = usm<int>(kindA, total), *b = usm<int>(kindB, total);
        int *out = usm<int>(kindOut, total);
        ASSERT_TRUE(a && b && out);
        // Filled through the queue, as device memory must be.
        ASSERT_CL(clEnqueueMemcpyINTEL(queue_, CL_FALSE, a, hostA.data(), total * sizeof(int), 0,
                                       nullptr, nullptr));
        ASSERT_CL(clEnqueueMemcpyINTEL(queue_, CL_FALSE, b, hostB.data(), total * sizeof(int), 0,
                                       nullptr, nullptr));
        cl_int minusOne = -1;
        ASSERT_CL(clEnqueueMemFillINTEL(queue_, out, &minusOne, sizeof minusOne,
                                        total * sizeof(int), 0, nullptr, nullptr));
        ASSERT_CL(clSetKernelArgMemPointerINTEL(k, 0, a + offset));
        ASSERT_CL(clSetKernelArgMemPointerINTEL(k, 1, b + offset));
        ASSERT_CL(clSetKernelArgMemPointerINTEL(k, 2, out + 5));
        cl_int bias = 17;
        ASSERT_CL(clSetKernelArg(k, 3, sizeof bias, &bias));
        cl_bool yes = CL_TRUE;
        ASSERT_CL(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL,
                                      sizeof yes, &yes));
        ASSERT_CL(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL,
                                      sizeof yes, &yes));
        ASSERT_CL(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL,
                                      sizeof yes, &yes));
        void *reached[] = {a, b};
        ASSERT_CL(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, sizeof reached,
                                      reached));
        ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
        std::vector<int> result(total);
        ASSERT_CL(clEnqueueMemcpyINTEL(queue_, CL_TRUE, result.data(), out, total * sizeof(int), 0,
                                       nullptr, nullptr));
        for (size_t i = 0; i < total; ++i) {
          int expected =
              (i >= 5 && i < 5 + n) ? hostA[i - 5 + offset] * 3 - hostB[i - 5 + offset] + bias : -1;
          ASSERT_EQ(result[i], expected) << i << " kinds " << kindA << " " << kindB << " " << kindOut;
        }
        // Host and shared memory the host reads directly too.
        if (kindOut != CL_MEM_TYPE_DEVICE_INTEL) {
          ASSERT_EQ(out[5], result[5]);
        }
      }
}

TEST_F(Usm, MemcpyFillMemsetMigrateAndAdviseAreOrderedCommandsWithEvents) {
  const size_t n = 4096;
  auto *src = usm<uint32_t>(CL_MEM_TYPE_HOST_INTEL, n);
  auto *dev = usm<uint32_t>(CL_MEM_TYPE_DEVICE_INTEL, n);
  auto *shared = usm<uint32_t>(CL_MEM_TYPE_SHARED_INTEL, n);
  ASSERT_TRUE(src && dev && shared);
  for (size_t i = 0; i < n; ++i) src[i] = uint32_t(i * 2654435761u);
  // Everything waits on a user event: nothing runs before it completes.
  cl_event gate = userEvent();
  cl_event copy = nullptr, fill = nullptr, set = nullptr, back = nullptr, migrate = nullptr,
           advise = nullptr;
  ASSERT_CL(clEnqueueMemcpyINTEL(queue_, CL_FALSE, dev, src, n * 4, 1, &gate, &copy));
  track(copy);
  // A 4-byte pattern over the middle of the device copy, a memset of the
  // shared allocation's second half.
  const uint32_t pattern = 0xA1B2C3D4u;
  ASSERT_CL(clEnqueueMemFillINTEL(queue_, dev + 1000, &pattern, sizeof pattern, 500 * 4, 1, &copy,
                                  &fill));
  track(fill);
  ASSERT_CL(clEnqueueMemcpyINTEL(queue_, CL_FALSE, shared, dev, n * 4, 1, &fill, &back));
  track(back);
  ASSERT_CL(clEnqueueMemsetINTEL(queue_, shared + n / 2, 0x1C5, n / 2 * 4, 1, &back, &set));
  track(set);
  ASSERT_CL(clEnqueueMigrateMemINTEL(queue_, shared + 10, 100 * 4, CL_MIGRATE_MEM_OBJECT_HOST, 1,
                                     &set, &migrate));
  track(migrate);
  ASSERT_CL(clEnqueueMemAdviseINTEL(queue_, dev, n * 4, 0, 1, &migrate, &advise));
  track(advise);
  EXPECT_EQ(typeOf(copy), cl_command_type(CL_COMMAND_MEMCPY_INTEL));
  EXPECT_EQ(typeOf(fill), cl_command_type(CL_COMMAND_MEMFILL_INTEL));
  EXPECT_EQ(typeOf(back), cl_command_type(CL_COMMAND_MEMCPY_INTEL));
  EXPECT_EQ(typeOf(set), cl_command_type(CL_COMMAND_MEMFILL_INTEL));
  EXPECT_EQ(typeOf(migrate), cl_command_type(CL_COMMAND_MIGRATEMEM_INTEL));
  EXPECT_EQ(typeOf(advise), cl_command_type(CL_COMMAND_MEMADVISE_INTEL));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_NE(status(copy), CL_COMPLETE);
  EXPECT_NE(status(advise), CL_COMPLETE);
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clWaitForEvents(1, &advise));
  for (cl_event e : {copy, fill, back, set, migrate}) EXPECT_EQ(status(e), CL_COMPLETE);
  // The host's reference.
  std::vector<uint32_t> expected(src, src + n);
  for (size_t i = 1000; i < 1500; ++i) expected[i] = pattern;
  for (size_t i = n / 2; i < n; ++i) expected[i] = 0xC5C5C5C5u;  // the value's low byte
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(shared[i], expected[i]) << i;
  // A blocking copy is done on return, with no event needed.
  std::vector<uint32_t> readBack(n);
  ASSERT_CL(clEnqueueMemcpyINTEL(queue_, CL_TRUE, readBack.data(), shared, n * 4, 0, nullptr,
                                 nullptr));
  EXPECT_EQ(readBack, expected);
  // Commands between USM and ordinary host memory, or SVM.
  void *svm = clSVMAlloc(context_, CL_MEM_READ_WRITE, 64, 0);
  ASSERT_NE(svm, nullptr);
  ASSERT_CL(clEnqueueMemcpyINTEL(queue_, CL_TRUE, svm, src, 64, 0, nullptr, nullptr));
  EXPECT_EQ(std::memcmp(svm, src, 64), 0);
  clSVMFree(context_, svm);
}

TEST_F(Usm, AllocInfoDescribesEachKindAndPointersIntoIt) {
  const cl_mem_properties_intel wc[] = {CL_MEM_ALLOC_FLAGS_INTEL, CL_MEM_ALLOC_WRITE_COMBINED_INTEL,
                                        0};
  for (auto kind : kKinds) {
    char *p = usm(kind, 1000, 4096, kind == CL_MEM_TYPE_HOST_INTEL ? wc : nullptr);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 4096, 0u);
    for (const char *q : {p, p + 1, p + 999}) {
      EXPECT_EQ(info<cl_unified_shared_memory_type_intel>(q, CL_MEM_ALLOC_TYPE_INTEL), kind);
      EXPECT_EQ(info<void *>(q, CL_MEM_ALLOC_BASE_PTR_INTEL), p);
      EXPECT_EQ(info<size_t>(q, CL_MEM_ALLOC_SIZE_INTEL), 1000u);
      EXPECT_EQ(info<cl_device_id>(q, CL_MEM_ALLOC_DEVICE_INTEL),
                kind == CL_MEM_TYPE_HOST_INTEL ? nullptr : device_);
      EXPECT_EQ(info<cl_mem_alloc_flags_intel>(q, CL_MEM_ALLOC_FLAGS_INTEL),
                kind == CL_MEM_TYPE_HOST_INTEL ? cl_mem_alloc_flags_intel(CL_MEM_ALLOC_WRITE_COMBINED_INTEL)
                                               : 0);
    }
  }
  // A shared allocation with no device belongs to none.
  cl_int err = CL_SUCCESS;
  void *noDevice = clSharedMemAllocINTEL(context_, nullptr, nullptr, 64, 0, &err);
  ASSERT_CL(err);
  allocations_.push_back(noDevice);
  EXPECT_EQ(info<cl_device_id>(noDevice, CL_MEM_ALLOC_DEVICE_INTEL), nullptr);
  EXPECT_EQ(info<cl_unified_shared_memory_type_intel>(noDevice, CL_MEM_ALLOC_TYPE_INTEL),
            cl_unified_shared_memory_type_intel(CL_MEM_TYPE_SHARED_INTEL));
  // Memory USM did not make: the application's own, SVM's, NULL.
  std::vector<int> own(16);
  void *svm = clSVMAlloc(context_, CL_MEM_READ_WRITE, 64, 0);
  for (const void *q : {static_cast<const void *>(own.data()), static_cast<const void *>(svm),
                        static_cast<const void *>(nullptr)}) {
    EXPECT_EQ(info<cl_unified_shared_memory_type_intel>(q, CL_MEM_ALLOC_TYPE_INTEL),
              cl_unified_shared_memory_type_intel(CL_MEM_TYPE_UNKNOWN_INTEL));
    EXPECT_EQ(info<void *>(q, CL_MEM_ALLOC_BASE_PTR_INTEL), nullptr);
    EXPECT_EQ(info<size_t>(q, CL_MEM_ALLOC_SIZE_INTEL), 0u);
    EXPECT_EQ(info<cl_device_id>(q, CL_MEM_ALLOC_DEVICE_INTEL), nullptr);
  }
  clSVMFree(context_, svm);
  // Freed memory is no longer known.
  char *gone = usm(CL_MEM_TYPE_DEVICE_INTEL, 32);
  allocations_.pop_back();
  ASSERT_CL(clMemFreeINTEL(context_, gone));
  EXPECT_EQ(info<cl_unified_shared_memory_type_intel>(gone, CL_MEM_ALLOC_TYPE_INTEL),
            cl_unified_shared_memory_type_intel(CL_MEM_TYPE_UNKNOWN_INTEL));
  // The size of the answer alone; too small a buffer; an unknown name.
  size_t size = 0;
  EXPECT_CL(clGetMemAllocInfoINTEL(context_, own.data(), CL_MEM_ALLOC_BASE_PTR_INTEL, 0, nullptr,
                                   &size));
  EXPECT_EQ(size, sizeof(void *));
  cl_uint tooSmall = 0;
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetMemAllocInfoINTEL(context_, own.data(),
                                                           CL_MEM_ALLOC_BASE_PTR_INTEL, 2,
                                                           &tooSmall, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetMemAllocInfoINTEL(context_, own.data(), 0x1234,
                                                           sizeof size, &size, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT, clGetMemAllocInfoINTEL(nullptr, own.data(),
                                                             CL_MEM_ALLOC_TYPE_INTEL, sizeof size,
                                                             &size, nullptr));
}

TEST_F(Usm, AllocationsRefuseWhatTheExtensionRefuses) {
  cl_int err = CL_SUCCESS;
  auto refused = [&](cl_int expected, void *p) {
    EXPECT_EQ(p, nullptr);
    EXPECT_EQ(err, expected) << errorName(err);
    if (p) allocations_.push_back(p);
  };
  refused(CL_INVALID_CONTEXT, clHostMemAllocINTEL(nullptr, nullptr, 64, 0, &err));
  refused(CL_INVALID_CONTEXT, clDeviceMemAllocINTEL(nullptr, device_, nullptr, 64, 0, &err));
  refused(CL_INVALID_CONTEXT, clSharedMemAllocINTEL(nullptr, device_, nullptr, 64, 0, &err));
  // A device allocation needs a device; neither may name one the context
  // does not have.
  refused(CL_INVALID_DEVICE, clDeviceMemAllocINTEL(context_, nullptr, nullptr, 64, 0, &err));
  auto *bogus = reinterpret_cast<cl_device_id>(&err);
  refused(CL_INVALID_DEVICE, clDeviceMemAllocINTEL(context_, bogus, nullptr, 64, 0, &err));
  refused(CL_INVALID_DEVICE, clSharedMemAllocINTEL(context_, bogus, nullptr, 64, 0, &err));
  // Size 0 or past CL_DEVICE_MAX_MEM_ALLOC_SIZE.
  cl_ulong maxAlloc = deviceInfo<cl_ulong>(device_, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  refused(CL_INVALID_BUFFER_SIZE, clHostMemAllocINTEL(context_, nullptr, 0, 0, &err));
  refused(CL_INVALID_BUFFER_SIZE, clDeviceMemAllocINTEL(context_, device_, nullptr, 0, 0, &err));
  refused(CL_INVALID_BUFFER_SIZE,
          clSharedMemAllocINTEL(context_, device_, nullptr, size_t(maxAlloc) + 1, 0, &err));
  refused(CL_INVALID_BUFFER_SIZE,
          clHostMemAllocINTEL(context_, nullptr, size_t(maxAlloc) + 1, 0, &err));
  // Alignment: a power of two (or 0), not past what is supported.
  refused(CL_INVALID_VALUE, clHostMemAllocINTEL(context_, nullptr, 64, 48, &err));
  refused(CL_INVALID_VALUE, clSharedMemAllocINTEL(context_, device_, nullptr, 64, 3, &err));
  refused(CL_INVALID_VALUE, clDeviceMemAllocINTEL(context_, device_, nullptr, 64, 1u << 31, &err));
  // Properties: only CL_MEM_ALLOC_FLAGS_INTEL, once, with known flags and
  // one initial placement at most.
  const cl_mem_properties_intel unknownName[] = {0x1234, 0, 0};
  const cl_mem_properties_intel unknownFlag[] = {CL_MEM_ALLOC_FLAGS_INTEL, 1 << 10, 0};
  const cl_mem_properties_intel twice[] = {CL_MEM_ALLOC_FLAGS_INTEL, 0, CL_MEM_ALLOC_FLAGS_INTEL,
                                           0, 0};
  const cl_mem_properties_intel bothPlacements[] = {
      CL_MEM_ALLOC_FLAGS_INTEL,
      CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL | CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL, 0};
  for (const cl_mem_properties_intel *bad : {unknownName, unknownFlag, twice, bothPlacements}) {
    refused(CL_INVALID_PROPERTY, clHostMemAllocINTEL(context_, bad, 64, 0, &err));
    refused(CL_INVALID_PROPERTY, clSharedMemAllocINTEL(context_, device_, bad, 64, 0, &err));
  }
  // What is accepted: an empty list, each placement alone, a NULL errcode_ret.
  const cl_mem_properties_intel empty[] = {0};
  const cl_mem_properties_intel placed[] = {CL_MEM_ALLOC_FLAGS_INTEL,
                                            CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL, 0};
  void *p = clSharedMemAllocINTEL(context_, device_, placed, 64, 0, nullptr);
  ASSERT_NE(p, nullptr);
  allocations_.push_back(p);
  p = clDeviceMemAllocINTEL(context_, device_, empty, 64, 128, nullptr);
  ASSERT_NE(p, nullptr);
  allocations_.push_back(p);
}

TEST_F(Usm, FreeingRefusesWhatNoAllocationStartsAndBlockingFreeWaits) {
  EXPECT_CL(clMemFreeINTEL(context_, nullptr));  // no action
  EXPECT_CL(clMemBlockingFreeINTEL(context_, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT, clMemFreeINTEL(nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT, clMemBlockingFreeINTEL(nullptr, nullptr));
  char *p = usm(CL_MEM_TYPE_SHARED_INTEL, 256);
  ASSERT_NE(p, nullptr);
  int own = 0;
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clMemFreeINTEL(context_, p + 1));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clMemFreeINTEL(context_, &own));
  void *svm = clSVMAlloc(context_, CL_MEM_READ_WRITE, 64, 0);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clMemBlockingFreeINTEL(context_, svm));
  clSVMFree(context_, svm);

  // A blocking free returns only once the commands before it are done: a
  // fill that waits for a user event the test completes from a thread, on
  // a second queue (every queue of the context is waited for).
  char *target = usm(CL_MEM_TYPE_DEVICE_INTEL, 1 << 20);
  allocations_.pop_back();
  cl_command_queue other = makeQueue(0);
  ASSERT_NE(other, nullptr);
  cl_event gate = userEvent();
  cl_event done = nullptr;
  const char pattern = 7;
  ASSERT_CL(clEnqueueMemFillINTEL(other, target, &pattern, 1, 1 << 20, 1, &gate, &done));
  track(done);
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    clSetUserEventStatus(gate, CL_COMPLETE);
  });
  EXPECT_CL(clMemBlockingFreeINTEL(context_, target));
  EXPECT_EQ(status(done), CL_COMPLETE);
  opener.join();
}

TEST_F(Usm, CommandsRefuseWhatTheExtensionRefuses) {
  const size_t n = 256;
  char *a = usm(CL_MEM_TYPE_SHARED_INTEL, n), *b = usm(CL_MEM_TYPE_HOST_INTEL, n);
  ASSERT_TRUE(a && b);
  // Queue, NULL pointers, overlap, ranges past the allocation.
  EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE,
                  clEnqueueMemcpyINTEL(nullptr, CL_TRUE, a, b, n, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueMemcpyINTEL(queue_, CL_TRUE, nullptr, b, n, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueMemcpyINTEL(queue_, CL_TRUE, a, nullptr, n, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_MEM_COPY_OVERLAP,
                  clEnqueueMemcpyINTEL(queue_, CL_TRUE, a, a + 10, 100, 0, nullptr, nullptr));
  EXPECT_CL(clEnqueueMemcpyINTEL(queue_, CL_TRUE, a, a + 100, 100, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueMemcpyINTEL(queue_, CL_TRUE, a + 1, b, n, 0, nullptr, nullptr));
  // The wait list.
  cl_event none = nullptr;
  EXPECT_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST,
                  clEnqueueMemcpyINTEL(queue_, CL_TRUE, a, b, n, 1, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST,
                  clEnqueueMemcpyINTEL(queue_, CL_TRUE, a, b, n, 1, &none, nullptr));
  // Fills: the pattern, its alignment, the size.
  const uint64_t pattern = 0;
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueMemFillINTEL(queue_, nullptr, &pattern, 8, 64, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueMemFillINTEL(queue_, a, nullptr, 8, 64, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueMemFillINTEL(queue_, a, &pattern, 3, 63, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueMemFillINTEL(queue_, a, &pattern, 256, 256, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueMemFillINTEL(queue_, a + 4, &pattern, 8, 64, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueMemFillINTEL(queue_, a, &pattern, 8, 60, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueMemFillINTEL(queue_, a, &pattern, 8, n + 8, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueMemsetINTEL(queue_, nullptr, 0, 64, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueMemsetINTEL(queue_, a + 1, 0, n, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE,
                  clEnqueueMemsetINTEL(nullptr, a, 0, n, 0, nullptr, nullptr));
  // Migrations and advice: a pointer, known migration flags, the range.
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueMigrateMemINTEL(queue_, nullptr, 64, 0, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueMigrateMemINTEL(queue_, a, 64, 1 << 5, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueMigrateMemINTEL(queue_, a + 10, n, 0, 0, nullptr, nullptr));
  EXPECT_CL(clEnqueueMigrateMemINTEL(queue_, a, n, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0,
                                     nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueMemAdviseINTEL(queue_, nullptr, 64, 0, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueMemAdviseINTEL(queue_, b + 1, n, 0, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE,
                  clEnqueueMemAdviseINTEL(nullptr, b, n, 0, 0, nullptr, nullptr));
  // Kernel arguments and execution info.
  cl_kernel k = kernel(kCombine, "combine");
  ASSERT_NE(k, nullptr);
  EXPECT_CL_ERROR(CL_INVALID_KERNEL, clSetKernelArgMemPointerINTEL(nullptr, 0, a));
  EXPECT_CL_ERROR(CL_INVALID_ARG_INDEX, clSetKernelArgMemPointerINTEL(k, 4, a));
  EXPECT_CL_ERROR(CL_INVALID_ARG_VALUE, clSetKernelArgMemPointerINTEL(k, 3, a));  // an int
  EXPECT_CL(clSetKernelArgMemPointerINTEL(k, 0, nullptr));
  cl_bool yes = CL_TRUE;
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL, 1, &yes));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clSetKernelExecInfo(
                                        k, CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL,
                                        sizeof yes, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, 5, &a));
  EXPECT_CL(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, 0, nullptr));
  EXPECT_CL(clFinish(queue_));
}

}  // namespace
}  // namespace lockstep::test

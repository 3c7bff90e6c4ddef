// Shared virtual memory, the kernel side: kernels take SVM pointers (into
// the middle of an allocation too, for __global and __constant arguments)
// and plain malloc'd memory (fine-grained system SVM), follow pointers
// stored in SVM, and share atomics with host threads while they run; a
// buffer made over SVM memory aliases it; clSetKernelArgSVMPointer and
// clSetKernelExecInfo refuse what the spec refuses. Every result is checked
// against the host's own computation. Bounds checking of SVM arguments is in
// test_bounds_check.cpp.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "SvmTest.h"

namespace lockstep::test {
namespace {

using SvmKernels = SvmTest;

const char *kMiddle = R"CLC(
kernel void combine(global const int *a, constant int *b, global int *out, int bias) {
  size_t i = get_global_id(0);
  out[i] = a[i] * 2 + b[i] + bias;
}
kernel void values(int x, local int *scratch, global int *out) { out[0] = x; }
)CLC";

TEST_F(SvmKernels, KernelArgumentsMayPointIntoTheMiddleOfAnAllocation) {
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

TEST_F(SvmKernels, SetKernelArgSvmPointerRefusesWhatTheSpecRefuses) {
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

TEST_F(SvmKernels, KernelsUseMallocMemoryDirectly) {
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
TEST_F(SvmKernels, KernelsFollowPointersStoredInSvm) {
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

TEST_F(SvmKernels, SetKernelExecInfoRefusesWhatTheSpecRefuses) {
  cl_kernel k = kernel(kScaleSource, "scale");
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

TEST_F(SvmKernels, HostThreadsAndAKernelShareAtomicsOnFineGrainedBuffers) {
  cl_kernel k = kernel(kSharedCounter, "bump", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  int *flags = alloc<int>(32, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS);
  countWithHost(k, &flags[0], &flags[16], queue_, 256, 64, 4000);
}

TEST_F(SvmKernels, HostThreadsAndAKernelShareAtomicsOnMallocMemory) {
  cl_kernel k = kernel(kSharedCounter, "bump", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  auto *shared = static_cast<int *>(std::aligned_alloc(64, 128));
  ASSERT_NE(shared, nullptr);
  countWithHost(k, &shared[0], &shared[16], queue_, 128, 32, 8000);
  std::free(shared);
}

TEST_F(SvmKernels, BufferOverSvmMemoryAliasesIt) {
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
  cl_kernel k = kernel(kScaleSource, "scale");
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

// Runtime semantics that only show under asynchrony and threads: arguments are
// captured at enqueue, objects a queued command uses stay alive after the
// application releases them, kernels clone with their arguments, and the API
// is safe to call from several threads at once.
#include <thread>
#include <unistd.h>
#include <cstdlib>

#include "ClTest.h"

namespace lockstep::test {
namespace {

const char *kAddValue = "kernel void add(global int *a, int v) { a[get_global_id(0)] += v; }";

class Runtime : public ClTest {
 protected:
  cl_event gate() {
    cl_int err = CL_SUCCESS;
    cl_event event = clCreateUserEvent(context_, &err);
    EXPECT_EQ(err, CL_SUCCESS) << errorName(err);
    return track(event);
  }
};

// clSetKernelArg after an enqueue must not change the enqueued command, even
// when that command has not run yet.
TEST_F(Runtime, ArgumentsAreCapturedAtEnqueue) {
  cl_kernel add = kernel(kAddValue, "add");
  ASSERT_NE(add, nullptr);
  const size_t n = 256;
  cl_mem first = bufferFrom(std::vector<int>(n, 0)), second = bufferFrom(std::vector<int>(n, 0));
  cl_event open = gate();
  size_t global = n;
  ASSERT_TRUE(setArgs(add, first, 1));
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, add, 1, nullptr, &global, nullptr, 1, &open, nullptr));
  ASSERT_TRUE(setArgs(add, second, 10));
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, add, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  ASSERT_TRUE(setArgs(add, first, 100));
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, add, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  ASSERT_CL(clSetUserEventStatus(open, CL_COMPLETE));
  ASSERT_CL(clFinish(queue_));
  for (int v : read<int>(first, n)) ASSERT_EQ(v, 101);
  for (int v : read<int>(second, n)) ASSERT_EQ(v, 10);
}

// The application may release a buffer, kernel and program while a command
// using them waits: the command keeps them alive until it completes.
TEST_F(Runtime, ReleasedObjectsLiveUntilTheirCommandsComplete) {
  const size_t n = 1024;
  std::vector<int> host(n, 5);
  cl_int err = CL_SUCCESS;
  cl_mem mem =
      clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, host.data(), &err);
  ASSERT_CL(err);
  const char *text = kAddValue;
  cl_program program = clCreateProgramWithSource(context_, 1, &text, nullptr, &err);
  ASSERT_CL(err);
  ASSERT_CL(clBuildProgram(program, 1, &device_, "", nullptr, nullptr));
  cl_kernel add = clCreateKernel(program, "add", &err);
  ASSERT_CL(err);
  int seven = 7;
  ASSERT_CL(clSetKernelArg(add, 0, sizeof mem, &mem));
  ASSERT_CL(clSetKernelArg(add, 1, sizeof seven, &seven));
  cl_event open = gate(), done = nullptr;
  size_t global = n;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, add, 1, nullptr, &global, nullptr, 1, &open, &done));
  track(done);
  std::vector<int> out(n, -1);
  ASSERT_CL(clEnqueueReadBuffer(queue_, mem, CL_FALSE, 0, n * 4, out.data(), 0, nullptr, nullptr));
  ASSERT_CL(clReleaseKernel(add));
  ASSERT_CL(clReleaseProgram(program));
  ASSERT_CL(clReleaseMemObject(mem));
  ASSERT_CL(clSetUserEventStatus(open, CL_COMPLETE));
  ASSERT_CL(clFinish(queue_));
  for (int v : out) ASSERT_EQ(v, 12);
}

// clCloneKernel copies the arguments set so far; the two then differ freely.
TEST_F(Runtime, CloneKernelKeepsArguments) {
  cl_kernel add = kernel(kAddValue, "add");
  ASSERT_NE(add, nullptr);
  const size_t n = 64;
  cl_mem a = bufferFrom(std::vector<int>(n, 0)), b = bufferFrom(std::vector<int>(n, 0));
  ASSERT_TRUE(setArgs(add, a, 3));
  cl_int err = CL_SUCCESS;
  cl_kernel clone = clCloneKernel(add, &err);
  ASSERT_CL(err);
  ASSERT_CL(clSetKernelArg(add, 0, sizeof b, &b));
  ASSERT_TRUE(run(add, {n}));    // b += 3
  ASSERT_TRUE(run(clone, {n}));  // a += 3
  ASSERT_CL(clSetKernelArg(clone, 1, sizeof(int), &n));
  ASSERT_TRUE(run(clone, {n}));  // a += 64
  ASSERT_CL(clReleaseKernel(clone));
  for (int v : read<int>(a, n)) ASSERT_EQ(v, 67);
  for (int v : read<int>(b, n)) ASSERT_EQ(v, 3);
}

// Several threads build, enqueue and read at the same time, on one shared
// queue and on queues of their own; each uses its own kernel object, as the
// spec requires for clSetKernelArg.
TEST_F(Runtime, ConcurrentThreads) {
  const int threads = 4, rounds = 20;
  const size_t n = 4096;
  std::vector<int> failures(threads, 0);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      cl_int err = CL_SUCCESS;
      const char *text = kAddValue;
      cl_program program = clCreateProgramWithSource(context_, 1, &text, nullptr, &err);
      if (err != CL_SUCCESS ||
          clBuildProgram(program, 1, &device_, "", nullptr, nullptr) != CL_SUCCESS) {
        failures[t] = -1;
        return;
      }
      cl_kernel add = clCreateKernel(program, "add", &err);
      cl_command_queue own = clCreateCommandQueueWithProperties(context_, device_, nullptr, &err);
      cl_command_queue queue = t % 2 ? own : queue_;
      std::vector<int> data(n, t);
      cl_mem mem = clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4,
                                  data.data(), &err);
      size_t global = n;
      for (int r = 0; r < rounds; ++r) {
        int v = r + 1;
        clSetKernelArg(add, 0, sizeof mem, &mem);
        clSetKernelArg(add, 1, sizeof v, &v);
        if (clEnqueueNDRangeKernel(queue, add, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) !=
            CL_SUCCESS)
          ++failures[t];
      }
      if (clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, n * 4, data.data(), 0, nullptr, nullptr) !=
          CL_SUCCESS)
        ++failures[t];
      const int want = t + rounds * (rounds + 1) / 2;
      for (int v : data) failures[t] += v != want;
      clReleaseMemObject(mem);
      clReleaseCommandQueue(own);
      clReleaseKernel(add);
      clReleaseProgram(program);
    });
  for (std::thread &w : workers) w.join();
  for (int t = 0; t < threads; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
}

// clCreateProgramWithSource joins several strings, with and without lengths.
TEST_F(Runtime, ProgramFromSeveralStringsWithLengths) {
  const char *parts[] = {"kernel void k(global int *o) {", " o[0] = 42; }GARBAGE", "\n"};
  size_t lengths[] = {0, 13, 0};  // 0: NUL-terminated; 13 cuts "GARBAGE" off
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context_, 3, parts, lengths, &err);
  ASSERT_CL(err);
  ASSERT_CL(clBuildProgram(program, 1, &device_, "", nullptr, nullptr));
  size_t size = 0;
  ASSERT_CL(clGetProgramInfo(program, CL_PROGRAM_SOURCE, 0, nullptr, &size));
  std::string source(size, '\0');
  ASSERT_CL(clGetProgramInfo(program, CL_PROGRAM_SOURCE, size, source.data(), nullptr));
  EXPECT_STREQ(source.c_str(), "kernel void k(global int *o) { o[0] = 42; }\n");
  cl_kernel k = clCreateKernel(program, "k", &err);
  ASSERT_CL(err);
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, sizeof(int));
  ASSERT_TRUE(setArgs(k, out));
  ASSERT_TRUE(run(k, {1}));
  EXPECT_EQ(read<int>(out, 1)[0], 42);
  EXPECT_CL(clReleaseKernel(k));
  EXPECT_CL(clReleaseProgram(program));
}

// C++ programs release OpenCL objects from static destructors (CLBlast's
// program cache does): after the platform's own statics are gone, at exit.
// In a fresh process (threadsafe death tests re-run the binary), a function
// registered with atexit before the first build runs after every static the
// build creates is destroyed; releasing a built program, its kernel, a
// buffer, the queue and the context there must neither crash nor fail.
cl_context gExitContext;
cl_command_queue gExitQueue;
cl_program gExitProgram;
cl_kernel gExitKernel;
cl_mem gExitBuffer;

void releaseAtExit() {
  bool ok = clReleaseKernel(gExitKernel) == CL_SUCCESS && clReleaseProgram(gExitProgram) == CL_SUCCESS &&
            clReleaseMemObject(gExitBuffer) == CL_SUCCESS && clReleaseCommandQueue(gExitQueue) == CL_SUCCESS &&
            clReleaseContext(gExitContext) == CL_SUCCESS;
  if (!ok) _exit(3);
}

TEST_F(Runtime, ObjectsReleasedWhileTheProcessExits) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        gExitContext = context_;
        gExitQueue = queue_;
        clRetainContext(context_);
        clRetainCommandQueue(queue_);
        std::atexit(releaseAtExit);
        const char *text = "kernel void k(global int *out) { out[get_global_id(0)] = 3 * (int)get_global_id(0); }";
        cl_int err = CL_SUCCESS;
        gExitProgram = clCreateProgramWithSource(context_, 1, &text, nullptr, &err);
        if (err != CL_SUCCESS || clBuildProgram(gExitProgram, 1, &device_, "", nullptr, nullptr) != CL_SUCCESS) _exit(4);
        gExitKernel = clCreateKernel(gExitProgram, "k", &err);
        gExitBuffer = clCreateBuffer(context_, CL_MEM_WRITE_ONLY, 64 * sizeof(int), nullptr, &err);
        size_t global = 64;
        if (clSetKernelArg(gExitKernel, 0, sizeof gExitBuffer, &gExitBuffer) != CL_SUCCESS ||
            clEnqueueNDRangeKernel(queue_, gExitKernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) !=
                CL_SUCCESS)
          _exit(5);
        int out[64];
        if (clEnqueueReadBuffer(queue_, gExitBuffer, CL_TRUE, 0, sizeof out, out, 0, nullptr, nullptr) != CL_SUCCESS)
          _exit(6);
        for (int i = 0; i < 64; ++i)
          if (out[i] != 3 * i) _exit(7);
        // The fixture's own references (its TearDown does not run in this
        // process): the ones retained above are now the last, released
        // while the process exits; nothing is left to leak.
        clReleaseCommandQueue(queue_);
        clReleaseContext(context_);
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace lockstep::test

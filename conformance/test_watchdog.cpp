// The watchdog: a launch that runs past LOCKSTEP_KERNEL_TIMEOUT stops, its
// event ends with CL_OUT_OF_RESOURCES and stderr names the kernel, instead
// of clFinish waiting for ever; kernels that end keep running to the end,
// with right results. This binary runs with a 2-second timeout (set before
// the first launch, when Lockstep reads it).
#include <chrono>
#include <cstdlib>

#include "Capture.h"
#include "ClTest.h"

namespace lockstep::test {
namespace {

const int kTimeoutSet = [] {
  setenv("LOCKSTEP_KERNEL_TIMEOUT", "2", 1);
  return 0;
}();

class Watchdog : public ClTest {
 protected:
  void SetUp() override {
    ClTest::SetUp();
    if (HasFatalFailure()) return;
    if (platformString(platform_, CL_PLATFORM_NAME).find("Lockstep") == std::string::npos)
      GTEST_SKIP() << "LOCKSTEP_KERNEL_TIMEOUT is Lockstep's";
  }
  // Launches, waits, and returns the event's final status, the seconds it
  // took and what went to stderr.
  cl_int launch(cl_kernel k, size_t global, size_t local, double &seconds, std::string &log) {
    StderrCapture capture;
    auto start = std::chrono::steady_clock::now();
    cl_event event = nullptr;
    cl_int err = clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, local ? &local : nullptr, 0, nullptr, &event);
    EXPECT_CL(err);
    if (err != CL_SUCCESS) return err;
    track(event);
    clWaitForEvents(1, &event);
    cl_int status = CL_COMPLETE;
    EXPECT_CL(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr));
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    log = capture.take();
    return status;
  }
};

const char *kSource = R"CLC(
// Waits for a flag no one sets: a loop with no trip count.
kernel void spin(volatile global int *flag, global int *out) {
  int n = 0;
  while (flag[0] == 0) ++n;
  out[get_global_id(0)] = n;
}
// Every work-item waits in a loop the group runs in lockstep (divergent
// bounds), the shape of a convergence loop that never converges.
kernel void converge(global const float *in, global float *out) {
  float x = in[get_global_id(0)];
  while (x != 2.0f) {
    x = x * 0.5f + 4.0f;
    if (x > 1e30f) out[0] = x;  // never: a store keeps the loop a loop
  }
  out[get_global_id(0)] = x;
}
// Ends: a loop with a data-dependent trip count (Collatz steps).
kernel void collatz(global const uint *in, global uint *steps) {
  uint x = in[get_global_id(0)], n = 0;
  while (x != 1) { x = (x & 1) ? 3 * x + 1 : x / 2; ++n; }
  steps[get_global_id(0)] = n;
}
)CLC";

TEST_F(Watchdog, NeverEndingLoopIsStoppedAndTheQueueGoesOn) {
  cl_kernel spin = kernel(kSource, "spin");
  ASSERT_NE(spin, nullptr);
  cl_mem flag = bufferFrom(std::vector<int>{0});
  cl_mem out = buffer(CL_MEM_READ_WRITE, 64 * sizeof(int));
  ASSERT_TRUE(setArgs(spin, flag, out));
  double seconds = 0;
  std::string log;
  EXPECT_EQ(launch(spin, 64, 16, seconds, log), CL_OUT_OF_RESOURCES) << log;
  EXPECT_LT(seconds, 30.0);
  EXPECT_GE(seconds, 1.5);
  EXPECT_NE(log.find("kernel 'spin' ran longer than LOCKSTEP_KERNEL_TIMEOUT"), std::string::npos) << log;
  // The queue, and the kernel, still work: with the flag set it ends.
  EXPECT_CL(clFinish(queue_));
  int one = 1;
  ASSERT_CL(clEnqueueWriteBuffer(queue_, flag, CL_TRUE, 0, sizeof one, &one, 0, nullptr, nullptr));
  EXPECT_EQ(launch(spin, 64, 16, seconds, log), CL_COMPLETE) << log;
  for (int v : read<int>(out, 64)) EXPECT_EQ(v, 0);
}

TEST_F(Watchdog, LoopRunInLockstepIsStopped) {
  cl_kernel converge = kernel(kSource, "converge");
  ASSERT_NE(converge, nullptr);
  // x -> x / 2 + 4 converges to 8, never to 2.
  cl_mem in = bufferFrom(randomValues<float>(256, 0.0f, 100.0f));
  cl_mem out = buffer(CL_MEM_READ_WRITE, 256 * sizeof(float));
  ASSERT_TRUE(setArgs(converge, in, out));
  double seconds = 0;
  std::string log;
  EXPECT_EQ(launch(converge, 256, 64, seconds, log), CL_OUT_OF_RESOURCES) << log;
  EXPECT_LT(seconds, 30.0);
  EXPECT_NE(log.find("'converge'"), std::string::npos) << log;
}

TEST_F(Watchdog, KernelsThatEndRunToTheEnd) {
  cl_kernel collatz = kernel(kSource, "collatz");
  ASSERT_NE(collatz, nullptr);
  std::vector<cl_uint> in(4096);
  for (size_t i = 0; i < in.size(); ++i) in[i] = cl_uint(i + 1);
  cl_mem input = bufferFrom(in);
  cl_mem steps = buffer(CL_MEM_READ_WRITE, in.size() * sizeof(cl_uint));
  ASSERT_TRUE(setArgs(collatz, input, steps));
  double seconds = 0;
  std::string log;
  EXPECT_EQ(launch(collatz, in.size(), 64, seconds, log), CL_COMPLETE) << log;
  EXPECT_EQ(log, "");
  std::vector<cl_uint> got = read<cl_uint>(steps, in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    cl_ulong x = in[i];
    cl_uint n = 0;
    while (x != 1) {
      x = (x & 1) ? 3 * x + 1 : x / 2;
      ++n;
    }
    ASSERT_EQ(got[i], n) << i;
  }
}

}  // namespace
}  // namespace lockstep::test

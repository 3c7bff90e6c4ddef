// Barrier checking mode: with LOCKSTEP_CHECK_BARRIERS=1 in the environment
// when a program is built, a kernel whose work-items do not all reach the
// same barrier makes its launch fail (a negative execution status on its
// event) and prints a message naming the kernel, the barrier's place
// (program.cl:LINE:COL) and the work-items that disagree. The same kernels
// written correctly run silently and give the right results.
#include "Capture.h"
#include "SyncTest.h"

namespace lockstep::test::sync {
namespace {

class BarrierCheck : public SyncTest {
 protected:
  // Divergent barriers are undefined behaviour to any other platform.
  bool isLockstep() {
    return platformString(platform_, CL_PLATFORM_NAME).find("Lockstep") != std::string::npos;
  }
  cl_kernel checkedKernel(const std::string &source, const char *name) {
    ScopedEnv check("LOCKSTEP_CHECK_BARRIERS", "1");
    return make(source, name);
  }
  // Launches, waits for the event, and returns its final execution status;
  // `log` gets what was written to stderr meanwhile.
  cl_int launchStatus(cl_kernel k, const Shape &shape, std::string &log) {
    StderrCapture capture;
    cl_event event = nullptr;
    cl_int err =
        clEnqueueNDRangeKernel(queue_, k, shape.dims, shape.offset.data(), shape.global.data(),
                               shape.local.data(), 0, nullptr, &event);
    EXPECT_CL(err);
    if (err != CL_SUCCESS) return err;
    track(event);
    err = clWaitForEvents(1, &event);
    cl_int status = CL_COMPLETE;
    EXPECT_CL(
        clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr));
    if (status < 0)
      EXPECT_EQ(err, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) << errorName(err);
    else
      EXPECT_CL(err);
    log = capture.take();
    return status;
  }
  void expectDivergenceReported(cl_kernel k, const Shape &shape, const std::string &kernelName,
                                const std::string &place, const std::string &items) {
    SCOPED_TRACE("shape " + shape.name());
    std::string log;
    cl_int status = launchStatus(k, shape, log);
    EXPECT_LT(status, 0) << "a launch whose work-items diverge at a barrier must fail; got "
                         << errorName(status) << "; stderr: " << log;
    EXPECT_NE(log.find(kernelName), std::string::npos) << "kernel name missing: " << log;
    EXPECT_NE(log.find(place), std::string::npos)
        << "barrier place " << place << " missing: " << log;
    EXPECT_NE(log.find(items), std::string::npos) << "work-items " << items << " missing: " << log;
    // The queue stays usable after a failed launch.
    EXPECT_CL(clFinish(queue_));
  }
  Shape shape(cl_uint dims, std::array<size_t, 3> global, std::array<size_t, 3> local) {
    Shape s;
    s.dims = dims;
    s.global = global;
    s.local = local;
    return s;
  }
};

const char *kDivergentIf = R"CLC(
kernel void divergent_if(global int *out, local int *buf) {
  uint lid = LID;
  buf[lid] = (int)lid;
  if (get_local_id(0) < 3 && get_local_id(1) < 1)
    barrier(CLK_LOCAL_MEM_FENCE);
  out[GIDX] = buf[(lid + 1) % LSZ];
}
)CLC";

TEST_F(BarrierCheck, BarrierInADivergentIfFailsTheLaunch) {
  if (!isLockstep()) GTEST_SKIP() << "LOCKSTEP_CHECK_BARRIERS is Lockstep's";
  cl_kernel k = checkedKernel(kDivergentIf, "divergent_if");
  ASSERT_NE(k, nullptr);
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, 64 * 4);
  ASSERT_CL(setKernelArgs(k, 0, out, LocalBytes{64 * 4}));
  const std::string place = placeOf(kDivergentIf, "barrier(");
  // Items 0..2 reach the barrier, item 3 is the first that does not.
  expectDivergenceReported(k, shape(1, {16, 1, 1}, {8, 1, 1}), "divergent_if", place, "(3,0,0)");
  // In 2D the first item that disagrees with (0,0,0) is (3,0,0) again; with
  // a group 2 wide it is (0,1,0): the report names the y coordinate.
  expectDivergenceReported(k, shape(2, {8, 8, 1}, {2, 4, 1}), "divergent_if", place, "(0,1,0)");
}

const char *kDivergentLoop = R"CLC(
kernel void divergent_loop(global int *out, local int *buf) {
  uint lid = LID;
  int acc = 0;
  for (uint i = 0; i < lid % 4 + 1; ++i) {
    buf[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    acc += buf[(lid + 1) % LSZ] + 1;
  }
  out[GIDX] = acc;
}
)CLC";

TEST_F(BarrierCheck, LoopWithAPerItemTripCountFailsTheLaunch) {
  if (!isLockstep()) GTEST_SKIP() << "LOCKSTEP_CHECK_BARRIERS is Lockstep's";
  cl_kernel k = checkedKernel(kDivergentLoop, "divergent_loop");
  ASSERT_NE(k, nullptr);
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, 64 * 4);
  ASSERT_CL(setKernelArgs(k, 0, out, LocalBytes{64 * 4}));
  // After one trip item 0 leaves the loop and item 1 goes round again.
  expectDivergenceReported(k, shape(1, {64, 1, 1}, {16, 1, 1}), "divergent_loop",
                           placeOf(kDivergentLoop, "barrier("), "(1,0,0)");
}

// The kernels above made correct: the condition and the trip count are
// uniform over each group (they depend on the group id and on an argument).
const char *kCorrected = R"CLC(
kernel void uniform_if(global int *out, local int *buf) {
  uint lid = LID;
  buf[lid] = (int)lid;
  if (GRP % 2 == 0)
    barrier(CLK_LOCAL_MEM_FENCE);
  else
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  out[GIDX] = buf[(lid + 1) % LSZ];
}
kernel void uniform_loop(global int *out, local int *buf, uint trips) {
  uint lid = LID;
  int acc = 0;
  for (uint i = 0; i < trips + GRP % 3; ++i) {
    buf[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    acc += buf[(lid + 1) % LSZ] + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[GIDX] = acc;
}
)CLC";

TEST_F(BarrierCheck, CorrectKernelsRunSilentlyWithRightResults) {
  cl_program program;
  {
    ScopedEnv check("LOCKSTEP_CHECK_BARRIERS", "1");
    program = makeProgram(kCorrected);
  }
  ASSERT_NE(program, nullptr);
  cl_kernel ifKernel = kernelOf(program, "uniform_if"),
            loopKernel = kernelOf(program, "uniform_loop");
  const cl_uint trips = 2;
  for (const Shape &s : allShapes(device_)) {
    SCOPED_TRACE("shape " + s.name());
    if (!fits(ifKernel, s) || !fits(loopKernel, s)) continue;
    const size_t n = s.items();
    cl_mem a = buffer(CL_MEM_WRITE_ONLY, n * 4), b = buffer(CL_MEM_WRITE_ONLY, n * 4);
    ASSERT_CL(setKernelArgs(ifKernel, 0, a, LocalBytes{s.groupItems() * 4}));
    ASSERT_CL(setKernelArgs(loopKernel, 0, b, LocalBytes{s.groupItems() * 4}, trips));
    std::string log;
    EXPECT_EQ(launchStatus(ifKernel, s, log), CL_COMPLETE);
    EXPECT_EQ(log, "") << "a correct kernel prints nothing";
    EXPECT_EQ(launchStatus(loopKernel, s, log), CL_COMPLETE);
    EXPECT_EQ(log, "") << "a correct kernel prints nothing";
    std::vector<int> wantIf(n), wantLoop(n);
    for (const Group &g : groupsOf(s)) {
      const size_t count = g.count();
      // All items hold the same acc, and each trip doubles it plus one.
      const int t = int(trips + g.linearId % 3);
      for (size_t l = 0; l < count; ++l) {
        wantIf[g.items[l].index] = int((l + 1) % count);
        wantLoop[g.items[l].index] = (1 << t) - 1;
      }
    }
    EXPECT_TRUE(sameValues(read<int>(a, n), wantIf));
    EXPECT_TRUE(sameValues(read<int>(b, n), wantLoop));
  }
}

}  // namespace
}  // namespace lockstep::test::sync

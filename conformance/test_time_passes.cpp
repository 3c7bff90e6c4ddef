// LOCKSTEP_LLVM_OPTIONS=-time-passes, a developer's aid (docs/compiler.md,
// "Debugging aids"): a build prints LLVM's pass timing reports. Clang's code
// generation, which runs first in the same process, used to set the flag
// from its own options and so switched it off before the optimizer ran:
// nothing was printed. In a binary of its own: the library reads the option
// once, at its first build in the process.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "ClTest.h"

namespace lockstep::test {
namespace {

const bool kForced = [] {
  setenv("LOCKSTEP_LLVM_OPTIONS", "-time-passes", 1);
  setenv("LOCKSTEP_CACHE", "0", 1);
  return true;
}();

class TimePasses : public ClTest {};

TEST_F(TimePasses, EachBuildPrintsTheOptimizersAndTheCodeGeneratorsTimings) {
  ASSERT_TRUE(kForced);
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  cl_kernel k = kernel("kernel void twice(global float *a) { a[get_global_id(0)] *= 2.0f; }",
                       "twice");
  std::string out = testing::internal::GetCapturedStdout();
  std::string err = testing::internal::GetCapturedStderr();
  ASSERT_NE(k, nullptr);
  std::string both = out + err;
  // The optimizer's passes (the new pass manager's report), then the code
  // generator's (the legacy pass manager's, printed after each part).
  EXPECT_NE(both.find("Pass execution timing report"), std::string::npos) << both;
  EXPECT_NE(both.find("LoopVectorizePass"), std::string::npos) << both;
  EXPECT_NE(both.find("X86 DAG->DAG Instruction Selection"), std::string::npos) << both;
}

}  // namespace
}  // namespace lockstep::test

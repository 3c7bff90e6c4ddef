// LOCKSTEP_LLVM_OPTIONS, a developer's aid (docs/compiler.md, "Debugging
// aids"): with -time-passes a build prints LLVM's pass timing reports, with
// -stats the passes' counters. Clang's code generation, which runs first in
// the same process, used to set the timing flag from its own options and so
// switched it off before the optimizer ran; the counters were no-ops in a
// release build and LLVM prints statistics only at shutdown. In a binary of
// its own: the library reads the options once, at its first build in the
// process.
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

#include "ClTest.h"

namespace lockstep::test {
namespace {

const bool kForced = [] {
  setenv("LOCKSTEP_LLVM_OPTIONS", "-time-passes -stats", 1);
  setenv("LOCKSTEP_CACHE", "0", 1);
  return true;
}();

class LlvmOptions : public ClTest {
 protected:
  // Everything a build printed, stdout and stderr.
  std::string buildPrints() {
    testing::internal::CaptureStdout();
    testing::internal::CaptureStderr();
    cl_kernel k = kernel("kernel void twice(global float *a) { a[get_global_id(0)] *= 2.0f; }",
                         "twice");
    std::string out = testing::internal::GetCapturedStdout();
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(k, nullptr);
    return out + err;
  }
};

TEST_F(LlvmOptions, TimePassesPrintsTheOptimizersAndTheCodeGeneratorsTimings) {
  ASSERT_TRUE(kForced);
  std::string printed = buildPrints();
  // The optimizer's passes (the new pass manager's report), then the code
  // generator's (the legacy pass manager's, printed after each part).
  EXPECT_NE(printed.find("Pass execution timing report"), std::string::npos) << printed;
  EXPECT_NE(printed.find("LoopVectorizePass"), std::string::npos) << printed;
  EXPECT_NE(printed.find("X86 DAG->DAG Instruction Selection"), std::string::npos) << printed;
}

TEST_F(LlvmOptions, StatsPrintsTheWorkGroupPassesCountersForEachBuild) {
  ASSERT_TRUE(kForced);
  // Twice: the counters are reset after each report, so each build counts
  // the same (a region per version of the kernel: it has no barrier).
  const std::regex line(R"((\d+) lockstep-work-group-loops +- Regions cloned into work-item loop nests)");
  std::vector<int> counts;
  for (int build = 0; build < 2; ++build) {
    std::string printed = buildPrints();
    std::smatch match;
    ASSERT_TRUE(std::regex_search(printed, match, line)) << printed;
    counts.push_back(std::stoi(match[1]));
  }
  EXPECT_GT(counts[0], 0);
  EXPECT_EQ(counts[0], counts[1]);
}

}  // namespace
}  // namespace lockstep::test

// The OpenCL benchmarks: what each measures, and the host code that sets it
// up, launches the kernel from kernels.cl and verifies every run.
#pragma once

#include <vector>

#include "ClSession.h"
#include "Options.h"
#include "Report.h"

namespace bench {

// Runs one benchmark at `size` on a session whose program is built. Throws
// VerificationFailure on a wrong result and ClError when OpenCL fails.
using ClRunFn = Record (*)(Session &session, const BenchInfo &info, uint64_t size,
                           const Options &options);

// The program a benchmark's kernel is in.
enum class Program {
  Suite,   // kernels.cl: built for every benchmark, and what `build` measures
  Images,  // images.cl: built only on a device with image support
};

struct ClBench {
  BenchInfo info;
  const char *kernel;  // the kernel it launches ("" for build)
  ClRunFn run;         // null for "build", which runs in child processes instead
  Program program = Program::Suite;
};

const std::vector<ClBench> &clBenchmarks();

// The benchmarks' OpenCL C sources (kernels.cl and images.cl, embedded at
// build time).
extern const char kBenchKernelSource[];
extern const char kBenchImageSource[];

}  // namespace bench

// The OpenCL benchmarks: what each measures, and the host code that sets it
// up, launches the kernel from kernels.cl and verifies every run.
#pragma once

#include <functional>
#include <vector>

#include "Measure.h"
#include "Workloads.h"

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
  RealWorld,  // realworld.cl: the real-world kernel shapes (RealWorldBenchmarks.cpp)
};

struct ClBench {
  BenchInfo info;
  const char *kernel;  // the kernel it launches ("" for build)
  ClRunFn run;         // null for "build", which runs in child processes instead
  Program program = Program::Suite;
};

// The suite, the image benchmarks and the real-world set, in that order.
const std::vector<ClBench> &clBenchmarks();

// The real-world set alone (RealWorldBenchmarks.cpp): names start with rw_.
const std::vector<ClBench> &realWorldBenchmarks();

// Helpers the benchmark files share. One launch per run, waited for;
// `prepare` and `verify` stay outside the time.
Timings timeKernel(Session &session, const Options &options, cl_kernel kernel, cl_uint dims,
                   const size_t *global, const size_t *local, const std::function<void()> &prepare,
                   const std::function<Verdict()> &verify);

// The SGEMM problem of order n, made (and its host reference computed) once
// per process: every SGEMM benchmark of that order shares it.
SgemmProblem &sgemmProblem(uint32_t n);

// An n x n SGEMM through `kernelName`(A, B, C, N), tiled (16 x 16 groups)
// or with the platform's local size; N goes as a 32-bit value, which an
// `int N` and a `uint N` kernel read alike (n < 2^31).
Record runSgemmKernel(Session &session, const BenchInfo &info, uint64_t n, const Options &options,
                      const char *kernelName, bool tiled);

// "name=value", a record's size.
std::string sizeText(const char *name, uint64_t value);

// The benchmarks' OpenCL C sources (kernels.cl, images.cl and realworld.cl,
// embedded at build time).
extern const char kBenchKernelSource[];
extern const char kBenchImageSource[];
extern const char kBenchRealWorldSource[];

}  // namespace bench

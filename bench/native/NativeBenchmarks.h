// The native reference: the suite's algorithms as plain C++ with OpenMP,
// compiled -O3 -march=native, plus STREAM-like copy and the peak FMA rate.
// It is what a careful C++ programmer gets from this machine without OpenCL,
// and is verified through the same host reference as the OpenCL suite.
#pragma once

#include <vector>

#include "Options.h"
#include "Report.h"

namespace bench {

using NativeRunFn = Record (*)(const BenchInfo &info, uint64_t size, const Options &options);

struct NativeBench {
  BenchInfo info;
  NativeRunFn run;
};

// Every native benchmark: the suite's, then the strong references.
const std::vector<NativeBench> &nativeBenchmarks();

// The strong references alone (RealWorldNative.cpp): sgemm_strong,
// transpose_strong and one per real-world (rw_) OpenCL benchmark.
const std::vector<NativeBench> &strongNativeBenchmarks();

}  // namespace bench

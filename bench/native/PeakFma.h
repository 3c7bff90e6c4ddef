// The machine's peak single-precision FMA rate, measured: the ceiling any
// compute-bound benchmark of the suite is compared against.
#pragma once

#include "Options.h"
#include "Report.h"

namespace bench {

// Every OpenMP thread runs `iterations` steps of x = x * m + a on a dozen
// independent vectors (enough chains to hide the FMA latency on any x86 core);
// 2 flops per lane and step. Verified: every lane must equal the same chain
// computed with std::fma.
Record runPeakFma(const BenchInfo &info, uint64_t iterations, const Options &options);

}  // namespace bench

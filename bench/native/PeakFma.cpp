// Compiled with -ffp-contract=fast (see CMakeLists.txt) so that x * m + a is
// one fused instruction, the only way to reach the peak.
#include "PeakFma.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "Measure.h"

namespace bench {
namespace {

// 16 floats: one AVX-512 register, or two AVX2 ones where that is the widest.
typedef float Vec16 __attribute__((vector_size(64)));
constexpr int kChains = 12;
constexpr int kLanes = 16;

// Values read through volatile, so the compiler cannot fold the chain.
volatile float g_start = 0.5f, g_mul = 0.999f, g_add = 0.001f;

void runChains(uint64_t iterations, float *out) {
  float start = g_start, mul = g_mul, add = g_add;
  Vec16 m = mul - Vec16{}, a = add - Vec16{};
  Vec16 x[kChains];
  for (auto &chain : x) chain = start - Vec16{};
  for (uint64_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 12
    for (int c = 0; c < kChains; ++c) x[c] = x[c] * m + a;
  }
  for (int c = 0; c < kChains; ++c)
    for (int l = 0; l < kLanes; ++l) out[c * kLanes + l] = x[c][l];
}

}  // namespace

// The work is cut into many equal chunks that the threads take one at a time
// (OpenMP's dynamic schedule): the rate is what all the cores give together.
// A fixed share per thread would measure sixteen times the slowest core, and
// the cores of a virtual machine need not run at one speed (on a 16-vCPU VM,
// one core ran these chains at 70-148 GFLOP/s depending on what ran beside
// it).
constexpr uint64_t kChunksPerThread = 64;

Record runPeakFma(const BenchInfo &info, uint64_t iterations, const Options &options) {
  uint64_t chunkIterations = std::max<uint64_t>(1, iterations / kChunksPerThread);
  float want = g_start;
  for (uint64_t i = 0; i < chunkIterations; ++i) want = std::fma(want, g_mul, g_add);
  int threads = omp_get_max_threads();
  int64_t chunks = int64_t{threads} * int64_t{kChunksPerThread};
  std::vector<float> results(size_t(chunks) * kChains * kLanes);
  auto timings = measureRuns(
      options.reps, [&] { std::fill(results.begin(), results.end(), NAN); },
      [&] {
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
        for (int64_t chunk = 0; chunk < chunks; ++chunk)
          runChains(chunkIterations, &results[size_t(chunk) * kChains * kLanes]);
      },
      [&]() -> Verdict {
        for (size_t i = 0; i < results.size(); ++i)
          if (!(results[i] == want))
            return "lane " + std::to_string(i) + " is " + std::to_string(results[i]) +
                   ", the fused chain gives " + std::to_string(want);
        return {};
      });
  return rateRecord(info,
                    "iterations=" + std::to_string(chunkIterations * kChunksPerThread) +
                        " threads=" + std::to_string(threads) + " chunks=" + std::to_string(chunks),
                    timings, 2.0 * double(chunks) * kChains * kLanes * double(chunkIterations),
                    1e9);
}

}  // namespace bench

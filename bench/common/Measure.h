// Timing with verification: every run, warm-up included, is checked against
// the host reference, and a wrong output stops the benchmark as FAIL before
// any number is reported.
#pragma once

#include <chrono>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "Options.h"
#include "Report.h"

namespace bench {

// Empty when the output matches the reference, else what differs and where.
using Verdict = std::string;

struct VerificationFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Timings {
  double first_ms = 0;     // the warm-up run
  std::vector<double> ms;  // the timed runs
  double median() const;
  double min() const;
};

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start);

// Runs prepare → run → verify once as a warm-up and then `reps` times, timing
// only `run` (which must include waiting for completion). `prepare` resets or
// poisons the outputs so that a run which writes nothing cannot pass on the
// previous run's result. Throws VerificationFailure on the first wrong output.
Timings measureRuns(int reps, const std::function<void()> &prepare,
                    const std::function<void()> &run, const std::function<Verdict()> &verify);

// A PASS record whose value is `work` units per second of the median run,
// divided by `scale` (1e9 for GB/s or GFLOP/s, 1e6 for Mpixel/s).
Record rateRecord(const BenchInfo &info, std::string size, const Timings &timings, double work,
                  double scale);

// A PASS record whose value is the median time itself, in info.unit ("us" or "ms").
Record timeRecord(const BenchInfo &info, std::string size, const Timings &timings);

// The FAIL/ERROR record for a benchmark that threw.
Record problemRecord(const BenchInfo &info, std::string size, Status status, std::string detail);

}  // namespace bench

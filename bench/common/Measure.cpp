#include "Measure.h"

#include <algorithm>
#include <utility>

namespace bench {

double Timings::median() const {
  if (ms.empty()) return 0;
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  size_t mid = sorted.size() / 2;
  return sorted.size() % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

double Timings::min() const { return ms.empty() ? 0 : *std::min_element(ms.begin(), ms.end()); }

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

Timings measureRuns(int reps, const std::function<void()> &prepare,
                    const std::function<void()> &run, const std::function<Verdict()> &verify) {
  Timings timings;
  for (int i = 0; i <= reps; ++i) {
    prepare();
    auto start = Clock::now();
    run();
    double ms = msSince(start);
    if (Verdict verdict = verify(); !verdict.empty())
      throw VerificationFailure((i == 0 ? "warm-up run: " : "run " + std::to_string(i) + ": ") +
                                verdict);
    if (i == 0)
      timings.first_ms = ms;
    else
      timings.ms.push_back(ms);
  }
  return timings;
}

static Record passRecord(const BenchInfo &info, std::string size, const Timings &timings) {
  Record record;
  record.bench = info.name;
  record.size = std::move(size);
  record.status = Status::Pass;
  record.unit = info.unit;
  record.higher_is_better = info.higher_is_better;
  record.median_ms = timings.median();
  record.min_ms = timings.min();
  record.first_ms = timings.first_ms;
  record.reps = static_cast<int>(timings.ms.size());
  return record;
}

Record rateRecord(const BenchInfo &info, std::string size, const Timings &timings, double work,
                  double scale) {
  Record record = passRecord(info, std::move(size), timings);
  record.value = work / (record.median_ms / 1e3) / scale;
  return record;
}

Record timeRecord(const BenchInfo &info, std::string size, const Timings &timings) {
  Record record = passRecord(info, std::move(size), timings);
  record.value = info.unit == "us" ? record.median_ms * 1e3 : record.median_ms;
  return record;
}

Record problemRecord(const BenchInfo &info, std::string size, Status status, std::string detail) {
  Record record;
  record.bench = info.name;
  record.size = std::move(size);
  record.status = status;
  record.unit = info.unit;
  record.higher_is_better = info.higher_is_better;
  record.detail = std::move(detail);
  return record;
}

}  // namespace bench

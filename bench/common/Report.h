// One result line per benchmark, machine-readable (JSON lines or CSV) on
// stdout and a human summary on stderr, plus the exit status of the run.
#pragma once

#include <cstdio>
#include <string>

namespace bench {

enum class Status {
  Pass,   // verified and timed
  Fail,   // ran, but the output disagreed with the host reference: not timed
  Error,  // could not run (API error, unsupported size, ...)
};

struct Record {
  std::string bench;
  std::string size;  // "n=1024" or similar, for the reader
  Status status = Status::Error;
  std::string unit;
  bool higher_is_better = true;
  double value = 0;      // in `unit`, from the median run
  double median_ms = 0;  // of the timed runs
  double min_ms = 0;
  double first_ms = 0;  // the untimed warm-up run: includes lazy compilation
  int reps = 0;
  std::string detail;  // why it failed, or a note
};

class Reporter {
 public:
  // `suite` is "opencl" or "native"; `platform` and `device` name what ran.
  Reporter(std::string suite, std::string platform, std::string device, std::string format);
  void emit(const Record &record);
  // 0 when every record passed, 1 when some output was wrong, 2 when some
  // benchmark could not run (that outranks a wrong result: it hides results).
  int exitCode() const;

 private:
  std::string suite_, platform_, device_, format_;
  bool header_done_ = false;
  bool any_fail_ = false, any_error_ = false;
};

const char *statusName(Status status);

}  // namespace bench

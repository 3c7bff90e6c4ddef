// Command-line options shared by the OpenCL benchmark and the native reference,
// and the table of benchmarks each program offers (name, unit, sizes).
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench {

// A mistake on the command line; main() prints it with the usage text.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What one benchmark measures and at which problem size. The size is a single
// number whose meaning the benchmark states (elements, matrix order, ...), so
// `--size name=value` can override any of them the same way.
struct BenchInfo {
  std::string name;
  std::string what;          // one line for --list
  std::string unit;          // of the reported value
  bool higher_is_better;     // false for latencies and build times
  uint64_t default_size;     // sized for ~50-500 ms per run on a 2-core machine
  uint64_t smoke_size;       // for --smoke: seconds for the whole suite, still checked
  uint64_t size_multiple;    // the kernel's tiling needs size % size_multiple == 0
  std::string size_meaning;  // "elements", "matrix order", ...
  // The largest size the kernels' 32-bit indices (and sane memory use) allow.
  uint64_t max_size = uint64_t{1} << 30;
};

struct Options {
  std::string platform = "Lockstep";  // substring of CL_PLATFORM_NAME
  std::vector<std::string> benches;   // empty: all of them
  int reps = 5;                       // timed runs per benchmark, after one warm-up
  int build_reps = 3;                 // cold+warm build pairs (OpenCL only)
  int latency_samples = 1000;         // launches per latency measurement
  bool smoke = false;                 // tiny sizes, one repetition, still verified
  bool list = false;
  std::string format = "jsonl";           // or "csv"
  std::map<std::string, uint64_t> sizes;  // --size name=value
  int threads = 0;                        // native only; 0 = OpenMP's default
  bool build_probe = false;               // internal: the child process of the build benchmark
};

// Parses argv; throws UsageError. `native` selects which options are valid.
Options parseOptions(int argc, char **argv, bool native);

std::string usageText(const char *program, bool native);

// The size a benchmark runs at: --size override, else smoke or default size.
// Throws UsageError when an override breaks the benchmark's tiling.
uint64_t sizeFor(const Options &options, const BenchInfo &info);

// True when the benchmark was asked for (or no --bench list was given).
bool selected(const Options &options, const std::string &name);

// Rejects --bench and --size names that no benchmark of this program has, so
// a typo does not silently run nothing.
void checkNames(const Options &options, const std::vector<BenchInfo> &benches);

void printList(const std::vector<BenchInfo> &benches);

// The command line of a benchmark program: parses and checks it into
// `options` (sizes included) and handles --help, usage errors and --list.
// Returns the exit status when the program is done, -1 when it should run.
int handleCommandLine(int argc, char **argv, bool native, const std::vector<BenchInfo> &benches,
                      Options &options);

}  // namespace bench

// lockstep-bench-native: the suite's algorithms as C++/OpenMP, the stand-in
// for what the hardware can do. Same options and output as lockstep-bench.
#include <omp.h>

#include <cstdio>
#include <fstream>
#include <new>
#include <string>

#include "Measure.h"
#include "NativeBenchmarks.h"
#include "Options.h"
#include "Report.h"

namespace {

using namespace bench;

std::vector<BenchInfo> infos() {
  std::vector<BenchInfo> result;
  for (const auto &bench : nativeBenchmarks()) result.push_back(bench.info);
  return result;
}

std::string cpuModel() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos)
      return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

Record runOne(const NativeBench &bench, uint64_t size, const Options &options) {
  std::string size_text = "size=" + std::to_string(size);
  try {
    return bench.run(bench.info, size, options);
  } catch (const VerificationFailure &failure) {
    return problemRecord(bench.info, size_text, Status::Fail, failure.what());
  } catch (const std::bad_alloc &) {
    return problemRecord(bench.info, size_text, Status::Error, "out of host memory");
  } catch (const std::exception &error) {
    return problemRecord(bench.info, size_text, Status::Error, error.what());
  }
}

}  // namespace

int main(int argc, char **argv) {
  Options options;
  if (int status = handleCommandLine(argc, argv, true, infos(), options); status >= 0) return status;
  if (options.threads > 0) omp_set_num_threads(options.threads);
  Reporter reporter("native", "native",
                    cpuModel() + " (C++ -O3 -march=native, OpenMP " +
                        std::to_string(omp_get_max_threads()) + " threads)",
                    options.format);
  for (const auto &bench : nativeBenchmarks())
    if (selected(options, bench.info.name))
      reporter.emit(runOne(bench, sizeFor(options, bench.info), options));
  return reporter.exitCode();
}

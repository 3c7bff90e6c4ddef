// lockstep-bench: the OpenCL benchmark suite, run on the platform named by
// --platform (a substring of CL_PLATFORM_NAME), through the ICD loader only.
// See bench/README.md.
#include <cstdio>
#include <memory>
#include <new>

#include "BuildBenchmark.h"
#include "ClBenchmarks.h"
#include "ClSession.h"
#include "Measure.h"
#include "Options.h"
#include "Report.h"

namespace {

using namespace bench;

std::vector<BenchInfo> infos() {
  std::vector<BenchInfo> result;
  for (const auto &bench : clBenchmarks()) result.push_back(bench.info);
  return result;
}

// One benchmark; whatever goes wrong becomes its record and the suite goes on.
Record runOne(Session &session, const ClBench &bench, uint64_t size, const Options &options) {
  std::string size_text = "size=" + std::to_string(size);
  try {
    return bench.run(session, bench.info, size, options);
  } catch (const VerificationFailure &failure) {
    return problemRecord(bench.info, size_text, Status::Fail, failure.what());
  } catch (const std::bad_alloc &) {
    return problemRecord(bench.info, size_text, Status::Error, "out of host memory");
  } catch (const std::exception &error) {
    return problemRecord(bench.info, size_text, Status::Error, error.what());
  }
}

// Builds images.cl when an image benchmark is selected; returns why its
// benchmarks cannot run, or nothing.
std::string buildImages(Session &session, const Options &options) {
  bool wanted = false;
  for (const auto &bench : clBenchmarks())
    wanted |= bench.program == Program::Images && selected(options, bench.info.name);
  if (!wanted) return {};
  try {
    if (!session.imageSupport()) return "the device reports no image support";
    session.build(kBenchImageSource);
  } catch (const std::exception &error) {
    return error.what();
  }
  return {};
}

// Builds realworld.cl when one of its benchmarks is selected; returns why
// they cannot run, or nothing.
std::string buildRealWorld(Session &session, const Options &options) {
  bool wanted = false;
  for (const auto &bench : realWorldBenchmarks()) wanted |= selected(options, bench.info.name);
  if (!wanted) return {};
  try {
    session.build(kBenchRealWorldSource);
  } catch (const std::exception &error) {
    return error.what();
  }
  return {};
}

int runSuite(const Options &options) {
  std::unique_ptr<Session> session;
  try {
    session = std::make_unique<Session>(options.platform);
  } catch (const std::exception &error) {
    std::fprintf(stderr, "lockstep-bench: %s\n", error.what());
    return 2;
  }
  Reporter reporter("opencl", session->platformName(), session->deviceName(), options.format);
  std::string build_error;
  try {
    session->build(kBenchKernelSource);
  } catch (const std::exception &error) {
    build_error = error.what();  // every kernel benchmark reports it; the build probes still run
  }
  std::string image_error = buildImages(*session, options);
  std::string realworld_error = buildRealWorld(*session, options);
  for (const auto &bench : clBenchmarks()) {
    if (!selected(options, bench.info.name)) continue;
    if (!bench.run) {
      try {
        runBuildBenchmark(options, reporter);
      } catch (const std::exception &error) {
        reporter.emit(problemRecord(bench.info, "suite", Status::Error, error.what()));
      }
      continue;
    }
    uint64_t size = sizeFor(options, bench.info);
    const std::string &error = bench.program == Program::Images      ? image_error
                               : bench.program == Program::RealWorld ? realworld_error
                                                                     : build_error;
    if (!error.empty())
      reporter.emit(
          problemRecord(bench.info, "size=" + std::to_string(size), Status::Error, error));
    else
      reporter.emit(runOne(*session, bench, size, options));
  }
  return reporter.exitCode();
}

}  // namespace

int main(int argc, char **argv) {
  Options options;
  if (int status = handleCommandLine(argc, argv, false, infos(), options); status >= 0) return status;
  if (options.build_probe) return runBuildProbe(options);
  return runSuite(options);
}

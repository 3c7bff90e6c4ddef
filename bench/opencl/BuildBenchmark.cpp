#include "BuildBenchmark.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "ClBenchmarks.h"
#include "ClSession.h"
#include "Measure.h"

extern char **environ;

namespace bench {
namespace {

struct ProbeResult {
  int status = -1;  // the child's exit status, -1 when it died of a signal
  double build_ms = 0, first_launch_ms = 0;
  std::string output;  // stdout and stderr together
};

// The child's environment: ours, with the kernel caches pointed at `cache_dir`.
// POCL_CACHE_DIR would override XDG_CACHE_HOME for PoCL, so it goes.
std::vector<std::string> probeEnvironment(const std::string &cache_dir) {
  std::vector<std::string> env;
  for (char **entry = environ; *entry; ++entry) {
    std::string text = *entry;
    if (text.rfind("XDG_CACHE_HOME=", 0) == 0 || text.rfind("POCL_CACHE_DIR=", 0) == 0) continue;
    env.push_back(text);
  }
  env.push_back("XDG_CACHE_HOME=" + cache_dir);
  return env;
}

std::vector<char *> pointers(std::vector<std::string> &strings) {
  std::vector<char *> result;
  for (auto &text : strings) result.push_back(text.data());
  result.push_back(nullptr);
  return result;
}

std::string readAll(int fd) {
  std::string text;
  char chunk[4096];
  for (ssize_t got; (got = read(fd, chunk, sizeof chunk)) != 0;) {
    if (got < 0) {
      if (errno == EINTR) continue;
      break;
    }
    text.append(chunk, got);
  }
  return text;
}

// Runs this same program with --build-probe in a fresh process.
ProbeResult runProbe(const Options &options, const std::string &cache_dir) {
  std::vector<std::string> args = {"/proc/self/exe", "--platform", options.platform,
                                   "--build-probe"};
  std::vector<std::string> env = probeEnvironment(cache_dir);
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw std::runtime_error("pipe: " + std::string(strerror(errno)));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  pid_t pid = 0;
  auto argv = pointers(args), envp = pointers(env);
  int spawn_error =
      posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (spawn_error != 0) {
    close(pipe_fds[0]);
    throw std::runtime_error("posix_spawn: " + std::string(strerror(spawn_error)));
  }
  ProbeResult result;
  result.output = readAll(pipe_fds[0]);
  close(pipe_fds[0]);
  int wait_status = 0;
  while (waitpid(pid, &wait_status, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
  auto line = result.output.rfind("build_ms ");
  if (result.status == 0 &&
      (line == std::string::npos ||
       std::sscanf(result.output.c_str() + line, "build_ms %lf first_launch_ms %lf",
                   &result.build_ms, &result.first_launch_ms) != 2))
    result.status = 2;
  return result;
}

BenchInfo variant(const BenchInfo &build, const char *name) {
  BenchInfo info = build;
  info.name = name;
  return info;
}

std::string lastLine(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text.substr(text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1);
}

}  // namespace

int runBuildProbe(const Options &options) {
  try {
    Session session(options.platform);
    double build_ms = session.build(kBenchKernelSource);
    Options smoke = options;
    smoke.smoke = true;
    smoke.reps = 1;
    smoke.latency_samples = 1;
    smoke.sizes.clear();
    double first_launch_ms = 0;
    std::set<std::string> launched;
    for (const auto &bench : clBenchmarks()) {
      // The suite is kernels.cl; the image benchmarks' program is not built here.
      if (!bench.run || bench.program != Program::Suite || !launched.insert(bench.kernel).second)
        continue;
      first_launch_ms += bench.run(session, bench.info, bench.info.smoke_size, smoke).first_ms;
    }
    std::printf("build_ms %.6f first_launch_ms %.6f\n", build_ms, first_launch_ms);
    return 0;
  } catch (const VerificationFailure &failure) {
    std::fprintf(stderr, "FAIL %s\n", failure.what());
    return 1;
  } catch (const std::exception &error) {
    std::fprintf(stderr, "ERROR %s\n", error.what());
    return 2;
  }
}

void runBuildBenchmark(const Options &options, Reporter &reporter) {
  const BenchInfo *build = nullptr;
  for (const auto &bench : clBenchmarks())
    if (bench.info.name == "build") build = &bench.info;
  const BenchInfo infos[4] = {variant(*build, "build_cold"), variant(*build, "build_warm"),
                              variant(*build, "first_launch_cold"),
                              variant(*build, "first_launch_warm")};
  Timings timings[4];
  for (int rep = 0; rep < options.build_reps; ++rep) {
    char dir_template[] = "/tmp/lockstep-bench-cache-XXXXXX";
    if (!mkdtemp(dir_template))
      throw std::runtime_error("mkdtemp: " + std::string(strerror(errno)));
    ProbeResult cold = runProbe(options, dir_template);
    ProbeResult warm = cold.status == 0 ? runProbe(options, dir_template) : ProbeResult{};
    std::error_code ignored;
    std::filesystem::remove_all(dir_template, ignored);
    for (const ProbeResult *probe : {&cold, &warm}) {
      if (probe->status == 0) continue;
      Status status = probe->status == 1 ? Status::Fail : Status::Error;
      std::string detail =
          probe->status == -1 ? "the build probe crashed: " : "the build probe failed: ";
      for (const auto &info : infos)
        reporter.emit(problemRecord(info, "suite", status, detail + lastLine(probe->output)));
      return;
    }
    double values[4] = {cold.build_ms, warm.build_ms, cold.first_launch_ms, warm.first_launch_ms};
    for (int i = 0; i < 4; ++i) timings[i].ms.push_back(values[i]);
  }
  for (int i = 0; i < 4; ++i) {
    timings[i].first_ms = timings[i].ms.front();
    reporter.emit(timeRecord(infos[i], "suite", timings[i]));
  }
}

}  // namespace bench

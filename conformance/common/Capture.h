// Helpers for tests of Lockstep's checking modes (LOCKSTEP_CHECK_BARRIERS,
// LOCKSTEP_CHECK_BOUNDS): an environment variable set for a scope, stderr
// captured while a launch runs, and a source place as the compiler names it.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace lockstep::test {

// Sets an environment variable for the lifetime of the object.
class ScopedEnv {
 public:
  ScopedEnv(const char *name, const char *value) : name_(name) {
    if (const char *old = std::getenv(name)) old_ = old;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (old_.empty())
      unsetenv(name_);
    else
      setenv(name_, old_.c_str(), 1);
  }
  ScopedEnv(const ScopedEnv &) = delete;
  ScopedEnv &operator=(const ScopedEnv &) = delete;

 private:
  const char *name_;
  std::string old_;
};

// Sends stderr (fd 2, which worker threads write too) to a file until taken.
class StderrCapture {
 public:
  StderrCapture() {
    std::fflush(stderr);
    char pattern[] = "/tmp/lockstep-test-stderr-XXXXXX";
    fd_ = mkstemp(pattern);
    path_ = pattern;
    saved_ = dup(2);
    dup2(fd_, 2);
  }
  std::string take() {
    if (saved_ < 0) return text_;
    std::fflush(stderr);
    dup2(saved_, 2);
    close(saved_);
    close(fd_);
    saved_ = -1;
    std::ifstream in(path_);
    std::stringstream all;
    all << in.rdbuf();
    unlink(path_.c_str());
    return text_ = all.str();
  }
  ~StderrCapture() { take(); }
  StderrCapture(const StderrCapture &) = delete;
  StderrCapture &operator=(const StderrCapture &) = delete;

 private:
  int fd_ = -1, saved_ = -1;
  std::string path_, text_;
};

// "program.cl:LINE:COL" of the first occurrence of `needle` in `source`, as
// the compiler names it (line 1 is the source's first line).
inline std::string placeOf(const std::string &source, const std::string &needle) {
  size_t at = source.find(needle);
  size_t lineStart = source.rfind('\n', at);
  lineStart = lineStart == std::string::npos ? 0 : lineStart + 1;
  size_t line = 1 + std::count(source.begin(), source.begin() + at, '\n');
  return "program.cl:" + std::to_string(line) + ":" + std::to_string(at - lineStart + 1);
}

// "program.cl:LINE:" of the line holding `needle`: where a report names a
// place on that line at whatever column the compiler chose.
inline std::string lineOf(const std::string &source, const std::string &needle) {
  std::string place = placeOf(source, needle);
  return place.substr(0, place.rfind(':') + 1);
}

}  // namespace lockstep::test

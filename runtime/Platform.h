// The one Lockstep platform and its devices, created on first use and alive
// until the library unloads.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "Object.h"

struct _cl_device_id;

struct _cl_platform_id
    : lockstep::runtime::Object<_cl_platform_id, lockstep::runtime::Tag::Platform,
                                CL_INVALID_PLATFORM> {
  std::span<_cl_device_id *const> devices() const { return {&device_, 1}; }
  // CL_PLATFORM_EXTENSIONS: API-level extensions only (kernel-language ones
  // are the device's).
  const std::string &extensions() const { return extensions_; }
  // CL_PLATFORM_HOST_TIMER_RESOLUTION, in nanoseconds.
  cl_ulong hostTimerResolution() const { return hostTimerResolution_; }

  static _cl_platform_id &instance();

 private:
  _cl_platform_id();
  _cl_device_id *device_ = nullptr;
  std::string extensions_;
  cl_ulong hostTimerResolution_ = 1;
};

namespace lockstep::runtime {

// CLOCK_MONOTONIC in nanoseconds: the clock of profiling, of the host timer
// and of the device timer (they are the same clock on a CPU device).
cl_ulong nowNs() noexcept;

// Lockstep's version, as in "OpenCL 3.0 Lockstep <version>".
std::string_view version();

// The *_WITH_VERSION form of a space-separated list of names.
std::vector<cl_name_version> nameVersions(std::string_view names, cl_version version);
// CL_*_EXTENSIONS_WITH_VERSION of a space-separated list of extensions:
// 1.0.0, but a provisional extension's own version (cl_khr_command_buffer:
// the one api/command_buffer_abi.h implements, which applications such as
// the CTS compare with the one their headers declare).
std::vector<cl_name_version> extensionVersions(std::string_view names);

// CL_INVALID_PLATFORM unless `platform` is Lockstep's (or null where the spec
// lets the implementation choose, then ours).
_cl_platform_id *platformOrDefault(cl_platform_id platform);

}  // namespace lockstep::runtime

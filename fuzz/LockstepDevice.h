// The Lockstep platform and its device, as both fuzz targets find them in
// LLVMFuzzerInitialize: the first OpenCL call makes the ICD loader open the
// driver, so its code (and its coverage counters) is loaded before the
// first input. `die` reports a failure and aborts.
#pragma once

#include <CL/cl.h>

#include <cstring>
#include <vector>

namespace lockstep::fuzz {

template <typename Die>
void findLockstepDevice(cl_platform_id &platform, cl_device_id &device, Die die) {
  cl_uint count = 0;
  cl_int err = clGetPlatformIDs(0, nullptr, &count);
  if (err != CL_SUCCESS || count == 0) die("clGetPlatformIDs (is OCL_ICD_VENDORS set?)", err);
  std::vector<cl_platform_id> platforms(count);
  clGetPlatformIDs(count, platforms.data(), nullptr);
  platform = nullptr;
  for (cl_platform_id candidate : platforms) {
    char name[256] = {};
    clGetPlatformInfo(candidate, CL_PLATFORM_NAME, sizeof name - 1, name, nullptr);
    if (std::strstr(name, "Lockstep")) platform = candidate;
  }
  if (!platform) die("finding the Lockstep platform", CL_INVALID_PLATFORM);
  err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr);
  if (err != CL_SUCCESS) die("clGetDeviceIDs", err);
}

}  // namespace lockstep::fuzz

#include "Platform.h"

#include <time.h>

#include <algorithm>

#include "Device.h"
#include "api/command_buffer_abi.h"
#include "lockstep/compiler/Compiler.h"

_cl_platform_id::_cl_platform_id()
    // cl_khr_icd: the loader requires it. cl_khr_extended_versioning: every
    // *_WITH_VERSION / *_NUMERIC_VERSION query is answered.
    // cl_khr_image2d_from_buffer: the device's (api/image.cpp).
    // cl_intel_unified_shared_memory: api/usm.cpp. The device's
    // cl_khr_suggested_local_work_size (api/suggested_local_size.cpp),
    // cl_khr_device_uuid (api/device_uuid.cpp) and cl_ext_device_fission
    // (api/device_partition.cpp). cl_khr_command_buffer,
    // cl_khr_command_buffer_mutable_dispatch: api/command_buffer*.cpp.
    : extensions_(
          "cl_khr_icd cl_khr_extended_versioning cl_khr_image2d_from_buffer "
          "cl_intel_unified_shared_memory cl_khr_suggested_local_work_size "
          "cl_khr_device_uuid cl_ext_device_fission cl_khr_command_buffer "
          "cl_khr_command_buffer_mutable_dispatch") {
  // cl_khr_il_program: while the SPIR-V translator is installed.
  if (!lockstep::compiler::Compiler::instance().ilVersions().empty()) extensions_ += " cl_khr_il_program";
  timespec resolution{};
  if (clock_getres(CLOCK_MONOTONIC, &resolution) == 0)
    hostTimerResolution_ = cl_ulong(resolution.tv_sec) * 1000000000u + resolution.tv_nsec;
  device_ = new _cl_device_id(this);
  lockstep::runtime::arena::keepForever(device_, sizeof *device_);
}

_cl_platform_id &_cl_platform_id::instance() {
  // Never destroyed: the application may call into the library from its
  // own static destructors, after ours would have run.
  static _cl_platform_id *platform = [] {
    auto *created = new _cl_platform_id();
    lockstep::runtime::arena::keepForever(created, sizeof *created);
    return created;
  }();
  return *platform;
}

namespace lockstep::runtime {

cl_ulong nowNs() noexcept {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return cl_ulong(now.tv_sec) * 1000000000u + cl_ulong(now.tv_nsec);
}

_cl_platform_id *platformOrDefault(cl_platform_id platform) {
  if (platform == nullptr) return &_cl_platform_id::instance();
  return checked(platform);
}

}  // namespace lockstep::runtime

namespace lockstep::runtime {

std::string_view version() { return LOCKSTEP_VERSION; }

std::vector<cl_name_version> nameVersions(std::string_view names, cl_version version) {
  std::vector<cl_name_version> result;
  while (!names.empty()) {
    size_t start = names.find_first_not_of(' ');
    if (start == std::string_view::npos) break;
    size_t end = std::min(names.find(' ', start), names.size());
    std::string_view name = names.substr(start, end - start);
    cl_name_version entry{};
    entry.version = version;
    name.copy(entry.name, std::min(name.size(), size_t(CL_NAME_VERSION_MAX_NAME_SIZE - 1)));
    result.push_back(entry);
    names.remove_prefix(end);
  }
  return result;
}

std::vector<cl_name_version> extensionVersions(std::string_view names) {
  std::vector<cl_name_version> list = nameVersions(names, CL_MAKE_VERSION(1, 0, 0));
  for (cl_name_version &entry : list) {
    if (std::string_view(entry.name) == "cl_khr_command_buffer")
      entry.version = LOCKSTEP_COMMAND_BUFFER_VERSION;
    else if (std::string_view(entry.name) == "cl_khr_command_buffer_mutable_dispatch")
      entry.version = LOCKSTEP_MUTABLE_DISPATCH_VERSION;
    // Version 2.0 of cl_khr_integer_dot_product added the acceleration
    // property queries for packed inputs.
    else if (std::string_view(entry.name) == "cl_khr_integer_dot_product")
      entry.version = CL_MAKE_VERSION(2, 0, 0);
  }
  return list;
}

}  // namespace lockstep::runtime

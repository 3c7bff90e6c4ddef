// Platform queries and the ICD loader's entry points.
#include "Platform.h"

#include <cstring>
#include <string>

#include "api/entry_points.h"

using namespace lockstep::runtime;

namespace lockstep::api {

namespace {

// clGetPlatformIDs and clIcdGetPlatformIDsKHR answer the same.
void listPlatforms(cl_uint numEntries, cl_platform_id *platforms, cl_uint *numPlatforms) {
  // "CL_INVALID_VALUE if num_entries is equal to zero and platforms is not
  // NULL or if both num_platforms and platforms are NULL."
  check(!(numEntries == 0 && platforms != nullptr), CL_INVALID_VALUE);
  check(numPlatforms != nullptr || platforms != nullptr, CL_INVALID_VALUE);
  if (platforms) platforms[0] = &_cl_platform_id::instance();
  if (numPlatforms) *numPlatforms = 1;
}

std::string platformVersion() { return "OpenCL 3.0 Lockstep " + std::string(version()); }

}  // namespace

cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms,
                                    cl_uint *num_platforms) {
  return guarded([&] { listPlatforms(num_entries, platforms, num_platforms); });
}

cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
                                          cl_uint *num_platforms) {
  return guarded([&] { listPlatforms(num_entries, platforms, num_platforms); });
}

cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                                     size_t param_value_size, void *param_value,
                                     size_t *param_value_size_ret) {
  return guarded([&] {
    _cl_platform_id *p = platformOrDefault(platform);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
      case CL_PLATFORM_PROFILE:
        return out.string("FULL_PROFILE");
      case CL_PLATFORM_VERSION:
        return out.string(platformVersion());
      case CL_PLATFORM_NUMERIC_VERSION:
        return out.value<cl_version>(CL_MAKE_VERSION(3, 0, 0));
      case CL_PLATFORM_NAME:
        return out.string("Lockstep");
      case CL_PLATFORM_VENDOR:
        return out.string("The Lockstep project");
      case CL_PLATFORM_EXTENSIONS:
        return out.string(p->extensions());
      case CL_PLATFORM_EXTENSIONS_WITH_VERSION: {
        auto list = extensionVersions(p->extensions());
        return out.array<cl_name_version>(list);
      }
      case CL_PLATFORM_HOST_TIMER_RESOLUTION:
        return out.value<cl_ulong>(p->hostTimerResolution());
      case CL_PLATFORM_ICD_SUFFIX_KHR:
        return out.string("LOCKSTEP");
      default:
        fail(CL_INVALID_VALUE);
    }
  });
}

void *CL_API_CALL clGetExtensionFunctionAddress(const char *func_name) {
  if (func_name == nullptr) return nullptr;
#define LOCKSTEP_LOOKUP(name) \
  if (std::strcmp(func_name, #name) == 0) return reinterpret_cast<void *>(&name);
  LOCKSTEP_EXTENSION_FUNCTIONS(LOCKSTEP_LOOKUP)
#undef LOCKSTEP_LOOKUP
  return nullptr;
}

void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                           const char *func_name) {
  if (!isValid(platform)) return nullptr;
  return clGetExtensionFunctionAddress(func_name);
}

// Both are hints that compiler resources may be freed. The in-process
// compiler keeps nothing that must be unloaded, so honouring the hint is
// doing nothing, as the spec allows.
cl_int CL_API_CALL clUnloadCompiler(void) { return CL_SUCCESS; }

cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  return guarded([&] { checked(platform); });
}

}  // namespace lockstep::api

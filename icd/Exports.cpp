// The only symbols liblockstep.so exports (lockstep.map): what an ICD loader
// looks up by name. Everything else is reached through the dispatch table.
#include "api/entry_points.h"

#define LOCKSTEP_EXPORT extern "C" __attribute__((visibility("default")))

LOCKSTEP_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                          cl_platform_id *platforms,
                                                          cl_uint *num_platforms) {
  return lockstep::api::clIcdGetPlatformIDsKHR(num_entries, platforms, num_platforms);
}

LOCKSTEP_EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform,
                                                     cl_platform_info param_name,
                                                     size_t param_value_size, void *param_value,
                                                     size_t *param_value_size_ret) {
  return lockstep::api::clGetPlatformInfo(platform, param_name, param_value_size, param_value,
                                          param_value_size_ret);
}

LOCKSTEP_EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *func_name) {
  return lockstep::api::clGetExtensionFunctionAddress(func_name);
}

LOCKSTEP_EXPORT void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                                           const char *func_name) {
  return lockstep::api::clGetExtensionFunctionAddressForPlatform(platform, func_name);
}

// Contexts.
#include "Context.h"

#include <algorithm>

#include "Device.h"
#include "Platform.h"
#include "api/entry_points.h"

using namespace lockstep::runtime;

namespace lockstep::api {

namespace {

// Validates a context properties list and returns a copy with its
// terminator (empty if `properties` is null). CL_INVALID_PLATFORM /
// CL_INVALID_PROPERTY as clCreateContext describes.
std::vector<cl_context_properties> contextProperties(const cl_context_properties *properties) {
  std::vector<cl_context_properties> copy;
  if (!properties) return copy;
  bool seenPlatform = false, seenUserSync = false;
  for (const cl_context_properties *p = properties; *p != 0; p += 2) {
    switch (p[0]) {
      case CL_CONTEXT_PLATFORM:
        check(!seenPlatform, CL_INVALID_PROPERTY);
        seenPlatform = true;
        check(isValid(reinterpret_cast<cl_platform_id>(p[1])), CL_INVALID_PLATFORM);
        break;
      case CL_CONTEXT_INTEROP_USER_SYNC:
        check(!seenUserSync, CL_INVALID_PROPERTY);
        seenUserSync = true;
        check(p[1] == CL_TRUE || p[1] == CL_FALSE, CL_INVALID_PROPERTY);
        break;
      default:
        fail(CL_INVALID_PROPERTY);  // e.g. GL sharing: not offered
    }
    copy.insert(copy.end(), p, p + 2);
  }
  copy.push_back(0);
  return copy;
}

cl_context makeContext(std::vector<cl_device_id> devices,
                       std::vector<cl_context_properties> properties, _cl_context::NotifyFn notify,
                       void *userData) {
  return new _cl_context(std::move(devices), std::move(properties), notify, userData);
}

}  // namespace

cl_context CL_API_CALL clCreateContext(const cl_context_properties *properties, cl_uint num_devices,
                                       const cl_device_id *devices,
                                       void(CL_CALLBACK *pfn_notify)(const char *, const void *,
                                                                     size_t, void *),
                                       void *user_data, cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&] {
    auto props = contextProperties(properties);
    check(devices != nullptr && num_devices != 0, CL_INVALID_VALUE);
    check(pfn_notify != nullptr || user_data == nullptr, CL_INVALID_VALUE);
    std::vector<cl_device_id> list;
    for (cl_uint i = 0; i < num_devices; ++i) {
      checked(devices[i]);
      // "Duplicate devices specified in devices are ignored."
      if (std::find(list.begin(), list.end(), devices[i]) == list.end()) list.push_back(devices[i]);
    }
    return makeContext(std::move(list), std::move(props), pfn_notify, user_data);
  });
}

cl_context CL_API_CALL
clCreateContextFromType(const cl_context_properties *properties, cl_device_type device_type,
                        void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *),
                        void *user_data, cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&] {
    auto props = contextProperties(properties);
    check(pfn_notify != nullptr || user_data == nullptr, CL_INVALID_VALUE);
    // The device types and their errors are clGetDeviceIDs'.
    cl_uint count = 0;
    cl_int error =
        api::clGetDeviceIDs(&_cl_platform_id::instance(), device_type, 0, nullptr, &count);
    check(error == CL_SUCCESS, error);
    std::vector<cl_device_id> list(count);
    error =
        api::clGetDeviceIDs(&_cl_platform_id::instance(), device_type, count, list.data(), nullptr);
    check(error == CL_SUCCESS, error);
    return makeContext(std::move(list), std::move(props), pfn_notify, user_data);
  });
}

cl_int CL_API_CALL clRetainContext(cl_context context) {
  return guarded([&] { checked(context)->retain(); });
}

cl_int CL_API_CALL clReleaseContext(cl_context context) {
  return guarded([&] { checked(context)->release(); });
}

cl_int CL_API_CALL clGetContextInfo(cl_context context, cl_context_info param_name,
                                    size_t param_value_size, void *param_value,
                                    size_t *param_value_size_ret) {
  return guarded([&] {
    checked(context);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
      case CL_CONTEXT_REFERENCE_COUNT:
        return out.value<cl_uint>(context->referenceCount());
      case CL_CONTEXT_NUM_DEVICES:
        return out.value<cl_uint>(cl_uint(context->devices().size()));
      case CL_CONTEXT_DEVICES:
        return out.array<cl_device_id>(context->devices());
      case CL_CONTEXT_PROPERTIES:
        return out.array<cl_context_properties>(context->properties());
      default:
        fail(CL_INVALID_VALUE);
    }
  });
}

cl_int CL_API_CALL clSetContextDestructorCallback(cl_context context,
                                                  void(CL_CALLBACK *pfn_notify)(cl_context, void *),
                                                  void *user_data) {
  return guarded([&] {
    checked(context);
    check(pfn_notify != nullptr, CL_INVALID_VALUE);
    context->addDestructorCallback(pfn_notify, user_data);
  });
}

}  // namespace lockstep::api

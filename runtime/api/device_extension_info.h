// clGetDeviceInfo's queries that belong to OpenCL C extensions of the
// builtin library (cl_khr_integer_dot_product, cl_ext_float_atomics,
// cl_khr_kernel_clock). The version each extension reports is
// runtime::extensionVersions (Platform.cpp).
#pragma once

#include <string_view>

#include "Object.h"

namespace lockstep::api {

// Answers `param` if it is one of these extensions' queries and the device
// lists the extension; false otherwise (the caller fails CL_INVALID_VALUE).
bool extensionDeviceInfo(cl_device_info param, const runtime::InfoWriter &out);

}  // namespace lockstep::api

// clGetDeviceInfo's queries answered outside api/device.cpp: memory and
// images (api/device_memory_info.cpp), and those of device extensions,
// beside the code of their extension. Each returns false for a query not
// its own.
#pragma once

#include <CL/cl_ext.h>

#include "Object.h"

namespace lockstep::api {

// Memory: sizes, caches, alignment, arguments, SVM; pipes (absent).
bool memoryInfo(cl_device_id d, cl_device_info param, const runtime::InfoWriter &out);
// Images and samplers.
bool imageInfo(cl_device_id d, cl_device_info param, const runtime::InfoWriter &out);

// cl_khr_device_uuid (api/device_uuid.cpp).
bool uuidInfo(cl_device_id d, cl_device_info param, const runtime::InfoWriter &out);

// cl_ext_device_fission's queries (api/device_partition.cpp).
bool fissionInfo(cl_device_id d, cl_device_info param, const runtime::InfoWriter &out);

}  // namespace lockstep::api

// The clGetDeviceInfo queries of device extensions, answered beside the
// code of their extension: each returns false for a query not its own.
#pragma once

#include <CL/cl_ext.h>

#include "Object.h"

namespace lockstep::api {

// cl_khr_device_uuid (api/device_uuid.cpp).
bool uuidInfo(cl_device_id d, cl_device_info param, const runtime::InfoWriter &out);

// cl_ext_device_fission's queries (api/device_partition.cpp).
bool fissionInfo(cl_device_id d, cl_device_info param, const runtime::InfoWriter &out);

}  // namespace lockstep::api

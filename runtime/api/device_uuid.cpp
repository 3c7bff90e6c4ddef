// cl_khr_device_uuid's device queries: the device's and the driver's UUIDs
// (runtime/DeviceUuid.h says what they are made from). A CPU device has no
// locally unique identifier of the Windows kind: CL_DEVICE_LUID_VALID_KHR is
// CL_FALSE, and the LUID and node mask, which the spec leaves undefined
// then, are zero.
#include "Device.h"
#include "api/device_info.h"

namespace lockstep::api {

using namespace runtime;

bool uuidInfo(cl_device_id d, cl_device_info param, const InfoWriter &out) {
  switch (param) {
    case CL_DEVICE_UUID_KHR:
      out.bytes(d->uuid.data(), d->uuid.size());
      return true;
    case CL_DRIVER_UUID_KHR: {
      static const uuid::Uuid driver = uuid::driver();
      out.bytes(driver.data(), driver.size());
      return true;
    }
    case CL_DEVICE_LUID_VALID_KHR:
      out.value<cl_bool>(CL_FALSE);
      return true;
    case CL_DEVICE_LUID_KHR: {
      const cl_uchar none[CL_LUID_SIZE_KHR] = {};
      out.bytes(none, sizeof none);
      return true;
    }
    case CL_DEVICE_NODE_MASK_KHR:
      out.value<cl_uint>(0);
      return true;
  }
  return false;
}

}  // namespace lockstep::api

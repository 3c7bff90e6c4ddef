// clGetDeviceInfo's queries of the OpenCL C extensions the builtin library
// implements (builtins/lib/integer_dot.cl, atomic_c11.cl, kernel_clock.cl),
// each answered only while the device lists its extension
// (cmake/LockstepFeatures.cmake), and the extensions' reported versions.
#include "api/device_extension_info.h"

#include <CL/cl_ext.h>

#include <algorithm>
#include <string>

#include "lockstep/compiler/Compiler.h"

// Newer than some installed OpenCL headers (values from the Khronos
// registry's cl_ext.h).
#ifndef CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT
#define CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 0)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT (1 << 1)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT (1 << 2)
#define CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 16)
#define CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT (1 << 17)
#define CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT (1 << 18)
#define CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT 0x4231
#define CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT 0x4232
#define CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT 0x4233
typedef cl_bitfield cl_device_fp_atomic_capabilities_ext;
#endif
#ifndef CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR
#define CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR 0x1076
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR (1 << 0)
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR (1 << 1)
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR (1 << 2)
typedef cl_bitfield cl_device_kernel_clock_capabilities_khr;
#endif

using lockstep::compiler::Compiler;

namespace lockstep::api {
namespace {

bool listed(std::string_view name) {
  const auto &list = Compiler::instance().languageSupport().extensions;
  return std::find(list.begin(), list.end(), name) != list.end();
}

// atomic_load/store/exchange and atomic_fetch_add/sub/min/max of atomic_float
// and atomic_double, on __global, __local and generic objects (the library
// defines every form; __local ones become plain accesses, as the group's
// work-items run on one thread: LocalAtomicLowering.cpp).
constexpr cl_device_fp_atomic_capabilities_ext kFpAtomics =
    CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT | CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT |
    CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT |
    CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT;

}  // namespace

bool extensionDeviceInfo(cl_device_info param, const runtime::InfoWriter &out) {
  switch (param) {
    case CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR:
      if (!listed("cl_khr_integer_dot_product")) return false;
      out.value<cl_device_integer_dot_product_capabilities_khr>(CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR |
                                                               CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR);
      return true;
    case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR:
    case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR:
      // None is accelerated: the builtins are the multiplies and adds an
      // application would write itself, which the compiler vectorizes alike.
      if (!listed("cl_khr_integer_dot_product")) return false;
      out.value(cl_device_integer_dot_product_acceleration_properties_khr{});
      return true;
    case CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT:
      if (!listed("cl_ext_float_atomics")) return false;
      out.value<cl_device_fp_atomic_capabilities_ext>(kFpAtomics);
      return true;
    case CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT:
      if (!listed("cl_ext_float_atomics")) return false;
      out.value<cl_device_fp_atomic_capabilities_ext>(Compiler::instance().languageSupport().fp64 ? kFpAtomics : 0);
      return true;
    case CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT:
      // No cl_khr_fp16, so no half atomics.
      if (!listed("cl_ext_float_atomics")) return false;
      out.value<cl_device_fp_atomic_capabilities_ext>(0);
      return true;
    case CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR:
      // One process-wide monotonic clock serves every scope
      // (builtins/lib/kernel_clock.cl).
      if (!listed("cl_khr_kernel_clock")) return false;
      out.value<cl_device_kernel_clock_capabilities_khr>(CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR |
                                                         CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR |
                                                         CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR);
      return true;
  }
  return false;
}

}  // namespace lockstep::api

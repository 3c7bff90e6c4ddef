// Device discovery and queries, and timers (making sub-devices is
// api/device_partition.cpp's). Most of its length is clGetDeviceInfo's answer to
// each of the ~100 queries the specification lists, one case each.
#include "Device.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "Platform.h"
#include "exec/DeviceEnqueue.h"
#include "api/command_buffer_mutable.h"
#include "api/command_buffer_queues.h"
#include "api/device_extension_info.h"
#include "api/device_info.h"
#include "api/entry_points.h"
#include "lockstep/compiler/Compiler.h"

using namespace lockstep::runtime;
using lockstep::compiler::Compiler;

namespace lockstep::api {

namespace {

constexpr cl_device_fp_config kFpConfig = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                          CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA;
// Every order and scope. All devices: the host's threads and the kernels'
// share coherent memory, so an atomic of that scope on SVM memory is one
// x86 locked instruction for both (Clang makes it a system-scope atomic);
// the compiler reports __opencl_c_atomic_scope_all_devices to match
// (cmake/LockstepFeatures.cmake).
constexpr cl_device_atomic_capabilities kAtomicOrdersAndScopes =
    CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
    CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
    CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;

bool fp64() { return Compiler::instance().languageSupport().fp64; }
bool fp16() { return Compiler::instance().languageSupport().fp16; }

// half (cl_khr_fp16, docs/half.md): arithmetic is done in float and rounded
// once to half, which is correctly rounded for + - * / and sqrt and keeps
// half's denormals (normal floats); fma is correctly rounded (builtins/lib/
// half_math.cl). Only round to nearest even is the arithmetic's mode.
constexpr cl_device_fp_config kHalfFpConfig =
    CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA;

// What SPIR-V programs add to CL_DEVICE_EXTENSIONS: cl_khr_il_program, and
// the SPIR-V extensions of the OpenCL environment the translator reads and
// the CTS's spirv_new suite passes with (cl_khr_expect_assume, which is
// OpenCL C's too, is in the compiler's list).
constexpr const char *ilExtensions() {
  return "cl_khr_il_program cl_khr_spirv_no_integer_wrap_decoration cl_khr_spirv_linkonce_odr";
}

// CL_DEVICE_EXTENSIONS: what the kernel language offers (the compiler's
// list) and the API-level extensions fully implemented here.
std::string deviceExtensions() {
  std::string list;
  for (const std::string &name : Compiler::instance().languageSupport().extensions)
    list += name + " ";
  // cl_khr_image2d_from_buffer: clCreateImage takes a buffer as a 2D
  // image's mem_object (api/image.cpp).
  list += "cl_khr_extended_versioning cl_khr_image2d_from_buffer";
  // cl_intel_unified_shared_memory: USM allocations are SVM's host memory
  // (api/usm.cpp).
  list += " cl_intel_unified_shared_memory";
  // cl_khr_suggested_local_work_size: the local size a launch with a NULL
  // one would use (api/suggested_local_size.cpp). cl_khr_device_uuid:
  // api/device_uuid.cpp. cl_ext_device_fission: api/device_partition.cpp.
  list += " cl_khr_suggested_local_work_size cl_khr_device_uuid cl_ext_device_fission";
  // cl_khr_command_buffer 0.9.8 (api/command_buffer.cpp) and
  // cl_khr_command_buffer_mutable_dispatch 0.9.5
  // (api/command_buffer_mutable.cpp).
  list += " cl_khr_command_buffer cl_khr_command_buffer_mutable_dispatch";
  // SPIR-V programs, while the translator is installed (docs/spirv.md).
  if (!Compiler::instance().ilVersions().empty()) list += " " + std::string(ilExtensions());
  return list;
}

// CL_DEVICE_IL_VERSION: "SPIR-V_1.0 SPIR-V_1.1 ...".
std::string ilVersionString() {
  std::string list;
  for (auto [major, minor] : Compiler::instance().ilVersions())
    list += (list.empty() ? "" : " ") + std::string("SPIR-V_") + std::to_string(major) + "." + std::to_string(minor);
  return list;
}

std::vector<cl_name_version> ilsWithVersion() {
  std::vector<cl_name_version> list;
  for (auto [major, minor] : Compiler::instance().ilVersions()) {
    cl_name_version entry{};
    entry.version = CL_MAKE_VERSION(major, minor, 0);
    std::strcpy(entry.name, "SPIR-V");
    list.push_back(entry);
  }
  return list;
}

std::string deviceVersion() { return "OpenCL 3.0 Lockstep " + std::string(version()); }

std::vector<cl_name_version> openclCVersions() {
  std::vector<cl_name_version> list;
  std::vector<cl_version> versions = {CL_MAKE_VERSION(1, 0, 0), CL_MAKE_VERSION(1, 1, 0),
                                      CL_MAKE_VERSION(1, 2, 0)};
  // OpenCL C 2.0 once every feature it requires is there (Compiler.h).
  if (Compiler::instance().languageSupport().openclC20) versions.push_back(CL_MAKE_VERSION(2, 0, 0));
  versions.push_back(CL_MAKE_VERSION(3, 0, 0));
  for (cl_version v : versions) {
    cl_name_version entry{};
    entry.version = v;
    std::strcpy(entry.name, "OpenCL C");  // one name with a space: not nameVersions()
    list.push_back(entry);
  }
  return list;
}

std::vector<cl_name_version> openclCFeatures() {
  std::string names;
  for (const std::string &name : Compiler::instance().languageSupport().features)
    names += name + " ";
  return nameVersions(names, CL_MAKE_VERSION(3, 0, 0));
}

bool matchesType(cl_device_type type) {
  return type == CL_DEVICE_TYPE_ALL || (type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT));
}

}  // namespace

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type,
                                  cl_uint num_entries, cl_device_id *devices,
                                  cl_uint *num_devices) {
  return guarded([&] {
    _cl_platform_id *p = platformOrDefault(platform);
    constexpr cl_device_type kKnownTypes = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU |
                                           CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR |
                                           CL_DEVICE_TYPE_CUSTOM;
    check(device_type == CL_DEVICE_TYPE_ALL || (device_type && !(device_type & ~kKnownTypes)),
          CL_INVALID_DEVICE_TYPE);
    check(!(num_entries == 0 && devices != nullptr), CL_INVALID_VALUE);
    check(devices != nullptr || num_devices != nullptr, CL_INVALID_VALUE);
    check(matchesType(device_type), CL_DEVICE_NOT_FOUND);
    cl_uint count = 0;
    for (cl_device_id device : p->devices()) {
      if (devices && count < num_entries) devices[count] = device;
      ++count;
    }
    if (num_devices) *num_devices = count;
  });
}

namespace {

// Identity, versions and the language. False if not one of these queries.
bool identityInfo(cl_device_id d, cl_device_info param, const InfoWriter &out) {
  switch (param) {
    case CL_DEVICE_TYPE:
      out.value<cl_device_type>(CL_DEVICE_TYPE_CPU);
      return true;
    case CL_DEVICE_VENDOR_ID:
      out.value<cl_uint>(d->vendorId);
      return true;
    case CL_DEVICE_NAME:
      out.string(d->name);
      return true;
    case CL_DEVICE_VENDOR:
      out.string(d->vendor);
      return true;
    case CL_DRIVER_VERSION:
      out.string(version());
      return true;
    case CL_DEVICE_PROFILE:
      out.string("FULL_PROFILE");
      return true;
    case CL_DEVICE_VERSION:
      out.string(deviceVersion());
      return true;
    case CL_DEVICE_NUMERIC_VERSION:
      out.value<cl_version>(CL_MAKE_VERSION(3, 0, 0));
      return true;
    case CL_DEVICE_OPENCL_C_VERSION:
      out.string("OpenCL C 1.2 ");
      return true;
    case CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR:
      out.value<cl_version>(CL_MAKE_VERSION(1, 2, 0));
      return true;
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
      out.array<cl_name_version>(openclCVersions());
      return true;
    case CL_DEVICE_OPENCL_C_FEATURES:
      out.array<cl_name_version>(openclCFeatures());
      return true;
    case CL_DEVICE_EXTENSIONS:
      out.string(deviceExtensions());
      return true;
    case CL_DEVICE_EXTENSIONS_WITH_VERSION:
      out.array<cl_name_version>(extensionVersions(deviceExtensions()));
      return true;
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
      // No conformance submission has been made.
      out.string("v0000-01-01-00");
      return true;
    case CL_DEVICE_PLATFORM:
      out.value<cl_platform_id>(d->platform());
      return true;
    case CL_DEVICE_AVAILABLE:
    case CL_DEVICE_COMPILER_AVAILABLE:
    case CL_DEVICE_LINKER_AVAILABLE:
    case CL_DEVICE_ENDIAN_LITTLE:
    case CL_DEVICE_HOST_UNIFIED_MEMORY:
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
      out.value<cl_bool>(CL_TRUE);
      return true;
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
      out.value<cl_bool>(CL_FALSE);
      return true;
    case CL_DEVICE_BUILT_IN_KERNELS:
      out.string("");
      return true;
    case CL_DEVICE_IL_VERSION:
      out.string(ilVersionString());
      return true;
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
      out.array<cl_name_version>({});
      return true;
    case CL_DEVICE_ILS_WITH_VERSION:
      out.array<cl_name_version>(ilsWithVersion());
      return true;
  }
  return false;
}

// Compute: work-groups, vector widths, floating point, atomics.
bool computeInfo(cl_device_id d, cl_device_info param, const InfoWriter &out) {
  const bool doubles = fp64();
  const bool halves = fp16();
  switch (param) {
    case CL_DEVICE_MAX_COMPUTE_UNITS:
      out.value<cl_uint>(d->computeUnits);
      return true;
    case CL_DEVICE_MAX_CLOCK_FREQUENCY:
      out.value<cl_uint>(d->maxClockMHz);
      return true;
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
      out.value<cl_uint>(_cl_device_id::kMaxWorkItemDimensions);
      return true;
    case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
      const size_t sizes[3] = {_cl_device_id::kMaxWorkGroupSize, _cl_device_id::kMaxWorkGroupSize,
                               _cl_device_id::kMaxWorkGroupSize};
      out.array<size_t>(sizes);
      return true;
    }
    case CL_DEVICE_MAX_WORK_GROUP_SIZE:
      out.value<size_t>(_cl_device_id::kMaxWorkGroupSize);
      return true;
    case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
      out.value<size_t>(d->preferredVectorWidth[4]);  // floats per vector register
      return true;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
      out.value<cl_uint>(d->preferredVectorWidth[param - CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR]);
      return true;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
      out.value<cl_uint>(doubles ? d->preferredVectorWidth[5] : 0);
      return true;
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
      out.value<cl_uint>(d->nativeVectorWidth[param - CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR]);
      return true;
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
      out.value<cl_uint>(doubles ? d->nativeVectorWidth[5] : 0);
      return true;
    // half vectors are computed as float vectors of the same length (F16C
    // converts a register's worth at a time): float's widths.
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
      out.value<cl_uint>(halves ? d->preferredVectorWidth[4] : 0);
      return true;
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
      out.value<cl_uint>(halves ? d->nativeVectorWidth[4] : 0);
      return true;
    case CL_DEVICE_SINGLE_FP_CONFIG:
      out.value<cl_device_fp_config>(kFpConfig);
      return true;
    case CL_DEVICE_DOUBLE_FP_CONFIG:
      out.value<cl_device_fp_config>(doubles ? kFpConfig : 0);
      return true;
    case CL_DEVICE_HALF_FP_CONFIG:
      out.value<cl_device_fp_config>(halves ? kHalfFpConfig : 0);
      return true;
    case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
      out.value<cl_device_atomic_capabilities>(kAtomicOrdersAndScopes);
      return true;
    case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
      out.value<cl_device_atomic_capabilities>(kAtomicOrdersAndScopes |
                                               CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM);
      return true;
    case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
    case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
      out.value<cl_bool>(CL_TRUE);
      return true;
    case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
      out.value<cl_bool>(compiler::Compiler::instance().languageSupport().workGroupCollectives);
      return true;
    case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
      // Sub-groups of a group run one after another on one thread.
      out.value<cl_bool>(CL_FALSE);
      return true;
    case CL_DEVICE_PIPE_SUPPORT: {
      // Pipes (api/pipe.cpp) are there when the compiler offers
      // __opencl_c_pipes (cmake/LockstepFeatures.cmake).
      const std::vector<std::string> &features = compiler::Compiler::instance().languageSupport().features;
      bool pipes = std::find(features.begin(), features.end(), "__opencl_c_pipes") != features.end();
      out.value<cl_bool>(pipes ? CL_TRUE : CL_FALSE);
      return true;
    }
    case CL_DEVICE_MAX_NUM_SUB_GROUPS: {
      uint32_t size = compiler::Compiler::instance().languageSupport().subGroupSize;
      out.value<cl_uint>(size ? cl_uint((_cl_device_id::kMaxWorkGroupSize + size - 1) / size) : 0);
      return true;
    }
    case CL_DEVICE_EXECUTION_CAPABILITIES:
      out.value<cl_device_exec_capabilities>(CL_EXEC_KERNEL);
      return true;
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
      out.value<size_t>(d->platform()->hostTimerResolution());
      return true;
  }
  return false;
}

}  // namespace
}  // namespace lockstep::api

namespace lockstep::api {
namespace {

// Queues, command-buffers, device-side enqueue (absent) and partitioning.
bool queueAndPartitionInfo(cl_device_id d, cl_device_info param, const InfoWriter &out) {
  switch (param) {
    case CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR:
      // printf works in a recorded kernel as in any other; replays may
      // overlap (simultaneous use); device-side enqueue is not offered at
      // all.
      out.value<cl_device_command_buffer_capabilities_khr>(
          CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR | khr::kCapabilitySimultaneousUse);
      return true;
    case CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR:
      out.value<cl_mutable_dispatch_fields_khr>(kMutableDispatchCapabilities);
      return true;
    case CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR:
      out.value<cl_command_queue_properties>(kCommandBufferSupportedQueueProperties);
      return true;
    case CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR:
      out.value<cl_command_queue_properties>(kCommandBufferRequiredQueueProperties);
      return true;
    case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:  // == CL_DEVICE_QUEUE_PROPERTIES
      out.value<cl_command_queue_properties>(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                             CL_QUEUE_PROFILING_ENABLE);
      return true;
    // Device-side enqueue (exec/DeviceEnqueue.h, which holds the limits).
    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
      out.value<cl_command_queue_properties>(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                             CL_QUEUE_PROFILING_ENABLE);
      return true;
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
      out.value<cl_uint>(kDeviceQueuePreferredSize);
      return true;
    case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
      out.value<cl_uint>(kDeviceQueueMaxSize);
      return true;
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
      out.value<cl_uint>(kMaxDeviceQueues);
      return true;
    case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
      out.value<cl_uint>(kMaxDeviceEvents);
      return true;
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
      // A sub-device per compute unit at most (EQUALLY 1).
      out.value<cl_uint>(d->computeUnits);
      return true;
    case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
      out.value<cl_device_device_enqueue_capabilities>(CL_DEVICE_QUEUE_SUPPORTED |
                                                       CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT);
      return true;
    case CL_DEVICE_PARTITION_PROPERTIES: {
      // Affinity domains where one partitions the device (sysfs).
      std::vector<cl_device_partition_property> types = {CL_DEVICE_PARTITION_EQUALLY,
                                                         CL_DEVICE_PARTITION_BY_COUNTS};
      if (d->affinityDomains()) types.push_back(CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN);
      out.array<cl_device_partition_property>(types);
      return true;
    }
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
      out.value<cl_device_affinity_domain>(d->affinityDomains());
      return true;
    case CL_DEVICE_PARTITION_TYPE:
      // A root device: "may return a param_value_size_ret of 0"; a
      // sub-device: the properties it was made with (terminated).
      out.array<cl_device_partition_property>(d->partitionType());
      return true;
    case CL_DEVICE_PARENT_DEVICE:
      out.value<cl_device_id>(d->parent());
      return true;
    case CL_DEVICE_REFERENCE_COUNT:
      out.value<cl_uint>(d->applicationReferences());
      return true;
  }
  return false;
}

}  // namespace

cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param_name,
                                   size_t param_value_size, void *param_value,
                                   size_t *param_value_size_ret) {
  return guarded([&] {
    checked(device);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    if (identityInfo(device, param_name, out) || computeInfo(device, param_name, out) ||
        memoryInfo(device, param_name, out) || imageInfo(device, param_name, out) ||
        queueAndPartitionInfo(device, param_name, out) || uuidInfo(device, param_name, out) ||
        fissionInfo(device, param_name, out) || extensionDeviceInfo(param_name, out))
      return;
    fail(CL_INVALID_VALUE);
  });
}

// Counted for sub-devices; for root devices they succeed and change nothing.
cl_int CL_API_CALL clRetainDevice(cl_device_id device) {
  return guarded([&] { checked(device)->retainByApplication(); });
}
cl_int CL_API_CALL clReleaseDevice(cl_device_id device) {
  return guarded([&] { checked(device)->releaseByApplication(); });
}
cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id device, cl_ulong *device_timestamp,
                                           cl_ulong *host_timestamp) {
  return guarded([&] {
    checked(device);
    check(device_timestamp != nullptr && host_timestamp != nullptr, CL_INVALID_VALUE);
    // The device is this CPU: one clock serves both, read once.
    *device_timestamp = *host_timestamp = nowNs();
  });
}

cl_int CL_API_CALL clGetHostTimer(cl_device_id device, cl_ulong *host_timestamp) {
  return guarded([&] {
    checked(device);
    check(host_timestamp != nullptr, CL_INVALID_VALUE);
    *host_timestamp = nowNs();
  });
}

}  // namespace lockstep::api

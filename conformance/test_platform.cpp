// Platform and device queries: the values a program relies on are sane and
// consistent with each other, and every query of the OpenCL 3.0 tables answers
// CL_SUCCESS with the size its type has.
#include <CL/cl_ext.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <sstream>

#include "ClTest.h"

namespace lockstep::test {
namespace {

std::set<std::string> words(const std::string &text) {
  std::istringstream stream(text);
  std::set<std::string> out;
  for (std::string word; stream >> word;) out.insert(word);
  return out;
}

TEST(Platform, IsFoundThroughTheLoader) {
  cl_uint count = 0;
  ASSERT_CL(clGetPlatformIDs(0, nullptr, &count));
  ASSERT_GE(count, 1u);
  ASSERT_NE(testPlatform(), nullptr) << "no platform named like LOCKSTEP_TEST_PLATFORM";
}

TEST(Platform, StringsAreSane) {
  cl_platform_id platform = testPlatform();
  ASSERT_NE(platform, nullptr);
  EXPECT_EQ(platformString(platform, CL_PLATFORM_PROFILE), "FULL_PROFILE");
  EXPECT_EQ(platformString(platform, CL_PLATFORM_VERSION).rfind("OpenCL 3.0 ", 0), 0u)
      << platformString(platform, CL_PLATFORM_VERSION);
  EXPECT_FALSE(platformString(platform, CL_PLATFORM_NAME).empty());
  EXPECT_FALSE(platformString(platform, CL_PLATFORM_VENDOR).empty());
  EXPECT_TRUE(words(platformString(platform, CL_PLATFORM_EXTENSIONS)).count("cl_khr_icd"));
  EXPECT_FALSE(platformString(platform, CL_PLATFORM_ICD_SUFFIX_KHR).empty());
  cl_version version = 0;
  ASSERT_CL(
      clGetPlatformInfo(platform, CL_PLATFORM_NUMERIC_VERSION, sizeof(version), &version, nullptr));
  EXPECT_EQ(CL_VERSION_MAJOR(version), 3u);
  EXPECT_EQ(CL_VERSION_MINOR(version), 0u);
}

// CL_*_EXTENSIONS_WITH_VERSION must name exactly the extensions of the string.
void expectSameExtensions(const std::string &list, const std::vector<cl_name_version> &named) {
  std::set<std::string> fromVersions;
  for (const cl_name_version &entry : named) {
    EXPECT_NE(entry.version, 0u) << entry.name;
    fromVersions.insert(entry.name);
  }
  EXPECT_EQ(words(list), fromVersions);
}

TEST(Platform, ExtensionsWithVersionMatchTheString) {
  cl_platform_id platform = testPlatform();
  ASSERT_NE(platform, nullptr);
  size_t size = 0;
  ASSERT_CL(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, 0, nullptr, &size));
  ASSERT_EQ(size % sizeof(cl_name_version), 0u);
  std::vector<cl_name_version> named(size / sizeof(cl_name_version));
  ASSERT_CL(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, size, named.data(),
                              nullptr));
  expectSameExtensions(platformString(platform, CL_PLATFORM_EXTENSIONS), named);
}

TEST(Device, IsOneCpuDevice) {
  cl_platform_id platform = testPlatform();
  ASSERT_NE(platform, nullptr);
  cl_uint all = 0, cpus = 0;
  ASSERT_CL(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &all));
  ASSERT_CL(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 0, nullptr, &cpus));
  EXPECT_GE(all, 1u);
  EXPECT_EQ(all, cpus);
  cl_device_id device = testDevice();
  EXPECT_EQ(deviceInfo<cl_device_type>(device, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU,
            CL_DEVICE_TYPE_CPU);
  EXPECT_EQ(deviceInfo<cl_platform_id>(device, CL_DEVICE_PLATFORM), platform);
  EXPECT_EQ(deviceInfo<cl_device_id>(device, CL_DEVICE_PARENT_DEVICE), nullptr);
}

TEST(Device, LimitsMeetTheFullProfileMinimums) {
  cl_device_id device = testDevice();
  ASSERT_NE(device, nullptr);
  EXPECT_GE(deviceInfo<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS), 1u);
  cl_uint dims = deviceInfo<cl_uint>(device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  ASSERT_GE(dims, 3u);
  size_t maxGroup = deviceInfo<size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  EXPECT_GE(maxGroup, 256u) << "the tests use work-groups of 256";
  std::vector<size_t> itemSizes(dims);
  ASSERT_CL(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, dims * sizeof(size_t),
                            itemSizes.data(), nullptr));
  EXPECT_GE(itemSizes[0], 1u);
  EXPECT_LE(itemSizes[0], maxGroup);
  cl_ulong globalMem = deviceInfo<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE);
  cl_ulong maxAlloc = deviceInfo<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  EXPECT_GE(maxAlloc, std::max<cl_ulong>(globalMem / 4, 128u << 20));
  EXPECT_LE(maxAlloc, globalMem);
  EXPECT_GE(deviceInfo<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE), 32u * 1024);
  EXPECT_EQ(deviceInfo<cl_device_local_mem_type>(device, CL_DEVICE_LOCAL_MEM_TYPE) &
                (CL_LOCAL | CL_GLOBAL),
            deviceInfo<cl_device_local_mem_type>(device, CL_DEVICE_LOCAL_MEM_TYPE));
  EXPECT_GE(deviceInfo<cl_ulong>(device, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE), 64u * 1024);
  EXPECT_GE(deviceInfo<cl_uint>(device, CL_DEVICE_MAX_CONSTANT_ARGS), 8u);
  EXPECT_GE(deviceInfo<size_t>(device, CL_DEVICE_MAX_PARAMETER_SIZE), 1024u);
  cl_uint align = deviceInfo<cl_uint>(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN);
  EXPECT_GE(align, 8u * sizeof(cl_long16));
  EXPECT_EQ(deviceInfo<cl_uint>(device, CL_DEVICE_ADDRESS_BITS), 64u);
  EXPECT_EQ(deviceInfo<cl_bool>(device, CL_DEVICE_ENDIAN_LITTLE), CL_TRUE);
  EXPECT_EQ(deviceInfo<cl_bool>(device, CL_DEVICE_AVAILABLE), CL_TRUE);
  EXPECT_EQ(deviceInfo<cl_bool>(device, CL_DEVICE_COMPILER_AVAILABLE), CL_TRUE);
  EXPECT_EQ(deviceInfo<cl_bool>(device, CL_DEVICE_LINKER_AVAILABLE), CL_TRUE);
  cl_device_fp_config single = deviceInfo<cl_device_fp_config>(device, CL_DEVICE_SINGLE_FP_CONFIG);
  EXPECT_TRUE(single & CL_FP_ROUND_TO_NEAREST);
  EXPECT_TRUE(single & CL_FP_INF_NAN);
  cl_command_queue_properties queueProps =
      deviceInfo<cl_command_queue_properties>(device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
  EXPECT_TRUE(queueProps & CL_QUEUE_PROFILING_ENABLE);
  EXPECT_GE(deviceInfo<size_t>(device, CL_DEVICE_PROFILING_TIMER_RESOLUTION), 1u);
}

TEST(Device, VersionsAreOpenCl30) {
  cl_device_id device = testDevice();
  ASSERT_NE(device, nullptr);
  std::string version = deviceString(device, CL_DEVICE_VERSION);
  EXPECT_EQ(version.rfind("OpenCL 3.0 ", 0), 0u) << version;
  EXPECT_EQ(deviceString(device, CL_DEVICE_OPENCL_C_VERSION).rfind("OpenCL C ", 0), 0u);
  EXPECT_EQ(deviceString(device, CL_DEVICE_PROFILE), "FULL_PROFILE");
  EXPECT_FALSE(deviceString(device, CL_DRIVER_VERSION).empty());
  cl_version numeric = deviceInfo<cl_version>(device, CL_DEVICE_NUMERIC_VERSION);
  EXPECT_EQ(numeric, CL_MAKE_VERSION(3, 0, 0));
  // An OpenCL 3.0 device supports OpenCL C 1.0 to 1.2 and 3.0.
  size_t size = 0;
  ASSERT_CL(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, nullptr, &size));
  std::vector<cl_name_version> versions(size / sizeof(cl_name_version));
  ASSERT_CL(
      clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, size, versions.data(), nullptr));
  std::set<std::pair<cl_uint, cl_uint>> found;
  for (const cl_name_version &v : versions)
    found.insert({CL_VERSION_MAJOR(v.version), CL_VERSION_MINOR(v.version)});
  for (auto wanted : {std::pair<cl_uint, cl_uint>{1, 2}, {3, 0}})
    EXPECT_TRUE(found.count(wanted)) << wanted.first << "." << wanted.second;
}

TEST(Device, ExtensionsAreConsistent) {
  cl_device_id device = testDevice();
  ASSERT_NE(device, nullptr);
  std::string list = deviceString(device, CL_DEVICE_EXTENSIONS);
  size_t size = 0;
  ASSERT_CL(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, nullptr, &size));
  std::vector<cl_name_version> named(size / sizeof(cl_name_version));
  ASSERT_CL(
      clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, size, named.data(), nullptr));
  expectSameExtensions(list, named);
  std::set<std::string> extensions = words(list);
  cl_device_fp_config fp64 = deviceInfo<cl_device_fp_config>(device, CL_DEVICE_DOUBLE_FP_CONFIG);
  if (extensions.count("cl_khr_fp64")) {
    cl_device_fp_config required = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                                   CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM;
    EXPECT_EQ(fp64 & required, required);
  } else {
    EXPECT_EQ(fp64, 0u);
  }
  EXPECT_EQ(extensions.count("cl_khr_fp16") != 0,
            deviceInfo<cl_device_fp_config>(device, CL_DEVICE_HALF_FP_CONFIG) != 0);
}

// Every feature macro the device reports is defined by its OpenCL C 3.0
// compiler, and every extension it reports for OpenCL C is too.
class DeviceFeatures : public ClTest {};
TEST_F(DeviceFeatures, ReportedFeaturesAreDefinedInKernels) {
  size_t size = 0;
  ASSERT_CL(clGetDeviceInfo(device_, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &size));
  std::vector<cl_name_version> features(size / sizeof(cl_name_version));
  ASSERT_CL(clGetDeviceInfo(device_, CL_DEVICE_OPENCL_C_FEATURES, size, features.data(), nullptr));
  std::string source;
  for (const cl_name_version &feature : features)
    source += std::string("#ifndef ") + feature.name + "\n#error " + feature.name +
              " is reported but not defined\n#endif\n";
  bool hasFp64 = false;
  for (const cl_name_version &feature : features)
    hasFp64 |= std::string(feature.name) == "__opencl_c_fp64";
  EXPECT_EQ(hasFp64, words(deviceString(device_, CL_DEVICE_EXTENSIONS)).count("cl_khr_fp64") != 0);
  source += "kernel void k(global int *out) { out[0] = 1; }\n";
  EXPECT_NE(build(source, "-cl-std=CL3.0"), nullptr);
}

// An opt-in extension (cmake/LockstepFeatures.cmake: the pinned CTS refuses
// its name) is neither listed nor defined unless LOCKSTEP_OPT_IN_EXTENSIONS
// asks for it, which this test's environment does not.
TEST_F(DeviceFeatures, OptInExtensionsAreAbsentByDefault) {
  ASSERT_EQ(std::getenv("LOCKSTEP_OPT_IN_EXTENSIONS"), nullptr);
  EXPECT_EQ(words(deviceString(device_, CL_DEVICE_EXTENSIONS)).count("cl_khr_work_group_uniform_arithmetic"), 0u);
  EXPECT_NE(build("#ifdef cl_khr_work_group_uniform_arithmetic\n#error defined\n#endif\n"
                  "kernel void k(global int *out) { out[0] = 1; }\n",
                  "-cl-std=CL3.0"),
            nullptr);
}

// What a query should answer: its value's type decides the size.
enum class Kind {
  Uint,
  Ulong,
  Size,
  Bool,
  Bitfield,
  String,
  SizeArray,
  Handle,
  NameVersions,
  Properties,
  Version
};

struct Query {
  cl_uint param;
  const char *name;
  Kind kind;
};

size_t scalarSize(Kind kind) {
  switch (kind) {
    case Kind::Uint:
    case Kind::Bool:
    case Kind::Version:
      return sizeof(cl_uint);
    case Kind::Ulong:
    case Kind::Bitfield:
      return sizeof(cl_ulong);
    case Kind::Size:
      return sizeof(size_t);
    case Kind::Handle:
      return sizeof(void *);
    default:
      return 0;
  }
}

// Queries a value twice (size first, then the value) and checks the size.
template <typename Getter>
void checkQuery(const Query &query, Getter get) {
  SCOPED_TRACE(query.name);
  size_t size = 0;
  cl_int err = get(query.param, 0, nullptr, &size);
  ASSERT_EQ(err, CL_SUCCESS) << errorName(err);
  std::vector<unsigned char> value(size + 1, 0xAB);
  size_t again = 0;
  err = get(query.param, size, value.data(), &again);
  ASSERT_EQ(err, CL_SUCCESS) << errorName(err);
  EXPECT_EQ(again, size);
  EXPECT_EQ(value[size], 0xAB) << "wrote past the reported size";
  if (size_t expected = scalarSize(query.kind)) {
    EXPECT_EQ(size, expected);
  } else if (query.kind == Kind::String) {
    ASSERT_GE(size, 1u);
    EXPECT_EQ(value[size - 1], '\0');
    EXPECT_EQ(std::strlen(reinterpret_cast<char *>(value.data())) + 1, size);
  } else if (query.kind == Kind::SizeArray) {
    EXPECT_EQ(size % sizeof(size_t), 0u);
  } else if (query.kind == Kind::NameVersions) {
    EXPECT_EQ(size % sizeof(cl_name_version), 0u);
  } else if (query.kind == Kind::Properties) {
    EXPECT_EQ(size % sizeof(cl_ulong), 0u);
  }
  if (query.kind == Kind::Bool) {
    cl_bool flag;
    std::memcpy(&flag, value.data(), sizeof flag);
    EXPECT_TRUE(flag == CL_TRUE || flag == CL_FALSE) << flag;
  }
  // A buffer one byte too small must be refused.
  if (size > 0) {
    EXPECT_EQ(get(query.param, size - 1, value.data(), nullptr), CL_INVALID_VALUE);
  }
}

#define Q(param, kind) \
  Query { param, #param, Kind::kind }

TEST(Queries, EveryPlatformQuery) {
  cl_platform_id platform = testPlatform();
  ASSERT_NE(platform, nullptr);
  const Query queries[] = {Q(CL_PLATFORM_PROFILE, String),
                           Q(CL_PLATFORM_VERSION, String),
                           Q(CL_PLATFORM_NUMERIC_VERSION, Version),
                           Q(CL_PLATFORM_NAME, String),
                           Q(CL_PLATFORM_VENDOR, String),
                           Q(CL_PLATFORM_EXTENSIONS, String),
                           Q(CL_PLATFORM_EXTENSIONS_WITH_VERSION, NameVersions),
                           Q(CL_PLATFORM_HOST_TIMER_RESOLUTION, Ulong),
                           Q(CL_PLATFORM_ICD_SUFFIX_KHR, String)};
  for (const Query &query : queries)
    checkQuery(query, [&](cl_uint p, size_t s, void *v, size_t *r) {
      return clGetPlatformInfo(platform, p, s, v, r);
    });
}

TEST(Queries, EveryDeviceQuery) {
  cl_device_id device = testDevice();
  ASSERT_NE(device, nullptr);
  const Query queries[] = {Q(CL_DEVICE_TYPE, Bitfield),
                           Q(CL_DEVICE_VENDOR_ID, Uint),
                           Q(CL_DEVICE_MAX_COMPUTE_UNITS, Uint),
                           Q(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, Uint),
                           Q(CL_DEVICE_MAX_WORK_ITEM_SIZES, SizeArray),
                           Q(CL_DEVICE_MAX_WORK_GROUP_SIZE, Size),
                           Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, Uint),
                           Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, Uint),
                           Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, Uint),
                           Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, Uint),
                           Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, Uint),
                           Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, Uint),
                           Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, Uint),
                           Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, Uint),
                           Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, Uint),
                           Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, Uint),
                           Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, Uint),
                           Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, Uint),
                           Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, Uint),
                           Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, Uint),
                           Q(CL_DEVICE_MAX_CLOCK_FREQUENCY, Uint),
                           Q(CL_DEVICE_ADDRESS_BITS, Uint),
                           Q(CL_DEVICE_MAX_MEM_ALLOC_SIZE, Ulong),
                           Q(CL_DEVICE_IMAGE_SUPPORT, Bool),
                           Q(CL_DEVICE_MAX_READ_IMAGE_ARGS, Uint),
                           Q(CL_DEVICE_MAX_WRITE_IMAGE_ARGS, Uint),
                           Q(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, Uint),
                           Q(CL_DEVICE_IL_VERSION, String),
                           Q(CL_DEVICE_ILS_WITH_VERSION, NameVersions),
                           Q(CL_DEVICE_IMAGE2D_MAX_WIDTH, Size),
                           Q(CL_DEVICE_IMAGE2D_MAX_HEIGHT, Size),
                           Q(CL_DEVICE_IMAGE3D_MAX_WIDTH, Size),
                           Q(CL_DEVICE_IMAGE3D_MAX_HEIGHT, Size),
                           Q(CL_DEVICE_IMAGE3D_MAX_DEPTH, Size),
                           Q(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, Size),
                           Q(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, Size),
                           Q(CL_DEVICE_MAX_SAMPLERS, Uint),
                           Q(CL_DEVICE_IMAGE_PITCH_ALIGNMENT, Uint),
                           Q(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, Uint),
                           Q(CL_DEVICE_MAX_PIPE_ARGS, Uint),
                           Q(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, Uint),
                           Q(CL_DEVICE_PIPE_MAX_PACKET_SIZE, Uint),
                           Q(CL_DEVICE_MAX_PARAMETER_SIZE, Size),
                           Q(CL_DEVICE_MEM_BASE_ADDR_ALIGN, Uint),
                           Q(CL_DEVICE_SINGLE_FP_CONFIG, Bitfield),
                           Q(CL_DEVICE_DOUBLE_FP_CONFIG, Bitfield),
                           Q(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, Uint),
                           Q(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, Uint),
                           Q(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, Ulong),
                           Q(CL_DEVICE_GLOBAL_MEM_SIZE, Ulong),
                           Q(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, Ulong),
                           Q(CL_DEVICE_MAX_CONSTANT_ARGS, Uint),
                           Q(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, Size),
                           Q(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, Size),
                           Q(CL_DEVICE_LOCAL_MEM_TYPE, Uint),
                           Q(CL_DEVICE_LOCAL_MEM_SIZE, Ulong),
                           Q(CL_DEVICE_ERROR_CORRECTION_SUPPORT, Bool),
                           Q(CL_DEVICE_PROFILING_TIMER_RESOLUTION, Size),
                           Q(CL_DEVICE_ENDIAN_LITTLE, Bool),
                           Q(CL_DEVICE_AVAILABLE, Bool),
                           Q(CL_DEVICE_COMPILER_AVAILABLE, Bool),
                           Q(CL_DEVICE_LINKER_AVAILABLE, Bool),
                           Q(CL_DEVICE_EXECUTION_CAPABILITIES, Bitfield),
                           Q(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, Bitfield),
                           Q(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, Bitfield),
                           Q(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, Uint),
                           Q(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, Uint),
                           Q(CL_DEVICE_MAX_ON_DEVICE_QUEUES, Uint),
                           Q(CL_DEVICE_MAX_ON_DEVICE_EVENTS, Uint),
                           Q(CL_DEVICE_BUILT_IN_KERNELS, String),
                           Q(CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, NameVersions),
                           Q(CL_DEVICE_PLATFORM, Handle),
                           Q(CL_DEVICE_NAME, String),
                           Q(CL_DEVICE_VENDOR, String),
                           Q(CL_DRIVER_VERSION, String),
                           Q(CL_DEVICE_PROFILE, String),
                           Q(CL_DEVICE_VERSION, String),
                           Q(CL_DEVICE_NUMERIC_VERSION, Version),
                           Q(CL_DEVICE_OPENCL_C_VERSION, String),
                           Q(CL_DEVICE_OPENCL_C_ALL_VERSIONS, NameVersions),
                           Q(CL_DEVICE_OPENCL_C_FEATURES, NameVersions),
                           Q(CL_DEVICE_EXTENSIONS, String),
                           Q(CL_DEVICE_EXTENSIONS_WITH_VERSION, NameVersions),
                           Q(CL_DEVICE_PRINTF_BUFFER_SIZE, Size),
                           Q(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, Bool),
                           Q(CL_DEVICE_PARENT_DEVICE, Handle),
                           Q(CL_DEVICE_PARTITION_MAX_SUB_DEVICES, Uint),
                           Q(CL_DEVICE_PARTITION_PROPERTIES, Properties),
                           Q(CL_DEVICE_PARTITION_AFFINITY_DOMAIN, Bitfield),
                           Q(CL_DEVICE_PARTITION_TYPE, Properties),
                           Q(CL_DEVICE_REFERENCE_COUNT, Uint),
                           Q(CL_DEVICE_SVM_CAPABILITIES, Bitfield),
                           Q(CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, Uint),
                           Q(CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, Uint),
                           Q(CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, Uint),
                           Q(CL_DEVICE_MAX_NUM_SUB_GROUPS, Uint),
                           Q(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, Bool),
                           Q(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, Bitfield),
                           Q(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, Bitfield),
                           Q(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, Bool),
                           Q(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, Bool),
                           Q(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, Bool),
                           Q(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, Bitfield),
                           Q(CL_DEVICE_PIPE_SUPPORT, Bool),
                           Q(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, Size),
                           Q(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, String)};
  for (const Query &query : queries)
    checkQuery(query, [&](cl_uint p, size_t s, void *v, size_t *r) {
      return clGetDeviceInfo(device, p, s, v, r);
    });
}

class ObjectQueries : public ClTest {};

TEST_F(ObjectQueries, ContextQueueMemProgramKernelEvent) {
  auto each = [](std::initializer_list<Query> queries, auto get) {
    for (const Query &query : queries) checkQuery(query, get);
  };
  each({Q(CL_CONTEXT_REFERENCE_COUNT, Uint), Q(CL_CONTEXT_NUM_DEVICES, Uint),
        Q(CL_CONTEXT_DEVICES, SizeArray), Q(CL_CONTEXT_PROPERTIES, Properties)},
       [&](cl_uint p, size_t s, void *v, size_t *r) {
         return clGetContextInfo(context_, p, s, v, r);
       });
  each({Q(CL_QUEUE_CONTEXT, Handle), Q(CL_QUEUE_DEVICE, Handle), Q(CL_QUEUE_REFERENCE_COUNT, Uint),
        Q(CL_QUEUE_PROPERTIES, Bitfield), Q(CL_QUEUE_PROPERTIES_ARRAY, Properties)},
       [&](cl_uint p, size_t s, void *v, size_t *r) {
         return clGetCommandQueueInfo(queue_, p, s, v, r);
       });
  cl_mem mem = buffer(CL_MEM_READ_WRITE, 256);
  each(
      {Q(CL_MEM_TYPE, Uint), Q(CL_MEM_FLAGS, Bitfield), Q(CL_MEM_SIZE, Size),
       Q(CL_MEM_HOST_PTR, Handle), Q(CL_MEM_MAP_COUNT, Uint), Q(CL_MEM_REFERENCE_COUNT, Uint),
       Q(CL_MEM_CONTEXT, Handle), Q(CL_MEM_ASSOCIATED_MEMOBJECT, Handle), Q(CL_MEM_OFFSET, Size),
       Q(CL_MEM_USES_SVM_POINTER, Bool), Q(CL_MEM_PROPERTIES, Properties)},
      [&](cl_uint p, size_t s, void *v, size_t *r) { return clGetMemObjectInfo(mem, p, s, v, r); });
  cl_program program = build("kernel void add(global int *a, int b) { a[get_global_id(0)] += b; }");
  ASSERT_NE(program, nullptr);
  each({Q(CL_PROGRAM_REFERENCE_COUNT, Uint), Q(CL_PROGRAM_CONTEXT, Handle),
        Q(CL_PROGRAM_NUM_DEVICES, Uint), Q(CL_PROGRAM_DEVICES, SizeArray),
        Q(CL_PROGRAM_SOURCE, String), Q(CL_PROGRAM_IL, Properties),
        Q(CL_PROGRAM_BINARY_SIZES, SizeArray), Q(CL_PROGRAM_NUM_KERNELS, Size),
        Q(CL_PROGRAM_KERNEL_NAMES, String), Q(CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, Bool),
        Q(CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT, Bool)},
       [&](cl_uint p, size_t s, void *v, size_t *r) {
         return clGetProgramInfo(program, p, s, v, r);
       });
  each({Q(CL_PROGRAM_BUILD_STATUS, Uint), Q(CL_PROGRAM_BUILD_OPTIONS, String),
        Q(CL_PROGRAM_BUILD_LOG, String), Q(CL_PROGRAM_BINARY_TYPE, Uint),
        Q(CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE, Size)},
       [&](cl_uint p, size_t s, void *v, size_t *r) {
         return clGetProgramBuildInfo(program, device_, p, s, v, r);
       });
  cl_kernel add = kernelOf(program, "add");
  ASSERT_NE(add, nullptr);
  each({Q(CL_KERNEL_FUNCTION_NAME, String), Q(CL_KERNEL_NUM_ARGS, Uint),
        Q(CL_KERNEL_REFERENCE_COUNT, Uint), Q(CL_KERNEL_CONTEXT, Handle),
        Q(CL_KERNEL_PROGRAM, Handle), Q(CL_KERNEL_ATTRIBUTES, String)},
       [&](cl_uint p, size_t s, void *v, size_t *r) { return clGetKernelInfo(add, p, s, v, r); });
  each({Q(CL_KERNEL_WORK_GROUP_SIZE, Size), Q(CL_KERNEL_COMPILE_WORK_GROUP_SIZE, SizeArray),
        Q(CL_KERNEL_LOCAL_MEM_SIZE, Ulong), Q(CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, Size),
        Q(CL_KERNEL_PRIVATE_MEM_SIZE, Ulong)},
       [&](cl_uint p, size_t s, void *v, size_t *r) {
         return clGetKernelWorkGroupInfo(add, device_, p, s, v, r);
       });
  int value = 0;
  ASSERT_TRUE(setArgs(add, mem, value));
  cl_event event = nullptr;
  ASSERT_CL(
      clEnqueueWriteBuffer(queue_, mem, CL_TRUE, 0, sizeof value, &value, 0, nullptr, &event));
  track(event);
  each({Q(CL_EVENT_COMMAND_QUEUE, Handle), Q(CL_EVENT_CONTEXT, Handle),
        Q(CL_EVENT_COMMAND_TYPE, Uint), Q(CL_EVENT_COMMAND_EXECUTION_STATUS, Uint),
        Q(CL_EVENT_REFERENCE_COUNT, Uint)},
       [&](cl_uint p, size_t s, void *v, size_t *r) { return clGetEventInfo(event, p, s, v, r); });
}

TEST_F(ObjectQueries, ProgramAndKernelValuesAreRight) {
  const char *source =
      "kernel void first(global float *a, local int *b, constant uint *c,"
      "                  const int d) {}\n"
      "kernel void second(global int *x) {}\n";
  cl_program program = build(source, "-cl-kernel-arg-info");
  ASSERT_NE(program, nullptr);
  size_t numKernels = 0;
  ASSERT_CL(
      clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof numKernels, &numKernels, nullptr));
  EXPECT_EQ(numKernels, 2u);
  char names[64] = {};
  ASSERT_CL(clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, nullptr));
  EXPECT_TRUE(std::string(names) == "first;second" || std::string(names) == "second;first")
      << names;
  cl_build_status status = CL_BUILD_NONE;
  ASSERT_CL(clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_STATUS, sizeof status, &status,
                                  nullptr));
  EXPECT_EQ(status, CL_BUILD_SUCCESS);
  cl_program_binary_type type = 0;
  ASSERT_CL(
      clGetProgramBuildInfo(program, device_, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(type, cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));

  cl_kernel first = kernelOf(program, "first");
  ASSERT_NE(first, nullptr);
  cl_uint numArgs = 0;
  ASSERT_CL(clGetKernelInfo(first, CL_KERNEL_NUM_ARGS, sizeof numArgs, &numArgs, nullptr));
  EXPECT_EQ(numArgs, 4u);
  const cl_kernel_arg_address_qualifier spaces[] = {
      CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_ADDRESS_LOCAL, CL_KERNEL_ARG_ADDRESS_CONSTANT,
      CL_KERNEL_ARG_ADDRESS_PRIVATE};
  const char *argNames[] = {"a", "b", "c", "d"};
  const char *typeNames[] = {"float*", "int*", "uint*", "int"};
  for (cl_uint i = 0; i < 4; ++i) {
    cl_kernel_arg_address_qualifier space = 0;
    ASSERT_CL(clGetKernelArgInfo(first, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof space, &space,
                                 nullptr));
    EXPECT_EQ(space, spaces[i]) << "argument " << i;
    char text[64] = {};
    ASSERT_CL(clGetKernelArgInfo(first, i, CL_KERNEL_ARG_NAME, sizeof text, text, nullptr));
    EXPECT_STREQ(text, argNames[i]);
    ASSERT_CL(clGetKernelArgInfo(first, i, CL_KERNEL_ARG_TYPE_NAME, sizeof text, text, nullptr));
    EXPECT_STREQ(text, typeNames[i]);
  }
  cl_kernel_arg_type_qualifier qualifier = 0;
  // The spec: a __constant pointer argument reports CL_KERNEL_ARG_TYPE_CONST.
  ASSERT_CL(clGetKernelArgInfo(first, 2, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof qualifier, &qualifier,
                               nullptr));
  EXPECT_EQ(qualifier & CL_KERNEL_ARG_TYPE_CONST,
            cl_kernel_arg_type_qualifier(CL_KERNEL_ARG_TYPE_CONST));
  EXPECT_CL_ERROR(CL_INVALID_ARG_INDEX,
                  clGetKernelArgInfo(first, 4, CL_KERNEL_ARG_NAME, 0, nullptr, &numKernels));
}

}  // namespace
}  // namespace lockstep::test

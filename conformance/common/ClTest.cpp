#include "ClTest.h"

#include <bit>
#include <cmath>
#include <cstdlib>

namespace lockstep::test {

const char *errorName(cl_int code) {
  switch (code) {
#define NAME(c) \
  case c:       \
    return #c;
    NAME(CL_SUCCESS)
    NAME(CL_DEVICE_NOT_FOUND)
    NAME(CL_DEVICE_NOT_AVAILABLE) NAME(CL_COMPILER_NOT_AVAILABLE) NAME(
        CL_MEM_OBJECT_ALLOCATION_FAILURE) NAME(CL_OUT_OF_RESOURCES) NAME(CL_OUT_OF_HOST_MEMORY)
        NAME(CL_PROFILING_INFO_NOT_AVAILABLE) NAME(CL_MEM_COPY_OVERLAP) NAME(
            CL_IMAGE_FORMAT_MISMATCH) NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED)
            NAME(CL_BUILD_PROGRAM_FAILURE) NAME(CL_MAP_FAILURE) NAME(
                CL_MISALIGNED_SUB_BUFFER_OFFSET) NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
                NAME(CL_COMPILE_PROGRAM_FAILURE) NAME(CL_LINKER_NOT_AVAILABLE) NAME(
                    CL_LINK_PROGRAM_FAILURE) NAME(CL_DEVICE_PARTITION_FAILED)
                    NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) NAME(CL_INVALID_VALUE) NAME(
                        CL_INVALID_DEVICE_TYPE) NAME(CL_INVALID_PLATFORM) NAME(CL_INVALID_DEVICE)
                        NAME(CL_INVALID_CONTEXT) NAME(CL_INVALID_QUEUE_PROPERTIES) NAME(
                            CL_INVALID_COMMAND_QUEUE) NAME(CL_INVALID_HOST_PTR)
                            NAME(CL_INVALID_MEM_OBJECT) NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) NAME(
                                CL_INVALID_IMAGE_SIZE) NAME(CL_INVALID_SAMPLER) NAME(CL_INVALID_BINARY)
                                NAME(CL_INVALID_BUILD_OPTIONS) NAME(CL_INVALID_PROGRAM) NAME(
                                    CL_INVALID_PROGRAM_EXECUTABLE) NAME(CL_INVALID_KERNEL_NAME)
                                    NAME(CL_INVALID_KERNEL_DEFINITION) NAME(CL_INVALID_KERNEL) NAME(
                                        CL_INVALID_ARG_INDEX) NAME(CL_INVALID_ARG_VALUE)
                                        NAME(CL_INVALID_ARG_SIZE) NAME(CL_INVALID_KERNEL_ARGS) NAME(
                                            CL_INVALID_WORK_DIMENSION) NAME(CL_INVALID_WORK_GROUP_SIZE)
                                            NAME(CL_INVALID_WORK_ITEM_SIZE) NAME(
                                                CL_INVALID_GLOBAL_OFFSET)
                                                NAME(CL_INVALID_EVENT_WAIT_LIST) NAME(
                                                    CL_INVALID_EVENT) NAME(CL_INVALID_OPERATION)
                                                    NAME(CL_INVALID_GL_OBJECT) NAME(
                                                        CL_INVALID_BUFFER_SIZE) NAME(CL_INVALID_MIP_LEVEL)
                                                        NAME(CL_INVALID_GLOBAL_WORK_SIZE) NAME(
                                                            CL_INVALID_PROPERTY)
                                                            NAME(CL_INVALID_IMAGE_DESCRIPTOR) NAME(
                                                                CL_INVALID_COMPILER_OPTIONS)
                                                                NAME(CL_INVALID_LINKER_OPTIONS) NAME(
                                                                    CL_INVALID_DEVICE_PARTITION_COUNT)
                                                                    NAME(CL_INVALID_PIPE_SIZE) NAME(
                                                                        CL_INVALID_DEVICE_QUEUE)
                                                                        NAME(CL_INVALID_SPEC_ID) NAME(
                                                                            CL_MAX_SIZE_RESTRICTION_EXCEEDED)
#undef NAME
                                                                            default
        : return "(unknown error code)";
  }
}

namespace {

std::string wantedPlatform() {
  const char *name = std::getenv("LOCKSTEP_TEST_PLATFORM");
  return name && *name ? name : "Lockstep";
}

}  // namespace

cl_platform_id testPlatform() {
  static cl_platform_id chosen = [] {
    cl_uint count = 0;
    if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0) return cl_platform_id{};
    std::vector<cl_platform_id> platforms(count);
    clGetPlatformIDs(count, platforms.data(), nullptr);
    for (cl_platform_id platform : platforms)
      if (platformString(platform, CL_PLATFORM_NAME).find(wantedPlatform()) != std::string::npos)
        return platform;
    return cl_platform_id{};
  }();
  return chosen;
}

cl_device_id testDevice() {
  static cl_device_id chosen = [] {
    cl_device_id device = nullptr;
    if (cl_platform_id platform = testPlatform())
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, nullptr);
    return device;
  }();
  return chosen;
}

std::string platformString(cl_platform_id platform, cl_platform_info param) {
  size_t size = 0;
  if (clGetPlatformInfo(platform, param, 0, nullptr, &size) != CL_SUCCESS) return {};
  std::string value(size, '\0');
  if (clGetPlatformInfo(platform, param, size, value.data(), nullptr) != CL_SUCCESS) return {};
  value.resize(std::strlen(value.c_str()));
  return value;
}

std::string deviceString(cl_device_id device, cl_device_info param) {
  size_t size = 0;
  cl_int err = clGetDeviceInfo(device, param, 0, nullptr, &size);
  EXPECT_EQ(err, CL_SUCCESS) << errorName(err);
  std::string value(size, '\0');
  err = clGetDeviceInfo(device, param, size, value.data(), nullptr);
  EXPECT_EQ(err, CL_SUCCESS) << errorName(err);
  value.resize(std::strlen(value.c_str()));
  return value;
}

std::string buildLog(cl_program program, cl_device_id device) {
  size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) != CL_SUCCESS)
    return "(no build log)";
  std::string log(size, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  log.resize(std::strlen(log.c_str()));
  return log;
}

int64_t ulpDistance(float a, float b) {
  if (a == b) return 0;
  if (std::isnan(a) && std::isnan(b)) return 0;
  if (std::isnan(a) || std::isnan(b)) return INT64_MAX;
  // Map the sign-magnitude bit patterns onto a monotonic integer line.
  auto ordered = [](float x) {
    int32_t bits = std::bit_cast<int32_t>(x);
    return bits < 0 ? int64_t{INT32_MIN} - bits : int64_t{bits};
  };
  return std::llabs(ordered(a) - ordered(b));
}

int64_t ulpDistance(double a, double b) {
  if (a == b) return 0;
  if (std::isnan(a) && std::isnan(b)) return 0;
  if (std::isnan(a) || std::isnan(b)) return INT64_MAX;
  auto ordered = [](double x) {
    int64_t bits = std::bit_cast<int64_t>(x);
    return bits < 0 ? INT64_MIN - bits : bits;
  };
  int64_t da = ordered(a), db = ordered(b);
  // Saturate instead of overflowing for values of opposite sign far apart.
  if ((da > 0) != (db > 0) && (da > INT64_MAX / 2 || db > INT64_MAX / 2)) return INT64_MAX;
  return da > db ? da - db : db - da;
}

void ClTest::SetUp() {
  platform_ = testPlatform();
  ASSERT_NE(platform_, nullptr) << "no OpenCL platform named like '" << wantedPlatform()
                                << "' (is OCL_ICD_VENDORS set?)";
  device_ = testDevice();
  ASSERT_NE(device_, nullptr) << "the platform has no default device";
  cl_int err = CL_SUCCESS;
  context_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS) << errorName(err);
  queue_ = makeQueue(0);
  ASSERT_NE(queue_, nullptr);
}

void ClTest::TearDown() {
  // A test that stopped early may leave a user event open with commands
  // waiting on it: open it so that draining the queues cannot hang.
  for (cl_event event : events_) {
    cl_command_type type = 0;
    cl_int status = CL_COMPLETE;
    clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
    clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
    if (type == CL_COMMAND_USER && status > CL_COMPLETE) clSetUserEventStatus(event, CL_COMPLETE);
  }
  // Drain every queue before releasing what its commands use.
  for (cl_command_queue queue : queues_) EXPECT_CL(clFinish(queue));
  for (cl_event event : events_) EXPECT_CL(clReleaseEvent(event));
  for (cl_kernel kernel : kernels_) EXPECT_CL(clReleaseKernel(kernel));
  for (cl_program program : programs_) EXPECT_CL(clReleaseProgram(program));
  for (auto it = mems_.rbegin(); it != mems_.rend(); ++it) EXPECT_CL(clReleaseMemObject(*it));
  for (cl_command_queue queue : queues_) EXPECT_CL(clReleaseCommandQueue(queue));
  if (context_) EXPECT_CL(clReleaseContext(context_));
}

cl_command_queue ClTest::makeQueue(cl_command_queue_properties properties) {
  cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, properties, 0};
  cl_int err = CL_SUCCESS;
  cl_command_queue queue = clCreateCommandQueueWithProperties(context_, device_, list, &err);
  EXPECT_EQ(err, CL_SUCCESS) << errorName(err);
  if (queue) queues_.push_back(queue);
  return queue;
}

cl_program ClTest::build(const std::string &source, const std::string &options) {
  const char *text = source.c_str();
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context_, 1, &text, nullptr, &err);
  EXPECT_EQ(err, CL_SUCCESS) << errorName(err);
  if (!program) return nullptr;
  programs_.push_back(program);
  err = clBuildProgram(program, 1, &device_, options.c_str(), nullptr, nullptr);
  EXPECT_EQ(err, CL_SUCCESS) << errorName(err) << " building with options '" << options
                             << "'; log:\n"
                             << buildLog(program, device_);
  return err == CL_SUCCESS ? program : nullptr;
}

cl_kernel ClTest::kernelOf(cl_program program, const char *name) {
  if (!program) return nullptr;
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &err);
  EXPECT_EQ(err, CL_SUCCESS) << errorName(err) << " creating kernel " << name;
  if (kernel) kernels_.push_back(kernel);
  return kernel;
}

cl_kernel ClTest::kernel(const std::string &source, const char *name, const std::string &options) {
  return kernelOf(build(source, options), name);
}

cl_mem ClTest::buffer(cl_mem_flags flags, size_t bytes, void *host) {
  cl_int err = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(context_, flags, bytes, host, &err);
  EXPECT_EQ(err, CL_SUCCESS) << errorName(err) << " creating a buffer of " << bytes << " bytes";
  if (mem) mems_.push_back(mem);
  return mem;
}

::testing::AssertionResult ClTest::run(cl_kernel kernel, std::vector<size_t> global,
                                       std::vector<size_t> local, std::vector<size_t> offset) {
  if (!kernel) return ::testing::AssertionFailure() << "no kernel";
  cl_int err = clEnqueueNDRangeKernel(queue_, kernel, cl_uint(global.size()),
                                      offset.empty() ? nullptr : offset.data(), global.data(),
                                      local.empty() ? nullptr : local.data(), 0, nullptr, nullptr);
  if (err != CL_SUCCESS)
    return ::testing::AssertionFailure() << errorName(err) << " from clEnqueueNDRangeKernel";
  err = clFinish(queue_);
  if (err != CL_SUCCESS) return ::testing::AssertionFailure() << errorName(err) << " from clFinish";
  return ::testing::AssertionSuccess();
}

size_t ClTest::kernelMaxGroupSize(cl_kernel kernel) {
  size_t size = 0;
  EXPECT_CL(clGetKernelWorkGroupInfo(kernel, device_, CL_KERNEL_WORK_GROUP_SIZE, sizeof(size),
                                     &size, nullptr));
  return size;
}

bool ClTest::hasFeature(const char *name) {
  size_t size = 0;
  EXPECT_CL(clGetDeviceInfo(device_, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &size));
  std::vector<cl_name_version> features(size / sizeof(cl_name_version));
  EXPECT_CL(clGetDeviceInfo(device_, CL_DEVICE_OPENCL_C_FEATURES, size, features.data(), nullptr));
  for (const cl_name_version &feature : features)
    if (std::string(feature.name) == name) return true;
  return false;
}

bool ClTest::offersOpenCLC(unsigned major, unsigned minor) {
  size_t size = 0;
  EXPECT_CL(clGetDeviceInfo(device_, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, nullptr, &size));
  std::vector<cl_name_version> versions(size / sizeof(cl_name_version));
  EXPECT_CL(clGetDeviceInfo(device_, CL_DEVICE_OPENCL_C_ALL_VERSIONS, size, versions.data(), nullptr));
  for (const cl_name_version &version : versions)
    if (CL_VERSION_MAJOR(version.version) == major && CL_VERSION_MINOR(version.version) == minor) return true;
  return false;
}

namespace {

constexpr int kLargeProgramKernels = 8;
constexpr int kLargeProgramSteps = 160;
constexpr uint32_t kLargeProgramTable[16] = {3,     17,    257,         65537, 12345, 99991,   7,  1u << 31,
                                             40503, 31337, 2654435761u, 11,    0,     1000003, 77, 5};

// The host's version of kernel k's chain.
uint32_t largeProgramChain(int k, uint32_t x) {
  for (int j = 0; j < kLargeProgramSteps; ++j) {
    x = x * uint32_t(2 * j + 3) + uint32_t(31 * k + j);
    x = (x ^ (x >> 7)) + kLargeProgramTable[(j + k) % 16];
  }
  return x;
}

}  // namespace

std::string ClTest::largeProgramSource(bool sharedGlobal) {
  std::string source = "constant uint table[16] = {";
  for (uint32_t value : kLargeProgramTable) source += std::to_string(value) + "u, ";
  source += "};\nuint mix(uint x, int i) { return (x ^ (x >> 7)) + table[i & 15]; }\n";
  if (sharedGlobal) source += "global uint counter = 5;\nkernel void total(global uint *out) { out[0] = counter; }\n";
  for (int k = 0; k < kLargeProgramKernels; ++k) {
    source +=
        "kernel void chain" + std::to_string(k) + "(global const uint *in, global uint *out, global ulong *seen) {\n";
    source += "  size_t i = get_global_id(0);\n  uint x = in[i];\n";
    source += "  seen[2 * i] = (ulong)table;\n";
    source += sharedGlobal ? "  seen[2 * i + 1] = (ulong)&counter;\n" : "  seen[2 * i + 1] = 1;\n";
    for (int j = 0; j < kLargeProgramSteps; ++j)
      source += "  x = mix(x * " + std::to_string(2 * j + 3) + "u + " + std::to_string(31 * k + j) + "u, " +
                std::to_string(j + k) + ");\n";
    source += "  out[i] = x;\n";
    if (sharedGlobal && k == 0) source += "  if (i == 0) counter += 7;\n";
    source += "}\n";
  }
  return source;
}

void ClTest::checkLargeProgram(cl_program program, bool sharedGlobal) {
  const size_t n = 100;
  std::vector<uint32_t> in = randomValues<uint32_t>(n, 0, 0xffffffffu);
  cl_mem input = bufferFrom(in);
  std::vector<cl_ulong> firstSeen;
  for (int k = 0; k < kLargeProgramKernels; ++k) {
    std::string name = "chain" + std::to_string(k);
    cl_kernel kernel = kernelOf(program, name.c_str());
    ASSERT_NE(kernel, nullptr) << name;
    cl_mem output = buffer(CL_MEM_READ_WRITE, n * sizeof(uint32_t));
    cl_mem seenBuffer = buffer(CL_MEM_READ_WRITE, 2 * n * sizeof(cl_ulong));
    ASSERT_TRUE(setArgs(kernel, input, output, seenBuffer));
    ASSERT_TRUE(run(kernel, {n}));
    std::vector<uint32_t> out = read<uint32_t>(output, n);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], largeProgramChain(k, in[i])) << name << " item " << i;
    // Every work-item of every kernel sees the program-scope objects at the
    // same addresses.
    std::vector<cl_ulong> seen = read<cl_ulong>(seenBuffer, 2 * n);
    if (k == 0) firstSeen = {seen[0], seen[1]};
    EXPECT_NE(firstSeen[0], 0u);
    EXPECT_NE(firstSeen[1], 0u);
    for (size_t i = 0; i < n; ++i)
      ASSERT_EQ((std::vector<cl_ulong>{seen[2 * i], seen[2 * i + 1]}), firstSeen)
          << name << " item " << i << ": the table's address, and the variable's, as chain0 saw them";
  }
  if (!sharedGlobal) return;
  cl_kernel total = kernelOf(program, "total");
  ASSERT_NE(total, nullptr);
  cl_mem output = buffer(CL_MEM_READ_WRITE, sizeof(uint32_t));
  ASSERT_TRUE(setArgs(total, output));
  ASSERT_TRUE(run(total, {1}));
  EXPECT_EQ(read<uint32_t>(output, 1)[0], 5u + 7u) << "chain0 and total see one program-scope variable";
}

}  // namespace lockstep::test

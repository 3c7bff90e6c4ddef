// Shared harness of the conformance tests. Every test goes through the system
// ICD loader (-lOpenCL), exactly as a user's program would; the platform is
// chosen by name so that a machine with several platforms still tests the one
// we mean (LOCKSTEP_TEST_PLATFORM, default "Lockstep"; set it to "Portable" to
// check the tests themselves against PoCL).
#pragma once

#include <CL/cl.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace lockstep::test {

// The spec's name of an error code, for readable failure messages.
const char *errorName(cl_int code);

// The platform whose CL_PLATFORM_NAME contains LOCKSTEP_TEST_PLATFORM.
cl_platform_id testPlatform();
cl_device_id testDevice();

std::string platformString(cl_platform_id platform, cl_platform_info param);
std::string deviceString(cl_device_id device, cl_device_info param);
std::string buildLog(cl_program program, cl_device_id device);

template <typename T>
T deviceInfo(cl_device_id device, cl_device_info param) {
  T value{};
  cl_int err = clGetDeviceInfo(device, param, sizeof(T), &value, nullptr);
  EXPECT_EQ(err, CL_SUCCESS) << errorName(err) << " for device query 0x" << std::hex << param;
  return value;
}

// Distance in units in the last place between two values (0 for two NaNs).
int64_t ulpDistance(float a, float b);
int64_t ulpDistance(double a, double b);

#define ASSERT_CL(expr)                                                                       \
  do {                                                                                        \
    cl_int status_ = (expr);                                                                  \
    ASSERT_EQ(status_, CL_SUCCESS) << ::lockstep::test::errorName(status_) << " from " #expr; \
  } while (0)
#define EXPECT_CL(expr)                                                                       \
  do {                                                                                        \
    cl_int status_ = (expr);                                                                  \
    EXPECT_EQ(status_, CL_SUCCESS) << ::lockstep::test::errorName(status_) << " from " #expr; \
  } while (0)
// Expects a specific error code, naming both codes on failure.
#define EXPECT_CL_ERROR(expected, expr)                                            \
  do {                                                                             \
    cl_int status_ = (expr);                                                       \
    EXPECT_EQ(status_, expected) << "got " << ::lockstep::test::errorName(status_) \
                                 << ", want " #expected " from " #expr;            \
  } while (0)

// A __local kernel argument of `bytes` bytes (clSetKernelArg with NULL value).
struct LocalBytes {
  size_t bytes;
};

// A fixture owning a context and an in-order queue on the test device, and
// releasing everything a test creates through it.
class ClTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Builds `source` for the device; fails the test (with the log) on error.
  cl_program build(const std::string &source, const std::string &options = "");
  // Builds and returns the named kernel, or nullptr after failing the test.
  cl_kernel kernel(const std::string &source, const char *name, const std::string &options = "");
  cl_kernel kernelOf(cl_program program, const char *name);
  // Whether the device lists this OpenCL C feature (CL_DEVICE_OPENCL_C_FEATURES).
  bool hasFeature(const char *name);
  // Whether CL_DEVICE_OPENCL_C_ALL_VERSIONS lists OpenCL C major.minor.
  bool offersOpenCLC(unsigned major, unsigned minor);
  cl_mem buffer(cl_mem_flags flags, size_t bytes, void *host = nullptr);
  template <typename T>
  cl_mem bufferFrom(const std::vector<T> &data, cl_mem_flags flags = CL_MEM_READ_WRITE) {
    return buffer(flags | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(T),
                  const_cast<T *>(data.data()));
  }
  template <typename T>
  std::vector<T> read(cl_mem mem, size_t count) {
    std::vector<T> out(count);
    cl_int err = clEnqueueReadBuffer(queue_, mem, CL_TRUE, 0, count * sizeof(T), out.data(), 0,
                                     nullptr, nullptr);
    EXPECT_EQ(err, CL_SUCCESS) << errorName(err) << " reading a buffer";
    return out;
  }
  cl_command_queue makeQueue(cl_command_queue_properties properties);
  // A user event of the test's context, released with the rest.
  cl_event userEvent() {
    cl_int err = CL_SUCCESS;
    cl_event event = clCreateUserEvent(context_, &err);
    EXPECT_EQ(err, CL_SUCCESS) << errorName(err);
    return track(event);
  }
  // An event's CL_EVENT_COMMAND_EXECUTION_STATUS and CL_EVENT_COMMAND_TYPE.
  static cl_int status(cl_event event) {
    cl_int value = 1234;
    EXPECT_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof value, &value, nullptr),
              CL_SUCCESS);
    return value;
  }
  static cl_command_type typeOf(cl_event event) {
    cl_command_type type = 0;
    EXPECT_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
    return type;
  }
  cl_event track(cl_event event) {
    events_.push_back(event);
    return event;
  }
  // A memory object made another way (a sub-buffer), released with the rest.
  cl_mem track(cl_mem mem) {
    mems_.push_back(mem);
    return mem;
  }

  template <typename... Args>
  ::testing::AssertionResult setArgs(cl_kernel kernel, const Args &...args) {
    cl_uint index = 0;
    cl_int err = CL_SUCCESS;
    ((err = (err == CL_SUCCESS ? setArg(kernel, index++, args) : err)), ...);
    if (err == CL_SUCCESS) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << errorName(err) << " from clSetKernelArg " << (index - 1);
  }
  // Enqueues an NDRange and waits for the queue; local and offset may be empty.
  ::testing::AssertionResult run(cl_kernel kernel, std::vector<size_t> global,
                                 std::vector<size_t> local = {}, std::vector<size_t> offset = {});
  // The largest work-group size this kernel may run with on the device.
  size_t kernelMaxGroupSize(cl_kernel kernel);
  // Source of a program of 8 kernels of 800 instructions or so each, more
  // than the compiler optimizes and compiles as one part on 2 threads: each
  // kernel runs its own chain of integer steps through a shared helper and a
  // shared __constant table, and reports the table's address (and, with
  // `sharedGlobal`, the address of a program-scope variable that `chain0`
  // adds to and `total` reads). checkLargeProgram runs every kernel of the
  // built program against a host reference and checks that all of them see
  // one table and one variable.
  static std::string largeProgramSource(bool sharedGlobal);
  void checkLargeProgram(cl_program program, bool sharedGlobal);

  // n values drawn from rng_, uniformly in [lo, hi] (integers) or [lo, hi)
  // (floating point).
  template <typename T>
  std::vector<T> randomValues(size_t n, T lo, T hi) {
    using Distribution = std::conditional_t<std::is_integral_v<T>, std::uniform_int_distribution<T>,
                                            std::uniform_real_distribution<T>>;
    Distribution distribution(lo, hi);
    std::vector<T> out(n);
    for (T &v : out) v = distribution(rng_);
    return out;
  }

  cl_platform_id platform_ = nullptr;
  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  std::mt19937 rng_{20240531};

 private:
  template <typename T>
  static cl_int setArg(cl_kernel kernel, cl_uint index, const T &value) {
    return clSetKernelArg(kernel, index, sizeof(T), &value);
  }
  static cl_int setArg(cl_kernel kernel, cl_uint index, const LocalBytes &local) {
    return clSetKernelArg(kernel, index, local.bytes, nullptr);
  }

  std::vector<cl_program> programs_;
  std::vector<cl_kernel> kernels_;
  std::vector<cl_mem> mems_;
  std::vector<cl_command_queue> queues_;
  std::vector<cl_event> events_;
};

// Fixture parameterized by a local size (1, a non-power-of-two, 64, 256).
class LocalSizeTest : public ClTest, public ::testing::WithParamInterface<size_t> {};
inline const size_t kLocalSizes[] = {1, 7, 64, 256};

}  // namespace lockstep::test

#include "ClSession.h"

#include <vector>

#include "Measure.h"

namespace bench {
namespace {

std::string platformInfo(cl_platform_id platform, cl_platform_info what) {
  size_t size = 0;
  if (clGetPlatformInfo(platform, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string text(size, '\0');
  clGetPlatformInfo(platform, what, size, text.data(), nullptr);
  return text.substr(0, text.find('\0'));
}

std::string deviceNameOf(cl_device_id device) {
  size_t size = 0;
  check(clGetDeviceInfo(device, CL_DEVICE_NAME, 0, nullptr, &size), "clGetDeviceInfo");
  std::string text(size, '\0');
  check(clGetDeviceInfo(device, CL_DEVICE_NAME, size, text.data(), nullptr), "clGetDeviceInfo");
  return text.substr(0, text.find('\0'));
}

cl_platform_id findPlatform(const std::string &wanted) {
  cl_uint count = 0;
  check(clGetPlatformIDs(0, nullptr, &count), "clGetPlatformIDs");
  std::vector<cl_platform_id> platforms(count);
  check(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs");
  std::string names;
  for (cl_platform_id platform : platforms) {
    std::string name = platformInfo(platform, CL_PLATFORM_NAME);
    if (name.find(wanted) != std::string::npos) return platform;
    names += (names.empty() ? "" : ", ") + name;
  }
  throw ClError(CL_INVALID_PLATFORM, "no platform named like '" + wanted +
                                         "' (found: " + (names.empty() ? "none" : names) + ")");
}

std::string buildLog(cl_program program, cl_device_id device) {
  size_t size = 0;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
  std::string log(size, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  log.resize(log.find('\0') == std::string::npos ? log.size() : log.find('\0'));
  // The first errors say what is wrong; a whole cascade would drown the report.
  constexpr size_t kLogLimit = 2000;
  return log.size() > kLogLimit ? log.substr(0, kLogLimit) + "..." : log;
}

}  // namespace

ClError::ClError(cl_int code, const std::string &what)
    : std::runtime_error(what + " (OpenCL error " + std::to_string(code) + ")"), code(code) {}

void check(cl_int code, const char *what) {
  if (code != CL_SUCCESS) throw ClError(code, std::string(what) + " failed");
}

Buffer &Buffer::operator=(Buffer &&other) noexcept {
  if (this != &other) {
    if (mem_) clReleaseMemObject(mem_);
    mem_ = std::exchange(other.mem_, nullptr);
  }
  return *this;
}

Buffer::~Buffer() {
  if (mem_) clReleaseMemObject(mem_);
}

Sampler::~Sampler() {
  if (sampler_) clReleaseSampler(sampler_);
}

Session::Session(const std::string &platform_name) {
  platform_ = findPlatform(platform_name);
  platform_name_ = platformInfo(platform_, CL_PLATFORM_NAME);
  check(clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, 1, &device_, nullptr), "clGetDeviceIDs");
  device_name_ = deviceNameOf(device_);
  cl_int error = CL_SUCCESS;
  context_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &error);
  check(error, "clCreateContext");
  queue_ = clCreateCommandQueueWithProperties(context_, device_, nullptr, &error);
  check(error, "clCreateCommandQueueWithProperties");
}

Session::~Session() {
  for (auto &[name, kernel] : kernels_) clReleaseKernel(kernel);
  for (cl_program program : programs_) clReleaseProgram(program);
  if (queue_) clReleaseCommandQueue(queue_);
  if (context_) clReleaseContext(context_);
}

double Session::build(const char *source) {
  auto start = Clock::now();
  cl_int error = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context_, 1, &source, nullptr, &error);
  check(error, "clCreateProgramWithSource");
  programs_.push_back(program);
  error = clBuildProgram(program, 1, &device_, "", nullptr, nullptr);
  if (error != CL_SUCCESS)
    throw ClError(error, "clBuildProgram failed; build log:\n" + buildLog(program, device_));
  cl_uint count = 0;
  check(clCreateKernelsInProgram(program, 0, nullptr, &count), "clCreateKernelsInProgram");
  std::vector<cl_kernel> kernels(count);
  check(clCreateKernelsInProgram(program, count, kernels.data(), nullptr),
        "clCreateKernelsInProgram");
  double ms = msSince(start);
  for (cl_kernel kernel : kernels) {
    char name[128] = {};
    check(clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name - 1, name, nullptr),
          "clGetKernelInfo");
    kernels_[name] = kernel;
  }
  return ms;
}

cl_kernel Session::kernel(const std::string &name) const {
  auto found = kernels_.find(name);
  if (found == kernels_.end())
    throw ClError(CL_INVALID_KERNEL_NAME, "the built program has no kernel '" + name + "'");
  return found->second;
}

Buffer Session::buffer(size_t bytes, const void *host, cl_mem_flags flags) {
  cl_int error = CL_SUCCESS;
  if (host) flags |= CL_MEM_COPY_HOST_PTR;
  Buffer buffer(clCreateBuffer(context_, flags, bytes, const_cast<void *>(host), &error));
  check(error, "clCreateBuffer");
  return buffer;
}

void Session::read(const Buffer &buffer, void *host, size_t bytes) {
  check(clEnqueueReadBuffer(queue_, buffer.get(), CL_TRUE, 0, bytes, host, 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
}

void Session::write(const Buffer &buffer, const void *host, size_t bytes) {
  check(clEnqueueWriteBuffer(queue_, buffer.get(), CL_TRUE, 0, bytes, host, 0, nullptr, nullptr),
        "clEnqueueWriteBuffer");
}

void Session::fill(const Buffer &buffer, uint32_t pattern, size_t bytes) {
  check(clEnqueueFillBuffer(queue_, buffer.get(), &pattern, sizeof pattern, 0, bytes, 0, nullptr,
                            nullptr),
        "clEnqueueFillBuffer");
  finish();
}

bool Session::imageSupport() const {
  cl_bool support = CL_FALSE;
  check(clGetDeviceInfo(device_, CL_DEVICE_IMAGE_SUPPORT, sizeof support, &support, nullptr),
        "clGetDeviceInfo");
  return support == CL_TRUE;
}

Buffer Session::image2d(size_t width, size_t height, cl_image_format format, const void *host,
                        cl_mem_flags flags) {
  cl_image_desc desc = {};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = width;
  desc.image_height = height;
  cl_int error = CL_SUCCESS;
  if (host) flags |= CL_MEM_COPY_HOST_PTR;
  Buffer image(clCreateImage(context_, flags, &format, &desc, const_cast<void *>(host), &error));
  check(error, "clCreateImage");
  return image;
}

void Session::readImage(const Buffer &image, void *host, size_t width, size_t height) {
  size_t origin[3] = {0, 0, 0}, region[3] = {width, height, 1};
  check(clEnqueueReadImage(queue_, image.get(), CL_TRUE, origin, region, 0, 0, host, 0, nullptr,
                           nullptr),
        "clEnqueueReadImage");
}

void Session::writeImage(const Buffer &image, const void *host, size_t width, size_t height) {
  size_t origin[3] = {0, 0, 0}, region[3] = {width, height, 1};
  check(clEnqueueWriteImage(queue_, image.get(), CL_TRUE, origin, region, 0, 0, host, 0, nullptr,
                            nullptr),
        "clEnqueueWriteImage");
}

Sampler Session::sampler(bool normalized_coords, cl_addressing_mode addressing,
                         cl_filter_mode filter) {
  cl_sampler_properties properties[] = {
      CL_SAMPLER_NORMALIZED_COORDS,
      static_cast<cl_sampler_properties>(normalized_coords ? CL_TRUE : CL_FALSE),
      CL_SAMPLER_ADDRESSING_MODE,
      addressing,
      CL_SAMPLER_FILTER_MODE,
      filter,
      0};
  cl_int error = CL_SUCCESS;
  Sampler sampler(clCreateSamplerWithProperties(context_, properties, &error));
  check(error, "clCreateSamplerWithProperties");
  return sampler;
}

void Session::enqueue(cl_kernel kernel, cl_uint dims, const size_t *global, const size_t *local) {
  check(clEnqueueNDRangeKernel(queue_, kernel, dims, nullptr, global, local, 0, nullptr, nullptr),
        "clEnqueueNDRangeKernel");
}

void Session::finish() { check(clFinish(queue_), "clFinish"); }

void Session::requireGroup(cl_kernel kernel, size_t items, size_t local_bytes) const {
  size_t kernel_max = 0;
  cl_ulong local_mem = 0;
  check(clGetKernelWorkGroupInfo(kernel, device_, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_max,
                                 &kernel_max, nullptr),
        "clGetKernelWorkGroupInfo");
  check(clGetDeviceInfo(device_, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_mem, &local_mem, nullptr),
        "clGetDeviceInfo");
  if (items > kernel_max || local_bytes > local_mem)
    throw ClError(CL_INVALID_WORK_GROUP_SIZE,
                  "the device cannot run " + std::to_string(items) + " work-items with " +
                      std::to_string(local_bytes) + " B of __local per group");
}

}  // namespace bench

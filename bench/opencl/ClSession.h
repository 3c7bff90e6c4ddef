// The OpenCL side of the benchmark: one platform's device, context, in-order
// queue and the built benchmark program, through the public API only (the ICD
// loader picks the platform by name, as any application would).
#pragma once

#include <CL/cl.h>

#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace bench {

// An OpenCL call that did not return CL_SUCCESS, or a device that cannot run
// a benchmark; the message ends with the error code.
struct ClError : std::runtime_error {
  ClError(cl_int code, const std::string &what);
  cl_int code;
};

void check(cl_int code, const char *what);

// An owned cl_mem.
class Buffer {
 public:
  explicit Buffer(cl_mem mem = nullptr) : mem_(mem) {}
  Buffer(Buffer &&other) noexcept : mem_(std::exchange(other.mem_, nullptr)) {}
  Buffer &operator=(Buffer &&other) noexcept;
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  ~Buffer();
  cl_mem get() const { return mem_; }

 private:
  cl_mem mem_;
};

// An owned cl_sampler.
class Sampler {
 public:
  explicit Sampler(cl_sampler sampler = nullptr) : sampler_(sampler) {}
  Sampler(Sampler &&other) noexcept : sampler_(std::exchange(other.sampler_, nullptr)) {}
  Sampler(const Sampler &) = delete;
  Sampler &operator=(const Sampler &) = delete;
  ~Sampler();
  cl_sampler get() const { return sampler_; }

 private:
  cl_sampler sampler_;
};

// A __local kernel argument of this many bytes.
struct LocalBytes {
  size_t bytes;
};

class Session {
 public:
  // Opens the first device of the first platform whose name contains
  // `platform_name`; throws ClError listing the platforms there are otherwise.
  explicit Session(const std::string &platform_name);
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  // Builds `source` and creates all its kernels; returns the milliseconds
  // that took. The build log is part of the error when it fails. Each call
  // builds one more program; kernel() finds the kernels of all of them.
  double build(const char *source);
  cl_kernel kernel(const std::string &name) const;

  // A buffer initialised from `host` when given (CL_MEM_COPY_HOST_PTR).
  Buffer buffer(size_t bytes, const void *host = nullptr, cl_mem_flags flags = CL_MEM_READ_WRITE);
  void read(const Buffer &buffer, void *host, size_t bytes);
  void write(const Buffer &buffer, const void *host, size_t bytes);  // waits
  // Fills with a 32-bit pattern and waits (used to poison outputs).
  void fill(const Buffer &buffer, uint32_t pattern, size_t bytes);
  // CL_DEVICE_IMAGE_SUPPORT.
  bool imageSupport() const;
  // A width x height 2D image of `format`, rows tightly packed, initialised
  // from `host` when given.
  Buffer image2d(size_t width, size_t height, cl_image_format format, const void *host = nullptr,
                 cl_mem_flags flags = CL_MEM_READ_WRITE);
  // The whole image, rows tightly packed; both wait.
  void readImage(const Buffer &image, void *host, size_t width, size_t height);
  void writeImage(const Buffer &image, const void *host, size_t width, size_t height);
  Sampler sampler(bool normalized_coords, cl_addressing_mode addressing, cl_filter_mode filter);

  // Enqueues; `local` may be null to let the platform choose.
  void enqueue(cl_kernel kernel, cl_uint dims, const size_t *global, const size_t *local);
  void finish();

  // Throws ClError(CL_INVALID_WORK_GROUP_SIZE) when the device or the kernel
  // cannot run work-groups of `items` work-items or `local_bytes` of __local.
  void requireGroup(cl_kernel kernel, size_t items, size_t local_bytes) const;

  const std::string &platformName() const { return platform_name_; }
  const std::string &deviceName() const { return device_name_; }

 private:
  cl_platform_id platform_ = nullptr;
  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  std::vector<cl_program> programs_;
  std::map<std::string, cl_kernel> kernels_;
  std::string platform_name_, device_name_;
};

// Sets the kernel's arguments in order: Buffers (and images) as cl_mem,
// Samplers as cl_sampler, LocalBytes as __local sizes, anything else by value.
template <class Arg>
void setArg(cl_kernel kernel, cl_uint index, const Arg &arg) {
  if constexpr (std::is_same_v<Arg, Buffer>) {
    cl_mem mem = arg.get();
    check(clSetKernelArg(kernel, index, sizeof mem, &mem), "clSetKernelArg");
  } else if constexpr (std::is_same_v<Arg, Sampler>) {
    cl_sampler sampler = arg.get();
    check(clSetKernelArg(kernel, index, sizeof sampler, &sampler), "clSetKernelArg (sampler)");
  } else if constexpr (std::is_same_v<Arg, LocalBytes>) {
    check(clSetKernelArg(kernel, index, arg.bytes, nullptr), "clSetKernelArg (__local)");
  } else {
    static_assert(std::is_trivially_copyable_v<Arg>);
    check(clSetKernelArg(kernel, index, sizeof arg, &arg), "clSetKernelArg");
  }
}

template <class... Args>
void setArgs(cl_kernel kernel, const Args &...args) {
  cl_uint index = 0;
  (setArg(kernel, index++, args), ...);
}

}  // namespace bench

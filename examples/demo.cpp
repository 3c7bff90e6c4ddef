// Lockstep demo: a tiled matrix multiplication and a work-group reduction, both
// built on __local memory and barriers, run on the platform named on the
// command line (default "Lockstep") and checked against the host.
//
//   lockstep-demo [platform-name-substring] [matrix-size]
//
// Exit status 0 on PASS, 1 on a wrong result, 2 when OpenCL fails.
#include <CL/cl.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

const char *kSource = R"CLC(
#define TILE 16
// C = A * B for n x n matrices, n a multiple of TILE. Each work-group stages a
// TILE x TILE block of A and of B in __local memory; the barriers keep every
// work-item from reading a tile before all have written it, and from
// overwriting it before all have used it.
kernel void matmul(global const float *a, global const float *b, global float *c, uint n) {
  local float ta[TILE][TILE], tb[TILE][TILE];
  uint lx = get_local_id(0), ly = get_local_id(1);
  uint col = get_global_id(0), row = get_global_id(1);
  float sum = 0.0f;
  for (uint t = 0; t < n / TILE; ++t) {
    ta[ly][lx] = a[row * n + t * TILE + lx];
    tb[ly][lx] = b[(t * TILE + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < TILE; ++k) sum += ta[ly][k] * tb[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = sum;
}

// One partial sum per work-group: a tree reduction in __local memory.
kernel void reduce(global const float *in, global float *partial, local float *scratch) {
  uint lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(0)] = scratch[0];
}
)CLC";

struct Failure {
  cl_int code;
  const char *what;
};

void check(cl_int code, const char *what) {
  if (code != CL_SUCCESS) throw Failure{code, what};
}

std::string platformName(cl_platform_id platform) {
  char name[256] = {};
  clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, nullptr);
  return name;
}

cl_platform_id findPlatform(const std::string &wanted) {
  cl_uint count = 0;
  check(clGetPlatformIDs(0, nullptr, &count), "clGetPlatformIDs");
  std::vector<cl_platform_id> platforms(count);
  check(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs");
  for (cl_platform_id platform : platforms)
    if (platformName(platform).find(wanted) != std::string::npos) return platform;
  std::fprintf(stderr, "no OpenCL platform named like '%s'; found:\n", wanted.c_str());
  for (cl_platform_id platform : platforms)
    std::fprintf(stderr, "  %s\n", platformName(platform).c_str());
  throw Failure{CL_INVALID_PLATFORM, "finding the platform"};
}

// Owns the OpenCL objects of one run.
struct Session {
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;
  std::vector<cl_mem> buffers;
  std::vector<cl_kernel> kernels;
  ~Session() {
    for (cl_kernel k : kernels) clReleaseKernel(k);
    for (cl_mem m : buffers) clReleaseMemObject(m);
    if (program) clReleaseProgram(program);
    if (queue) clReleaseCommandQueue(queue);
    if (context) clReleaseContext(context);
  }
  cl_mem buffer(cl_mem_flags flags, size_t bytes, const void *data) {
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(context, flags | (data ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                              const_cast<void *>(data), &err);
    check(err, "clCreateBuffer");
    buffers.push_back(m);
    return m;
  }
  cl_kernel kernel(const char *name) {
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, name, &err);
    check(err, "clCreateKernel");
    kernels.push_back(k);
    return k;
  }
};

void build(Session &s, cl_device_id device) {
  cl_int err = CL_SUCCESS;
  s.program = clCreateProgramWithSource(s.context, 1, &kSource, nullptr, &err);
  check(err, "clCreateProgramWithSource");
  err = clBuildProgram(s.program, 1, &device, "-cl-std=CL3.0", nullptr, nullptr);
  if (err != CL_SUCCESS) {
    size_t size = 0;
    clGetProgramBuildInfo(s.program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    clGetProgramBuildInfo(s.program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    std::fprintf(stderr, "build log:\n%s\n", log.c_str());
  }
  check(err, "clBuildProgram");
}

double seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// Returns true when the device's product matches the host's.
bool runMatmul(Session &s, cl_uint n) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> a(size_t(n) * n), b(a.size()), c(a.size());
  for (float &v : a) v = dist(rng);
  for (float &v : b) v = dist(rng);
  cl_mem ma = s.buffer(CL_MEM_READ_ONLY, a.size() * 4, a.data());
  cl_mem mb = s.buffer(CL_MEM_READ_ONLY, b.size() * 4, b.data());
  cl_mem mc = s.buffer(CL_MEM_WRITE_ONLY, c.size() * 4, nullptr);
  cl_kernel k = s.kernel("matmul");
  check(clSetKernelArg(k, 0, sizeof ma, &ma), "clSetKernelArg");
  check(clSetKernelArg(k, 1, sizeof mb, &mb), "clSetKernelArg");
  check(clSetKernelArg(k, 2, sizeof mc, &mc), "clSetKernelArg");
  check(clSetKernelArg(k, 3, sizeof n, &n), "clSetKernelArg");
  size_t global[2] = {n, n}, local[2] = {16, 16};
  auto start = std::chrono::steady_clock::now();
  check(clEnqueueNDRangeKernel(s.queue, k, 2, nullptr, global, local, 0, nullptr, nullptr),
        "clEnqueueNDRangeKernel(matmul)");
  check(clEnqueueReadBuffer(s.queue, mc, CL_TRUE, 0, c.size() * 4, c.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  double deviceTime = seconds(start);
  double maxError = 0;
  for (cl_uint row = 0; row < n; ++row)
    for (cl_uint col = 0; col < n; ++col) {
      double want = 0;
      for (cl_uint k2 = 0; k2 < n; ++k2) want += double(a[row * n + k2]) * b[k2 * n + col];
      maxError = std::fmax(maxError, std::fabs(want - c[row * n + col]));
    }
  // Each entry sums n products of values in [-1, 1] in float; the rounding
  // error of such a sum stays far below n * 2^-20.
  double tolerance = n * 0x1p-20;
  std::printf(
      "matmul %ux%u, 16x16 tiles in __local memory: %.3f s, C[0]=%.6f C[last]=%.6f, "
      "max |error| vs host = %.3g (tolerance %.3g)\n",
      n, n, deviceTime, c.front(), c.back(), maxError, tolerance);
  return maxError <= tolerance;
}

bool runReduce(Session &s) {
  const size_t n = size_t(1) << 22, local = 256, groups = n / local;
  std::vector<float> in(n);
  for (size_t i = 0; i < n; ++i) in[i] = float(i % 1000) * 0.25f;  // exact in float
  cl_mem mi = s.buffer(CL_MEM_READ_ONLY, n * 4, in.data());
  cl_mem mp = s.buffer(CL_MEM_WRITE_ONLY, groups * 4, nullptr);
  cl_kernel k = s.kernel("reduce");
  check(clSetKernelArg(k, 0, sizeof mi, &mi), "clSetKernelArg");
  check(clSetKernelArg(k, 1, sizeof mp, &mp), "clSetKernelArg");
  check(clSetKernelArg(k, 2, local * sizeof(float), nullptr), "clSetKernelArg");
  check(clEnqueueNDRangeKernel(s.queue, k, 1, nullptr, &n, &local, 0, nullptr, nullptr),
        "clEnqueueNDRangeKernel(reduce)");
  std::vector<float> partial(groups);
  check(
      clEnqueueReadBuffer(s.queue, mp, CL_TRUE, 0, groups * 4, partial.data(), 0, nullptr, nullptr),
      "clEnqueueReadBuffer");
  // Every partial sum is at most 256 * 249.75 with quarter steps: exact in float.
  size_t wrong = 0;
  double total = 0, want = 0;
  for (size_t g = 0; g < groups; ++g) {
    double groupWant = 0;
    for (size_t i = g * local; i < (g + 1) * local; ++i) groupWant += in[i];
    wrong += partial[g] != groupWant;
    total += partial[g];
    want += groupWant;
  }
  std::printf(
      "reduce %zu floats in work-groups of %zu: sum = %.2f (host %.2f), "
      "%zu of %zu group sums wrong\n",
      n, local, total, want, wrong, groups);
  return wrong == 0;
}

}  // namespace

int main(int argc, char **argv) {
  std::string wanted = argc > 1 ? argv[1] : "Lockstep";
  cl_uint n = argc > 2 ? cl_uint(std::strtoul(argv[2], nullptr, 10)) : 512;
  if (n == 0 || n % 16 != 0) {
    std::fprintf(stderr, "matrix size must be a positive multiple of 16\n");
    return 2;
  }
  try {
    cl_platform_id platform = findPlatform(wanted);
    cl_device_id device = nullptr;
    check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, nullptr), "clGetDeviceIDs");
    char deviceName[256] = {};
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof deviceName, deviceName, nullptr);
    std::printf("platform: %s\ndevice:   %s\n", platformName(platform).c_str(), deviceName);
    Session s;
    cl_int err = CL_SUCCESS;
    s.context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    check(err, "clCreateContext");
    s.queue = clCreateCommandQueueWithProperties(s.context, device, nullptr, &err);
    check(err, "clCreateCommandQueueWithProperties");
    build(s, device);
    bool ok = runMatmul(s, n);
    ok = runReduce(s) && ok;
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
  } catch (const Failure &failure) {
    std::fprintf(stderr, "%s failed with error %d\nFAIL\n", failure.what, failure.code);
    return 2;
  }
}

// mandelbrot_launches [SECS] [WIDTH]: a probe, not a benchmark. The
// benchmark's mandelbrot kernel on the first OpenCL platform the loader
// gives (OCL_ICD_VENDORS picks one), launched back to back for SECS seconds
// (default 2) with NULL local size, with no host reference between launches
// (lockstep-bench checks every run, which leaves the other cores idle for
// most of a 16-core run): so that 16 single-core copies of it run their
// kernels at the same time. Prints Mpixel/s over the run (after one warm-up
// launch) and the middle pixel's count; exits 1 if an OpenCL call fails or
// that count is not 256 (the pixel lies in the set).
//
// Build: cc -O2 -o mandelbrot_launches mandelbrot_launches.c -lOpenCL
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const char *kSource =
    "kernel void mandelbrot(global uint *iters, uint width, float x0, float y0, float dx,\n"
    "                       float dy, uint max_iter) {\n"
    "  uint px = get_global_id(0), py = get_global_id(1);\n"
    "  float cr = x0 + px * dx, ci = y0 + py * dy;\n"
    "  float zr = 0.0f, zi = 0.0f;\n"
    "  uint k = 0;\n"
    "  while (k < max_iter && zr * zr + zi * zi <= 4.0f) {\n"
    "    float t = zr * zr - zi * zi + cr;\n"
    "    zi = 2.0f * zr * zi + ci;\n"
    "    zr = t;\n"
    "    ++k;\n"
    "  }\n"
    "  iters[py * width + px] = k;\n"
    "}\n";

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int failed(const char *what, cl_int error) {
  if (error == CL_SUCCESS) return 0;
  printf("%s failed: %d\n", what, error);
  return 1;
}

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 2;
  cl_uint width = argc > 2 ? (cl_uint)atoi(argv[2]) : 2048, height = width * 3 / 4, maxIter = 256;
  float x0 = -2.1f, y0 = -1.2f, dx = 3.0f / width, dy = 2.4f / height;
  cl_platform_id platform;
  cl_device_id device;
  cl_int error;
  if (failed("clGetPlatformIDs", clGetPlatformIDs(1, &platform, NULL)) ||
      failed("clGetDeviceIDs", clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL)))
    return 1;
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &error);
  if (failed("clCreateContext", error)) return 1;
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &error);
  if (failed("clCreateCommandQueueWithProperties", error)) return 1;
  cl_program program = clCreateProgramWithSource(context, 1, &kSource, NULL, &error);
  if (failed("clCreateProgramWithSource", error) ||
      failed("clBuildProgram", clBuildProgram(program, 1, &device, "", NULL, NULL)))
    return 1;
  cl_kernel kernel = clCreateKernel(program, "mandelbrot", &error);
  if (failed("clCreateKernel", error)) return 1;
  cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, (size_t)width * height * 4, NULL, &error);
  if (failed("clCreateBuffer", error)) return 1;
  clSetKernelArg(kernel, 0, sizeof out, &out);
  clSetKernelArg(kernel, 1, sizeof width, &width);
  clSetKernelArg(kernel, 2, sizeof x0, &x0);
  clSetKernelArg(kernel, 3, sizeof y0, &y0);
  clSetKernelArg(kernel, 4, sizeof dx, &dx);
  clSetKernelArg(kernel, 5, sizeof dy, &dy);
  clSetKernelArg(kernel, 6, sizeof maxIter, &maxIter);
  size_t global[2] = {width, height};
  long launches = -1;  // the first launch is a warm-up
  double t0 = 0, t = 0;
  do {
    if (launches == 0) t0 = now();
    if (failed("clEnqueueNDRangeKernel",
               clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global, NULL, 0, NULL, NULL)) ||
        failed("clFinish", clFinish(queue)))
      return 1;
    ++launches;
  } while (launches < 1 || (t = now()) - t0 < seconds);
  // The middle pixel, c = -0.6, lies in the set: it must have gone the whole way.
  cl_uint middle = 0;
  if (failed(
          "clEnqueueReadBuffer",
          clEnqueueReadBuffer(queue, out, CL_TRUE, ((size_t)(height / 2) * width + width / 2) * 4,
                              sizeof middle, &middle, 0, NULL, NULL)))
    return 1;
  printf("MB %.1f Mpixel/s launches %ld center %u\n",
         (double)launches * width * height / (t - t0) / 1e6, launches, middle);
  return middle == maxIter ? 0 : 1;
}

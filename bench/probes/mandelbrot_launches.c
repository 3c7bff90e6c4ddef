// mandelbrot_launches [SECS] [WIDTH]: a probe, not a benchmark. The
// benchmark's mandelbrot kernel on the first OpenCL platform the loader
// gives (OCL_ICD_VENDORS picks one), launched back to back for SECS seconds
// (default 2) with NULL local size, with no host reference between launches
// (lockstep-bench checks every run, which leaves the other cores idle for
// most of a 16-core run): so that 16 single-core copies of it run their
// kernels at the same time. Prints Mpixel/s over the run and the middle
// pixel's count (256: it lies in the set).
//
// Build: cc -O2 -o mandelbrot_launches mandelbrot_launches.c -lOpenCL
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now() { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static const char *src =
    "kernel void mandelbrot(global uint *iters, uint width, float x0, float y0, float dx, float dy, uint max_iter) {\n"
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
int main(int argc, char **argv) {
  double secs = argc > 1 ? atof(argv[1]) : 2;
  cl_uint width = argc > 2 ? atoi(argv[2]) : 2048, height = width * 3 / 4, maxIter = 256;
  float x0 = -2.1f, y0 = -1.2f, dx = 3.0f / width, dy = 2.4f / height;
  cl_platform_id p;
  if (clGetPlatformIDs(1, &p, NULL) != CL_SUCCESS) { printf("no OpenCL platform\n"); return 1; }
  cl_device_id d; clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL);
  cl_int e; cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  cl_command_queue q = clCreateCommandQueueWithProperties(c, d, NULL, &e);
  cl_program pr = clCreateProgramWithSource(c, 1, &src, NULL, &e);
  if ((e = clBuildProgram(pr, 1, &d, "", NULL, NULL))) { printf("build %d\n", e); return 1; }
  cl_kernel k = clCreateKernel(pr, "mandelbrot", &e);
  cl_mem out = clCreateBuffer(c, CL_MEM_READ_WRITE, (size_t)width * height * 4, NULL, &e);
  clSetKernelArg(k, 0, sizeof out, &out); clSetKernelArg(k, 1, 4, &width); clSetKernelArg(k, 2, 4, &x0);
  clSetKernelArg(k, 3, 4, &y0); clSetKernelArg(k, 4, 4, &dx); clSetKernelArg(k, 5, 4, &dy); clSetKernelArg(k, 6, 4, &maxIter);
  size_t g[2] = {width, height};
  clEnqueueNDRangeKernel(q, k, 2, NULL, g, NULL, 0, NULL, NULL); clFinish(q);
  long n = 0; double t0 = now(), t;
  do { clEnqueueNDRangeKernel(q, k, 2, NULL, g, NULL, 0, NULL, NULL); clFinish(q); ++n; } while ((t = now()) - t0 < secs);
  cl_uint probe[4]; clEnqueueReadBuffer(q, out, CL_TRUE, (size_t)(height / 2) * width * 4 + width / 2 * 4, 16, probe, 0, NULL, NULL);
  printf("MB %.1f Mpixel/s launches %ld center %u\n", (double)n * width * height / (t - t0) / 1e6, n, probe[0]);
  return 0;
}

// An LD_PRELOAD shim that saves every OpenCL C program a host program builds
// (its source and build options), so that a compiler change can be checked
// against the kernels real applications use (scripts/dev/ir-snapshot).
//
//   cc -shared -fPIC -O2 -o /tmp/capture.so scripts/dev/capture_programs.c -ldl
//   LOCKSTEP_CAPTURE_DIR=/tmp/kernels LD_PRELOAD=/tmp/capture.so some-app
//
// Each distinct (source, options) pair becomes DIR/<hash>.cl and
// DIR/<hash>.options. The shim wraps the ICD loader's clCreateProgramWithSource,
// clBuildProgram and clCompileProgram and passes every call on unchanged.
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kSlots = 4096 };
static struct { cl_program program; char *source; } slots[kSlots];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t fnv(const char *text, uint64_t hash) {
  for (; *text; ++text) hash = (hash ^ (unsigned char)*text) * 1099511628211ull;
  return hash;
}

static void save(cl_program program, const char *options) {
  const char *dir = getenv("LOCKSTEP_CAPTURE_DIR");
  if (!dir) return;
  pthread_mutex_lock(&lock);
  const char *source = NULL;
  for (int i = 0; i < kSlots; ++i)
    if (slots[i].program == program) source = slots[i].source;
  if (source) {
    if (!options) options = "";
    uint64_t hash = fnv(options, fnv(source, 1469598103934665603ull));
    char path[4096];
    snprintf(path, sizeof path, "%s/%016llx.cl", dir, (unsigned long long)hash);
    FILE *file = fopen(path, "w");
    if (file) { fputs(source, file); fclose(file); }
    snprintf(path, sizeof path, "%s/%016llx.options", dir, (unsigned long long)hash);
    file = fopen(path, "w");
    if (file) { fputs(options, file); fclose(file); }
  }
  pthread_mutex_unlock(&lock);
}

cl_program clCreateProgramWithSource(cl_context context, cl_uint count, const char **strings,
                                     const size_t *lengths, cl_int *errcode_ret) {
  static cl_program (*next)(cl_context, cl_uint, const char **, const size_t *, cl_int *);
  if (!next) next = dlsym(RTLD_NEXT, "clCreateProgramWithSource");
  cl_program program = next(context, count, strings, lengths, errcode_ret);
  if (!program || !strings) return program;
  size_t total = 0;
  for (cl_uint i = 0; i < count; ++i)
    total += lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
  char *source = malloc(total + 1), *end = source;
  for (cl_uint i = 0; i < count; ++i) {
    size_t length = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
    memcpy(end, strings[i], length);
    end += length;
  }
  *end = 0;
  pthread_mutex_lock(&lock);
  static int next_slot;
  free(slots[next_slot].source);
  slots[next_slot].program = program;
  slots[next_slot].source = source;
  next_slot = (next_slot + 1) % kSlots;
  pthread_mutex_unlock(&lock);
  return program;
}

cl_int clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id *devices,
                      const char *options, void (CL_CALLBACK *notify)(cl_program, void *), void *data) {
  static cl_int (*next)(cl_program, cl_uint, const cl_device_id *, const char *,
                        void (CL_CALLBACK *)(cl_program, void *), void *);
  if (!next) next = dlsym(RTLD_NEXT, "clBuildProgram");
  save(program, options);
  return next(program, num_devices, devices, options, notify, data);
}

cl_int clCompileProgram(cl_program program, cl_uint num_devices, const cl_device_id *devices,
                        const char *options, cl_uint num_headers, const cl_program *headers,
                        const char **header_names, void (CL_CALLBACK *notify)(cl_program, void *),
                        void *data) {
  static cl_int (*next)(cl_program, cl_uint, const cl_device_id *, const char *, cl_uint,
                        const cl_program *, const char **, void (CL_CALLBACK *)(cl_program, void *), void *);
  if (!next) next = dlsym(RTLD_NEXT, "clCompileProgram");
  if (num_headers == 0) save(program, options);
  return next(program, num_devices, devices, options, num_headers, headers, header_names, notify, data);
}

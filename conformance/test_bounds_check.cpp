// Bounds checking mode: with LOCKSTEP_CHECK_BOUNDS=1 in the environment when
// a program is built, an access of a kernel outside its buffer (a __global
// or __constant buffer, a __local argument or variable) does not happen: the
// launch fails (a negative execution status on its event) and stderr names
// the kernel, the source place (program.cl:LINE:COL), the argument, the byte
// offset and the work-item. Memory next to the buffer stays as it was, and
// correct kernels run silently with right results. An SVM pointer argument
// is checked against the end of its allocation; other host memory given as
// one has no limit.
#include <algorithm>
#include <cstring>

#include "Capture.h"
#include "ClTest.h"

namespace lockstep::test {
namespace {

class BoundsCheck : public ClTest {
 protected:
  void SetUp() override {
    ClTest::SetUp();
    if (HasFatalFailure()) return;
    if (platformString(platform_, CL_PLATFORM_NAME).find("Lockstep") == std::string::npos)
      GTEST_SKIP() << "LOCKSTEP_CHECK_BOUNDS is Lockstep's";
  }
  cl_kernel checkedKernel(const std::string &source, const char *name) {
    ScopedEnv check("LOCKSTEP_CHECK_BOUNDS", "1");
    return kernel(source, name);
  }
  // Launches, waits, and returns the event's final execution status; `log`
  // gets what was written to stderr meanwhile.
  cl_int launchStatus(cl_kernel k, std::vector<size_t> global, std::vector<size_t> local, std::string &log) {
    StderrCapture capture;
    cl_event event = nullptr;
    cl_int err = clEnqueueNDRangeKernel(queue_, k, cl_uint(global.size()), nullptr, global.data(),
                                        local.empty() ? nullptr : local.data(), 0, nullptr, &event);
    EXPECT_CL(err);
    if (err != CL_SUCCESS) return err;
    track(event);
    err = clWaitForEvents(1, &event);
    cl_int status = CL_COMPLETE;
    EXPECT_CL(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr));
    if (status < 0) {
      EXPECT_EQ(err, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) << errorName(err);
    }
    log = capture.take();
    return status;
  }
  // The launch fails with CL_OUT_OF_RESOURCES and stderr holds every piece.
  void expectReported(cl_kernel k, std::vector<size_t> global, std::vector<size_t> local,
                      std::vector<std::string> pieces) {
    std::string log;
    cl_int status = launchStatus(k, global, local, log);
    EXPECT_EQ(status, CL_OUT_OF_RESOURCES) << errorName(status) << "; stderr: " << log;
    EXPECT_NE(log.find("Lockstep bounds check"), std::string::npos) << log;
    for (const std::string &piece : pieces) EXPECT_NE(log.find(piece), std::string::npos) << "missing '" << piece << "' in: " << log;
    // The queue stays usable.
    EXPECT_CL(clFinish(queue_));
  }
  // A buffer of `count` ints inside a parent of `count + guard` ints, all
  // set to `fill`: what the kernel gets, and the parent to look at after.
  cl_mem guardedBuffer(size_t count, size_t guard, int fill, cl_mem &parent) {
    std::vector<int> init(count + guard, fill);
    parent = bufferFrom(init);
    cl_buffer_region region{0, count * sizeof(int)};
    cl_int err = CL_SUCCESS;
    cl_mem sub = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    EXPECT_CL(err);
    return sub ? track(sub) : nullptr;
  }
};

const char *kShiftedStore = R"CLC(kernel void shifted_store(global int *out, int shift) {
  int i = get_global_id(0);
  out[i + shift] = i;
}
)CLC";

TEST_F(BoundsCheck, StorePastTheEndStopsTheLaunchAndLeavesTheNeighbourAlone) {
  cl_kernel k = checkedKernel(kShiftedStore, "shifted_store");
  ASSERT_NE(k, nullptr);
  const size_t n = 256;
  cl_mem parent = nullptr;
  cl_mem out = guardedBuffer(n, 64, -7, parent);
  ASSERT_TRUE(setArgs(k, out, cl_int(1)));
  // Work-item n-1 stores at out[n], byte offset 4n of a 4n-byte buffer.
  expectReported(k, {n}, {64},
                 {"'shifted_store'", lineOf(kShiftedStore, "out[i + shift] = i"), "argument 0 'out'",
                  "4-byte store", "byte offset " + std::to_string(4 * n) + " of " + std::to_string(4 * n) + " bytes",
                  "(" + std::to_string(n - 1) + ",0,0)"});
  std::vector<int> all = read<int>(parent, n + 64);
  for (size_t i = n; i < n + 64; ++i) ASSERT_EQ(all[i], -7) << "memory after the buffer changed at " << i;
  // The same kernel in bounds: every store lands, silently.
  ASSERT_TRUE(setArgs(k, out, cl_int(0)));
  std::string log;
  EXPECT_EQ(launchStatus(k, {n}, {64}, log), CL_COMPLETE) << log;
  EXPECT_EQ(log, "");
  all = read<int>(parent, n + 64);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(all[i], int(i));
  for (size_t i = n; i < n + 64; ++i) ASSERT_EQ(all[i], -7);
}

TEST_F(BoundsCheck, LoadBeforeTheStartIsReportedWithItsNegativeOffset) {
  const char *source = R"CLC(kernel void previous(global const float *in, global float *out) {
  size_t i = get_global_id(0);
  out[i] = in[i - 1] + 1.0f;
}
)CLC";
  cl_kernel k = checkedKernel(source, "previous");
  ASSERT_NE(k, nullptr);
  cl_mem in = bufferFrom(std::vector<float>(100, 2.0f));
  cl_mem out = buffer(CL_MEM_READ_WRITE, 100 * sizeof(float));
  ASSERT_TRUE(setArgs(k, in, out));
  expectReported(k, {100}, {}, {"argument 0 'in'", "4-byte load", "byte offset -4", "(0,0,0)",
                                lineOf(source, "in[i - 1]")});
}

TEST_F(BoundsCheck, TwoDimensionalRangeNamesTheWorkItem) {
  const char *source = R"CLC(kernel void transpose(global const int *in, global int *out, int width) {
  int x = get_global_id(0), y = get_global_id(1);
  out[x * width + y] = in[y * width + x];
}
)CLC";
  cl_kernel k = checkedKernel(source, "transpose");
  ASSERT_NE(k, nullptr);
  // 16 x 8 items over 16 x 8 inputs, but `out` holds only 8 rows of 8.
  cl_mem in = bufferFrom(std::vector<int>(128, 1));
  cl_mem out = buffer(CL_MEM_READ_WRITE, 64 * sizeof(int));
  ASSERT_TRUE(setArgs(k, in, out, cl_int(8)));
  // x * 8 + y >= 64 first for x = 8: the first reported item has x >= 8.
  std::string log;
  cl_int status = launchStatus(k, {16, 8}, {16, 8}, log);
  EXPECT_EQ(status, CL_OUT_OF_RESOURCES) << log;
  EXPECT_NE(log.find("argument 1 'out'"), std::string::npos) << log;
  size_t at = log.find("work-item (");
  ASSERT_NE(at, std::string::npos) << log;
  unsigned x = 0, y = 0, z = 0;
  ASSERT_EQ(std::sscanf(log.c_str() + at, "work-item (%u,%u,%u)", &x, &y, &z), 3) << log;
  EXPECT_GE(x, 8u) << log;
  EXPECT_LT(y, 8u) << log;
  EXPECT_EQ(z, 0u) << log;
  // The reported offset is the one that work-item stores at.
  EXPECT_NE(log.find("byte offset " + std::to_string((x * 8 + y) * 4) + " of 256 bytes"), std::string::npos) << log;
}

TEST_F(BoundsCheck, LocalArgumentsAndVariablesAreChecked) {
  const char *source = R"CLC(kernel void local_arg(global int *out, local int *scratch) {
  int l = get_local_id(0);
  scratch[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[get_local_size(0) - 1 - l];
}
kernel void local_var(global int *out) {
  local int tile[16];
  int l = get_local_id(0);
  tile[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[l];
}
)CLC";
  cl_kernel arg = checkedKernel(source, "local_arg");
  cl_kernel var = checkedKernel(source, "local_var");
  ASSERT_TRUE(arg && var);
  cl_mem out = buffer(CL_MEM_READ_WRITE, 64 * sizeof(int));
  // 32 work-items a group, 16 ints of __local memory: item 16 is the first outside.
  ASSERT_TRUE(setArgs(arg, out, LocalBytes{16 * sizeof(int)}));
  expectReported(arg, {64}, {32}, {"argument 1 'scratch' (__local", "byte offset 64 of 64 bytes", "(16,0,0)"});
  ASSERT_TRUE(setArgs(var, out));
  expectReported(var, {64}, {32}, {"__local variable", "tile", "byte offset 64 of 64 bytes", "(16,0,0)"});
  // With room for every work-item both run right.
  ASSERT_TRUE(setArgs(arg, out, LocalBytes{32 * sizeof(int)}));
  ASSERT_TRUE(run(arg, {64}, {32}));
  std::vector<int> got = read<int>(out, 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(got[i], 31 - i % 32);
  ASSERT_TRUE(run(var, {32}, {16}));
  got = read<int>(out, 32);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(got[i], i % 16);
}

TEST_F(BoundsCheck, AccessesInHelperFunctionsAtomicsAndVloadsAreChecked) {
  const char *source = R"CLC(void put(global int *p, int i, int v) { p[i] = v; }
kernel void helper(global int *out) { put(out, get_global_id(0) * 2, 1); }
kernel void histogram(global const int *keys, global int *counts) {
  atomic_inc(&counts[keys[get_global_id(0)]]);
}
kernel void vectors(global const float *in, global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = vload4(i, in + 1);
}
kernel void null_buffer(global int *out) { out[get_global_id(0)] = 5; }
kernel void constants(constant int *table, global int *out, int stride) {
  out[get_global_id(0)] = table[get_global_id(0) * stride];
}
)CLC";
  cl_mem out = buffer(CL_MEM_READ_WRITE, 64 * sizeof(int));
  cl_kernel helper = checkedKernel(source, "helper");
  ASSERT_NE(helper, nullptr);
  ASSERT_TRUE(setArgs(helper, out));
  expectReported(helper, {64}, {}, {"argument 0 'out'", "(32,0,0)", lineOf(source, "p[i] = v")});

  cl_kernel histogram = checkedKernel(source, "histogram");
  ASSERT_NE(histogram, nullptr);
  std::vector<int> keys(64);
  for (int i = 0; i < 64; ++i) keys[i] = i % 8;
  keys[40] = 8;  // one past the 8 counters
  cl_mem keyBuffer = bufferFrom(keys);
  cl_mem parent = nullptr;
  cl_mem counts = guardedBuffer(8, 8, 0, parent);
  ASSERT_TRUE(setArgs(histogram, keyBuffer, counts));
  expectReported(histogram, {64}, {}, {"atomic", "argument 1 'counts'", "byte offset 32 of 32 bytes", "(40,0,0)"});
  std::vector<int> all = read<int>(parent, 16);
  for (int i = 8; i < 16; ++i) EXPECT_EQ(all[i], 0) << "counter after the buffer changed";

  // vload4(i, in + 1) reads in[4i+1 .. 4i+4]: the last item reads one float past.
  cl_kernel vectors = checkedKernel(source, "vectors");
  ASSERT_NE(vectors, nullptr);
  cl_mem in = bufferFrom(std::vector<float>(64, 1.0f));
  ASSERT_TRUE(setArgs(vectors, in, out));
  expectReported(vectors, {16}, {}, {"argument 0 'in'", "(15,0,0)"});

  // A NULL buffer argument has no bytes: the store is reported, not a crash.
  cl_kernel nullBuffer = checkedKernel(source, "null_buffer");
  ASSERT_NE(nullBuffer, nullptr);
  ASSERT_CL(clSetKernelArg(nullBuffer, 0, sizeof(cl_mem), nullptr));
  expectReported(nullBuffer, {4}, {}, {"argument 0 'out'", "of 0 bytes"});

  cl_kernel constants = checkedKernel(source, "constants");
  ASSERT_NE(constants, nullptr);
  cl_mem table = bufferFrom(std::vector<int>(32, 3), CL_MEM_READ_ONLY);
  ASSERT_TRUE(setArgs(constants, table, out, cl_int(2)));
  expectReported(constants, {32}, {}, {"argument 0 'table' (__constant", "(16,0,0)"});
  ASSERT_TRUE(setArgs(constants, table, out, cl_int(1)));
  ASSERT_TRUE(run(constants, {32}));
  for (int v : read<int>(out, 32)) EXPECT_EQ(v, 3);
}

// A clamp with a bound one too far (clamp to n instead of n - 1): the loop's
// checks cannot be decided before it, and the one access past the end is
// still found; clamped to n - 1 the same kernel runs silently.
TEST_F(BoundsCheck, ClampOneTooFarIsFound) {
  const char *source = R"CLC(kernel void clamped(global const float *in, global float *out, int last) {
  int i = get_global_id(0);
  out[i] = in[clamp(i + 1, 0, last)] + in[clamp(i / 3 - 1, 0, last)];
}
)CLC";
  cl_kernel k = checkedKernel(source, "clamped");
  ASSERT_NE(k, nullptr);
  const int n = 1000;
  std::vector<float> data = randomValues<float>(n, -1.0f, 1.0f);
  cl_mem in = bufferFrom(data);
  cl_mem out = buffer(CL_MEM_READ_WRITE, n * sizeof(float));
  ASSERT_TRUE(setArgs(k, in, out, cl_int(n)));
  expectReported(k, {size_t(n)}, {}, {"argument 0 'in'", "byte offset 4000 of 4000 bytes", "(999,0,0)"});
  ASSERT_TRUE(setArgs(k, in, out, cl_int(n - 1)));
  std::string log;
  EXPECT_EQ(launchStatus(k, {size_t(n)}, {}, log), CL_COMPLETE) << log;
  EXPECT_EQ(log, "");
  std::vector<float> got = read<float>(out, n);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(got[i], data[std::clamp(i + 1, 0, n - 1)] + data[std::clamp(i / 3 - 1, 0, n - 1)]) << i;
}

// A stencil's halo loaded into a __local tile by a loop of two rounds with
// clamped indices and a row times the width: the checks are settled before
// the work-item loops (bounds from the clamps, the peeled second round's
// guard, the product's corners), and each way of stepping outside is still
// found: a clamp one too far, a round one cell past the tile. In bounds, the
// results are a host sweep's.
TEST_F(BoundsCheck, HaloTileWithClampsAndRoundsIsCheckedWhereItCounts) {
  const char *source = R"CLC(#define T 16
#define H (T + 2)
kernel void halo(global const float *in, global float *out, int n, int hi, int cells) {
  local float tile[H * H];
  int lx = get_local_id(0), ly = get_local_id(1);
  int ox = get_group_id(0) * T - 1, oy = get_group_id(1) * T - 1;
  for (int i = ly * T + lx; i < cells; i += T * T) {
    int sx = clamp(ox + i % H, 0, hi);
    int sy = clamp(oy + i / H, 0, hi);
    tile[i] = in[sy * n + sx];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int x = get_global_id(0), y = get_global_id(1);
  out[y * n + x] = tile[(ly + 1) * H + lx + 1] + tile[ly * H + lx + 1] + tile[(ly + 2) * H + lx + 1] +
                   tile[(ly + 1) * H + lx] + tile[(ly + 1) * H + lx + 2];
}
)CLC";
  cl_kernel k = checkedKernel(source, "halo");
  ASSERT_NE(k, nullptr);
  const int n = 64, h = 18;
  std::vector<float> data = randomValues<float>(n * n, -1.0f, 1.0f);
  cl_mem in = bufferFrom(data);
  cl_mem out = buffer(CL_MEM_READ_WRITE, n * n * sizeof(float));
  ASSERT_TRUE(setArgs(k, in, out, cl_int(n), cl_int(n - 1), cl_int(h * h)));
  std::string log;
  EXPECT_EQ(launchStatus(k, {size_t(n), size_t(n)}, {16, 16}, log), CL_COMPLETE) << log;
  EXPECT_EQ(log, "");
  std::vector<float> got = read<float>(out, n * n);
  auto at = [&](int x, int y) { return data[std::clamp(y, 0, n - 1) * n + std::clamp(x, 0, n - 1)]; };
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      float want = at(x, y) + at(x, y - 1) + at(x, y + 1) + at(x - 1, y) + at(x + 1, y);
      ASSERT_NEAR(got[y * n + x], want, 1e-5f) << x << "," << y;
    }
  // The clamp lets the last column and row through: the bottom-right halo
  // cell reads in[n * n + n], past the end.
  ASSERT_TRUE(setArgs(k, in, out, cl_int(n), cl_int(n), cl_int(h * h)));
  expectReported(k, {size_t(n), size_t(n)}, {16, 16}, {"argument 0 'in'", "of 16384 bytes"});
  // One cell more than the tile holds: the second round's work-item 68
  // (lx 4, ly 4) stores one float past it.
  ASSERT_TRUE(setArgs(k, in, out, cl_int(n), cl_int(n - 1), cl_int(h * h + 1)));
  expectReported(k, {size_t(n), size_t(n)}, {16, 16}, {"__local variable", "tile", "byte offset 1296 of 1296 bytes"});
}

// Kernels in the shapes of real programs, all in bounds: no report, and the
// results of an unchecked build.
TEST_F(BoundsCheck, CorrectKernelsRunSilentlyWithRightResults) {
  const char *source = R"CLC(kernel void rows(global const float *in, global float *out, int width) {
  int y = get_global_id(0);
  float sum = 0.0f;
  for (int x = 0; x < width; ++x) sum += in[y * width + x];
  out[y] = sum;
}
kernel void stencil(global const float *in, global float *out, int n) {
  int i = get_global_id(0);
  float left = in[max(i - 1, 0)], right = in[min(i + 1, n - 1)];
  out[i] = (left + in[i] + right) / 3.0f;
}
typedef struct { float x, y, z; int tag; } Particle;
kernel void copy_structs(global const Particle *in, global Particle *out) {
  size_t i = get_global_id(0);
  out[i] = in[get_global_size(0) - 1 - i];
}
kernel void reduce(global const int *in, global int *out, local int *scratch) {
  int l = get_local_id(0);
  scratch[l] = in[get_global_id(0)];
  for (int s = get_local_size(0) / 2; s > 0; s /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < s) scratch[l] += scratch[l + s];
  }
  if (l == 0) out[get_group_id(0)] = scratch[0];
}
)CLC";
  const int width = 37, height = 50, n = 1000;
  std::vector<float> matrix = randomValues<float>(width * height, -1.0f, 1.0f);
  std::vector<float> line = randomValues<float>(n, -1.0f, 1.0f);
  std::vector<int> ints = randomValues<int>(1024, -1000, 1000);
  std::string log;
  {
    cl_kernel rows = checkedKernel(source, "rows");
    ASSERT_NE(rows, nullptr);
    cl_mem in = bufferFrom(matrix);
    cl_mem out = buffer(CL_MEM_READ_WRITE, height * sizeof(float));
    ASSERT_TRUE(setArgs(rows, in, out, cl_int(width)));
    EXPECT_EQ(launchStatus(rows, {size_t(height)}, {}, log), CL_COMPLETE) << log;
    EXPECT_EQ(log, "");
    std::vector<float> got = read<float>(out, height);
    for (int y = 0; y < height; ++y) {
      float sum = 0.0f;
      for (int x = 0; x < width; ++x) sum += matrix[y * width + x];
      EXPECT_NEAR(got[y], sum, 1e-4f) << y;
    }
  }
  {
    cl_kernel stencil = checkedKernel(source, "stencil");
    ASSERT_NE(stencil, nullptr);
    cl_mem in = bufferFrom(line);
    cl_mem out = buffer(CL_MEM_READ_WRITE, n * sizeof(float));
    ASSERT_TRUE(setArgs(stencil, in, out, cl_int(n)));
    EXPECT_EQ(launchStatus(stencil, {size_t(n)}, {}, log), CL_COMPLETE) << log;
    EXPECT_EQ(log, "");
    std::vector<float> got = read<float>(out, n);
    for (int i = 0; i < n; ++i) {
      float want = (line[std::max(i - 1, 0)] + line[i] + line[std::min(i + 1, n - 1)]) / 3.0f;
      EXPECT_NEAR(got[i], want, 1e-6f) << i;
    }
  }
  {
    struct Particle {
      float x, y, z;
      int tag;
    };
    std::vector<Particle> particles(300);
    for (size_t i = 0; i < particles.size(); ++i) particles[i] = {float(i), 2.0f * i, -1.0f * i, int(i)};
    cl_kernel copy = checkedKernel(source, "copy_structs");
    ASSERT_NE(copy, nullptr);
    cl_mem in = bufferFrom(particles);
    cl_mem out = buffer(CL_MEM_READ_WRITE, particles.size() * sizeof(Particle));
    ASSERT_TRUE(setArgs(copy, in, out));
    EXPECT_EQ(launchStatus(copy, {particles.size()}, {}, log), CL_COMPLETE) << log;
    EXPECT_EQ(log, "");
    std::vector<Particle> got = read<Particle>(out, particles.size());
    for (size_t i = 0; i < particles.size(); ++i) EXPECT_EQ(got[i].tag, int(particles.size() - 1 - i));
  }
  {
    cl_kernel reduce = checkedKernel(source, "reduce");
    ASSERT_NE(reduce, nullptr);
    cl_mem in = bufferFrom(ints);
    cl_mem out = buffer(CL_MEM_READ_WRITE, 16 * sizeof(int));
    ASSERT_TRUE(setArgs(reduce, in, out, LocalBytes{64 * sizeof(int)}));
    EXPECT_EQ(launchStatus(reduce, {1024}, {64}, log), CL_COMPLETE) << log;
    EXPECT_EQ(log, "");
    std::vector<int> got = read<int>(out, 16);
    for (int g = 0; g < 16; ++g) {
      int sum = 0;
      for (int i = 0; i < 64; ++i) sum += ints[g * 64 + i];
      EXPECT_EQ(got[g], sum) << g;
    }
  }
}

// An SVM pointer argument is checked against the end of its allocation,
// counted from the pointer: one into the middle of an allocation may reach
// the allocation's last byte and no further.
TEST_F(BoundsCheck, SvmPointerIntoAnAllocationIsCheckedAgainstItsEnd) {
  cl_kernel k = checkedKernel(kShiftedStore, "shifted_store");
  ASSERT_NE(k, nullptr);
  const size_t total = 300, offset = 44, n = total - offset;
  auto *svm = static_cast<int *>(clSVMAlloc(context_, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER,
                                            total * sizeof(int), 0));
  ASSERT_NE(svm, nullptr);
  std::fill(svm, svm + total, -3);
  ASSERT_EQ(clSetKernelArgSVMPointer(k, 0, svm + offset), CL_SUCCESS);
  cl_int shift = 0;
  ASSERT_EQ(clSetKernelArg(k, 1, sizeof shift, &shift), CL_SUCCESS);
  std::string log;
  EXPECT_EQ(launchStatus(k, {n}, {}, log), CL_COMPLETE) << log;
  EXPECT_EQ(log, "");
  for (size_t i = 0; i < total; ++i) ASSERT_EQ(svm[i], i < offset ? -3 : int(i - offset)) << i;
  // One element further: the store past the allocation's end is reported
  // with the bytes from the pointer to that end.
  shift = 1;
  ASSERT_EQ(clSetKernelArg(k, 1, sizeof shift, &shift), CL_SUCCESS);
  expectReported(k, {n}, {},
                 {"argument 0 'out'", "4-byte store",
                  "byte offset " + std::to_string(4 * n) + " of " + std::to_string(4 * n) + " bytes"});
  clSVMFree(context_, svm);
}

// Memory clSVMAlloc did not make (fine-grained system SVM) has no known
// end: a checked kernel reaches as far into it as it likes.
TEST_F(BoundsCheck, SystemMemoryArgumentHasNoLimit) {
  cl_kernel k = checkedKernel(kShiftedStore, "shifted_store");
  ASSERT_NE(k, nullptr);
  const size_t n = 1 << 16, shift = 3 << 16;
  std::vector<int> memory(n + shift, -9);
  ASSERT_EQ(clSetKernelArgSVMPointer(k, 0, memory.data()), CL_SUCCESS);
  cl_int s = cl_int(shift);
  ASSERT_EQ(clSetKernelArg(k, 1, sizeof s, &s), CL_SUCCESS);
  std::string log;
  EXPECT_EQ(launchStatus(k, {n}, {}, log), CL_COMPLETE) << log;
  EXPECT_EQ(log, "");
  for (size_t i = 0; i < n + shift; ++i) ASSERT_EQ(memory[i], i < shift ? -9 : int(i - shift)) << i;
}

}  // namespace
}  // namespace lockstep::test

// OpenCL C language features the device reports, exercised end to end:
// program-scope variables, the generic address space, __constant tables,
// structs and vectors passed by value, and narrow and wide integer types.
#include <cmath>
#include <cstring>

#include "ClTest.h"

namespace lockstep::test {
namespace {

class Language : public ClTest {};

// A program-scope global keeps its value from one launch to the next.
TEST_F(Language, ProgramScopeGlobalVariablesPersistAcrossLaunches) {
  if (!hasFeature("__opencl_c_program_scope_global_variables")) GTEST_SKIP();
  cl_program program = build(R"CLC(
    global int counter = 5;
    global float table[4] = {1.5f, 2.5f, 3.5f, 4.5f};
    kernel void bump(global int *out) {
      if (get_global_id(0) == 0) counter += 10;
    }
    kernel void get(global int *out) {
      out[0] = counter;
      out[1] = (int)(table[1] * 2.0f);
    }
  )CLC",
                             "-cl-std=CL3.0");
  ASSERT_NE(program, nullptr);
  size_t total = 0;
  ASSERT_CL(clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                  sizeof total, &total, nullptr));
  EXPECT_GE(total, sizeof(int) + 4 * sizeof(float));
  cl_kernel bump = kernelOf(program, "bump"), get = kernelOf(program, "get");
  ASSERT_TRUE(bump && get);
  cl_mem out = buffer(CL_MEM_READ_WRITE, 2 * sizeof(int));
  ASSERT_TRUE(setArgs(bump, out));
  ASSERT_TRUE(setArgs(get, out));
  ASSERT_TRUE(run(bump, {64}));
  ASSERT_TRUE(run(bump, {64}));
  ASSERT_TRUE(run(get, {1}));
  EXPECT_EQ(read<int>(out, 2), (std::vector<int>{25, 5}));
}

// One helper taking a generic pointer, called with global, local and private
// memory.
// cl_khr_expect_assume, which the device reports: its macro is defined in
// OpenCL C (1.2 and 3.0) and __builtin_expect / __builtin_assume compile
// and keep the program's meaning.
TEST_F(Language, ExpectAndAssume) {
  ASSERT_NE(deviceString(device_, CL_DEVICE_EXTENSIONS).find("cl_khr_expect_assume"), std::string::npos);
  const char *source = R"CLC(
    #ifndef cl_khr_expect_assume
    #error cl_khr_expect_assume is not defined
    #endif
    kernel void k(global const int *in, global int *out, int n) {
      __builtin_assume(n > 0);
      size_t i = get_global_id(0);
      int v = in[i];
      if (__builtin_expect(v % n == 0, 0)) v = -v;
      out[i] = v;
    }
  )CLC";
  for (const char *options : {"", "-cl-std=CL3.0"}) {
    cl_kernel k = kernel(source, "k", options);
    ASSERT_NE(k, nullptr) << options;
    std::vector<int> in = randomValues<int>(1000, -500, 500);
    cl_mem src = bufferFrom(in), dst = buffer(CL_MEM_READ_WRITE, in.size() * sizeof(int));
    ASSERT_TRUE(setArgs(k, src, dst, cl_int(7)));
    ASSERT_TRUE(run(k, {in.size()}));
    std::vector<int> got = read<int>(dst, in.size());
    for (size_t i = 0; i < in.size(); ++i) ASSERT_EQ(got[i], in[i] % 7 == 0 ? -in[i] : in[i]) << i;
  }
}

TEST_F(Language, GenericAddressSpace) {
  if (!hasFeature("__opencl_c_generic_address_space")) GTEST_SKIP();
  cl_kernel k = kernel(R"CLC(
    int sum3(const int *p) { return p[0] + p[1] + p[2]; }
    kernel void k(global const int *in, global int *out) {
      local int shared[3];
      int priv[3] = {100, 200, 300};
      uint i = get_global_id(0);
      if (get_local_id(0) == 0) { shared[0] = 1; shared[1] = 2; shared[2] = 3; }
      barrier(CLK_LOCAL_MEM_FENCE);
      out[i] = sum3(in + i) * 1000000 + sum3(shared) * 1000 + sum3(priv) / 100;
    }
  )CLC",
                       "k", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  std::vector<int> in = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  cl_mem mi = bufferFrom(in), mo = buffer(CL_MEM_WRITE_ONLY, 8 * sizeof(int));
  ASSERT_TRUE(setArgs(k, mi, mo));
  ASSERT_TRUE(run(k, {8}, {4}));
  std::vector<int> out = read<int>(mo, 8);
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(out[i], (in[i] + in[i + 1] + in[i + 2]) * 1000000 + 6000 + 6) << i;
}

// __constant program-scope tables, and a struct and vectors passed by value.
TEST_F(Language, ConstantTablesStructAndVectorArguments) {
  cl_kernel k = kernel(R"CLC(
    constant int primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};
    typedef struct { int a; float b; char c; long d; } params_t;
    kernel void k(global long *out, params_t p, float4 v, int3 w, uchar u, short s) {
      uint i = get_global_id(0);
      out[i] = primes[i % 8] * p.a + (long)(p.b * v.y) + p.c + p.d + w.z + u + s;
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  struct Params {
    cl_int a;
    cl_float b;
    cl_char c;
    cl_long d;
  } params = {3, 2.5f, -7, 1LL << 40};
  cl_float4 v = {{0.0f, 4.0f, 0.0f, 0.0f}};
  cl_int3 w = {{0, 0, 1000}};
  cl_uchar u = 200;
  cl_short s = -30000;
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, 16 * sizeof(cl_long));
  ASSERT_TRUE(setArgs(k, out, params, v, w, u, s));
  ASSERT_TRUE(run(k, {16}));
  const int primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};
  std::vector<cl_long> got = read<cl_long>(out, 16);
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(got[i], primes[i % 8] * 3 + 10 - 7 + (1LL << 40) + 1000 + 200 - 30000) << i;
}

// Wrap-around and widening of narrow and 64-bit integer arithmetic.
TEST_F(Language, IntegerTypesWrapAndWiden) {
  cl_kernel k = kernel(R"CLC(
    kernel void k(global const uint *x, global ulong *out) {
      uint i = get_global_id(0);
      uint v = x[i];
      uchar c = (uchar)v;
      c += 200;                        /* wraps modulo 256 */
      short s = (short)v;
      s = (short)(s * 3);              /* wraps modulo 65536 */
      ulong wide = (ulong)v * (ulong)v + 0x100000000ul;
      long sh = ((long)(int)v) >> 3;   /* arithmetic shift */
      out[4 * i + 0] = c;
      out[4 * i + 1] = (ulong)(long)s;
      out[4 * i + 2] = wide;
      out[4 * i + 3] = (ulong)sh;
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  const size_t n = 512;
  std::vector<cl_uint> x(n);
  std::uniform_int_distribution<cl_uint> dist;
  for (cl_uint &v : x) v = dist(rng_);
  cl_mem mx = bufferFrom(x), mo = buffer(CL_MEM_WRITE_ONLY, 4 * n * sizeof(cl_ulong));
  ASSERT_TRUE(setArgs(k, mx, mo));
  ASSERT_TRUE(run(k, {n}));
  std::vector<cl_ulong> out = read<cl_ulong>(mo, 4 * n);
  for (size_t i = 0; i < n; ++i) {
    cl_uint v = x[i];
    cl_ulong want[4] = {cl_uchar(cl_uchar(v) + 200), cl_ulong(int64_t(int16_t(int16_t(v) * 3))),
                        cl_ulong(v) * v + 0x100000000ull, cl_ulong(int64_t(int32_t(v)) >> 3)};
    for (int f = 0; f < 4; ++f) ASSERT_EQ(out[4 * i + f], want[f]) << f << " of " << v;
  }
}

// Vectors as wide as a register (uint16, float8), the way hashcat's kernels
// use them: a mixing round in a helper kept out of line (one work-item a
// call) and arithmetic in the kernel itself, run with one work-item per
// group (hashcat's choice on CPUs), with 64, and with the driver's choice.
TEST_F(Language, RegisterWideVectorsInHelpersAndKernels) {
  cl_kernel k = kernel(R"CLC(
    __attribute__((noinline)) void mix(uint16 *s, uint16 key) {
      for (int r = 0; r < 8; ++r) {
        *s += key;
        *s = rotate(*s, (uint16)(7));
        *s ^= *s >> 3;
      }
    }
    kernel void k(global const uint *in, global uint *out, global float *fout) {
      uint g = get_global_id(0);
      uint16 s = vload16(g, in);
      uint16 key = (uint16)(g) + (uint16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
      for (int i = 0; i < 4; ++i) {
        mix(&s, key);
        key = key * 3u + (uint16)(s.s0);
      }
      float8 f = convert_float8(s.lo & 0xffffu) * 0.5f + convert_float8(s.hi & 0xffu);
      vstore16(s ^ key, g, out);
      vstore8(f, g, fout);
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  const size_t n = 192;
  std::vector<cl_uint> in(16 * n);
  std::uniform_int_distribution<cl_uint> dist;
  for (cl_uint &v : in) v = dist(rng_);
  auto rotl = [](uint32_t v, int r) { return (v << r) | (v >> (32 - r)); };
  std::vector<cl_uint> want(16 * n);
  std::vector<float> wantF(8 * n);
  for (uint32_t g = 0; g < n; ++g) {
    uint32_t s[16], key[16];
    for (int l = 0; l < 16; ++l) s[l] = in[16 * g + l], key[l] = g + l;
    for (int i = 0; i < 4; ++i) {
      for (int r = 0; r < 8; ++r)
        for (int l = 0; l < 16; ++l) {
          s[l] = rotl(s[l] + key[l], 7);
          s[l] ^= s[l] >> 3;
        }
      for (int l = 0; l < 16; ++l) key[l] = key[l] * 3u + s[0];
    }
    for (int l = 0; l < 16; ++l) want[16 * g + l] = s[l] ^ key[l];
    for (int l = 0; l < 8; ++l) wantF[8 * g + l] = float(s[l] & 0xffffu) * 0.5f + float(s[8 + l] & 0xffu);
  }
  cl_mem min = bufferFrom(in), mo = buffer(CL_MEM_WRITE_ONLY, 16 * n * sizeof(cl_uint)),
         mf = buffer(CL_MEM_WRITE_ONLY, 8 * n * sizeof(float));
  ASSERT_TRUE(setArgs(k, min, mo, mf));
  for (size_t local : {size_t{1}, size_t{64}, size_t{0}}) {
    SCOPED_TRACE(local);
    ASSERT_TRUE(local ? run(k, {n}, {local}) : run(k, {n}));
    std::vector<cl_uint> out = read<cl_uint>(mo, 16 * n);
    std::vector<float> fout = read<float>(mf, 8 * n);
    for (size_t i = 0; i < 16 * n; ++i) ASSERT_EQ(out[i], want[i]) << "lane " << i % 16 << " of " << i / 16;
    for (size_t i = 0; i < 8 * n; ++i) ASSERT_EQ(fout[i], wantF[i]) << "lane " << i % 8 << " of " << i / 8;
  }
}

// Loops of a few rounds over vectors, shaped like clpeak's compute kernels:
// chains of multiply-adds on uint4 and uint8 (narrower than a register:
// their rounds are cut so that the work-items widen, unless -O3 unrolls
// them whole) and on uint16 and ulong8 (a register or more: left as they
// are). Wrapping integer arithmetic, so the host's answer is exact.
TEST_F(Language, VectorLoopsOfFewRounds) {
  cl_kernel k = kernel(R"CLC(
    #define STEP(x, y) x = x * y + y; y = y * x + x;
    #define STEP8(x, y) STEP(x, y) STEP(x, y) STEP(x, y) STEP(x, y)
    kernel void k(global uint *out, uint a) {
      uint g = get_global_id(0);
      uint4 x4 = (uint4)(a, a + 1, a + 2, a + 3), y4 = (uint4)(g);
      for (int i = 0; i < 16; ++i) { STEP8(x4, y4) }
      uint8 x8 = (uint8)(x4, x4 + 1u), y8 = (uint8)(g * 3u);
      for (int i = 0; i < 16; ++i) { STEP8(x8, y8) }
      uint16 x16 = (uint16)(x8, y8), y16 = (uint16)(g ^ a);
      for (int i = 0; i < 8; ++i) { STEP8(x16, y16) }
      ulong8 x64 = convert_ulong8(y8) << 7, y64 = (ulong8)(g);
      for (int i = 0; i < 8; ++i) { STEP8(x64, y64) }
      uint16 r = y16 ^ (uint16)(convert_uint8(y64), convert_uint8(y64 >> 32));
      vstore16(r, g, out);
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  const size_t n = 320;
  const cl_uint a = 12345;
  auto chain = []<typename T>(T *x, T *y, int lanes, int rounds) {
    for (int i = 0; i < rounds * 4; ++i)
      for (int l = 0; l < lanes; ++l) {
        x[l] = x[l] * y[l] + y[l];
        y[l] = y[l] * x[l] + x[l];
      }
  };
  std::vector<cl_uint> want(16 * n);
  for (uint32_t g = 0; g < n; ++g) {
    uint32_t x4[4] = {a, a + 1, a + 2, a + 3}, y4[4] = {g, g, g, g};
    chain(x4, y4, 4, 16);
    uint32_t x8[8], y8[8];
    for (int l = 0; l < 8; ++l) x8[l] = x4[l % 4] + (l >= 4 ? 1 : 0), y8[l] = g * 3u;
    chain(x8, y8, 8, 16);
    uint32_t x16[16], y16[16];
    for (int l = 0; l < 16; ++l) x16[l] = l < 8 ? x8[l] : y8[l - 8], y16[l] = g ^ a;
    chain(x16, y16, 16, 8);
    uint64_t x64[8], y64[8];
    for (int l = 0; l < 8; ++l) x64[l] = uint64_t{y8[l]} << 7, y64[l] = g;
    chain(x64, y64, 8, 8);
    for (int l = 0; l < 16; ++l) want[16 * g + l] = y16[l] ^ uint32_t(l < 8 ? y64[l] : y64[l - 8] >> 32);
  }
  cl_mem mo = buffer(CL_MEM_WRITE_ONLY, 16 * n * sizeof(cl_uint));
  ASSERT_TRUE(setArgs(k, mo, a));
  for (size_t local : {size_t{1}, size_t{64}, size_t{0}}) {
    SCOPED_TRACE(local);
    ASSERT_TRUE(local ? run(k, {n}, {local}) : run(k, {n}));
    std::vector<cl_uint> out = read<cl_uint>(mo, 16 * n);
    for (size_t i = 0; i < 16 * n; ++i) ASSERT_EQ(out[i], want[i]) << "lane " << i % 16 << " of " << i / 16;
  }
}

// mad may be a fused multiply-add or a multiply then an add (s6.15.2):
// every lane is one of the two, and nothing else.
TEST_F(Language, MadIsFusedOrSeparate) {
  cl_kernel k = kernel(R"CLC(
    kernel void k(global const float *a, global const float *b, global const float *c, global float *out) {
      int i = get_global_id(0);
      out[i] = mad(a[i], b[i], c[i]);
      float4 v = mad(vload4(i, a), vload4(i, b), vload4(i, c));
      vstore4(v, i, out + get_global_size(0) * 4);
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  const size_t n = 1024;
  std::vector<float> a(4 * n), b(4 * n), c(4 * n);
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  for (size_t i = 0; i < 4 * n; ++i) a[i] = dist(rng_), b[i] = dist(rng_), c[i] = -a[i] * b[i] + dist(rng_) * 1e-3f;
  cl_mem ma = bufferFrom(a), mb = bufferFrom(b), mc = bufferFrom(c), mo = buffer(CL_MEM_WRITE_ONLY, 8 * n * sizeof(float));
  ASSERT_TRUE(setArgs(k, ma, mb, mc, mo));
  ASSERT_TRUE(run(k, {n}));
  std::vector<float> out = read<float>(mo, 8 * n);
  auto check = [&](size_t at, size_t i) {
    volatile float product = a[i] * b[i];
    float separate = product + c[i], fused = std::fma(a[i], b[i], c[i]);
    ASSERT_TRUE(out[at] == separate || out[at] == fused)
        << "mad(" << a[i] << ", " << b[i] << ", " << c[i] << ") = " << out[at] << ", not " << separate << " or " << fused;
  };
  for (size_t i = 0; i < n; ++i) check(i, i);
  for (size_t i = 0; i < 4 * n; ++i) check(4 * n + i, i);
}

// -cl-denorms-are-zero: denormal inputs read as zero and denormal results
// become zero (the spec allows it; PoCL does it too), in that kernel only:
// the same kernel built without the option keeps them, and so does the
// host thread that ran the groups (launches this small run on it).
TEST_F(Language, DenormsAreZeroOption) {
  const char *source = R"CLC(
    kernel void k(global const float *in, global const float *one, global float *out) {
      int i = get_global_id(0);
      out[2 * i] = in[i] + as_float(64);
      out[2 * i + 1] = in[i] * one[i];
    }
  )CLC";
  auto bits = [](uint32_t b) {
    float f;
    std::memcpy(&f, &b, sizeof f);
    return f;
  };
  std::vector<float> in = {0.0f, bits(0x40), bits(0x80000123), 1.0f, bits(0x007fffff), -2.5f};
  std::vector<float> one(in.size(), 1.0f);
  for (bool flush : {true, false}) {
    SCOPED_TRACE(flush ? "-cl-denorms-are-zero" : "default");
    cl_kernel k = kernel(source, "k", flush ? "-cl-denorms-are-zero" : "");
    ASSERT_NE(k, nullptr);
    cl_mem min = bufferFrom(in), mone = bufferFrom(one), mo = buffer(CL_MEM_WRITE_ONLY, 2 * in.size() * sizeof(float));
    ASSERT_TRUE(setArgs(k, min, mone, mo));
    ASSERT_TRUE(run(k, {in.size()}));
    std::vector<float> out = read<float>(mo, 2 * in.size());
    for (size_t i = 0; i < in.size(); ++i) {
      volatile float x = in[i], tiny = bits(64), unit = 1.0f;
      float sum = x + tiny, product = x * unit;  // the host keeps denormals
      auto flushed = [](float v) { return std::fpclassify(v) == FP_SUBNORMAL ? 0.0f : v; };
      // Flushed, the constant denormal reads as zero too.
      float wantSum = flush ? flushed(in[i]) : sum;
      float wantProduct = flush ? flushed(product) : product;
      ASSERT_EQ(out[2 * i], wantSum) << "sum " << i;
      ASSERT_EQ(out[2 * i + 1], wantProduct) << "product " << i;
    }
  }
  volatile float denormal = bits(0x40), unit = 1.0f;
  EXPECT_EQ(std::fpclassify(denormal * unit), FP_SUBNORMAL) << "the host thread's denormal mode changed";
}

// Small private arrays indexed by values: a table each work-item builds and
// reads at two data-dependent places, a histogram it counts into (stores at
// a value, the array zeroed by its initializer), a float array written and
// read at values; in launches whose work-item loops widen (PrivateArraySelects
// makes the arrays values) and in groups of one work-item. Indices come from
// the data, so each work-item takes other elements.
TEST_F(Language, PrivateArraysIndexedByValues) {
  cl_program program = build(R"CLC(
    kernel void lut(global const int *in, global int *out) {
      int i = get_global_id(0);
      int t[8];
      for (int k = 0; k < 8; k++) t[k] = k * k + i;
      out[i] = t[in[i] & 7] - t[(in[i] >> 3) & 7];
    }
    kernel void histogram(global const int *in, global int *out) {
      int i = get_global_id(0);
      int h[6] = {0};
      for (int k = 0; k < 5; k++) h[(in[i] >> (3 * k)) % 6]++;
      out[i] = h[0] + 10 * h[1] + 100 * h[2] + 1000 * h[3] + 10000 * h[4] + 100000 * h[5];
    }
    kernel void floats(global const int *in, global float *out) {
      int i = get_global_id(0);
      float f[4] = {1.5f, 2.5f, 3.5f, 4.5f};
      f[in[i] & 3] = (float)i;
      f[(in[i] >> 2) & 3] *= 2.0f;
      out[i] = f[(in[i] >> 4) & 3] + 0.25f * f[0];
    }
  )CLC",
                             "");
  ASSERT_NE(program, nullptr);
  const size_t n = 5000;
  std::vector<int> in = randomValues<int>(n, 0, 1 << 20);
  std::vector<int> lut(n), histogram(n);
  std::vector<float> floats(n);
  for (size_t i = 0; i < n; ++i) {
    int t[8];
    for (int k = 0; k < 8; k++) t[k] = k * k + int(i);
    lut[i] = t[in[i] & 7] - t[(in[i] >> 3) & 7];
    int h[6] = {0};
    for (int k = 0; k < 5; k++) h[(in[i] >> (3 * k)) % 6]++;
    histogram[i] = h[0] + 10 * h[1] + 100 * h[2] + 1000 * h[3] + 10000 * h[4] + 100000 * h[5];
    float f[4] = {1.5f, 2.5f, 3.5f, 4.5f};
    f[in[i] & 3] = float(i);
    f[(in[i] >> 2) & 3] *= 2.0f;
    floats[i] = f[(in[i] >> 4) & 3] + 0.25f * f[0];
  }
  cl_mem src = bufferFrom(in), dst = buffer(CL_MEM_READ_WRITE, n * sizeof(int));
  for (size_t local : {size_t(0), size_t(1)}) {
    std::vector<size_t> localSize = local ? std::vector<size_t>{local} : std::vector<size_t>{};
    for (const char *name : {"lut", "histogram", "floats"}) {
      cl_kernel k = kernelOf(program, name);
      ASSERT_NE(k, nullptr) << name;
      ASSERT_TRUE(setArgs(k, src, dst));
      ASSERT_TRUE(run(k, {n}, localSize)) << name;
      if (std::string(name) == "floats")
        EXPECT_EQ(read<float>(dst, n), floats) << "local size " << local;
      else
        EXPECT_EQ(read<int>(dst, n), std::string(name) == "lut" ? lut : histogram) << name << ", local size " << local;
    }
  }
}

// Kernel loops left by `continue` and `break` out of scopes with locals,
// which the front end routes through a cleanup switch (CleanupSwitches.cpp
// makes them branches, and the loops get their cuts): a sum that skips odd
// elements, a count that stops at the first negative one, over windows of
// every work-item's own, against the host, in widened launches and groups
// of one.
TEST_F(Language, LoopsLeftByContinueAndBreakInScopes) {
  cl_kernel k = kernel(R"CLC(
    kernel void k(global const int *in, global int *out, int n) {
      int i = get_global_id(0), s = 0, c = 0;
      for (int k = 0; k < n; k++) {
        int v = in[i + k];
        if (v & 1) continue;
        s += v;
      }
      for (int k = 0; k < n; k++) {
        int v = in[i + k] - 20;
        if (v < 0) break;
        c += v;
      }
      out[2 * i] = s;
      out[2 * i + 1] = c;
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  const size_t global = 3000;
  const int n = 37;
  std::vector<int> in = randomValues<int>(global + n, 0, 100);
  cl_mem src = bufferFrom(in), dst = buffer(CL_MEM_READ_WRITE, 2 * global * sizeof(int));
  for (size_t local : {size_t(0), size_t(1), size_t(100)}) {
    std::vector<size_t> localSize = local ? std::vector<size_t>{local} : std::vector<size_t>{};
    ASSERT_TRUE(setArgs(k, src, dst, cl_int(n)));
    ASSERT_TRUE(run(k, {global}, localSize));
    std::vector<int> out = read<int>(dst, 2 * global);
    for (size_t i = 0; i < global; ++i) {
      int s = 0, c = 0;
      for (int j = 0; j < n; j++)
        if (!(in[i + j] & 1)) s += in[i + j];
      for (int j = 0; j < n && in[i + j] - 20 >= 0; j++) c += in[i + j] - 20;
      ASSERT_EQ(out[2 * i], s) << "work-item " << i << ", local size " << local;
      ASSERT_EQ(out[2 * i + 1], c) << "work-item " << i << ", local size " << local;
    }
  }
}

}  // namespace
}  // namespace lockstep::test

// Built-in functions against the host: vector loads and stores (with half
// conversions), math within the spec's ULP limits, exact integer functions and
// saturating, rounding conversions.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "ClTest.h"

namespace lockstep::test {
namespace {

class Builtins : public ClTest {};

TEST_F(Builtins, VloadVstore) {
  cl_kernel k = kernel(R"CLC(
    kernel void k(global const float *in, global float *out, global const ushort *halves,
                  global float *from_half, global ushort *to_half) {
      size_t i = get_global_id(0);
      float4 a = vload4(i, in);
      float3 b = vload3(i, in + 1);               /* unaligned, 3-element stride */
      float2 c = vload2(0, in + 4 * i + 1);       /* offset pointer */
      vstore4(a * 2.0f, i, out);
      vstore3(b + 1.0f, i, out + 4 * get_global_size(0));
      vstore2(c, i, out + 7 * get_global_size(0));
      from_half[i] = vload_half(i, (global const half *)halves);
      vstore_half_rte(in[i] / 3.0f, i, (global half *)to_half);
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  const size_t n = 6;
  std::vector<float> in(4 * n + 4);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i) * 1.5f - 4.0f;
  // Half bit patterns and their exact values.
  std::vector<cl_ushort> halves = {0x3C00, 0xC000, 0x3E00, 0x7BFF, 0x0001, 0x8000};
  const float halfValues[] = {1.0f, -2.0f, 1.5f, 65504.0f, 5.9604644775390625e-8f, -0.0f};
  cl_mem mi = bufferFrom(in), mo = buffer(CL_MEM_WRITE_ONLY, 9 * n * sizeof(float)),
         mh = bufferFrom(halves), mf = buffer(CL_MEM_WRITE_ONLY, n * sizeof(float)),
         mt = buffer(CL_MEM_WRITE_ONLY, n * sizeof(cl_ushort));
  ASSERT_TRUE(setArgs(k, mi, mo, mh, mf, mt));
  ASSERT_TRUE(run(k, {n}));
  std::vector<float> out = read<float>(mo, 9 * n), fromHalf = read<float>(mf, n);
  std::vector<cl_ushort> toHalf = read<cl_ushort>(mt, n);
  for (size_t i = 0; i < n; ++i) {
    for (int e = 0; e < 4; ++e) EXPECT_EQ(out[4 * i + e], in[4 * i + e] * 2.0f) << i;
    for (int e = 0; e < 3; ++e) EXPECT_EQ(out[4 * n + 3 * i + e], in[1 + 3 * i + e] + 1.0f) << i;
    for (int e = 0; e < 2; ++e) EXPECT_EQ(out[7 * n + 2 * i + e], in[4 * i + 1 + e]) << i;
    EXPECT_EQ(std::bit_cast<uint32_t>(fromHalf[i]), std::bit_cast<uint32_t>(halfValues[i])) << i;
  }
  // in[0..5] / 3 = -4/3, -2.5/3, -1/3, 0.5/3, 2/3, 3.5/3 as halves, rounded to
  // nearest even (none is near a tie, so the division's ULPs do not matter).
  const cl_ushort wantHalf[] = {0xBD55, 0xBAAB, 0xB555, 0x3155, 0x3955, 0x3CAB};
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(toHalf[i], wantHalf[i]) << std::hex << i;
}

// Runs `expr` (of x, y, z) over float inputs and compares with the host within
// `ulps`.
class FloatMath : public ClTest {
 protected:
  void check(const char *expr, float (*host)(float, float, float), int64_t ulps,
             std::vector<float> x, std::vector<float> y = {}, std::vector<float> z = {}) {
    SCOPED_TRACE(expr);
    y.resize(x.size(), 1.0f), z.resize(x.size(), 1.0f);
    std::string source = std::string(
                             "kernel void k(global const float *x, global const float *y,"
                             " global const float *z, global float *out) {\n"
                             "  size_t i = get_global_id(0);\n"
                             "  float a = x[i], b = y[i], c = z[i];\n"
                             "  out[i] = ") +
                         expr + ";\n}\n";
    cl_kernel k = kernel(source, "k");
    ASSERT_NE(k, nullptr);
    size_t n = x.size();
    cl_mem mx = bufferFrom(x), my = bufferFrom(y), mz = bufferFrom(z),
           mo = buffer(CL_MEM_WRITE_ONLY, n * sizeof(float));
    ASSERT_TRUE(setArgs(k, mx, my, mz, mo));
    ASSERT_TRUE(run(k, {n}));
    std::vector<float> out = read<float>(mo, n);
    int failures = 0;
    for (size_t i = 0; i < n; ++i) {
      float want = host(x[i], y[i], z[i]);
      if (ulpDistance(out[i], want) > ulps && ++failures <= 5)
        ADD_FAILURE() << "(" << x[i] << ", " << y[i] << ", " << z[i] << "): got " << out[i]
                      << ", want " << want << " (" << ulpDistance(out[i], want) << " ulp)";
    }
  }
};

TEST_F(FloatMath, Sqrt) {
  std::vector<float> x = randomValues(4096, 0.0f, 1e6f);
  x.insert(x.end(), {0.0f, -0.0f, 1.0f, 4.0f, INFINITY, 2.0f});  // no denormals: may flush
  check(
      "sqrt(a)", [](float a, float, float) { return std::sqrt(a); }, 3, x);
}

TEST_F(FloatMath, Exp) {
  std::vector<float> x = randomValues(4096, -80.0f, 80.0f);
  x.insert(x.end(), {0.0f, 1.0f, -1.0f, 88.0f});  // results stay normal
  // The host's double-precision result, rounded, is the reference.
  check(
      "exp(a)", [](float a, float, float) { return float(std::exp(double(a))); }, 3, x);
}

TEST_F(FloatMath, FmaIsCorrectlyRounded) {
  std::vector<float> x = randomValues(4096, -100.0f, 100.0f), y = randomValues(4096, -100.0f, 100.0f),
                     z = randomValues(4096, -1e4f, 1e4f);
  // Cases where a separate multiply and add would round differently.
  x.push_back(1.0f + 0x1p-23f), y.push_back(1.0f - 0x1p-23f), z.push_back(-1.0f);
  check(
      "fma(a, b, c)", [](float a, float b, float c) { return std::fma(a, b, c); }, 0, x, y, z);
}

TEST_F(FloatMath, ClampMinMaxFabsFloor) {
  std::vector<float> x = randomValues(2048, -10.0f, 10.0f);
  check(
      "clamp(a, -2.5f, 3.25f)",
      [](float a, float, float) { return std::fmin(std::fmax(a, -2.5f), 3.25f); }, 0, x);
  check(
      "fabs(a) + floor(a) * 2.0f + ceil(a)",
      [](float a, float, float) { return std::fabs(a) + std::floor(a) * 2.0f + std::ceil(a); }, 0,
      x);
  check(
      "fmin(a, b) - fmax(a, b)",
      [](float a, float b, float) { return std::fmin(a, b) - std::fmax(a, b); }, 0, x,
      randomValues(2048, -10.0f, 10.0f));
}

TEST_F(FloatMath, SinCosLog) {
  std::vector<float> x = randomValues(4096, -100.0f, 100.0f);
  check(
      "sin(a)", [](float a, float, float) { return float(std::sin(double(a))); }, 4, x);
  check(
      "cos(a)", [](float a, float, float) { return float(std::cos(double(a))); }, 4, x);
  std::vector<float> positive = randomValues(4096, 1e-20f, 1e20f);
  check(
      "log(a)", [](float a, float, float) { return float(std::log(double(a))); }, 3, positive);
}

// Exact integer built-ins, computed on the host the same way.
TEST_F(Builtins, IntegerFunctions) {
  cl_kernel k = kernel(R"CLC(
    kernel void k(global const int *x, global const int *y, global int *out) {
      size_t i = get_global_id(0);
      int a = x[i], b = y[i];
      global int *o = out + 10 * i;
      /* mul24/mad24 operands in 24-bit range, products within 32 bits */
      o[0] = mad24((int)(short)a, (int)(short)b, a);
      o[1] = popcount(a);
      o[2] = clamp(a, -1000, 1000);
      o[3] = mul_hi(a, b);
      o[4] = add_sat(a, b);
      o[5] = clz(a);
      o[6] = (int)rotate((uint)a, (uint)b);
      o[7] = hadd(a, b);
      o[8] = (int)abs_diff(a, b);
      o[9] = mul24((int)(short)a, (int)(short)b);
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  const size_t n = 2048;
  std::vector<int> x(n), y(n);
  std::uniform_int_distribution<int> dist(INT32_MIN, INT32_MAX);
  for (size_t i = 0; i < n; ++i) x[i] = dist(rng_), y[i] = dist(rng_);
  x[0] = 0, y[0] = 0, x[1] = INT32_MAX, y[1] = 1, x[2] = INT32_MIN, y[2] = -1;
  cl_mem mx = bufferFrom(x), my = bufferFrom(y), mo = buffer(CL_MEM_WRITE_ONLY, 10 * n * 4);
  ASSERT_TRUE(setArgs(k, mx, my, mo));
  ASSERT_TRUE(run(k, {n}));
  std::vector<int> out = read<int>(mo, 10 * n);
  auto signed24 = [](int v) { return int64_t(int16_t(v)); };
  for (size_t i = 0; i < n; ++i) {
    int64_t a = x[i], b = y[i];
    uint32_t ua = uint32_t(x[i]);
    uint32_t r = uint32_t(y[i]) & 31;
    int64_t want[10] = {int32_t(uint32_t(signed24(x[i]) * signed24(y[i]) + a)),
                        std::popcount(ua),
                        std::clamp<int64_t>(a, -1000, 1000),
                        (a * b) >> 32,
                        std::clamp<int64_t>(a + b, INT32_MIN, INT32_MAX),
                        ua ? std::countl_zero(ua) : 32,
                        int32_t(r ? (ua << r) | (ua >> (32 - r)) : ua),
                        (a + b) >> 1,
                        int32_t(uint32_t(a > b ? a - b : b - a)),
                        int32_t(uint32_t(signed24(x[i]) * signed24(y[i])))};
    for (int f = 0; f < 10; ++f)
      ASSERT_EQ(out[10 * i + f], want[f]) << "function #" << f << " of (" << a << ", " << b << ")";
  }
}

// convert_int_sat_rte and friends: rounding mode and saturation, NaN to 0.
TEST_F(Builtins, SaturatingRoundingConversions) {
  cl_kernel k = kernel(R"CLC(
    kernel void k(global const float *x, global int *out) {
      size_t i = get_global_id(0);
      float v = x[i];
      global int *o = out + 6 * i;
      o[0] = convert_int_sat_rte(v);
      o[1] = convert_int_sat_rtz(v);
      o[2] = convert_int_sat_rtp(v);
      o[3] = convert_int_sat_rtn(v);
      o[4] = convert_char_sat(v);
      o[5] = convert_uchar_sat_rte(v);
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  std::vector<float> x = {0.5f,      1.5f,    2.5f,   -0.5f,  -1.5f,         -2.5f,
                          3.7f,      -3.7f,   1e10f,  -1e10f, 2147483520.0f, -2147483648.0f,
                          300.0f,    -300.0f, 127.5f, 255.5f, NAN,           INFINITY,
                          -INFINITY, 0.0f,    1e-30f, -1e-30f};
  std::uniform_real_distribution<float> dist(-1000.0f, 1000.0f);
  for (int i = 0; i < 1000; ++i) x.push_back(dist(rng_));
  const size_t n = x.size();
  cl_mem mx = bufferFrom(x), mo = buffer(CL_MEM_WRITE_ONLY, 6 * n * 4);
  ASSERT_TRUE(setArgs(k, mx, mo));
  ASSERT_TRUE(run(k, {n}));
  std::vector<int> out = read<int>(mo, 6 * n);
  auto sat = [](double v, double lo, double hi) {
    return std::isnan(v) ? 0 : int64_t(std::clamp(v, lo, hi));
  };
  auto rte = [](double v) {
    return v - std::floor(v) == 0.5 ? 2 * std::round(v / 2) : std::round(v);
  };
  for (size_t i = 0; i < n; ++i) {
    double v = x[i];
    int64_t want[6] = {
        sat(rte(v), INT32_MIN, INT32_MAX),       sat(std::trunc(v), INT32_MIN, INT32_MAX),
        sat(std::ceil(v), INT32_MIN, INT32_MAX), sat(std::floor(v), INT32_MIN, INT32_MAX),
        sat(std::trunc(v), -128, 127),           sat(rte(v), 0, 255)};
    for (int f = 0; f < 6; ++f)
      ASSERT_EQ(out[6 * i + f], want[f]) << "conversion #" << f << " of " << x[i];
  }
}

TEST_F(Builtins, DoublePrecisionWhenSupported) {
  std::string extensions = deviceString(device_, CL_DEVICE_EXTENSIONS);
  if (extensions.find("cl_khr_fp64") == std::string::npos) GTEST_SKIP() << "no cl_khr_fp64";
  cl_kernel k = kernel(R"CLC(
    #pragma OPENCL EXTENSION cl_khr_fp64 : enable
    kernel void k(global const double *x, global double *out) {
      size_t i = get_global_id(0);
      out[3 * i] = sqrt(x[i]);
      out[3 * i + 1] = fma(x[i], x[i], -1.0);
      out[3 * i + 2] = x[i] * 0.1 + 1.0 / 3.0;
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  const size_t n = 1024;
  std::vector<double> x(n);
  std::uniform_real_distribution<double> dist(0.0, 1e12);
  for (double &v : x) v = dist(rng_);
  cl_mem mx = bufferFrom(x), mo = buffer(CL_MEM_WRITE_ONLY, 3 * n * sizeof(double));
  ASSERT_TRUE(setArgs(k, mx, mo));
  ASSERT_TRUE(run(k, {n}));
  std::vector<double> out = read<double>(mo, 3 * n);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_LE(ulpDistance(out[3 * i], std::sqrt(x[i])), 3) << x[i];
    EXPECT_EQ(out[3 * i + 1], std::fma(x[i], x[i], -1.0)) << x[i];
    // The device may contract this into an fma: allow the rounding of one step.
    EXPECT_LE(ulpDistance(out[3 * i + 2], x[i] * 0.1 + 1.0 / 3.0), 1) << x[i];
  }
}

}  // namespace
}  // namespace lockstep::test

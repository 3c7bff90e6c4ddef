// cl_khr_fp16: half arithmetic, conversions with every rounding mode and
// saturation, a sample of math builtins against OpenCL C s7.4's half ulp
// bounds, relational results, vector loads/stores and shuffles, half kernel
// arguments and a work-group collective, all against a host reference: an
// exact software half (every half is an integer times 2^-24, so values are
// held as integers and rounded to half in integer arithmetic, for each mode).
#include <CL/cl_ext.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include <fcntl.h>
#include <unistd.h>

#include <fstream>

#include "ClTest.h"

namespace lockstep::test {
namespace {

enum class Mode { Nearest, Zero, Up, Down };

// The half nearest (per mode) to (negative ? -1 : 1) * m * 2^e, exactly.
uint16_t roundToHalf(bool negative, unsigned __int128 m, int e, Mode mode) {
  uint16_t sign = negative ? 0x8000 : 0;
  if (m == 0) return sign;
  int length = 0;
  for (unsigned __int128 t = m; t; t >>= 1) ++length;
  int exponent = length - 1 + e;                   // value in [2^exponent, 2^(exponent+1))
  int quantum = std::max(exponent, -14) - 10;      // the ulp there
  int shift = quantum - e;
  unsigned __int128 r = 0;
  bool sticky = false, aboveHalf = false, atHalf = false;
  if (shift <= 0) {
    r = m << -shift;
  } else if (shift > length) {  // below half a quantum, not zero
    sticky = true;
  } else {
    r = m >> shift;
    unsigned __int128 rest = shift >= 128 ? m : m & ((unsigned __int128)1 << shift) - 1;
    unsigned __int128 half = (unsigned __int128)1 << (shift - 1);
    sticky = rest != 0;
    aboveHalf = rest > half;
    atHalf = rest == half;
  }
  bool magnitudeUp = (mode == Mode::Up && !negative) || (mode == Mode::Down && negative);
  bool up = mode == Mode::Nearest ? aboveHalf || (atHalf && (r & 1)) : magnitudeUp && sticky;
  r += up;
  int64_t bits = quantum == -24 ? int64_t(r) : ((int64_t(quantum) + 25) << 10) + int64_t(r) - 1024;
  if (bits >= 0x7c00) bits = (mode == Mode::Nearest || magnitudeUp) ? 0x7c00 : 0x7bff;
  return uint16_t(bits) | sign;
}

// A long double (64-bit significand: every float, double and 64-bit
// integer exactly) rounded to half.
uint16_t toHalf(long double x, Mode mode = Mode::Nearest) {
  if (std::isnan(x)) return 0x7e00;
  bool negative = std::signbit(x);
  if (std::isinf(x)) return negative ? 0xfc00 : 0x7c00;
  int e = 0;
  long double f = std::frexp(std::fabs(x), &e);  // in [0.5, 1)
  auto m = (unsigned __int128)(uint64_t)std::ldexp(f, 64);
  return roundToHalf(negative, m, e - 64, mode);
}

double fromHalf(uint16_t h) {
  int exponent = (h >> 10) & 0x1f, fraction = h & 0x3ff;
  double magnitude = exponent == 0    ? std::ldexp(double(fraction), -24)
                     : exponent == 31 ? (fraction ? NAN : INFINITY)
                                      : std::ldexp(double(fraction | 0x400), exponent - 25);
  return (h & 0x8000) ? -magnitude : magnitude;
}

bool isNanHalf(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }

// The same half, or both NaN.
::testing::AssertionResult sameHalf(uint16_t got, uint16_t want) {
  if (got == want || (isNanHalf(got) && isNanHalf(want))) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << std::hex << "got 0x" << got << " (" << fromHalf(got) << "), want 0x"
                                       << want << " (" << fromHalf(want) << ")";
}

// Error of `got` in half ulps at the reference's magnitude (s7.4's measure).
double halfUlps(uint16_t got, long double want) {
  double g = fromHalf(got);
  if (std::isnan(want)) return std::isnan(g) ? 0 : INFINITY;
  if (std::isnan(g)) return INFINITY;
  if (std::isinf(g)) return toHalf(want) == got ? 0 : INFINITY;
  if (std::isinf(want)) return INFINITY;
  int exponent = want == 0 ? -14 : std::max(std::ilogb(want), -14);
  return double(std::fabs(g - want) / std::ldexp(1.0L, exponent - 10));
}

const char kPragma[] = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";

class HalfPrecision : public ClTest {
 protected:
  // Random half bit patterns: every exponent, denormals, infinities, NaNs,
  // and the special values first.
  std::vector<uint16_t> halves(size_t n) {
    std::vector<uint16_t> v = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00,
                               0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x3555, 0x4248, 0xc248};
    for (uint16_t bits : randomValues<uint16_t>(n - v.size(), 0, 0xffff)) v.push_back(bits);
    return v;
  }
  // Random finite halves in [lo, hi].
  std::vector<uint16_t> halvesIn(size_t n, double lo, double hi) {
    std::vector<uint16_t> v;
    for (double x : randomValues<double>(n, lo, hi)) v.push_back(toHalf(x));
    return v;
  }
};

TEST_F(HalfPrecision, DeviceReportsTheExtension) {
  std::string extensions = deviceString(device_, CL_DEVICE_EXTENSIONS);
  EXPECT_NE((" " + extensions + " ").find(" cl_khr_fp16 "), std::string::npos) << extensions;
  cl_device_fp_config config = deviceInfo<cl_device_fp_config>(device_, CL_DEVICE_HALF_FP_CONFIG);
  EXPECT_EQ(config & (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN), CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN);
  EXPECT_GT(deviceInfo<cl_uint>(device_, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF), 0u);
  EXPECT_GT(deviceInfo<cl_uint>(device_, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF), 0u);
  size_t size = 0;
  ASSERT_CL(clGetDeviceInfo(device_, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, nullptr, &size));
  std::vector<cl_name_version> list(size / sizeof(cl_name_version));
  ASSERT_CL(clGetDeviceInfo(device_, CL_DEVICE_EXTENSIONS_WITH_VERSION, size, list.data(), nullptr));
  bool found = false;
  for (const cl_name_version &entry : list)
    if (std::string(entry.name) == "cl_khr_fp16") found = entry.version == CL_MAKE_VERSION(1, 0, 0);
  EXPECT_TRUE(found);
  // The kernel language sees the macro.
  EXPECT_NE(kernel("#ifndef cl_khr_fp16\n#error no cl_khr_fp16\n#endif\n"
                   "kernel void k(global int *p) { *p = HALF_MANT_DIG; }",
                   "k"),
            nullptr);
}

// + - * / of half scalars and half8 vectors are correctly rounded, denormals
// kept: the exact result (in long double; the quotient rounded there first,
// harmless with 64 >= 2 * 11 + 2 bits) rounded once to half.
TEST_F(HalfPrecision, ArithmeticIsCorrectlyRounded) {
  const size_t n = 4096;
  std::vector<uint16_t> a = halves(n), b = halves(n);
  std::swap(b[3], b[40]);  // pairs of specials with randoms
  std::string source = std::string(kPragma) + R"(
    kernel void scalar(global const half *a, global const half *b, global half *out) {
      size_t i = get_global_id(0);
      half x = a[i], y = b[i];
      out[4 * i] = x + y;
      out[4 * i + 1] = x - y;
      out[4 * i + 2] = x * y;
      out[4 * i + 3] = x / y;
    }
    kernel void vector(global const half *a, global const half *b, global half *out) {
      size_t i = get_global_id(0);
      half8 x = vload8(i, a), y = vload8(i, b);
      vstore8(x + y, 4 * i, out);
      vstore8(x - y, 4 * i + 1, out);
      vstore8(x * y, 4 * i + 2, out);
      vstore8(x / y, 4 * i + 3, out);
    })";
  cl_program program = build(source);
  ASSERT_NE(program, nullptr);
  cl_mem in0 = bufferFrom(a), in1 = bufferFrom(b);
  for (const char *name : {"scalar", "vector"}) {
    bool vector = std::string(name) == "vector";
    cl_mem out = buffer(CL_MEM_READ_WRITE, 4 * n * sizeof(uint16_t));
    cl_kernel k = kernelOf(program, name);
    ASSERT_TRUE(setArgs(k, in0, in1, out));
    ASSERT_TRUE(run(k, {vector ? n / 8 : n}));
    std::vector<uint16_t> got = read<uint16_t>(out, 4 * n);
    int failures = 0;
    for (size_t i = 0; i < n && failures < 10; ++i) {
      long double x = fromHalf(a[i]), y = fromHalf(b[i]);
      long double want[4] = {x + y, x - y, x * y, x / y};
      for (int op = 0; op < 4; ++op) {
        size_t at = vector ? (4 * (i / 8) + op) * 8 + i % 8 : 4 * i + op;
        auto same = sameHalf(got[at], toHalf(want[op]));
        if (!same) ++failures;
        EXPECT_TRUE(same) << name << " op " << "+-*/"[op] << " of 0x" << std::hex << a[i] << ", 0x" << b[i];
      }
    }
  }
}

// fma is correctly rounded (CL_FP_FMA): the exact a*b+c in 128-bit integers
// (units of 2^-48) rounded once; sqrt too. Finite operands.
TEST_F(HalfPrecision, FmaAndSqrtAreCorrectlyRounded) {
  const size_t n = 4096;
  std::vector<uint16_t> a, b, c;
  for (uint16_t bits : halves(3 * n)) {
    if ((bits & 0x7c00) == 0x7c00) bits &= 0xbbff;  // finite
    (a.size() < n ? a : b.size() < n ? b : c).push_back(bits);
  }
  // Products near c's magnitude, so that the sum cancels and rounds.
  for (size_t i = 0; i < n / 2; ++i) {
    uint16_t near = toHalf(-fromHalf(a[i]) * fromHalf(b[i]) * 1.0001);
    if ((near & 0x7c00) != 0x7c00) c[i] = near;
  }
  // Products of 12 or 13 bits, often exactly halfway between two halves,
  // plus the smallest denormal of either sign: rounding the sum to float
  // first would land on the tie and round the wrong way.
  for (size_t i = n / 2; i < n / 2 + n / 4; ++i) {
    a[i] = (a[i] & 0x83ff) | 0x3c01;  // 1.xxx with the last bit set
    b[i] = i % 3 ? 0x4200 : 0x3e00;   // 3 or 1.5
    c[i] = i % 2 ? 0x0001 : 0x8001;
  }
  cl_kernel k = kernel(std::string(kPragma) + R"(
    kernel void k(global const half *a, global const half *b, global const half *c, global half *out) {
      size_t i = get_global_id(0);
      out[2 * i] = fma(a[i], b[i], c[i]);
      out[2 * i + 1] = sqrt(a[i]);
    })",
                       "k");
  ASSERT_NE(k, nullptr);
  cl_mem out = buffer(CL_MEM_READ_WRITE, 2 * n * 2);
  ASSERT_TRUE(setArgs(k, bufferFrom(a), bufferFrom(b), bufferFrom(c), out));
  ASSERT_TRUE(run(k, {n}));
  std::vector<uint16_t> got = read<uint16_t>(out, 2 * n);
  auto units = [](uint16_t h) {  // the half as a signed multiple of 2^-24
    return __int128(std::ldexp(std::fabs(fromHalf(h)), 24)) * ((h & 0x8000) ? -1 : 1);
  };
  int failures = 0;
  for (size_t i = 0; i < n && failures < 10; ++i) {
    __int128 exact = units(a[i]) * units(b[i]) + units(c[i]) * ((__int128)1 << 24);  // 2^-48 units
    uint16_t want = roundToHalf(exact < 0, exact < 0 ? -exact : exact, -48, Mode::Nearest);
    if (exact == 0)  // the sign of a zero sum: IEEE's rules
      want = ((a[i] ^ b[i]) & 0x8000) && (c[i] & 0x8000) ? 0x8000 : 0;
    auto same = sameHalf(got[2 * i], want);
    failures += !same;
    EXPECT_TRUE(same) << "fma(0x" << std::hex << a[i] << ", 0x" << b[i] << ", 0x" << c[i] << ")";
    auto root = sameHalf(got[2 * i + 1], toHalf(std::sqrt((long double)fromHalf(a[i]))));
    failures += !root;
    EXPECT_TRUE(root) << "sqrt(0x" << std::hex << a[i] << ")";
  }
}

// convert_half with each rounding mode from float, int and double.
TEST_F(HalfPrecision, ConversionsToHalfRoundAsAsked) {
  const size_t n = 2048;
  std::vector<float> f;
  for (uint32_t bits : randomValues<uint32_t>(n, 0x30000000, 0x48000000))  // 2^-31 .. 2^17
    f.push_back(std::bit_cast<float>(bits ^ (bits & 1 ? 0x80000000u : 0)));
  f[0] = 65504.0f, f[1] = 65519.99f, f[2] = 65520.0f, f[3] = -1e9f, f[4] = 0x1p-25f, f[5] = NAN;
  std::vector<cl_int> i = randomValues<cl_int>(n, -200000, 200000);
  i[0] = INT32_MAX, i[1] = INT32_MIN, i[2] = 2049, i[3] = -2051;
  std::vector<double> d;
  for (float x : f) d.push_back(double(x) * (1 + 0x1p-30));
  cl_kernel k = kernel(std::string(kPragma) + R"(
    kernel void k(global const float *f, global const int *i, global const double *d, global half *out) {
      size_t g = get_global_id(0);
      half r[12] = {convert_half_rte(f[g]), convert_half_rtz(f[g]), convert_half_rtp(f[g]), convert_half_rtn(f[g]),
                    convert_half_rte(i[g]), convert_half_rtz(i[g]), convert_half_rtp(i[g]), convert_half_rtn(i[g]),
                    convert_half(d[g]), convert_half_rtz(d[g]), convert_half_rtp(d[g]), convert_half_rtn(d[g])};
      for (int j = 0; j < 12; ++j) out[12 * g + j] = r[j];
    })",
                       "k");
  ASSERT_NE(k, nullptr);
  cl_mem out = buffer(CL_MEM_READ_WRITE, 12 * n * 2);
  ASSERT_TRUE(setArgs(k, bufferFrom(f), bufferFrom(i), bufferFrom(d), out));
  ASSERT_TRUE(run(k, {n}));
  std::vector<uint16_t> got = read<uint16_t>(out, 12 * n);
  const Mode modes[4] = {Mode::Nearest, Mode::Zero, Mode::Up, Mode::Down};
  int failures = 0;
  for (size_t g = 0; g < n && failures < 10; ++g)
    for (int m = 0; m < 4; ++m) {
      long double sources[3] = {f[g], (long double)i[g], d[g]};
      for (int s = 0; s < 3; ++s) {
        auto same = sameHalf(got[12 * g + 4 * s + m], toHalf(sources[s], modes[m]));
        failures += !same;
        EXPECT_TRUE(same) << "source " << s << " value " << double(sources[s]) << " mode " << m;
      }
    }
}

// convert_<integer>[_sat]_<mode>(half) and convert_float(half).
TEST_F(HalfPrecision, ConversionsFromHalfRoundAndSaturate) {
  const size_t n = 2048;
  std::vector<uint16_t> h = halves(n);
  cl_kernel k = kernel(std::string(kPragma) + R"(
    kernel void k(global const half *h, global int *out, global float *f) {
      size_t g = get_global_id(0);
      half x = h[g];
      int r[10] = {convert_char_sat_rte(x), convert_char_sat_rtz(x), convert_char_sat_rtp(x), convert_char_sat_rtn(x),
                   convert_uchar_sat(x), convert_short_sat_rte(x), convert_ushort_sat_rtp(x),
                   convert_int_sat_rtn(x), convert_int_rte(isfinite(x) ? x : 0.0h), convert_int_sat(x)};
      for (int j = 0; j < 10; ++j) out[10 * g + j] = r[j];
      f[g] = convert_float(x);
    })",
                       "k");
  ASSERT_NE(k, nullptr);
  cl_mem out = buffer(CL_MEM_READ_WRITE, 10 * n * 4), floats = buffer(CL_MEM_READ_WRITE, n * 4);
  ASSERT_TRUE(setArgs(k, bufferFrom(h), out, floats));
  ASSERT_TRUE(run(k, {n}));
  std::vector<cl_int> got = read<cl_int>(out, 10 * n);
  std::vector<float> gotFloat = read<float>(floats, n);
  auto convert = [](double x, double (*round)(double), double lo, double hi) {
    if (std::isnan(x)) return 0.0;
    return std::min(std::max(round(x), lo), hi);
  };
  auto nearest = [](double x) { return std::nearbyint(x); };
  auto zero = [](double x) { return std::trunc(x); };
  auto up = [](double x) { return std::ceil(x); };
  auto down = [](double x) { return std::floor(x); };
  for (size_t g = 0; g < n; ++g) {
    double x = fromHalf(h[g]);
    double want[10] = {convert(x, nearest, -128, 127), convert(x, zero, -128, 127), convert(x, up, -128, 127),
                       convert(x, down, -128, 127), convert(x, zero, 0, 255), convert(x, nearest, -32768, 32767),
                       convert(x, up, 0, 65535), convert(x, down, INT32_MIN, INT32_MAX),
                       std::isfinite(x) ? nearest(x) : 0, convert(x, zero, INT32_MIN, INT32_MAX)};
    for (int j = 0; j < 10; ++j)
      ASSERT_EQ(got[10 * g + j], cl_int(want[j])) << "conversion " << j << " of " << x;
    if (std::isnan(x)) EXPECT_TRUE(std::isnan(gotFloat[g]));
    else EXPECT_EQ(gotFloat[g], float(x));
  }
}

// A sample of math builtins on half and half4 against long double, within
// OpenCL C s7.4's half bounds (2 ulp; pow 4; sqrt correctly rounded).
TEST_F(HalfPrecision, MathIsWithinTheHalfUlpBounds) {
  struct Case {
    const char *name;
    int arity;
    double ulps;
    double lo, hi;
    long double (*reference)(long double, long double);
  };
  const Case cases[] = {
      {"sin", 1, 2, -100, 100, [](long double x, long double) { return std::sin(x); }},
      {"cos", 1, 2, -100, 100, [](long double x, long double) { return std::cos(x); }},
      {"exp", 1, 2, -18, 12, [](long double x, long double) { return std::exp(x); }},
      {"log2", 1, 2, 0, 60000, [](long double x, long double) { return std::log2(x); }},
      {"tanh", 1, 2, -6, 6, [](long double x, long double) { return std::tanh(x); }},
      {"cbrt", 1, 2, -60000, 60000, [](long double x, long double) { return std::cbrt(x); }},
      {"sinpi", 1, 2, -10, 10, [](long double x, long double) { return std::sin(x * 3.14159265358979323846264338327950288L); }},
      {"pow", 2, 4, 0, 8, [](long double x, long double y) { return std::pow(x, y); }},
      {"atan2", 2, 2, -100, 100, [](long double y, long double x) { return std::atan2(y, x); }},
      {"hypot", 2, 2, -200, 200, [](long double x, long double y) { return std::hypot(x, y); }},
      {"sqrt", 1, 0.5, 0, 60000, [](long double x, long double) { return std::sqrt(x); }},
  };
  const size_t n = 1024;
  for (const Case &c : cases) {
    std::vector<uint16_t> x = halvesIn(n, c.lo, c.hi), y = halvesIn(n, c.lo, c.hi);
    x[0] = 0x0001, x[1] = 0x8000, x[2] = 0x7c00;  // a denormal, -0, inf
    std::string call = std::string(c.name) + (c.arity == 1 ? "(x)" : "(x, y)");
    cl_kernel k = kernel(std::string(kPragma) + "kernel void k(global const half *xs, global const half *ys, global half *out) {\n"
                         "  size_t i = get_global_id(0);\n"
                         "  { half x = xs[i], y = ys[i]; out[i] = " + call + "; }\n"
                         "  if (i % 4 == 0) { half4 x = vload4(i / 4, xs), y = vload4(i / 4, ys);\n"
                         "    vstore4(" + call + ", i / 4, out + get_global_size(0)); }\n}\n",
                         "k");
    ASSERT_NE(k, nullptr) << c.name;
    cl_mem out = buffer(CL_MEM_READ_WRITE, 2 * n * 2);
    ASSERT_TRUE(setArgs(k, bufferFrom(x), bufferFrom(y), out));
    ASSERT_TRUE(run(k, {n}));
    std::vector<uint16_t> got = read<uint16_t>(out, 2 * n);
    int failures = 0;
    for (size_t i = 0; i < 2 * n && failures < 5; ++i) {
      size_t j = i % n;
      long double want = c.reference(fromHalf(x[j]), fromHalf(y[j]));
      double error = halfUlps(got[i], want);
      failures += !(error <= c.ulps);
      EXPECT_LE(error, c.ulps) << c.name << "(" << fromHalf(x[j]) << ", " << fromHalf(y[j]) << ") = "
                               << fromHalf(got[i]) << ", want " << double(want) << (i >= n ? " (half4)" : "");
    }
  }
}

// Relational builtins: int 1/0 for half, short -1/0 for half vectors.
TEST_F(HalfPrecision, RelationalResults) {
  const size_t n = 1024;
  std::vector<uint16_t> a = halves(n), b = halves(n);
  cl_kernel k = kernel(std::string(kPragma) + R"(
    kernel void k(global const half *a, global const half *b, global int *scalar, global short *vector) {
      size_t i = get_global_id(0);
      half x = a[i], y = b[i];
      int s[6] = {isnan(x), isinf(x), isfinite(x), signbit(x), isless(x, y), isnormal(x)};
      for (int j = 0; j < 6; ++j) scalar[6 * i + j] = s[j];
      if (i % 2 == 0) {
        half2 u = vload2(i / 2, a), v = vload2(i / 2, b);
        short2 r[6] = {isnan(u), isinf(u), isfinite(u), signbit(u), isless(u, v), isnormal(u)};
        for (int j = 0; j < 6; ++j) vstore2(r[j], 6 * (i / 2) + j, vector);
      }
    })",
                       "k");
  ASSERT_NE(k, nullptr);
  cl_mem scalar = buffer(CL_MEM_READ_WRITE, 6 * n * 4), vector = buffer(CL_MEM_READ_WRITE, 6 * n * 2);
  ASSERT_TRUE(setArgs(k, bufferFrom(a), bufferFrom(b), scalar, vector));
  ASSERT_TRUE(run(k, {n}));
  std::vector<cl_int> gotScalar = read<cl_int>(scalar, 6 * n);
  std::vector<cl_short> gotVector = read<cl_short>(vector, 6 * n);
  for (size_t i = 0; i < n; ++i) {
    double x = fromHalf(a[i]), y = fromHalf(b[i]);
    bool want[6] = {std::isnan(x), std::isinf(x), std::isfinite(x), bool(a[i] & 0x8000), x < y,
                    std::isfinite(x) && std::fabs(x) >= 0x1p-14};
    for (int j = 0; j < 6; ++j) {
      ASSERT_EQ(gotScalar[6 * i + j], want[j] ? 1 : 0) << "function " << j << " of 0x" << std::hex << a[i];
      ASSERT_EQ(gotVector[6 * (i / 2) * 2 + j * 2 + i % 2], want[j] ? -1 : 0)
          << "vector function " << j << " of 0x" << std::hex << a[i];
    }
  }
}

// vload3/vstore3 (element by element), vload16/vstore16, shuffle2, select
// and as_ushort on half data.
TEST_F(HalfPrecision, VectorLoadsStoresAndShuffles) {
  const size_t n = 48;
  std::vector<uint16_t> a = halvesIn(16 * n, -1000, 1000);
  cl_kernel k = kernel(std::string(kPragma) + R"(
    kernel void k(global const half *a, global half *out3, global half *out16, global ushort *bits) {
      size_t i = get_global_id(0);
      half3 v = vload3(i, a);
      vstore3(v.zxy, i, out3);
      half16 w = vload16(i, a);
      half8 lo = w.lo, hi = w.hi;
      half16 s = shuffle2(lo, hi, (ushort16)(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
      vstore16(select(s, -s, isless(s, (half16)0.0h)), i, out16);  // |s|, reversed
      bits[i] = as_ushort(w.s5);
    })",
                       "k");
  ASSERT_NE(k, nullptr);
  cl_mem out3 = buffer(CL_MEM_READ_WRITE, 3 * n * 2), out16 = buffer(CL_MEM_READ_WRITE, 16 * n * 2);
  cl_mem bits = buffer(CL_MEM_READ_WRITE, n * 2);
  ASSERT_TRUE(setArgs(k, bufferFrom(a), out3, out16, bits));
  ASSERT_TRUE(run(k, {n}));
  std::vector<uint16_t> got3 = read<uint16_t>(out3, 3 * n), got16 = read<uint16_t>(out16, 16 * n);
  std::vector<uint16_t> gotBits = read<uint16_t>(bits, n);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(got3[3 * i], a[3 * i + 2]);
    EXPECT_EQ(got3[3 * i + 1], a[3 * i]);
    EXPECT_EQ(got3[3 * i + 2], a[3 * i + 1]);
    for (int j = 0; j < 16; ++j) {
      uint16_t source = a[16 * i + 15 - j];
      uint16_t want = fromHalf(source) < 0 ? source & 0x7fff : source;
      EXPECT_EQ(got16[16 * i + j], want) << i << "." << j;
    }
    EXPECT_EQ(gotBits[i], a[16 * i + 5]);
  }
}

// async_work_group_copy / async_work_group_strided_copy and prefetch of
// half and half2: each group copies its part to local memory (every other
// half2 of it, strided), reverses it there and copies it back.
TEST_F(HalfPrecision, AsyncCopies) {
  const size_t local = 32, groups = 4, n = local * groups;
  std::vector<uint16_t> a = halvesIn(2 * n, -100, 100);
  cl_kernel k = kernel(std::string(kPragma) + R"(
    kernel void k(global const half *a, global half *out, global half2 *pairs, local half *tile,
                  local half2 *tile2) {
      size_t base = get_group_id(0) * get_local_size(0), l = get_local_id(0), m = get_local_size(0);
      prefetch(a + base, m);
      event_t e = async_work_group_copy(tile, a + base, m, 0);
      e = async_work_group_strided_copy(tile2, (global const half2 *)a + base, m / 2, 2, e);
      wait_group_events(1, &e);
      half mine = tile[m - 1 - l];
      half2 pair = tile2[l / 2];
      barrier(CLK_LOCAL_MEM_FENCE);
      tile[l] = mine;
      if (l % 2 == 0) tile2[l / 2] = pair.yx;
      barrier(CLK_LOCAL_MEM_FENCE);
      e = async_work_group_copy(out + base, tile, m, 0);
      e = async_work_group_copy(pairs + base / 2, tile2, m / 2, e);
      wait_group_events(1, &e);
    })",
                       "k");
  ASSERT_NE(k, nullptr);
  cl_mem out = buffer(CL_MEM_READ_WRITE, n * 2), pairs = buffer(CL_MEM_READ_WRITE, n * 2);
  ASSERT_TRUE(setArgs(k, bufferFrom(a), out, pairs, LocalBytes{local * 2}, LocalBytes{local * 2}));
  ASSERT_TRUE(run(k, {n}, {local}));
  std::vector<uint16_t> got = read<uint16_t>(out, n), gotPairs = read<uint16_t>(pairs, n);
  for (size_t g = 0; g < groups; ++g)
    for (size_t l = 0; l < local; ++l) {
      size_t base = g * local;
      EXPECT_EQ(got[base + l], a[base + local - 1 - l]) << g << "." << l;
      // pair p of the group: the half2 number base + 2p (stride 2), swapped
      size_t p = l / 2, source = 2 * (base + 2 * p);
      EXPECT_EQ(gotPairs[base + l], a[source + (l % 2 ? 0 : 1)]) << g << "." << l;
    }
}

// half and half4 kernel arguments through clSetKernelArg (2 and 8 bytes).
TEST_F(HalfPrecision, KernelArguments) {
  cl_kernel k = kernel(std::string(kPragma) + R"(
    kernel void k(half s, global half *out, half4 v, half3 w) {
      out[0] = s * 2.0h;
      vstore4(v + s, 0, out + 1);
      vstore3(w, 0, out + 5);
    })",
                       "k");
  ASSERT_NE(k, nullptr);
  cl_half s = toHalf(1.5L);
  cl_half v[4] = {toHalf(-1), toHalf(0.25L), toHalf(1000), toHalf(65504)};
  cl_half w[4] = {toHalf(3), toHalf(-3), toHalf(0x1p-24L), 0};
  cl_mem out = buffer(CL_MEM_READ_WRITE, 8 * 2);
  EXPECT_CL_ERROR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 0, 4, &s));
  EXPECT_CL_ERROR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 2, 2, v));
  ASSERT_CL(clSetKernelArg(k, 0, sizeof s, &s));
  ASSERT_CL(clSetKernelArg(k, 1, sizeof out, &out));
  ASSERT_CL(clSetKernelArg(k, 2, sizeof v, v));
  ASSERT_CL(clSetKernelArg(k, 3, sizeof w, w));  // half3 is the size of half4
  ASSERT_TRUE(run(k, {1}));
  std::vector<uint16_t> got = read<uint16_t>(out, 8);
  EXPECT_EQ(got[0], toHalf(3));
  for (int j = 0; j < 4; ++j) EXPECT_TRUE(sameHalf(got[1 + j], toHalf(fromHalf(v[j]) + 1.5L))) << j;
  for (int j = 0; j < 3; ++j) EXPECT_EQ(got[5 + j], w[j]) << j;
}

// work_group_reduce_add and work_group_scan_inclusive_max of half. The
// addends are small integers, so every order of additions is exact.
TEST_F(HalfPrecision, WorkGroupCollectives) {
  if (!hasFeature("__opencl_c_work_group_collective_functions")) GTEST_SKIP() << "no collectives";
  const size_t local = 64, groups = 8, n = local * groups;
  std::vector<uint16_t> a;
  for (int v : randomValues<int>(n, -8, 8)) a.push_back(toHalf(v));
  cl_kernel k = kernel(std::string(kPragma) + R"(
    kernel void k(global const half *a, global half *sum, global half *max) {
      size_t i = get_global_id(0);
      sum[i] = work_group_reduce_add(a[i]);
      max[i] = work_group_scan_inclusive_max(a[i]);
    })",
                       "k", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  cl_mem sum = buffer(CL_MEM_READ_WRITE, n * 2), max = buffer(CL_MEM_READ_WRITE, n * 2);
  ASSERT_TRUE(setArgs(k, bufferFrom(a), sum, max));
  ASSERT_TRUE(run(k, {n}, {local}));
  std::vector<uint16_t> gotSum = read<uint16_t>(sum, n), gotMax = read<uint16_t>(max, n);
  for (size_t g = 0; g < groups; ++g) {
    double total = 0, running = -INFINITY;
    for (size_t l = 0; l < local; ++l) total += fromHalf(a[g * local + l]);
    for (size_t l = 0; l < local; ++l) {
      running = std::max(running, fromHalf(a[g * local + l]));
      EXPECT_EQ(gotSum[g * local + l], toHalf(total)) << g << "." << l;
      EXPECT_EQ(gotMax[g * local + l], toHalf(running)) << g << "." << l;
    }
  }
}

// Sub-group reduce, scan and shuffles of half: small integers again, so the
// sums are exact in any order.
TEST_F(HalfPrecision, SubGroupCollectives) {
  if (!hasFeature("__opencl_c_subgroups")) GTEST_SKIP() << "no sub-groups";
  const size_t local = 64, n = 4 * local;
  std::vector<uint16_t> a;
  for (int v : randomValues<int>(n, -16, 16)) a.push_back(toHalf(v));
  cl_kernel k = kernel(std::string(kPragma) + R"(
    #pragma OPENCL EXTENSION cl_khr_subgroup_shuffle : enable
    kernel void k(global const half *a, global half *out, global uint *size) {
      size_t i = get_global_id(0);
      half x = a[i];
      out[4 * i] = sub_group_reduce_add(x);
      out[4 * i + 1] = sub_group_scan_exclusive_min(x);
      out[4 * i + 2] = sub_group_broadcast(x, 1);
      out[4 * i + 3] = sub_group_shuffle_xor(x, 1u);
      if (i == 0) *size = get_max_sub_group_size();
    })",
                       "k", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  cl_mem out = buffer(CL_MEM_READ_WRITE, 4 * n * 2), size = buffer(CL_MEM_READ_WRITE, 4);
  ASSERT_TRUE(setArgs(k, bufferFrom(a), out, size));
  ASSERT_TRUE(run(k, {n}, {local}));
  std::vector<uint16_t> got = read<uint16_t>(out, 4 * n);
  size_t s = read<cl_uint>(size, 1)[0];
  ASSERT_TRUE(s >= 2 && local % s == 0) << s;
  for (size_t i = 0; i < n; ++i) {
    size_t first = i / s * s;
    double total = 0, least = INFINITY;
    for (size_t j = first; j < first + s; ++j) total += fromHalf(a[j]);
    for (size_t j = first; j < i; ++j) least = std::min(least, fromHalf(a[j]));
    EXPECT_EQ(got[4 * i], toHalf(total)) << i;
    EXPECT_EQ(got[4 * i + 1], toHalf(least)) << i;  // +inf for the first
    EXPECT_EQ(got[4 * i + 2], a[first + 1]) << i;
    EXPECT_EQ(got[4 * i + 3], a[i ^ 1]) << i;
  }
}

// printf of a half vector (%v2hf: 2-byte elements) and of a scalar half
// (promoted to double): the digits of the exact values.
TEST_F(HalfPrecision, Printf) {
  cl_kernel k = kernel(std::string(kPragma) + R"(
    kernel void k(half2 v, half s) { printf("[%v2hf] [%.10f] [%a]\n", v, s, s); })",
                       "k");
  ASSERT_NE(k, nullptr);
  cl_half v[2] = {toHalf(-2.5L), toHalf(0x1p-24L)};
  cl_half s = toHalf(0.1L);
  ASSERT_TRUE(setArgs(k, v, s));
  char path[] = "/tmp/lockstep-half-printf-XXXXXX";
  int file = mkstemp(path);
  ASSERT_GE(file, 0);
  fflush(stdout);
  int saved = dup(1);
  dup2(file, 1);
  ::testing::AssertionResult ran = run(k, {1});
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  close(file);
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  unlink(path);
  ASSERT_TRUE(ran);
  char want[200];
  std::snprintf(want, sizeof want, "[%f,%f] [%.10f] [%a]\n", fromHalf(v[0]), fromHalf(v[1]), fromHalf(s),
                fromHalf(s));
  EXPECT_EQ(text, want);
}

}  // namespace
}  // namespace lockstep::test

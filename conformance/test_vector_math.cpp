// Math builtins in work-item loops that the compiler widens, where it calls
// vector variants of the math functions (glibc's libmvec) for a vector of
// work-items at once: each builtin over random bit patterns (every exponent,
// subnormals, infinities, NaNs), random values in its usual range and special
// values, in a straight-line kernel and in one with a loop that every work-
// item runs alike (widened at another width), against the host's libm in
// higher precision. Each result must be within the ulp bound of OpenCL C
// s7.4 (float) and s7.5's special values: NaN where the reference is NaN,
// infinities and zeros (with their sign) exactly.
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include "ClTest.h"

namespace lockstep::test {
namespace {

using Wide = long double;

// One builtin: its name, arity, ulp bound (the same for float and double),
// the range of its usual arguments, and the reference in higher precision.
struct MathCase {
  const char *name;
  int arity;
  double ulps;
  double lo, hi;
  Wide (*reference)(Wide, Wide);
};

std::ostream &operator<<(std::ostream &out, const MathCase &c) { return out << c.name; }

const MathCase kCases[] = {
    {"sin", 1, 4, -100, 100, [](Wide x, Wide) { return std::sin(x); }},
    {"cos", 1, 4, -100, 100, [](Wide x, Wide) { return std::cos(x); }},
    {"tan", 1, 5, -100, 100, [](Wide x, Wide) { return std::tan(x); }},
    {"asin", 1, 4, -1, 1, [](Wide x, Wide) { return std::asin(x); }},
    {"acos", 1, 4, -1, 1, [](Wide x, Wide) { return std::acos(x); }},
    {"atan", 1, 5, -100, 100, [](Wide x, Wide) { return std::atan(x); }},
    {"sinh", 1, 4, -90, 90, [](Wide x, Wide) { return std::sinh(x); }},
    {"cosh", 1, 4, -90, 90, [](Wide x, Wide) { return std::cosh(x); }},
    {"tanh", 1, 5, -20, 20, [](Wide x, Wide) { return std::tanh(x); }},
    {"asinh", 1, 4, -1e6, 1e6, [](Wide x, Wide) { return std::asinh(x); }},
    {"acosh", 1, 4, 1, 1e6, [](Wide x, Wide) { return std::acosh(x); }},
    {"atanh", 1, 5, -1, 1, [](Wide x, Wide) { return std::atanh(x); }},
    {"exp", 1, 3, -100, 100, [](Wide x, Wide) { return std::exp(x); }},
    {"exp2", 1, 3, -150, 130, [](Wide x, Wide) { return std::exp2(x); }},
    {"exp10", 1, 3, -45, 40, [](Wide x, Wide) { return std::pow(Wide(10), x); }},
    {"expm1", 1, 3, -20, 90, [](Wide x, Wide) { return std::expm1(x); }},
    {"log", 1, 3, 0, 1e6, [](Wide x, Wide) { return std::log(x); }},
    {"log2", 1, 3, 0, 1e6, [](Wide x, Wide) { return std::log2(x); }},
    {"log10", 1, 3, 0, 1e6, [](Wide x, Wide) { return std::log10(x); }},
    {"log1p", 1, 2, -1, 1e3, [](Wide x, Wide) { return std::log1p(x); }},
    {"erf", 1, 16, -5, 5, [](Wide x, Wide) { return std::erf(x); }},
    {"erfc", 1, 16, -5, 15, [](Wide x, Wide) { return std::erfc(x); }},
    {"pow", 2, 16, 0, 40, [](Wide x, Wide y) { return std::pow(x, y); }},
    {"atan2", 2, 6, -100, 100, [](Wide y, Wide x) { return std::atan2(y, x); }},
    {"hypot", 2, 4, -1e4, 1e4, [](Wide x, Wide y) { return std::hypot(x, y); }},
};

// The error of `got` in ulps of T at the reference's magnitude.
template <typename T>
double ulpError(T got, Wide want) {
  if (std::isnan(want)) return std::isnan(got) ? 0 : INFINITY;
  if (std::isnan(got)) return INFINITY;
  if (std::isinf(want) || want == 0)
    return got == want && std::signbit(got) == std::signbit(want) ? 0 : INFINITY;
  if (std::isinf(got))  // only where the reference rounds to infinity
    return std::isinf(T(want)) && std::signbit(got) == std::signbit(want) ? 0 : INFINITY;
  constexpr int digits = std::numeric_limits<T>::digits;
  constexpr int minExponent = std::numeric_limits<T>::min_exponent - 1;
  int exponent = std::max(std::ilogb(want), minExponent);
  return double(std::fabs(Wide(got) - want) / std::ldexp(Wide(1), exponent - (digits - 1)));
}

template <typename T, typename Bits>
std::vector<T> specialValues() {
  using L = std::numeric_limits<T>;
  std::vector<T> values = {0,
                           -T(0),
                           1,
                           -1,
                           T(0.5),
                           -T(0.5),
                           2,
                           -2,
                           L::infinity(),
                           -L::infinity(),
                           L::quiet_NaN(),
                           L::min(),
                           -L::min(),
                           L::max(),
                           -L::max(),
                           L::denorm_min(),
                           -L::denorm_min(),
                           L::epsilon(),
                           T(88.72),
                           T(-103.9),
                           T(709.78),
                           T(-745.1),
                           T(1e-30),
                           T(-1e-30),
                           T(3.14159265),
                           T(1e30)};
  Bits largestSubnormal = (Bits(1) << (L::digits - 1)) - 1;
  T subnormal;
  std::memcpy(&subnormal, &largestSubnormal, sizeof(T));
  values.push_back(subnormal);
  values.push_back(-subnormal);
  return values;
}

class VectorMath : public ClTest, public ::testing::WithParamInterface<MathCase> {
 protected:
  // Inputs: special values paired with each other, then bit patterns, then
  // the usual range; a multiple of 256 long.
  template <typename T, typename Bits>
  std::vector<T> inputs(const MathCase &c, size_t count, bool first) {
    std::vector<T> special = specialValues<T, Bits>(), values;
    for (size_t i = 0; i < special.size() * special.size(); ++i)
      values.push_back(first ? special[i / special.size()] : special[i % special.size()]);
    std::vector<Bits> bits = randomValues<Bits>(count, 0, std::numeric_limits<Bits>::max());
    for (Bits b : bits) {
      T value;
      std::memcpy(&value, &b, sizeof(T));
      values.push_back(value);
    }
    for (double v : randomValues<double>(count, c.lo, c.hi)) values.push_back(T(v));
    values.resize((values.size() + 255) / 256 * 256, T(1));
    return values;
  }

  template <typename T, typename Bits>
  void check(const char *type) {
    const MathCase &c = GetParam();
    std::ostringstream source;
    if (std::string(type) == "double") source << "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
    std::string call = std::string(c.name) + (c.arity == 1 ? "(x[j])" : "(x[j], y[j])");
    source << "kernel void straight(global const " << type << " *x, global const " << type
           << " *y, global " << type << " *out) {\n"
           << "  size_t j = get_global_id(0);\n  out[j] = " << call << ";\n}\n"
           << "kernel void looped(global const " << type << " *x, global const " << type
           << " *y, global " << type << " *out, uint rounds) {\n"
           << "  for (uint r = 0; r < rounds; ++r) {\n"
           << "    size_t j = get_global_id(0) + r * get_global_size(0);\n"
           << "    out[j] = " << call << ";\n  }\n}\n";
    cl_program program = build(source.str());
    ASSERT_NE(program, nullptr);
    std::vector<T> x = inputs<T, Bits>(c, 6000, true), y = inputs<T, Bits>(c, 6000, false);
    const size_t n = x.size();
    cl_mem mx = bufferFrom(x), my = bufferFrom(y);
    for (const char *name : {"straight", "looped"}) {
      SCOPED_TRACE(name);
      bool looped = std::string(name) == "looped";
      cl_kernel k = kernelOf(program, name);
      ASSERT_NE(k, nullptr);
      cl_mem mo = buffer(CL_MEM_WRITE_ONLY, n * sizeof(T));
      ASSERT_TRUE(setArgs(k, mx, my, mo));
      const cl_uint rounds = 4;
      if (looped) {
        ASSERT_EQ(clSetKernelArg(k, 3, sizeof(rounds), &rounds), CL_SUCCESS);
      }
      ASSERT_TRUE(run(k, {looped ? n / rounds : n}, {64}));
      std::vector<T> out = read<T>(mo, n);
      int failures = 0;
      double worst = 0;
      for (size_t i = 0; i < n; ++i) {
        Wide want = c.reference(Wide(x[i]), Wide(y[i]));
        double error = ulpError(out[i], want);
        worst = std::max(worst, std::isinf(error) ? 0.0 : error);
        if (error <= c.ulps || ++failures > 5) continue;
        std::ostringstream arguments;
        arguments << std::hexfloat << x[i];
        if (c.arity == 2) arguments << ", " << y[i];
        ADD_FAILURE() << type << " " << c.name << "(" << arguments.str() << "): got "
                      << std::hexfloat << out[i] << ", want " << double(want) << std::defaultfloat
                      << " (" << error << " ulp, bound " << c.ulps << ")";
      }
      EXPECT_EQ(failures, 0) << type << " " << c.name << ": " << failures << " of " << n
                             << " out of bounds";
      RecordProperty(std::string(type) + "_" + name + "_worst_ulp", std::to_string(worst));
    }
  }
};

TEST_P(VectorMath, Float) { check<float, uint32_t>("float"); }

TEST_P(VectorMath, Double) {
  if (!hasFeature("__opencl_c_fp64")) GTEST_SKIP() << "no __opencl_c_fp64";
  check<double, uint64_t>("double");
}

INSTANTIATE_TEST_SUITE_P(Builtins, VectorMath, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<MathCase> &info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace lockstep::test

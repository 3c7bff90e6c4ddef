// cl_khr_work_group_uniform_arithmetic: work_group_reduce, scan_inclusive
// and scan_exclusive of mul (integer and floating point), and, or, xor
// (integers) and logical_and, logical_or, logical_xor (int), checked per
// work-group against a host reference that combines each group's values in
// linear order. Every local size of kLocalSizes, with a remainder group
// (OpenCL C 3.0 allows non-uniform groups), and a 2D case for the order of
// a scan across rows.
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "ClTest.h"

namespace lockstep::test {
namespace {

// The extension is opt-in (cmake/LockstepFeatures.cmake: the pinned CTS
// refuses its name): offered in this process, which asks before anything
// loads the platform.
const bool kOptedIn = setenv("LOCKSTEP_OPT_IN_EXTENSIONS", "cl_khr_work_group_uniform_arithmetic", 1) == 0;

class UniformArithmetic : public LocalSizeTest {
 protected:
  void SetUp() override {
    ASSERT_TRUE(kOptedIn);
    LocalSizeTest::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_NE(deviceString(device_, CL_DEVICE_EXTENSIONS).find("cl_khr_work_group_uniform_arithmetic"),
              std::string::npos);
  }

  // A program of one kernel per operation in `ops`, each writing the
  // reduction, the inclusive and the exclusive scan of its input for type T.
  cl_program program(const char *type, std::initializer_list<const char *> ops) {
    std::string source = R"CLC(
      #ifndef cl_khr_work_group_uniform_arithmetic
      #error the extension's macro is not defined
      #endif
      #define OPERATION(T, OP)                                                        \
        kernel void k_##OP(global const T *in, global T *reduce, global T *inclusive, \
                           global T *exclusive) {                                     \
          size_t g = get_global_id(0);                                                \
          T v = in[g];                                                                \
          reduce[g] = work_group_reduce_##OP(v);                                      \
          inclusive[g] = work_group_scan_inclusive_##OP(v);                           \
          exclusive[g] = work_group_scan_exclusive_##OP(v);                           \
        }
    )CLC";
    for (const char *op : ops) source += std::string("OPERATION(") + type + ", " + op + ")\n";
    return build(source, "-cl-std=CL3.0");
  }

  // Three full groups and a remainder group of about half the local size.
  size_t globalSize() const { return 3 * GetParam() + GetParam() / 2 + 1; }

  // Runs kernel k_<op> of `program` on `in` and checks each work-item's three
  // results against the host's: `combine` applied in linear-id order within
  // each group, starting from `identity`. `close` compares two values.
  template <typename T, typename Combine, typename Close>
  void check(cl_program program, const std::string &op, const std::vector<T> &in, T identity,
             Combine combine, Close close) {
    SCOPED_TRACE(op);
    const size_t n = in.size(), local = GetParam();
    cl_kernel k = kernelOf(program, ("k_" + op).c_str());
    ASSERT_NE(k, nullptr);
    cl_mem mi = bufferFrom(in), mr = buffer(CL_MEM_WRITE_ONLY, n * sizeof(T)),
           mn = buffer(CL_MEM_WRITE_ONLY, n * sizeof(T)), me = buffer(CL_MEM_WRITE_ONLY, n * sizeof(T));
    ASSERT_TRUE(setArgs(k, mi, mr, mn, me));
    ASSERT_TRUE(run(k, {n}, {local}));
    std::vector<T> reduce = read<T>(mr, n), inclusive = read<T>(mn, n), exclusive = read<T>(me, n);
    for (size_t first = 0; first < n; first += local) {
      size_t end = std::min(first + local, n);
      T total = identity;
      for (size_t i = first; i < end; ++i) {
        ASSERT_TRUE(close(exclusive[i], total)) << "exclusive scan, work-item " << i;
        total = combine(total, in[i]);
        ASSERT_TRUE(close(inclusive[i], total)) << "inclusive scan, work-item " << i;
      }
      for (size_t i = first; i < end; ++i)
        ASSERT_TRUE(close(reduce[i], total)) << "reduction, work-item " << i;
    }
  }

  // Integer mul, and, or, xor for T, wrapping as the device does (in the
  // unsigned type of T's width).
  template <typename T>
  void checkIntegers(const char *type) {
    using U = std::make_unsigned_t<T>;
    cl_program p = program(type, {"mul", "and", "or", "xor"});
    ASSERT_NE(p, nullptr);
    const size_t n = globalSize();
    auto same = [](T a, T b) { return a == b; };
    // Small odd factors (-3, -1, 1, 3 or 1, 3, 5, 7): a product that wraps
    // keeps every bit informative, none becomes 0.
    std::vector<T> factors = randomValues<T>(n, std::is_signed_v<T> ? T(-2) : T(0), std::is_signed_v<T> ? T(1) : T(3));
    for (T &v : factors) v = T(U(v) * 2 + 1);
    check<T>(p, "mul", factors, T(1), [](T a, T b) { return T(U(a) * U(b)); }, same);
    std::vector<T> bits = randomValues<T>(n, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    // And over many random words is soon 0: most words set most bits.
    std::vector<T> dense = bits;
    for (size_t i = 0; i < n; ++i) dense[i] = T(U(bits[i]) | U(bits[(i * 7 + 3) % n]) | U(bits[(i * 13 + 5) % n]));
    check<T>(p, "and", dense, T(~U(0)), [](T a, T b) { return T(U(a) & U(b)); }, same);
    std::vector<T> sparse = bits;
    for (size_t i = 0; i < n; ++i) sparse[i] = T(U(bits[i]) & U(bits[(i * 7 + 3) % n]) & U(bits[(i * 11 + 1) % n]));
    check<T>(p, "or", sparse, T(0), [](T a, T b) { return T(U(a) | U(b)); }, same);
    check<T>(p, "xor", bits, T(0), [](T a, T b) { return T(U(a) ^ U(b)); }, same);
  }

  // Floating-point mul: the spec does not fix the order of the products, so
  // the device's may differ from the host's by rounding, relative to the
  // size of the group.
  template <typename T>
  void checkFloatingMul(const char *type, T epsilon) {
    cl_program p = program(type, {"mul"});
    ASSERT_NE(p, nullptr);
    std::vector<T> in = randomValues<T>(globalSize(), T(0.9), T(1.1));
    // A negative factor now and then, and an exact zero in the first group.
    for (size_t i = 5; i < in.size(); i += 11) in[i] = -in[i];
    if (in.size() > 2) in[in.size() / 8 + 1] = T(0);
    T tolerance = epsilon * T(4 * GetParam());
    check<T>(p, "mul", in, T(1), [](T a, T b) { return a * b; }, [tolerance](T a, T b) {
      return std::fabs(a - b) <= tolerance * std::fmax(std::fabs(a), std::fabs(b)) ||
             std::fabs(a - b) <= std::numeric_limits<T>::min();
    });
  }
};

TEST_P(UniformArithmetic, Int) { checkIntegers<cl_int>("int"); }
TEST_P(UniformArithmetic, Uint) { checkIntegers<cl_uint>("uint"); }
TEST_P(UniformArithmetic, Long) { checkIntegers<cl_long>("long"); }
TEST_P(UniformArithmetic, Ulong) { checkIntegers<cl_ulong>("ulong"); }
TEST_P(UniformArithmetic, FloatMul) { checkFloatingMul<float>("float", 1.2e-7f); }
TEST_P(UniformArithmetic, DoubleMul) {
  if (!hasFeature("__opencl_c_fp64")) GTEST_SKIP() << "no fp64";
  checkFloatingMul<double>("double", 2.3e-16);
}

// logical_and, logical_or, logical_xor: each operand as a truth value, each
// result 0 or 1. The groups differ in how many of their operands are 0.
TEST_P(UniformArithmetic, Logical) {
  cl_program p = program("int", {"logical_and", "logical_or", "logical_xor"});
  ASSERT_NE(p, nullptr);
  const size_t n = globalSize(), local = GetParam();
  const int zeroPercent[] = {0, 3, 50, 97, 100};
  std::vector<int> values = randomValues<int>(n, std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
  std::vector<int> chance = randomValues<int>(n, 0, 99);
  for (size_t i = 0; i < n; ++i) {
    if (chance[i] < zeroPercent[(i / local) % 5]) values[i] = 0;
    else if (values[i] == 0) values[i] = -7;
  }
  auto same = [](int a, int b) { return a == b; };
  check<int>(p, "logical_and", values, 1, [](int a, int b) { return int(a != 0 && b != 0); }, same);
  check<int>(p, "logical_or", values, 0, [](int a, int b) { return int(a != 0 || b != 0); }, same);
  check<int>(p, "logical_xor", values, 0, [](int a, int b) { return int((a != 0) != (b != 0)); }, same);
}

INSTANTIATE_TEST_SUITE_P(LocalSizes, UniformArithmetic, ::testing::ValuesIn(kLocalSizes),
                         [](const ::testing::TestParamInfo<size_t> &info) {
                           return "local" + std::to_string(info.param);
                         });

class UniformArithmeticShapes : public ClTest {};

// A 2D group scans in linear-id order: x fastest, then y.
TEST_F(UniformArithmeticShapes, ScanFollowsLinearIdIn2D) {
  cl_kernel k = kernel(R"CLC(
    kernel void scan(global const uint *in, global uint *inclusive, global uint *exclusive) {
      size_t g = get_global_id(1) * get_global_size(0) + get_global_id(0);
      inclusive[g] = work_group_scan_inclusive_xor(in[g]) * 3u + work_group_reduce_mul(in[g] | 1u);
      exclusive[g] = work_group_scan_exclusive_or(in[g] & 0x01010101u);
    }
  )CLC",
                       "scan", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  const size_t gx = 12, gy = 10, lx = 4, ly = 5, n = gx * gy;
  std::vector<cl_uint> in = randomValues<cl_uint>(n, 0, 0xffffffffu);
  cl_mem mi = bufferFrom(in), mn = buffer(CL_MEM_WRITE_ONLY, n * 4), me = buffer(CL_MEM_WRITE_ONLY, n * 4);
  ASSERT_TRUE(setArgs(k, mi, mn, me));
  ASSERT_TRUE(run(k, {gx, gy}, {lx, ly}));
  std::vector<cl_uint> inclusive = read<cl_uint>(mn, n), exclusive = read<cl_uint>(me, n);
  for (size_t groupY = 0; groupY < gy; groupY += ly)
    for (size_t groupX = 0; groupX < gx; groupX += lx) {
      cl_uint product = 1;
      for (size_t y = groupY; y < groupY + ly; ++y)
        for (size_t x = groupX; x < groupX + lx; ++x) product *= in[y * gx + x] | 1u;
      cl_uint xorScan = 0, orScan = 0;
      for (size_t y = groupY; y < groupY + ly; ++y)
        for (size_t x = groupX; x < groupX + lx; ++x) {
          size_t g = y * gx + x;
          ASSERT_EQ(exclusive[g], orScan) << x << "," << y;
          xorScan ^= in[g];
          orScan |= in[g] & 0x01010101u;
          ASSERT_EQ(inclusive[g], xorScan * 3u + product) << x << "," << y;
        }
    }
}

// The extension needs the work-group collective functions: OpenCL C 1.2
// has neither them nor the extension's macro.
TEST_F(UniformArithmeticShapes, AbsentBeforeOpenCLC3) {
  cl_kernel k = kernel(R"CLC(
    #ifdef cl_khr_work_group_uniform_arithmetic
    #error defined without the work-group collective functions
    #endif
    kernel void plain(global int *out) { out[get_global_id(0)] = 1; }
  )CLC",
                       "plain", "-cl-std=CL1.2");
  EXPECT_NE(k, nullptr);
}

}  // namespace
}  // namespace lockstep::test

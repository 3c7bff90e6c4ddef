// Integer division and remainder by values that every work-item shares (a
// kernel argument, the local size), which the compiler turns into a
// multiplication by a reciprocal computed once per group: every integer type,
// signed and unsigned, divisors from 1 to the type's extremes, dividends over
// the whole range; size_t ids divided by a ulong, below and above 2^32 (the
// second runs the division itself); and a division by zero, whose result
// OpenCL leaves undefined, must not stop the kernel.
#include <cstring>
#include <limits>
#include <sstream>

#include "ClTest.h"

namespace lockstep::test {
namespace {

class Division : public ClTest {
 protected:
  template <typename T>
  std::vector<T> dividends(size_t count) {
    using L = std::numeric_limits<T>;
    std::vector<T> values = {0,
                             1,
                             2,
                             3,
                             L::max(),
                             T(L::max() - 1),
                             L::min(),
                             T(L::min() + 1),
                             T(L::max() / 2),
                             T(L::max() / 2 + 1)};
    if (L::is_signed) values.insert(values.end(), {T(-1), T(-2), T(-3), T(-7)});
    using Draw = std::conditional_t<(sizeof(T) < 4), int, T>;
    for (Draw v : randomValues<Draw>(count, L::min(), L::max())) values.push_back(T(v));
    for (Draw v : randomValues<Draw>(count, 0, 1000)) values.push_back(T(v));
    values.resize((values.size() + 63) / 64 * 64, T(5));
    return values;
  }

  template <typename T>
  std::vector<T> divisors() {
    using L = std::numeric_limits<T>;
    std::vector<T> values = {1,
                             2,
                             3,
                             7,
                             10,
                             16,
                             17,
                             100,
                             T(255),
                             L::max(),
                             T(L::max() - 1),
                             T(L::max() / 2),
                             T(L::max() / 2 + 1)};
    if (sizeof(T) >= 2) values.insert(values.end(), {T(1000), T(4095), T(4096), T(4097), T(30000)});
    if (sizeof(T) >= 4)
      values.insert(values.end(), {T(65536), T(1000003), T(0x7fffffff), T(0x80000001u)});
    if (L::is_signed)
      values.insert(values.end(), {T(-1), T(-2), T(-3), T(-100), L::min(), T(L::min() + 1)});
    return values;
  }

  // out[i] = in[i] / d and out[n + i] = in[i] % d for each divisor d.
  template <typename T>
  void check(const char *type) {
    SCOPED_TRACE(type);
    std::ostringstream source;
    source << "kernel void k(global const " << type << " *in, global " << type << " *out, " << type
           << " d) {\n"
           << "  size_t i = get_global_id(0), n = get_global_size(0);\n"
           << "  out[i] = in[i] / d;\n  out[n + i] = in[i] % d;\n}\n";
    cl_kernel k = kernel(source.str(), "k");
    ASSERT_NE(k, nullptr);
    std::vector<T> in = dividends<T>(2000);
    const size_t n = in.size();
    cl_mem mi = bufferFrom(in), mo = buffer(CL_MEM_READ_WRITE, 2 * n * sizeof(T));
    for (T d : divisors<T>()) {
      ASSERT_TRUE(setArgs(k, mi, mo, d));
      ASSERT_TRUE(run(k, {n}, {64}));
      std::vector<T> out = read<T>(mo, 2 * n);
      int failures = 0;
      for (size_t i = 0; i < n && failures < 5; ++i) {
        if (std::numeric_limits<T>::is_signed && d == T(-1) &&
            in[i] == std::numeric_limits<T>::min())
          continue;
        T q = T(in[i] / d), r = T(in[i] % d);
        if (out[i] == q && out[n + i] == r) continue;
        ++failures;
        ADD_FAILURE() << type << " " << +in[i] << " / " << +d << ": got " << +out[i] << " and "
                      << +out[n + i] << ", want " << +q << " and " << +r;
      }
    }
  }
};

TEST_F(Division, Char) { check<cl_char>("char"); }
TEST_F(Division, Uchar) { check<cl_uchar>("uchar"); }
TEST_F(Division, Short) { check<cl_short>("short"); }
TEST_F(Division, Ushort) { check<cl_ushort>("ushort"); }
TEST_F(Division, Int) { check<cl_int>("int"); }
TEST_F(Division, Uint) { check<cl_uint>("uint"); }
TEST_F(Division, Long) { check<cl_long>("long"); }
TEST_F(Division, Ulong) { check<cl_ulong>("ulong"); }

// size_t ids divided by a ulong: below 2^32, and with a global offset that
// takes the ids past it, where the checked copy of the loop must not run.
TEST_F(Division, GlobalIdsAboveAndBelowTwoToThe32) {
  cl_kernel k = kernel(R"CLC(
    kernel void k(global ulong *out, ulong width) {
      size_t g = get_global_id(0);
      size_t i = g - get_global_offset(0);
      out[2 * i] = g / width;
      out[2 * i + 1] = g % width;
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  const size_t n = 4096;
  cl_mem mo = buffer(CL_MEM_READ_WRITE, 2 * n * sizeof(cl_ulong));
  for (cl_ulong offset :
       {cl_ulong(0), cl_ulong(1) << 32, (cl_ulong(1) << 32) - 1000, cl_ulong(1) << 40})
    for (cl_ulong width :
         {cl_ulong(1), cl_ulong(7), cl_ulong(1000), cl_ulong(4096), (cl_ulong(1) << 32) + 5}) {
      ASSERT_TRUE(setArgs(k, mo, width));
      ASSERT_TRUE(run(k, {n}, {256}, {size_t(offset)}));
      std::vector<cl_ulong> out = read<cl_ulong>(mo, 2 * n);
      for (size_t i = 0; i < n; ++i) {
        cl_ulong g = offset + i;
        ASSERT_EQ(out[2 * i], g / width) << g << " / " << width;
        ASSERT_EQ(out[2 * i + 1], g % width) << g << " % " << width;
      }
    }
}

// `(lid + k) % get_local_size(0)`: a size_t division by the local size in
// a loop every work-item runs alike, for local sizes 1 to 256.
TEST_F(Division, ByTheLocalSizeInALoop) {
  cl_kernel k = kernel(R"CLC(
    kernel void k(global const uint *in, global uint *out) {
      size_t lid = get_local_id(0), n = get_local_size(0), base = get_group_id(0) * n;
      uint sum = 0;
      for (uint r = 0; r < 9; ++r) sum = sum * 31u + in[base + (lid + r * r) % n] + (uint)((lid * 7 + r) / n);
      out[get_global_id(0)] = sum;
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  const size_t n = 7 * 256;
  std::vector<cl_uint> in = randomValues<cl_uint>(n, 0, 1000000);
  cl_mem mi = bufferFrom(in), mo = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_uint));
  for (size_t local : {size_t(1), size_t(7), size_t(64), size_t(256)}) {
    ASSERT_TRUE(setArgs(k, mi, mo));
    ASSERT_TRUE(run(k, {n}, {local}));
    std::vector<cl_uint> out = read<cl_uint>(mo, n);
    for (size_t g = 0; g < n; ++g) {
      size_t lid = g % local, base = g - lid;
      cl_uint sum = 0;
      for (cl_uint r = 0; r < 9; ++r)
        sum = sum * 31u + in[base + (lid + r * r) % local] + cl_uint((lid * 7 + r) / local);
      ASSERT_EQ(out[g], sum) << "local size " << local << ", item " << g;
    }
  }
}

// A division by zero has an undefined result, but the kernel runs on: the
// other outputs are right.
TEST_F(Division, ByZeroDoesNotStopTheKernel) {
  cl_kernel k = kernel(R"CLC(
    kernel void k(global const int *in, global int *out, int d) {
      size_t i = get_global_id(0);
      out[2 * i] = in[i] / d + in[i] % d;
      out[2 * i + 1] = in[i] + 1;
    }
  )CLC",
                       "k");
  ASSERT_NE(k, nullptr);
  const size_t n = 1024;
  std::vector<cl_int> in = randomValues<cl_int>(n, -100000, 100000);
  cl_mem mi = bufferFrom(in), mo = buffer(CL_MEM_READ_WRITE, 2 * n * sizeof(cl_int));
  ASSERT_TRUE(setArgs(k, mi, mo, cl_int(0)));
  ASSERT_TRUE(run(k, {n}));
  std::vector<cl_int> out = read<cl_int>(mo, 2 * n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[2 * i + 1], in[i] + 1) << i;
}

}  // namespace
}  // namespace lockstep::test

// cl_ext_float_atomics: atomic_fetch_add/sub/min/max (and their _explicit
// forms) on atomic_float and atomic_double in __global, __local and generic
// memory, every work-item of every group racing on the same objects; the
// device's capability queries and the feature macros.
//
// The added values are small integers, so every partial sum is exact in
// either type and the host's sum is the only right answer whatever the
// order. The values fetch_add returns show that each add was atomic: sorted,
// each one plus its own operand is the next.
#include <CL/cl_ext.h>

#include <algorithm>
#include <map>

#include "ClTest.h"

#ifndef CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT
#define CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 0)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT (1 << 1)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT (1 << 2)
#define CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 16)
#define CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT (1 << 17)
#define CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT (1 << 18)
#define CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT 0x4231
#define CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT 0x4232
#define CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT 0x4233
#endif

namespace lockstep::test {
namespace {

constexpr cl_bitfield kAll = CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT | CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT |
                             CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT |
                             CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT;

class FloatAtomics : public LocalSizeTest {
 protected:
  template <typename T>
  void check(const std::string &type);
};
class FloatAtomicQueries : public ClTest {};

TEST_F(FloatAtomicQueries, CapabilitiesAndMacros) {
  std::string list = " " + deviceString(device_, CL_DEVICE_EXTENSIONS) + " ";
  EXPECT_NE(list.find(" cl_ext_float_atomics "), std::string::npos);
  EXPECT_EQ(deviceInfo<cl_bitfield>(device_, CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT), kAll);
  EXPECT_EQ(deviceInfo<cl_bitfield>(device_, CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT), kAll);
  // Half atomics are not offered (with or without cl_khr_fp16).
  EXPECT_EQ(deviceInfo<cl_bitfield>(device_, CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT), cl_bitfield(0));
  for (const char *name : {"__opencl_c_ext_fp32_global_atomic_add", "__opencl_c_ext_fp32_local_atomic_add",
                           "__opencl_c_ext_fp32_global_atomic_min_max", "__opencl_c_ext_fp32_local_atomic_min_max",
                           "__opencl_c_ext_fp64_global_atomic_add", "__opencl_c_ext_fp64_local_atomic_add",
                           "__opencl_c_ext_fp64_global_atomic_min_max", "__opencl_c_ext_fp64_local_atomic_min_max"})
    EXPECT_TRUE(hasFeature(name)) << name;
  // The macros kernels see, and none for half.
  const char *source = R"CLC(
#if !defined(cl_ext_float_atomics) || !defined(__opencl_c_ext_fp32_global_atomic_add) || \
    !defined(__opencl_c_ext_fp32_local_atomic_min_max) || !defined(__opencl_c_ext_fp64_local_atomic_add) || \
    !defined(__opencl_c_ext_fp64_global_atomic_min_max)
#error float atomics macros missing
#endif
#if defined(__opencl_c_ext_fp16_global_atomic_add) || defined(__opencl_c_ext_fp16_local_atomic_min_max)
#error half atomics offered
#endif
kernel void k(global int *out) { out[0] = 1; }
)CLC";
  EXPECT_NE(kernel(source, "k", "-cl-std=CL3.0"), nullptr);
}

// T is float or double. Every work-item adds v[i] to a global and a local
// sum (the implicit, the explicit-order and the explicit-scope forms, and
// through a generic pointer), subtracts it, and takes the min and max of
// m[i] into global and local objects. Work-item 0 of each group reports the
// local results after a barrier.
std::string atomicsSource(const std::string &t) {
  std::string text = R"CLC(
kernel void fp_atomics(global const T *v, global const T *m, global atomic_T *g, global T *olds,
                       global T *perGroup) {
  local atomic_T l[4];
  size_t i = get_global_id(0), lid = get_local_id(0), grp = get_group_id(0);
  if (lid == 0) {
    atomic_init(&l[0], (T)0);
    atomic_init(&l[1], (T)0);
    atomic_init(&l[2], (T)INFINITY);
    atomic_init(&l[3], -(T)INFINITY);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  T x = v[i], y = m[i];
  olds[i] = atomic_fetch_add(&g[0], x);
  atomic_fetch_sub_explicit(&g[1], x, memory_order_relaxed);
  atomic_fetch_min_explicit(&g[2], y, memory_order_acq_rel, memory_scope_device);
  atomic_fetch_max(&g[3], y);
  volatile generic atomic_T *gen = (lid & 1) ? (volatile generic atomic_T *)&g[4] : (volatile generic atomic_T *)&l[0];
  atomic_fetch_add_explicit(gen, x, memory_order_relaxed, memory_scope_work_group);
  atomic_fetch_add_explicit(&l[1], x, memory_order_seq_cst);
  atomic_fetch_sub(&l[1], (T)2 * x);
  atomic_fetch_min(&l[2], y);
  volatile generic atomic_T *genMax = &l[3];
  atomic_fetch_max_explicit(genMax, y, memory_order_relaxed);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    perGroup[grp * 4 + 0] = atomic_load(&l[0]);
    perGroup[grp * 4 + 1] = atomic_load(&l[1]);
    perGroup[grp * 4 + 2] = atomic_load(&l[2]);
    perGroup[grp * 4 + 3] = atomic_load(&l[3]);
  }
}
)CLC";
  std::string out = "#define T " + t + "\n#define atomic_T atomic_" + t + "\n";
  if (t == "double") out += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  return out + text;
}

template <typename T>
void FloatAtomics::check(const std::string &type) {
  FloatAtomics &test = *this;
  const size_t local = GetParam();
  const size_t groups = 16, n = local * groups;
  cl_kernel k = test.kernel(atomicsSource(type), "fp_atomics", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  if (local > test.kernelMaxGroupSize(k)) GTEST_SKIP();
  std::vector<int> small = test.template randomValues<int>(n, 1, 16);
  std::vector<T> v(small.begin(), small.end());
  std::vector<T> m = test.template randomValues<T>(n, T(-1000), T(1000));
  std::vector<T> init = {T(0), T(0), T(5000), T(-5000), T(0)};
  cl_mem g = test.bufferFrom(init), olds = test.buffer(CL_MEM_WRITE_ONLY, n * sizeof(T)),
         perGroup = test.buffer(CL_MEM_WRITE_ONLY, groups * 4 * sizeof(T));
  ASSERT_TRUE(test.setArgs(k, test.bufferFrom(v), test.bufferFrom(m), g, olds, perGroup));
  ASSERT_TRUE(test.run(k, {n}, {local}));
  std::vector<T> got = test.template read<T>(g, 5), gotOlds = test.template read<T>(olds, n),
                 gotGroups = test.template read<T>(perGroup, groups * 4);

  T sum = 0, oddSum = 0;
  for (size_t i = 0; i < n; ++i) {
    sum += v[i];
    if ((i % local) & 1) oddSum += v[i];
  }
  EXPECT_EQ(got[0], sum);
  EXPECT_EQ(got[1], -sum);
  EXPECT_EQ(got[2], std::min(init[2], *std::min_element(m.begin(), m.end())));
  EXPECT_EQ(got[3], std::max(init[3], *std::max_element(m.begin(), m.end())));
  EXPECT_EQ(got[4], oddSum);
  // fetch_add's returned values: a chain from 0 to the sum.
  std::vector<std::pair<T, T>> chain;
  for (size_t i = 0; i < n; ++i) chain.emplace_back(gotOlds[i], v[i]);
  std::sort(chain.begin(), chain.end());
  EXPECT_EQ(chain.front().first, T(0));
  for (size_t i = 0; i + 1 < n; ++i)
    ASSERT_EQ(chain[i].first + chain[i].second, chain[i + 1].first) << "fetch_add returned " << chain[i].first
                                                                     << " twice or skipped a value";
  for (size_t grp = 0; grp < groups; ++grp) {
    T evenSum = 0, groupSum = 0, lo = T(INFINITY), hi = -T(INFINITY);
    for (size_t lid = 0; lid < local; ++lid) {
      size_t i = grp * local + lid;
      groupSum += v[i];
      if (!(lid & 1)) evenSum += v[i];
      lo = std::min(lo, m[i]);
      hi = std::max(hi, m[i]);
    }
    EXPECT_EQ(gotGroups[grp * 4 + 0], evenSum) << "group " << grp;
    EXPECT_EQ(gotGroups[grp * 4 + 1], -groupSum) << "group " << grp;
    EXPECT_EQ(gotGroups[grp * 4 + 2], lo) << "group " << grp;
    EXPECT_EQ(gotGroups[grp * 4 + 3], hi) << "group " << grp;
  }
}

TEST_P(FloatAtomics, Float) { check<float>("float"); }
TEST_P(FloatAtomics, Double) { check<double>("double"); }

INSTANTIATE_TEST_SUITE_P(LocalSizes, FloatAtomics, ::testing::ValuesIn(kLocalSizes));

}  // namespace
}  // namespace lockstep::test

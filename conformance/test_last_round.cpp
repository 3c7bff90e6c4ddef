// Loops whose work-items start a local id apart and step at least the
// group's width (a grid-stride loop, a loop over a __local array by the
// group's width): the compiler runs the rounds every work-item of the group
// runs as a loop of its own and the one round more that some take as an
// `if` (LastRound.cpp), and keeps the loop whole for launches whose starts
// or steps break what that relies on. Each result is checked against the
// host's: a 64-bin histogram with __local atomics over an `int` grid-stride loop
// at group sizes that leave every remainder, a loop over a __local array of
// 300 by groups of 1 to 256, loops of no round, an unsigned counter
// whose starts wrap inside a group (the whole loop), a tree's levels
// bound by the counter of the loop around their barriers, and a loop
// around a loop (NVIDIA's scalarProd).
#include <algorithm>
#include <cstdint>

#include "ClTest.h"

namespace lockstep::test {
namespace {

const char *kLoops = R"CLC(
// Bins of a byte's high six bits, in int arithmetic.
kernel void histogram(global const uchar *data, int n, global uint *bins) {
  local uint counts[64];
  for (int bin = get_local_id(0); bin < 64; bin += get_local_size(0)) counts[bin] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  int step = get_global_size(0);
  for (int i = get_global_id(0); i < n; i += step) atomic_inc(&counts[data[i] >> 2]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int bin = get_local_id(0); bin < 64; bin += get_local_size(0))
    if (counts[bin]) atomic_add(&bins[bin], counts[bin]);
}
// Each group reverses its slice of 300 through __local memory.
kernel void reverse300(global const float *in, global float *out) {
  local float slice[300];
  size_t base = get_group_id(0) * 300;
  for (uint i = get_local_id(0); i < 300u; i += get_local_size(0)) slice[i] = in[base + i];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_local_id(0); i < 300u; i += get_local_size(0)) out[base + i] = slice[299 - i];
}
// Unsigned starts from `first`, which may wrap past 2^32 inside a group.
kernel void wrapping_starts(global uint *out, uint first, uint n) {
  for (uint i = get_global_id(0) + first; i < n; i += get_global_size(0)) out[i] += 1u + (uint)get_global_id(0);
}
)CLC";

class LastRound : public ClTest {};

TEST_F(LastRound, GridStrideHistogram) {
  cl_kernel histogram = kernel(kLoops, "histogram");
  ASSERT_NE(histogram, nullptr);
  for (size_t local : {1u, 3u, 64u, 100u, 256u}) {
    if (local > kernelMaxGroupSize(histogram)) continue;
    for (size_t n : {0u, 1u, 777u, 100000u}) {
      const size_t global = local * 7;
      std::vector<int> values = randomValues<int>(std::max<size_t>(n, 1), 0, 255);
      std::vector<uint8_t> data(values.begin(), values.end());
      std::vector<uint32_t> want(64, 0);
      for (size_t i = 0; i < n; ++i) ++want[data[i] >> 2];
      cl_mem md = bufferFrom(data), mb = bufferFrom(std::vector<uint32_t>(64, 0));
      ASSERT_TRUE(setArgs(histogram, md, cl_int(n), mb));
      ASSERT_TRUE(run(histogram, {global}, {local}));
      EXPECT_EQ(read<uint32_t>(mb, 64), want) << "local " << local << ", n " << n;
    }
  }
}

TEST_F(LastRound, LoopOverALocalArray) {
  cl_kernel reverse = kernel(kLoops, "reverse300");
  ASSERT_NE(reverse, nullptr);
  for (size_t local : {1u, 7u, 64u, 150u, 256u, 299u, 300u}) {
    if (local > kernelMaxGroupSize(reverse)) continue;
    const size_t groups = 3;
    std::vector<float> in = randomValues<float>(300 * groups, -1.0f, 1.0f), want(in.size());
    for (size_t g = 0; g < groups; ++g)
      for (size_t i = 0; i < 300; ++i) want[g * 300 + i] = in[g * 300 + 299 - i];
    cl_mem mi = bufferFrom(in), mo = bufferFrom(std::vector<float>(in.size(), 0.0f));
    ASSERT_TRUE(setArgs(reverse, mi, mo));
    ASSERT_TRUE(run(reverse, {local * groups}, {local}));
    EXPECT_EQ(read<float>(mo, in.size()), want) << "local " << local;
  }
}

TEST_F(LastRound, UnsignedStartsThatWrapInAGroup) {
  cl_kernel wrapping = kernel(kLoops, "wrapping_starts");
  ASSERT_NE(wrapping, nullptr);
  const size_t local = 64, global = 64 * 4, n = 1000;
  for (uint32_t first : {0u, 5u, 0xFFFFFFF0u, 0xFFFFFF00u}) {
    std::vector<uint32_t> want(n, 0);
    for (size_t id = 0; id < global; ++id)
      for (uint32_t i = uint32_t(id) + first; i < n; i += uint32_t(global)) want[i] += 1u + uint32_t(id);
    cl_mem mo = bufferFrom(std::vector<uint32_t>(n, 0));
    ASSERT_TRUE(setArgs(wrapping, mo, cl_uint(first), cl_uint(n)));
    ASSERT_TRUE(run(wrapping, {global}, {local}));
    EXPECT_EQ(read<uint32_t>(mo, n), want) << "first " << first;
  }
}

// A tree in __local memory whose levels run `for (i = lid; i < stride; i +=
// get_local_size(0))` (NVIDIA's scalarProd), the bound the counter of the
// loop around the barriers: uniform, though no expression of the group's
// values. Sums of 1000 values (an uneven level's remainder) at local sizes
// 1 to 256, `uint` and `int` counters; integers, so exact.
TEST_F(LastRound, TreeLevelsBoundByTheBarrierLoop) {
  cl_kernel tree = kernel(R"CLC(
    kernel void tree(global const int *in, global int *out, global int *out2) {
      local int l[1000], m[1000];
      uint g = get_group_id(0) * 1000;
      for (uint i = get_local_id(0); i < 1000; i += get_local_size(0)) l[i] = in[g + i];
      for (int i = get_local_id(0); i < 1000; i += (int)get_local_size(0)) m[i] = in[g + i] * 3;
      uint n = 1000;
      for (uint stride = 500; stride > 0; stride = (stride + 1) / 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint i = get_local_id(0); i < stride; i += get_local_size(0))
          l[i] += (stride + i < n) ? l[stride + i] : 0;
        for (int i = get_local_id(0); i < (int)stride; i += (int)get_local_size(0))
          m[i] += (stride + i < n) ? m[stride + i] : 0;
        n = stride;
        if (stride == 1) break;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      if (get_local_id(0) == 0) { out[get_group_id(0)] = l[0]; out2[get_group_id(0)] = m[0]; }
    }
  )CLC",
                        "tree");
  ASSERT_NE(tree, nullptr);
  const size_t groups = 5;
  std::vector<int> in = randomValues<int>(1000 * groups, -1000, 1000);
  for (size_t local : {1u, 7u, 64u, 100u, 256u}) {
    cl_mem mi = bufferFrom(in), mo = bufferFrom(std::vector<int>(groups, 0)),
           mo2 = bufferFrom(std::vector<int>(groups, 0));
    ASSERT_TRUE(setArgs(tree, mi, mo, mo2));
    ASSERT_TRUE(run(tree, {local * groups}, {local}));
    std::vector<int> got = read<int>(mo, groups), got2 = read<int>(mo2, groups);
    for (size_t g = 0; g < groups; ++g) {
      int want = 0;
      for (size_t i = 0; i < 1000; ++i) want += in[g * 1000 + i];
      EXPECT_EQ(got[g], want) << "local " << local << ", group " << g;
      EXPECT_EQ(got2[g], 3 * want) << "local " << local << ", group " << g;
    }
  }
}

// NVIDIA's scalarProd: each group takes vectors by a grid-stride loop; its
// work-items take accumulators by a loop over the group's width, each
// summing its elements a stride of `accum` apart, a loop inside that loop;
// then a tree. Integer products (exact), the inner loop's rounds uneven when
// the vector's length is no multiple of `accum`, group sizes that leave
// every remainder of it, an `int` and a `uint` counter.
TEST_F(LastRound, StrideLoopAroundALoop) {
  cl_kernel dot = kernel(R"CLC(
    #define ACCUM 300
    kernel void scalar_prod(global int *c, global const int *a, global const int *b, uint vectors, uint elements,
                    int signedCounter) {
      local int acc[ACCUM];
      for (uint vec = get_group_id(0); vec < vectors; vec += get_num_groups(0)) {
        uint base = elements * vec, end = base + elements;
        if (signedCounter) {
          for (int i = get_local_id(0); i < ACCUM; i += (int)get_local_size(0)) {
            int sum = 0;
            for (uint pos = base + i; pos < end; pos += ACCUM) sum += a[pos] * b[pos];
            acc[i] = sum;
          }
        } else {
          for (uint i = get_local_id(0); i < ACCUM; i += get_local_size(0)) {
            int sum = 0;
            for (uint pos = base + i; pos < end; pos += ACCUM) sum += a[pos] * b[pos];
            acc[i] = sum;
          }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (get_local_id(0) == 0) {
          int total = 0;
          for (int i = 0; i < ACCUM; i++) total += acc[i];
          c[vec] = total;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
      }
    }
  )CLC",
                       "scalar_prod");
  ASSERT_NE(dot, nullptr);
  const uint32_t vectors = 6;
  for (uint32_t elements : {300u, 1000u, 4096u, 17u}) {
    std::vector<int> a = randomValues<int>(size_t(vectors) * elements, -50, 50),
                     b = randomValues<int>(size_t(vectors) * elements, -50, 50);
    std::vector<int> want(vectors, 0);
    for (size_t v = 0; v < vectors; ++v)
      for (size_t e = 0; e < elements; ++e) want[v] += a[v * elements + e] * b[v * elements + e];
    for (size_t local : {1u, 7u, 64u, 256u}) {
      if (local > kernelMaxGroupSize(dot)) continue;
      for (cl_int signedCounter : {0, 1}) {
        cl_mem mc = bufferFrom(std::vector<int>(vectors, 0)), ma = bufferFrom(a),
               mb = bufferFrom(b);
        ASSERT_TRUE(setArgs(dot, mc, ma, mb, vectors, elements, signedCounter));
        ASSERT_TRUE(run(dot, {local * 4}, {local}));
        EXPECT_EQ(read<int>(mc, vectors), want)
            << elements << " elements, local " << local << (signedCounter ? ", int" : ", uint");
      }
    }
  }
}

}  // namespace
}  // namespace lockstep::test

// Work-group barriers and __local memory: the kernels that need the compiler to
// cut the body at barriers and keep values of each work-item across them.
// Each runs with local sizes 1, 7 (not a power of two), 64 and 256.
#include "ClTest.h"

namespace lockstep::test {
namespace {

// Skips a local size the kernel cannot run with on this device.
#define SKIP_IF_TOO_LARGE(kernel, size)                                              \
  do {                                                                               \
    if ((size) > kernelMaxGroupSize(kernel))                                         \
      GTEST_SKIP() << "kernel work-group size limit " << kernelMaxGroupSize(kernel); \
  } while (0)

const char *kReduce = R"CLC(
// Tree reduction that works for any group size: at step s, item i (a multiple
// of 2s) adds in item i+s if there is one.
kernel void reduce(global const int *in, global int *partial, local int *scratch) {
  uint lid = get_local_id(0), n = get_local_size(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 1; s < n; s <<= 1) {
    if (lid % (2 * s) == 0 && lid + s < n) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(0)] = scratch[0];
}
)CLC";

class Reduction : public LocalSizeTest {};
TEST_P(Reduction, LocalMemoryTree) {
  const size_t local = GetParam(), groups = 37, n = local * groups;
  cl_kernel reduce = kernel(kReduce, "reduce");
  ASSERT_NE(reduce, nullptr);
  SKIP_IF_TOO_LARGE(reduce, local);
  std::vector<int> in = randomValues(n, -1000, 1000);
  cl_mem mi = bufferFrom(in), mp = buffer(CL_MEM_WRITE_ONLY, groups * sizeof(int));
  ASSERT_TRUE(setArgs(reduce, mi, mp, LocalBytes{local * sizeof(int)}));
  ASSERT_TRUE(run(reduce, {n}, {local}));
  std::vector<int> partial = read<int>(mp, groups);
  for (size_t g = 0; g < groups; ++g) {
    int want = 0;
    for (size_t i = 0; i < local; ++i) want += in[g * local + i];
    EXPECT_EQ(partial[g], want) << "group " << g;
  }
}

// Hillis-Steele inclusive scan; the barrier stands in a loop whose trip count
// comes from a kernel argument (log2 of the padded size), so the compiler
// cannot unroll it away.
const char *kScan = R"CLC(
kernel void scan(global const int *in, global int *out, local int *a, local int *b,
                 uint steps) {
  uint lid = get_local_id(0), n = get_local_size(0);
  a[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  local int *src = a, *dst = b;
  for (uint step = 0; step < steps; ++step) {
    uint s = 1u << step;
    dst[lid] = lid >= s ? src[lid] + src[lid - s] : src[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    local int *t = src; src = dst; dst = t;
  }
  out[get_global_id(0)] = src[lid];
}
)CLC";

class Scan : public LocalSizeTest {};
TEST_P(Scan, HillisSteeleWithBarrierInArgumentBoundLoop) {
  const size_t local = GetParam(), groups = 19, n = local * groups;
  cl_kernel scan = kernel(kScan, "scan");
  ASSERT_NE(scan, nullptr);
  SKIP_IF_TOO_LARGE(scan, local);
  cl_uint steps = 0;
  while ((size_t{1} << steps) < local) ++steps;
  std::vector<int> in = randomValues(n, -100, 100);
  cl_mem mi = bufferFrom(in), mo = buffer(CL_MEM_WRITE_ONLY, n * sizeof(int));
  ASSERT_TRUE(setArgs(scan, mi, mo, LocalBytes{local * 4}, LocalBytes{local * 4}, steps));
  ASSERT_TRUE(run(scan, {n}, {local}));
  std::vector<int> out = read<int>(mo, n);
  for (size_t g = 0; g < groups; ++g) {
    int sum = 0;
    for (size_t i = 0; i < local; ++i) {
      sum += in[g * local + i];
      ASSERT_EQ(out[g * local + i], sum) << "group " << g << " item " << i;
    }
  }
}

// Barriers in both arms of an if/else whose condition is uniform over the group
// (it depends on the group id and an argument), with a different number of
// barriers in each arm.
const char *kBranches = R"CLC(
kernel void branches(global const int *in, global int *out, local int *tmp, int mode) {
  uint lid = get_local_id(0), n = get_local_size(0);
  int v = in[get_global_id(0)];
  if (((get_group_id(0) + mode) & 1) == 0) {
    tmp[lid] = v * 2;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = tmp[n - 1 - lid];           /* reversed */
  } else {
    tmp[lid] = v + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    int r = tmp[(lid + 1) % n];     /* rotated */
    barrier(CLK_LOCAL_MEM_FENCE);
    tmp[lid] = r * 3;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = tmp[(lid + 1) % n];
  }
  out[get_global_id(0)] = v;
}
)CLC";

class UniformBranches : public LocalSizeTest {};
TEST_P(UniformBranches, BarriersInIfAndElse) {
  const size_t local = GetParam(), groups = 10, n = local * groups;
  cl_kernel branches = kernel(kBranches, "branches");
  ASSERT_NE(branches, nullptr);
  SKIP_IF_TOO_LARGE(branches, local);
  std::vector<int> in = randomValues(n, -1000, 1000);
  cl_mem mi = bufferFrom(in), mo = buffer(CL_MEM_WRITE_ONLY, n * sizeof(int));
  for (int mode : {0, 1}) {
    ASSERT_TRUE(setArgs(branches, mi, mo, LocalBytes{local * 4}, mode));
    ASSERT_TRUE(run(branches, {n}, {local}));
    std::vector<int> out = read<int>(mo, n);
    for (size_t g = 0; g < groups; ++g)
      for (size_t i = 0; i < local; ++i) {
        const int *group = &in[g * local];
        int want =
            ((g + mode) & 1) == 0 ? group[local - 1 - i] * 2 : (group[(i + 2) % local] + 1) * 3;
        ASSERT_EQ(out[g * local + i], want) << "mode " << mode << " group " << g << " item " << i;
      }
  }
}

// A private array, written before a barrier and indexed with a run-time index
// after it, must survive the barrier for every work-item.
const char *kPrivateArray = R"CLC(
kernel void priv(global const int *in, global int *out, local int *tmp, int shift) {
  uint lid = get_local_id(0), n = get_local_size(0);
  int p[8];
  for (int k = 0; k < 8; ++k) p[k] = in[get_global_id(0)] * (k + 1) + (int)lid;
  tmp[lid] = p[(lid + shift) & 7];
  barrier(CLK_LOCAL_MEM_FENCE);
  int neighbour = tmp[(lid + 1) % n];
  barrier(CLK_LOCAL_MEM_FENCE);
  int idx = (int)((lid * 3 + shift) & 7);
  out[get_global_id(0)] = p[idx] - p[(idx + 5) & 7] + neighbour;
}
)CLC";

class PrivateArray : public LocalSizeTest {};
TEST_P(PrivateArray, LiveAcrossBarriersWithDynamicIndex) {
  const size_t local = GetParam(), groups = 9, n = local * groups;
  const int shift = 3;
  cl_kernel priv = kernel(kPrivateArray, "priv");
  ASSERT_NE(priv, nullptr);
  SKIP_IF_TOO_LARGE(priv, local);
  std::vector<int> in = randomValues(n, -1000, 1000);
  cl_mem mi = bufferFrom(in), mo = buffer(CL_MEM_WRITE_ONLY, n * sizeof(int));
  ASSERT_TRUE(setArgs(priv, mi, mo, LocalBytes{local * 4}, shift));
  ASSERT_TRUE(run(priv, {n}, {local}));
  std::vector<int> out = read<int>(mo, n);
  auto p = [&](size_t g, size_t lid, int k) { return in[g * local + lid] * (k + 1) + int(lid); };
  for (size_t g = 0; g < groups; ++g)
    for (size_t lid = 0; lid < local; ++lid) {
      size_t next = (lid + 1) % local;
      int neighbour = p(g, next, int((next + shift) & 7));
      int idx = int((lid * 3 + shift) & 7);
      int want = p(g, lid, idx) - p(g, lid, (idx + 5) & 7) + neighbour;
      ASSERT_EQ(out[g * local + lid], want) << "group " << g << " item " << lid;
    }
}

// Kernel-scope __local variables (an array and a scalar), no __local argument.
const char *kKernelScopeLocal = R"CLC(
kernel void tiles(global const int *in, global int *out) {
  local int tile[256];
  local int total;
  uint lid = get_local_id(0), n = get_local_size(0);
  tile[lid] = in[get_global_id(0)];
  if (lid == 0) total = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0)
    for (uint i = 0; i < n; ++i) total += tile[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = total - tile[n - 1 - lid];
}
)CLC";

class KernelScopeLocal : public LocalSizeTest {};
TEST_P(KernelScopeLocal, ArrayAndScalar) {
  const size_t local = GetParam(), groups = 11, n = local * groups;
  cl_kernel tiles = kernel(kKernelScopeLocal, "tiles");
  ASSERT_NE(tiles, nullptr);
  SKIP_IF_TOO_LARGE(tiles, local);
  cl_ulong localMem = 0;
  ASSERT_CL(clGetKernelWorkGroupInfo(tiles, device_, CL_KERNEL_LOCAL_MEM_SIZE, sizeof localMem,
                                     &localMem, nullptr));
  EXPECT_GE(localMem, 256u * 4 + 4);
  std::vector<int> in = randomValues(n, -1000, 1000);
  cl_mem mi = bufferFrom(in), mo = buffer(CL_MEM_WRITE_ONLY, n * sizeof(int));
  ASSERT_TRUE(setArgs(tiles, mi, mo));
  ASSERT_TRUE(run(tiles, {n}, {local}));
  std::vector<int> out = read<int>(mo, n);
  for (size_t g = 0; g < groups; ++g) {
    int total = 0;
    for (size_t i = 0; i < local; ++i) total += in[g * local + i];
    for (size_t i = 0; i < local; ++i)
      ASSERT_EQ(out[g * local + i], total - in[g * local + local - 1 - i]) << g << "," << i;
  }
}

// Several __local arguments of different element types and sizes, used at the
// same time: none may overlap another.
const char *kLocalArgs = R"CLC(
kernel void locals(global const int *in, global int *out, local char *c, local int *i4,
                   local float4 *f, local long *l) {
  uint lid = get_local_id(0), n = get_local_size(0);
  int v = in[get_global_id(0)];
  c[lid] = (char)(v & 0x7f);
  i4[lid] = v;
  i4[n + lid] = -v;
  f[lid] = (float4)(v, v + 1, v + 2, v + 3);
  l[lid] = (long)v << 20;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint j = n - 1 - lid;
  out[get_global_id(0)] = (int)c[j] + i4[j] + i4[n + lid] * 2 + (int)f[j].w + (int)(l[j] >> 20);
}
)CLC";

class LocalArguments : public LocalSizeTest {};
TEST_P(LocalArguments, SeveralOfDifferentSizes) {
  const size_t local = GetParam(), groups = 8, n = local * groups;
  cl_kernel locals = kernel(kLocalArgs, "locals");
  ASSERT_NE(locals, nullptr);
  SKIP_IF_TOO_LARGE(locals, local);
  std::vector<int> in = randomValues(n, -100000, 100000);
  cl_mem mi = bufferFrom(in), mo = buffer(CL_MEM_WRITE_ONLY, n * sizeof(int));
  ASSERT_TRUE(setArgs(locals, mi, mo, LocalBytes{local}, LocalBytes{2 * local * 4},
                      LocalBytes{local * 16}, LocalBytes{local * 8}));
  cl_ulong localMem = 0;
  ASSERT_CL(clGetKernelWorkGroupInfo(locals, device_, CL_KERNEL_LOCAL_MEM_SIZE, sizeof localMem,
                                     &localMem, nullptr));
  EXPECT_GE(localMem, local * (1 + 8 + 16 + 8));
  ASSERT_TRUE(run(locals, {n}, {local}));
  std::vector<int> out = read<int>(mo, n);
  for (size_t g = 0; g < groups; ++g)
    for (size_t i = 0; i < local; ++i) {
      int v = in[g * local + i], w = in[g * local + local - 1 - i];
      int want = int(static_cast<signed char>(w & 0x7f)) + w + (-v) * 2 + (w + 3) + w;
      ASSERT_EQ(out[g * local + i], want) << g << "," << i;
    }
}

// Two kernels of one program, run one after the other on the same data.
TEST_F(ClTest, TwoKernelsInOneProgram) {
  cl_program program = build(R"CLC(
    kernel void scale(global int *a, int k) { a[get_global_id(0)] *= k; }
    kernel void offset(global int *a, global const int *b) {
      a[get_global_id(0)] += b[get_global_id(0)];
    }
  )CLC");
  ASSERT_NE(program, nullptr);
  cl_kernel all[2] = {};
  cl_uint count = 0;
  ASSERT_CL(clCreateKernelsInProgram(program, 2, all, &count));
  ASSERT_EQ(count, 2u);
  for (cl_kernel k : all) ASSERT_CL(clReleaseKernel(k));
  cl_kernel scale = kernelOf(program, "scale"), offset = kernelOf(program, "offset");
  ASSERT_TRUE(scale && offset);
  const size_t n = 1000;
  std::vector<int> a = randomValues(n, -1000, 1000), b = randomValues(n, -1000, 1000);
  cl_mem ma = bufferFrom(a), mb = bufferFrom(b);
  ASSERT_TRUE(setArgs(scale, ma, 3));
  ASSERT_TRUE(setArgs(offset, ma, mb));
  size_t global = n;
  ASSERT_CL(
      clEnqueueNDRangeKernel(queue_, scale, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  ASSERT_CL(
      clEnqueueNDRangeKernel(queue_, offset, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  std::vector<int> out = read<int>(ma, n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], a[i] * 3 + b[i]) << i;
}

// A 2D tiled transpose: a barrier between writing and reading a __local tile,
// with work-groups of 16x16 and a matrix that is not square.
TEST_F(ClTest, TiledTransposeIn2D) {
  cl_kernel transpose = kernel(R"CLC(
    #define T 16
    kernel void transpose(global const float *in, global float *out, uint w, uint h) {
      local float tile[T][T + 1];
      uint lx = get_local_id(0), ly = get_local_id(1);
      uint x = get_group_id(0) * T + lx, y = get_group_id(1) * T + ly;
      tile[ly][lx] = in[y * w + x];
      barrier(CLK_LOCAL_MEM_FENCE);
      uint tx = get_group_id(1) * T + lx, ty = get_group_id(0) * T + ly;
      out[ty * h + tx] = tile[lx][ly];
    }
  )CLC",
                               "transpose");
  ASSERT_NE(transpose, nullptr);
  const cl_uint w = 96, h = 48;
  std::vector<float> in(w * h);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i) * 0.5f;
  cl_mem mi = bufferFrom(in), mo = buffer(CL_MEM_WRITE_ONLY, in.size() * sizeof(float));
  ASSERT_TRUE(setArgs(transpose, mi, mo, w, h));
  ASSERT_TRUE(run(transpose, {w, h}, {16, 16}));
  std::vector<float> out = read<float>(mo, in.size());
  for (cl_uint y = 0; y < h; ++y)
    for (cl_uint x = 0; x < w; ++x) ASSERT_EQ(out[x * h + y], in[y * w + x]) << x << "," << y;
}

// A barrier inside a function the kernel calls (not inlined by the frontend),
// called from a loop.
TEST_P(Reduction, BarrierInCalledFunction) {
  const size_t local = GetParam(), groups = 5, n = local * groups;
  cl_kernel k = kernel(R"CLC(
    __attribute__((noinline)) int rotate_left(local int *tmp, int v) {
      uint lid = get_local_id(0), n = get_local_size(0);
      tmp[lid] = v;
      barrier(CLK_LOCAL_MEM_FENCE);
      int r = tmp[(lid + 1) % n];
      barrier(CLK_LOCAL_MEM_FENCE);
      return r;
    }
    kernel void rot(global int *data, local int *tmp, int times) {
      int v = data[get_global_id(0)];
      for (int t = 0; t < times; ++t) v = rotate_left(tmp, v);
      data[get_global_id(0)] = v;
    }
  )CLC",
                       "rot");
  ASSERT_NE(k, nullptr);
  SKIP_IF_TOO_LARGE(k, local);
  std::vector<int> in = randomValues(n, -1000, 1000);
  cl_mem m = bufferFrom(in);
  const int times = 5;
  ASSERT_TRUE(setArgs(k, m, LocalBytes{local * 4}, times));
  ASSERT_TRUE(run(k, {n}, {local}));
  std::vector<int> out = read<int>(m, n);
  for (size_t g = 0; g < groups; ++g)
    for (size_t i = 0; i < local; ++i)
      ASSERT_EQ(out[g * local + i], in[g * local + (i + times) % local]) << g << "," << i;
}

std::string localSizeName(const ::testing::TestParamInfo<size_t> &info) {
  return "local" + std::to_string(info.param);
}
INSTANTIATE_TEST_SUITE_P(LocalSizes, Reduction, ::testing::ValuesIn(kLocalSizes), localSizeName);
INSTANTIATE_TEST_SUITE_P(LocalSizes, Scan, ::testing::ValuesIn(kLocalSizes), localSizeName);
INSTANTIATE_TEST_SUITE_P(LocalSizes, UniformBranches, ::testing::ValuesIn(kLocalSizes),
                         localSizeName);
INSTANTIATE_TEST_SUITE_P(LocalSizes, PrivateArray, ::testing::ValuesIn(kLocalSizes), localSizeName);
INSTANTIATE_TEST_SUITE_P(LocalSizes, KernelScopeLocal, ::testing::ValuesIn(kLocalSizes),
                         localSizeName);
INSTANTIATE_TEST_SUITE_P(LocalSizes, LocalArguments, ::testing::ValuesIn(kLocalSizes),
                         localSizeName);

}  // namespace
}  // namespace lockstep::test

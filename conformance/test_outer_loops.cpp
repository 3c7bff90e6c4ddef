// Work-items that each run a nest of loops whose trip counts they share
// (k-means' assignment: every cluster, every coordinate), which the compiler
// widens across the work-items as an outer loop (WorkItemOuterVectorizePass,
// LLVM's VPlan-native path, UniformVectorPhisPass): each lane a work-item
// running the whole nest in its own program order. Every result must be
// that work-item's own: nearest clusters for points of 1 to 20 coordinates
// (the distance between neighbours' points decides, at run time, whether
// the widened copy runs), no clusters or no coordinates, ties (the first
// cluster wins), group sizes that leave every remainder of a vector, a 2-D
// range, an offset; float sums in program order (their order shows in the
// low bits); an inner bound that changes with the outer counter (left
// scalar); an integer nest writing each of its rounds.
#include <cmath>
#include <limits>

#include "ClTest.h"

namespace lockstep::test {
namespace {

class OuterLoops : public LocalSizeTest {};

const char *kNests = R"CLC(
// The nearest centroid to point i, and its distance.
int nearest(global const float *pts, global const float *cent, int i, int k, int dim, float *dist) {
  float best = INFINITY;
  int bi = -1;
  for (int c = 0; c < k; c++) {
    float d = 0.0f;
    for (int j = 0; j < dim; j++) {
      float t = pts[i * dim + j] - cent[c * dim + j];
      d += t * t;
    }
    if (d < best) { best = d; bi = c; }
  }
  *dist = best;
  return bi;
}
kernel void assign(global const float *pts, global const float *cent, global int *label,
                   global float *dist, int k, int dim) {
  int i = get_global_id(0) - (int)get_global_offset(0);
  float best;
  label[i] = nearest(pts, cent, i, k, dim, &best);
  dist[i] = best;
}
// Points along x, sets of points along y.
kernel void assign2d(global const float *pts, global const float *cent, global int *label, int k, int dim) {
  int i = get_global_id(0) + get_global_id(1) * (int)get_global_size(0);
  float best;
  label[i] = nearest(pts, cent, i, k, dim, &best);
}
// Rodinia's k-means kernel: features stored feature-major (neighbouring
// points' coordinates side by side), the nest behind `point_id < npoints`.
kernel void rodinia(global float *feature, global float *clusters, global int *membership, int npoints,
                    int nclusters, int nfeatures) {
  unsigned int point_id = get_global_id(0);
  int index = 0;
  if (point_id < npoints) {
    float min_dist = FLT_MAX;
    for (int i = 0; i < nclusters; i++) {
      float ans = 0;
      for (int l = 0; l < nfeatures; l++)
        ans += (feature[l * npoints + point_id] - clusters[i * nfeatures + l]) *
               (feature[l * npoints + point_id] - clusters[i * nfeatures + l]);
      if (ans < min_dist) { min_dist = ans; index = i; }
    }
    membership[point_id] = index;
  }
}
// The same behind an early return on a signed id.
kernel void early_return(global const float *feature, global const float *clusters, global int *membership,
                         int npoints, int nclusters, int nfeatures) {
  int p = get_global_id(0);
  if (p >= npoints) return;
  float min_dist = INFINITY;
  int index = 0;
  for (int i = 0; i < nclusters; i++) {
    float ans = 0;
    for (int l = 0; l < nfeatures; l++) {
      float t = feature[l * npoints + p] - clusters[i * nfeatures + l];
      ans += t * t;
    }
    if (ans < min_dist) { min_dist = ans; index = i; }
  }
  membership[p] = index;
}
// Sums in program order: values of every magnitude, so another order
// shows in the low bits.
kernel void weighted(global const float *v, global const float *w, global float *out, int rounds, int width) {
  int i = get_global_id(0);
  float s = 0.0f;
  for (int r = 0; r < rounds; r++)
    for (int j = 0; j < width; j++) s += v[i * width + j] * w[r * width + j];
  out[i] = s;
}
// The inner bound is the outer counter: the same for every work-item, but
// not one count for the whole nest.
kernel void triangle(global const int *v, global int *out, int n) {
  int i = get_global_id(0);
  int s = 0;
  for (int c = 0; c < n; c++)
    for (int j = 0; j < c; j++) s += v[i * 3 + (j % 3)] * (c - j);
  out[i] = s;
}
// Each round written: a store in the inner loop.
kernel void rounds(global const int *v, global int *out, int n, int m) {
  int i = get_global_id(0);
  for (int c = 0; c < n; c++) {
    uint s = c;
    for (int j = 0; j < m; j++) s = s * 3u + (uint)v[i * m + j];
    out[i * n + c] = (int)s;
  }
}
)CLC";

// k-means' assignment on the host: the first nearest cluster, in the
// kernel's order of operations (FMA, as OpenCL C contracts `d += t * t`).
void assignOnHost(const std::vector<float> &pts, const std::vector<float> &cent, size_t i, int k,
                  int dim, int &label, float &dist) {
  float best = std::numeric_limits<float>::infinity();
  int bi = -1;
  for (int c = 0; c < k; c++) {
    float d = 0.0f;
    for (int j = 0; j < dim; j++) {
      float t = pts[i * dim + j] - cent[c * dim + j];
      d = std::fma(t, t, d);
    }
    if (d < best) {
      best = d;
      bi = c;
    }
  }
  label = bi;
  dist = best;
}

TEST_P(OuterLoops, NearestClustersForEveryPointWidth) {
  cl_program program = build(kNests);
  ASSERT_NE(program, nullptr);
  cl_kernel assign = kernelOf(program, "assign");
  ASSERT_NE(assign, nullptr);
  const size_t local = GetParam(), global = local * 5 + (local > 1 ? 3 : 0);
  const size_t items = ((global + local - 1) / local) * local;
  for (int dim : {0, 1, 3, 4, 16, 17, 20}) {
    for (int k : {0, 1, 5, 16}) {
      // Small integers: exact distances, many ties between clusters.
      std::vector<float> pts(items * std::max(dim, 1)), cent(std::max(k, 1) * std::max(dim, 1));
      for (float &p : pts) p = float(randomValues<int>(1, -4, 4)[0]);
      for (float &c : cent) c = float(randomValues<int>(1, -4, 4)[0]);
      cl_mem mp = bufferFrom(pts), mc = bufferFrom(cent);
      cl_mem ml = buffer(CL_MEM_READ_WRITE, items * sizeof(int)),
             md = buffer(CL_MEM_READ_WRITE, items * sizeof(float));
      ASSERT_TRUE(setArgs(assign, mp, mc, ml, md, cl_int(k), cl_int(dim)));
      ASSERT_TRUE(run(assign, {items}, {local}, {12345}));
      std::vector<int> labels = read<int>(ml, items);
      std::vector<float> dists = read<float>(md, items);
      for (size_t i = 0; i < items; ++i) {
        int label;
        float dist;
        assignOnHost(pts, cent, i, k, dim, label, dist);
        ASSERT_EQ(labels[i], label) << "point " << i << ", k " << k << ", dim " << dim;
        ASSERT_EQ(dists[i], dist) << "point " << i << ", k " << k << ", dim " << dim;
      }
    }
  }
}

TEST_F(OuterLoops, NearestClustersInATwoDimensionalRange) {
  cl_program program = build(kNests);
  ASSERT_NE(program, nullptr);
  cl_kernel assign = kernelOf(program, "assign2d");
  ASSERT_NE(assign, nullptr);
  const int k = 7, dim = 3;
  const size_t width = 40, height = 9, items = width * height;
  std::vector<float> pts = randomValues<float>(items * dim, -1.0f, 1.0f),
                     cent = randomValues<float>(k * dim, -1.0f, 1.0f);
  cl_mem mp = bufferFrom(pts), mc = bufferFrom(cent),
         ml = buffer(CL_MEM_READ_WRITE, items * sizeof(int));
  for (std::vector<size_t> local :
       {std::vector<size_t>{}, std::vector<size_t>{8, 3}, std::vector<size_t>{20, 1}}) {
    ASSERT_TRUE(setArgs(assign, mp, mc, ml, cl_int(k), cl_int(dim)));
    ASSERT_TRUE(run(assign, {width, height}, local));
    std::vector<int> labels = read<int>(ml, items);
    for (size_t i = 0; i < items; ++i) {
      int label;
      float dist;
      assignOnHost(pts, cent, i, k, dim, label, dist);
      ASSERT_EQ(labels[i], label) << "point " << i;
    }
  }
}

// Groups wholly inside the points run the widened copy, the group that
// straddles the end runs the loop as it was: every point labelled, and no
// label written past the end.
TEST_P(OuterLoops, NestsBehindAGuard) {
  cl_program program = build(kNests);
  ASSERT_NE(program, nullptr);
  cl_kernel rodinia = kernelOf(program, "rodinia"), early = kernelOf(program, "early_return");
  ASSERT_TRUE(rodinia && early);
  const size_t local = GetParam(), items = local * 6;
  for (size_t npoints : {items, items - 1, items - local / 2 - 1, size_t(1)}) {
    for (int features : {1, 4, 34}) {
      const int clusters = 5;
      std::vector<float> feature(npoints * features), centre(clusters * features);
      for (float &f : feature) f = float(randomValues<int>(1, -4, 4)[0]);
      for (float &c : centre) c = float(randomValues<int>(1, -4, 4)[0]);
      for (cl_kernel k : {rodinia, early}) {
        cl_mem mf = bufferFrom(feature), mc = bufferFrom(centre);
        cl_mem mm = bufferFrom(std::vector<int>(items, -1));
        ASSERT_TRUE(setArgs(k, mf, mc, mm, cl_int(npoints), cl_int(clusters), cl_int(features)));
        ASSERT_TRUE(run(k, {items}, {local}));
        std::vector<int> got = read<int>(mm, items);
        for (size_t p = 0; p < items; ++p) {
          int want = -1;
          if (p < npoints) {
            float best = std::numeric_limits<float>::infinity();
            want = 0;
            for (int i = 0; i < clusters; i++) {
              float ans = 0;
              for (int l = 0; l < features; l++) {
                float t = feature[l * npoints + p] - centre[i * features + l];
                ans = std::fma(t, t, ans);
              }
              if (ans < best) best = ans, want = i;
            }
          }
          ASSERT_EQ(got[p], want) << "point " << p << " of " << npoints << ", " << features
                                  << " features";
        }
      }
    }
  }
}

TEST_P(OuterLoops, SumsInProgramOrder) {
  cl_program program = build(kNests);
  ASSERT_NE(program, nullptr);
  cl_kernel weighted = kernelOf(program, "weighted");
  ASSERT_NE(weighted, nullptr);
  const size_t local = GetParam(), items = local * 4;
  for (int width : {1, 2, 5, 16, 33}) {
    const int rounds = 6;
    std::vector<float> v(items * width), w(rounds * width);
    for (float &x : v)
      x = std::ldexp(randomValues<float>(1, 1.0f, 2.0f)[0], randomValues<int>(1, -20, 20)[0]);
    for (float &x : w) x = randomValues<float>(1, -1.0f, 1.0f)[0];
    cl_mem mv = bufferFrom(v), mw = bufferFrom(w),
           mo = buffer(CL_MEM_READ_WRITE, items * sizeof(float));
    ASSERT_TRUE(setArgs(weighted, mv, mw, mo, cl_int(rounds), cl_int(width)));
    ASSERT_TRUE(run(weighted, {items}, {local}));
    std::vector<float> out = read<float>(mo, items);
    for (size_t i = 0; i < items; ++i) {
      float s = 0.0f;
      for (int r = 0; r < rounds; r++)
        for (int j = 0; j < width; j++) s = std::fma(v[i * width + j], w[r * width + j], s);
      ASSERT_EQ(out[i], s) << "work-item " << i << ", width " << width;
    }
  }
}

// Parboil's SGEMM (mysgemmNT): each work-item keeps a row of TILE_N partial
// sums across the loop over a __local tile of B (`c[kk] += a * b_s[j *
// TILE_N + kk]`), its A element read a column apart. Widened across the
// work-items with all TILE_N sums carried (as many as the target has vector
// registers), each sum must still be its own, multiply-added in program
// order: C = A * B^T, checked bit for bit with fma, for tiles of 8, 16 and
// 32 sums.
TEST_F(OuterLoops, RowOfPartialSumsPerWorkItem) {
  const char *source = R"CLC(
    kernel void sgemm(global const float *A, int lda, global const float *B, int ldb, global float *C,
                      int ldc, int k) {
      float c[TILE_N];
      for (int i = 0; i < TILE_N; i++) c[i] = 0.0f;
      int mid = get_local_id(1) * get_local_size(0) + get_local_id(0);
      int m = get_group_id(0) * (TILE_N * TILE_H) + mid;
      int n = get_group_id(1) * TILE_N + get_local_id(0);
      local float b_s[TILE_H * TILE_N];
      for (int i = 0; i < k; i += TILE_H) {
        b_s[get_local_id(0) + get_local_id(1) * TILE_N] = B[n + (i + get_local_id(1)) * ldb];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < TILE_H; j++) {
          float a = A[m + (i + j) * lda];
          for (int kk = 0; kk < TILE_N; kk++) c[kk] = fma(a, b_s[j * TILE_N + kk], c[kk]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      int t = ldc * get_group_id(1) * TILE_N + m;
      for (int i = 0; i < TILE_N; i++) C[t + i * ldc] = c[i];
    }
  )CLC";
  for (int tileN : {8, 16, 32}) {
    const int tileH = 4, tileM = tileN * tileH, m = 2 * tileM, n = 3 * tileN, k = 5 * tileH;
    std::string options = "-D TILE_N=" + std::to_string(tileN) + " -D TILE_H=" + std::to_string(tileH);
    cl_program program = build(source, options);
    ASSERT_NE(program, nullptr);
    cl_kernel kernel = kernelOf(program, "sgemm");
    ASSERT_NE(kernel, nullptr);
    // Column-major A (k x m) and B (k x n), as the benchmark stores them.
    std::vector<float> a(size_t(k) * m), b(size_t(k) * n);
    for (float &x : a) x = randomValues<float>(1, -1.0f, 1.0f)[0];
    for (float &x : b) x = randomValues<float>(1, -1.0f, 1.0f)[0];
    cl_mem ma = bufferFrom(a), mb = bufferFrom(b),
           mc = buffer(CL_MEM_READ_WRITE, size_t(m) * n * sizeof(float));
    ASSERT_TRUE(setArgs(kernel, ma, cl_int(m), mb, cl_int(n), mc, cl_int(m), cl_int(k)));
    ASSERT_TRUE(run(kernel, {size_t(m / tileM * tileN), size_t(n / tileN * tileH)},
                    {size_t(tileN), size_t(tileH)}));
    std::vector<float> c = read<float>(mc, size_t(m) * n);
    for (int col = 0; col < n; ++col)
      for (int row = 0; row < m; ++row) {
        float s = 0.0f;
        for (int i = 0; i < k; ++i) s = std::fma(a[size_t(i) * m + row], b[size_t(i) * n + col], s);
        ASSERT_EQ(c[size_t(col) * m + row], s) << "C(" << row << ", " << col << "), tile " << tileN;
      }
  }
}

// AMD's URNG: a helper fills each work-item's 16-entry shuffle table in
// __local memory with 17 rounds of a Park-Miller step (a division by a
// constant each), then reads back the entry its last value picks. The
// rounds are unrolled before the vectorizer (WorkItemInnerUnrollPass) so the
// work-items widen; every work-item must still get its own table and pick.
TEST_P(OuterLoops, HelperLoopOfFewRounds) {
  cl_program program = build(R"CLC(
    #define NTAB 16
    int pick(int idum, local int *iv) {
      int tid = get_local_id(0);
      for (int j = NTAB; j >= 0; j--) {
        int k = idum / 127773;
        idum = 16807 * (idum - k * 127773) - 2836 * k;
        if (idum < 0) idum += 2147483647;
        if (j < NTAB) iv[NTAB * tid + j] = idum;
      }
      int iy = iv[NTAB * tid];
      return iv[NTAB * tid + iy / (1 + (2147483647 - 1) / NTAB)];
    }
    kernel void k(global const int *seed, global int *out, local int *iv) {
      size_t i = get_global_id(0);
      out[i] = pick(seed[i], iv);
    }
  )CLC");
  ASSERT_NE(program, nullptr);
  cl_kernel kernel = kernelOf(program, "k");
  ASSERT_NE(kernel, nullptr);
  const size_t local = GetParam(), items = local * 5;
  std::vector<cl_int> seed = randomValues<cl_int>(items, -2000000000, 2000000000);
  seed[0] = 0;
  seed[items - 1] = -1;
  cl_mem ms = bufferFrom(seed), mo = buffer(CL_MEM_READ_WRITE, items * sizeof(cl_int));
  ASSERT_TRUE(setArgs(kernel, ms, mo, LocalBytes{local * 16 * sizeof(cl_int)}));
  ASSERT_TRUE(run(kernel, {items}, {local}));
  std::vector<cl_int> out = read<cl_int>(mo, items);
  for (size_t i = 0; i < items; ++i) {
    int idum = seed[i], iv[16];
    for (int j = 16; j >= 0; j--) {
      int k = idum / 127773;
      idum = int(16807u * unsigned(idum - k * 127773) - 2836u * unsigned(k));
      if (idum < 0) idum += 2147483647;
      if (j < 16) iv[j] = idum;
    }
    ASSERT_EQ(out[i], iv[iv[0] / (1 + (2147483647 - 1) / 16)]) << "work-item " << i;
  }
}

TEST_P(OuterLoops, InnerBoundsAndInnerStores) {
  cl_program program = build(kNests);
  ASSERT_NE(program, nullptr);
  cl_kernel triangle = kernelOf(program, "triangle"), rounds = kernelOf(program, "rounds");
  ASSERT_TRUE(triangle && rounds);
  const size_t local = GetParam(), items = local * 3;
  for (int n : {0, 1, 4, 9}) {
    std::vector<int> v = randomValues<int>(items * 3, -50, 50);
    cl_mem mv = bufferFrom(v), mo = buffer(CL_MEM_READ_WRITE, items * sizeof(int));
    ASSERT_TRUE(setArgs(triangle, mv, mo, cl_int(n)));
    ASSERT_TRUE(run(triangle, {items}, {local}));
    std::vector<int> out = read<int>(mo, items);
    for (size_t i = 0; i < items; ++i) {
      int s = 0;
      for (int c = 0; c < n; c++)
        for (int j = 0; j < c; j++) s += v[i * 3 + (j % 3)] * (c - j);
      ASSERT_EQ(out[i], s) << "work-item " << i << ", n " << n;
    }
  }
  for (int m : {0, 1, 4, 16, 30}) {
    const int n = 5;
    std::vector<int> v = randomValues<int>(items * std::max(m, 1), -9, 9);
    cl_mem mv = bufferFrom(v), mo = buffer(CL_MEM_READ_WRITE, items * n * sizeof(int));
    ASSERT_TRUE(setArgs(rounds, mv, mo, cl_int(n), cl_int(m)));
    ASSERT_TRUE(run(rounds, {items}, {local}));
    std::vector<int> out = read<int>(mo, items * n);
    for (size_t i = 0; i < items; ++i)
      for (int c = 0; c < n; c++) {
        unsigned s = unsigned(c);
        for (int j = 0; j < m; j++) s = s * 3u + unsigned(v[i * m + j]);
        ASSERT_EQ(out[i * n + c], int(s)) << "work-item " << i << ", round " << c << ", m " << m;
      }
  }
}

// One work-item of each group sums a __local array after a barrier and
// stores the sum (`if (lid == 0) { for (...) total += acc[i]; c[g] = total;
// }`), in a loop over the group's vectors: its work-item loop leaves with
// that sum once LICM moves the store past it, and widened as an outer loop
// it had left with nothing (no output at all).
TEST_P(OuterLoops, OneWorkItemSumsALocalArray) {
  const size_t local = GetParam();
  cl_kernel sum = kernel(R"CLC(
    kernel void sum_local(global const int *in, global int *c, uint vectors, uint n) {
      local int acc[300];
      for (uint vec = get_group_id(0); vec < vectors; vec += get_num_groups(0)) {
        for (uint i = get_local_id(0); i < n; i += get_local_size(0)) acc[i] = in[vec * n + i];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (get_local_id(0) == 0) {
          int total = 0;
          for (uint i = 0; i < n; i++) total += acc[i];
          c[vec] = total;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
      }
    }
  )CLC",
                         "sum_local");
  ASSERT_NE(sum, nullptr);
  if (local > kernelMaxGroupSize(sum)) GTEST_SKIP();
  const uint32_t vectors = 7, n = 300;
  std::vector<int> in = randomValues<int>(size_t(vectors) * n, -1000, 1000), want(vectors, 0);
  for (size_t v = 0; v < vectors; ++v)
    for (size_t i = 0; i < n; ++i) want[v] += in[v * n + i];
  cl_mem mi = bufferFrom(in), mc = bufferFrom(std::vector<int>(vectors, -1));
  ASSERT_TRUE(setArgs(sum, mi, mc, vectors, n));
  ASSERT_TRUE(run(sum, {local * 3}, {local}));
  EXPECT_EQ(read<int>(mc, vectors), want) << "local " << local;
}

INSTANTIATE_TEST_SUITE_P(LocalSizes, OuterLoops, ::testing::ValuesIn(kLocalSizes));

}  // namespace
}  // namespace lockstep::test

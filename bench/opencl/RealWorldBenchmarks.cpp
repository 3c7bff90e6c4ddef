// The real-world kernel set (realworld.cl): the host side of each rw_
// benchmark, which sets up its problem, launches the kernel with the local
// size the shape calls for (16 x 16, or NULL to let the platform choose) and
// verifies every run against the host reference of common/. The native
// program runs the strong C++ reference of each problem under the same name.
#include <algorithm>
#include <cmath>

#include "ClBenchmarks.h"
#include "RealWorldWorkloads.h"

namespace bench {
namespace {

constexpr uint32_t kPoison = 0xffffffffu;  // NaN as a float
constexpr size_t kTile = 16;
constexpr size_t kHistogramItems = size_t{1} << 20;  // 1M work-items, grid-stride
constexpr size_t kHistogramGroup = 256;
constexpr size_t kConvGroup = 256;

// The SGEMMs take `int N` (ClBenchmarks.cpp runs them).
Record runSgemmNaive(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  return runSgemmKernel(session, info, n, options, "rw_sgemm_naive", false);
}

Record runSgemmTiled(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  return runSgemmKernel(session, info, n, options, "rw_sgemm_tiled", true);
}

// An n x n float grid in, one out: the transpose and the 2-D stencils. The
// stencils take (W, H), the transpose N; `local` null lets the platform choose.
template <typename Problem>
Record runGrid(Session &session, const BenchInfo &info, uint64_t n, const Options &options,
               const char *kernel_name, bool tiled, size_t local_bytes, bool width_and_height) {
  Problem problem(static_cast<uint32_t>(n));
  size_t bytes = n * n * sizeof(float);
  Buffer in = session.buffer(bytes, problem.in.data(), CL_MEM_READ_ONLY);
  Buffer out = session.buffer(bytes, nullptr, CL_MEM_WRITE_ONLY);
  cl_kernel kernel = session.kernel(kernel_name);
  if (tiled) session.requireGroup(kernel, kTile * kTile, local_bytes);
  cl_int side = static_cast<cl_int>(n);
  if (width_and_height)
    setArgs(kernel, in, out, side, side);
  else
    setArgs(kernel, in, out, side);
  std::vector<float> got(n * n);
  size_t global[2] = {n, n}, local[2] = {kTile, kTile};
  auto timings = timeKernel(
      session, options, kernel, 2, global, tiled ? local : nullptr,
      [&] { session.fill(out, kPoison, bytes); },
      [&] {
        session.read(out, got.data(), bytes);
        return problem.verify(got.data());
      });
  return rateRecord(info, sizeText("n", n), timings, 2.0 * bytes, 1e9);
}

Record runTranspose(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  return runGrid<TransposeProblem>(session, info, n, options, "rw_transpose", true,
                                   kTile * (kTile + 1) * sizeof(float), false);
}

Record runTransposeNaive(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  return runGrid<TransposeProblem>(session, info, n, options, "rw_transpose_naive", true, 0, false);
}

Record runStencilHalo(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  return runGrid<StencilProblem>(session, info, n, options, "rw_stencil_halo", true,
                                 (kTile + 2) * (kTile + 2) * sizeof(float), true);
}

Record runStencilL16(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  return runGrid<StencilProblem>(session, info, n, options, "rw_stencil_global", true, 0, true);
}

Record runStencilNull(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  return runGrid<StencilProblem>(session, info, n, options, "rw_stencil_global", false, 0, true);
}

// The 256-bin histograms of 16 MiB: `rw_histogram`'s 1M work-items in groups
// of 256 walk the bytes with a grid-stride loop into a __local histogram;
// `rw_histogram_global` has one work-item per byte (NULL local size), each a
// global atomic_inc.
Record runHistogramKernel(Session &session, const BenchInfo &info, uint64_t n, const Options &options,
                          bool gridStride) {
  HistogramProblem problem(n);
  Buffer data = session.buffer(n, problem.data.data(), CL_MEM_READ_ONLY);
  Buffer bins = session.buffer(256 * sizeof(uint32_t));
  cl_kernel kernel = session.kernel(gridStride ? "rw_histogram" : "rw_histogram_global");
  size_t global = n, local = kHistogramGroup;
  std::string size = sizeText("bytes", n);
  if (gridStride) {
    session.requireGroup(kernel, kHistogramGroup, 256 * sizeof(uint32_t));
    setArgs(kernel, data, static_cast<cl_int>(n), bins);
    global = std::min(kHistogramItems, std::max<size_t>(n, kHistogramGroup));
    global -= global % kHistogramGroup;
    size += " items=" + std::to_string(global);
  } else {
    setArgs(kernel, data, bins);
  }
  std::vector<uint32_t> got(256);
  auto timings = timeKernel(
      session, options, kernel, 1, &global, gridStride ? &local : nullptr,
      [&] { session.fill(bins, 0, 256 * sizeof(uint32_t)); },
      [&] {
        session.read(bins, got.data(), 256 * sizeof(uint32_t));
        return problem.verify(got.data());
      });
  return rateRecord(info, size, timings, static_cast<double>(n), 1e9);
}

Record runHistogram(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  return runHistogramKernel(session, info, n, options, true);
}

Record runHistogramGlobal(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  return runHistogramKernel(session, info, n, options, false);
}

// A 3 x 3 convolution of an n x n image, a work-item per pixel in a 1-D
// range of groups of 256 (rounded up as host code does).
Record runConv2dLinear(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  Conv2dProblem problem(static_cast<uint32_t>(n));
  Buffer in = session.buffer(problem.in.size() * sizeof(float), problem.in.data(), CL_MEM_READ_ONLY);
  Buffer mask = session.buffer(problem.mask.size() * sizeof(float), problem.mask.data(), CL_MEM_READ_ONLY);
  size_t bytes = n * n * sizeof(float);
  Buffer out = session.buffer(bytes, nullptr, CL_MEM_WRITE_ONLY);
  cl_kernel kernel = session.kernel("rw_conv2d_linear");
  session.requireGroup(kernel, kConvGroup, 0);
  cl_uint side = static_cast<cl_uint>(n), taps = Conv2dProblem::kMask;
  setArgs(kernel, in, mask, out, cl_uint2{{side, side}}, cl_uint2{{taps, taps}}, cl_uint(side + 2));
  std::vector<float> got(n * n);
  size_t local = kConvGroup, global = (n * n + kConvGroup - 1) / kConvGroup * kConvGroup;
  auto timings = timeKernel(
      session, options, kernel, 1, &global, &local, [&] { session.fill(out, kPoison, bytes); },
      [&] {
        session.read(out, got.data(), bytes);
        return problem.verify(got.data());
      });
  return rateRecord(info, sizeText("n", n), timings, 2.0 * taps * taps * n * n, 1e9);
}

// A 1-D convolution of n outputs in groups of 256, the global size rounded up
// to a whole group as host code does: the kernel's guard leaves the last
// group's extra work-items out.
Record runConv1d(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  Conv1dProblem problem(n);
  Buffer in = session.buffer(problem.in.size() * sizeof(float), problem.in.data(), CL_MEM_READ_ONLY);
  Buffer w = session.buffer(problem.w.size() * sizeof(float), problem.w.data(), CL_MEM_READ_ONLY);
  Buffer out = session.buffer(n * sizeof(float), nullptr, CL_MEM_WRITE_ONLY);
  cl_kernel kernel = session.kernel("rw_conv1d");
  session.requireGroup(kernel, kConvGroup, 0);
  setArgs(kernel, in, out, w, static_cast<cl_int>(Conv1dProblem::kTaps), static_cast<cl_int>(n));
  std::vector<float> got(n);
  size_t local = kConvGroup, global = (n + kConvGroup - 1) / kConvGroup * kConvGroup;
  auto timings = timeKernel(
      session, options, kernel, 1, &global, &local, [&] { session.fill(out, kPoison, n * sizeof(float)); },
      [&] {
        session.read(out, got.data(), n * sizeof(float));
        return problem.verify(got.data());
      });
  return rateRecord(info, sizeText("n", n), timings, 2.0 * Conv1dProblem::kTaps * n, 1e9);
}

// out = a * x + y on float4: the triad's check (b + s * c), n floats.
Record runSaxpy4(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  StreamProblem problem(n);
  size_t bytes = n * sizeof(float);
  Buffer x = session.buffer(bytes, problem.c.data(), CL_MEM_READ_ONLY);
  Buffer y = session.buffer(bytes, problem.b.data(), CL_MEM_READ_ONLY);
  Buffer out = session.buffer(bytes, nullptr, CL_MEM_WRITE_ONLY);
  cl_kernel kernel = session.kernel("rw_saxpy4");
  setArgs(kernel, x, y, out, problem.scalar);
  std::vector<float> got(n);
  size_t global = n / 4;
  auto timings = timeKernel(
      session, options, kernel, 1, &global, nullptr, [&] { session.fill(out, kPoison, bytes); },
      [&] {
        session.read(out, got.data(), bytes);
        return problem.verifyTriad(got.data());
      });
  return rateRecord(info, sizeText("n", n), timings, 3.0 * bytes, 1e9);
}

Record runInt4(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  IntMixProblem problem(n);
  size_t bytes = n * sizeof(int32_t);
  Buffer a = session.buffer(bytes, problem.a.data(), CL_MEM_READ_ONLY);
  Buffer b = session.buffer(bytes, problem.b.data(), CL_MEM_READ_ONLY);
  Buffer out = session.buffer(bytes, nullptr, CL_MEM_WRITE_ONLY);
  cl_kernel kernel = session.kernel("rw_int4");
  setArgs(kernel, a, b, out);
  std::vector<int32_t> got(n);
  size_t global = n / 4;
  auto timings = timeKernel(
      session, options, kernel, 1, &global, nullptr,
      // 0xffffffff is -1, which (a * 3 + b) ^ (a >> 3) never yields for
      // every element: a run that writes nothing fails.
      [&] { session.fill(out, kPoison, bytes); },
      [&] {
        session.read(out, got.data(), bytes);
        return problem.verify(got.data());
      });
  return rateRecord(info, sizeText("n", n), timings, 3.0 * bytes, 1e9);
}

// Stream compaction of n floats through an atomic counter, local size NULL:
// the counter is reset and the output poisoned before each run.
Record runCompact(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  CompactProblem problem(n);
  size_t bytes = n * sizeof(float);
  Buffer in = session.buffer(bytes, problem.in.data(), CL_MEM_READ_ONLY);
  Buffer out = session.buffer(bytes, nullptr, CL_MEM_WRITE_ONLY);
  Buffer count = session.buffer(sizeof(int32_t), nullptr, CL_MEM_READ_WRITE);
  cl_kernel kernel = session.kernel("rw_compact");
  setArgs(kernel, in, out, count, problem.threshold);
  std::vector<float> got(n);
  int32_t kept = 0;
  size_t global = n;
  auto timings = timeKernel(
      session, options, kernel, 1, &global, nullptr,
      [&] {
        session.fill(out, kPoison, bytes);
        session.fill(count, 0, sizeof(int32_t));
      },
      [&] {
        session.read(count, &kept, sizeof kept);
        if (kept < 0 || uint64_t(kept) > n) return Verdict("stream compaction counted " + std::to_string(kept));
        session.read(out, got.data(), size_t(kept) * sizeof(float));
        return problem.verify(got.data(), size_t(kept));
      });
  // Bytes read and written.
  return rateRecord(info, sizeText("n", n), timings, double(bytes) + double(problem.kept()) * sizeof(float), 1e9);
}

// A byte table lookup over n bytes, local size NULL.
Record runLut(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  LutProblem problem(n);
  Buffer in = session.buffer(n, problem.in.data(), CL_MEM_READ_ONLY);
  Buffer lut = session.buffer(256, problem.lut.data(), CL_MEM_READ_ONLY);
  Buffer out = session.buffer(n, nullptr, CL_MEM_WRITE_ONLY);
  cl_kernel kernel = session.kernel("rw_lut");
  setArgs(kernel, in, out, lut);
  std::vector<uint8_t> got(n);
  size_t global = n;
  auto timings = timeKernel(
      session, options, kernel, 1, &global, nullptr, [&] { session.fill(out, kPoison, n); },
      [&] {
        session.read(out, got.data(), n);
        return problem.verify(got.data());
      });
  return rateRecord(info, sizeText("n", n), timings, 2.0 * n, 1e9);
}

// One launch of Rodinia's pathfinder: 20 rows over n columns, groups of 256
// (each computing 216 columns of its own).
Record runPathfinder(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  PathfinderProblem problem(n);
  constexpr size_t kBlock = 256;
  Buffer wall = session.buffer(problem.wall.size() * sizeof(int32_t), problem.wall.data(), CL_MEM_READ_ONLY);
  Buffer src = session.buffer(n * sizeof(int32_t), problem.src.data(), CL_MEM_READ_ONLY);
  Buffer results = session.buffer(n * sizeof(int32_t), nullptr, CL_MEM_READ_WRITE);
  cl_kernel kernel = session.kernel("rw_pathfinder");
  setArgs(kernel, static_cast<cl_int>(problem.rows), wall, src, results, static_cast<cl_int>(n), cl_int{0},
          static_cast<cl_int>(problem.rows), LocalBytes{kBlock * sizeof(int32_t)},
          LocalBytes{kBlock * sizeof(int32_t)});
  size_t ownColumns = kBlock - 2 * size_t(problem.rows);
  size_t global = (n + ownColumns - 1) / ownColumns * kBlock, local = kBlock;
  std::vector<int32_t> got(n);
  auto timings = timeKernel(
      session, options, kernel, 1, &global, &local, [&] { session.fill(results, kPoison, n * sizeof(int32_t)); },
      [&] {
        session.read(results, got.data(), n * sizeof(int32_t));
        return problem.verify(got.data());
      });
  return rateRecord(info, sizeText("n", n), timings, problem.cells(), 1e6);
}

// k-means' assignment of n points of 4 coordinates to 16 centroids, local
// size NULL.
Record runKmeans(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  KmeansProblem problem(n);
  Buffer points = session.buffer(problem.points.size() * sizeof(float), problem.points.data(), CL_MEM_READ_ONLY);
  Buffer centroids =
      session.buffer(problem.centroids.size() * sizeof(float), problem.centroids.data(), CL_MEM_READ_ONLY);
  Buffer labels = session.buffer(n * sizeof(int32_t), nullptr, CL_MEM_WRITE_ONLY);
  cl_kernel kernel = session.kernel("rw_kmeans");
  setArgs(kernel, points, centroids, labels, static_cast<cl_int>(problem.k), static_cast<cl_int>(problem.dim));
  std::vector<int32_t> got(n);
  size_t global = n;
  auto timings = timeKernel(
      session, options, kernel, 1, &global, nullptr, [&] { session.fill(labels, kPoison, n * sizeof(int32_t)); },
      [&] {
        session.read(labels, got.data(), n * sizeof(int32_t));
        return problem.verify(got.data());
      });
  return rateRecord(info, sizeText("n", n), timings, problem.flops(), 1e9);
}

// A 3-D NDRange of n x n x n work-items, local size NULL.
Record runGemv(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  GemvProblem problem(static_cast<uint32_t>(n));
  Buffer a = session.buffer(n * n * sizeof(float), problem.a.data(), CL_MEM_READ_ONLY);
  Buffer x = session.buffer(n * sizeof(float), problem.x.data(), CL_MEM_READ_ONLY);
  Buffer y = session.buffer(n * sizeof(float), nullptr, CL_MEM_WRITE_ONLY);
  cl_kernel kernel = session.kernel("rw_gemv");
  setArgs(kernel, a, x, y, static_cast<cl_int>(n));
  std::vector<float> got(n);
  size_t global = n;
  auto timings = timeKernel(
      session, options, kernel, 1, &global, nullptr, [&] { session.fill(y, kPoison, n * sizeof(float)); },
      [&] {
        session.read(y, got.data(), n * sizeof(float));
        return problem.verify(got.data());
      });
  return rateRecord(info, sizeText("n", n), timings, double(n) * n * sizeof(float), 1e9);
}

Record runStencil3d(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  Stencil3dProblem problem(static_cast<uint32_t>(n));
  size_t bytes = n * n * n * sizeof(float);
  Buffer in = session.buffer(bytes, problem.in.data(), CL_MEM_READ_ONLY);
  Buffer out = session.buffer(bytes, nullptr, CL_MEM_WRITE_ONLY);
  cl_kernel kernel = session.kernel("rw_stencil3d");
  setArgs(kernel, in, out, static_cast<cl_int>(n));
  std::vector<float> got(n * n * n);
  size_t global[3] = {n, n, n};
  auto timings = timeKernel(
      session, options, kernel, 3, global, nullptr, [&] { session.fill(out, kPoison, bytes); },
      [&] {
        session.read(out, got.data(), bytes);
        return problem.verify(got.data());
      });
  return rateRecord(info, sizeText("n", n), timings, 2.0 * bytes, 1e9);
}

// Parboil's stencil, 32 x 4 groups over the interior rounded up to them.
Record runStencilZmarch(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  ZMarchProblem problem(static_cast<uint32_t>(n));
  size_t bytes = problem.cells() * sizeof(float);
  Buffer in = session.buffer(bytes, problem.in.data(), CL_MEM_READ_ONLY);
  Buffer out = session.buffer(bytes, nullptr, CL_MEM_WRITE_ONLY);
  cl_kernel kernel = session.kernel("rw_stencil_zmarch");
  setArgs(kernel, problem.c0, problem.c1, in, out, static_cast<cl_int>(n), static_cast<cl_int>(n),
          static_cast<cl_int>(ZMarchProblem::kPlanes));
  std::vector<float> got(problem.cells());
  size_t local[2] = {32, 4};
  size_t global[2] = {(n - 2 + 31) / 32 * 32, (n - 2 + 3) / 4 * 4};
  auto timings = timeKernel(
      session, options, kernel, 2, global, local, [&] { session.fill(out, kPoison, bytes); },
      [&] {
        session.read(out, got.data(), bytes);
        return problem.verify(got.data());
      });
  return rateRecord(info, sizeText("n", n), timings, 2.0 * problem.updated() * sizeof(float), 1e9);
}

// The 16 x 16 tile sums of an n x n grid, 16 x 16 groups.
Record runReduce2d(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  TileSumProblem problem(static_cast<uint32_t>(n));
  size_t bytes = n * n * sizeof(float), tiles = (n / kTile) * (n / kTile);
  Buffer in = session.buffer(bytes, problem.in.data(), CL_MEM_READ_ONLY);
  Buffer sums = session.buffer(tiles * sizeof(float), nullptr, CL_MEM_WRITE_ONLY);
  cl_kernel kernel = session.kernel("rw_reduce2d");
  session.requireGroup(kernel, kTile * kTile, kTile * kTile * sizeof(float));
  setArgs(kernel, in, sums, static_cast<cl_int>(n));
  std::vector<float> got(tiles);
  size_t global[2] = {n, n}, local[2] = {kTile, kTile};
  auto timings = timeKernel(
      session, options, kernel, 2, global, local, [&] { session.fill(sums, kPoison, tiles * sizeof(float)); },
      [&] {
        session.read(sums, got.data(), tiles * sizeof(float));
        return problem.verify(got.data());
      });
  return rateRecord(info, sizeText("n", n), timings, double(bytes), 1e9);
}

// Sobel over n x n RGBA uchar4 pixels, local size NULL.
Record runSobel(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  SobelProblem problem(static_cast<uint32_t>(n));
  size_t bytes = n * n * sizeof(uint32_t);
  Buffer in = session.buffer(bytes, problem.in.data(), CL_MEM_READ_ONLY);
  Buffer out = session.buffer(bytes, nullptr, CL_MEM_WRITE_ONLY);
  cl_kernel kernel = session.kernel("rw_sobel_rgba");
  cl_int side = static_cast<cl_int>(n);
  setArgs(kernel, in, out, side, side);
  std::vector<uint32_t> got(n * n);
  size_t global[2] = {n, n};
  auto timings = timeKernel(
      session, options, kernel, 2, global, nullptr, [&] { session.fill(out, kPoison, bytes); },
      [&] {
        session.read(out, got.data(), bytes);
        return problem.verify(got.data());
      });
  return rateRecord(info, sizeText("n", n), timings, 2.0 * bytes, 1e9);
}

}  // namespace

const std::vector<ClBench> &realWorldBenchmarks() {
  // Sizes: powers of two, as applications pick them.
  static const std::vector<ClBench> benches = {
      {{"rw_sgemm_naive", "C = A * B, int indices, global memory only, local size NULL",
        "GFLOP/s", true, 1024, 64, kTile, "matrix order", 16384},
       "rw_sgemm_naive",
       runSgemmNaive,
       Program::RealWorld},
      {{"rw_sgemm_tiled", "C = A * B, int indices, __local float As[16][16], Bs[16][16]",
        "GFLOP/s", true, 1024, 64, kTile, "matrix order", 16384},
       "rw_sgemm_tiled",
       runSgemmTiled,
       Program::RealWorld},
      {{"rw_transpose", "n x n transpose through a 16x17 __local tile, int indices", "GB/s", true,
        4096, 64, kTile, "matrix order", 16384},
       "rw_transpose",
       runTranspose,
       Program::RealWorld},
      {{"rw_transpose_naive", "n x n transpose from global memory, int indices, 16x16 work-groups",
        "GB/s", true, 4096, 64, kTile, "matrix order", 16384},
       "rw_transpose_naive",
       runTransposeNaive,
       Program::RealWorld},
      {{"rw_stencil_halo", "5-point sweep, 18x18 __local tile, halo loaded by the edge work-items",
        "GB/s", true, 4096, 64, kTile, "grid order", 16384},
       "rw_stencil_halo",
       runStencilHalo,
       Program::RealWorld},
      {{"rw_stencil_l16", "5-point sweep from global memory, int W, 16x16 work-groups", "GB/s",
        true, 4096, 64, kTile, "grid order", 16384},
       "rw_stencil_global",
       runStencilL16,
       Program::RealWorld},
      {{"rw_stencil_null", "5-point sweep from global memory, int W, local size NULL", "GB/s",
        true, 4096, 64, kTile, "grid order", 16384},
       "rw_stencil_global",
       runStencilNull,
       Program::RealWorld},
      {{"rw_histogram", "256 bins, __local atomics, grid-stride loop over 1M work-items", "GB/s",
        true, 1 << 24, 1 << 16, 1, "bytes", uint64_t{1} << 30},
       "rw_histogram",
       runHistogram,
       Program::RealWorld},
      {{"rw_histogram_global", "256 bins, a global atomic_inc per byte, local size NULL", "GB/s",
        true, 1 << 24, 1 << 16, 1, "bytes", uint64_t{1} << 30},
       "rw_histogram_global",
       runHistogramGlobal,
       Program::RealWorld},
      {{"rw_conv1d", "17-tap 1-D convolution, filter in __constant, `if (i >= n) return` guard", "GFLOP/s",
        true, (1 << 24) - 100, (1 << 16) - 100, 1, "outputs", uint64_t{1} << 30},
       "rw_conv1d",
       runConv1d,
       Program::RealWorld},
      {{"rw_conv2d_linear", "3x3 convolution, a 1-D range: uint x = id % width, y = id / width, window loops "
                            "from them, groups of 256",
        "GFLOP/s", true, 4096, 64, 1, "image order", 16384},
       "rw_conv2d_linear",
       runConv2dLinear,
       Program::RealWorld},
      {{"rw_saxpy4", "out = a * x + y on float4", "GB/s", true, 1 << 25, 1 << 16, 4, "floats"},
       "rw_saxpy4",
       runSaxpy4,
       Program::RealWorld},
      {{"rw_int4", "out = (a * 3 + b) ^ (a >> 3) on int4", "GB/s", true, 1 << 25, 1 << 16, 4,
        "ints"},
       "rw_int4",
       runInt4,
       Program::RealWorld},
      {{"rw_gemv", "y = A x, a work-item per row, local size NULL", "GB/s", true, 4096, 64, 1,
        "n (n x n matrix)", 16384},
       "rw_gemv",
       runGemv,
       Program::RealWorld},
      {{"rw_stencil3d", "7-point 3-D sweep, 3-D NDRange, local size NULL", "GB/s", true, 256, 16,
        1, "grid order (n^3 cells)", 1024},
       "rw_stencil3d",
       runStencil3d,
       Program::RealWorld},
      {{"rw_reduce2d", "16x16 tile sums, __local tree over int l = ly * 16 + lx", "GB/s", true, 4096, 64,
        kTile, "grid order", 16384},
       "rw_reduce2d",
       runReduce2d,
       Program::RealWorld},
      {{"rw_sobel_rgba", "Sobel magnitude of uchar4 RGBA pixels, border returns, local size NULL", "GB/s",
        true, 4096, 64, kTile, "image order", 16384},
       "rw_sobel_rgba",
       runSobel,
       Program::RealWorld},
      {{"rw_compact", "stream compaction: out[atomic_inc(&count)] = x where x > 0.5, local size NULL", "GB/s",
        true, 1 << 24, 1 << 16, 1, "floats", uint64_t{1} << 28},
       "rw_compact",
       runCompact,
       Program::RealWorld},
      {{"rw_lut", "out[i] = lut[in[i]], a 256-byte table in __constant, local size NULL", "GB/s", true,
        1 << 25, 1 << 16, 1, "bytes", uint64_t{1} << 30},
       "rw_lut",
       runLut,
       Program::RealWorld},
      {{"rw_kmeans", "k-means assignment: 16 centroids, a loop over 4 coordinates (int dim), local size NULL",
        "GFLOP/s", true, 1 << 20, 1 << 12, 1, "points", uint64_t{1} << 26},
       "rw_kmeans",
       runKmeans,
       Program::RealWorld},
      {{"rw_pathfinder", "Rodinia's pathfinder: 20 rows of a min-of-three DP per launch, groups of 256, ternaries "
                         "and a flag across a loop of barriers",
        "Mcell/s", true, 1 << 20, 1 << 12, 1, "columns", uint64_t{1} << 26},
       "rw_pathfinder",
       runPathfinder,
       Program::RealWorld},
      {{"rw_stencil_zmarch", "Parboil's stencil: 7 points, each work-item marching along z behind its guard, "
                             "n x n x 64, 32 x 4 groups (the last ones split)",
        "GB/s", true, 256, 16, 1, "grid order", 1024},
       "rw_stencil_zmarch",
       runStencilZmarch,
       Program::RealWorld},
  };
  return benches;
}

}  // namespace bench

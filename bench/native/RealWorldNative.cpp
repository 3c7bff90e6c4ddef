// The strong native rows: `sgemm_strong` and `transpose_strong` (the strong
// references of the suite's SGEMMs and transpose, which bench/run reads
// against them), and one benchmark per real-world (rw_) OpenCL benchmark,
// under the same name, running the strong C++ reference of the same problem
// at the same size, verified by the same host reference.
#include <cstring>
#include <memory>

#include "Measure.h"
#include "NativeBenchmarks.h"
#include "RealWorldWorkloads.h"
#include "StrongGemm.h"
#include "StrongKernels.h"
#include "Workloads.h"

namespace bench {
namespace {

template <class T>
void poison(std::vector<T> &values) {
  std::memset(values.data(), 0xff, values.size() * sizeof(T));
}

std::string sizeText(const char *name, uint64_t value) {
  return std::string(name) + "=" + std::to_string(value);
}

Record runSgemm(const BenchInfo &info, uint64_t n, const Options &options) {
  static std::unique_ptr<SgemmProblem> shared;  // reference computed once per size
  if (!shared || shared->n != n) shared = std::make_unique<SgemmProblem>(n);
  SgemmProblem &problem = *shared;
  std::vector<float> c(n * n);
  auto timings = measureRuns(
      options.reps, [&] { poison(c); },
      [&] { strongSgemm(problem.a.data(), problem.b.data(), c.data(), n); },
      [&] { return problem.verify(c.data()); });
  Record record = rateRecord(info, sizeText("n", n), timings, problem.flops(), 1e9);
  record.detail = strongSgemmShape();
  return record;
}

Record runTranspose(const BenchInfo &info, uint64_t n, const Options &options) {
  TransposeProblem problem(n);
  std::vector<float> out(n * n);
  auto timings = measureRuns(
      options.reps, [&] { poison(out); },
      [&] { strongTranspose(problem.in.data(), out.data(), n); },
      [&] { return problem.verify(out.data()); });
  return rateRecord(info, sizeText("n", n), timings, 2.0 * n * n * sizeof(float), 1e9);
}

Record runStencil(const BenchInfo &info, uint64_t n, const Options &options) {
  StencilProblem problem(n);
  std::vector<float> out(n * n);
  auto timings = measureRuns(
      options.reps, [&] { poison(out); },
      [&] { strongStencil(problem.in.data(), out.data(), n); },
      [&] { return problem.verify(out.data()); });
  return rateRecord(info, sizeText("n", n), timings, 2.0 * n * n * sizeof(float), 1e9);
}

Record runHistogram(const BenchInfo &info, uint64_t n, const Options &options) {
  HistogramProblem problem(n);
  std::vector<uint32_t> bins(256);
  auto timings = measureRuns(
      options.reps, [&] { poison(bins); },
      [&] { strongHistogram(problem.data.data(), n, bins.data()); },
      [&] { return problem.verify(bins.data()); });
  return rateRecord(info, sizeText("bytes", n), timings, static_cast<double>(n), 1e9);
}

Record runSaxpy(const BenchInfo &info, uint64_t n, const Options &options) {
  StreamProblem problem(n);
  std::vector<float> out(n);
  auto timings = measureRuns(
      options.reps, [&] { poison(out); },
      [&] { strongSaxpy(problem.c.data(), problem.b.data(), out.data(), n, problem.scalar); },
      [&] { return problem.verifyTriad(out.data()); });
  return rateRecord(info, sizeText("n", n), timings, 3.0 * n * sizeof(float), 1e9);
}

Record runIntMix(const BenchInfo &info, uint64_t n, const Options &options) {
  IntMixProblem problem(n);
  std::vector<int32_t> out(n);
  auto timings = measureRuns(
      options.reps, [&] { poison(out); },
      [&] { strongIntMix(problem.a.data(), problem.b.data(), out.data(), n); },
      [&] { return problem.verify(out.data()); });
  return rateRecord(info, sizeText("n", n), timings, 3.0 * n * sizeof(int32_t), 1e9);
}

Record runGemv(const BenchInfo &info, uint64_t n, const Options &options) {
  GemvProblem problem(n);
  std::vector<float> y(n);
  auto timings = measureRuns(
      options.reps, [&] { poison(y); },
      [&] { strongGemv(problem.a.data(), problem.x.data(), y.data(), n); },
      [&] { return problem.verify(y.data()); });
  return rateRecord(info, sizeText("n", n), timings, double(n) * n * sizeof(float), 1e9);
}

Record runConv1d(const BenchInfo &info, uint64_t n, const Options &options) {
  Conv1dProblem problem(n);
  std::vector<float> out(n);
  auto timings = measureRuns(
      options.reps, [&] { poison(out); },
      [&] { strongConv1d(problem.in.data(), problem.w.data(), out.data(), n, Conv1dProblem::kTaps); },
      [&] { return problem.verify(out.data()); });
  return rateRecord(info, sizeText("n", n), timings, 2.0 * Conv1dProblem::kTaps * n, 1e9);
}

Record runConv2d(const BenchInfo &info, uint64_t n, const Options &options) {
  Conv2dProblem problem(static_cast<uint32_t>(n));
  std::vector<float> out(n * n);
  auto timings = measureRuns(
      options.reps, [&] { poison(out); },
      [&] { strongConv2d(problem.in.data(), problem.mask.data(), out.data(), n); },
      [&] { return problem.verify(out.data()); });
  return rateRecord(info, sizeText("n", n), timings, 2.0 * 9 * n * n, 1e9);
}

Record runStencil3d(const BenchInfo &info, uint64_t n, const Options &options) {
  Stencil3dProblem problem(n);
  std::vector<float> out(n * n * n);
  auto timings = measureRuns(
      options.reps, [&] { poison(out); },
      [&] {
        strongStencil3d(problem.in.data(), out.data(), n, problem.centre, problem.neighbour);
      },
      [&] { return problem.verify(out.data()); });
  return rateRecord(info, sizeText("n", n), timings, 2.0 * n * n * n * sizeof(float), 1e9);
}

Record runZmarch(const BenchInfo &info, uint64_t n, const Options &options) {
  ZMarchProblem problem(n);
  std::vector<float> out(problem.cells());
  auto timings = measureRuns(
      options.reps, [&] { poison(out); },
      [&] { strongZmarch(problem.in.data(), out.data(), n, ZMarchProblem::kPlanes, problem.c0, problem.c1); },
      [&] { return problem.verify(out.data()); });
  return rateRecord(info, sizeText("n", n), timings, 2.0 * problem.updated() * sizeof(float), 1e9);
}

Record runTileSums(const BenchInfo &info, uint64_t n, const Options &options) {
  TileSumProblem problem(n);
  std::vector<float> sums((n / TileSumProblem::kTile) * (n / TileSumProblem::kTile));
  auto timings = measureRuns(
      options.reps, [&] { poison(sums); }, [&] { strongTileSums(problem.in.data(), sums.data(), n); },
      [&] { return problem.verify(sums.data()); });
  return rateRecord(info, sizeText("n", n), timings, double(n) * n * sizeof(float), 1e9);
}

Record runSobel(const BenchInfo &info, uint64_t n, const Options &options) {
  SobelProblem problem(n);
  std::vector<uint32_t> out(n * n);
  auto timings = measureRuns(
      options.reps, [&] { poison(out); }, [&] { strongSobel(problem.in.data(), out.data(), n); },
      [&] { return problem.verify(out.data()); });
  return rateRecord(info, sizeText("n", n), timings, 2.0 * n * n * sizeof(uint32_t), 1e9);
}

Record runCompact(const BenchInfo &info, uint64_t n, const Options &options) {
  CompactProblem problem(n);
  std::vector<float> out(n);
  size_t kept = 0;
  auto timings = measureRuns(
      options.reps, [&] { poison(out); },
      [&] { kept = strongCompact(problem.in.data(), out.data(), n, problem.threshold); },
      [&] { return problem.verify(out.data(), kept); });
  return rateRecord(info, sizeText("n", n), timings, double(n) * sizeof(float) + double(problem.kept()) * sizeof(float),
                    1e9);
}

Record runLut(const BenchInfo &info, uint64_t n, const Options &options) {
  LutProblem problem(n);
  std::vector<uint8_t> out(n);
  auto timings = measureRuns(
      options.reps, [&] { poison(out); }, [&] { strongLut(problem.in.data(), out.data(), n, problem.lut.data()); },
      [&] { return problem.verify(out.data()); });
  return rateRecord(info, sizeText("n", n), timings, 2.0 * n, 1e9);
}

Record runKmeans(const BenchInfo &info, uint64_t n, const Options &options) {
  KmeansProblem problem(n);
  std::vector<int32_t> labels(n);
  auto timings = measureRuns(
      options.reps, [&] { poison(labels); },
      [&] {
        strongKmeans(problem.points.data(), problem.centroids.data(), labels.data(), n, problem.k, problem.dim);
      },
      [&] { return problem.verify(labels.data()); });
  return rateRecord(info, sizeText("n", n), timings, problem.flops(), 1e9);
}

Record runPathfinder(const BenchInfo &info, uint64_t n, const Options &options) {
  PathfinderProblem problem(n);
  std::vector<int32_t> out(n);
  auto timings = measureRuns(
      options.reps, [&] { poison(out); },
      [&] { strongPathfinder(problem.src.data(), problem.wall.data(), out.data(), n, problem.rows); },
      [&] { return problem.verify(out.data()); });
  return rateRecord(info, sizeText("n", n), timings, problem.cells(), 1e6);
}

}  // namespace

const std::vector<NativeBench> &strongNativeBenchmarks() {
  // Sizes as the OpenCL benchmark of the same name (sgemm_strong as
  // sgemm_tiled's, transpose_strong as transpose's).
  static const std::vector<NativeBench> benches = {
      {{"sgemm_strong", "C = A * B, packed panels, register-blocked FMA micro-kernel", "GFLOP/s",
        true, 768, 64, 16, "matrix order", 16384},
       runSgemm},
      {{"transpose_strong", "n x n transpose, 64x64 blocks of 8x8 in-register transposes", "GB/s",
        true, 4096, 64, 16, "matrix order", 16384},
       runTranspose},
      {{"rw_sgemm_naive", "strong SGEMM (packed, register-blocked)", "GFLOP/s", true, 1024, 64, 16,
        "matrix order", 16384},
       runSgemm},
      {{"rw_sgemm_tiled", "strong SGEMM (packed, register-blocked)", "GFLOP/s", true, 1024, 64, 16,
        "matrix order", 16384},
       runSgemm},
      {{"rw_transpose", "strong transpose (blocked 8x8 in-register)", "GB/s", true, 4096, 64, 16,
        "matrix order", 16384},
       runTranspose},
      {{"rw_transpose_naive", "strong transpose (blocked 8x8 in-register)", "GB/s", true, 4096, 64, 16,
        "matrix order", 16384},
       runTranspose},
      {{"rw_stencil_halo", "5-point sweep along the rows", "GB/s", true, 4096, 64, 16,
        "grid order", 16384},
       runStencil},
      {{"rw_stencil_l16", "5-point sweep along the rows", "GB/s", true, 4096, 64, 16, "grid order",
        16384},
       runStencil},
      {{"rw_stencil_null", "5-point sweep along the rows", "GB/s", true, 4096, 64, 16,
        "grid order", 16384},
       runStencil},
      {{"rw_histogram", "256 bins, private per-thread bins merged", "GB/s", true, 1 << 24, 1 << 16,
        1, "bytes", uint64_t{1} << 30},
       runHistogram},
      {{"rw_histogram_global", "256 bins, private per-thread bins merged", "GB/s", true, 1 << 24,
        1 << 16, 1, "bytes", uint64_t{1} << 30},
       runHistogram},
      {{"rw_saxpy4", "out = a * x + y, simd loop", "GB/s", true, 1 << 25, 1 << 16, 4, "floats"},
       runSaxpy},
      {{"rw_int4", "out = (a * 3 + b) ^ (a >> 3), simd loop", "GB/s", true, 1 << 25, 1 << 16, 4,
        "ints"},
       runIntMix},
      {{"rw_conv1d", "1-D convolution, outputs a simd vector at a time", "GFLOP/s", true, (1 << 24) - 100,
        (1 << 16) - 100, 1, "outputs", uint64_t{1} << 30},
       runConv1d},
      {{"rw_conv2d_linear", "3x3 convolution, nine multiply-adds over a row at a time, simd", "GFLOP/s", true,
        4096, 64, 1, "image order", 16384},
       runConv2d},
      {{"rw_gemv", "y = A x, simd dot product per row", "GB/s", true, 4096, 64, 1, "n (n x n matrix)",
        16384},
       runGemv},
      {{"rw_stencil3d", "7-point 3-D sweep along the rows", "GB/s", true, 256, 16, 1,
        "grid order (n^3 cells)", 1024},
       runStencil3d},
      {{"rw_reduce2d", "16x16 tile sums: column sums along each band of 16 rows", "GB/s", true, 4096, 64, 16,
        "grid order", 16384},
       runTileSums},
      {{"rw_sobel_rgba", "Sobel magnitude, a row of grey values at a time", "GB/s", true, 4096, 64, 16,
        "image order", 16384},
       runSobel},
      {{"rw_compact", "stream compaction: counts per thread, prefix sums, copies", "GB/s", true, 1 << 24, 1 << 16, 1,
        "floats", uint64_t{1} << 28},
       runCompact},
      {{"rw_lut", "out[i] = lut[in[i]], a loop over bytes", "GB/s", true, 1 << 25, 1 << 16, 1, "bytes",
        uint64_t{1} << 30},
       runLut},
      {{"rw_kmeans", "k-means assignment, blocks of 16 points, simd loops across each block", "GFLOP/s", true,
        1 << 20, 1 << 12, 1, "points", uint64_t{1} << 26},
       runKmeans},
      {{"rw_pathfinder", "pathfinder rows, blocks of 4096 columns with a halo, a simd loop per row", "Mcell/s",
        true, 1 << 20, 1 << 12, 1, "columns", uint64_t{1} << 26},
       runPathfinder},
      {{"rw_stencil_zmarch", "Parboil's stencil, a sweep along the rows of each plane", "GB/s", true, 256, 16, 1,
        "grid order", 1024},
       runZmarch},
  };
  return benches;
}

}  // namespace bench

#include "ClBenchmarks.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "Measure.h"
#include "Workloads.h"

namespace bench {

// One launch per run, waited for; `prepare` and `verify` stay outside the time.
Timings timeKernel(Session &session, const Options &options, cl_kernel kernel, cl_uint dims,
                   const size_t *global, const size_t *local, const std::function<void()> &prepare,
                   const std::function<Verdict()> &verify) {
  return measureRuns(
      options.reps, prepare,
      [&] {
        session.enqueue(kernel, dims, global, local);
        session.finish();
      },
      verify);
}

// sgemm_naive and sgemm_tiled share inputs and the (costly) host reference.
SgemmProblem &sgemmProblem(uint32_t n) {
  static std::map<uint32_t, std::unique_ptr<SgemmProblem>> problems;
  auto &problem = problems[n];
  if (!problem) problem = std::make_unique<SgemmProblem>(n);
  return *problem;
}

namespace {

// Outputs are filled with this before every run: NaN as a float, and a count
// no kernel here produces as a uint, so a run that writes nothing fails.
constexpr uint32_t kPoison = 0xffffffffu;
constexpr size_t kGroup1d = 256;  // work-group size of the 1-D kernels with __local
constexpr size_t kTile = 16;      // the 2-D kernels' tiles are kTile x kTile
constexpr size_t kReduceGroups = 256;


Verdict checkCount(uint32_t got, uint32_t want) {
  if (got == want) return {};
  return "launch counter is " + std::to_string(got) + ", want " + std::to_string(want) +
         ": not every launch ran exactly once";
}

// Enqueue -> finish of one launch, `latency_samples` times per repetition;
// a repetition reports the median sample, in microseconds.
Record runLaunchLatency(Session &session, const BenchInfo &info, uint64_t size,
                        const Options &options) {
  cl_kernel kernel = session.kernel("count_launch");
  Buffer counter = session.buffer(sizeof(uint32_t));
  setArgs(kernel, counter);
  size_t global = size;
  Timings timings;
  for (int rep = 0; rep <= options.reps; ++rep) {
    session.fill(counter, 0, sizeof(uint32_t));
    Timings samples;
    for (int i = 0; i < options.latency_samples; ++i) {
      auto start = Clock::now();
      session.enqueue(kernel, 1, &global, nullptr);
      session.finish();
      samples.ms.push_back(msSince(start));
    }
    uint32_t count = 0;
    session.read(counter, &count, sizeof count);
    if (Verdict verdict = checkCount(count, options.latency_samples); !verdict.empty())
      throw VerificationFailure(verdict);
    if (rep == 0)
      timings.first_ms = samples.ms.front();
    else
      timings.ms.push_back(samples.median());
  }
  return timeRecord(info, sizeText("global", size), timings);
}

// `size` launches back to back, one clFinish at the end.
Record runLaunchThroughput(Session &session, const BenchInfo &info, uint64_t size,
                           const Options &options) {
  cl_kernel kernel = session.kernel("count_launch");
  Buffer counter = session.buffer(sizeof(uint32_t));
  setArgs(kernel, counter);
  size_t global = 1;
  auto timings = measureRuns(
      options.reps, [&] { session.fill(counter, 0, sizeof(uint32_t)); },
      [&] {
        for (uint64_t i = 0; i < size; ++i) session.enqueue(kernel, 1, &global, nullptr);
        session.finish();
      },
      [&] {
        uint32_t count = 0;
        session.read(counter, &count, sizeof count);
        return checkCount(count, static_cast<uint32_t>(size));
      });
  return rateRecord(info, sizeText("launches", size), timings, static_cast<double>(size), 1);
}

Record runVectorAdd(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  StreamProblem problem(n);
  size_t bytes = n * sizeof(float);
  Buffer a = session.buffer(bytes, problem.a.data(), CL_MEM_READ_ONLY);
  Buffer b = session.buffer(bytes, problem.b.data(), CL_MEM_READ_ONLY);
  Buffer c = session.buffer(bytes, nullptr, CL_MEM_WRITE_ONLY);
  cl_kernel kernel = session.kernel("vector_add");
  setArgs(kernel, a, b, c);
  std::vector<float> out(n);
  size_t global = n;
  auto timings = timeKernel(
      session, options, kernel, 1, &global, nullptr, [&] { session.fill(c, kPoison, bytes); },
      [&] {
        session.read(c, out.data(), bytes);
        return problem.verifyAdd(out.data());
      });
  return rateRecord(info, sizeText("n", n), timings, 3.0 * bytes, 1e9);
}

Record runTriad(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  StreamProblem problem(n);
  size_t bytes = n * sizeof(float);
  Buffer a = session.buffer(bytes, nullptr, CL_MEM_WRITE_ONLY);
  Buffer b = session.buffer(bytes, problem.b.data(), CL_MEM_READ_ONLY);
  Buffer c = session.buffer(bytes, problem.c.data(), CL_MEM_READ_ONLY);
  cl_kernel kernel = session.kernel("triad");
  setArgs(kernel, a, b, c, problem.scalar);
  std::vector<float> out(n);
  size_t global = n;
  auto timings = timeKernel(
      session, options, kernel, 1, &global, nullptr, [&] { session.fill(a, kPoison, bytes); },
      [&] {
        session.read(a, out.data(), bytes);
        return problem.verifyTriad(out.data());
      });
  return rateRecord(info, sizeText("n", n), timings, 3.0 * bytes, 1e9);
}


Record runSgemmNaive(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  return runSgemmKernel(session, info, n, options, "sgemm_naive", false);
}

Record runSgemmTiled(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  return runSgemmKernel(session, info, n, options, "sgemm_tiled", true);
}

Record runReduce(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  ReduceProblem problem(n);
  size_t groups = std::min<size_t>(kReduceGroups, (n + kGroup1d - 1) / kGroup1d);
  Buffer in = session.buffer(n * sizeof(float), problem.in.data(), CL_MEM_READ_ONLY);
  Buffer partials = session.buffer(groups * sizeof(float), nullptr, CL_MEM_WRITE_ONLY);
  cl_kernel kernel = session.kernel("reduce_sum");
  session.requireGroup(kernel, kGroup1d, kGroup1d * sizeof(float));
  setArgs(kernel, in, partials, static_cast<cl_uint>(n), LocalBytes{kGroup1d * sizeof(float)});
  std::vector<float> out(groups);
  size_t global = groups * kGroup1d, local = kGroup1d;
  auto timings = timeKernel(
      session, options, kernel, 1, &global, &local,
      [&] { session.fill(partials, kPoison, groups * sizeof(float)); },
      [&] {
        session.read(partials, out.data(), groups * sizeof(float));
        return problem.verifyPartials(out.data(), groups, kGroup1d);
      });
  return rateRecord(info, sizeText("n", n), timings, n * sizeof(float), 1e9);
}

Record runScan(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  const size_t block = 2 * kGroup1d;
  ScanProblem problem(n, block);
  size_t bytes = n * sizeof(uint32_t), groups = n / block;
  Buffer in = session.buffer(bytes, problem.in.data(), CL_MEM_READ_ONLY);
  Buffer out = session.buffer(bytes, nullptr, CL_MEM_WRITE_ONLY);
  Buffer sums = session.buffer(groups * sizeof(uint32_t), nullptr, CL_MEM_WRITE_ONLY);
  cl_kernel kernel = session.kernel("scan_blocks");
  session.requireGroup(kernel, kGroup1d, block * sizeof(uint32_t));
  setArgs(kernel, in, out, sums, LocalBytes{block * sizeof(uint32_t)});
  std::vector<uint32_t> got(n), got_sums(groups);
  size_t global = n / 2, local = kGroup1d;
  auto timings = timeKernel(
      session, options, kernel, 1, &global, &local,
      [&] {
        session.fill(out, kPoison, bytes);
        session.fill(sums, kPoison, groups * sizeof(uint32_t));
      },
      [&] {
        session.read(out, got.data(), bytes);
        session.read(sums, got_sums.data(), groups * sizeof(uint32_t));
        return problem.verify(got.data(), got_sums.data());
      });
  return rateRecord(info, sizeText("n", n), timings, 2.0 * bytes, 1e9);
}

// An n x n float grid in, one out, over kTile x kTile groups with a __local
// tile of `local_bytes`: the transpose and the stencil.
template <typename Problem>
Record runTiledGrid(Session &session, const BenchInfo &info, uint64_t n, const Options &options,
                    const char *kernel_name, size_t local_bytes) {
  Problem problem(static_cast<uint32_t>(n));
  size_t bytes = n * n * sizeof(float);
  Buffer in = session.buffer(bytes, problem.in.data(), CL_MEM_READ_ONLY);
  Buffer out = session.buffer(bytes, nullptr, CL_MEM_WRITE_ONLY);
  cl_kernel kernel = session.kernel(kernel_name);
  session.requireGroup(kernel, kTile * kTile, local_bytes);
  setArgs(kernel, in, out, static_cast<cl_uint>(n));
  std::vector<float> got(n * n);
  size_t global[2] = {n, n}, local[2] = {kTile, kTile};
  auto timings = timeKernel(
      session, options, kernel, 2, global, local, [&] { session.fill(out, kPoison, bytes); },
      [&] {
        session.read(out, got.data(), bytes);
        return problem.verify(got.data());
      });
  return rateRecord(info, sizeText("n", n), timings, 2.0 * bytes, 1e9);
}

Record runTranspose(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  return runTiledGrid<TransposeProblem>(session, info, n, options, "transpose_tiled",
                                        kTile * (kTile + 1) * sizeof(float));
}

Record runStencil(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  return runTiledGrid<StencilProblem>(session, info, n, options, "stencil_5point",
                                      (kTile + 2) * (kTile + 2) * sizeof(float));
}

Record runNbody(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  NbodyProblem problem(static_cast<uint32_t>(n));
  size_t bytes = n * 4 * sizeof(float);
  Buffer pos = session.buffer(bytes, problem.pos.data(), CL_MEM_READ_ONLY);
  Buffer acc = session.buffer(bytes, nullptr, CL_MEM_WRITE_ONLY);
  cl_kernel kernel = session.kernel("nbody_forces");
  session.requireGroup(kernel, kGroup1d, kGroup1d * 4 * sizeof(float));
  setArgs(kernel, pos, acc, static_cast<cl_uint>(n), problem.softening2,
          LocalBytes{kGroup1d * 4 * sizeof(float)});
  std::vector<float> got(n * 4);
  size_t global = n, local = kGroup1d;
  auto timings = timeKernel(
      session, options, kernel, 1, &global, &local, [&] { session.fill(acc, kPoison, bytes); },
      [&] {
        session.read(acc, got.data(), bytes);
        return problem.verify(got.data());
      });
  return rateRecord(info, sizeText("bodies", n), timings, problem.flops(), 1e9);
}

Record runMandelbrot(Session &session, const BenchInfo &info, uint64_t width,
                     const Options &options) {
  MandelbrotProblem problem(static_cast<uint32_t>(width));
  size_t pixels = size_t{problem.width} * problem.height, bytes = pixels * sizeof(uint32_t);
  Buffer iters = session.buffer(bytes, nullptr, CL_MEM_WRITE_ONLY);
  cl_kernel kernel = session.kernel("mandelbrot");
  setArgs(kernel, iters, problem.width, problem.x0, problem.y0, problem.dx, problem.dy,
          problem.max_iter);
  std::vector<uint32_t> got(pixels);
  size_t global[2] = {problem.width, problem.height};
  auto timings = timeKernel(
      session, options, kernel, 2, global, nullptr, [&] { session.fill(iters, kPoison, bytes); },
      [&] {
        session.read(iters, got.data(), bytes);
        return problem.verify(got.data());
      });
  return rateRecord(info, sizeText("width", width) + " height=" + std::to_string(problem.height),
                    timings, static_cast<double>(pixels), 1e6);
}

Record runHistogram(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  HistogramProblem problem(n);
  size_t groups = std::min<size_t>(kReduceGroups, (n + kGroup1d - 1) / kGroup1d);
  Buffer data = session.buffer(n, problem.data.data(), CL_MEM_READ_ONLY);
  Buffer bins = session.buffer(256 * sizeof(uint32_t));
  cl_kernel kernel = session.kernel("histogram256");
  session.requireGroup(kernel, kGroup1d, 256 * sizeof(uint32_t));
  setArgs(kernel, data, static_cast<cl_uint>(n), bins);
  std::vector<uint32_t> got(256);
  size_t global = groups * kGroup1d, local = kGroup1d;
  auto timings = timeKernel(
      session, options, kernel, 1, &global, &local,
      [&] { session.fill(bins, 0, 256 * sizeof(uint32_t)); },
      [&] {
        session.read(bins, got.data(), 256 * sizeof(uint32_t));
        return problem.verify(got.data());
      });
  return rateRecord(info, sizeText("bytes", n), timings, static_cast<double>(n), 1e9);
}

// The image benchmarks: square images of `n` x `n` RGBA8 pixels (the resize
// reads n x n and writes 3/4 of that), one work-item per output pixel, the
// local size left to the platform. Outputs are set before each run to values
// wrong everywhere (128 code steps from the right ones; NaN for floats).
constexpr cl_image_format kRgba8 = {CL_RGBA, CL_UNORM_INT8};
constexpr cl_image_format kRgbaFloat = {CL_RGBA, CL_FLOAT};

std::string imageSizeText(uint64_t width, uint64_t height) {
  return sizeText("width", width) + " height=" + std::to_string(height);
}

Record runImageBlur(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  BlurProblem problem(static_cast<uint32_t>(n), static_cast<uint32_t>(n));
  const std::vector<uint8_t> poison = problem.poison();
  Buffer in = session.image2d(n, n, kRgba8, problem.in.data(), CL_MEM_READ_ONLY);
  Buffer out = session.image2d(n, n, kRgba8, nullptr, CL_MEM_WRITE_ONLY);
  cl_kernel kernel = session.kernel("image_blur");
  setArgs(kernel, in, out);
  std::vector<uint8_t> got(poison.size());
  size_t global[2] = {n, n};
  auto timings = timeKernel(
      session, options, kernel, 2, global, nullptr,
      [&] { session.writeImage(out, poison.data(), n, n); },
      [&] {
        session.readImage(out, got.data(), n, n);
        return problem.verify(got.data(), kUnorm8WriteTolerance);
      });
  return rateRecord(info, imageSizeText(n, n), timings, double(n) * n, 1e6);
}

Record runBufferBlur(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  BlurProblem problem(static_cast<uint32_t>(n), static_cast<uint32_t>(n));
  const std::vector<uint8_t> poison = problem.poison();
  size_t bytes = poison.size();
  Buffer in = session.buffer(bytes, problem.in.data(), CL_MEM_READ_ONLY);
  Buffer out = session.buffer(bytes, nullptr, CL_MEM_WRITE_ONLY);
  cl_kernel kernel = session.kernel("buffer_blur");
  setArgs(kernel, in, out, static_cast<cl_int>(n), static_cast<cl_int>(n));
  std::vector<uint8_t> got(bytes);
  size_t global[2] = {n, n};
  auto timings = timeKernel(
      session, options, kernel, 2, global, nullptr,
      [&] { session.write(out, poison.data(), bytes); },
      [&] {
        session.read(out, got.data(), bytes);
        return problem.verify(got.data(), kExactRounding);  // convert_uchar4_sat_rte
      });
  return rateRecord(info, imageSizeText(n, n), timings, double(n) * n, 1e6);
}

Record runImageResize(Session &session, const BenchInfo &info, uint64_t n, const Options &options) {
  uint64_t m = n * 3 / 4;
  ResizeProblem problem(static_cast<uint32_t>(n), static_cast<uint32_t>(n),
                        static_cast<uint32_t>(m), static_cast<uint32_t>(m));
  const std::vector<uint8_t> poison = problem.poison();
  Buffer in = session.image2d(n, n, kRgba8, problem.in.data(), CL_MEM_READ_ONLY);
  Buffer out = session.image2d(m, m, kRgba8, nullptr, CL_MEM_WRITE_ONLY);
  Sampler linear = session.sampler(true, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR);
  cl_kernel kernel = session.kernel("image_resize");
  setArgs(kernel, in, out, linear);
  std::vector<uint8_t> got(poison.size());
  size_t global[2] = {m, m};
  auto timings = timeKernel(
      session, options, kernel, 2, global, nullptr,
      [&] { session.writeImage(out, poison.data(), m, m); },
      [&] {
        session.readImage(out, got.data(), m, m);
        return problem.verify(got.data());
      });
  return rateRecord(info, imageSizeText(n, n) + " to " + imageSizeText(m, m), timings,
                    double(m) * m, 1e6);
}

Record runImageConvert(Session &session, const BenchInfo &info, uint64_t n,
                       const Options &options) {
  ConvertProblem problem(static_cast<uint32_t>(n), static_cast<uint32_t>(n));
  const std::vector<float> poison(problem.in.size(), NAN);
  Buffer in = session.image2d(n, n, kRgba8, problem.in.data(), CL_MEM_READ_ONLY);
  Buffer out = session.image2d(n, n, kRgbaFloat, nullptr, CL_MEM_WRITE_ONLY);
  cl_kernel kernel = session.kernel("image_convert");
  setArgs(kernel, in, out);
  std::vector<float> got(poison.size());
  size_t global[2] = {n, n};
  auto timings = timeKernel(
      session, options, kernel, 2, global, nullptr,
      [&] { session.writeImage(out, poison.data(), n, n); },
      [&] {
        session.readImage(out, got.data(), n, n);
        return problem.verify(got.data());
      });
  return rateRecord(info, imageSizeText(n, n), timings, double(n) * n, 1e6);
}

}  // namespace

std::string sizeText(const char *name, uint64_t value) {
  return std::string(name) + "=" + std::to_string(value);
}

Record runSgemmKernel(Session &session, const BenchInfo &info, uint64_t n, const Options &options,
                      const char *kernelName, bool tiled) {
  SgemmProblem &problem = sgemmProblem(static_cast<uint32_t>(n));
  size_t bytes = n * n * sizeof(float);
  Buffer a = session.buffer(bytes, problem.a.data(), CL_MEM_READ_ONLY);
  Buffer b = session.buffer(bytes, problem.b.data(), CL_MEM_READ_ONLY);
  Buffer c = session.buffer(bytes, nullptr, CL_MEM_WRITE_ONLY);
  cl_kernel kernel = session.kernel(kernelName);
  if (tiled) session.requireGroup(kernel, kTile * kTile, 2 * kTile * kTile * sizeof(float));
  setArgs(kernel, a, b, c, static_cast<cl_uint>(n));
  std::vector<float> out(n * n);
  size_t global[2] = {n, n}, local[2] = {kTile, kTile};
  auto timings = timeKernel(
      session, options, kernel, 2, global, tiled ? local : nullptr,
      [&] { session.fill(c, kPoison, bytes); },
      [&] {
        session.read(c, out.data(), bytes);
        return problem.verify(out.data());
      });
  return rateRecord(info, sizeText("n", n), timings, problem.flops(), 1e9);
}

const std::vector<ClBench> &clBenchmarks() {
  // Default sizes aim at 50-500 ms per run on a 2-core machine.
  static const std::vector<ClBench> benches = {
      {{"launch_1", "enqueue->finish latency of a 1-work-item kernel (median)", "us", false, 1, 1,
        1, "global size"},
       "count_launch",
       runLaunchLatency},
      {{"launch_1m", "enqueue->finish latency of a 1M-work-item near-empty kernel", "us", false,
        1 << 20, 1 << 20, 1, "global size"},
       "count_launch",
       runLaunchLatency},
      {{"launch_throughput", "back-to-back launches of a 1-work-item kernel, one clFinish",
        "launch/s", true, 1000, 100, 1, "launches"},
       "count_launch",
       runLaunchThroughput},
      {{"build",
        "clBuildProgram + clCreateKernelsInProgram of this suite in a fresh process, "
        "cold and warm cache; and the first launch of every kernel",
        "ms", false, 1, 1, 1, "(whole suite)"},
       "",
       nullptr},
      {{"vector_add", "c = a + b", "GB/s", true, 1 << 25, 1 << 16, 1, "elements"},
       "vector_add",
       runVectorAdd},
      {{"triad", "a = b + s * c", "GB/s", true, 1 << 25, 1 << 16, 1, "elements"},
       "triad",
       runTriad},
      {{"sgemm_naive", "C = A * B, one work-item per element, global memory only", "GFLOP/s", true,
        512, 64, kTile, "matrix order", 16384},
       "sgemm_naive",
       runSgemmNaive},
      {{"sgemm_tiled", "C = A * B, 16x16 __local tiles", "GFLOP/s", true, 768, 64, kTile,
        "matrix order", 16384},
       "sgemm_tiled",
       runSgemmTiled},
      {{"reduce", "sum, grid-strided then a __local tree per group", "GB/s", true, 1 << 24, 1 << 16,
        1, "elements"},
       "reduce_sum",
       runReduce},
      {{"scan", "exclusive scan of 512-element blocks in __local (up/down-sweep)", "GB/s", true,
        1 << 23, 1 << 16, 2 * kGroup1d, "elements"},
       "scan_blocks",
       runScan},
      {{"transpose", "n x n transpose through a 16x17 __local tile", "GB/s", true, 4096, 64, kTile,
        "matrix order", 16384},
       "transpose_tiled",
       runTranspose},
      {{"stencil", "5-point Jacobi sweep, 18x18 __local tile with halo", "GB/s", true, 4096, 64,
        kTile, "grid order", 16384},
       "stencil_5point",
       runStencil},
      {{"nbody", "all-pairs accelerations, 256-body __local tiles", "GFLOP/s", true, 6144, 512,
        kGroup1d, "bodies"},
       "nbody_forces",
       runNbody},
      {{"mandelbrot", "escape counts, max 256 iterations", "Mpixel/s", true, 1024, 64, kTile,
        "width (height = 3/4 width)", 16384},
       "mandelbrot",
       runMandelbrot},
      {{"histogram", "256 bins, __local atomics then global atomics", "GB/s", true, 1 << 24,
        1 << 16, 1, "bytes"},
       "histogram256",
       runHistogram},
      // images.cl; `size` is the image's width and height.
      {{"image_blur", "3x3 box blur, RGBA8 image, read_imagef with a nearest clamp-to-edge sampler",
        "Mpixel/s", true, 2048, 64, 1, "width = height", 16384},
       "image_blur",
       runImageBlur,
       Program::Images},
      {{"buffer_blur", "the same 3x3 blur over uchar4 buffers, clamped indices", "Mpixel/s", true,
        2048, 64, 1, "width = height", 16384},
       "buffer_blur",
       runBufferBlur,
       Program::Images},
      {{"image_resize", "bilinear resize of an RGBA8 image to 3/4 its size, linear sampler",
        "Mpixel/s", true, 2048, 64, 4, "source width = height", 16384},
       "image_resize",
       runImageResize,
       Program::Images},
      {{"image_convert", "RGBA8 image to RGBA float image, samplerless read_imagef", "Mpixel/s",
        true, 2048, 64, 1, "width = height", 16384},
       "image_convert",
       runImageConvert,
       Program::Images},
  };
  // The real-world set (realworld.cl) after the suite, its own program.
  static const std::vector<ClBench> all = [] {
    std::vector<ClBench> list = benches;
    const auto &more = realWorldBenchmarks();
    list.insert(list.end(), more.begin(), more.end());
    return list;
  }();
  return all;
}

}  // namespace bench

#include "NativeBenchmarks.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "Measure.h"
#include "PeakFma.h"
#include "Workloads.h"

namespace bench {
namespace {

constexpr size_t kBlock = 64;  // cache block of the tiled loops (rows/cols)

// Outputs are set to all-ones bytes (NaN, or a count no benchmark produces)
// before each run, so a run that writes nothing cannot pass.
template <class T>
void poison(std::vector<T> &values) {
  std::memset(values.data(), 0xff, values.size() * sizeof(T));
}

std::string sizeText(const char *name, uint64_t value) {
  return std::string(name) + "=" + std::to_string(value);
}

Record runStreamCopy(const BenchInfo &info, uint64_t n, const Options &options) {
  StreamProblem problem(n);
  std::vector<float> out(n);
  const float *a = problem.a.data();
  float *o = out.data();
  auto timings = measureRuns(
      options.reps, [&] { poison(out); },
      [&] {
#pragma omp parallel for simd schedule(static)
        for (size_t i = 0; i < n; ++i) o[i] = a[i];
      },
      [&] { return problem.verifyCopy(o); });
  return rateRecord(info, sizeText("n", n), timings, 2.0 * n * sizeof(float), 1e9);
}

Record runVectorAdd(const BenchInfo &info, uint64_t n, const Options &options) {
  StreamProblem problem(n);
  std::vector<float> out(n);
  const float *a = problem.a.data(), *b = problem.b.data();
  float *c = out.data();
  auto timings = measureRuns(
      options.reps, [&] { poison(out); },
      [&] {
#pragma omp parallel for simd schedule(static)
        for (size_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
      },
      [&] { return problem.verifyAdd(c); });
  return rateRecord(info, sizeText("n", n), timings, 3.0 * n * sizeof(float), 1e9);
}

Record runTriad(const BenchInfo &info, uint64_t n, const Options &options) {
  StreamProblem problem(n);
  std::vector<float> out(n);
  const float *b = problem.b.data(), *c = problem.c.data();
  const float s = problem.scalar;
  float *a = out.data();
  auto timings = measureRuns(
      options.reps, [&] { poison(out); },
      [&] {
#pragma omp parallel for simd schedule(static)
        for (size_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
      },
      [&] { return problem.verifyTriad(a); });
  return rateRecord(info, sizeText("n", n), timings, 3.0 * n * sizeof(float), 1e9);
}

// The OpenCL kernel's algorithm: one dot product per element of C.
void sgemmNaive(const float *a, const float *b, float *c, size_t n) {
#pragma omp parallel for schedule(static)
  for (size_t row = 0; row < n; ++row)
    for (size_t col = 0; col < n; ++col) {
      float sum = 0.0f;
      for (size_t k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
      c[row * n + col] = sum;
    }
}

// Cache-blocked, with the contiguous j loop innermost so it vectorizes: what
// the tiled kernel does with __local, done with the caches.
void sgemmTiled(const float *a, const float *b, float *c, size_t n) {
#pragma omp parallel for schedule(static)
  for (size_t row0 = 0; row0 < n; row0 += kBlock) {
    size_t rows = std::min(kBlock, n - row0);
    std::fill(c + row0 * n, c + (row0 + rows) * n, 0.0f);
    for (size_t k0 = 0; k0 < n; k0 += kBlock)
      for (size_t col0 = 0; col0 < n; col0 += kBlock)
        for (size_t row = row0; row < row0 + rows; ++row)
          for (size_t k = k0; k < std::min(k0 + kBlock, n); ++k) {
            float aik = a[row * n + k];
            const float *b_row = b + k * n;
            float *c_row = c + row * n;
            size_t col_end = std::min(col0 + kBlock, n);
#pragma omp simd
            for (size_t col = col0; col < col_end; ++col) c_row[col] += aik * b_row[col];
          }
  }
}

Record runSgemm(const BenchInfo &info, uint64_t n, const Options &options, bool tiled) {
  static std::unique_ptr<SgemmProblem> shared;  // reference computed once per size
  if (!shared || shared->n != n) shared = std::make_unique<SgemmProblem>(n);
  SgemmProblem &problem = *shared;
  std::vector<float> c(n * n);
  auto timings = measureRuns(
      options.reps, [&] { poison(c); },
      [&] { (tiled ? sgemmTiled : sgemmNaive)(problem.a.data(), problem.b.data(), c.data(), n); },
      [&] { return problem.verify(c.data()); });
  return rateRecord(info, sizeText("n", n), timings, problem.flops(), 1e9);
}

Record runSgemmNaive(const BenchInfo &info, uint64_t n, const Options &options) {
  return runSgemm(info, n, options, false);
}

Record runSgemmTiled(const BenchInfo &info, uint64_t n, const Options &options) {
  return runSgemm(info, n, options, true);
}

Record runReduce(const BenchInfo &info, uint64_t n, const Options &options) {
  ReduceProblem problem(n);
  const float *in = problem.in.data();
  double total = NAN;
  auto timings = measureRuns(
      options.reps, [&] { total = NAN; },
      [&] {
        float sum = 0.0f;
#pragma omp parallel for simd reduction(+ : sum) schedule(static)
        for (size_t i = 0; i < n; ++i) sum += in[i];
        total = sum;
      },
      [&] { return problem.verifyTotal(total); });
  return rateRecord(info, sizeText("n", n), timings, n * sizeof(float), 1e9);
}

// Exclusive scan of 512-element blocks: `scanBlock(in, out)` scans one block
// and returns its total.
constexpr size_t kScanBlock = 512;

template <class ScanBlock>
Record runBlockScan(const BenchInfo &info, uint64_t n, const Options &options, ScanBlock scanBlock) {
  ScanProblem problem(n, kScanBlock);
  std::vector<uint32_t> out(n), sums(n / kScanBlock);
  const uint32_t *in = problem.in.data();
  auto timings = measureRuns(
      options.reps,
      [&] {
        poison(out);
        poison(sums);
      },
      [&] {
#pragma omp parallel for schedule(static)
        for (size_t start = 0; start < n; start += kScanBlock)
          sums[start / kScanBlock] = scanBlock(in + start, out.data() + start);
      },
      [&] { return problem.verify(out.data(), sums.data()); });
  return rateRecord(info, sizeText("n", n), timings, 2.0 * n * sizeof(uint32_t), 1e9);
}

// The plain CPU algorithm: a running sum.
Record runScan(const BenchInfo &info, uint64_t n, const Options &options) {
  return runBlockScan(info, n, options, [](const uint32_t *in, uint32_t *out) {
    uint32_t running = 0;
    for (size_t i = 0; i < kScanBlock; ++i) {
      out[i] = running;
      running += in[i];
    }
    return running;
  });
}

// The OpenCL kernel's own algorithm in C++, for a like-for-like reading of
// scan: each block staged in a local array and scanned by the work-efficient
// tree (an up-sweep of partial sums, then a down-sweep), one level at a time,
// as the kernel's 256 work-items do between barriers.
Record runScanTree(const BenchInfo &info, uint64_t n, const Options &options) {
  return runBlockScan(info, n, options, [](const uint32_t *in, uint32_t *out) {
    constexpr size_t items = kScanBlock / 2;
    uint32_t tree[kScanBlock];
    std::copy(in, in + kScanBlock, tree);
    size_t stride = 1;
    for (size_t active = items; active > 0; active /= 2) {
      for (size_t lid = 0; lid < active; ++lid) {
        size_t left = stride * (2 * lid + 1) - 1;
        tree[left + stride] += tree[left];
      }
      stride *= 2;
    }
    uint32_t total = tree[kScanBlock - 1];
    tree[kScanBlock - 1] = 0;
    for (size_t active = 1; active < kScanBlock; active *= 2) {
      stride /= 2;
      for (size_t lid = 0; lid < active; ++lid) {
        size_t left = stride * (2 * lid + 1) - 1;
        uint32_t carried = tree[left];
        tree[left] = tree[left + stride];
        tree[left + stride] += carried;
      }
    }
    std::copy(tree, tree + kScanBlock, out);
    return total;
  });
}

Record runTranspose(const BenchInfo &info, uint64_t n, const Options &options) {
  TransposeProblem problem(n);
  std::vector<float> out(n * n);
  const float *in = problem.in.data();
  const size_t tile = 32;
  auto timings = measureRuns(
      options.reps, [&] { poison(out); },
      [&] {
#pragma omp parallel for collapse(2) schedule(static)
        for (size_t row0 = 0; row0 < n; row0 += tile)
          for (size_t col0 = 0; col0 < n; col0 += tile)
            for (size_t row = row0; row < std::min(row0 + tile, size_t{n}); ++row)
              for (size_t col = col0; col < std::min(col0 + tile, size_t{n}); ++col)
                out[col * n + row] = in[row * n + col];
      },
      [&] { return problem.verify(out.data()); });
  return rateRecord(info, sizeText("n", n), timings, 2.0 * n * n * sizeof(float), 1e9);
}

Record runStencil(const BenchInfo &info, uint64_t n, const Options &options) {
  StencilProblem problem(n);
  std::vector<float> out(n * n);
  const float *in = problem.in.data();
  float *o = out.data();
  auto timings = measureRuns(
      options.reps, [&] { poison(out); },
      [&] {
#pragma omp parallel for schedule(static)
        for (size_t y = 0; y < n; ++y) {
          const float *row = in + y * n;
          float *out_row = o + y * n;
          if (y == 0 || y == n - 1) {
            std::copy(row, row + n, out_row);
            continue;
          }
          out_row[0] = row[0];
          out_row[n - 1] = row[n - 1];
#pragma omp simd
          for (size_t x = 1; x < n - 1; ++x)
            out_row[x] = 0.2f * (row[x] + row[x - n] + row[x + n] + row[x - 1] + row[x + 1]);
        }
      },
      [&] { return problem.verify(o); });
  return rateRecord(info, sizeText("n", n), timings, 2.0 * n * n * sizeof(float), 1e9);
}

// The OpenCL kernel's own algorithm in C++: each 16 x 16 block of the grid
// stages its 18 x 18 neighbourhood (clamped at the grid's edge) in a local
// tile, then computes its cells from the tile, as a work-group does with its
// __local halo.
Record runStencilTile(const BenchInfo &info, uint64_t n, const Options &options) {
  constexpr int tileSize = 16, halo = tileSize + 2;
  StencilProblem problem(n);
  std::vector<float> out(n * n);
  const float *in = problem.in.data();
  float *o = out.data();
  const int last = static_cast<int>(n) - 1;
  const size_t tiles = n / tileSize;  // n is a multiple of the tile (size_multiple)
  auto timings = measureRuns(
      options.reps, [&] { poison(out); },
      [&] {
#pragma omp parallel for collapse(2) schedule(static)
        for (size_t ty = 0; ty < tiles; ++ty)
          for (size_t tx = 0; tx < tiles; ++tx) {
            float tile[halo][halo];
            int originX = static_cast<int>(tx) * tileSize - 1, originY = static_cast<int>(ty) * tileSize - 1;
            for (int row = 0; row < halo; ++row) {
              size_t sy = std::clamp(originY + row, 0, last);
              for (int col = 0; col < halo; ++col) tile[row][col] = in[sy * n + std::clamp(originX + col, 0, last)];
            }
            for (int ly = 0; ly < tileSize; ++ly)
              for (int lx = 0; lx < tileSize; ++lx) {
                size_t x = tx * tileSize + lx, y = ty * tileSize + ly;
                float centre = tile[ly + 1][lx + 1], value = centre;
                if (x > 0 && y > 0 && x < n - 1 && y < n - 1)
                  value = 0.2f * (centre + tile[ly][lx + 1] + tile[ly + 2][lx + 1] + tile[ly + 1][lx] +
                                  tile[ly + 1][lx + 2]);
                o[y * n + x] = value;
              }
          }
      },
      [&] { return problem.verify(o); });
  return rateRecord(info, sizeText("n", n), timings, 2.0 * n * n * sizeof(float), 1e9);
}

Record runNbody(const BenchInfo &info, uint64_t n, const Options &options) {
  NbodyProblem problem(n);
  std::vector<float> acc(n * 4);
  // Structure of arrays, so the inner loop's loads are contiguous vectors.
  std::vector<float> xs(n), ys(n), zs(n), ms(n);
  const float softening2 = problem.softening2;
  auto timings = measureRuns(
      options.reps, [&] { poison(acc); },
      [&] {
        const float *pos = problem.pos.data();
        for (size_t j = 0; j < n; ++j)
          xs[j] = pos[4 * j], ys[j] = pos[4 * j + 1], zs[j] = pos[4 * j + 2],
          ms[j] = pos[4 * j + 3];
        const float *x = xs.data(), *y = ys.data(), *z = zs.data(), *m = ms.data();
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; ++i) {
          float ax = 0, ay = 0, az = 0;
          const float px = x[i], py = y[i], pz = z[i];
#pragma omp simd reduction(+ : ax, ay, az)
          for (size_t j = 0; j < n; ++j) {
            float dx = x[j] - px, dy = y[j] - py, dz = z[j] - pz;
            float inv_r = 1.0f / std::sqrt(dx * dx + dy * dy + dz * dz + softening2);
            float s = m[j] * inv_r * inv_r * inv_r;
            ax += s * dx;
            ay += s * dy;
            az += s * dz;
          }
          acc[4 * i] = ax;
          acc[4 * i + 1] = ay;
          acc[4 * i + 2] = az;
          acc[4 * i + 3] = 0;
        }
      },
      [&] { return problem.verify(acc.data()); });
  return rateRecord(info, sizeText("bodies", n), timings, problem.flops(), 1e9);
}

// Sixteen pixels of a row at a time, in lockstep: a lane that escaped stops
// changing (so its count is the scalar loop's), and the block ends when every
// lane has escaped. This is how one vectorizes a divergent loop by hand.
void mandelbrotBlock(const MandelbrotProblem &p, uint32_t px0, uint32_t py, uint32_t *out) {
  constexpr int kLanes = 16;
  float cr[kLanes], zr[kLanes] = {}, zi[kLanes] = {};
  uint32_t count[kLanes] = {};
  const float ci = p.y0 + py * p.dy;
  for (int l = 0; l < kLanes; ++l) cr[l] = p.x0 + (px0 + l) * p.dx;
  for (uint32_t k = 0; k < p.max_iter; ++k) {
    int inside_lanes = 0;
#pragma omp simd reduction(+ : inside_lanes)
    for (int l = 0; l < kLanes; ++l) {
      bool inside = zr[l] * zr[l] + zi[l] * zi[l] <= 4.0f;
      float t = zr[l] * zr[l] - zi[l] * zi[l] + cr[l];
      float next_zi = 2.0f * zr[l] * zi[l] + ci;
      zr[l] = inside ? t : zr[l];
      zi[l] = inside ? next_zi : zi[l];
      count[l] += inside;
      inside_lanes += inside;
    }
    if (inside_lanes == 0) break;
  }
  for (int l = 0; l < kLanes && px0 + l < p.width; ++l) out[px0 + l] = count[l];
}

Record runMandelbrot(const BenchInfo &info, uint64_t width, const Options &options) {
  MandelbrotProblem p(width);
  std::vector<uint32_t> iters(size_t{p.width} * p.height);
  auto timings = measureRuns(
      options.reps, [&] { poison(iters); },
      [&] {
  // Rows differ wildly in cost (the set is in the middle): dynamic.
#pragma omp parallel for schedule(dynamic, 4)
        for (uint32_t py = 0; py < p.height; ++py)
          for (uint32_t px0 = 0; px0 < p.width; px0 += 16)
            mandelbrotBlock(p, px0, py, &iters[size_t{py} * p.width]);
      },
      [&] { return p.verify(iters.data()); });
  return rateRecord(info, sizeText("width", width) + " height=" + std::to_string(p.height), timings,
                    static_cast<double>(iters.size()), 1e6);
}

Record runHistogram(const BenchInfo &info, uint64_t n, const Options &options) {
  HistogramProblem problem(n);
  std::vector<uint32_t> bins(256);
  const uint8_t *data = problem.data.data();
  auto timings = measureRuns(
      options.reps, [&] { std::fill(bins.begin(), bins.end(), 0); },
      [&] {
  // A private histogram per thread, merged once: the CPU form of the
  // kernel's __local histogram.
#pragma omp parallel
        {
          uint32_t local[256] = {};
#pragma omp for schedule(static)
          for (size_t i = 0; i < n; ++i) ++local[data[i]];
          for (int b = 0; b < 256; ++b)
            if (local[b]) {
#pragma omp atomic
              bins[b] += local[b];
            }
        }
      },
      [&] { return problem.verify(bins.data()); });
  return rateRecord(info, sizeText("bytes", n), timings, static_cast<double>(n), 1e9);
}

// The image benchmarks' computations on RGBA8 pixels in plain arrays (a CPU
// program has no images): square n x n images, rows tightly packed.

// 3x3 box blur, edges repeated: the three rows' pointers clamped once per
// row, the interior a contiguous loop over the row's bytes (channels stay
// apart: the neighbours of byte i are i - 4 and i + 4) that the compiler
// widens, the two edge pixels with clamped columns. sum / 9 rounds to
// nearest as (sum + 4) / 9, since it is never k + 0.5.
void blurRows(const uint8_t *in, uint8_t *out, size_t width, size_t height) {
  const size_t stride = width * 4;
#pragma omp parallel for schedule(static)
  for (size_t y = 0; y < height; ++y) {
    const uint8_t *up = in + (y == 0 ? 0 : y - 1) * stride;
    const uint8_t *mid = in + y * stride;
    const uint8_t *down = in + (y + 1 == height ? y : y + 1) * stride;
    uint8_t *row = out + y * stride;
    auto edge = [&](size_t x) {
      size_t left = x == 0 ? 0 : x - 1, right = x + 1 == width ? x : x + 1;
      for (size_t c = 0; c < 4; ++c) {
        unsigned sum = 0;
        for (const uint8_t *r : {up, mid, down})
          sum += r[left * 4 + c] + r[x * 4 + c] + r[right * 4 + c];
        row[x * 4 + c] = static_cast<uint8_t>((sum + 4) / 9);
      }
    };
    edge(0);
    if (width > 1) edge(width - 1);
    const size_t end = stride - 4;  // the last pixel's first byte
#pragma omp simd
    for (size_t i = 4; i < end; ++i) {
      uint16_t sum = up[i - 4] + up[i] + up[i + 4] + mid[i - 4] + mid[i] + mid[i + 4] +
                     down[i - 4] + down[i] + down[i + 4];
      row[i] = static_cast<uint8_t>((sum + 4) / 9);
    }
  }
}

// image_blur and buffer_blur run this same loop: the native reference of both.
Record runBlur(const BenchInfo &info, uint64_t n, const Options &options) {
  BlurProblem problem(n, n);
  std::vector<uint8_t> out(problem.in.size());
  auto timings = measureRuns(
      options.reps, [&] { out = problem.poison(); },
      [&] { blurRows(problem.in.data(), out.data(), n, n); },
      [&] { return problem.verify(out.data(), kExactRounding); });
  return rateRecord(info, sizeText("width", n) + " height=" + std::to_string(n), timings,
                    double(n) * n, 1e6);
}

// Bilinear resize by the spec's formula in float: each output column's two
// source texels and weight computed once (per byte, so channels stay apart);
// per output row, its two source rows blended along y into a float row (a
// contiguous loop), then that row blended along x (a loop of gathers). Both
// loops widen.
Record runImageResize(const BenchInfo &info, uint64_t n, const Options &options) {
  const uint32_t m = n * 3 / 4;
  ResizeProblem problem(n, n, m, m);
  std::vector<uint8_t> out(size_t{m} * m * 4);
  const size_t in_row = size_t{n} * 4, out_row = size_t{m} * 4;
  std::vector<uint32_t> first(out_row), second(out_row);  // source bytes of each output byte
  std::vector<float> weight(out_row);                     // of the second
  const float scale = float(n) / float(m);
  auto tap = [&](uint32_t x, uint32_t &i0, uint32_t &i1, float &a) {
    float u = (x + 0.5f) * scale - 0.5f, floor_u = std::floor(u);
    int i = static_cast<int>(floor_u);
    i0 = std::clamp(i, 0, int(n) - 1);
    i1 = std::clamp(i + 1, 0, int(n) - 1);
    a = u - floor_u;
  };
  auto timings = measureRuns(
      options.reps, [&] { out = problem.poison(); },
      [&] {
        for (uint32_t x = 0; x < m; ++x) {
          uint32_t i0, i1;
          float a;
          tap(x, i0, i1, a);
          for (uint32_t c = 0; c < 4; ++c)
            first[x * 4 + c] = i0 * 4 + c, second[x * 4 + c] = i1 * 4 + c, weight[x * 4 + c] = a;
        }
        const uint32_t *i0 = first.data(), *i1 = second.data();
        const float *a = weight.data();
#pragma omp parallel
        {
          std::vector<float> blended(in_row);
          float *column = blended.data();
#pragma omp for schedule(static)
          for (uint32_t y = 0; y < m; ++y) {
            uint32_t j0, j1;
            float b;
            tap(y, j0, j1, b);
            const uint8_t *top = problem.in.data() + j0 * in_row;
            const uint8_t *bottom = problem.in.data() + j1 * in_row;
#pragma omp simd
            for (size_t i = 0; i < in_row; ++i)
              column[i] = top[i] + b * (float(bottom[i]) - float(top[i]));
            uint8_t *row = out.data() + y * out_row;
#pragma omp simd
            for (size_t i = 0; i < out_row; ++i) {
              float left = column[i0[i]], right = column[i1[i]];
              row[i] = static_cast<uint8_t>(left + a[i] * (right - left) + 0.5f);
            }
          }
        }
      },
      [&] { return problem.verify(out.data()); });
  return rateRecord(info,
                    sizeText("width", n) + " height=" + std::to_string(n) +
                        " to width=" + std::to_string(m) + " height=" + std::to_string(m),
                    timings, double(m) * m, 1e6);
}

Record runImageConvert(const BenchInfo &info, uint64_t n, const Options &options) {
  ConvertProblem problem(n, n);
  const size_t count = problem.in.size();
  std::vector<float> out(count);
  const uint8_t *in = problem.in.data();
  float *o = out.data();
  auto timings = measureRuns(
      options.reps, [&] { poison(out); },
      [&] {
#pragma omp parallel for simd schedule(static)
        for (size_t i = 0; i < count; ++i) o[i] = in[i] / 255.0f;
      },
      [&] { return problem.verify(o); });
  return rateRecord(info, sizeText("width", n) + " height=" + std::to_string(n), timings,
                    double(n) * n, 1e6);
}

}  // namespace

const std::vector<NativeBench> &nativeBenchmarks() {
  // Names match the OpenCL suite's, so the table lines them up; stream_copy
  // and peak_fma exist only here, and scan_tree and stencil_tile run the
  // algorithm of the OpenCL kernels where the reference above uses the plain
  // CPU one (bench/run reads them against the OpenCL scan and stencil).
  static const std::vector<NativeBench> benches = {
      {{"stream_copy", "STREAM copy: b = a", "GB/s", true, 1 << 25, 1 << 16, 1, "elements"},
       runStreamCopy},
      {{"vector_add", "c = a + b (STREAM add)", "GB/s", true, 1 << 25, 1 << 16, 1, "elements"},
       runVectorAdd},
      {{"triad", "a = b + s * c (STREAM triad)", "GB/s", true, 1 << 25, 1 << 16, 1, "elements"},
       runTriad},
      {{"peak_fma", "independent FMA chains in every lane of every core, chunks taken as done",
        "GFLOP/s", true, 4000000, 1000, 1, "iterations"},
       runPeakFma},
      {{"sgemm_naive", "C = A * B, one dot product per element", "GFLOP/s", true, 512, 64, 16,
        "matrix order", 16384},
       runSgemmNaive},
      {{"sgemm_tiled", "C = A * B, 64x64 cache blocks", "GFLOP/s", true, 768, 64, 16,
        "matrix order", 16384},
       runSgemmTiled},
      {{"reduce", "sum, OpenMP simd reduction", "GB/s", true, 1 << 24, 1 << 16, 1, "elements"},
       runReduce},
      {{"scan", "exclusive scan of 512-element blocks", "GB/s", true, 1 << 23, 1 << 16, 512,
        "elements"},
       runScan},
      {{"scan_tree", "scan's OpenCL algorithm: up- and down-sweep tree per 512-element block",
        "GB/s", true, 1 << 23, 1 << 16, 512, "elements"},
       runScanTree},
      {{"transpose", "n x n transpose in 32x32 blocks", "GB/s", true, 4096, 64, 16, "matrix order",
        16384},
       runTranspose},
      {{"stencil", "5-point Jacobi sweep", "GB/s", true, 4096, 64, 16, "grid order", 16384},
       runStencil},
      {{"stencil_tile", "stencil's OpenCL algorithm: 18 x 18 halo staged per 16 x 16 tile", "GB/s",
        true, 4096, 64, 16, "grid order", 16384},
       runStencilTile},
      {{"nbody", "all-pairs accelerations", "GFLOP/s", true, 6144, 512, 256, "bodies"}, runNbody},
      {{"mandelbrot", "escape counts, max 256 iterations", "Mpixel/s", true, 1024, 64, 16,
        "width (height = 3/4 width)", 16384},
       runMandelbrot},
      {{"histogram", "256 bins, per-thread histograms merged", "GB/s", true, 1 << 24, 1 << 16, 1,
        "bytes"},
       runHistogram},
      {{"image_blur", "3x3 box blur of RGBA8 pixels, clamped rows, vectorized row loop", "Mpixel/s",
        true, 2048, 64, 1, "width = height", 16384},
       runBlur},
      {{"buffer_blur", "the same loop as image_blur (its OpenCL kernel reads buffers)", "Mpixel/s",
        true, 2048, 64, 1, "width = height", 16384},
       runBlur},
      {{"image_resize", "bilinear resize of RGBA8 pixels to 3/4 the size, spec's formula in float",
        "Mpixel/s", true, 2048, 64, 4, "source width = height", 16384},
       runImageResize},
      {{"image_convert", "RGBA8 to RGBA float, c / 255", "Mpixel/s", true, 2048, 64, 1,
        "width = height", 16384},
       runImageConvert},
  };
  static const std::vector<NativeBench> all = [] {
    std::vector<NativeBench> list = benches;
    const auto &more = strongNativeBenchmarks();
    list.insert(list.end(), more.begin(), more.end());
    return list;
  }();
  return all;
}

}  // namespace bench

// The problems both benchmark programs solve: deterministic inputs, a plain
// serial host reference, and the check of an output against it. The OpenCL
// benchmark and the native OpenMP reference verify through the same code, so
// "PASS" means the same thing for every platform.
//
// Tolerances for floating-point results are rigorous error bounds of the
// summation (n terms in any order: |error| <= n * 2^-24 * sum|terms|, with a
// small factor for the builtins' ulp allowance), never a guess: a correct
// platform cannot FAIL, and a dropped tile or a missed barrier is far outside.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "Measure.h"

namespace bench {

std::vector<float> randomFloats(size_t n, uint64_t seed, float lo, float hi);

// c = a + b and a = b + s * c (STREAM's add and triad), and copy.
struct StreamProblem {
  explicit StreamProblem(size_t n);
  size_t n;
  float scalar = 3.0f;
  std::vector<float> a, b, c;
  Verdict verifyCopy(const float *out) const;   // out == a
  Verdict verifyAdd(const float *out) const;    // out == a + b
  Verdict verifyTriad(const float *out) const;  // out == b + scalar * c
};

// C = A * B, row-major n x n.
struct SgemmProblem {
  explicit SgemmProblem(uint32_t n);
  uint32_t n;
  std::vector<float> a, b;
  Verdict verify(const float *c) const;
  double flops() const { return 2.0 * n * n * n; }

 private:
  void computeReference() const;
  mutable std::vector<double> ref_;
  mutable std::vector<float> abs_;  // sum_k |a_ik * b_kj|: the error scale
};

// Sum of n floats. The OpenCL kernel leaves one partial sum per work-group,
// each work-item first adding the elements i, i + G, i + 2G, ... (G = groups *
// local); the native code reports only the total.
struct ReduceProblem {
  explicit ReduceProblem(size_t n);
  size_t n;
  std::vector<float> in;
  Verdict verifyPartials(const float *partials, size_t groups, size_t local) const;
  Verdict verifyTotal(double total) const;
};

// Exclusive prefix sum of each block of `block` uints, and each block's total.
struct ScanProblem {
  ScanProblem(size_t n, size_t block);
  size_t n, block;
  std::vector<uint32_t> in;
  Verdict verify(const uint32_t *out, const uint32_t *block_sums) const;
};

// out = in^T, n x n floats.
struct TransposeProblem {
  explicit TransposeProblem(uint32_t n);
  uint32_t n;
  std::vector<float> in;
  Verdict verify(const float *out) const;
};

// One Jacobi sweep of the 5-point average on an n x n grid; the border is copied.
struct StencilProblem {
  explicit StencilProblem(uint32_t n);
  uint32_t n;
  std::vector<float> in;
  Verdict verify(const float *out) const;
};

// Gravitational accelerations of n bodies (x, y, z, mass as float4), all pairs,
// softened: a_i = sum_j m_j d_ij / (|d_ij|^2 + eps^2)^(3/2). 20 flops per pair
// by the usual convention.
struct NbodyProblem {
  explicit NbodyProblem(uint32_t n);
  uint32_t n;
  float softening2 = 1e-3f;
  std::vector<float> pos;  // 4 floats per body
  // acc holds 4 floats per body (w unused). Large n checks a strided sample of
  // bodies: an all-pairs reference costs as much as the benchmark itself.
  Verdict verify(const float *acc) const;
  double flops() const { return 20.0 * n * n; }
};

// Escape iteration counts of the Mandelbrot set on a width x height grid.
struct MandelbrotProblem {
  explicit MandelbrotProblem(uint32_t width);
  uint32_t width, height, max_iter = 256;
  float x0 = -2.1f, y0 = -1.2f, dx, dy;
  // Points near the set's boundary are chaotic: one rounding difference (an
  // FMA contraction, say) changes their count. Up to 1% of pixels may differ;
  // a wrong row, column or formula changes far more.
  Verdict verify(const uint32_t *iters) const;

 private:
  uint32_t escape(uint32_t px, uint32_t py) const;
};

// 256-bin histogram of n bytes (skewed, so some bins are hot).
struct HistogramProblem {
  explicit HistogramProblem(size_t n);
  size_t n;
  std::vector<uint8_t> data;
  Verdict verify(const uint32_t *bins) const;

 private:
  std::vector<uint32_t> ref_;
};

// The image benchmarks' problems. Pixels are RGBA, 8 bits a channel (an RGBA
// UNORM_INT8 image, or uchar4), rows tightly packed. A channel's exact result
// is a real number of code steps (0..255); an output passes when it is within
// `tolerance` code steps of it: 0.5 is exact rounding to nearest, 0.6 the
// OpenCL spec's allowance for converting a float to UNORM_INT8 (write_imagef).
constexpr double kExactRounding = 0.5;
constexpr double kUnorm8WriteTolerance = 0.6;

std::vector<uint8_t> randomBytes(size_t n, uint64_t seed);

// 3x3 box blur, the image's edge repeated (clamp to edge).
struct BlurProblem {
  BlurProblem(uint32_t width, uint32_t height);
  uint32_t width, height;
  std::vector<uint8_t> in;  // 4 channels per pixel
  // Wrong in every channel of every pixel: what outputs are set to before a run.
  std::vector<uint8_t> poison() const;
  Verdict verify(const uint8_t *out, double tolerance) const;

 private:
  std::vector<uint16_t> sums_;  // each output channel's 9 texels, summed
};

// Bilinear resize of a width x height image to out_width x out_height, each
// output pixel sampled at its centre, by the OpenCL spec's linear filter with
// clamp to edge: u = (x + 0.5) * width / out_width - 0.5, i0 = floor(u),
// a = u - i0, texels i0 and i0 + 1 clamped to the image (same along y).
struct ResizeProblem {
  ResizeProblem(uint32_t width, uint32_t height, uint32_t out_width, uint32_t out_height);
  uint32_t width, height, out_width, out_height;
  std::vector<uint8_t> in;
  std::vector<uint8_t> poison() const;
  // Within one code step of the exact value: the spec leaves the filter's
  // precision to the implementation (weights may be fixed point).
  Verdict verify(const uint8_t *out) const;

  // One output column's (or row's) two source texels and the weight of the second.
  struct Tap {
    uint32_t i0, i1;
    double a;
  };
  static Tap tap(uint32_t x, uint32_t in_size, uint32_t out_size);
};

// RGBA UNORM_INT8 to RGBA float: c / 255, within the spec's 1.5 ulp of
// read_imagef (0 and 255 exactly 0 and 1).
struct ConvertProblem {
  ConvertProblem(uint32_t width, uint32_t height);
  uint32_t width, height;
  std::vector<uint8_t> in;
  Verdict verify(const float *out) const;
};

}  // namespace bench

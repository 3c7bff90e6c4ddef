// The problems of the real-world kernel set (opencl/realworld.cl) that the
// main suite has no counterpart for: a 7-point 3D stencil and an int4
// arithmetic kernel, a matrix-vector product, tile sums, a Sobel filter
// over RGBA pixels, stream compaction, a byte table lookup, k-means'
// assignment step, a dynamic-programming sweep (pathfinder) and a 3 x 3
// image convolution.
// Deterministic inputs, a serial host reference and the check of an output
// against it, shared by the OpenCL and native programs
// like Workloads.h (the real-world SGEMM, transpose, 2D stencil, histogram
// and SAXPY reuse the problems there).
#pragma once

#include <cstdint>
#include <vector>

#include "Measure.h"

namespace bench {

// One Jacobi sweep of out = 0.4 c + 0.1 (x-1 + x+1 + y-1 + y+1 + z-1 + z+1)
// on an n x n x n grid (x fastest); the border is copied.
struct Stencil3dProblem {
  explicit Stencil3dProblem(uint32_t n);
  uint32_t n;
  float centre = 0.4f, neighbour = 0.1f;
  std::vector<float> in;
  Verdict verify(const float *out) const;
};

// Parboil's stencil on an n x n x nz grid (nz = 64): the interior cells of
// planes 1 to nz - 2 become (the six neighbours' sum) * c1 - centre * c0;
// the rest is left as it was. Entries in [0, 1).
struct ZMarchProblem {
  explicit ZMarchProblem(uint32_t n);
  static constexpr uint32_t kPlanes = 64;
  uint32_t n;
  float c0 = 1.0f / 6, c1 = 1.0f / 6 / 6;
  std::vector<float> in;
  size_t cells() const { return size_t{n} * n * kPlanes; }
  // The interior cells of planes 1 to nz - 2: the output written.
  size_t updated() const { return size_t{n - 2} * (n - 2) * (kPlanes - 2); }
  Verdict verify(const float *out) const;
};

// out = (a * 3 + b) ^ (a >> 3) on ints (arithmetic shift), elementwise. The
// inputs lie in [-2^15, 2^15), so nothing overflows.
struct IntMixProblem {
  explicit IntMixProblem(size_t n);
  size_t n;
  std::vector<int32_t> a, b;
  Verdict verify(const int32_t *out) const;
  static int32_t mix(int32_t a, int32_t b) { return (a * 3 + b) ^ (a >> 3); }
};

// y = A x for an n x n row-major A: one dot product of n terms per row.
// Entries in [0, 1), so every term is non-negative and any order of the adds
// stays within n roundings of the sum.
struct GemvProblem {
  explicit GemvProblem(uint32_t n);
  uint32_t n;
  std::vector<float> a, x;
  Verdict verify(const float *y) const;
};

// A 1-D convolution: out[i] = sum over k < taps of in[i + k] * w[k] for i < n
// (in has n + taps - 1 entries). Entries in [0, 1): any order of the adds
// stays within `taps` roundings of the sum.
struct Conv1dProblem {
  explicit Conv1dProblem(size_t n);
  static constexpr int kTaps = 17;
  size_t n;
  std::vector<float> in, w;
  Verdict verify(const float *out) const;
};

// A 3 x 3 convolution of an n x n image held with a border of one pixel
// ((n + 2) x (n + 2), row-major), the mask's taps in [-1, 1); the output
// n x n. Inputs in [0, 1).
struct Conv2dProblem {
  explicit Conv2dProblem(uint32_t n);
  static constexpr uint32_t kMask = 3;
  uint32_t n;
  std::vector<float> in, mask;
  Verdict verify(const float *out) const;
};

// The sums of the 16 x 16 tiles of an n x n grid (n a multiple of 16), one
// per tile, row-major by tile. Entries in [0, 1): any order of a tile's 256
// adds stays within 256 roundings of its sum.
struct TileSumProblem {
  explicit TileSumProblem(uint32_t n);
  static constexpr uint32_t kTile = 16;
  uint32_t n;
  std::vector<float> in;
  Verdict verify(const float *sums) const;
};

// Sobel gradient magnitude of an n x n image of RGBA pixels (4 bytes, R
// first): grey = 0.299 R + 0.587 G + 0.114 B, the 3 x 3 Sobel pair,
// magnitude saturated to 0..255 (truncated) into R, G and B, alpha 255; the
// border pixels (0, 0, 0, 255). The check allows 1 either way for the
// rounding of the grey values' sums.
struct SobelProblem {
  explicit SobelProblem(uint32_t n);
  uint32_t n;
  std::vector<uint32_t> in;  // RGBA, R in the low byte
  static float grey(uint32_t pixel) {
    return 0.299f * float(pixel & 0xff) + 0.587f * float((pixel >> 8) & 0xff) + 0.114f * float((pixel >> 16) & 0xff);
  }
  Verdict verify(const uint32_t *out) const;
};

// Stream compaction: the values of `in` above `threshold`, in any order
// (a kernel appends through an atomic counter), their count the host's.
// Values in [0, 1), threshold 0.5: about half are kept, at random.
struct CompactProblem {
  explicit CompactProblem(size_t n);
  size_t n;
  float threshold = 0.5f;
  std::vector<float> in;
  size_t kept() const { return sorted_.size(); }
  // out's first `count` values against the kept ones, as multisets.
  Verdict verify(const float *out, size_t count) const;

 private:
  std::vector<float> sorted_;  // the kept values, ascending
};

// out[i] = lut[in[i]] over bytes: a 256-entry table (a gamma or contrast
// map), random pixels.
struct LutProblem {
  explicit LutProblem(size_t n);
  size_t n;
  std::vector<uint8_t> in, lut;
  Verdict verify(const uint8_t *out) const;
};

// k-means' assignment step: each of n points of `dim` coordinates (row-major)
// labelled with its nearest of k centroids (squared Euclidean distance).
// Random coordinates in [0, 1); a label is right when its centroid's
// distance is the smallest within rounding (the kernel may contract and
// round differently from the host's double reference).
struct KmeansProblem {
  explicit KmeansProblem(size_t n);
  size_t n;
  int k = 16, dim = 4;
  std::vector<float> points, centroids;
  Verdict verify(const int32_t *labels) const;
  // Floating-point operations: a subtract and a multiply-add per coordinate
  // per centroid.
  double flops() const { return 3.0 * double(n) * k * dim; }
};

// Rodinia's pathfinder, one launch of it: from a row of `cols` costs, `rows`
// rows of walls, each cell the least of the three above it (the edges the
// two there) plus its wall. Random walls of 0 to 9; exact.
struct PathfinderProblem {
  explicit PathfinderProblem(size_t cols);
  size_t cols;
  int rows = 20;
  std::vector<int32_t> src, wall;  // wall: rows x cols
  Verdict verify(const int32_t *out) const;
  double cells() const { return double(cols) * rows; }
};

}  // namespace bench

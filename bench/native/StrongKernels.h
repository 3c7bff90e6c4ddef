// The strong native references of the real-world set besides SGEMM (see
// StrongKernels.cpp): what a C++ programmer writes for each problem on a CPU,
// without a library. All run across the OpenMP threads.
#pragma once

#include <cstddef>
#include <cstdint>

namespace bench {

// out = in^T, n x n: cache-sized blocks of 8 x 8 in-register transposes.
void strongTranspose(const float *in, float *out, size_t n);

// One 5-point Jacobi sweep (border copied), n x n, along the rows.
void strongStencil(const float *in, float *out, size_t n);

// One 7-point sweep out = c0 * c + c1 * (sum of the 6 neighbours), n^3 cells.
void strongStencil3d(const float *in, float *out, size_t n, float c0, float c1);

// 256-bin histogram: private bins per thread, merged at the end.
void strongHistogram(const uint8_t *data, size_t n, uint32_t *bins);

// out = a * x + y.
void strongSaxpy(const float *x, const float *y, float *out, size_t n, float a);

// out = (a * 3 + b) ^ (a >> 3).
void strongIntMix(const int32_t *a, const int32_t *b, int32_t *out, size_t n);

// y = A x, row-major A: a vectorized dot product per row, rows spread.
void strongGemv(const float *a, const float *x, float *y, size_t n);
// out[i] = sum over k < taps of in[i + k] * w[k]: the outputs a simd vector
// at a time, each tap a broadcast multiply-add.
void strongConv1d(const float *in, const float *w, float *out, size_t n, int taps);
// out (n x n) = the 3 x 3 convolution of in ((n + 2) x (n + 2)) by mask.
void strongConv2d(const float *in, const float *mask, float *out, size_t n);

// The sums of the 16 x 16 tiles of an n x n grid: each band of 16 rows summed
// column-wise into a row of 16-column partial sums (vector adds along the
// row), then 16 adds per tile.
void strongTileSums(const float *in, float *sums, size_t n);

// Sobel magnitude of RGBA pixels (SobelProblem): a row of grey values at a
// time, the 3 x 3 pair along the rows.
void strongSobel(const uint32_t *in, uint32_t *out, size_t n);

// Stream compaction of the values above `threshold`, in order: each
// thread counts its slice's (a simd reduction), the counts' prefix sums
// place the slices, and each thread copies its kept values without a branch.
// Returns the count.
size_t strongCompact(const float *in, float *out, size_t n, float threshold);

// out[i] = lut[in[i]] over bytes.
void strongLut(const uint8_t *in, uint8_t *out, size_t n, const uint8_t *lut);

// k-means' assignment step (KmeansProblem): blocks of 16 points, each
// centroid's distances for a block summed across the block's points in a
// simd loop, the nearest kept per point.
void strongKmeans(const float *points, const float *centroids, int32_t *labels, size_t n, int k, int dim);

// Rodinia's pathfinder rows (PathfinderProblem): blocks of 4096 columns per
// thread with a halo as wide as the rows, each row a simd loop over the block
// held in two small buffers.
void strongPathfinder(const int32_t *src, const int32_t *wall, int32_t *out, size_t cols, int rows);

// Parboil's stencil (ZMarchProblem): the interior of planes 1 to nz - 2,
// each thread a range of (plane, row) pairs, a simd loop along each row.
void strongZmarch(const float *in, float *out, size_t n, size_t nz, float c0, float c1);

}  // namespace bench

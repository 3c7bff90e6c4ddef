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

}  // namespace bench

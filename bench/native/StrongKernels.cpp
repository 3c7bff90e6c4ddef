// Strong native references for the real-world set (the SGEMM is in
// StrongGemm.cpp): the transpose in blocks that fit L1, each an array of
// 8 x 8 transposes done in AVX registers (unpack, shuffle, permute: 24
// instructions for 64 floats; a scalar fallback without AVX); the stencils
// as sweeps along contiguous rows that the compiler vectorizes; the
// histogram with private bins per thread (four interleaved copies, so that
// runs of equal bytes do not serialize on one counter's store and reload),
// merged once at the end; SAXPY and the integer kernel as plain simd loops;
// the matrix-vector product as a simd dot product along each row; the 1-D
// convolution 64 outputs at a time in registers.
#include "StrongKernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <omp.h>
#include <vector>

#if defined(__AVX__)
#include <immintrin.h>
#endif

namespace bench {
namespace {

constexpr size_t kTransposeBlock = 64;  // 64 x 64 floats in and out: 32 KiB

// The 8 x 8 block at in[0][0] (row stride n) to out[0][0] (row stride n), transposed.
inline void transpose8x8(const float *in, float *out, size_t n) {
#if defined(__AVX__)
  __m256 r0 = _mm256_loadu_ps(in + 0 * n), r1 = _mm256_loadu_ps(in + 1 * n);
  __m256 r2 = _mm256_loadu_ps(in + 2 * n), r3 = _mm256_loadu_ps(in + 3 * n);
  __m256 r4 = _mm256_loadu_ps(in + 4 * n), r5 = _mm256_loadu_ps(in + 5 * n);
  __m256 r6 = _mm256_loadu_ps(in + 6 * n), r7 = _mm256_loadu_ps(in + 7 * n);
  __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
  __m256 t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
  __m256 t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5);
  __m256 t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
  __m256 s0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
  __m256 s1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
  __m256 s2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
  __m256 s3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
  __m256 s4 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0));
  __m256 s5 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2));
  __m256 s6 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0));
  __m256 s7 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2));
  _mm256_storeu_ps(out + 0 * n, _mm256_permute2f128_ps(s0, s4, 0x20));
  _mm256_storeu_ps(out + 1 * n, _mm256_permute2f128_ps(s1, s5, 0x20));
  _mm256_storeu_ps(out + 2 * n, _mm256_permute2f128_ps(s2, s6, 0x20));
  _mm256_storeu_ps(out + 3 * n, _mm256_permute2f128_ps(s3, s7, 0x20));
  _mm256_storeu_ps(out + 4 * n, _mm256_permute2f128_ps(s0, s4, 0x31));
  _mm256_storeu_ps(out + 5 * n, _mm256_permute2f128_ps(s1, s5, 0x31));
  _mm256_storeu_ps(out + 6 * n, _mm256_permute2f128_ps(s2, s6, 0x31));
  _mm256_storeu_ps(out + 7 * n, _mm256_permute2f128_ps(s3, s7, 0x31));
#else
  for (size_t r = 0; r < 8; ++r)
    for (size_t c = 0; c < 8; ++c) out[c * n + r] = in[r * n + c];
#endif
}

}  // namespace

void strongTranspose(const float *in, float *out, size_t n) {
  const size_t blocks = (n + kTransposeBlock - 1) / kTransposeBlock;
#pragma omp parallel for collapse(2) schedule(static)
  for (size_t by = 0; by < blocks; ++by)
    for (size_t bx = 0; bx < blocks; ++bx) {
      const size_t y0 = by * kTransposeBlock, x0 = bx * kTransposeBlock;
      const size_t y1 = std::min(n, y0 + kTransposeBlock), x1 = std::min(n, x0 + kTransposeBlock);
      size_t y = y0;
      for (; y + 8 <= y1; y += 8) {
        size_t x = x0;
        for (; x + 8 <= x1; x += 8) transpose8x8(in + y * n + x, out + x * n + y, n);
        for (size_t r = y; r < y + 8; ++r)  // the block's last columns, past a multiple of 8
          for (size_t c = x; c < x1; ++c) out[c * n + r] = in[r * n + c];
      }
      for (; y < y1; ++y)  // its last rows
        for (size_t c = x0; c < x1; ++c) out[c * n + y] = in[y * n + c];
    }
}

void strongStencil(const float *in, float *out, size_t n) {
#pragma omp parallel for schedule(static)
  for (size_t y = 0; y < n; ++y) {
    const float *row = in + y * n;
    float *out_row = out + y * n;
    if (y == 0 || y == n - 1) {
      std::memcpy(out_row, row, n * sizeof(float));
      continue;
    }
    const float *up = row - n, *down = row + n;
    out_row[0] = row[0];
    out_row[n - 1] = row[n - 1];
#pragma omp simd
    for (size_t x = 1; x < n - 1; ++x)
      out_row[x] = 0.2f * (row[x] + up[x] + down[x] + row[x - 1] + row[x + 1]);
  }
}

void strongStencil3d(const float *in, float *out, size_t n, float c0, float c1) {
  const size_t plane = n * n;
#pragma omp parallel for collapse(2) schedule(static)
  for (size_t z = 0; z < n; ++z)
    for (size_t y = 0; y < n; ++y) {
      const size_t base = z * plane + y * n;
      const float *row = in + base;
      float *out_row = out + base;
      if (z == 0 || y == 0 || z == n - 1 || y == n - 1) {
        std::memcpy(out_row, row, n * sizeof(float));
        continue;
      }
      const float *north = row - n, *south = row + n, *below = row - plane, *above = row + plane;
      out_row[0] = row[0];
      out_row[n - 1] = row[n - 1];
#pragma omp simd
      for (size_t x = 1; x < n - 1; ++x)
        out_row[x] = c0 * row[x] + c1 * (row[x - 1] + row[x + 1] + north[x] + south[x] +
                                         below[x] + above[x]);
    }
}

void strongZmarch(const float *in, float *out, size_t n, size_t nz, float c0, float c1) {
  const size_t plane = n * n;
#pragma omp parallel for collapse(2) schedule(static)
  for (size_t z = 1; z < nz - 1; ++z)
    for (size_t y = 1; y < n - 1; ++y) {
      const size_t base = z * plane + y * n;
      const float *row = in + base, *north = row - n, *south = row + n, *below = row - plane, *above = row + plane;
      float *out_row = out + base;
#pragma omp simd
      for (size_t x = 1; x < n - 1; ++x)
        out_row[x] = (above[x] + below[x] + south[x] + north[x] + row[x + 1] + row[x - 1]) * c1 - row[x] * c0;
    }
}

void strongHistogram(const uint8_t *data, size_t n, uint32_t *bins) {
  std::fill(bins, bins + 256, 0u);
#pragma omp parallel
  {
    uint32_t local[4][256] = {};
#pragma omp for schedule(static)
    for (size_t block = 0; block < (n + 4095) / 4096; ++block) {
      const size_t start = block * 4096, end = std::min(n, start + 4096);
      size_t i = start;
      for (; i + 4 <= end; i += 4) {
        ++local[0][data[i]];
        ++local[1][data[i + 1]];
        ++local[2][data[i + 2]];
        ++local[3][data[i + 3]];
      }
      for (; i < end; ++i) ++local[0][data[i]];
    }
    for (int b = 0; b < 256; ++b) {
      uint32_t sum = local[0][b] + local[1][b] + local[2][b] + local[3][b];
      if (sum) {
#pragma omp atomic
        bins[b] += sum;
      }
    }
  }
}

void strongSaxpy(const float *x, const float *y, float *out, size_t n, float a) {
#pragma omp parallel for simd schedule(static)
  for (size_t i = 0; i < n; ++i) out[i] = a * x[i] + y[i];
}

void strongIntMix(const int32_t *a, const int32_t *b, int32_t *out, size_t n) {
#pragma omp parallel for simd schedule(static)
  for (size_t i = 0; i < n; ++i) out[i] = (a[i] * 3 + b[i]) ^ (a[i] >> 3);
}

void strongGemv(const float *a, const float *x, float *y, size_t n) {
#pragma omp parallel for schedule(static)
  for (size_t row = 0; row < n; ++row) {
    const float *r = a + row * n;
    float sum = 0;
#pragma omp simd reduction(+ : sum)
    for (size_t k = 0; k < n; ++k) sum += r[k] * x[k];
    y[row] = sum;
  }
}

void strongConv1d(const float *in, const float *w, float *out, size_t n, int taps) {
  // 64 outputs at a time in registers (four 16-lane vectors), each tap a
  // broadcast multiply-add over them.
  constexpr size_t kBlock = 64;
  const size_t blocks = n / kBlock;
#pragma omp parallel for schedule(static)
  for (size_t b = 0; b < blocks; ++b) {
    float acc[kBlock] = {};
    const float *src = in + b * kBlock;
    for (int k = 0; k < taps; ++k) {
      const float wk = w[k];
#pragma omp simd
      for (size_t i = 0; i < kBlock; ++i) acc[i] += src[i + k] * wk;
    }
    std::copy(acc, acc + kBlock, out + b * kBlock);
  }
  for (size_t i = blocks * kBlock; i < n; ++i) {
    float acc = 0;
    for (int k = 0; k < taps; ++k) acc += in[i + k] * w[k];
    out[i] = acc;
  }
}

void strongConv2d(const float *in, const float *mask, float *out, size_t n) {
  // A row at a time: nine broadcast multiply-adds over the row, in vectors.
  const size_t pitch = n + 2;
#pragma omp parallel for schedule(static)
  for (size_t y = 0; y < n; ++y) {
    float *row = out + y * n;
    for (size_t x = 0; x < n; ++x) row[x] = 0.0f;
    for (size_t m = 0; m < 3; ++m)
      for (size_t k = 0; k < 3; ++k) {
        const float w = mask[m * 3 + k];
        const float *src = in + (y + m) * pitch + k;
#pragma omp simd
        for (size_t x = 0; x < n; ++x) row[x] += src[x] * w;
      }
  }
}

void strongTileSums(const float *in, float *sums, size_t n) {
  constexpr size_t kTile = 16;
  const size_t tiles = n / kTile;
#pragma omp parallel
  {
    std::vector<float> columns(n);
#pragma omp for schedule(static)
    for (size_t ty = 0; ty < tiles; ++ty) {
      const float *band = in + ty * kTile * n;
      std::memcpy(columns.data(), band, n * sizeof(float));
      for (size_t y = 1; y < kTile; ++y) {
        const float *row = band + y * n;
#pragma omp simd
        for (size_t x = 0; x < n; ++x) columns[x] += row[x];
      }
      for (size_t tx = 0; tx < tiles; ++tx) {
        float s = 0;
        for (size_t x = 0; x < kTile; ++x) s += columns[tx * kTile + x];
        sums[ty * tiles + tx] = s;
      }
    }
  }
}

void strongSobel(const uint32_t *in, uint32_t *out, size_t n) {
  auto greyRow = [n](const uint32_t *row, float *g) {
#pragma omp simd
    for (size_t x = 0; x < n; ++x)
      g[x] = 0.299f * float(row[x] & 0xff) + 0.587f * float((row[x] >> 8) & 0xff) +
             0.114f * float((row[x] >> 16) & 0xff);
  };
#pragma omp parallel
  {
    // Each thread's rows in one run; three rows of grey values in a ring.
    std::vector<float> ring(3 * n);
    size_t threads = size_t(omp_get_num_threads()), me = size_t(omp_get_thread_num());
    size_t first = n * me / threads, last = n * (me + 1) / threads;
    for (size_t y = first; y < last; ++y) {
      uint32_t *out_row = out + y * n;
      if (y == 0 || y == n - 1) {
        for (size_t x = 0; x < n; ++x) out_row[x] = 0xff000000u;
        continue;
      }
      if (y == first || y == 1)
        for (size_t j = 0; j < 2; ++j) greyRow(in + (y + j - 1) * n, ring.data() + ((y + j - 1) % 3) * n);
      greyRow(in + (y + 1) * n, ring.data() + ((y + 1) % 3) * n);
      const float *g0 = ring.data() + ((y - 1) % 3) * n, *g1 = ring.data() + (y % 3) * n,
                  *g2 = ring.data() + ((y + 1) % 3) * n;
      out_row[0] = out_row[n - 1] = 0xff000000u;
#pragma omp simd
      for (size_t x = 1; x < n - 1; ++x) {
        float gx = g0[x + 1] + 2.0f * g1[x + 1] + g2[x + 1] - g0[x - 1] - 2.0f * g1[x - 1] - g2[x - 1];
        float gy = g2[x - 1] + 2.0f * g2[x] + g2[x + 1] - g0[x - 1] - 2.0f * g0[x] - g0[x + 1];
        float m = std::sqrt(gx * gx + gy * gy);
        uint32_t v = uint32_t(m < 255.0f ? m : 255.0f);
        out_row[x] = 0xff000000u | v | v << 8 | v << 16;
      }
    }
  }
}

size_t strongCompact(const float *in, float *out, size_t n, float threshold) {
  size_t total = 0;
#pragma omp parallel
  {
    size_t threads = size_t(omp_get_num_threads()), me = size_t(omp_get_thread_num());
    size_t first = n * me / threads, last = n * (me + 1) / threads, kept = 0;
#pragma omp simd reduction(+ : kept)
    for (size_t i = first; i < last; ++i) kept += in[i] > threshold;
    // The slices' starts: a prefix sum over the threads, in thread order.
    static std::vector<size_t> counts;
#pragma omp single
    counts.assign(threads, 0);
    counts[me] = kept;
#pragma omp barrier
    size_t at = 0;
    for (size_t t = 0; t < me; ++t) at += counts[t];
    // Without a branch to mispredict: every value is written and the slot
    // moves on past the kept ones, until the slice's last kept value is in
    // (no write beyond its slots, which the next slice's thread fills).
    size_t end = at + kept;
    for (size_t i = first; at < end; ++i) {
      float x = in[i];
      out[at] = x;
      at += x > threshold;
    }
#pragma omp single
    for (size_t t = 0; t < threads; ++t) total += counts[t];
  }
  return total;
}

void strongLut(const uint8_t *in, uint8_t *out, size_t n, const uint8_t *lut) {
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; ++i) out[i] = lut[in[i]];
}

void strongKmeans(const float *points, const float *centroids, int32_t *labels, size_t n, int k, int dim) {
  constexpr size_t kBlock = 16;
#pragma omp parallel for schedule(static)
  for (size_t block = 0; block < n; block += kBlock) {
    size_t count = std::min(kBlock, n - block);
    float best[kBlock], distance[kBlock];
    int32_t nearest[kBlock];
    for (size_t p = 0; p < kBlock; ++p) best[p] = INFINITY, nearest[p] = 0;
    const float *rows = points + block * dim;
    for (int c = 0; c < k; ++c) {
      for (size_t p = 0; p < kBlock; ++p) distance[p] = 0.0f;
      for (int j = 0; j < dim; ++j) {
        float centre = centroids[size_t(c) * dim + j];
#pragma omp simd
        for (size_t p = 0; p < count; ++p) {
          float t = rows[p * dim + j] - centre;
          distance[p] += t * t;
        }
      }
#pragma omp simd
      for (size_t p = 0; p < kBlock; ++p) {
        bool nearer = distance[p] < best[p];
        best[p] = nearer ? distance[p] : best[p];
        nearest[p] = nearer ? c : nearest[p];
      }
    }
    for (size_t p = 0; p < count; ++p) labels[block + p] = nearest[p];
  }
}

void strongPathfinder(const int32_t *src, const int32_t *wall, int32_t *out, size_t cols, int rows) {
  constexpr size_t kBlock = 4096;
  size_t halo = size_t(rows);
#pragma omp parallel for schedule(static)
  for (size_t block = 0; block < cols; block += kBlock) {
    // The block and a halo of `rows` columns each side (fewer at the
    // edges): what the halo gets wrong at its ends moves in a column a row,
    // and never reaches the block.
    size_t lo = block > halo ? block - halo : 0, hi = std::min(cols, block + kBlock + halo);
    size_t width = hi - lo;
    std::vector<int32_t> prev(src + lo, src + hi), next(width);
    for (int r = 0; r < rows; ++r) {
      const int32_t *w = wall + size_t(r) * cols + lo;
      next[0] = std::min(prev[0], width > 1 ? prev[1] : prev[0]) + w[0];
      const int32_t *p = prev.data();
      int32_t *q = next.data();
      size_t last = width - 1;
#pragma omp simd
      for (size_t i = 1; i < last; ++i) q[i] = std::min(std::min(p[i - 1], p[i]), p[i + 1]) + w[i];
      if (width > 1) next[width - 1] = std::min(prev[width - 2], prev[width - 1]) + w[width - 1];
      prev.swap(next);
    }
    size_t end = std::min(cols, block + kBlock);
    for (size_t x = block; x < end; ++x) out[x] = prev[x - lo];
  }
}

}  // namespace bench

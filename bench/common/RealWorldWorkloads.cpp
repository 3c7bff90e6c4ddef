// Inputs, references and checks of the real-world set's own problems (see
// RealWorldWorkloads.h).
#include "RealWorldWorkloads.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <string>

#include "Workloads.h"

namespace bench {
namespace {

constexpr double kUnitRoundoff = 1.0 / (1 << 24);

std::string firstMismatch(const char *what, size_t count, size_t checked, size_t index, double got,
                          double want) {
  char text[256];
  std::snprintf(text, sizeof text, "%s: %zu of %zu differ; first at [%zu]: got %.9g, want %.9g",
                what, count, checked, index, got, want);
  return text;
}

}  // namespace

Stencil3dProblem::Stencil3dProblem(uint32_t n)
    : n(n), in(randomFloats(size_t{n} * n * n, 31, 0, 1)) {}

Verdict Stencil3dProblem::verify(const float *out) const {
  const size_t plane = size_t{n} * n, total = plane * n;
  size_t bad = 0, first = 0;
  double first_got = 0, first_want = 0;
  for (size_t z = 0; z < n; ++z)
    for (size_t y = 0; y < n; ++y)
      for (size_t x = 0; x < n; ++x) {
        size_t i = z * plane + y * n + x;
        bool border = x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1;
        double want = in[i], tolerance = 0;
        if (!border) {
          double sum = double{in[i - 1]} + in[i + 1] + in[i - n] + in[i + n] + in[i - plane] +
                       in[i + plane];
          // The weights' own rounding (0.4f, 0.1f: relative 2^-24 each), five
          // adds of partial sums up to 6, two multiplies and the final add:
          // within 12 roundings of the result's scale (at most 1); 16 leaves
          // room for any order of the adds and a fused multiply-add.
          want = double{centre} * in[i] + double{neighbour} * sum;
          tolerance = 16 * kUnitRoundoff;
        }
        if (!(std::fabs(out[i] - want) <= tolerance) && bad++ == 0)
          first = i, first_got = out[i], first_want = want;
      }
  if (bad == 0) return {};
  return firstMismatch("7-point 3D stencil", bad, total, first, first_got, first_want);
}

ZMarchProblem::ZMarchProblem(uint32_t n) : n(n), in(randomFloats(size_t{n} * n * kPlanes, 41, 0, 1)) {}

Verdict ZMarchProblem::verify(const float *out) const {
  const size_t plane = size_t{n} * n;
  size_t bad = 0, first = 0;
  double first_got = 0, first_want = 0;
  for (size_t k = 1; k + 1 < kPlanes; ++k)
    for (size_t j = 1; j + 1 < n; ++j)
      for (size_t i = 1; i + 1 < n; ++i) {
        size_t at = k * plane + j * n + i;
        double sum = double{in[at + plane]} + in[at - plane] + in[at + n] + in[at - n] + in[at + 1] + in[at - 1];
        double want = sum * c1 - double{in[at]} * c0;
        // Five adds of partial sums up to 6 (scaled by c1, 1/36), a multiply,
        // another and the difference, and the weights' own rounding: within
        // 12 roundings of 1; 16 leaves room for any order and a fused
        // multiply-add.
        if (!(std::fabs(out[at] - want) <= 16 * kUnitRoundoff) && bad++ == 0)
          first = at, first_got = out[at], first_want = want;
      }
  if (bad == 0) return {};
  return firstMismatch("z-marching stencil", bad, updated(), first, first_got, first_want);
}

IntMixProblem::IntMixProblem(size_t n) : n(n), a(n), b(n) {
  std::vector<float> fa = randomFloats(n, 32, -32768, 32767), fb = randomFloats(n, 33, -32768, 32767);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<int32_t>(std::floor(fa[i]));
    b[i] = static_cast<int32_t>(std::floor(fb[i]));
  }
}

Verdict IntMixProblem::verify(const int32_t *out) const {
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < n; ++i)
    if (out[i] != mix(a[i], b[i]) && bad++ == 0) first = i;
  if (bad == 0) return {};
  return firstMismatch("int4 (a * 3 + b) ^ (a >> 3)", bad, n, first, out[first],
                       mix(a[first], b[first]));
}

GemvProblem::GemvProblem(uint32_t n)
    : n(n), a(randomFloats(size_t{n} * n, 34, 0, 1)), x(randomFloats(n, 35, 0, 1)) {}

Verdict GemvProblem::verify(const float *y) const {
  size_t bad = 0, first = 0;
  double first_want = 0;
  for (size_t row = 0; row < n; ++row) {
    double want = 0;
    for (size_t k = 0; k < n; ++k) want += double{a[row * n + k]} * x[k];
    // Non-negative terms: n adds in any order, each within u of its sum.
    if (std::fabs(y[row] - want) > 2.0 * n * kUnitRoundoff * want && bad++ == 0) first = row, first_want = want;
  }
  if (bad == 0) return {};
  return firstMismatch("gemv y = A x", bad, n, first, y[first], first_want);
}

Conv1dProblem::Conv1dProblem(size_t n)
    : n(n), in(randomFloats(n + kTaps - 1, 38, 0, 1)), w(randomFloats(kTaps, 39, 0, 1)) {}

Verdict Conv1dProblem::verify(const float *out) const {
  size_t bad = 0, first = 0;
  double first_want = 0;
  for (size_t i = 0; i < n; ++i) {
    double want = 0;
    for (int k = 0; k < kTaps; ++k) want += double{in[i + k]} * w[k];
    if (!(std::fabs(out[i] - want) <= 2.0 * kTaps * kUnitRoundoff * want) && bad++ == 0) first = i, first_want = want;
  }
  if (bad == 0) return {};
  return firstMismatch("1-D convolution", bad, n, first, out[first], first_want);
}

Conv2dProblem::Conv2dProblem(uint32_t n)
    : n(n), in(randomFloats(size_t{n + 2} * (n + 2), 41, 0, 1)), mask(randomFloats(kMask * kMask, 42, -1, 1)) {}

Verdict Conv2dProblem::verify(const float *out) const {
  const size_t pitch = n + 2;
  size_t bad = 0, first = 0;
  double first_want = 0;
  for (size_t y = 0; y < n; ++y)
    for (size_t x = 0; x < n; ++x) {
      double want = 0, magnitude = 0;
      for (size_t m = 0; m < kMask; ++m)
        for (size_t k = 0; k < kMask; ++k) {
          double term = double{in[(y + m) * pitch + x + k]} * mask[m * kMask + k];
          want += term;
          magnitude += std::fabs(term);
        }
      size_t i = y * n + x;
      if (!(std::fabs(out[i] - want) <= 2.0 * kMask * kMask * kUnitRoundoff * magnitude) && bad++ == 0)
        first = i, first_want = want;
    }
  if (bad == 0) return {};
  return firstMismatch("3 x 3 convolution", bad, size_t{n} * n, first, out[first], first_want);
}

TileSumProblem::TileSumProblem(uint32_t n) : n(n), in(randomFloats(size_t{n} * n, 36, 0, 1)) {}

Verdict TileSumProblem::verify(const float *sums) const {
  const size_t tiles = n / kTile;
  size_t bad = 0, first = 0;
  double first_want = 0;
  for (size_t ty = 0; ty < tiles; ++ty)
    for (size_t tx = 0; tx < tiles; ++tx) {
      double want = 0;
      for (size_t y = 0; y < kTile; ++y)
        for (size_t x = 0; x < kTile; ++x) want += in[(ty * kTile + y) * n + tx * kTile + x];
      size_t t = ty * tiles + tx;
      if (!(std::fabs(sums[t] - want) <= 2.0 * kTile * kTile * kUnitRoundoff * want) && bad++ == 0)
        first = t, first_want = want;
    }
  if (bad == 0) return {};
  return firstMismatch("16 x 16 tile sums", bad, tiles * tiles, first, sums[first], first_want);
}

SobelProblem::SobelProblem(uint32_t n) : n(n), in(size_t{n} * n) {
  std::vector<float> r = randomFloats(in.size(), 37, 0, 4294967295.0f);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint32_t>(r[i]) ^ uint32_t(i * 2654435761u);
}

Verdict SobelProblem::verify(const uint32_t *out) const {
  size_t bad = 0, first = 0;
  uint32_t first_want = 0;
  for (size_t y = 0; y < n; ++y)
    for (size_t x = 0; x < n; ++x) {
      size_t i = y * n + x;
      uint32_t want = 0xff000000u;
      int slack = 0;
      if (x != 0 && y != 0 && x != n - 1 && y != n - 1) {
        double g[3][3];
        for (int j = -1; j <= 1; ++j)
          for (int k = -1; k <= 1; ++k) g[j + 1][k + 1] = grey(in[(y + j) * n + x + k]);
        double gx = g[0][2] + 2 * g[1][2] + g[2][2] - g[0][0] - 2 * g[1][0] - g[2][0];
        double gy = g[2][0] + 2 * g[2][1] + g[2][2] - g[0][0] - 2 * g[0][1] - g[0][2];
        uint32_t m = static_cast<uint32_t>(std::min(255.0, std::sqrt(gx * gx + gy * gy)));
        want |= m | m << 8 | m << 16;
        slack = 1;
      }
      uint32_t got = out[i];
      bool ok = (got & 0xff000000u) == (want & 0xff000000u);
      for (int c = 0; c < 3 && ok; ++c) {
        int a = int((got >> (8 * c)) & 0xff), b = int((want >> (8 * c)) & 0xff);
        ok = std::abs(a - b) <= slack && ((got >> (8 * c)) & 0xff) == (got & 0xff);
      }
      if (!ok && bad++ == 0) first = i, first_want = want;
    }
  if (bad == 0) return {};
  return firstMismatch("Sobel RGBA", bad, size_t{n} * n, first, out[first], first_want);
}

CompactProblem::CompactProblem(size_t n) : n(n), in(randomFloats(n, 41, 0, 1)) {
  for (float value : in)
    if (value > threshold) sorted_.push_back(value);
  std::sort(sorted_.begin(), sorted_.end());
}

Verdict CompactProblem::verify(const float *out, size_t count) const {
  if (count != sorted_.size())
    return "stream compaction kept " + std::to_string(count) + " values, want " + std::to_string(sorted_.size());
  std::vector<float> got(out, out + count);
  std::sort(got.begin(), got.end());
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < count; ++i)
    if (got[i] != sorted_[i] && bad++ == 0) first = i;
  if (bad == 0) return {};
  return firstMismatch("stream compaction (sorted)", bad, count, first, got[first], sorted_[first]);
}

LutProblem::LutProblem(size_t n) : n(n), in(randomBytes(n, 43)), lut(randomBytes(256, 44)) {}

Verdict LutProblem::verify(const uint8_t *out) const {
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < n; ++i)
    if (out[i] != lut[in[i]] && bad++ == 0) first = i;
  if (bad == 0) return {};
  return firstMismatch("byte table lookup", bad, n, first, int(out[first]), int(lut[in[first]]));
}

KmeansProblem::KmeansProblem(size_t n)
    : n(n), points(randomFloats(n * 4, 45, 0, 1)), centroids(randomFloats(16 * 4, 46, 0, 1)) {}

Verdict KmeansProblem::verify(const int32_t *labels) const {
  size_t bad = 0, first = 0;
  double first_got = 0, first_want = 0;
  for (size_t i = 0; i < n; ++i) {
    auto distance = [&](int c) {
      double d = 0;
      for (int j = 0; j < dim; ++j) {
        double t = double(points[i * dim + j]) - double(centroids[size_t(c) * dim + j]);
        d += t * t;
      }
      return d;
    };
    double best = distance(0);
    for (int c = 1; c < k; ++c) best = std::min(best, distance(c));
    int label = labels[i];
    double got = label >= 0 && label < k ? distance(label) : -1;
    if ((got < 0 || got > best * (1 + 1e-5) + 1e-7) && bad++ == 0) first = i, first_got = got, first_want = best;
  }
  if (bad == 0) return {};
  return firstMismatch("k-means assignment (distance of the label)", bad, n, first, first_got, first_want);
}

PathfinderProblem::PathfinderProblem(size_t cols) : cols(cols) {
  std::vector<uint8_t> bytes = randomBytes(cols * (rows + 1), 47);
  src.resize(cols);
  wall.resize(cols * rows);
  for (size_t x = 0; x < cols; ++x) src[x] = bytes[x] % 10;
  for (size_t i = 0; i < wall.size(); ++i) wall[i] = bytes[cols + i] % 10;
}

Verdict PathfinderProblem::verify(const int32_t *out) const {
  std::vector<int32_t> prev = src, next(cols);
  for (int r = 0; r < rows; ++r) {
    for (size_t x = 0; x < cols; ++x) {
      int32_t best = prev[x];
      if (x > 0) best = std::min(best, prev[x - 1]);
      if (x + 1 < cols) best = std::min(best, prev[x + 1]);
      next[x] = best + wall[size_t(r) * cols + x];
    }
    prev.swap(next);
  }
  size_t bad = 0, first = 0;
  for (size_t x = 0; x < cols; ++x)
    if (out[x] != prev[x] && bad++ == 0) first = x;
  if (bad == 0) return {};
  return firstMismatch("pathfinder rows", bad, cols, first, out[first], prev[first]);
}

}  // namespace bench

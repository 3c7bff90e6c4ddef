#include "Workloads.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace bench {
namespace {

constexpr double kUnitRoundoff = 1.0 / (1 << 24);  // float's u = 2^-24

// splitmix64: fast, and the same sequence on every platform and compiler.
struct Random {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  float unit() { return static_cast<float>(next() >> 40) * (1.0f / (1 << 24)); }  // [0, 1)
};

// Counts the elements that differ and remembers the first one, so a FAIL says
// where to look.
class Mismatches {
 public:
  explicit Mismatches(const char *what) : what_(what) {}
  void note(size_t index, double got, double want) {
    if (count_++ == 0) first_ = {index, got, want};
  }
  size_t count() const { return count_; }
  Verdict verdict(size_t checked, size_t allowed = 0) const {
    if (count_ <= allowed) return {};
    char text[256];
    std::snprintf(text, sizeof text, "%s: %zu of %zu differ; first at [%zu]: got %.9g, want %.9g",
                  what_, count_, checked, first_.index, first_.got, first_.want);
    return text;
  }

 private:
  struct Entry {
    size_t index = 0;
    double got = 0, want = 0;
  };
  const char *what_;
  size_t count_ = 0;
  Entry first_;
};

// NaN never compares within a tolerance, so poisoned outputs always fail.
bool within(double got, double want, double tolerance) {
  return std::fabs(got - want) <= tolerance;
}

}  // namespace

std::vector<float> randomFloats(size_t n, uint64_t seed, float lo, float hi) {
  Random random{seed};
  std::vector<float> values(n);
  for (auto &value : values) value = lo + (hi - lo) * random.unit();
  return values;
}

StreamProblem::StreamProblem(size_t n)
    : n(n),
      a(randomFloats(n, 1, -1, 1)),
      b(randomFloats(n, 2, -1, 1)),
      c(randomFloats(n, 3, -1, 1)) {}

Verdict StreamProblem::verifyCopy(const float *out) const {
  Mismatches bad("copy");
  for (size_t i = 0; i < n; ++i)
    if (!(out[i] == a[i])) bad.note(i, out[i], a[i]);
  return bad.verdict(n);
}

Verdict StreamProblem::verifyAdd(const float *out) const {
  Mismatches bad("a + b");
  for (size_t i = 0; i < n; ++i) {
    float want = a[i] + b[i];  // one correctly rounded add: exact match expected
    if (!(out[i] == want)) bad.note(i, out[i], want);
  }
  return bad.verdict(n);
}

Verdict StreamProblem::verifyTriad(const float *out) const {
  Mismatches bad("b + s * c");
  for (size_t i = 0; i < n; ++i) {
    // Fused or not, the result is within 2 roundings of the exact value.
    double want = b[i] + static_cast<double>(scalar) * c[i];
    double tolerance = 2 * kUnitRoundoff * (std::fabs(b[i]) + std::fabs(scalar * c[i]));
    if (!within(out[i], want, tolerance)) bad.note(i, out[i], want);
  }
  return bad.verdict(n);
}

SgemmProblem::SgemmProblem(uint32_t n)
    : n(n), a(randomFloats(size_t{n} * n, 4, -1, 1)), b(randomFloats(size_t{n} * n, 5, -1, 1)) {}

void SgemmProblem::computeReference() const {
  size_t nn = size_t{n} * n;
  ref_.assign(nn, 0.0);
  abs_.assign(nn, 0.0f);
  std::vector<float> abs_b(nn);
  for (size_t i = 0; i < nn; ++i) abs_b[i] = std::fabs(b[i]);
  // i-k-j order keeps the inner loop contiguous (and vectorized).
  for (size_t i = 0; i < n; ++i) {
    double *ref_row = &ref_[i * n];
    float *abs_row = &abs_[i * n];
    for (size_t k = 0; k < n; ++k) {
      double aik = a[i * n + k];
      float abs_aik = std::fabs(a[i * n + k]);
      const float *b_row = &b[k * n];
      const float *abs_b_row = &abs_b[k * n];
      for (size_t j = 0; j < n; ++j) {
        ref_row[j] += aik * b_row[j];
        abs_row[j] += abs_aik * abs_b_row[j];
      }
    }
  }
}

Verdict SgemmProblem::verify(const float *c) const {
  if (ref_.empty()) computeReference();
  Mismatches bad("C = A * B");
  double bound = (n + 2) * kUnitRoundoff * 1.01;  // float's abs_ sums err a little too
  for (size_t i = 0; i < ref_.size(); ++i)
    if (!within(c[i], ref_[i], bound * abs_[i] + 1e-30)) bad.note(i, c[i], ref_[i]);
  return bad.verdict(ref_.size());
}

ReduceProblem::ReduceProblem(size_t n) : n(n), in(randomFloats(n, 6, 0, 1)) {}

Verdict ReduceProblem::verifyPartials(const float *partials, size_t groups, size_t local) const {
  size_t stride = groups * local;
  std::vector<double> want(groups, 0.0);
  for (size_t i = 0; i < n; ++i) want[(i % stride) / local] += in[i];
  // Each partial adds ceil(n / groups) terms, all positive: the sum bounds them.
  double bound = (n / groups + 2) * kUnitRoundoff * 1.01;
  Mismatches bad("partial sums");
  for (size_t g = 0; g < groups; ++g)
    if (!within(partials[g], want[g], bound * want[g] + 1e-30)) bad.note(g, partials[g], want[g]);
  return bad.verdict(groups);
}

Verdict ReduceProblem::verifyTotal(double total) const {
  double want = 0;
  for (float value : in) want += value;
  double bound = (n + 2) * kUnitRoundoff * 1.01 * want;
  Mismatches bad("total");
  if (!within(total, want, bound)) bad.note(0, total, want);
  return bad.verdict(1);
}

ScanProblem::ScanProblem(size_t n, size_t block) : n(n), block(block), in(n) {
  Random random{7};
  for (auto &value : in) value = random.next() & 15;
}

Verdict ScanProblem::verify(const uint32_t *out, const uint32_t *block_sums) const {
  Mismatches bad_scan("exclusive block scan"), bad_sums("block sums");
  for (size_t start = 0; start < n; start += block) {
    uint32_t running = 0;
    for (size_t i = start; i < start + block; ++i) {
      if (out[i] != running) bad_scan.note(i, out[i], running);
      running += in[i];
    }
    if (block_sums[start / block] != running)
      bad_sums.note(start / block, block_sums[start / block], running);
  }
  Verdict verdict = bad_scan.verdict(n);
  return verdict.empty() ? bad_sums.verdict(n / block) : verdict;
}

TransposeProblem::TransposeProblem(uint32_t n) : n(n), in(randomFloats(size_t{n} * n, 8, -1, 1)) {}

Verdict TransposeProblem::verify(const float *out) const {
  Mismatches bad("transpose");
  for (size_t row = 0; row < n; ++row)
    for (size_t col = 0; col < n; ++col)
      if (!(out[col * n + row] == in[row * n + col]))
        bad.note(col * n + row, out[col * n + row], in[row * n + col]);
  return bad.verdict(size_t{n} * n);
}

StencilProblem::StencilProblem(uint32_t n) : n(n), in(randomFloats(size_t{n} * n, 9, 0, 1)) {}

Verdict StencilProblem::verify(const float *out) const {
  Mismatches bad("5-point stencil");
  for (size_t y = 0; y < n; ++y) {
    for (size_t x = 0; x < n; ++x) {
      size_t i = y * n + x;
      bool border = x == 0 || y == 0 || x == n - 1 || y == n - 1;
      double want =
          border ? in[i] : 0.2 * (double{in[i]} + in[i - n] + in[i + n] + in[i - 1] + in[i + 1]);
      // Four adds of partial sums up to 5, 0.2f's own rounding and the final
      // multiply: at most 6 roundings of 1 after the scaling; 8 leaves room.
      if (!within(out[i], want, border ? 0.0 : 8 * kUnitRoundoff)) bad.note(i, out[i], want);
    }
  }
  return bad.verdict(size_t{n} * n);
}

NbodyProblem::NbodyProblem(uint32_t n) : n(n), pos(randomFloats(size_t{n} * 4, 10, -1, 1)) {
  for (size_t i = 0; i < n; ++i) pos[4 * i + 3] = (pos[4 * i + 3] + 3.0f) / (4.0f * n);  // mass
}

Verdict NbodyProblem::verify(const float *acc) const {
  size_t step = std::max<size_t>(1, n / 1024);
  Mismatches bad("accelerations");
  // Each term carries a few ulp (rsqrt may be off by 2 ulp, cubed, times
  // mass and distance), then n terms are summed.
  double bound = (n + 32) * kUnitRoundoff * 1.01;
  for (size_t i = 0; i < n; i += step) {
    double want[3] = {}, scale[3] = {};
    for (size_t j = 0; j < n; ++j) {
      double d[3];
      for (int k = 0; k < 3; ++k) d[k] = double{pos[4 * j + k]} - pos[4 * i + k];
      double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + softening2;
      double s = pos[4 * j + 3] / (r2 * std::sqrt(r2));
      for (int k = 0; k < 3; ++k) {
        want[k] += s * d[k];
        scale[k] += std::fabs(s * d[k]);
      }
    }
    for (int k = 0; k < 3; ++k)
      if (!within(acc[4 * i + k], want[k], bound * scale[k] + 1e-30))
        bad.note(4 * i + k, acc[4 * i + k], want[k]);
  }
  return bad.verdict((n + step - 1) / step * 3);
}

MandelbrotProblem::MandelbrotProblem(uint32_t width)
    : width(width), height(width * 3 / 4), dx(3.0f / width), dy(2.4f / (width * 3 / 4)) {}

uint32_t MandelbrotProblem::escape(uint32_t px, uint32_t py) const {
  float cr = x0 + px * dx, ci = y0 + py * dy;
  float zr = 0, zi = 0;
  uint32_t k = 0;
  while (k < max_iter && zr * zr + zi * zi <= 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++k;
  }
  return k;
}

Verdict MandelbrotProblem::verify(const uint32_t *iters) const {
  Mismatches bad("iteration counts");
  for (uint32_t py = 0; py < height; ++py)
    for (uint32_t px = 0; px < width; ++px) {
      size_t i = size_t{py} * width + px;
      uint32_t want = escape(px, py);
      if (iters[i] != want) bad.note(i, iters[i], want);
    }
  size_t pixels = size_t{width} * height;
  return bad.verdict(pixels, pixels / 100);
}

HistogramProblem::HistogramProblem(size_t n) : n(n), data(n), ref_(256, 0) {
  Random random{11};
  // The mean of two uniform bytes: a triangular distribution, the middle bins
  // about twice as hot as average, as in real image data.
  for (auto &value : data) {
    uint64_t bits = random.next();
    value = static_cast<uint8_t>(((bits & 255) + ((bits >> 8) & 255)) / 2);
  }
  for (uint8_t value : data) ++ref_[value];
}

Verdict HistogramProblem::verify(const uint32_t *bins) const {
  Mismatches bad("bins");
  for (size_t bin = 0; bin < 256; ++bin)
    if (bins[bin] != ref_[bin]) bad.note(bin, bins[bin], ref_[bin]);
  return bad.verdict(256);
}

std::vector<uint8_t> randomBytes(size_t n, uint64_t seed) {
  Random random{seed};
  std::vector<uint8_t> bytes(n);
  for (auto &byte : bytes) byte = static_cast<uint8_t>(random.next() >> 56);
  return bytes;
}

namespace {

// The channel value furthest from round(exact): 128 code steps away.
uint8_t farFrom(double exact) { return static_cast<uint8_t>(std::lround(exact) ^ 0x80); }

}  // namespace

BlurProblem::BlurProblem(uint32_t width, uint32_t height)
    : width(width), height(height), in(randomBytes(size_t{width} * height * 4, 12)) {
  sums_.resize(in.size());
  for (size_t y = 0; y < height; ++y)
    for (size_t x = 0; x < width; ++x)
      for (int c = 0; c < 4; ++c) {
        uint32_t sum = 0;
        for (int dy = -1; dy <= 1; ++dy) {
          size_t row = std::clamp<int64_t>(int64_t(y) + dy, 0, height - 1);
          for (int dx = -1; dx <= 1; ++dx) {
            size_t col = std::clamp<int64_t>(int64_t(x) + dx, 0, width - 1);
            sum += in[(row * width + col) * 4 + c];
          }
        }
        sums_[(y * width + x) * 4 + c] = static_cast<uint16_t>(sum);
      }
}

std::vector<uint8_t> BlurProblem::poison() const {
  std::vector<uint8_t> values(in.size());
  for (size_t i = 0; i < in.size(); ++i) values[i] = farFrom(sums_[i] / 9.0);
  return values;
}

Verdict BlurProblem::verify(const uint8_t *out, double tolerance) const {
  // sum / 9 is never k + 0.5, so exact rounding is unambiguous.
  Mismatches bad("3x3 blur (channel index)");
  for (size_t i = 0; i < in.size(); ++i) {
    double want = sums_[i] / 9.0;
    if (!within(out[i], want, tolerance)) bad.note(i, out[i], want);
  }
  return bad.verdict(in.size());
}

ResizeProblem::ResizeProblem(uint32_t width, uint32_t height, uint32_t out_width,
                             uint32_t out_height)
    : width(width),
      height(height),
      out_width(out_width),
      out_height(out_height),
      in(randomBytes(size_t{width} * height * 4, 13)) {}

ResizeProblem::Tap ResizeProblem::tap(uint32_t x, uint32_t in_size, uint32_t out_size) {
  double u = (x + 0.5) * in_size / out_size - 0.5;
  double i0 = std::floor(u);
  auto clampTo = [&](double i) {
    return static_cast<uint32_t>(std::clamp(i, 0.0, double(in_size - 1)));
  };
  return {clampTo(i0), clampTo(i0 + 1), u - i0};
}

namespace {

// The exact bilinear value of every channel of every output pixel, in code
// steps, handed to `visit(index, value)`.
template <class Visit>
void forEachResized(const ResizeProblem &p, Visit visit) {
  std::vector<ResizeProblem::Tap> cols(p.out_width);
  for (uint32_t x = 0; x < p.out_width; ++x) cols[x] = ResizeProblem::tap(x, p.width, p.out_width);
  for (size_t y = 0; y < p.out_height; ++y) {
    auto row = ResizeProblem::tap(y, p.height, p.out_height);
    const uint8_t *top = &p.in[size_t{row.i0} * p.width * 4];
    const uint8_t *bottom = &p.in[size_t{row.i1} * p.width * 4];
    for (size_t x = 0; x < p.out_width; ++x) {
      const auto &col = cols[x];
      for (int c = 0; c < 4; ++c) {
        double upper = (1 - col.a) * top[col.i0 * 4 + c] + col.a * top[col.i1 * 4 + c];
        double lower = (1 - col.a) * bottom[col.i0 * 4 + c] + col.a * bottom[col.i1 * 4 + c];
        visit((y * p.out_width + x) * 4 + c, (1 - row.a) * upper + row.a * lower);
      }
    }
  }
}

}  // namespace

std::vector<uint8_t> ResizeProblem::poison() const {
  std::vector<uint8_t> values(size_t{out_width} * out_height * 4);
  forEachResized(*this, [&](size_t i, double want) { values[i] = farFrom(want); });
  return values;
}

Verdict ResizeProblem::verify(const uint8_t *out) const {
  Mismatches bad("bilinear resize (channel index)");
  forEachResized(*this, [&](size_t i, double want) {
    if (!within(out[i], want, 1.0)) bad.note(i, out[i], want);
  });
  return bad.verdict(size_t{out_width} * out_height * 4);
}

ConvertProblem::ConvertProblem(uint32_t width, uint32_t height)
    : width(width), height(height), in(randomBytes(size_t{width} * height * 4, 14)) {}

Verdict ConvertProblem::verify(const float *out) const {
  Mismatches bad("UNORM_INT8 to float (channel index)");
  double tolerance[256];
  for (int c = 0; c < 256; ++c) {
    // 1.5 ulp of c / 255; 0 and 255 must be exact.
    double want = c / 255.0;
    tolerance[c] = c == 0 || c == 255 ? 0 : 1.5 * std::ldexp(1.0, std::ilogb(want) - 23);
  }
  for (size_t i = 0; i < in.size(); ++i) {
    double want = in[i] / 255.0;
    if (!within(out[i], want, tolerance[in[i]])) bad.note(i, out[i], want);
  }
  return bad.verdict(in.size());
}

}  // namespace bench

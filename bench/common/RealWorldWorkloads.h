// The problems of the real-world kernel set (opencl/realworld.cl) that the
// main suite has no counterpart for: a 7-point 3D stencil and an int4
// arithmetic kernel, a matrix-vector product. Deterministic inputs, a serial host reference and the
// check of an output against it, shared by the OpenCL and native programs
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

}  // namespace bench

// The strong native SGEMM: packed panels and a register-blocked FMA
// micro-kernel (see StrongGemm.cpp).
#pragma once

#include <cstddef>

namespace bench {

// C = A * B, row-major n x n, across the OpenMP threads.
void strongSgemm(const float *a, const float *b, float *c, size_t n);

// The micro-kernel's shape, for the benchmark's description ("8x32 AVX-512").
const char *strongSgemmShape();

}  // namespace bench

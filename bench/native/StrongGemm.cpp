// The SGEMM a performance-minded C++ programmer writes without a BLAS: the
// GotoBLAS/BLIS structure. Each OpenMP task is an MC x NC block of C; per
// step of KC along k it packs its (KC x NC) block of B into NR-column
// micro-panels (each KC x NR panel fits L1) and its (MC x KC) block of A
// into MR-row micro-panels (both fit L2),
// and a micro-kernel keeps an MR x NR tile of C in registers: per k, two
// vector loads of B, MR broadcasts of A and 2 * MR fused multiply-adds.
// The vectors are GCC vector extensions sized by the CPU's features at
// compile time (-march=native): 16 lanes and an 8 x 32 tile (16 zmm
// accumulators) with AVX-512, 8 lanes and 6 x 16 (12 ymm) with AVX/AVX2,
// 4 lanes and 4 x 8 otherwise. Edges are zero-padded in the packed panels;
// only the store is clipped.
#include "StrongGemm.h"

#include <omp.h>

#include <algorithm>
#include <vector>

namespace bench {
namespace {

#if defined(__AVX512F__)
constexpr size_t kLanes = 16, MR = 8;
#elif defined(__AVX__)
constexpr size_t kLanes = 8, MR = 6;
#else
constexpr size_t kLanes = 4, MR = 4;
#endif
constexpr size_t NR = 2 * kLanes;
constexpr size_t KC = 256;      // depth of a packed block: KC x NR of B is 32 KiB with AVX-512
constexpr size_t MC = MR * 32;  // rows of a block of C (256 with AVX-512): A's block 256 KiB
constexpr size_t NC = 256;      // columns of a block of C: B's block (KC x NC) 256 KiB

typedef float Vec __attribute__((vector_size(kLanes * sizeof(float))));

// C's rows are not vector-aligned: unaligned loads and stores (vmovups).
inline Vec loadUnaligned(const float *p) {
  Vec v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
inline void storeUnaligned(float *p, Vec v) { __builtin_memcpy(p, &v, sizeof v); }

// Rows ic..ic+mc, depth pc..pc+kc of A into MR-row micro-panels, k-major:
// panel p holds ap[p * kc * MR + k * MR + i] = A[ic + p * MR + i][pc + k].
void packA(const float *a, size_t n, size_t ic, size_t mc, size_t pc, size_t kc, float *ap) {
  for (size_t ir = 0; ir < mc; ir += MR) {
    float *panel = ap + ir * kc;
    for (size_t i = 0; i < MR; ++i) {
      if (ir + i < mc) {
        const float *row = a + (ic + ir + i) * n + pc;
        for (size_t k = 0; k < kc; ++k) panel[k * MR + i] = row[k];
      } else {
        for (size_t k = 0; k < kc; ++k) panel[k * MR + i] = 0.0f;
      }
    }
  }
}

// Micro-panel jr (columns jc + jr .. + NR) of depth pc..pc+kc of B:
// bp[k * NR + j] = B[pc + k][jc + jr + j], zero past the matrix.
void packBPanel(const float *b, size_t n, size_t jc, size_t jr, size_t nc, size_t pc, size_t kc,
                float *bp) {
  size_t cols = std::min(NR, nc - jr);
  for (size_t k = 0; k < kc; ++k) {
    const float *row = b + (pc + k) * n + jc + jr;
    float *dst = bp + k * NR;
    size_t j = 0;
    for (; j < cols; ++j) dst[j] = row[j];
    for (; j < NR; ++j) dst[j] = 0.0f;
  }
}

// C[0..mr) x [0..nr) (+)= the packed A panel times the packed B panel.
inline void microKernel(size_t kc, const float *ap, const float *bp, float *c, size_t ldc,
                        bool accumulate, size_t mr, size_t nr) {
  Vec acc[MR][2] = {};
  for (size_t k = 0; k < kc; ++k) {
    const Vec b0 = *reinterpret_cast<const Vec *>(bp + k * NR);
    const Vec b1 = *reinterpret_cast<const Vec *>(bp + k * NR + kLanes);
#pragma GCC unroll 16
    for (size_t i = 0; i < MR; ++i) {
      const float ai = ap[k * MR + i];
      acc[i][0] += ai * b0;
      acc[i][1] += ai * b1;
    }
  }
  if (mr == MR && nr == NR) {
#pragma GCC unroll 16
    for (size_t i = 0; i < MR; ++i) {
      float *row = c + i * ldc;
      if (accumulate) {
        acc[i][0] += loadUnaligned(row);
        acc[i][1] += loadUnaligned(row + kLanes);
      }
      storeUnaligned(row, acc[i][0]);
      storeUnaligned(row + kLanes, acc[i][1]);
    }
    return;
  }
  for (size_t i = 0; i < mr; ++i)
    for (size_t j = 0; j < nr; ++j) {
      float value = acc[i][j / kLanes][j % kLanes];
      c[i * ldc + j] = accumulate ? c[i * ldc + j] + value : value;
    }
}

}  // namespace

const char *strongSgemmShape() {
#if defined(__AVX512F__)
  return "8x32 tile, AVX-512";
#elif defined(__AVX__)
  return "6x16 tile, AVX";
#else
  return "4x8 tile, portable vectors";
#endif
}

void strongSgemm(const float *a, const float *b, float *c, size_t n) {
  // Tasks are (MC x NC) blocks of C, taken dynamically: each packs its own
  // panels of A and B and needs no other thread's, so there is no barrier a
  // descheduled thread could hold up (a shared packed B costs a barrier per
  // block of k: on a busy 2-core machine that ran at a fifth of this).
  const size_t row_blocks = (n + MC - 1) / MC, col_blocks = (n + NC - 1) / NC;
#pragma omp parallel
  {
    std::vector<Vec> a_storage(MC * KC / kLanes);
    std::vector<Vec> b_storage(((NC + NR - 1) / NR) * KC * NR / kLanes);
    float *apack = reinterpret_cast<float *>(a_storage.data());
    float *bpack = reinterpret_cast<float *>(b_storage.data());
#pragma omp for collapse(2) schedule(dynamic, 1)
    for (size_t rb = 0; rb < row_blocks; ++rb)
      for (size_t cb = 0; cb < col_blocks; ++cb) {
        const size_t ic = rb * MC, mc = std::min(MC, n - ic);
        const size_t jc = cb * NC, nc = std::min(NC, n - jc), panels = (nc + NR - 1) / NR;
        for (size_t pc = 0; pc < n; pc += KC) {
          const size_t kc = std::min(KC, n - pc);
          for (size_t p = 0; p < panels; ++p)
            packBPanel(b, n, jc, p * NR, nc, pc, kc, bpack + p * kc * NR);
          packA(a, n, ic, mc, pc, kc, apack);
          for (size_t p = 0; p < panels; ++p) {
            const size_t jr = p * NR, nr = std::min(NR, nc - jr);
            for (size_t ir = 0; ir < mc; ir += MR)
              microKernel(kc, apack + ir * kc, bpack + p * kc * NR, c + (ic + ir) * n + jc + jr, n,
                          pc > 0, std::min(MR, mc - ir), nr);
          }
        }
      }
  }
}

}  // namespace bench

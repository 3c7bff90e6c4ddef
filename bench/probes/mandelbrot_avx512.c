// mandelbrot_avx512 [SECS]: a probe, not a benchmark. The benchmark's
// mandelbrot (2048 x 1536 pixels, 256 iterations) written by hand with
// AVX-512 intrinsics, 16 pixels per vector, a lane mask for the pixels still
// going: one thread per CPU of the affinity mask takes rows from a shared
// counter for SECS seconds (default 2). Prints Mpixel/s and how many pixels
// of the middle row differ from the scalar loop (must be 0). It is the
// native C code as dense as Lockstep's kernel, to tell how the cores scale
// such code (bench/results/scaling-xeon-16c.md).
//
// Build: cc -O2 -ffp-contract=off -pthread -o mandelbrot_avx512 mandelbrot_avx512.c
#define _GNU_SOURCE
#include <immintrin.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
enum { W = 2048, H = 1536, MAXIT = 256 };
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static unsigned *out; static atomic_long nextRow; static double secs; static pthread_barrier_t bar; static atomic_int stop;
__attribute__((target("avx512f"))) static void row(int py) {
  const float dx = 3.0f / W, dy = 2.4f / H, x0 = -2.1f, y0 = -1.2f;
  __m512 ci = _mm512_set1_ps(y0 + py * dy), lane = _mm512_setr_ps(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15);
  for (int px = 0; px < W; px += 16) {
    __m512 cr = _mm512_add_ps(_mm512_set1_ps(x0), _mm512_mul_ps(_mm512_add_ps(_mm512_set1_ps((float)px), lane), _mm512_set1_ps(dx)));
    __m512 zr = _mm512_setzero_ps(), zi = _mm512_setzero_ps(); __m512i k = _mm512_setzero_si512();
    __mmask16 m = 0xffff;
    for (int it = 0; it < MAXIT && m; ++it) {
      __m512 zr2 = _mm512_mul_ps(zr, zr), zi2 = _mm512_mul_ps(zi, zi);
      m = _mm512_mask_cmp_ps_mask(m, _mm512_add_ps(zr2, zi2), _mm512_set1_ps(4.0f), _CMP_LE_OQ);
      k = _mm512_mask_add_epi32(k, m, k, _mm512_set1_epi32(1));
      __m512 t = _mm512_add_ps(_mm512_sub_ps(zr2, zi2), cr);
      zi = _mm512_mask_mov_ps(zi, m, _mm512_add_ps(_mm512_mul_ps(_mm512_add_ps(zr, zr), zi), ci));
      zr = _mm512_mask_mov_ps(zr, m, t);
    }
    _mm512_storeu_si512(out + (size_t)py * W + px, k);
  }
}
static long done;
static void *worker(void *p) { int cpu = (int)(long)p; cpu_set_t cs; CPU_ZERO(&cs); CPU_SET(cpu, &cs); pthread_setaffinity_np(pthread_self(), sizeof cs, &cs);
  pthread_barrier_wait(&bar); long rows = 0;
  for (;;) { long r = atomic_fetch_add(&nextRow, 1); if (atomic_load(&stop)) break; row((int)(r % H)); rows++; }
  __atomic_add_fetch(&done, rows, __ATOMIC_RELAXED); return 0; }
int main(int argc, char **argv) { secs = argc > 1 ? atof(argv[1]) : 2;
  if (!__builtin_cpu_supports("avx512f")) { fprintf(stderr, "this CPU lacks AVX-512\n"); return 2; } out = aligned_alloc(64, (size_t)W * H * 4);
  cpu_set_t cs; sched_getaffinity(0, sizeof cs, &cs); int n = 0, cpus[256]; for (int c = 0; c < 256; c++) if (CPU_ISSET(c, &cs)) cpus[n++] = c;
  pthread_barrier_init(&bar, 0, n + 1); pthread_t th[256]; for (int i = 0; i < n; i++) pthread_create(&th[i], 0, worker, (void *)(long)cpus[i]);
  pthread_barrier_wait(&bar); double t0 = now(); while (now() - t0 < secs) { struct timespec s = {0, 10000000}; nanosleep(&s, 0); }
  atomic_store(&stop, 1); double t1 = now(); for (int i = 0; i < n; i++) pthread_join(th[i], 0);
  // check one row against scalar
  int bad = 0; for (int px = 0; px < W; px++) { int py = H / 2; float cr = -2.1f + px * (3.0f / W), ci = -1.2f + py * (2.4f / H), zr = 0, zi = 0; unsigned k = 0;
    while (k < MAXIT && zr * zr + zi * zi <= 4.0f) { float t = zr * zr - zi * zi + cr; zi = 2.0f * zr * zi + ci; zr = t; ++k; }
    row(py); if (out[(size_t)py * W + px] != k) bad++; }
  printf("MB512 threads=%d %.1f Mpixel/s mismatches %d\n", n, (double)done * W / (t1 - t0) / 1e6, bad); return 0; }

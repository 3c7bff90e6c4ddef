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

enum { kWidth = 2048, kHeight = 1536, kMaxIterations = 256, kMaxThreads = 256 };
static const float kX0 = -2.1f, kY0 = -1.2f, kDx = 3.0f / kWidth, kDy = 2.4f / kHeight;

static unsigned *image;
static atomic_long nextRow, rowsDone;
static atomic_int stop;
static pthread_barrier_t start;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

// One row, 16 pixels at a time; a lane leaves the mask when its pixel escapes.
__attribute__((target("avx512f"))) static void row(int py) {
  __m512 ci = _mm512_set1_ps(kY0 + py * kDy);
  __m512 lane = _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  for (int px = 0; px < kWidth; px += 16) {
    __m512 cr = _mm512_add_ps(
        _mm512_set1_ps(kX0),
        _mm512_mul_ps(_mm512_add_ps(_mm512_set1_ps((float)px), lane), _mm512_set1_ps(kDx)));
    __m512 zr = _mm512_setzero_ps(), zi = _mm512_setzero_ps();
    __m512i count = _mm512_setzero_si512();
    __mmask16 going = 0xffff;
    for (int k = 0; k < kMaxIterations && going; ++k) {
      __m512 zr2 = _mm512_mul_ps(zr, zr), zi2 = _mm512_mul_ps(zi, zi);
      going =
          _mm512_mask_cmp_ps_mask(going, _mm512_add_ps(zr2, zi2), _mm512_set1_ps(4.0f), _CMP_LE_OQ);
      count = _mm512_mask_add_epi32(count, going, count, _mm512_set1_epi32(1));
      __m512 t = _mm512_add_ps(_mm512_sub_ps(zr2, zi2), cr);
      zi = _mm512_mask_mov_ps(zi, going,
                              _mm512_add_ps(_mm512_mul_ps(_mm512_add_ps(zr, zr), zi), ci));
      zr = _mm512_mask_mov_ps(zr, going, t);
    }
    _mm512_storeu_si512(image + (size_t)py * kWidth + px, count);
  }
}

// The benchmark's host reference for one pixel.
static unsigned escape(int px, int py) {
  float cr = kX0 + px * kDx, ci = kY0 + py * kDy, zr = 0, zi = 0;
  unsigned k = 0;
  while (k < kMaxIterations && zr * zr + zi * zi <= 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++k;
  }
  return k;
}

static void *run(void *p) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET((int)(long)p, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
  pthread_barrier_wait(&start);
  while (!atomic_load(&stop)) {
    row((int)(atomic_fetch_add(&nextRow, 1) % kHeight));
    atomic_fetch_add(&rowsDone, 1);
  }
  return NULL;
}

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 2;
  if (!__builtin_cpu_supports("avx512f")) {
    fprintf(stderr, "this CPU lacks AVX-512\n");
    return 2;
  }
  image = aligned_alloc(64, (size_t)kWidth * kHeight * sizeof *image);
  cpu_set_t set;
  sched_getaffinity(0, sizeof set, &set);
  long cpus[kMaxThreads];
  int n = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE && n < kMaxThreads; cpu++)
    if (CPU_ISSET(cpu, &set)) cpus[n++] = cpu;
  pthread_t threads[kMaxThreads];
  pthread_barrier_init(&start, NULL, n + 1);  // and this thread, which keeps the time
  for (int i = 0; i < n; i++) pthread_create(&threads[i], NULL, run, (void *)cpus[i]);
  pthread_barrier_wait(&start);
  double t0 = now();
  while (now() - t0 < seconds) nanosleep(&(struct timespec){0, 10000000}, NULL);
  long rows = atomic_load(&rowsDone);
  double t1 = now();
  atomic_store(&stop, 1);
  for (int i = 0; i < n; i++) pthread_join(threads[i], NULL);

  int py = kHeight / 2, mismatches = 0;
  row(py);
  for (int px = 0; px < kWidth; px++)
    mismatches += image[(size_t)py * kWidth + px] != escape(px, py);
  printf("MB512 threads=%d %.1f Mpixel/s mismatches %d\n", n,
         (double)rows * kWidth / (t1 - t0) / 1e6, mismatches);
  return 0;
}

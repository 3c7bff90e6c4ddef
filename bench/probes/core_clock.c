// core_clock MODE [SECS]: a probe, not a benchmark. One thread per CPU of the
// process's affinity mask runs MODE for SECS seconds (default 0.3):
//   fma512, fma256: blocks of 12 register-resident FMA chains, AVX-512 or AVX2;
//   idle:           nothing but the clock measurement below.
// After each block every thread times 4000 dependent imuls (3 cycles each)
// with rdtsc, which gives its core's clock without performance counters
// (the VMs this was written for expose none). It prints the mean, lowest and
// highest clock over the threads and the blocks per second per thread.
// (A chain of dependent adds does not work: recent Intel cores fold
// add-immediate chains at rename.)
//
// Build: cc -O2 -pthread -o core_clock core_clock.c
#define _GNU_SOURCE
#include <immintrin.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

enum { kChainCycles = 4000 * 3, kMaxThreads = 256 };

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

// TSC ticks for kChainCycles core cycles.
static unsigned long long imulChain(void) {
  unsigned long long x = 3, start = __rdtsc();
  for (int i = 0; i < 1000; i++)
    __asm__ volatile("imul %0,%0\n\timul %0,%0\n\timul %0,%0\n\timul %0,%0" : "+r"(x));
  return __rdtsc() - start;
}

// 10,000 rounds of 12 independent FMA chains, kept in registers: the asm
// statement tells the compiler the chains are used, so none is dropped.
#define FMA_BLOCK(name, isa, type, set1, fmadd)                                                   \
  __attribute__((target(isa))) static void name(void) {                                           \
    type m = set1(0.999999f), c = set1(1e-6f);                                                    \
    type a0 = set1(1.00f), a1 = set1(1.01f), a2 = set1(1.02f), a3 = set1(1.03f);                  \
    type a4 = set1(1.04f), a5 = set1(1.05f), a6 = set1(1.06f), a7 = set1(1.07f);                  \
    type a8 = set1(1.08f), a9 = set1(1.09f), a10 = set1(1.10f), a11 = set1(1.11f);                \
    for (int r = 0; r < 10000; r++) {                                                             \
      a0 = fmadd(a0, m, c), a1 = fmadd(a1, m, c), a2 = fmadd(a2, m, c), a3 = fmadd(a3, m, c);     \
      a4 = fmadd(a4, m, c), a5 = fmadd(a5, m, c), a6 = fmadd(a6, m, c), a7 = fmadd(a7, m, c);     \
      a8 = fmadd(a8, m, c), a9 = fmadd(a9, m, c), a10 = fmadd(a10, m, c);                         \
      a11 = fmadd(a11, m, c);                                                                     \
    }                                                                                             \
    __asm__ volatile("" ::"v"(a0), "v"(a1), "v"(a2), "v"(a3), "v"(a4), "v"(a5), "v"(a6), "v"(a7), \
                     "v"(a8), "v"(a9), "v"(a10), "v"(a11));                                       \
  }
FMA_BLOCK(fma512, "avx512f,fma", __m512, _mm512_set1_ps, _mm512_fmadd_ps)
FMA_BLOCK(fma256, "avx2,fma", __m256, _mm256_set1_ps, _mm256_fmadd_ps)

static void idle(void) {
  for (int i = 0; i < 50; i++) imulChain();
}

typedef struct {
  int cpu;
  void (*block)(void);
  double seconds, ticks, blocks;
} Thread;

static pthread_barrier_t start;

static void *run(void *p) {
  Thread *t = p;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(t->cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
  pthread_barrier_wait(&start);
  for (double t0 = now(); now() - t0 < t->seconds; t->blocks++) {
    t->block();
    t->ticks += imulChain();
  }
  return NULL;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "fma512";
  double seconds = argc > 2 ? atof(argv[2]) : 0.3;
  void (*block)(void) = !strcmp(mode, "fma512")   ? fma512
                        : !strcmp(mode, "fma256") ? fma256
                        : !strcmp(mode, "idle")   ? idle
                                                  : NULL;
  if (!block) {
    fprintf(stderr, "usage: core_clock fma512|fma256|idle [SECS]\n");
    return 2;
  }
  if ((block == fma512 && !__builtin_cpu_supports("avx512f")) ||
      (block == fma256 && !__builtin_cpu_supports("fma"))) {
    fprintf(stderr, "this CPU lacks %s\n", mode);
    return 2;
  }
  // The TSC's rate, against the monotonic clock.
  double t0 = now();
  unsigned long long r0 = __rdtsc();
  while (now() - t0 < 0.05) {
  }
  double tscGHz = (__rdtsc() - r0) / (now() - t0) / 1e9;

  cpu_set_t set;
  sched_getaffinity(0, sizeof set, &set);
  static Thread threads[kMaxThreads];
  pthread_t ids[kMaxThreads];
  int n = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE && n < kMaxThreads; cpu++)
    if (CPU_ISSET(cpu, &set))
      threads[n++] = (Thread){.cpu = cpu, .block = block, .seconds = seconds};
  pthread_barrier_init(&start, NULL, n);
  for (int i = 0; i < n; i++) pthread_create(&ids[i], NULL, run, &threads[i]);
  double sum = 0, lowest = 1e9, highest = 0, blocks = 0;
  for (int i = 0; i < n; i++) {
    pthread_join(ids[i], NULL);
    double ghz = kChainCycles * tscGHz / (threads[i].ticks / threads[i].blocks);
    sum += ghz;
    lowest = ghz < lowest ? ghz : lowest;
    highest = ghz > highest ? ghz : highest;
    blocks += threads[i].blocks;
  }
  printf(
      "CLK mode=%s threads=%d tsc=%.3f GHz core clock mean %.3f min %.3f max %.3f GHz, "
      "blocks/s/thread %.0f\n",
      mode, n, tscGHz, sum / n, lowest, highest, blocks / n / seconds);
  return 0;
}

// cpu_sampler.so: a probe, not a benchmark. A sampling profiler for machines
// without perf (the device machine has none): preloaded into a program, it
// takes the interrupted instruction address of whichever thread is running
// each time the process has used another 200 us of CPU (SIGPROF; the kernel
// rounds the interval up to its tick), and at exit writes
//   $SAMPLER_DIR/samples-PID.txt   one "address count" line per address
//   $SAMPLER_DIR/maps-PID.txt      /proc/self/maps, to name the libraries
// With LOCKSTEP_PERF_MAP=1 Lockstep writes /tmp/perf-PID.map (each kernel's
// address and size), and with LOCKSTEP_CACHE_DIR set the kernel cache keeps
// the object files (ELF images inside each .bin), whose symbol tables place
// the kernels' versions and whose disassembly shows the sampled instructions:
//
//   LD_PRELOAD=./cpu_sampler.so SAMPLER_DIR=out LOCKSTEP_PERF_MAP=1
//     LOCKSTEP_CACHE_DIR=out/cache lockstep-bench --bench rw_stencil_null --reps 300
//   (one command line)
//
// Samples land where an instruction waits (or just after it), as perf's do.
// Session 34 placed the 2-core Xeon's stencil time with it: the loads of the
// row below in the vector loop, not the runtime or the group schedule.
//
// Build: cc -O2 -shared -fPIC -o cpu_sampler.so cpu_sampler.c
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <ucontext.h>
#include <unistd.h>

#define kMaxSamples (1 << 22)
static unsigned long samples[kMaxSamples];
static long taken;

static void onTick(int sig, siginfo_t *info, void *context) {
  (void)sig;
  (void)info;
  long i = __atomic_fetch_add(&taken, 1, __ATOMIC_RELAXED);
  if (i < kMaxSamples) samples[i] = ((ucontext_t *)context)->uc_mcontext.gregs[REG_RIP];
}

static int byAddress(const void *a, const void *b) {
  unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;
  return x < y ? -1 : x > y;
}

static FILE *output(const char *kind) {
  const char *dir = getenv("SAMPLER_DIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/%s-%d.txt", dir ? dir : "/tmp", kind, getpid());
  return fopen(path, "w");
}

__attribute__((constructor)) static void start(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = onTick;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigaction(SIGPROF, &action, 0);
  struct itimerval every = {{0, 200}, {0, 200}};
  setitimer(ITIMER_PROF, &every, 0);
}

__attribute__((destructor)) static void finish(void) {
  struct itimerval off;
  memset(&off, 0, sizeof off);
  setitimer(ITIMER_PROF, &off, 0);
  long n = taken < kMaxSamples ? taken : kMaxSamples;
  qsort(samples, n, sizeof samples[0], byAddress);
  fprintf(stderr, "cpu_sampler: pid %d, %ld samples\n", getpid(), taken);
  FILE *out = output("samples");
  if (out) {
    for (long i = 0; i < n;) {
      long j = i;
      while (j < n && samples[j] == samples[i]) ++j;
      fprintf(out, "%lx %ld\n", samples[i], j - i);
      i = j;
    }
    fclose(out);
  }
  FILE *in = fopen("/proc/self/maps", "r");
  out = output("maps");
  char line[1024];
  while (in && out && fgets(line, sizeof line, in)) fputs(line, out);
  if (in) fclose(in);
  if (out) fclose(out);
}

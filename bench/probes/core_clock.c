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
#include <x86intrin.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static const char *mode; static double secs; static pthread_barrier_t bar;
static inline unsigned long long chain(void){ unsigned long long x=3; unsigned long long t0=__rdtsc();
  for(int i=0;i<1000;i++) __asm__ volatile("imul %0,%0\n\timul %0,%0\n\timul %0,%0\n\timul %0,%0" : "+r"(x));
  return __rdtsc()-t0; }
__attribute__((target("avx512f,fma"))) static void blk512(__m512 *a){ __m512 m=_mm512_set1_ps(0.999999f), c=_mm512_set1_ps(1e-6f); __m512 a0=a[0], a1=a[1], a2=a[2], a3=a[3], a4=a[4], a5=a[5], a6=a[6], a7=a[7], a8=a[8], a9=a[9], a10=a[10], a11=a[11];
  for(int r=0;r<10000;r++){ a0=_mm512_fmadd_ps(a0,m,c); a1=_mm512_fmadd_ps(a1,m,c); a2=_mm512_fmadd_ps(a2,m,c); a3=_mm512_fmadd_ps(a3,m,c); a4=_mm512_fmadd_ps(a4,m,c); a5=_mm512_fmadd_ps(a5,m,c); a6=_mm512_fmadd_ps(a6,m,c); a7=_mm512_fmadd_ps(a7,m,c); a8=_mm512_fmadd_ps(a8,m,c); a9=_mm512_fmadd_ps(a9,m,c); a10=_mm512_fmadd_ps(a10,m,c); a11=_mm512_fmadd_ps(a11,m,c); __asm__ volatile("" : "+v"(a0),"+v"(a1)); } a[0]=a0; a[1]=a1; a[2]=a2; a[3]=a3; a[4]=a4; a[5]=a5; a[6]=a6; a[7]=a7; a[8]=a8; a[9]=a9; a[10]=a10; a[11]=a11; }
__attribute__((target("avx2,fma"))) static void blk256(__m256 *a){ __m256 m=_mm256_set1_ps(0.999999f), c=_mm256_set1_ps(1e-6f); __m256 a0=a[0], a1=a[1], a2=a[2], a3=a[3], a4=a[4], a5=a[5], a6=a[6], a7=a[7], a8=a[8], a9=a[9], a10=a[10], a11=a[11];
  for(int r=0;r<10000;r++){ a0=_mm256_fmadd_ps(a0,m,c); a1=_mm256_fmadd_ps(a1,m,c); a2=_mm256_fmadd_ps(a2,m,c); a3=_mm256_fmadd_ps(a3,m,c); a4=_mm256_fmadd_ps(a4,m,c); a5=_mm256_fmadd_ps(a5,m,c); a6=_mm256_fmadd_ps(a6,m,c); a7=_mm256_fmadd_ps(a7,m,c); a8=_mm256_fmadd_ps(a8,m,c); a9=_mm256_fmadd_ps(a9,m,c); a10=_mm256_fmadd_ps(a10,m,c); a11=_mm256_fmadd_ps(a11,m,c); __asm__ volatile("" : "+v"(a0),"+v"(a1)); } a[0]=a0; a[1]=a1; a[2]=a2; a[3]=a3; a[4]=a4; a[5]=a5; a[6]=a6; a[7]=a7; a[8]=a8; a[9]=a9; a[10]=a10; a[11]=a11; }
typedef struct { int cpu; double ticks; long n; double blocks; } arg_t;
static void *worker(void *p){ arg_t *a=p; cpu_set_t cs; CPU_ZERO(&cs); CPU_SET(a->cpu,&cs); pthread_setaffinity_np(pthread_self(),sizeof cs,&cs);
  __attribute__((aligned(64))) float buf[12*16]; for(int i=0;i<12*16;i++) buf[i]=1.0f+i*1e-3f;
  pthread_barrier_wait(&bar); double t0=now(); a->ticks=0; a->n=0; a->blocks=0;
  while(now()-t0<secs){
    if(!strcmp(mode,"fma512")) blk512((__m512*)buf); else if(!strcmp(mode,"fma256")) blk256((__m256*)buf);
    else { for(int i=0;i<50;i++) chain(); }
    a->blocks++; a->ticks+=chain(); a->n++; }
  volatile float s=buf[0]; (void)s; return 0; }
int main(int argc,char**argv){ mode=argc>1?argv[1]:"fma512"; secs=argc>2?atof(argv[2]):0.3;
  if((!strcmp(mode,"fma512")&&!__builtin_cpu_supports("avx512f"))||(!strcmp(mode,"fma256")&&!__builtin_cpu_supports("fma"))){ fprintf(stderr,"this CPU lacks %s\n",mode); return 2; }
  if(strcmp(mode,"fma512")&&strcmp(mode,"fma256")&&strcmp(mode,"idle")){ fprintf(stderr,"usage: core_clock fma512|fma256|idle [SECS]\n"); return 2; }
  cpu_set_t cs; sched_getaffinity(0,sizeof cs,&cs); int cpus[256],n=0; for(int c=0;c<256;c++) if(CPU_ISSET(c,&cs)) cpus[n++]=c;
  double t0=now(); unsigned long long r0=__rdtsc(); while(now()-t0<0.05){} double tsc=(__rdtsc()-r0)/(now()-t0)/1e9;
  pthread_barrier_init(&bar,0,n); pthread_t th[256]; arg_t ar[256];
  for(int i=0;i<n;i++){ar[i].cpu=cpus[i];pthread_create(&th[i],0,worker,&ar[i]);}
  double sum=0,mn=1e9,mx=0,blocks=0; for(int i=0;i<n;i++){pthread_join(th[i],0); double g=12000.0*tsc/(ar[i].ticks/ar[i].n); sum+=g; if(g<mn)mn=g; if(g>mx)mx=g; blocks+=ar[i].blocks;}
  printf("CLK mode=%s threads=%d tsc=%.3f GHz core clock mean %.3f min %.3f max %.3f GHz, blocks/s/thread %.0f\n",mode,n,tsc,sum/n,mn,mx,blocks/n/secs); return 0; }

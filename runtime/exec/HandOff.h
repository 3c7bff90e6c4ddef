// Happens-before edges that ThreadSanitizer cannot see by itself. oneTBB
// (Debian's library, not instrumented) hands a task to a worker thread, and
// reports a parallel loop done, through its own atomics and futexes; to a
// ThreadSanitizer build every access the task makes to what its creator
// wrote would look like a race. The runtime marks each hand-over: handOff
// where work leaves a thread, takeOver where another thread picks it up,
// both on the same address. Nothing in other builds.
#pragma once

#if defined(__SANITIZE_THREAD__)
extern "C" void __tsan_acquire(void *address);
extern "C" void __tsan_release(void *address);
#endif

namespace lockstep::runtime {

inline void handOff(const void *address) {
#if defined(__SANITIZE_THREAD__)
  __tsan_release(const_cast<void *>(address));
#else
  (void)address;
#endif
}

inline void takeOver(const void *address) {
#if defined(__SANITIZE_THREAD__)
  __tsan_acquire(const_cast<void *>(address));
#else
  (void)address;
#endif
}

}  // namespace lockstep::runtime

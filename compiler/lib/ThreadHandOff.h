// Happens-before edges that ThreadSanitizer cannot see in the compiler
// library. The library is never instrumented (it runs inside LLVM and
// Clang, which Debian ships uninstrumented; cmake/LockstepSanitize.cmake),
// so what it synchronizes inline — a tbb::parallel_for's end (the task's
// release of its wait_context is inlined here), a function-local static's
// guard on its fast path — is invisible to a ThreadSanitizer build of the
// rest, and what one thread wrote here looks raced when another reads it.
// handOff where a value leaves a thread, takeOver where another thread
// picks it up, both on the same address: ThreadSanitizer's own
// annotations, called only when its runtime is in the process (weak
// symbols: a plain build pays one untaken branch).
#pragma once

extern "C" void __tsan_acquire(void *address) __attribute__((weak));
extern "C" void __tsan_release(void *address) __attribute__((weak));

namespace lockstep::compiler {

inline void handOff(const void *address) {
  if (__tsan_release) __tsan_release(const_cast<void *>(address));
}

inline void takeOver(const void *address) {
  if (__tsan_acquire) __tsan_acquire(const_cast<void *>(address));
}

}  // namespace lockstep::compiler

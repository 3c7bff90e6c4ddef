# LOCKSTEP_SANITIZE builds Lockstep's own code with GCC's sanitizers:
#   -DLOCKSTEP_SANITIZE=address,undefined   AddressSanitizer + UBSan
#   -DLOCKSTEP_SANITIZE=thread              ThreadSanitizer
# Instrumented: the runtime, the driver library, the tests, the demo and the
# benchmarks (everything added after this file is included). Not instrumented:
# the compiler library (LLVM and Clang, which Debian ships uninstrumented,
# run inside it; its own code is exercised by the IR tests and by every build
# the tests make) and the `opt` plugin (it is loaded by LLVM's `opt`, which has
# no sanitizer runtime). `scripts/test --sanitize=...` builds this into its own
# folder and runs the whole suite; docs/testing.md says what each mode checks.
set(LOCKSTEP_SANITIZE "" CACHE STRING
  "Sanitizers for the runtime, driver and tests: address,undefined or thread (empty: none)")

if(LOCKSTEP_SANITIZE)
  if(LOCKSTEP_SANITIZE STREQUAL "address,undefined" OR LOCKSTEP_SANITIZE STREQUAL "undefined,address")
    set(_flags -fsanitize=address,undefined -fno-sanitize-recover=undefined)
  elseif(LOCKSTEP_SANITIZE STREQUAL "address")
    set(_flags -fsanitize=address)
  elseif(LOCKSTEP_SANITIZE STREQUAL "thread")
    set(_flags -fsanitize=thread)
  else()
    message(FATAL_ERROR "LOCKSTEP_SANITIZE=${LOCKSTEP_SANITIZE}: use address,undefined or thread")
  endif()
  message(STATUS "Lockstep: sanitizers ${LOCKSTEP_SANITIZE}")
  # Frame pointers and line tables for readable reports.
  add_compile_options(${_flags} -fno-omit-frame-pointer -g1)
  add_link_options(${_flags})
  # Instrumented code runs slower: tests get LOCKSTEP_TEST_TIMEOUT_SCALE
  # times their usual time limit.
  set(LOCKSTEP_TEST_TIMEOUT_SCALE 4)
else()
  set(LOCKSTEP_TEST_TIMEOUT_SCALE 1)
endif()

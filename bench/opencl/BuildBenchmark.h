// Build time, measured where it matters to a user: in a fresh process, once
// with an empty kernel cache and once more with the cache the first process
// left. Both PoCL and Lockstep keep their caches under $XDG_CACHE_HOME, so
// each repetition points it at a new empty directory.
#pragma once

#include "Options.h"
#include "Report.h"

namespace bench {

// The child's side (--build-probe): builds the suite, then launches every
// kernel once at smoke size, verified, and prints
// "build_ms <ms> first_launch_ms <ms>". Returns the exit status.
int runBuildProbe(const Options &options);

// The parent's side: runs the probes and emits build_cold, build_warm,
// first_launch_cold and first_launch_warm.
void runBuildBenchmark(const Options &options, Reporter &reporter);

}  // namespace bench

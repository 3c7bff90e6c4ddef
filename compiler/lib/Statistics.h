// STATISTIC as LLVM's passes write it, counting in a release build too.
//
// LLVM's STATISTIC is a no-op unless LLVM was built with assertions or with
// LLVM_FORCE_ENABLE_STATS, which its installed llvm-config.h fixes (Debian's
// release LLVM: 0), so a definition on our command line cannot turn it on.
// TrackingStatistic itself is always there: LOCKSTEP_STATISTIC declares one,
// so -stats (LOCKSTEP_LLVM_OPTIONS, or opt with the pass plugin) reports
// what the work-group passes did. Its increments are atomic adds, at
// compile time only.
#ifndef LOCKSTEP_COMPILER_STATISTICS_H
#define LOCKSTEP_COMPILER_STATISTICS_H

#include <llvm/ADT/Statistic.h>

#define LOCKSTEP_STATISTIC(VARNAME, DESC) \
  static llvm::TrackingStatistic VARNAME = {DEBUG_TYPE, #VARNAME, DESC}

#endif  // LOCKSTEP_COMPILER_STATISTICS_H

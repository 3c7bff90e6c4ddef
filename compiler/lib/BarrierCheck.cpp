// What a checked kernel (LOCKSTEP_CHECK_BARRIERS) calls when its work-items
// disagree about reaching a barrier: a message on stderr naming the kernel,
// the branch and barrier lines and the work-items, and a failure the runtime
// picks up to end the launch with an error instead of garbage or a hang.
#include <cstdio>
#include <string>

#include "Internal.h"

namespace lockstep::compiler {
namespace {
thread_local std::string pendingFailure;
}

void reportBarrierDivergence(const char *what, const GroupInfo *group, uint64_t workItem) {
  uint64_t x = workItem % group->localSize[0];
  uint64_t y = workItem / group->localSize[0] % group->localSize[1];
  uint64_t z = workItem / (group->localSize[0] * group->localSize[1]);
  char ids[160];
  std::snprintf(ids, sizeof ids,
                ": local work-items (0,0,0) and (%llu,%llu,%llu) of work-group (%llu,%llu,%llu) disagree",
                (unsigned long long)x, (unsigned long long)y, (unsigned long long)z,
                (unsigned long long)group->groupId[0], (unsigned long long)group->groupId[1],
                (unsigned long long)group->groupId[2]);
  std::string message = std::string("Lockstep barrier check: ") + what + ids +
                        " (all work-items of a group must reach the same barriers)";
  std::fprintf(stderr, "%s\n", message.c_str());
  if (pendingFailure.empty()) pendingFailure = std::move(message);
}

std::string takeKernelFailure() {
  std::string failure;
  failure.swap(pendingFailure);
  return failure;
}

}  // namespace lockstep::compiler

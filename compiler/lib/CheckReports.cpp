// What checked kernels call when a check fails, and where a polling loop
// leaves a launch the watchdog stopped (stopGroup): work-items that disagree
// about reaching a barrier (LOCKSTEP_CHECK_BARRIERS), an access outside its
// buffer (LOCKSTEP_CHECK_BOUNDS). Each prints a message on stderr naming the
// kernel, the source lines and the work-items, and leaves a failure the
// runtime picks up (takeKernelFailure) to end the launch with an error
// instead of garbage, a hang or a corrupted heap.
#include <csetjmp>
#include <cstdio>
#include <string>

#include <cstdlib>

#include "Internal.h"

namespace lockstep::compiler {
namespace {
thread_local std::string pendingFailure;
// Where a failed bounds check leaves the group (runCheckedGroup).
thread_local std::jmp_buf *groupExit = nullptr;
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

void reportOutOfBounds(const char *site, uint64_t offset, uint64_t size, uint64_t gx, uint64_t gy,
                       uint64_t gz) {
  // Offsets below the start wrapped around: show them as negative.
  char where[64];
  if (int64_t(offset) < 0) std::snprintf(where, sizeof where, "%lld", (long long)int64_t(offset));
  else std::snprintf(where, sizeof where, "%llu", (unsigned long long)offset);
  char tail[256];
  std::snprintf(tail, sizeof tail, " is at byte offset %s of %llu bytes, outside it; work-item (%llu,%llu,%llu)",
                where, (unsigned long long)size, (unsigned long long)gx, (unsigned long long)gy,
                (unsigned long long)gz);
  std::string message = std::string("Lockstep bounds check: ") + site + tail;
  std::fprintf(stderr, "%s\n", message.c_str());
  pendingFailure = std::move(message);
  // The kernel's code between runCheckedGroup and here keeps no state of
  // its own that needs undoing (no locks, no destructors: OpenCL C).
  if (groupExit) std::longjmp(*groupExit, 1);
  std::abort();  // a checked kernel always runs through runCheckedGroup
}

void stopGroup() {
  if (groupExit) std::longjmp(*groupExit, 1);
  // Not run through runCheckedGroup: the loop polls again (never the case;
  // the launcher runs every polling kernel through it).
}

bool runCheckedGroup(WorkGroupFunction function, const void *args, const GroupInfo *group, void *localMemory,
                     void *workItemContext) {
  std::jmp_buf exit;
  std::jmp_buf *outer = groupExit;
  groupExit = &exit;
  if (setjmp(exit) != 0) {
    groupExit = outer;
    return false;
  }
  function(args, group, localMemory, workItemContext);
  groupExit = outer;
  return true;
}

std::string takeKernelFailure() {
  std::string failure;
  failure.swap(pendingFailure);
  return failure;
}

}  // namespace lockstep::compiler

// What the work-group passes tell each other, in the IR. They run in this
// order (PassPipeline.cpp), each alone under `opt` too:
//
//   lockstep-kernel-versions   (KernelVersions.cpp) clones each kernel into
//                              the versions it may run as, each marked with
//                              kWorkGroupVersionAttr, and lists them on the
//                              kernel (kVersionsMetadata);
//   lockstep-loop-cuts         (LoopCuts.cpp) takes kernel loops out of
//                              guards (GuardedLoops.cpp), cuts, peels and
//                              masks them in the kernel and in its versions
//                              that keep loop cuts, marking what it adds
//                              (kLoopCutMarker, kResidentMarker,
//                              kGroupWideMarker, kMaskedCountMarker,
//                              kWorkItemCountPlaceholder), and drops the
//                              versions of a kernel it made no cut in;
//   lockstep-work-group-loops  (WorkGroupLoops.cpp) builds each function's
//                              work-item loops, reading those marks, and
//                              removes them;
//   lockstep-version-dispatch  (VersionDispatch.cpp) makes each kernel's
//                              prologue call the version for its group's
//                              width, and removes kVersionsMetadata.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

#include "Internal.h"

namespace lockstep::compiler {

// Marks the barrier calls that LoopCuts.cpp adds at the top of uniform
// loops: they order nothing, so they fence nothing, and they are not the
// kernel's own barriers (kBarrierCountAttr does not count them).
inline constexpr const char *kLoopCutMarker = "lockstep.loop_cut";
inline bool isLoopCut(const llvm::CallInst &call) { return call.hasMetadata(kLoopCutMarker); }

// Marks the latch of a loop that LastRound.cpp keeps as it was, for the
// launches its checks reject: LoopCuts neither cuts nor masks it.
inline constexpr const char *kWholeLoopMarker = "lockstep.whole_loop";

// Private variables that MaskedLoops.cpp marks for the work-group loops:
// kept in the context and accessed there in every region even though they
// could be promoted (kResidentMarker: a masked loop's `active` flag, which
// changes only when a work-item leaves and is its count's input); of those,
// the ones every work-item reads and writes in one place, work-item 0's
// (kGroupWideMarker: a masked loop's `dirty`), whose distinct node also
// marks the count of active work-items it belongs to (kMaskedCountMarker).
// The work-group loops remove the marks once the function is built.
inline constexpr const char *kResidentMarker = "lockstep.resident";
inline constexpr const char *kGroupWideMarker = "lockstep.group_wide";
inline constexpr const char *kMaskedCountMarker = "lockstep.masked_count";
inline bool isKeptResident(const llvm::AllocaInst &variable) { return variable.hasMetadata(kResidentMarker); }
inline bool isGroupWide(const llvm::AllocaInst &variable) { return variable.hasMetadata(kGroupWideMarker); }

// `i64 @lockstep.work_items()`: the number of work-items in the group, which
// a masked loop compares its count of active ones with. The work-group loops
// replace its calls with the count they compute in the prologue.
inline constexpr const char *kWorkItemCountPlaceholder = "lockstep.work_items";

// Which version of its kernel a work-group function is (KernelVersions.cpp);
// a function without the attribute is the kernel itself, with loop cuts and
// work-item loops interleaved by the vectorizer.
inline constexpr const char *kWorkGroupVersionAttr = "lockstep-work-group-version";
// The kernel's versions, in the order the dispatch tries them (metadata on
// the kernel: a node of functions).
inline constexpr const char *kVersionsMetadata = "lockstep.versions";

enum class WorkGroupVersion {
  LoopCuts,    // the kernel itself
  WholeLoops,  // no loop cuts: groups too narrow to widen a cut loop's rows
  NarrowCut,   // loop cuts, work-item loops one vector a trip: narrow rows
  NarrowRows,  // a straight-line kernel with masked loop tails: rows that
               // are not a multiple of the vector step
  VectorRows,  // loop cuts, rows of exactly kRowWidthAttr work-items (16,
               // and the narrower kNarrowRowWidths): the work-item loops'
               // length is a constant
  WholeRows,   // loop cuts over whole rows, for a kernel that runs in
               // strips (Strips.cpp): rows that are not a multiple of the
               // strip width
  EdgeGroups,  // loop cuts over whole rows, the loops of groups that a
               // guard splits masked (GuardedLoops.cpp): the groups at the
               // edges of the grid
};
// A kernel that runs in strips: their width, in work-items (set by the
// work-group loops, read by the dispatch).
inline constexpr const char *kStripWidthAttr = "lockstep-strip-width";
// A kernel in strips that takes `int` global ids for exact (Strips.cpp):
// launches whose global ids along x pass INT_MAX run its WholeRows version.
inline constexpr const char *kStripIntIdsAttr = "lockstep-strip-int-ids";
// A vector-rows version's row width, in work-items.
inline constexpr const char *kRowWidthAttr = "lockstep-row-width";
WorkGroupVersion versionOf(const llvm::Function &F);
void setVersion(llvm::Function &F, WorkGroupVersion version);
// The kernel's versions (kVersionsMetadata), and setting them (none: the
// metadata removed).
llvm::SmallVector<llvm::Function *, 2> versionsOf(const llvm::Function &kernel);
void setVersions(llvm::Function &kernel, llvm::ArrayRef<llvm::Function *> versions);
// The kernels of a module: the work-group functions the runtime calls, not
// their versions.
llvm::SmallVector<llvm::Function *, 8> kernelsOf(llvm::Module &M);

// How one work-group function is built.
struct WorkGroupLoopsOptions {
  // Cut uniform kernel loops and mask the others (LoopCuts.cpp); the work-
  // group loops then jam rows of cut loops (RowJam.cpp).
  bool cutLoops = true;
  // The work-item loops ask the vectorizer to fold their remainder into
  // masked vector iterations (llvm.loop.vectorize.predicate.enable).
  bool foldTails = false;
  // The work-item loops are widened one vector a trip, not interleaved: for
  // groups whose rows are a vector or two wide.
  bool narrowRows = false;
  // Nonzero: every row of the group is this many work-items wide, so the
  // work-item loops along x run a constant count (VectorRows).
  uint64_t rowWidth = 0;
  // Nonzero: the kernel has no barrier or collective of its own, so its
  // region machine may run strip by strip, this many work-items of a row
  // each (Strips.cpp).
  uint64_t stripWidth = 0;
  // The width of the target's vector registers: a kernel with vectors this
  // wide keeps its vectors whole (they are not split for widening across
  // work-items), so its loops with vector values are not cut.
  unsigned vectorBits = 512;
};
WorkGroupLoopsOptions optionsFor(const llvm::Function &F, unsigned vectorBits);
// The strips' width for vectors of `vectorBits` (Strips.cpp), and whether a
// kernel (before its loops are cut) may run in strips.
uint64_t stripWidthFor(unsigned vectorBits);
bool mayRunInStrips(const llvm::Function &kernel);

}  // namespace lockstep::compiler

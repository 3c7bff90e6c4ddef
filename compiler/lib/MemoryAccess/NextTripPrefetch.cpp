// NextTripPrefetchPass, after -O3: a load that jumps far each trip of its
// loop, inside a loop that runs other loops besides it, prefetches what the
// same load will read on the outer loop's next trip.
//
// A tiled kernel's loop over its tiles (`for (t = 0; t < N / 16; t++)`,
// with barriers) becomes a loop over regions: one loads the tile's rows
// into __local memory (`Bs[ty][tx] = B[(t * 16 + ty) * N + col]`), one
// computes on them. The rows of a tile are a row pitch apart: a line from
// each of 16 pages, no stream a hardware prefetcher follows, so every tile
// waits on memory for its rows, and only then computes. The rows of the
// next tile are known: the address is an induction of the tile loop too.
//
//   for (t ...)                          for (t ...)
//     for (ty ...)                         for (ty ...)
//       v = load(p(t, ty))        ->         prefetch(p(t, ty) + step_t * TripsAhead)
//                                            v = load(p(t, ty))
//     for (ty ...) compute                 for (ty ...) compute
//
// One prefetch per load, each a line of its own: only loads whose loop
// steps at least MinJumpBytes (farther than a line; a load that runs along
// its loop is a stream) and whose outer step reaches another line.
// Prefetches never fault: the last tile's prefetch past the array is
// harmless.
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include "Internal.h"
#include "MemoryAccess/AccessPatterns.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-next-trip-prefetch"

using namespace llvm;

LOCKSTEP_STATISTIC(NumNextTripPrefetches, "Loads that prefetch their next trip of an outer loop");

static cl::opt<unsigned> TripsAhead("lockstep-prefetch-trips-ahead", cl::init(1), cl::Hidden,
                                    cl::desc("Outer trips ahead that NextTripPrefetchPass prefetches (0: off)"));
// Into the second-level cache: a tile's rows are a row pitch apart, all in
// one set of the first-level cache (16 rows, 12 ways on recent Intel cores),
// where the later rows' prefetches would evict the earlier ones.
static cl::opt<unsigned> Locality("lockstep-prefetch-trip-locality", cl::init(2), cl::Hidden,
                                  cl::desc("Locality of NextTripPrefetchPass's prefetches (3: the first-level "
                                           "cache, 2: the second)"));
static cl::opt<uint64_t> MinJumpBytes(
    "lockstep-prefetch-min-jump-bytes", cl::init(512), cl::Hidden,
    cl::desc("Least step of a load's own loop, in bytes, for NextTripPrefetchPass to prefetch it"));
static cl::opt<unsigned> MinSiblingLoops(
    "lockstep-prefetch-min-sibling-loops", cl::init(2), cl::Hidden,
    cl::desc("Least loops the outer loop holds for NextTripPrefetchPass (its trip does other work)"));

namespace lockstep::compiler {
namespace {

struct FarLoad {
  Instruction *load;
  Value *pointer;
  const Loop *outer;
  const SCEV *outerStep;  // bytes per outer trip
};

// How far `S` moves per trip of `L`, or null: what an induction of a loop
// inside `L` starts from moves with `L`.
const SCEV *stepOver(const SCEV *S, const Loop *L, ScalarEvolution &SE) {
  return movementOf(
      S, SE, [&](const SCEV *E) { return SE.isLoopInvariant(E, L); },
      [&](const SCEV *E) -> const SCEV * {
        auto *recurrence = dyn_cast<SCEVAddRecExpr>(E);
        if (!recurrence || !recurrence->isAffine()) return nullptr;
        const SCEV *step = recurrence->getStepRecurrence(SE);
        if (!SE.isLoopInvariant(step, L)) return nullptr;
        if (recurrence->getLoop() == L) return step;
        if (L->contains(recurrence->getLoop())) return stepOver(recurrence->getStart(), L, SE);
        return nullptr;
      });
}

// A step that reaches past `bytes` (one that only the run knows, a row
// pitch, does).
bool reaches(const SCEV *step, uint64_t bytes) {
  if (auto *constant = dyn_cast<SCEVConstant>(step)) return constant->getAPInt().abs().uge(bytes);
  return true;
}

std::optional<FarLoad> farLoad(Instruction &I, Loop *loop, ScalarEvolution &SE) {
  Value *pointer = nullptr;
  if (auto *load = dyn_cast<LoadInst>(&I)) {
    if (load->isVolatile() || load->isAtomic()) return std::nullopt;
    pointer = load->getPointerOperand();
  } else if (auto *call = dyn_cast<IntrinsicInst>(&I); call && call->getIntrinsicID() == Intrinsic::masked_load) {
    pointer = call->getArgOperand(0);
  } else {
    return std::nullopt;
  }
  unsigned space = pointer->getType()->getPointerAddressSpace();
  if (space != kGlobalAddressSpace && space != kConstantAddressSpace) return std::nullopt;
  const SCEV *address = SE.getSCEV(pointer);
  const SCEV *own = stepOver(address, loop, SE);
  if (!own || own->isZero() || !reaches(own, MinJumpBytes)) return std::nullopt;
  for (const Loop *outer = loop->getParentLoop(); outer; outer = outer->getParentLoop()) {
    const SCEV *step = stepOver(address, outer, SE);
    if (!step) return std::nullopt;
    if (step->isZero()) continue;
    // The next trip's line is another line, and the outer trip does more
    // than this loop.
    if (!reaches(step, 64) || outer->getSubLoops().size() < MinSiblingLoops) return std::nullopt;
    return FarLoad{&I, pointer, outer, step};
  }
  return std::nullopt;
}

bool prefetchNextTrips(Function &F, LoopInfo &loops, DominatorTree &, ScalarEvolution &SE) {
  if (TripsAhead == 0) return false;
  const DataLayout &layout = F.getParent()->getDataLayout();
  SmallVector<FarLoad, 8> found;
  for (Loop *loop : loops.getLoopsInPreorder()) {
    if (loop->getLoopDepth() < 2) continue;
    for (BasicBlock *block : loop->blocks())
      if (loops.getLoopFor(block) == loop)
        for (Instruction &I : *block)
          if (std::optional<FarLoad> far = farLoad(I, loop, SE)) found.push_back(*far);
  }
  bool changed = false;
  for (const FarLoad &far : found) {
    Type *intType = layout.getIndexType(far.pointer->getType());
    const SCEV *ahead = SE.getMulExpr(SE.getTruncateOrSignExtend(far.outerStep, intType),
                                      SE.getConstant(intType, TripsAhead.getValue()));
    BasicBlock *preheader = far.outer->getLoopPreheader();
    SCEVExpander expander(SE, layout, "prefetch");
    if (!preheader || !expander.isSafeToExpandAt(ahead, preheader->getTerminator())) continue;
    Value *bytes = expander.expandCodeFor(ahead, intType, preheader->getTerminator());
    prefetchAhead(far.load, far.pointer, bytes, /*write=*/false, Locality, "prefetch.next");
    LLVM_DEBUG(dbgs() << "prefetching " << *far.load << " a trip of " << far.outer->getHeader()->getName()
                      << " ahead\n");
    ++NumNextTripPrefetches;
    changed = true;
  }
  return changed;
}

}  // namespace

PreservedAnalyses NextTripPrefetchPass::run(Module &M, ModuleAnalysisManager &analyses) {
  return runOnLoops(M, analyses, prefetchNextTrips);
}

}  // namespace lockstep::compiler

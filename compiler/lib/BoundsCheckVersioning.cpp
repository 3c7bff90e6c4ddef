// BoundsCheckVersioningPass (LOCKSTEP_CHECK_BOUNDS): takes the bounds checks
// that BoundsCheckPass put into the work-item code out of loop nests, so
// that the loops unroll and widen as they do unchecked.
//
// A check is `br (icmp ult %offset, %limit), %in.bounds, %out.of.bounds`,
// marked with !lockstep.bounds_check. Where %limit is invariant in a loop
// nest and %offset is linear in the trip numbers of the nest's loops
// (LinearReader.h: affine recurrences with constant steps, over loops whose
// trip counts are invariant in the nest; sums; constant factors; 32-bit
// index arithmetic extended to 64 bits), the check holds on every trip iff
// the offset's smallest and largest values over the nest are in [0, limit).
// A linear function takes those at corners of the box of trip numbers: the
// pass computes them exactly, in 128 bits, before the nest (in between no
// offset can wrap; an extension is exact when the narrow value's extremes
// are in its range, checked the same way).
//
// A clamped index (`clamp(x + i % W, 0, n - 1)`: a stencil's halo, an
// image's edge) is not linear, but it is bounded: a min or max lies
// between its operands' bounds, and an operand the reader cannot follow
// (a remainder, a quotient) is bounded by the range scalar evolution knows
// for it. Such a term adds an interval to the linear part; a product of a
// bounded term with a value the nest does not change (`row * width`) is
// bounded by its corner products, a recurrence whose step is invariant but
// not constant by its first and last values. Intervals over-approximate, so a check
// decided by them may fail before the nest although every access is in
// bounds: the nest then runs checked, as it would have. Each operand of a
// signed min or max must lie in its type's signed range over the nest (of
// an unsigned one, the unsigned range), so that the order of the 128-bit
// values is the order the instruction compares by; each factor of a
// product in 64-bit signed range, so the product is exact in 128 bits.
//
// The nest is copied (versionLoop); the copy, whose decided checks are
// settled true, runs when all hold; otherwise the nest as it was runs,
// every access checked, and reports the first one outside. Outermost nests
// are tried first, so a work-group function whose checks are all decided
// before its work-item loops has one test at their start; inside a copy,
// inner loops are tried for the checks that depend on values the nest
// computes (a row loaded from an index buffer). SimplifyCFG removes the
// settled branches and their report blocks. Checks whose offsets are not
// linear (a gather through an index buffer) stay where they are.
//
// It runs twice: before -O3 (the full unroller then sees a 16-trip loop
// over a __local tile without its checks) and at the vectorizer's start,
// after InteriorVersioningPass has taken the clamps out of the interior of
// a stencil's loops. A check settled in a copy loses its mark; in the nest
// as it was (which runs when some check of the test failed) it keeps a
// mark that names the nest's depth, so that only loops inside the nest try
// it again: when one access of a nest is out of range for some trips, the
// rows where all of them hold still run unchecked.
//
// Where a check runs only on some trips of a loop (a peeled round of a
// halo loop, `if (i + 256 < 324) tile[i + 256] = ...`), a guard on the way
// that compares an increasing recurrence of the loop with an invariant
// bounds the last trip it runs on, so the extremes are those of the trips
// that reach it.
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/ConstantRange.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include "Internal.h"
#include "LinearReader.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-bounds-check-versioning"

using namespace llvm;

LOCKSTEP_STATISTIC(NumLoopsVersioned, "Loops copied without their bounds checks");
LOCKSTEP_STATISTIC(NumChecksHoisted, "Bounds checks settled before a loop");

namespace lockstep::compiler {
namespace {

struct Check {
  BranchInst *branch;
  const SCEV *offset;
  const SCEV *limit;
};

// A check that a nest's test could not settle, in the nest as it was,
// carries the nest's depth in its mark: only loops inside it try again
// (this run's, or the next run's).
unsigned failedAtDepth(BranchInst *branch) {
  MDNode *mark = branch->getMetadata(kBoundsCheckMetadata);
  if (!mark || mark->getNumOperands() == 0) return 0;
  return mdconst::extract<ConstantInt>(mark->getOperand(0))->getZExtValue();
}

// The checks in `nest` that can be decided before it.
SmallVector<Check, 8> decidableChecks(Loop *nest, ScalarEvolution &evolution, LinearReader &reader,
                                      SCEVExpander &expander) {
  SmallVector<Check, 8> checks;
  for (BasicBlock *block : nest->blocks()) {
    auto *branch = dyn_cast<BranchInst>(block->getTerminator());
    if (!branch || !branch->isConditional() || !branch->getMetadata(kBoundsCheckMetadata)) continue;
    if (nest->getLoopDepth() <= failedAtDepth(branch)) continue;
    auto *compare = dyn_cast<ICmpInst>(branch->getCondition());
    if (!compare || compare->getPredicate() != ICmpInst::ICMP_ULT) continue;
    const SCEV *offset = evolution.getSCEV(compare->getOperand(0));
    const SCEV *limit = evolution.getSCEV(compare->getOperand(1));
    if (!evolution.isLoopInvariant(limit, nest) || !expander.isSafeToExpand(limit) || !reader.readable(offset)) {
      LLVM_DEBUG(dbgs() << "bounds check undecided in " << nest->getHeader()->getName() << ": " << *offset
                        << " < " << *limit << "\n");
      continue;
    }
    checks.push_back({branch, offset, limit});
  }
  return checks;
}

// Moves the parts of the checks' offsets and limits that the nest does not
// change in front of it (a buffer's base cast to the generic address space
// and back is computed where the access is), so that they read as
// invariants.
void hoistInvariantParts(Loop *nest, ScalarEvolution &evolution) {
  bool changed = false;
  SmallVector<Value *, 16> work;
  for (BasicBlock *block : nest->blocks())
    if (auto *branch = dyn_cast<BranchInst>(block->getTerminator()))
      if (branch->isConditional() && branch->getMetadata(kBoundsCheckMetadata))
        if (auto *compare = dyn_cast<ICmpInst>(branch->getCondition()))
          work.append(compare->op_begin(), compare->op_end());
  SmallPtrSet<Value *, 32> seen;
  while (!work.empty()) {
    auto *instruction = dyn_cast<Instruction>(work.pop_back_val());
    if (!instruction || !nest->contains(instruction) || !seen.insert(instruction).second) continue;
    if (isa<PHINode>(instruction) || nest->makeLoopInvariant(instruction, changed, nullptr, nullptr, &evolution)) continue;
    work.append(instruction->op_begin(), instruction->op_end());
  }
  if (changed) evolution.forgetBlockAndLoopDispositions();
}

// Versions `nest` on its decidable checks; returns the copy without them,
// or null if it has none (or cannot be copied).
Loop *versionNest(Loop *nest, LoopInfo &loops, DominatorTree &dominators, ScalarEvolution &evolution) {
  const DataLayout &layout = nest->getHeader()->getModule()->getDataLayout();
  hoistInvariantParts(nest, evolution);
  SCEVExpander probe(evolution, layout, "bounds");
  IRBuilder<> unused(nest->getHeader()->getContext());
  LinearReader prober(nest, evolution, probe, unused, dominators);
  if (decidableChecks(nest, evolution, prober, probe).empty()) return nullptr;
  formDedicatedExitBlocks(nest, &dominators, &loops, nullptr, false);
  formLCSSARecursively(*nest, dominators, &loops, &evolution);
  BasicBlock *preheader = versionablePreheader(nest, loops, dominators);
  if (!preheader) return nullptr;
  IRBuilder<> builder(preheader->getTerminator());
  SCEVExpander expander(evolution, layout, "bounds");
  LinearReader reader(nest, evolution, expander, builder, dominators);
  SmallVector<Check, 8> checks = decidableChecks(nest, evolution, reader, expander);
  SmallVector<Value *, 16> conditions;
  for (const Check &check : checks) {
    Value *limit = builder.CreateZExt(expander.expandCodeFor(check.limit, nullptr, preheader->getTerminator()),
                                      builder.getInt128Ty());
    reader.setSite(check.branch->getParent(), conditions);
    Linear offset = reader.read(check.offset, conditions);
    // The whole range in [0, limit): signed compares of exact values.
    conditions.push_back(builder.CreateAnd(builder.CreateICmpSGE(reader.extreme(offset, false), builder.getInt(APInt(128, 0))),
                                           builder.CreateICmpSLT(reader.extreme(offset, true), limit)));
  }
  Value *all = builder.CreateAnd(conditions);
  all->setName("bounds.hold");
  ValueToValueMapTy map;
  Loop *copy = versionLoop(nest, all, ".in.bounds", loops, dominators, map);
  // Loop ids are distinct per loop: the copy's inner loops get their own
  // (sharing one, a loop the vectorizer widened would mark its twin done).
  for (Loop *inner : copy->getLoopsInPreorder())
    if (inner != copy)
      if (MDNode *id = inner->getLoopID()) inner->setLoopID(copyLoopId(id));
  // Each with an exit of its own, as later passes that copy loops
  // (InteriorVersioningPass) want them.
  formDedicatedExitBlocks(copy, &dominators, &loops, nullptr, true);
  formDedicatedExitBlocks(nest, &dominators, &loops, nullptr, true);
  LLVMContext &context = nest->getHeader()->getContext();
  auto *depth = ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(context), nest->getLoopDepth()));
  for (const Check &check : checks) {
    auto *settled = cast<BranchInst>(map[check.branch]);
    settled->setCondition(ConstantInt::getTrue(context));
    settled->setMetadata(kBoundsCheckMetadata, nullptr);
    // The nest as it was runs only when some check fails: its loops may
    // still settle the check for a part of the nest (a row whose
    // work-items all pass), this nest never again.
    check.branch->setMetadata(kBoundsCheckMetadata, MDNode::get(context, {depth}));
    ++NumChecksHoisted;
  }
  ++NumLoopsVersioned;
  LLVM_DEBUG(dbgs() << "bounds checks: " << checks.size() << " settled before " << nest->getHeader()->getName() << "\n");
  return copy;
}

}  // namespace

PreservedAnalyses BoundsCheckVersioningPass::run(Function &F, FunctionAnalysisManager &analyses) {
  if (!F.hasFnAttribute(kCheckBoundsAttr)) return PreservedAnalyses::all();
  LoopInfo &loops = analyses.getResult<LoopAnalysis>(F);
  DominatorTree &dominators = analyses.getResult<DominatorTreeAnalysis>(F);
  ScalarEvolution &evolution = analyses.getResult<ScalarEvolutionAnalysis>(F);
  // Outermost loops first: a nest whose checks are all decided before it
  // is copied once, whole; in a copy, inner loops are tried for the checks
  // that were not (their offsets depend on values the nest computes); in
  // the nest as it was, for the checks its test settled (for some of its
  // trips they may all hold).
  SmallVector<Loop *, 8> work(loops.begin(), loops.end());
  bool changed = false;
  while (!work.empty()) {
    Loop *nest = work.pop_back_val();
    Loop *copy = versionNest(nest, loops, dominators, evolution);
    if (copy) {
      changed = true;
      evolution.forgetAllLoops();
    }
    for (Loop *inner : nest->getSubLoops()) work.push_back(inner);
    if (copy)
      for (Loop *inner : copy->getSubLoops()) work.push_back(inner);
  }
  if (!changed) return PreservedAnalyses::all();
  PreservedAnalyses preserved;
  preserved.preserve<LoopAnalysis>();
  preserved.preserve<DominatorTreeAnalysis>();
  return preserved;
}

}  // namespace lockstep::compiler

// BoundsCheckVersioningPass (LOCKSTEP_CHECK_BOUNDS): takes the bounds checks
// that BoundsCheckPass put into the work-item code out of loop nests, so
// that the loops unroll and widen as they do unchecked.
//
// A check is `br (icmp ult %offset, %limit), %in.bounds, %out.of.bounds`,
// marked with !lockstep.bounds_check. Where %limit is invariant in a loop
// nest and %offset is linear in the trip numbers of the nest's loops
// (LinearReader: affine recurrences with constant steps, over loops whose
// trip counts are invariant in the nest; sums; constant factors; 32-bit
// index arithmetic extended to 64 bits), the check holds on every trip iff
// the offset's smallest and largest values over the nest are in [0, limit).
// A linear function takes those at corners of the box of trip numbers: the
// pass computes them exactly, in 128 bits, before the nest (in between no
// offset can wrap; an extension is exact when the narrow value's extremes
// are in its range, checked the same way).
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
// a stencil's loops. The loop a check decided before is never versioned
// again (its checks lose their mark).
#include <llvm/ADT/Statistic.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include "Internal.h"

#define DEBUG_TYPE "lockstep-bounds-check-versioning"

using namespace llvm;

STATISTIC(NumLoopsVersioned, "Loops copied without their bounds checks");
STATISTIC(NumChecksHoisted, "Bounds checks settled before a loop");

namespace lockstep::compiler {
namespace {

struct Check {
  BranchInst *branch;
  const SCEV *offset;
  const SCEV *limit;
};

// An expression of a loop nest's trip numbers, exactly: base + the sum of
// step_L * i_L over the nest's loops L, in 128 bits, equal to the
// expression modulo 2^bits on every trip when the conditions (computed
// before the nest) hold.
struct Linear {
  Value *base = nullptr;
  SmallVector<std::pair<Loop *, APInt>, 4> steps;
};

// Reads SCEV expressions inside a loop nest as Linear ones: invariants of
// the nest, affine recurrences of its loops with constant steps (over loops
// whose trip counts the nest does not change), sums, products with
// constants, and zero- or sign-extensions of such (an index computed in 32
// bits: the extension is exact when the narrow value stays in range over
// the whole nest, which for a linear expression its extremes decide).
class LinearReader {
 public:
  LinearReader(Loop *nest, ScalarEvolution &evolution, SCEVExpander &expander, IRBuilder<> &builder)
      : nest(nest), evolution(evolution), expander(expander), builder(builder) {}

  // Whether `expression` can be read (nothing is emitted).
  bool readable(const SCEV *expression) {
    if (evolution.isLoopInvariant(expression, nest)) return expander.isSafeToExpand(expression);
    if (auto *recurrence = dyn_cast<SCEVAddRecExpr>(expression)) {
      const Loop *loop = recurrence->getLoop();
      if (!nest->contains(loop) || !recurrence->isAffine() || !isa<SCEVConstant>(recurrence->getStepRecurrence(evolution)))
        return false;
      const SCEV *backedges = evolution.getBackedgeTakenCount(loop);
      return !isa<SCEVCouldNotCompute>(backedges) && evolution.isLoopInvariant(backedges, nest) &&
             expander.isSafeToExpand(backedges) && readable(recurrence->getStart());
    }
    if (auto *sum = dyn_cast<SCEVAddExpr>(expression))
      return all_of(sum->operands(), [&](const SCEV *op) { return readable(op); });
    if (auto *product = dyn_cast<SCEVMulExpr>(expression))
      return product->getNumOperands() == 2 && isa<SCEVConstant>(product->getOperand(0)) &&
             readable(product->getOperand(1));
    if (isa<SCEVZeroExtendExpr>(expression) || isa<SCEVSignExtendExpr>(expression))
      return readable(cast<SCEVIntegralCastExpr>(expression)->getOperand());
    return false;
  }

  // Emits `expression` as a Linear one; adds the conditions of its
  // extensions to `conditions`.
  Linear read(const SCEV *expression, SmallVectorImpl<Value *> &conditions) {
    if (evolution.isLoopInvariant(expression, nest)) {
      Value *value = expander.expandCodeFor(expression, nullptr, &*builder.GetInsertPoint());
      return {builder.CreateSExt(value, builder.getInt128Ty()), {}};
    }
    if (auto *recurrence = dyn_cast<SCEVAddRecExpr>(expression)) {
      Linear linear = read(recurrence->getStart(), conditions);
      const APInt &step = cast<SCEVConstant>(recurrence->getStepRecurrence(evolution))->getAPInt();
      addStep(linear, const_cast<Loop *>(recurrence->getLoop()), step.sext(128));
      return linear;
    }
    if (auto *sum = dyn_cast<SCEVAddExpr>(expression)) {
      Linear total;
      for (const SCEV *op : sum->operands()) {
        Linear term = read(op, conditions);
        total.base = total.base ? builder.CreateAdd(total.base, term.base) : term.base;
        for (auto &[loop, step] : term.steps) addStep(total, loop, step);
      }
      return total;
    }
    if (auto *product = dyn_cast<SCEVMulExpr>(expression)) {
      APInt factor = cast<SCEVConstant>(product->getOperand(0))->getAPInt().sext(128);
      Linear term = read(product->getOperand(1), conditions);
      term.base = builder.CreateMul(term.base, builder.getInt(factor));
      for (auto &[loop, step] : term.steps) step *= factor;
      return term;
    }
    auto *extension = cast<SCEVIntegralCastExpr>(expression);
    Linear inner = read(extension->getOperand(), conditions);
    unsigned bits = extension->getOperand()->getType()->getIntegerBitWidth();
    bool zero = isa<SCEVZeroExtendExpr>(extension);
    APInt low = zero ? APInt(128, 0) : APInt::getSignedMinValue(bits).sext(128);
    APInt high = zero ? APInt::getLowBitsSet(128, bits) : APInt::getSignedMaxValue(bits).sext(128);
    conditions.push_back(builder.CreateAnd(builder.CreateICmpSGE(extreme(inner, false), builder.getInt(low)),
                                           builder.CreateICmpSLE(extreme(inner, true), builder.getInt(high))));
    return inner;
  }

  // The check the expressions read next belong to: where it is decides
  // on which trips it runs.
  void setSite(BasicBlock *block) { site = block; }

  // Its largest (or smallest) value over the trips on which the site runs:
  // each step taken for every such trip of its loop where that raises
  // (lowers) the value, else not.
  Value *extreme(const Linear &linear, bool largest) {
    Value *value = linear.base;
    for (const auto &[loop, step] : linear.steps)
      if (!step.isZero() && step.isNegative() != largest)
        value = builder.CreateAdd(value, builder.CreateMul(lastTrip(loop), builder.getInt(step)));
    return value;
  }

 private:
  static void addStep(Linear &linear, Loop *loop, const APInt &step) {
    for (auto &[known, total] : linear.steps)
      if (known == loop) {
        total += step;
        return;
      }
    linear.steps.push_back({loop, step});
  }

  // The number of the last trip of `loop` on which the site runs, in 128
  // bits: its backedge-taken count, one less where the loop leaves from its
  // header (not rotated) and the site comes after that test. (A site that
  // runs on fewer trips only makes the answer cautious.)
  Value *lastTrip(Loop *loop) {
    Value *&count = tripValues[loop];
    if (!count)
      count = builder.CreateZExt(
          expander.expandCodeFor(evolution.getBackedgeTakenCount(loop), nullptr, &*builder.GetInsertPoint()),
          builder.getInt128Ty());
    BasicBlock *exiting = loop->getExitingBlock();
    if (exiting == loop->getHeader() && site != loop->getHeader() && loop->contains(site))
      return builder.CreateSub(count, builder.getInt(APInt(128, 1)));
    return count;
  }

  Loop *nest;
  ScalarEvolution &evolution;
  SCEVExpander &expander;
  IRBuilder<> &builder;
  BasicBlock *site = nullptr;
  DenseMap<Loop *, Value *> tripValues;
};

// The checks in `nest` that can be decided before it.
SmallVector<Check, 8> decidableChecks(Loop *nest, ScalarEvolution &evolution, LinearReader &reader,
                                      SCEVExpander &expander) {
  SmallVector<Check, 8> checks;
  for (BasicBlock *block : nest->blocks()) {
    auto *branch = dyn_cast<BranchInst>(block->getTerminator());
    if (!branch || !branch->isConditional() || !branch->getMetadata(kBoundsCheckMetadata)) continue;
    auto *compare = dyn_cast<ICmpInst>(branch->getCondition());
    if (!compare || compare->getPredicate() != ICmpInst::ICMP_ULT) continue;
    const SCEV *offset = evolution.getSCEV(compare->getOperand(0));
    const SCEV *limit = evolution.getSCEV(compare->getOperand(1));
    if (!evolution.isLoopInvariant(limit, nest) || !expander.isSafeToExpand(limit) || !reader.readable(offset))
      continue;
    checks.push_back({branch, offset, limit});
  }
  return checks;
}

// Versions `nest` on its decidable checks; returns the copy without them,
// or null if it has none (or cannot be copied).
Loop *versionNest(Loop *nest, LoopInfo &loops, DominatorTree &dominators, ScalarEvolution &evolution) {
  const DataLayout &layout = nest->getHeader()->getModule()->getDataLayout();
  SCEVExpander probe(evolution, layout, "bounds");
  IRBuilder<> unused(nest->getHeader()->getContext());
  LinearReader prober(nest, evolution, probe, unused);
  if (decidableChecks(nest, evolution, prober, probe).empty()) return nullptr;
  formDedicatedExitBlocks(nest, &dominators, &loops, nullptr, false);
  formLCSSARecursively(*nest, dominators, &loops, &evolution);
  BasicBlock *preheader = versionablePreheader(nest, loops, dominators);
  if (!preheader) return nullptr;
  IRBuilder<> builder(preheader->getTerminator());
  SCEVExpander expander(evolution, layout, "bounds");
  LinearReader reader(nest, evolution, expander, builder);
  SmallVector<Check, 8> checks = decidableChecks(nest, evolution, reader, expander);
  SmallVector<Value *, 16> conditions;
  for (const Check &check : checks) {
    Value *limit = builder.CreateZExt(expander.expandCodeFor(check.limit, nullptr, preheader->getTerminator()),
                                      builder.getInt128Ty());
    reader.setSite(check.branch->getParent());
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
  for (const Check &check : checks) {
    cast<BranchInst>(map[check.branch])->setCondition(ConstantInt::getTrue(context));
    // The loop as it was runs only when a check fails: not versioned again.
    check.branch->setMetadata(kBoundsCheckMetadata, nullptr);
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
  // that were not (their offsets depend on values the nest computes).
  SmallVector<Loop *, 8> work(loops.begin(), loops.end());
  bool changed = false;
  while (!work.empty()) {
    Loop *nest = work.pop_back_val();
    Loop *copy = versionNest(nest, loops, dominators, evolution);
    if (copy) {
      changed = true;
      evolution.forgetAllLoops();
    }
    for (Loop *inner : (copy ? copy : nest)->getSubLoops()) work.push_back(inner);
  }
  if (!changed) return PreservedAnalyses::all();
  PreservedAnalyses preserved;
  preserved.preserve<LoopAnalysis>();
  preserved.preserve<DominatorTreeAnalysis>();
  return preserved;
}

}  // namespace lockstep::compiler

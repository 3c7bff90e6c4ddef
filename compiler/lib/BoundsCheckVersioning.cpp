// BoundsCheckVersioningPass (LOCKSTEP_CHECK_BOUNDS): takes the bounds checks
// that BoundsCheckPass put into the work-item code out of innermost loops,
// so that the loops widen as they do unchecked.
//
// A check is `br (icmp ult %offset, %limit), %in.bounds, %out.of.bounds`,
// marked with !lockstep.bounds_check. In an innermost loop with a
// computable trip count, where %limit is invariant and %offset is linear in
// the trip number i (LinearReader: affine recurrences, sums, constant
// factors, and 32-bit index arithmetic extended to 64 bits), the check holds
// on every trip iff it holds on the first and on the last:
//
//   0 <= first < limit  and  0 <= first + step * (trips - 1) < limit
//
// computed exactly in 128 bits (between two offsets inside [0, limit) a
// linear sequence cannot wrap; an extension is exact when the narrow values
// at both ends are in its range, checked the same way). The pass copies the loop (versionLoop) and runs the
// copy, whose checks are settled true, when every check holds at both ends;
// otherwise the loop as it was runs, every access checked, and reports the
// first one outside. SimplifyCFG after it removes the settled branches and
// their report blocks, and the loop vectorizer sees the loop it would have
// seen without bounds checking. Checks whose offsets are not affine (a
// gather through an index buffer) stay where they are.
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

// An expression of the loop's trip number i, exactly: base + step * i in 128
// bits, equal to the expression modulo 2^bits on every trip when the
// conditions (computed before the loop) hold.
struct Linear {
  Value *base;
  APInt step;
};

// Reads SCEV expressions of a loop as Linear ones: invariants, affine
// recurrences of the loop with constant steps, sums, products with
// constants, and zero- or sign-extensions of such (an index computed in 32
// bits: the extension is exact when the narrow values at both ends of the
// loop are in range, and then, the expression being linear, on every trip).
class LinearReader {
 public:
  LinearReader(Loop *loop, ScalarEvolution &evolution, SCEVExpander &expander, const SCEV *backedges)
      : loop(loop), evolution(evolution), expander(expander), backedges(backedges) {}

  // Whether `expression` can be read (nothing is emitted).
  bool readable(const SCEV *expression) {
    if (evolution.isLoopInvariant(expression, loop)) return expander.isSafeToExpand(expression);
    if (auto *recurrence = dyn_cast<SCEVAddRecExpr>(expression))
      return recurrence->getLoop() == loop && recurrence->isAffine() &&
             isa<SCEVConstant>(recurrence->getStepRecurrence(evolution)) && readable(recurrence->getStart());
    if (auto *sum = dyn_cast<SCEVAddExpr>(expression)) return all_of(sum->operands(), [&](const SCEV *op) { return readable(op); });
    if (auto *product = dyn_cast<SCEVMulExpr>(expression))
      return product->getNumOperands() == 2 && isa<SCEVConstant>(product->getOperand(0)) && readable(product->getOperand(1));
    if (auto *extension = dyn_cast<SCEVIntegralCastExpr>(expression))
      return (isa<SCEVZeroExtendExpr>(extension) || isa<SCEVSignExtendExpr>(extension)) && readable(extension->getOperand());
    return false;
  }

  // Emits `expression` as a Linear one before `at`; adds the conditions of
  // its extensions to `conditions`.
  Linear read(const SCEV *expression, IRBuilder<> &builder, SmallVectorImpl<Value *> &conditions) {
    Type *wide = builder.getInt128Ty();
    if (evolution.isLoopInvariant(expression, loop)) {
      Value *value = expander.expandCodeFor(expression, nullptr, &*builder.GetInsertPoint());
      return {builder.CreateSExt(value, wide), APInt(128, 0)};
    }
    if (auto *recurrence = dyn_cast<SCEVAddRecExpr>(expression)) {
      Linear start = read(recurrence->getStart(), builder, conditions);
      const APInt &step = cast<SCEVConstant>(recurrence->getStepRecurrence(evolution))->getAPInt();
      return {start.base, start.step + step.sext(128)};
    }
    if (auto *sum = dyn_cast<SCEVAddExpr>(expression)) {
      Linear total{nullptr, APInt(128, 0)};
      for (const SCEV *op : sum->operands()) {
        Linear term = read(op, builder, conditions);
        total.base = total.base ? builder.CreateAdd(total.base, term.base) : term.base;
        total.step += term.step;
      }
      return total;
    }
    if (auto *product = dyn_cast<SCEVMulExpr>(expression)) {
      APInt factor = cast<SCEVConstant>(product->getOperand(0))->getAPInt().sext(128);
      Linear term = read(product->getOperand(1), builder, conditions);
      return {builder.CreateMul(term.base, builder.getInt(factor)), term.step * factor};
    }
    auto *extension = cast<SCEVIntegralCastExpr>(expression);
    Linear inner = read(extension->getOperand(), builder, conditions);
    unsigned bits = extension->getOperand()->getType()->getIntegerBitWidth();
    bool zero = isa<SCEVZeroExtendExpr>(extension);
    APInt low = zero ? APInt(128, 0) : APInt::getSignedMinValue(bits).sext(128);
    APInt high = zero ? APInt::getLowBitsSet(128, bits) : APInt::getSignedMaxValue(bits).sext(128);
    for (Value *end : {inner.base, last(inner, builder)})
      conditions.push_back(builder.CreateAnd(builder.CreateICmpSGE(end, builder.getInt(low)),
                                             builder.CreateICmpSLE(end, builder.getInt(high))));
    return inner;
  }

  // Its value on the last trip.
  Value *last(const Linear &linear, IRBuilder<> &builder) {
    if (!trips) trips = builder.CreateZExt(expander.expandCodeFor(backedges, nullptr, &*builder.GetInsertPoint()),
                                           builder.getInt128Ty());
    return builder.CreateAdd(linear.base, builder.CreateMul(trips, builder.getInt(linear.step)));
  }

 private:
  Loop *loop;
  ScalarEvolution &evolution;
  SCEVExpander &expander;
  const SCEV *backedges;
  Value *trips = nullptr;
};

// The checks of `loop` that can be decided before it.
SmallVector<Check, 8> hoistableChecks(Loop *loop, ScalarEvolution &evolution, LinearReader &reader,
                                      SCEVExpander &expander) {
  SmallVector<Check, 8> checks;
  for (BasicBlock *block : loop->blocks()) {
    auto *branch = dyn_cast<BranchInst>(block->getTerminator());
    if (!branch || !branch->isConditional() || !branch->getMetadata(kBoundsCheckMetadata)) continue;
    auto *compare = dyn_cast<ICmpInst>(branch->getCondition());
    if (!compare || compare->getPredicate() != ICmpInst::ICMP_ULT) continue;
    const SCEV *offset = evolution.getSCEV(compare->getOperand(0));
    const SCEV *limit = evolution.getSCEV(compare->getOperand(1));
    if (!evolution.isLoopInvariant(limit, loop) || !expander.isSafeToExpand(limit) || !reader.readable(offset))
      continue;
    checks.push_back({branch, offset, limit});
  }
  return checks;
}

bool versionLoopChecks(Loop *loop, LoopInfo &loops, DominatorTree &dominators, ScalarEvolution &evolution) {
  const SCEV *backedges = evolution.getBackedgeTakenCount(loop);
  if (isa<SCEVCouldNotCompute>(backedges)) return false;
  SCEVExpander expander(evolution, loop->getHeader()->getModule()->getDataLayout(), "bounds");
  if (!expander.isSafeToExpand(backedges)) return false;
  LinearReader reader(loop, evolution, expander, backedges);
  SmallVector<Check, 8> checks = hoistableChecks(loop, evolution, reader, expander);
  if (checks.empty()) return false;
  // LoopUnswitch may have left two loops exiting to one block.
  formDedicatedExitBlocks(loop, &dominators, &loops, nullptr, false);
  formLCSSA(*loop, dominators, &loops, &evolution);
  BasicBlock *preheader = versionablePreheader(loop, loops, dominators);
  if (!preheader) return false;
  IRBuilder<> builder(preheader->getTerminator());
  Type *wide = builder.getInt128Ty();
  SmallVector<Value *, 16> conditions;
  for (const Check &check : checks) {
    Value *limit = builder.CreateZExt(expander.expandCodeFor(check.limit, nullptr, preheader->getTerminator()), wide);
    Linear offset = reader.read(check.offset, builder, conditions);
    // Both ends in [0, limit): signed compares of exact 128-bit values.
    for (Value *end : {offset.base, reader.last(offset, builder)})
      conditions.push_back(builder.CreateAnd(builder.CreateICmpSGE(end, builder.getInt(APInt(128, 0))),
                                             builder.CreateICmpSLT(end, limit)));
  }
  Value *all = builder.CreateAnd(conditions);
  all->setName("bounds.hold");
  ValueToValueMapTy map;
  versionLoop(loop, all, ".in.bounds", loops, dominators, map);
  for (const Check &check : checks) {
    cast<BranchInst>(map[check.branch])->setCondition(ConstantInt::getTrue(loop->getHeader()->getContext()));
    ++NumChecksHoisted;
  }
  ++NumLoopsVersioned;
  LLVM_DEBUG(dbgs() << "bounds checks: " << checks.size() << " settled before " << loop->getHeader()->getName() << "\n");
  return true;
}

}  // namespace

PreservedAnalyses BoundsCheckVersioningPass::run(Function &F, FunctionAnalysisManager &analyses) {
  if (!F.hasFnAttribute(kCheckBoundsAttr)) return PreservedAnalyses::all();
  LoopInfo &loops = analyses.getResult<LoopAnalysis>(F);
  DominatorTree &dominators = analyses.getResult<DominatorTreeAnalysis>(F);
  ScalarEvolution &evolution = analyses.getResult<ScalarEvolutionAnalysis>(F);
  SmallVector<Loop *, 8> innermost;
  for (Loop *loop : loops.getLoopsInPreorder())
    if (loop->isInnermost()) innermost.push_back(loop);
  bool changed = false;
  for (Loop *loop : innermost) {
    if (versionLoopChecks(loop, loops, dominators, evolution)) {
      changed = true;
      evolution.forgetAllLoops();
    }
  }
  if (!changed) return PreservedAnalyses::all();
  PreservedAnalyses preserved;
  preserved.preserve<LoopAnalysis>();
  preserved.preserve<DominatorTreeAnalysis>();
  return preserved;
}

}  // namespace lockstep::compiler

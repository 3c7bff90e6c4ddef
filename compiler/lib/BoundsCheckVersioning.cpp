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
#include <llvm/ADT/Statistic.h>
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
  // Plus a term that is not linear, somewhere in [low, high] on each trip
  // (both null: none).
  Value *low = nullptr, *high = nullptr;
};

// Reads SCEV expressions inside a loop nest as Linear ones: invariants of
// the nest, affine recurrences of its loops with constant steps (over loops
// whose trip counts the nest does not change), sums, products with
// constants, and zero- or sign-extensions of such (an index computed in 32
// bits: the extension is exact when the narrow value stays in range over
// the whole nest, which for a linear expression its extremes decide); and,
// as bounded terms, mins and maxes with at least one operand it reads, and
// products of a term it reads with an invariant.
class LinearReader {
 public:
  LinearReader(Loop *nest, ScalarEvolution &evolution, SCEVExpander &expander, IRBuilder<> &builder,
               DominatorTree &dominators)
      : nest(nest), evolution(evolution), expander(expander), builder(builder), dominators(dominators) {}

  // Whether `expression` can be read (nothing is emitted).
  bool readable(const SCEV *expression) {
    if (evolution.isLoopInvariant(expression, nest)) return expander.isSafeToExpand(expression);
    if (auto *recurrence = dyn_cast<SCEVAddRecExpr>(expression)) {
      const Loop *loop = recurrence->getLoop();
      const SCEV *step = recurrence->getStepRecurrence(evolution);
      if (!nest->contains(loop) || !recurrence->isAffine() ||
          !(isa<SCEVConstant>(step) || (evolution.isLoopInvariant(step, nest) && expander.isSafeToExpand(step))))
        return false;
      const SCEV *backedges = evolution.getBackedgeTakenCount(loop);
      return !isa<SCEVCouldNotCompute>(backedges) && evolution.isLoopInvariant(backedges, nest) &&
             expander.isSafeToExpand(backedges) && readable(recurrence->getStart());
    }
    if (auto *sum = dyn_cast<SCEVAddExpr>(expression))
      return all_of(sum->operands(), [&](const SCEV *op) { return readable(op); });
    if (auto *product = dyn_cast<SCEVMulExpr>(expression)) {
      if (product->getNumOperands() != 2) return false;
      if (isa<SCEVConstant>(product->getOperand(0))) return readable(product->getOperand(1));
      int factor = invariantFactor(product);
      return factor >= 0 && readable(product->getOperand(1 - factor));
    }
    if (isa<SCEVZeroExtendExpr>(expression) || isa<SCEVSignExtendExpr>(expression))
      return readable(cast<SCEVIntegralCastExpr>(expression)->getOperand());
    if (auto *minMax = dyn_cast<SCEVMinMaxExpr>(expression))
      return any_of(minMax->operands(), [&](const SCEV *op) { return readable(op); });
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
      Loop *loop = const_cast<Loop *>(recurrence->getLoop());
      const SCEV *step = recurrence->getStepRecurrence(evolution);
      if (auto *constant = dyn_cast<SCEVConstant>(step)) {
        addStep(linear, loop, constant->getAPInt().sext(128));
        return linear;
      }
      // A step the nest does not change but that is not a constant (a row
      // of `width` elements): between 0 and step * the last trip.
      Value *stride = builder.CreateSExt(expander.expandCodeFor(step, nullptr, &*builder.GetInsertPoint()),
                                         builder.getInt128Ty());
      Value *reach = builder.CreateMul(stride, lastTrip(loop));
      Value *zero = builder.getInt(APInt(128, 0));
      Value *low = builder.CreateBinaryIntrinsic(Intrinsic::smin, zero, reach);
      Value *high = builder.CreateBinaryIntrinsic(Intrinsic::smax, zero, reach);
      linear.low = linear.low ? builder.CreateAdd(linear.low, low) : low;
      linear.high = linear.high ? builder.CreateAdd(linear.high, high) : high;
      return linear;
    }
    if (auto *sum = dyn_cast<SCEVAddExpr>(expression)) {
      Linear total;
      for (const SCEV *op : sum->operands()) {
        Linear term = read(op, conditions);
        total.base = total.base ? builder.CreateAdd(total.base, term.base) : term.base;
        for (auto &[loop, step] : term.steps) addStep(total, loop, step);
        if (term.low) {
          total.low = total.low ? builder.CreateAdd(total.low, term.low) : term.low;
          total.high = total.high ? builder.CreateAdd(total.high, term.high) : term.high;
        }
      }
      return total;
    }
    if (auto *product = dyn_cast<SCEVMulExpr>(expression)) {
      if (!isa<SCEVConstant>(product->getOperand(0))) return readBoundedProduct(product, conditions);
      APInt factor = cast<SCEVConstant>(product->getOperand(0))->getAPInt().sext(128);
      Linear term = read(product->getOperand(1), conditions);
      term.base = builder.CreateMul(term.base, builder.getInt(factor));
      for (auto &[loop, step] : term.steps) step *= factor;
      if (term.low) {
        Value *low = builder.CreateMul(term.low, builder.getInt(factor));
        Value *high = builder.CreateMul(term.high, builder.getInt(factor));
        term.low = factor.isNegative() ? high : low;
        term.high = factor.isNegative() ? low : high;
      }
      return term;
    }
    if (auto *minMax = dyn_cast<SCEVMinMaxExpr>(expression)) return readMinMax(minMax, conditions);
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
  // on which trips it runs. What the guards on its way rely on is added to
  // `conditions`.
  void setSite(BasicBlock *block, SmallVectorImpl<Value *> &conditions) {
    site = block;
    siteConditions = &conditions;
  }

  // Its largest (or smallest) value over the trips on which the site runs:
  // each step taken for every such trip of its loop where that raises
  // (lowers) the value, else not.
  Value *extreme(const Linear &linear, bool largest) {
    Value *value = linear.base;
    for (const auto &[loop, step] : linear.steps)
      if (!step.isZero() && step.isNegative() != largest)
        value = builder.CreateAdd(value, builder.CreateMul(lastTrip(loop), builder.getInt(step)));
    if (linear.low) value = builder.CreateAdd(value, largest ? linear.high : linear.low);
    return value;
  }

 private:
  // Which operand of a two-operand product the nest does not change (and
  // can be computed before it), or -1.
  int invariantFactor(const SCEVMulExpr *product) {
    for (int i = 0; i < 2; ++i)
      if (evolution.isLoopInvariant(product->getOperand(i), nest) && expander.isSafeToExpand(product->getOperand(i)))
        return i;
    return -1;
  }

  // A bounded term: `linear` is zero, its interval [low, high].
  Linear bounded(Value *low, Value *high) {
    return {builder.getInt(APInt(128, 0)), {}, low, high};
  }

  // `value` in [low, high] (128-bit constants) over the nest.
  void requireWithin(const Linear &linear, const APInt &low, const APInt &high,
                     SmallVectorImpl<Value *> &conditions) {
    conditions.push_back(builder.CreateAnd(builder.CreateICmpSGE(extreme(linear, false), builder.getInt(low)),
                                           builder.CreateICmpSLE(extreme(linear, true), builder.getInt(high))));
  }

  // A product of a term and an invariant: between the smaller and the
  // larger of the products of the term's extremes with the invariant.
  Linear readBoundedProduct(const SCEVMulExpr *product, SmallVectorImpl<Value *> &conditions) {
    int factor = invariantFactor(product);
    Value *invariant = builder.CreateSExt(
        expander.expandCodeFor(product->getOperand(factor), nullptr, &*builder.GetInsertPoint()),
        builder.getInt128Ty());
    Linear term = read(product->getOperand(1 - factor), conditions);
    requireWithin(term, APInt::getSignedMinValue(64).sext(128), APInt::getSignedMaxValue(64).sext(128), conditions);
    Value *fromLow = builder.CreateMul(extreme(term, false), invariant);
    Value *fromHigh = builder.CreateMul(extreme(term, true), invariant);
    return bounded(builder.CreateBinaryIntrinsic(Intrinsic::smin, fromLow, fromHigh),
                   builder.CreateBinaryIntrinsic(Intrinsic::smax, fromLow, fromHigh));
  }

  // A min or max lies where its operands' bounds put it: a max at least
  // the largest of their lower bounds and at most the largest upper bound,
  // a min likewise. An operand the reader does not follow is bounded by the
  // range scalar evolution knows for it.
  Linear readMinMax(const SCEVMinMaxExpr *minMax, SmallVectorImpl<Value *> &conditions) {
    bool isSigned = isa<SCEVSMaxExpr>(minMax) || isa<SCEVSMinExpr>(minMax);
    bool isMax = isa<SCEVSMaxExpr>(minMax) || isa<SCEVUMaxExpr>(minMax);
    unsigned bits = minMax->getType()->getIntegerBitWidth();
    APInt typeLow = isSigned ? APInt::getSignedMinValue(bits).sext(128) : APInt(128, 0);
    APInt typeHigh = isSigned ? APInt::getSignedMaxValue(bits).sext(128) : APInt::getLowBitsSet(128, bits);
    Intrinsic::ID combine = isMax ? Intrinsic::smax : Intrinsic::smin;  // of exact 128-bit values
    Value *low = nullptr, *high = nullptr;
    for (const SCEV *op : minMax->operands()) {
      Value *opLow, *opHigh;
      if (readable(op)) {
        Linear term = read(op, conditions);
        requireWithin(term, typeLow, typeHigh, conditions);
        opLow = extreme(term, false);
        opHigh = extreme(term, true);
      } else {
        ConstantRange range = isSigned ? evolution.getSignedRange(op) : evolution.getUnsignedRange(op);
        opLow = builder.getInt(isSigned ? range.getSignedMin().sext(128) : range.getUnsignedMin().zext(128));
        opHigh = builder.getInt(isSigned ? range.getSignedMax().sext(128) : range.getUnsignedMax().zext(128));
      }
      low = low ? builder.CreateBinaryIntrinsic(combine, low, opLow) : opLow;
      high = high ? builder.CreateBinaryIntrinsic(combine, high, opHigh) : opHigh;
    }
    return bounded(low, high);
  }

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
    Value *last = count;
    BasicBlock *exiting = loop->getExitingBlock();
    if (exiting == loop->getHeader() && site != loop->getHeader() && loop->contains(site))
      last = builder.CreateSub(count, builder.getInt(APInt(128, 1)));
    if (site && loop->contains(site))
      for (auto [compare, below] : guards(loop))
        if (Value *guarded = guardedLastTrip(loop, compare, below, count))
          last = builder.CreateBinaryIntrinsic(Intrinsic::smin, last, guarded);
    return last;
  }

  // The comparisons that must come out true (or false: `below` says which
  // way the guarded value lies) for the site to run: conditional branches
  // of `loop` between its header and the site, through an edge that
  // dominates the site. (A peeled round of a loop, `if (i + 256 < 324)`.)
  SmallVector<std::pair<ICmpInst *, bool>, 2> guards(Loop *loop) {
    SmallVector<std::pair<ICmpInst *, bool>, 2> found;
    for (DomTreeNode *node = dominators.getNode(site); node && node->getIDom();) {
      BasicBlock *block = node->getIDom()->getBlock();
      if (!loop->contains(block)) break;
      auto *branch = dyn_cast<BranchInst>(block->getTerminator());
      auto *compare = branch && branch->isConditional() ? dyn_cast<ICmpInst>(branch->getCondition()) : nullptr;
      if (compare && branch->getSuccessor(0) != branch->getSuccessor(1))
        for (unsigned edge = 0; edge < 2; ++edge)
          if (dominators.dominates(BasicBlockEdge(block, branch->getSuccessor(edge)), site))
            found.push_back({compare, edge == 0});
      node = node->getIDom();
    }
    return found;
  }

  // The last trip of `loop` on which `compare` comes out `taken`, when it
  // compares an increasing recurrence of the loop, {s,+,d} with a constant
  // d > 0, against a value the nest does not change, X < B or X <= B
  // (signed or not, either operand order): trip k has s + d * k < B, so k
  // <= (B - 1 - s) / d. The division rounds toward zero, which for a
  // negative quotient (no trip) only makes the answer cautious. That X
  // does not wrap over the loop's trips, so that the narrow comparison is
  // the exact one, is added to the site's conditions. Null when it does
  // not apply.
  Value *guardedLastTrip(Loop *loop, ICmpInst *compare, bool taken, Value *count) {
    ICmpInst::Predicate predicate = taken ? compare->getPredicate() : compare->getInversePredicate();
    Value *recurrenceValue = compare->getOperand(0), *boundValue = compare->getOperand(1);
    if (ICmpInst::isGT(predicate) || ICmpInst::isGE(predicate)) {
      std::swap(recurrenceValue, boundValue);
      predicate = ICmpInst::getSwappedPredicate(predicate);
    }
    if (!ICmpInst::isLT(predicate) && !ICmpInst::isLE(predicate)) return nullptr;
    if (!recurrenceValue->getType()->isIntegerTy()) return nullptr;
    auto *recurrence = dyn_cast<SCEVAddRecExpr>(evolution.getSCEV(recurrenceValue));
    const SCEV *bound = evolution.getSCEV(boundValue);
    if (!recurrence || recurrence->getLoop() != loop || !recurrence->isAffine()) return nullptr;
    auto *step = dyn_cast<SCEVConstant>(recurrence->getStepRecurrence(evolution));
    const SCEV *start = recurrence->getStart();
    if (!step || !step->getAPInt().isStrictlyPositive() || !evolution.isLoopInvariant(bound, nest) ||
        !evolution.isLoopInvariant(start, nest) || !expander.isSafeToExpand(bound) || !expander.isSafeToExpand(start))
      return nullptr;
    bool isSigned = ICmpInst::isSigned(predicate);
    unsigned bits = recurrenceValue->getType()->getIntegerBitWidth();
    auto wide = [&](const SCEV *value) {
      Value *narrow = expander.expandCodeFor(value, nullptr, &*builder.GetInsertPoint());
      return isSigned ? builder.CreateSExt(narrow, builder.getInt128Ty()) : builder.CreateZExt(narrow, builder.getInt128Ty());
    };
    Value *first = wide(start), *limit = wide(bound);
    Value *stride = builder.getInt(step->getAPInt().zext(128));
    // No wrap over the loop's trips: s + d * count stays in the type.
    APInt typeHigh = isSigned ? APInt::getSignedMaxValue(bits).sext(128) : APInt::getLowBitsSet(128, bits);
    siteConditions->push_back(
        builder.CreateICmpSLE(builder.CreateAdd(first, builder.CreateMul(count, stride)), builder.getInt(typeHigh)));
    if (ICmpInst::isLT(predicate)) limit = builder.CreateSub(limit, builder.getInt(APInt(128, 1)));
    return builder.CreateSDiv(builder.CreateSub(limit, first), stride);
  }

  Loop *nest;
  ScalarEvolution &evolution;
  SCEVExpander &expander;
  IRBuilder<> &builder;
  DominatorTree &dominators;
  BasicBlock *site = nullptr;
  SmallVectorImpl<Value *> *siteConditions = nullptr;
  DenseMap<Loop *, Value *> tripValues;
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

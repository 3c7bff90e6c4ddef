// LinearReader (LinearReader.h): reading offsets as linear functions of a
// loop nest's trip numbers and bounded terms, and emitting their extremes.
#include "LinearReader.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/ConstantRange.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

using namespace llvm;

namespace lockstep::compiler {

bool LinearReader::readable(const SCEV *expression) {
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

Linear LinearReader::read(const SCEV *expression, SmallVectorImpl<Value *> &conditions) {
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

void LinearReader::setSite(BasicBlock *block, SmallVectorImpl<Value *> &conditions) {
  site = block;
  siteConditions = &conditions;
}

Value *LinearReader::extreme(const Linear &linear, bool largest) {
  Value *value = linear.base;
  for (const auto &[loop, step] : linear.steps)
    if (!step.isZero() && step.isNegative() != largest)
      value = builder.CreateAdd(value, builder.CreateMul(lastTrip(loop), builder.getInt(step)));
  if (linear.low) value = builder.CreateAdd(value, largest ? linear.high : linear.low);
  return value;
}

int LinearReader::invariantFactor(const SCEVMulExpr *product) {
  for (int i = 0; i < 2; ++i)
    if (evolution.isLoopInvariant(product->getOperand(i), nest) && expander.isSafeToExpand(product->getOperand(i)))
      return i;
  return -1;
}

Linear LinearReader::bounded(Value *low, Value *high) {
  return {builder.getInt(APInt(128, 0)), {}, low, high};
}

void LinearReader::requireWithin(const Linear &linear, const APInt &low, const APInt &high,
                   SmallVectorImpl<Value *> &conditions) {
  conditions.push_back(builder.CreateAnd(builder.CreateICmpSGE(extreme(linear, false), builder.getInt(low)),
                                         builder.CreateICmpSLE(extreme(linear, true), builder.getInt(high))));
}

Linear LinearReader::readBoundedProduct(const SCEVMulExpr *product, SmallVectorImpl<Value *> &conditions) {
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

Linear LinearReader::readMinMax(const SCEVMinMaxExpr *minMax, SmallVectorImpl<Value *> &conditions) {
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

void LinearReader::addStep(Linear &linear, Loop *loop, const APInt &step) {
  for (auto &[known, total] : linear.steps)
    if (known == loop) {
      total += step;
      return;
    }
  linear.steps.push_back({loop, step});
}

Value *LinearReader::lastTrip(Loop *loop) {
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

SmallVector<std::pair<ICmpInst *, bool>, 2> LinearReader::guards(Loop *loop) {
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

Value *LinearReader::guardedLastTrip(Loop *loop, ICmpInst *compare, bool taken, Value *count) {
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

}  // namespace lockstep::compiler

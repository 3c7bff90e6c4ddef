// OuterLoopGuards (OuterLoopGuards.h): the guards a work-item loop widened
// as an outer loop may hold. A guard compares a value that steps by one with
// each work-item with one they share (the global id, `gid < n`, Rodinia's
// k-means): it holds for every work-item of the loop when it holds at the
// first and the last, the steps between them not wrapping. Both sides may
// step so, alike (`r < r + w`, the test that r + w does not wrap, which C's
// unsigned loops `for (i = r; i < r + w; i++)` leave before a nest, AMD's
// SimpleConvolution): the values for which such a comparison holds are a
// range that starts or ends at the type's limit, so again the first and the
// last decide. A branch may test a logical `and` of guards and shared
// conditions (`y < h && x < w`).
#include "OuterLoopGuards.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace lockstep::compiler {
namespace {

// `value`'s recurrence in `loop` when it steps by one or minus one.
const SCEVAddRecExpr *stepsByOne(Value *value, Loop &loop, ScalarEvolution &SE) {
  auto *steps = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(value));
  if (!steps || steps->getLoop() != &loop || !steps->isAffine()) return nullptr;
  auto *step = dyn_cast<SCEVConstant>(steps->getStepRecurrence(SE));
  return step && (step->getAPInt().isOne() || step->getAPInt().isAllOnes()) ? steps : nullptr;
}

bool isGuard(const Value *condition, Loop &loop, ScalarEvolution &SE) {
  auto *compare = dyn_cast<ICmpInst>(condition);
  if (!compare || !compare->isRelational() || !loop.contains(compare)) return false;
  const SCEVAddRecExpr *left = stepsByOne(compare->getOperand(0), loop, SE);
  const SCEVAddRecExpr *right = stepsByOne(compare->getOperand(1), loop, SE);
  if (left && right) return left->getStepRecurrence(SE) == right->getStepRecurrence(SE);
  return (left && loop.isLoopInvariant(compare->getOperand(1))) ||
         (right && loop.isLoopInvariant(compare->getOperand(0)));
}

}  // namespace

bool guardsOf(Value *condition, Loop &loop, ScalarEvolution &SE, SmallVectorImpl<ICmpInst *> &guards,
              unsigned depth) {
  if (loop.isLoopInvariant(condition)) return true;
  if (isGuard(condition, loop, SE)) {
    guards.push_back(cast<ICmpInst>(condition));
    return true;
  }
  Value *a, *b;
  return depth > 0 && match(condition, m_LogicalAnd(m_Value(a), m_Value(b))) &&
         guardsOf(a, loop, SE, guards, depth - 1) && guardsOf(b, loop, SE, guards, depth - 1);
}

Value *guardsHold(ArrayRef<ICmpInst *> guards, Loop &loop, const SCEV *taken, ScalarEvolution &SE,
                  IRBuilder<> &builder) {
  SCEVExpander expander(SE, loop.getHeader()->getModule()->getDataLayout(), "guard");
  Value *all = nullptr;
  for (ICmpInst *guard : guards) {
    unsigned side = loop.isLoopInvariant(guard->getOperand(1)) ? 0 : 1;
    auto *steps = cast<SCEVAddRecExpr>(SE.getSCEV(guard->getOperand(side)));
    Type *type = guard->getOperand(side)->getType();
    // An operand's value at the first or the last work-item.
    auto at = [&](Value *operand, bool last) -> Value * {
      if (loop.isLoopInvariant(operand)) return operand;
      auto *moving = cast<SCEVAddRecExpr>(SE.getSCEV(operand));
      return expander.expandCodeFor(last ? moving->evaluateAtIteration(taken, SE) : moving->getStart(), type,
                                    &*builder.GetInsertPoint());
    };
    auto holds = [&](bool last) {
      return builder.CreateICmp(guard->getPredicate(), at(guard->getOperand(0), last),
                                at(guard->getOperand(1), last));
    };
    Value *first = at(guard->getOperand(side), false), *last = at(guard->getOperand(side), true);
    Value *atFirst = holds(false), *atLast = holds(true);
    bool up = cast<SCEVConstant>(steps->getStepRecurrence(SE))->getAPInt().isOne();
    Value *ordered =
        builder.CreateICmp(guard->isSigned() ? (up ? ICmpInst::ICMP_SGE : ICmpInst::ICMP_SLE)
                                             : (up ? ICmpInst::ICMP_UGE : ICmpInst::ICMP_ULE),
                           last, first);
    Value *passes = builder.CreateAnd(builder.CreateAnd(atFirst, atLast), ordered);
    all = all ? builder.CreateAnd(all, passes) : passes;
  }
  return all;
}

void hoistOutOf(Value *value, Loop &loop) {
  auto *I = dyn_cast<Instruction>(value);
  if (!I || !loop.contains(I)) return;
  for (Value *operand : I->operands()) hoistOutOf(operand, loop);
  I->moveBefore(loop.getLoopPreheader()->getTerminator());
}

}  // namespace lockstep::compiler

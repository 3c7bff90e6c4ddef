// A loop copied under a condition, for the passes that run a specialised
// copy of a loop when a check before it holds (SpreadLoopsPass,
// StreamingStoresPass, UniformDivisionPass, BoundsCheckVersioningPass),
// the loop ids such copies and the work-item loop split's parts need, and
// which loops those passes take for work-item loops, and their counters
// (InteriorVersioningPass, DivisionRunsPass):
//
//   preheader:      br useCopy, copy's preheader, loop's preheader (.not)
//   copy, loop:     both exit to the loop's exit block, whose phis take
//                   the copy's values from the copy
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

#include "Internal.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace lockstep::compiler {

// The preheader of a loop that versionLoop can copy: one exit block, which
// only the loop enters, and values that leave the loop only through that
// block's phis (LCSSA). Null for any other loop. It may add the preheader,
// so callers ask for it after their checks that change nothing.
BasicBlock *versionablePreheader(Loop *loop, LoopInfo &loops, DominatorTree &dominators) {
  BasicBlock *exit = loop->getExitBlock(), *exiting = loop->getExitingBlock();
  if (!exit || !exiting || exit->getSinglePredecessor() != exiting) return nullptr;
  for (BasicBlock *block : loop->blocks())
    for (Instruction &I : *block)
      for (User *user : I.users()) {
        auto *inst = cast<Instruction>(user);
        if (!loop->contains(inst) && !(isa<PHINode>(inst) && inst->getParent() == exit)) return nullptr;
      }
  BasicBlock *preheader = loop->getLoopPreheader();
  if (!preheader) preheader = InsertPreheaderForLoop(loop, &dominators, &loops, nullptr, false);
  return preheader;
}

// Copies a loop that versionablePreheader accepted and runs the copy instead
// when `useCopy` (computed in the preheader) holds:
// preheader -> (useCopy ? copy's preheader : loop's preheader); both exit to
// the loop's exit block, whose phis take the copy's values from the copy.
// The copy gets a loop id of its own with the loop's properties. `map` takes
// the loop's values to the copy's. Returns the copy.
Loop *versionLoop(Loop *loop, Value *useCopy, StringRef suffix, LoopInfo &loops, DominatorTree &dominators,
                  ValueToValueMapTy &map) {
  BasicBlock *preheader = loop->getLoopPreheader(), *exit = loop->getExitBlock();
  BasicBlock *loopEntry =
      SplitBlock(preheader, preheader->getTerminator(), &dominators, &loops, nullptr, suffix.drop_front() + ".not");
  SmallVector<BasicBlock *, 8> blocks;
  Loop *copy = cloneLoopWithPreheader(loopEntry, preheader, loop, map, suffix, &loops, &dominators, blocks);
  remapInstructionsInBlocks(blocks, map);
  if (MDNode *id = loop->getLoopID()) copy->setLoopID(copyLoopId(id));
  preheader->getTerminator()->eraseFromParent();
  BranchInst::Create(copy->getLoopPreheader(), loopEntry, useCopy, preheader);
  dominators.changeImmediateDominator(exit, preheader);
  for (PHINode &phi : exit->phis())
    for (unsigned i = 0, e = phi.getNumIncomingValues(); i < e; ++i)
      if (loop->contains(phi.getIncomingBlock(i))) {
        Value *value = phi.getIncomingValue(i);
        Value *mapped = map.count(value) ? static_cast<Value *>(map[value]) : value;
        phi.addIncoming(mapped, cast<BasicBlock>(map[phi.getIncomingBlock(i)]));
      }
  return copy;
}

MDNode *copyLoopId(MDNode *id, MDNode *added) {
  if (!id) return nullptr;
  SmallVector<Metadata *, 4> operands{nullptr};
  for (unsigned i = 1; i < id->getNumOperands(); ++i) operands.push_back(id->getOperand(i));
  if (added) operands.push_back(added);
  MDNode *copy = MDNode::getDistinct(id->getContext(), operands);
  copy->replaceOperandWith(0, copy);
  return copy;
}

std::optional<WorkItemCounter> workItemCounter(Loop *loop) {
  BasicBlock *latch = loop->getLoopLatch(), *preheader = loop->getLoopPreheader();
  auto *branch = latch ? dyn_cast<BranchInst>(latch->getTerminator()) : nullptr;
  if (!preheader || !branch || !branch->isConditional() || loop->getExitingBlock() != latch)
    return std::nullopt;
  auto *test = dyn_cast<ICmpInst>(branch->getCondition());
  if (!test || !(test->isEquality() || test->getPredicate() == ICmpInst::ICMP_ULT)) return std::nullopt;
  for (unsigned side = 0; side < 2; ++side) {
    auto *next = dyn_cast<BinaryOperator>(test->getOperand(side));
    Value *count = test->getOperand(1 - side);
    if (!next || next->getOpcode() != Instruction::Add || !match(next->getOperand(1), m_One()) ||
        !loop->isLoopInvariant(count) || (side == 1 && !test->isEquality()))
      continue;
    auto *id = dyn_cast<PHINode>(next->getOperand(0));
    if (!id || id->getParent() != loop->getHeader() || id->getNumIncomingValues() != 2 ||
        id->getIncomingValueForBlock(latch) != next || !loop->isLoopInvariant(id->getIncomingValueForBlock(preheader)))
      continue;
    // The test leaves on `next == count` (or stays on `next < count`).
    bool leavesOnTrue = !loop->contains(branch->getSuccessor(0));
    if (test->isEquality() && leavesOnTrue != (test->getPredicate() == ICmpInst::ICMP_EQ)) continue;
    if (!test->isEquality() && leavesOnTrue) continue;
    return WorkItemCounter{id, test, unsigned(1 - side), count, id->getIncomingValueForBlock(preheader)};
  }
  return std::nullopt;
}

bool isWorkItemLoop(const Loop *loop) {
  return loop->isInnermost() && findOptionMDForLoop(loop, "llvm.loop.parallel_accesses");
}

// A fresh loop id with the loop's properties but the vectorizer's, marked
// already vectorized (and not to unroll, if asked).
void keepScalar(Loop *loop, bool noUnroll) {
  LLVMContext &context = loop->getHeader()->getContext();
  SmallVector<Metadata *, 4> properties{nullptr};
  if (MDNode *id = loop->getLoopID())
    for (const MDOperand &property : drop_begin(id->operands()))
      if (auto *node = dyn_cast<MDNode>(property.get()); node && node->getNumOperands() > 0)
        if (auto *name = dyn_cast<MDString>(node->getOperand(0));
            name && !name->getString().starts_with("llvm.loop.vectorize"))
          properties.push_back(node);
  properties.push_back(MDNode::get(context, {MDString::get(context, "llvm.loop.isvectorized"),
                                             ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(context), 1))}));
  if (noUnroll) properties.push_back(MDNode::get(context, {MDString::get(context, "llvm.loop.unroll.disable")}));
  MDNode *id = MDNode::getDistinct(context, properties);
  id->replaceOperandWith(0, id);
  loop->setLoopID(id);
}

}  // namespace lockstep::compiler

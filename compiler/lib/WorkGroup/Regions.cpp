// Regions: the body cut into regions at barriers (and at the cuts of
// collectives and loop cuts), with one return block, and the decisions: a
// region that can end at more than one barrier gets the branch that chooses
// between them made a decision, a branch on work-item 0's condition between
// the loop nests (uniform, because barriers are reached in uniform control
// flow). Lane mode (LaneMode.cpp) needs no decisions.
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>

#include "Statistics.h"
#include "WorkGroup/WorkGroupLoops.h"

using namespace llvm;

#define DEBUG_TYPE "lockstep-work-group-loops"
LOCKSTEP_STATISTIC(NumDecisions, "Branches made decisions between regions");

namespace lockstep::compiler {

void WorkGroupLoops::splitAtBarriers() {
  SmallVector<CallInst *, 8> calls;
  for (BasicBlock &BB : F)
    if (&BB != prologue)
      for (Instruction &I : BB)
        if (isBarrierCall(I)) calls.push_back(cast<CallInst>(&I));
  for (CallInst *call : calls) {
    if (barrierBlocks.count(call->getParent())) continue;
    BasicBlock *block = call->getParent()->splitBasicBlock(call, "barrier");
    block->splitBasicBlock(call->getNextNode(), "after.barrier");
    barrierBlocks[block] = call;
  }
}

void WorkGroupLoops::unifyReturns() {
  SmallVector<ReturnInst *, 4> returns;
  for (BasicBlock &BB : F)
    if (auto *ret = dyn_cast<ReturnInst>(BB.getTerminator())) returns.push_back(ret);
  if (returns.size() == 1) {
    returnBlock = returns.front()->getParent();
    return;
  }
  returnBlock = BasicBlock::Create(context, "return", &F);
  ReturnInst::Create(context, returnBlock);
  for (ReturnInst *ret : returns) {
    BranchInst::Create(returnBlock, ret->getParent());
    ret->eraseFromParent();
  }
}

// Which region ends can be reached from `start` without crossing a barrier;
// `blocks` collects the region's blocks in depth-first order.
ExitSet WorkGroupLoops::exitsFrom(BasicBlock *start, SmallVectorImpl<BasicBlock *> *blocks) const {
  ExitSet exits;
  SmallPtrSet<BasicBlock *, 32> visited;
  SmallVector<BasicBlock *, 32> stack{start};
  while (!stack.empty()) {
    BasicBlock *block = stack.pop_back_val();
    if (barrierBlocks.count(block)) {
      exits.insert({Exit::Barrier, block});
      continue;
    }
    if (!visited.insert(block).second) continue;
    if (blocks) blocks->push_back(block);
    if (block == returnBlock) {
      exits.insert({Exit::Return, block});
    } else if (decisions.contains(block)) {
      exits.insert({Exit::Decision, block});
    } else {
      for (BasicBlock *successor : reverse(successors(block))) stack.push_back(successor);
    }
  }
  return exits;
}

SmallVector<BasicBlock *, 16> WorkGroupLoops::regionEntries() const {
  SmallVector<BasicBlock *, 16> entries{bodyEntry};
  for (auto &[block, call] : barrierBlocks) entries.push_back(block->getSingleSuccessor());
  for (BasicBlock *decision : decisions)
    for (BasicBlock *successor : successors(decision)) entries.push_back(successor);
  return entries;
}

// Finds a region that can end in more than one place and makes the branch
// that chooses between them a decision. Prefers a branch whose successors
// lead to disjoint ends: that is the one whose condition the spec requires to
// be uniform.
bool WorkGroupLoops::addOneDecision() {
  for (BasicBlock *entry : regionEntries()) {
    SmallVector<BasicBlock *, 32> blocks;
    if (exitsFrom(entry, &blocks).size() <= 1) continue;
    BasicBlock *best = nullptr;
    for (BasicBlock *block : blocks) {
      if (block->getTerminator()->getNumSuccessors() < 2 || decisions.contains(block)) continue;
      if (!isa<BranchInst>(block->getTerminator()) && !isa<SwitchInst>(block->getTerminator()))
        continue;
      SmallVector<ExitSet, 4> sets;
      for (BasicBlock *successor : successors(block)) sets.push_back(exitsFrom(successor));
      bool differ = false, disjoint = true;
      for (size_t i = 0; i < sets.size(); ++i)
        for (size_t j = i + 1; j < sets.size(); ++j) {
          if (sets[i] != sets[j]) differ = true;
          for (const Exit &exit : sets[i])
            if (sets[j].count(exit)) disjoint = false;
        }
      if (!differ) continue;
      if (!best) best = block;
      if (disjoint) {
        best = block;
        break;
      }
    }
    if (!best) report_fatal_error("lockstep: region with several ends and no branch between them");
    decisions.insert(best);
    ++NumDecisions;
    return true;
  }
  return false;
}

}  // namespace lockstep::compiler

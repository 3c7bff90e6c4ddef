// Collectives cut out of the code: a work-group or sub-group function call is
// a barrier that also exchanges data. Each work-item's operands are stored
// to private variables before the cut and its result loaded after it; the
// combine between the loop nests (CollectiveCombine.cpp) fills it in.
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include "WorkGroup/WorkGroupLoops.h"

using namespace llvm;

namespace lockstep::compiler {

// A collective is a barrier that exchanges data: each work-item's operand is
// stored before the cut, the code between the loop nests combines them
// (emitCombine) and each work-item's result is loaded after the cut.
void WorkGroupLoops::prepareCollectives() {
  SmallVector<std::pair<CallInst *, CollectiveOp>, 4> calls;
  for (BasicBlock &BB : F)
    if (&BB != prologue)
      for (Instruction &I : BB)
        if (auto *call = dyn_cast<CallInst>(&I); call && call->getCalledFunction())
          if (auto op = parseCollective(call->getCalledFunction()->getName()))
            calls.push_back({call, *op});
  IRBuilder<> allocas(prologue->getTerminator());
  for (auto [call, op] : calls) {
    Collective collective;
    collective.op = op;
    collective.type = call->getType();
    IRBuilder<> before(call);
    auto *load = call->arg_size() > 0 ? dyn_cast<LoadInst>(call->getArgOperand(0)) : nullptr;
    auto *variable = load ? dyn_cast<AllocaInst>(load->getPointerOperand()) : nullptr;
    if (variable && isKeptResident(*variable) && load->getNextNode() == call) {
      collective.in = variable;  // its context slot holds the operand already
    } else if (call->arg_size() > 0) {
      collective.in = allocas.CreateAlloca(call->getArgOperand(0)->getType(), nullptr, "collective.in");
      before.CreateStore(call->getArgOperand(0), collective.in);
    }
    collective.out = allocas.CreateAlloca(call->getType(), nullptr, "collective.out");
    // A masked loop's count: its `dirty` variable carries the same node.
    if (MDNode *count = call->getMetadata(kMaskedCountMarker))
      for (Instruction &I : *prologue)
        if (auto *variable = dyn_cast<AllocaInst>(&I); variable && variable->getMetadata(kGroupWideMarker) == count)
          collective.dirty = variable;
    for (unsigned i = 1; i < call->arg_size(); ++i) {
      Value *id = call->getArgOperand(i);
      collective.ids.push_back(allocas.CreateAlloca(id->getType(), nullptr, "collective.id"));
      before.CreateStore(id, collective.ids.back());
    }
    BasicBlock *cut = call->getParent()->splitBasicBlock(call, "collective");
    BasicBlock *after = cut->splitBasicBlock(call->getNextNode(), "after.collective");
    IRBuilder<> at(&*after->getFirstInsertionPt());
    call->replaceAllUsesWith(at.CreateLoad(call->getType(), collective.out, "collective.result"));
    call->eraseFromParent();
    barrierBlocks[cut] = nullptr;
    collectiveAt[cut] = collectives.size();
    collectives.push_back(std::move(collective));
  }
}

}  // namespace lockstep::compiler

// Barrier checks (LOCKSTEP_CHECK_BARRIERS): at each decision that leads to a
// barrier, every work-item must agree with the first; one that does not is
// reported, naming the branch and the barriers it leads to, and the group
// stops.
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include "WorkGroup/WorkGroupLoops.h"

using namespace llvm;

namespace lockstep::compiler {
namespace {

std::string describeLocation(const Instruction *I) {
  const DebugLoc &location = I->getDebugLoc();
  if (!location) return "an unknown line (build with LOCKSTEP_CHECK_BARRIERS set for line numbers)";
  return (location->getFilename() + ":" + Twine(location.getLine()) + ":" + Twine(location.getCol())).str();
}

}  // namespace

// The barriers a decision leads to, through the decisions after it.
void WorkGroupLoops::collectBarrierLocations(BasicBlock *decision, std::vector<std::string> &out,
                                             SmallPtrSetImpl<BasicBlock *> &seen) {
  if (!seen.insert(decision).second) return;
  for (BasicBlock *successor : successors(decision))
    for (const Exit &exit : exitsFrom(successor)) {
      if (exit.kind == Exit::Decision) collectBarrierLocations(exit.block, out, seen);
      if (exit.kind != Exit::Barrier) continue;
      if (CallInst *call = barrierBlocks.lookup(exit.block)) out.push_back(describeLocation(call));
      else out.push_back("a collective function");
    }
}

// LOCKSTEP_CHECK_BARRIERS: every work-item must agree with work-item 0 on a
// decision that leads to a barrier; if one doesn't, report it and stop the
// group instead of running on with garbage.
void WorkGroupLoops::emitDivergenceCheck(IRBuilder<> &builder, BasicBlock *decision, unsigned slot) {
  std::string what = "in kernel '" + kernelName + "', the branch at " +
                     describeLocation(decision->getTerminator()) + " decides whether work-items reach ";
  std::vector<std::string> barriers;
  SmallPtrSet<BasicBlock *, 8> seen;
  collectBarrierLocations(decision, barriers, seen);
  sort(barriers);
  barriers.erase(std::unique(barriers.begin(), barriers.end()), barriers.end());
  for (std::string &place : barriers)
    if (place != "a collective function") place = "the barrier at " + place;
  what += barriers.empty() ? "the end of the kernel" : join(barriers, ", ");
  Module &M = *F.getParent();
  FunctionCallee report = M.getOrInsertFunction(
      kDivergenceSymbol, FunctionType::get(builder.getVoidTy(),
                                           {builder.getPtrTy(), builder.getPtrTy(), builder.getInt64Ty()}, false));
  Value *text = builder.CreateGlobalStringPtr(what, "barrier.check");
  Type *type = slots[slot].type;
  Value *begin = subGroupMode ? subGroupFirst : builder.getInt64(0);
  Value *end = subGroupMode ? subGroupEnd : workItemCount;
  Value *first = builder.CreateLoad(type, contextAddress(builder, slot, begin));
  BasicBlock *fail = BasicBlock::Create(context, "barrier.divergence", &F);
  emitCountedLoop(builder, builder.CreateAdd(begin, builder.getInt64(1)), end, [&](IRBuilder<> &b, Value *i) {
    Value *value = b.CreateLoad(type, contextAddress(b, slot, i));
    BasicBlock *same = BasicBlock::Create(context, "barrier.agree", &F);
    BasicBlock *differ = BasicBlock::Create(context, "barrier.disagree", &F);
    b.CreateCondBr(b.CreateICmpEQ(value, first), same, differ);
    b.SetInsertPoint(differ);
    b.CreateCall(report, {text, F.getArg(kGroupInfoParam), i});
    b.CreateBr(fail);
    b.SetInsertPoint(same);
  });
  IRBuilder<> stop(fail);
  stop.CreateRetVoid();
}

}  // namespace lockstep::compiler

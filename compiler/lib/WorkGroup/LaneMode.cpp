// Lane mode, for the cl_khr_subgroup_* functions that part of a sub-group may
// call: each work-item keeps its place in a state machine (its state in the
// context), and the machine runs the lowest state any work-item is in, for
// the work-items in it, until every one is done.
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/PostOrderIterator.h>
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
LOCKSTEP_STATISTIC(NumLaneMachines, "Kernels run as a per-work-item state machine (lane mode)");

namespace lockstep::compiler {

// Lane mode: states in reverse post-order of the cuts, so that the lowest
// state is the one work-items that branched apart reach first.
void WorkGroupLoops::numberStates() {
  ++NumLaneMachines;
  ReversePostOrderTraversal<Function *> order(&F);
  for (BasicBlock *block : order)
    if (barrierBlocks.count(block)) stateCuts.push_back(block);
  for (auto &[block, call] : barrierBlocks)  // unreachable ones, for completeness
    if (!is_contained(stateCuts, block)) stateCuts.push_back(block);
  entryState[bodyEntry] = 0;
  for (unsigned k = 0; k < stateCuts.size(); ++k) {
    cutState[stateCuts[k]] = k + 1;
    entryState[stateCuts[k]->getSingleSuccessor()] = k + 1;
  }
  doneState = stateCuts.size() + 1;
}

// start: every work-item of the range at state 0 → dispatch: pick the state
// to run → that cut's exchange among the work-items in it → the region after
// it (buildRegion) → dispatch; when every work-item is done → finish.
void WorkGroupLoops::buildLaneMachine(BasicBlock *start, BasicBlock *finish) {
  Type *i32 = Type::getInt32Ty(context);
  IRBuilder<> b(start);
  loadLaneCount(b);
  Value *begin = subGroupMode ? subGroupFirst : b.getInt64(0);
  Value *end = subGroupMode ? subGroupEnd : workItemCount;
  emitCountedLoop(b, begin, end, [&](IRBuilder<> &l, Value *i) {
    l.CreateStore(l.getInt32(0), contextAddress(l, laneSlot, i));
  });
  dispatch = BasicBlock::Create(context, "lanes.dispatch", &F);
  b.CreateBr(dispatch);
  b.SetInsertPoint(dispatch);
  loadLaneCount(b);
  // A work-group barrier or collective (a hard state) runs only once every
  // work-item has reached it: until then the lowest other state runs.
  SmallVector<uint8_t, 16> hard(doneState + 1, 0);
  bool anyHard = false;
  for (unsigned k = 1; k < doneState; ++k) {
    BasicBlock *cut = stateCuts[k - 1];
    CallInst *call = barrierBlocks.lookup(cut);
    bool subGroup = call ? isSubGroupBarrier(call->getCalledFunction()->getName())
                         : collectives[collectiveAt.lookup(cut)].op.subGroup;
    hard[k] = !subGroup;
    anyHard |= !subGroup;
  }
  IRBuilder<> entry(prologue->getTerminator());
  AllocaInst *lowest = entry.CreateAlloca(i32, nullptr, "lanes.lowest");
  AllocaInst *lowestSoft = entry.CreateAlloca(i32, nullptr, "lanes.lowest.soft");
  Value *done = b.getInt32(doneState);
  b.CreateStore(done, lowest);
  b.CreateStore(done, lowestSoft);
  GlobalVariable *table = nullptr;
  if (anyHard)
    table = new GlobalVariable(*F.getParent(), ArrayType::get(b.getInt8Ty(), hard.size()), true,
                               GlobalValue::PrivateLinkage, ConstantDataArray::get(context, hard), "lanes.hard");
  emitCountedLoop(b, begin, end, [&](IRBuilder<> &l, Value *i) {
    Value *state = l.CreateLoad(i32, contextAddress(l, laneSlot, i));
    l.CreateStore(l.CreateBinaryIntrinsic(Intrinsic::umin, l.CreateLoad(i32, lowest), state), lowest);
    if (!table) return;
    Value *isHard = l.CreateICmpNE(
        l.CreateLoad(l.getInt8Ty(), l.CreateGEP(l.getInt8Ty(), table, l.CreateZExt(state, l.getInt64Ty()))),
        l.getInt8(0));
    Value *soft = l.CreateLoad(i32, lowestSoft);
    l.CreateStore(l.CreateSelect(isHard, soft, l.CreateBinaryIntrinsic(Intrinsic::umin, soft, state)), lowestSoft);
  });
  Value *state = b.CreateLoad(i32, lowest, "lanes.state");
  if (table) {
    Value *soft = b.CreateLoad(i32, lowestSoft);
    state = b.CreateSelect(b.CreateICmpNE(soft, done), soft, state, "lanes.state");
  }
  SwitchInst *choose = b.CreateSwitch(state, finish, doneState);
  choose->addCase(b.getInt32(0), regionFor(bodyEntry));
  for (unsigned k = 1; k < doneState; ++k) {
    BasicBlock *cut = stateCuts[k - 1];
    BasicBlock *block = BasicBlock::Create(context, "lanes.cut", &F);
    choose->addCase(b.getInt32(k), block);
    IRBuilder<> at(block);
    loadLaneCount(at);
    if (auto it = collectiveAt.find(cut); it != collectiveAt.end())
      emitCombine(at, collectives[it->second], at.getInt32(k));
    else
      emitBarrierFence(at, barrierBlocks.lookup(cut));
    at.CreateBr(regionFor(cut->getSingleSuccessor()));
  }
  laneCount = nullptr;
}

}  // namespace lockstep::compiler

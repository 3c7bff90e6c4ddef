// Masked loops: a loop whose trip count differs between work-items becomes
// one every work-item runs alike, with an `active` flag per work-item and a
// count of the active ones (a work_group_reduce_add, so a cut) deciding
// whether the group goes round again.
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include "Analysis/LoopCutCost.h"
#include "Statistics.h"
#include "WorkGroup/LoopCuts.h"
#include "WorkGroup/PhaseMarkers.h"

using namespace llvm;

#define DEBUG_TYPE "lockstep-loop-cuts"
LOCKSTEP_STATISTIC(NumMaskedLoops, "Loops whose trip count differs, masked");

namespace lockstep::compiler {
namespace {

// Whether `loop` (masked, its inductions rewritten as `start + round *
// step`) exits when a counter with a constant step passes a constant bound
// within kPeekMaxRounds steps from zero: `for (i = lid; i < 324; i += 256)`,
// a tile's halo loaded by a group of 256. Testing the next round early costs
// every work-item a second test in every round; it pays only where the
// round it saves is one of a few (not in a grid-stride loop, whose step is
// the grid's size, nor in mandelbrot's, bounded by an argument).
cl::opt<uint64_t> kPeekMaxRounds("lockstep-peek-max-rounds", cl::Hidden, cl::init(8),
                                 cl::desc("Most rounds of a masked loop whose next round is tested early"));

bool fewRounds(Loop *loop, const DenseMap<const Value *, Value *> &stepOf) {
  std::optional<BoundedExit> test = boundedExit(loop);
  if (!test) return false;
  Value *counter = test->counter;
  while (isa<CastInst>(counter)) counter = cast<CastInst>(counter)->getOperand(0);
  auto *step = dyn_cast_or_null<ConstantInt>(stepOf.lookup(counter));
  if (!step || step->isNegative() || step->isZero()) return false;
  int64_t limit = ICmpInst::isSigned(test->stay) ? test->bound->getSExtValue() : int64_t(test->bound->getZExtValue());
  return limit > 0 && uint64_t(limit) <= kPeekMaxRounds * step->getZExtValue();
}

}  // namespace

CallInst *countOverGroup(IRBuilder<> &builder, Value *flag) {
  Module &M = *builder.GetInsertBlock()->getModule();
  Type *i32 = builder.getInt32Ty();
  FunctionCallee sum = M.getOrInsertFunction("_Z21work_group_reduce_addi", i32, i32);
  if (auto *declared = dyn_cast<Function>(sum.getCallee())) declared->addFnAttr(Attribute::Convergent);
  return builder.CreateCall(sum, {flag});
}

Value *isWholeGroup(IRBuilder<> &builder, Value *count) {
  // The group's size, which the work-group loops compute in the prologue.
  Type *i64 = builder.getInt64Ty();
  FunctionCallee workItems =
      builder.GetInsertBlock()->getModule()->getOrInsertFunction(kWorkItemCountPlaceholder, i64);
  if (auto *declared = dyn_cast<Function>(workItems.getCallee())) {
    declared->setDoesNotAccessMemory();
    declared->setDoesNotThrow();
    declared->setWillReturn();
  }
  Value *wide = builder.CreateZExt(count, i64);
  return builder.CreateICmpEQ(wide, builder.CreateCall(workItems));
}

// For maskLoop: a block that runs the header of `loop` once more, for the
// next round (`round`, the header's load of the round counter, plus one),
// and clears the work-item's `active` flag if the header would leave; then
// goes to `latch`. Only where the header is the loop's one exiting block and
// computes its exit test without touching memory other than the private
// variables in the prologue's allocas (so running it early is running it
// again). Null where it does not apply; `leaves` is the block where the
// flag is cleared.
BasicBlock *LoopCutter::peekNextRound(Loop *loop, ArrayRef<BasicBlock *> exiting, LoadInst *round,
                                          AllocaInst *active, BasicBlock *latch, BasicBlock *&leaves) {
  BasicBlock *header = loop->getHeader();
  if (exiting.size() != 1 || exiting.front() != header || loop->isLoopLatch(header)) return nullptr;
  auto *branch = dyn_cast<BranchInst>(header->getTerminator());
  if (!branch || !branch->isConditional()) return nullptr;
  if (auto *test = dyn_cast<Instruction>(branch->getCondition());
      test && test->getParent() != header && loop->contains(test))
    return nullptr;
  for (Instruction &I : *header) {
    if (&I == branch) continue;
    if (isa<PHINode>(&I) || I.mayWriteToMemory() || I.mayHaveSideEffects() || isa<CallBase>(&I)) return nullptr;
    if (auto *load = dyn_cast<LoadInst>(&I)) {
      auto *alloca = dyn_cast<AllocaInst>(load->getPointerOperand());
      if (!load->isSimple() || !alloca || alloca->getParent() != prologue) return nullptr;
    } else if (I.mayReadFromMemory()) {
      return nullptr;
    }
  }
  BasicBlock *peek = BasicBlock::Create(context, "masked.peek", &F, latch);
  IRBuilder<> builder(peek);
  ValueToValueMapTy map;
  for (Instruction &I : *header) {
    if (&I == branch) break;
    Instruction *copy = I.clone();
    copy->setName(I.getName() + ".next");
    builder.Insert(copy);
    RemapInstruction(copy, map, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
    map[&I] = copy;
    if (&I == round) {
      Value *next = builder.CreateAdd(copy, ConstantInt::get(copy->getType(), 1), "round.next");
      map[&I] = next;
    }
  }
  Value *condition = map.lookup(branch->getCondition());
  if (!condition) condition = branch->getCondition();  // computed before the loop
  bool staysOnTrue = loop->contains(branch->getSuccessor(0));
  Value *stays = staysOnTrue ? condition : builder.CreateNot(condition);
  leaves = BasicBlock::Create(context, "masked.peek.leaves", &F, latch);
  builder.CreateCondBr(stays, latch, leaves);
  builder.SetInsertPoint(leaves);
  builder.CreateStore(ConstantInt::get(Type::getInt32Ty(context), 0), active);
  builder.CreateBr(latch);
  return peek;
}

// A loop whose trip count differs between work-items, made one that every
// work-item runs alike: each keeps an `active` flag; the loop goes round while
// any work-item of the group is active (a work_group_reduce_add of the flags,
// a collective, so a cut), and its body runs for the active ones only (the
// vectorizer masks it), or for all without reading the flags while the count
// says all of them are.
// Values that cross the loop's edges go through memory first (promotable
// private variables, per work-item in the context), so that those that were
// left behind by a work-item keep their last value. Only loops with one exit
// block and a preheader.
void LoopCutter::maskLoop(Loop *loop) {
  BasicBlock *header = loop->getHeader(), *preheader = loop->getLoopPreheader();
  BasicBlock *exit = loop->getUniqueExitBlock();
  Type *i32 = Type::getInt32Ty(context);
  Type *i64 = Type::getInt64Ty(context);
  IRBuilder<> entry(prologue->getTerminator());

  // Induction variables, i = start + round * step. The loop goes round in
  // lockstep, and a work-item is active from the first round until it
  // leaves, so while it runs the body its own trip count is the round's,
  // which every work-item shares (a uniform variable, kept once). Without
  // this, `for (i = gid; i < n; i += size)` kept i per work-item in memory
  // and every access through it became a gather.
  AllocaInst *round = nullptr;
  LoadInst *roundAtHeader = nullptr;
  DenseMap<const Value *, Value *> stepOf;  // induction at the round → its step
  if (BasicBlock *latch = loop->getLoopLatch()) {
    SmallVector<std::pair<PHINode *, Value *>, 4> inductions;  // the counter, its step
    for (PHINode &phi : header->phis()) {
      if (!phi.getType()->isIntegerTy() || phi.getNumIncomingValues() != 2) continue;
      auto *next = dyn_cast<BinaryOperator>(phi.getIncomingValueForBlock(latch));
      if (!next || next->getOpcode() != Instruction::Add || !loop->contains(next)) continue;
      Value *step = next->getOperand(0) == &phi ? next->getOperand(1)
                    : next->getOperand(1) == &phi ? next->getOperand(0)
                                                  : nullptr;
      // A step computed in the loop from uniform values (`i +=
      // get_global_size(0)` truncated to int in the body) moves before it.
      bool hoisted = false;
      if (step && loop->makeLoopInvariant(step, hoisted)) inductions.push_back({&phi, step});
    }
    if (!inductions.empty()) {
      round = entry.CreateAlloca(i64, nullptr, "loop.round");
      new StoreInst(ConstantInt::get(i64, 0), round, preheader->getTerminator());
      IRBuilder<> at(&*header->getFirstInsertionPt());
      Value *count = roundAtHeader = at.CreateLoad(i64, round, "round");
      for (auto [phi, step] : inductions) {
        Value *trips = at.CreateZExtOrTrunc(count, phi->getType());
        Value *value = at.CreateAdd(phi->getIncomingValueForBlock(preheader), at.CreateMul(trips, step),
                                    phi->getName() + ".at.round");
        stepOf[value] = step;
        phi->replaceAllUsesWith(value);
        phi->eraseFromParent();
      }
    }
  }

  // A loop taken out of a guard (GuardedLoops.cpp): the work-items the
  // guard kept out start inactive, and run no round.
  AllocaInst *entered = guardedHeaders.lookup(header);

  // The first rounds, which every work-item runs (SureRounds.cpp); none
  // where a guard kept some out.
  AllocaInst *sure = nullptr;
  if (Value *rounds = round && !entered ? sureRounds(loop, stepOf) : nullptr) {
    sure = entry.CreateAlloca(i64, nullptr, "loop.sure.rounds");
    new StoreInst(rounds, sure, preheader->getTerminator());
  }

  SmallVector<PHINode *, 8> phis;
  for (PHINode &phi : exit->phis()) phis.push_back(&phi);
  for (BasicBlock *block : loop->blocks())
    for (PHINode &phi : block->phis()) phis.push_back(&phi);
  for (PHINode *phi : phis) DemotePHIToStack(phi, prologue->getFirstInsertionPt());
  SmallVector<Instruction *, 16> escaping;
  for (BasicBlock *block : loop->blocks())
    for (Instruction &I : *block)
      if (any_of(I.users(), [&](User *user) { return !loop->contains(cast<Instruction>(user)->getParent()); }))
        escaping.push_back(&I);
  for (Instruction *I : escaping) DemoteRegToStack(*I, false, prologue->getFirstInsertionPt());

  // In the context, read at the top of each round and written only when the
  // work-item leaves: copied in and out like other variables, it cost a
  // store per work-item and round, and another as the collective's input.
  AllocaInst *active = entry.CreateAlloca(i32, nullptr, "loop.active");
  active->setMetadata(kResidentMarker, MDNode::get(context, {}));
  // Whether every work-item of the group was active in the round before (a
  // uniform variable): while they all are, which is most rounds of a
  // grid-stride loop, the optimizer runs a version of the round's work-item
  // loop that does not read the flags.
  AllocaInst *allActive = entry.CreateAlloca(i32, nullptr, "loop.all.active");
  // Whether a flag may be 0: set at the latch by a work-item that left this
  // round, cleared by a count that finds every work-item active. While it
  // stays clear the count is the group's size without reading the flags: a
  // grid-stride loop's rounds are mostly such, and summing 256 flags cost a
  // histogram a tenth of its time. Every work-item updates it at the latch,
  // unconditionally, so that -O3 keeps it in a register across the work-item
  // loop (an `or` reduction, which vectorizes); a store only where one
  // leaves, under a mask, kept mandelbrot's loop from vectorizing.
  AllocaInst *dirty = entry.CreateAlloca(i32, nullptr, "loop.dirty");
  MDNode *countId = MDNode::getDistinct(context, {});
  dirty->setMetadata(kResidentMarker, MDNode::get(context, {}));
  dirty->setMetadata(kGroupWideMarker, countId);
  BasicBlock *top = BasicBlock::Create(context, "masked.loop", &F, header);
  BasicBlock *latch = BasicBlock::Create(context, "masked.latch", &F, header);
  BasicBlock *leave = BasicBlock::Create(context, "masked.exit", &F, header);
  SmallVector<BasicBlock *, 4> latches, exiting;
  loop->getLoopLatches(latches);
  loop->getExitingBlocks(exiting);
  // A work-item that ran the body tests the header's exit for the next round
  // before it reaches the latch, so the count below is of the work-items
  // that will run the body again: without that, the round after the last
  // body of every work-item ran only to find them all leaving (stencil's
  // halo loop, two trips at most, went round three times).
  BasicBlock *peekLeaves = nullptr;
  BasicBlock *peek =
      fewRounds(loop, stepOf) ? peekNextRound(loop, exiting, roundAtHeader, active, latch, peekLeaves) : nullptr;
  for (BasicBlock *block : latches) block->getTerminator()->replaceSuccessorWith(header, peek ? peek : latch);
  for (BasicBlock *block : exiting) block->getTerminator()->replaceSuccessorWith(exit, leave);
  if (entered) {
    // The first round reads the flags (the group-wide `dirty` starts set
    // too); its count finds whether they are all set.
    IRBuilder<> at(preheader->getTerminator());
    at.CreateStore(at.CreateLoad(i32, entered, "entered"), active);
    at.CreateStore(ConstantInt::get(i32, 0), allActive);
  } else {
    new StoreInst(ConstantInt::get(i32, 1), active, preheader->getTerminator());
    new StoreInst(ConstantInt::get(i32, 1), allActive, preheader->getTerminator());
  }
  preheader->getTerminator()->replaceSuccessorWith(header, top);

  BasicBlock *own = BasicBlock::Create(context, "masked.own", &F, header);
  IRBuilder<> builder(top);
  // Past the `dirty` mark: where a sure round's work-items go, none having
  // left (without a peek at the next round, which may find one leaving).
  BasicBlock *next = BasicBlock::Create(context, "masked.next", &F, header);
  if (sure) {
    BasicBlock *copy = copySureRound(loop, latch, next);
    BasicBlock *unsure = BasicBlock::Create(context, "masked.unsure", &F, header);
    builder.CreateCondBr(builder.CreateICmpULT(builder.CreateLoad(i64, round), builder.CreateLoad(i64, sure)), copy,
                         unsure);
    builder.SetInsertPoint(unsure);
  }
  builder.CreateCondBr(builder.CreateICmpNE(builder.CreateLoad(i32, allActive), ConstantInt::get(i32, 0)), header, own);
  builder.SetInsertPoint(own);
  Value *isActive = builder.CreateICmpNE(builder.CreateLoad(i32, active), ConstantInt::get(i32, 0));
  builder.CreateCondBr(isActive, header, latch);
  builder.SetInsertPoint(leave);
  builder.CreateStore(ConstantInt::get(i32, 0), active);
  builder.CreateBr(latch);
  builder.SetInsertPoint(latch);
  // 1 where the work-item left this round (its flag went to 0), else 0.
  PHINode *left = builder.CreatePHI(i32, 4, "left");
  for (BasicBlock *from : predecessors(latch))
    left->addIncoming(ConstantInt::get(i32, from == leave || from == peekLeaves), from);
  builder.CreateStore(builder.CreateOr(builder.CreateLoad(i32, dirty), left), dirty);
  builder.CreateBr(next);
  builder.SetInsertPoint(next);
  if (round) builder.CreateStore(builder.CreateAdd(builder.CreateLoad(i64, round), ConstantInt::get(i64, 1)), round);
  // How many work-items are still active: any of them, all of them.
  CallInst *count = countOverGroup(builder, builder.CreateLoad(i32, active));
  count->setMetadata(kMaskedCountMarker, countId);
  Value *everyOne = isWholeGroup(builder, count);
  builder.CreateStore(builder.CreateZExt(everyOne, i32), allActive);
  builder.CreateCondBr(builder.CreateICmpNE(count, ConstantInt::get(i32, 0)), top, exit);
  ++maskedLoops;
  ++NumMaskedLoops;
}

}  // namespace lockstep::compiler

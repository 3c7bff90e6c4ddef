// Last round: a loop whose work-items start a local id apart and step at
// least the group's width each round runs its rounds in two parts, the
// rounds every work-item of the group runs (a loop of a count the group
// shares, which LoopCuts cuts like any uniform loop) and at most one more,
// an `if` that only some work-items take: no masked loop, no activity flags.
//
// `for (i = lid + u; i < n; i += t)` with a bound n and a step t the group
// shares (`b < 256; b += get_local_size(0)` over a __local array,
// `i < n; i += get_global_size(0)` in a grid-stride loop): the starts of the
// group's work-items are the lsz consecutive values from s0 = u to s1 = lsz
// - 1 + u, and t >= lsz, so a work-item's count of rounds, which does not
// grow with its start, is that of s1, R, or R + 1: s + (R + 1) t >= s1 -
// (lsz - 1) + R t + t > s1 + R t >= n. So, for each work-item alone:
//
//   R = s1 < n ? (n - s1 - 1) / t + 1 : 0      (i <= n: s1 <= n ? (n - s1) / t + 1 : 0)
//   for (r = 0; r < R; r++) { body(i); i += t; }    uniform: cut, no flags
//   if (i < n) { body(i); i += t; }                  the last round
//
// Masked, each round of such a loop had every work-item test, clear its
// flag and mark the group dirty, and the group went round once more to
// find everyone done: rw_histogram's two loops over its 256 bins cost as
// much as its 16 rounds over the data.
//
// In the shared rounds the body's counter is s0 + r * t, which the group
// shares, plus the local id: every counter of those rounds lies in [s0, n),
// so the sum does not wrap, and a 32-bit counter is that sum in 64 bits
// truncated `nsw` (`nuw` unsigned), whose sign (zero) extension for an
// index is the 64-bit sum itself: `data[i]` becomes an induction of the
// work-item loop, not a sign extension per work-item (rw_histogram's byte
// loop: 3.3-4.3 -> 4.8-5.1 GB/s on the 2-core EPYC;
// -lockstep-last-round-wide-index=false for comparison).
//
// What the rewrite relies on is checked where it is not known: the starts
// are consecutive (s1 - s0 = lsz - 1 in the counter's width, s0 <= s1: an
// `int` index made from a 64-bit id may wrap), t >= lsz (t is
// get_local_size, or get_global_size in the counter's width, or a constant
// of at least the largest group), and no counter passes the type's end
// before the bound (a signed `nsw` or unsigned `nuw` step cannot; else n - 1
// + t must fit: `b += get_local_size(0)` on an `int` converts from size_t,
// which wraps). Where a check fails at run time the loop runs as it was,
// whole in each work-item (marked kWholeLoopMarker: not cut, not masked).
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LCSSA.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include "Analysis/LoopCutCost.h"
#include "Analysis/WorkItemDivergence.h"
#include "Analysis/OpenCLNames.h"
#include "Internal.h"
#include "Statistics.h"
#include "WorkGroup/LoopCuts.h"
#include "WorkGroup/PhaseMarkers.h"
#include "WorkGroup/StrideLoop.h"
#include "lockstep/compiler/GroupAbi.h"

using namespace llvm;

#define DEBUG_TYPE "lockstep-loop-cuts"
LOCKSTEP_STATISTIC(NumLastRoundLoops, "Loops split into the rounds the group shares and a last round");
LOCKSTEP_STATISTIC(NumLastRoundFallbacks, "Of those, loops kept whole for launches the checks reject");

namespace lockstep::compiler {
namespace {

cl::opt<bool> kWideIndex("lockstep-last-round-wide-index", cl::Hidden, cl::init(true),
                         cl::desc("A shared round's 32-bit counter as its 64-bit sum, which an index's "
                                  "extension uses directly (off: counter + local id in 32 bits)"));
cl::opt<bool> kUniformBounds("lockstep-last-round-uniform-bounds", cl::Hidden, cl::init(true),
                             cl::desc("Take bounds and steps the divergence analysis finds uniform, not only "
                                      "expressions of the prologue's values"));
cl::opt<unsigned> kLastRoundMaxSize("lockstep-last-round-max-size", cl::Hidden, cl::init(300),
                                    cl::desc("Most instructions of a loop split into shared rounds and a last "
                                             "round (0: none)"));

// Before the loop (at `at`): whether the launch keeps what the rewrite relies
// on (true where it is known), and R, the count of the greatest start.
struct SharedCount {
  Value *ok, *rounds;
  Value *first;  // s0, the start of local id 0
};

SharedCount countSharedRounds(const Stride &loop, Function &F, IRBuilder<> &at) {
  const Start &start = loop.start;
  Value *step = loop.step, *bound = loop.bound;
  IntegerType *type = loop.type;
  bool isSigned = loop.isSigned, strict = loop.strict;
  unsigned d = start.dimension;
  // What is known of t >= lsz and of the counter not wrapping.
  bool stepCovers = false;
  Value *wideStep = step;
  if (auto *trunc = dyn_cast<TruncInst>(step)) wideStep = trunc->getOperand(0);
  if (auto *zext = dyn_cast<ZExtInst>(step)) wideStep = zext->getOperand(0);
  if (auto size = groupSize(wideStep, F); size && size->second == d)
    stepCovers = size->first != kGlobalSize || wideStep == step;  // a truncated global size may be small
  if (auto *constant = dyn_cast<ConstantInt>(step))
    stepCovers = constant->getValue().uge(kMaxWorkGroupSize) && !constant->getValue().isNegative();
  bool noWrap = isSigned ? loop.next->hasNoSignedWrap() : loop.next->hasNoUnsignedWrap();

  // The two extreme starts, then the checks and the count.
  Value *localSize = loadGroupInfo(at, F.getArg(kGroupInfoParam), kLocalSize, d);
  Value *first = startAt(start, at.getInt64(0), at);
  Value *last = startAt(start, at.CreateSub(localSize, at.getInt64(1)), at);
  Value *width = at.CreateTrunc(localSize, type);
  Value *one = ConstantInt::get(type, 1), *zero = ConstantInt::get(type, 0);
  Value *ok = at.CreateAnd(at.CreateICmpEQ(at.CreateSub(last, first), at.CreateSub(width, one)),
                           isSigned ? at.CreateICmpSLE(first, last) : at.CreateICmpULE(first, last));
  if (!stepCovers) ok = at.CreateAnd(ok, at.CreateICmpUGE(step, width));
  if (isSigned && !isa<ConstantInt>(step)) ok = at.CreateAnd(ok, at.CreateICmpSGT(step, zero));
  if (!noWrap) {
    // The counter's last value below the bound (n - 1, or n for `<=`) plus
    // t does not pass the type's end (n - 1 wrapping: a loop that never
    // runs, kept whole).
    Value *top = strict ? at.CreateSub(bound, one) : bound;
    Intrinsic::ID add = isSigned ? Intrinsic::sadd_with_overflow : Intrinsic::uadd_with_overflow;
    Value *sum = at.CreateBinaryIntrinsic(add, top, step);
    Value *fits = at.CreateNot(at.CreateExtractValue(sum, 1));
    if (strict) fits = at.CreateAnd(fits, isSigned ? at.CreateICmpSGT(bound, top) : at.CreateICmpUGT(bound, top));
    ok = at.CreateAnd(ok, fits);
  }
  Value *stays = strict ? (isSigned ? at.CreateICmpSLT(last, bound) : at.CreateICmpULT(last, bound))
                        : (isSigned ? at.CreateICmpSLE(last, bound) : at.CreateICmpULE(last, bound));
  Value *distance = at.CreateSub(bound, last);
  if (strict) distance = at.CreateSub(distance, one);
  Value *divisor = at.CreateSelect(at.CreateICmpEQ(step, zero), one, step);
  Value *rounds = at.CreateSelect(stays, at.CreateAdd(at.CreateUDiv(distance, divisor), one), zero, "shared.rounds");
  return {ok, rounds, first};
}

}  // namespace

bool LoopCutter::splitLastRound(Loop *loop, DominatorTree &dominators, LoopInfo &loops,
                                function_ref<bool(const Value *)> uniform) {
  if (kLastRoundMaxSize == 0) return false;
  std::optional<Stride> stride = strideOf(loop, prologue, kLastRoundMaxSize, uniform);
  if (!stride) return false;
  BasicBlock *header = stride->header, *preheader = stride->preheader, *latch = stride->latch;
  BasicBlock *exit = stride->exit;
  PHINode *counter = stride->counter;
  Value *step = stride->step;
  IntegerType *type = stride->type;
  Value *one = ConstantInt::get(type, 1), *zero = ConstantInt::get(type, 0);

  // The step is computed in the loop (`i += get_global_size(0)` truncated):
  // before it now, as it depends on nothing of the loop (what may trap, a
  // division, stays, and so does the loop).
  bool hoisted = false;
  if (!loop->makeLoopInvariant(step, hoisted)) return false;
  formLCSSA(*loop, dominators, &loops, nullptr);

  IRBuilder<> at(preheader->getTerminator());
  auto [ok, rounds, first] = countSharedRounds(*stride, F, at);
  bool checked = !isa<Constant>(ok) || !cast<Constant>(ok)->isOneValue();

  // Copies of the loop as it is: the shared rounds, and, where a check may
  // fail, the loop kept whole.
  auto copyLoop = [&](ValueToValueMapTy &map, const char *suffix) {
    SmallVector<BasicBlock *, 16> copies;
    for (BasicBlock *block : loop->blocks()) {
      BasicBlock *copy = CloneBasicBlock(block, map, suffix, &F);
      map[block] = copy;
      copies.push_back(copy);
    }
    for (BasicBlock *copy : copies)
      for (Instruction &I : *copy) RemapInstruction(&I, map, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
  };
  auto mapped = [](ValueToValueMapTy &map, Value *value) -> Value * {
    auto found = map.find(value);
    return found == map.end() ? value : static_cast<Value *>(found->second);
  };
  BasicBlock *inside = loop->contains(cast<BranchInst>(header->getTerminator())->getSuccessor(0))
                           ? cast<BranchInst>(header->getTerminator())->getSuccessor(0)
                           : cast<BranchInst>(header->getTerminator())->getSuccessor(1);
  ValueToValueMapTy sharedMap, wholeMap;
  copyLoop(sharedMap, ".shared");
  BasicBlock *wholeEntry = nullptr;
  if (checked) {
    copyLoop(wholeMap, ".whole");
    auto *wholeHeader = cast<BasicBlock>(wholeMap[header]);
    wholeEntry = BasicBlock::Create(context, "whole.loop", &F, wholeHeader);
    BranchInst::Create(wholeHeader, wholeEntry);
    for (PHINode &phi : wholeHeader->phis()) phi.replaceIncomingBlockWith(preheader, wholeEntry);
    for (PHINode &phi : exit->phis())
      phi.addIncoming(mapped(wholeMap, phi.getIncomingValueForBlock(header)), wholeHeader);
    cast<BasicBlock>(wholeMap[latch])->getTerminator()->setMetadata(kWholeLoopMarker, MDNode::get(context, {}));
  }

  // The shared rounds leave when their count reaches R, into the original
  // header: the last round.
  auto *sharedHeader = cast<BasicBlock>(sharedMap[header]);
  auto *sharedLatch = cast<BasicBlock>(sharedMap[latch]);
  BasicBlock *sharedEntry = BasicBlock::Create(context, "shared.entry", &F, sharedHeader);
  BasicBlock *sharedExit = BasicBlock::Create(context, "last.round", &F, header);
  BranchInst::Create(sharedHeader, sharedEntry);
  BranchInst::Create(header, sharedExit);
  for (PHINode &phi : sharedHeader->phis()) phi.replaceIncomingBlockWith(preheader, sharedEntry);
  IRBuilder<> top(&*sharedHeader->getFirstInsertionPt());
  PHINode *count = top.CreatePHI(type, 2, "shared.round");
  count->addIncoming(zero, sharedEntry);
  IRBuilder<> bottom(sharedLatch->getTerminator());
  count->addIncoming(bottom.CreateAdd(count, one, "shared.round.next", true, true), sharedLatch);
  Instruction *sharedTest = sharedHeader->getTerminator();
  BranchInst::Create(cast<BasicBlock>(sharedMap[inside]), sharedExit, top.CreateICmpULT(count, rounds),
                     sharedHeader);
  sharedTest->eraseFromParent();
  // Their counter is `start + round * t`, which each region computes from
  // the local id (carried round to round, it went through the context: a
  // load and two stores a work-item a round): once at the top of the body,
  // after the cut, for the body, and in the header for what the header
  // computes from it (usually nothing: the old exit test, now dead).
  auto *sharedCounter = cast<PHINode>(sharedMap[counter]);
  Value *first0 = counter->getIncomingValueForBlock(preheader);
  Value *current = top.CreateAdd(first0, top.CreateMul(count, step), counter->getName() + ".shared");
  auto *sharedBody = cast<BasicBlock>(sharedMap[inside]);
  IRBuilder<> body(&*sharedBody->getFirstInsertionPt());
  // In the body, as s0 + round * t, which the work-items share, plus the
  // local id: on the rounds they share every counter stays in [s0, n), so
  // that sum does not wrap (nsw, or nuw for an unsigned counter), and an
  // `int` index's sign extension becomes the shared part's plus the local
  // id: an induction of the work-item loop, not a sext per work-item.
  const Start &start = stride->start;
  Value *sharedPart = body.CreateAdd(first, body.CreateMul(count, step), counter->getName() + ".round");
  auto *localId = cast<CallInst>(start.localId->clone());
  body.Insert(localId);
  // A 32-bit counter is that sum in 64 bits, truncated with the same
  // promise (nsw or nuw), which the index's extension then folds away.
  bool isSigned = stride->isSigned;
  Type *wide = localId->getType();
  Value *inBody, *wideSum = nullptr;
  if (kWideIndex && type->getBitWidth() < wide->getIntegerBitWidth()) {
    Value *widePart = isSigned ? body.CreateSExt(sharedPart, wide) : body.CreateZExt(sharedPart, wide);
    Value *sum = body.CreateAdd(widePart, localId, counter->getName() + ".wide", /*HasNUW=*/!isSigned,
                                /*HasNSW=*/isSigned);
    inBody = body.CreateTrunc(sum, type, counter->getName() + ".shared", /*IsNUW=*/!isSigned, /*IsNSW=*/isSigned);
    wideSum = sum;
  } else {
    inBody = body.CreateAdd(sharedPart, body.CreateZExtOrTrunc(localId, type), counter->getName() + ".shared",
                            /*HasNUW=*/!isSigned, /*HasNSW=*/isSigned);
  }
  sharedCounter->replaceUsesWithIf(inBody, [&](Use &use) {
    auto *user = cast<Instruction>(use.getUser());
    return user->getParent() != sharedHeader && user != inBody;
  });
  // The index's own extension (`data[i]`) is the 64-bit sum, at once: left
  // to InstCombine, the truncation was narrowed first and its promise lost.
  if (wideSum)
    for (User *user : make_early_inc_range(inBody->users()))
      if (auto *cast = dyn_cast<CastInst>(user);
          cast && cast->getType() == wideSum->getType() &&
          cast->getOpcode() == (isSigned ? Instruction::SExt : Instruction::ZExt)) {
        cast->replaceAllUsesWith(wideSum);
        cast->eraseFromParent();
      }
  sharedCounter->replaceAllUsesWith(current);
  // The counter after the shared rounds, computed once they are done (not
  // each round, which would keep it in the context).
  IRBuilder<> after(sharedExit->getTerminator());
  Value *atExit = after.CreateAdd(first0, after.CreateMul(rounds, step), counter->getName() + ".last");
  for (PHINode &phi : header->phis()) {
    int from = phi.getBasicBlockIndex(preheader);
    phi.setIncomingBlock(from, sharedExit);
    phi.setIncomingValue(from, &phi == counter ? atExit : static_cast<Value *>(sharedMap[&phi]));
  }
  auto *sharedNext = cast<Instruction>(sharedMap[stride->next]);
  sharedCounter->eraseFromParent();
  if (sharedNext->use_empty()) sharedNext->eraseFromParent();
  RecursivelyDeleteTriviallyDeadInstructions(current);

  // The last round: the original loop, whose latch goes on to a copy of the
  // header's instructions (on the values the next round would have had)
  // that computes what leaves the loop, and leaves.
  ValueToValueMapTy doneMap;
  for (PHINode &phi : header->phis()) doneMap[&phi] = phi.getIncomingValueForBlock(latch);
  BasicBlock *done = BasicBlock::Create(context, header->getName() + ".done", &F, exit);
  for (Instruction &I : make_range(header->getFirstNonPHIIt(), std::prev(header->end()))) {
    Instruction *copy = I.clone();
    copy->setName(I.getName() + ".done");
    copy->insertInto(done, done->end());
    doneMap[&I] = copy;
  }
  for (Instruction &I : *done) RemapInstruction(&I, doneMap, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
  BranchInst::Create(exit, done);
  for (PHINode &phi : exit->phis()) phi.addIncoming(mapped(doneMap, phi.getIncomingValueForBlock(header)), done);
  latch->getTerminator()->replaceSuccessorWith(header, done);
  latch->getTerminator()->setMetadata(LLVMContext::MD_loop, nullptr);
  for (PHINode &phi : header->phis()) phi.removeIncomingValue(latch, false);

  preheader->getTerminator()->eraseFromParent();
  if (wholeEntry)
    BranchInst::Create(sharedEntry, wholeEntry, ok, preheader);
  else
    BranchInst::Create(sharedEntry, preheader);
  ++NumLastRoundLoops;
  NumLastRoundFallbacks += checked;
  LLVM_DEBUG(dbgs() << "last round: " << header->getName() << " in " << F.getName()
                    << (checked ? " (checked)\n" : "\n"));
  return true;
}

// Splits each loop it can, one at a time, on fresh analyses (each split
// adds blocks and loops: the shared rounds, and the whole loop, which
// carries its mark and is not split again).
void LoopCutter::splitLastRounds(FunctionAnalysisManager &analyses) {
  if (kLastRoundMaxSize == 0) return;
  for (bool split = true; split;) {
    split = false;
    DominatorTree &dominators = analyses.getResult<DominatorTreeAnalysis>(F);
    LoopInfo &loops = analyses.getResult<LoopAnalysis>(F);
    // A bound or step the work-items hold alike though it is no expression
    // of the prologue's values: the counter of a loop around barriers (a
    // tree's `for (i = lid; i < stride; i += size)` at each level).
    const WorkItemDivergence &divergence = analyses.getResult<WorkItemDivergenceAnalysis>(F);
    auto uniform = [&](const Value *value) { return kUniformBounds && !divergence.differs(value); };
    for (Loop *loop : loops.getLoopsInPreorder()) {
      BasicBlock *latch = loop->getLoopLatch();
      if (!latch || latch->getTerminator()->getMetadata(kWholeLoopMarker)) continue;
      if (splitLastRound(loop, dominators, loops, uniform)) {
        analyses.invalidate(F, PreservedAnalyses::none());
        split = true;
        break;
      }
    }
  }
}

}  // namespace lockstep::compiler

// WorkItemLoopSplitPass: after WorkGroupLoopsPass, splits the innermost
// work-item loop of a region at the work-items where a test of the local id
// against a uniform value changes its answer.
//
// GPU code guards work by the local id: `if (lid < active)` in the levels of
// a tree reduction or scan, `if (lid == 0)` for what one work-item does. As a
// loop over the work-items, such a region visits every work-item and masks
// most of them off: a scan's up-sweep level with 8 active work-items of 256
// still runs 256 masked lanes of gathers and scatters. Split at the bounds of
// the test, each part of the loop knows the answer, the optimizer deletes
// what the part does not run, and the loop over the inactive work-items is
// empty.
//
// A kernel's own guard, `int row = get_global_id(0); if (row < M) { ... }`,
// is such a test too: the id plus the group's first global id, truncated
// to `int`, against M: the ids below M - first pass (the sum climbs to M at
// most there, so it does not wrap), and the rest keep the test. Split, the
// passing part runs its body on every trip, so a kernel loop in it is one
// every work-item enters, and WorkItemJamPass can jam it (a guarded
// matrix-vector product ran 5x faster). Only for work-item loops around a
// kernel loop: elsewhere the masked test costs less than the copies.
//
// The work-item loops are the ones WorkGroupLoops made (marked on their latch
// branch, kWorkItemLoopMarker): `for (x = 0; x < local_size(0); ++x)`, run
// at least once. The local size is at most the device's largest work-group,
// 4096, so the id is the same number in any integer type of 16 bits or more,
// signed or not. Each part keeps the loop's order of work-items and parts
// run in ascending order; a value the loop leaves to the code after it (a
// uniform variable's last value) comes from whichever part ran last.
//
// A loop is split at its first test; its parts, which start where the part
// before them ends, are split again at their next test, round after round
// (kSplitRounds, 2): a stencil whose edge work-items load its tile's halo
// (`if (lx == 0) ...; if (lx == 15) ...`) gets a middle part with neither
// test, which widens. A part that keeps its test (its answer varies there)
// is not split at it again.
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/LoopIterator.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include "Internal.h"
#include "Passes.h"
#include "WorkItemTestParts.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace lockstep::compiler {
namespace {

// Two rounds resolve two tests of a loop (a tile's two halo edges along x)
// in at most 9 parts; each round can triple a loop's copies.
cl::opt<unsigned> kSplitRounds("lockstep-work-item-split-rounds", cl::Hidden, cl::init(2),
                               cl::desc("Rounds of splitting the parts of a work-item loop at their next test"));

// A part known to hold at most this many work-items (its bounds are
// constants clamped to the group: the 14 work-items between a tile's two halo
// edges) folds its remainder into a masked vector iteration: with fewer
// work-items than vector lanes, the vectorizer would not widen it at all,
// and with a few vectors' worth it would run mostly the scalar remainder. A
// longer part, or one whose bounds only the run knows (a reduction's
// `lid < active`), keeps a vector loop without masks.
cl::opt<uint64_t> kFoldMaxWorkItems("lockstep-work-item-split-fold-max", cl::Hidden, cl::init(64),
                                    cl::desc("Most work-items of a split part whose loop folds its tail (0: none)"));

// Marks a test a part of the loop keeps (its answer varies there): the next
// round does not split the part at it again.
constexpr const char *kKeptTestMarker = "lockstep.work_item_test_kept";

// Whether a branch of `loop` (its latch's aside) tests its id, or the id
// plus something, as split() looks for one; before split() gives a part a
// preheader.
bool hasIdTest(Loop *loop, PHINode *id) {
  for (BasicBlock *block : loop->blocks()) {
    if (block == loop->getLoopLatch()) continue;
    auto *branch = dyn_cast<BranchInst>(block->getTerminator());
    auto *compare = branch && branch->isConditional() ? dyn_cast<ICmpInst>(branch->getCondition()) : nullptr;
    if (!compare || compare->getMetadata(kKeptTestMarker)) continue;
    for (Value *operand : compare->operands()) {
      if (isWorkItemId(operand, id)) return true;
      if (auto *trunc = dyn_cast<TruncInst>(operand); trunc && compare->isSigned()) operand = trunc->getOperand(0);
      if (auto *sum = dyn_cast<BinaryOperator>(operand); sum && sum->getOpcode() == Instruction::Add)
        if (isWorkItemId(sum->getOperand(0), id) || isWorkItemId(sum->getOperand(1), id)) return true;
    }
  }
  return false;
}

// Bounds of a part's ends that hold whatever the group's size: the parts'
// ends are constants and the group's size combined by umin, umax and adding
// constants (partsOf). Null where nothing bounds the value.
std::optional<uint64_t> upperBound(Value *value) {
  if (auto *constant = dyn_cast<ConstantInt>(value)) return constant->getLimitedValue();
  if (auto *cast = dyn_cast<ZExtInst>(value)) return upperBound(cast->getOperand(0));
  if (auto *sum = dyn_cast<BinaryOperator>(value); sum && sum->getOpcode() == Instruction::Add)
    if (auto *constant = dyn_cast<ConstantInt>(sum->getOperand(1)); constant && !constant->isNegative())
      if (std::optional<uint64_t> bound = upperBound(sum->getOperand(0)))
        return *bound + constant->getZExtValue();
  auto *call = dyn_cast<IntrinsicInst>(value);
  if (!call) return std::nullopt;
  std::optional<uint64_t> a = upperBound(call->getArgOperand(0)), b;
  if (call->getIntrinsicID() == Intrinsic::umin || call->getIntrinsicID() == Intrinsic::umax)
    b = upperBound(call->getArgOperand(1));
  if (call->getIntrinsicID() == Intrinsic::umin) return a && b ? std::min(*a, *b) : a ? a : b;
  if (call->getIntrinsicID() == Intrinsic::umax && a && b) return std::max(*a, *b);
  return std::nullopt;
}

uint64_t lowerBound(Value *value) {
  if (auto *constant = dyn_cast<ConstantInt>(value)) return constant->getLimitedValue();
  if (auto *call = dyn_cast<IntrinsicInst>(value);
      call && (call->getIntrinsicID() == Intrinsic::umax || call->getIntrinsicID() == Intrinsic::umin)) {
    uint64_t a = lowerBound(call->getArgOperand(0)), b = lowerBound(call->getArgOperand(1));
    return call->getIntrinsicID() == Intrinsic::umax ? std::max(a, b) : std::min(a, b);
  }
  return 0;
}

// Whether the part [begin, end) holds at most kFoldMaxWorkItems work-items
// in any group.
bool isShortPart(Value *begin, Value *end) {
  std::optional<uint64_t> last = upperBound(end);
  return last && *last <= lowerBound(begin) + kFoldMaxWorkItems;
}

// The loop property that asks the vectorizer to fold a loop's tail into
// masked vector iterations.
MDNode *foldedTail(LLVMContext &context) {
  return MDNode::get(context, {MDString::get(context, "llvm.loop.vectorize.predicate.enable"),
                               ConstantAsMetadata::get(ConstantInt::getTrue(context))});
}

class Splitter {
 public:
  Splitter(Function &F, FunctionAnalysisManager &analyses) : F(F), analyses(analyses) {}

  bool run() {
    bool changed = promotePrivateVariables();
    for (unsigned round = 0; round < kSplitRounds; ++round) {
      // The parts the last round made are loops of their own now.
      if (round > 0) analyses.invalidate(F, PreservedAnalyses::none());
      LoopInfo &loops = analyses.getResult<LoopAnalysis>(F);
      loopInfo = &loops;
      bool splitAny = false;
      for (Loop *loop : loops.getLoopsInPreorder())
        if (auto *latch = loop->getLoopLatch())
          if (latch->getTerminator()->getMetadata(kWorkItemLoopMarker)) splitAny |= split(loop);
      if (!splitAny) break;
      changed = true;
    }
    for (BasicBlock &BB : F) {
      BB.getTerminator()->setMetadata(kWorkItemLoopMarker, nullptr);
      for (Instruction &I : BB) I.setMetadata(kKeptTestMarker, nullptr);
    }
    return changed;
  }

 private:
  // Values kept in private variables across a region's blocks (the loop
  // pass's copies of them) become SSA values, so that a bound loaded at the
  // top of the work-item loop is seen to be the region's uniform value.
  bool promotePrivateVariables() {
    SmallVector<AllocaInst *, 16> allocas;
    for (Instruction &I : F.getEntryBlock())
      if (auto *alloca = dyn_cast<AllocaInst>(&I); alloca && isAllocaPromotable(alloca)) allocas.push_back(alloca);
    if (allocas.empty()) return false;
    // The control flow stays as it is: the dominator tree holds.
    PromoteMemToReg(allocas, analyses.getResult<DominatorTreeAnalysis>(F), &analyses.getResult<AssumptionAnalysis>(F));
    return true;
  }

  // The property a part's loop gets besides those of `loopId`, the loop's: a
  // folded tail for a short part that does not have one yet (a part of a
  // short part inherits it), else none.
  MDNode *foldTailOf(const Part &part, MDNode *loopId) const {
    if (!loopId || !isShortPart(part.begin, part.end) ||
        findOptionMDForLoopID(loopId, "llvm.loop.vectorize.predicate.enable"))
      return nullptr;
    return foldedTail(F.getContext());
  }

  bool split(Loop *loop) {
    BasicBlock *header = loop->getHeader(), *preheader = loop->getLoopPreheader(), *latch = loop->getLoopLatch();
    auto *back = dyn_cast<BranchInst>(latch->getTerminator());
    if (!back || !back->isConditional() || back->getSuccessor(0) != header) return false;
    BasicBlock *exit = back->getSuccessor(1);
    auto *test = dyn_cast<ICmpInst>(back->getCondition());
    if (!test || test->getPredicate() != ICmpInst::ICMP_ULT || !loop->isLoopInvariant(test->getOperand(1)))
      return false;
    auto *next = dyn_cast<BinaryOperator>(test->getOperand(0));
    if (!next || next->getOpcode() != Instruction::Add || !match(next->getOperand(1), m_One())) return false;
    auto *id = dyn_cast<PHINode>(next->getOperand(0));
    if (!id || id->getParent() != header || id->getNumIncomingValues() != 2 ||
        id->getIncomingValueForBlock(latch) != next)
      return false;
    if (!preheader) {
      // A part an earlier round made starts from its guard, which may skip
      // it: give it a preheader if it has a test to split at.
      if (!hasIdTest(loop, id)) return false;
      preheader = InsertPreheaderForLoop(loop, nullptr, nullptr, nullptr, false);
      if (!preheader) return false;
    }
    // The first id: 0, or where a part an earlier round made starts.
    Value *start = id->getIncomingValueForBlock(preheader);
    if (!loop->isLoopInvariant(start)) return false;
    Value *count = test->getOperand(1);
    if (isa<PHINode>(exit->begin())) return false;
    // The first branch on a test of the id, in the loop's order: the id
    // against a uniform bound, or (unsigned and equality tests only) the id
    // plus a uniform offset against one.
    ICmpInst *compare = nullptr;
    CmpInst::Predicate predicate = CmpInst::BAD_ICMP_PREDICATE;
    Value *bound = nullptr, *offset = nullptr;
    bool linearLocalId = false;
    IRBuilder<> before(preheader->getTerminator());
    LoopBlocksRPO order(loop);
    order.perform(loopInfo);
    for (BasicBlock *block : order) {
      if (block == latch) continue;
      auto *branch = dyn_cast<BranchInst>(block->getTerminator());
      auto *candidate = branch && branch->isConditional() ? dyn_cast<ICmpInst>(branch->getCondition()) : nullptr;
      if (!candidate || candidate->getMetadata(kKeptTestMarker)) continue;
      for (unsigned side = 0; side < 2 && !compare; ++side) {
        Value *mine = candidate->getOperand(side), *other = candidate->getOperand(1 - side);
        CmpInst::Predicate asked = side == 0 ? candidate->getPredicate() : candidate->getSwappedPredicate();
        // A bound computed in the loop from uniform values moves before it.
        Value *sumOffset = nullptr;
        if (isWorkItemId(mine, id)) {
          if (!hoistUniform(other, loop)) continue;
        } else if (ICmpInst::isUnsigned(asked) || ICmpInst::isEquality(asked)) {
          if (!hoistUniform(other, loop) || !matchIdPlusOffset(mine, id, loop, sumOffset, before) || !sumOffset)
            continue;
        } else if (ICmpInst::isSigned(asked) && ICmpInst::isRelational(asked)) {
          // Around a kernel loop, which the passing part then runs on every
          // trip (for WorkItemJamPass); or a linear local id (`ly * 16 + lx
          // < active`, a tree level in 2-D groups), whose sum cannot wrap:
          // the rows past the active ones are skipped whole, where they had
          // run every work-item's test one at a time (a 16 x 16 reduction
          // ran 16x slower than the same one in 1-D groups). Elsewhere the
          // masked test costs little and the copies cost more: a histogram's
          // grid-stride rounds split so took its program's build from 0.8
          // to 1.2 s, and the 16-wide rows of a halo stencil's vector-rows
          // version (a constant count, one full-width vector trip) became
          // loops with a remainder at its border test `x < W - 1` (0.8x).
          if (!hoistUniform(other, loop) ||
              !matchIdPlusOffset(mine, id, loop, sumOffset, before, /*throughTrunc=*/true) || !sumOffset)
            continue;
          linearLocalId = isSmallLocalIdSum(sumOffset, loop, mine->getType()->getIntegerBitWidth());
          if (loop->isInnermost() && !linearLocalId) continue;
        } else {
          continue;
        }
        compare = candidate;
        predicate = asked;
        bound = other;
        offset = sumOffset;
      }
      if (compare) break;
    }
    if (!compare) return false;
    // Values used after the loop (a uniform variable's last value; looked
    // for once the bound, which may be one, has left the loop): the last
    // part that ran has it.
    // One that every work-item computes alike from values the loop does not
    // change (`o >> 1`, a kernel loop's next bound) moves before the loop
    // instead.
    SmallVector<Instruction *, 8> liveOuts;
    for (BasicBlock *block : loop->blocks())
      for (Instruction &I : make_early_inc_range(*block))
        if (any_of(I.users(), [&](User *user) { return !loop->contains(cast<Instruction>(user)); })) {
          bool hoisted = false;
          if (&I != compare && !isa<PHINode>(I) && loop->makeLoopInvariant(&I, hoisted)) continue;
          liveOuts.push_back(&I);
        }
    if (is_contained(liveOuts, compare)) return false;

    IRBuilder<> builder(preheader->getTerminator());
    SmallVector<Part, 3> parts;
    if (!offset)
      parts = partsOf(builder, predicate, bound, count);
    else if (ICmpInst::isSigned(predicate)) {
      parts = signedOffsetPartsOf(builder, predicate, offset, bound, count, /*mayWrap=*/!linearLocalId);
    }
    else if (ICmpInst::isEquality(predicate))
      // `id + offset == bound` in W bits is `id == bound - offset`: the id
      // is below 2^16 <= 2^W, so it equals its value modulo 2^W
      // (`get_global_id(0) == 0`: the group holding global id 0, if any).
      parts = partsOf(builder, predicate, builder.CreateSub(bound, offset), count);
    else
      parts = offsetPartsOf(builder, predicate, offset, bound, count);
    if (parts.size() < 2) return false;
    // Rows past the active ones: decided before the loop changes.
    RowEnd rowEnd = linearLocalId && liveOuts.empty() && match(start, m_Zero())
                        ? rowsEndWhereNonePass(loop, compare, parts)
                        : RowEnd{};
    // The parts of [0, count) within [start, count).
    if (!match(start, m_Zero()))
      for (Part &part : parts) {
        part.begin = builder.CreateBinaryIntrinsic(Intrinsic::umax, part.begin, start);
        part.end = builder.CreateBinaryIntrinsic(Intrinsic::umax, part.end, start);
      }

    // preheader → guard 0 → [part 0] → guard 1 → ... → [last part: the
    // original loop] → exit. A guard skips an empty part (the loops run at
    // least once); live-out values pass along both ways.
    LLVMContext &context = F.getContext();
    // A part's copy of the loop starts at its first id, from its guard, and
    // knows the test's answer (unless it keeps the test).
    auto enterPart = [&](PHINode *partId, ICmpInst *partCompare, BasicBlock *guard, const Part &part) {
      partId->setIncomingBlock(partId->getBasicBlockIndex(preheader), guard);
      partId->setIncomingValue(partId->getBasicBlockIndex(guard), part.begin);
      if (part.keepTest) {
        partCompare->setMetadata(kKeptTestMarker, MDNode::get(context, {}));
        return;
      }
      partCompare->replaceAllUsesWith(ConstantInt::getBool(context, part.answer));
      partCompare->eraseFromParent();
    };
    SmallVector<BasicBlock *, 3> guards;
    for (unsigned p = 0; p < parts.size(); ++p)
      guards.push_back(BasicBlock::Create(context, "wi.part" + Twine(p), &F, header));
    preheader->getTerminator()->replaceSuccessorWith(header, guards[0]);
    SmallVector<Value *, 8> carried;  // live-outs as they reach the current guard
    for (Instruction *I : liveOuts) carried.push_back(PoisonValue::get(I->getType()));
    SmallVector<Value *, 8> previous;  // and as the previous part left them
    BasicBlock *previousLatch = nullptr;
    for (unsigned p = 0; p < parts.size(); ++p) {
      const Part &part = parts[p];
      BasicBlock *after = p + 1 < parts.size() ? guards[p + 1] : exit;
      IRBuilder<> guard(guards[p]);
      if (p > 0)
        for (unsigned v = 0; v < liveOuts.size(); ++v) {
          PHINode *phi = guard.CreatePHI(liveOuts[v]->getType(), 2, liveOuts[v]->getName() + ".part");
          phi->addIncoming(previous[v], previousLatch);
          phi->addIncoming(carried[v], guards[p - 1]);
          carried[v] = phi;
        }
      BasicBlock *partHeader = header;
      if (p + 1 < parts.size()) {
        ValueToValueMapTy map;
        SmallVector<BasicBlock *, 16> clones;
        for (BasicBlock *block : loop->blocks()) {
          BasicBlock *clone = CloneBasicBlock(block, map, ".part" + Twine(p), &F);
          map[block] = clone;
          clones.push_back(clone);
        }
        remapInstructionsInBlocks(clones, map);
        partHeader = cast<BasicBlock>(map[header]);
        enterPart(cast<PHINode>(map[id]), cast<ICmpInst>(map[compare]), guards[p], part);
        auto *partBack = cast<BranchInst>(map[back]);
        cast<ICmpInst>(map[test])->setOperand(1, part.end);
        partBack->setSuccessor(1, after);
        MDNode *loopId = back->getMetadata(LLVMContext::MD_loop);
        partBack->setMetadata(LLVMContext::MD_loop, copyLoopId(loopId, foldTailOf(part, loopId)));
        previous.clear();
        for (Instruction *I : liveOuts) previous.push_back(map[I]);
        previousLatch = partBack->getParent();
      } else {
        enterPart(id, compare, guards[p], part);
        MDNode *loopId = back->getMetadata(LLVMContext::MD_loop);
        if (MDNode *fold = foldTailOf(part, loopId)) back->setMetadata(LLVMContext::MD_loop, copyLoopId(loopId, fold));
        for (unsigned v = 0; v < liveOuts.size(); ++v) {
          Instruction *I = liveOuts[v];
          PHINode *phi = PHINode::Create(I->getType(), 2, I->getName() + ".last");
          phi->insertBefore(exit->begin());
          I->replaceUsesWithIf(phi, [&](Use &use) { return !loop->contains(cast<Instruction>(use.getUser())); });
          phi->addIncoming(I, latch);
          phi->addIncoming(carried[v], guards[p]);
        }
      }
      guard.CreateCondBr(guard.CreateICmpULT(part.begin, part.end), partHeader, after);
    }
    if (rowEnd.exit) {
      // No work-item of this row passes, nor of any later one, and the first
      // row has stored what every work-item stores alike: the group's rows
      // end here.
      Instruction *enter = preheader->getTerminator();
      IRBuilder<> builder(enter);
      Value *idle = builder.CreateICmpEQ(parts[0].end, builder.getInt64(0));
      Value *later = builder.CreateICmpNE(rowEnd.row, ConstantInt::get(rowEnd.row->getType(), 0));
      builder.CreateCondBr(builder.CreateAnd(idle, later), rowEnd.exit, guards[0]);
      enter->eraseFromParent();
    }
    return true;
  }

  Function &F;
  FunctionAnalysisManager &analyses;
  LoopInfo *loopInfo = nullptr;
};

}  // namespace

PreservedAnalyses WorkItemLoopSplitPass::run(Module &M, ModuleAnalysisManager &moduleAnalyses) {
  FunctionAnalysisManager &analyses = moduleAnalyses.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  bool changed = false;
  for (Function &F : M)
    if (!F.isDeclaration() && Splitter(F, analyses).run()) {
      // The splits leave the loop info behind.
      analyses.invalidate(F, PreservedAnalyses::none());
      changed = true;
    }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

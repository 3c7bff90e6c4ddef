// Guarded loops: a kernel loop behind a guard that only some work-items pass
// (`if (row < N && col < N) { for (k ...) ... }`, `if (i >= n) return;`
// before a loop) comes out of the guard, so that every work-item reaches it
// and a cut can go in.
//
//   before:                          after:
//     guard: br c, S, T                guard: br c, S, skip
//     S ... P: br header               S ... P: entered = 1; br join
//                                      skip:  entered = 0; br join
//     loop                             join:  n = work_group_reduce_add(entered)
//                                             br n == size, all, some
//                                      all:   the loop's copy (cut like a loop
//                                             reached alike), to exit.all
//                                      some:  br entered, header, exit
//                                      loop   (whole, as before)
//     exit: ... (-> T or elsewhere)    exit:  br entered, exit.entered, skipped
//                                      exit.all: br exit.entered
//                                      exit.entered: ... (as before)
//     T: phi [v, guard], ...           skipped: br T;  T: phi [v, skipped], ...
//
// A guard reached in divergent control flow controls the loop: the
// work-items that fail it never reach the header, so no cut (a barrier) may
// go in the loop and it ran whole within each work-item, its work-item loop
// outside it and scalar: a naive SGEMM with the guard every tutorial writes
// ran 8.7x slower than without it, a 1-D convolution 2.4x, nbody 3x, a 2-D
// filter 12x. Groups whose work-items all pass, nearly all of them, now run
// a copy that is reached alike; where the loop's rounds differ between the
// work-items anyway (an escape loop), there is no copy, and the loop is
// masked instead (MaskedLoops.cpp), its `active` flags starting from
// `entered`. The groups the guard splits run the loop whole per work-item
// in the kernel's own body; in its EdgeGroups version (KernelVersions.cpp),
// which the groups at the grid's edges run, an innermost loop is masked for
// them instead (a z-marching stencil's split groups: 60x faster).
//
// Which guards. The differing branches that control the loop's header form
// a chain: the first is reached alike by all work-items and not in a loop;
// each leads on to the next (its only predecessor) or to S, and the other
// way to one block T from which the loop cannot be reached. S dominates the
// preheader P and P post-dominates S: whoever passes the guards runs the
// loop. T's phis take one value from all the guards. The loop is in no
// loop, makes no atomics (which do not widen masked), and is, or is a nest
// around, an innermost loop a cut would serve (LoopCutter::mayCut) that -O3
// does not unroll whole (a small constant trip count, which a masked vector
// body serves as well). A nest (a 2-D filter's window) is only copied;
// where its rounds differ, its guard goes back (keepGuard).
//
// Values the guarded code computes before the loop and uses from the join
// on move before the guard where they can run anywhere (a window's bound
// `-r`: demoted, it would make the loop's rounds differ); the rest go
// through private variables, which the work-items kept out never read.
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/Analysis/CFG.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/Local.h>

#include <optional>

#include "Analysis/LoopCutCost.h"
#include "Analysis/OpenCLNames.h"
#include "Analysis/WorkItemDivergence.h"
#include "Statistics.h"
#include "WorkGroup/LoopCuts.h"

using namespace llvm;

#define DEBUG_TYPE "lockstep-loop-cuts"
LOCKSTEP_STATISTIC(NumGuardedLoops, "Loops taken out of a guard that only some work-items pass");
LOCKSTEP_STATISTIC(NumWholeGroupCopies, "Guarded loops given a copy for groups whose work-items all passed");

namespace lockstep::compiler {
namespace {

cl::opt<bool> kHoistGuardedLoops("lockstep-hoist-guarded-loops", cl::Hidden, cl::init(true),
                                 cl::desc("Take kernel loops out of guards that only some work-items pass, to "
                                          "mask and cut them"));
// Each loop taken out is one more flag in the context; a kernel of many
// guarded loops keeps the rest as they are.
cl::opt<unsigned> kMaxGuardedLoops("lockstep-max-guarded-loops", cl::Hidden, cl::init(8),
                                   cl::desc("Most loops of a kernel taken out of their guards"));

// A loop's guards: the chain of branches and the block the work-items that
// fail one of them go to.
struct Guard {
  Loop *loop;
  SmallVector<BasicBlock *, 2> chain;
  BasicBlock *skipTo;
};

// Whether the work-item passed the guard: its flag (an i32, 0 or 1) set.
Value *passedGuard(IRBuilder<> &builder, AllocaInst *entered) {
  Type *flag = entered->getAllocatedType();
  return builder.CreateICmpNE(builder.CreateLoad(flag, entered, "entered"), ConstantInt::get(flag, 0));
}

// Ends `from` in a branch to `header` for the work-items that passed the
// guard and to the loop's `exit` for the others (whose values there are
// poison: they go on past the exit's own test of the flag).
void enterIfPassed(BasicBlock *from, AllocaInst *entered, BasicBlock *header, BasicBlock *exit) {
  if (Instruction *terminator = from->getTerminator()) terminator->eraseFromParent();
  IRBuilder<> builder(from);
  builder.CreateCondBr(passedGuard(builder, entered), header, exit);
  for (PHINode &phi : exit->phis()) phi.addIncoming(PoisonValue::get(phi.getType()), from);
}

// The successor of `branch` on the way to `header` and the other one, or
// none unless exactly one of them can reach it.
std::optional<std::pair<BasicBlock *, BasicBlock *>> waysOf(BasicBlock *branch, BasicBlock *header,
                                                            DominatorTree &dominators, LoopInfo &loops) {
  auto *terminator = dyn_cast<BranchInst>(branch->getTerminator());
  if (!terminator || !terminator->isConditional()) return std::nullopt;
  BasicBlock *first = terminator->getSuccessor(0), *second = terminator->getSuccessor(1);
  if (first == second) return std::nullopt;
  bool reachesFirst = isPotentiallyReachable(first, header, nullptr, &dominators, &loops);
  bool reachesSecond = isPotentiallyReachable(second, header, nullptr, &dominators, &loops);
  if (reachesFirst == reachesSecond) return std::nullopt;
  return reachesFirst ? std::make_pair(first, second) : std::make_pair(second, first);
}

// Values whose uses a change of the CFG left undominated: those that can
// run anywhere (arithmetic on values available there: a bound `-r` or
// `2 * r + 1` the guarded code computed) move before `hoistPoint` if there
// is one, where every work-item computes them alike; the rest go through
// private variables (allocas in `prologue`), which the work-items that took
// the new way never read. Demoted, a uniform bound would have become a load
// per work-item, and the loop it bounds one whose trip count differs.
void demoteUndominatedValues(Function &F, BasicBlock *prologue, Instruction *hoistPoint = nullptr) {
  auto undominated = [&F] {
    DominatorTree dominators(F);
    SmallVector<Instruction *, 8> found;
    for (BasicBlock *BB : ReversePostOrderTraversal<Function *>(&F))
      for (Instruction &I : *BB)
        if (any_of(I.uses(), [&](const Use &use) { return !dominators.dominates(&I, use); })) found.push_back(&I);
    return found;
  };
  if (hoistPoint) {
    DominatorTree dominators(F);
    SmallPtrSet<Instruction *, 8> moved;
    for (Instruction *I : undominated()) {
      bool available = all_of(I->operands(), [&](const Use &operand) {
        auto *from = dyn_cast<Instruction>(operand.get());
        return !from || moved.contains(from) || dominators.dominates(from, hoistPoint);
      });
      if (isa<PHINode>(I) || !available || !isSafeToSpeculativelyExecute(I)) continue;
      I->moveBefore(hoistPoint);
      moved.insert(I);
    }
  }
  for (Instruction *I : undominated()) DemoteRegToStack(*I, false, prologue->getFirstInsertionPt());
}

std::optional<Guard> findGuard(Loop *loop, const WorkItemDivergence &divergence, DominatorTree &dominators,
                               LoopInfo &loops) {
  BasicBlock *header = loop->getHeader(), *preheader = loop->getLoopPreheader();
  if (!preheader || !loop->getUniqueExitBlock()) return std::nullopt;
  const PostDominatorTree &postDominators = divergence.postDominatorTree();
  // The differing branches outside the loop that control its header, and
  // whether any other differing branch controls one of them.
  SmallVector<BasicBlock *, 4> controllers;
  SmallPtrSet<const BasicBlock *, 32> controlledByOthers;
  for (BasicBlock &BB : *header->getParent()) {
    if (!divergence.isBranching(&BB) || loop->contains(&BB)) continue;
    SmallPtrSet<const BasicBlock *, 32> controlled;
    addControlledBlocks(BB, postDominators, controlled);
    if (controlled.contains(header))
      controllers.push_back(&BB);
    else
      controlledByOthers.insert(controlled.begin(), controlled.end());
  }
  if (controllers.empty()) return std::nullopt;
  BasicBlock *first = nullptr;
  for (BasicBlock *candidate : controllers)
    if (all_of(controllers, [&](BasicBlock *other) { return dominators.dominates(candidate, other); }))
      first = candidate;
  if (!first || loops.getLoopFor(first) || controlledByOthers.contains(first)) return std::nullopt;

  Guard guard{loop, {first}, nullptr};
  auto ways = waysOf(first, header, dominators, loops);
  if (!ways) return std::nullopt;
  guard.skipTo = ways->second;
  BasicBlock *next = ways->first;
  while (next->getSinglePredecessor() == guard.chain.back() && is_contained(controllers, next)) {
    auto onward = waysOf(next, header, dominators, loops);
    if (!onward || onward->second != guard.skipTo) return std::nullopt;
    guard.chain.push_back(next);
    next = onward->first;
  }
  // `next` is the first block past the guards.
  if (guard.chain.size() != controllers.size()) return std::nullopt;
  if (!dominators.dominates(next, preheader) || !postDominators.dominates(preheader, next)) return std::nullopt;
  for (PHINode &phi : guard.skipTo->phis()) {
    Value *value = phi.getIncomingValueForBlock(first);
    for (BasicBlock *branch : guard.chain)
      if (phi.getIncomingValueForBlock(branch) != value) return std::nullopt;
  }
  return guard;
}

// Whether the guards test the work-item's ids against values every
// work-item shares (`i >= nx - 1`, `x < lo`), reading no memory the kernel
// may change: then the groups they split lie at the grid's edges, where
// the EdgeGroups version runs. A guard on the data (`if (keep[x])`) splits
// groups anywhere, and the version would be built for nothing.
bool testsIdsAlone(const Guard &guard) {
  SmallVector<const Value *, 16> work;
  for (BasicBlock *branch : guard.chain) work.push_back(cast<BranchInst>(branch->getTerminator())->getCondition());
  SmallPtrSet<const Value *, 32> seen;
  bool readsId = false;
  while (!work.empty()) {
    const auto *I = dyn_cast<Instruction>(work.pop_back_val());
    if (!I || !seen.insert(I).second) continue;
    if (seen.size() > 64) return false;
    if (isLocalIdPlaceholder(*I)) {
      readsId = true;
      continue;
    }
    if (auto *load = dyn_cast<LoadInst>(I)) {
      // The kernel's arguments and the group's GroupInfo: read-only.
      const Value *object = getUnderlyingObject(load->getPointerOperand());
      const Function &F = *load->getFunction();
      if (!load->hasMetadata(LLVMContext::MD_invariant_load) && object != F.getArg(kArgBlockParam) &&
          object != F.getArg(kGroupInfoParam))
        return false;
      continue;
    }
    if (I->mayReadOrWriteMemory() || isa<PHINode>(I)) return false;
    append_range(work, I->operands());
  }
  return readsId;
}

// Takes `guard.loop` out of its guards (the CFG at the top of this file, but
// for the copy): returns the work-items' flag of having passed them.
AllocaInst *takeOutOfGuard(const Guard &guard, BasicBlock *prologue, DominatorTree &dominators, LoopInfo &loops) {
  Loop *loop = guard.loop;
  BasicBlock *header = loop->getHeader(), *preheader = loop->getLoopPreheader();
  BasicBlock *exit = loop->getUniqueExitBlock();
  BasicBlock *skipTo = guard.skipTo;
  Function &F = *header->getParent();
  LLVMContext &context = F.getContext();

  // The exit, reached from the loop only (the work-items that skipped
  // the loop leave it for `skipTo` below).
  SmallVector<BasicBlock *, 4> inside;
  for (BasicBlock *from : predecessors(exit))
    if (loop->contains(from)) inside.push_back(from);
  if (inside.size() != pred_size(exit))
    exit = SplitBlockPredecessors(exit, inside, ".guarded", &dominators, &loops, nullptr, false);

  // An i32, not an i1: a vector of flags stores whole.
  Type *flag = Type::getInt32Ty(context);
  IRBuilder<> entry(prologue->getTerminator());
  AllocaInst *entered = entry.CreateAlloca(flag, nullptr, "guard.entered");
  BasicBlock *skip = BasicBlock::Create(context, "guard.skip", &F, header);
  BasicBlock *join = BasicBlock::Create(context, "guard.join", &F, header);
  new StoreInst(ConstantInt::get(flag, 0), entered, skip);
  BranchInst::Create(join, skip);
  SmallVector<std::pair<PHINode *, Value *>, 4> skipValues;
  for (PHINode &phi : skipTo->phis()) skipValues.push_back({&phi, phi.getIncomingValueForBlock(guard.chain[0])});
  for (BasicBlock *branch : guard.chain) {
    skipTo->removePredecessor(branch, /*KeepOneInputPHIs=*/true);
    branch->getTerminator()->replaceSuccessorWith(skipTo, skip);
  }
  new StoreInst(ConstantInt::get(flag, 1), entered, preheader->getTerminator());
  preheader->getTerminator()->replaceSuccessorWith(header, join);
  BranchInst::Create(header, join);
  header->replacePhiUsesWith(preheader, join);

  BasicBlock *rest = exit->splitBasicBlock(exit->getFirstNonPHIIt(), exit->getName() + ".entered");
  BasicBlock *skipped = BasicBlock::Create(context, "guard.skipped", &F, skipTo);
  BranchInst::Create(skipTo, skipped);
  exit->getTerminator()->eraseFromParent();
  IRBuilder<> leave(exit);
  leave.CreateCondBr(passedGuard(leave, entered), rest, skipped);
  for (auto [phi, value] : skipValues) phi->addIncoming(value, skipped);

  // Values of the guarded code before the loop, used from the join on.
  demoteUndominatedValues(F, prologue, guard.chain.front()->getTerminator());
  return entered;
}

// The loop of a guard that every work-item passes alike once through it
// (`k < N`): groups whose work-items all passed (most groups; a
// work_group_reduce_add of the flags at the join says so) run a copy of it,
// which is reached alike and exits alike, so it is cut and unrolled like the
// loop without its guard; the others run the loop as the kernel wrote it.
//
//   join: n = work_group_reduce_add(entered); br n == size, all, some
//   all:  br header.all      (the copy, to an exit of its own)
//   some: br header          (an innermost loop: `masked` is set, and the
//                             cuts mask it, its flags starting from `entered`)
//   some: br entered, header, exit   (a nest: whole in each work-item)
bool cloneForWholeGroups(BasicBlock *header, AllocaInst *entered, FunctionAnalysisManager &analyses, bool mask,
                         bool &masked) {
  Function &F = *header->getParent();
  LLVMContext &context = F.getContext();
  // Out of its guard, the loop's exits are seen as they are: alike or not.
  DominatorTree &dominators = analyses.getResult<DominatorTreeAnalysis>(F);
  LoopInfo &loops = analyses.getResult<LoopAnalysis>(F);
  const WorkItemDivergence &divergence = analyses.getResult<WorkItemDivergenceAnalysis>(F);
  Loop *loop = loops.getLoopFor(header);
  BasicBlock *join = loop->getLoopPreheader(), *exit = loop->getUniqueExitBlock();
  if (!join || !exit || any_of(loop->blocks(), [&](BasicBlock *block) { return divergence.isBranching(block); }))
    return false;
  // Every value of the loop used past it goes through a phi of its exit,
  // which the copy adds its own incoming values to.
  formLCSSA(*loop, dominators, &loops, &analyses.getResult<ScalarEvolutionAnalysis>(F));
  BasicBlock *all = BasicBlock::Create(context, "guard.all", &F, header);
  BasicBlock *some = BasicBlock::Create(context, "guard.some", &F, header);
  ValueToValueMapTy map;
  SmallVector<BasicBlock *, 16> copies = copyLoopBlocks(*loop, ".all", map);
  cast<BasicBlock>(map[header])->replacePhiUsesWith(join, all);
  header->replacePhiUsesWith(join, some);
  // The copy leaves to an exit of its own, whose values join the loop's
  // past the exit's test (all its work-items passed): shared, the exit's
  // phis would be stored to the context on every round of the copy.
  BasicBlock *rest = cast<BranchInst>(exit->getTerminator())->getSuccessor(0);
  BasicBlock *exitAll = BasicBlock::Create(context, exit->getName() + ".all", &F, rest);
  for (BasicBlock *copy : copies) copy->getTerminator()->replaceSuccessorWith(exit, exitAll);
  IRBuilder<> atExit(exitAll);
  for (PHINode &phi : exit->phis()) {
    PHINode *copied = atExit.CreatePHI(phi.getType(), phi.getNumIncomingValues(), phi.getName() + ".all");
    for (unsigned i = 0, n = phi.getNumIncomingValues(); i < n; ++i) {
      Value *value = phi.getIncomingValue(i), *copy = map.lookup(value);
      copied->addIncoming(copy ? copy : value, cast<BasicBlock>(map[phi.getIncomingBlock(i)]));
    }
    Value *fromCopy = copied;
    if (Value *single = copied->hasConstantValue()) {
      copied->eraseFromParent();
      fromCopy = single;
    }
    PHINode *merged = PHINode::Create(phi.getType(), 2, phi.getName() + ".merged", rest->begin());
    phi.replaceUsesOutsideBlock(merged, exit);
    merged->addIncoming(&phi, exit);
    merged->addIncoming(fromCopy, exitAll);
  }
  atExit.CreateBr(rest);
  BranchInst::Create(cast<BasicBlock>(map[header]), all);
  // The other groups run the loop masked where it is innermost; a nest runs
  // whole, in each work-item that passed the guard.
  masked = mask && loop->isInnermost();
  if (masked)
    BranchInst::Create(header, some);
  else
    enterIfPassed(some, entered, header, exit);
  join->getTerminator()->eraseFromParent();
  IRBuilder<> builder(join);
  Value *flag = builder.CreateLoad(builder.getInt32Ty(), entered, "entered");
  builder.CreateCondBr(isWholeGroup(builder, countOverGroup(builder, flag)), all, some);
  ++NumWholeGroupCopies;
  analyses.invalidate(F, PreservedAnalyses::none());
  return true;
}

}  // namespace

void LoopCutter::hoistGuardedLoops(FunctionAnalysisManager &analyses) {
  if (!kHoistGuardedLoops) return;
  for (unsigned hoisted = 0; hoisted < kMaxGuardedLoops; ++hoisted) {
    DominatorTree &dominators = analyses.getResult<DominatorTreeAnalysis>(F);
    LoopInfo &loops = analyses.getResult<LoopAnalysis>(F);
    ScalarEvolution &evolution = analyses.getResult<ScalarEvolutionAnalysis>(F);
    const WorkItemDivergence &divergence = analyses.getResult<WorkItemDivergenceAnalysis>(F);
    bool keepsVectorsWhole = summarizeFunction(F, vectorBits).fullWidthVectors;
    std::optional<Guard> found;
    // A loop a cut would serve: innermost, not unrolled whole by -O3, and,
    // where its rounds differ between the work-items (it is to be masked),
    // not one that masked would only gather (LoopCutCost.h).
    auto served = [&](Loop *inner) {
      if (!inner->isInnermost() || !mayCut(inner, evolution, divergence, keepsVectorsWhole)) return false;
      SmallVector<BasicBlock *, 4> exiting;
      inner->getExitingBlocks(exiting);
      bool roundsDiffer = any_of(exiting, [&](BasicBlock *block) { return divergence.isBranching(block); });
      if (roundsDiffer && gathersWhenMasked(inner, evolution, divergence.differingValues(), vectorBits)) return false;
      unsigned trips = evolution.getSmallConstantTripCount(inner);
      return trips == 0 || !keepsWhole(inner, trips, vectorBits);
    };
    for (Loop *loop : loops) {  // the outermost loops: one such loop, or a nest around one
      if (hoistedHeaders.contains(loop->getHeader()) || !divergence.isControlled(loop->getHeader()) ||
          makesAtomics(*loop) || none_of(loop->getLoopsInPreorder(), served))
        continue;
      if ((found = findGuard(loop, divergence, dominators, loops))) break;
    }
    if (!found) return;
    BasicBlock *header = found->loop->getHeader();
    LLVM_DEBUG(dbgs() << "loop at " << header->getName() << " in " << F.getName() << ": out of "
                      << found->chain.size() << " guard(s)\n");
    bool atEdges = testsIdsAlone(*found);
    AllocaInst *entered = takeOutOfGuard(*found, prologue, dominators, loops);
    hoistedHeaders.insert(header);
    ++NumGuardedLoops;
    analyses.invalidate(F, PreservedAnalyses::none());
    // Copied, the loop itself is masked for the split groups or behind its
    // guard again; else it is to be masked from the flags, which only an
    // innermost loop can be.
    bool masked = false;
    if (cloneForWholeGroups(header, entered, analyses, maskSplitGroups && atEdges, masked)) {
      ++wholeGroupCopies;
      if (masked) {
        guardedHeaders[header] = entered;
        ++splitGroupMasks;
      }
      continue;
    }
    Loop *out = analyses.getResult<LoopAnalysis>(F).getLoopFor(header);
    if (out->isInnermost()) {
      guardedHeaders[header] = entered;
    } else {
      keepGuard(out, entered);
      analyses.invalidate(F, PreservedAnalyses::none());
    }
  }
}

// A loop taken out of its guard that is not to be masked after all (a nest
// whose rounds differ between work-items, which only an innermost loop can
// be masked for; or, which nothing the hoist checked should let happen, an
// innermost loop LoopCutter does not mask): the join sends the work-items
// that failed the guard straight to the exit, and the loop runs whole for
// the others, as before.
void LoopCutter::keepGuard(Loop *loop, AllocaInst *entered) {
  BasicBlock *join = loop->getLoopPreheader(), *exit = loop->getUniqueExitBlock();
  if (!join || !exit || !entered) report_fatal_error("lockstep: a guarded loop without its join, exit or flag");
  enterIfPassed(join, entered, loop->getHeader(), exit);
  // The loop's values used past it, which the new edge no longer passes.
  demoteUndominatedValues(F, prologue);
  guardedHeaders.erase(loop->getHeader());
}

}  // namespace lockstep::compiler

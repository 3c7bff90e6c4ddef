// Loop cuts: a barrier the kernel could have written itself, at the top of a
// uniform kernel loop, so that the work-item loop moves inside the kernel
// loop and widens. The choice of loops is LoopCutCost's; loops whose trip
// count differs between work-items are peeled (FewRounds.cpp) or masked
// (MaskedLoops.cpp) first, except those that make atomics (which would not
// widen masked) and touch no memory across the work-items: they stay whole.
// The cuts are marked kLoopCutMarker.
//
// LoopCutsPass (lockstep-loop-cuts<vector-bits=N>) cuts each kernel and its
// versions that keep loop cuts (KernelVersions.cpp), and drops the versions
// without loop cuts of a kernel it made none in: they would be the kernel
// again. The work-group loops read the marks it leaves (PhaseMarkers.h).
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>

#include "Analysis/LoopCutCost.h"
#include "Analysis/OpenCLNames.h"
#include "Analysis/WorkItemDivergence.h"
#include "Passes.h"
#include "Statistics.h"
#include "WorkGroup/LoopCuts.h"
#include "WorkGroup/PhaseMarkers.h"

using namespace llvm;

#define DEBUG_TYPE "lockstep-loop-cuts"
LOCKSTEP_STATISTIC(NumLoopCuts, "Kernel loops cut at the top of their body");
LOCKSTEP_STATISTIC(NumKeptUnmasked, "Loops whose trip count differs left whole: they make atomics, which do not widen, "
                                   "and touch no memory across the work-items, or masked they would only gather");

namespace lockstep::compiler {
namespace {
// For comparison: mask every loop with atomics, also those that run along
// themselves or touch no memory but their atomics.
cl::opt<bool> kMaskAtomicLoops("lockstep-mask-atomic-loops", cl::Hidden, cl::init(false),
                               cl::desc("Mask loops whose trip count differs even when they make atomics"));
}  // namespace

SmallVector<BasicBlock *, 16> copyLoopBlocks(Loop &loop, StringRef suffix, ValueToValueMapTy &map) {
  SmallVector<BasicBlock *, 16> copies;
  for (BasicBlock *block : loop.blocks()) {
    BasicBlock *copy = CloneBasicBlock(block, map, suffix, block->getParent());
    map[block] = copy;
    copies.push_back(copy);
  }
  remapInstructionsInBlocks(copies, map);
  return copies;
}

// Whether a cut could serve `loop` were every work-item to run it alike:
// the loop is not one LastRound.cpp keeps whole, its accesses do not favour
// running each work-item's rounds in a row, it has no vector values the
// kernel keeps whole, and its calls and exits are ones a cut can handle.
bool LoopCutter::mayCut(Loop *loop, ScalarEvolution &evolution, const WorkItemDivergence &divergence,
                        bool keepsVectorsWhole) const {
  if (BasicBlock *latch = loop->getLoopLatch(); latch && latch->getTerminator()->getMetadata(kWholeLoopMarker))
    return false;
  if (favoursWorkItemOrder(loop, evolution, divergence.differingValues())) return false;
  // A kernel with vectors as wide as a register keeps all its vectors
  // whole (ScalarizeWorkGroupCodePass leaves it alone), and the vectorizer
  // widens no vector instruction, so a loop with vector values would not
  // widen across work-items cut either: the cut would only add context
  // slots, where a work-item's vector value is a gather (clpeak's double16
  // kernel ran at a quarter of its rate with its loop cut).
  if (keepsVectorsWhole && summarizeLoop(*loop, vectorBits).vectors) return false;
  // Calls and exits a cut can handle. Atomics and memory-writing calls
  // may be masked: each work-item still runs them as often and in its own
  // order; only how work-items interleave changes, which OpenCL leaves
  // open. But the vectorizer widens no loop that makes atomics (makesAtomics),
  // so a loop whose trip count differs and makes any is left whole, unless
  // it reads or writes memory across the work-items (runsAcrossWorkItems):
  // masked, it stays scalar and keeps its work-items' counters and flags
  // in the context every round, but its group streams through that memory
  // rather than each work-item striding through it. A histogram's
  // grid-stride loop of __local atomics over 64K work-items ran 6.7-8.5x
  // faster masked on a 16-core Xeon (2 and 16 cores) and 10x on 2 Zen 4
  // cores, whose every work-item's 256 rounds hit one cache set; over 1M
  // work-items (16 rounds), 1.8x faster on Zen 4, 0.7-0.9x on the Xeon.
  for (BasicBlock *block : loop->blocks())
    for (Instruction &I : *block)
      if (auto *call = dyn_cast<CallBase>(&I); call && !isLocalIdPlaceholder(I) && !mayCallInLoopCut(*call, 3))
        return false;
  SmallVector<BasicBlock *, 4> exiting;
  loop->getExitingBlocks(exiting);
  return all_of(exiting, [](BasicBlock *block) { return branchCondition(block->getTerminator()) != nullptr; });
}

// Work-item loops inside kernel loops. A loop with no barrier runs whole
// within each work-item's iteration of its region's work-item loop, and the
// vectorizer, which widens only innermost loops, leaves such a region
// scalar. When every work-item runs the loop the same number of times
// (reached in uniform control flow, exits on uniform conditions) a cut at the
// top of its body is a barrier the kernel could have written itself: the
// work-item loop moves inside, one region per iteration of the kernel loop
// (which widens), the exit test becomes a decision, and the counter, being
// uniform, is kept once. A loop reached alike by all work-items whose trip
// count differs between them is masked first (maskLoop) and then has a cut of
// its own. Only innermost loops, not in kernels with sub-group cuts (which run
// lane by lane or sub-group by sub-group), not when barriers are checked
// (those cuts are the user's), and not loops the optimizer will unroll anyway
// (a small constant trip count) or that call printf (whose order within a
// work-item the cut would interleave) or anything outside the program and
// the builtins.
unsigned LoopCutter::run(FunctionAnalysisManager &analyses) {
  if (F.hasFnAttribute(kCheckBarriersAttr)) return 0;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *call = dyn_cast<CallInst>(&I); call && call->getCalledFunction()) {
        if (isBarrierCall(I) && isSubGroupBarrier(call->getCalledFunction()->getName())) return 0;
        std::optional<CollectiveOp> op = parseCollective(call->getCalledFunction()->getName());
        if (op && (op->subGroup || op->nonUniform)) return 0;
      }

  // Loops whose group runs a count of rounds it shares and one more at most
  // (LastRound.cpp) first: what they become is cut like any uniform loop.
  splitLastRounds(analyses);
  // Loops behind a guard that only some work-items pass (`if (i < n)`)
  // come out of it, to be masked (GuardedLoops.cpp).
  hoistGuardedLoops(analyses);
  // Loops left by a `break` get one exit, which masking needs.
  funnelExits(analyses);

  // The dominator tree and loop info stay up to date through the cuts and
  // the unrolling; scalar evolution is asked again after the cuts.
  DominatorTree &dominators = analyses.getResult<DominatorTreeAnalysis>(F);
  LoopInfo &loops = analyses.getResult<LoopAnalysis>(F);
  if (loops.empty()) return 0;
  bool keepsVectorsWhole = summarizeFunction(F, vectorBits).fullWidthVectors;

  // Which values and blocks differ between work-items, on the SSA form.
  const WorkItemDivergence &divergence = analyses.getResult<WorkItemDivergenceAnalysis>(F);
  const PostDominatorTree &postDominators = divergence.postDominatorTree();

  // Loops that no differing branch outside them controls.
  SmallVector<std::pair<BasicBlock *, SmallPtrSet<const BasicBlock *, 32>>, 8> branchReach;
  for (BasicBlock &BB : F) {
    if (!divergence.isBranching(&BB)) continue;
    branchReach.emplace_back();
    branchReach.back().first = &BB;
    addControlledBlocks(BB, postDominators, branchReach.back().second);
  }
  auto reachedAlike = [&](Loop *loop) {
    return none_of(branchReach, [&](const auto &entry) {
      return !loop->contains(entry.first) && entry.second.count(loop->getHeader());
    });
  };
  SmallVector<Loop *, 4> uniformLoops, differingLoops;
  SmallPtrSet<Loop *, 4> keptUnmasked;  // differing loops that may be unrolled, not masked
  // Scalar evolution of the kernel as it is, for choosing the loops and
  // then for cutting them (the cuts change no trip count).
  ScalarEvolution &cutEvolution = analyses.getResult<ScalarEvolutionAnalysis>(F);
  SmallVector<Loop *, 2> keptGuarded;
  for (Loop *loop : loops.getLoopsInPreorder()) {
    if (!loop->isInnermost()) continue;
    // A loop taken out of its guard (GuardedLoops.cpp), the cut checked
    // there, runs no round for the work-items the guard kept out: its trip
    // count differs, and it must be masked.
    bool guarded = guardedHeaders.contains(loop->getHeader());
    if (guarded && (!reachedAlike(loop) || !loop->getLoopPreheader() || !loop->getUniqueExitBlock())) {
      keptGuarded.push_back(loop);
      continue;
    }
    if (!guarded && (!reachedAlike(loop) || !mayCut(loop, cutEvolution, divergence, keepsVectorsWhole))) continue;
    SmallVector<BasicBlock *, 4> exiting;
    loop->getExitingBlocks(exiting);
    bool uniformExits = !divergence.isControlled(loop->getHeader()) && !guarded;
    for (BasicBlock *block : exiting)
      if (divergence.isBranching(block) || divergence.isControlled(block)) uniformExits = false;
    LLVM_DEBUG(dbgs() << "loop at " << loop->getHeader()->getName() << " in " << F.getName()
                      << (uniformExits ? ": uniform exits" : ": trip count differs") << "\n");
    if (uniformExits) {
      uniformLoops.push_back(loop);
    } else if (loop->getLoopPreheader() && loop->getUniqueExitBlock()) {
      differingLoops.push_back(loop);
      // Left whole: a loop whose atomics would keep it scalar masked, and
      // one that masked would only gather (LoopCutCost.h).
      const auto &differing = divergence.differingValues();
      auto atomicsStayScalar = [&] {
        return !kMaskAtomicLoops && makesAtomics(*loop) && !runsAcrossWorkItems(loop, cutEvolution, differing);
      };
      if (!guarded && (atomicsStayScalar() || gathersWhenMasked(loop, cutEvolution, differing, vectorBits)))
        keptUnmasked.insert(loop);
    }
  }
  for (Loop *loop : keptGuarded) keepGuard(loop, guardedHeaders.lookup(loop->getHeader()));
  if (!keptGuarded.empty()) dominators.recalculate(F);
  if (!uniformLoops.empty())
    cutUniformLoops(uniformLoops, dominators, loops, cutEvolution, analyses.getResult<AssumptionAnalysis>(F),
                    [&](const Value *value) { return divergence.differs(value); });
  if (differingLoops.empty()) return cuts;
  // Loops of a few rounds are unrolled, the rest masked. Unrolling keeps the
  // dominator tree and loop info up to date; masking does not, so it comes
  // last, and the unrolled loops' dead remains go after it.
  // Scalar evolution and the assumptions afresh, of the kernel as the cuts
  // left it (the divergence, no longer needed, goes with them).
  PreservedAnalyses updated;
  updated.preserve<DominatorTreeAnalysis>();
  updated.preserve<LoopAnalysis>();
  analyses.invalidate(F, updated);
  AssumptionCache &assumptions = analyses.getResult<AssumptionAnalysis>(F);
  ScalarEvolution &evolution = analyses.getResult<ScalarEvolutionAnalysis>(F);
  SmallVector<Loop *, 4> masked;
  bool unrolled = false;
  for (Loop *loop : differingLoops) {
    if (!guardedHeaders.contains(loop->getHeader()) && unrollFewRounds(loop, dominators, loops, evolution, assumptions))
      unrolled = true;
    else if (!keptUnmasked.contains(loop))
      masked.push_back(loop);
    else
      ++NumKeptUnmasked;
  }
  for (Loop *loop : masked) maskLoop(loop);
  if (unrolled) removeUnreachableBlocks(F);
  return cuts + maskedLoops;
}

void LoopCutter::cutUniformLoops(ArrayRef<Loop *> uniformLoops, DominatorTree &dominators, LoopInfo &loops,
                                 ScalarEvolution &evolution, AssumptionCache &assumptions,
                                 function_ref<bool(const Value *)> differs) {
  Module &M = *F.getParent();
  FunctionCallee barrier = M.getOrInsertFunction("_Z7barrierj", Type::getVoidTy(context), Type::getInt32Ty(context));
  SmallVector<Loop *, 8> toCut;
  for (Loop *loop : uniformLoops) {
    // Loops of a known count of rounds: see keepsWhole. (The count is of
    // the header's runs, one more than the body's.)
    unsigned trips = evolution.getSmallConstantTripCount(loop);
    if (trips != 0 && keepsWhole(loop, trips, vectorBits)) continue;
    // A loop that carries per-work-item values goes a few rounds per cut
    // (CutLoopUnroll.cpp); its remainder loop is cut too.
    Loop *remainder = nullptr;
    unrollCutLoop(loop, dominators, loops, evolution, assumptions, differs, remainder);
    toCut.push_back(loop);
    if (remainder) toCut.push_back(remainder);
  }
  for (Loop *loop : toCut) {
    // The top of the body: after the exit test when the header makes it.
    BasicBlock *header = loop->getHeader(), *top = header;
    if (loop->isLoopExiting(header))
      for (BasicBlock *successor : successors(header))
        if (successor != header && loop->contains(successor)) {
          top = successor->getSinglePredecessor() ? successor : SplitEdge(header, successor, &dominators, &loops);
          break;
        }
    CallInst *cut = CallInst::Create(barrier, {ConstantInt::get(Type::getInt32Ty(context), 0)}, "",
                                     top->getFirstInsertionPt());
    cut->setMetadata(kLoopCutMarker, MDNode::get(context, {}));
    ++cuts;
    ++NumLoopCuts;
  }
}

PreservedAnalyses LoopCutsPass::run(Module &M, ModuleAnalysisManager &moduleAnalyses) {
  FunctionAnalysisManager &analyses = moduleAnalyses.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  SmallVector<Function *, 8> kernels = kernelsOf(M);
  for (Function *kernel : kernels) {
    LoopCutter cutter(*kernel, vectorBits);
    unsigned made = cutter.run(analyses);
    SmallVector<Function *, 2> versions = versionsOf(*kernel), kept;
    for (Function *version : versions) {
      WorkGroupVersion kind = versionOf(*version);
      if (kind == WorkGroupVersion::VectorRows) {
        // Rows of a constant width pay in the regions between barriers and
        // cuts; a kernel of one region keeps its loops whole in every row.
        if (made == 0 && !hasBarrierOrCollective(*kernel)) {
          analyses.clear(*version, version->getName());
          version->eraseFromParent();
          continue;
        }
        kept.push_back(version);
        LoopCutter(*version, vectorBits).run(analyses);
      } else if (kind == WorkGroupVersion::EdgeGroups) {
        // Only where a guarded loop got a copy for whole groups, and the
        // copy for the split ones is masked (an innermost loop, not a nest).
        LoopCutter edges(*version, vectorBits, /*maskSplitGroups=*/true);
        if (cutter.wholeGroupCopyCount() != 0) edges.run(analyses);
        if (edges.splitGroupMaskCount() == 0) {
          analyses.clear(*version, version->getName());
          version->eraseFromParent();
          continue;
        }
        kept.push_back(version);
      } else if (kind != WorkGroupVersion::WholeLoops && kind != WorkGroupVersion::NarrowCut &&
                 kind != WorkGroupVersion::WholeRows) {
        kept.push_back(version);
      } else if (made == 0) {
        analyses.clear(*version, version->getName());
        version->eraseFromParent();
      } else {
        kept.push_back(version);
        if (kind != WorkGroupVersion::WholeLoops) LoopCutter(*version, vectorBits).run(analyses);
      }
    }
    if (kept.size() != versions.size()) setVersions(*kernel, kept);
    if (made != 0 && cutter.maskedLoopCount() != 0)
      kernel->addFnAttr(kMaskedLoopsAttr, std::to_string(cutter.maskedLoopCount()));
  }
  // Peeling a loop of a few rounds changes a kernel even where it makes no
  // cut, and masking keeps no analysis up to date.
  return kernels.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

}  // namespace lockstep::compiler

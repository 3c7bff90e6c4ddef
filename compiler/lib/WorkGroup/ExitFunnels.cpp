// LoopCutter::funnelExits, before LoopCuts chooses its loops: the empty
// exit blocks of a loop left by a `break` go, so that the loop has the one
// exit block that masking (MaskedLoops.cpp) needs.
//
// A loop left by a `break` (`for (s = 0; s < n; s++) if (hit(s)) { h = s;
// break; }`, a search) has two exit blocks as LoopSimplify keeps them: the
// test's, an empty block that only goes on to the code after the loop, and
// the break's, that code itself. maskLoop needs one exit block, so such
// empty ones go, and their edges lead straight to the block they went on
// to, whose phis take their values from the exiting blocks instead:
//
//   for.cond: br %more, %body, %cleanup       for.cond: br %more, %body, %after
//   cleanup:  br %after                  ->
//   after:    phi [%h0, %cleanup], [%h1, %found]   after: phi [%h0, %for.cond], [%h1, %found]
//
// Only innermost loops whose exits all but one are such blocks, entered from
// the loop alone, each edge once, where no exiting block reaches the last
// exit both directly and through an empty block.
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Instructions.h>

#include "Statistics.h"
#include "WorkGroup/LoopCuts.h"

using namespace llvm;

#define DEBUG_TYPE "lockstep-loop-cuts"
LOCKSTEP_STATISTIC(NumFunnelledLoops, "Loops whose empty exit blocks went, leaving one exit");

namespace lockstep::compiler {

void LoopCutter::funnelExits(FunctionAnalysisManager &analyses) {
  LoopInfo &loops = analyses.getResult<LoopAnalysis>(F);
  bool changed = false;
  for (Loop *loop : loops.getLoopsInPreorder()) {
    if (!loop->isInnermost() || loop->getUniqueExitBlock()) continue;
    SmallVector<BasicBlock *, 4> exits;
    loop->getUniqueExitBlocks(exits);
    auto leadsOn = [](BasicBlock *block) -> BasicBlock * {
      auto *branch = dyn_cast<BranchInst>(block->getTerminator());
      return block->size() == 1 && branch && branch->isUnconditional() ? branch->getSuccessor(0) : nullptr;
    };
    // The exit that is not an empty step to another one.
    BasicBlock *target = nullptr;
    bool fits = true;
    for (BasicBlock *exit : exits) {
      if (BasicBlock *next = leadsOn(exit); next && is_contained(exits, next)) continue;
      fits = fits && !target;
      target = exit;
    }
    if (!target) continue;
    for (BasicBlock *exit : exits) {
      if (exit == target) continue;
      fits = fits && leadsOn(exit) == target;
      for (BasicBlock *from : predecessors(exit))
        fits = fits && loop->contains(from) && from->getTerminator()->getNumSuccessors() > 0 &&
               count(successors(from), exit) == 1 && !is_contained(successors(from), target);
    }
    if (!fits) continue;
    for (BasicBlock *exit : exits) {
      if (exit == target) continue;
      SmallVector<BasicBlock *, 4> from(predecessors(exit));
      for (PHINode &phi : target->phis()) {
        Value *value = phi.getIncomingValueForBlock(exit);
        for (BasicBlock *block : from) phi.addIncoming(value, block);
        phi.removeIncomingValue(exit, /*DeletePHIIfEmpty=*/false);
      }
      for (BasicBlock *block : from) block->getTerminator()->replaceSuccessorWith(exit, target);
      loops.removeBlock(exit);
      exit->eraseFromParent();
    }
    ++NumFunnelledLoops;
    changed = true;
  }
  if (changed) analyses.invalidate(F, PreservedAnalyses::none());
}

}  // namespace lockstep::compiler

// WorkItemRowEnd: where WorkItemLoopSplitPass's split of a linear local id's
// test (`ly * 16 + lx < o`, a tree level in 2-D groups) lets the loop over a
// group's rows end early.
//
// The split runs each row's passing work-items without the test and knows
// the rest fail. Where all of a row's work is behind the test, a row none of
// whose work-items pass does nothing but store what every work-item stores
// alike (a uniform variable: the kernel loop's next bound), and neither does
// any later row (the linear id grows with the row, so fewer pass): past the
// first row, which makes those stores, the loop over the rows may end at
// such a row. The levels of a reduction over 16 x 16 groups had run all 16
// rows, 15 of them idle at the last levels (rw_reduce2d 9.6 -> 15.0 GB/s on
// the 2-core EPYC VM).
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PatternMatch.h>

#include "WorkItemTestParts.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace lockstep::compiler {

// What must hold: the test's passing branch leads from it alone; what the
// rows do outside it is stores of values their loop does not change to
// addresses it does not change (moved out of the loop here); no value leaves
// the loop over the rows, whose exit takes none from it; and that loop counts
// its rows from 0 by 1.
RowEnd rowsEndWhereNonePass(Loop *loop, ICmpInst *compare, ArrayRef<Part> parts) {
  Loop *rows = loop->getParentLoop();
  auto *branch = dyn_cast<BranchInst>(compare->getParent()->getTerminator());
  if (!rows || !parts[0].answer || parts.back().keepTest || !branch || branch->getCondition() != compare) return {};
  BasicBlock *exit = rows->getExitBlock();
  if (!exit || isa<PHINode>(exit->begin())) return {};
  PHINode *row = nullptr;
  for (PHINode &phi : rows->getHeader()->phis())
    if (countsUpFromZero(phi, *rows)) row = &phi;
  if (!row) return {};
  BasicBlock *passing = branch->getSuccessor(0);
  if (passing->getSinglePredecessor() != compare->getParent()) return {};
  // Earlier splits of this round changed the function: a tree of its own.
  DominatorTree dominators(*loop->getHeader()->getParent());
  for (BasicBlock *block : rows->blocks()) {
    bool guarded = loop->contains(block) && dominators.dominates(passing, block);
    for (Instruction &I : make_early_inc_range(*block)) {
      bool changed = false;
      if (!guarded && I.mayHaveSideEffects()) {
        auto *store = dyn_cast<StoreInst>(&I);
        if (!store || !store->isSimple() || !rows->makeLoopInvariant(store->getPointerOperand(), changed) ||
            !rows->makeLoopInvariant(store->getValueOperand(), changed))
          return {};
      }
      if (any_of(I.users(), [&](User *user) { return !rows->contains(cast<Instruction>(user)->getParent()); }) &&
          (isa<PHINode>(I) || !rows->makeLoopInvariant(&I, changed)))
        return {};
    }
  }
  return {exit, row};
}

}  // namespace lockstep::compiler

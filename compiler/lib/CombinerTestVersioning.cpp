// The combiner's test hoisted out of a loop of combined adds.
//
// GlobalAtomicCombiningPass runs after -O3, so nothing unswitches what it
// adds: a histogram's `atomic_inc(&bins[data[i]])`, unrolled 8 times, tested
// the GroupInfo's combiner pointer 8 times a trip (a test and a branch of
// the 10 instructions per byte on the hit path). The pointer is the same
// for the whole group; each innermost loop that holds such tests is copied,
// and one test before the two copies picks:
//
//   preheader:   br (combiner == null), loop.none, loop
//   loop:        the tests folded to `false`: lookups only
//   loop.none:   the tests folded to `true`: the atomics as they were
//
// Both copies leave to the loop's exits, whose phis (LCSSA) take each
// copy's values. A loop at a time, on fresh analyses.
#include "CombinerTestVersioning.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LCSSA.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include "Statistics.h"

#define DEBUG_TYPE "lockstep-global-atomic-combining"

using namespace llvm;

LOCKSTEP_STATISTIC(NumCombinerLoops, "Loops of combined adds copied to test for the combiner once");

namespace lockstep::compiler {
namespace {

cl::opt<unsigned> kMaxLoopSize("lockstep-combiner-loop-max-size", cl::Hidden, cl::init(2000),
                               cl::desc("Largest loop, in instructions, copied so that its combined adds test for "
                                        "the combiner once (0: none)"));

// Folds `test` to `value` (its condition) and its branch with it.
void settle(BranchInst *test, bool value) {
  BasicBlock *block = test->getParent();
  Value *condition = test->getCondition();
  test->setCondition(ConstantInt::getBool(test->getContext(), value));
  ConstantFoldTerminator(block);
  RecursivelyDeleteTriviallyDeadInstructions(condition);
}

}  // namespace

bool versionLoopsOnCombiner(Function &F, Value *combiner, ArrayRef<BranchInst *> tests) {
  if (kMaxLoopSize == 0 || tests.empty()) return false;
  SmallPtrSet<BranchInst *, 16> pending(tests.begin(), tests.end());
  bool changed = false;
  while (!pending.empty()) {
    DominatorTree dominators(F);
    LoopInfo loops(dominators);
    // An innermost loop that holds a test not yet settled (in the tests'
    // order, so that the function comes out the same every build).
    Loop *loop = nullptr;
    for (BranchInst *test : tests) {
      Loop *around = pending.contains(test) ? loops.getLoopFor(test->getParent()) : nullptr;
      if (around && around->isInnermost()) {
        loop = around;
        break;
      }
    }
    if (!loop) break;
    SmallVector<BranchInst *, 8> inside;
    for (BranchInst *test : tests)
      if (pending.contains(test) && loop->contains(test)) inside.push_back(test);
    for (BranchInst *test : inside) pending.erase(test);
    unsigned size = 0;
    for (BasicBlock *block : loop->blocks()) size += block->size();
    if (size > kMaxLoopSize) continue;
    BasicBlock *preheader = loop->getLoopPreheader();
    if (!preheader) preheader = InsertPreheaderForLoop(loop, &dominators, &loops, nullptr, false);
    if (!preheader) continue;
    formLCSSA(*loop, dominators, &loops, nullptr);
    SmallVector<BasicBlock *, 8> exiting;
    loop->getExitingBlocks(exiting);
    // The test's block before the loop's own preheader, and the copy.
    BasicBlock *entry = SplitBlock(preheader, preheader->getTerminator(), &dominators, &loops);
    std::swap(entry, preheader);  // `entry` ends in the test, `preheader` enters the loop
    ValueToValueMapTy map;
    SmallVector<BasicBlock *, 16> copies;
    Loop *none = cloneLoopWithPreheader(preheader, entry, loop, map, ".none", &loops, &dominators, copies);
    remapInstructionsInBlocks(copies, map);
    for (BasicBlock *block : exiting)
      for (BasicBlock *exit : successors(block)) {
        if (loop->contains(exit)) continue;
        for (PHINode &phi : exit->phis()) {
          Value *value = phi.getIncomingValueForBlock(block);
          auto found = map.find(value);
          phi.addIncoming(found == map.end() ? value : static_cast<Value *>(found->second),
                          cast<BasicBlock>(map[block]));
        }
      }
    Instruction *branch = entry->getTerminator();
    IRBuilder<> at(branch);
    at.CreateCondBr(at.CreateIsNull(combiner, "combiner.none"), none->getLoopPreheader(), preheader);
    branch->eraseFromParent();
    for (BranchInst *test : inside) {
      auto *copy = cast<BranchInst>(map[test]);
      settle(test, false);
      settle(copy, true);
    }
    ++NumCombinerLoops;
    changed = true;
  }
  if (changed) removeUnreachableBlocks(F);
  return changed;
}

}  // namespace lockstep::compiler

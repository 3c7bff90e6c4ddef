// WorkItemSwitchLoweringPass, before the loop vectorizer: a switch inside a
// work-item loop becomes a chain of branches, one equality test a case, so
// that the vectorizer (which in LLVM 19 gives up on any loop that holds a
// switch: "loop contains a switch statement") can if-convert the loop.
//
// Kernels test ids and uniform values one after another, `if (ly == 0) ...
// if (ly == TS - 1) ...` (a tile's halo loaded by its edge rows), or switch
// on a kernel argument; SimplifyCFG folds such chains of equality tests of
// one value into a switch early in -O3, and the loop over the work-items
// that holds it stayed scalar (a 16x16 stencil's tile load ran one
// work-item at a time). As branches, the cases become masks, which for a
// value the loop does not change are all set or all clear:
//
//   switch i32 %ly, label %rest [ i32 0, label %top
//                                 i32 15, label %bottom ]
//     ->  %case0 = icmp eq i32 %ly, 0
//         br i1 %case0, label %top, label %switch.next
//       switch.next:
//         %case1 = icmp eq i32 %ly, 15
//         br i1 %case1, label %bottom, label %rest
//
// Only work-item loops (innermost, their accesses marked parallel by
// WorkGroupLoops) not yet vectorized, of at most kMaxLoopSize instructions,
// and switches of a few cases (kMaxCases): a larger one is a jump table the
// masks would run case by case. A default that cannot be taken becomes the
// last case, untested. What the vectorizer leaves scalar, SimplifyCFG after
// it makes a switch again.
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-work-item-switch-lowering"

using namespace llvm;

LOCKSTEP_STATISTIC(NumSwitchesLowered, "Switches in work-item loops made chains of branches");

namespace lockstep::compiler {
namespace {

cl::opt<unsigned> kMaxCases("lockstep-work-item-switch-cases", cl::Hidden, cl::init(8),
                            cl::desc("Most cases of a switch in a work-item loop made a chain of branches"));
// The largest loop, in instructions, whose switches are lowered. If-converted,
// every case runs for every vector of work-items (masked): a switch on a
// uniform value (`switch (mode)`, one case taken) over cases that compute
// much would run all of them where the scalar loop ran one. The vectorizer's
// cost model, which takes each case for taken half the time, does not see
// that. Small loops (a tile's halo rows: a load and a store a case) gain.
cl::opt<unsigned> kMaxLoopSize("lockstep-work-item-switch-loop-size", cl::Hidden, cl::init(200),
                               cl::desc("Largest work-item loop, in instructions, whose switches are lowered"));

// switch -> compare and branch per case, in the switch's order of cases.
// A successor's phis had one entry from the switch's block per edge; they
// get one from the block of each new edge instead, with the same value.
void lowerSwitch(SwitchInst *switchInst) {
  BasicBlock *block = switchInst->getParent();
  Function *F = block->getParent();
  Value *condition = switchInst->getCondition();
  BasicBlock *fallback = switchInst->getDefaultDest();
  SmallVector<std::pair<ConstantInt *, BasicBlock *>, 8> cases;
  for (auto &c : switchInst->cases()) cases.push_back({c.getCaseValue(), c.getCaseSuccessor()});
  // A default that is never taken (`default: unreachable`, what SimplifyCFG
  // makes of `switch (op & 3)` whose cases cover every value): the last case
  // needs no test. A branch to the unreachable block would leave the loop
  // by a second exit, and the vectorizer gives up on such a loop ("could
  // not determine number of loop iterations").
  if (!cases.empty() && isa<UnreachableInst>(fallback->getFirstNonPHIOrDbg())) {
    fallback = cases.back().second;
    cases.pop_back();
  }
  // The successors, each once, and the value their phis took from `block`.
  SmallVector<BasicBlock *, 8> successors;
  for (BasicBlock *successor : llvm::successors(block))
    if (!is_contained(successors, successor)) successors.push_back(successor);
  DenseMap<PHINode *, Value *> incoming;
  for (BasicBlock *successor : successors)
    for (PHINode &phi : successor->phis()) {
      incoming[&phi] = phi.getIncomingValueForBlock(block);
      while (phi.getBasicBlockIndex(block) >= 0) phi.removeIncomingValue(block, /*DeletePHIIfEmpty=*/false);
    }
  auto addEdge = [&](BasicBlock *from, BasicBlock *to) {
    for (PHINode &phi : to->phis()) phi.addIncoming(incoming.lookup(&phi), from);
  };
  BasicBlock *test = block;
  IRBuilder<> builder(switchInst);
  for (unsigned i = 0; i < cases.size(); ++i) {
    BasicBlock *next = i + 1 < cases.size()
                           ? BasicBlock::Create(F->getContext(), "switch.next", F, test->getNextNode())
                           : fallback;
    Value *equal = builder.CreateICmpEQ(condition, cases[i].first, "switch.case");
    builder.CreateCondBr(equal, cases[i].second, next);
    addEdge(test, cases[i].second);
    if (next == fallback) addEdge(test, fallback);
    test = next;
    if (next != fallback) builder.SetInsertPoint(next);
  }
  if (cases.empty()) {
    builder.CreateBr(fallback);
    addEdge(block, fallback);
  }
  switchInst->eraseFromParent();
}

bool isUnvectorizedWorkItemLoop(const Loop *loop) {
  return isWorkItemLoop(loop) && !getBooleanLoopAttribute(loop, "llvm.loop.isvectorized");
}

}  // namespace

PreservedAnalyses WorkItemSwitchLoweringPass::run(Function &F, FunctionAnalysisManager &analyses) {
  if (!F.hasFnAttribute(kWorkGroupCodeAttr)) return PreservedAnalyses::all();
  LoopInfo &loops = analyses.getResult<LoopAnalysis>(F);
  SmallVector<SwitchInst *, 8> switches;
  for (Loop *loop : loops.getLoopsInPreorder()) {
    if (!isUnvectorizedWorkItemLoop(loop)) continue;
    unsigned size = 0;
    for (BasicBlock *block : loop->blocks()) size += block->size();
    if (size > kMaxLoopSize) continue;
    for (BasicBlock *block : loop->blocks())
      // Not a switch that goes back to the header: the loop's id stays on
      // its latch.
      if (auto *switchInst = dyn_cast<SwitchInst>(block->getTerminator());
          switchInst && switchInst->getNumCases() <= kMaxCases && !is_contained(successors(block), loop->getHeader()))
        switches.push_back(switchInst);
  }
  if (switches.empty()) return PreservedAnalyses::all();
  // The new blocks join the loops that held their switches; the loop info
  // is computed again by whoever asks next.
  for (SwitchInst *switchInst : switches) lowerSwitch(switchInst);
  NumSwitchesLowered += switches.size();
  return PreservedAnalyses::none();
}

}  // namespace lockstep::compiler

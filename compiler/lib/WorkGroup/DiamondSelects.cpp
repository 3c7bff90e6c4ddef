// Diamond selects: in a kernel with barriers, an `if` whose arms only
// compute (a ternary, a short-circuit `&&` or `||`) becomes selects before
// the values that cross barriers are chosen.
//
// The front end writes `c ? a : b` and `x && y` as branches and a phi where
// the arms meet, and nothing before the work-group loops folds them (-O3's
// SimplifyCFG does, region by region, afterwards). A phi is never
// recomputed after a barrier: demoteCrossBlockValues gives every phi a
// private variable, and one live across a barrier a context slot, stored
// and reloaded per work-item. Rodinia's pathfinder and hotspot compute a
// work-item's clamped neighbours and validity once, before a loop of
// barriers:
//
//   int W = tx - 1;  W = (W < validXmin) ? validXmin : W;
//   bool isValid = IN_RANGE(tx, validXmin, validXmax);   // two compares, &&
//
// kept in the context, the loop's `prev[W]` is a gather at an index loaded
// per work-item and `isValid` an i1 slot the vectorizer does not widen, so
// its regions ran scalar (pathfinder at PoCL's speed). As selects, the values
// are cheap expressions of the local id and the group's values, which the
// rematerialization recomputes in each region (`prev[W]` a clamped
// consecutive load there).
//
// Taken: a block with two predecessors that an `if` in a third block
// reaches through at most two arm blocks (LLVM's GetIfCondition), each arm
// entered only from the `if` and holding at most kMaxArmSize instructions,
// each safe to run speculatively and touching no memory. The arms' code
// moves before the `if`'s branch, each phi becomes a select on its
// condition, and the branch goes straight on. Nested ternaries fold from the
// inside out (the blocks are visited until none folds).
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include "Statistics.h"
#include "WorkGroup/WorkGroupLoops.h"

using namespace llvm;

#define DEBUG_TYPE "lockstep-work-group-loops"
LOCKSTEP_STATISTIC(NumDiamondsFolded,
                   "Ifs whose arms only compute, made selects before the barrier cuts");

namespace lockstep::compiler {
namespace {

cl::opt<bool> kEnabled(
    "lockstep-diamond-selects", cl::Hidden, cl::init(true),
    cl::desc("Make ifs whose arms only compute selects in kernels with barriers"));
cl::opt<unsigned> kMaxArmSize(
    "lockstep-diamond-arm-size", cl::Hidden, cl::init(8),
    cl::desc("Most instructions in an arm of an if made selects in a kernel with barriers"));

// Whether `arm` (an arm block of the if at `branch`, or the if's block
// itself) may run unconditionally: entered only from the if, and holding
// only speculatable computation.
bool speculatable(BasicBlock *arm, BranchInst *branch) {
  if (arm == branch->getParent()) return true;
  if (arm->getSinglePredecessor() != branch->getParent()) return false;
  unsigned size = 0;
  for (Instruction &I : *arm) {
    if (&I == arm->getTerminator()) break;
    if (isa<PHINode>(I) || I.mayReadOrWriteMemory() || !isSafeToSpeculativelyExecute(&I))
      return false;
    if (!I.isDebugOrPseudoInst() && ++size > kMaxArmSize) return false;
  }
  return true;
}

bool foldOne(BasicBlock &join, function_ref<bool(const BasicBlock *)> excluded,
             SmallPtrSetImpl<BasicBlock *> &deleted) {
  if (!isa<PHINode>(join.begin()) || pred_size(&join) != 2 || excluded(&join)) return false;
  BasicBlock *ifTrue = nullptr, *ifFalse = nullptr;
  BranchInst *branch = GetIfCondition(&join, ifTrue, ifFalse);
  if (!branch || excluded(branch->getParent())) return false;
  if (!speculatable(ifTrue, branch) || !speculatable(ifFalse, branch)) return false;
  BasicBlock *head = branch->getParent();
  SmallVector<BasicBlock *, 2> arms;
  for (BasicBlock *arm : {ifTrue, ifFalse})
    if (arm != head) arms.push_back(arm);
  for (BasicBlock *arm : arms)
    while (arm->size() > 1) arm->front().moveBefore(branch);
  IRBuilder<> builder(branch);
  Value *condition = branch->getCondition();
  for (PHINode &phi : make_early_inc_range(join.phis())) {
    Value *select = builder.CreateSelect(condition, phi.getIncomingValueForBlock(ifTrue),
                                         phi.getIncomingValueForBlock(ifFalse), phi.getName());
    phi.replaceAllUsesWith(select);
    phi.eraseFromParent();
  }
  BranchInst::Create(&join, branch->getIterator());
  branch->eraseFromParent();
  for (BasicBlock *arm : arms) {
    deleted.insert(arm);
    DeleteDeadBlock(arm);
  }
  ++NumDiamondsFolded;
  return true;
}

}  // namespace

void WorkGroupLoops::foldCheapDiamonds() {
  if (!kEnabled) return;
  auto excluded = [&](const BasicBlock *block) {
    return block == prologue || barrierBlocks.count(const_cast<BasicBlock *>(block));
  };
  bool folded = true;
  while (folded) {
    folded = false;
    SmallVector<BasicBlock *, 32> joins;
    for (BasicBlock &BB : F)
      if (isa<PHINode>(BB.begin())) joins.push_back(&BB);
    SmallPtrSet<BasicBlock *, 8> deleted;
    for (BasicBlock *join : joins)
      if (!deleted.contains(join) && foldOne(*join, excluded, deleted)) folded = true;
  }
}

}  // namespace lockstep::compiler

// The loop cuts of one work-group function (LoopCuts.cpp): its kernel loops
// taken out of guards (GuardedLoops.cpp), cut at the top of their body,
// peeled (FewRounds.cpp), unrolled before the cut (CutLoopUnroll.cpp) or
// masked (MaskedLoops.cpp). What it adds is
// marked in the IR for the work-group loops (PhaseMarkers.h).
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

namespace llvm {
class AssumptionCache;
class DominatorTree;
class Loop;
class LoopInfo;
class ScalarEvolution;
}  // namespace llvm

namespace lockstep::compiler {

class WorkItemDivergence;

// Whether every work-item computes `value` alike: a constant, an argument,
// a value of the prologue (the kernel's arguments, the group's geometry)
// other than a private variable's address, or arithmetic on such.
bool computedAlike(const llvm::Value *value, const llvm::BasicBlock *prologue, unsigned depth = 6);

// Copies of `loop`'s blocks in its function, named with `suffix`, their
// instructions remapped to one another through `map` (which maps each block
// and value to its copy); values from outside the loop stay as they are.
llvm::SmallVector<llvm::BasicBlock *, 16> copyLoopBlocks(llvm::Loop &loop, llvm::StringRef suffix,
                                                         llvm::ValueToValueMapTy &map);

// A work_group_reduce_add of `flag` (i32, 0 or 1 per work-item): a
// collective, so a cut; and whether such a count is the whole group.
llvm::CallInst *countOverGroup(llvm::IRBuilder<> &builder, llvm::Value *flag);
llvm::Value *isWholeGroup(llvm::IRBuilder<> &builder, llvm::Value *count);

class LoopCutter {
 public:
  // maskSplitGroups: a guarded loop's copy for the groups whose work-items
  // did not all pass the guard is masked, not run whole per work-item
  // (GuardedLoops.cpp; the EdgeGroups version).
  LoopCutter(llvm::Function &F, unsigned vectorBits, bool maskSplitGroups = false)
      : F(F), context(F.getContext()), prologue(&F.getEntryBlock()), vectorBits(vectorBits),
        maskSplitGroups(maskSplitGroups) {}
  // Cuts, peels and masks F's loops, with the analyses of the pass manager
  // (kept up to date or invalidated); the number of cuts and masked loops.
  unsigned run(llvm::FunctionAnalysisManager &analyses);
  unsigned maskedLoopCount() const { return maskedLoops; }
  // Guarded loops given a copy for whole groups, and of those, the ones
  // masked for the split groups.
  unsigned wholeGroupCopyCount() const { return wholeGroupCopies; }
  unsigned splitGroupMaskCount() const { return splitGroupMasks; }

 private:
  void cutUniformLoops(llvm::ArrayRef<llvm::Loop *> uniformLoops, llvm::DominatorTree &dominators,
                       llvm::LoopInfo &loops, llvm::ScalarEvolution &evolution, llvm::AssumptionCache &assumptions,
                       llvm::function_ref<bool(const llvm::Value *)> differs);
  bool unrollCutLoop(llvm::Loop *loop, llvm::DominatorTree &dominators, llvm::LoopInfo &loops,
                     llvm::ScalarEvolution &evolution, llvm::AssumptionCache &assumptions,
                     llvm::function_ref<bool(const llvm::Value *)> differs, llvm::Loop *&remainder);
  bool unrollFewRounds(llvm::Loop *loop, llvm::DominatorTree &dominators, llvm::LoopInfo &loops,
                       llvm::ScalarEvolution &evolution, llvm::AssumptionCache &assumptions);
  bool mayCut(llvm::Loop *loop, llvm::ScalarEvolution &evolution, const WorkItemDivergence &divergence,
              bool keepsVectorsWhole) const;
  void splitLastRounds(llvm::FunctionAnalysisManager &analyses);
  void hoistGuardedLoops(llvm::FunctionAnalysisManager &analyses);
  void funnelExits(llvm::FunctionAnalysisManager &analyses);
  void keepGuard(llvm::Loop *loop, llvm::AllocaInst *entered);
  bool splitLastRound(llvm::Loop *loop, llvm::DominatorTree &dominators, llvm::LoopInfo &loops,
                      llvm::function_ref<bool(const llvm::Value *)> uniform);
  void maskLoop(llvm::Loop *loop);
  llvm::Value *sureRounds(llvm::Loop *loop, const llvm::DenseMap<const llvm::Value *, llvm::Value *> &stepOf);
  llvm::BasicBlock *copySureRound(llvm::Loop *loop, llvm::BasicBlock *latch, llvm::BasicBlock *next);
  llvm::BasicBlock *peekNextRound(llvm::Loop *loop, llvm::ArrayRef<llvm::BasicBlock *> exiting,
                                  llvm::LoadInst *round, llvm::AllocaInst *active, llvm::BasicBlock *latch,
                                  llvm::BasicBlock *&leaves);

  llvm::Function &F;
  llvm::LLVMContext &context;
  llvm::BasicBlock *prologue;
  unsigned vectorBits;
  bool maskSplitGroups;
  unsigned cuts = 0, maskedLoops = 0, wholeGroupCopies = 0, splitGroupMasks = 0;
  // The headers of loops taken out of their guards (GuardedLoops.cpp); of
  // those to be masked, each one's flag: whether the work-item passed the
  // guard (an i32, 0 or 1, private).
  llvm::SmallPtrSet<llvm::BasicBlock *, 4> hoistedHeaders;
  llvm::DenseMap<llvm::BasicBlock *, llvm::AllocaInst *> guardedHeaders;
};

}  // namespace lockstep::compiler

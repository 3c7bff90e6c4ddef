// WorkItemDivergence: which values and blocks of a work-group function's
// body (the code of one work-item, after its prologue) differ between the
// work-items of a group.
//
// A value differs if it derives from the local id, from memory other than
// the kernel arguments and the group geometry, from a private address, from
// a phi that merges the paths of a differing branch, or from a private
// variable that the analysis follows (a promotable alloca, given by the
// caller) which is assigned a differing value or assigned under a differing
// branch. A branch whose condition differs controls the blocks between it
// and its immediate post-dominator; through a loop's back edge this also
// covers values that leave a loop whose trip count differs. What remains is
// uniform: every work-item computes the same value. The prologue (the entry
// block, arguments and group geometry) is uniform by construction.
//
// The work-group loops use it twice: on the SSA form, to choose which kernel
// loops to cut (LoopCuts.cpp), and after the values crossing blocks went to
// private variables, to find the variables every work-item shares
// (UniformVariables.cpp). WorkItemDivergenceAnalysis gives the SSA form's
// result to the pass manager (`print<lockstep-divergence>` under `opt`).
#pragma once

#include <llvm/ADT/BitVector.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PassManager.h>

#include <memory>

namespace lockstep::compiler {

// A branch's condition (a conditional branch or a switch), or null.
llvm::Value *branchCondition(const llvm::Instruction *terminator);

// Adds the blocks a branch at the end of `BB` controls: those reachable from
// it before its immediate post-dominator, where the work-items that went
// different ways meet again.
void addControlledBlocks(llvm::BasicBlock &BB, const llvm::PostDominatorTree &postDominators,
                         llvm::SmallPtrSetImpl<const llvm::BasicBlock *> &controlled);

class WorkItemDivergence {
 public:
  // Private variables followed through their loads and stores: `index` maps
  // each followed alloca to its bit in `divergent`, which holds on entry the
  // ones known to differ and on return every one that does.
  struct Variables {
    const llvm::DenseMap<const llvm::AllocaInst *, unsigned> &index;
    const llvm::BitVector &followed;
    llvm::BitVector &divergent;
  };

  // Analyzes F's body after `prologue` (its entry block by default).
  explicit WorkItemDivergence(llvm::Function &F, const llvm::BasicBlock *prologue = nullptr,
                              const Variables *variables = nullptr);

  // Whether a value may differ between work-items: private addresses always
  // do, prologue values and constants never.
  bool differs(const llvm::Value *value) const;
  // Blocks that end in a branch on a differing condition.
  bool isBranching(const llvm::BasicBlock *block) const { return branching.contains(block); }
  const llvm::SmallPtrSetImpl<const llvm::BasicBlock *> &branchingBlocks() const { return branching; }
  // Blocks such a branch controls (addControlledBlocks).
  bool isControlled(const llvm::BasicBlock *block) const { return controlled.contains(block); }
  const llvm::SmallPtrSetImpl<const llvm::Value *> &differingValues() const { return divergent; }
  const llvm::PostDominatorTree &postDominatorTree() const { return *postDominators; }
  void print(llvm::raw_ostream &out) const;

 private:
  bool instructionDiffers(const llvm::Instruction &I) const;

  llvm::Function &F;
  const llvm::BasicBlock *prologue;
  std::unique_ptr<llvm::PostDominatorTree> postDominators;
  llvm::SmallPtrSet<const llvm::Value *, 32> divergent;
  llvm::SmallPtrSet<const llvm::BasicBlock *, 32> branching, controlled;
};

// The analysis of a function as it is (SSA form, no variables followed),
// for the pass manager.
struct WorkItemDivergenceAnalysis : llvm::AnalysisInfoMixin<WorkItemDivergenceAnalysis> {
  using Result = WorkItemDivergence;
  Result run(llvm::Function &F, llvm::FunctionAnalysisManager &);
  static llvm::AnalysisKey Key;
};

// Prints which values and branches differ (the IR test's view of it).
struct WorkItemDivergencePrinterPass : llvm::PassInfoMixin<WorkItemDivergencePrinterPass> {
  explicit WorkItemDivergencePrinterPass(llvm::raw_ostream &out) : out(out) {}
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
  llvm::raw_ostream &out;
};

}  // namespace lockstep::compiler

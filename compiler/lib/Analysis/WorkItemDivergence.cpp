// WorkItemDivergence (WorkItemDivergence.h): a fixed point over the body's
// instructions, growing the set of differing values, the differing
// variables, the branching blocks and the blocks they control until nothing
// changes. Every rule only adds, so the result does not depend on the order
// in which blocks are visited.
#include "Analysis/WorkItemDivergence.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/Debug.h>
#include <llvm/Support/raw_ostream.h>

#include <optional>

#include "Analysis/OpenCLNames.h"
#include "Internal.h"
#include "Passes.h"

#define DEBUG_TYPE "lockstep-divergence"

using namespace llvm;

namespace lockstep::compiler {

AnalysisKey WorkItemDivergenceAnalysis::Key;

Value *branchCondition(const Instruction *terminator) {
  if (auto *branch = dyn_cast<BranchInst>(terminator); branch && branch->isConditional())
    return branch->getCondition();
  if (auto *sw = dyn_cast<SwitchInst>(terminator)) return sw->getCondition();
  return nullptr;
}

void addControlledBlocks(BasicBlock &BB, const PostDominatorTree &postDominators,
                         SmallPtrSetImpl<const BasicBlock *> &controlled) {
  const DomTreeNode *node = postDominators.getNode(&BB);
  BasicBlock *join = node && node->getIDom() ? node->getIDom()->getBlock() : nullptr;
  SmallVector<BasicBlock *, 16> work(successors(&BB).begin(), successors(&BB).end());
  SmallPtrSet<BasicBlock *, 32> seen;
  while (!work.empty()) {
    BasicBlock *block = work.pop_back_val();
    if (block == join || !seen.insert(block).second) continue;
    controlled.insert(block);
    for (BasicBlock *successor : successors(block)) work.push_back(successor);
  }
}

bool WorkItemDivergence::differs(const Value *value) const {
  if (isa<AllocaInst>(value)) return true;
  auto *I = dyn_cast<Instruction>(value);
  return I && I->getParent() != prologue && divergent.count(I);
}

// A work-group collective whose result every work-item of the group shares
// (a reduction, a broadcast, all, any): reached by every work-item, as
// OpenCL requires, it does not differ whatever its operands do.
static bool isUniformCollective(const CallBase &call) {
  const Function *callee = call.getCalledFunction();
  std::optional<CollectiveOp> op = callee ? parseCollective(callee->getName()) : std::nullopt;
  if (!op || op->subGroup) return false;
  switch (op->kind) {
    case CollectiveOp::All:
    case CollectiveOp::Any:
    case CollectiveOp::Broadcast:
    case CollectiveOp::Reduce: return true;
    default: return false;
  }
}

// The rule for an instruction that is neither a phi nor a followed
// variable's load: a work-group collective's shared result does not differ;
// the local id differs; memory other than the kernel
// arguments and the group geometry may differ; the rest differs when an
// operand does.
bool WorkItemDivergence::instructionDiffers(const Instruction &I) const {
  auto operandDiffers = [&](const Use &operand) { return differs(operand.get()); };
  if (isLocalIdPlaceholder(I)) return true;
  if (auto *load = dyn_cast<LoadInst>(&I)) {
    const Value *object = getUnderlyingObject(load->getPointerOperand());
    bool shared = object == F.getArg(kArgBlockParam) || object == F.getArg(kGroupInfoParam);
    return !shared || differs(load->getPointerOperand());
  }
  if (auto *call = dyn_cast<CallBase>(&I)) {
    if (isUniformCollective(*call)) return false;
    return !call->doesNotAccessMemory() || any_of(call->args(), operandDiffers);
  }
  return I.mayReadOrWriteMemory() || any_of(I.operands(), operandDiffers);
}

WorkItemDivergence::WorkItemDivergence(Function &F, const BasicBlock *prologue, const Variables *variables)
    : F(F), prologue(prologue ? prologue : &F.getEntryBlock()), postDominators(new PostDominatorTree(F)) {
  auto variableOf = [&](const Value *pointer) -> int {
    auto *alloca = dyn_cast<AllocaInst>(pointer);
    if (!variables || !alloca) return -1;
    auto it = variables->index.find(alloca);
    if (it == variables->index.end() || !variables->followed[it->second]) return -1;
    return it->second;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (BasicBlock &BB : F) {
      if (&BB == this->prologue) continue;
      for (Instruction &I : BB) {
        if (auto *store = dyn_cast<StoreInst>(&I)) {
          // A followed variable differs once it is assigned a differing
          // value or assigned where a differing branch decides.
          int v = variableOf(store->getPointerOperand());
          if (v >= 0 && !variables->divergent[v] &&
              (differs(store->getValueOperand()) || controlled.count(&BB))) {
            variables->divergent.set(v);
            changed = true;
          }
          continue;
        }
        if (I.getType()->isVoidTy() || divergent.count(&I)) continue;
        bool d;
        if (int v = isa<LoadInst>(I) ? variableOf(cast<LoadInst>(I).getPointerOperand()) : -1; v >= 0)
          d = variables->divergent[v];
        else if (auto *phi = dyn_cast<PHINode>(&I))
          d = any_of(phi->incoming_values(), [&](const Use &v) { return differs(v.get()); }) ||
              any_of(phi->blocks(), [&](const BasicBlock *from) {
                return controlled.count(from) || branching.count(from);
              });
        else
          d = instructionDiffers(I);
        if (d) {
          divergent.insert(&I);
          changed = true;
        }
      }
      // A branch on a differing condition: the blocks it controls.
      Value *condition = branchCondition(BB.getTerminator());
      if (!condition || !differs(condition) || !branching.insert(&BB).second) continue;
      changed = true;
      addControlledBlocks(BB, *postDominators, controlled);
    }
  }
  LLVM_DEBUG(dbgs() << "divergence of " << F.getName() << ": " << divergent.size() << " values, "
                    << branching.size() << " branches\n");
}

void WorkItemDivergence::print(raw_ostream &out) const {
  out << "work-item divergence of " << F.getName() << ":\n";
  for (const BasicBlock &BB : F) {
    if (&BB == prologue) continue;
    for (const Instruction &I : BB)
      if (divergent.count(&I)) {
        out << "  differs:";
        I.print(out);
        out << "\n";
      }
    if (branching.count(&BB)) out << "  branch differs: " << BB.getName() << "\n";
  }
}

WorkItemDivergence WorkItemDivergenceAnalysis::run(Function &F, FunctionAnalysisManager &) {
  return WorkItemDivergence(F);
}

PreservedAnalyses WorkItemDivergencePrinterPass::run(Function &F, FunctionAnalysisManager &analyses) {
  if (!F.isDeclaration()) analyses.getResult<WorkItemDivergenceAnalysis>(F).print(out);
  return PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

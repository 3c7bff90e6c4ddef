// LocalAtomicLoweringPass, last after -O3: __local memory belongs to one
// work-group, and all work-items of a group run on one thread, in program
// order: atomics on it need no lock prefix and no fence. Each atomicrmw and
// cmpxchg on a __local pointer becomes a plain load, the operation and a
// store (LowerAtomic.h):
//
//   atomicrmw add ptr addrspace(3) %p, i32 1 seq_cst
//     ->  %old = load i32, ptr addrspace(3) %p
//         %new = add i32 %old, 1
//         store i32 %new, ptr addrspace(3) %p
//
// After -O3, so the new accesses are never taken for independent work-item
// accesses by the vectorizer. A pointer is __local when it is of the local
// address space, or cast from one (generic pointers to __local, the layout's
// cast of the group's block), through GEPs.
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/Transforms/Utils/LowerAtomic.h>

#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-local-atomic-lowering"

using namespace llvm;

LOCKSTEP_STATISTIC(NumAtomicsLowered, "Atomics on __local memory made plain accesses");

namespace lockstep::compiler {
namespace {

// A pointer into __local memory: of the local address space, or cast from
// one (generic pointers to __local, the layout's cast of the group's block).
bool isLocalPointer(Value *pointer) {
  for (int depth = 0; depth < 16; ++depth) {
    if (pointer->getType()->getPointerAddressSpace() == kLocalAddressSpace) return true;
    if (auto *gep = dyn_cast<GEPOperator>(pointer)) pointer = gep->getPointerOperand();
    else if (auto *cast = dyn_cast<AddrSpaceCastOperator>(pointer)) pointer = cast->getPointerOperand();
    else return false;
  }
  return false;
}

}  // namespace

PreservedAnalyses LocalAtomicLoweringPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<Instruction *, 16> atomics;
  for (Function &F : M)
    for (BasicBlock &BB : F)
      for (Instruction &I : BB) {
        if (auto *rmw = dyn_cast<AtomicRMWInst>(&I); rmw && isLocalPointer(rmw->getPointerOperand()))
          atomics.push_back(rmw);
        if (auto *cas = dyn_cast<AtomicCmpXchgInst>(&I); cas && isLocalPointer(cas->getPointerOperand()))
          atomics.push_back(cas);
      }
  for (Instruction *I : atomics) {
    if (auto *rmw = dyn_cast<AtomicRMWInst>(I)) lowerAtomicRMWInst(rmw);
    else lowerAtomicCmpXchgInst(cast<AtomicCmpXchgInst>(I));
  }
  NumAtomicsLowered += atomics.size();
  return atomics.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

}  // namespace lockstep::compiler

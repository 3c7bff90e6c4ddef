// GroupFreedom (GroupFreedom.h): whether a kernel can observe the shape of
// its groups.
#include "Analysis/GroupFreedom.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

#include "Analysis/OpenCLNames.h"
#include "Internal.h"

using namespace llvm;

namespace lockstep::compiler {

bool isGroupShapeFree(const Function &F) {
  SmallPtrSet<const Function *, 16> seen{&F};
  SmallVector<const Function *, 16> work{&F};
  while (!work.empty()) {
    const Function *G = work.pop_back_val();
    for (const Instruction &I : instructions(*G)) {
      SyncScope::ID scope = SyncScope::System;
      if (auto *fence = dyn_cast<FenceInst>(&I)) scope = fence->getSyncScopeID();
      else if (auto *rmw = dyn_cast<AtomicRMWInst>(&I)) scope = rmw->getSyncScopeID();
      else if (auto *cmpxchg = dyn_cast<AtomicCmpXchgInst>(&I)) scope = cmpxchg->getSyncScopeID();
      else if (auto *load = dyn_cast<LoadInst>(&I); load && load->isAtomic()) scope = load->getSyncScopeID();
      else if (auto *store = dyn_cast<StoreInst>(&I); store && store->isAtomic()) scope = store->getSyncScopeID();
      if (scope != SyncScope::System) {
        SmallVector<StringRef, 8> names;
        I.getContext().getSyncScopeNames(names);
        StringRef name = scope < names.size() ? names[scope] : "";
        if (name != "agent" && name != "device") return false;
      }
      // __local memory: kernel-scope variables, arguments, casts of either.
      for (const Use &operand : I.operands())
        if (operand->getType()->isPointerTy() && operand->getType()->getPointerAddressSpace() == kLocalAddressSpace)
          return false;
      if (I.getType()->isPointerTy() && I.getType()->getPointerAddressSpace() == kLocalAddressSpace) return false;
      auto *call = dyn_cast<CallBase>(&I);
      const Function *callee = call ? call->getCalledFunction() : nullptr;
      if (call && !callee) return false;  // an indirect call (a block): what it does is not known here
      if (!callee) continue;
      StringRef name = callee->getName();
      if (name.starts_with("__lockstep_enqueue") || name == kKernelQuerySymbol) return false;
      if (isWorkGroupFunctionName(name) && !isGroupShapeFreeQuery(workItemQuery(name))) return false;
      if (!callee->isDeclaration() && seen.insert(callee).second) work.push_back(callee);
    }
  }
  return true;
}

}  // namespace lockstep::compiler

// DeferVersionsPass (lockstep-defer-versions): every call of a kernel's
// version (VersionDispatch.cpp: for rows of 16, narrow groups, narrow rows)
// goes through a slot that holds the version's address:
//
//   call @K.vector_rows(args)
//     ->  %f = load atomic ptr @__lockstep.version.K.vector_rows acquire  ; its first word
//         br (%f == null), version.resolve, version.call
//       version.resolve:
//         %r = call @__lockstep_resolve_version(@__lockstep.version.K.vector_rows)
//       version.call:
//         call phi(%f, %r)(args)
//
// The slot is two words, `{ version, entry }`: it starts out holding the
// version, so a module compiled whole runs as before (one load and an
// indirect call per group that takes a version). A build that defers the
// versions (ModuleParts.cpp) empties the slots (the loaded program puts
// what compiles the version in the second word, LazyVersions.cpp) and
// leaves each version's module as bitcode; the version is optimized and
// compiled at its first call (LazyVersions.cpp), so that a build does the
// work of the versions its launches use. Most launches use one version of a
// kernel: in the benchmark suite the versions were 57% of the final IR, and
// a cold build spent its time on them in proportion.
//
// Run after the prepare pipeline and an inference of function attributes
// (deferVersionCalls, Backend.cpp), on builds of programs (not on a kernel
// compiled again for a launch's image formats, which keeps direct calls).
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Debug.h>

#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"

using namespace llvm;

#define DEBUG_TYPE "lockstep-defer-versions"
LOCKSTEP_STATISTIC(NumVersionCalls, "Calls of kernel versions made through slots");

namespace lockstep::compiler {
namespace {

bool isSlot(const Value *value) {
  auto *slot = dyn_cast<GlobalVariable>(value);
  return slot && slot->getName().starts_with(kVersionSlotPrefix);
}

void callThroughSlot(CallInst *call, Function &version, GlobalVariable *slot, FunctionCallee resolve) {
  LLVMContext &context = call->getContext();
  // What the version does with its parameters (inferred while the call was
  // direct, deferVersionCalls) stays known at the call: the kernel's own
  // attributes (`readonly` argument block and GroupInfo) are inferred from
  // it at -O3, and without them a histogram's grid-stride loop ran 35%
  // slower.
  AttributeList attributes = call->getAttributes();
  for (unsigned i = 0; i < call->arg_size() && i < version.arg_size(); ++i)
    attributes = attributes.addParamAttributes(context, i,
                                               AttrBuilder(context, version.getAttributes().getParamAttrs(i)));
  call->setAttributes(attributes);
  call->setMemoryEffects(version.getMemoryEffects());
  if (version.doesNotThrow()) call->setDoesNotThrow();
  auto *ptr = PointerType::get(context, 0);
  BasicBlock *before = call->getParent();
  BasicBlock *after = before->splitBasicBlock(call, "version.call");
  auto *resolving = BasicBlock::Create(context, "version.resolve", before->getParent(), after);
  before->getTerminator()->eraseFromParent();
  IRBuilder<> builder(before);
  LoadInst *loaded = builder.CreateAlignedLoad(ptr, slot, Align(8), "version");
  loaded->setAtomic(AtomicOrdering::Acquire);
  builder.CreateCondBr(builder.CreateIsNull(loaded), resolving, after,
                       MDBuilder(context).createUnlikelyBranchWeights());
  builder.SetInsertPoint(resolving);
  CallInst *resolved = builder.CreateCall(resolve, {slot}, "version.resolved");
  builder.CreateBr(after);
  builder.SetInsertPoint(call);
  PHINode *callee = builder.CreatePHI(ptr, 2, "version.callee");
  callee->addIncoming(loaded, before);
  callee->addIncoming(resolved, resolving);
  call->setCalledOperand(callee);
  ++NumVersionCalls;
}

}  // namespace

ArrayType *versionSlotType(LLVMContext &context) { return ArrayType::get(PointerType::get(context, 0), 2); }

Constant *versionSlot(LLVMContext &context, Function *version) {
  Constant *null = ConstantPointerNull::get(PointerType::get(context, 0));
  return ConstantArray::get(versionSlotType(context), {version ? static_cast<Constant *>(version) : null, null});
}

bool isVersionCall(const CallBase &call) {
  SmallVector<const Value *, 4> work{call.getCalledOperand()};
  SmallPtrSet<const Value *, 8> seen;
  while (!work.empty()) {
    const Value *callee = work.pop_back_val();
    if (!seen.insert(callee).second) continue;
    if (auto *phi = dyn_cast<PHINode>(callee)) {
      work.append(phi->incoming_values().begin(), phi->incoming_values().end());
    } else if (auto *select = dyn_cast<SelectInst>(callee)) {
      work.push_back(select->getTrueValue());
      work.push_back(select->getFalseValue());
    } else if (auto *load = dyn_cast<LoadInst>(callee)) {
      if (isSlot(load->getPointerOperand())) return true;
    } else if (auto *resolved = dyn_cast<CallBase>(callee)) {
      if (Function *F = resolved->getCalledFunction(); F && F->getName() == kResolveVersionSymbol) return true;
    }
  }
  return false;
}

PreservedAnalyses DeferVersionsPass::run(Module &M, ModuleAnalysisManager &) {
  LLVMContext &context = M.getContext();
  auto *ptr = PointerType::get(context, 0);
  bool changed = false;
  for (Function &version : M) {
    if (version.isDeclaration() || !version.hasFnAttribute(kDispatchedVersionAttr)) continue;
    SmallVector<CallInst *, 2> calls;
    for (User *user : version.users())
      if (auto *call = dyn_cast<CallInst>(user); call && call->getCalledOperand() == &version) calls.push_back(call);
    if (calls.empty()) continue;
    FunctionCallee resolve = M.getOrInsertFunction(kResolveVersionSymbol, FunctionType::get(ptr, {ptr}, false));
    if (auto *declared = dyn_cast<Function>(resolve.getCallee())) {
      declared->setDoesNotThrow();
      declared->addFnAttr(Attribute::Cold);
    }
    // In the host's address space (spir64's globals default to __global's).
    auto *slot = new GlobalVariable(M, versionSlotType(context), /*isConstant=*/false, GlobalValue::ExternalLinkage,
                                    versionSlot(context, &version), kVersionSlotPrefix + version.getName(), nullptr,
                                    GlobalValue::NotThreadLocal, /*AddressSpace=*/0);
    slot->setAlignment(Align(8));
    for (CallInst *call : calls) callThroughSlot(call, version, slot, resolve);
    LLVM_DEBUG(dbgs() << version.getName() << ": called through " << slot->getName() << "\n");
    changed = true;
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

// Scalar functions standing for memory accesses, with masked vector variants
// for the loop vectorizer (MaskedVariants.h).
#include "MemoryAccess/MaskedVariants.h"

#include <llvm/IR/Attributes.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IntrinsicInst.h>

#include "Internal.h"

using namespace llvm;

namespace lockstep::compiler {

namespace {

constexpr const char *kAccessAlignAttr = "lockstep-access-align";
// The vectorizer's widths for which a variant is declared.
constexpr unsigned kVariantLanes[] = {2, 4, 8, 16, 32, 64};

// The name of `name`'s variant of `lanes` lanes.
std::string variantName(StringRef name, unsigned lanes) {
  return (name + "_v" + Twine(lanes)).str();
}

// nounwind, willreturn, nosync, nofree, memory(argmem: read): a function
// that only reads the memory its pointer argument points to.
void markArgumentReader(Function &F) {
  F.setDoesNotThrow();
  F.setWillReturn();
  F.setNoSync();
  F.setDoesNotFreeMemory();
  F.setOnlyReadsMemory();
  F.setOnlyAccessesArgMemory();
}

}  // namespace

Function *declareWithMaskedVariants(Module &M, StringRef accessName, FunctionType *type,
                                    Align access, function_ref<void(Function &)> setAttributes,
                                    ArrayRef<unsigned> varying) {
  std::string name = (accessName + "_a" + Twine(access.value())).str();
  auto declare = [&](StringRef fnName, FunctionType *fnType) {
    Function *F = cast<Function>(M.getOrInsertFunction(fnName, fnType).getCallee());
    setAttributes(*F);
    F->addFnAttr(kAccessAlignAttr, std::to_string(access.value()));
    return F;
  };
  Function *scalar = declare(name, type);
  if (scalar->hasFnAttribute("vector-function-abi-variant")) return scalar;
  // _ZGV_LLVM_M<lanes><u or v per parameter>_<name>(<variant>): masked.
  std::string variants, kinds(type->getNumParams(), 'u');
  for (unsigned index : varying) kinds[index] = 'v';
  Type *i1 = Type::getInt1Ty(M.getContext());
  for (unsigned lanes : kVariantLanes) {
    SmallVector<Type *, 4> parameters(type->params());
    for (unsigned index : varying)
      parameters[index] = FixedVectorType::get(parameters[index], lanes);
    parameters.push_back(FixedVectorType::get(i1, lanes));
    std::string vectorName = variantName(name, lanes);
    declare(vectorName, FunctionType::get(FixedVectorType::get(type->getReturnType(), lanes),
                                          parameters, false));
    if (!variants.empty()) variants += ",";
    variants += "_ZGV_LLVM_M" + std::to_string(lanes) + kinds + "_" + name + "(" + vectorName + ")";
  }
  // Kept on the declaration, where each call copies it from.
  scalar->addFnAttr("vector-function-abi-variant", variants);
  return scalar;
}

Align accessAlign(const Function &F) {
  uint64_t value = 1;
  F.getFnAttribute(kAccessAlignAttr).getValueAsString().getAsInteger(10, value);
  return Align(value);
}

CallInst *replaceWithVariantCall(Instruction &I, Function *callee, ArrayRef<Value *> arguments) {
  CallInst *call = CallInst::Create(callee, arguments, "", I.getIterator());
  call->takeName(&I);
  call->addFnAttr(callee->getFnAttribute("vector-function-abi-variant"));
  // The loop is parallel only if each of its memory accesses is in its
  // access group.
  call->copyMetadata(I, {LLVMContext::MD_access_group});
  call->setDebugLoc(I.getDebugLoc());
  I.replaceAllUsesWith(call);
  I.eraseFromParent();
  return call;
}

CallInst *replaceLoadWithVariantCall(LoadInst &load, StringRef prefix, StringRef typeName,
                                     bool pointerVaries) {
  auto *pointer = cast<PointerType>(load.getPointerOperandType());
  std::string name = (prefix + typeName + "_p" + Twine(pointer->getAddressSpace())).str();
  Function *callee = declareWithMaskedVariants(
      *load.getModule(), name, FunctionType::get(load.getType(), {pointer}, false), load.getAlign(),
      markArgumentReader, pointerVaries ? ArrayRef<unsigned>{0} : ArrayRef<unsigned>{});
  return replaceWithVariantCall(load, callee, {load.getPointerOperand()});
}

bool mayWiden(const Loop &loop, function_ref<bool(const Instruction &)> taken) {
  for (const BasicBlock *block : loop.blocks())
    for (const Instruction &I : *block) {
      if (taken(I)) continue;
      // LLVM 19's vectorizer widens no loop with a switch either.
      if (I.isAtomic() || isa<FenceInst>(I) || isa<SwitchInst>(I)) return false;
      if (auto *load = dyn_cast<LoadInst>(&I); load && load->isVolatile()) return false;
      if (auto *store = dyn_cast<StoreInst>(&I); store && store->isVolatile()) return false;
      if (auto *call = dyn_cast<CallBase>(&I); call && !isa<IntrinsicInst>(call)) {
        const Function *callee = call->getCalledFunction();
        if (!callee || !(call->hasFnAttr("vector-function-abi-variant") ||
                         callee->hasFnAttribute("vector-function-abi-variant") ||
                         !call->mayReadOrWriteMemory()))
          return false;
      }
    }
  return true;
}

SmallVector<Instruction *, 8> collectInWorkItemLoops(
    Function &F, LoopInfo &loops, function_ref<bool(Instruction &, Loop &)> takes) {
  SmallVector<Instruction *, 8> found;
  for (Loop *loop : loops.getLoopsInPreorder()) {
    if (!isWorkItemLoop(loop)) continue;
    auto taken = [&](const Instruction &I) { return takes(const_cast<Instruction &>(I), *loop); };
    if (!mayWiden(*loop, taken)) continue;
    for (BasicBlock *block : loop->blocks())
      for (Instruction &I : *block)
        if (taken(I)) found.push_back(&I);
  }
  return found;
}

bool lowerVariantCalls(Module &M, StringRef prefix,
                       function_ref<Value *(CallInst &, unsigned)> lower) {
  SmallVector<Function *, 8> functions;
  for (Function &F : M)
    if (F.isDeclaration() && F.getName().starts_with(prefix)) functions.push_back(&F);
  for (Function *F : functions) {
    unsigned lanes = variantLanes(*F);
    for (User *user : make_early_inc_range(F->users())) {
      auto *call = cast<CallInst>(user);
      Value *result = lower(*call, lanes);
      if (!result) continue;
      result->takeName(call);
      call->replaceAllUsesWith(result);
      call->eraseFromParent();
    }
  }
  for (Function *F : functions) F->eraseFromParent();
  return !functions.empty();
}

unsigned variantLanes(const Function &F) {
  if (auto *vector = dyn_cast<FixedVectorType>(F.getReturnType())) return vector->getNumElements();
  return 0;
}

}  // namespace lockstep::compiler

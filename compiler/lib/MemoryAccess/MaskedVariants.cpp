// Scalar functions with masked vector variants of uniform parameters, for
// the loop vectorizer (MaskedVariants.h).
#include "MemoryAccess/MaskedVariants.h"

#include <llvm/IR/Attributes.h>
#include <llvm/IR/DerivedTypes.h>

using namespace llvm;

namespace lockstep::compiler {

std::string variantName(StringRef name, unsigned lanes) { return (name + "_v" + Twine(lanes)).str(); }

Function *declareWithMaskedVariants(Module &M, StringRef name, FunctionType *type,
                                    function_ref<void(Function &)> setAttributes) {
  auto declare = [&](StringRef fnName, FunctionType *fnType) {
    Function *F = cast<Function>(M.getOrInsertFunction(fnName, fnType).getCallee());
    setAttributes(*F);
    return F;
  };
  Function *scalar = declare(name, type);
  if (scalar->hasFnAttribute("vector-function-abi-variant")) return scalar;
  // _ZGV_LLVM_M<lanes>u..u_<name>(<variant>): masked, every parameter uniform.
  std::string variants, uniforms(type->getNumParams(), 'u');
  Type *i1 = Type::getInt1Ty(M.getContext());
  for (unsigned lanes : kVariantLanes) {
    SmallVector<Type *, 4> parameters(type->params());
    parameters.push_back(FixedVectorType::get(i1, lanes));
    std::string vectorName = variantName(name, lanes);
    declare(vectorName, FunctionType::get(FixedVectorType::get(type->getReturnType(), lanes), parameters, false));
    if (!variants.empty()) variants += ",";
    variants += "_ZGV_LLVM_M" + std::to_string(lanes) + uniforms + "_" + name.str() + "(" + vectorName + ")";
  }
  // Kept on the declaration, where each call copies it from.
  scalar->addFnAttr("vector-function-abi-variant", variants);
  return scalar;
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

unsigned variantLanes(const Function &F) {
  if (auto *vector = dyn_cast<FixedVectorType>(F.getReturnType())) return vector->getNumElements();
  return 0;
}

}  // namespace lockstep::compiler

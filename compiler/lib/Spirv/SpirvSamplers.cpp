// SpirvSamplersPass: samplers of the SPIR-V translator's output in the form
// Clang gives them, so the builtins link and ImageTypeLowering folds them.
//
// Clang's OpenCL C for spir64 types a sampler `target("spirv.Sampler")`
// and a constant sampler `__translate_sampler_initializer(i32 bits)` of that
// type; the builtins are compiled so. The translator (LLVM 15, typed
// pointers) gives a sampler as a pointer to `opencl.sampler_t` in the
// constant address space, which LLVM 19's bitcode reader makes
// `ptr addrspace(2)`: the builtins' sampler parameters would not match.
//
// Here a sampler travels as that pointer whose address is its CLK_* bits:
//
//   - the translator's `ptr addrspace(2) __translate_sampler_initializer(i32 b)`
//     becomes `inttoptr i32 b`;
//   - a kernel's sampler argument (kernel_arg_type "sampler_t") is recreated
//     as Clang's type, and its bits (`__lockstep_sampler`, the builtins'
//     accessor) become the pointer at the kernel's entry;
//   - a call of a builtin whose mangled parameter is `ocl_sampler` calls a
//     declaration with Clang's type, given
//     `__translate_sampler_initializer(ptrtoint sampler)`.
//
// In between (allocas, phis, selects, calls of the program's own functions)
// a sampler is an ordinary pointer and needs no change. ImageTypeLowering
// then folds both conversions away; a constant sampler stays a constant.
// Images need nothing: the translator's `ptr addrspace(1)` is already their
// lowered type.
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-spirv-samplers"

using namespace llvm;

LOCKSTEP_STATISTIC(NumBuiltinsRetyped, "Builtin declarations given Clang's sampler type");
LOCKSTEP_STATISTIC(NumKernelSamplers, "Kernel sampler arguments given Clang's type");

namespace lockstep::compiler {
namespace {

constexpr unsigned kConstantAddressSpace = 2;
constexpr const char *kInitializer = "__translate_sampler_initializer";
constexpr const char *kSamplerBits = "_Z18__lockstep_sampler11ocl_sampler";

Type *clangSamplerType(LLVMContext &context) { return TargetExtType::get(context, "spirv.Sampler"); }

// Which parameters of a mangled builtin are samplers in the translator's
// form, from its demangled name "name(ocl_image2d_ro, ocl_sampler, int
// __vector(2))" and the parameter's type.
SmallVector<bool, 8> samplerParameters(const Function &F) {
  SmallVector<bool, 8> samplers(F.arg_size(), false);
  if (!F.getName().starts_with("_Z")) return samplers;
  std::string text = demangle(F.getName().str());
  size_t open = text.find('(');
  if (open == std::string::npos) return samplers;
  unsigned index = 0, depth = 0;
  std::string parameter;
  for (size_t i = open + 1; i < text.size(); ++i) {
    char c = text[i];
    if (depth == 0 && (c == ',' || c == ')')) {
      StringRef trimmed = StringRef(parameter).trim();
      if (index < samplers.size() && trimmed == "ocl_sampler" &&
          F.getArg(index)->getType() == PointerType::get(F.getContext(), kConstantAddressSpace))
        samplers[index] = true;
      ++index;
      parameter.clear();
      if (c == ')') break;
      continue;
    }
    if (c == '(' || c == '<') ++depth;
    if (c == ')' || c == '>') --depth;
    parameter += c;
  }
  return samplers;
}

bool anyOf(ArrayRef<bool> flags) { return is_contained(flags, true); }

// The declaration Clang would write for a builtin with sampler parameters.
Function *retypedDeclaration(Function &F, ArrayRef<bool> samplers) {
  SmallVector<Type *, 8> params(F.getFunctionType()->params());
  for (unsigned i = 0; i < params.size(); ++i)
    if (samplers[i]) params[i] = clangSamplerType(F.getContext());
  auto *type = FunctionType::get(F.getReturnType(), params, F.isVarArg());
  Function *retyped = Function::Create(type, F.getLinkage(), F.getAddressSpace(), "", F.getParent());
  retyped->copyAttributesFrom(&F);
  retyped->takeName(&F);
  return retyped;
}

// A kernel's sampler arguments (kernel_arg_type "sampler_t") in Clang's
// type, their bits made the translator's pointer at the entry. A kernel
// that the program also calls (SPIR-V allows it) is left as it is.
bool retypeKernelSamplers(Function &F, FunctionCallee toBits) {
  LLVMContext &context = F.getContext();
  auto *samplerPointer = PointerType::get(context, kConstantAddressSpace);
  MDNode *types = F.getMetadata("kernel_arg_type");
  if (!types || types->getNumOperands() != F.arg_size() || !F.use_empty()) return false;
  SmallVector<Type *, 8> params(F.getFunctionType()->params());
  bool any = false;
  for (unsigned i = 0; i < params.size(); ++i) {
    auto *type = dyn_cast<MDString>(types->getOperand(i));
    if (type && type->getString() == "sampler_t" && params[i] == samplerPointer) {
      params[i] = clangSamplerType(context);
      any = true;
    }
  }
  if (!any) return false;
  Function *retyped = Function::Create(FunctionType::get(F.getReturnType(), params, false), F.getLinkage(),
                                       F.getAddressSpace());
  F.getParent()->getFunctionList().insert(F.getIterator(), retyped);
  retyped->takeName(&F);
  retyped->copyAttributesFrom(&F);
  retyped->copyMetadata(&F, 0);
  retyped->splice(retyped->begin(), &F);
  IRBuilder<> builder(&*retyped->getEntryBlock().getFirstInsertionPt());
  for (auto [from, to] : zip(F.args(), retyped->args())) {
    to.takeName(&from);
    Value *value = &to;
    if (to.getType() != from.getType())
      value = builder.CreateIntToPtr(builder.CreateCall(toBits, {&to}), samplerPointer, to.getName() + ".bits");
    from.replaceAllUsesWith(value);
  }
  F.eraseFromParent();
  return true;
}

}  // namespace

PreservedAnalyses SpirvSamplersPass::run(Module &M, ModuleAnalysisManager &) {
  LLVMContext &context = M.getContext();
  Type *i32 = Type::getInt32Ty(context);
  auto *samplerPointer = PointerType::get(context, kConstantAddressSpace);
  bool changed = false;

  // The translator's constant samplers: their bits as the pointer.
  if (Function *initializer = M.getFunction(kInitializer); initializer && initializer->getReturnType() == samplerPointer) {
    for (User *user : make_early_inc_range(initializer->users()))
      if (auto *call = dyn_cast<CallInst>(user); call && call->getCalledOperand() == initializer) {
        auto *bits = new IntToPtrInst(call->getArgOperand(0), samplerPointer, "sampler", call->getIterator());
        call->replaceAllUsesWith(bits);
        call->eraseFromParent();
      }
    if (initializer->use_empty()) initializer->eraseFromParent();
    changed = true;
  }
  FunctionCallee fromBits =
      M.getOrInsertFunction(kInitializer, FunctionType::get(clangSamplerType(context), {i32}, false));
  FunctionCallee toBits =
      M.getOrInsertFunction(kSamplerBits, FunctionType::get(i32, {clangSamplerType(context)}, false));

  for (Function &F : make_early_inc_range(M)) {
    if (F.isDeclaration()) {
      SmallVector<bool, 8> samplers = samplerParameters(F);
      if (!anyOf(samplers) || &F == fromBits.getCallee() || &F == toBits.getCallee()) continue;
      Function *retyped = retypedDeclaration(F, samplers);
      for (User *user : make_early_inc_range(F.users())) {
        auto *call = dyn_cast<CallInst>(user);
        if (!call || call->getCalledOperand() != &F) continue;
        IRBuilder<> builder(call);
        SmallVector<Value *, 8> arguments(call->args());
        for (unsigned i = 0; i < arguments.size() && i < samplers.size(); ++i)
          if (samplers[i] && arguments[i]->getType() == samplerPointer)
            arguments[i] = builder.CreateCall(fromBits, {builder.CreatePtrToInt(arguments[i], i32)});
        CallInst *replacement = builder.CreateCall(retyped, arguments);
        replacement->setCallingConv(call->getCallingConv());
        replacement->setAttributes(call->getAttributes());
        replacement->takeName(call);
        call->replaceAllUsesWith(replacement);
        call->eraseFromParent();
      }
      if (F.use_empty()) F.eraseFromParent();
      ++NumBuiltinsRetyped;
      changed = true;
      continue;
    }
    if (F.getCallingConv() == CallingConv::SPIR_KERNEL && retypeKernelSamplers(F, toBits)) {
      ++NumKernelSamplers;
      changed = true;
    }
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

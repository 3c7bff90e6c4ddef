// ImageTypeLoweringPass: OpenCL C's image, sampler, pipe and reserve_id_t
// types, as Clang 19 emits them for spir64, are target extension types
// (target("spirv.Image", ...), target("spirv.Sampler"), target("spirv.Pipe",
// access) and target("spirv.ReserveId")), which no CPU back end compiles.
// This pass gives them the representation of lockstep/compiler/ImageAbi.h
// and PipeAbi.h:
//
//   - an image becomes a pointer to its lockstep_image_descriptor
//     (ptr addrspace(1)), which the kernel's argument slot holds;
//   - a sampler becomes its CLK_* bits (i32), and Clang's form of a
//     constant sampler, `__translate_sampler_initializer(i32 bits)`, folds
//     to those bits, so a kernel whose samplers are constants has its
//     addressing and filtering decided at compile time;
//   - a pipe becomes a pointer to its storage (ptr addrspace(1)), the
//     lockstep_pipe header the argument slot holds, and a reserve_id_t a
//     private pointer whose address is its 64 bits (PipeAbi.h),
//     CLK_NULL_RESERVE_ID (a bitcast of -1) included: both are what the
//     SPIR-V translator gives them, so SPIR-V programs call the pipe
//     builtins with the lowered types already;
//   - the pipe builtins' accessors (builtins/lib/pipe.cl:
//     __lockstep_pipe_ro/_wo, __lockstep_reserve_id/_bits) become their
//     argument (a reserve id's bits through inttoptr and ptrtoint);
//   - device-side enqueue's queue_t and clk_event_t become pointers (the
//     runtime's cl_command_queue and cl_event handles);
//   - the builtins' accessors `__lockstep_image(image)` and
//     `__lockstep_sampler(sampler)` (declared in builtins/include/ls_image.h,
//     defined nowhere) become their argument, and loads through an image's
//     descriptor are marked invariant: an image never changes its layout
//     while a kernel runs, so -O3 may hoist them out of the work-item loops
//     even past the kernel's own stores.
//
// Every function whose signature mentions the types (kernels, helpers and
// builtins) is recreated with the lowered signature and the old body moved
// in; every value of the types (arguments, allocas, loads, phis, selects,
// calls) changes type in place. It runs once the builtins are linked, before
// anything else looks at the kernels.
#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Debug.h>

#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-image-type-lowering"

using namespace llvm;

LOCKSTEP_STATISTIC(NumFunctionsRewritten, "Functions whose signature had image or sampler types");
LOCKSTEP_STATISTIC(NumConstantSamplers, "Constant samplers folded to their bits");
LOCKSTEP_STATISTIC(NumDescriptorLoads, "Image descriptor loads marked invariant");

namespace lockstep::compiler {
namespace {

constexpr unsigned kDescriptorAddressSpace = 1;  // __global: the runtime's memory

// The lowered type of an image or sampler type (or an array of them: a
// `clk_event_t events[n]` in private memory), or null for any other type.
Type *loweredType(Type *type) {
  if (auto *array = dyn_cast<ArrayType>(type)) {
    Type *element = loweredType(array->getElementType());
    return element ? ArrayType::get(element, array->getNumElements()) : nullptr;
  }
  auto *ext = dyn_cast<TargetExtType>(type);
  if (!ext) return nullptr;
  if (ext->getName() == "spirv.Image") return PointerType::get(type->getContext(), kDescriptorAddressSpace);
  if (ext->getName() == "spirv.Sampler") return Type::getInt32Ty(type->getContext());
  if (ext->getName() == "spirv.Pipe") return PointerType::get(type->getContext(), kDescriptorAddressSpace);
  if (ext->getName() == "spirv.ReserveId") return PointerType::get(type->getContext(), 0);
  // Device-side enqueue's queue_t and clk_event_t: the runtime's handles
  // (DeviceEnqueueLowering.cpp).
  if (ext->getName() == "spirv.Queue" || ext->getName() == "spirv.DeviceEvent")
    return PointerType::get(type->getContext(), 0);
  return nullptr;
}

Type *lowerOrKeep(Type *type) {
  Type *lowered = loweredType(type);
  return lowered ? lowered : type;
}

bool mentionsImageTypes(FunctionType *type) {
  return loweredType(type->getReturnType()) || any_of(type->params(), loweredType);
}

FunctionType *lowerSignature(FunctionType *type) {
  SmallVector<Type *, 8> params;
  for (Type *param : type->params()) params.push_back(lowerOrKeep(param));
  return FunctionType::get(lowerOrKeep(type->getReturnType()), params, type->isVarArg());
}

// A new function with the lowered signature takes F's name, attributes,
// metadata (the kernel_arg_* lists), body and uses.
void rewriteSignature(Function &F) {
  Module &M = *F.getParent();
  Function *lowered = Function::Create(lowerSignature(F.getFunctionType()), F.getLinkage(), F.getAddressSpace());
  M.getFunctionList().insert(F.getIterator(), lowered);  // keeps the module's order
  lowered->takeName(&F);
  lowered->copyAttributesFrom(&F);
  lowered->copyMetadata(&F, 0);
  lowered->splice(lowered->begin(), &F);
  for (auto [from, to] : zip(F.args(), lowered->args())) {
    to.takeName(&from);
    from.mutateType(to.getType());
    from.replaceAllUsesWith(&to);
  }
  // Pointers are opaque: the old and new functions have the same type as
  // values, and calls only need their function type updated.
  for (User *user : make_early_inc_range(F.users()))
    if (auto *call = dyn_cast<CallBase>(user); call && call->getCalledOperand() == &F)
      call->mutateFunctionType(lowered->getFunctionType());
  F.replaceAllUsesWith(lowered);
  F.eraseFromParent();
  ++NumFunctionsRewritten;
}

Constant *lowerConstant(Constant *constant, Type *type) {
  // CLK_NULL_RESERVE_ID: bitcast (i64 -1 to target("spirv.ReserveId")).
  if (auto *cast = dyn_cast<ConstantExpr>(constant); cast && cast->getOpcode() == Instruction::BitCast &&
                                                     cast->getOperand(0)->getType()->isIntegerTy(64) &&
                                                     type->isPointerTy())
    return ConstantExpr::getIntToPtr(cast->getOperand(0), type);
  if (isa<PoisonValue>(constant)) return PoisonValue::get(type);
  if (isa<UndefValue>(constant)) return UndefValue::get(type);
  return Constant::getNullValue(type);  // zeroinitializer, the only other kind
}

// Values of the types change type in place; constants of them (undef,
// poison, zeroinitializer in a phi) are replaced by lowered ones.
void lowerValues(Function &F) {
  for (Instruction &I : instructions(F)) {
    if (auto *alloca = dyn_cast<AllocaInst>(&I))
      if (Type *lowered = loweredType(alloca->getAllocatedType())) alloca->setAllocatedType(lowered);
    // An array of reserve ids in memory (a `__global reserve_id_t *`).
    if (auto *gep = dyn_cast<GetElementPtrInst>(&I)) {
      if (Type *lowered = loweredType(gep->getSourceElementType())) gep->setSourceElementType(lowered);
      if (Type *lowered = loweredType(gep->getResultElementType())) gep->setResultElementType(lowered);
    }
    if (Type *lowered = loweredType(I.getType())) I.mutateType(lowered);
    for (Use &operand : I.operands())
      if (auto *constant = dyn_cast<Constant>(operand.get()))
        if (Type *lowered = loweredType(constant->getType())) operand.set(lowerConstant(constant, lowered));
  }
}

// Loads of an image's descriptor fields, reached through GEPs from `image`.
void markDescriptorLoadsInvariant(Value *image) {
  MDNode *empty = MDNode::get(image->getContext(), {});
  SmallVector<Value *, 8> work{image};
  while (!work.empty()) {
    Value *pointer = work.pop_back_val();
    for (User *user : pointer->users()) {
      if (auto *load = dyn_cast<LoadInst>(user); load && load->getPointerOperand() == pointer) {
        load->setMetadata(LLVMContext::MD_invariant_load, empty);
        ++NumDescriptorLoads;
      } else if (auto *gep = dyn_cast<GetElementPtrInst>(user); gep && gep->getPointerOperand() == pointer) {
        work.push_back(gep);
      }
    }
  }
}

// Calls of F become their first argument (the accessors) or, for Clang's
// constant samplers, their constant bits.
void foldCallsToArgument(Function &F, bool descriptor) {
  for (User *user : make_early_inc_range(F.users())) {
    auto *call = dyn_cast<CallBase>(user);
    if (!call || call->getCalledOperand() != &F || call->arg_size() != 1) continue;
    Value *argument = call->getArgOperand(0);
    // A reserve id's bits and the reserve id, a pointer (PipeAbi.h).
    if (argument->getType()->isIntegerTy(64) && call->getType()->isPointerTy()) {
      argument = new IntToPtrInst(argument, call->getType(), "", call->getIterator());
      argument->takeName(call);
    } else if (argument->getType()->isPointerTy() && call->getType()->isIntegerTy(64)) {
      argument = new PtrToIntInst(argument, call->getType(), "", call->getIterator());
      argument->takeName(call);
    }
    if (argument->getType() != call->getType()) continue;
    if (descriptor) markDescriptorLoadsInvariant(call);
    call->replaceAllUsesWith(argument);
    call->eraseFromParent();
  }
}

}  // namespace

bool isImageAccessor(StringRef name) {
  return name.starts_with("_Z16__lockstep_image") || name.starts_with("_Z18__lockstep_sampler") ||
         name == "__translate_sampler_initializer" || name == "__lockstep_pipe_ro" || name == "__lockstep_pipe_wo" ||
         name == "__lockstep_reserve_id" || name == "__lockstep_reserve_bits";
}

PreservedAnalyses ImageTypeLoweringPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<Function *, 16> signatures;
  for (Function &F : M)
    if (mentionsImageTypes(F.getFunctionType())) signatures.push_back(&F);
  // Image and sampler values come only from arguments and calls (the
  // accessors, Clang's constant samplers), so a module whose signatures have
  // none has none at all.
  if (signatures.empty()) return PreservedAnalyses::all();
  for (Function *F : signatures) rewriteSignature(*F);
  for (Function &F : M) lowerValues(F);
  for (Function &F : make_early_inc_range(M)) {
    StringRef name = F.getName();
    if (!F.isDeclaration() || !isImageAccessor(name)) continue;
    bool sampler = name == "__translate_sampler_initializer";
    if (sampler) NumConstantSamplers += F.getNumUses();
    foldCallsToArgument(F, name.starts_with("_Z16__lockstep_image"));
    LLVM_DEBUG(dbgs() << "lowered the calls of " << name << "\n");
    if (F.use_empty()) F.eraseFromParent();
  }
  return PreservedAnalyses::none();
}

}  // namespace lockstep::compiler

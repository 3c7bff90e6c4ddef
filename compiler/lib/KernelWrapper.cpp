// The kernel ABI. describeKernels() reads Clang's kernel metadata into the
// argument descriptions the runtime sees; KernelWrapperPass builds, for each
// kernel, `void wg(args, group, local, context)` that unpacks the argument
// block with exactly that layout and calls the kernel, then inlines the
// kernel and every function that (transitively) needs the work-item context:
// work-item functions, barriers, __local variables. After it, the body of a
// work-group function is the code of one work-item, ready for the
// work-group passes.
#include <CL/cl.h>
#include <llvm/ADT/SetVector.h>
#include <llvm/ADT/StringSwitch.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MathExtras.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include "Analysis/OpenCLNames.h"
#include "Internal.h"
#include "lockstep/compiler/ImageAbi.h"
#include "Passes.h"

using namespace llvm;

namespace lockstep::compiler {

std::string workGroupFunctionName(StringRef kernel) { return ("__lockstep_wg_" + kernel).str(); }

uint64_t functionAttrNumber(const Function &F, StringRef name) {
  uint64_t value = 0;
  if (F.hasFnAttribute(name)) F.getFnAttribute(name).getValueAsString().getAsInteger(10, value);
  return value;
}

namespace {

bool isKernel(const Function &F) {
  return !F.isDeclaration() && F.getCallingConv() == CallingConv::SPIR_KERNEL;
}

StringRef metadataString(const Function &F, StringRef kind, unsigned index) {
  if (MDNode *node = F.getMetadata(kind))
    if (index < node->getNumOperands())
      if (auto *string = dyn_cast<MDString>(node->getOperand(index))) return string->getString();
  return "";
}

uint32_t metadataInt(const Function &F, StringRef kind, unsigned index, uint32_t fallback) {
  if (MDNode *node = F.getMetadata(kind))
    if (index < node->getNumOperands())
      if (auto *value = mdconst::dyn_extract<ConstantInt>(node->getOperand(index)))
        return value->getZExtValue();
  return fallback;
}

uint64_t typeQualifiers(StringRef text) {
  uint64_t bits = CL_KERNEL_ARG_TYPE_NONE;
  SmallVector<StringRef, 4> words;
  text.split(words, ' ', -1, false);
  for (StringRef word : words) {
    if (word == "const") bits |= CL_KERNEL_ARG_TYPE_CONST;
    if (word == "restrict") bits |= CL_KERNEL_ARG_TYPE_RESTRICT;
    if (word == "volatile") bits |= CL_KERNEL_ARG_TYPE_VOLATILE;
    if (word == "pipe") bits |= CL_KERNEL_ARG_TYPE_PIPE;
  }
  return bits;
}

uint32_t accessQualifier(StringRef text) {
  if (text == "read_only") return CL_KERNEL_ARG_ACCESS_READ_ONLY;
  if (text == "write_only") return CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
  if (text == "read_write") return CL_KERNEL_ARG_ACCESS_READ_WRITE;
  return CL_KERNEL_ARG_ACCESS_NONE;
}

std::string typeName(Type *type, bool isSigned) {
  if (auto *vector = dyn_cast<FixedVectorType>(type))
    return typeName(vector->getElementType(), isSigned) + std::to_string(vector->getNumElements());
  if (type->isFloatTy()) return "float";
  if (type->isDoubleTy()) return "double";
  if (type->isHalfTy()) return "half";
  std::string name = isSigned ? "" : "u";
  switch (type->getIntegerBitWidth()) {
    case 8: return name + "char";
    case 16: return name + "short";
    case 32: return name + "int";
    default: return name + "long";
  }
}

// The memory object type of an OpenCL C image type name (depth images are
// 2D images to the API), or 0 if `name` is no image type.
uint32_t imageObjectType(StringRef name) {
  return StringSwitch<uint32_t>(name)
      .Case("image1d_t", CL_MEM_OBJECT_IMAGE1D)
      .Case("image1d_buffer_t", CL_MEM_OBJECT_IMAGE1D_BUFFER)
      .Case("image1d_array_t", CL_MEM_OBJECT_IMAGE1D_ARRAY)
      .Cases("image2d_t", "image2d_depth_t", CL_MEM_OBJECT_IMAGE2D)
      .Cases("image2d_array_t", "image2d_array_depth_t", CL_MEM_OBJECT_IMAGE2D_ARRAY)
      .Case("image3d_t", CL_MEM_OBJECT_IMAGE3D)
      .Default(0);
}

std::string attributes(const Function &F) {
  std::string text;
  auto append = [&](const std::string &item) { text += (text.empty() ? "" : " ") + item; };
  for (const char *kind : {"reqd_work_group_size", "work_group_size_hint"})
    if (F.getMetadata(kind))
      append(std::string(kind) + "(" + std::to_string(metadataInt(F, kind, 0, 1)) + "," +
             std::to_string(metadataInt(F, kind, 1, 1)) + "," + std::to_string(metadataInt(F, kind, 2, 1)) + ")");
  if (MDNode *hint = F.getMetadata("vec_type_hint")) {
    Type *type = cast<ValueAsMetadata>(hint->getOperand(0))->getType();
    append("vec_type_hint(" + typeName(type, metadataInt(F, "vec_type_hint", 1, 1)) + ")");
  }
  return text;
}

// An argument's kind and address qualifier, from Clang's metadata: images
// and samplers by their type, pipes by their qualifier (they carry an address space of their own in
// the metadata, and are no pointers to the kernel's code), the rest by the
// address space.
void classify(KernelArgument &out, StringRef baseType, unsigned space) {
  StringRef type = baseType.empty() ? StringRef(out.typeName) : baseType;
  if (uint32_t image = imageObjectType(type)) {
    out.kind = ArgKind::Image;
    out.imageType = image;
    out.addressQualifier = CL_KERNEL_ARG_ADDRESS_GLOBAL;
    return;
  }
  // A pipe's metadata names its packet type, with the qualifier "pipe";
  // "the PIPE qualifier ... ignores any other qualifiers".
  if (out.typeQualifier & CL_KERNEL_ARG_TYPE_PIPE) {
    out.kind = ArgKind::Pipe;
    out.typeQualifier = CL_KERNEL_ARG_TYPE_PIPE;
    out.addressQualifier = CL_KERNEL_ARG_ADDRESS_GLOBAL;
    return;
  }
  if (type == "sampler_t") {
    out.kind = ArgKind::Sampler;
    out.addressQualifier = CL_KERNEL_ARG_ADDRESS_PRIVATE;
    return;
  }
  switch (space) {
    case 1: out.kind = ArgKind::GlobalPointer; out.addressQualifier = CL_KERNEL_ARG_ADDRESS_GLOBAL; break;
    case 2: out.kind = ArgKind::ConstantPointer; out.addressQualifier = CL_KERNEL_ARG_ADDRESS_CONSTANT; break;
    case 3: out.kind = ArgKind::LocalPointer; out.addressQualifier = CL_KERNEL_ARG_ADDRESS_LOCAL; break;
    default: out.kind = ArgKind::Value; out.addressQualifier = CL_KERNEL_ARG_ADDRESS_PRIVATE; break;
  }
}

KernelDescription describe(const Function &F) {
  const DataLayout &layout = F.getParent()->getDataLayout();
  KernelDescription kernel;
  kernel.name = F.getName().str();
  kernel.attributes = attributes(F);
  kernel.uniformWorkGroups = F.hasFnAttribute(kUniformGroupsAttr);
  uint64_t offset = 0;
  for (const Argument &arg : F.args()) {
    KernelArgument out;
    unsigned i = arg.getArgNo();
    out.name = metadataString(F, "kernel_arg_name", i).str();
    out.typeName = metadataString(F, "kernel_arg_type", i).str();
    out.typeQualifier = typeQualifiers(metadataString(F, "kernel_arg_type_qual", i));
    out.accessQualifier = accessQualifier(metadataString(F, "kernel_arg_access_qual", i));
    // Without metadata (the kernels Clang makes of enqueued blocks, before
    // DeviceEnqueueLoweringPass adds it), the pointer's own address space.
    unsigned irSpace = arg.getType()->isPointerTy() ? arg.getType()->getPointerAddressSpace() : 0;
    classify(out, metadataString(F, "kernel_arg_base_type", i),
             metadataInt(F, "kernel_arg_addr_space", i, irSpace >= 1 && irSpace <= 3 ? irSpace : 0));
    if (out.kind == ArgKind::ConstantPointer) out.typeQualifier |= CL_KERNEL_ARG_TYPE_CONST;
    if (out.kind == ArgKind::Value) {
      Type *valueType = arg.hasByValAttr() ? arg.getParamByValType() : arg.getType();
      out.size = layout.getTypeAllocSize(valueType);
      out.alignment = std::max<uint64_t>(arg.getParamAlign().valueOrOne().value(),
                                         layout.getABITypeAlign(valueType).value());
    } else if (out.kind == ArgKind::Sampler) {
      out.size = sizeof(uint32_t);  // ImageAbi.h: the sampler's CLK_* bits
      out.alignment = alignof(uint32_t);
    } else {
      // A pointer, a __local offset, an image's descriptor address or a
      // pipe's storage address.
      out.size = sizeof(void *);
      out.alignment = alignof(void *);
    }
    offset = alignTo(offset, out.alignment);
    out.offset = offset;
    offset += out.size;
    kernel.arguments.push_back(std::move(out));
  }
  // Bounds checking: a size per argument after the values (the runtime
  // writes them, BoundsCheckPass's checks read them).
  if (F.getParent()->getModuleFlag(kCheckBoundsAttr)) {
    offset = alignTo(offset, sizeof(uint64_t));
    kernel.argumentSizesOffset = offset;
    offset += sizeof(uint64_t) * kernel.arguments.size();
  }
  kernel.argumentBlockSize = alignTo(offset, 16);
  for (unsigned d = 0; d < 3; ++d) {
    kernel.requiredWorkGroupSize[d] = metadataInt(F, "reqd_work_group_size", d, 0);
    kernel.workGroupSizeHint[d] = metadataInt(F, "work_group_size_hint", d, 0);
  }
  if (MDNode *hint = F.getMetadata("vec_type_hint"))
    kernel.vecTypeHint = typeName(cast<ValueAsMetadata>(hint->getOperand(0))->getType(),
                                  metadataInt(F, "vec_type_hint", 1, 1));
  return kernel;
}

// Functions a work-group function must absorb: they call work-item
// functions or barriers, or use __local variables, directly or not.
SetVector<Function *> functionsToInline(Module &M) {
  SetVector<Function *> result;
  for (Function &F : M) {
    if (F.isDeclaration()) continue;
    for (Instruction &I : instructions(F)) {
      if (auto *call = dyn_cast<CallBase>(&I))
        if (Function *callee = call->getCalledFunction(); callee && callee->isDeclaration() && isWorkGroupFunctionName(callee->getName()))
          result.insert(&F);
      for (Value *operand : I.operands())
        if (auto *global = dyn_cast<GlobalVariable>(operand->stripPointerCasts());
            global && global->getAddressSpace() == kLocalAddressSpace)
          result.insert(&F);
    }
  }
  // Bounds checking follows an address to its buffer within the work-group
  // function only: functions that take or return pointers to memory other
  // than private go into it as well.
  if (M.getModuleFlag(kCheckBoundsAttr)) {
    auto shared = [](Type *type) {
      auto *pointer = dyn_cast<PointerType>(type);
      return pointer && pointer->getAddressSpace() != 0;
    };
    for (Function &F : M) {
      if (F.isDeclaration()) continue;
      bool pointers = shared(F.getReturnType());
      for (Argument &arg : F.args()) pointers |= shared(arg.getType());
      if (pointers) result.insert(&F);
    }
  }
  for (size_t i = 0; i < result.size(); ++i)
    for (User *user : result[i]->users())
      if (auto *call = dyn_cast<CallBase>(user)) result.insert(call->getFunction());
  return result;
}

// A kernel called from another kernel runs as an ordinary function there.
void separateKernelCalls(Module &M) {
  for (Function &F : M) {
    if (!isKernel(F)) continue;
    SmallVector<CallBase *, 4> calls;
    for (User *user : F.users())
      if (auto *call = dyn_cast<CallBase>(user)) calls.push_back(call);
    if (calls.empty()) continue;
    ValueToValueMapTy map;
    Function *copy = CloneFunction(&F, map);
    copy->setName(F.getName() + ".callee");
    copy->setCallingConv(CallingConv::SPIR_FUNC);
    copy->setLinkage(GlobalValue::InternalLinkage);
    for (CallBase *call : calls) {
      call->setCalledFunction(copy);
      call->setCallingConv(CallingConv::SPIR_FUNC);
    }
  }
}

Function *createWrapper(Function &kernel, const KernelDescription &description) {
  Module &M = *kernel.getParent();
  LLVMContext &context = M.getContext();
  Type *ptr = PointerType::get(context, 0);
  auto *type = FunctionType::get(Type::getVoidTy(context), {ptr, ptr, ptr, ptr}, false);
  Function *wrapper = Function::Create(type, GlobalValue::ExternalLinkage,
                                       workGroupFunctionName(kernel.getName()), M);
  wrapper->addFnAttr(kKernelNameAttr, kernel.getName());
  // Every group of a kernel with a required size that has only full groups
  // has exactly that size.
  if (kernel.hasFnAttribute(kUniformGroupsAttr) && description.requiredWorkGroupSize[0] != 0) {
    const uint32_t *size = description.requiredWorkGroupSize;
    wrapper->addFnAttr(kFixedLocalSizeAttr,
                       std::to_string(size[0]) + "," + std::to_string(size[1]) + "," + std::to_string(size[2]));
  }
  wrapper->addFnAttr(kSubGroupSizeAttr, std::to_string(hostSubGroupSize()));
  if (M.getModuleFlag(kCheckBarriersAttr)) wrapper->addFnAttr(kCheckBarriersAttr);
  if (M.getModuleFlag(kCheckBoundsAttr))
    wrapper->addFnAttr(kCheckBoundsAttr, std::to_string(description.argumentSizesOffset));
  wrapper->addFnAttr(Attribute::NoUnwind);
  for (unsigned i = 0; i < 4; ++i) {
    wrapper->addParamAttr(i, Attribute::NoAlias);
    wrapper->addParamAttr(i, Attribute::NoCapture);
  }
  BasicBlock *entry = BasicBlock::Create(context, "prologue", wrapper);
  BasicBlock *body = BasicBlock::Create(context, "body", wrapper);
  IRBuilder<> builder(entry);
  MDNode *invariant = MDNode::get(context, {});
  SmallVector<Value *, 8> values;
  for (Argument &arg : kernel.args()) {
    const KernelArgument &info = description.arguments[arg.getArgNo()];
    Value *slot = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), wrapper->getArg(kArgBlockParam), info.offset);
    if (arg.hasByValAttr()) {
      values.push_back(builder.CreateAddrSpaceCast(slot, arg.getType()));
      continue;
    }
    Type *loaded = info.kind == ArgKind::LocalPointer ? builder.getInt64Ty() : arg.getType();
    LoadInst *load = builder.CreateAlignedLoad(loaded, slot, Align(info.alignment));
    load->setMetadata(LLVMContext::MD_invariant_load, invariant);
    if (info.kind == ArgKind::Image) {
      // An image argument always points at its whole descriptor: loads of
      // its fields may be hoisted out of conditional code (the image
      // built-ins' writes sit under a bounds check).
      Type *i64 = builder.getInt64Ty();
      load->setMetadata(LLVMContext::MD_dereferenceable,
                        MDNode::get(context, ConstantAsMetadata::get(ConstantInt::get(i64, sizeof(lockstep_image_descriptor)))));
      load->setMetadata(LLVMContext::MD_align,
                        MDNode::get(context, ConstantAsMetadata::get(ConstantInt::get(i64, alignof(lockstep_image_descriptor)))));
      load->setMetadata(LLVMContext::MD_nonnull, MDNode::get(context, {}));
      load->setMetadata(LLVMContext::MD_noundef, MDNode::get(context, {}));
    }
    Value *value = load;
    if (info.kind == ArgKind::LocalPointer) {
      value = builder.CreateGEP(builder.getInt8Ty(), wrapper->getArg(kLocalMemoryParam), load);
      value = builder.CreateAddrSpaceCast(value, arg.getType());
    }
    if (description.argumentSizesOffset != 0 && isa<PointerType>(value->getType()) &&
        (info.kind == ArgKind::GlobalPointer || info.kind == ArgKind::ConstantPointer ||
         info.kind == ArgKind::LocalPointer)) {
      // ptr marker(ptr, i32 index), for BoundsCheckPass.
      FunctionCallee marker = M.getOrInsertFunction(
          kBufferMarker, FunctionType::get(ptr, {ptr, builder.getInt32Ty()}, false));
      cast<Function>(marker.getCallee())->setDoesNotThrow();
      cast<Function>(marker.getCallee())->setWillReturn();
      cast<Function>(marker.getCallee())->setDoesNotAccessMemory();
      Value *generic = builder.CreateAddrSpaceCast(value, ptr);
      CallInst *marked = builder.CreateCall(marker, {generic, builder.getInt32(arg.getArgNo())});
      // What a report calls it: "argument 2 'out' (__global float*)".
      const char *space = info.kind == ArgKind::GlobalPointer     ? "__global"
                          : info.kind == ArgKind::ConstantPointer ? "__constant"
                                                                  : "__local";
      std::string what = "argument " + std::to_string(arg.getArgNo()) +
                         (info.name.empty() ? std::string() : " '" + info.name + "'") + " (" + space + " " +
                         info.typeName + ")";
      marked->setMetadata(kBufferMarker, MDNode::get(context, MDString::get(context, what)));
      value = builder.CreateAddrSpaceCast(marked, value->getType());
    }
    values.push_back(value);
  }
  builder.CreateBr(body);
  builder.SetInsertPoint(body);
  CallInst *call = builder.CreateCall(&kernel, values);
  call->setCallingConv(kernel.getCallingConv());
  builder.CreateRetVoid();
  return wrapper;
}

void inlineInto(Function &wrapper, const SetVector<Function *> &required) {
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<CallBase *, 16> calls;
    for (Instruction &I : instructions(wrapper))
      if (auto *call = dyn_cast<CallBase>(&I))
        if (Function *callee = call->getCalledFunction();
            callee && !callee->isDeclaration() && required.contains(callee))
          calls.push_back(call);
    for (CallBase *call : calls) {
      InlineFunctionInfo info;
      changed |= InlineFunction(*call, info).isSuccess();
    }
  }
}

}  // namespace

void markUniformWorkGroups(Module &M, bool uniform) {
  for (Function &F : M) {
    if (!isKernel(F)) continue;
    if (uniform) F.addFnAttr(kUniformGroupsAttr);
    else F.removeFnAttr(kUniformGroupsAttr);
  }
}

std::vector<KernelDescription> describeKernels(const Module &M) {
  std::vector<KernelDescription> kernels;
  for (const Function &F : M)
    if (isKernel(F)) kernels.push_back(describe(F));
  return kernels;
}

PreservedAnalyses KernelWrapperPass::run(Module &M, ModuleAnalysisManager &) {
  separateKernelCalls(M);
  SetVector<Function *> required = functionsToInline(M);
  SmallVector<Function *, 8> kernels;
  for (Function &F : M)
    if (isKernel(F)) kernels.push_back(&F);
  for (Function *kernel : kernels) {
    required.insert(kernel);
    Function *wrapper = createWrapper(*kernel, describe(*kernel));
    inlineInto(*wrapper, required);
  }
  for (Function *kernel : kernels) {
    kernel->replaceAllUsesWith(PoisonValue::get(kernel->getType()));
    kernel->eraseFromParent();
  }
  return PreservedAnalyses::none();
}

}  // namespace lockstep::compiler

// PrintfLoweringPass: OpenCL C printf calls become calls of the runtime's
// formatter, `int __lockstep_printf(const char *format, const void *record,
// unsigned count)`, with the arguments written to a record on the stack.
// Passing them through a C variadic call would depend on how the host ABI
// passes vectors; the record says exactly what each argument is:
//
//   per argument: u8 kind (PrintfKind), u8 element bytes, u16 elements,
//                 u32 reserved, then the elements, padded to 8 bytes.
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MathExtras.h>

#include "Internal.h"
#include "Passes.h"
#include "PrintfRecord.h"

using namespace llvm;

namespace lockstep::compiler {
namespace {

struct ArgumentLayout {
  PrintfKind kind;
  unsigned elementBytes;
  unsigned elements;
};

ArgumentLayout layoutOf(Type *type, const DataLayout &layout) {
  unsigned elements = 1;
  if (auto *vector = dyn_cast<FixedVectorType>(type)) {
    elements = vector->getNumElements();
    type = vector->getElementType();
  }
  PrintfKind kind = type->isFloatingPointTy() ? PrintfKind::Float
                    : type->isPointerTy()     ? PrintfKind::Pointer
                                              : PrintfKind::Integer;
  unsigned bytes = type->isPointerTy() ? 8 : layout.getTypeStoreSize(type);
  return {kind, bytes, elements};
}

void lower(CallInst *call, FunctionCallee formatter) {
  Function &F = *call->getFunction();
  const DataLayout &layout = F.getParent()->getDataLayout();
  IRBuilder<> builder(call);
  unsigned count = call->arg_size() - 1;
  uint64_t size = 0;
  SmallVector<std::pair<uint64_t, ArgumentLayout>, 8> places;
  for (unsigned i = 1; i <= count; ++i) {
    ArgumentLayout argument = layoutOf(call->getArgOperand(i)->getType(), layout);
    places.push_back({size, argument});
    size += sizeof(PrintfArgumentHeader) + alignTo(argument.elementBytes * argument.elements, 8);
  }
  IRBuilder<> entry(&F.getEntryBlock(), F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *record = entry.CreateAlloca(ArrayType::get(builder.getInt8Ty(), std::max<uint64_t>(size, 8)));
  record->setAlignment(Align(16));
  for (unsigned i = 1; i <= count; ++i) {
    auto [offset, argument] = places[i - 1];
    uint64_t header = uint64_t(argument.kind) | uint64_t(argument.elementBytes) << 8 |
                      uint64_t(argument.elements) << 16;
    builder.CreateStore(builder.getInt64(header),
                        builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), record, offset));
    Value *value = call->getArgOperand(i);
    if (value->getType()->isPointerTy()) value = builder.CreatePtrToInt(value, builder.getInt64Ty());
    builder.CreateAlignedStore(value,
                               builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), record, offset + 8),
                               Align(8));
  }
  Value *format = builder.CreateAddrSpaceCast(call->getArgOperand(0), builder.getPtrTy());
  CallInst *replacement = builder.CreateCall(formatter, {format, record, builder.getInt32(count)});
  call->replaceAllUsesWith(replacement);
  call->eraseFromParent();
}

}  // namespace

PreservedAnalyses PrintfLoweringPass::run(Module &M, ModuleAnalysisManager &) {
  Function *printf = M.getFunction("printf");
  if (!printf) return PreservedAnalyses::all();
  LLVMContext &context = M.getContext();
  FunctionCallee formatter = M.getOrInsertFunction(
      kPrintfSymbol, FunctionType::get(Type::getInt32Ty(context),
                                       {PointerType::get(context, 0), PointerType::get(context, 0),
                                        Type::getInt32Ty(context)},
                                       false));
  SmallVector<CallInst *, 8> calls;
  for (User *user : printf->users())
    if (auto *call = dyn_cast<CallInst>(user); call && call->getCalledFunction() == printf)
      calls.push_back(call);
  for (CallInst *call : calls) lower(call, formatter);
  return PreservedAnalyses::none();
}

}  // namespace lockstep::compiler

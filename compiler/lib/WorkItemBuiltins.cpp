// WorkItemBuiltinsPass: the work-item functions of OpenCL C (get_global_id,
// get_local_size, ...) become reads of the group's GroupInfo. Uniform answers
// with a constant dimension are computed once in the prologue; get_local_id
// becomes a placeholder that WorkGroupLoopsPass turns into the induction
// variables of the work-item loops.
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include "Analysis/OpenCLNames.h"
#include "Internal.h"
#include "Passes.h"

using namespace llvm;

namespace lockstep::compiler {

StructType *groupInfoType(LLVMContext &context) {
  if (auto *type = StructType::getTypeByName(context, "lockstep.GroupInfo")) return type;
  Type *i64 = Type::getInt64Ty(context), *i32 = Type::getInt32Ty(context);
  Type *dims = ArrayType::get(i64, 3);
  Type *ptr = PointerType::get(context, 0);
  return StructType::create(context,
                            {dims, dims, dims, dims, dims, dims, i32, i32, ptr, i64, ptr, ptr, ptr, i64, ptr, ptr},
                            "lockstep.GroupInfo");
}

Value *loadGroupInfo(IRBuilderBase &builder, Value *groupInfo, unsigned field, unsigned index) {
  // A work-group function whose groups all have the required size knows it.
  if (field == kLocalSize || field == kEnqueuedLocalSize) {
    Function *F = builder.GetInsertBlock() ? builder.GetInsertBlock()->getParent() : nullptr;
    if (F && F->hasFnAttribute(kFixedLocalSizeAttr)) {
      SmallVector<StringRef, 3> sizes;
      F->getFnAttribute(kFixedLocalSizeAttr).getValueAsString().split(sizes, ',');
      uint64_t size = 0;
      if (sizes.size() == 3 && index < 3 && !sizes[index].getAsInteger(10, size))
        return builder.getInt64(size);
    }
  }
  StructType *type = groupInfoType(builder.getContext());
  Type *fieldType = type->getElementType(field);
  Type *valueType = fieldType->isArrayTy() ? fieldType->getArrayElementType() : fieldType;
  // One read of a field per block: the work-item loops' sizes and the
  // kernel's get_local_size are then one value, which ScalarEvolution sees
  // as such (WorkItemLoopFlatten.cpp matches `ly * get_local_size(0) + lx`
  // against the loops' count).
  if (BasicBlock *block = builder.GetInsertBlock()) {
    const DataLayout &layout = block->getModule()->getDataLayout();
    uint64_t wanted = layout.getStructLayout(type)->getElementOffset(field) +
                      (fieldType->isArrayTy() ? index * layout.getTypeAllocSize(valueType) : 0);
    for (Instruction &I : make_range(block->begin(), builder.GetInsertPoint())) {
      auto *read = dyn_cast<LoadInst>(&I);
      if (!read || !read->isSimple() || read->getType() != valueType ||
          !read->getMetadata(LLVMContext::MD_invariant_load))
        continue;
      APInt offset(layout.getIndexTypeSizeInBits(read->getPointerOperandType()), 0);
      if (read->getPointerOperand()->stripAndAccumulateConstantOffsets(layout, offset, false) == groupInfo &&
          offset == wanted)
        return read;
    }
  }
  Value *address = builder.CreateStructGEP(type, groupInfo, field);
  if (fieldType->isArrayTy()) address = builder.CreateConstInBoundsGEP2_32(fieldType, address, 0, index);
  LoadInst *load = builder.CreateLoad(valueType, address);
  load->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(builder.getContext(), {}));
  return load;
}

namespace {

using Query = WorkItemQuery;
Query classify(StringRef name) { return workItemQuery(name); }

class Lowering {
 public:
  explicit Lowering(Function &F)
      : F(F), prologue(F.getEntryBlock().getTerminator()), groupInfo(F.getArg(kGroupInfoParam)) {
    Module &M = *F.getParent();
    LLVMContext &context = M.getContext();
    FunctionCallee callee = M.getOrInsertFunction(
        kLocalIdPlaceholder, FunctionType::get(Type::getInt64Ty(context), {Type::getInt32Ty(context)}, false));
    localIdFunction = cast<Function>(callee.getCallee());
    localIdFunction->setDoesNotAccessMemory();
    localIdFunction->setDoesNotThrow();
    localIdFunction->setWillReturn();
    subGroupSize = std::max<uint64_t>(functionAttrNumber(F, kSubGroupSizeAttr), 1);
  }

  void run() {
    SmallVector<std::pair<CallInst *, Query>, 16> calls;
    for (Instruction &I : instructions(F))
      if (auto *call = dyn_cast<CallInst>(&I))
        if (Function *callee = call->getCalledFunction())
          if (Query query = classify(callee->getName()); query != Query::None)
            calls.push_back({call, query});
    for (auto [call, query] : calls) {
      IRBuilder<> builder(call);
      Value *value = lower(builder, query, call->arg_size() ? call->getArgOperand(0) : nullptr);
      value = builder.CreateZExtOrTrunc(value, call->getType());
      call->replaceAllUsesWith(value);
      call->eraseFromParent();
    }
  }

 private:
  // GroupInfo field `field`, dimension `dim`; out of range dimensions give
  // `outside` as the spec requires.
  Value *perDimension(IRBuilder<> &builder, unsigned field, Value *dim, uint64_t outside) {
    if (auto *constant = dyn_cast<ConstantInt>(dim)) {
      uint64_t d = constant->getZExtValue();
      if (d >= 3) return builder.getInt64(outside);
      return uniform(field, d);
    }
    Value *inRange = builder.CreateICmpULT(dim, builder.getInt32(3));
    Value *result = builder.getInt64(outside);
    for (unsigned d = 0; d < 3; ++d)
      result = builder.CreateSelect(builder.CreateICmpEQ(dim, builder.getInt32(d)), uniform(field, d), result);
    return builder.CreateSelect(inRange, result, builder.getInt64(outside));
  }

  Value *uniform(unsigned field, unsigned d) {
    Value *&slot = cache[field * 3 + d];
    if (!slot) {
      IRBuilder<> builder(prologue);
      slot = loadGroupInfo(builder, groupInfo, field, d);
    }
    return slot;
  }

  // group id * enqueued size + offset: the global id of local id 0.
  Value *globalBase(IRBuilder<> &builder, unsigned d) {
    Value *&slot = cache[100 + d];
    if (!slot) {
      IRBuilder<> at(prologue);
      slot = at.CreateAdd(at.CreateMul(uniform(kGroupId, d), uniform(kEnqueuedLocalSize, d)),
                          uniform(kGlobalOffset, d), "global.base");
    }
    return slot;
  }

  // Below kMaxWorkGroupSize, which the work-group loops may rely on before
  // the placeholder becomes their induction variable.
  Value *localId(IRBuilder<> &builder, Value *dim) {
    CallInst *call = builder.CreateCall(localIdFunction, {builder.CreateZExtOrTrunc(dim, builder.getInt32Ty())});
    call->setMetadata(LLVMContext::MD_range,
                      MDBuilder(builder.getContext()).createRange(APInt(64, 0), APInt(64, kMaxWorkGroupSize)));
    return call;
  }

  Value *localLinearId(IRBuilder<> &builder) {
    Value *id = localId(builder, builder.getInt32(2));
    id = builder.CreateAdd(builder.CreateMul(id, uniform(kLocalSize, 1)), localId(builder, builder.getInt32(1)));
    return builder.CreateAdd(builder.CreateMul(id, uniform(kLocalSize, 0)), localId(builder, builder.getInt32(0)));
  }

  // Work-items in the group (kLocalSize) or in a full group (kEnqueuedLocalSize).
  Value *count(unsigned field) {
    Value *&slot = cache[200 + field];
    if (!slot) {
      IRBuilder<> at(prologue);
      slot = at.CreateMul(at.CreateMul(uniform(field, 0), uniform(field, 1)), uniform(field, 2));
    }
    return slot;
  }

  Value *inRange(IRBuilder<> &builder, Value *pointer, unsigned baseField, unsigned sizeField) {
    Value *address = builder.CreatePtrToInt(pointer, builder.getInt64Ty());
    Value *base = builder.CreatePtrToInt(uniform(baseField, 0), builder.getInt64Ty());
    Value *size = uniform(sizeField, 0);
    return builder.CreateICmpULT(builder.CreateSub(address, base), size);
  }

  Value *lower(IRBuilder<> &builder, Query query, Value *dim) {
    switch (query) {
      case Query::WorkDim: return uniform(kWorkDim, 0);
      case Query::GlobalSize: return perDimension(builder, kGlobalSize, dim, 1);
      case Query::LocalSize: return perDimension(builder, kLocalSize, dim, 1);
      case Query::EnqueuedLocalSize: return perDimension(builder, kEnqueuedLocalSize, dim, 1);
      case Query::NumGroups: return perDimension(builder, kNumGroups, dim, 1);
      case Query::GroupId: return perDimension(builder, kGroupId, dim, 0);
      case Query::GlobalOffset: return perDimension(builder, kGlobalOffset, dim, 0);
      case Query::LocalId: return localId(builder, dim);
      case Query::GlobalId: {
        if (auto *constant = dyn_cast<ConstantInt>(dim)) {
          uint64_t d = constant->getZExtValue();
          if (d >= 3) return builder.getInt64(0);
          return builder.CreateAdd(globalBase(builder, d), localId(builder, dim), "global.id");
        }
        Value *base = builder.getInt64(0);
        for (unsigned d = 0; d < 3; ++d)
          base = builder.CreateSelect(builder.CreateICmpEQ(dim, builder.getInt32(d)),
                                      globalBase(builder, d), base);
        return builder.CreateAdd(base, localId(builder, dim));
      }
      case Query::LocalLinearId: return localLinearId(builder);
      case Query::SubGroupId: return builder.CreateUDiv(localLinearId(builder), builder.getInt64(subGroupSize));
      case Query::SubGroupLocalId:
        return builder.CreateURem(localLinearId(builder), builder.getInt64(subGroupSize));
      case Query::SubGroupSize: {
        // The last sub-group of a group whose size isn't a multiple is smaller.
        Value *first = builder.CreateMul(builder.CreateUDiv(localLinearId(builder), builder.getInt64(subGroupSize)),
                                         builder.getInt64(subGroupSize));
        return builder.CreateBinaryIntrinsic(Intrinsic::umin, builder.getInt64(subGroupSize),
                                             builder.CreateSub(count(kLocalSize), first));
      }
      case Query::MaxSubGroupSize:
        return builder.CreateBinaryIntrinsic(Intrinsic::umin, builder.getInt64(subGroupSize), count(kEnqueuedLocalSize));
      case Query::NumSubGroups:
        return builder.CreateUDiv(builder.CreateAdd(count(kLocalSize), builder.getInt64(subGroupSize - 1)),
                                  builder.getInt64(subGroupSize));
      case Query::EnqueuedNumSubGroups:
        return builder.CreateUDiv(builder.CreateAdd(count(kEnqueuedLocalSize), builder.getInt64(subGroupSize - 1)),
                                  builder.getInt64(subGroupSize));
      case Query::GlobalLinearId: {
        auto relative = [&](unsigned d) {
          return builder.CreateAdd(builder.CreateMul(uniform(kGroupId, d), uniform(kEnqueuedLocalSize, d)),
                                   localId(builder, builder.getInt32(d)));
        };
        Value *id = relative(2);
        id = builder.CreateAdd(builder.CreateMul(id, uniform(kGlobalSize, 1)), relative(1));
        return builder.CreateAdd(builder.CreateMul(id, uniform(kGlobalSize, 0)), relative(0));
      }
      case Query::IsLocalPointer: return inRange(builder, dim, kLocalMemory, kLocalMemorySize);
      case Query::IsPrivatePointer: {
        Value *address = builder.CreatePtrToInt(dim, builder.getInt64Ty());
        Value *low = builder.CreatePtrToInt(uniform(kStackLow, 0), builder.getInt64Ty());
        Value *high = builder.CreatePtrToInt(uniform(kStackHigh, 0), builder.getInt64Ty());
        Value *onStack = builder.CreateAnd(builder.CreateICmpUGE(address, low), builder.CreateICmpULT(address, high));
        return builder.CreateOr(onStack, inRange(builder, dim, kContextMemory, kContextMemorySize));
      }
      case Query::None: break;
    }
    llvm_unreachable("not a work-item query");
  }

  Function &F;
  Instruction *prologue;
  Value *groupInfo;
  Function *localIdFunction;
  uint64_t subGroupSize = 1;
  DenseMap<unsigned, Value *> cache;
};

}  // namespace

PreservedAnalyses WorkItemBuiltinsPass::run(Module &M, ModuleAnalysisManager &) {
  for (Function &F : M)
    if (!F.isDeclaration() && F.hasFnAttribute(kKernelNameAttr)) Lowering(F).run();
  return PreservedAnalyses::none();
}

}  // namespace lockstep::compiler

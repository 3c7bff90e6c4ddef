// Two rewrites of memory accesses that make the vectorized work-item loops
// cheaper.
//
// FlattenDivRemIndicesPass, before the work-group passes: `tile[i / W][i % W]`
// (a 2-D __local tile filled through a linear index, as GPU code does) is
// `tile[0][i]`, but no LLVM pass sees it once the quotient and the remainder
// are extended to 64 bits for the address. The vectorizer then takes the
// access for a scatter; flattened, it is a consecutive store.
//
// MaskedMemoryGuardsPass, run after -O3: the loop vectorizer turns a
// conditional access that is not consecutive across work-items into a masked
// gather or scatter. Those cost tens of cycles whatever the mask, and the
// mask of a work-item condition is often all-false (`if (gid == 0)`, a
// border test, a rarely-taken branch). Each run of gathers and scatters under
// one mask now sits behind a test of that mask, and a gather or scatter whose
// lanes all use one address (a work-item condition on a uniform pointer)
// becomes a scalar load or store:
//
//   gather(splat p, M, pass)  ->  select(M, splat(load p), pass)
//   scatter(v, splat p, M)    ->  store v[last active lane of M], p
//
// (LangRef: a scatter's overlapping lanes are stored in lane order, so the
// last active lane's value is the one memory keeps.)
//
// The same pass gives gathers and scatters through a uint index 32-bit
// indices: `tree[stride * (2 * lid + 1) - 1]` indexes with a zero-extended
// uint, which x86 can only gather with 64-bit indices, two instructions per
// 16 lanes. An index into a group's __local memory (at most the device's
// local memory size) is below 2^31 in any access that is in bounds, so it is
// also the sign extension of its 32 bits, which one vpgatherdd takes; other
// memory is addressed from a base moved up by 2^31 elements.
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include "Internal.h"

using namespace llvm;

namespace lockstep::compiler {
namespace {

// A masked gather or scatter whose mask is not a constant: the mask.
Value *guardableMask(const Instruction &I) {
  auto *call = dyn_cast<IntrinsicInst>(&I);
  if (!call) return nullptr;
  Value *mask = nullptr;
  if (call->getIntrinsicID() == Intrinsic::masked_gather) mask = call->getArgOperand(2);
  else if (call->getIntrinsicID() == Intrinsic::masked_scatter) mask = call->getArgOperand(3);
  if (!mask || isa<Constant>(mask)) return nullptr;
  return mask;
}

// Computes a value and touches no memory: may move into the guarded block
// (and be recomputed on the skipping path).
bool isPure(const Instruction &I) {
  return !isa<PHINode>(I) && !I.isTerminator() && !I.mayHaveSideEffects() &&
         !I.mayReadFromMemory() && !isa<AllocaInst>(I);
}

// Replaces a gather or scatter whose lanes all use one address by a scalar
// access (and erases it); leaves any other alone.
void scalarize(IntrinsicInst *call) {
  bool gather = call->getIntrinsicID() == Intrinsic::masked_gather;
  Value *pointers = call->getArgOperand(gather ? 0 : 1);
  Value *pointer = getSplatValue(pointers);
  if (!pointer) return;
  Align align = cast<ConstantInt>(call->getArgOperand(gather ? 1 : 2))->getAlignValue();
  Value *mask = call->getArgOperand(gather ? 2 : 3);
  auto *maskType = cast<FixedVectorType>(mask->getType());
  IRBuilder<> builder(call);
  if (gather) {
    auto *type = cast<FixedVectorType>(call->getType());
    LoadInst *load = builder.CreateAlignedLoad(type->getElementType(), pointer, align);
    load->copyMetadata(*call, {LLVMContext::MD_tbaa, LLVMContext::MD_alias_scope,
                               LLVMContext::MD_noalias});
    Value *all = builder.CreateVectorSplat(type->getElementCount(), load);
    Value *passThrough = call->getArgOperand(3);
    Value *result =
        isa<PoisonValue>(passThrough) ? all : builder.CreateSelect(mask, all, passThrough);
    call->replaceAllUsesWith(result);
  } else {
    unsigned lanes = maskType->getNumElements();
    Value *bits = builder.CreateBitCast(mask, builder.getIntNTy(lanes));
    Value *leading = builder.CreateBinaryIntrinsic(Intrinsic::ctlz, bits, builder.getTrue());
    Value *lane = builder.CreateSub(ConstantInt::get(bits->getType(), lanes - 1), leading);
    Value *value = builder.CreateExtractElement(call->getArgOperand(0), lane);
    StoreInst *store = builder.CreateAlignedStore(value, pointer, align);
    store->copyMetadata(*call, {LLVMContext::MD_tbaa, LLVMContext::MD_alias_scope,
                                LLVMContext::MD_noalias});
  }
  call->eraseFromParent();
}

// Guards the first run of gathers and scatters under one mask in `block`
// that starts at or after `from`. Returns the block to go on with (the rest
// of `block` after the run), or null when the block has none left.
BasicBlock *guardFirstRun(BasicBlock *block, BasicBlock::iterator from) {
  // The run: from the first guardable access to the last one with the same
  // mask that only pure instructions separate from it.
  Instruction *first = nullptr;
  Value *mask = nullptr;
  for (auto it = from; it != block->end(); ++it)
    if ((mask = guardableMask(*it))) {
      first = &*it;
      break;
    }
  if (!first) return nullptr;
  Instruction *last = first;
  for (auto it = std::next(first->getIterator()); it != block->end(); ++it) {
    if (guardableMask(*it) == mask) last = &*it;
    else if (!isPure(*it)) break;
  }
  SmallVector<Instruction *, 16> run;
  for (auto it = first->getIterator();; ++it) {
    run.push_back(&*it);
    if (&*it == last) break;
  }
  // Pure instructions that depend on nothing in the run stay before it.
  SmallPtrSet<Instruction *, 16> inRun;
  SmallVector<Instruction *, 16> guarded;
  for (Instruction *I : run) {
    bool dependent = guardableMask(*I) != nullptr;
    for (Value *operand : I->operands())
      if (auto *def = dyn_cast<Instruction>(operand); def && inRun.count(def)) dependent = true;
    if (dependent) {
      inRun.insert(I);
      guarded.push_back(I);
    } else {
      I->moveBefore(first);
    }
  }

  // block: ... br any(mask), then, skip;  then: run;  skip: recomputed values;
  // join: phis, the rest.
  LLVMContext &context = block->getContext();
  Function *F = block->getParent();
  BasicBlock *join = block->splitBasicBlock(last->getNextNode(), block->getName() + ".joined");
  BasicBlock *then = BasicBlock::Create(context, "mask.any", F, join);
  BasicBlock *skip = BasicBlock::Create(context, "mask.none", F, join);
  block->getTerminator()->eraseFromParent();
  IRBuilder<> builder(block);
  Value *any = builder.CreateOrReduce(mask);
  builder.CreateCondBr(any, then, skip);
  IRBuilder<>(then).CreateBr(join);
  IRBuilder<>(skip).CreateBr(join);
  for (Instruction *I : guarded) I->moveBefore(then->getTerminator());

  // With no active lane, a gather yields its pass-through value and a
  // scatter does nothing; the pure instructions are recomputed from those.
  // Only what is used after the run is recomputed, through phis at join.
  DenseMap<Instruction *, Value *> skipped;
  std::function<Value *(Value *)> valueWhenSkipped = [&](Value *V) -> Value * {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !inRun.count(I)) return V;
    if (Value *known = skipped.lookup(I)) return known;
    Value *result;
    if (guardableMask(*I)) {
      result = I->getType()->isVoidTy() ? nullptr : cast<CallInst>(I)->getArgOperand(3);
    } else {
      Instruction *clone = I->clone();
      for (Use &operand : clone->operands()) operand.set(valueWhenSkipped(operand.get()));
      clone->insertBefore(skip->getTerminator());
      result = clone;
    }
    skipped[I] = result;
    return result;
  };
  for (Instruction *I : guarded) {
    if (I->getType()->isVoidTy()) continue;
    SmallVector<Use *, 8> outside;
    for (Use &use : I->uses())
      if (cast<Instruction>(use.getUser())->getParent() != then) outside.push_back(&use);
    if (outside.empty()) continue;
    PHINode *phi = PHINode::Create(I->getType(), 2, I->getName() + ".guarded");
    phi->insertBefore(join->begin());
    phi->addIncoming(I, then);
    phi->addIncoming(valueWhenSkipped(I), skip);
    for (Use *use : outside) use->set(phi);
  }
  for (Instruction *I : guarded)
    if (guardableMask(*I)) scalarize(cast<IntrinsicInst>(I));
  return join;
}

// X, if `index` is X / divisor (or its extension) and `pair` X % divisor
// (extended alike), signed or unsigned alike.
Value *divRemSource(Value *index, Value *pair, uint64_t divisor) {
  auto strip = [](Value *V, unsigned &ext) {
    if (auto *cast = dyn_cast<CastInst>(V); cast && (isa<SExtInst>(cast) || isa<ZExtInst>(cast))) {
      ext = cast->getOpcode();
      return cast->getOperand(0);
    }
    ext = 0;
    return V;
  };
  unsigned ext1, ext2;
  auto *quotient = dyn_cast<BinaryOperator>(strip(index, ext1));
  auto *remainder = dyn_cast<BinaryOperator>(strip(pair, ext2));
  if (!quotient || !remainder || ext1 != ext2) return nullptr;
  bool isSigned = quotient->getOpcode() == Instruction::SDiv;
  if (!(isSigned ? remainder->getOpcode() == Instruction::SRem
                 : quotient->getOpcode() == Instruction::UDiv && remainder->getOpcode() == Instruction::URem))
    return nullptr;
  // A signed pair widened by zext (or the reverse) is not the same number.
  if (ext1 && (ext1 == Instruction::SExt) != isSigned) return nullptr;
  Value *X = quotient->getOperand(0);
  if (remainder->getOperand(0) != X) return nullptr;
  auto *c1 = dyn_cast<ConstantInt>(quotient->getOperand(1));
  auto *c2 = dyn_cast<ConstantInt>(remainder->getOperand(1));
  if (!c1 || !c2 || c1->getZExtValue() != divisor || c2->getZExtValue() != divisor) return nullptr;
  return X;
}

// Rewrites `gep S, p, i0, ..., X / N, X % N, rest` where the second of the
// pair indexes an [N x T]: (X / N) * N + X % N == X in C's division, signed
// or not, so it is `gep T, (gep S, p, i0, ...), X, rest`.
bool flattenGep(GetElementPtrInst *gep) {
  SmallVector<Value *, 8> indices(gep->indices());
  // What indices[k + 1] indexes into; indices[k] steps over such objects.
  Type *indexed = gep->getSourceElementType();
  for (size_t k = 0; k + 1 < indices.size(); ++k) {
    auto *array = dyn_cast<ArrayType>(indexed);
    if (!array) return false;  // a struct or a vector: the walk stops here
    if (Value *X = divRemSource(indices[k], indices[k + 1], array->getNumElements())) {
      IRBuilder<> builder(gep);
      Value *prefix = gep->getPointerOperand();
      if (k > 0)
        prefix = builder.CreateGEP(gep->getSourceElementType(), prefix, ArrayRef(indices).take_front(k), "",
                                   gep->isInBounds());
      Type *indexType = indices[k + 1]->getType();
      Value *flat = X;
      if (X->getType() != indexType)
        flat = isa<SExtInst>(indices[k + 1]) ? builder.CreateSExt(X, indexType) : builder.CreateZExt(X, indexType);
      SmallVector<Value *, 8> rest{flat};
      rest.append(indices.begin() + k + 2, indices.end());
      Value *flattened = builder.CreateGEP(array->getElementType(), prefix, rest, "", gep->isInBounds());
      flattened->takeName(gep);
      gep->replaceAllUsesWith(flattened);
      gep->eraseFromParent();
      return true;
    }
    indexed = array->getElementType();
  }
  return false;
}

}  // namespace

PreservedAnalyses FlattenDivRemIndicesPass::run(Module &M, ModuleAnalysisManager &) {
  bool changed = false;
  for (Function &F : M) {
    SmallVector<GetElementPtrInst *, 16> geps;
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (auto *gep = dyn_cast<GetElementPtrInst>(&I)) geps.push_back(gep);
    for (GetElementPtrInst *gep : geps) changed |= flattenGep(gep);
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

// A gather or scatter through `gep T, p, zext <N x i32> i` (a uint index)
// gets 32-bit indices. Into __local memory: `sext i` (see above). Elsewhere
// the index may be 2^31 or more, but every 32-bit value is 2^31 plus a
// signed one: `gep T, (gep T, p, 2^31), sext (i xor 2^31)` is the same
// address, with one more xor and one gather instruction fewer.
bool narrowGatherIndices(Function &F) {
  bool changed = false;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      auto *intrinsic = dyn_cast<IntrinsicInst>(&I);
      if (!intrinsic) continue;
      unsigned pointerOperand;
      if (intrinsic->getIntrinsicID() == Intrinsic::masked_gather) pointerOperand = 0;
      else if (intrinsic->getIntrinsicID() == Intrinsic::masked_scatter) pointerOperand = 1;
      else continue;
      auto *gep = dyn_cast<GetElementPtrInst>(intrinsic->getArgOperand(pointerOperand));
      if (!gep || gep->getNumIndices() != 1 || gep->getPointerOperandType()->isVectorTy()) continue;
      auto *extension = dyn_cast<ZExtInst>(gep->getOperand(1));
      if (!extension || extension->getSrcTy()->getScalarSizeInBits() != 32) continue;
      IRBuilder<> builder(intrinsic);
      Value *index = extension->getOperand(0), *base = gep->getPointerOperand();
      bool local = gep->getAddressSpace() == kLocalAddressSpace;
      if (!local) {
        base = builder.CreateGEP(gep->getSourceElementType(), base, builder.getInt64(int64_t{1} << 31), "rebased");
        index = builder.CreateXor(index, ConstantInt::get(index->getType(), uint64_t{1} << 31));
      }
      Value *narrow = builder.CreateGEP(gep->getSourceElementType(), base,
                                        builder.CreateSExt(index, extension->getType()), gep->getName() + ".narrow",
                                        local && gep->isInBounds());
      intrinsic->setArgOperand(pointerOperand, narrow);
      if (gep->use_empty()) gep->eraseFromParent();
      if (extension->use_empty()) extension->eraseFromParent();
      changed = true;
    }
  return changed;
}

PreservedAnalyses MaskedMemoryGuardsPass::run(Module &M, ModuleAnalysisManager &) {
  bool changed = false;
  for (Function &F : M) {
    SmallVector<BasicBlock *, 32> blocks;
    for (BasicBlock &BB : F) blocks.push_back(&BB);
    for (BasicBlock *BB : blocks) {
      BasicBlock::iterator from = BB->begin();
      while (BasicBlock *rest = guardFirstRun(BB, from)) {
        changed = true;
        BB = rest;
        from = rest->getFirstNonPHIIt();
      }
    }
    // After the guards moved the gathers: the new address must be in the
    // gather's block, where instruction selection sees base and indices.
    changed |= narrowGatherIndices(F);
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

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
//
// A gather from global memory whose active lanes lie in at most two runs of
// consecutive elements (a 2-D tile's halo, filled row by row through a
// linear index, gathers the end of one row and the start of the next) runs
// as two masked vector loads when a check of every lane finds it so (on AMD
// Zen, whose gathers cost a load per lane).
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <functional>

#include "Internal.h"
#include "MemoryAccess/AccessPatterns.h"
#include "Passes.h"
#include "Statistics.h"
#include "TargetInfo.h"

#define DEBUG_TYPE "lockstep-masked-memory-guards"

using namespace llvm;

LOCKSTEP_STATISTIC(NumRunsGuarded, "Runs of gathers and scatters put behind a test of their mask");
LOCKSTEP_STATISTIC(NumScalarized, "Gathers and scatters of one address made scalar accesses");
LOCKSTEP_STATISTIC(NumGatherRunsSplit, "Gathers given two masked loads for lanes in two runs");
LOCKSTEP_STATISTIC(NumIndicesNarrowed, "Gathers and scatters given 32-bit indices");

static cl::opt<unsigned> GatherRunsMinLanes(
    "lockstep-gather-runs-min-lanes", cl::init(8), cl::Hidden,
    cl::desc("Fewest lanes of a gather that MaskedMemoryGuardsPass splits into two runs of masked loads"));

namespace lockstep::compiler {
namespace {

// A masked gather or scatter whose mask is not a constant: the mask.
Value *guardableMask(const Instruction &I) {
  auto *call = dyn_cast<IntrinsicInst>(&I);
  if (!call) return nullptr;
  Value *mask = nullptr;
  if (isGather(*call)) mask = call->getArgOperand(2);
  else if (isScatter(*call)) mask = call->getArgOperand(3);
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
  MaskedAccess access(call);
  Value *pointer = getSplatValue(access.pointers);
  if (!pointer) return;
  LLVM_DEBUG(dbgs() << "one address: " << *call << "\n");
  ++NumScalarized;
  Value *mask = access.mask;
  Align align = access.align;
  auto *maskType = cast<FixedVectorType>(mask->getType());
  IRBuilder<> builder(call);
  if (access.gather) {
    FixedVectorType *type = access.type;
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
  LLVM_DEBUG(dbgs() << "guarding a run of " << run.size() << " instructions in " << block->getName() << " under "
                    << *mask << "\n");
  ++NumRunsGuarded;
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

// A gather of N 32-bit lanes from global memory whose active lanes fall in
// at most two runs of consecutive elements, the first starting at lane 0's
// address and the second ending at lane N-1's: the 2-D tile of a stencil or
// a convolution, filled row by row through a linear work-item index, gathers
// one row's end and the next row's start. A gather costs a load per lane
// (about 25 cycles for 16 lanes on the machines measured); two masked
// vector loads cost two. Each lane is checked to be exactly where its run
// puts it, so whatever the indices, a lane is loaded from its own address;
// when some active lane is in neither run, the gather runs as before.
// Only on AMD's Zen cores: Intel's gather faster than the check and the two
// loads (the stencil ran 7% slower with them on 16 Xeon cores).
bool splitGatherRuns(IntrinsicInst *gather) {
  if (!isZen(*gather->getFunction())) return false;
  auto *type = dyn_cast<FixedVectorType>(gather->getType());
  std::optional<LaneIndex> lanesAt = laneIndex(gather->getArgOperand(0), gather->getModule()->getDataLayout());
  if (!type || type->getNumElements() < GatherRunsMinLanes || type->getScalarSizeInBits() != 32 || !lanesAt ||
      lanesAt->gep->getAddressSpace() == kLocalAddressSpace ||
      lanesAt->gep->getSourceElementType()->getPrimitiveSizeInBits() != 32)
    return false;
  LLVM_DEBUG(dbgs() << "two runs, if the lanes are so: " << *gather << "\n");
  ++NumGatherRunsSplit;
  Value *index = lanesAt->narrow;
  auto *indexType = cast<FixedVectorType>(index->getType());
  unsigned lanes = type->getNumElements();
  IRBuilder<> builder(gather);
  SmallVector<Constant *, 16> fromFirst, fromLast;
  for (unsigned lane = 0; lane < lanes; ++lane) {
    fromFirst.push_back(ConstantInt::get(indexType->getElementType(), lane));
    fromLast.push_back(ConstantInt::get(indexType->getElementType(), int64_t(lane) - int64_t(lanes - 1), true));
  }
  Value *first = builder.CreateExtractElement(index, uint64_t{0});
  Value *last = builder.CreateExtractElement(index, uint64_t{lanes - 1});
  Value *firstSplat = builder.CreateVectorSplat(lanes, first), *lastSplat = builder.CreateVectorSplat(lanes, last);
  Value *inFirst = builder.CreateICmpEQ(builder.CreateSub(index, firstSplat), ConstantVector::get(fromFirst));
  Value *inLast = builder.CreateICmpEQ(builder.CreateSub(index, lastSplat), ConstantVector::get(fromLast));
  // A widened index must not wrap within its run.
  if (lanesAt->noWrap) {
    inFirst = builder.CreateAnd(inFirst, builder.CreateICmp(*lanesAt->noWrap, index, firstSplat));
    inLast = builder.CreateAnd(inLast, builder.CreateICmp(ICmpInst::getSwappedPredicate(*lanesAt->noWrap), index,
                                                          lastSplat));
  }
  Value *mask = gather->getArgOperand(2);
  Value *firstRun = builder.CreateAnd(mask, inFirst);
  Value *rest = builder.CreateAnd(mask, builder.CreateNot(inFirst));
  Value *lastRun = builder.CreateAnd(rest, inLast);
  Value *neither = builder.CreateAnd(rest, builder.CreateNot(inLast));
  Value *runs = builder.CreateICmpEQ(builder.CreateBitCast(neither, builder.getIntNTy(lanes)),
                                     builder.getIntN(lanes, 0), "gather.runs");
  Instruction *thenAt = nullptr, *elseAt = nullptr;
  SplitBlockAndInsertIfThenElse(runs, gather, &thenAt, &elseAt);
  BasicBlock *tail = gather->getParent();
  gather->moveBefore(elseAt);
  builder.SetInsertPoint(thenAt);
  Align align = cast<ConstantInt>(gather->getArgOperand(1))->getMaybeAlignValue().valueOrOne();
  Value *loaded = builder.CreateMaskedLoad(type, lanesAt->address(builder, first, 0), align, firstRun,
                                           gather->getArgOperand(3));
  loaded = builder.CreateMaskedLoad(type, lanesAt->address(builder, last, -int64_t(lanes - 1)), align, lastRun,
                                    loaded);
  builder.SetInsertPoint(&*tail->getFirstInsertionPt());
  PHINode *result = builder.CreatePHI(type, 2, gather->getName() + ".runs");
  gather->replaceAllUsesWith(result);
  result->addIncoming(loaded, thenAt->getParent());
  result->addIncoming(gather, elseAt->getParent());
  return true;
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
      ++NumIndicesNarrowed;
      changed = true;
    }
  return changed;
}

}  // namespace

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
    for (IntrinsicInst *gather : collect<IntrinsicInst>(F, isGather)) changed |= splitGatherRuns(gather);
    // After the guards moved the gathers: the new address must be in the
    // gather's block, where instruction selection sees base and indices.
    changed |= narrowGatherIndices(F);
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

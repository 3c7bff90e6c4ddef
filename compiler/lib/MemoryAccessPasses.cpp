// Rewrites of memory accesses that make the vectorized work-item loops
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
//
// A gather from global memory whose active lanes lie in at most two runs of
// consecutive elements (a 2-D tile's halo, filled row by row through a
// linear index, gathers the end of one row and the start of the next) runs
// as two masked vector loads when a check of every lane finds it so (on AMD
// Zen, whose gathers cost a load per lane).
//
// SpacedAccessesPass, after it (on AMD Zen): a gather or scatter whose
// active lanes are 1, 2, 4 or 8 elements apart, as a tree level's are, runs
// as that many masked vector loads and shuffles (or shuffles and masked
// stores) when a check of every lane finds it so.
//
// StridedRunPrefetchPass, last: a work-group runs its work-items one after
// another, so a grid-stride loop (`for (i = gid; i < n; i += global_size)`)
// reads, each round, one short run of local_size elements and then jumps
// global_size elements on; the rows of a 2-D group are short runs a row pitch
// apart. The hardware prefetchers follow long streams, not runs of a few
// lines at a large stride: such a loop waits on memory at every run (a
// histogram's rounds of 256 bytes, 64 KiB apart, ran at a third of the speed
// of a contiguous pass). A loop that reads a short run of consecutive
// elements each time round an outer loop, at an outer stride larger than the
// run, now prefetches the run it will read kRunsAhead outer iterations later,
// one prefetch per cache line, before it starts.
//
// StreamingStoresPass: a straight-line kernel's loop that only stores whole
// vectors to consecutive global addresses gets a copy with non-temporal
// stores, run for launches that store more than the caches keep when the
// stores are aligned (no read for ownership: a third less traffic for
// vector_add).
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Analysis/DomTreeUpdater.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/Module.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/LoopUnrollPass.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include "Internal.h"
#include "TargetInfo.h"

using namespace llvm;

namespace lockstep::compiler {
namespace {

constexpr unsigned kGlobalAddressSpace = 1, kConstantAddressSpace = 2;

// The instructions of type T in F that `keep` accepts, collected before a
// rewrite splits blocks or adds instructions.
template <typename T, typename Keep>
SmallVector<T *, 16> collect(Function &F, Keep keep) {
  SmallVector<T *, 16> found;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *typed = dyn_cast<T>(&I); typed && keep(*typed)) found.push_back(typed);
  return found;
}

bool isGather(const IntrinsicInst &call) { return call.getIntrinsicID() == Intrinsic::masked_gather; }
bool isScatter(const IntrinsicInst &call) { return call.getIntrinsicID() == Intrinsic::masked_scatter; }

// The operands of a masked gather or scatter, which the two intrinsics put
// in different places.
struct MaskedAccess {
  bool gather;
  unsigned pointerOperand;  // the vector of addresses
  Value *pointers;
  Value *mask;
  Align align;
  FixedVectorType *type;  // of the values loaded or stored

  explicit MaskedAccess(IntrinsicInst *call)
      : gather(isGather(*call)),
        pointerOperand(gather ? 0 : 1),
        pointers(call->getArgOperand(pointerOperand)),
        mask(call->getArgOperand(gather ? 2 : 3)),
        align(cast<ConstantInt>(call->getArgOperand(gather ? 1 : 2))->getMaybeAlignValue().valueOrOne()),
        type(cast<FixedVectorType>(gather ? call->getType() : call->getArgOperand(0)->getType())) {}
};

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
    for (GetElementPtrInst *gep : collect<GetElementPtrInst>(F, [](auto &) { return true; }))
      changed |= flattenGep(gep);
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

// The lanes of `gep T, base, index` (a scalar base, one vector index) as
// element positions: the index with its extension peeled off, and how the
// GEP widens it to its index width. Lanes at consecutive or evenly spaced
// narrow positions are so in the wide ones too only if the narrow values do
// not wrap around between them; `noWrap` compares a lane with an earlier
// one (`later >= earlier`, unsigned for a zero-extended index), and is empty
// for an index as wide as the GEP's.
struct LaneIndex {
  GetElementPtrInst *gep;
  Value *narrow;
  std::optional<ICmpInst::Predicate> noWrap;
  unsigned bits;  // the GEP's index width

  // The address of the element at `scalar` (a narrow position), or `delta`
  // elements from it.
  Value *address(IRBuilder<> &builder, Value *scalar, std::optional<int64_t> delta = std::nullopt) const {
    Type *wideType = builder.getIntNTy(bits);
    Value *wide = noWrap == ICmpInst::ICMP_UGE ? builder.CreateZExt(scalar, wideType)
                                               : builder.CreateSExtOrTrunc(scalar, wideType);
    if (delta) wide = builder.CreateAdd(wide, ConstantInt::get(wideType, *delta, true));
    return builder.CreateGEP(gep->getSourceElementType(), gep->getPointerOperand(), wide);
  }
};

std::optional<LaneIndex> laneIndex(Value *pointers, const DataLayout &layout) {
  auto *gep = dyn_cast<GetElementPtrInst>(pointers);
  if (!gep || gep->getNumIndices() != 1 || gep->getPointerOperandType()->isVectorTy() ||
      !gep->getOperand(1)->getType()->isVectorTy())
    return std::nullopt;
  LaneIndex lanes{gep, gep->getOperand(1), std::nullopt, layout.getIndexTypeSizeInBits(gep->getType())};
  if (isa<SExtInst>(lanes.narrow) || isa<ZExtInst>(lanes.narrow)) {
    lanes.noWrap = isa<SExtInst>(lanes.narrow) ? ICmpInst::ICMP_SGE : ICmpInst::ICMP_UGE;
    lanes.narrow = cast<CastInst>(lanes.narrow)->getOperand(0);
  } else if (lanes.narrow->getType()->getScalarSizeInBits() < lanes.bits) {
    lanes.noWrap = ICmpInst::ICMP_SGE;  // a GEP sign-extends a narrower index
  }
  if (lanes.narrow->getType()->getScalarSizeInBits() > lanes.bits) return std::nullopt;  // truncated
  return lanes;
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
  if (!type || type->getNumElements() < 8 || type->getScalarSizeInBits() != 32 || !lanesAt ||
      lanesAt->gep->getAddressSpace() == kLocalAddressSpace ||
      lanesAt->gep->getSourceElementType()->getPrimitiveSizeInBits() != 32)
    return false;
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

// A gather or scatter whose active lanes are evenly spaced, 1, 2, 4 or 8
// elements apart (spacing S), ascending: a tree reduction's or scan's level,
// `tree[stride * (2 * lid + 1) - 1]`, touches every other element of a span
// at its first level, every fourth at its second. Such an access is S
// masked vector loads or stores over the span, the mask of each holding the
// active lanes that fall in it, and S - 1 two-vector shuffles that pick the
// lanes out (a gather) or one shuffle per vector that spreads them (a
// scatter): a few cycles where a gather costs about a load per lane and a
// scatter more. The spacing is lane 1's address minus lane 0's; every
// active lane is then checked to be at lane 0's address plus its lane times
// the spacing, so each lane is accessed at its own address, and only there;
// any other access runs as it did.
// Only on AMD's Zen cores (scan 1.3x, transpose 1.1x on one core). On
// Sapphire Rapids, whose gathers take a few cycles, the check and its
// dispatch cost more than they save: scan and stencil ran at half speed.
constexpr unsigned kSpacings[] = {1, 2, 4, 8};

// For part `part` of a span `spacing` vectors of `lanes` long: at each
// element whose position in the span is a multiple of `spacing` (in every
// part when the vector is at least `spacing` long, in every other one or
// fewer when it is shorter), the lane of `vector` whose
// element it is ((part * lanes + k) / spacing); elsewhere lane 0 of `filler`
// (or poison when there is none).
Value *spreadLanes(IRBuilder<> &builder, Value *vector, Value *filler, unsigned lanes, unsigned spacing,
                   unsigned part) {
  SmallVector<int, 16> order;
  for (unsigned k = 0; k < lanes; ++k)
    order.push_back((part * lanes + k) % spacing == 0 ? int((part * lanes + k) / spacing) : filler ? int(lanes) : -1);
  return builder.CreateShuffleVector(vector, filler ? filler : PoisonValue::get(vector->getType()), order);
}

// Whether the lanes of `pointers` are sure never to be 1, 2, 4 or 8
// elements of `elementBytes` apart: a GEP from one base whose only index
// that differs between lanes steps over `stride` bytes, where no spacing is
// a multiple of `stride` (a work-item's private array in its context slot,
// `gep [64 x <2 x float>], slot, <lanes>`, puts the lanes 512 bytes apart).
bool neverSpaced(Value *pointers, uint64_t elementBytes, const DataLayout &layout) {
  auto *gep = dyn_cast<GetElementPtrInst>(pointers);
  if (!gep || gep->getPointerOperandType()->isVectorTy()) return false;
  std::optional<uint64_t> stride;
  for (gep_type_iterator index = gep_type_begin(gep), end = gep_type_end(gep); index != end; ++index) {
    Value *operand = index.getOperand();
    if (!operand->getType()->isVectorTy() || getSplatValue(operand)) continue;
    if (stride || index.isStruct()) return false;  // two indices that vary, or a field chosen per lane
    stride = index.getSequentialElementStride(layout).getFixedValue();
  }
  return stride && *stride != 0 &&
         none_of(kSpacings, [&](unsigned spacing) { return spacing * elementBytes % *stride == 0; });
}

// Whether splitSpacedAccess would split `call` (a gather or a scatter).
bool spacedCandidate(IntrinsicInst *call) {
  MaskedAccess access(call);
  unsigned lanes = access.type->getNumElements();
  unsigned elementBits = access.type->getScalarSizeInBits();
  return isZen(*call->getFunction()) && lanes >= 4 && isPowerOf2_32(lanes) &&
         (elementBits == 32 || elementBits == 64) && !isa<ConstantAggregateZero>(access.mask) &&
         !getSplatValue(access.pointers) &&
         !neverSpaced(access.pointers, elementBits / 8, call->getModule()->getDataLayout());
}

// Split accesses a function may get at most: each adds five blocks and up to
// fifteen loads or stores. A kernel with more (CLBlast's GEMM with 16 x 8
// values per work-item in registers: 1,300 gathers and scatters after its
// loops unrolled) spent 13 s instead of 0.8 s in instruction selection and
// register allocation; its gathers run once per trip of one loop each, where
// the checks would cost as much code again in the hot loop.
constexpr size_t kMaxSpacedAccesses = 64;

// Splits `call`, a gather or scatter that spacedCandidate accepted.
bool splitSpacedAccess(IntrinsicInst *call) {
  const MaskedAccess access(call);
  const auto &[gather, pointerOperand, pointers, mask, align, type] = access;
  unsigned lanes = type->getNumElements();
  const DataLayout &layout = call->getModule()->getDataLayout();
  uint64_t elementBytes = type->getScalarSizeInBits() / 8;

  BasicBlock *head = call->getParent();
  BasicBlock *tail = head->splitBasicBlock(call, "spaced.tail");
  Function *function = head->getParent();
  LLVMContext &context = function->getContext();
  BasicBlock *fallback = BasicBlock::Create(context, "spaced.any", function, tail);
  head->getTerminator()->eraseFromParent();
  IRBuilder<> builder(head);
  // Where the lanes are: the elements an index vector picks from a base
  // (when the address is `gep T, base, index` with T the element), else
  // their addresses in bytes. A narrower index, extended, must also not wrap
  // around between lane 0's and a lane's.
  Value *positions = nullptr;
  uint64_t unit = 1;
  std::optional<LaneIndex> lanesAt = laneIndex(pointers, layout);
  // Lane offsets (8 * (lanes - 1) elements at most) must stay below the
  // sign bit of the narrow index.
  if (lanesAt && (layout.getTypeAllocSize(lanesAt->gep->getSourceElementType()) != elementBytes ||
                  lanesAt->narrow->getType()->getScalarSizeInBits() < 16))
    lanesAt.reset();
  if (lanesAt) {
    positions = lanesAt->narrow;
  } else {
    positions = builder.CreatePtrToInt(pointers, layout.getIntPtrType(pointers->getType()));
    unit = elementBytes;
  }
  auto *positionType = cast<IntegerType>(positions->getType()->getScalarType());
  Value *first = builder.CreateExtractElement(positions, uint64_t{0});
  Value *firstPointer = lanesAt ? lanesAt->address(builder, first) : builder.CreateExtractElement(pointers, uint64_t{0});
  Value *firstSplat = builder.CreateVectorSplat(lanes, first);
  Value *spacing = builder.CreateSub(builder.CreateExtractElement(positions, uint64_t{1}), first, "spaced.by");
  SwitchInst *choice = builder.CreateSwitch(spacing, fallback, std::size(kSpacings));

  // The access as it was, with its address computed again beside it (where
  // instruction selection folds a GEP of a base and indices into it).
  call->moveBefore(*fallback, fallback->end());
  if (auto *gep = dyn_cast<GetElementPtrInst>(pointers); gep && gep->getParent() == head) {
    Instruction *copy = gep->clone();
    copy->insertBefore(call);
    call->setArgOperand(pointerOperand, copy);
    if (gep->use_empty()) gep->eraseFromParent();
  }
  BranchInst::Create(tail, fallback);
  PHINode *result = nullptr;
  if (gather) {
    builder.SetInsertPoint(&*tail->begin());
    result = builder.CreatePHI(type, std::size(kSpacings) + 1, call->getName() + ".spaced");
    call->replaceAllUsesWith(result);
    result->addIncoming(call, fallback);
  }

  Value *noLanes = Constant::getNullValue(mask->getType());
  for (unsigned spacingElements : kSpacings) {
    uint64_t step = spacingElements * unit;
    BasicBlock *check = BasicBlock::Create(context, "spaced.check", function, fallback);
    BasicBlock *fast = BasicBlock::Create(context, "spaced." + Twine(spacingElements), function, fallback);
    choice->addCase(ConstantInt::get(positionType, step), check);
    builder.SetInsertPoint(check);
    SmallVector<Constant *, 16> offsets;
    for (unsigned lane = 0; lane < lanes; ++lane) offsets.push_back(ConstantInt::get(positionType, lane * step));
    Value *astray = builder.CreateICmpNE(positions, builder.CreateAdd(firstSplat, ConstantVector::get(offsets)));
    if (lanesAt && lanesAt->noWrap)
      astray = builder.CreateOr(astray, builder.CreateNot(builder.CreateICmp(*lanesAt->noWrap, positions, firstSplat)));
    astray = builder.CreateAnd(astray, mask);
    Value *none = builder.CreateICmpEQ(builder.CreateBitCast(astray, builder.getIntNTy(lanes)),
                                       builder.getIntN(lanes, 0), "spaced.exact");
    builder.CreateCondBr(none, fast, fallback);

    builder.SetInsertPoint(fast);
    SmallVector<Value *, 8> parts;
    for (unsigned part = 0; part < spacingElements; ++part) {
      // A vector shorter than the spacing leaves parts with no lane in them.
      if (lanes < spacingElements && part * lanes % spacingElements != 0) {
        if (gather) parts.push_back(PoisonValue::get(type));
        continue;
      }
      Value *partMask = spreadLanes(builder, mask, noLanes, lanes, spacingElements, part);
      Value *at = builder.CreateConstGEP1_64(type->getElementType(), firstPointer, uint64_t{part} * lanes);
      Instruction *access;
      if (gather) {
        access = builder.CreateMaskedLoad(type, at, align, partMask);
      } else {
        Value *values = spreadLanes(builder, call->getArgOperand(0), nullptr, lanes, spacingElements, part);
        access = builder.CreateMaskedStore(values, at, align, partMask);
      }
      access->copyMetadata(*call, {LLVMContext::MD_tbaa, LLVMContext::MD_alias_scope, LLVMContext::MD_noalias});
      parts.push_back(access);
    }
    if (gather) {
      // Every other element of two parts, until one vector holds each
      // lane's element.
      SmallVector<int, 16> evens;
      for (unsigned k = 0; k < lanes; ++k) evens.push_back(int(2 * k));
      while (parts.size() > 1) {
        SmallVector<Value *, 8> halved;
        for (unsigned i = 0; i < parts.size(); i += 2)
          halved.push_back(builder.CreateShuffleVector(parts[i], parts[i + 1], evens));
        parts = std::move(halved);
      }
      Value *loaded = parts.front();
      Value *passThrough = call->getArgOperand(3);
      if (!isa<PoisonValue>(passThrough) && !isa<UndefValue>(passThrough))
        loaded = builder.CreateSelect(mask, loaded, passThrough);
      result->addIncoming(loaded, fast);
    }
    builder.CreateBr(tail);
  }
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
      changed = true;
    }
  return changed;
}

// ---- loops over private arrays -----------------------------------------------------

namespace {

// The most rounds, and the most instructions all rounds together, of a loop
// nest unrolled so that its private arrays become values.
constexpr unsigned kPrivateArrayMaxRounds = 64;
constexpr uint64_t kPrivateArrayMaxInstructions = 4096;

// Whether `loop` (or a loop in it) reads or writes a private array (an
// alloca SROA left whole, which is one indexed by a value it cannot see) at
// an index that changes from round to round.
bool indexesPrivateArray(Loop *loop, ScalarEvolution &evolution) {
  for (BasicBlock *block : loop->blocks())
    for (Instruction &I : *block) {
      Value *pointer = getLoadStorePointerOperand(&I);
      if (!pointer || pointer->getType()->getPointerAddressSpace() != 0) continue;
      auto *gep = dyn_cast<GetElementPtrInst>(pointer);
      if (!gep || !isa<AllocaInst>(getUnderlyingObject(gep)) || gep->hasAllConstantIndices()) continue;
      if (!evolution.isLoopInvariant(evolution.getSCEV(gep), loop)) return true;
    }
  return false;
}

// The instructions of all rounds of `loop` when it and every loop in it
// have constant trip counts and no convergent call; 0 otherwise.
uint64_t unrolledSize(Loop *loop, LoopInfo &loops, ScalarEvolution &evolution) {
  unsigned trips = evolution.getSmallConstantTripCount(loop);
  if (trips == 0 || trips > kPrivateArrayMaxRounds) return 0;
  uint64_t size = 0;
  for (BasicBlock *block : loop->blocks()) {
    if (loops.getLoopFor(block) != loop) continue;  // counted with its own loop
    for (Instruction &I : *block) {
      if (auto *call = dyn_cast<CallBase>(&I); call && (call->isConvergent() || call->isInlineAsm())) return 0;
      ++size;
    }
  }
  for (Loop *inner : *loop) {
    uint64_t innerSize = unrolledSize(inner, loops, evolution);
    if (innerSize == 0) return 0;
    size += innerSize;
  }
  return size * trips;
}

void markFullUnroll(Loop *loop) {
  LLVMContext &context = loop->getHeader()->getContext();
  MDNode *full = MDNode::get(context, MDString::get(context, "llvm.loop.unroll.full"));
  loop->setLoopID(makePostTransformationMetadata(context, loop->getLoopID(), {"llvm.loop.unroll."}, {full}));
  for (Loop *inner : *loop) markFullUnroll(inner);
}

}  // namespace

PreservedAnalyses PrivateArrayLoopsPass::run(Function &F, FunctionAnalysisManager &analyses) {
  if (F.isDeclaration()) return PreservedAnalyses::all();
  LoopInfo &loops = analyses.getResult<LoopAnalysis>(F);
  // Loops the kernel asks to unroll (`#pragma unroll`, as tuned kernels put
  // on their register-tile loops) unroll here too: the tile loop around
  // them is then innermost when the work-group passes look for loops to
  // cut (CLBlast's 128x128 GEMM kernel 2.1x faster).
  bool unroll = any_of(loops.getLoopsInPreorder(),
                       [](const Loop *loop) { return hasUnrollTransformation(loop) & TM_Enable; });
  ScalarEvolution &evolution = analyses.getResult<ScalarEvolutionAnalysis>(F);
  // Outermost first: a nest whose every loop qualifies unrolls whole.
  SmallVector<Loop *, 8> work;
  if (any_of(F.getEntryBlock(), [](const Instruction &I) { return isa<AllocaInst>(I); }))
    work.append(loops.begin(), loops.end());
  while (!work.empty()) {
    Loop *loop = work.pop_back_val();
    uint64_t size = unrolledSize(loop, loops, evolution);
    // The loop's blocks include those of the loops in it, whose indices
    // change within it too.
    if (size != 0 && size <= kPrivateArrayMaxInstructions && indexesPrivateArray(loop, evolution)) {
      markFullUnroll(loop);
      unroll = true;
      continue;
    }
    work.append(loop->begin(), loop->end());
  }
  if (!unroll) return PreservedAnalyses::all();
  // The marked loops unroll (those of a constant trip count among the ones
  // the kernel marked), InstCombine folds the addresses the unrolled rounds
  // pick through phis (which would keep SROA from splitting the array), and
  // SROA makes the arrays values. Kernels with no such loop don't pay for
  // these passes.
  FunctionPassManager passes;
  passes.addPass(createFunctionToLoopPassAdaptor(LoopFullUnrollPass(3, /*OnlyWhenForced=*/true)));
  passes.addPass(InstCombinePass());
  passes.addPass(SROAPass(SROAOptions::ModifyCFG));
  passes.run(F, analyses);
  return PreservedAnalyses::none();
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
    for (IntrinsicInst *gather : collect<IntrinsicInst>(F, isGather)) changed |= splitGatherRuns(gather);
    // After the guards moved the gathers: the new address must be in the
    // gather's block, where instruction selection sees base and indices.
    changed |= narrowGatherIndices(F);
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

PreservedAnalyses SpacedAccessesPass::run(Module &M, ModuleAnalysisManager &) {
  bool changed = false;
  for (Function &F : M) {
    auto candidate = [](IntrinsicInst &call) { return (isGather(call) || isScatter(call)) && spacedCandidate(&call); };
    SmallVector<IntrinsicInst *, 16> accesses = collect<IntrinsicInst>(F, candidate);
    if (accesses.size() > kMaxSpacedAccesses) continue;
    for (IntrinsicInst *access : accesses) changed |= splitSpacedAccess(access);
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

namespace {

// ---- prefetching short strided runs -------------------------------------------

constexpr unsigned kRunsAhead = 4;          // outer iterations ahead
constexpr uint64_t kShortRunBytes = 2048;   // longer runs are streams the hardware follows
constexpr uint64_t kLineBytes = 64;
constexpr uint64_t kMaxStepBytes = 256;

// A load of a run: in an innermost loop, from global or constant memory, at
// an address {{start, +, jump}<outer>, +, step}<inner> with a small positive
// constant step (consecutive elements, or a vector of them) and a jump that
// the outer loop makes between runs.
struct Run {
  Loop *inner;
  const SCEVAddRecExpr *address;  // over the inner loop
  const SCEV *jump;               // bytes, per outer iteration
  uint64_t step;                  // bytes, per inner iteration
  uint64_t accessBytes;
};

std::optional<Run> runOf(Instruction &I, Loop *inner, ScalarEvolution &SE, const DataLayout &layout) {
  Value *pointer = nullptr;
  Type *type = nullptr;
  if (auto *load = dyn_cast<LoadInst>(&I)) {
    if (load->isVolatile() || load->isAtomic()) return std::nullopt;
    pointer = load->getPointerOperand();
    type = load->getType();
  } else if (auto *call = dyn_cast<IntrinsicInst>(&I); call && call->getIntrinsicID() == Intrinsic::masked_load) {
    pointer = call->getArgOperand(0);
    type = call->getType();
  } else {
    return std::nullopt;
  }
  unsigned space = pointer->getType()->getPointerAddressSpace();
  if (space != kGlobalAddressSpace && space != kConstantAddressSpace) return std::nullopt;
  auto *address = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(pointer));
  if (!address || address->getLoop() != inner || !address->isAffine()) return std::nullopt;
  auto *step = dyn_cast<SCEVConstant>(address->getStepRecurrence(SE));
  uint64_t accessBytes = layout.getTypeStoreSize(type).getFixedValue();
  // Consecutive elements: a scalar or vector access per iteration, or an
  // unrolled or interleaved one (several accesses from one base).
  if (!step || step->getAPInt().isNonPositive() || step->getAPInt().ugt(kMaxStepBytes)) return std::nullopt;
  auto *start = dyn_cast<SCEVAddRecExpr>(address->getStart());
  if (!start || !start->isAffine() || !start->getLoop()->contains(inner) || start->getLoop() == inner)
    return std::nullopt;
  return Run{inner, address, start->getStepRecurrence(SE), step->getAPInt().getZExtValue(), accessBytes};
}

// Before `run.inner` starts: if its run is short and the outer loop jumps
// past it, prefetch each line of the run kRunsAhead outer iterations on.
bool prefetchAhead(const Run &run, ScalarEvolution &SE, LoopInfo &loops, DominatorTree &dominators,
                   const DataLayout &layout) {
  const SCEV *trips = SE.getBackedgeTakenCount(run.inner);
  if (isa<SCEVCouldNotCompute>(trips)) return false;
  Type *pointerType = run.address->getType();
  Type *intType = layout.getIndexType(pointerType);
  const SCEV *runBytes =
      SE.getAddExpr(SE.getMulExpr(SE.getAddExpr(SE.getTruncateOrZeroExtend(trips, intType), SE.getOne(intType)),
                                  SE.getConstant(intType, run.step)),
                    SE.getConstant(intType, run.accessBytes - std::min(run.accessBytes, run.step)));
  const SCEV *jump = SE.getTruncateOrSignExtend(run.jump, intType);
  const SCEV *ahead = SE.getAddExpr(run.address->getStart(), SE.getMulExpr(jump, SE.getConstant(intType, kRunsAhead)));
  SCEVExpander expander(SE, layout, "prefetch");
  if (!expander.isSafeToExpand(runBytes) || !expander.isSafeToExpand(jump) || !expander.isSafeToExpand(ahead))
    return false;
  // Last, as it changes the function: -O3 leaves loops without preheaders,
  // the unrolled ones in particular.
  BasicBlock *preheader = run.inner->getLoopPreheader();
  if (!preheader) preheader = InsertPreheaderForLoop(run.inner, &dominators, &loops, nullptr, false);
  if (!preheader) return false;
  Instruction *at = preheader->getTerminator();
  Value *bytes = expander.expandCodeFor(runBytes, intType, at);
  Value *stride = expander.expandCodeFor(jump, intType, at);
  Value *first = expander.expandCodeFor(ahead, pointerType, at);
  IRBuilder<> builder(at);
  Value *worth = builder.CreateAnd(builder.CreateICmpULE(bytes, ConstantInt::get(intType, kShortRunBytes)),
                                   builder.CreateICmpSGT(stride, bytes), "prefetch.worth");
  DomTreeUpdater updater(dominators, DomTreeUpdater::UpdateStrategy::Eager);
  Instruction *then = SplitBlockAndInsertIfThen(worth, at, false, nullptr, &updater, &loops);
  BasicBlock *body = then->getParent();
  BasicBlock *head = body->getSinglePredecessor();
  BasicBlock *done = body->getSingleSuccessor();
  then->eraseFromParent();
  IRBuilder<> line(body);
  PHINode *offset = line.CreatePHI(intType, 2, "prefetch.offset");
  offset->addIncoming(ConstantInt::get(intType, 0), head);
  Value *address = line.CreateGEP(line.getInt8Ty(), first, offset);
  Function *prefetch = Intrinsic::getDeclaration(preheader->getModule(), Intrinsic::prefetch, {pointerType});
  line.CreateCall(prefetch, {address, line.getInt32(0), line.getInt32(3), line.getInt32(1)});
  Value *next = line.CreateAdd(offset, ConstantInt::get(intType, kLineBytes));
  offset->addIncoming(next, body);
  // Lines up to the one holding the run's last byte, wherever the run starts.
  Value *end = line.CreateAdd(bytes, ConstantInt::get(intType, kLineBytes - 1));
  line.CreateCondBr(line.CreateICmpULT(next, end), body, done);
  return true;
}

bool prefetchStridedRuns(Function &F, LoopInfo &loops, DominatorTree &dominators, ScalarEvolution &SE) {
  const DataLayout &layout = F.getParent()->getDataLayout();
  SmallVector<Run, 8> runs;
  for (Loop *loop : loops.getLoopsInPreorder()) {
    if (!loop->isInnermost() || loop->getLoopDepth() < 2) continue;
    SmallPtrSet<const SCEV *, 4> bases;  // one run per array and loop
    for (BasicBlock *block : loop->blocks())
      for (Instruction &I : *block)
        if (std::optional<Run> run = runOf(I, loop, SE, layout))
          if (bases.insert(SE.getPointerBase(run->address)).second) runs.push_back(*run);
  }
  bool changed = false;
  for (const Run &run : runs) changed |= prefetchAhead(run, SE, loops, dominators, layout);
  return changed;
}

}  // namespace

// The preheader of a loop that versionLoop can copy: one exit block, which
// only the loop enters, and values that leave the loop only through that
// block's phis (LCSSA). Null for any other loop. It may add the preheader,
// so callers ask for it after their checks that change nothing.
BasicBlock *versionablePreheader(Loop *loop, LoopInfo &loops, DominatorTree &dominators) {
  BasicBlock *exit = loop->getExitBlock(), *exiting = loop->getExitingBlock();
  if (!exit || !exiting || exit->getSinglePredecessor() != exiting) return nullptr;
  for (BasicBlock *block : loop->blocks())
    for (Instruction &I : *block)
      for (User *user : I.users()) {
        auto *inst = cast<Instruction>(user);
        if (!loop->contains(inst) && !(isa<PHINode>(inst) && inst->getParent() == exit)) return nullptr;
      }
  BasicBlock *preheader = loop->getLoopPreheader();
  if (!preheader) preheader = InsertPreheaderForLoop(loop, &dominators, &loops, nullptr, false);
  return preheader;
}

// Copies a loop that versionablePreheader accepted and runs the copy instead
// when `useCopy` (computed in the preheader) holds:
// preheader -> (useCopy ? copy's preheader : loop's preheader); both exit to
// the loop's exit block, whose phis take the copy's values from the copy.
// The copy gets a loop id of its own with the loop's properties. `map` takes
// the loop's values to the copy's. Returns the copy.
Loop *versionLoop(Loop *loop, Value *useCopy, StringRef suffix, LoopInfo &loops, DominatorTree &dominators,
                  ValueToValueMapTy &map) {
  BasicBlock *preheader = loop->getLoopPreheader(), *exit = loop->getExitBlock();
  BasicBlock *loopEntry =
      SplitBlock(preheader, preheader->getTerminator(), &dominators, &loops, nullptr, suffix.drop_front() + ".not");
  SmallVector<BasicBlock *, 8> blocks;
  Loop *copy = cloneLoopWithPreheader(loopEntry, preheader, loop, map, suffix, &loops, &dominators, blocks);
  remapInstructionsInBlocks(blocks, map);
  if (MDNode *id = loop->getLoopID()) copy->setLoopID(copyLoopId(id));
  preheader->getTerminator()->eraseFromParent();
  BranchInst::Create(copy->getLoopPreheader(), loopEntry, useCopy, preheader);
  dominators.changeImmediateDominator(exit, preheader);
  for (PHINode &phi : exit->phis())
    for (unsigned i = 0, e = phi.getNumIncomingValues(); i < e; ++i)
      if (loop->contains(phi.getIncomingBlock(i))) {
        Value *value = phi.getIncomingValue(i);
        Value *mapped = map.count(value) ? static_cast<Value *>(map[value]) : value;
        phi.addIncoming(mapped, cast<BasicBlock>(map[phi.getIncomingBlock(i)]));
      }
  return copy;
}

// A fresh loop id with the loop's properties but the vectorizer's, marked
// already vectorized (and not to unroll, if asked).
void keepScalar(Loop *loop, bool noUnroll) {
  LLVMContext &context = loop->getHeader()->getContext();
  SmallVector<Metadata *, 4> properties{nullptr};
  if (MDNode *id = loop->getLoopID())
    for (const MDOperand &property : drop_begin(id->operands()))
      if (auto *node = dyn_cast<MDNode>(property.get()); node && node->getNumOperands() > 0)
        if (auto *name = dyn_cast<MDString>(node->getOperand(0));
            name && !name->getString().starts_with("llvm.loop.vectorize"))
          properties.push_back(node);
  properties.push_back(MDNode::get(context, {MDString::get(context, "llvm.loop.isvectorized"),
                                             ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(context), 1))}));
  if (noUnroll) properties.push_back(MDNode::get(context, {MDString::get(context, "llvm.loop.unroll.disable")}));
  MDNode *id = MDNode::getDistinct(context, properties);
  id->replaceOperandWith(0, id);
  loop->setLoopID(id);
}

namespace {

// Runs `transform(F, loops, dominators, scalar evolution)` on every function
// of the module, dropping a function's analyses when it changed it.
template <typename Transform>
PreservedAnalyses runOnLoops(Module &M, ModuleAnalysisManager &analyses, Transform transform) {
  FunctionAnalysisManager &functions = analyses.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  bool changed = false;
  for (Function &F : M) {
    if (F.isDeclaration()) continue;
    bool here = transform(F, functions.getResult<LoopAnalysis>(F), functions.getResult<DominatorTreeAnalysis>(F),
                          functions.getResult<ScalarEvolutionAnalysis>(F));
    if (here) functions.invalidate(F, PreservedAnalyses::none());
    changed |= here;
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace

PreservedAnalyses StridedRunPrefetchPass::run(Module &M, ModuleAnalysisManager &analyses) {
  return runOnLoops(M, analyses, prefetchStridedRuns);
}

namespace {

// ---- spread work-item loops ---------------------------------------------------------

// An index `zext X` in the loop whose uint X steps by a uniform amount that
// only the run knows: a tree level's `tree[stride * (2 * lid + 1) - 1]`.
struct SpreadIndex {
  ZExtInst *index;
  const SCEVAddRecExpr *narrow;  // X
};

// The loop's spread indices; empty unless one of them addresses a store.
SmallVector<SpreadIndex, 4> spreadIndices(Loop *loop, ScalarEvolution &SE) {
  SmallVector<SpreadIndex, 4> found;
  bool stored = false;
  for (BasicBlock *block : loop->blocks())
    for (Instruction &I : *block) {
      auto *index = dyn_cast<ZExtInst>(&I);
      if (!index || !index->getSrcTy()->isIntegerTy(32) || !index->getDestTy()->isIntegerTy(64)) continue;
      auto *narrow = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(index->getOperand(0)));
      if (!narrow || narrow->getLoop() != loop || !narrow->isAffine() ||
          isa<SCEVConstant>(narrow->getStepRecurrence(SE)) ||
          !SE.isLoopInvariant(narrow->getStepRecurrence(SE), loop) || !SE.isLoopInvariant(narrow->getStart(), loop))
        continue;
      found.push_back({index, narrow});
      for (User *user : index->users())
        if (auto *gep = dyn_cast<GetElementPtrInst>(user))
          for (User *access : gep->users())
            if (auto *store = dyn_cast<StoreInst>(access); store && store->getPointerOperand() == gep) stored = true;
    }
  if (!stored) found.clear();
  return found;
}

// A step `scale * uniform`, uniform being a value the loop does not change.
struct ScaledUniform {
  uint64_t scale;
  const SCEVUnknown *uniform;
};

// The step every index takes, as a small constant times one uniform value;
// none if the indices step by different values or another kind of step.
std::optional<ScaledUniform> commonScaledStep(ArrayRef<SpreadIndex> indices, ScalarEvolution &SE) {
  std::optional<ScaledUniform> common;
  for (const SpreadIndex &index : indices) {
    const SCEV *step = index.narrow->getStepRecurrence(SE);
    ScaledUniform here{1, dyn_cast<SCEVUnknown>(step)};
    if (auto *product = dyn_cast<SCEVMulExpr>(step); product && product->getNumOperands() == 2)
      if (auto *scale = dyn_cast<SCEVConstant>(product->getOperand(0)); scale && scale->getAPInt().ult(16))
        here = {scale->getAPInt().getZExtValue(), dyn_cast<SCEVUnknown>(product->getOperand(1))};
    if (!here.uniform || (common && (common->scale != here.scale || common->uniform != here.uniform)))
      return std::nullopt;
    common = here;
  }
  return common;
}

// A work-item loop that stores through a spread index (a tree level of a
// scan or a reduction) vectorizes into gathers and scatters, which on the
// x86 cores measured cost about a memory access per lane, a scatter more;
// the scalar loop costs one or two cycles per work-item, but only if its
// indices are 64-bit: through 32-bit ones, which must wrap as a uint does,
// LSR keeps one 32-bit counter per index and unrolled copy, and they spill
// (scan's levels ran 2-3x slower than the same loop with size_t indices).
//
// Such a loop gets a scalar copy, which the vectorizer leaves alone, where
// each spread index is the 64-bit recurrence {zext start, +, zext step}. The
// copy runs when that is the same number: no index of the run passes
// 2^32 - 1 (the recurrence only grows, so its last value tells), and when
// some index steps more than 2 elements; closer lanes are what
// SpacedAccessesPass turns into vector loads and shuffles on Zen. Before
// it, when the steps are c * U for one uniform U, come copies for the
// values of U that step 1 or 2 elements, which the vectorizer keeps (see
// below). Returns whether it changed the function: the copies, or only the
// loop's form.
bool spreadLoop(Loop *loop, ArrayRef<SpreadIndex> indices, ScalarEvolution &SE, LoopInfo &loops,
                DominatorTree &dominators) {
  const SCEV *trips = SE.getBackedgeTakenCount(loop);
  if (isa<SCEVCouldNotCompute>(trips) || trips->getType()->getIntegerBitWidth() > 64) return false;
  const DataLayout &layout = loop->getHeader()->getModule()->getDataLayout();
  SCEVExpander expander(SE, layout, "spread");
  Type *wide = Type::getInt64Ty(loop->getHeader()->getContext());
  const SCEV *wideTrips = SE.getNoopOrZeroExtend(trips, wide);
  if (!expander.isSafeToExpand(wideTrips)) return false;
  for (const SpreadIndex &index : indices)
    if (!expander.isSafeToExpand(index.narrow->getStart()) ||
        !expander.isSafeToExpand(index.narrow->getStepRecurrence(SE)))
      return false;
  // Dedicated exits and LCSSA, as the vectorizer would make them.
  bool formed = simplifyLoop(loop, &dominators, &loops, &SE, nullptr, nullptr, false);
  formed |= formLCSSA(*loop, dominators, &loops, &SE);
  BasicBlock *preheader = versionablePreheader(loop, loops, dominators);
  if (!preheader) return formed;

  Instruction *at = preheader->getTerminator();
  IRBuilder<> builder(at);
  Value *count = expander.expandCodeFor(wideTrips, wide, at);
  // A work-item loop runs at most kMaxWorkGroupSize times; bounding the
  // count keeps step * count far from overflowing 64 bits.
  Value *noWrap = builder.CreateICmpULE(count, builder.getInt64(1 << 20));
  Value *spread = builder.getFalse();
  SmallVector<std::pair<const SCEV *, const SCEV *>, 4> wideParts;
  for (const SpreadIndex &index : indices) {
    const SCEV *start = SE.getZeroExtendExpr(index.narrow->getStart(), wide);
    const SCEV *step = SE.getZeroExtendExpr(index.narrow->getStepRecurrence(SE), wide);
    wideParts.push_back({start, step});
    Value *stepValue = expander.expandCodeFor(step, wide, at);
    Value *last = builder.CreateAdd(expander.expandCodeFor(start, wide, at), builder.CreateMul(stepValue, count));
    noWrap = builder.CreateAnd(noWrap, builder.CreateICmpULE(last, builder.getInt64(UINT32_MAX)));
    spread = builder.CreateOr(spread, builder.CreateICmpUGT(stepValue, builder.getInt64(2)));
  }

  // In a copy of the loop, each spread index becomes the 64-bit recurrence
  // of its parts with `uniform` (if any) replaced by `value`.
  auto widenIndices = [&](Loop *copy, ValueToValueMapTy &map, const SCEVUnknown *uniform, uint64_t value) {
    ValueToSCEVMapTy known;
    if (uniform) known[uniform->getValue()] = SE.getConstant(uniform->getType(), value);
    SCEVExpander inCopy(SE, layout, "spread");
    for (auto [index, parts] : zip(indices, wideParts)) {
      auto *copied = cast<Instruction>(map[index.index]);
      const SCEV *start = SCEVParameterRewriter::rewrite(parts.first, SE, known);
      const SCEV *step = SCEVParameterRewriter::rewrite(parts.second, SE, known);
      const SCEV *recurrence = SE.getAddRecExpr(start, step, copy, SCEV::NoWrapFlags(SCEV::FlagNUW | SCEV::FlagNSW));
      copied->replaceAllUsesWith(inCopy.expandCodeFor(recurrence, wide, copied));
      copied->eraseFromParent();
    }
  };

  // When every index steps by c * U for one uniform U (a tree level's
  // 2 * stride), a copy for each U that makes the step 1 or 2 elements,
  // where the step and the offsets between the indices are constants: the
  // vectorizer loads and stores such a level as whole vectors and
  // shuffles (an interleaved group) instead of gathers and scatters (scan
  // 1.2x on a Xeon, whose gathers SpacedAccessesPass leaves alone; copies
  // for 4 elements vectorized to gathers again and gained nothing).
  if (std::optional<ScaledUniform> common = commonScaledStep(indices, SE)) {
    for (uint64_t value = 1; common->scale * value <= 2; value *= 2) {
      IRBuilder<> check(loop->getLoopPreheader()->getTerminator());
      Value *matches =
          check.CreateICmpEQ(common->uniform->getValue(), ConstantInt::get(common->uniform->getType(), value));
      ValueToValueMapTy map;
      Loop *copy = versionLoop(loop, check.CreateAnd(noWrap, matches, "spread.fixed"), ".fixed" + utostr(value), loops,
                               dominators, map);
      widenIndices(copy, map, common->uniform, value);
    }
  }

  IRBuilder<> scalarCheck(loop->getLoopPreheader()->getTerminator());
  Value *useCopy = scalarCheck.CreateAnd(noWrap, spread, "spread.scalar");
  ValueToValueMapTy map;
  Loop *copy = versionLoop(loop, useCopy, ".spread", loops, dominators, map);
  widenIndices(copy, map, nullptr, 0);
  // The copy keeps its parallel accesses but not the vectorizer's attention.
  keepScalar(copy, /*noUnroll=*/true);
  return true;
}

bool spreadLoops(Function &F, LoopInfo &loops, DominatorTree &dominators, ScalarEvolution &SE) {
  if (!Triple(F.getParent()->getTargetTriple()).isX86()) return false;
  SmallVector<std::pair<Loop *, SmallVector<SpreadIndex, 4>>, 4> found;
  for (Loop *loop : loops.getLoopsInPreorder())
    if (loop->isInnermost() && findOptionMDForLoop(loop, "llvm.loop.parallel_accesses"))
      if (SmallVector<SpreadIndex, 4> indices = spreadIndices(loop, SE); !indices.empty())
        found.push_back({loop, std::move(indices)});
  bool changed = false;
  for (auto &[loop, indices] : found) changed |= spreadLoop(loop, indices, SE, loops, dominators);
  return changed;
}

}  // namespace

PreservedAnalyses SpreadLoopsPass::run(Function &F, FunctionAnalysisManager &analyses) {
  if (F.isDeclaration()) return PreservedAnalyses::all();
  bool changed = spreadLoops(F, analyses.getResult<LoopAnalysis>(F), analyses.getResult<DominatorTreeAnalysis>(F),
                             analyses.getResult<ScalarEvolutionAnalysis>(F));
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

namespace {

// ---- streaming stores -------------------------------------------------------------

uint64_t storeBytes(const StoreInst *store, const DataLayout &layout) {
  return layout.getTypeStoreSize(store->getValueOperand()->getType()).getFixedValue();
}

// Where a streamed store writes in the loop's first iteration.
const SCEV *firstAddress(StoreInst *store, ScalarEvolution &SE) {
  return cast<SCEVAddRecExpr>(SE.getSCEV(store->getPointerOperand()))->getStart();
}

// A loop of a straight-line kernel whose only memory writes are whole-vector
// stores of 16, 32 or 64 bytes to global memory, each to consecutive
// addresses (several stores may interleave, as an unrolled loop's do).
bool streamsStores(Loop *loop, ScalarEvolution &SE, const DataLayout &layout, SmallVectorImpl<StoreInst *> &stores) {
  for (BasicBlock *block : loop->blocks())
    for (Instruction &I : *block) {
      auto *store = dyn_cast<StoreInst>(&I);
      if (!store) {
        if (I.mayWriteToMemory()) return false;
        continue;
      }
      uint64_t size = storeBytes(store, layout);
      if (!store->isSimple() || store->getPointerAddressSpace() != kGlobalAddressSpace ||
          !store->getValueOperand()->getType()->isVectorTy() || (size != 16 && size != 32 && size != 64))
        return false;
      auto *address = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(store->getPointerOperand()));
      auto *step = address && address->getLoop() == loop && address->isAffine()
                       ? dyn_cast<SCEVConstant>(address->getStepRecurrence(SE))
                       : nullptr;
      if (!step || !step->getAPInt().isStrictlyPositive() || step->getAPInt().urem(size) != 0) return false;
      stores.push_back(store);
    }
  return !stores.empty();
}

// Runs a second copy of the loop, whose stores are non-temporal, when every
// store starts aligned to its size and the launch stores more than the caches
// keep (GroupInfo::streamingStoreMiB, which the runtime sets to half the
// last-level cache, at least 16 MiB; the bytes from the number of groups and
// what one run of the loop stores): such stores skip the read for
// ownership, a third of vector_add's traffic, and would only evict data from
// the caches.
bool streamLoop(Function &F, Loop *loop, ArrayRef<StoreInst *> stores, ScalarEvolution &SE, LoopInfo &loops,
                DominatorTree &dominators, const DataLayout &layout) {
  const SCEV *trips = SE.getBackedgeTakenCount(loop);
  if (isa<SCEVCouldNotCompute>(trips)) return false;
  Type *intType = layout.getIndexType(stores.front()->getPointerOperandType());
  SCEVExpander expander(SE, layout, "stream");
  const SCEV *runs = SE.getAddExpr(SE.getTruncateOrZeroExtend(trips, intType), SE.getOne(intType));
  if (!expander.isSafeToExpand(runs)) return false;
  for (StoreInst *store : stores)
    if (!expander.isSafeToExpand(firstAddress(store, SE))) return false;
  BasicBlock *preheader = versionablePreheader(loop, loops, dominators);
  if (!preheader) return false;

  // The check, in the preheader, which becomes the choice between the loops.
  Instruction *at = preheader->getTerminator();
  IRBuilder<> builder(at);
  Value *aligned = nullptr;
  uint64_t bytesPerRun = 0;
  for (StoreInst *store : stores) {
    uint64_t size = storeBytes(store, layout);
    bytesPerRun += size;
    Value *address =
        builder.CreatePtrToInt(expander.expandCodeFor(firstAddress(store, SE), store->getPointerOperandType(), at),
                               intType);
    Value *here = builder.CreateICmpEQ(builder.CreateAnd(address, size - 1), ConstantInt::get(intType, 0));
    aligned = aligned ? builder.CreateAnd(aligned, here) : here;
  }
  Value *groups = loadGroupInfo(builder, F.getArg(kGroupInfoParam), kNumGroups, 0);
  for (unsigned d = 1; d < 3; ++d)
    groups = builder.CreateMul(groups, loadGroupInfo(builder, F.getArg(kGroupInfoParam), kNumGroups, d));
  Value *bytes = builder.CreateMul(builder.CreateMul(groups, expander.expandCodeFor(runs, intType, at)),
                                   ConstantInt::get(intType, bytesPerRun));
  Value *enough = builder.CreateZExt(loadGroupInfo(builder, F.getArg(kGroupInfoParam), kStreamingStoreMiB), intType);
  Value *stream =
      builder.CreateAnd(aligned, builder.CreateICmpUGE(bytes, builder.CreateShl(enough, 20)), "stream.stores");

  ValueToValueMapTy map;
  versionLoop(loop, stream, ".stream", loops, dominators, map);
  MDNode *nontemporal = MDNode::get(F.getContext(), ConstantAsMetadata::get(builder.getInt32(1)));
  for (StoreInst *store : stores) {
    auto *streamed = cast<StoreInst>(map[store]);
    streamed->setAlignment(Align(storeBytes(store, layout)));
    streamed->setMetadata(LLVMContext::MD_nontemporal, nontemporal);
  }
  return true;
}

bool streamStores(Function &F, LoopInfo &loops, DominatorTree &dominators, ScalarEvolution &SE) {
  if (!F.hasFnAttribute(kStraightLineAttr) || !Triple(F.getParent()->getTargetTriple()).isX86()) return false;
  const DataLayout &layout = F.getParent()->getDataLayout();
  SmallVector<std::pair<Loop *, SmallVector<StoreInst *, 4>>, 4> found;
  for (Loop *loop : loops.getLoopsInPreorder()) {
    SmallVector<StoreInst *, 4> stores;
    if (loop->isInnermost() && streamsStores(loop, SE, layout, stores)) found.push_back({loop, stores});
  }
  bool changed = false;
  for (auto &[loop, stores] : found) changed |= streamLoop(F, loop, stores, SE, loops, dominators, layout);
  // Non-temporal stores are not ordered with other stores. The launcher
  // fences them (sfence) after each run of groups of a kernel marked here
  // (and the kernels that call this copy of one), before the launch says it
  // is done; a fence at every group's return waited for each group's stores
  // to reach memory and halved the speed of 256-item groups.
  if (changed) {
    SmallVector<Function *, 4> work{&F};
    while (!work.empty()) {
      Function *marked = work.pop_back_val();
      if (marked->hasFnAttribute(kStreamingStoresAttr)) continue;
      marked->addFnAttr(kStreamingStoresAttr);
      for (User *user : marked->users())
        if (auto *call = dyn_cast<CallBase>(user)) work.push_back(call->getFunction());
    }
  }
  return changed;
}

}  // namespace

PreservedAnalyses StreamingStoresPass::run(Module &M, ModuleAnalysisManager &analyses) {
  return runOnLoops(M, analyses, streamStores);
}

}  // namespace lockstep::compiler

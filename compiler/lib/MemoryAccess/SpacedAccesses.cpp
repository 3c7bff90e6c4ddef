// SpacedAccessesPass, after MaskedMemoryGuardsPass (on AMD Zen): a gather or
// scatter whose active lanes are evenly spaced, 1, 2, 4 or 8 elements apart
// (spacing S), ascending: a tree reduction's or scan's level,
// `tree[stride * (2 * lid + 1) - 1]`, touches every other element of a span
// at its first level, every fourth at its second. Such an access is S
// masked vector loads or stores over the span, the mask of each holding the
// active lanes that fall in it, and S - 1 two-vector shuffles that pick the
// lanes out (a gather) or one shuffle per vector that spreads them (a
// scatter): a few cycles where a gather costs about a load per lane and a
// scatter more. The spacing is lane 1's address minus lane 0's; every
// active lane is then checked to be at lane 0's address plus its lane times
// the spacing, so each lane is accessed at its own address, and only there;
// any other access runs as it did:
//
//   head:           spacing = pos[1] - pos[0]; switch spacing
//   spaced.check:   every active lane at pos[0] + lane * spacing?
//   spaced.S:       S masked loads and shuffles (or shuffles and stores)
//   spaced.any:     the access as it was
//   spaced.tail:    phi of the loaded values
//
// Only on AMD's Zen cores (scan 1.3x, transpose 1.1x on one core). On
// Sapphire Rapids, whose gathers take a few cycles, the check and its
// dispatch cost more than they save: scan and stencil ran at half speed.
#include <llvm/ADT/Twine.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>

#include "Internal.h"
#include "MemoryAccess/AccessPatterns.h"
#include "Passes.h"
#include "Statistics.h"
#include "TargetInfo.h"

#define DEBUG_TYPE "lockstep-spaced-accesses"

using namespace llvm;

LOCKSTEP_STATISTIC(NumGathersSplit, "Gathers given masked loads and shuffles for evenly spaced lanes");
LOCKSTEP_STATISTIC(NumScattersSplit, "Scatters given shuffles and masked stores for evenly spaced lanes");
LOCKSTEP_STATISTIC(NumFunctionsSkipped, "Functions left alone for having too many candidate accesses");

// Split accesses a function may get at most: each adds five blocks and up to
// fifteen loads or stores. A kernel with more (CLBlast's GEMM with 16 x 8
// values per work-item in registers: 1,300 gathers and scatters after its
// loops unrolled) spent 13 s instead of 0.8 s in instruction selection and
// register allocation; its gathers run once per trip of one loop each, where
// the checks would cost as much code again in the hot loop.
static cl::opt<unsigned> MaxSpacedAccesses(
    "lockstep-spaced-max-accesses", cl::init(64), cl::Hidden,
    cl::desc("Most gathers and scatters of a function that SpacedAccessesPass splits; a function with more "
             "keeps them all"));

namespace lockstep::compiler {
namespace {

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

// Splits `call`, a gather or scatter that spacedCandidate accepted.
bool splitSpacedAccess(IntrinsicInst *call) {
  const MaskedAccess access(call);
  const auto &[gather, pointerOperand, pointers, mask, align, type] = access;
  unsigned lanes = type->getNumElements();
  const DataLayout &layout = call->getModule()->getDataLayout();
  uint64_t elementBytes = type->getScalarSizeInBits() / 8;
  LLVM_DEBUG(dbgs() << "splitting " << *call << "\n");
  ++(gather ? NumGathersSplit : NumScattersSplit);

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

}  // namespace

PreservedAnalyses SpacedAccessesPass::run(Module &M, ModuleAnalysisManager &) {
  bool changed = false;
  for (Function &F : M) {
    auto candidate = [](IntrinsicInst &call) { return (isGather(call) || isScatter(call)) && spacedCandidate(&call); };
    SmallVector<IntrinsicInst *, 16> accesses = collect<IntrinsicInst>(F, candidate);
    if (accesses.size() > MaxSpacedAccesses) {
      LLVM_DEBUG(dbgs() << F.getName() << ": " << accesses.size() << " candidates, more than "
                        << MaxSpacedAccesses << ": none split\n");
      ++NumFunctionsSkipped;
      continue;
    }
    for (IntrinsicInst *access : accesses) changed |= splitSpacedAccess(access);
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

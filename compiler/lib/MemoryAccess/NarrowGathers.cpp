// NarrowGathersPass (before the loop vectorizer) and
// NarrowGathersLoweringPass (after -O3): a work-item loop's loads of bytes
// and halfwords from addresses its work-items compute from data widen as
// gathers of the 32-bit words that hold them.
//
// A table lookup, `out[i] = lut[in[i]]` (a gamma or LUT transform, an
// S-box, a histogram equalization's map), loads one byte per work-item at an
// address it computed. x86 gathers 32- and 64-bit elements only, so the
// vectorizer scalarized the load: per lane, an extract of the index, a load
// and an insert into the vector, which ran slower than PoCL's scalar loop
// (2.85 against 5.4 GB/s on the 2-core Xeon). Such a load becomes a call the
// vectorizer widens through masked variants, the pointer varying:
//
//   %v = load i8, ptr addrspace(2) %p, align 1
//     ->  %v = call i8 @__lockstep_narrow_gather_i8_p2_a1(ptr addrspace(2) %p)
//
// and after -O3 a widened call gathers, for each lane, the aligned 32-bit
// word that holds its element and shifts the element out:
//
//   words = masked.gather(p & ~3, mask);  v = trunc(words >> ((p & 3) * 8))
//
// (where the lanes' addresses are a base and an index of at most 16 bits,
// `lut[in[i]]`, as the base's aligned word and 32-bit offsets from it: one
// gather instruction takes 16 such lanes, 8 of 64-bit addresses).
//
// A word aligned to its size never crosses a page, so it faults only where
// the element would (the lowering runs after every optimization that might
// reason about the bytes a load reads; only code generation follows). A
// halfword is taken only when it is 2-aligned, so that one word holds it. A
// scalar call becomes the load again. Loads whose addresses are invariant or
// affine in the work-item loop (once the vectorizer checks that int index
// arithmetic does not wrap) stay: the vectorizer loads those as vectors (a
// stride of 3 bytes, `vload3`, as an interleaved group).
//
// Not in a loop that also stores bytes or halfwords to addresses that are
// not affine in it (a scatter, which x86 cannot do for such elements: per
// lane, an extract of the address and of the element and a store). NVIDIA's
// histogram64, whose work-items each count into a byte column of a __local
// array (`l_WorkitemBase[data * 64]++`, sixteen per round), went widened
// once its byte loads were gathers: 32 lanes of gathers, then 32 byte
// stores a lane at a time, 2-3x slower than the scalar loop the vectorizer
// chose without them (PoCL's).
//
// Not on AMD's Zen cores, whose word gathers lost to the scalarized byte
// loads on the 2-core EPYC VM (alternating runs): rw_lut 6.0-7.5 against
// 10.5-10.8 GB/s, NVIDIA's histogram64 3.5 against 3.2 ms; on the Xeon
// they doubled rw_lut (`-lockstep-narrow-gathers-on-zen` takes them there
// too).
//
// `-lockstep-narrow-gathers=false` turns the rewrite off.
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>

#include <optional>
#include <string>

#include "Internal.h"
#include "MemoryAccess/MaskedVariants.h"
#include "Passes.h"
#include "Statistics.h"
#include "TargetInfo.h"

#define DEBUG_TYPE "lockstep-narrow-gathers"

using namespace llvm;

static cl::opt<bool> Enabled(
    "lockstep-narrow-gathers", cl::init(true), cl::Hidden,
    cl::desc("Widen work-items' loads of bytes and halfwords from computed addresses as "
             "gathers of 32-bit words"));

static cl::opt<bool> OnZen("lockstep-narrow-gathers-on-zen", cl::init(false), cl::Hidden,
                           cl::desc("Widen such loads as word gathers on AMD Zen cores too"));

LOCKSTEP_STATISTIC(
    NumCalls, "Byte and halfword loads from computed addresses made calls the vectorizer widens");
LOCKSTEP_STATISTIC(NumWordGathers,
                   "Widened narrow-gather calls lowered to gathers of 32-bit words");
LOCKSTEP_STATISTIC(NumScalarLowered, "Narrow-gather calls lowered back to loads");

namespace lockstep::compiler {
namespace {

constexpr const char *kPrefix = "__lockstep_narrow_gather_";

// Whether `pointer`, of a byte or halfword access in `loop`, moves with
// the work-items but not by a constant step: affine, or affine once the
// vectorizer checks that 32-bit index arithmetic does not wrap (`in[(y - 1)
// * w + x - 1]` with int indices, a sign extension of a recurrence), it is a
// consecutive or strided access.
bool computedAddress(Value *pointer, Loop &loop, ScalarEvolution &evolution) {
  if (evolution.isLoopInvariant(evolution.getSCEV(pointer), &loop)) return false;
  PredicatedScalarEvolution predicated(evolution, loop);
  const SCEVAddRecExpr *recurrence = predicated.getAsAddRec(pointer);
  return !(recurrence && recurrence->getLoop() == &loop && recurrence->isAffine());
}

// Whether `loop` stores bytes or halfwords to computed addresses.
bool scattersNarrow(Loop &loop, ScalarEvolution &evolution) {
  for (BasicBlock *block : loop.blocks())
    for (Instruction &I : *block)
      if (auto *store = dyn_cast<StoreInst>(&I)) {
        Type *type = store->getValueOperand()->getType();
        if (type->isIntegerTy() && type->getIntegerBitWidth() <= 16 &&
            computedAddress(store->getPointerOperand(), loop, evolution))
          return true;
      }
  return false;
}

// Whether `load` is one the rewrite takes, its loop's stores aside: a byte
// or a 2-aligned 16-bit integer, from a computed address.
bool takes(LoadInst &load, Loop &loop, ScalarEvolution &evolution) {
  if (!load.isSimple() || !load.hasMetadata(LLVMContext::MD_access_group)) return false;
  Type *type = load.getType();
  unsigned bits = type->getPrimitiveSizeInBits().getFixedValue();
  // Integers only: with half loads taken too, CLBlast's HGEMV (its
  // clblast_test_xgemv -precision 16) gave wrong results in two of its four
  // layouts, for a reason not found yet (a half table lookup alone is right).
  if (!type->isIntegerTy() || (bits != 8 && bits != 16)) return false;
  if (bits == 16 && load.getAlign() < Align(2)) return false;
  return computedAddress(load.getPointerOperand(), loop, evolution);
}

std::string typeName(Type *type) { return "i" + std::to_string(type->getIntegerBitWidth()); }

// `gep T, base, ext(<lanes x iK> index)` with K at most 16, as a scalar
// base and the lanes' byte offsets from it in 32 bits (which a gather with
// 32-bit indices takes, 16 lanes an instruction where 64-bit addresses take
// 8); none for other vectors of pointers.
std::optional<std::pair<Value *, Value *>> narrowOffsets(IRBuilder<> &builder, Value *pointers) {
  auto *gep = dyn_cast<GetElementPtrInst>(pointers);
  if (!gep || gep->getNumIndices() != 1 || gep->getPointerOperand()->getType()->isVectorTy())
    return std::nullopt;
  auto *extension = dyn_cast<CastInst>(gep->getOperand(1));
  if (!extension || !(isa<ZExtInst>(extension) || isa<SExtInst>(extension)) ||
      extension->getSrcTy()->getScalarSizeInBits() > 16)
    return std::nullopt;
  TypeSize size = gep->getDataLayout().getTypeAllocSize(gep->getSourceElementType());
  if (size.isScalable() || size.getFixedValue() > 8) return std::nullopt;
  auto *type = FixedVectorType::get(builder.getInt32Ty(),
                                    cast<FixedVectorType>(extension->getType())->getNumElements());
  Value *index = isa<ZExtInst>(extension) ? builder.CreateZExt(extension->getOperand(0), type)
                                          : builder.CreateSExt(extension->getOperand(0), type);
  Value *offsets = builder.CreateMul(index, ConstantInt::get(type, size.getFixedValue()));
  return std::make_pair(gep->getPointerOperand(), offsets);
}

// The lanes' elements, from the words that hold them.
Value *gatherWords(IRBuilder<> &builder, CallInst *call, unsigned lanes) {
  Value *pointers = call->getArgOperand(0), *mask = call->getArgOperand(1);
  auto *pointerType = cast<PointerType>(pointers->getType()->getScalarType());
  const DataLayout &layout = call->getDataLayout();
  Type *intPtr = layout.getIntPtrType(pointerType);
  auto *wordsType = FixedVectorType::get(builder.getInt32Ty(), lanes);
  Value *wordPointers, *offsets;
  if (auto narrow = narrowOffsets(builder, pointers)) {
    // base - (base & 3), and each lane's offset from there, split into the
    // word's and the element's within it.
    auto [base, laneOffsets] = *narrow;
    Value *misalignment = builder.CreateAnd(builder.CreatePtrToInt(base, intPtr), 3);
    Value *alignedBase =
        builder.CreateGEP(builder.getInt8Ty(), base, builder.CreateNeg(misalignment));
    Value *fromAligned = builder.CreateAdd(
        laneOffsets,
        builder.CreateVectorSplat(lanes, builder.CreateTrunc(misalignment, builder.getInt32Ty())));
    Value *wordOffsets = builder.CreateAnd(fromAligned, ConstantInt::get(wordsType, ~uint64_t(3)));
    wordPointers =
        builder.CreateGEP(builder.getInt8Ty(), alignedBase,
                          builder.CreateSExt(wordOffsets, FixedVectorType::get(intPtr, lanes)));
    offsets = builder.CreateAnd(fromAligned, ConstantInt::get(wordsType, 3));
  } else {
    auto *addresses = builder.CreatePtrToInt(pointers, FixedVectorType::get(intPtr, lanes));
    Value *aligned =
        builder.CreateAnd(addresses, ConstantInt::get(addresses->getType(), ~uint64_t(3)));
    wordPointers = builder.CreateIntToPtr(aligned, pointers->getType());
    offsets = builder.CreateTrunc(
        builder.CreateAnd(addresses, ConstantInt::get(addresses->getType(), 3)), wordsType);
  }
  Value *words = builder.CreateMaskedGather(wordsType, wordPointers, Align(4), mask);
  Value *shifted =
      builder.CreateLShr(words, builder.CreateShl(offsets, ConstantInt::get(wordsType, 3)));
  return builder.CreateTrunc(shifted, call->getType());
}

}  // namespace

PreservedAnalyses NarrowGathersPass::run(Function &F, FunctionAnalysisManager &AM) {
  if (!Enabled || F.isDeclaration() || (isZen(F) && !OnZen)) return PreservedAnalyses::all();
  auto &LI = AM.getResult<LoopAnalysis>(F);
  auto &SE = AM.getResult<ScalarEvolutionAnalysis>(F);
  DenseMap<const Loop *, bool> scatters;  // scattersNarrow, once a loop
  SmallVector<Instruction *, 8> found =
      collectInWorkItemLoops(F, LI, [&](Instruction &I, Loop &loop) {
        auto *load = dyn_cast<LoadInst>(&I);
        if (!load || !takes(*load, loop, SE)) return false;
        auto [entry, inserted] = scatters.try_emplace(&loop, false);
        if (inserted) entry->second = scattersNarrow(loop, SE);
        return !entry->second;
      });
  if (found.empty()) return PreservedAnalyses::all();
  for (Instruction *I : found) {
    auto *load = cast<LoadInst>(I);
    LLVM_DEBUG(dbgs() << "narrow load from a computed address: " << *load << "\n");
    ++NumCalls;
    replaceLoadWithVariantCall(*load, kPrefix, typeName(load->getType()), /*pointerVaries=*/true);
  }
  PreservedAnalyses preserved = PreservedAnalyses::none();
  preserved.preserveSet<CFGAnalyses>();
  return preserved;
}

PreservedAnalyses NarrowGathersLoweringPass::run(Module &M, ModuleAnalysisManager &) {
  bool any = lowerVariantCalls(M, kPrefix, [](CallInst &call, unsigned lanes) -> Value * {
    IRBuilder<> builder(&call);
    if (lanes) {
      ++NumWordGathers;
      return gatherWords(builder, &call, lanes);
    }
    ++NumScalarLowered;
    return builder.CreateAlignedLoad(call.getType(), call.getArgOperand(0),
                                     accessAlign(*call.getCalledFunction()));
  });
  return any ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

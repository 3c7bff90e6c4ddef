// ScalarizeWorkGroupCodePass, at the start of the vectorizer's part of -O3:
// LLVM's scalarizer on work-group functions only, and only those whose
// vectors are narrower than a register.
//
// The loop vectorizer widens only scalar instructions: a work-item loop over
// float4 or int3 values (n-body's positions) stayed one work-item a trip, in
// 128-bit halves of a register. Split into scalars, each element widens
// across the work-items (an n-body kernel ran 8x faster); straight-line
// float4 code widens too (normalize 1.8x), and what the vectorizer leaves
// scalar, the SLP vectorizer after it packs again.
//
// A function -O3 left uninlined runs one work-item a call, so nothing
// widens it across work-items: split into scalars, its vector code stayed
// scalar (hashcat's SHA-256 kernels, whose helpers work on uint16 values, ran
// 27x slower than PoCL); only the work-group functions and the copies they
// dispatch to (kWorkGroupCodeAttr) are split. A kernel whose own vectors fill
// a register already has all the lanes widening could give, and split, runs
// 16 scalar instructions for each vector one where the work-item loop is not
// widened: hashcat runs one work-item per group on CPUs (WPA's PBKDF2 loop
// ran at 0.75-0.83x PoCL).
#include <llvm/ADT/DenseMap.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Scalar/Scalarizer.h>

#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-scalarize-work-group-code"

using namespace llvm;

LOCKSTEP_STATISTIC(NumFunctionsScalarized, "Work-group functions whose vector values were split into scalars");
LOCKSTEP_STATISTIC(NumFunctionsFullWidth, "Work-group functions kept whole for vectors that fill a register");

namespace lockstep::compiler {

bool isFloatArithmetic(const Instruction &I) {
  if (!I.getType()->isFPOrFPVectorTy()) return false;
  if (auto *intrinsic = dyn_cast<IntrinsicInst>(&I))
    return intrinsic->getIntrinsicID() == Intrinsic::fmuladd || intrinsic->getIntrinsicID() == Intrinsic::fma;
  return I.getOpcode() == Instruction::FMul || I.getOpcode() == Instruction::FAdd ||
         I.getOpcode() == Instruction::FSub;
}

FixedVectorType *valueVector(const Instruction &I) {
  Type *type = isa<StoreInst>(I) ? cast<StoreInst>(I).getValueOperand()->getType() : I.getType();
  auto *vector = dyn_cast<FixedVectorType>(type);
  return vector && !vector->getElementType()->isPointerTy() ? vector : nullptr;
}

bool fillsRegister(const FixedVectorType &vector, uint64_t registerBits) {
  return vector.getPrimitiveSizeInBits().getFixedValue() >= registerBits;
}

namespace {

// Whether `I` computes on a narrower float vector's lanes in double: an
// extension, or an operation whose vector operands all are such values
// (the built-ins compute float log, log10 and exp10 through double, so a
// float4 log is a <4 x double> for a while).
bool isWidenedPrecision(const Instruction &I, DenseMap<const Instruction *, bool> &known) {
  if (isa<FPExtInst>(I)) return true;
  if (!I.getType()->isVectorTy() || !I.getType()->getScalarType()->isDoubleTy()) return false;
  auto [entry, inserted] = known.try_emplace(&I, false);
  if (!inserted) return entry->second;
  bool widened = false;
  for (const Value *operand : I.operands()) {
    if (isa<Constant>(operand) || !operand->getType()->isVectorTy()) continue;
    auto *def = dyn_cast<Instruction>(operand);
    if (!def || !isWidenedPrecision(*def, known)) return false;
    widened = true;
  }
  return known[&I] = widened;
}

// Whether F computes with vectors of its own that fill a vector register
// (not a float vector's lanes taken through double: BlackScholes' float4
// log, a <4 x double> that fills the 256-bit registers of straight-line
// code, kept its work-item loop a float4 at a time, 1.16x PoCL).
bool usesFullWidthVectors(Function &F, const TargetTransformInfo &target) {
  uint64_t registerBits = target.getRegisterBitWidth(TargetTransformInfo::RGK_FixedWidthVector).getFixedValue();
  DenseMap<const Instruction *, bool> widened;
  return any_of(instructions(F), [&](const Instruction &I) {
    FixedVectorType *vector = valueVector(I);
    return vector && fillsRegister(*vector, registerBits) && !isWidenedPrecision(I, widened);
  });
}

// A load or store of a vector of bytes or shorts no wider than 64 bits
// (uchar4, a pixel; short2) becomes one of an integer that wide. Split into
// scalars, it had been four i8 accesses a work-item, which the
// vectorizer widens as a group interleaved by four, and its cost model
// judged the loop not worth widening (a Sobel filter over uchar4 pixels ran
// one work-item at a time, 1.2x PoCL). As an integer, the work-items' pixels
// are consecutive words, and each element is a shift and a truncation.
bool packSmallVectorAccesses(Function &F) {
  SmallVector<Instruction *, 16> accesses;
  for (Instruction &I : instructions(F)) {
    auto *load = dyn_cast<LoadInst>(&I);
    auto *store = dyn_cast<StoreInst>(&I);
    if ((!load || !load->isSimple()) && (!store || !store->isSimple())) continue;
    FixedVectorType *vector = valueVector(I);
    if (!vector || !vector->getElementType()->isIntegerTy() || vector->getScalarSizeInBits() >= 32) continue;
    uint64_t bits = vector->getPrimitiveSizeInBits().getFixedValue();
    if (bits != 16 && bits != 32 && bits != 64) continue;
    accesses.push_back(&I);
  }
  // Elements as shifts of the word, not a bitcast, which InstCombine would
  // fold back into the vector access. Element k is bits [k * w, (k + 1) * w)
  // on this little-endian target.
  for (Instruction *I : accesses) {
    IRBuilder<> builder(I);
    FixedVectorType *vector = valueVector(*I);
    unsigned elementBits = vector->getScalarSizeInBits(), count = vector->getNumElements();
    Type *word = builder.getIntNTy(elementBits * count);
    if (auto *load = dyn_cast<LoadInst>(I)) {
      LoadInst *packed = builder.CreateAlignedLoad(word, load->getPointerOperand(), load->getAlign());
      packed->copyMetadata(*load);
      packed->takeName(load);
      Value *value = PoisonValue::get(vector);
      for (unsigned k = 0; k < count; ++k) {
        Value *bits = k == 0 ? packed : builder.CreateLShr(packed, k * elementBits);
        value = builder.CreateInsertElement(value, builder.CreateTrunc(bits, vector->getElementType()), k);
      }
      load->replaceAllUsesWith(value);
    } else {
      auto *store = cast<StoreInst>(I);
      Value *packed = nullptr;
      // Frozen: a lane the vector leaves undefined (a char3's padding, stored
      // as the fourth lane of a char4) would make the whole word poison.
      for (unsigned k = 0; k < count; ++k) {
        Value *bits = builder.CreateZExt(
            builder.CreateFreeze(builder.CreateExtractElement(store->getValueOperand(), k)), word);
        if (k != 0) bits = builder.CreateShl(bits, k * elementBits);
        packed = packed ? builder.CreateOr(packed, bits) : bits;
      }
      builder.CreateAlignedStore(packed, store->getPointerOperand(), store->getAlign())->copyMetadata(*store);
    }
    I->eraseFromParent();
  }
  return !accesses.empty();
}

}  // namespace

PreservedAnalyses ScalarizeWorkGroupCodePass::run(Function &F, FunctionAnalysisManager &analyses) {
  if (!F.hasFnAttribute(kWorkGroupCodeAttr)) return PreservedAnalyses::all();
  if (usesFullWidthVectors(F, analyses.getResult<TargetIRAnalysis>(F))) {
    LLVM_DEBUG(dbgs() << F.getName() << ": its vectors fill a register, kept whole\n");
    ++NumFunctionsFullWidth;
    return PreservedAnalyses::all();
  }
  ++NumFunctionsScalarized;
  packSmallVectorAccesses(F);
  ScalarizerPassOptions options;
  options.ScalarizeLoadStore = true;
  return ScalarizerPass(options).run(F, analyses);
}

}  // namespace lockstep::compiler

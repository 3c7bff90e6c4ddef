// UniformDivisionPass, before the loop vectorizer: an integer division or
// remainder inside a loop, by a divisor the loop does not change
// (`gid % width`, `(lid + k) % get_local_size(0)` in a work-item loop),
// becomes a multiplication by the divisor's reciprocal, computed once before
// the loop: the method of Granlund and Montgomery for invariant divisors
// ("Division by Invariant Integers using Multiplication", PLDI 1994,
// figure 4.1). x86 has no vector division, so the vectorizer ran such a
// division one lane at a time on the scalar divider; the multiplication
// widens with the rest of the loop.
//
// For a 32-bit divisor d >= 1, with l = ceil(log2(d)):
//
//   m  = floor(2^32 * (2^l - d) / d) + 1      (fits in 32 bits)
//   t  = (m * x) >> 32                        (the high half of the product)
//   q  = (t + ((x - t) >> min(l, 1))) >> max(l - 1, 0)
//
// is x / d for every 32-bit x; x % d is x - q * d. Operands of 8 and 16 bits
// are widened to 32; 64-bit ones are narrowed when the known bits or scalar
// evolution show both below 2^32, or else, for a dividend that steps through
// the loop (`gid % width` on size_t ids in a work-item loop), in a copy of
// the loop that runs when a check before it finds the dividend's first and
// last values and the divisor below 2^32. A signed division divides the
// magnitudes and sets the sign. SafeIntegerDivisionPass has made the divisor
// one that never traps, and a zero that reaches here anyway divides as 1,
// as it does there.
#include <llvm/ADT/MapVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include "Internal.h"
#include "Passes.h"

using namespace llvm;

namespace lockstep::compiler {
namespace {

struct Reciprocal {
  Value *divisor;  // i32, at least 1
  Value *multiplier, *firstShift, *secondShift;
};

// The reciprocal of `divisor` (i32), built at `builder`.
Reciprocal reciprocalOf(IRBuilder<> &builder, Value *divisor) {
  Type *i32 = builder.getInt32Ty(), *i64 = builder.getInt64Ty();
  Value *d = builder.CreateSelect(builder.CreateICmpEQ(divisor, builder.getInt32(0)),
                                  builder.getInt32(1), divisor, "div.d");
  // l = ceil(log2(d)) = 32 - clz(d - 1); 0 for d = 1.
  Value *clz = builder.CreateBinaryIntrinsic(
      Intrinsic::ctlz, builder.CreateSub(d, builder.getInt32(1)), builder.getFalse());
  Value *l = builder.CreateSub(builder.getInt32(32), clz, "div.l");
  Value *wideD = builder.CreateZExt(d, i64);
  Value *excess =
      builder.CreateSub(builder.CreateShl(builder.getInt64(1), builder.CreateZExt(l, i64)), wideD);
  Value *quotient = builder.CreateUDiv(builder.CreateShl(excess, 32), wideD);
  Value *m = builder.CreateTrunc(builder.CreateAdd(quotient, builder.getInt64(1)), i32, "div.m");
  Value *first = builder.CreateBinaryIntrinsic(Intrinsic::umin, l, builder.getInt32(1));
  Value *second = builder.CreateSub(l, first);
  return {d, m, first, second};
}

// x / d for unsigned 32-bit x.
Value *quotientOf(IRBuilder<> &builder, Value *x, const Reciprocal &r) {
  Type *i64 = builder.getInt64Ty();
  Value *product =
      builder.CreateMul(builder.CreateZExt(x, i64), builder.CreateZExt(r.multiplier, i64));
  Value *t = builder.CreateTrunc(builder.CreateLShr(product, 32), builder.getInt32Ty());
  Value *half = builder.CreateLShr(builder.CreateSub(x, t), r.firstShift);
  return builder.CreateLShr(builder.CreateAdd(t, half), r.secondShift, "div.q");
}

// Whether `value` (an integer of 33 to 64 bits) is below 2^32 in the loop.
bool fitsIn32Bits(Value *value, ScalarEvolution &SE, const DataLayout &layout,
                  const Instruction *at, DominatorTree &DT) {
  if (computeKnownBits(value, layout, 0, nullptr, at, &DT).countMinLeadingZeros() >=
      value->getType()->getIntegerBitWidth() - 32)
    return true;
  return SE.isSCEVable(value->getType()) &&
         SE.getUnsignedRangeMax(SE.getSCEV(value)).getActiveBits() <= 32;
}

class UniformDivision {
 public:
  UniformDivision(Function &F, LoopInfo &LI, ScalarEvolution &SE, DominatorTree &DT)
      : F(F), LI(LI), SE(SE), DT(DT), layout(F.getParent()->getDataLayout()) {}

  bool copiedLoops = false;  // the CFG changed

  bool run() {
    SmallVector<BinaryOperator *, 8> inPlace;
    MapVector<Loop *, SmallVector<BinaryOperator *, 4>> inCopy;
    for (Instruction &I : instructions(F)) {
      auto *division = dyn_cast<BinaryOperator>(&I);
      if (!division || !division->isIntDivRem()) continue;
      Plan plan = planFor(division);
      if (plan == Plan::InPlace) inPlace.push_back(division);
      if (plan == Plan::InCopy) inCopy[LI.getLoopFor(division->getParent())].push_back(division);
    }
    bool changed = false;
    // The copies first: the scalar evolution they ask for is of the code
    // before any rewrite. A division rewritten in place in a loop that gets
    // a copy is rewritten in both.
    for (auto &[loop, divisions] : inCopy) {
      BasicBlock *preheader = versionablePreheader(loop, LI, DT);
      if (!preheader || !expandable(loop, divisions, preheader->getTerminator())) continue;
      Value *condition = narrowCondition(loop, divisions);
      ValueToValueMapTy map;
      Loop *copy = versionLoop(loop, condition, ".div32", LI, DT, map);
      for (BinaryOperator *division : divisions)
        rewrite(cast<BinaryOperator>(map[division]), copy->getLoopPreheader());
      SmallVector<BinaryOperator *, 4> copied;
      for (BinaryOperator *division : inPlace)
        if (loop->contains(division)) copied.push_back(cast<BinaryOperator>(map[division]));
      inPlace.append(copied.begin(), copied.end());
      changed = copiedLoops = true;
    }
    for (BinaryOperator *division : inPlace) {
      rewrite(division, LI.getLoopFor(division->getParent())->getLoopPreheader());
      changed = true;
    }
    return changed;
  }

 private:
  // How a division is rewritten: in place, in a checked copy of its loop,
  // or not at all.
  enum class Plan { None, InPlace, InCopy };

  Plan planFor(BinaryOperator *division) {
    Loop *loop = LI.getLoopFor(division->getParent());
    Value *x = division->getOperand(0), *divisor = division->getOperand(1);
    auto *type = dyn_cast<IntegerType>(division->getType());
    if (!loop || !type || type->getBitWidth() > 64 || isa<Constant>(divisor) ||
        !loop->isLoopInvariant(divisor) || !loop->getLoopPreheader())
      return Plan::None;
    if (type->getBitWidth() <= 32) return Plan::InPlace;
    if (fitsIn32Bits(x, SE, layout, division, DT) &&
        fitsIn32Bits(divisor, SE, layout, division, DT))
      return Plan::InPlace;
    return steppedDividend(division) ? Plan::InCopy : Plan::None;
  }

  // The dividend as {start, +, step} over the division's innermost loop,
  // with a constant step of 0 to 2^31 and a computable trip count bound.
  const SCEVAddRecExpr *steppedDividend(BinaryOperator *division) {
    Loop *loop = LI.getLoopFor(division->getParent());
    auto *rec = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(division->getOperand(0)));
    if (!loop->isInnermost() || !rec || rec->getLoop() != loop || !rec->isAffine()) return nullptr;
    auto *step = dyn_cast<SCEVConstant>(rec->getStepRecurrence(SE));
    if (!step || step->getAPInt().isNegative() || step->getAPInt().ugt(1u << 31)) return nullptr;
    if (isa<SCEVCouldNotCompute>(SE.getSymbolicMaxBackedgeTakenCount(loop))) return nullptr;
    return rec;
  }

  // Whether the trip count bound and the dividends' first values can be
  // computed at `at` (a division by a value that may be zero cannot).
  bool expandable(Loop *loop, ArrayRef<BinaryOperator *> divisions, Instruction *at) {
    SCEVExpander expander(SE, layout, "div.bound");
    if (!expander.isSafeToExpandAt(SE.getSymbolicMaxBackedgeTakenCount(loop), at)) return false;
    return all_of(divisions, [&](BinaryOperator *division) {
      return expander.isSafeToExpandAt(steppedDividend(division)->getStart(), at);
    });
  }

  // The condition, computed in the loop's preheader, under which every
  // division of `divisions` (in `loop`) has both operands below 2^32.
  Value *narrowCondition(Loop *loop, ArrayRef<BinaryOperator *> divisions) {
    BasicBlock *preheader = loop->getLoopPreheader();
    SCEVExpander expander(SE, layout, "div.bound");
    IRBuilder<> builder(preheader->getTerminator());
    Type *i64 = builder.getInt64Ty();
    Value *limit = builder.getInt64(uint64_t(1) << 32);
    Value *trips = expander.expandCodeFor(SE.getSymbolicMaxBackedgeTakenCount(loop), i64,
                                          preheader->getTerminator());
    Value *condition = builder.CreateICmpULT(trips, limit);
    for (BinaryOperator *division : divisions) {
      const SCEVAddRecExpr *rec = steppedDividend(division);
      Value *start = expander.expandCodeFor(rec->getStart(), i64, preheader->getTerminator());
      Value *step = builder.getInt64(
          cast<SCEVConstant>(rec->getStepRecurrence(SE))->getAPInt().getZExtValue());
      Value *last = builder.CreateAdd(start, builder.CreateMul(step, trips));
      condition = builder.CreateAnd(condition, builder.CreateICmpULT(start, limit));
      condition = builder.CreateAnd(condition, builder.CreateICmpULT(last, limit));
      condition =
          builder.CreateAnd(condition, builder.CreateICmpULT(division->getOperand(1), limit));
    }
    return condition;
  }

  // Replaces `division` with the multiplication by the reciprocal, computed
  // in `preheader`; 64-bit operands are below 2^32 there (planFor).
  void rewrite(BinaryOperator *division, BasicBlock *preheader) {
    Value *x = division->getOperand(0), *divisor = division->getOperand(1);
    auto *type = cast<IntegerType>(division->getType());
    unsigned bits = type->getBitWidth();
    unsigned opcode = division->getOpcode();
    // Narrowed operands are below 2^32: a signed division is an unsigned one.
    bool isSigned = bits <= 32 && (opcode == Instruction::SDiv || opcode == Instruction::SRem);
    bool remainder = opcode == Instruction::URem || opcode == Instruction::SRem;
    IRBuilder<> before(preheader->getTerminator());
    IRBuilder<> at(division);
    Type *i32 = at.getInt32Ty();
    auto to32 = [&](IRBuilder<> &builder, Value *v) {
      return bits == 32 ? v
             : isSigned ? builder.CreateSExtOrTrunc(v, i32)
                        : builder.CreateZExtOrTrunc(v, i32);
    };
    Value *d = to32(before, divisor), *n = to32(at, x);
    Value *zero = at.getInt32(0);
    Value *magnitudeD = d, *magnitudeN = n;
    if (isSigned) {
      magnitudeD = before.CreateBinaryIntrinsic(Intrinsic::abs, d, before.getFalse());
      magnitudeN = at.CreateBinaryIntrinsic(Intrinsic::abs, n, at.getFalse());
    }
    Reciprocal reciprocal = reciprocalOf(before, magnitudeD);
    Value *q = quotientOf(at, magnitudeN, reciprocal);
    Value *result;
    if (remainder) {
      Value *r = at.CreateSub(magnitudeN, at.CreateMul(q, reciprocal.divisor), "div.r");
      result = isSigned ? at.CreateSelect(at.CreateICmpSLT(n, zero), at.CreateSub(zero, r), r) : r;
    } else {
      result = isSigned ? at.CreateSelect(at.CreateICmpSLT(at.CreateXor(n, d), zero),
                                          at.CreateSub(zero, q), q)
                        : q;
    }
    if (bits != 32)
      result = isSigned ? at.CreateSExtOrTrunc(result, type) : at.CreateZExtOrTrunc(result, type);
    result->takeName(division);
    division->replaceAllUsesWith(result);
    division->eraseFromParent();
  }

  Function &F;
  LoopInfo &LI;
  ScalarEvolution &SE;
  DominatorTree &DT;
  const DataLayout &layout;
};

}  // namespace

PreservedAnalyses UniformDivisionPass::run(Function &F, FunctionAnalysisManager &analyses) {
  if (F.isDeclaration()) return PreservedAnalyses::all();
  UniformDivision pass(F, analyses.getResult<LoopAnalysis>(F),
                       analyses.getResult<ScalarEvolutionAnalysis>(F),
                       analyses.getResult<DominatorTreeAnalysis>(F));
  if (!pass.run()) return PreservedAnalyses::all();
  if (pass.copiedLoops) return PreservedAnalyses::none();
  PreservedAnalyses preserved;
  preserved.preserveSet<CFGAnalyses>();
  return preserved;
}

}  // namespace lockstep::compiler

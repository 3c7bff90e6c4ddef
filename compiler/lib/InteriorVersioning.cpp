// InteriorVersioningPass, before the loop vectorizer: a work-item loop whose
// indices are clamped into a range (`clamp(x + dx, 0, width - 1)`: a
// stencil's edges repeated outward, or the image built-ins, which keep every
// load inside the image) is split into three loops over the work-items:
//
//   [0, begin)      the edge, as written, scalar;
//   [begin, end)    the interior, where no clamp changes its operand: a copy
//                   without the clamps;
//   [end, count)    the rest, as written (all of it when there is no
//                   interior).
//
// A clamped index is no recurrence of the loop, so the vectorizer gathered
// every load through it one lane at a time (a 3x3 blur over a buffer ran at
// 0.07x native C++; through read_imagef the loop did not widen at all). In
// the interior the index is `x + dx` again, consecutive across work-items,
// and loads and stores through it move whole vectors. A group as wide as an
// image row has one work-item of edge at each end.
//
// How. Scalar evolution sees a clamp as smax / smin (umax / umin) of an
// affine recurrence {s,+,1} or {s,+,-1} of the loop and values the loop does
// not change. Each such min or max is dropped, and what the drop relies on is
// noted as a bound: the recurrence stays >= (or <=) that value. For each
// bound, the check before the loop finds the trips k on which s + k (s - k)
// lies between the bound and the type's limit, in 128-bit arithmetic, taking
// s at the representative modulo 2^N that first reaches that range (an index
// that starts at -1 read unsigned is at 0 on its second trip); the interior
// is the intersection of these ranges. On it the values do not wrap, so each
// drop is exact. In the interior copy:
//
// - an instruction whose rewritten evolution equals that of one of its
//   operands (a min, max or select that the bounds make a no-op) is that
//   operand;
// - a comparison of a clamped coordinate (a bound's recurrence, shifted by a
//   constant) with a value the loop does not change (the image's `inside`
//   tests, the bounds check before a write) is its answer at `begin`, which
//   the check requires to be its answer at the interior's last trip, with
//   no wrap between: a value the same for every work-item;
// - a guard, a branch that either runs a part of the loop or skips to where
//   the part ends, whose condition the settled answers decide, always runs
//   the part, and the check requires that they run it (the vectorizer would
//   run the part under a mask, and gave up on a masked blur).
//
// - an equality test of a coordinate with such a value (a stencil's border,
//   `x == 0 || x == width - 1`, which the vectorizer ran per lane, its
//   neighbours' loads masked) is false in the copy: the check keeps the
//   interior off the value, ending it before the value where the run meets
//   it late, starting it after the value where the run meets it early, the
//   whole run where it does not meet it.
//
// The edge before the interior is short (one work-item for a 3x3 blur): it
// stays scalar, and a run whose interior starts later than MaxEdge
// work-items in takes the loop as written. Loops with a dropped clamp or a
// settled test are split, and only the work-item loops WorkGroupLoops made
// (innermost, marked parallel), whose counter runs by 1 from 0 or from where
// a part of a loop WorkItemLoopSplitPass split starts, with nothing
// leaving the loop but control. Where nothing but tests is settled, runs of
// fewer than MinRun work-items skip the check (a row of 16 paid more for it
// than its interior saved).
//
// One pass in one file, longer than most (a sixth of it this comment): the
// bounds that dropping the clamps relies on, the check built from them and
// the rewrite of the copy share one rewriter's state.
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-interior-versioning"

using namespace llvm;
using namespace llvm::PatternMatch;

LOCKSTEP_STATISTIC(NumLoopsSplit, "Work-item loops split into edges and an interior");
LOCKSTEP_STATISTIC(NumOperandsForwarded, "Clamps and selects the interior copies replace by an operand");
LOCKSTEP_STATISTIC(NumTestsSettled, "Comparisons the interior copies answer before the loop");
LOCKSTEP_STATISTIC(NumGuardsTaken, "Settled guards the interior copies always enter");

static cl::opt<unsigned> MaxInstructions(
    "lockstep-interior-max-instructions", cl::init(4000), cl::Hidden,
    cl::desc("Largest work-item loop (in instructions) that InteriorVersioningPass copies"));
static cl::opt<unsigned> MinRun(
    "lockstep-interior-min-run", cl::init(64), cl::Hidden,
    cl::desc("Fewest work-items of a run that InteriorVersioningPass checks for an interior; shorter "
             "runs take the loop as it was"));
static cl::opt<bool> kClampTests(
    "lockstep-interior-clamp-tests", cl::init(true), cl::Hidden,
    cl::desc("Bound the interior by the tests of clamps that scalar evolution reads as no min or max"));
static cl::opt<unsigned> kOrderEdgeTrips(
    "lockstep-interior-order-edge", cl::init(8), cl::Hidden,
    cl::desc("Trips from either end of a run within which an ordering test may change its answer and "
             "still bound the interior"));
static cl::opt<unsigned> MaxEdge(
    "lockstep-interior-max-edge", cl::init(64), cl::Hidden,
    cl::desc("Most work-items before the interior that the scalar edge loop runs; more and the run "
             "takes the loop as it was"));

namespace lockstep::compiler {
namespace {

// What the interior copy relies on: `value`, an affine recurrence of the
// loop with a constant step, stays >= `bound` (atLeast) or <= `bound` on
// every trip, its bits read signed or unsigned.
struct Bound {
  const SCEVAddRecExpr *value;
  const SCEV *bound;
  bool isSigned, atLeast;
  bool operator==(const Bound &) const = default;
};

// A comparison settled in the copy: `value` (as in Bound) against the
// loop-invariant `other`, with `value` on the left of `predicate`.
struct Test {
  ICmpInst *compare;
  const SCEVAddRecExpr *value;
  const SCEV *other;
  CmpInst::Predicate predicate;
};

bool isAffineIn(const SCEV *expression, const Loop *loop) {
  auto *recurrence = dyn_cast<SCEVAddRecExpr>(expression);
  return recurrence && recurrence->getLoop() == loop && recurrence->isAffine() &&
         isa<SCEVConstant>(recurrence->getOperand(1));
}

// Rewrites an evolution as it is in the interior: a min or max of one
// affine recurrence of the loop and values the loop does not change is the
// recurrence, and the bound that makes it so is noted.
class InteriorRewriter : public SCEVRewriteVisitor<InteriorRewriter> {
 public:
  InteriorRewriter(ScalarEvolution &SE, const Loop *loop, SmallVectorImpl<Bound> &bounds)
      : SCEVRewriteVisitor(SE), loop(loop), bounds(bounds) {}

  const SCEV *visitSMaxExpr(const SCEVSMaxExpr *E) { return drop(E, true, true); }
  const SCEV *visitSMinExpr(const SCEVSMinExpr *E) { return drop(E, true, false); }
  const SCEV *visitUMaxExpr(const SCEVUMaxExpr *E) { return drop(E, false, true); }
  const SCEV *visitUMinExpr(const SCEVUMinExpr *E) { return drop(E, false, false); }

 private:
  const SCEV *drop(const SCEVMinMaxExpr *E, bool isSigned, bool atLeast) {
    SmallVector<const SCEV *, 4> operands, invariant;
    const SCEV *varying = nullptr;
    bool droppable = true;
    for (const SCEV *operand : E->operands()) {
      const SCEV *rewritten = visit(operand);
      operands.push_back(rewritten);
      if (SE.isLoopInvariant(rewritten, loop))
        invariant.push_back(rewritten);
      else if (!varying && isAffineIn(rewritten, loop))
        varying = rewritten;
      else
        droppable = false;
    }
    if (droppable && varying && !invariant.empty()) {
      for (const SCEV *bound : invariant) {
        Bound fact{cast<SCEVAddRecExpr>(varying), bound, isSigned, atLeast};
        if (!is_contained(bounds, fact)) bounds.push_back(fact);
      }
      return varying;
    }
    switch (E->getSCEVType()) {
      case scSMaxExpr:
        return SE.getSMaxExpr(operands);
      case scSMinExpr:
        return SE.getSMinExpr(operands);
      case scUMaxExpr:
        return SE.getUMaxExpr(operands);
      default:
        return SE.getUMinExpr(operands);
    }
  }

  const Loop *loop;
  SmallVectorImpl<Bound> &bounds;
};

// A recurrence with step 1 or -1: the vectorizer's consecutive accesses.
bool stepsByOne(const SCEVAddRecExpr *value) {
  const APInt &step = cast<SCEVConstant>(value->getOperand(1))->getAPInt();
  return step.isOne() || step.isAllOnes();
}

class InteriorVersioning {
 public:
  InteriorVersioning(Function &F, LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE)
      : F(F), LI(LI), DT(DT), SE(SE) {}

  bool run() {
    SmallVector<Loop *, 8> candidates;
    for (Loop *loop : LI.getLoopsInPreorder())
      if (isWorkItemLoop(loop)) candidates.push_back(loop);
    bool changed = false;
    for (Loop *loop : candidates) {
      // LoopSimplify's form (a preheader, exits of its own): SimplifyCFG
      // merges the empty blocks that make it, where a loop was copied.
      bool reshaped = false;
      if (!loop->getLoopPreheader()) reshaped |= InsertPreheaderForLoop(loop, &DT, &LI, nullptr, false) != nullptr;
      if (!loop->hasDedicatedExits()) reshaped |= formDedicatedExitBlocks(loop, &DT, &LI, nullptr, false);
      if (reshaped) {
        SE.forgetLoop(loop);
        changed = true;
      }
      changed |= split(loop);
    }
    return changed;
  }

 private:
  // A branch of the loop that either runs a part of it or skips to where
  // that part ends: `part` is the successor that runs it.
  struct Guard {
    BranchInst *branch;
    unsigned part;
  };

  bool split(Loop *loop) {
    unsigned size = 0;
    for (BasicBlock *block : loop->blocks()) size += block->size();
    if (size > MaxInstructions) return false;
    std::optional<WorkItemCounter> counter = workItemCounter(loop);
    BasicBlock *exit = loop->getExitBlock();
    if (!counter || !exit || exit->getSinglePredecessor() != loop->getLoopLatch()) return false;
    // Nothing leaves the loop but control: the three parts need no phis.
    for (BasicBlock *block : loop->blocks())
      for (Instruction &I : *block)
        for (User *user : I.users())
          if (!loop->contains(cast<Instruction>(user))) return false;

    // What the interior copy changes, found on the loop as it is.
    SmallVector<Bound, 8> bounds;
    InteriorRewriter rewriter(SE, loop, bounds);
    SmallVector<std::pair<Instruction *, Value *>, 8> forwards;
    SmallVector<Test, 8> tests;
    for (BasicBlock *block : loop->blocks())
      for (Instruction &I : *block) {
        if (!I.getType()->isIntegerTy() || I.getType()->getIntegerBitWidth() > 64) continue;
        if (auto *compare = dyn_cast<ICmpInst>(&I)) {
          if (compare == counter->exitTest) continue;
          if (std::optional<Test> test = settled(compare, rewriter)) tests.push_back(*test);
          continue;
        }
        if (!isa<IntrinsicInst>(I) && !isa<SelectInst>(I)) continue;
        const SCEV *original = SE.getSCEV(&I);
        if (!isa<SCEVMinMaxExpr>(original)) continue;
        const SCEV *rewritten = rewriter.visit(original);
        if (!isAffineIn(rewritten, loop)) continue;
        for (Use &operand : I.operands())
          if (operand->getType() == I.getType() && !loop->isLoopInvariant(operand) &&
              rewriter.visit(SE.getSCEV(operand)) == rewritten) {
            forwards.push_back({&I, operand});
            break;
          }
      }
    if (forwards.empty() && tests.empty()) return false;
    // Rows whose tails the vectorizer masks (groups narrower than or not a
    // multiple of the vector step: 16 x 16 tiles of a straight-line stencil)
    // are too short for an interior of tests alone: that stencil ran 10%
    // slower split.
    if (forwards.empty() && getBooleanLoopAttribute(loop, "llvm.loop.vectorize.predicate.enable")) return false;
    BasicBlock *preheader = loop->getLoopPreheader();
    Instruction *at = preheader->getTerminator();
    SCEVExpander expander(SE, F.getParent()->getDataLayout(), "interior");
    auto expandable = [&](const SCEV *expression) {
      return expander.isSafeToExpandAt(expression, at);
    };
    for (const Bound &bound : bounds)
      if (!stepsByOne(bound.value) || !expandable(bound.value->getStart()) ||
          !expandable(bound.bound))
        return false;
    erase_if(tests, [&](const Test &test) {
      return !expandable(test.value->getStart()) || !expandable(test.other);
    });
    if (forwards.empty() && tests.empty()) return false;
    SmallVector<Guard, 4> guards = guardsOf(loop);

    // The check, before the loop: the interior [lo, hi) of the counter's
    // trips [0, count - start), in 128-bit arithmetic. Where only tests are settled
    // (no clamp is dropped), in a block of its own that runs of fewer than
    // MinRun work-items skip: a halo stencil's rows of 16 paid more for the
    // check than their interior saved.
    BasicBlock *entry = preheader;
    BasicBlock *checkBlock =
        forwards.empty() ? SplitBlock(preheader, at, &DT, &LI, nullptr, "interior.check") : nullptr;
    IRBuilder<> builder(at);
    Type *wide = builder.getInt128Ty();
    // Trips, not ids: the loop runs count - start of them (a part of a split
    // loop starts past 0), and recurrences start at the first.
    bool fromZero = match(counter->start, m_Zero());
    Value *count = builder.CreateZExt(counter->count, wide);
    if (!fromZero) count = builder.CreateSub(count, builder.CreateZExt(counter->start, wide));
    Value *lo = builder.getIntN(128, 0);
    Value *last = builder.CreateSub(count, builder.getIntN(128, 1));  // the interior's last trip
    auto extend = [&](Value *value, bool isSigned) {
      return isSigned ? builder.CreateSExt(value, wide) : builder.CreateZExt(value, wide);
    };
    // The least and greatest values of a `bits`-wide type, read signed or
    // not, as 128-bit values.
    auto typeRange = [&](unsigned bits, bool isSigned) -> std::pair<Value *, Value *> {
      if (isSigned)
        return {builder.getInt(APInt::getSignedMinValue(bits).sext(128)),
                builder.getInt(APInt::getSignedMaxValue(bits).sext(128))};
      return {builder.getInt(APInt::getZero(128)), builder.getInt(APInt::getMaxValue(bits).zext(128))};
    };
    auto isUp = [](const SCEVAddRecExpr *value) {
      return cast<SCEVConstant>(value->getOperand(1))->getAPInt().isOne();
    };
    // Keeps the interior where `value`, read signed or not, lies in [low,
    // high] (128-bit values within its type's range). Its first value s
    // (extended) is taken at the representative of s modulo 2^N that first
    // reaches the range: s, or s - 2^N if s already passed it going up
    // (s + 2^N going down), so that an index that starts at -1 read
    // unsigned (2^N - 1) still has 0 at its second trip. On the trips
    // [low - s, high - s] (going up; [s - high, s - low] going down) the
    // value is then s + k (s - k) without wrapping.
    auto keepWithin = [&](const SCEVAddRecExpr *value, bool isSigned, Value *low, Value *high) {
      unsigned bits = value->getType()->getIntegerBitWidth();
      Value *start = extend(expander.expandCodeFor(value->getStart(), nullptr, at), isSigned);
      Value *period = builder.getInt(APInt::getOneBitSet(128, bits));
      bool up = isUp(value);
      Value *passed = up ? builder.CreateICmpSGT(start, high) : builder.CreateICmpSLT(start, low);
      start = builder.CreateSelect(
          passed, up ? builder.CreateSub(start, period) : builder.CreateAdd(start, period), start);
      Value *from = up ? builder.CreateSub(low, start) : builder.CreateSub(start, high);
      Value *to = up ? builder.CreateSub(high, start) : builder.CreateSub(start, low);
      lo = builder.CreateBinaryIntrinsic(Intrinsic::smax, lo, from);
      last = builder.CreateBinaryIntrinsic(Intrinsic::smin, last, to);
    };
    for (const Bound &bound : bounds) {
      unsigned bits = bound.value->getType()->getIntegerBitWidth();
      Value *limit = extend(expander.expandCodeFor(bound.bound, nullptr, at), bound.isSigned);
      auto [typeLow, typeHigh] = typeRange(bits, bound.isSigned);
      keepWithin(bound.value, bound.isSigned, bound.atLeast ? limit : typeLow,
                 bound.atLeast ? typeHigh : limit);
    }
    // An equality test (`x == 0`, `x == width - 1`: a stencil's border)
    // is false on a run that does not reach its value: the interior ends
    // before that value where the run meets it late, starts after it where
    // the run meets it early (the work-items before it going to the edge
    // loop), and is the whole run where the run does not meet it at all.
    DenseMap<Value *, Value *> answers;
    for (const Test &test : tests) {
      if (!ICmpInst::isEquality(test.predicate)) continue;
      unsigned bits = test.value->getType()->getIntegerBitWidth();
      Value *start = extend(expander.expandCodeFor(test.value->getStart(), nullptr, at), true);
      Value *other = extend(expander.expandCodeFor(test.other, nullptr, at), true);
      auto [typeLow, typeHigh] = typeRange(bits, true);
      Value *one = builder.getIntN(128, 1);
      Value *trip = isUp(test.value) ? builder.CreateSub(other, start) : builder.CreateSub(start, other);
      Value *meets = builder.CreateAnd(builder.CreateICmpSGE(trip, builder.getIntN(128, 0)),
                                       builder.CreateICmpSLT(trip, count));
      Value *early = builder.CreateAnd(meets, builder.CreateICmpSLT(builder.CreateAdd(trip, trip),
                                                                    builder.CreateSub(count, one)));
      Value *late = builder.CreateAnd(meets, builder.CreateNot(early));
      // Going down, meeting the value early leaves values below it.
      Value *above = isUp(test.value) ? early : late, *below = isUp(test.value) ? late : early;
      keepWithin(test.value, true, builder.CreateSelect(above, builder.CreateAdd(other, one), typeLow),
                 builder.CreateSelect(below, builder.CreateSub(other, one), typeHigh));
      answers[test.compare] = builder.getInt1(test.predicate == ICmpInst::ICMP_NE);
    }
    // An ordering test whose answer changes within kOrderEdgeTrips trips of
    // either end of the run (a clamp's `v < x ? x - 1 : v` once InstCombine
    // has turned it around, which scalar evolution reads as no min or max; a
    // validity test `x >= lo` in a guard) keeps the interior to the longer
    // side: the few work-items before it go to the edge loop, those after
    // it to the loop as written. Elsewhere the test must answer alike over
    // the whole interior (below), or there is none.
    DenseMap<ICmpInst *, bool> clampAnswers;
    for (const Test &test : tests) {
      if (ICmpInst::isEquality(test.predicate)) continue;
      bool isSigned = ICmpInst::isSigned(test.predicate);
      unsigned bits = test.value->getType()->getIntegerBitWidth();
      Value *start = extend(expander.expandCodeFor(test.value->getStart(), nullptr, at), isSigned);
      Value *other = extend(expander.expandCodeFor(test.other, nullptr, at), isSigned);
      // value < cut, or its negation.
      CmpInst::Predicate strict = ICmpInst::getStrictPredicate(test.predicate);
      bool inclusive = strict != test.predicate;
      bool greater = ICmpInst::isGT(strict);
      Value *one = builder.getIntN(128, 1);
      Value *cut = inclusive != greater ? builder.CreateAdd(other, one) : other;
      auto [typeLow, typeHigh] = typeRange(bits, isSigned);
      // A clamp's test: the interior is where it picks the moving operand,
      // so that the copy's select is that operand (consecutive), not a
      // choice made at run time between it and the bound.
      if (std::optional<bool> wanted = kClampTests ? clampAnswer(test.compare, loop) : std::nullopt) {
        clampAnswers[test.compare] = *wanted;
        if (*wanted != greater)
          keepWithin(test.value, isSigned, typeLow, builder.CreateSub(cut, one));
        else
          keepWithin(test.value, isSigned, cut, typeHigh);
        continue;
      }
      bool up = isUp(test.value);
      // The first trip on the other side of the cut.
      Value *trip = up ? builder.CreateSub(cut, start) : builder.CreateSub(builder.CreateAdd(start, one), cut);
      Value *edge = builder.getIntN(128, kOrderEdgeTrips);
      Value *early = builder.CreateICmpSLE(trip, edge);
      Value *late = builder.CreateAnd(builder.CreateNot(early),
                                      builder.CreateICmpSGE(trip, builder.CreateSub(count, edge)));
      // Going up the values below the cut come first, going down last.
      Value *keepHigh = up ? early : late, *keepLow = up ? late : early;
      keepWithin(test.value, isSigned, builder.CreateSelect(keepHigh, cut, typeLow),
                 builder.CreateSelect(keepLow, builder.CreateSub(cut, one), typeHigh));
    }
    Value *ok = builder.CreateICmpSLE(lo, last);
    // Each other test answers at lo as at the interior's last trip, with no
    // wrap of its value between (then its answer changes at most once along
    // the run, and so not at all); the copy takes the answer at lo.
    for (const Test &test : tests) {
      if (ICmpInst::isEquality(test.predicate)) continue;
      bool isSigned = ICmpInst::isSigned(test.predicate);
      Type *type = test.value->getType();
      unsigned bits = type->getIntegerBitWidth();
      Value *start = expander.expandCodeFor(test.value->getStart(), nullptr, at);
      Value *trips = builder.CreateSub(last, lo);
      Value *firstNarrow = isUp(test.value)
                               ? builder.CreateAdd(start, builder.CreateTrunc(lo, type))
                               : builder.CreateSub(start, builder.CreateTrunc(lo, type));
      Value *first = extend(firstNarrow, isSigned);
      Value *final =
          isUp(test.value) ? builder.CreateAdd(first, trips) : builder.CreateSub(first, trips);
      auto [typeLow, typeHigh] = typeRange(bits, isSigned);
      Value *fits = builder.CreateAnd(builder.CreateICmpSGE(final, typeLow),
                                      builder.CreateICmpSLE(final, typeHigh));
      Value *other = extend(expander.expandCodeFor(test.other, nullptr, at), isSigned);
      CmpInst::Predicate wideTest =
          isSigned ? test.predicate : ICmpInst::getSignedPredicate(test.predicate);
      Value *atFirst = builder.CreateICmp(wideTest, first, other);
      Value *same = builder.CreateICmpEQ(atFirst, builder.CreateICmp(wideTest, final, other));
      ok = builder.CreateAnd(ok, builder.CreateAnd(fits, same));
      auto clamp = clampAnswers.find(test.compare);
      answers[test.compare] = clamp == clampAnswers.end() ? atFirst : builder.getInt1(clamp->second);
    }
    // The settled guards: the copy always runs their part, and the check
    // asks that the settled answers run it.
    SmallVector<Guard, 4> taken;
    for (const Guard &guard : guards) {
      DenseMap<Value *, Value *> made(answers);
      Value *condition = materialize(guard.branch->getCondition(), loop, made, builder);
      if (!condition) continue;
      ok = builder.CreateAnd(ok, guard.part == 0 ? condition : builder.CreateNot(condition));
      taken.push_back(guard);
    }
    // A long stretch before the interior runs in the scalar edge loop:
    // such a run goes to the loop as it was instead.
    ok =
        builder.CreateAnd(ok, builder.CreateICmpSLE(lo, builder.getIntN(128, MaxEdge)), "interior");
    Type *counterType = counter->id->getType();
    Value *firstId = counter->start;  // where the edge starts
    auto fromStart = [&](Value *trip) { return fromZero ? trip : builder.CreateAdd(firstId, trip); };
    Value *begin =
        builder.CreateSelect(ok, fromStart(builder.CreateTrunc(lo, counterType)), firstId, "interior.begin");
    Value *end = builder.CreateSelect(
        ok, fromStart(builder.CreateTrunc(builder.CreateAdd(last, builder.getIntN(128, 1)), counterType)), firstId,
        "interior.end");
    if (checkBlock) {
      BasicBlock *checked = SplitBlock(checkBlock, at, &DT, &LI, nullptr, "interior.decided");
      entry->getTerminator()->eraseFromParent();
      IRBuilder<> skip(entry);
      Value *trips = fromZero ? counter->count : skip.CreateSub(counter->count, counter->start);
      skip.CreateCondBr(skip.CreateICmpUGE(trips, ConstantInt::get(counterType, MinRun)), checkBlock,
                        checked);
      auto merge = [&](Value *value, Value *skipped) -> Value * {
        auto *I = dyn_cast<Instruction>(value);
        if (!I || I->getParent() != checkBlock) return value;
        PHINode *phi = PHINode::Create(value->getType(), 2, value->getName() + ".checked", checked->getFirstNonPHIIt());
        phi->addIncoming(value, checkBlock);
        phi->addIncoming(skipped, entry);
        return phi;
      };
      begin = merge(begin, firstId);
      end = merge(end, firstId);
      ok = merge(ok, builder.getFalse());
      for (auto &[compare, answer] : answers) answer = merge(answer, PoisonValue::get(answer->getType()));
      DT.recalculate(F);
      preheader = checked;
    }

    // preheader -> [edge: 0 .. begin) -> [interior: begin .. end) ->
    // [the loop: end .. count) -> exit, each part skipped when empty.
    LLVMContext &context = F.getContext();
    BasicBlock *loopEntry = SplitBlock(preheader, at, &DT, &LI, nullptr, "interior.rest");
    ValueToValueMapTy interiorMap, edgeMap;
    SmallVector<BasicBlock *, 16> interiorBlocks, edgeBlocks;
    Loop *interior = cloneLoopWithPreheader(loopEntry, preheader, loop, interiorMap, ".interior",
                                            &LI, &DT, interiorBlocks);
    remapInstructionsInBlocks(interiorBlocks, interiorMap);
    Loop *edge = cloneLoopWithPreheader(interior->getLoopPreheader(), preheader, loop, edgeMap,
                                        ".edge", &LI, &DT, edgeBlocks);
    remapInstructionsInBlocks(edgeBlocks, edgeMap);
    auto *toInterior =
        BasicBlock::Create(context, "interior.enter", &F, interior->getLoopPreheader());
    auto *toRest = BasicBlock::Create(context, "interior.leave", &F, loopEntry);
    if (Loop *parent = loop->getParentLoop()) {
      parent->addBasicBlockToLoop(toInterior, LI);
      parent->addBasicBlockToLoop(toRest, LI);
    }
    auto bound = [&](ValueToValueMapTy *map, Value *from, Value *to, BasicBlock *next) {
      auto mapped = [&](Value *value) { return map ? static_cast<Value *>((*map)[value]) : value; };
      auto *id = cast<PHINode>(mapped(counter->id));
      auto *test = cast<ICmpInst>(mapped(counter->exitTest));
      Loop *part = LI.getLoopFor(id->getParent());
      id->setIncomingValueForBlock(part->getLoopPreheader(), from);
      test->setOperand(counter->countOperand, to);
      if (map) {
        cast<BranchInst>(part->getLoopLatch()->getTerminator())->replaceSuccessorWith(exit, next);
        if (MDNode *loopId = loop->getLoopID()) part->setLoopID(copyLoopId(loopId));
      }
    };
    bound(&edgeMap, firstId, begin, toInterior);
    bound(&interiorMap, begin, end, toRest);
    bound(nullptr, end, counter->count, nullptr);
    preheader->getTerminator()->eraseFromParent();  // SplitBlock's branch to loopEntry
    IRBuilder<>(preheader).CreateCondBr(IRBuilder<>(preheader).CreateICmpULT(firstId, begin),
                                        edge->getLoopPreheader(), toInterior);
    IRBuilder<> enter(toInterior);
    enter.CreateCondBr(enter.CreateICmpULT(begin, end), interior->getLoopPreheader(), toRest);
    IRBuilder<> leave(toRest);
    leave.CreateCondBr(
        leave.CreateOr(leave.CreateNot(ok), leave.CreateICmpULT(end, counter->count)), loopEntry,
        exit);
    keepScalar(edge, /*noUnroll=*/false);  // a few work-items: scalar, as written

    // The interior copy.
    auto inInterior = [&](Value *value) -> Value * {
      auto found = interiorMap.find(value);
      return found == interiorMap.end() ? value : static_cast<Value *>(found->second);
    };
    for (auto [clamp, operand] : forwards) {
      cast<Instruction>(inInterior(clamp))->replaceAllUsesWith(inInterior(operand));
      ++NumOperandsForwarded;
    }
    for (const Test &test : tests) {
      cast<Instruction>(inInterior(test.compare))->replaceAllUsesWith(answers[test.compare]);
      ++NumTestsSettled;
    }
    for (const Guard &guard : taken) {
      auto *branch = cast<BranchInst>(inInterior(guard.branch));
      BasicBlock *block = branch->getParent();
      branch->getSuccessor(1 - guard.part)->removePredecessor(block);
      BranchInst::Create(branch->getSuccessor(guard.part), branch);
      branch->eraseFromParent();
      ++NumGuardsTaken;
    }
    // The forwarded instructions and settled tests are dead in the copy now;
    // -O3's later cleanups delete them with what only they used.
    DT.recalculate(F);
    ++NumLoopsSplit;
    LLVM_DEBUG(dbgs() << "interior of " << loop->getHeader()->getName() << " in " << F.getName()
                      << ": " << forwards.size() << " forwarded, " << bounds.size() << " bounds, "
                      << tests.size() << " tests, " << taken.size() << " guards\n");
    return true;
  }

  // Where `compare` only chooses between a value moving with the loop by
  // one and one the loop does not change (`v < x ? x - 1 : v`, a clamp
  // InstCombine turned around, which scalar evolution reads as no min or
  // max): the answer that picks the moving value, the same in all of them.
  std::optional<bool> clampAnswer(ICmpInst *compare, Loop *loop) {
    std::optional<bool> wanted;
    for (User *user : compare->users()) {
      auto *select = dyn_cast<SelectInst>(user);
      if (!select || select->getCondition() != compare || !select->getType()->isIntegerTy() ||
          select->getType()->isIntegerTy(1))
        return std::nullopt;
      auto moves = [&](Value *value) {
        auto *recurrence = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(value));
        return recurrence && recurrence->getLoop() == loop && recurrence->isAffine() &&
               isa<SCEVConstant>(recurrence->getOperand(1)) && stepsByOne(recurrence);
      };
      Value *onTrue = select->getTrueValue(), *onFalse = select->getFalseValue();
      std::optional<bool> answer;
      if (moves(onTrue) && loop->isLoopInvariant(onFalse)) answer = true;
      if (moves(onFalse) && loop->isLoopInvariant(onTrue)) answer = false;
      if (!answer || (wanted && *wanted != *answer)) return std::nullopt;
      wanted = answer;
    }
    return wanted;
  }

  // Branches that run a part of the loop or skip it (an if-then: the other
  // successor post-dominates the part), on a condition that varies.
  SmallVector<Guard, 4> guardsOf(Loop *loop) {
    PostDominatorTree postDominators(F);
    SmallVector<Guard, 4> guards;
    for (BasicBlock *block : loop->blocks()) {
      auto *branch = dyn_cast<BranchInst>(block->getTerminator());
      if (!branch || !branch->isConditional() || loop->isLoopInvariant(branch->getCondition()) ||
          block == loop->getLoopLatch())
        continue;
      if (postDominators.dominates(branch->getSuccessor(1), branch->getSuccessor(0)))
        guards.push_back({branch, 0});
      else if (postDominators.dominates(branch->getSuccessor(0), branch->getSuccessor(1)))
        guards.push_back({branch, 1});
    }
    return guards;
  }

  // `value` computed before the loop from the settled answers (`made`, which
  // also remembers what was built) and values the loop does not change;
  // null if it needs anything else.
  Value *materialize(Value *value, Loop *loop, DenseMap<Value *, Value *> &made,
                     IRBuilder<> &builder) {
    if (auto found = made.find(value); found != made.end()) return found->second;
    if (loop->isLoopInvariant(value)) return value;
    auto *I = dyn_cast<Instruction>(value);
    if (!I || isa<PHINode>(I) || I->mayReadOrWriteMemory() || !isSafeToSpeculativelyExecute(I))
      return nullptr;
    SmallVector<Value *, 4> operands;
    for (Value *operand : I->operands()) {
      Value *before = materialize(operand, loop, made, builder);
      if (!before) return nullptr;
      operands.push_back(before);
    }
    Instruction *clone = I->clone();
    for (unsigned i = 0; i < operands.size(); ++i) clone->setOperand(i, operands[i]);
    builder.Insert(clone, I->getName() + ".settled");
    made[value] = clone;
    return clone;
  }


  // A comparison of an affine recurrence (as the interior sees it) with a
  // value the loop does not change.
  std::optional<Test> settled(ICmpInst *compare, InteriorRewriter &rewriter) {
    if (!compare->getOperand(0)->getType()->isIntegerTy() ||
        compare->getOperand(0)->getType()->getIntegerBitWidth() > 64)
      return std::nullopt;
    const Loop *loop = LI.getLoopFor(compare->getParent());
    const SCEV *left = rewriter.visit(SE.getSCEV(compare->getOperand(0)));
    const SCEV *right = rewriter.visit(SE.getSCEV(compare->getOperand(1)));
    if (isAffineIn(left, loop) && SE.isLoopInvariant(right, loop) &&
        stepsByOne(cast<SCEVAddRecExpr>(left)))
      return Test{compare, cast<SCEVAddRecExpr>(left), right, compare->getPredicate()};
    if (isAffineIn(right, loop) && SE.isLoopInvariant(left, loop) &&
        stepsByOne(cast<SCEVAddRecExpr>(right)))
      return Test{compare, cast<SCEVAddRecExpr>(right), left, compare->getSwappedPredicate()};
    return std::nullopt;
  }

  Function &F;
  LoopInfo &LI;
  DominatorTree &DT;
  ScalarEvolution &SE;
};

}  // namespace

PreservedAnalyses InteriorVersioningPass::run(Function &F, FunctionAnalysisManager &analyses) {
  if (F.isDeclaration() || !F.hasFnAttribute(kWorkGroupCodeAttr)) return PreservedAnalyses::all();
  bool changed = InteriorVersioning(F, analyses.getResult<LoopAnalysis>(F),
                                    analyses.getResult<DominatorTreeAnalysis>(F),
                                    analyses.getResult<ScalarEvolutionAnalysis>(F))
                     .run();
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

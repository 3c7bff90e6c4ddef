// DivisionRunsPass, before the loop vectorizer (ahead of InteriorVersioning):
// a work-item loop that divides a value stepping by one with each work-item
// by a divisor the loop does not change (`x = gid % width; y = gid / width`,
// a 2-D image walked by a 1-D range) runs in runs of work-items that share
// the quotient. In a run the quotient is one value computed before it and
// the remainder is the dividend less a shared value: the row is uniform, the
// column consecutive.
//
// Divided per work-item, the quotient and the remainder are no recurrence of
// the loop, so every access through them was a gather (UniformDivisionPass
// made the division itself vector arithmetic), a nest of kernel loops
// bounded by the row (`for (j = y; j < y + mh; j++)`, AMD's
// SimpleConvolution) counted differently in every work-item and could not
// be widened as an outer loop, and a clamp of the column was no clamp of a
// recurrence for InteriorVersioningPass.
//
//   preheader:  br ok, runs, loop              (ok: the check below)
//   runs:       p = phi [start, preheader], [end, runs.next]
//               for each dividend X = {X0,+,1} and divisor W:
//                 Xp = X0 + (p - start); q = Xp / W; r = Xp - q * W
//               end = min(count, p + min over them of (W - r, and for an
//                     unsigned X, the trips left before X wraps))
//   run:        the loop's copy over [p, end) (its counter k from 0, its
//               ids p + k), its quotients q and its remainders X - q * W
//   runs.next:  br end < count, runs, exit
//
// Divisions by constants of 64 and more count too, as do the shifts and
// masks of such a power of two (`gid >> 6`, `gid & 1023`: InstCombine's
// `/ 64`, `% 1024`).
//
// The check: every divisor at least MinDivisor (runs of fewer work-items
// than a vector are no faster than the loop as written, which runs
// otherwise, widened as before: `gid % channels` with 3 or 4 channels ran
// 1.4x slower with it kept scalar, which saved a sixth of a division-heavy
// program's build), and for a signed division (`int x = gid % width`) a
// non-negative dividend that does not overflow before the loop's last
// work-item and a positive divisor, where C's division rounds as the
// unsigned one does.
//
// Taken: loops WorkGroupLoops made (marked parallel, holding no other such
// loop; kernel loops inside them are copied with them), counted by one
// from a start to a count, leaving by their latch alone with nothing used
// after them.
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-division-runs"

using namespace llvm;

LOCKSTEP_STATISTIC(NumLoopsRun, "Work-item loops that run in runs of one quotient");
LOCKSTEP_STATISTIC(NumDivisionsShared, "Divisions and remainders a run computes once or from its quotient");

static cl::opt<bool> Enabled("lockstep-division-runs", cl::init(true), cl::Hidden,
                             cl::desc("Run work-item loops that divide their ids by a shared divisor in runs "
                                      "of one quotient"));
static cl::opt<unsigned> MinDivisor("lockstep-division-runs-min-divisor", cl::init(16), cl::Hidden,
                                    cl::desc("Smallest divisor for which the runs are taken (a whole run "
                                             "is that many work-items)"));
static cl::opt<unsigned> MinConstantDivisor(
    "lockstep-division-runs-min-constant-divisor", cl::init(64), cl::Hidden,
    cl::desc("Smallest constant divisor for which the runs are taken (shorter runs never reach the vectorizer's "
             "main loop)"));
static cl::opt<bool> ScalarFallback("lockstep-division-runs-scalar-fallback", cl::init(false), cl::Hidden,
                                    cl::desc("Keep the loop as written, which the check takes for small divisors, "
                                             "scalar"));
static cl::opt<unsigned> MaxInstructions("lockstep-division-runs-max-instructions", cl::init(4000), cl::Hidden,
                                         cl::desc("Largest work-item loop (in instructions) that is copied"));

namespace lockstep::compiler {
namespace {

constexpr unsigned kMaxDivisions = 4;
constexpr const char *kRunMarker = "lockstep.division.run";

// One dividend and divisor the loop divides, with the signedness of its
// division: every instruction of the loop that divides them alike.
struct Division {
  const SCEVAddRecExpr *dividend;  // {X0,+,1} of the loop
  Value *divisor;
  bool isSigned;
  SmallVector<BinaryOperator *, 2> quotients, remainders;
  // Built before the runs: X0; in each run: q.
  Value *first = nullptr, *quotient = nullptr;
};

// What `I` divides by, if it is a division or a remainder: by a value (a
// constant one at least MinConstantDivisor), or, as InstCombine writes those
// by a power of two, a right shift by k or a mask of the low k bits (2^k at
// least MinConstantDivisor and below 2^24: a mask of 32 bits is a zero
// extension). A constant divisor below 64 makes runs that never reach the
// vectorizer's main loop (16 lanes interleaved 4 times with AVX-512): rows
// of 32 ran 25% slower in runs.
struct DivisionOf {
  Value *divisor;
  bool isSigned, isRemainder;
};

std::optional<DivisionOf> divisionOf(Instruction &I) {
  auto *op = dyn_cast<BinaryOperator>(&I);
  auto *type = dyn_cast<IntegerType>(I.getType());
  if (!op || !type || type->getBitWidth() > 64) return std::nullopt;
  auto *constant = dyn_cast<ConstantInt>(op->getOperand(1));
  if (op->isIntDivRem()) {
    if (constant && constant->getValue().ult(MinConstantDivisor)) return std::nullopt;
    bool isSigned = op->getOpcode() == Instruction::SDiv || op->getOpcode() == Instruction::SRem;
    if (isSigned && constant && constant->isNegative()) return std::nullopt;
    return DivisionOf{op->getOperand(1), isSigned,
                      op->getOpcode() == Instruction::URem || op->getOpcode() == Instruction::SRem};
  }
  if (!constant || (op->getOpcode() != Instruction::LShr && op->getOpcode() != Instruction::And)) return std::nullopt;
  unsigned bits;
  if (op->getOpcode() == Instruction::LShr) {
    if (constant->getValue().uge(type->getBitWidth())) return std::nullopt;
    bits = unsigned(constant->getZExtValue());
  } else {
    if (!constant->getValue().isMask()) return std::nullopt;
    bits = constant->getValue().countr_one();
  }
  if (bits >= 24 || (uint64_t(1) << bits) < MinConstantDivisor) return std::nullopt;
  return DivisionOf{ConstantInt::get(type, uint64_t(1) << bits), false, op->getOpcode() == Instruction::And};
}

bool isCandidate(Loop *loop) {
  if (!findOptionMDForLoop(loop, "llvm.loop.parallel_accesses") ||
      findOptionMDForLoop(loop, "llvm.loop.isvectorized") || findOptionMDForLoop(loop, kRunMarker))
    return false;
  for (Loop *inner : loop->getLoopsInPreorder())
    if (inner != loop && findOptionMDForLoop(inner, "llvm.loop.parallel_accesses")) return false;
  return true;
}

class DivisionRuns {
 public:
  DivisionRuns(Function &F, DominatorTree &DT, LoopInfo &LI, ScalarEvolution &SE)
      : F(F), DT(DT), LI(LI), SE(SE) {}

  // Transforms the first loop not in `seen`; false when none is left.
  bool runOne(SmallPtrSetImpl<BasicBlock *> &seen) {
    for (Loop *loop : LI.getLoopsInPreorder()) {
      if (!seen.insert(loop->getHeader()).second || !isCandidate(loop)) continue;
      if (transform(loop)) return true;
    }
    return false;
  }

 private:
  bool transform(Loop *loop) {
    std::optional<WorkItemCounter> counter = workItemCounter(loop);
    BasicBlock *exit = loop->getExitBlock(), *latch = loop->getLoopLatch();
    if (!counter || !exit || exit->getSinglePredecessor() != latch || !exit->phis().empty()) return false;
    unsigned size = 0;
    for (BasicBlock *block : loop->blocks()) {
      size += block->size();
      for (Instruction &I : *block)
        for (User *user : I.users())
          if (!loop->contains(cast<Instruction>(user))) return false;
    }
    if (size > MaxInstructions) return false;

    BasicBlock *preheader = loop->getLoopPreheader();
    Instruction *at = preheader->getTerminator();
    SCEVExpander expander(SE, F.getParent()->getDataLayout(), "runs");
    SmallVector<Division, kMaxDivisions> divisions;
    for (BasicBlock *block : loop->blocks())
      for (Instruction &I : *block) {
        std::optional<DivisionOf> of = divisionOf(I);
        if (!of || !loop->isLoopInvariant(of->divisor)) continue;
        auto *dividend = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(I.getOperand(0)));
        if (!dividend || dividend->getLoop() != loop || !dividend->isAffine()) continue;
        auto *step = dyn_cast<SCEVConstant>(dividend->getStepRecurrence(SE));
        if (!step || !step->getAPInt().isOne() || !expander.isSafeToExpandAt(dividend->getStart(), at)) continue;
        const SCEV *divisorValue = SE.getSCEV(of->divisor);
        auto same = find_if(divisions, [&](const Division &d) {
          return d.dividend == dividend && SE.getSCEV(d.divisor) == divisorValue && d.isSigned == of->isSigned;
        });
        if (same == divisions.end()) {
          if (divisions.size() == kMaxDivisions) continue;
          divisions.push_back(Division{dividend, of->divisor, of->isSigned, {}, {}});
          same = std::prev(divisions.end());
        }
        (of->isRemainder ? same->remainders : same->quotients).push_back(cast<BinaryOperator>(&I));
      }
    if (divisions.empty()) return false;

    // The loop's other counters (the 32-bit id InstCombine and IndVars
    // made) start a run where the run's first trip has them.
    SmallVector<std::pair<PHINode *, const SCEVAddRecExpr *>, 4> inductions;
    for (PHINode &phi : loop->getHeader()->phis()) {
      if (&phi == counter->id) continue;
      auto *recurrence = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&phi));
      if (!phi.getType()->isIntegerTy() || !recurrence || recurrence->getLoop() != loop || !recurrence->isAffine() ||
          !expander.isSafeToExpandAt(recurrence->getStart(), at) ||
          !expander.isSafeToExpandAt(recurrence->getStepRecurrence(SE), at))
        return false;
      inductions.push_back({&phi, recurrence});
    }

    // The check, in the preheader.
    IRBuilder<> builder(at);
    Type *countType = counter->id->getType();
    Type *i64 = builder.getInt64Ty();
    if (countType->getIntegerBitWidth() > 64) return false;
    Value *trips = builder.CreateZExt(builder.CreateSub(counter->count, counter->start), i64);
    SmallVector<std::pair<Value *, Value *>, 4> inductionParts;  // start, step
    for (auto [phi, recurrence] : inductions)
      inductionParts.push_back({expander.expandCodeFor(recurrence->getStart(), phi->getType(), at),
                                expander.expandCodeFor(recurrence->getStepRecurrence(SE), phi->getType(), at)});
    Value *ok = builder.getTrue();
    for (Division &d : divisions) {
      auto *type = cast<IntegerType>(d.divisor->getType());
      d.first = expander.expandCodeFor(d.dividend->getStart(), type, at);
      Constant *least = ConstantInt::get(type, MinDivisor);
      ok = builder.CreateAnd(ok, d.isSigned ? builder.CreateICmpSGE(d.divisor, least)
                                            : builder.CreateICmpUGE(d.divisor, least));
      if (!d.isSigned) continue;
      // 0 <= X0 and X0 + trips - 1 <= the type's largest value.
      Value *room = builder.CreateZExt(
          builder.CreateSub(ConstantInt::get(type, APInt::getSignedMaxValue(type->getBitWidth())), d.first), i64);
      ok = builder.CreateAnd(ok, builder.CreateICmpSGE(d.first, ConstantInt::get(type, 0)));
      ok = builder.CreateAnd(ok, builder.CreateICmpULE(builder.CreateSub(trips, builder.getInt64(1)), room));
    }

    // preheader -> (ok ? runs : the loop as written); the runs' copy exits
    // to runs.next, which goes round or on to the exit.
    LLVMContext &context = F.getContext();
    BasicBlock *loopEntry = SplitBlock(preheader, at, &DT, &LI, nullptr, "runs.not");
    ValueToValueMapTy map;
    SmallVector<BasicBlock *, 16> blocks;
    Loop *run = cloneLoopWithPreheader(loopEntry, preheader, loop, map, ".run", &LI, &DT, blocks);
    remapInstructionsInBlocks(blocks, map);
    BasicBlock *runPreheader = run->getLoopPreheader();
    auto *runs = BasicBlock::Create(context, "runs", &F, runPreheader);
    auto *runsNext = BasicBlock::Create(context, "runs.next", &F, loopEntry);
    preheader->getTerminator()->eraseFromParent();
    BranchInst::Create(runs, loopEntry, ok, preheader);
    runPreheader->getTerminator()->setSuccessor(0, run->getHeader());

    IRBuilder<> head(runs);
    PHINode *p = head.CreatePHI(countType, 2, "run.first");
    p->addIncoming(counter->start, preheader);
    Value *runTrip = head.CreateZExt(head.CreateSub(p, counter->start), i64);
    Value *length = nullptr;  // i64
    for (Division &d : divisions) {
      auto *type = cast<IntegerType>(d.divisor->getType());
      Value *x = head.CreateAdd(d.first, head.CreateTrunc(runTrip, type), "run.dividend");
      // Signed ones are checked non-negative, where C divides as unsigned.
      d.quotient = head.CreateUDiv(x, d.divisor, "run.quotient");
      Value *remainder = head.CreateSub(x, head.CreateMul(d.quotient, d.divisor));
      Value *left = head.CreateZExt(head.CreateSub(d.divisor, remainder), i64, "run.left");
      if (!d.isSigned) {
        // Trips before X wraps: 2^N - Xp (none for 0, that is 2^N itself).
        Value *beforeWrap = head.CreateSub(ConstantInt::get(type, 0), x);
        Value *wrapTrips = type->getBitWidth() == 64 ? beforeWrap : head.CreateZExt(beforeWrap, i64);
        Value *none = head.CreateICmpEQ(beforeWrap, ConstantInt::get(type, 0));
        wrapTrips = head.CreateSelect(none, ConstantInt::getAllOnesValue(i64), wrapTrips);
        left = head.CreateBinaryIntrinsic(Intrinsic::umin, left, wrapTrips);
      }
      length = length ? head.CreateBinaryIntrinsic(Intrinsic::umin, length, left) : left;
    }
    Value *wideCount = head.CreateZExt(counter->count, i64), *wideP = head.CreateZExt(p, i64);
    Value *end = head.CreateTrunc(head.CreateBinaryIntrinsic(Intrinsic::umin, wideCount,
                                                            head.CreateAdd(wideP, length), nullptr, "run.end"),
                                  countType);
    head.CreateBr(runPreheader);

    // The copy runs [p, end), counted from 0 (the outer vectorizer's
    // canonical counter): its ids are p + k.
    auto *id = cast<PHINode>(map[counter->id]);
    auto *step = cast<Instruction>(id->getIncomingValueForBlock(run->getLoopLatch()));
    id->setIncomingValueForBlock(runPreheader, ConstantInt::get(countType, 0));
    auto *runId = BinaryOperator::CreateAdd(id, p, "run.id", id->getParent()->getFirstNonPHIIt());
    id->replaceUsesWithIf(runId, [&](Use &use) { return use.getUser() != step && use.getUser() != runId; });
    IRBuilder<> atRun(runs->getTerminator());
    for (auto [induction, parts] : zip(inductions, inductionParts)) {
      Type *type = induction.first->getType();
      Value *value = atRun.CreateAdd(parts.first, atRun.CreateMul(parts.second, atRun.CreateZExtOrTrunc(runTrip, type)),
                                     "run.start");
      cast<PHINode>(map[induction.first])->setIncomingValueForBlock(runPreheader, value);
    }
    auto *exitTest = cast<ICmpInst>(map[counter->exitTest]);
    // The next id, where the body uses it (`lid + 1` unrolled).
    auto *runNext = BinaryOperator::CreateAdd(step, p, "run.next.id", step->getNextNode());
    step->replaceUsesWithIf(runNext, [&](Use &use) {
      return use.getUser() != id && use.getUser() != exitTest && use.getUser() != runNext;
    });
    exitTest->setOperand(counter->countOperand, BinaryOperator::CreateSub(end, p, "run.trips", runs->getTerminator()));
    cast<BranchInst>(run->getLoopLatch()->getTerminator())->replaceSuccessorWith(exit, runsNext);
    MDNode *marker = MDNode::get(context, {MDString::get(context, kRunMarker)});
    run->setLoopID(copyLoopId(loop->getLoopID(), marker));
    IRBuilder<> next(runsNext);
    p->addIncoming(end, runsNext);
    next.CreateCondBr(next.CreateICmpULT(end, counter->count), runs, exit);

    // Its quotients are the run's; its remainders the dividend less q * W.
    for (Division &d : divisions) {
      for (BinaryOperator *quotient : d.quotients) {
        auto *copied = cast<Instruction>(map[quotient]);
        copied->replaceAllUsesWith(d.quotient);
        copied->eraseFromParent();
        ++NumDivisionsShared;
      }
      for (BinaryOperator *remainder : d.remainders) {
        auto *copied = cast<Instruction>(map[remainder]);
        IRBuilder<> inRun(copied);
        Value *rest = inRun.CreateSub(copied->getOperand(0), inRun.CreateMul(d.quotient, d.divisor), "run.remainder");
        copied->replaceAllUsesWith(rest);
        copied->eraseFromParent();
        ++NumDivisionsShared;
      }
    }
    // What the quotients make the same for the whole run (the row's bound,
    // `y + mh`, and its tests) moves before it, as LICM would have.
    SmallVector<Instruction *, 16> work;
    for (Division &d : divisions)
      for (User *user : d.quotient->users()) work.push_back(cast<Instruction>(user));
    while (!work.empty()) {
      Instruction *I = work.pop_back_val();
      if (!run->contains(I) || isa<PHINode>(I) || I->mayReadOrWriteMemory() || !run->hasLoopInvariantOperands(I) ||
          !isSafeToSpeculativelyExecute(I))
        continue;
      I->moveBefore(runPreheader->getTerminator());
      for (User *user : I->users()) work.push_back(cast<Instruction>(user));
    }
    // The loop as written keeps a marker too, so it is not taken again.
    loop->setLoopID(copyLoopId(loop->getLoopID(), marker));
    if (ScalarFallback) keepScalar(loop, /*noUnroll=*/true);
    ++NumLoopsRun;
    LLVM_DEBUG(dbgs() << "division runs: " << loop->getHeader()->getName() << " in " << F.getName() << ", "
                      << divisions.size() << " divisions\n");
    return true;
  }

  Function &F;
  DominatorTree &DT;
  LoopInfo &LI;
  ScalarEvolution &SE;
};

}  // namespace

PreservedAnalyses DivisionRunsPass::run(Function &F, FunctionAnalysisManager &analyses) {
  if (!Enabled || F.isDeclaration() || !F.hasFnAttribute(kWorkGroupCodeAttr)) return PreservedAnalyses::all();
  bool hasDivision = false;
  for (BasicBlock &block : F)
    for (Instruction &I : block) hasDivision |= divisionOf(I).has_value();
  if (!hasDivision) return PreservedAnalyses::all();
  TargetLibraryInfo &libraries = analyses.getResult<TargetLibraryAnalysis>(F);
  AssumptionCache &assumptions = analyses.getResult<AssumptionAnalysis>(F);
  SmallPtrSet<BasicBlock *, 8> seen;
  bool changed = false;
  // Each loop on analyses of its own: a copy nests the loop in the runs.
  for (;;) {
    DominatorTree DT(F);
    LoopInfo LI(DT);
    ScalarEvolution SE(F, libraries, assumptions, DT, LI);
    if (!DivisionRuns(F, DT, LI, SE).runOne(seen)) break;
    changed = true;
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

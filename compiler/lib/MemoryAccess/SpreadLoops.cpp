// SpreadLoopsPass, before the loop vectorizer: a work-item loop that stores
// through a spread index (a tree level of a scan or a reduction,
// `tree[stride * (2 * lid + 1) - 1]`: a uint whose step only the run knows)
// vectorizes into gathers and scatters, which on the x86 cores measured cost
// about a memory access per lane, a scatter more; the scalar loop costs one
// or two cycles per work-item, but only if its indices are 64-bit: through
// 32-bit ones, which must wrap as a uint does, LSR keeps one 32-bit counter
// per index and unrolled copy, and they spill (scan's levels ran 2-3x slower
// than the same loop with size_t indices).
//
// Such a loop gets a scalar copy, which the vectorizer leaves alone, where
// each spread index is the 64-bit recurrence {zext start, +, zext step}. The
// copy runs when that is the same number: no index of the run passes
// 2^32 - 1 (the recurrence only grows, so its last value tells), and when
// some index steps more than MaxVectorStep (2) elements; closer lanes are
// what SpacedAccessesPass turns into vector loads and shuffles on Zen.
// Before it, when the steps are c * U for one uniform U, come copies for the
// values of U that step 1 or 2 elements, which the vectorizer keeps:
//
//   preheader:   U == 1 && no wrap  ->  loop.fixed1   (constant steps)
//                U == 2 && no wrap  ->  loop.fixed2   (when c == 1)
//                step > 2 && no wrap -> loop.spread   (scalar, 64-bit)
//                else               ->  the loop as it was
#include <llvm/ADT/StringExtras.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-spread-loops"

using namespace llvm;

LOCKSTEP_STATISTIC(NumLoopsSpread, "Work-item loops given a scalar copy with 64-bit spread indices");
LOCKSTEP_STATISTIC(NumFixedCopies, "Copies of a spread loop for a value of its uniform step");

static cl::opt<uint64_t> MaxVectorStep(
    "lockstep-spread-max-vector-step", cl::init(2), cl::Hidden,
    cl::desc("Largest step, in elements, of a spread index that SpreadLoopsPass leaves to the vectorizer (its "
             "scalar copy runs for larger ones; copies with the uniform step fixed are made up to it)"));

namespace lockstep::compiler {
namespace {

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

// Gives `loop` its copies (see the top of the file). Returns whether it
// changed the function: the copies, or only the loop's form.
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
  LLVM_DEBUG(dbgs() << "spreading " << loop->getHeader()->getName() << " (" << indices.size() << " indices)\n");

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
    spread = builder.CreateOr(spread, builder.CreateICmpUGT(stepValue, builder.getInt64(MaxVectorStep.getValue())));
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
    for (uint64_t value = 1; common->scale * value <= MaxVectorStep; value *= 2) {
      IRBuilder<> check(loop->getLoopPreheader()->getTerminator());
      Value *matches =
          check.CreateICmpEQ(common->uniform->getValue(), ConstantInt::get(common->uniform->getType(), value));
      ValueToValueMapTy map;
      Loop *copy = versionLoop(loop, check.CreateAnd(noWrap, matches, "spread.fixed"), ".fixed" + utostr(value), loops,
                               dominators, map);
      widenIndices(copy, map, common->uniform, value);
      ++NumFixedCopies;
    }
  }

  IRBuilder<> scalarCheck(loop->getLoopPreheader()->getTerminator());
  Value *useCopy = scalarCheck.CreateAnd(noWrap, spread, "spread.scalar");
  ValueToValueMapTy map;
  Loop *copy = versionLoop(loop, useCopy, ".spread", loops, dominators, map);
  widenIndices(copy, map, nullptr, 0);
  // The copy keeps its parallel accesses but not the vectorizer's attention.
  keepScalar(copy, /*noUnroll=*/true);
  ++NumLoopsSpread;
  return true;
}

bool spreadLoops(Function &F, LoopInfo &loops, DominatorTree &dominators, ScalarEvolution &SE) {
  if (!Triple(F.getParent()->getTargetTriple()).isX86()) return false;
  SmallVector<std::pair<Loop *, SmallVector<SpreadIndex, 4>>, 4> found;
  for (Loop *loop : loops.getLoopsInPreorder())
    if (isWorkItemLoop(loop))
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

}  // namespace lockstep::compiler

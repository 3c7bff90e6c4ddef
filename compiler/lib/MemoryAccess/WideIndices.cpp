// WideIndicesPass, before the loop vectorizer: the 32-bit index arithmetic
// of a nest of work-item loops computed in 64 bits, in a copy of the nest
// that runs when a check before it finds that no widened index leaves the
// 32-bit range.
//
// Kernels index with `int` (`int x = get_global_id(0)`, `int col =
// get_group_id(0) * 16 + tx`, `A[row * N + t * 16 + tx]`), and each index
// reaches its address through a sign extension of 32-bit arithmetic. The ids
// are 64-bit, so the 32-bit value is a truncation of the id's arithmetic
// (`col` is trunc(group * 16 + lid)), and InstCombine's reassociation drops
// the `nsw` of the sums it moves. Scalar evolution then cannot take the
// extension inside: sext(trunc({g * 16,+,1})) is no recurrence of the
// work-item loops. The vectorizer widens the innermost loop under a check of
// its own on each entry, and every loop around it recomputes the index from
// scratch each trip (a tiled SGEMM's loads of a tile: a multiply, two
// extensions and two range checks per row of 16 elements, half the time of
// the copy; with `size_t` indices the kernel ran 1.35x faster).
//
// Arithmetic modulo 2^32 is that of the integers reduced: for an index E
// built of additions, multiplications and truncations of 64-bit values,
// the same operations on the 64-bit values (constants sign-extended, a
// truncation replaced by what it truncates, any other operation sign-
// extended as it is) give a value R with R = E (mod 2^32), whatever wrapped
// in E. Where R lies in [-2^31, 2^31), sext(E) = R (for a zero extension,
// [0, 2^32)). R is affine in the nest's loops, so its extremes lie at the
// corners of the nest's iteration space: the check before the nest
// evaluates R at each corner. Where every corner lies in range, the nest
// runs the rewritten copy, its indices recurrences of the work-item loops
// that the vectorizer widens and loop strength reduction steps; else the
// nest as written, kept scalar (it runs only where an index wraps or
// leaves the 32-bit range).
//
//   preheader:  check = all corners of every R in range
//               br check, nest (indices R), nest as written
//
// Only extensions inside the nest whose widened value is an affine
// recurrence of the nest's loops (a value the nest does not change is
// left): steps the nest does not change and trip counts known before the
// nest (a work-item loop's are at most the largest group), whose product is
// below 2^60, in at most 4 loops. So no widened value wraps 64 bits between
// two corners, and the corners bound it.
#include <llvm/ADT/SetVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/LCSSA.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"
#include "lockstep/compiler/GroupAbi.h"

#define DEBUG_TYPE "lockstep-wide-indices"

using namespace llvm;

LOCKSTEP_STATISTIC(NumWidened, "Index extensions in work-item loops computed in 64 bits");
LOCKSTEP_STATISTIC(NumNests, "Work-item loop nests given a copy with 64-bit indices");

static cl::opt<unsigned> MaxCorners("lockstep-wide-indices-checks", cl::init(32), cl::Hidden,
                                    cl::desc("Most corner values WideIndicesPass checks before a nest "
                                             "(0: off)"));

namespace lockstep::compiler {
namespace {

// A step's bits and its loop's trip count's bits together: with at most 4
// loops in a nest, the value moves less than 2^62 from a corner.
constexpr unsigned kMaxSpanBits = 60;

bool isParallelLoop(const Loop *loop) { return findOptionMDForLoop(loop, "llvm.loop.parallel_accesses"); }

// A 64-bit value equal to the 32-bit `E` modulo 2^32.
const SCEV *widen(const SCEV *E, Type *wide, ScalarEvolution &evolution) {
  SmallVector<const SCEV *, 4> operands;
  auto widenOperands = [&](const SCEVNAryExpr *nary) {
    for (const SCEV *operand : nary->operands()) operands.push_back(widen(operand, wide, evolution));
  };
  switch (E->getSCEVType()) {
    case scConstant:
      return evolution.getSignExtendExpr(E, wide);
    case scTruncate: {
      const SCEV *truncated = cast<SCEVTruncateExpr>(E)->getOperand();
      if (truncated->getType() == wide) return truncated;
      return evolution.getSignExtendExpr(E, wide);
    }
    case scSignExtend:
      return evolution.getSignExtendExpr(cast<SCEVCastExpr>(E)->getOperand(), wide);
    case scZeroExtend:
      return evolution.getZeroExtendExpr(cast<SCEVCastExpr>(E)->getOperand(), wide);
    case scAddExpr:
      widenOperands(cast<SCEVNAryExpr>(E));
      return evolution.getAddExpr(operands);
    case scMulExpr:
      widenOperands(cast<SCEVNAryExpr>(E));
      return evolution.getMulExpr(operands);
    case scAddRecExpr:
      widenOperands(cast<SCEVNAryExpr>(E));
      return evolution.getAddRecExpr(operands, cast<SCEVAddRecExpr>(E)->getLoop(), SCEV::FlagAnyWrap);
    default:
      return evolution.getSignExtendExpr(E, wide);
  }
}

// An index's 64-bit evolution with each extension of 32-bit arithmetic that
// the nest changes replaced by its widened value; `ranges` gets each widened
// value, with whether it was sign-extended.
struct ExtensionWidener : SCEVRewriteVisitor<ExtensionWidener> {
  ExtensionWidener(ScalarEvolution &evolution, const Loop *nest) : SCEVRewriteVisitor(evolution), nest(nest) {}

  const SCEV *visitSignExtendExpr(const SCEVSignExtendExpr *E) { return widened(E, true); }
  const SCEV *visitZeroExtendExpr(const SCEVZeroExtendExpr *E) { return widened(E, false); }

  const SCEV *widened(const SCEVCastExpr *E, bool isSigned) {
    const SCEV *operand = E->getOperand();
    if (!operand->getType()->isIntegerTy(32) || !E->getType()->isIntegerTy(64) || SE.isLoopInvariant(E, nest)) return E;
    const SCEV *R = widen(operand, E->getType(), SE);
    ranges.push_back({R, isSigned});
    return R;
  }

  const Loop *nest;
  SmallVector<std::pair<const SCEV *, bool>, 4> ranges;
};

// Bits of the magnitude of `S` (a value the nest does not change), at most
// 64.
unsigned magnitudeBits(const SCEV *S, ScalarEvolution &evolution) {
  ConstantRange range = evolution.getSignedRange(S);
  if (range.isFullSet()) return 64;
  APInt most = APIntOps::smax(range.getSignedMax(), -range.getSignedMin());
  return most.isNegative() ? 64 : most.getActiveBits();
}

// The values of `R` at the corners of the nest's iteration space, into
// `corners`; false where R is not an affine recurrence of the nest's loops
// with steps and trip counts the nest does not change, of the sizes the
// file's comment names.
bool cornersOf(const SCEV *R, const Loop *nest, ScalarEvolution &evolution, SmallVectorImpl<const SCEV *> &corners) {
  if (evolution.isLoopInvariant(R, nest)) {
    corners.push_back(R);
    return true;
  }
  auto *recurrence = dyn_cast<SCEVAddRecExpr>(R);
  if (!recurrence || !recurrence->isAffine() || !nest->contains(recurrence->getLoop())) return false;
  const Loop *loop = recurrence->getLoop();
  const SCEV *step = recurrence->getStepRecurrence(evolution);
  if (!evolution.isLoopInvariant(step, nest) || nest->getLoopDepth() + 3 < loop->getLoopDepth()) return false;
  const SCEV *backedges = evolution.getBackedgeTakenCount(loop);
  if (isa<SCEVCouldNotCompute>(backedges) || !evolution.isLoopInvariant(backedges, nest)) return false;
  unsigned tripBits = isParallelLoop(loop) ? llvm::bit_width(kMaxWorkGroupSize)
                                           : evolution.getUnsignedRangeMax(backedges).getActiveBits() + 1;
  if (magnitudeBits(step, evolution) + tripBits > kMaxSpanBits) return false;
  SmallVector<const SCEV *, 4> starts;
  if (!cornersOf(recurrence->getStart(), nest, evolution, starts)) return false;
  const SCEV *span = evolution.getMulExpr(step, evolution.getTruncateOrZeroExtend(backedges, step->getType()));
  for (const SCEV *start : starts) {
    corners.push_back(start);
    corners.push_back(evolution.getAddExpr(start, span));
  }
  return true;
}

// Whether `wide` steps by a constant along `inner`, the loop the extension
// is in (or not at all). An index that steps by a value known only at run
// time along the loop the vectorizer widens makes a gather, whose 32-bit
// lanes (an extended index) gather 16 at once with AVX-512, 64-bit ones 8:
// a tree scan's `tree[stride * (2 * lid + 1) - 1]` ran 20% slower widened.
bool constantInnerStep(const SCEV *wide, const Loop *inner) {
  auto *recurrence = dyn_cast<SCEVAddRecExpr>(wide);
  return !recurrence || recurrence->getLoop() != inner || isa<SCEVConstant>(recurrence->getOperand(1));
}

struct Rewrite {
  Instruction *extension;
  const SCEV *wide;
};

class WideIndices {
 public:
  WideIndices(Function &F, LoopInfo &loops, DominatorTree &dominators, ScalarEvolution &evolution)
      : F(F), loops(loops), dominators(dominators), evolution(evolution) {}

  bool run() {
    SmallVector<Loop *, 8> nests;
    for (Loop *loop : loops.getLoopsInPreorder())
      if (isParallelLoop(loop) && !(loop->getParentLoop() && isParallelLoop(loop->getParentLoop())))
        nests.push_back(loop);
    bool changed = false;
    for (Loop *nest : nests) changed |= version(nest);
    return changed;
  }

 private:
  bool version(Loop *nest) {
    SmallVector<Rewrite, 8> rewrites;
    // Each corner, with 1 where it must lie in the signed 32-bit range (0:
    // the unsigned one).
    SmallSetVector<std::pair<const SCEV *, unsigned>, 16> checks;
    for (BasicBlock *block : nest->blocks())
      for (Instruction &I : *block) {
        if (!I.getType()->isIntegerTy(64) ||
            !(isa<SExtInst>(I) || isa<ZExtInst>(I) || I.getOpcode() == Instruction::AShr))
          continue;
        const SCEV *index = evolution.getSCEV(&I);
        ExtensionWidener widener(evolution, nest);
        const SCEV *wide = widener.visit(index);
        if (widener.ranges.empty() || isa<SCEVCouldNotCompute>(wide)) continue;
        // The index must be affine in the nest (its own corners are not
        // checked: those of the extensions it holds are).
        SmallVector<const SCEV *, 8> corners;
        if (!cornersOf(wide, nest, evolution, corners) || evolution.isLoopInvariant(wide, nest) ||
            !constantInnerStep(wide, loops.getLoopFor(block)))
          continue;
        SmallVector<std::pair<const SCEV *, unsigned>, 8> needed;
        bool affine = true;
        for (auto [R, isSigned] : widener.ranges) {
          SmallVector<const SCEV *, 8> ends;
          affine = affine && cornersOf(R, nest, evolution, ends);
          for (const SCEV *end : ends) needed.push_back({end, isSigned});
        }
        if (!affine) continue;
        SmallSetVector<std::pair<const SCEV *, unsigned>, 16> grown = checks;
        grown.insert(needed.begin(), needed.end());
        if (grown.size() > MaxCorners) continue;
        checks = std::move(grown);
        rewrites.push_back({&I, wide});
      }
    if (rewrites.empty()) return false;
    // A nest behind a guard (`if (y < h)` around a row's loop) exits to the
    // block the guard skips to: the copy needs an exit of the nest's own.
    bool changed = formDedicatedExitBlocks(nest, &dominators, &loops, nullptr, /*PreserveLCSSA=*/false);
    changed |= formLCSSARecursively(*nest, dominators, &loops, &evolution);
    bool hadPreheader = nest->getLoopPreheader() != nullptr;
    BasicBlock *preheader = versionablePreheader(nest, loops, dominators);
    if (!preheader) return changed;
    changed |= !hadPreheader;
    Instruction *checkPoint = preheader->getTerminator();
    const DataLayout &layout = F.getParent()->getDataLayout();
    SCEVExpander expander(evolution, layout, "wide.check");
    for (auto [corner, isSigned] : checks)
      if (!expander.isSafeToExpandAt(corner, checkPoint)) return changed;
    IRBuilder<> builder(checkPoint);
    Value *inRange = builder.getTrue();
    for (auto [corner, isSigned] : checks) {
      Value *value = expander.expandCodeFor(corner, builder.getInt64Ty(), checkPoint);
      if (isSigned) value = builder.CreateAdd(value, builder.getInt64(uint64_t(1) << 31));
      inRange = builder.CreateAnd(inRange, builder.CreateICmpULT(value, builder.getInt64(uint64_t(1) << 32)),
                                  "wide.in.range");
    }
    Value *wraps = builder.CreateNot(inRange, "wide.wraps");
    ValueToValueMapTy map;
    Loop *asWritten = versionLoop(nest, wraps, ".narrow", loops, dominators, map);
    preheader->getTerminator()->setMetadata(LLVMContext::MD_prof,
                                            MDBuilder(F.getContext()).createUnlikelyBranchWeights());
    for (Loop *loop : asWritten->getLoopsInPreorder()) keepScalar(loop, /*noUnroll=*/true);
    SCEVExpander rewriter(evolution, layout, "wide");
    SmallVector<WeakTrackingVH, 8> replaced;
    for (auto [extension, wide] : rewrites) {
      extension->replaceAllUsesWith(rewriter.expandCodeFor(wide, extension->getType(), extension));
      replaced.push_back(extension);
      ++NumWidened;
    }
    // The 32-bit arithmetic only the extensions used goes with them.
    RecursivelyDeleteTriviallyDeadInstructionsPermissive(replaced);
    ++NumNests;
    LLVM_DEBUG(dbgs() << "wide indices: " << rewrites.size() << " in the nest at " << nest->getHeader()->getName()
                      << ", " << checks.size() << " corners checked\n");
    return true;
  }

  Function &F;
  LoopInfo &loops;
  DominatorTree &dominators;
  ScalarEvolution &evolution;
};

}  // namespace

PreservedAnalyses WideIndicesPass::run(Function &F, FunctionAnalysisManager &analyses) {
  if (MaxCorners == 0 || F.isDeclaration() || !F.hasFnAttribute(kWorkGroupCodeAttr)) return PreservedAnalyses::all();
  bool changed = WideIndices(F, analyses.getResult<LoopAnalysis>(F), analyses.getResult<DominatorTreeAnalysis>(F),
                             analyses.getResult<ScalarEvolutionAnalysis>(F))
                     .run();
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

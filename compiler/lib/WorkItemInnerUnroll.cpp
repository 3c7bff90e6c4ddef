// WorkItemInnerUnrollPass, before the loop vectorizer: a loop of a few
// constant rounds inside a work-item loop is unrolled whole, so that the
// work-item loop is innermost and the vectorizer widens it.
//
// LoopCutter leaves such a loop of the kernel whole for -O3's full unroller
// (LoopCutCost's keepsWhole), and a loop in a helper the kernel calls is not
// the work-group passes' to see at all: it reaches -O3 inside its work-item
// loop once inlined. The full unroller's own cost model then decides, and it
// counts a division by a constant as several instructions: AMD's URNG
// (`ran1`, a helper: 17 rounds of a Park-Miller step, `k = idum / IQ; idum =
// IA * (idum - k * IQ) - IR * k`, each storing to a __local array) stayed a
// loop, the vectorizer widens only innermost loops, and every work-item ran
// alone: 11.4-12.6 ms for 512 x 512 pixels on 2 Zen 4 cores, PoCL 11.5;
// unrolled and widened, 1.9.
//
// Which loops: innermost, directly inside a work-item loop (marked
// parallel), a constant count of at most 32 rounds, the rounds together at
// most `-lockstep-inner-unroll-size` (300) instructions as LoopCutCost
// counts them, no unroll metadata of the kernel's own (`#pragma unroll 1`
// stays a loop). `-lockstep-inner-unroll-size=0` turns the pass off.
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/OptimizationRemarkEmitter.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/UnrollLoop.h>

#include "Analysis/LoopCutCost.h"
#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-inner-unroll"

using namespace llvm;

LOCKSTEP_STATISTIC(NumUnrolled, "Loops of a few constant rounds inside work-item loops unrolled whole");

namespace lockstep::compiler {
namespace {

cl::opt<unsigned> kMaxSize("lockstep-inner-unroll-size", cl::Hidden, cl::init(300),
                           cl::desc("Most instructions, all rounds together, of a loop inside a work-item "
                                    "loop unrolled whole before the vectorizer (0: none)"));

constexpr unsigned kMaxTrips = 32;

}  // namespace

PreservedAnalyses WorkItemInnerUnrollPass::run(Function &F, FunctionAnalysisManager &analyses) {
  if (kMaxSize == 0 || !F.hasFnAttribute(kWorkGroupCodeAttr)) return PreservedAnalyses::all();
  LoopInfo &loops = analyses.getResult<LoopAnalysis>(F);
  SmallVector<Loop *, 4> candidates;
  for (Loop *loop : loops.getLoopsInPreorder()) {
    Loop *parent = loop->getParentLoop();
    if (!loop->isInnermost() || !parent || !findOptionMDForLoop(parent, "llvm.loop.parallel_accesses") ||
        hasUnrollTransformation(loop) != TM_Unspecified)
      continue;
    candidates.push_back(loop);
  }
  if (candidates.empty()) return PreservedAnalyses::all();

  DominatorTree &dominators = analyses.getResult<DominatorTreeAnalysis>(F);
  ScalarEvolution &evolution = analyses.getResult<ScalarEvolutionAnalysis>(F);
  AssumptionCache &assumptions = analyses.getResult<AssumptionAnalysis>(F);
  TargetTransformInfo &target = analyses.getResult<TargetIRAnalysis>(F);
  OptimizationRemarkEmitter &remarks = analyses.getResult<OptimizationRemarkEmitterAnalysis>(F);
  unsigned vectorBits = target.getRegisterBitWidth(TargetTransformInfo::RGK_FixedWidthVector).getFixedValue();
  bool changed = false;
  for (Loop *loop : candidates) {
    // Loops that do not qualify are left exactly as they were.
    unsigned trips = evolution.getSmallConstantTripCount(loop);
    if (trips == 0 || trips > kMaxTrips) continue;
    if (uint64_t{trips} * summarizeLoop(*loop, vectorBits).size > kMaxSize) continue;
    changed |= simplifyLoop(loop, &dominators, &loops, &evolution, &assumptions, nullptr, true);
    LLVM_DEBUG(dbgs() << "unrolling " << trips << " rounds at " << loop->getHeader()->getName() << "\n");
    LoopUnrollResult result =
        UnrollLoop(loop,
                   {.Count = trips, .Force = true, .Runtime = false, .AllowExpensiveTripCount = false,
                    .UnrollRemainder = false, .ForgetAllSCEV = false},
                   &loops, &evolution, &dominators, &assumptions, &target, &remarks, /*PreserveLCSSA=*/true);
    changed |= result != LoopUnrollResult::Unmodified;
    if (result == LoopUnrollResult::FullyUnrolled) ++NumUnrolled;
  }
  if (!changed) return PreservedAnalyses::all();
  PreservedAnalyses preserved;
  preserved.preserve<DominatorTreeAnalysis>();
  preserved.preserve<LoopAnalysis>();
  return preserved;
}

}  // namespace lockstep::compiler

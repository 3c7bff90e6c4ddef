// Cut-loop unrolling: a uniform kernel loop that is about to be cut, and that
// carries a value per work-item (an accumulator), is unrolled a few rounds
// first (with a remainder loop for the rounds left over), so that each trip
// of the work-item loop inside the cut advances every work-item that many
// rounds: the carried value is copied from and to the context once per
// trip rather than once per round, and stays in a register between.
//
// A naive SGEMM (`acc += A[row * N + k] * B[k * N + col]`, cut at the top of
// the k loop) did, per multiply-add, a load of its accumulator from the
// context, a load of B and a store of the accumulator: the stores and the
// context loads, not the arithmetic, bounded it. Unrolled by U, a trip is U
// loads of B and U multiply-adds on one accumulator, whose U values of A are
// the same for the whole row of work-items (hoisted out of the work-item loop).
// The loop unrolled (its rounds no longer tested one by one) and the
// remainder loop are both cut; the counter stays uniform, kept once.
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/InstructionSimplify.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/OptimizationRemarkEmitter.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/LoopRotationUtils.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/UnrollLoop.h>

#include "Analysis/LoopCutCost.h"
#include "Statistics.h"
#include "WorkGroup/LoopCuts.h"
#include "WorkGroup/PhaseMarkers.h"

using namespace llvm;

#define DEBUG_TYPE "lockstep-loop-cuts"
LOCKSTEP_STATISTIC(NumCutLoopsUnrolled, "Cut kernel loops unrolled so carried values stay in registers");

namespace lockstep::compiler {
namespace {

// The rounds of a cut loop per trip of its work-item loop. 0 picks by the
// vector registers: a trip holds the U values of the row-uniform operands
// (hoisted out of the work-item loop), a few vectors of loads and the
// accumulators the vectorizer interleaves, which 32 registers (AVX-512)
// hold for U = 8 and 16 (AVX2) for U = 4. 1 turns the unrolling off.
cl::opt<unsigned> kCutLoopUnroll("lockstep-cut-loop-unroll", cl::Hidden, cl::init(1),
                                 cl::desc("Rounds of a cut kernel loop per work-item trip (0: by vector width, "
                                          "1: off, the default)"));
// The unrolled body's largest size (instructions, as LoopCutCost counts
// them): a larger loop's copies gain little and cost build time.
cl::opt<unsigned> kCutLoopUnrollMaxSize("lockstep-cut-loop-unroll-max-size", cl::Hidden, cl::init(160),
                                        cl::desc("Largest unrolled body of a cut kernel loop"));

}  // namespace

unsigned cutLoopUnrollFactor(unsigned vectorBits) {
  if (kCutLoopUnroll != 0) return kCutLoopUnroll;
  return vectorBits >= 512 ? 8 : vectorBits >= 256 ? 4 : 1;
}

// Unrolls `loop` (innermost, uniform exits, chosen to be cut) when it carries
// a value that differs between work-items; `differs` says which. On success
// `loop` is the unrolled loop and `remainder` the loop of the rounds left
// over (or null when the trip count is a known multiple).
bool LoopCutter::unrollCutLoop(Loop *loop, DominatorTree &dominators, LoopInfo &loops, ScalarEvolution &evolution,
                                   AssumptionCache &assumptions, function_ref<bool(const Value *)> differs,
                                   Loop *&remainder) {
  remainder = nullptr;
  unsigned factor = cutLoopUnrollFactor(vectorBits);
  if (factor < 2) return false;
  bool carriesPerWorkItem = false;
  for (PHINode &phi : loop->getHeader()->phis()) carriesPerWorkItem |= differs(&phi);
  if (!carriesPerWorkItem) return false;
  CodeSummary code = summarizeLoop(*loop, vectorBits);
  if (code.size == 0 || code.size * factor > kCutLoopUnrollMaxSize) return false;
  unsigned trips = evolution.getSmallConstantTripCount(loop);
  if (trips != 0 && trips < 2 * factor) return false;

  simplifyLoop(loop, &dominators, &loops, &evolution, &assumptions, nullptr, false);
  formLCSSARecursively(*loop, dominators, &loops, &evolution);
  const DataLayout &dataLayout = F.getParent()->getDataLayout();
  TargetTransformInfo costs(dataLayout);
  SimplifyQuery query(dataLayout, &dominators, &assumptions);
  // The runtime unroller counts rounds at the latch: a loop that tests at
  // its top is rotated first (a guard in front, the test at the bottom).
  if (!loop->isLoopExiting(loop->getLoopLatch()))
    LoopRotation(loop, &loops, &costs, &assumptions, &dominators, &evolution, nullptr, query, true, ~0u, true);
  if (!loop->isLoopSimplifyForm()) simplifyLoop(loop, &dominators, &loops, &evolution, &assumptions, nullptr, false);
  BasicBlock *latch = loop->getLoopLatch();
  if (!latch || !loop->isLoopExiting(latch) || loop->getExitingBlock() != latch) return false;
  if (isa<SCEVCouldNotCompute>(evolution.getBackedgeTakenCount(loop))) return false;
  OptimizationRemarkEmitter remarks(&F);
  LoopUnrollResult result =
      UnrollLoop(loop,
                 {.Count = factor, .Force = false, .Runtime = true, .AllowExpensiveTripCount = false,
                  .UnrollRemainder = false, .ForgetAllSCEV = true},
                 &loops, &evolution, &dominators, &assumptions, &costs, &remarks, true, &remainder);
  if (result != LoopUnrollResult::PartiallyUnrolled) {
    remainder = nullptr;
    return false;
  }
  ++NumCutLoopsUnrolled;
  LLVM_DEBUG(dbgs() << "unrolled the cut loop at " << loop->getHeader()->getName() << " in " << F.getName() << " by "
                    << factor << (remainder ? ", with a remainder loop" : "") << "\n");
  return true;
}

}  // namespace lockstep::compiler

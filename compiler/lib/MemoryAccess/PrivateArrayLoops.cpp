// PrivateArrayLoopsPass, before the work-group passes: fully unrolls the
// loops of a few constant rounds, with no barrier or other convergent call,
// that index a private array (`float acc[8]; for (w = 0; w < 8; w++)
// acc[w] += ...`), so that the array, once every index is a constant,
// becomes values (SROA) instead of memory the work-group loops keep per
// work-item.
//
// A private array is an alloca SROA left whole, which is one indexed by a
// value it cannot see. A loop nest is unrolled whole when every loop in it
// has a constant trip count, all its rounds together stay within
// MaxInstructions, and some loop of it indexes such an array at an index
// that changes from round to round; outermost loops are tried first. Loops
// the kernel asks to unroll (`#pragma unroll`) unroll here too.
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/LoopUnrollPass.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-private-array-loops"

using namespace llvm;

LOCKSTEP_STATISTIC(NumNestsUnrolled, "Loop nests over private arrays marked to unroll fully");
LOCKSTEP_STATISTIC(NumFunctionsUnrolled, "Functions whose marked loops were unrolled and arrays split");

// The most rounds, and the most instructions all rounds together, of a loop
// nest unrolled so that its private arrays become values.
static cl::opt<unsigned> MaxRounds(
    "lockstep-private-array-max-rounds", cl::init(64), cl::Hidden,
    cl::desc("Most rounds of a loop that PrivateArrayLoopsPass unrolls fully"));
static cl::opt<uint64_t> MaxInstructions(
    "lockstep-private-array-max-instructions", cl::init(4096), cl::Hidden,
    cl::desc("Most instructions of all rounds of a loop nest that PrivateArrayLoopsPass unrolls fully"));

namespace lockstep::compiler {
namespace {

// Whether `loop` (or a loop in it) reads or writes a private array (an
// alloca SROA left whole, which is one indexed by a value it cannot see) at
// an index that changes from round to round.
bool indexesPrivateArray(Loop *loop, ScalarEvolution &evolution) {
  for (BasicBlock *block : loop->blocks())
    for (Instruction &I : *block) {
      Value *pointer = getLoadStorePointerOperand(&I);
      if (!pointer || pointer->getType()->getPointerAddressSpace() != 0) continue;
      auto *gep = dyn_cast<GetElementPtrInst>(pointer);
      if (!gep || !isa<AllocaInst>(getUnderlyingObject(gep)) || gep->hasAllConstantIndices()) continue;
      if (!evolution.isLoopInvariant(evolution.getSCEV(gep), loop)) return true;
    }
  return false;
}

// The instructions of all rounds of `loop` when it and every loop in it
// have constant trip counts and no convergent call; 0 otherwise.
uint64_t unrolledSize(Loop *loop, LoopInfo &loops, ScalarEvolution &evolution) {
  unsigned trips = evolution.getSmallConstantTripCount(loop);
  if (trips == 0 || trips > MaxRounds) return 0;
  uint64_t size = 0;
  for (BasicBlock *block : loop->blocks()) {
    if (loops.getLoopFor(block) != loop) continue;  // counted with its own loop
    for (Instruction &I : *block) {
      if (auto *call = dyn_cast<CallBase>(&I); call && (call->isConvergent() || call->isInlineAsm())) return 0;
      ++size;
    }
  }
  for (Loop *inner : *loop) {
    uint64_t innerSize = unrolledSize(inner, loops, evolution);
    if (innerSize == 0) return 0;
    size += innerSize;
  }
  return size * trips;
}

void markFullUnroll(Loop *loop) {
  LLVMContext &context = loop->getHeader()->getContext();
  MDNode *full = MDNode::get(context, MDString::get(context, "llvm.loop.unroll.full"));
  loop->setLoopID(makePostTransformationMetadata(context, loop->getLoopID(), {"llvm.loop.unroll."}, {full}));
  for (Loop *inner : *loop) markFullUnroll(inner);
}

}  // namespace

PreservedAnalyses PrivateArrayLoopsPass::run(Function &F, FunctionAnalysisManager &analyses) {
  if (F.isDeclaration()) return PreservedAnalyses::all();
  LoopInfo &loops = analyses.getResult<LoopAnalysis>(F);
  // Loops the kernel asks to unroll (`#pragma unroll`, as tuned kernels put
  // on their register-tile loops) unroll here too: the tile loop around
  // them is then innermost when the work-group passes look for loops to
  // cut (CLBlast's 128x128 GEMM kernel 2.1x faster).
  bool unroll = any_of(loops.getLoopsInPreorder(),
                       [](const Loop *loop) { return hasUnrollTransformation(loop) & TM_Enable; });
  ScalarEvolution &evolution = analyses.getResult<ScalarEvolutionAnalysis>(F);
  // Outermost first: a nest whose every loop qualifies unrolls whole.
  SmallVector<Loop *, 8> work;
  if (any_of(F.getEntryBlock(), [](const Instruction &I) { return isa<AllocaInst>(I); }))
    work.append(loops.begin(), loops.end());
  while (!work.empty()) {
    Loop *loop = work.pop_back_val();
    uint64_t size = unrolledSize(loop, loops, evolution);
    // The loop's blocks include those of the loops in it, whose indices
    // change within it too.
    if (size != 0 && size <= MaxInstructions && indexesPrivateArray(loop, evolution)) {
      LLVM_DEBUG(dbgs() << F.getName() << ": unrolling the nest at " << loop->getHeader()->getName() << " ("
                        << size << " instructions)\n");
      ++NumNestsUnrolled;
      markFullUnroll(loop);
      unroll = true;
      continue;
    }
    work.append(loop->begin(), loop->end());
  }
  if (!unroll) return PreservedAnalyses::all();
  ++NumFunctionsUnrolled;
  // The marked loops unroll (those of a constant trip count among the ones
  // the kernel marked), InstCombine folds the addresses the unrolled rounds
  // pick through phis (which would keep SROA from splitting the array), and
  // SROA makes the arrays values. Kernels with no such loop don't pay for
  // these passes.
  FunctionPassManager passes;
  passes.addPass(createFunctionToLoopPassAdaptor(LoopFullUnrollPass(3, /*OnlyWhenForced=*/true)));
  passes.addPass(InstCombinePass());
  passes.addPass(SROAPass(SROAOptions::ModifyCFG));
  passes.run(F, analyses);
  return PreservedAnalyses::none();
}

}  // namespace lockstep::compiler

// StridedRunPrefetchPass, last after -O3: a work-group runs its work-items
// one after another, so a grid-stride loop (`for (i = gid; i < n; i +=
// global_size)`) reads, each round, one short run of local_size elements and
// then jumps global_size elements on; the rows of a 2-D group are short runs
// a row pitch apart. The hardware prefetchers follow long streams, not runs
// of a few lines at a large stride: such a loop waits on memory at every run
// (a histogram's rounds of 256 bytes, 64 KiB apart, ran at a third of the
// speed of a contiguous pass). A loop that reads a short run of consecutive
// elements each time round an outer loop, at an outer stride larger than the
// run, now prefetches the run it will read RunsAhead outer iterations later,
// one prefetch per cache line, before it starts:
//
//   preheader:        bytes = run's length; stride = outer jump
//                     br (bytes <= MaxRunBytes && stride > bytes), lines, loop
//   prefetch lines:   prefetch(start + RunsAhead * stride + offset), offset += line
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/DomTreeUpdater.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include "Internal.h"
#include "MemoryAccess/AccessPatterns.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-strided-run-prefetch"

using namespace llvm;

LOCKSTEP_STATISTIC(NumRunsFound, "Short runs read each time round an outer loop");
LOCKSTEP_STATISTIC(NumRunsPrefetched, "Loops that prefetch their run ahead of the outer loop");

static cl::opt<unsigned> RunsAhead(
    "lockstep-prefetch-runs-ahead", cl::init(4), cl::Hidden,
    cl::desc("Outer iterations ahead that StridedRunPrefetchPass prefetches a run"));
static cl::opt<uint64_t> MaxRunBytes(
    "lockstep-prefetch-max-run-bytes", cl::init(2048), cl::Hidden,
    cl::desc("Longest run StridedRunPrefetchPass prefetches (longer ones are streams the hardware follows)"));
static cl::opt<uint64_t> LineBytes(
    "lockstep-prefetch-line-bytes", cl::init(64), cl::Hidden,
    cl::desc("Bytes apart of StridedRunPrefetchPass's prefetches (a cache line)"));
static cl::opt<uint64_t> MaxStepBytes(
    "lockstep-prefetch-max-step-bytes", cl::init(256), cl::Hidden,
    cl::desc("Largest step per inner iteration of a load that StridedRunPrefetchPass takes for a run"));

namespace lockstep::compiler {
namespace {

// A load of a run: in an innermost loop, from global or constant memory, at
// an address {{start, +, jump}<outer>, +, step}<inner> with a small positive
// constant step (consecutive elements, or a vector of them) and a jump that
// the outer loop makes between runs.
struct Run {
  Loop *inner;
  const SCEVAddRecExpr *address;  // over the inner loop
  const SCEV *jump;               // bytes, per outer iteration
  uint64_t step;                  // bytes, per inner iteration
  uint64_t accessBytes;
};

std::optional<Run> runOf(Instruction &I, Loop *inner, ScalarEvolution &SE, const DataLayout &layout) {
  Value *pointer = nullptr;
  Type *type = nullptr;
  if (auto *load = dyn_cast<LoadInst>(&I)) {
    if (load->isVolatile() || load->isAtomic()) return std::nullopt;
    pointer = load->getPointerOperand();
    type = load->getType();
  } else if (auto *call = dyn_cast<IntrinsicInst>(&I); call && call->getIntrinsicID() == Intrinsic::masked_load) {
    pointer = call->getArgOperand(0);
    type = call->getType();
  } else {
    return std::nullopt;
  }
  unsigned space = pointer->getType()->getPointerAddressSpace();
  if (space != kGlobalAddressSpace && space != kConstantAddressSpace) return std::nullopt;
  auto *address = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(pointer));
  if (!address || address->getLoop() != inner || !address->isAffine()) return std::nullopt;
  auto *step = dyn_cast<SCEVConstant>(address->getStepRecurrence(SE));
  uint64_t accessBytes = layout.getTypeStoreSize(type).getFixedValue();
  // Consecutive elements: a scalar or vector access per iteration, or an
  // unrolled or interleaved one (several accesses from one base).
  if (!step || step->getAPInt().isNonPositive() || step->getAPInt().ugt(MaxStepBytes.getValue())) return std::nullopt;
  auto *start = dyn_cast<SCEVAddRecExpr>(address->getStart());
  if (!start || !start->isAffine() || !start->getLoop()->contains(inner) || start->getLoop() == inner)
    return std::nullopt;
  return Run{inner, address, start->getStepRecurrence(SE), step->getAPInt().getZExtValue(), accessBytes};
}

// Before `run.inner` starts: if its run is short and the outer loop jumps
// past it, prefetch each line of the run RunsAhead outer iterations on.
bool prefetchAhead(const Run &run, ScalarEvolution &SE, LoopInfo &loops, DominatorTree &dominators,
                   const DataLayout &layout) {
  const SCEV *trips = SE.getBackedgeTakenCount(run.inner);
  if (isa<SCEVCouldNotCompute>(trips)) return false;
  Type *pointerType = run.address->getType();
  Type *intType = layout.getIndexType(pointerType);
  const SCEV *runBytes =
      SE.getAddExpr(SE.getMulExpr(SE.getAddExpr(SE.getTruncateOrZeroExtend(trips, intType), SE.getOne(intType)),
                                  SE.getConstant(intType, run.step)),
                    SE.getConstant(intType, run.accessBytes - std::min(run.accessBytes, run.step)));
  const SCEV *jump = SE.getTruncateOrSignExtend(run.jump, intType);
  const SCEV *ahead =
      SE.getAddExpr(run.address->getStart(), SE.getMulExpr(jump, SE.getConstant(intType, RunsAhead.getValue())));
  SCEVExpander expander(SE, layout, "prefetch");
  if (!expander.isSafeToExpand(runBytes) || !expander.isSafeToExpand(jump) || !expander.isSafeToExpand(ahead))
    return false;
  // Last, as it changes the function: -O3 leaves loops without preheaders,
  // the unrolled ones in particular.
  BasicBlock *preheader = run.inner->getLoopPreheader();
  if (!preheader) preheader = InsertPreheaderForLoop(run.inner, &dominators, &loops, nullptr, false);
  if (!preheader) return false;
  LLVM_DEBUG(dbgs() << "prefetching the run of " << *run.address << " before "
                    << run.inner->getHeader()->getName() << "\n");
  Instruction *at = preheader->getTerminator();
  Value *bytes = expander.expandCodeFor(runBytes, intType, at);
  Value *stride = expander.expandCodeFor(jump, intType, at);
  Value *first = expander.expandCodeFor(ahead, pointerType, at);
  IRBuilder<> builder(at);
  Value *worth = builder.CreateAnd(builder.CreateICmpULE(bytes, ConstantInt::get(intType, MaxRunBytes.getValue())),
                                   builder.CreateICmpSGT(stride, bytes), "prefetch.worth");
  DomTreeUpdater updater(dominators, DomTreeUpdater::UpdateStrategy::Eager);
  Instruction *then = SplitBlockAndInsertIfThen(worth, at, false, nullptr, &updater, &loops);
  BasicBlock *body = then->getParent();
  BasicBlock *head = body->getSinglePredecessor();
  BasicBlock *done = body->getSingleSuccessor();
  then->eraseFromParent();
  IRBuilder<> line(body);
  PHINode *offset = line.CreatePHI(intType, 2, "prefetch.offset");
  offset->addIncoming(ConstantInt::get(intType, 0), head);
  Value *address = line.CreateGEP(line.getInt8Ty(), first, offset);
  emitPrefetch(line, address, /*write=*/false, /*locality=*/3);
  Value *next = line.CreateAdd(offset, ConstantInt::get(intType, LineBytes.getValue()));
  offset->addIncoming(next, body);
  // Lines up to the one holding the run's last byte, wherever the run starts.
  Value *end = line.CreateAdd(bytes, ConstantInt::get(intType, LineBytes.getValue() - 1));
  line.CreateCondBr(line.CreateICmpULT(next, end), body, done);
  ++NumRunsPrefetched;
  return true;
}

bool prefetchStridedRuns(Function &F, LoopInfo &loops, DominatorTree &dominators, ScalarEvolution &SE) {
  const DataLayout &layout = F.getParent()->getDataLayout();
  SmallVector<Run, 8> runs;
  for (Loop *loop : loops.getLoopsInPreorder()) {
    if (!loop->isInnermost() || loop->getLoopDepth() < 2) continue;
    SmallPtrSet<const SCEV *, 4> bases;  // one run per array and loop
    for (BasicBlock *block : loop->blocks())
      for (Instruction &I : *block)
        if (std::optional<Run> run = runOf(I, loop, SE, layout))
          if (bases.insert(SE.getPointerBase(run->address)).second) runs.push_back(*run);
  }
  NumRunsFound += runs.size();
  bool changed = false;
  for (const Run &run : runs) changed |= prefetchAhead(run, SE, loops, dominators, layout);
  return changed;
}

}  // namespace

PreservedAnalyses StridedRunPrefetchPass::run(Module &M, ModuleAnalysisManager &analyses) {
  return runOnLoops(M, analyses, prefetchStridedRuns);
}

}  // namespace lockstep::compiler

// WorkItemJamPass, before the loop vectorizer: unroll-and-jam of a
// work-item loop around the kernel loop it holds, when that loop carries a
// chain the vectorizer cannot widen.
//
// A kernel loop whose accesses run along it (`for (k = 0; k < n; k++) sum +=
// A[row * n + k] * x[k]`, a row per work-item: a matrix-vector product, a
// row's sum, norm or dot product) stays whole inside its work-item loop
// (LoopCutCost's favoursWorkItemOrder: cut, the loop over the work-items
// would gather). The vectorizer widens only innermost loops, so the
// work-item loop stays scalar, and the kernel loop widens only if its
// recurrences allow it: a float sum does not, since OpenCL C forbids
// reassociating it (without -cl-fast-relaxed-math). Each work-item then runs
// one chain of dependent multiply-adds, 4 cycles each, where the core could
// start two a cycle.
//
// Jammed by F, one trip of the work-item loop runs F work-items, and one
// trip of the kernel loop takes a step of each of their F chains:
//
//   for (wi = 0; wi < n; wi++)          for (wi = 0; wi + F <= n; wi += F)
//     fore(wi)                            fore(wi) .. fore(wi + F - 1)
//     for (k ...)                 ->      for (k ...)
//       body(wi, k)                         body(wi, k) .. body(wi + F - 1, k)
//     aft(wi)                             aft(wi) .. aft(wi + F - 1)
//                                       (the work-items left over, one a trip)
//
// Each work-item's chain keeps its own order, so every result is bit for
// bit what it was. Legal where the work-item loop's accesses are all marked
// parallel (WorkGroupLoops marks every access but those of private memory
// the work-items share): work-items between barriers never depend on each
// other, so any interleaving of them is an execution the program allows.
// LLVM's UnrollAndJamLoop does the rewrite; its own legality check asks
// DependenceInfo, which cannot see that independence, so this pass checks
// the shape the rewrite needs itself.
//
// Only where it pays: the kernel loop (innermost, its trip count the same
// for every work-item) has recurrences that are neither inductions nor
// reductions the vectorizer widens (a float reduction in program order, or a
// chain such as `h = h * 31 + c`), and F copies of the work-item loop stay
// within kMaxJammedSize instructions. F is the chains wanted in flight
// (kJamChains, 8) over the work-item's own: 8 for one sum, 4 for two, 2 for
// more (their accumulators stay in registers).
//
// Second case, rows (WorkItemRowJam.cpp): the work-item loop is a loop over
// rows of work-items and the loop it holds is their x loop, a few trips of
// one block whose trip is a long chain of float operations (a 16 x 16
// tile's unrolled inner product). Jammed by 4 rows (2 with 256-bit
// vectors), each instruction of the trip goes next to its copies, so the
// rows' chains advance together and what they share is loaded once.
#include <llvm/ADT/bit.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/IVDescriptors.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/MustExecute.h>
#include <llvm/Analysis/OptimizationRemarkEmitter.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/LCSSA.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>
#include <llvm/Transforms/Utils/UnrollLoop.h>

#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"
#include "WorkItemRowJam.h"

#define DEBUG_TYPE "lockstep-work-item-jam"

using namespace llvm;

LOCKSTEP_STATISTIC(NumLoopsJammed, "Work-item loops unrolled and jammed around a serial kernel loop");

namespace lockstep::compiler {
namespace {

// Chains in flight: 8 chains of 4-cycle multiply-adds keep two FMA units
// busy. A work-item with c serial chains of its own is jammed by this over c
// (a power of two, at least 2); 1 turns the pass off.
cl::opt<unsigned> kJamChains("lockstep-work-item-jam", cl::Hidden, cl::init(8),
                             cl::desc("Serial chains a trip of a work-item loop jammed around a kernel loop "
                                      "carries (1: off)"));
cl::opt<unsigned> kJamRows("lockstep-work-item-jam-rows", cl::Hidden, cl::init(0),
                           cl::desc("Rows jammed around a tile's inner product (0: 4 with 512-bit vectors, "
                                    "2 with 256-bit ones)"));
// The largest work-item loop, in instructions, times the factor.
cl::opt<unsigned> kMaxJammedSize("lockstep-work-item-jam-max-size", cl::Hidden, cl::init(640),
                                 cl::desc("Largest work-item loop, in instructions, times the jam factor, that "
                                          "is unrolled and jammed"));

unsigned loopSize(const Loop &loop) {
  unsigned size = 0;
  for (const BasicBlock *block : loop.blocks())
    for (const Instruction &I : *block)
      if (!isa<PHINode>(I) && !I.isDebugOrPseudoInst()) ++size;
  return size;
}

// How many recurrences of `inner` each round must wait for: header phis
// that are not inductions, not reductions the vectorizer may reorder, and
// not values carried from the round before (fixed-order recurrences).
unsigned serialChains(Loop &inner, ScalarEvolution &evolution, DominatorTree &dominators) {
  unsigned chains = 0;
  for (PHINode &phi : inner.getHeader()->phis()) {
    Type *type = phi.getType();
    if (!type->isFloatingPointTy() && !type->isIntegerTy()) continue;
    InductionDescriptor induction;
    if (InductionDescriptor::isInductionPHI(&phi, &inner, &evolution, induction)) continue;
    RecurrenceDescriptor reduction;
    if (RecurrenceDescriptor::isReductionPHI(&phi, &inner, reduction, nullptr, nullptr, &dominators, &evolution)) {
      if (reduction.getExactFPMathInst()) ++chains;  // in program order: not widened
      continue;
    }
    if (!RecurrenceDescriptor::isFixedOrderRecurrence(&phi, &inner, &dominators)) ++chains;
  }
  return chains;
}

// The shape UnrollAndJamLoop rewrites: both loops in simplified, rotated
// form, each with one exit; the blocks of `outer` outside `inner` split into
// those before it (all leading into its preheader) and one block after it,
// the outer latch; the inner trip count the same on every outer trip; and
// nothing that the next outer trip's phis take from the block after the
// inner loop that cannot move before it (no memory access, no phi).
bool hasJamShape(Loop &outer, Loop &inner, ScalarEvolution &evolution, DominatorTree &dominators) {
  for (Loop *loop : {&outer, &inner})
    if (!loop->isLoopSimplifyForm() || !loop->isRotatedForm() || !loop->getExitBlock() || !loop->getExitingBlock() ||
        loop->getHeader()->hasAddressTaken())
      return false;
  BasicBlock *innerLatch = inner.getLoopLatch();
  BasicBlock *innerPreheader = inner.getLoopPreheader();
  BasicBlock *after = nullptr;
  for (BasicBlock *block : outer.blocks()) {
    if (inner.contains(block)) continue;
    if (dominators.dominates(innerLatch, block)) {
      if (after) return false;
      after = block;
    } else if (block != innerPreheader) {
      for (BasicBlock *successor : successors(block))
        if (!outer.contains(successor) || inner.contains(successor) ||
            dominators.dominates(innerLatch, successor))
          return false;
    }
  }
  if (!after || after != outer.getLoopLatch() || after != inner.getExitBlock()) return false;
  if (!hasIterationCountInvariantInParent(&inner, evolution)) return false;
  SimpleLoopSafetyInfo safety;
  safety.computeLoopSafetyInfo(&outer);
  if (safety.anyBlockMayThrow()) return false;
  // What the outer header's phis take from the latch, and what that is
  // computed from in the latch: moved before the inner loop by the rewrite.
  SmallVector<Instruction *, 8> pending;
  SmallPtrSet<Instruction *, 8> seen;
  for (PHINode &phi : outer.getHeader()->phis())
    if (auto *value = dyn_cast<Instruction>(phi.getIncomingValueForBlock(after))) pending.push_back(value);
  while (!pending.empty()) {
    Instruction *I = pending.pop_back_val();
    if (!seen.insert(I).second) continue;
    if (inner.contains(I)) return false;
    if (I->getParent() != after) continue;
    if (isa<PHINode>(I) || I->mayHaveSideEffects() || I->mayReadOrWriteMemory()) return false;
    for (Value *operand : I->operands())
      if (auto *instruction = dyn_cast<Instruction>(operand)) pending.push_back(instruction);
  }
  return true;
}

}  // namespace

PreservedAnalyses WorkItemJamPass::run(Function &F, FunctionAnalysisManager &analyses) {
  if (!F.hasFnAttribute(kWorkGroupCodeAttr) || kJamChains < 2) return PreservedAnalyses::all();
  LoopInfo &loops = analyses.getResult<LoopAnalysis>(F);
  // Work-item loops (marked parallel) around exactly one loop, an innermost one.
  SmallVector<Loop *, 4> candidates;
  for (Loop *loop : loops.getLoopsInPreorder())
    if (loop->getSubLoops().size() == 1 && loop->getSubLoops()[0]->isInnermost() &&
        findOptionMDForLoop(loop, "llvm.loop.parallel_accesses") &&
        !findOptionMDForLoop(loop, "llvm.loop.vectorize.enable"))  // WorkItemOuterVectorize's
      candidates.push_back(loop);
  if (candidates.empty()) return PreservedAnalyses::all();

  DominatorTree &dominators = analyses.getResult<DominatorTreeAnalysis>(F);
  ScalarEvolution &evolution = analyses.getResult<ScalarEvolutionAnalysis>(F);
  AssumptionCache &assumptions = analyses.getResult<AssumptionAnalysis>(F);
  TargetTransformInfo &target = analyses.getResult<TargetIRAnalysis>(F);
  OptimizationRemarkEmitter &remarks = analyses.getResult<OptimizationRemarkEmitterAnalysis>(F);
  bool changed = false;
  LLVMContext &context = F.getContext();
  unsigned positionKind = context.getMDKindID("lockstep.jam.position");
  unsigned vectorBits = target.getRegisterBitWidth(TargetTransformInfo::RGK_FixedWidthVector).getFixedValue();
  for (Loop *outer : candidates) {
    Loop *inner = outer->getSubLoops()[0];
    changed |= simplifyLoop(outer, &dominators, &loops, &evolution, &assumptions, nullptr, false);
    changed |= formLCSSARecursively(*outer, dominators, &loops, &evolution);
    bool parallel = outer->isAnnotatedParallel();
    unsigned chains = parallel ? serialChains(*inner, evolution, dominators) : 0;
    bool rows = chains == 0 && isRowOfChains(*inner, evolution) && rowsAreIndependent(*outer);
    if (chains == 0 && !rows) continue;
    unsigned rowFactor = kJamRows != 0 ? kJamRows.getValue() : vectorBits >= 512 ? 4 : 2;
    unsigned factor = rows ? rowFactor : std::max(2u, unsigned(llvm::bit_floor(kJamChains / chains)));
    if (loopSize(*outer) * factor > kMaxJammedSize) continue;
    if (!hasJamShape(*outer, *inner, evolution, dominators)) continue;
    unsigned trips = evolution.getSmallConstantTripCount(outer);
    unsigned multiple = evolution.getSmallConstantTripMultiple(outer);
    if (trips != 0 && trips < factor) continue;
    LLVM_DEBUG(dbgs() << "work-item jam: " << outer->getHeader()->getName() << " around "
                      << inner->getHeader()->getName() << " by " << factor << (rows ? " (rows)" : "") << "\n");
    if (rows) tagPositions(*inner->getHeader(), positionKind);
    LoopUnrollResult result = UnrollAndJamLoop(outer, factor, trips, multiple, /*UnrollRemainder=*/false, &loops,
                                               &evolution, &dominators, &assumptions, &target, &remarks);
    if (result == LoopUnrollResult::Unmodified) {
      if (rows) untagPositions(F, positionKind);
      continue;
    }
    changed = true;
    ++NumLoopsJammed;
    // Each copy of the kernel loop brought its own counter, all equal: one
    // stays (else they stay to the end, eight adds a round and eight registers).
    SmallVector<WeakTrackingVH, 16> dead;
    SCEVExpander expander(evolution, F.getDataLayout(), "work-item-jam");
    expander.replaceCongruentIVs(inner, &dominators, dead, &target);
    RecursivelyDeleteTriviallyDeadInstructionsPermissive(dead);
    if (rows) {
      if (inner->getHeader() == inner->getLoopLatch()) interleaveCopies(*inner->getHeader(), positionKind);
      untagPositions(F, positionKind);
      continue;
    }
    // Its rounds carry the chains of F work-items: the unroller's own count
    // (4-8 more copies) took the build of six such kernels from 0.15 to
    // 0.25 s; two copies keep the loop's overhead as low and cost 0.07 s.
    MDNode *count = MDNode::get(context, {MDString::get(context, "llvm.loop.unroll.count"),
                                          ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(context), 2))});
    inner->setLoopID(makePostTransformationMetadata(context, inner->getLoopID(), {"llvm.loop.unroll."}, {count}));
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

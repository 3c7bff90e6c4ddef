// WorkItemOuterVectorizePass, before the loop vectorizer: a work-item loop
// around a nest of kernel loops that every work-item runs alike (their trip
// counts the same for all) is widened as an outer loop, each lane a
// work-item running the whole nest, where its accesses stay close together
// across the lanes.
//
// k-means' assignment step (`for (c < k) { d = 0; for (j < dim) { t =
// pts[i * dim + j] - cent[c * dim + j]; d += t * t; } if (d < best) ... }`)
// keeps its loops whole inside the work-item loop: pts is read along j
// (LoopCutCost's favoursWorkItemOrder), and cut, each round's partial sums
// would go through the context. LLVM's vectorizer widens only innermost
// loops, so every work-item ran the nest alone, one chain of dependent
// multiply-adds after another, at PoCL's speed. Widened as the outer loop,
// the nest runs once per vector of work-items: its counters and the reads
// of `cent` are the same in every lane, `pts` is gathered, and the chains
// of 16 work-items advance in one register. LLVM's VPlan-native path
// (`-enable-vplan-native-path`, which Lockstep turns on) widens outer loops
// that carry `llvm.loop.vectorize.enable` and a width, with every memory
// access a gather or scatter and every value a vector; UniformVectorPhisPass
// (after -O3) takes the counters back to scalars.
//
// The native path takes a narrow class of loops, checked here first (a
// marked loop it refuses would keep its inner loops from the ordinary
// vectorizer and warn in the build log): inner loops each with one exit, at
// its latch, counted by a canonical induction against a bound the
// work-items share; every other branch on a condition the work-items share,
// or a guard on a value that steps by one with each work-item (`if (gid <
// n)`, Rodinia's k-means), which the copy described below runs with, true,
// when it holds at the loop's first and last work-item with no wrap
// between; no calls but intrinsics the vectorizer widens, no atomics, volatile
// accesses, allocas or vector values; every access marked parallel (the
// lanes interleave the work-items'); the work-item loop with no header phi
// but its counter, and no value used after it (the native path's live-outs
// came out poison). At most as many values carried by the inner loops as the
// target has vector registers (each is a register a lane's worth; 32 with
// AVX-512, `-lockstep-outer-vectorize-chains` to set): Parboil's SGEMM
// keeps a row of 32 partial sums per work-item across its loop over a
// __local tile (`c[kk] += a * b_s[j * 32 + kk]`), which at the former
// bound of 8 stayed scalar, jammed 4 work-items wide, and ran at 20 GFLOP/s
// on 2 Zen 4 cores; widened, 69 (PoCL 34).
//
// Where it pays: a gather costs a load per lane, as the scalar nest's loads
// do, but lanes far apart in memory touch a line each (a matrix-vector
// product's rows, 16 KiB apart, which WorkItemJam serves instead). Each
// access's distance between neighbouring work-items is read from its
// address arithmetic (sums, products with shared values, extensions, GEPs,
// inner counters' starts: Analysis/LaneDistance): nothing or at most
// `-lockstep-outer-vectorize-lane-bytes` (64) bytes, or a distance known
// only at run time, for which the loop is copied and the copy, marked, runs
// when every such distance is within the bound. An access whose distance
// cannot be read leaves the loop as it was. The copy runs before
// WorkItemJamPass, which takes the loop that stays.
//
// The native path checks no dependence between an outer loop's iterations:
// a kernel's own `#pragma clang loop vectorize(enable)` on an outer loop
// (in any function) is dropped here, as the vectorizer ignored it before.
//
// `-lockstep-outer-vectorize=false` turns the marking off.
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LCSSA.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <optional>

#include "Analysis/LaneDistance.h"
#include "Internal.h"
#include "OuterLoopGuards.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-outer-vectorize"

using namespace llvm;

static cl::opt<bool> Enabled("lockstep-outer-vectorize", cl::init(true), cl::Hidden,
                             cl::desc("Widen work-item loops around uniform kernel loop nests as "
                                      "outer loops"));
static cl::opt<unsigned> MaxChains(
    "lockstep-outer-vectorize-chains", cl::init(0), cl::Hidden,
    cl::desc("Most values the inner loops of an outer-widened work-item loop carry (0: the "
             "target's vector registers)"));
static cl::opt<unsigned> MaxLaneBytes(
    "lockstep-outer-vectorize-lane-bytes", cl::init(64), cl::Hidden,
    cl::desc("Largest distance in bytes between neighbouring work-items' addresses in an "
             "outer-widened work-item loop"));

LOCKSTEP_STATISTIC(NumMarked, "Work-item loops widened as outer loops");
LOCKSTEP_STATISTIC(NumHintsDropped, "Kernels' own vectorize(enable) hints on outer loops dropped");
LOCKSTEP_STATISTIC(NumVersioned, "Work-item loops copied to widen as outer loops under a check");

namespace lockstep::compiler {
namespace {

// IndVars' test of a 64-bit counter against a 32-bit bound, `trunc(next) ==
// n`, as the native path takes it: `next == zext(n - 1) + 1` (the same first
// trip for every n, 0 being 2^32), the bound computed before the outer loop.
void widenExitTest(Loop &inner, Loop &outer) {
  PHINode *counter = inner.getCanonicalInductionVariable();
  BasicBlock *latch = inner.getLoopLatch(), *preheader = outer.getLoopPreheader();
  auto *branch = latch ? dyn_cast<BranchInst>(latch->getTerminator()) : nullptr;
  auto *compare = branch && branch->isConditional() ? dyn_cast<ICmpInst>(branch->getCondition()) : nullptr;
  if (!counter || !preheader || !compare || !compare->isEquality()) return;
  Value *next = counter->getIncomingValueForBlock(latch);
  for (unsigned side : {0u, 1u}) {
    auto *narrowed = dyn_cast<TruncInst>(compare->getOperand(side));
    Value *bound = compare->getOperand(1 - side);
    if (!narrowed || narrowed->getOperand(0) != next || !outer.isLoopInvariant(bound)) continue;
    IRBuilder<> builder(preheader->getTerminator());
    Value *wide = builder.CreateAdd(
        builder.CreateZExt(builder.CreateSub(bound, ConstantInt::get(bound->getType(), 1)), next->getType()),
        ConstantInt::get(next->getType(), 1), "wide.bound");
    compare->setOperand(side, next);
    compare->setOperand(1 - side, wide);
    return;
  }
}

// Whether `inner` (inside `outer`) runs the same rounds for every work-item
// in the form the native path takes: a canonical counter, one exit at the
// latch, on a comparison with a bound the work-items share.
bool isUniformInnerLoop(Loop &inner, Loop &outer) {
  PHINode *counter = inner.getCanonicalInductionVariable();
  BasicBlock *latch = inner.getLoopLatch();
  if (!counter || !latch || inner.getExitingBlock() != latch) return false;
  auto *branch = dyn_cast<BranchInst>(latch->getTerminator());
  if (!branch || !branch->isConditional()) return false;
  auto *compare = dyn_cast<CmpInst>(branch->getCondition());
  if (!compare) return false;
  Value *next = counter->getIncomingValueForBlock(latch);
  return (compare->getOperand(0) == next && outer.isLoopInvariant(compare->getOperand(1))) ||
         (compare->getOperand(1) == next && outer.isLoopInvariant(compare->getOperand(0)));
}

bool widens(const Instruction &I) {
  if (I.getType()->isVectorTy()) return false;
  for (const Value *operand : I.operands())
    if (operand->getType()->isVectorTy()) return false;
  if (auto *call = dyn_cast<CallInst>(&I)) {
    Intrinsic::ID id = call->getIntrinsicID();
    return id != Intrinsic::not_intrinsic && isTriviallyVectorizable(id) &&
           !isVectorIntrinsicWithScalarOpAtArg(id, 0) && !isVectorIntrinsicWithScalarOpAtArg(id, 1);
  }
  if (auto *load = dyn_cast<LoadInst>(&I)) return load->isSimple();
  if (auto *store = dyn_cast<StoreInst>(&I)) return store->isSimple();
  return !isa<AtomicRMWInst>(I) && !isa<AtomicCmpXchgInst>(I) && !isa<FenceInst>(I) &&
         !isa<AllocaInst>(I) && !isa<SwitchInst>(I) && !isa<InvokeInst>(I) &&
         !isa<IndirectBrInst>(I) && !isa<CallBrInst>(I) && !isa<ExtractValueInst>(I) &&
         !isa<InsertValueInst>(I) && !isa<FreezeInst>(I);
}

// The work-item loop's counter when the native path would take `loop`,
// and the guards that a copy of it would run with, true.
PHINode *outerCounter(Loop &loop, LoopInfo &loops, ScalarEvolution &SE, unsigned maxChains,
                      SmallVectorImpl<ICmpInst *> &guards, SmallVectorImpl<BranchInst *> &guarded) {
  BasicBlock *latch = loop.getLoopLatch();
  if (!loop.isLoopSimplifyForm() || !latch || loop.getExitingBlock() != latch) return nullptr;
  // Lanes interleave the work-items' accesses: every one must be marked
  // independent of the other work-items' (not private memory they share).
  if (!loop.isAnnotatedParallel()) return nullptr;
  PHINode *counter = loop.getCanonicalInductionVariable();
  if (!counter) return nullptr;
  // A counter that nothing uses any more (one a pass before replaced), and
  // the arithmetic left on it, is dead code that -O3 would delete later.
  SmallVector<WeakTrackingVH, 8> dead;
  for (BasicBlock *block : loop.blocks())
    for (Instruction &I : *block)
      if (isInstructionTriviallyDead(&I)) dead.push_back(&I);
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(dead);
  for (PHINode &phi : make_early_inc_range(loop.getHeader()->phis()))
    if (&phi != counter) RecursivelyDeleteDeadPHINode(&phi);
  for (PHINode &phi : loop.getHeader()->phis())
    if (&phi != counter) return nullptr;
  unsigned chains = 0;
  for (Loop *inner : loop.getLoopsInPreorder()) {
    if (inner == &loop) continue;
    if (!inner->isLoopSimplifyForm()) return nullptr;
    widenExitTest(*inner, loop);
    if (!isUniformInnerLoop(*inner, loop)) return nullptr;
    for (PHINode &phi : inner->getHeader()->phis())
      if (&phi != inner->getCanonicalInductionVariable()) ++chains;
  }
  if (chains > maxChains) return nullptr;
  for (BasicBlock *block : loop.blocks()) {
    for (Instruction &I : *block) {
      if (!widens(I)) return nullptr;
      // The native path keeps no value the loop leaves with: LICM had moved
      // a store of the one work-item that makes it (`if (lid == 0) c[g] =
      // sum`) past the loop, and the widened loop's last value came out
      // poison, the store with it.
      if (any_of(I.users(), [&](const User *user) { return !loop.contains(cast<Instruction>(user)); }))
        return nullptr;
    }
    auto *branch = dyn_cast<BranchInst>(block->getTerminator());
    if (!branch) return nullptr;
    if (branch->isConditional() && !loop.isLoopInvariant(branch->getCondition()) &&
        !loops.isLoopHeader(branch->getSuccessor(0)) &&
        !loops.isLoopHeader(branch->getSuccessor(1))) {
      if (!guardsOf(branch->getCondition(), loop, SE, guards)) return nullptr;
      guarded.push_back(branch);
    }
  }
  return counter;
}

void markOuter(Loop &loop, unsigned width) {
  addStringMetadataToLoop(&loop, "llvm.loop.vectorize.enable", 1);
  addStringMetadataToLoop(&loop, "llvm.loop.vectorize.width", width);
}

}  // namespace

PreservedAnalyses WorkItemOuterVectorizePass::run(Function &F, FunctionAnalysisManager &analyses) {
  if (F.isDeclaration()) return PreservedAnalyses::all();
  LoopInfo &loops = analyses.getResult<LoopAnalysis>(F);
  // The native path takes any outer loop that asks to be vectorized, and
  // checks no dependence between its iterations: a kernel's own `#pragma
  // clang loop vectorize(enable)` on an outer loop, which asserts nothing
  // of the kind (and which the vectorizer ignored before the native path
  // was on), is dropped.
  bool dropped = false;
  for (Loop *loop : loops.getLoopsInPreorder())
    if (!loop->isInnermost() && !findOptionMDForLoop(loop, "llvm.loop.parallel_accesses") &&
        getBooleanLoopAttribute(loop, "llvm.loop.vectorize.enable")) {
      keepScalar(loop, false);
      ++NumHintsDropped;
      dropped = true;
    }
  if (!Enabled || !F.hasFnAttribute(kWorkGroupCodeAttr))
    return dropped ? PreservedAnalyses::none() : PreservedAnalyses::all();
  // Innermost work-item loops that hold kernel loops.
  SmallVector<Loop *, 4> candidates;
  for (Loop *loop : loops.getLoopsInPreorder()) {
    if (loop->isInnermost() || !findOptionMDForLoop(loop, "llvm.loop.parallel_accesses") ||
        findOptionMDForLoop(loop, "llvm.loop.vectorize.enable") ||
        findOptionMDForLoop(loop, "llvm.loop.isvectorized"))
      continue;
    bool holdsWorkItemLoop = false;
    for (Loop *inner : loop->getLoopsInPreorder())
      holdsWorkItemLoop |=
          inner != loop && findOptionMDForLoop(inner, "llvm.loop.parallel_accesses");
    if (!holdsWorkItemLoop) candidates.push_back(loop);
  }
  if (candidates.empty()) return dropped ? PreservedAnalyses::none() : PreservedAnalyses::all();

  const DataLayout &layout = F.getParent()->getDataLayout();
  TargetTransformInfo &target = analyses.getResult<TargetIRAnalysis>(F);
  unsigned width = std::max(
      4u,
      unsigned(
          target.getRegisterBitWidth(TargetTransformInfo::RGK_FixedWidthVector).getFixedValue() /
          32));
  unsigned maxChains = MaxChains ? unsigned(MaxChains)
                                 : target.getNumberOfRegisters(target.getRegisterClassForType(true));
  DominatorTree &dominators = analyses.getResult<DominatorTreeAnalysis>(F);
  ScalarEvolution &SE = analyses.getResult<ScalarEvolutionAnalysis>(F);
  bool changed = false;
  for (Loop *loop : candidates) {
    // Preheaders for the inner loops (a guard may branch to one's header),
    // as the vectorizer would make them.
    changed |= simplifyLoop(loop, &dominators, &loops, &SE,
                            &analyses.getResult<AssumptionAnalysis>(F), nullptr, false);
    changed |= formLCSSARecursively(*loop, dominators, &loops, &SE);
    SmallVector<ICmpInst *, 2> guards;
    SmallVector<BranchInst *, 2> guarded;
    PHINode *counter = outerCounter(*loop, loops, SE, maxChains, guards, guarded);
    if (!counter) continue;
    const SCEV *taken = SE.getBackedgeTakenCount(loop);
    if (!guards.empty() && isa<SCEVCouldNotCompute>(taken)) continue;
    DistanceReader reader(*loop, *counter, layout);
    SmallVector<Distance, 4> checked;
    bool far = false;
    for (BasicBlock *block : loop->blocks())
      for (Instruction &I : *block) {
        Value *address = getLoadStorePointerOperand(&I);
        if (!address) continue;
        Distance d = reader.of(address);
        if (!d.known) {
          LLVM_DEBUG(dbgs() << "distance not read: " << I << "\n");
          far = true;
        } else if (d.factors.empty()) {
          far |= uint64_t(std::abs(d.scale)) > MaxLaneBytes;
        } else {
          checked.push_back(d);
        }
      }
    if (far) continue;
    if (checked.empty() && guards.empty()) {
      for (BranchInst *branch : guarded) hoistOutOf(branch->getCondition(), *loop);
      LLVM_DEBUG(dbgs() << "outer-widened: " << loop->getHeader()->getName() << "\n");
      markOuter(*loop, width);
      ++NumMarked;
      changed = true;
      continue;
    }
    BasicBlock *preheader = versionablePreheader(loop, loops, dominators);
    if (!preheader) continue;
    IRBuilder<> builder(preheader->getTerminator());
    Value *near = nullptr;
    for (const Distance &d : checked) {
      Value *bytes = builder.getInt64(d.scale);
      for (Value *factor : d.factors)
        bytes = builder.CreateMul(bytes, builder.CreateSExtOrTrunc(factor, builder.getInt64Ty()));
      // -bound <= bytes <= bound
      Value *shifted = builder.CreateAdd(bytes, builder.getInt64(MaxLaneBytes));
      Value *within = builder.CreateICmpULE(shifted, builder.getInt64(2 * MaxLaneBytes));
      near = near ? builder.CreateAnd(near, within) : within;
    }
    // Each guard true at the loop's first and last work-item, its value
    // moving the same way from one to the other.
    if (Value *hold = guardsHold(guards, *loop, taken, SE, builder))
      near = near ? builder.CreateAnd(near, hold) : hold;
    ValueToValueMapTy map;
    Loop *copy = versionLoop(loop, near, ".outer", loops, dominators, map);
    // In the copy every work-item passes the guards.
    for (ICmpInst *guard : guards) {
      auto *copied = cast<Instruction>(map[guard]);
      copied->replaceAllUsesWith(ConstantInt::getTrue(copied->getContext()));
      copied->eraseFromParent();
    }
    for (BranchInst *branch : guarded) hoistOutOf(cast<BranchInst>(map[branch])->getCondition(), *copy);
    markOuter(*copy, width);
    ++NumVersioned;
    changed = true;
  }
  return changed || dropped ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

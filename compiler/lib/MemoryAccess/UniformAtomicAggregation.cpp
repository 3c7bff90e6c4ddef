// UniformAtomicAggregationPass (before the loop vectorizer) and
// UniformAtomicAggregationLoweringPass (after -O3): the work-items of a
// vector that add one value to one counter make one atomic add.
//
// Stream compaction, a queue's slots, a detector's list of corners: `if
// (keep) out[atomic_inc(&count)] = x`. The vectorizer widens no loop with an
// atomic instruction, so the work-item loop ran scalar, one `lock xadd` per
// work-item with the counter's cache line moving between the cores: 33 M
// items/s on the 2-core Xeon, PoCL's speed. GPUs' compilers aggregate such
// adds per wave (one add of the active lanes' count, each lane's result the
// old value plus its rank among them); here, per vector of work-items:
//
//   %old = atomicrmw volatile add ptr addrspace(1) %count, i32 1 monotonic
//     ->  %old = call i32 @__lockstep_atomic_add_volatile_i32_p1_a4(ptr addrspace(1) %count, i32 1)
//           with masked variants of 2 to 64 lanes, both parameters uniform
//
// and after -O3 a widened call becomes
//
//   bits = bitcast mask;  if (bits != 0) base = atomicrmw add %count, 1 * popcount(bits)
//   lane i: base + 1 * popcount(bits & (2^i - 1))
//
// and a scalar one the atomic it was. Each active work-item gets a value of
// the counter no other gets, and the counter ends as it would have: an
// execution the relaxed atomics allow, in which the vector's adds follow one
// another. Taken: adds and subtractions of a value and at an address the
// work-item loop does not change, relaxed (`atomic_inc`, `atomic_add`,
// `atomic_fetch_add_explicit(..., memory_order_relaxed)`), whose result is
// used (an add whose result is not goes to GlobalAtomicCombiningPass, which
// holds it back entirely), in the loop's access group. The call writes only
// its argument's memory, so no pass moves it past another access to it.
//
// The loop asks the vectorizer for 64 lanes in 8 interleaved parts
// (`llvm.loop.vectorize.width`, `llvm.loop.interleave.count`;
// `-lockstep-uniform-atomic-lanes`, `-lockstep-uniform-atomic-parts`),
// unless it names a width already, and the lowering makes one atomic of the
// parts' calls, which follow one another: the counter's cache line moves
// between the cores at each atomic, and with many cores adding, that
// transfer is the loop's cost. Stream compaction over 16M floats: on the
// 2-core Xeon 0.63-0.75 GB/s at the 8 lanes the vectorizer chose, 4.0-4.4
// at 64, 8.8-9.6 at 4 x 64, 9.4-9.7 at 8 x 64 (native C++'s per-thread
// counts and prefix sums: 8.5); on 16 cores 5.2-5.6 at 64, 19.6-22 at
// 4 x 64, 38-39 at 8 x 64 (native 34). A vector loop longer than the
// work-item loop never runs, and each work-item then makes its own atomic
// (a kernel that reads its local id runs its groups as they are: groups of
// 64 ran 28 M items/s at 4 x 64 against 519 at 64): a loop of a count
// known at run time is copied twice, the copies run when the count reaches
// 8 x 64 and 64 and ask for those, the loop itself keeps the vectorizer's
// choice; a constant count gets what it reaches.
//
// `-lockstep-uniform-atomic-aggregation=false` turns the rewrite off.
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/bit.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <string>

#include "Internal.h"
#include "MemoryAccess/MaskedVariants.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-uniform-atomic-aggregation"

using namespace llvm;

static cl::opt<bool> Enabled(
    "lockstep-uniform-atomic-aggregation", cl::init(true), cl::Hidden,
    cl::desc("Let the vectorizer widen atomic adds of one value to one address"));

static cl::opt<unsigned> WideLanes("lockstep-uniform-atomic-lanes", cl::init(64), cl::Hidden,
                                   cl::desc("Lanes the vectorizer is asked for in a work-item loop "
                                            "of aggregated atomics (1: no request)"));

static cl::opt<unsigned> WideParts(
    "lockstep-uniform-atomic-parts", cl::init(8), cl::Hidden,
    cl::desc("Vectors of work-items per iteration the vectorizer is asked for in a work-item "
             "loop of aggregated atomics, which make one atomic (1: no request)"));

LOCKSTEP_STATISTIC(NumCalls,
                   "Atomic adds of one value to one address made calls the vectorizer widens");
LOCKSTEP_STATISTIC(NumAggregated, "Widened atomic-add calls made one add per vector");
LOCKSTEP_STATISTIC(NumScalarLowered, "Atomic-add calls lowered back to atomics");

namespace lockstep::compiler {
namespace {

constexpr const char *kPrefix = "__lockstep_atomic_";

// Whether `atomic` is one the rewrite takes.
bool takes(AtomicRMWInst &atomic, Loop &loop) {
  if (atomic.getOperation() != AtomicRMWInst::Add && atomic.getOperation() != AtomicRMWInst::Sub)
    return false;
  auto *type = dyn_cast<IntegerType>(atomic.getType());
  if (!type || (type->getBitWidth() != 32 && type->getBitWidth() != 64)) return false;
  if (atomic.getOrdering() != AtomicOrdering::Monotonic ||
      atomic.getSyncScopeID() != SyncScope::System)
    return false;
  if (atomic.use_empty() || !atomic.hasMetadata(LLVMContext::MD_access_group)) return false;
  return loop.isLoopInvariant(atomic.getPointerOperand()) &&
         loop.isLoopInvariant(atomic.getValOperand());
}

// __lockstep_atomic_<add|sub>[_volatile]_i<bits>_p<space> (and _a<align>,
// which declareWithMaskedVariants adds).
std::string functionName(const AtomicRMWInst &atomic) {
  return std::string(kPrefix) + (atomic.getOperation() == AtomicRMWInst::Add ? "add" : "sub") +
         (atomic.isVolatile() ? "_volatile" : "") + "_i" +
         std::to_string(atomic.getType()->getIntegerBitWidth()) + "_p" +
         std::to_string(atomic.getPointerAddressSpace());
}

bool isAdd(const Function &F) { return F.getName().starts_with(std::string(kPrefix) + "add"); }

// The atomic a function stands for, at the builder.
Value *makeAtomic(IRBuilder<> &builder, const Function &F, Value *pointer, Value *value) {
  AtomicRMWInst *atomic =
      builder.CreateAtomicRMW(isAdd(F) ? AtomicRMWInst::Add : AtomicRMWInst::Sub, pointer, value,
                              accessAlign(F), AtomicOrdering::Monotonic, SyncScope::System);
  atomic->setVolatile(F.getName().contains("_volatile_"));
  return atomic;
}

// Widened calls of one function at one address and of one value that
// follow one another with nothing between them touching memory (the
// vectorizer's interleaved parts of one call): one atomic of all their
// active lanes' total, behind a test that some lane is active, and each
// lane's old value by its rank among the run's active lanes.
void aggregate(ArrayRef<CallInst *> run, unsigned lanes) {
  CallInst *first = run.front();
  const Function &callee = *first->getCalledFunction();
  Value *pointer = first->getArgOperand(0), *value = first->getArgOperand(1);
  auto *type = cast<IntegerType>(value->getType());
  IRBuilder<> builder(first);
  IntegerType *bitsType = builder.getIntNTy(lanes);
  SmallVector<Value *, 4> bits, counts;
  Value *total = nullptr;
  for (CallInst *call : run) {
    bits.push_back(builder.CreateBitCast(call->getArgOperand(2), bitsType));
    counts.push_back(builder.CreateZExtOrTrunc(
        builder.CreateUnaryIntrinsic(Intrinsic::ctpop, bits.back()), type));
    total = total ? builder.CreateAdd(total, counts.back()) : counts.back();
  }
  Value *any = builder.CreateICmpNE(total, ConstantInt::get(type, 0));
  Instruction *then = SplitBlockAndInsertIfThen(any, first->getIterator(), false);
  BasicBlock *thenBlock = then->getParent(), *before = thenBlock->getSinglePredecessor();
  builder.SetInsertPoint(then);
  Value *old = makeAtomic(builder, callee, pointer, builder.CreateMul(value, total));
  builder.SetInsertPoint(first);
  PHINode *base = builder.CreatePHI(type, 2, "aggregated.base");
  base->addIncoming(old, thenBlock);
  base->addIncoming(PoisonValue::get(type), before);
  // Lane i's rank: the active lanes below it, in its part and the parts
  // before.
  SmallVector<Constant *, 64> below;
  for (unsigned lane = 0; lane < lanes; ++lane)
    below.push_back(ConstantInt::get(bitsType, APInt::getLowBitsSet(lanes, lane)));
  Value *values = builder.CreateVectorSplat(lanes, value);
  Value *partBase = base;
  for (auto [part, call] : enumerate(run)) {
    if (part) {
      Value *step = builder.CreateMul(value, counts[part - 1]);
      partBase =
          isAdd(callee) ? builder.CreateAdd(partBase, step) : builder.CreateSub(partBase, step);
    }
    Value *ranks =
        builder.CreateAnd(builder.CreateVectorSplat(lanes, bits[part]), ConstantVector::get(below));
    ranks = builder.CreateZExtOrTrunc(builder.CreateUnaryIntrinsic(Intrinsic::ctpop, ranks),
                                      FixedVectorType::get(type, lanes));
    Value *offsets = builder.CreateMul(values, ranks);
    Value *bases = builder.CreateVectorSplat(lanes, partBase);
    Value *result =
        isAdd(callee) ? builder.CreateAdd(bases, offsets) : builder.CreateSub(bases, offsets);
    result->takeName(call);
    call->replaceAllUsesWith(result);
  }
  for (CallInst *call : run) call->eraseFromParent();
}

// The runs of widened calls `aggregate` takes together, in F.
SmallVector<SmallVector<CallInst *, 4>, 4> widenedRuns(Function &F) {
  SmallVector<SmallVector<CallInst *, 4>, 4> runs;
  auto widened = [](const Instruction &I) -> const Function * {
    auto *call = dyn_cast<CallInst>(&I);
    const Function *callee = call ? call->getCalledFunction() : nullptr;
    return callee && callee->getName().starts_with(kPrefix) && variantLanes(*callee) ? callee
                                                                                     : nullptr;
  };
  for (BasicBlock &block : F)
    for (Instruction &I : block) {
      if (!widened(I)) continue;
      auto *call = cast<CallInst>(&I);
      if (!runs.empty()) {
        CallInst *last = runs.back().back();
        bool joins = last->getParent() == &block &&
                     last->getCalledFunction() == call->getCalledFunction() &&
                     last->getArgOperand(0) == call->getArgOperand(0) &&
                     last->getArgOperand(1) == call->getArgOperand(1);
        for (Instruction *between = last->getNextNode(); joins && between != call;
             between = between->getNextNode())
          joins = !between->mayReadOrWriteMemory();
        if (joins) {
          runs.back().push_back(call);
          continue;
        }
      }
      runs.push_back({call});
    }
  return runs;
}

void markWide(Loop &loop, unsigned parts) {
  addStringMetadataToLoop(&loop, "llvm.loop.vectorize.width", WideLanes);
  if (parts > 1 && !findOptionMDForLoop(&loop, "llvm.loop.interleave.count"))
    addStringMetadataToLoop(&loop, "llvm.loop.interleave.count", parts);
}

// Asks for WideLanes x WideParts work-items a trip where the loop runs at
// least that many, fewer parts where it runs fewer (a constant count), and
// nothing where it runs fewer than WideLanes: a vector loop that a group
// never reaches left every work-item its own atomic (a 64-item group ran
// 28 M items/s against 519 at 64 x 1). A count known at run time gets a
// copy of the loop for the wide trips, run when the count reaches them,
// and one for a single vector of 64, the loop itself keeping the
// vectorizer's choice. Returns whether it copied the loop.
bool askWide(Loop &loop, LoopInfo &LI, ScalarEvolution &SE, DominatorTree &DT) {
  const SCEV *taken = SE.getBackedgeTakenCount(&loop);
  if (isa<SCEVCouldNotCompute>(taken)) return false;
  if (auto *constant = dyn_cast<SCEVConstant>(taken)) {
    uint64_t trips = constant->getAPInt().getLimitedValue() + 1;
    if (trips < WideLanes) return false;
    markWide(loop, unsigned(std::min<uint64_t>(WideParts, llvm::bit_floor(trips / WideLanes))));
    return false;
  }
  bool copied = false;
  SmallVector<unsigned, 2> levels;
  if (WideParts > 1) levels.push_back(WideParts);
  levels.push_back(1);
  for (unsigned parts : levels) {
    if (copied) {
      // The copy exits to the loop's exit block too: the loop gets one of
      // its own again, and its values leave through phis there.
      SplitEdge(loop.getExitingBlock(), loop.getExitBlock(), &DT, &LI);
      formLCSSA(loop, DT, &LI, &SE);
    }
    BasicBlock *preheader = versionablePreheader(&loop, LI, DT);
    if (!preheader) return copied;
    SCEVExpander expander(SE, loop.getHeader()->getModule()->getDataLayout(), "trips");
    Value *count = expander.expandCodeFor(taken, taken->getType(), preheader->getTerminator());
    IRBuilder<> builder(preheader->getTerminator());
    Value *enough = builder.CreateICmpUGE(
        count, ConstantInt::get(count->getType(), uint64_t(WideLanes) * parts - 1));
    ValueToValueMapTy map;
    Loop *copy = versionLoop(&loop, enough, parts > 1 ? ".wide" : ".vector", LI, DT, map);
    markWide(*copy, parts);
    copied = true;
  }
  return copied;
}

}  // namespace

PreservedAnalyses UniformAtomicAggregationPass::run(Function &F, FunctionAnalysisManager &AM) {
  if (!Enabled || F.isDeclaration()) return PreservedAnalyses::all();
  auto &LI = AM.getResult<LoopAnalysis>(F);
  SmallVector<Instruction *, 8> found =
      collectInWorkItemLoops(F, LI, [&](Instruction &I, Loop &loop) {
        auto *atomic = dyn_cast<AtomicRMWInst>(&I);
        return atomic && takes(*atomic, loop);
      });
  if (found.empty()) return PreservedAnalyses::all();
  Module &M = *F.getParent();
  SmallPtrSet<Loop *, 4> loops;
  bool versioned = false;
  for (Instruction *I : found) {
    loops.insert(LI.getLoopFor(I->getParent()));
    auto *atomic = cast<AtomicRMWInst>(I);
    LLVM_DEBUG(dbgs() << "atomic of one value to one address: " << *atomic << "\n");
    ++NumCalls;
    Type *type = atomic->getType();
    Function *callee = declareWithMaskedVariants(
        M, functionName(*atomic),
        FunctionType::get(type, {atomic->getPointerOperand()->getType(), type}, false),
        atomic->getAlign(), [](Function &declared) {
          declared.setDoesNotThrow();
          declared.setWillReturn();
          declared.setDoesNotFreeMemory();
          declared.setOnlyAccessesArgMemory();
        });
    replaceWithVariantCall(*atomic, callee, {atomic->getPointerOperand(), atomic->getValOperand()});
  }
  // Wide vectors: each makes one atomic, and the counter's cache line
  // moves between the cores once per atomic, not once per lane.
  // Wide vectors for loops of enough work-items (see the header comment);
  // fewer run the vectorizer's own choice, whose parts make one atomic too.
  if (WideLanes > 1) {
    ScalarEvolution &SE = AM.getResult<ScalarEvolutionAnalysis>(F);
    DominatorTree &DT = AM.getResult<DominatorTreeAnalysis>(F);
    for (Loop *loop : loops)
      if (!findOptionMDForLoop(loop, "llvm.loop.vectorize.width"))
        versioned |= askWide(*loop, LI, SE, DT);
  }
  PreservedAnalyses preserved = PreservedAnalyses::none();
  if (!versioned) preserved.preserveSet<CFGAnalyses>();
  return preserved;
}

PreservedAnalyses UniformAtomicAggregationLoweringPass::run(Module &M, ModuleAnalysisManager &) {
  for (Function &F : M)
    for (const SmallVector<CallInst *, 4> &run : widenedRuns(F)) {
      NumAggregated += run.size();
      aggregate(run, variantLanes(*run.front()->getCalledFunction()));
    }
  bool any = lowerVariantCalls(M, kPrefix, [](CallInst &call, unsigned lanes) -> Value * {
    assert(!lanes && "widened calls are aggregated above");
    ++NumScalarLowered;
    IRBuilder<> builder(&call);
    return makeAtomic(builder, *call.getCalledFunction(), call.getArgOperand(0),
                      call.getArgOperand(1));
  });
  return any ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

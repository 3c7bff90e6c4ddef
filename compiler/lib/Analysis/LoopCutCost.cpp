// LoopCutCost (LoopCutCost.h): the cost model of the work-group loops'
// loop cuts. The thresholds are options (`-lockstep-...` through
// LOCKSTEP_LLVM_OPTIONS or `opt`), their defaults the measured ones.
#include "Analysis/LoopCutCost.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

#include "Internal.h"
#include "Analysis/OpenCLNames.h"

using namespace llvm;

namespace lockstep::compiler {
namespace {

// Instructions of a loop, all of its rounds unrolled, up to which -O3's
// full unroller can be trusted to unroll it (its threshold at -O3 is 300 of
// its own cost units, which count about as CodeSummary does), and the same
// for a loop whose unrolling the source asks for (`#pragma unroll`: LLVM's
// PragmaUnrollThreshold).
cl::opt<uint64_t> kFullUnrollSize("lockstep-full-unroll-size", cl::Hidden, cl::init(300),
                                  cl::desc("Instructions of a loop, all rounds unrolled, up to which -O3 is trusted to "
                                           "unroll it whole (a loop cut is not made)"));
cl::opt<uint64_t> kPragmaUnrollSize("lockstep-pragma-unroll-size", cl::Hidden, cl::init(16 * 1024),
                                    cl::desc("The same for a loop under #pragma unroll"));
// A loop of few rounds that stays a loop is cut only if each round does at
// least this many lanes of arithmetic per lane of the values it carries to
// the next (which a cut keeps in the context between rounds).
cl::opt<uint64_t> kCutArithmeticPerCarriedLane(
    "lockstep-cut-arithmetic-per-carried-lane", cl::Hidden, cl::init(4),
    cl::desc("Lanes of arithmetic per carried lane from which a loop of few rounds that stays a loop is cut"));

// Whether `I` has the same value on every round of `loop`: defined outside
// it, or computed inside it, without touching memory, from such values (the
// kernels arrive unoptimized: `B[col * (N / 4) + k]` divides N on every
// round, and the row walk it makes looked like nothing moved along the loop).
cl::opt<bool> kStepsSeeInvariants("lockstep-loop-steps-see-invariants", cl::Hidden, cl::init(true),
                                   cl::desc("Values computed inside a kernel loop from values outside it count "
                                            "as not moving along it (the cut's access order)"));

// A loop whose rounds differ between the work-items and whose moving
// accesses would all be gathers masked is left whole unless each round does
// more than this many lanes of arithmetic per such access.
cl::opt<uint64_t> kMaskedArithmeticPerGather(
    "lockstep-masked-arithmetic-per-gather", cl::Hidden, cl::init(4),
    cl::desc("Lanes of arithmetic per gathering access above which a loop whose rounds differ is masked "
             "(0: mask such loops whatever their arithmetic)"));

bool invariantIn(const Loop &loop, const Instruction &I, unsigned depth = 4) {
  if (!loop.contains(&I)) return true;
  if (!kStepsSeeInvariants) return false;
  if (depth == 0 || isa<PHINode>(I) || I.mayReadOrWriteMemory() || I.mayHaveSideEffects() || I.isTerminator())
    return false;
  return all_of(I.operands(), [&](const Use &operand) {
    auto *from = dyn_cast<Instruction>(operand.get());
    return !from || invariantIn(loop, *from, depth - 1);
  });
}

// How much `expression` grows from one value of a variable to the next, in
// the variable's units: along `loop` (one iteration) or across the work-items
// of dimension 0 (the next local id), through casts (as if nothing wrapped:
// this only guides a choice), unknown where it depends on the variable
// other than linearly or on another differing value.
struct StepOf {
  const Loop *loop;  // null: across work-items
  const SmallPtrSetImpl<const Value *> &divergent;

  std::optional<int64_t> operator()(const SCEV *expression) const {
    if (isa<SCEVConstant>(expression)) return 0;
    if (auto *unknown = dyn_cast<SCEVUnknown>(expression)) {
      if (loop) {
        auto *inside = dyn_cast<Instruction>(unknown->getValue());
        return inside && !invariantIn(*loop, *inside) ? std::nullopt : std::optional<int64_t>(0);
      }
      if (!divergent.count(unknown->getValue())) return 0;
      auto *call = dyn_cast<CallInst>(unknown->getValue());
      auto *dim = call && isLocalIdPlaceholder(*call)
                      ? dyn_cast<ConstantInt>(call->getArgOperand(0))
                      : nullptr;
      if (!dim) return std::nullopt;
      return dim->isZero() ? 1 : 0;
    }
    if (auto *cast = dyn_cast<SCEVCastExpr>(expression)) return (*this)(cast->getOperand());
    if (auto *rec = dyn_cast<SCEVAddRecExpr>(expression)) {
      if (!rec->isAffine()) return std::nullopt;
      std::optional<int64_t> start = (*this)(rec->getStart()), step = (*this)(rec->getOperand(1));
      if (!start || !step || *step != 0) return std::nullopt;
      if (loop != rec->getLoop()) return start;
      auto *constant = dyn_cast<SCEVConstant>(rec->getOperand(1));
      if (!constant || constant->getAPInt().getSignificantBits() > 32) return std::nullopt;
      return *start + constant->getAPInt().getSExtValue();
    }
    if (auto *add = dyn_cast<SCEVAddExpr>(expression)) {
      int64_t sum = 0;
      for (const SCEV *operand : add->operands()) {
        std::optional<int64_t> step = (*this)(operand);
        if (!step) return std::nullopt;
        sum += *step;
      }
      return sum;
    }
    if (auto *mul = dyn_cast<SCEVMulExpr>(expression)) {
      // Linear only as a constant times one factor that varies; a varying
      // factor times another non-constant one has no known step.
      int64_t factor = 1, step = 0;
      unsigned factors = 0, varying = 0;
      for (const SCEV *operand : mul->operands()) {
        if (auto *constant = dyn_cast<SCEVConstant>(operand)) {
          if (constant->getAPInt().getSignificantBits() > 32) return std::nullopt;
          factor *= constant->getAPInt().getSExtValue();
          continue;
        }
        std::optional<int64_t> inner = (*this)(operand);
        if (!inner) return std::nullopt;
        ++factors;
        if (*inner != 0) ++varying, step = *inner;
      }
      if (varying == 0) return 0;
      if (factors > 1) return std::nullopt;
      return factor * step;
    }
    // Divisions, min and max: constant where nothing in them varies.
    bool varies = SCEVExprContains(expression, [&](const SCEV *part) {
      if (part == expression) return false;
      std::optional<int64_t> step =
          isa<SCEVUnknown>(part) || isa<SCEVAddRecExpr>(part) ? (*this)(part) : 0;
      return !step || *step != 0;
    });
    return varies ? std::nullopt : std::optional<int64_t>(0);
  }
};

void summarize(const BasicBlock &block, unsigned depth, unsigned vectorBits, CodeSummary &code);

}  // namespace

bool mayCallInLoopCut(const CallBase &call, unsigned depth) {
  const Function *callee = call.getCalledFunction();
  if (!callee) return false;
  if (callee->isIntrinsic()) return !call.isConvergent();
  // A bounds check's report (BoundsCheck.cpp) keeps the first failure of
  // the group, whichever order the work-items run in.
  if (callee->getName() == kOutOfBoundsSymbol) return true;
  if (callee->isDeclaration() || depth == 0) return false;
  for (const BasicBlock &BB : *callee)
    for (const Instruction &I : BB)
      if (auto *inner = dyn_cast<CallBase>(&I); inner && !mayCallInLoopCut(*inner, depth - 1)) return false;
  return true;
}

std::optional<HeaderExit> headerExit(Loop *loop) {
  auto *branch = dyn_cast<BranchInst>(loop->getHeader()->getTerminator());
  auto *test = branch && branch->isConditional() ? dyn_cast<ICmpInst>(branch->getCondition()) : nullptr;
  if (!test) return std::nullopt;
  CmpInst::Predicate stay =
      loop->contains(branch->getSuccessor(0)) ? test->getPredicate() : test->getInversePredicate();
  auto outside = [&](Value *value) {
    auto *I = dyn_cast<Instruction>(value);
    return !I || !loop->contains(I);
  };
  if (outside(test->getOperand(1))) return HeaderExit{test->getOperand(0), test->getOperand(1), stay};
  if (outside(test->getOperand(0)))
    return HeaderExit{test->getOperand(1), test->getOperand(0), CmpInst::getSwappedPredicate(stay)};
  return std::nullopt;
}

std::optional<BoundedExit> boundedExit(Loop *loop) {
  std::optional<HeaderExit> test = headerExit(loop);
  if (!test) return std::nullopt;
  if (auto *bound = dyn_cast<ConstantInt>(test->bound)) return BoundedExit{test->counter, bound, test->stay};
  return std::nullopt;
}

// Whether `I` is an atomic read-modify-write or calls a function of the
// program or the builtins that makes one (within `depth` levels).
static bool makesAtomic(const Instruction &I, unsigned depth) {
  if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) return true;
  const auto *call = dyn_cast<CallBase>(&I);
  const Function *callee = call ? call->getCalledFunction() : nullptr;
  if (!callee || callee->isDeclaration() || depth == 0) return false;
  for (const BasicBlock &block : *callee)
    for (const Instruction &inner : block)
      if (makesAtomic(inner, depth - 1)) return true;
  return false;
}

bool makesAtomics(const Loop &loop) {
  for (const BasicBlock *block : loop.blocks())
    for (const Instruction &I : *block)
      if (makesAtomic(I, 4)) return true;
  return false;
}

namespace {

// How many of the loop's loads and stores move with it and run along it
// (consecutive from one round to the next, not across the work-items), and
// how many run across the work-items (consecutive from one local id to the
// next); and of those that move with it, how many have the work-items a
// known step of at most a cache line apart or at one address (`near`), how
// many not (`far`).
struct AccessOrder {
  unsigned alongLoop = 0, acrossItems = 0;
  unsigned near = 0, far = 0;
};

AccessOrder accessOrder(Loop *loop, ScalarEvolution &evolution, const SmallPtrSetImpl<const Value *> &divergent) {
  const DataLayout &layout = loop->getHeader()->getModule()->getDataLayout();
  StepOf along{loop, divergent}, across{nullptr, divergent};
  AccessOrder order;
  for (BasicBlock *block : loop->blocks())
    for (Instruction &I : *block) {
      Value *pointer = getLoadStorePointerOperand(&I);
      if (!pointer) continue;
      int64_t size = layout.getTypeStoreSize(getLoadStoreType(&I)).getFixedValue();
      const SCEV *address = evolution.getSCEV(pointer);
      std::optional<int64_t> itemStep = across(address), loopStep = along(address);
      // What the loop does not move (its exit test's bound) stays out of it.
      if (loopStep == 0) continue;
      if (itemStep == size)
        ++order.acrossItems;
      else if (loopStep == size && itemStep != 0)
        ++order.alongLoop;
      if (itemStep && *itemStep >= -64 && *itemStep <= 64)
        ++order.near;
      else
        ++order.far;
    }
  return order;
}

}  // namespace

bool favoursWorkItemOrder(Loop *loop, ScalarEvolution &evolution, const SmallPtrSetImpl<const Value *> &divergent) {
  AccessOrder order = accessOrder(loop, evolution, divergent);
  return order.alongLoop > 0 && order.acrossItems == 0;
}

bool runsAcrossWorkItems(Loop *loop, ScalarEvolution &evolution, const SmallPtrSetImpl<const Value *> &divergent) {
  return accessOrder(loop, evolution, divergent).acrossItems > 0;
}

bool gathersWhenMasked(Loop *loop, ScalarEvolution &evolution, const SmallPtrSetImpl<const Value *> &divergent,
                       unsigned vectorBits) {
  if (kMaskedArithmeticPerGather == 0) return false;
  // Masked, the group streams through near accesses a round at a time
  // (`in[2 * lid + round * n]`) and loads a shared address once.
  AccessOrder order = accessOrder(loop, evolution, divergent);
  return order.near == 0 && order.far > 0 &&
         summarizeLoop(*loop, vectorBits).arithmeticLanes <= kMaskedArithmeticPerGather * order.far;
}

namespace {

void summarize(const BasicBlock &block, unsigned depth, unsigned vectorBits, CodeSummary &code) {
  for (const Instruction &I : block) {
    unsigned lanes = 1;
    if (FixedVectorType *vector = valueVector(I)) {
      code.vectors = true;
      lanes = vector->getNumElements();
      if (fillsRegister(*vector, vectorBits)) code.fullWidthVectors = true;
    }
    if (isa<PHINode>(I) || isa<CastInst>(I) || isa<GetElementPtrInst>(I) || isa<ReturnInst>(I) ||
        I.isDebugOrPseudoInst())
      continue;
    const auto *call = dyn_cast<CallBase>(&I);
    const Function *callee = call ? call->getCalledFunction() : nullptr;
    if (callee && !callee->isDeclaration() && depth > 0) {
      for (const BasicBlock &calleeBlock : *callee) summarize(calleeBlock, depth - 1, vectorBits, code);
      continue;
    }
    ++code.size;
    if (I.mayReadOrWriteMemory()) code.memory = true;
    else if (I.isBinaryOp() || I.isUnaryOp() || isa<CmpInst>(I) || isa<SelectInst>(I) || call)
      code.arithmeticLanes += lanes;
  }
}

}  // namespace

CodeSummary summarizeFunction(const Function &F, unsigned vectorBits) {
  CodeSummary code;
  for (const BasicBlock &block : F) summarize(block, 3, vectorBits, code);
  return code;
}

CodeSummary summarizeLoop(const Loop &loop, unsigned vectorBits) {
  CodeSummary code;
  for (const BasicBlock *block : loop.blocks()) summarize(*block, 3, vectorBits, code);
  return code;
}

bool keepsWhole(Loop *loop, unsigned trips, unsigned vectorBits) {
  CodeSummary code = summarizeLoop(*loop, vectorBits);
  uint64_t size = uint64_t{trips} * code.size;
  TransformationMode asked = hasUnrollTransformation(loop);
  bool unrolls = trips <= 32 && size <= kFullUnrollSize;
  if (asked == TM_SuppressedByUser) {  // `#pragma unroll 1`, `nounroll`
    unrolls = false;
  } else if (asked == TM_ForcedByUser) {
    std::optional<int> count = getOptionalIntLoopAttribute(loop, "llvm.loop.unroll.count");
    if (!count || (*count >= 0 && unsigned(*count) >= trips)) unrolls = size <= kPragmaUnrollSize;
  }
  if (unrolls) return true;
  if (trips > 32) return false;
  uint64_t carried = 0;
  for (PHINode &phi : loop->getHeader()->phis())
    carried += valueVector(phi) ? valueVector(phi)->getNumElements() : 1;
  return code.memory || code.arithmeticLanes < kCutArithmeticPerCarriedLane * carried;
}

}  // namespace lockstep::compiler

// StrideLoop (StrideLoop.h): a loop of work-items a local id apart,
// stepping by what the group shares.
#include "WorkGroup/StrideLoop.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>

#include <algorithm>

#include "Analysis/LoopCutCost.h"
#include "Analysis/OpenCLNames.h"
#include "Internal.h"
#include "WorkGroup/LoopCuts.h"

using namespace llvm;

namespace lockstep::compiler {
namespace {

std::optional<Start> startOf(Value *value, function_ref<bool(const Value *)> shared) {
  Start start;
  while (true) {
    auto *I = dyn_cast<Instruction>(value);
    if (!I) return std::nullopt;
    if (isLocalIdPlaceholder(*I)) {
      auto *dim = dyn_cast<ConstantInt>(cast<CallInst>(I)->getArgOperand(0));
      if (!dim || dim->getZExtValue() > 2) return std::nullopt;
      start.localId = I;
      start.dimension = unsigned(dim->getZExtValue());
      std::reverse(start.chain.begin(), start.chain.end());
      return start;
    }
    start.chain.push_back(I);
    if (isa<TruncInst>(I) || isa<ZExtInst>(I) || isa<SExtInst>(I)) {
      value = I->getOperand(0);
    } else if (I->getOpcode() == Instruction::Add && shared(I->getOperand(1))) {
      value = I->getOperand(0);
    } else if (I->getOpcode() == Instruction::Add && shared(I->getOperand(0))) {
      value = I->getOperand(1);
    } else {
      return std::nullopt;
    }
  }
}

}  // namespace

std::optional<std::pair<unsigned, unsigned>> groupInfoRead(const Value *value, const Function &F) {
  auto *load = dyn_cast<LoadInst>(value);
  if (!load || !load->getType()->isIntegerTy(64)) return std::nullopt;
  const DataLayout &layout = F.getDataLayout();
  APInt offset(layout.getIndexTypeSizeInBits(load->getPointerOperandType()), 0);
  const Value *base = load->getPointerOperand()->stripAndAccumulateConstantOffsets(layout, offset, true);
  if (base != F.getArg(kGroupInfoParam)) return std::nullopt;
  const StructLayout *fields = layout.getStructLayout(groupInfoType(F.getContext()));
  for (unsigned field = kGroupId; field <= kGlobalOffset; ++field) {
    uint64_t at = fields->getElementOffset(field), bytes = offset.getZExtValue();
    if (bytes >= at && bytes < at + 24 && (bytes - at) % 8 == 0) return std::pair{field, unsigned((bytes - at) / 8)};
  }
  return std::nullopt;
}

std::optional<std::pair<unsigned, unsigned>> groupSize(const Value *value, const Function &F) {
  auto read = groupInfoRead(value, F);
  if (read && (read->first == kLocalSize || read->first == kEnqueuedLocalSize || read->first == kGlobalSize))
    return read;
  return std::nullopt;
}

// The start of the work-item whose local id is `id`, built at `builder`.
Value *startAt(const Start &start, Value *id, IRBuilder<> &builder) {
  Value *value = builder.CreateZExtOrTrunc(id, start.localId->getType());
  Value *previous = start.localId;
  for (Instruction *I : start.chain) {
    Instruction *copy = I->clone();
    copy->replaceUsesOfWith(previous, value);
    builder.Insert(copy);
    previous = I;
    value = copy;
  }
  return value;
}

// Loops with loops inside (NVIDIA's scalarProd: `for (iAccum = lid; iAccum
// < ACCUM_N; iAccum += lsz)` around the loop over a vector's elements) are
// taken too: their shared rounds are a loop the group runs alike, around
// the inner loop (cut or masked where innermost), and the last round an
// `if` around it. Whole in each work-item, the nest's inner loop had run a
// work-item at a time.
static cl::opt<bool> kStrideNests("lockstep-stride-nests", cl::Hidden, cl::init(true),
                                  cl::desc("Split stride loops that hold loops of their own into shared rounds "
                                           "and a last round"));

// The loop's shape, or nothing: a header that is the only exit and tests
// a counter (a header phi stepping by t) against a bound the group shares,
// a start `lid(d) + u`, nothing convergent inside.
std::optional<Stride> strideOf(Loop *loop, const BasicBlock *prologue, unsigned maxSize,
                               function_ref<bool(const Value *)> uniform) {
  if (!kStrideNests && !loop->isInnermost()) return std::nullopt;
  BasicBlock *header = loop->getHeader(), *preheader = loop->getLoopPreheader(), *latch = loop->getLoopLatch();
  BasicBlock *exit = loop->getExitBlock();
  if (!preheader || !latch || !exit || !loop->hasDedicatedExits()) return std::nullopt;
  SmallVector<BasicBlock *, 4> exiting;
  loop->getExitingBlocks(exiting);
  if (exiting.size() != 1 || exiting.front() != header || header == latch) return std::nullopt;
  unsigned size = 0;
  for (BasicBlock *block : loop->blocks()) size += block->size();
  if (size > maxSize) return std::nullopt;
  for (BasicBlock *block : loop->blocks())
    for (Instruction &I : *block)
      if (isBarrierCall(I) || (isa<CallBase>(I) && cast<CallBase>(I).isConvergent())) return std::nullopt;

  // The counter: a header phi stepping by t, tested against the bound.
  std::optional<HeaderExit> test = headerExit(loop);
  auto shared = [&](const Value *value) {
    if (computedAlike(value, prologue)) return true;
    // Uniform, and set before the loop: its value stays through the rounds.
    auto *I = dyn_cast<Instruction>(value);
    return uniform && I && !loop->contains(I) && uniform(value);
  };
  if (!test || !shared(test->bound)) return std::nullopt;
  auto *counter = dyn_cast<PHINode>(test->counter);
  auto *type = counter ? dyn_cast<IntegerType>(counter->getType()) : nullptr;
  if (!counter || counter->getParent() != header || !type || (type->getBitWidth() != 32 && type->getBitWidth() != 64))
    return std::nullopt;
  auto *next = dyn_cast<BinaryOperator>(counter->getIncomingValueForBlock(latch));
  if (!next || next->getOpcode() != Instruction::Add) return std::nullopt;
  Value *step = next->getOperand(0) == counter ? next->getOperand(1) : next->getOperand(0);
  if (step == counter || (next->getOperand(0) != counter && next->getOperand(1) != counter) || !shared(step))
    return std::nullopt;
  CmpInst::Predicate stay = test->stay;
  bool isSigned = stay == CmpInst::ICMP_SLT || stay == CmpInst::ICMP_SLE;
  bool strict = stay == CmpInst::ICMP_SLT || stay == CmpInst::ICMP_ULT;
  if (!isSigned && stay != CmpInst::ICMP_ULT && stay != CmpInst::ICMP_ULE) return std::nullopt;
  // A constant step to a constant bound: a few rounds that FewRounds.cpp
  // peels into straight-line code, no cut (a stencil's halo).
  if (isa<ConstantInt>(step) && isa<ConstantInt>(test->bound)) return std::nullopt;
  std::optional<Start> start = startOf(counter->getIncomingValueForBlock(preheader), shared);
  if (!start) return std::nullopt;
  return Stride{header, preheader, latch, exit, counter, next, step, test->bound, type, isSigned, strict, *start};
}

}  // namespace lockstep::compiler

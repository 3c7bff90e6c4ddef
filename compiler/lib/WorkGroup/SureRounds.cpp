// Sure rounds: the first rounds of a masked loop, those that every work-item
// of the group runs, run a copy of its body with no exit test and no
// bookkeeping of who is active.
//
// A masked loop (MaskedLoops.cpp) goes round while any work-item is active;
// every round, every work-item runs the header's exit test, clears its flag
// if it leaves and marks the group's `dirty` word. In a grid-stride loop,
// `for (int i = get_global_id(0); i < n; i += get_global_size(0))`, every
// work-item of the group stays for most rounds, and when the counter is an
// induction (rewritten as `start + round * step`) and the exit test compares
// it with a bound that every work-item shares, how many rounds they all stay
// is known before the loop: each work-item's count is a function of its
// start that does not grow with the start (for a counter that goes up), so
// the group's is the count of the greatest start, which a
// work_group_reduce_max finds (none when the start is shared):
//
//   i < n, step t > 0:   rounds = n > s ? (n - s - 1) / t + 1 : 0
//   i <= n:              rounds = n >= s ? (n - s) / t + 1 : 0
//   i > n, i >= n (t < 0): the same with s - n and -t, from the least start
//
// in the test's width, unsigned, so nothing overflows: every round below the
// count keeps `s + round * t` within the bound, so the wrapped and the exact
// counters agree and the test would have passed. A count that wraps (`i <=
// INT_MAX` with step 1) comes out 0, which is only fewer sure rounds. The top
// of the masked loop sends rounds below the count to the copy; -O3 unswitches
// the round's work-item loop on that uniform test, so the copy's work-item
// loop has the body alone: a histogram's round is a byte load and an
// increment, a reduction's an unmasked vector loop.
#include <llvm/ADT/DenseMap.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include "Analysis/LoopCutCost.h"
#include "Analysis/OpenCLNames.h"
#include "Internal.h"
#include "Statistics.h"
#include "WorkGroup/LoopCuts.h"

using namespace llvm;

#define DEBUG_TYPE "lockstep-loop-cuts"
LOCKSTEP_STATISTIC(NumSureRoundLoops, "Masked loops whose first rounds, run by every work-item, run an unmasked copy");

namespace lockstep::compiler {
namespace {

// The copy doubles the loop's code, and -O3 then unswitches the round's
// work-item loop into a version per path.
cl::opt<unsigned> kSureRoundsMaxSize("lockstep-sure-rounds-max-size", cl::Hidden, cl::init(300),
                                     cl::desc("Most instructions of a masked loop whose sure rounds run a copy"));

// A loop over a __local array (`for (i = lid; i < 256; i += get_local_size(0))`)
// runs a round or two: its copy and the collective before it cost the build
// more than they save (rw_histogram's two such loops, a quarter of the
// real-world set's build).
cl::opt<uint64_t> kSureRoundsMinBound("lockstep-sure-rounds-min-bound", cl::Hidden, cl::init(4096),
                                      cl::desc("Loops bounded by a constant below this get no sure rounds"));

}  // namespace

bool computedAlike(const Value *value, const BasicBlock *prologue, unsigned depth) {
  if (isa<Constant>(value) || isa<Argument>(value)) return true;
  auto *I = dyn_cast<Instruction>(value);
  if (!I || isa<AllocaInst>(I) || isLocalIdPlaceholder(*I)) return false;
  if (I->getParent() == prologue) return true;
  if (depth == 0 || isa<PHINode>(I) || isa<CallBase>(I) || I->mayReadOrWriteMemory() || I->mayHaveSideEffects())
    return false;
  return all_of(I->operands(), [&](const Use &use) { return computedAlike(use.get(), prologue, depth - 1); });
}

// For maskLoop, where `stepOf` maps each rewritten induction (`start + round
// * step`) to its step: emits before the loop the count of its first rounds
// that every work-item of the group runs, an i64; null where the header's
// exit test is not such a counter against a bound the group shares, or the
// loop exits elsewhere too, or is too large to copy.
Value *LoopCutter::sureRounds(Loop *loop, const DenseMap<const Value *, Value *> &stepOf) {
  BasicBlock *header = loop->getHeader(), *preheader = loop->getLoopPreheader();
  SmallVector<BasicBlock *, 4> exiting;
  loop->getExitingBlocks(exiting);
  if (exiting.size() != 1 || exiting.front() != header || !preheader) return nullptr;
  unsigned size = 0;
  for (BasicBlock *block : loop->blocks()) size += block->size();
  if (size > kSureRoundsMaxSize) return nullptr;
  std::optional<HeaderExit> test = headerExit(loop);
  if (!test || !computedAlike(test->bound, prologue)) return nullptr;
  // The counter, or the counter truncated (an `int` counter widened).
  Value *counter = test->counter;
  if (auto *trunc = dyn_cast<TruncInst>(counter)) counter = trunc->getOperand(0);
  auto found = stepOf.find(counter);
  auto *induction = dyn_cast<BinaryOperator>(counter);
  if (found == stepOf.end() || !induction || induction->getOpcode() != Instruction::Add) return nullptr;
  Value *step = found->second;
  Value *start = induction->getOperand(0);
  if (!computedAlike(step, prologue) || (isa<Instruction>(start) && loop->contains(cast<Instruction>(start))))
    return nullptr;
  auto *type = dyn_cast<IntegerType>(test->counter->getType());
  if (!type || (type->getBitWidth() != 32 && type->getBitWidth() != 64)) return nullptr;

  CmpInst::Predicate stay = test->stay;
  bool up = stay == CmpInst::ICMP_SLT || stay == CmpInst::ICMP_SLE || stay == CmpInst::ICMP_ULT ||
            stay == CmpInst::ICMP_ULE;
  bool down = stay == CmpInst::ICMP_SGT || stay == CmpInst::ICMP_SGE || stay == CmpInst::ICMP_UGT ||
              stay == CmpInst::ICMP_UGE;
  if (!up && !down) return nullptr;
  bool isSigned = ICmpInst::isSigned(stay), strict = ICmpInst::isStrictPredicate(stay);
  if (auto *constant = dyn_cast<ConstantInt>(test->bound))
    if ((isSigned ? constant->getValue().abs() : constant->getValue()).ult(kSureRoundsMinBound)) return nullptr;

  IRBuilder<> at(preheader->getTerminator());
  Value *s = at.CreateTrunc(start, type, "sure.start");
  Value *t = at.CreateTrunc(step, type, "sure.step");
  Value *bound = test->bound;
  // The start that runs fewest rounds: the greatest for a counter going up,
  // the least going down.
  if (!computedAlike(start, prologue)) {
    std::string name = std::string(up ? "_Z21work_group_reduce_max" : "_Z21work_group_reduce_min") +
                       (type->getBitWidth() == 32 ? (isSigned ? "i" : "j") : (isSigned ? "l" : "m"));
    FunctionCallee reduce = F.getParent()->getOrInsertFunction(name, type, type);
    if (auto *declared = dyn_cast<Function>(reduce.getCallee())) declared->addFnAttr(Attribute::Convergent);
    s = at.CreateCall(reduce, {s}, "sure.extreme.start");
  }
  Constant *zero = ConstantInt::get(type, 0), *one = ConstantInt::get(type, 1);
  // The distance the counter may travel, and how far it goes a round.
  Value *from = up ? s : bound, *to = up ? bound : s;
  Value *stride = up ? t : at.CreateNeg(t);
  Value *stays = at.CreateICmp(strict ? (isSigned ? CmpInst::ICMP_SLT : CmpInst::ICMP_ULT)
                                      : (isSigned ? CmpInst::ICMP_SLE : CmpInst::ICMP_ULE),
                               from, to);
  Value *moves = isSigned ? at.CreateICmpSGT(up ? t : zero, up ? zero : t) : at.CreateICmpNE(t, zero);
  Value *distance = at.CreateSub(to, from);
  if (strict) distance = at.CreateSub(distance, one);
  Value *divisor = at.CreateSelect(moves, stride, one);
  Value *rounds = at.CreateAdd(at.CreateUDiv(distance, divisor), one);
  rounds = at.CreateSelect(at.CreateAnd(stays, moves), rounds, zero);
  ++NumSureRoundLoops;
  return at.CreateZExt(rounds, Type::getInt64Ty(context), "sure.rounds");
}

// For maskLoop, after the loop's edges were moved (latches to the masked
// latch or the next round's peek, the exit to the masked exit): a copy of the
// loop's blocks whose header does not test and whose edges to `latch` go to
// `next`, entered at the returned copy of the header.
BasicBlock *LoopCutter::copySureRound(Loop *loop, BasicBlock *latch, BasicBlock *next) {
  ValueToValueMapTy map;
  SmallVector<BasicBlock *, 16> copies = copyLoopBlocks(*loop, ".sure", map);
  for (BasicBlock *copy : copies) {
    copy->getTerminator()->setMetadata(LLVMContext::MD_loop, nullptr);
    copy->getTerminator()->replaceSuccessorWith(latch, next);
  }
  auto *test = cast<BranchInst>(loop->getHeader()->getTerminator());
  BasicBlock *inside = loop->contains(test->getSuccessor(0)) ? test->getSuccessor(0) : test->getSuccessor(1);
  BasicBlock *header = cast<BasicBlock>(map[loop->getHeader()]);
  Instruction *branch = header->getTerminator();
  BranchInst::Create(cast<BasicBlock>(map[inside]), branch);
  branch->eraseFromParent();
  return header;
}

}  // namespace lockstep::compiler

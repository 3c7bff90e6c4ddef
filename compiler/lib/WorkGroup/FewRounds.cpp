// Few rounds: a loop whose trip count differs between work-items but is a
// few rounds at most for every one of them is peeled that many times in
// front of itself, so that its region is straight-line code the vectorizer
// masks, with no cut and no activity flags.
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Support/KnownBits.h>
#include <llvm/Support/MathExtras.h>
#include <llvm/Transforms/Utils/LoopPeel.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include "Analysis/LoopCutCost.h"
#include "Statistics.h"
#include "WorkGroup/LoopCuts.h"
#include "WorkGroup/PhaseMarkers.h"

using namespace llvm;

#define DEBUG_TYPE "lockstep-loop-cuts"
LOCKSTEP_STATISTIC(NumPeeledLoops, "Loops whose trip count differs, peeled (a few rounds)");

namespace lockstep::compiler {
namespace {

// Loops of at most this many rounds per work-item are unrolled rather than
// masked (unrollFewRounds), up to this many instructions in all.
cl::opt<uint64_t> kUnrollMaxRounds("lockstep-few-rounds-max", cl::Hidden, cl::init(4),
                                   cl::desc("Most rounds of a differing loop peeled rather than masked"));
cl::opt<uint64_t> kUnrollMaxInstructions("lockstep-few-rounds-max-instructions", cl::Hidden, cl::init(400),
                                         cl::desc("Most instructions of a differing loop's peeled rounds"));

}  // namespace

// A loop whose trip count differs between work-items but is at most a few
// rounds for every one of them: `for (i = lid; i < 324; i += 256)`, a
// tile's halo loaded by a group of 256. The counter has a constant step, the
// header leaves when it reaches a constant bound, and the counter's least
// first value is known (local ids are below kMaxWorkGroupSize), so no
// work-item goes round more than `rounds` times. Those rounds are peeled off
// in front of the loop, and the loop left behind is never entered. The
// region then holds straight-line code whose later rounds the vectorizer
// masks, with no cut, no activity flags and no count of active work-items
// between rounds (masked, stencil's halo loop cost a quarter of its time).
bool LoopCutter::unrollFewRounds(Loop *loop, DominatorTree &dominators, LoopInfo &loops, ScalarEvolution &evolution,
                                     AssumptionCache &assumptions) {
  BasicBlock *header = loop->getHeader(), *preheader = loop->getLoopPreheader(), *latch = loop->getLoopLatch();
  if (!preheader || !latch || latch == header) return false;
  SmallVector<BasicBlock *, 4> exiting;
  loop->getExitingBlocks(exiting);
  if (exiting.size() != 1 || exiting.front() != header) return false;
  std::optional<BoundedExit> test = boundedExit(loop);
  if (!test) return false;
  CmpInst::Predicate stay = test->stay;
  auto *phi = dyn_cast<PHINode>(test->counter);
  if (!phi || phi->getParent() != header || phi->getNumIncomingValues() != 2) return false;
  auto *next = dyn_cast<BinaryOperator>(phi->getIncomingValueForBlock(latch));
  if (!next || next->getOpcode() != Instruction::Add) return false;
  auto *step = dyn_cast<ConstantInt>(next->getOperand(0) == phi ? next->getOperand(1) : next->getOperand(0));
  if (!step || (next->getOperand(0) != phi && next->getOperand(1) != phi)) return false;
  unsigned bits = phi->getType()->getIntegerBitWidth();
  if (bits > 64 || step->isNegative() || step->isZero()) return false;
  bool isSigned = ICmpInst::isSigned(stay);
  APInt limit = test->bound->getValue();  // the counter stays below this
  if (stay == ICmpInst::ICMP_SLE || stay == ICmpInst::ICMP_ULE) {
    if (isSigned ? limit.isMaxSignedValue() : limit.isMaxValue()) return false;
    limit += 1;
  } else if (stay != ICmpInst::ICMP_SLT && stay != ICmpInst::ICMP_ULT) {
    return false;
  }
  // Going round must not wrap the counter: below the limit, one step more
  // stays representable.
  APInt room = (isSigned ? APInt::getSignedMaxValue(bits) : APInt::getMaxValue(bits)) - step->getValue();
  if (isSigned ? room.slt(limit) : room.ult(limit)) return false;
  KnownBits known = computeKnownBits(phi->getIncomingValueForBlock(preheader), F.getParent()->getDataLayout(), 0,
                                     &assumptions, preheader->getTerminator(), &dominators);
  APInt least = isSigned ? known.getSignedMinValue() : known.getMinValue();
  uint64_t rounds = 0;
  if (isSigned ? least.slt(limit) : least.ult(limit)) {
    APInt span = limit - least;  // no wrap: least < limit
    if (span.getActiveBits() > 32) return false;
    rounds = divideCeil(span.getZExtValue(), step->getZExtValue());
  }
  if (rounds > kUnrollMaxRounds) return false;
  unsigned size = 0;
  for (BasicBlock *block : loop->blocks()) size += block->size();
  if (rounds * size > kUnrollMaxInstructions) return false;
  simplifyLoop(loop, &dominators, &loops, &evolution, &assumptions, nullptr, false);
  formLCSSA(*loop, dominators, &loops, &evolution);
  if (!canPeel(loop)) return false;
  ValueToValueMapTy map;
  if (rounds > 0 && !peelLoop(loop, rounds, &loops, &evolution, dominators, &assumptions, true, map)) return false;
  // What is left never goes round: its header's test fails for every
  // work-item after `rounds` rounds.
  auto *branch = cast<BranchInst>(header->getTerminator());
  BasicBlock *exit = loop->contains(branch->getSuccessor(0)) ? branch->getSuccessor(1) : branch->getSuccessor(0);
  BasicBlock *body = loop->contains(branch->getSuccessor(0)) ? branch->getSuccessor(0) : branch->getSuccessor(1);
  body->removePredecessor(header);
  BranchInst::Create(exit, branch->getIterator());
  branch->eraseFromParent();
  ++NumPeeledLoops;
  LLVM_DEBUG(dbgs() << "peeled " << rounds << " rounds of the loop at " << header->getName() << " in "
                    << F.getName() << "\n");
  return true;
}

}  // namespace lockstep::compiler

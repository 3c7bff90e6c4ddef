// A value a loop carries shares one private variable with its update.
//
// demoteCrossBlockValues (LiveValues.cpp) gives a phi a private variable
// that each predecessor stores its incoming value to at its end, and the
// header loads; the update, used by the phi in another block, gets a
// variable of its own. In a kernel loop cut by barriers that carries a
// value per work-item (a tiled product's `acc += As[ty][k] * Bs[k][tx]`
// between the tile's two barriers), both variables live across a barrier,
// so both are kept in the context, and the region that reaches the back
// edge copies one into the other for every work-item on every trip:
//
//   t.loop: acc = phi [0, entry], [acc.next, latch]  ; variable P
//     ...barrier... acc.next = acc + ...              ; variable Q
//     ...barrier...
//   latch:  store (load Q), P                         ; the copy
//
// When nothing reads the phi's old value once its update exists, the phi's
// variable takes the update where it is computed instead, and the phi's
// uses read the variable where they are: one variable, no copy. That is the
// phi and its update not interfering, as a register allocator coalesces a
// copy, checked on the control flow:
//   - from the update, no path that has not gone through the header again
//     reaches a use of the phi or the end of a predecessor that stores a
//     different incoming value;
//   - the update runs again on every path from the header to the edges it
//     comes in on (`i = ly` set before an outer loop runs once, not per
//     entry of the inner one);
//   - it is not in an inner loop that is cut (each inner trip would store it
//     to the context); in an inner loop within one region each trip stores
//     to what is a register there, and the last store is what the header
//     sees.
// At a block's end the loads of a phi's operands come before the stores of
// incoming values (two header phis swapped, as a double-buffered scan does).
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>

#include "Statistics.h"
#include "WorkGroup/WorkGroupLoops.h"

using namespace llvm;

#define DEBUG_TYPE "lockstep-work-group-loops"
LOCKSTEP_STATISTIC(NumCarriedPhisShared, "Loop-carried phis that share their variable with their update");

namespace lockstep::compiler {
namespace {

cl::opt<bool> kShareCarried("lockstep-share-carried-phis", cl::Hidden, cl::init(true),
                            cl::desc("Give a loop-carried phi and its update one private variable"));

// Blocks searched from an update before giving up (a kernel's loops are
// small; this bounds the cost on machine-generated code).
constexpr unsigned kMaxSearchedBlocks = 512;

// Walks the blocks reachable from `from` along `next` (successors or
// predecessors), never entering `avoid`, each once, into `seen`. True when
// `stop` holds for a block reached, or when the walk passes
// kMaxSearchedBlocks (every caller reads true as "keep the two variables").
template <typename Next, typename Stop>
bool walk(BasicBlock *from, BasicBlock *avoid, Next next, Stop stop, SmallPtrSetImpl<BasicBlock *> &seen) {
  SmallVector<BasicBlock *, 16> work(next(from));
  while (!work.empty()) {
    BasicBlock *block = work.pop_back_val();
    if (block == avoid || !seen.insert(block).second) continue;
    if (seen.size() > kMaxSearchedBlocks || stop(block)) return true;
    append_range(work, next(block));
  }
  return false;
}

auto forward = [](BasicBlock *block) { return successors(block); };
auto backward = [](BasicBlock *block) { return predecessors(block); };
auto never = [](BasicBlock *) { return false; };

// Whether `phi`'s old value may still be needed after `update` (or the
// variable overwritten with another incoming value before the header):
// searched forward from just after `update`, stopping at the header.
bool oldValueNeededAfter(PHINode *phi, Instruction *update) {
  SmallPtrSet<BasicBlock *, 4> otherStores;
  for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i)
    if (phi->getIncomingValue(i) != update) otherStores.insert(phi->getIncomingBlock(i));
  // Whether the part of `block` from `from` on reads the old value.
  auto reads = [&](BasicBlock *block, BasicBlock::iterator from) {
    for (auto it = from; it != block->end(); ++it)
      if (!isa<PHINode>(*it) && is_contained(it->operands(), phi)) return true;
    if (otherStores.contains(block)) return true;
    // A phi of a successor that takes the old value on this edge.
    for (BasicBlock *successor : successors(block))
      for (PHINode &user : successor->phis())
        if (user.getIncomingValueForBlock(block) == phi) return true;
    return false;
  };
  BasicBlock *start = update->getParent();
  auto after = isa<PHINode>(update) ? start->getFirstInsertionPt() : std::next(update->getIterator());
  SmallPtrSet<BasicBlock *, 32> seen;
  return reads(start, after) ||
         walk(start, phi->getParent(), forward, [&](BasicBlock *block) { return reads(block, block->begin()); }, seen);
}

// Whether control can go from `header` to the end of `pred` without
// running `update` (whose store would then not be the last one the edge
// sees: the update of a value that is set before the loop, `i = ly` of
// `for (i = ly; ...; i += sy)` in an outer loop, runs once, not per entry).
bool bypassesUpdate(BasicBlock *header, BasicBlock *pred, Instruction *update) {
  if (update->getParent() == header) return false;
  if (pred == header) return true;
  SmallPtrSet<BasicBlock *, 32> seen;
  return walk(header, update->getParent(), forward, [&](BasicBlock *block) { return block == pred; }, seen);
}

// Whether `update` is in an inner loop that is cut: then it runs in a
// region of its own per inner trip, and its store, once per inner trip and
// work-item, would go to the context (measured: a tiled SGEMM with eight
// accumulators per work-item, whose k loop is cut, ran at two thirds of its
// speed). An inner loop inside one region costs nothing: the region's
// variables are registers there. The inner loop's blocks are those both
// reachable from the update and reaching it without the header.
template <typename IsCut>
bool inCutInnerLoop(BasicBlock *header, Instruction *update, IsCut isCut) {
  BasicBlock *updateBlock = update->getParent();
  if (updateBlock == header) return false;
  SmallPtrSet<BasicBlock *, 32> after, before;
  if (walk(updateBlock, header, forward, never, after) || walk(updateBlock, header, backward, never, before))
    return true;
  return after.contains(updateBlock) &&
         any_of(after, [&](BasicBlock *block) { return before.contains(block) && isCut(block); });
}

// The incoming value of `phi` that can share its variable: an instruction
// of the body (not the phi, not another phi of the header) after which the
// old value is dead, and that runs again before each edge it comes in on.
// An update inside the loop (which the header dominates) is preferred: one
// coming in from before the loop shares nothing worth a copy. Null if none.
template <typename IsCut>
Instruction *sharingUpdate(PHINode *phi, const BasicBlock *prologue, const DominatorTree &dominators, IsCut isCut) {
  BasicBlock *header = phi->getParent();
  for (bool inside : {true, false})
    for (Value *incoming : phi->incoming_values()) {
      auto *update = dyn_cast<Instruction>(incoming);
      if (!update || update == phi || update->getParent() == prologue || update->isTerminator()) continue;
      if (isa<PHINode>(update) && update->getParent() == header) continue;
      if (dominators.dominates(header, update->getParent()) != inside || inCutInnerLoop(header, update, isCut))
        continue;
      bool bypassed = false;
      for (unsigned i = 0; i < phi->getNumIncomingValues() && !inside; ++i)
        if (phi->getIncomingValue(i) == update)
          bypassed = bypassed || bypassesUpdate(header, phi->getIncomingBlock(i), update);
      if (!bypassed && !oldValueNeededAfter(phi, update)) return update;
    }
  return nullptr;
}

}  // namespace

bool WorkGroupLoops::demoteCarriedPhi(PHINode *phi, BasicBlock::iterator allocaPoint,
                                      const DominatorTree &dominators) {
  auto isCut = [&](BasicBlock *block) { return barrierBlocks.contains(block) || collectiveAt.contains(block); };
  Instruction *update = kShareCarried ? sharingUpdate(phi, prologue, dominators, isCut) : nullptr;
  if (!update) return false;
  auto *variable = new AllocaInst(phi->getType(), layout.getAllocaAddrSpace(), nullptr,
                                  phi->getName() + ".reg2mem", allocaPoint);
  BasicBlock *updateBlock = update->getParent();
  auto after = isa<PHINode>(update) ? updateBlock->getFirstInsertionPt() : std::next(update->getIterator());
  new StoreInst(update, variable, after);
  // Each use reads the variable where it is (a phi's at the end of the edge,
  // before the stores below: a phi's operands are read before any is set).
  for (Use &use : make_early_inc_range(phi->uses())) {
    auto *user = cast<Instruction>(use.getUser());
    Instruction *at = user;
    if (auto *userPhi = dyn_cast<PHINode>(user)) at = userPhi->getIncomingBlock(use)->getTerminator();
    use.set(new LoadInst(phi->getType(), variable, phi->getName() + ".reload", at->getIterator()));
  }
  // The other incoming values at the end of their predecessors, once each.
  SmallPtrSet<BasicBlock *, 4> stored;
  for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i) {
    BasicBlock *block = phi->getIncomingBlock(i);
    if (phi->getIncomingValue(i) == update || !stored.insert(block).second) continue;
    new StoreInst(phi->getIncomingValue(i), variable, block->getTerminator()->getIterator());
  }
  phi->eraseFromParent();
  ++NumCarriedPhisShared;
  LLVM_DEBUG(dbgs() << "carried phi shares its variable with " << *update << "\n");
  return true;
}

}  // namespace lockstep::compiler

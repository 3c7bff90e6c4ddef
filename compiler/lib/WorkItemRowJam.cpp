// Rows of work-items jammed around their x loop (WorkItemJamPass's second
// case): what makes a row loop worth it and legal, and the interleaving of
// the copies the jam leaves one after another.
//
// A tile's inner product (`for (k = 0; k < 16; k++) acc += As[ty][k] *
// Bs[k][tx]`) is unrolled whole by -O3: a trip of the x loop (one vector of
// a row of the vector-rows version) is a chain of 16 dependent multiply-adds,
// 4 cycles each, and the next row's chain waits for the core's out-of-order
// window to reach it. Jammed by 4 rows, with each instruction next to its
// copies for the other rows, 4 chains advance together, and the Bs[k][tx]
// vector the rows share is loaded once for all 4 (kept in a register, as the
// x loop's own loads were): a 4 x 16 block of the product per trip, as a
// register-blocked SGEMM computes it.
//
// Legal because work-items between barriers never depend on each other (the
// x loop's accesses, marked parallel, are the row loop's too:
// WorkGroupLoops marks the row loop with them); each copy keeps its own
// order, so every result is bit for bit what it was.
#include "WorkItemRowJam.h"

#include <algorithm>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/IVDescriptors.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Metadata.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

#include "Internal.h"

using namespace llvm;

namespace lockstep::compiler {
namespace {

// Jammed where a trip of the x loop has a chain this long.
cl::opt<unsigned> kRowMinChain("lockstep-work-item-jam-row-chain", cl::Hidden, cl::init(8),
                               cl::desc("Shortest chain of float operations in a trip of an x loop for which "
                                        "rows of work-items are jammed (0: off)"));
cl::opt<unsigned> kRowMaxTrips("lockstep-work-item-jam-row-trips", cl::Hidden, cl::init(32),
                               cl::desc("Most trips of an x loop around which rows of work-items are jammed"));

// The most floating-point operations one after another on a path through
// `block` (each waits for the one before).
unsigned longestFloatChain(BasicBlock &block) {
  DenseMap<const Instruction *, unsigned> depth;
  unsigned longest = 0;
  for (Instruction &I : block) {
    unsigned d = 0;
    for (Value *operand : I.operands())
      if (auto *def = dyn_cast<Instruction>(operand); def && def->getParent() == &block)
        d = std::max(d, depth.lookup(def));
    d += isFloatArithmetic(I);
    depth[&I] = d;
    longest = std::max(longest, d);
  }
  return longest;
}

}  // namespace

// Rows: the outer loop is a loop over rows of work-items (marked parallel
// like its x loop), the inner one its x loop: one block, no recurrence but
// its counter, a small constant trip count, and a long chain of float
// operations in a trip.
bool isRowOfChains(Loop &inner, ScalarEvolution &evolution) {
  BasicBlock *block = inner.getHeader();
  if (block != inner.getLoopLatch() || !inner.isAnnotatedParallel()) return false;
  for (PHINode &phi : block->phis()) {
    InductionDescriptor induction;
    if (!InductionDescriptor::isInductionPHI(&phi, &inner, &evolution, induction)) return false;
  }
  unsigned trips = evolution.getSmallConstantTripCount(&inner);
  if (trips == 0 || trips > kRowMaxTrips) return false;
  return kRowMinChain != 0 && longestFloatChain(*block) >= kRowMinChain;
}

// Whether the rows of `outer` are independent: every write in it is marked
// parallel, and so is every read but those of values no work-item's write
// can reach. -O3 hoists a row's reads out of its x loop (`As[ty][k]` of a
// tile) and GVN's copies of them lose their marks; a read of a private
// variable the work-items share (never marked) keeps them apart.
bool rowsAreIndependent(Loop &outer) {
  MDNode *parallel = findOptionMDForLoop(&outer, "llvm.loop.parallel_accesses");
  if (!parallel) return false;
  SmallPtrSet<const MDNode *, 4> groups;
  for (const MDOperand &group : drop_begin(parallel->operands())) groups.insert(cast<MDNode>(group.get()));
  auto marked = [&](const Instruction &I) {
    MDNode *access = I.getMetadata(LLVMContext::MD_access_group);
    if (!access) return false;
    if (access->getNumOperands() == 0) return groups.contains(access);
    return any_of(access->operands(), [&](const MDOperand &group) { return groups.contains(cast<MDNode>(group.get())); });
  };
  for (BasicBlock *block : outer.blocks())
    for (Instruction &I : *block) {
      if (!I.mayReadOrWriteMemory() || marked(I)) continue;
      auto *load = dyn_cast<LoadInst>(&I);
      if (!load || !load->isSimple() || isa<AllocaInst>(getUnderlyingObject(load->getPointerOperand())))
        return false;
    }
  return true;
}

void tagPositions(BasicBlock &block, unsigned positionKind) {
  LLVMContext &context = block.getContext();
  uint64_t position = 0;
  for (Instruction &I : block)
    I.setMetadata(positionKind,
                  MDNode::get(context, {ConstantAsMetadata::get(ConstantInt::get(Type::getInt64Ty(context), ++position))}));
}

void untagPositions(Function &F, unsigned positionKind) {
  for (BasicBlock &block : F)
    for (Instruction &I : block) I.setMetadata(positionKind, nullptr);
}

// After the jam, `block` holds the F copies of a trip one after another.
// Each instruction goes next to its copies (all of the first position, then
// all of the second, ...), so the F chains advance together; a copy that
// computes or loads what the one before it did (the same operands: a value
// no row changes) is that one.
void interleaveCopies(BasicBlock &block, unsigned positionKind) {
  SmallVector<std::pair<uint64_t, Instruction *>, 128> keyed;
  uint64_t last = 0;
  for (Instruction &I : block) {
    if (isa<PHINode>(I) || I.isTerminator()) continue;
    if (MDNode *tag = I.getMetadata(positionKind))
      last = mdconst::extract<ConstantInt>(tag->getOperand(0))->getZExtValue();
    keyed.push_back({last, &I});
  }
  llvm::stable_sort(keyed, [](const auto &a, const auto &b) { return a.first < b.first; });
  SmallPtrSet<Instruction *, 32> placed;
  for (auto [key, I] : keyed) {
    for (Value *operand : I->operands())
      if (auto *def = dyn_cast<Instruction>(operand);
          def && def->getParent() == &block && !isa<PHINode>(def) && !placed.count(def))
        return;  // not copies in one order: left as they are
    placed.insert(I);
  }
  Instruction *terminator = block.getTerminator();
  for (auto [key, I] : keyed) I->moveBefore(terminator);
  // Only copies of one position lie between an instruction and its copies:
  // nothing that writes memory between two equal loads.
  for (size_t i = 0, first = 0; i < keyed.size(); ++i) {
    if (keyed[i].first != keyed[first].first) first = i;
    Instruction *I = keyed[i].second;
    if (I->mayHaveSideEffects() || (I->mayReadFromMemory() && !(isa<LoadInst>(I) && cast<LoadInst>(I)->isSimple())))
      continue;
    for (size_t j = first; j < i; ++j) {
      Instruction *earlier = keyed[j].second;
      if (earlier && earlier->isIdenticalTo(I)) {
        I->replaceAllUsesWith(earlier);
        I->eraseFromParent();
        keyed[i].second = nullptr;
        break;
      }
    }
  }
}


}  // namespace lockstep::compiler

// Row jam: unroll-and-jam of a region's loop over y into its loop over x.
// One trip of the x loop runs the region's body for R rows of work-items,
// one after another (y, y + 1, ..., y + R - 1 at the same x), and the y loop
// steps by R; the rows left over (fewer than R) run the region's own loop
// nest, one row a trip. The vectorizer then widens the R bodies together
// across x, so a load that is the same for every row (B[k * N + col] of a
// matrix product, Bs[k][tx] of a tiled one) is loaded once for R rows and
// feeds R multiply-adds into R accumulators held in registers.
//
// Legal for every region: work-items between barriers never depend on each
// other (that would take a barrier), so any order of them is correct, and
// each copy keeps its own work-item's id, index and context slots. The cost
// model (rowJamFactor) jams only where it pays: the body has a load whose
// address does not depend on the row (found by following the rows' ids, the
// work-item index and the private variables assigned from them) and
// floating-point arithmetic for it to feed, and the R copies stay small. The
// factor is bounded by the registers: R accumulator vectors and the vectors
// the vectorizer interleaves, 4 rows on AVX-512 (32 registers), 2 on AVX2.
#include <functional>

#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include "Analysis/WorkItemDivergence.h"
#include "Statistics.h"
#include "WorkGroup/WorkGroupLoops.h"

using namespace llvm;

#define DEBUG_TYPE "lockstep-work-group-loops"
LOCKSTEP_STATISTIC(NumJammedRegions, "Regions whose rows of work-items were jammed into one x-loop trip");

namespace lockstep::compiler {
namespace {

// Rows of work-items per trip of the x loop. 0 picks by the vector
// registers (4 with 512-bit vectors, 2 with 256); 1 turns jamming off.
cl::opt<unsigned> kRowJam("lockstep-row-jam", cl::Hidden, cl::init(0),
                          cl::desc("Rows of work-items jammed into one trip of a region's x loop (0: by vector "
                                   "width, 1: off)"));
// The jammed body's largest size in instructions.
cl::opt<unsigned> kRowJamMaxSize("lockstep-row-jam-max-size", cl::Hidden, cl::init(800),
                                 cl::desc("Largest region body, times the jam factor, that is jammed"));


}  // namespace

// The values of a region's x-loop blocks that depend on `seeds` (ids, the
// work-item index): what is computed or loaded from them, through private
// variables too (a variable depends on them when a value stored to it does,
// or when it is stored under a branch that does).
static SmallPtrSet<const Value *, 32> valuesFrom(ArrayRef<const Value *> seeds, ArrayRef<BasicBlock *> body) {
  SmallPtrSet<const Value *, 32> values(seeds.begin(), seeds.end());
  DenseSet<const Value *> variables;
  auto variableOf = [](const Value *pointer) { return dyn_cast<AllocaInst>(getUnderlyingObject(pointer)); };
  bool branches = false;
  for (bool changed = true; changed;) {
    changed = false;
    for (BasicBlock *block : body) {
      for (Instruction &I : *block) {
        if (auto *store = dyn_cast<StoreInst>(&I)) {
          const AllocaInst *variable = variableOf(store->getPointerOperand());
          bool depends = branches || values.count(store->getValueOperand()) || values.count(store->getPointerOperand());
          if (variable && depends && variables.insert(variable).second) changed = true;
          continue;
        }
        if (values.count(&I)) continue;
        bool depends = any_of(I.operands(), [&](const Use &operand) { return values.count(operand.get()); });
        if (auto *load = dyn_cast<LoadInst>(&I))
          if (const AllocaInst *variable = variableOf(load->getPointerOperand()))
            depends |= variables.contains(variable);
        if (isa<PHINode>(I)) depends |= branches;
        if (!depends) continue;
        values.insert(&I);
        changed = true;
      }
      if (Value *condition = branchCondition(block->getTerminator());
          condition && values.count(condition) && !branches)
        branches = changed = true;
    }
  }
  return values;
}

// The factor to jam the region whose x-loop blocks are `body` by, or 1.
unsigned WorkGroupLoops::rowJamFactor(const LoopNest &nest, ArrayRef<BasicBlock *> body) const {
  unsigned factor = kRowJam != 0 ? kRowJam.getValue() : vectorBits >= 512 ? 4 : vectorBits >= 256 ? 2 : 1;
  // The version without cuts runs groups too narrow to widen; sub-group
  // and lane mode have no loop over rows.
  if (factor < 2 || !cutLoops || subGroupMode || laneMode || !nest.rowHeader) return 1;
  uint64_t size = 0;
  for (BasicBlock *block : body) size += block->size();
  if (size * factor > kRowJamMaxSize) return 1;
  // Only straight-line bodies (a loop cut's region, say): a loop left in
  // the body keeps the x loop from widening, and one that -O3 unrolls
  // whole (a tile's `for (k = 0; k < 16; k++)`) makes one value per round
  // that the x loop does not change (As[ty][k]) for each of the R rows,
  // hoisted out of the x loop: 64 vectors for 4 rows of a 16 x 16 tile,
  // spilled (the tiled SGEMM ran 1.6x slower jammed).
  SmallPtrSet<BasicBlock *, 32> inBody(body.begin(), body.end());
  SmallPtrSet<BasicBlock *, 32> visited;
  SmallPtrSet<BasicBlock *, 32> onPath;
  std::function<bool(BasicBlock *)> cyclic = [&](BasicBlock *block) {
    if (onPath.count(block)) return true;
    if (!visited.insert(block).second) return false;
    onPath.insert(block);
    for (BasicBlock *successor : successors(block))
      if (inBody.count(successor) && successor != nest.body && cyclic(successor)) return true;
    onPath.erase(block);
    return false;
  };
  if (cyclic(nest.body)) return 1;
  // A body that never reads its row's id (a 1D kernel's) has rows only in
  // groups of more than one dimension: not worth its copies.
  bool readsRow = any_of(nest.ids[1]->users(), [&](const User *user) {
    auto *I = dyn_cast<Instruction>(user);
    return I && I->getParent() != nest.body && inBody.count(I->getParent());
  });
  if (!readsRow) return 1;
  SmallPtrSet<const Value *, 32> rowValues = valuesFrom({nest.ids[1], nest.workItem}, body);
  SmallPtrSet<const Value *, 32> columnValues = valuesFrom({nest.ids[0], nest.workItem}, body);
  // Loads the rows share, loads each row makes once for the whole x loop
  // (kept in a register per row), and the arithmetic they feed.
  unsigned sharedLoads = 0, rowLoads = 0, arithmetic = 0;
  for (BasicBlock *block : body)
    for (Instruction &I : *block) {
      // Loads of the kernel's memory: not of private variables nor of the
      // context (a uniform variable's or a masked loop's bookkeeping).
      const Value *object = nullptr;
      if (auto *load = dyn_cast<LoadInst>(&I)) object = getUnderlyingObject(load->getPointerOperand());
      if (auto *load = dyn_cast<LoadInst>(&I); load && !isa<AllocaInst>(object) && object != F.getArg(kContextParam)) {
        if (!rowValues.count(load->getPointerOperand())) ++sharedLoads;
        else if (!columnValues.count(load->getPointerOperand())) ++rowLoads;
      }
      arithmetic += isFloatArithmetic(I);
    }
  LLVM_DEBUG(dbgs() << "region in " << F.getName() << ": " << size << " instructions, " << sharedLoads
                    << " loads shared by rows, " << rowLoads << " per row, " << arithmetic << " float operations\n");
  if (sharedLoads == 0 || arithmetic == 0) return 1;
  // Each row's own loads stay in registers across the x loop: a quarter
  // of the registers for them at most.
  unsigned registers = vectorBits >= 512 ? 32 : 16;
  while (factor > 1 && rowLoads * factor > registers / 4) factor /= 2;
  return factor;
}

// The y loop steps by `factor` while that many rows are left, and each trip
// of a copy of the x loop runs the body for each of those rows in turn; the
// rows left over go through the original x loop.
void WorkGroupLoops::jamRows(LoopNest &nest, unsigned factor) {
  BasicBlock *header = nest.body, *latch = nest.latch;
  auto *workItem = cast<Instruction>(nest.workItem);
  auto *row = cast<PHINode>(nest.ids[1]);
  // The x loop's header keeps only its id and the work-item index.
  BasicBlock *entry = header->splitBasicBlock(std::next(workItem->getIterator()), "wi.body");
  SmallVector<BasicBlock *, 32> body;
  SmallPtrSet<BasicBlock *, 32> seen{latch};
  SmallVector<BasicBlock *, 32> work{entry};
  seen.insert(entry);
  while (!work.empty()) {
    BasicBlock *block = work.pop_back_val();
    body.push_back(block);
    for (BasicBlock *successor : successors(block))
      if (seen.insert(successor).second) work.push_back(successor);
  }
  // The x loop for R rows: its header and latch once, its body R times.
  ValueToValueMapTy map;
  auto cloneInto = [&](BasicBlock *block, ValueToValueMapTy &into, const Twine &suffix) {
    BasicBlock *clone = CloneBasicBlock(block, into, suffix, &F);
    into[block] = clone;
    return clone;
  };
  BasicBlock *jamHeader = cloneInto(header, map, ".jam");
  BasicBlock *jamLatch = cloneInto(latch, map, ".jam");
  SmallVector<SmallVector<BasicBlock *, 32>, 4> copies(factor);
  for (BasicBlock *block : body) copies[0].push_back(cloneInto(block, map, ".jam"));
  for (BasicBlock *clone : copies[0]) for (Instruction &I : *clone) RemapInstruction(&I, map, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
  for (BasicBlock *clone : {jamHeader, jamLatch})
    for (Instruction &I : *clone) RemapInstruction(&I, map, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
  IRBuilder<> at(jamHeader->getTerminator());
  auto *jamWorkItem = cast<Instruction>(map[workItem]);
  for (unsigned r = 1; r < factor; ++r) {
    ValueToValueMapTy copyMap;
    for (Instruction &I : *header) copyMap[&I] = map[&I];
    copyMap[workItem] = at.CreateAdd(jamWorkItem, at.CreateMul(localSize[0], at.getInt64(r)), "wi.row");
    copyMap[row] = at.CreateAdd(row, at.getInt64(r), "lid1.row");
    copyMap[latch] = jamLatch;
    for (BasicBlock *block : body) copies[r].push_back(cloneInto(block, copyMap, ".jam" + Twine(r)));
    for (BasicBlock *clone : copies[r])
      for (Instruction &I : *clone) RemapInstruction(&I, copyMap, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
  }
  // Copy r goes on to copy r + 1 where it would have ended the trip.
  for (unsigned r = 0; r + 1 < factor; ++r) {
    BasicBlock *next = copies[r + 1].front();
    for (BasicBlock *clone : copies[r]) {
      Instruction *terminator = clone->getTerminator();
      for (unsigned s = 0; s < terminator->getNumSuccessors(); ++s)
        if (terminator->getSuccessor(s) == jamLatch) terminator->setSuccessor(s, next);
    }
  }
  // The jammed x loop is a loop of its own: a new loop id with the same
  // properties (parallel accesses), and not split by WorkItemLoopSplitPass.
  Instruction *jamBranch = jamLatch->getTerminator();
  if (MDNode *loopId = jamBranch->getMetadata(LLVMContext::MD_loop)) {
    SmallVector<Metadata *, 4> properties{nullptr};
    for (unsigned i = 1; i < loopId->getNumOperands(); ++i) properties.push_back(loopId->getOperand(i));
    MDNode *copy = MDNode::getDistinct(context, properties);
    copy->replaceOperandWith(0, copy);
    jamBranch->setMetadata(LLVMContext::MD_loop, copy);
  }
  jamBranch->setMetadata(kWorkItemLoopMarker, nullptr);
  // The y loop: R rows while R are left, else one; it steps by as many.
  Instruction *rowBranch = nest.rowHeader->getTerminator();
  IRBuilder<> rows(rowBranch);
  Value *enough = rows.CreateICmpULE(rows.CreateAdd(row, rows.getInt64(factor)), localSize[1], "rows.jam");
  rows.CreateCondBr(enough, jamHeader, header);
  rowBranch->eraseFromParent();
  auto *next = cast<Instruction>(row->getIncomingValueForBlock(nest.rowLatch));
  IRBuilder<> step(&*nest.rowLatch->begin());
  PHINode *rowsDone = step.CreatePHI(step.getInt64Ty(), 2, "rows.step");
  rowsDone->addIncoming(step.getInt64(1), latch);
  rowsDone->addIncoming(step.getInt64(factor), jamLatch);
  next->setOperand(next->getOperand(0) == row ? 1 : 0, rowsDone);
  // `row + 1` could not wrap; `row + factor` stays at most the row count.
  F.addFnAttr(kJammedRowsAttr, std::to_string(std::max<uint64_t>(factor, functionAttrNumber(F, kJammedRowsAttr))));
  ++NumJammedRegions;
  LLVM_DEBUG(dbgs() << "jammed " << factor << " rows of a region in " << F.getName() << "\n");
}

}  // namespace lockstep::compiler

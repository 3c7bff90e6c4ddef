// Region code generation: each region cloned into its work-item loop nest
// (WorkItemLoopNest.cpp), copied variables loaded at the top of an iteration
// and stored at its end, get_local_id replaced by the loop's ids; and the
// control between the nests: the barrier's fence, a collective's combine, a
// decision's branch on work-item 0's condition, or the return.
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include "Statistics.h"
#include "WorkGroup/WorkGroupLoops.h"

using namespace llvm;

#define DEBUG_TYPE "lockstep-work-group-loops"
LOCKSTEP_STATISTIC(NumRegions, "Regions cloned into work-item loop nests");

namespace lockstep::compiler {
namespace {

constexpr unsigned kGlobalMemFence = 2, kImageMemFence = 4;

}  // namespace

BitVector WorkGroupLoops::liveAfter(const Exit &exit) const {
  BitVector live(allocas.size());
  if (exit.kind == Exit::Barrier) {
    live = liveIn.lookup(exit.block->getSingleSuccessor());
    if (auto it = collectiveAt.find(exit.block); it != collectiveAt.end()) {
      const Collective &collective = collectives[it->second];
      if (collective.in) live.set(allocaIndex.lookup(collective.in));
      for (AllocaInst *id : collective.ids) live.set(allocaIndex.lookup(id));
    }
  }
  if (exit.kind == Exit::Decision)
    for (BasicBlock *successor : successors(exit.block)) live |= liveIn.lookup(successor);
  return live;
}

BasicBlock *WorkGroupLoops::regionFor(BasicBlock *entry) {
  auto [it, inserted] = regionPre.try_emplace(entry, nullptr);
  if (inserted) {
    it->second = BasicBlock::Create(context, "region", &F);
    pendingRegions.push_back(entry);
  }
  return it->second;
}

// One thread runs the whole group: other work-items' memory is ordered by
// program order. A global fence still orders this group's global accesses
// for other threads; a local one needs nothing. (It had been a single-thread
// fence, which pinned the compiler for nothing: GVN could not carry a
// value stored before the barrier to its load after it, so a tile loop's
// counter went through memory each trip and was no induction for scalar
// evolution, and NextTripPrefetchPass could not see where the next tile is.)
static cl::opt<bool> kLocalBarrierFence("lockstep-local-barrier-fence", cl::Hidden, cl::init(false),
                                        cl::desc("For comparison: a single-thread fence at local-memory barriers"));

void WorkGroupLoops::emitBarrierFence(IRBuilder<> &builder, CallInst *call) {
  if (isLoopCut(*call)) return;
  auto *flags = dyn_cast<ConstantInt>(call->getArgOperand(0));
  if (!flags || (flags->getZExtValue() & (kGlobalMemFence | kImageMemFence)))
    builder.CreateFence(AtomicOrdering::AcquireRelease);
  else if (kLocalBarrierFence)
    builder.CreateFence(AtomicOrdering::SequentiallyConsistent, SyncScope::SingleThread);
}

void WorkGroupLoops::emitControl(IRBuilder<> &builder, const std::optional<Exit> &exit) {
  if (!exit) {  // the region never ends (it loops forever or traps)
    builder.CreateUnreachable();
    return;
  }
  switch (exit->kind) {
    case Exit::Return:
      if (subGroupMode) builder.CreateBr(subGroupLatch);
      else builder.CreateRetVoid();
      return;
    case Exit::Barrier: {
      if (auto it = collectiveAt.find(exit->block); it != collectiveAt.end())
        emitCombine(builder, collectives[it->second], nullptr);
      else
        emitBarrierFence(builder, barrierBlocks.lookup(exit->block));
      builder.CreateBr(regionFor(exit->block->getSingleSuccessor()));
      return;
    }
    case Exit::Decision: {
      Instruction *terminator = exit->block->getTerminator();
      unsigned slot = decisionSlot.lookup(exit->block);
      if (checking) emitDivergenceCheck(builder, exit->block, slot);
      bool ownSegment = subGroupMode && !stripMode;
      Value *first = ownSegment ? contextAddress(builder, slot, subGroupFirst) : slots[slot].base;
      Value *value = builder.CreateLoad(slots[slot].type, first, "uniform.condition");
      if (auto *branch = dyn_cast<BranchInst>(terminator)) {
        // The kernel's own weights (a guard's likely whole groups) stay.
        BranchInst *decided = builder.CreateCondBr(builder.CreateICmpNE(value, builder.getInt32(0)),
                                                   regionFor(branch->getSuccessor(0)),
                                                   regionFor(branch->getSuccessor(1)));
        decided->copyMetadata(*branch, {LLVMContext::MD_prof});
        return;
      }
      auto *sw = cast<SwitchInst>(terminator);
      SwitchInst *copy =
          builder.CreateSwitch(value, regionFor(sw->getDefaultDest()), sw->getNumCases());
      for (auto &c : sw->cases()) copy->addCase(c.getCaseValue(), regionFor(c.getCaseSuccessor()));
      copy->copyMetadata(*sw, {LLVMContext::MD_prof});
      return;
    }
  }
}

// pre → work-item loops { copy in; region body; copy out } → control
void WorkGroupLoops::buildRegion(BasicBlock *entry, BasicBlock *pre) {
  IRBuilder<> builder(pre);
  bool startsAtCut = barrierBlocks.count(entry);
  if (startsAtCut && !laneMode) {  // two barriers in a row: nothing to run
    emitControl(builder, Exit{Exit::Barrier, entry});
    return;
  }
  ++NumRegions;
  SmallVector<BasicBlock *, 32> blocks;
  ExitSet exits = startsAtCut ? ExitSet{{Exit::Barrier, entry}} : exitsFrom(entry, &blocks);
  // The ends in the order of their blocks in the function (an ExitSet is
  // ordered by address), so that the code comes out alike on every compile.
  SmallVector<Exit, 4> ends(exits.begin(), exits.end());
  if (ends.size() > 1) {
    DenseMap<const BasicBlock *, unsigned> position;
    for (BasicBlock &block : F) position[&block] = position.size();
    llvm::sort(ends, [&](const Exit &a, const Exit &b) {
      return std::pair(a.kind, position.lookup(a.block)) < std::pair(b.kind, position.lookup(b.block));
    });
  }
  std::optional<Exit> exit;
  if (!ends.empty()) exit = ends.front();

  BasicBlock *after = BasicBlock::Create(context, "region.done", &F);
  if (laneMode) loadLaneCount(builder);
  LoopNest nest = makeLoopNest(pre, after);
  builder.SetInsertPoint(nest.body);
  Value *workItem = nest.workItem;
  SmallVector<BasicBlock *, 8> extraBody;  // blocks of the loop body besides the clones
  if (laneMode) {  // only the work-items in this region's state
    BasicBlock *run = BasicBlock::Create(context, "lane.active", &F);
    Value *state = builder.CreateLoad(builder.getInt32Ty(), contextAddress(builder, laneSlot, workItem), "lane.state");
    builder.CreateCondBr(builder.CreateICmpEQ(state, builder.getInt32(entryState.lookup(entry))), run, nest.latch);
    builder.SetInsertPoint(run);
    extraBody.push_back(run);
  }
  ValueToValueMapTy map;
  SmallPtrSet<BasicBlock *, 32> inRegion(blocks.begin(), blocks.end());
  BitVector usedHere(allocas.size());
  const BitVector &live = liveIn[entry];
  for (unsigned i = 0; i < allocas.size(); ++i) {
    AllocaInst *alloca = allocas[i];
    if (resident[i]) {
      Value *wide = groupWideAddress(alloca);
      map[alloca] = wide ? wide : contextAddress(builder, allocaSlot[alloca], workItem);
      continue;
    }
    if (!promotable[i]) continue;
    bool used = any_of(alloca->users(), [&](User *user) {
      return inRegion.count(cast<Instruction>(user)->getParent());
    });
    // A variable this region doesn't touch keeps its context copy as it is.
    if (!used) continue;
    usedHere.set(i);
    Value *initial = PoisonValue::get(alloca->getAllocatedType());
    if (copied[i] && live[i] && entry != bodyEntry) {
      if (uniformVariable[i]) {  // once, before the work-item loop
        IRBuilder<> before(pre->getTerminator());
        initial = before.CreateLoad(alloca->getAllocatedType(), slots[allocaSlot[alloca]].base, "uniform");
      } else {
        initial = loadCopy(builder, allocaSlot[alloca], workItem);
      }
    }
    builder.CreateStore(initial, alloca);
  }
  SmallVector<BasicBlock *, 32> clones;
  for (BasicBlock *block : blocks) {
    BasicBlock *clone = CloneBasicBlock(block, map, ".r", &F);
    map[block] = clone;
    clones.push_back(clone);
  }
  for (BasicBlock *clone : clones)
    for (Instruction &I : *clone)
      RemapInstruction(&I, map, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);

  // Every way out of the region goes through a store block that saves what
  // is live after it (in lane mode one per end, which also records where
  // the work-item stopped; otherwise the region has one end).
  DenseMap<BasicBlock *, BasicBlock *> stores;
  for (const Exit &end : ends) {
    if (!laneMode && !(end == *exit)) continue;
    BasicBlock *store = BasicBlock::Create(context, "region.exit", &F);
    IRBuilder<> at(store);
    BitVector out = liveAfter(end);
    for (unsigned i : out.set_bits())
      if (copied[i] && usedHere[i] && !uniformVariable[i])
        storeCopy(at, at.CreateLoad(allocas[i]->getAllocatedType(), allocas[i]), allocaSlot[allocas[i]], workItem);
    if (laneMode)
      at.CreateStore(at.getInt32(end.kind == Exit::Return ? doneState : cutState.lookup(end.block)),
                     contextAddress(at, laneSlot, workItem));
    at.CreateBr(nest.latch);
    stores[end.block] = store;
    extraBody.push_back(store);
  }
  auto storeFor = [&](BasicBlock *end) { return stores.lookup(laneMode ? end : exit->block); };
  builder.CreateBr(startsAtCut ? storeFor(entry) : cast<BasicBlock>(map[entry]));
  for (BasicBlock *clone : clones) {
    Instruction *terminator = clone->getTerminator();
    for (unsigned s = 0; s < terminator->getNumSuccessors(); ++s)
      if (barrierBlocks.count(terminator->getSuccessor(s)))
        terminator->setSuccessor(s, storeFor(terminator->getSuccessor(s)));
  }
  if (exits.count({Exit::Return, returnBlock})) {
    BasicBlock *clone = cast<BasicBlock>(map[returnBlock]);
    clone->getTerminator()->eraseFromParent();
    BranchInst::Create(storeFor(returnBlock), clone);
  }
  if (exit && exit->kind == Exit::Decision) {
    BasicBlock *clone = cast<BasicBlock>(map[exit->block]);
    Instruction *terminator = clone->getTerminator();
    unsigned slot = decisionSlot.lookup(exit->block);
    IRBuilder<> at(terminator);
    Value *condition = isa<BranchInst>(terminator) ? cast<BranchInst>(terminator)->getCondition()
                                                   : cast<SwitchInst>(terminator)->getCondition();
    if (condition->getType()->isIntegerTy(1)) condition = at.CreateZExt(condition, at.getInt32Ty());
    // The branch after the loops reads work-item 0's condition, which every
    // work-item shares (barriers are reached in uniform control flow): one
    // place for all, unless the check compares them or a sub-group's first
    // work-item is not work-item 0 (a strip's decision is made and read
    // before the next strip runs). The store then leaves the loop.
    bool perWorkItem = checking || (subGroupMode && !stripMode) || laneMode;
    at.CreateStore(condition, perWorkItem ? contextAddress(at, slot, workItem) : slots[slot].base);
    terminator->eraseFromParent();
    BranchInst::Create(stores.lookup(exit->block), clone);
  }
  Value *const *ids = nest.ids;
  // A single-thread fence (mem_fence on __local, work-group scope) orders a
  // work-item's accesses against other work-items of its group, which here
  // run on the same thread and, within a region, never look at each other's
  // memory (that takes a barrier). Left in, it would stop the vectorizer.
  for (BasicBlock *clone : clones)
    for (Instruction &I : make_early_inc_range(*clone))
      if (auto *fence = dyn_cast<FenceInst>(&I); fence && fence->getSyncScopeID() == SyncScope::SingleThread)
        fence->eraseFromParent();
  // get_local_id(d) in the clones is the loop's induction variable.
  for (BasicBlock *clone : clones)
    for (Instruction &I : make_early_inc_range(*clone))
      if (isLocalIdPlaceholder(I)) {
        Value *dim = cast<CallInst>(I).getArgOperand(0);
        IRBuilder<> at(&I);
        Value *id = ids[0];
        if (auto *constant = dyn_cast<ConstantInt>(dim)) {
          id = ids[std::min<uint64_t>(constant->getZExtValue(), 3) % 3];
          if (constant->getZExtValue() >= 3) id = at.getInt64(0);
        } else {
          id = at.CreateSelect(at.CreateICmpEQ(dim, at.getInt32(1)), ids[1], ids[0]);
          id = at.CreateSelect(at.CreateICmpEQ(dim, at.getInt32(2)), ids[2], id);
          id = at.CreateSelect(at.CreateICmpUGE(dim, at.getInt32(3)), at.getInt64(0), id);
        }
        I.replaceAllUsesWith(id);
        I.eraseFromParent();
      }
  if (stripMode) widenStripIds(clones, nest);
  SmallVector<BasicBlock *, 34> body(clones.begin(), clones.end());
  body.push_back(nest.body);
  body.append(extraBody.begin(), extraBody.end());
  markParallel(body, nest.innerLatch, nest.rowLatch);
  // Every work-item reads and writes a group-wide variable in turn: not a
  // parallel access. -O3 keeps it in a register across the work-item loop;
  // left parallel, a vectorized loop that did not would keep one lane's value.
  for (AllocaInst *alloca : allocas)
    if (Value *wide = groupWideAddress(alloca))
      for (BasicBlock *block : body)
        for (Instruction &I : *block)
          if (getLoadStorePointerOperand(&I) == wide) I.setMetadata(LLVMContext::MD_access_group, nullptr);
  // Rows of work-items that share loads run together (RowJam.cpp).
  if (unsigned factor = rowJamFactor(nest, body); factor > 1) jamRows(nest, factor);

  builder.SetInsertPoint(after);
  // Uniform variables: every work-item ended with the same value; the last
  // one's is in the variable.
  if (exit && !laneMode) {
    BitVector out = liveAfter(*exit);
    for (unsigned i : out.set_bits())
      if (copied[i] && usedHere[i] && uniformVariable[i])
        builder.CreateStore(builder.CreateLoad(allocas[i]->getAllocatedType(), allocas[i]),
                            slots[allocaSlot[allocas[i]]].base);
  }
  laneCount = nullptr;
  if (laneMode) builder.CreateBr(dispatch);
  else emitControl(builder, exit);
}

}  // namespace lockstep::compiler

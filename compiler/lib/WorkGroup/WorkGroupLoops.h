// The work-group loops transformation's state, shared by its phases.
//
// WorkGroupLoopsPass (WorkGroupLoops.cpp, the driver) turns a work-group
// function whose body is the code of one work-item into code that runs every
// work-item of the group. The passes before it have cut its kernel loops
// and made the kernel's versions, and marked what they did in the IR
// (PhaseMarkers.h). Its phases, in the order the driver runs them, each in a
// file of this folder named for it:
//
//   Collectives.cpp       cut the code at work-group and sub-group functions;
//   Regions.cpp           cut it at barriers, one return, and decisions
//                         (branches that choose between barriers);
//   LaneMode.cpp          or, for the cl_khr_subgroup_* functions, number the
//                         states of a per-work-item state machine instead;
//   Strips.cpp            or, for a kernel whose only cuts are its loops',
//                         run the machine per strip of a row (sub-group
//                         mode's segments);
//   LiveValues.cpp        demote values that cross blocks, classify the
//                         private variables, liveness across regions;
//   CarriedValues.cpp     a loop-carried phi and its update in one variable;
//   UniformVariables.cpp  which copied variables every work-item shares
//                         (Analysis/WorkItemDivergence);
//   ContextLayout.cpp     the context block: one slot per variable kept per
//                         work-item and per decision, and their alias scopes;
//   RegionCodegen.cpp     each region cloned into its work-item loop nest
//                         (WorkItemLoopNest.cpp), with the code between the
//                         nests: fences, decisions, collectives combined
//                         (CollectiveCombine.cpp), barrier checks
//                         (BarrierChecks.cpp), and rows of work-items
//                         jammed into one trip of the x loop where they
//                         share loads (RowJam.cpp).
//
// These phases build one function together: the regions, the variables'
// classes and the context's slots that one decides the next ones read, in
// the fields below (what one phase decides that another reads is listed
// with each field).
#pragma once

#include <array>

#include <llvm/ADT/BitVector.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/MapVector.h>
#include <llvm/ADT/SetVector.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include <deque>
#include <optional>
#include <set>
#include <string>

#include "Internal.h"
#include "Analysis/OpenCLNames.h"
#include "WorkGroup/PhaseMarkers.h"

namespace llvm {
class DominatorTree;
}

namespace lockstep::compiler {

using llvm::AllocaInst;
using llvm::DataLayout;
using llvm::Instruction;
using llvm::LLVMContext;
using llvm::PHINode;
using llvm::ArrayRef;
using llvm::BasicBlock;
using llvm::BitVector;
using llvm::BranchInst;
using llvm::CallInst;
using llvm::DenseMap;
using llvm::Function;
using llvm::IRBuilder;
using llvm::LoadInst;
using llvm::SmallPtrSet;
using llvm::SmallPtrSetImpl;
using llvm::SmallSetVector;
using llvm::SmallVector;
using llvm::SmallVectorImpl;
using llvm::Type;
using llvm::Value;

struct Exit {
  enum Kind : uint8_t { Barrier, Decision, Return } kind;
  BasicBlock *block;
  bool operator<(const Exit &other) const {
    return std::tie(kind, block) < std::tie(other.kind, other.block);
  }
  bool operator==(const Exit &other) const = default;
};
using ExitSet = std::set<Exit>;

// A collective call, cut out of the code: operands in `in` (and `ids`),
// results in `out`, both per work-item in the context.
struct Collective {
  CollectiveOp op;
  Type *type = nullptr;
  AllocaInst *in = nullptr, *out = nullptr;
  SmallVector<AllocaInst *, 3> ids;  // broadcast source ids
  // A masked loop's count of active work-items: a group-wide variable that
  // is 0 while every flag is known to be 1 (see MaskedLoops.cpp).
  AllocaInst *dirty = nullptr;
};

class WorkGroupLoops {
 public:
  WorkGroupLoops(Function &F, const WorkGroupLoopsOptions &options)
      : F(F),
        context(F.getContext()),
        layout(F.getParent()->getDataLayout()),
        cutLoops(options.cutLoops),
        foldTails(options.foldTails),
        narrowRows(options.narrowRows),
        rowWidth(options.rowWidth),
        stripWidth(options.stripWidth),
        vectorBits(options.vectorBits) {}
  void run();

 private:
  // Structure.
  void prepareCollectives();
  void emitCombine(IRBuilder<> &builder, const Collective &collective, Value *state);
  void emitCombineSegment(IRBuilder<> &builder, const Collective &collective, AllocaInst *accumulator,
                          Value *first, Value *end, Value *state);
  bool scansVectors(const Collective &collective, Value *state) const;
  Value *emitVectorScan(IRBuilder<> &builder, const Collective &collective, AllocaInst *accumulator, Value *first,
                        Value *end);
  void storeResult(IRBuilder<> &builder, const Collective &collective, Value *first, Value *end, Value *state,
                   Value *value);
  Value *groupWideAddress(AllocaInst *alloca) const;
  void emitBarrierFence(IRBuilder<> &builder, CallInst *call);
  void numberStates();
  void buildLaneMachine(BasicBlock *start, BasicBlock *finish);
  void emitDivergenceCheck(IRBuilder<> &builder, BasicBlock *decision, unsigned slot);
  void splitAtBarriers();
  void unifyReturns();
  // Ifs whose arms only compute become selects (DiamondSelects.cpp).
  void foldCheapDiamonds();
  ExitSet exitsFrom(BasicBlock *start, SmallVectorImpl<BasicBlock *> *blocks = nullptr) const;
  SmallVector<BasicBlock *, 16> regionEntries() const;
  bool addOneDecision();
  // Values.
  void demoteCrossBlockValues();
  bool demoteCarriedPhi(PHINode *phi, llvm::BasicBlock::iterator allocaPoint,
                        const llvm::DominatorTree &dominators);
  Value *rematerialize(Instruction *I, Instruction *before,
                       DenseMap<Instruction *, Value *> &done);
  bool isRematerializable(const Instruction *I, unsigned depth) const;
  unsigned rematerializeDepth(const Instruction *I, DenseMap<const Instruction *, unsigned> &known) const;
  void analyzeAllocas();
  void computeLiveness();
  void findUniformVariables();
  void layOutContext();
  void scopeContextSlots();
  // Kernel memory scoped apart from the context (KernelMemoryScope.cpp).
  void scopeKernelMemory();
  // Code.
  struct LoopNest {
    BasicBlock *body = nullptr, *latch = nullptr;
    Value *ids[3] = {};
    Value *workItem = nullptr;
    BranchInst *innerLatch = nullptr;
    // The loop over y (not in sub-group mode): RowJam.cpp jams its rows.
    BasicBlock *rowHeader = nullptr, *rowLatch = nullptr;
  };
  std::array<Value *, 3> localIdsOf(IRBuilder<> &builder, Value *linear);
  LoopNest makeLoopNest(BasicBlock *pre, BasicBlock *after);
  void collectBarrierLocations(BasicBlock *decision, std::vector<std::string> &out,
                               SmallPtrSetImpl<BasicBlock *> &seen);
  BasicBlock *regionFor(BasicBlock *entry);
  void buildRegion(BasicBlock *entry, BasicBlock *pre);
  void emitControl(IRBuilder<> &builder, const std::optional<Exit> &exit);
  Value *contextAddress(IRBuilder<> &builder, unsigned slot, Value *workItem);
  bool splitsSlot(unsigned alloca) const;
  Value *splitElementAddress(IRBuilder<> &builder, unsigned slot, unsigned element, Value *workItem);
  Value *loadCopy(IRBuilder<> &builder, unsigned slot, Value *workItem);
  void storeCopy(IRBuilder<> &builder, Value *value, unsigned slot, Value *workItem);
  BitVector liveAfter(const Exit &exit) const;
  void markParallel(ArrayRef<BasicBlock *> body, BranchInst *latch, BasicBlock *rowLatch);
  unsigned rowJamFactor(const LoopNest &nest, ArrayRef<BasicBlock *> body) const;
  void jamRows(LoopNest &nest, unsigned factor);

  Function &F;
  LLVMContext &context;
  const DataLayout &layout;
  BasicBlock *prologue = nullptr;
  BasicBlock *bodyEntry = nullptr;
  BasicBlock *returnBlock = nullptr;
  // Cuts: barrier blocks map to their barrier call; blocks of collectives
  // (a barrier that also exchanges data) map to nullptr and are in
  // collectiveAt.
  llvm::MapVector<BasicBlock *, CallInst *> barrierBlocks;
  SmallVector<Collective, 4> collectives;
  DenseMap<const BasicBlock *, unsigned> collectiveAt;
  unsigned subGroupSize = 16;
  // Sub-group mode: the kernel synchronizes only within sub-groups, so the
  // whole region machine runs once per sub-group, over that sub-group's
  // linear ids [subGroupFirst, subGroupEnd), and sub-groups may take
  // different paths.
  bool subGroupMode = false;
  // Strip mode (Strips.cpp): sub-group mode whose segments are strips of
  // stripWidth work-items of a row, for a kernel whose only cuts are its
  // loops'.
  bool stripMode = false;
  void chooseStripMode();
  // A straight-line kernel whose stores run down columns
  // (kColumnStoresAttr): its work-item loops run y innermost.
  bool columnMajor = false;
  void widenStripIds(ArrayRef<BasicBlock *> body, const LoopNest &nest);
  Value *subGroupFirst = nullptr, *subGroupEnd = nullptr;
  // The local ids of the sub-group's first work-item, and whether all of its
  // work-items lie in that row (x the only id that changes, one at a time).
  std::array<Value *, 3> subGroupIds = {};
  Value *subGroupInRow = nullptr;
  BasicBlock *subGroupLatch = nullptr;
  // Lane mode: the kernel calls a function of the cl_khr_subgroup_*
  // extensions, which part of a sub-group may call. Each work-item keeps its
  // own place: a state (0 = the start, k = waiting at cut k, done) in the
  // context. The machine repeatedly picks the lowest state any work-item is
  // in (cuts numbered in reverse post-order, so work-items that branched
  // apart meet again at the next cut they share), runs that cut's exchange
  // among the work-items in it (the active ones) and then the region after
  // it for them alone. A work-group barrier waits until every work-item is
  // there. No decisions are needed: regions may end in several places.
  bool laneMode = false;
  unsigned laneSlot = 0, doneState = 0;
  DenseMap<const BasicBlock *, unsigned> cutState;    // cut block → its state
  DenseMap<const BasicBlock *, unsigned> entryState;  // region entry → state it runs
  SmallVector<BasicBlock *, 8> stateCuts;             // state k → cut block (k ≥ 1)
  BasicBlock *dispatch = nullptr;
  // In lane mode the slots' addresses are computed where they are used, from
  // the work-item count reloaded from the context's header (laneCount, loaded
  // once per state block and per region): computed in the prologue, hundreds
  // of slot addresses would be live across the whole dispatch loop, and
  // register allocation time would grow with their number times its size.
  static constexpr uint64_t kLaneHeaderBytes = 64;
  Value *contextBase = nullptr;
  Value *laneCount = nullptr;
  Value *loadLaneCount(IRBuilder<> &builder) {
    return laneCount = builder.CreateLoad(builder.getInt64Ty(), contextBase, "lanes.count");
  }
  bool checking = false;
  std::string kernelName;
  SmallSetVector<BasicBlock *, 8> decisions;
  // Of the barriers, how many are loop cuts (kLoopCutMarker).
  unsigned loopCuts = 0;
  // The function's loops were cut (RowJam.cpp jams the rows of cut loops).
  bool cutLoops = true;
  // The work-item loops ask the vectorizer to fold their remainder into
  // masked vector iterations (llvm.loop.vectorize.predicate.enable).
  bool foldTails = false;
  // One vector a trip, not interleaved (WorkGroupLoopsOptions::narrowRows).
  bool narrowRows = false;
  // Rows of this many work-items, a constant (WorkGroupLoopsOptions::rowWidth); 0: the group's.
  uint64_t rowWidth = 0;
  // Strips of this many work-items may run the machine (WorkGroupLoopsOptions::stripWidth).
  uint64_t stripWidth = 0;
  // The width of the target's vector registers: a kernel with vectors this
  // wide keeps its vectors whole (they are not split for widening across
  // work-items), so its loops with vector values are not cut.
  unsigned vectorBits = 512;

  // Allocas of the prologue and what the regions need of them.
  SmallVector<AllocaInst *, 32> allocas;
  DenseMap<const AllocaInst *, unsigned> allocaIndex;
  BitVector promotable, resident, copied, shared;
  // Copied variables whose value is the same for every work-item: kept once
  // (the first work-item's element of their slot), loaded before a region's
  // work-item loop and stored after it.
  BitVector uniformVariable;
  DenseMap<const BasicBlock *, BitVector> liveIn;

  // Context slots: one per copied/resident alloca and per decision.
  struct Slot {
    Type *type;      // element type per work-item
    uint64_t stride;  // bytes per work-item
    uint64_t offset;  // byte offset of the slot's array per work-item count
    Value *base = nullptr;
    // A vector variable's slot is split: element k of every work-item lies
    // in an array of its own (at base + k * work-item count), so that the
    // widened work-item loop reads and writes each element as whole vectors
    // rather than through gathers at the vector's stride.
    bool split = false;
  };
  SmallVector<Slot, 16> slots;
  DenseMap<const AllocaInst *, unsigned> allocaSlot;
  DenseMap<const BasicBlock *, unsigned> decisionSlot;
  uint64_t contextBytes = 0;

  Value *localSize[3] = {};
  Value *workItemCount = nullptr;
  Value *maxSubGroupSize = nullptr;  // get_max_sub_group_size(), i32
  DenseMap<BasicBlock *, BasicBlock *> regionPre;
  std::deque<BasicBlock *> pendingRegions;
};

// for (i = begin; i < end; ++i) body(i); the builder ends after the loop.
template <typename Body>
void emitCountedLoop(IRBuilder<> &builder, Value *begin, Value *end, Body body) {
  Function *F = builder.GetInsertBlock()->getParent();
  LLVMContext &context = builder.getContext();
  BasicBlock *before = builder.GetInsertBlock();
  BasicBlock *header = BasicBlock::Create(context, "combine.loop", F);
  BasicBlock *done = BasicBlock::Create(context, "combine.done", F);
  builder.CreateCondBr(builder.CreateICmpULT(begin, end), header, done);
  builder.SetInsertPoint(header);
  PHINode *i = builder.CreatePHI(builder.getInt64Ty(), 2, "i");
  i->addIncoming(begin, before);
  body(builder, static_cast<Value *>(i));
  Value *next = builder.CreateAdd(i, builder.getInt64(1));
  i->addIncoming(next, builder.GetInsertBlock());
  builder.CreateCondBr(builder.CreateICmpULT(next, end), header, done);
  builder.SetInsertPoint(done);
}

}  // namespace lockstep::compiler

// WorkGroupLoopsPass: turns a work-group function whose body is the code of
// ONE work-item into code that runs EVERY work-item of the group, with no
// thread per work-item.
//
// The body is cut into regions at barriers. A region is the code reachable
// from a region entry (the body's start, the block after a barrier, a
// successor of a decision) without passing another barrier. Each region is
// cloned into a loop nest over the work-items (z, y, x), so all work-items
// finish a region before any starts the next one: that is what a barrier
// means. The innermost loop is marked parallel (work-items of one region never
// depend on each other without a barrier) so the loop vectorizer widens it.
//
// Every region must end at exactly one place so that the code between the
// loop nests stays uniform. Where paths from a region lead to different
// barriers (a barrier in a loop or in an `if`), the branch that chooses is
// made a *decision*: each work-item stores its branch condition, and the code
// between the loop nests branches on work-item 0's value. The OpenCL rule
// that barriers are reached in uniform control flow makes that exact.
//
// Values live across a region boundary are kept per work-item in the context
// block (GroupAbi.h): SSA values and promotable variables are copied in at the
// top of a work-item iteration and out at its end; addressable private arrays
// live there for good. Values computed in the prologue (arguments, group
// geometry) are uniform and stay in registers.
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/MapVector.h>
#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/ADT/SetVector.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringSwitch.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Debug.h>
#include <llvm/Support/MathExtras.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopPeel.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <deque>
#include <set>

#include "Internal.h"

using namespace llvm;

namespace lockstep::compiler {
namespace {

constexpr unsigned kGlobalMemFence = 2, kImageMemFence = 4;

bool isSubGroupBarrier(StringRef name) {
  return name == "_Z17sub_group_barrierj" || name == "_Z17sub_group_barrierj12memory_scope";
}

bool isBarrierCall(const Instruction &I) {
  auto *call = dyn_cast<CallInst>(&I);
  if (!call || !call->getCalledFunction()) return false;
  StringRef name = call->getCalledFunction()->getName();
  return name == "_Z7barrierj" || name == "_Z18work_group_barrierj" ||
         name == "_Z18work_group_barrierj12memory_scope" || isSubGroupBarrier(name);
}

bool isLocalIdPlaceholder(const Instruction &I) {
  auto *call = dyn_cast<CallInst>(&I);
  return call && call->getCalledFunction() &&
         call->getCalledFunction()->getName() == kLocalIdPlaceholder;
}

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
  // is 0 while every flag is known to be 1 (see maskLoop).
  AllocaInst *dirty = nullptr;
};

class WorkGroupLoops {
 public:
  WorkGroupLoops(Function &F, bool cutLoops, bool foldTails = false, unsigned vectorBits = 512)
      : F(F),
        context(F.getContext()),
        layout(F.getParent()->getDataLayout()),
        cutLoops(cutLoops),
        foldTails(foldTails),
        vectorBits(vectorBits) {}
  void run();
  unsigned loopCutCount() const { return loopCuts.size() + maskedLoops; }
  unsigned maskedLoopCount() const { return maskedLoops; }

 private:
  // Structure.
  void prepareCollectives();
  void emitCombine(IRBuilder<> &builder, const Collective &collective, Value *state);
  void emitCombineSegment(IRBuilder<> &builder, const Collective &collective, AllocaInst *accumulator,
                          Value *first, Value *end, Value *state);
  void storeResult(IRBuilder<> &builder, const Collective &collective, Value *first, Value *end, Value *state,
                   Value *value);
  Value *groupWideAddress(AllocaInst *alloca) const;
  void emitBarrierFence(IRBuilder<> &builder, CallInst *call);
  void numberStates();
  void buildLaneMachine(BasicBlock *start, BasicBlock *finish);
  void emitDivergenceCheck(IRBuilder<> &builder, BasicBlock *decision, unsigned slot);
  void addLoopCuts();
  void maskLoop(Loop *loop);
  bool unrollFewRounds(Loop *loop, DominatorTree &dominators, LoopInfo &loops, ScalarEvolution &evolution,
                       AssumptionCache &assumptions);
  BasicBlock *peekNextRound(Loop *loop, ArrayRef<BasicBlock *> exiting, LoadInst *round, AllocaInst *active,
                            BasicBlock *latch, BasicBlock *&leaves);
  void cutUniformLoops(ArrayRef<Loop *> uniformLoops, DominatorTree &dominators, LoopInfo &loops,
                       ScalarEvolution &evolution);
  void splitAtBarriers();
  void unifyReturns();
  ExitSet exitsFrom(BasicBlock *start, SmallVectorImpl<BasicBlock *> *blocks = nullptr) const;
  SmallVector<BasicBlock *, 16> regionEntries() const;
  bool addOneDecision();
  // Values.
  void demoteCrossBlockValues();
  Value *rematerialize(Instruction *I, Instruction *before,
                       DenseMap<Instruction *, Value *> &done);
  bool isRematerializable(const Instruction *I, unsigned depth) const;
  void analyzeAllocas();
  void computeLiveness();
  void findUniformVariables();
  bool differs(const Value *value, const SmallPtrSetImpl<const Value *> &divergent) const;
  bool instructionDiffers(const Instruction &I, const SmallPtrSetImpl<const Value *> &divergent) const;
  void layOutContext();
  void scopeContextSlots();
  // Code.
  struct LoopNest {
    BasicBlock *body = nullptr, *latch = nullptr;
    Value *ids[3] = {};
    Value *workItem = nullptr;
    BranchInst *innerLatch = nullptr;
  };
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
  void markParallel(ArrayRef<BasicBlock *> body, BranchInst *latch);

  Function &F;
  LLVMContext &context;
  const DataLayout &layout;
  BasicBlock *prologue = nullptr;
  BasicBlock *bodyEntry = nullptr;
  BasicBlock *returnBlock = nullptr;
  // Cuts: barrier blocks map to their barrier call; blocks of collectives
  // (a barrier that also exchanges data) map to nullptr and are in
  // collectiveAt.
  MapVector<BasicBlock *, CallInst *> barrierBlocks;
  SmallVector<Collective, 4> collectives;
  // Variables kept in the context and accessed there in every region, even
  // though they could be promoted: a masked loop's `active` flag, which
  // changes only when a work-item leaves and is its work_group_any's input.
  SmallPtrSet<AllocaInst *, 4> keptResident;
  // Of those, the ones every work-item reads and writes in one place, work-
  // item 0's (a masked loop's `dirty`), and the count each one belongs to.
  SmallPtrSet<AllocaInst *, 4> groupWide;
  DenseMap<const CallInst *, AllocaInst *> countDirty;
  DenseMap<const BasicBlock *, unsigned> collectiveAt;
  unsigned subGroupSize = 16;
  // Sub-group mode: the kernel synchronizes only within sub-groups, so the
  // whole region machine runs once per sub-group, over that sub-group's
  // linear ids [subGroupFirst, subGroupEnd), and sub-groups may take
  // different paths.
  bool subGroupMode = false;
  Value *subGroupFirst = nullptr, *subGroupEnd = nullptr;
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
  // Cuts the compiler added at the top of uniform loops (addLoopCuts): they
  // order nothing, so they fence nothing.
  SmallPtrSet<const CallInst *, 4> loopCuts;
  bool cutLoops = true;
  // The work-item loops ask the vectorizer to fold their remainder into
  // masked vector iterations (llvm.loop.vectorize.predicate.enable).
  bool foldTails = false;
  // The width of the target's vector registers: a kernel with vectors this
  // wide keeps its vectors whole (they are not split for widening across
  // work-items), so its loops with vector values are not cut.
  unsigned vectorBits = 512;
  unsigned maskedLoops = 0;

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

// ---- structure -----------------------------------------------------------------

} // namespace

namespace {
bool parseArith(StringRef name, CollectiveOp &op, bool extended) {
  op.arith = StringSwitch<CollectiveOp::Arith>(name)
                 .Case("add", CollectiveOp::Add)
                 .Case("min", CollectiveOp::Min)
                 .Case("max", CollectiveOp::Max)
                 .Case("mul", CollectiveOp::Mul)
                 .Case("and", CollectiveOp::And)
                 .Case("or", CollectiveOp::Or)
                 .Case("xor", CollectiveOp::Xor)
                 .Case("logical_and", CollectiveOp::LogicalAnd)
                 .Case("logical_or", CollectiveOp::LogicalOr)
                 .Case("logical_xor", CollectiveOp::LogicalXor)
                 .Default(CollectiveOp::None);
  if (op.arith == CollectiveOp::None) return false;
  return extended || op.arith <= CollectiveOp::Max;
}
}  // namespace

std::optional<CollectiveOp> parseCollective(StringRef mangled) {
  if (!mangled.consume_front("_Z")) return std::nullopt;
  unsigned length = 0;
  if (mangled.consumeInteger(10, length) || mangled.size() <= length) return std::nullopt;
  StringRef name = mangled.take_front(length), parameters = mangled.drop_front(length);
  CollectiveOp op;
  op.isSigned = parameters.starts_with("i") || parameters.starts_with("l") ||
                parameters.starts_with("c") || parameters.starts_with("s") || parameters.starts_with("a");
  auto reduction = [&](StringRef rest, bool extended) -> bool {
    if (rest.consume_front("reduce_")) op.kind = CollectiveOp::Reduce;
    else if (rest.consume_front("scan_exclusive_")) op.kind = CollectiveOp::ScanExclusive;
    else if (rest.consume_front("scan_inclusive_")) op.kind = CollectiveOp::ScanInclusive;
    else return false;
    return parseArith(rest, op, extended);
  };
  bool workGroup = name.consume_front("work_group_");
  if (!workGroup && !name.consume_front("sub_group_")) return std::nullopt;
  op.subGroup = !workGroup;
  // The functions without an arithmetic operation; those of the
  // cl_khr_subgroup_* extensions (non_uniform, elect, ballot, shuffles,
  // rotates) may be called by part of a sub-group.
  std::optional<std::pair<CollectiveOp::Kind, bool>> plain =
      StringSwitch<std::optional<std::pair<CollectiveOp::Kind, bool>>>(name)
          .Case("all", {{CollectiveOp::All, false}})
          .Case("any", {{CollectiveOp::Any, false}})
          .Case("broadcast", {{CollectiveOp::Broadcast, false}})
          .Case("elect", {{CollectiveOp::Elect, true}})
          .Case("non_uniform_all", {{CollectiveOp::All, true}})
          .Case("non_uniform_any", {{CollectiveOp::Any, true}})
          .Case("non_uniform_all_equal", {{CollectiveOp::AllEqual, true}})
          .Case("non_uniform_broadcast", {{CollectiveOp::Broadcast, true}})
          .Case("broadcast_first", {{CollectiveOp::BroadcastFirst, true}})
          .Case("ballot", {{CollectiveOp::Ballot, true}})
          .Case("shuffle", {{CollectiveOp::Shuffle, true}})
          .Case("shuffle_xor", {{CollectiveOp::ShuffleXor, true}})
          .Case("shuffle_up", {{CollectiveOp::ShuffleUp, true}})
          .Case("shuffle_down", {{CollectiveOp::ShuffleDown, true}})
          .Case("rotate", {{CollectiveOp::Rotate, true}})
          .Case("clustered_rotate", {{CollectiveOp::ClusteredRotate, true}})
          .Default(std::nullopt);
  if (plain) {
    if (workGroup && plain->second) return std::nullopt;
    std::tie(op.kind, op.nonUniform) = *plain;
    return op;
  }
  if (reduction(name, false)) return op;
  if (workGroup) return std::nullopt;
  op.nonUniform = true;
  if (name.consume_front("clustered_reduce_")) {
    op.kind = CollectiveOp::ClusteredReduce;
    return parseArith(name, op, true) ? std::optional(op) : std::nullopt;
  }
  if (name.consume_front("non_uniform_") && reduction(name, true)) return op;
  return std::nullopt;
}

namespace {

// A collective is a barrier that exchanges data: each work-item's operand is
// stored before the cut, the code between the loop nests combines them
// (emitCombine) and each work-item's result is loaded after the cut.
void WorkGroupLoops::prepareCollectives() {
  SmallVector<std::pair<CallInst *, CollectiveOp>, 4> calls;
  for (BasicBlock &BB : F)
    if (&BB != prologue)
      for (Instruction &I : BB)
        if (auto *call = dyn_cast<CallInst>(&I); call && call->getCalledFunction())
          if (auto op = parseCollective(call->getCalledFunction()->getName()))
            calls.push_back({call, *op});
  IRBuilder<> allocas(prologue->getTerminator());
  for (auto [call, op] : calls) {
    Collective collective;
    collective.op = op;
    collective.type = call->getType();
    IRBuilder<> before(call);
    auto *load = call->arg_size() > 0 ? dyn_cast<LoadInst>(call->getArgOperand(0)) : nullptr;
    auto *variable = load ? dyn_cast<AllocaInst>(load->getPointerOperand()) : nullptr;
    if (variable && keptResident.count(variable) && load->getNextNode() == call) {
      collective.in = variable;  // its context slot holds the operand already
    } else if (call->arg_size() > 0) {
      collective.in = allocas.CreateAlloca(call->getArgOperand(0)->getType(), nullptr, "collective.in");
      before.CreateStore(call->getArgOperand(0), collective.in);
    }
    collective.out = allocas.CreateAlloca(call->getType(), nullptr, "collective.out");
    collective.dirty = countDirty.lookup(call);
    for (unsigned i = 1; i < call->arg_size(); ++i) {
      Value *id = call->getArgOperand(i);
      collective.ids.push_back(allocas.CreateAlloca(id->getType(), nullptr, "collective.id"));
      before.CreateStore(id, collective.ids.back());
    }
    BasicBlock *cut = call->getParent()->splitBasicBlock(call, "collective");
    BasicBlock *after = cut->splitBasicBlock(call->getNextNode(), "after.collective");
    IRBuilder<> at(&*after->getFirstInsertionPt());
    call->replaceAllUsesWith(at.CreateLoad(call->getType(), collective.out, "collective.result"));
    call->eraseFromParent();
    barrierBlocks[cut] = nullptr;
    collectiveAt[cut] = collectives.size();
    collectives.push_back(std::move(collective));
  }
}

void WorkGroupLoops::splitAtBarriers() {
  SmallVector<CallInst *, 8> calls;
  for (BasicBlock &BB : F)
    if (&BB != prologue)
      for (Instruction &I : BB)
        if (isBarrierCall(I)) calls.push_back(cast<CallInst>(&I));
  for (CallInst *call : calls) {
    if (barrierBlocks.count(call->getParent())) continue;
    BasicBlock *block = call->getParent()->splitBasicBlock(call, "barrier");
    block->splitBasicBlock(call->getNextNode(), "after.barrier");
    barrierBlocks[block] = call;
  }
}

void WorkGroupLoops::unifyReturns() {
  SmallVector<ReturnInst *, 4> returns;
  for (BasicBlock &BB : F)
    if (auto *ret = dyn_cast<ReturnInst>(BB.getTerminator())) returns.push_back(ret);
  if (returns.size() == 1) {
    returnBlock = returns.front()->getParent();
    return;
  }
  returnBlock = BasicBlock::Create(context, "return", &F);
  ReturnInst::Create(context, returnBlock);
  for (ReturnInst *ret : returns) {
    BranchInst::Create(returnBlock, ret->getParent());
    ret->eraseFromParent();
  }
}

// Which region ends can be reached from `start` without crossing a barrier;
// `blocks` collects the region's blocks in depth-first order.
ExitSet WorkGroupLoops::exitsFrom(BasicBlock *start, SmallVectorImpl<BasicBlock *> *blocks) const {
  ExitSet exits;
  SmallPtrSet<BasicBlock *, 32> visited;
  SmallVector<BasicBlock *, 32> stack{start};
  while (!stack.empty()) {
    BasicBlock *block = stack.pop_back_val();
    if (barrierBlocks.count(block)) {
      exits.insert({Exit::Barrier, block});
      continue;
    }
    if (!visited.insert(block).second) continue;
    if (blocks) blocks->push_back(block);
    if (block == returnBlock) {
      exits.insert({Exit::Return, block});
    } else if (decisions.contains(block)) {
      exits.insert({Exit::Decision, block});
    } else {
      for (BasicBlock *successor : reverse(successors(block))) stack.push_back(successor);
    }
  }
  return exits;
}

SmallVector<BasicBlock *, 16> WorkGroupLoops::regionEntries() const {
  SmallVector<BasicBlock *, 16> entries{bodyEntry};
  for (auto &[block, call] : barrierBlocks) entries.push_back(block->getSingleSuccessor());
  for (BasicBlock *decision : decisions)
    for (BasicBlock *successor : successors(decision)) entries.push_back(successor);
  return entries;
}

// Finds a region that can end in more than one place and makes the branch
// that chooses between them a decision. Prefers a branch whose successors
// lead to disjoint ends: that is the one whose condition the spec requires to
// be uniform.
bool WorkGroupLoops::addOneDecision() {
  for (BasicBlock *entry : regionEntries()) {
    SmallVector<BasicBlock *, 32> blocks;
    if (exitsFrom(entry, &blocks).size() <= 1) continue;
    BasicBlock *best = nullptr;
    for (BasicBlock *block : blocks) {
      if (block->getTerminator()->getNumSuccessors() < 2 || decisions.contains(block)) continue;
      if (!isa<BranchInst>(block->getTerminator()) && !isa<SwitchInst>(block->getTerminator()))
        continue;
      SmallVector<ExitSet, 4> sets;
      for (BasicBlock *successor : successors(block)) sets.push_back(exitsFrom(successor));
      bool differ = false, disjoint = true;
      for (size_t i = 0; i < sets.size(); ++i)
        for (size_t j = i + 1; j < sets.size(); ++j) {
          if (sets[i] != sets[j]) differ = true;
          for (const Exit &exit : sets[i])
            if (sets[j].count(exit)) disjoint = false;
        }
      if (!differ) continue;
      if (!best) best = block;
      if (disjoint) {
        best = block;
        break;
      }
    }
    if (!best) report_fatal_error("lockstep: region with several ends and no branch between them");
    decisions.insert(best);
    return true;
  }
  return false;
}

// ---- values ---------------------------------------------------------------------

// How deep an expression of the local ids and uniform values may be to be
// recomputed after a barrier rather than kept per work-item in the context.
// GPU code computes an index once (`base + lid` with `base = group * 2 *
// size`: six instructions from the prologue's values) and uses it on both
// sides of its barriers; kept, it is reloaded per work-item and the access
// through it is a gather or scatter, recomputed it is consecutive.
constexpr unsigned kRematerializeDepth = 8;

bool WorkGroupLoops::isRematerializable(const Instruction *I, unsigned depth) const {
  if (isLocalIdPlaceholder(*I)) return true;
  if (depth == 0 || isa<PHINode>(I) || I->mayReadOrWriteMemory() || I->mayHaveSideEffects())
    return false;
  if (!isa<CastInst>(I) && !isa<BinaryOperator>(I) && !isa<CmpInst>(I) &&
      !isa<GetElementPtrInst>(I) && !isa<SelectInst>(I))
    return false;
  if (!isSafeToSpeculativelyExecute(I)) return false;
  for (const Value *operand : I->operands()) {
    auto *def = dyn_cast<Instruction>(operand);
    if (!def || def->getParent() == prologue) continue;
    if (isa<AllocaInst>(def) || !isRematerializable(def, depth - 1)) return false;
  }
  return true;
}

Value *WorkGroupLoops::rematerialize(Instruction *I, Instruction *before,
                                     DenseMap<Instruction *, Value *> &done) {
  if (Value *copy = done.lookup(I)) return copy;
  Instruction *copy = I->clone();
  for (Use &operand : copy->operands()) {
    auto *def = dyn_cast<Instruction>(operand.get());
    if (def && def->getParent() != prologue) operand.set(rematerialize(def, before, done));
  }
  copy->insertBefore(before);
  done[I] = copy;
  return copy;
}

// After this, no SSA value is used outside the block defining it (except
// prologue values), so regions can be cloned freely: cheap work-item-id
// arithmetic is recomputed where it is used, everything else goes through a
// stack slot that the region analysis treats like any private variable.
void WorkGroupLoops::demoteCrossBlockValues() {
  SmallVector<PHINode *, 16> phis;
  for (BasicBlock &BB : F)
    if (&BB != prologue)
      for (PHINode &phi : BB.phis()) phis.push_back(&phi);
  auto allocaPoint = prologue->getFirstInsertionPt();
  for (PHINode *phi : phis) DemotePHIToStack(phi, allocaPoint);

  SmallVector<Instruction *, 32> crossing;
  for (BasicBlock &BB : F) {
    if (&BB == prologue) continue;
    for (Instruction &I : BB)
      for (User *user : I.users())
        if (cast<Instruction>(user)->getParent() != &BB) {
          crossing.push_back(&I);
          break;
        }
  }
  for (Instruction *I : crossing) {
    if (!isRematerializable(I, kRematerializeDepth)) {
      DemoteRegToStack(*I, false, allocaPoint);
      continue;
    }
    DenseMap<BasicBlock *, DenseMap<Instruction *, Value *>> perBlock;
    for (Use &use : make_early_inc_range(I->uses())) {
      auto *user = cast<Instruction>(use.getUser());
      if (user->getParent() == I->getParent()) continue;
      auto &done = perBlock[user->getParent()];
      Instruction *at = user->getParent()->getFirstNonPHI();
      use.set(rematerialize(I, at, done));
    }
  }
}

// Accesses of an alloca, directly or through pointers derived from it.
template <typename Visit>
void forEachAccess(AllocaInst *alloca, Visit visit) {
  SmallVector<Instruction *, 16> work{alloca};
  SmallPtrSet<Instruction *, 16> seen;
  while (!work.empty()) {
    Instruction *pointer = work.pop_back_val();
    for (User *user : pointer->users()) {
      auto *I = cast<Instruction>(user);
      if (!seen.insert(I).second) continue;
      visit(I, pointer);
      if (isa<GetElementPtrInst>(I) || isa<CastInst>(I) || isa<SelectInst>(I) || isa<PHINode>(I))
        work.push_back(I);
    }
  }
}

void WorkGroupLoops::analyzeAllocas() {
  for (Instruction &I : *prologue)
    if (auto *alloca = dyn_cast<AllocaInst>(&I)) {
      allocaIndex[alloca] = allocas.size();
      allocas.push_back(alloca);
    }
  unsigned n = allocas.size();
  promotable.resize(n);
  resident.resize(n);
  copied.resize(n);
  shared.resize(n);
  for (unsigned i = 0; i < n; ++i) {
    if (keptResident.count(allocas[i])) {
      resident.set(i);
      continue;
    }
    promotable[i] = isAllocaPromotable(allocas[i]);
    if (promotable[i]) continue;
    // An address that escapes into memory or an integer may be used after a
    // barrier without touching the alloca again: keep it per work-item.
    forEachAccess(allocas[i], [&](Instruction *I, Instruction *pointer) {
      if (auto *store = dyn_cast<StoreInst>(I); store && store->getValueOperand() == pointer)
        resident.set(i);
      if (isa<PtrToIntInst>(I)) resident.set(i);
    });
  }
}

void WorkGroupLoops::computeLiveness() {
  unsigned n = allocas.size();
  DenseMap<const BasicBlock *, BitVector> gen, kill;
  for (BasicBlock &BB : F) {
    gen[&BB].resize(n);
    kill[&BB].resize(n);
    liveIn[&BB].resize(n);
  }
  for (unsigned i = 0; i < n; ++i) {
    if (promotable[i]) {
      // Walk each block in order: a load before any store makes it live-in.
      DenseMap<const BasicBlock *, SmallVector<Instruction *, 4>> accesses;
      for (User *user : allocas[i]->users())
        if (isa<LoadInst>(user) || isa<StoreInst>(user))
          accesses[cast<Instruction>(user)->getParent()].push_back(cast<Instruction>(user));
      for (auto &[block, list] : accesses) {
        sort(list, [](Instruction *a, Instruction *b) { return a->comesBefore(b); });
        if (isa<LoadInst>(list.front()))
          gen[block].set(i);
        else
          kill[block].set(i);
      }
    } else {
      forEachAccess(allocas[i], [&](Instruction *I, Instruction *) {
        if (!isa<LifetimeIntrinsic>(I)) gen[I->getParent()].set(i);
      });
    }
  }
  bool changed = true;
  while (changed) {
    changed = false;
    for (BasicBlock &BB : reverse(F)) {
      BitVector out(n);
      for (BasicBlock *successor : successors(&BB)) out |= liveIn[successor];
      out.reset(kill[&BB]);
      out |= gen[&BB];
      if (out != liveIn[&BB]) {
        liveIn[&BB] = std::move(out);
        changed = true;
      }
    }
  }
  // Live where a later region starts → kept per work-item in the context.
  BitVector acrossRegions(n);
  for (BasicBlock *entry : regionEntries())
    if (entry != bodyEntry) acrossRegions |= liveIn[entry];
  for (unsigned i = 0; i < n; ++i) {
    if (promotable[i]) {
      copied[i] = acrossRegions[i];
    } else {
      resident[i] = resident[i] || acrossRegions[i];
      shared[i] = !resident[i];
    }
  }
}

// The blocks a branch on a differing condition controls: those reachable
// from it before its immediate post-dominator, where the work-items that
// went different ways meet again.
void addControlledBlocks(BasicBlock &BB, const PostDominatorTree &postDominators,
                         SmallPtrSetImpl<const BasicBlock *> &controlled) {
  const DomTreeNode *node = postDominators.getNode(&BB);
  BasicBlock *join = node && node->getIDom() ? node->getIDom()->getBlock() : nullptr;
  SmallVector<BasicBlock *, 16> work(successors(&BB).begin(), successors(&BB).end());
  SmallPtrSet<BasicBlock *, 32> seen;
  while (!work.empty()) {
    BasicBlock *block = work.pop_back_val();
    if (block == join || !seen.insert(block).second) continue;
    controlled.insert(block);
    for (BasicBlock *successor : successors(block)) work.push_back(successor);
  }
}

Value *branchCondition(const Instruction *terminator) {
  if (auto *branch = dyn_cast<BranchInst>(terminator); branch && branch->isConditional())
    return branch->getCondition();
  if (auto *sw = dyn_cast<SwitchInst>(terminator)) return sw->getCondition();
  return nullptr;
}

// Whether a value differs between work-items, given the instructions found
// to differ so far: private addresses always do, prologue values never.
bool WorkGroupLoops::differs(const Value *value, const SmallPtrSetImpl<const Value *> &divergent) const {
  if (isa<AllocaInst>(value)) return true;
  auto *I = dyn_cast<Instruction>(value);
  return I && I->getParent() != prologue && divergent.count(I);
}

// The rule both divergence analyses share for an instruction of the body
// (loads of private variables and phis are theirs): the local id differs;
// memory other than the kernel arguments and the group geometry may differ;
// the rest differs when an operand does.
bool WorkGroupLoops::instructionDiffers(const Instruction &I, const SmallPtrSetImpl<const Value *> &divergent) const {
  auto operandDiffers = [&](const Use &operand) { return differs(operand.get(), divergent); };
  if (isLocalIdPlaceholder(I)) return true;
  if (auto *load = dyn_cast<LoadInst>(&I)) {
    const Value *object = getUnderlyingObject(load->getPointerOperand());
    bool shared = object == F.getArg(kArgBlockParam) || object == F.getArg(kGroupInfoParam);
    return !shared || differs(load->getPointerOperand(), divergent);
  }
  if (auto *call = dyn_cast<CallBase>(&I)) return !call->doesNotAccessMemory() || any_of(call->args(), operandDiffers);
  return I.mayReadOrWriteMemory() || any_of(I.operands(), operandDiffers);
}

// Divergence analysis over the work-item code: a value differs between
// work-items if it derives from the local id, from memory other than the
// kernel arguments and the group geometry, from a private address, or from
// a variable that is assigned a differing value or assigned under a branch
// whose condition differs (the blocks between that branch and its immediate
// post-dominator; through a loop's back edge this also covers values that
// leave a loop whose trip count differs). What remains is uniform.
void WorkGroupLoops::findUniformVariables() {
  unsigned n = allocas.size();
  uniformVariable.resize(n);
  if (laneMode || n == 0) return;
  BitVector divergentVariable(n);
  for (const Collective &collective : collectives) {
    if (collective.in) divergentVariable.set(allocaIndex.lookup(collective.in));
    // A work-group reduction, any, all or broadcast gives every work-item
    // the same value (the combine stores it for each): a loop that goes round
    // while work_group_any holds (a masked loop) is left on a uniform
    // decision, and what it updates every round stays uniform.
    const CollectiveOp &op = collective.op;
    bool sameForAll = !op.subGroup && !op.nonUniform &&
                      (op.kind == CollectiveOp::All || op.kind == CollectiveOp::Any ||
                       op.kind == CollectiveOp::Broadcast || op.kind == CollectiveOp::Reduce);
    if (!sameForAll) divergentVariable.set(allocaIndex.lookup(collective.out));
    for (AllocaInst *id : collective.ids) divergentVariable.set(allocaIndex.lookup(id));
  }
  PostDominatorTree postDominators(F);
  SmallPtrSet<const Value *, 32> divergent;
  SmallPtrSet<const BasicBlock *, 32> divergentControl, expanded;
  auto variableOf = [&](const Value *pointer) -> int {
    auto *alloca = dyn_cast<AllocaInst>(pointer);
    if (!alloca || !allocaIndex.count(alloca) || !promotable[allocaIndex.lookup(alloca)]) return -1;
    return allocaIndex.lookup(alloca);
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (BasicBlock &BB : F) {
      if (&BB == prologue) continue;
      for (Instruction &I : BB) {
        if (auto *store = dyn_cast<StoreInst>(&I)) {
          int v = variableOf(store->getPointerOperand());
          if (v >= 0 && !divergentVariable[v] &&
              (differs(store->getValueOperand(), divergent) || divergentControl.count(&BB))) {
            divergentVariable.set(v);
            changed = true;
          }
          continue;
        }
        if (divergent.count(&I)) continue;
        bool d;
        if (int v = isa<LoadInst>(I) ? variableOf(cast<LoadInst>(I).getPointerOperand()) : -1; v >= 0)
          d = divergentVariable[v];
        else
          d = instructionDiffers(I, divergent);
        if (d) {
          divergent.insert(&I);
          changed = true;
        }
      }
      // A branch on a differing condition: the blocks it controls.
      Value *condition = branchCondition(BB.getTerminator());
      if (!condition || !differs(condition, divergent) || !expanded.insert(&BB).second) continue;
      changed = true;
      addControlledBlocks(BB, postDominators, divergentControl);
    }
  }
  for (unsigned i = 0; i < n; ++i) uniformVariable[i] = promotable[i] && copied[i] && !divergentVariable[i];
}

// A call a loop with a cut may make: an intrinsic, or a function of the
// program or the builtins that calls only such (within `depth` levels), or
// a bounds check's report. Not printf's formatter, nor any function outside, nor a barrier or collective
// (declarations all). Clang marks every OpenCL call convergent, since any
// function might hold a barrier; looking inside answers that.
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

// A loop header's exit test against a constant, read as "the loop goes on
// while `counter` `stay` `bound`" (the predicate inverted when the test's
// true side leaves, swapped when the constant is on the left).
struct BoundedExit {
  Value *counter;
  ConstantInt *bound;
  CmpInst::Predicate stay;
};

std::optional<BoundedExit> boundedExit(Loop *loop) {
  auto *branch = dyn_cast<BranchInst>(loop->getHeader()->getTerminator());
  auto *test = branch && branch->isConditional() ? dyn_cast<ICmpInst>(branch->getCondition()) : nullptr;
  if (!test) return std::nullopt;
  CmpInst::Predicate stay =
      loop->contains(branch->getSuccessor(0)) ? test->getPredicate() : test->getInversePredicate();
  if (auto *bound = dyn_cast<ConstantInt>(test->getOperand(1))) return BoundedExit{test->getOperand(0), bound, stay};
  if (auto *bound = dyn_cast<ConstantInt>(test->getOperand(0)))
    return BoundedExit{test->getOperand(1), bound, CmpInst::getSwappedPredicate(stay)};
  return std::nullopt;
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
        return inside && loop->contains(inside) ? std::nullopt : std::optional<int64_t>(0);
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

bool favoursWorkItemOrder(Loop *loop, ScalarEvolution &evolution,
                          const SmallPtrSetImpl<const Value *> &divergent) {
  const DataLayout &layout = loop->getHeader()->getModule()->getDataLayout();
  StepOf along{loop, divergent}, across{nullptr, divergent};
  unsigned alongLoop = 0, acrossItems = 0;
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
        ++acrossItems;
      else if (loopStep == size && itemStep != 0)
        ++alongLoop;
    }
  return alongLoop > 0 && acrossItems == 0;
}

// What a loop's or a kernel's code comes to once -O3 has inlined the calls
// in it (the builtins are calls still, and a kernel's helpers), a call to a
// function with a body counted as that body, a few levels deep: about how
// many instructions (phis, casts and address arithmetic, mostly free, left
// out, as in the unroller's cost), how many lanes of arithmetic, whether it
// touches memory, whether it has vector values, and whether any of them
// fills a register.
struct CodeSummary {
  uint64_t size = 0;
  uint64_t arithmeticLanes = 0;
  bool memory = false;
  bool vectors = false;
  bool fullWidthVectors = false;
};

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

template <typename Blocks>
CodeSummary summarize(const Blocks &blocks, unsigned vectorBits) {
  CodeSummary code;
  for (const BasicBlock *block : blocks) summarize(*block, 3, vectorBits, code);
  return code;
}

// Instructions of a loop, all of its rounds unrolled, up to which -O3's
// full unroller can be trusted to unroll it (its threshold at -O3 is 300 of
// its own cost units, which count about as CodeSummary does), and the same
// for a loop whose unrolling the source asks for (`#pragma unroll`: LLVM's
// PragmaUnrollThreshold).
constexpr uint64_t kFullUnrollSize = 300;
constexpr uint64_t kPragmaUnrollSize = 16 * 1024;
// A loop of few rounds that stays a loop is cut only if each round does at
// least this many lanes of arithmetic per lane of the values it carries to
// the next (which a cut keeps in the context between rounds).
constexpr uint64_t kCutArithmeticPerCarriedLane = 4;

// Whether a uniform loop of `trips` rounds (a small constant) stays whole
// inside its work-item loop rather than being cut. One that -O3 will unroll
// whole (few small rounds, or a `#pragma unroll` with no count or one that
// covers every round, under the pragma's limit) becomes straight-line code,
// which widens without a cut (and a cut would keep it from unrolling). One
// that stays a loop keeps its work-item loop from widening, so it is cut if
// it is arithmetic on values it carries in registers: clpeak's float8
// kernel, 16 rounds of 16 mads on 8 lanes, ran at a tenth of its float4
// kernel's rate whole. One that works on memory is left whole: its values
// stay in registers across its rounds, where a cut would store and load them
// between rounds (CLBlast's Xgemm, whose inner loop of 16 rounds reads
// __local tiles into a private accumulator, ran at 0.55-0.7x cut).
bool keepsWhole(Loop *loop, unsigned trips, unsigned vectorBits) {
  CodeSummary code = summarize(loop->blocks(), vectorBits);
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

// Loops of at most this many rounds per work-item are unrolled rather than
// masked (unrollFewRounds), up to this many instructions in all.
constexpr uint64_t kUnrollMaxRounds = 4;
constexpr uint64_t kUnrollMaxInstructions = 400;

// Work-item loops inside kernel loops. A loop with no barrier runs whole
// within each work-item's iteration of its region's work-item loop, and the
// vectorizer, which widens only innermost loops, leaves such a region
// scalar. When every work-item runs the loop the same number of times
// (reached in uniform control flow, exits on uniform conditions) a cut at the
// top of its body is a barrier the kernel could have written itself: the
// work-item loop moves inside, one region per iteration of the kernel loop
// (which widens), the exit test becomes a decision, and the counter, being
// uniform, is kept once. A loop reached alike by all work-items whose trip
// count differs between them is masked first (maskLoop) and then has a cut of
// its own. Only innermost loops, not in kernels with sub-group cuts (which run
// lane by lane or sub-group by sub-group), not when barriers are checked
// (those cuts are the user's), and not loops the optimizer will unroll anyway
// (a small constant trip count) or that call printf (whose order within a
// work-item the cut would interleave) or anything outside the program and
// the builtins.
void WorkGroupLoops::addLoopCuts() {
  if (checking || !cutLoops) return;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *call = dyn_cast<CallInst>(&I); call && call->getCalledFunction()) {
        if (isBarrierCall(I) && isSubGroupBarrier(call->getCalledFunction()->getName())) return;
        std::optional<CollectiveOp> op = parseCollective(call->getCalledFunction()->getName());
        if (op && (op->subGroup || op->nonUniform)) return;
      }

  DominatorTree dominators(F);
  LoopInfo loops(dominators);
  if (loops.empty()) return;
  bool keepsVectorsWhole = summarize(make_pointer_range(F), vectorBits).fullWidthVectors;

  // Which values and blocks differ between work-items, on the SSA form: as
  // in findUniformVariables, with a phi differing when it merges paths of a
  // differing branch.
  PostDominatorTree postDominators(F);
  SmallPtrSet<const Value *, 32> divergent;
  SmallPtrSet<const BasicBlock *, 32> controlled, branching;
  bool changed = true;
  while (changed) {
    changed = false;
    for (BasicBlock &BB : F) {
      if (&BB == prologue) continue;
      for (Instruction &I : BB) {
        if (I.getType()->isVoidTy() || divergent.count(&I)) continue;
        bool d;
        if (auto *phi = dyn_cast<PHINode>(&I))
          d = any_of(phi->incoming_values(), [&](const Use &v) { return differs(v.get(), divergent); }) ||
              any_of(phi->blocks(), [&](const BasicBlock *from) {
                return controlled.count(from) || branching.count(from);
              });
        else
          d = instructionDiffers(I, divergent);
        if (d) {
          divergent.insert(&I);
          changed = true;
        }
      }
      Value *condition = branchCondition(BB.getTerminator());
      if (!condition || !differs(condition, divergent) || !branching.insert(&BB).second) continue;
      changed = true;
      addControlledBlocks(BB, postDominators, controlled);
    }
  }

  // Loops that no differing branch outside them controls.
  SmallVector<std::pair<BasicBlock *, SmallPtrSet<const BasicBlock *, 32>>, 8> branchReach;
  for (BasicBlock &BB : F) {
    if (!branching.count(&BB)) continue;
    branchReach.emplace_back();
    branchReach.back().first = &BB;
    addControlledBlocks(BB, postDominators, branchReach.back().second);
  }
  auto reachedAlike = [&](Loop *loop) {
    return none_of(branchReach, [&](const auto &entry) {
      return !loop->contains(entry.first) && entry.second.count(loop->getHeader());
    });
  };
  SmallVector<Loop *, 4> uniformLoops, differingLoops;
  // Scalar evolution of the kernel as it is, for choosing the loops and
  // then for cutting them (the cuts change no trip count).
  TargetLibraryInfoImpl cutLibraryInfo(Triple(F.getParent()->getTargetTriple()));
  TargetLibraryInfo cutLibrary(cutLibraryInfo);
  AssumptionCache cutAssumptions(F);
  ScalarEvolution cutEvolution(F, cutLibrary, cutAssumptions, dominators, loops);
  for (Loop *loop : loops.getLoopsInPreorder()) {
    if (!loop->isInnermost() || !reachedAlike(loop)) continue;
    if (favoursWorkItemOrder(loop, cutEvolution, divergent)) continue;
    // A kernel with vectors as wide as a register keeps all its vectors
    // whole (ScalarizeWorkGroupCodePass leaves it alone), and the vectorizer
    // widens no vector instruction, so a loop with vector values would not
    // widen across work-items cut either: the cut would only add context
    // slots, where a work-item's vector value is a gather (clpeak's double16
    // kernel ran at a quarter of its rate with its loop cut).
    if (keepsVectorsWhole && summarize(loop->blocks(), vectorBits).vectors) continue;
    // Calls and exits a cut can handle. Atomics and memory-writing calls
    // may be masked too: each work-item still runs them as often and in its
    // own order; only how work-items interleave changes, which OpenCL leaves
    // open (and a grid-strided loop of local atomics, a histogram, then
    // walks its data in order instead of one work-item's stride at a time).
    bool eligible = true;
    for (BasicBlock *block : loop->blocks())
      for (Instruction &I : *block)
        if (auto *call = dyn_cast<CallBase>(&I); call && !isLocalIdPlaceholder(I) && !mayCallInLoopCut(*call, 3))
          eligible = false;
    SmallVector<BasicBlock *, 4> exiting;
    loop->getExitingBlocks(exiting);
    bool uniformExits = !controlled.count(loop->getHeader());
    for (BasicBlock *block : exiting) {
      if (!branchCondition(block->getTerminator())) eligible = false;
      if (branching.count(block) || controlled.count(block)) uniformExits = false;
    }
    if (!eligible) continue;
    if (uniformExits) uniformLoops.push_back(loop);
    else if (loop->getLoopPreheader() && loop->getUniqueExitBlock()) differingLoops.push_back(loop);
  }
  if (!uniformLoops.empty()) cutUniformLoops(uniformLoops, dominators, loops, cutEvolution);
  if (differingLoops.empty()) return;
  // Loops of a few rounds are unrolled, the rest masked. Unrolling keeps the
  // dominator tree and loop info up to date; masking does not, so it comes
  // last, and the unrolled loops' dead remains go after it.
  TargetLibraryInfoImpl libraryInfo(Triple(F.getParent()->getTargetTriple()));
  TargetLibraryInfo library(libraryInfo);
  AssumptionCache assumptions(F);
  ScalarEvolution evolution(F, library, assumptions, dominators, loops);
  SmallVector<Loop *, 4> masked;
  bool unrolled = false;
  for (Loop *loop : differingLoops) {
    if (unrollFewRounds(loop, dominators, loops, evolution, assumptions))
      unrolled = true;
    else
      masked.push_back(loop);
  }
  for (Loop *loop : masked) maskLoop(loop);
  if (unrolled) removeUnreachableBlocks(F);
}

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
bool WorkGroupLoops::unrollFewRounds(Loop *loop, DominatorTree &dominators, LoopInfo &loops, ScalarEvolution &evolution,
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
  return true;
}

void WorkGroupLoops::cutUniformLoops(ArrayRef<Loop *> uniformLoops, DominatorTree &dominators, LoopInfo &loops,
                                     ScalarEvolution &evolution) {
  Module &M = *F.getParent();
  FunctionCallee barrier = M.getOrInsertFunction("_Z7barrierj", Type::getVoidTy(context), Type::getInt32Ty(context));
  for (Loop *loop : uniformLoops) {
    // Loops of a known count of rounds: see keepsWhole. (The count is of
    // the header's runs, one more than the body's.)
    unsigned trips = evolution.getSmallConstantTripCount(loop);
    if (trips != 0 && keepsWhole(loop, trips, vectorBits)) continue;
    // The top of the body: after the exit test when the header makes it.
    BasicBlock *header = loop->getHeader(), *top = header;
    if (loop->isLoopExiting(header))
      for (BasicBlock *successor : successors(header))
        if (successor != header && loop->contains(successor)) {
          top = successor->getSinglePredecessor() ? successor : SplitEdge(header, successor, &dominators, &loops);
          break;
        }
    loopCuts.insert(CallInst::Create(barrier, {ConstantInt::get(Type::getInt32Ty(context), 0)}, "",
                                     top->getFirstInsertionPt()));
  }
}

// Whether `loop` (masked, its inductions rewritten as `start + round *
// step`) exits when a counter with a constant step passes a constant bound
// within kPeekMaxRounds steps from zero: `for (i = lid; i < 324; i += 256)`,
// a tile's halo loaded by a group of 256. Testing the next round early costs
// every work-item a second test in every round; it pays only where the
// round it saves is one of a few (not in a grid-stride loop, whose step is
// the grid's size, nor in mandelbrot's, bounded by an argument).
constexpr uint64_t kPeekMaxRounds = 8;

bool fewRounds(Loop *loop, const DenseMap<const Value *, const Value *> &stepOf) {
  std::optional<BoundedExit> test = boundedExit(loop);
  if (!test) return false;
  Value *counter = test->counter;
  while (isa<CastInst>(counter)) counter = cast<CastInst>(counter)->getOperand(0);
  auto *step = dyn_cast_or_null<ConstantInt>(stepOf.lookup(counter));
  if (!step || step->isNegative() || step->isZero()) return false;
  int64_t limit = ICmpInst::isSigned(test->stay) ? test->bound->getSExtValue() : int64_t(test->bound->getZExtValue());
  return limit > 0 && uint64_t(limit) <= kPeekMaxRounds * step->getZExtValue();
}

// For maskLoop: a block that runs the header of `loop` once more, for the
// next round (`round`, the header's load of the round counter, plus one),
// and clears the work-item's `active` flag if the header would leave; then
// goes to `latch`. Only where the header is the loop's one exiting block and
// computes its exit test without touching memory other than the private
// variables in the prologue's allocas (so running it early is running it
// again). Null where it does not apply; `leaves` is the block where the
// flag is cleared.
BasicBlock *WorkGroupLoops::peekNextRound(Loop *loop, ArrayRef<BasicBlock *> exiting, LoadInst *round,
                                          AllocaInst *active, BasicBlock *latch, BasicBlock *&leaves) {
  BasicBlock *header = loop->getHeader();
  if (exiting.size() != 1 || exiting.front() != header || loop->isLoopLatch(header)) return nullptr;
  auto *branch = dyn_cast<BranchInst>(header->getTerminator());
  if (!branch || !branch->isConditional()) return nullptr;
  if (auto *test = dyn_cast<Instruction>(branch->getCondition());
      test && test->getParent() != header && loop->contains(test))
    return nullptr;
  for (Instruction &I : *header) {
    if (&I == branch) continue;
    if (isa<PHINode>(&I) || I.mayWriteToMemory() || I.mayHaveSideEffects() || isa<CallBase>(&I)) return nullptr;
    if (auto *load = dyn_cast<LoadInst>(&I)) {
      auto *alloca = dyn_cast<AllocaInst>(load->getPointerOperand());
      if (!load->isSimple() || !alloca || alloca->getParent() != prologue) return nullptr;
    } else if (I.mayReadFromMemory()) {
      return nullptr;
    }
  }
  BasicBlock *peek = BasicBlock::Create(context, "masked.peek", &F, latch);
  IRBuilder<> builder(peek);
  ValueToValueMapTy map;
  for (Instruction &I : *header) {
    if (&I == branch) break;
    Instruction *copy = I.clone();
    copy->setName(I.getName() + ".next");
    builder.Insert(copy);
    RemapInstruction(copy, map, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
    map[&I] = copy;
    if (&I == round) {
      Value *next = builder.CreateAdd(copy, ConstantInt::get(copy->getType(), 1), "round.next");
      map[&I] = next;
    }
  }
  Value *condition = map.lookup(branch->getCondition());
  if (!condition) condition = branch->getCondition();  // computed before the loop
  bool staysOnTrue = loop->contains(branch->getSuccessor(0));
  Value *stays = staysOnTrue ? condition : builder.CreateNot(condition);
  leaves = BasicBlock::Create(context, "masked.peek.leaves", &F, latch);
  builder.CreateCondBr(stays, latch, leaves);
  builder.SetInsertPoint(leaves);
  builder.CreateStore(ConstantInt::get(Type::getInt32Ty(context), 0), active);
  builder.CreateBr(latch);
  return peek;
}

// A loop whose trip count differs between work-items, made one that every
// work-item runs alike: each keeps an `active` flag; the loop goes round while
// any work-item of the group is active (a work_group_reduce_add of the flags,
// a collective, so a cut), and its body runs for the active ones only (the
// vectorizer masks it), or for all without reading the flags while the count
// says all of them are.
// Values that cross the loop's edges go through memory first (promotable
// private variables, per work-item in the context), so that those that were
// left behind by a work-item keep their last value. Only loops with one exit
// block and a preheader.
void WorkGroupLoops::maskLoop(Loop *loop) {
  BasicBlock *header = loop->getHeader(), *preheader = loop->getLoopPreheader();
  BasicBlock *exit = loop->getUniqueExitBlock();
  Type *i32 = Type::getInt32Ty(context);
  Type *i64 = Type::getInt64Ty(context);
  IRBuilder<> entry(prologue->getTerminator());

  // Induction variables, i = start + round * step. The loop goes round in
  // lockstep, and a work-item is active from the first round until it
  // leaves, so while it runs the body its own trip count is the round's,
  // which every work-item shares (a uniform variable, kept once). Without
  // this, `for (i = gid; i < n; i += size)` kept i per work-item in memory
  // and every access through it became a gather.
  AllocaInst *round = nullptr;
  LoadInst *roundAtHeader = nullptr;
  DenseMap<const Value *, const Value *> stepOf;  // induction at the round → its step
  if (BasicBlock *latch = loop->getLoopLatch()) {
    SmallVector<std::pair<PHINode *, Value *>, 4> inductions;  // the counter, its step
    for (PHINode &phi : header->phis()) {
      if (!phi.getType()->isIntegerTy() || phi.getNumIncomingValues() != 2) continue;
      auto *next = dyn_cast<BinaryOperator>(phi.getIncomingValueForBlock(latch));
      if (!next || next->getOpcode() != Instruction::Add || !loop->contains(next)) continue;
      Value *step = next->getOperand(0) == &phi ? next->getOperand(1)
                    : next->getOperand(1) == &phi ? next->getOperand(0)
                                                  : nullptr;
      if (step && loop->isLoopInvariant(step)) inductions.push_back({&phi, step});
    }
    if (!inductions.empty()) {
      round = entry.CreateAlloca(i64, nullptr, "loop.round");
      new StoreInst(ConstantInt::get(i64, 0), round, preheader->getTerminator());
      IRBuilder<> at(&*header->getFirstInsertionPt());
      Value *count = roundAtHeader = at.CreateLoad(i64, round, "round");
      for (auto [phi, step] : inductions) {
        Value *trips = at.CreateZExtOrTrunc(count, phi->getType());
        Value *value = at.CreateAdd(phi->getIncomingValueForBlock(preheader), at.CreateMul(trips, step),
                                    phi->getName() + ".at.round");
        stepOf[value] = step;
        phi->replaceAllUsesWith(value);
        phi->eraseFromParent();
      }
    }
  }

  SmallVector<PHINode *, 8> phis;
  for (PHINode &phi : exit->phis()) phis.push_back(&phi);
  for (BasicBlock *block : loop->blocks())
    for (PHINode &phi : block->phis()) phis.push_back(&phi);
  for (PHINode *phi : phis) DemotePHIToStack(phi, prologue->getFirstInsertionPt());
  SmallVector<Instruction *, 16> escaping;
  for (BasicBlock *block : loop->blocks())
    for (Instruction &I : *block)
      if (any_of(I.users(), [&](User *user) { return !loop->contains(cast<Instruction>(user)->getParent()); }))
        escaping.push_back(&I);
  for (Instruction *I : escaping) DemoteRegToStack(*I, false, prologue->getFirstInsertionPt());

  // In the context, read at the top of each round and written only when the
  // work-item leaves: copied in and out like other variables, it cost a
  // store per work-item and round, and another as the collective's input.
  AllocaInst *active = entry.CreateAlloca(i32, nullptr, "loop.active");
  keptResident.insert(active);
  // Whether every work-item of the group was active in the round before (a
  // uniform variable): while they all are, which is most rounds of a
  // grid-stride loop, the optimizer runs a version of the round's work-item
  // loop that does not read the flags.
  AllocaInst *allActive = entry.CreateAlloca(i32, nullptr, "loop.all.active");
  // Whether a flag may be 0: set at the latch by a work-item that left this
  // round, cleared by a count that finds every work-item active. While it
  // stays clear the count is the group's size without reading the flags: a
  // grid-stride loop's rounds are mostly such, and summing 256 flags cost a
  // histogram a tenth of its time. Every work-item updates it at the latch,
  // unconditionally, so that -O3 keeps it in a register across the work-item
  // loop (an `or` reduction, which vectorizes); a store only where one
  // leaves, under a mask, kept mandelbrot's loop from vectorizing.
  AllocaInst *dirty = entry.CreateAlloca(i32, nullptr, "loop.dirty");
  keptResident.insert(dirty);
  groupWide.insert(dirty);
  BasicBlock *top = BasicBlock::Create(context, "masked.loop", &F, header);
  BasicBlock *latch = BasicBlock::Create(context, "masked.latch", &F, header);
  BasicBlock *leave = BasicBlock::Create(context, "masked.exit", &F, header);
  SmallVector<BasicBlock *, 4> latches, exiting;
  loop->getLoopLatches(latches);
  loop->getExitingBlocks(exiting);
  // A work-item that ran the body tests the header's exit for the next round
  // before it reaches the latch, so the count below is of the work-items
  // that will run the body again: without that, the round after the last
  // body of every work-item ran only to find them all leaving (stencil's
  // halo loop, two trips at most, went round three times).
  BasicBlock *peekLeaves = nullptr;
  BasicBlock *peek =
      fewRounds(loop, stepOf) ? peekNextRound(loop, exiting, roundAtHeader, active, latch, peekLeaves) : nullptr;
  for (BasicBlock *block : latches) block->getTerminator()->replaceSuccessorWith(header, peek ? peek : latch);
  for (BasicBlock *block : exiting) block->getTerminator()->replaceSuccessorWith(exit, leave);
  new StoreInst(ConstantInt::get(i32, 1), active, preheader->getTerminator());
  new StoreInst(ConstantInt::get(i32, 1), allActive, preheader->getTerminator());
  preheader->getTerminator()->replaceSuccessorWith(header, top);

  BasicBlock *own = BasicBlock::Create(context, "masked.own", &F, header);
  IRBuilder<> builder(top);
  builder.CreateCondBr(builder.CreateICmpNE(builder.CreateLoad(i32, allActive), ConstantInt::get(i32, 0)), header, own);
  builder.SetInsertPoint(own);
  Value *isActive = builder.CreateICmpNE(builder.CreateLoad(i32, active), ConstantInt::get(i32, 0));
  builder.CreateCondBr(isActive, header, latch);
  builder.SetInsertPoint(leave);
  builder.CreateStore(ConstantInt::get(i32, 0), active);
  builder.CreateBr(latch);
  builder.SetInsertPoint(latch);
  // 1 where the work-item left this round (its flag went to 0), else 0.
  PHINode *left = builder.CreatePHI(i32, 4, "left");
  for (BasicBlock *from : predecessors(latch))
    left->addIncoming(ConstantInt::get(i32, from == leave || from == peekLeaves), from);
  builder.CreateStore(builder.CreateOr(builder.CreateLoad(i32, dirty), left), dirty);
  if (round) builder.CreateStore(builder.CreateAdd(builder.CreateLoad(i64, round), ConstantInt::get(i64, 1)), round);
  // How many work-items are still active: any of them, all of them.
  FunctionCallee sum = F.getParent()->getOrInsertFunction("_Z21work_group_reduce_addi", i32, i32);
  if (auto *declared = dyn_cast<Function>(sum.getCallee())) declared->addFnAttr(Attribute::Convergent);
  CallInst *count = builder.CreateCall(sum, {builder.CreateLoad(i32, active)});
  countDirty[count] = dirty;
  Value *everyOne = builder.CreateICmpEQ(builder.CreateZExt(count, i64), workItemCount);
  builder.CreateStore(builder.CreateZExt(everyOne, i32), allActive);
  builder.CreateCondBr(builder.CreateICmpNE(count, ConstantInt::get(i32, 0)), top, exit);
  ++maskedLoops;
}

void WorkGroupLoops::layOutContext() {
  auto addSlot = [&](Type *type, uint64_t size, Align align) {
    uint64_t stride = alignTo(size, align);
    contextBytes = alignTo(contextBytes, align);
    slots.push_back({type, stride, contextBytes});
    contextBytes += stride;
    return slots.size() - 1;
  };
  for (unsigned i = 0; i < allocas.size(); ++i) {
    if (!copied[i] && !resident[i]) continue;
    AllocaInst *alloca = allocas[i];
    uint64_t size = alloca->getAllocationSize(layout)->getFixedValue();
    Type *type = alloca->isArrayAllocation() ? Type::getInt8Ty(context) : alloca->getAllocatedType();
    if (splitsSlot(i)) {
      auto *vector = cast<FixedVectorType>(type);
      Type *element = vector->getElementType();
      allocaSlot[alloca] = addSlot(type, layout.getTypeAllocSize(element) * vector->getNumElements(),
                                   layout.getABITypeAlign(element));
      slots.back().split = true;
      continue;
    }
    allocaSlot[alloca] = addSlot(type, std::max<uint64_t>(size, 1), alloca->getAlign());
  }
  for (BasicBlock *decision : decisions) {
    Type *type = Type::getInt32Ty(context);
    if (auto *sw = dyn_cast<SwitchInst>(decision->getTerminator())) type = sw->getCondition()->getType();
    uint64_t size = layout.getTypeAllocSize(type);
    decisionSlot[decision] = addSlot(type, size, layout.getABITypeAlign(type));
  }
  if (laneMode) laneSlot = addSlot(Type::getInt32Ty(context), 4, Align(4));
  contextBytes = alignTo(contextBytes, 16);
  IRBuilder<> builder(prologue->getTerminator());
  // The runtime aligns the context block to 64 bytes; a variable that needs
  // more (a ulong16 in a private struct) gets it by aligning the base here,
  // with room for that paid for by every work-item's share.
  uint64_t maxAlign = 1;
  for (unsigned i = 0; i < allocas.size(); ++i)
    if (copied[i] || resident[i]) maxAlign = std::max<uint64_t>(maxAlign, allocas[i]->getAlign().value());
  Value *base = F.getArg(kContextParam);
  if (maxAlign > 64) {
    Value *address = builder.CreatePtrToInt(base, builder.getInt64Ty());
    Value *padding = builder.CreateAnd(builder.CreateNeg(address), builder.getInt64(maxAlign - 1));
    base = builder.CreateGEP(builder.getInt8Ty(), base, padding, "ctx.aligned");
    contextBytes += maxAlign;
  }
  contextBase = base;
  if (laneMode) {
    builder.CreateStore(workItemCount, base);
    contextBytes += kLaneHeaderBytes;
    return;
  }
  for (Slot &slot : slots)
    slot.base = builder.CreateGEP(builder.getInt8Ty(), base,
                                  builder.CreateMul(workItemCount, builder.getInt64(slot.offset)), "ctx.slot");
  // A group-wide flag starts set: the first count reads the flags.
  for (AllocaInst *alloca : groupWide)
    if (Value *wide = groupWideAddress(alloca)) builder.CreateStore(builder.getInt32(1), wide);
}

// Where a group-wide variable lives: work-item 0's place in its slot. Null
// in lane or sub-group mode, where each work-item keeps its own and the
// combine does not read it.
Value *WorkGroupLoops::groupWideAddress(AllocaInst *alloca) const {
  if (laneMode || subGroupMode || !groupWide.count(alloca)) return nullptr;
  return slots[allocaSlot.lookup(alloca)].base;
}

// The slots are disjoint, but their offsets scale with the local size, which
// alias analysis cannot see through. Each slot gets an alias scope, and every
// load and store addressed from a slot's base (through GEPs only) is marked
// as apart from the other slots. A uniform variable that a loop of regions
// reads at the top and writes at the bottom (a masked loop's round count)
// then stays in a register across the loop, where scalar evolution sees it.
void WorkGroupLoops::scopeContextSlots() {
  constexpr size_t kMaxScopedSlots = 64;  // the lists grow as the square
  if (laneMode || slots.size() < 2 || slots.size() > kMaxScopedSlots) return;
  MDBuilder md(context);
  MDNode *domain = md.createAnonymousAliasScopeDomain("lockstep.context");
  SmallVector<Metadata *, 16> scopes;
  for (size_t s = 0; s < slots.size(); ++s) scopes.push_back(md.createAnonymousAliasScope(domain));
  for (size_t s = 0; s < slots.size(); ++s) {
    SmallVector<Metadata *, 16> others;
    for (size_t t = 0; t < slots.size(); ++t)
      if (t != s) others.push_back(scopes[t]);
    MDNode *scope = MDNode::get(context, scopes[s]);
    MDNode *apart = MDNode::get(context, others);
    auto mark = [&](Instruction *access) {
      access->setMetadata(LLVMContext::MD_alias_scope,
                          MDNode::concatenate(access->getMetadata(LLVMContext::MD_alias_scope), scope));
      access->setMetadata(LLVMContext::MD_noalias,
                          MDNode::concatenate(access->getMetadata(LLVMContext::MD_noalias), apart));
    };
    SmallVector<Value *, 16> work{slots[s].base};
    SmallPtrSet<Value *, 16> seen;
    while (!work.empty()) {
      Value *address = work.pop_back_val();
      for (User *user : address->users()) {
        if (isa<GetElementPtrInst>(user)) {
          if (seen.insert(user).second) work.push_back(user);
        } else if (auto *load = dyn_cast<LoadInst>(user)) {
          mark(load);
        } else if (auto *store = dyn_cast<StoreInst>(user); store && store->getPointerOperand() == address) {
          mark(store);
        }
      }
    }
  }
}

// ---- code -------------------------------------------------------------------------

Value *WorkGroupLoops::contextAddress(IRBuilder<> &builder, unsigned slotIndex, Value *workItem) {
  const Slot &slot = slots[slotIndex];
  Value *base = slot.base;
  if (laneMode) {
    Value *count = laneCount ? laneCount : builder.CreateLoad(builder.getInt64Ty(), contextBase, "lanes.count");
    base = builder.CreateGEP(builder.getInt8Ty(), contextBase,
                             builder.CreateAdd(builder.CreateMul(count, builder.getInt64(slot.offset)),
                                               builder.getInt64(kLaneHeaderBytes)),
                             "ctx.slot");
  }
  if (slot.type->isIntegerTy(8) && slot.stride != 1)
    return builder.CreateGEP(builder.getInt8Ty(), base,
                             builder.CreateMul(workItem, builder.getInt64(slot.stride)));
  return builder.CreateGEP(slot.type, base, workItem);
}

// Whether variable `i` gets a split slot: a vector (float4, int3) copied
// between regions, one value per work-item, that only the copies in and out
// of a region touch (not a collective's operand, not kept once per group,
// not addressed in lane mode, where the work-item count is read per
// access).
bool WorkGroupLoops::splitsSlot(unsigned i) const {
  const AllocaInst *alloca = allocas[i];
  auto *vector = dyn_cast<FixedVectorType>(alloca->getAllocatedType());
  if (!vector || alloca->isArrayAllocation() || !promotable[i] || !copied[i] || resident[i] ||
      uniformVariable[i] || laneMode)
    return false;
  Type *element = vector->getElementType();
  if (layout.getTypeSizeInBits(element) != layout.getTypeAllocSizeInBits(element)) return false;
  return none_of(collectives, [&](const Collective &collective) {
    return collective.in == alloca || collective.out == alloca || is_contained(collective.ids, alloca);
  });
}

// Where element `element` of a work-item's value lies in a split slot: in
// the element's own array, base + element * work-item count.
Value *WorkGroupLoops::splitElementAddress(IRBuilder<> &builder, unsigned slotIndex, unsigned element,
                                           Value *workItem) {
  const Slot &slot = slots[slotIndex];
  Value *item = builder.CreateZExtOrTrunc(workItem, builder.getInt64Ty());
  Value *index = builder.CreateAdd(builder.CreateMul(workItemCount, builder.getInt64(element)), item);
  return builder.CreateGEP(cast<FixedVectorType>(slot.type)->getElementType(), slot.base, index);
}

// A copied variable's value for one work-item, read from its slot.
Value *WorkGroupLoops::loadCopy(IRBuilder<> &builder, unsigned slotIndex, Value *workItem) {
  const Slot &slot = slots[slotIndex];
  if (!slot.split) return builder.CreateLoad(slot.type, contextAddress(builder, slotIndex, workItem));
  auto *vector = cast<FixedVectorType>(slot.type);
  Type *element = vector->getElementType();
  Value *value = PoisonValue::get(vector);
  for (unsigned k = 0; k < vector->getNumElements(); ++k) {
    Value *address = splitElementAddress(builder, slotIndex, k, workItem);
    value = builder.CreateInsertElement(
        value, builder.CreateAlignedLoad(element, address, layout.getABITypeAlign(element)), k);
  }
  return value;
}

// ... and written to it.
void WorkGroupLoops::storeCopy(IRBuilder<> &builder, Value *value, unsigned slotIndex, Value *workItem) {
  const Slot &slot = slots[slotIndex];
  if (!slot.split) {
    builder.CreateStore(value, contextAddress(builder, slotIndex, workItem));
    return;
  }
  auto *vector = cast<FixedVectorType>(slot.type);
  Align align = layout.getABITypeAlign(vector->getElementType());
  for (unsigned k = 0; k < vector->getNumElements(); ++k)
    builder.CreateAlignedStore(builder.CreateExtractElement(value, k), splitElementAddress(builder, slotIndex, k, workItem),
                               align);
}

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

Value *identity(IRBuilder<> &builder, Type *type, const CollectiveOp &op) {
  if (op.kind == CollectiveOp::All) return builder.getInt32(1);
  if (op.kind == CollectiveOp::Any) return builder.getInt32(0);
  bool fp = type->isFPOrFPVectorTy();
  switch (op.arith) {
    case CollectiveOp::Min:
      if (fp) return ConstantFP::getInfinity(type, false);
      return ConstantInt::get(type, op.isSigned ? APInt::getSignedMaxValue(type->getScalarSizeInBits())
                                                : APInt::getMaxValue(type->getScalarSizeInBits()));
    case CollectiveOp::Max:
      if (fp) return ConstantFP::getInfinity(type, true);
      return ConstantInt::get(type, op.isSigned ? APInt::getSignedMinValue(type->getScalarSizeInBits())
                                                : APInt::getMinValue(type->getScalarSizeInBits()));
    case CollectiveOp::Mul:
      return fp ? ConstantFP::get(type, 1.0) : ConstantInt::get(type, 1);
    case CollectiveOp::And:
      return Constant::getAllOnesValue(type);
    case CollectiveOp::LogicalAnd:
      return ConstantInt::get(type, 1);
    default:
      return Constant::getNullValue(type);
  }
}

Value *combine(IRBuilder<> &builder, const CollectiveOp &op, Value *acc, Value *value) {
  Type *type = acc->getType();
  auto truth = [&](Value *v) { return builder.CreateICmpNE(v, Constant::getNullValue(v->getType())); };
  if (op.kind == CollectiveOp::All)
    return builder.CreateZExt(builder.CreateAnd(truth(acc), truth(value)), type);
  if (op.kind == CollectiveOp::Any)
    return builder.CreateZExt(builder.CreateOr(truth(acc), truth(value)), type);
  bool fp = type->isFPOrFPVectorTy();
  switch (op.arith) {
    case CollectiveOp::Min:
      if (fp) return builder.CreateMinNum(acc, value);
      return builder.CreateBinaryIntrinsic(op.isSigned ? Intrinsic::smin : Intrinsic::umin, acc, value);
    case CollectiveOp::Max:
      if (fp) return builder.CreateMaxNum(acc, value);
      return builder.CreateBinaryIntrinsic(op.isSigned ? Intrinsic::smax : Intrinsic::umax, acc, value);
    case CollectiveOp::Mul:
      return fp ? builder.CreateFMul(acc, value) : builder.CreateMul(acc, value);
    case CollectiveOp::And:
      return builder.CreateAnd(acc, value);
    case CollectiveOp::Or:
      return builder.CreateOr(acc, value);
    case CollectiveOp::Xor:
      return builder.CreateXor(acc, value);
    case CollectiveOp::LogicalAnd:
      return builder.CreateZExt(builder.CreateAnd(truth(acc), truth(value)), type);
    case CollectiveOp::LogicalOr:
      return builder.CreateZExt(builder.CreateOr(truth(acc), truth(value)), type);
    case CollectiveOp::LogicalXor:
      return builder.CreateZExt(builder.CreateXor(truth(acc), truth(value)), type);
    default:
      return fp ? builder.CreateFAdd(acc, value) : builder.CreateAdd(acc, value);
  }
}

// Between the loop nests: combine every work-item's operand, per segment
// (the whole group, or each sub-group of consecutive linear ids), in
// linear-id order, and give each work-item its result. In lane mode only
// the work-items whose state is `state` take part.
void WorkGroupLoops::emitCombine(IRBuilder<> &builder, const Collective &collective, Value *state) {
  IRBuilder<> entry(prologue->getTerminator());
  AllocaInst *accumulator = entry.CreateAlloca(collective.type, nullptr, "combine.acc");
  Value *dirty = collective.dirty ? groupWideAddress(collective.dirty) : nullptr;
  if (dirty && !state) {
    // A masked loop's count while no flag can be 0: the group's size. A
    // count that reads the flags says whether they are all 1 again.
    Value *zero = builder.getInt64(0);
    BasicBlock *read = BasicBlock::Create(context, "count.flags", &F);
    BasicBlock *known = BasicBlock::Create(context, "count.all.stayed", &F);
    BasicBlock *done = BasicBlock::Create(context, "count.done", &F);
    Value *size = builder.CreateTrunc(workItemCount, collective.type);
    builder.CreateCondBr(builder.CreateICmpNE(builder.CreateLoad(builder.getInt32Ty(), dirty), builder.getInt32(0)),
                         read, known);
    builder.SetInsertPoint(known);
    storeResult(builder, collective, zero, workItemCount, nullptr, size);
    builder.CreateBr(done);
    builder.SetInsertPoint(read);
    emitCombineSegment(builder, collective, accumulator, zero, workItemCount, nullptr);
    Value *count = builder.CreateLoad(collective.type, slots[allocaSlot.lookup(collective.out)].base);
    builder.CreateStore(builder.CreateZExt(builder.CreateICmpNE(count, size), builder.getInt32Ty()), dirty);
    builder.CreateBr(done);
    builder.SetInsertPoint(done);
    return;
  }
  if (subGroupMode) {  // just the current sub-group
    emitCombineSegment(builder, collective, accumulator, subGroupFirst, subGroupEnd, state);
    return;
  }
  Value *segmentSize = collective.op.subGroup ? builder.getInt64(subGroupSize) : workItemCount;
  Value *one = builder.getInt64(1);
  Value *segments =
      builder.CreateUDiv(builder.CreateAdd(workItemCount, builder.CreateSub(segmentSize, one)), segmentSize);
  emitCountedLoop(builder, builder.getInt64(0), segments, [&](IRBuilder<> &b, Value *segment) {
    Value *first = b.CreateMul(segment, segmentSize);
    Value *end = b.CreateBinaryIntrinsic(Intrinsic::umin, b.CreateAdd(first, segmentSize), workItemCount);
    emitCombineSegment(b, collective, accumulator, first, end, state);
  });
}

// Gives the work-items [first, end) `value` as the collective's result. A
// result every work-item shares that the analysis keeps as a uniform
// variable is read from the first work-item's slot only.
void WorkGroupLoops::storeResult(IRBuilder<> &b, const Collective &collective, Value *first, Value *end, Value *state,
                                 Value *value) {
  unsigned outSlot = allocaSlot.lookup(collective.out);
  if (!state && !subGroupMode && uniformVariable[allocaIndex.lookup(collective.out)])
    b.CreateStore(value, contextAddress(b, outSlot, first));
  else
    emitCountedLoop(b, first, end,
                    [&](IRBuilder<> &l, Value *i) { l.CreateStore(value, contextAddress(l, outSlot, i)); });
}

void WorkGroupLoops::emitCombineSegment(IRBuilder<> &b, const Collective &collective, AllocaInst *accumulator,
                                        Value *first, Value *end, Value *state) {
  const CollectiveOp &op = collective.op;
  Type *i64 = b.getInt64Ty(), *i32 = b.getInt32Ty();
  unsigned outSlot = allocaSlot.lookup(collective.out);
  Type *inType = collective.in ? collective.in->getAllocatedType() : nullptr;
  Value *one = b.getInt64(1);
  auto in = [&](IRBuilder<> &at, Value *i) {
    return at.CreateLoad(inType, contextAddress(at, allocaSlot.lookup(collective.in), i));
  };
  auto out = [&](IRBuilder<> &at, Value *i, Value *v) { at.CreateStore(v, contextAddress(at, outSlot, i)); };
  auto operand = [&](IRBuilder<> &at, unsigned d, Value *lane) {  // extra operand d as i64
    unsigned slot = allocaSlot.lookup(collective.ids[d]);
    return at.CreateZExtOrTrunc(at.CreateLoad(slots[slot].type, contextAddress(at, slot, lane)), i64);
  };
  auto active = [&](IRBuilder<> &at, Value *i) -> Value * {
    if (!state) return at.getTrue();
    return at.CreateICmpEQ(at.CreateLoad(i32, contextAddress(at, laneSlot, i)), state);
  };
  auto toAll = [&](Value *value) { storeResult(b, collective, first, end, state, value); };
  // The leader: the first active work-item. Operands the spec requires to be
  // the same for every active work-item (a broadcast index, a cluster size)
  // are read from it. A segment with no active work-item is skipped.
  Value *leader = first;
  BasicBlock *skip = nullptr;
  if (state) {
    IRBuilder<> entry(prologue->getTerminator());
    AllocaInst *slot = entry.CreateAlloca(i64, nullptr, "combine.leader");
    b.CreateStore(end, slot);
    emitCountedLoop(b, first, end, [&](IRBuilder<> &l, Value *i) {
      Value *current = l.CreateLoad(i64, slot);
      Value *take = l.CreateAnd(active(l, i), l.CreateICmpEQ(current, end));
      l.CreateStore(l.CreateSelect(take, i, current), slot);
    });
    leader = b.CreateLoad(i64, slot, "leader");
    BasicBlock *work = BasicBlock::Create(context, "combine.segment", &F);
    skip = BasicBlock::Create(context, "combine.segment.done", &F);
    b.CreateCondBr(b.CreateICmpULT(leader, end), work, skip);
    b.SetInsertPoint(work);
  }
  Value *last = b.CreateSub(end, one);
  auto clampLane = [&](IRBuilder<> &at, Value *lane) { return at.CreateBinaryIntrinsic(Intrinsic::umin, lane, last); };
  switch (op.kind) {
    case CollectiveOp::Broadcast: {
      Value *source;
      if (op.subGroup) {
        source = b.CreateAdd(first, operand(b, 0, leader));
      } else {
        source = operand(b, collective.ids.size() - 1, leader);
        for (int d = int(collective.ids.size()) - 2; d >= 0; --d)
          source = b.CreateAdd(b.CreateMul(source, localSize[d]), operand(b, d, leader));
      }
      toAll(in(b, clampLane(b, source)));
      break;
    }
    case CollectiveOp::BroadcastFirst:
      toAll(in(b, leader));
      break;
    case CollectiveOp::Elect:
      emitCountedLoop(b, first, end, [&](IRBuilder<> &l, Value *i) {
        out(l, i, l.CreateZExt(l.CreateICmpEQ(i, leader), i32));
      });
      break;
    case CollectiveOp::Ballot: {
      b.CreateStore(Constant::getNullValue(collective.type), accumulator);
      emitCountedLoop(b, first, end, [&](IRBuilder<> &l, Value *i) {
        Value *bit = l.CreateSub(i, first);
        Value *word = l.CreateTrunc(l.CreateLShr(bit, 5), i32);
        Value *mask = l.CreateShl(l.getInt32(1), l.CreateTrunc(l.CreateAnd(bit, 31), i32));
        Value *set = l.CreateAnd(active(l, i), l.CreateICmpNE(in(l, i), Constant::getNullValue(inType)));
        Value *acc = l.CreateLoad(collective.type, accumulator);
        Value *updated = l.CreateOr(l.CreateExtractElement(acc, word), l.CreateSelect(set, mask, l.getInt32(0)));
        l.CreateStore(l.CreateInsertElement(acc, updated, word), accumulator);
      });
      toAll(b.CreateLoad(collective.type, accumulator));
      break;
    }
    case CollectiveOp::AllEqual: {
      Value *reference = in(b, leader);
      b.CreateStore(b.getInt32(1), accumulator);
      emitCountedLoop(b, first, end, [&](IRBuilder<> &l, Value *i) {
        Value *value = in(l, i);
        Value *equal = inType->isFPOrFPVectorTy() ? l.CreateFCmpOEQ(value, reference)
                                                  : l.CreateICmpEQ(value, reference);
        Value *agree = l.CreateOr(l.CreateNot(active(l, i)), equal);
        Value *acc = l.CreateLoad(i32, accumulator);
        l.CreateStore(l.CreateAnd(acc, l.CreateZExt(agree, i32)), accumulator);
      });
      toAll(b.CreateLoad(i32, accumulator));
      break;
    }
    case CollectiveOp::Shuffle:
    case CollectiveOp::ShuffleXor:
    case CollectiveOp::ShuffleUp:
    case CollectiveOp::ShuffleDown:
    case CollectiveOp::Rotate:
    case CollectiveOp::ClusteredRotate:
      emitCountedLoop(b, first, end, [&](IRBuilder<> &l, Value *i) {
        Value *lane = l.CreateSub(i, first), *n = operand(l, 0, i), *source = nullptr;
        switch (op.kind) {
          case CollectiveOp::Shuffle: source = n; break;
          case CollectiveOp::ShuffleXor: source = l.CreateXor(lane, n); break;
          case CollectiveOp::ShuffleUp: source = l.CreateSub(lane, n); break;
          case CollectiveOp::ShuffleDown: source = l.CreateAdd(lane, n); break;
          case CollectiveOp::Rotate:  // (id + delta) % get_max_sub_group_size(), in uint arithmetic
            source = l.CreateZExt(l.CreateURem(l.CreateTrunc(l.CreateAdd(lane, n), i32), maxSubGroupSize), i64);
            break;
          default: {  // clustered: within the cluster of `size` work-items
            Value *size = l.CreateBinaryIntrinsic(Intrinsic::umax, operand(l, 1, i), one);
            Value *base = l.CreateAnd(lane, l.CreateNot(l.CreateSub(size, one)));
            Value *offset = l.CreateZExt(
                l.CreateURem(l.CreateTrunc(l.CreateAdd(lane, n), i32), l.CreateTrunc(size, i32)), i64);
            source = l.CreateAdd(base, offset);
          }
        }
        // A source outside the sub-group is undefined by the spec; stay inside.
        out(l, i, in(l, clampLane(l, l.CreateAdd(first, source))));
      });
      break;
    case CollectiveOp::ClusteredReduce: {
      Value *size = b.CreateBinaryIntrinsic(Intrinsic::umax, operand(b, 0, leader), one);
      Value *mask = b.CreateNot(b.CreateSub(size, one));
      emitCountedLoop(b, first, end, [&](IRBuilder<> &l, Value *i) {
        Value *base = l.CreateAdd(first, l.CreateAnd(l.CreateSub(i, first), mask));
        Value *clusterEnd = l.CreateBinaryIntrinsic(Intrinsic::umin, l.CreateAdd(base, size), end);
        l.CreateStore(identity(l, collective.type, op), accumulator);
        emitCountedLoop(l, base, clusterEnd, [&](IRBuilder<> &c, Value *j) {
          Value *acc = c.CreateLoad(collective.type, accumulator);
          c.CreateStore(c.CreateSelect(active(c, j), combine(c, op, acc, in(c, j)), acc), accumulator);
        });
        out(l, i, l.CreateLoad(collective.type, accumulator));
      });
      break;
    }
    default: {  // all, any, reductions and scans
      b.CreateStore(identity(b, collective.type, op), accumulator);
      emitCountedLoop(b, first, end, [&](IRBuilder<> &l, Value *i) {
        Value *acc = l.CreateLoad(collective.type, accumulator);
        Value *next = combine(l, op, acc, in(l, i));
        l.CreateStore(state ? l.CreateSelect(active(l, i), next, acc) : next, accumulator);
        if (op.kind == CollectiveOp::ScanExclusive) out(l, i, acc);
        if (op.kind == CollectiveOp::ScanInclusive) out(l, i, next);
      });
      if (op.kind != CollectiveOp::ScanExclusive && op.kind != CollectiveOp::ScanInclusive)
        toAll(b.CreateLoad(collective.type, accumulator));
    }
  }
  if (skip) {
    b.CreateBr(skip);
    b.SetInsertPoint(skip);
  }
}

std::string describeLocation(const Instruction *I) {
  const DebugLoc &location = I->getDebugLoc();
  if (!location) return "an unknown line (build with LOCKSTEP_CHECK_BARRIERS set for line numbers)";
  return (location->getFilename() + ":" + Twine(location.getLine()) + ":" + Twine(location.getCol())).str();
}

// The barriers a decision leads to, through the decisions after it.
void WorkGroupLoops::collectBarrierLocations(BasicBlock *decision, std::vector<std::string> &out,
                                             SmallPtrSetImpl<BasicBlock *> &seen) {
  if (!seen.insert(decision).second) return;
  for (BasicBlock *successor : successors(decision))
    for (const Exit &exit : exitsFrom(successor)) {
      if (exit.kind == Exit::Decision) collectBarrierLocations(exit.block, out, seen);
      if (exit.kind != Exit::Barrier) continue;
      if (CallInst *call = barrierBlocks.lookup(exit.block)) out.push_back(describeLocation(call));
      else out.push_back("a collective function");
    }
}

// LOCKSTEP_CHECK_BARRIERS: every work-item must agree with work-item 0 on a
// decision that leads to a barrier; if one doesn't, report it and stop the
// group instead of running on with garbage.
void WorkGroupLoops::emitDivergenceCheck(IRBuilder<> &builder, BasicBlock *decision, unsigned slot) {
  std::string what = "in kernel '" + kernelName + "', the branch at " +
                     describeLocation(decision->getTerminator()) + " decides whether work-items reach ";
  std::vector<std::string> barriers;
  SmallPtrSet<BasicBlock *, 8> seen;
  collectBarrierLocations(decision, barriers, seen);
  sort(barriers);
  barriers.erase(std::unique(barriers.begin(), barriers.end()), barriers.end());
  for (std::string &place : barriers)
    if (place != "a collective function") place = "the barrier at " + place;
  what += barriers.empty() ? "the end of the kernel" : join(barriers, ", ");
  Module &M = *F.getParent();
  FunctionCallee report = M.getOrInsertFunction(
      kDivergenceSymbol, FunctionType::get(builder.getVoidTy(),
                                           {builder.getPtrTy(), builder.getPtrTy(), builder.getInt64Ty()}, false));
  Value *text = builder.CreateGlobalStringPtr(what, "barrier.check");
  Type *type = slots[slot].type;
  Value *begin = subGroupMode ? subGroupFirst : builder.getInt64(0);
  Value *end = subGroupMode ? subGroupEnd : workItemCount;
  Value *first = builder.CreateLoad(type, contextAddress(builder, slot, begin));
  BasicBlock *fail = BasicBlock::Create(context, "barrier.divergence", &F);
  emitCountedLoop(builder, builder.CreateAdd(begin, builder.getInt64(1)), end, [&](IRBuilder<> &b, Value *i) {
    Value *value = b.CreateLoad(type, contextAddress(b, slot, i));
    BasicBlock *same = BasicBlock::Create(context, "barrier.agree", &F);
    BasicBlock *differ = BasicBlock::Create(context, "barrier.disagree", &F);
    b.CreateCondBr(b.CreateICmpEQ(value, first), same, differ);
    b.SetInsertPoint(differ);
    b.CreateCall(report, {text, F.getArg(kGroupInfoParam), i});
    b.CreateBr(fail);
    b.SetInsertPoint(same);
  });
  IRBuilder<> stop(fail);
  stop.CreateRetVoid();
}

// One thread runs the whole group: other work-items' memory is ordered by
// program order. A global fence still orders this group's global accesses
// for other threads; a local one only pins the compiler.
void WorkGroupLoops::emitBarrierFence(IRBuilder<> &builder, CallInst *call) {
  if (loopCuts.contains(call)) return;
  auto *flags = dyn_cast<ConstantInt>(call->getArgOperand(0));
  bool global = !flags || (flags->getZExtValue() & (kGlobalMemFence | kImageMemFence));
  if (global)
    builder.CreateFence(AtomicOrdering::AcquireRelease);
  else
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
      Value *first = subGroupMode ? contextAddress(builder, slot, subGroupFirst) : slots[slot].base;
      Value *value = builder.CreateLoad(slots[slot].type, first, "uniform.condition");
      if (auto *branch = dyn_cast<BranchInst>(terminator)) {
        builder.CreateCondBr(builder.CreateICmpNE(value, builder.getInt32(0)),
                             regionFor(branch->getSuccessor(0)), regionFor(branch->getSuccessor(1)));
        return;
      }
      auto *sw = cast<SwitchInst>(terminator);
      SwitchInst *copy =
          builder.CreateSwitch(value, regionFor(sw->getDefaultDest()), sw->getNumCases());
      for (auto &c : sw->cases()) copy->addCase(c.getCaseValue(), regionFor(c.getCaseSuccessor()));
      return;
    }
  }
}

// The loops over the work-items of a region: z, y, x over the whole group
// (do-while: every group has a work-item), or, in sub-group mode, one loop
// over the linear ids of the current sub-group. `body` is left without a
// terminator; `latch` is where an iteration ends.
WorkGroupLoops::LoopNest WorkGroupLoops::makeLoopNest(BasicBlock *pre, BasicBlock *after) {
  LoopNest nest;
  IRBuilder<> builder(pre);
  Type *i64 = builder.getInt64Ty();
  if (subGroupMode) {
    BasicBlock *header = BasicBlock::Create(context, "sg.lane", &F);
    nest.latch = BasicBlock::Create(context, "sg.lane.next", &F);
    builder.CreateBr(header);
    builder.SetInsertPoint(header);
    PHINode *lane = builder.CreatePHI(i64, 2, "wi");
    lane->addIncoming(subGroupFirst, pre);
    Value *rest = builder.CreateUDiv(lane, localSize[0]);
    nest.ids[0] = builder.CreateURem(lane, localSize[0], "lid0");
    nest.ids[1] = builder.CreateURem(rest, localSize[1], "lid1");
    nest.ids[2] = builder.CreateUDiv(rest, localSize[1], "lid2");
    nest.workItem = lane;
    nest.body = header;
    builder.SetInsertPoint(nest.latch);
    Value *next = builder.CreateAdd(lane, builder.getInt64(1), "", true, true);
    lane->addIncoming(next, nest.latch);
    nest.innerLatch = builder.CreateCondBr(builder.CreateICmpULT(next, subGroupEnd), header, after);
    return nest;
  }
  BasicBlock *headers[3], *latches[3];
  PHINode *ids[3];
  for (int d = 2; d >= 0; --d) {
    headers[d] = BasicBlock::Create(context, "wi.loop" + Twine(d), &F);
    latches[d] = BasicBlock::Create(context, "wi.next" + Twine(d), &F);
  }
  builder.CreateBr(headers[2]);
  for (int d = 2; d >= 0; --d) {
    builder.SetInsertPoint(headers[d]);
    ids[d] = builder.CreatePHI(i64, 2, "lid" + Twine(d));
    ids[d]->addIncoming(builder.getInt64(0), d == 2 ? pre : headers[d + 1]);
    nest.ids[d] = ids[d];
    if (d > 0) builder.CreateBr(headers[d - 1]);
  }
  builder.SetInsertPoint(headers[0]);
  nest.workItem = builder.CreateAdd(
      builder.CreateMul(builder.CreateAdd(builder.CreateMul(ids[2], localSize[1]), ids[1]), localSize[0]),
      ids[0], "wi");
  nest.body = headers[0];
  for (int d = 0; d < 3; ++d) {
    builder.SetInsertPoint(latches[d]);
    Value *next = builder.CreateAdd(ids[d], builder.getInt64(1), "", true, true);
    ids[d]->addIncoming(next, latches[d]);
    BasicBlock *outer = d == 2 ? after : latches[d + 1];
    auto *branch = builder.CreateCondBr(builder.CreateICmpULT(next, localSize[d]), headers[d], outer);
    if (d == 0) {
      nest.innerLatch = branch;
      branch->setMetadata(kWorkItemLoopMarker, MDNode::get(context, {}));
    }
  }
  nest.latch = latches[0];
  return nest;
}

// pre → work-item loops { copy in; region body; copy out } → control
void WorkGroupLoops::buildRegion(BasicBlock *entry, BasicBlock *pre) {
  IRBuilder<> builder(pre);
  bool startsAtCut = barrierBlocks.count(entry);
  if (startsAtCut && !laneMode) {  // two barriers in a row: nothing to run
    emitControl(builder, Exit{Exit::Barrier, entry});
    return;
  }
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
    // work-item is not work-item 0. The store then leaves the loop.
    bool perWorkItem = checking || subGroupMode || laneMode;
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
  SmallVector<BasicBlock *, 34> body(clones.begin(), clones.end());
  body.push_back(nest.body);
  body.append(extraBody.begin(), extraBody.end());
  markParallel(body, nest.innerLatch);
  // Every work-item reads and writes a group-wide variable in turn: not a
  // parallel access. -O3 keeps it in a register across the work-item loop;
  // left parallel, a vectorized loop that did not would keep one lane's value.
  for (AllocaInst *alloca : groupWide)
    if (Value *wide = groupWideAddress(alloca))
      for (BasicBlock *block : body)
        for (Instruction &I : *block)
          if (getLoadStorePointerOperand(&I) == wide) I.setMetadata(LLVMContext::MD_access_group, nullptr);

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

// Work-items of one region never depend on each other (that would need a
// barrier), so the innermost loop's iterations are independent, except for
// accesses to private memory that all work-items share.
void WorkGroupLoops::markParallel(ArrayRef<BasicBlock *> body, BranchInst *latch) {
  MDNode *group = MDNode::getDistinct(context, {});
  auto touchesShared = [&](const Value *pointer) {
    auto *alloca = dyn_cast<AllocaInst>(getUnderlyingObject(pointer));
    return alloca && allocaIndex.count(alloca) && shared[allocaIndex.lookup(alloca)];
  };
  for (BasicBlock *block : body)
    for (Instruction &I : *block) {
      if (!I.mayReadOrWriteMemory()) continue;
      bool isShared = false;
      if (auto *load = dyn_cast<LoadInst>(&I)) isShared = touchesShared(load->getPointerOperand());
      else if (auto *store = dyn_cast<StoreInst>(&I))
        isShared = touchesShared(store->getPointerOperand());
      else if (auto *call = dyn_cast<CallBase>(&I))
        isShared = any_of(call->args(), [&](const Use &arg) {
          return arg->getType()->isPointerTy() && touchesShared(arg.get());
        });
      if (!isShared) I.setMetadata(LLVMContext::MD_access_group, group);
    }
  MDNode *parallel = MDNode::get(
      context, {MDString::get(context, "llvm.loop.parallel_accesses"), group});
  SmallVector<Metadata *, 3> properties{nullptr, parallel};
  if (foldTails) {
    properties.push_back(MDNode::get(context, {MDString::get(context, "llvm.loop.vectorize.predicate.enable"),
                                               ConstantAsMetadata::get(ConstantInt::getTrue(context))}));
    properties.push_back(
        MDNode::get(context, {MDString::get(context, "llvm.loop.interleave.count"),
                              ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(context), 1))}));
  }
  MDNode *loop = MDNode::getDistinct(context, properties);
  loop->replaceOperandWith(0, loop);
  latch->setMetadata(LLVMContext::MD_loop, loop);
}

// Lane mode: states in reverse post-order of the cuts, so that the lowest
// state is the one work-items that branched apart reach first.
void WorkGroupLoops::numberStates() {
  ReversePostOrderTraversal<Function *> order(&F);
  for (BasicBlock *block : order)
    if (barrierBlocks.count(block)) stateCuts.push_back(block);
  for (auto &[block, call] : barrierBlocks)  // unreachable ones, for completeness
    if (!is_contained(stateCuts, block)) stateCuts.push_back(block);
  entryState[bodyEntry] = 0;
  for (unsigned k = 0; k < stateCuts.size(); ++k) {
    cutState[stateCuts[k]] = k + 1;
    entryState[stateCuts[k]->getSingleSuccessor()] = k + 1;
  }
  doneState = stateCuts.size() + 1;
}

// start: every work-item of the range at state 0 → dispatch: pick the state
// to run → that cut's exchange among the work-items in it → the region after
// it (buildRegion) → dispatch; when every work-item is done → finish.
void WorkGroupLoops::buildLaneMachine(BasicBlock *start, BasicBlock *finish) {
  Type *i32 = Type::getInt32Ty(context);
  IRBuilder<> b(start);
  loadLaneCount(b);
  Value *begin = subGroupMode ? subGroupFirst : b.getInt64(0);
  Value *end = subGroupMode ? subGroupEnd : workItemCount;
  emitCountedLoop(b, begin, end, [&](IRBuilder<> &l, Value *i) {
    l.CreateStore(l.getInt32(0), contextAddress(l, laneSlot, i));
  });
  dispatch = BasicBlock::Create(context, "lanes.dispatch", &F);
  b.CreateBr(dispatch);
  b.SetInsertPoint(dispatch);
  loadLaneCount(b);
  // A work-group barrier or collective (a hard state) runs only once every
  // work-item has reached it: until then the lowest other state runs.
  SmallVector<uint8_t, 16> hard(doneState + 1, 0);
  bool anyHard = false;
  for (unsigned k = 1; k < doneState; ++k) {
    BasicBlock *cut = stateCuts[k - 1];
    CallInst *call = barrierBlocks.lookup(cut);
    bool subGroup = call ? isSubGroupBarrier(call->getCalledFunction()->getName())
                         : collectives[collectiveAt.lookup(cut)].op.subGroup;
    hard[k] = !subGroup;
    anyHard |= !subGroup;
  }
  IRBuilder<> entry(prologue->getTerminator());
  AllocaInst *lowest = entry.CreateAlloca(i32, nullptr, "lanes.lowest");
  AllocaInst *lowestSoft = entry.CreateAlloca(i32, nullptr, "lanes.lowest.soft");
  Value *done = b.getInt32(doneState);
  b.CreateStore(done, lowest);
  b.CreateStore(done, lowestSoft);
  GlobalVariable *table = nullptr;
  if (anyHard)
    table = new GlobalVariable(*F.getParent(), ArrayType::get(b.getInt8Ty(), hard.size()), true,
                               GlobalValue::PrivateLinkage, ConstantDataArray::get(context, hard), "lanes.hard");
  emitCountedLoop(b, begin, end, [&](IRBuilder<> &l, Value *i) {
    Value *state = l.CreateLoad(i32, contextAddress(l, laneSlot, i));
    l.CreateStore(l.CreateBinaryIntrinsic(Intrinsic::umin, l.CreateLoad(i32, lowest), state), lowest);
    if (!table) return;
    Value *isHard = l.CreateICmpNE(
        l.CreateLoad(l.getInt8Ty(), l.CreateGEP(l.getInt8Ty(), table, l.CreateZExt(state, l.getInt64Ty()))),
        l.getInt8(0));
    Value *soft = l.CreateLoad(i32, lowestSoft);
    l.CreateStore(l.CreateSelect(isHard, soft, l.CreateBinaryIntrinsic(Intrinsic::umin, soft, state)), lowestSoft);
  });
  Value *state = b.CreateLoad(i32, lowest, "lanes.state");
  if (table) {
    Value *soft = b.CreateLoad(i32, lowestSoft);
    state = b.CreateSelect(b.CreateICmpNE(soft, done), soft, state, "lanes.state");
  }
  SwitchInst *choose = b.CreateSwitch(state, finish, doneState);
  choose->addCase(b.getInt32(0), regionFor(bodyEntry));
  for (unsigned k = 1; k < doneState; ++k) {
    BasicBlock *cut = stateCuts[k - 1];
    BasicBlock *block = BasicBlock::Create(context, "lanes.cut", &F);
    choose->addCase(b.getInt32(k), block);
    IRBuilder<> at(block);
    loadLaneCount(at);
    if (auto it = collectiveAt.find(cut); it != collectiveAt.end())
      emitCombine(at, collectives[it->second], at.getInt32(k));
    else
      emitBarrierFence(at, barrierBlocks.lookup(cut));
    at.CreateBr(regionFor(cut->getSingleSuccessor()));
  }
  laneCount = nullptr;
}

// The kernel's arguments and the group's geometry, read where the
// simplification before this pass sank them: into the prologue, where they
// are uniform values (kept once, recomputable after a barrier) rather than
// loads each work-item repeats. The argument block and the group info are
// immutable while the group runs, and readable at every offset used.
void hoistInvariantParameterLoads(Function &F, BasicBlock *prologue) {
  SmallVector<LoadInst *, 16> loads;
  for (BasicBlock &BB : F)
    if (&BB != prologue)
      for (Instruction &I : BB)
        if (auto *load = dyn_cast<LoadInst>(&I); load && load->getMetadata(LLVMContext::MD_invariant_load) &&
                                                 !load->isVolatile() && !load->isAtomic())
          loads.push_back(load);
  for (LoadInst *load : loads) {
    Value *pointer = load->getPointerOperand();
    auto *gep = dyn_cast<GetElementPtrInst>(pointer);
    Value *base = gep ? gep->getPointerOperand() : pointer;
    if (base != F.getArg(kArgBlockParam) && base != F.getArg(kGroupInfoParam)) continue;
    if (gep && !gep->hasAllConstantIndices()) continue;
    Instruction *at = prologue->getTerminator();
    if (gep && gep->getParent() != prologue) {
      if (gep->hasOneUse()) gep->moveBefore(at);
      else {
        auto *copy = gep->clone();
        copy->insertBefore(at);
        load->setOperand(0, copy);
      }
    }
    load->moveBefore(at);
  }
}

void WorkGroupLoops::run() {
  prologue = &F.getEntryBlock();
  bodyEntry = prologue->getSingleSuccessor();
  if (!bodyEntry) report_fatal_error("lockstep: work-group function without a prologue");
  hoistInvariantParameterLoads(F, prologue);
  IRBuilder<> builder(prologue->getTerminator());
  for (int d = 0; d < 3; ++d) localSize[d] = loadGroupInfo(builder, F.getArg(kGroupInfoParam), kLocalSize, d);
  workItemCount = builder.CreateMul(builder.CreateMul(localSize[0], localSize[1]), localSize[2]);
  Value *enqueued = builder.getInt64(1);
  for (int d = 0; d < 3; ++d)
    enqueued = builder.CreateMul(enqueued, loadGroupInfo(builder, F.getArg(kGroupInfoParam), kEnqueuedLocalSize, d));

  subGroupSize = std::max<uint64_t>(functionAttrNumber(F, kSubGroupSizeAttr), 1);
  maxSubGroupSize = builder.CreateTrunc(
      builder.CreateBinaryIntrinsic(Intrinsic::umin, builder.getInt64(subGroupSize), enqueued), builder.getInt32Ty());
  checking = F.hasFnAttribute(kCheckBarriersAttr);
  kernelName = F.getFnAttribute(kKernelNameAttr).getValueAsString().str();
  addLoopCuts();
  prepareCollectives();
  splitAtBarriers();
  unifyReturns();
  // The body's blocks as they are now (addLoopCuts may have deleted some),
  // which the regions replace.
  SmallPtrSet<BasicBlock *, 32> original;
  for (BasicBlock &BB : F) original.insert(&BB);
  original.erase(prologue);
  // Sub-group mode when every cut is a sub-group one.
  bool groupCuts = false, subGroupCuts = false;
  for (auto &[block, call] : barrierBlocks) {
    bool subGroup = call ? isSubGroupBarrier(call->getCalledFunction()->getName())
                         : collectives[collectiveAt.lookup(block)].op.subGroup;
    (subGroup ? subGroupCuts : groupCuts) = true;
  }
  subGroupMode = subGroupCuts && !groupCuts;
  // Lane mode also when sub-group and work-group cuts mix: a sub-group
  // function may stand in control flow that is uniform only per sub-group,
  // which a work-group-wide decision cannot follow.
  laneMode = (groupCuts && subGroupCuts) ||
             any_of(collectives, [](const Collective &c) { return c.op.nonUniform; });
  if (laneMode) numberStates();
  else
    while (addOneDecision()) {
    }
  if (!barrierBlocks.empty()) demoteCrossBlockValues();
  analyzeAllocas();
  if (!barrierBlocks.empty()) computeLiveness();
  else for (unsigned i = 0; i < allocas.size(); ++i) shared[i] = !promotable[i] && !resident[i];
  for (const Collective &collective : collectives) {
    if (collective.in) copied.set(allocaIndex.lookup(collective.in));
    copied.set(allocaIndex.lookup(collective.out));
    for (AllocaInst *id : collective.ids) copied.set(allocaIndex.lookup(id));
  }
  if (!barrierBlocks.empty()) findUniformVariables();
  else uniformVariable.resize(allocas.size());
  layOutContext();

  prologue->getTerminator()->eraseFromParent();
  if (subGroupMode) {
    // prologue → sg.header { region machine; Return → sg.next } → ret
    BasicBlock *header = BasicBlock::Create(context, "sg", &F);
    subGroupLatch = BasicBlock::Create(context, "sg.next", &F);
    BasicBlock *done = BasicBlock::Create(context, "sg.done", &F);
    BranchInst::Create(header, prologue);
    IRBuilder<> builder(header);
    PHINode *index = builder.CreatePHI(builder.getInt64Ty(), 2, "sg.id");
    index->addIncoming(builder.getInt64(0), prologue);
    subGroupFirst = builder.CreateMul(index, builder.getInt64(subGroupSize), "sg.first");
    subGroupEnd = builder.CreateBinaryIntrinsic(
        Intrinsic::umin, builder.CreateAdd(subGroupFirst, builder.getInt64(subGroupSize)), workItemCount);
    BasicBlock *start = laneMode ? BasicBlock::Create(context, "lanes", &F) : regionFor(bodyEntry);
    builder.CreateBr(start);
    if (laneMode) buildLaneMachine(start, subGroupLatch);
    builder.SetInsertPoint(subGroupLatch);
    Value *next = builder.CreateAdd(index, builder.getInt64(1));
    index->addIncoming(next, subGroupLatch);
    builder.CreateCondBr(builder.CreateICmpULT(builder.CreateMul(next, builder.getInt64(subGroupSize)), workItemCount),
                         header, done);
    ReturnInst::Create(context, done);
  } else if (laneMode) {
    BasicBlock *start = BasicBlock::Create(context, "lanes", &F);
    BasicBlock *done = BasicBlock::Create(context, "lanes.done", &F);
    ReturnInst::Create(context, done);
    BranchInst::Create(start, prologue);
    buildLaneMachine(start, done);
  } else {
    BranchInst::Create(regionFor(bodyEntry), prologue);
  }
  while (!pendingRegions.empty()) {
    BasicBlock *entry = pendingRegions.front();
    pendingRegions.pop_front();
    buildRegion(entry, regionPre[entry]);
  }
  for (BasicBlock *block : original) block->dropAllReferences();
  for (BasicBlock *block : original) block->eraseFromParent();
  // Lifetime markers on per-work-item context memory mean nothing.
  for (Instruction &I : make_early_inc_range(instructions(F)))
    if (auto *marker = dyn_cast<LifetimeIntrinsic>(&I))
      if (!isa<AllocaInst>(getUnderlyingObject(marker->getArgOperand(1)))) marker->eraseFromParent();

  scopeContextSlots();
  F.addFnAttr(kContextBytesAttr, std::to_string(contextBytes));
  F.addFnAttr(kBarrierCountAttr, std::to_string(barrierBlocks.size() - collectives.size() - loopCuts.size()));
  uint64_t privateBytes = 0;
  for (unsigned i = 0; i < allocas.size(); ++i)
    if (shared[i]) privateBytes += allocas[i]->getAllocationSize(layout)->getFixedValue();
  F.addFnAttr(kPrivateBytesAttr, std::to_string(privateBytes + contextBytes));
  F.addFnAttr(kFrameBytesAttr, std::to_string(privateBytes));
}

// Below this many work-items along x, the work-item loop that a loop cut
// moves inside a kernel loop is too short to widen, and every trip of the
// kernel loop would pay for the values it keeps in the context: such groups
// run a version of the kernel without loop cuts.
constexpr uint64_t kLoopCutMinWidth = 4;

// A straight-line kernel's work-item loop is widened to the vector (8 lanes
// of 32 bits on Zen 4, which gets 256-bit vectors for such kernels; 16 on
// other AVX-512 cores) and unrolled 4 times: up to 64 work-items a trip, and
// the rest one at a time. Groups whose width along x is not a multiple of
// this many work-items (16 x 16 tiles of an image) run a version whose loops mask the
// rest instead; its stores are masked, so it does without the streaming
// stores of the unmasked version. A store-bound kernel ran 2.2-2.4x faster
// in 16 x 16 and 8 x 8 groups with it on Zen 4.
constexpr uint64_t kFullRowMultiple = 64;

// Makes `F`'s prologue call `alternative` (an internal copy of the kernel,
// with the same parameters, already named) when `useAlternative` says so,
// and run its own body otherwise. The context and private memory the
// launcher allocates cover both.
void dispatchByWidth(Function &F, Function *alternative, StringRef blockName,
                     function_ref<Value *(IRBuilder<> &, Value *width)> useAlternative) {
  for (const char *attribute : {kContextBytesAttr, kPrivateBytesAttr}) {
    uint64_t most = std::max(functionAttrNumber(F, attribute), functionAttrNumber(*alternative, attribute));
    F.addFnAttr(attribute, std::to_string(most));
  }
  // Inlined, the alternative's allocas join the frame beside F's own.
  F.addFnAttr(kFrameBytesAttr, std::to_string(functionAttrNumber(F, kFrameBytesAttr) +
                                              functionAttrNumber(*alternative, kFrameBytesAttr)));
  alternative->removeFnAttr(kKernelNameAttr);

  BasicBlock *prologue = &F.getEntryBlock();
  auto *start = cast<BranchInst>(prologue->getTerminator());
  IRBuilder<> builder(start);
  Value *width = loadGroupInfo(builder, F.getArg(kGroupInfoParam), kLocalSize, 0);
  BasicBlock *other = BasicBlock::Create(F.getContext(), blockName, &F);
  builder.CreateCondBr(useAlternative(builder, width), other, start->getSuccessor(0));
  start->eraseFromParent();
  IRBuilder<> call(other);
  SmallVector<Value *, 4> arguments;
  for (Argument &argument : F.args()) arguments.push_back(&argument);
  call.CreateCall(alternative, arguments);
  call.CreateRetVoid();
}

// The work-group function with loop cuts, and, when it has any, the same
// kernel without them for narrow groups; the prologue picks one by the
// group's local size along x. A straight-line kernel instead gets, with
// `foldNarrowRows`, a version with masked loop tails for groups whose width
// is not a multiple of kFullRowMultiple.
void buildWorkGroupFunction(Function &F, bool foldNarrowRows, unsigned vectorBits) {
  // A kernel without loops, barriers or collectives: one pass over its
  // work-items that streams through memory (Pipeline.cpp picks its vector
  // width by that).
  bool straightLine = [&] {
    DominatorTree dominators(F);
    LoopInfo loops(dominators);
    if (!loops.empty()) return false;
    for (Instruction &I : instructions(F))
      if (auto *call = dyn_cast<CallInst>(&I); call && call->getCalledFunction())
        if (isBarrierCall(I) || parseCollective(call->getCalledFunction()->getName())) return false;
    return true;
  }();
  if (straightLine) F.addFnAttr(kStraightLineAttr);
  F.addFnAttr(kWorkGroupCodeAttr);  // the copies below inherit it
  ValueToValueMapTy map;
  Function *whole = CloneFunction(&F, map);
  WorkGroupLoops cut(F, true, false, vectorBits);
  cut.run();
  whole->setLinkage(GlobalValue::InternalLinkage);
  if (straightLine && foldNarrowRows) {
    whole->setName(F.getName() + ".narrow_rows");
    WorkGroupLoops(*whole, false, true).run();
    dispatchByWidth(F, whole, "narrow.rows", [](IRBuilder<> &builder, Value *width) {
      return builder.CreateICmpNE(builder.CreateURem(width, builder.getInt64(kFullRowMultiple)), builder.getInt64(0));
    });
    return;
  }
  if (cut.loopCutCount() == 0) {
    whole->eraseFromParent();
    return;
  }
  if (cut.maskedLoopCount() != 0) F.addFnAttr(kMaskedLoopsAttr, std::to_string(cut.maskedLoopCount()));
  whole->setName(F.getName() + ".whole_loops");
  WorkGroupLoops(*whole, false).run();
  dispatchByWidth(F, whole, "narrow.group", [](IRBuilder<> &builder, Value *width) {
    return builder.CreateICmpULT(width, builder.getInt64(kLoopCutMinWidth));
  });
}

}  // namespace

PreservedAnalyses WorkGroupLoopsPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<Function *, 8> kernels;
  for (Function &F : M)
    if (!F.isDeclaration() && F.hasFnAttribute(kKernelNameAttr)) kernels.push_back(&F);
  for (Function *F : kernels) buildWorkGroupFunction(*F, foldNarrowRows, vectorBits);
  return kernels.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

}  // namespace lockstep::compiler

// StreamingStoresPass, after -O3: a straight-line kernel's loop that only
// stores whole vectors to consecutive global addresses gets a copy with
// non-temporal stores, run for launches that store more than the caches keep
// when the stores are aligned (no read for ownership: a third less traffic
// for vector_add). Not the stores to an array the loop also reads: an update
// in place has no read for ownership to skip.
//
//   preheader:  every store's first address aligned to its size, and
//               groups * runs * bytes per run >= streamingStoreMiB
//               ->  loop.stream (the stores marked !nontemporal)
//               else the loop as it was
//
// Non-temporal stores are not ordered with other stores: a kernel that may
// run them is marked kStreamingStoresAttr (with every function that calls
// it), and the launcher fences its stores (sfence) after each run of groups.
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include "Internal.h"
#include "MemoryAccess/AccessPatterns.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-streaming-stores"

using namespace llvm;

static cl::opt<bool> StreamStores("lockstep-streaming-stores", cl::init(true), cl::Hidden,
                                  cl::desc("Give loops that only store whole vectors to consecutive global "
                                           "addresses a copy with non-temporal stores"));

LOCKSTEP_STATISTIC(NumLoopsStreamed, "Loops given a copy with non-temporal stores");
LOCKSTEP_STATISTIC(NumFunctionsMarked, "Functions marked to fence non-temporal stores");

namespace lockstep::compiler {
namespace {

uint64_t storeBytes(const StoreInst *store, const DataLayout &layout) {
  return layout.getTypeStoreSize(store->getValueOperand()->getType()).getFixedValue();
}

// The alignment a streamed store needs: its size, or a cache line for the
// wider stores the backend splits (the vectorizer's interleaved store of 8
// float4s is 128 bytes: two 64-byte non-temporal stores).
uint64_t streamAlignment(uint64_t size) { return std::min<uint64_t>(size, 64); }

// 16, 32 or 64 bytes, or whole cache lines.
bool streamableSize(uint64_t size) { return size == 16 || size == 32 || (size != 0 && size % 64 == 0); }

// A store the loop's copy makes non-temporal, and where it writes in the
// loop's first iteration.
struct StreamedStore {
  StoreInst *store;
  const SCEV *first;
};

// A loop of a straight-line kernel whose only memory writes are whole-vector
// stores of 16 or 32 bytes or whole cache lines to global memory, each to
// consecutive addresses; the stores it may stream are those to memory the
// loop does not read (several stores may interleave, as an unrolled
// loop's do). A signed `int` index (`out[i]` with `int i =
// get_global_id(0)`) is a sign extension of a 32-bit induction, consecutive
// only while that does not wrap: `PSE` collects that condition, which the
// vectorizer has checked once already before its vector loop.
bool streamsStores(Loop *loop, PredicatedScalarEvolution &PSE, const DataLayout &layout,
                   SmallVectorImpl<StreamedStore> &stores) {
  ScalarEvolution &SE = *PSE.getSE();
  for (BasicBlock *block : loop->blocks())
    for (Instruction &I : *block) {
      auto *store = dyn_cast<StoreInst>(&I);
      if (!store) {
        if (I.mayWriteToMemory()) return false;
        continue;
      }
      uint64_t size = storeBytes(store, layout);
      if (!store->isSimple() || store->getPointerAddressSpace() != kGlobalAddressSpace ||
          !store->getValueOperand()->getType()->isVectorTy() || !streamableSize(size))
        return false;
      const SCEVAddRecExpr *address = PSE.getAsAddRec(store->getPointerOperand());
      auto *step = address && address->getLoop() == loop && address->isAffine()
                       ? dyn_cast<SCEVConstant>(address->getStepRecurrence(SE))
                       : nullptr;
      if (!step || !step->getAPInt().isStrictlyPositive() || step->getAPInt().urem(size) != 0) return false;
      stores.push_back({store, address->getStart()});
    }
  // A store to memory the loop also reads (`y[i] = a * x[i] + y[i]`, an
  // update in place) gains nothing from being non-temporal: the load has
  // brought the line into the cache already, so there is no read for
  // ownership to skip, and the line would leave a cache that may well hold
  // the whole array for the next launch (daxpy over 32 MiB arrays on the
  // 2-core Xeon: 67-76 GB/s with ordinary stores, 36-40 with non-temporal
  // ones).
  SmallPtrSet<const Value *, 8> read;
  for (BasicBlock *block : loop->blocks())
    for (Instruction &I : *block)
      if (auto *load = dyn_cast<LoadInst>(&I)) read.insert(getUnderlyingObject(load->getPointerOperand()));
  erase_if(stores, [&](const StreamedStore &streamed) {
    return read.contains(getUnderlyingObject(streamed.store->getPointerOperand()));
  });
  return !stores.empty();
}

// Runs a second copy of the loop, whose stores are non-temporal, when every
// store starts aligned (to its size, or to a cache line) and the launch
// stores more than the caches keep (GroupInfo::streamingStoreMiB, which the
// runtime sets to half the last-level cache, at least 16 MiB; the bytes from
// the number of groups and what one run of the loop stores): such stores
// skip the read for ownership, a third of vector_add's traffic, and would
// only evict data from the caches.
bool streamLoop(Function &F, Loop *loop, ArrayRef<StreamedStore> stores, PredicatedScalarEvolution &PSE,
                LoopInfo &loops, DominatorTree &dominators, const DataLayout &layout) {
  ScalarEvolution &SE = *PSE.getSE();
  const SCEV *trips = SE.getBackedgeTakenCount(loop);
  if (isa<SCEVCouldNotCompute>(trips)) return false;
  Type *intType = layout.getIndexType(stores.front().store->getPointerOperandType());
  SCEVExpander expander(SE, layout, "stream");
  const SCEV *runs = SE.getAddExpr(SE.getTruncateOrZeroExtend(trips, intType), SE.getOne(intType));
  if (!expander.isSafeToExpand(runs)) return false;
  for (const StreamedStore &streamed : stores)
    if (!expander.isSafeToExpand(streamed.first)) return false;
  BasicBlock *preheader = versionablePreheader(loop, loops, dominators);
  if (!preheader) return false;
  LLVM_DEBUG(dbgs() << F.getName() << ": streaming the " << stores.size() << " stores of "
                    << loop->getHeader()->getName() << "\n");

  // The check, in the preheader, which becomes the choice between the loops.
  Instruction *at = preheader->getTerminator();
  IRBuilder<> builder(at);
  Value *aligned = nullptr;
  uint64_t bytesPerRun = 0;
  for (const auto &[store, first] : stores) {
    uint64_t size = storeBytes(store, layout);
    bytesPerRun += size;
    uint64_t alignment = streamAlignment(size);
    Value *address =
        builder.CreatePtrToInt(expander.expandCodeFor(first, store->getPointerOperandType(), at), intType);
    Value *here = builder.CreateICmpEQ(builder.CreateAnd(address, alignment - 1), ConstantInt::get(intType, 0));
    aligned = aligned ? builder.CreateAnd(aligned, here) : here;
  }
  Value *groups = loadGroupInfo(builder, F.getArg(kGroupInfoParam), kNumGroups, 0);
  for (unsigned d = 1; d < 3; ++d)
    groups = builder.CreateMul(groups, loadGroupInfo(builder, F.getArg(kGroupInfoParam), kNumGroups, d));
  Value *bytes = builder.CreateMul(builder.CreateMul(groups, expander.expandCodeFor(runs, intType, at)),
                                   ConstantInt::get(intType, bytesPerRun));
  Value *enough = builder.CreateZExt(loadGroupInfo(builder, F.getArg(kGroupInfoParam), kStreamingStoreMiB), intType);
  Value *stream = builder.CreateAnd(aligned, builder.CreateICmpUGE(bytes, builder.CreateShl(enough, 20)));
  // The expansion of a predicate is true where it fails.
  if (!PSE.getPredicate().isAlwaysTrue())
    stream = builder.CreateAnd(stream, builder.CreateNot(expander.expandCodeForPredicate(&PSE.getPredicate(), at)));
  stream->setName("stream.stores");

  ValueToValueMapTy map;
  versionLoop(loop, stream, ".stream", loops, dominators, map);
  MDNode *nontemporal = MDNode::get(F.getContext(), ConstantAsMetadata::get(builder.getInt32(1)));
  for (const auto &[store, first] : stores) {
    auto *streamed = cast<StoreInst>(map[store]);
    streamed->setAlignment(Align(streamAlignment(storeBytes(store, layout))));
    streamed->setMetadata(LLVMContext::MD_nontemporal, nontemporal);
  }
  ++NumLoopsStreamed;
  return true;
}

bool streamStores(Function &F, LoopInfo &loops, DominatorTree &dominators, ScalarEvolution &SE) {
  if (!StreamStores || !F.hasFnAttribute(kStraightLineAttr) || !Triple(F.getParent()->getTargetTriple()).isX86())
    return false;
  const DataLayout &layout = F.getParent()->getDataLayout();
  struct Found {
    Loop *loop;
    std::unique_ptr<PredicatedScalarEvolution> PSE;
    SmallVector<StreamedStore, 4> stores;
  };
  SmallVector<Found, 4> found;
  for (Loop *loop : loops.getLoopsInPreorder()) {
    if (!loop->isInnermost()) continue;
    Found here{loop, std::make_unique<PredicatedScalarEvolution>(SE, *loop), {}};
    if (streamsStores(loop, *here.PSE, layout, here.stores)) found.push_back(std::move(here));
  }
  bool changed = false;
  for (Found &here : found) changed |= streamLoop(F, here.loop, here.stores, *here.PSE, loops, dominators, layout);
  // Non-temporal stores are not ordered with other stores. The launcher
  // fences them (sfence) after each run of groups of a kernel marked here
  // (and the kernels that call this copy of one), before the launch says it
  // is done; a fence at every group's return waited for each group's stores
  // to reach memory and halved the speed of 256-item groups.
  if (changed) {
    SmallVector<Function *, 4> work{&F};
    while (!work.empty()) {
      Function *marked = work.pop_back_val();
      if (marked->hasFnAttribute(kStreamingStoresAttr)) continue;
      marked->addFnAttr(kStreamingStoresAttr);
      ++NumFunctionsMarked;
      for (User *user : marked->users())
        if (auto *call = dyn_cast<CallBase>(user)) work.push_back(call->getFunction());
    }
  }
  return changed;
}

}  // namespace

PreservedAnalyses StreamingStoresPass::run(Module &M, ModuleAnalysisManager &analyses) {
  return runOnLoops(M, analyses, streamStores);
}

}  // namespace lockstep::compiler

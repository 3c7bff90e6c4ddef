// StreamingStoresPass, after -O3: a straight-line kernel's loop that only
// stores whole vectors to consecutive global addresses gets a copy with
// non-temporal stores, run for launches that store more than the caches keep
// when the stores are aligned (no read for ownership: a third less traffic
// for vector_add).
//
//   preheader:  every store's first address aligned to its size, and
//               groups * runs * bytes per run >= streamingStoreMiB
//               ->  loop.stream (the stores marked !nontemporal)
//               else the loop as it was
//
// Non-temporal stores are not ordered with other stores: a kernel that may
// run them is marked kStreamingStoresAttr (with every function that calls
// it), and the launcher fences its stores (sfence) after each run of groups.
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Debug.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include "Internal.h"
#include "MemoryAccess/AccessPatterns.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-streaming-stores"

using namespace llvm;

LOCKSTEP_STATISTIC(NumLoopsStreamed, "Loops given a copy with non-temporal stores");
LOCKSTEP_STATISTIC(NumFunctionsMarked, "Functions marked to fence non-temporal stores");

namespace lockstep::compiler {
namespace {

uint64_t storeBytes(const StoreInst *store, const DataLayout &layout) {
  return layout.getTypeStoreSize(store->getValueOperand()->getType()).getFixedValue();
}

// Where a streamed store writes in the loop's first iteration.
const SCEV *firstAddress(StoreInst *store, ScalarEvolution &SE) {
  return cast<SCEVAddRecExpr>(SE.getSCEV(store->getPointerOperand()))->getStart();
}

// A loop of a straight-line kernel whose only memory writes are whole-vector
// stores of 16, 32 or 64 bytes to global memory, each to consecutive
// addresses (several stores may interleave, as an unrolled loop's do).
bool streamsStores(Loop *loop, ScalarEvolution &SE, const DataLayout &layout, SmallVectorImpl<StoreInst *> &stores) {
  for (BasicBlock *block : loop->blocks())
    for (Instruction &I : *block) {
      auto *store = dyn_cast<StoreInst>(&I);
      if (!store) {
        if (I.mayWriteToMemory()) return false;
        continue;
      }
      uint64_t size = storeBytes(store, layout);
      if (!store->isSimple() || store->getPointerAddressSpace() != kGlobalAddressSpace ||
          !store->getValueOperand()->getType()->isVectorTy() || (size != 16 && size != 32 && size != 64))
        return false;
      auto *address = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(store->getPointerOperand()));
      auto *step = address && address->getLoop() == loop && address->isAffine()
                       ? dyn_cast<SCEVConstant>(address->getStepRecurrence(SE))
                       : nullptr;
      if (!step || !step->getAPInt().isStrictlyPositive() || step->getAPInt().urem(size) != 0) return false;
      stores.push_back(store);
    }
  return !stores.empty();
}

// Runs a second copy of the loop, whose stores are non-temporal, when every
// store starts aligned to its size and the launch stores more than the caches
// keep (GroupInfo::streamingStoreMiB, which the runtime sets to half the
// last-level cache, at least 16 MiB; the bytes from the number of groups and
// what one run of the loop stores): such stores skip the read for
// ownership, a third of vector_add's traffic, and would only evict data from
// the caches.
bool streamLoop(Function &F, Loop *loop, ArrayRef<StoreInst *> stores, ScalarEvolution &SE, LoopInfo &loops,
                DominatorTree &dominators, const DataLayout &layout) {
  const SCEV *trips = SE.getBackedgeTakenCount(loop);
  if (isa<SCEVCouldNotCompute>(trips)) return false;
  Type *intType = layout.getIndexType(stores.front()->getPointerOperandType());
  SCEVExpander expander(SE, layout, "stream");
  const SCEV *runs = SE.getAddExpr(SE.getTruncateOrZeroExtend(trips, intType), SE.getOne(intType));
  if (!expander.isSafeToExpand(runs)) return false;
  for (StoreInst *store : stores)
    if (!expander.isSafeToExpand(firstAddress(store, SE))) return false;
  BasicBlock *preheader = versionablePreheader(loop, loops, dominators);
  if (!preheader) return false;
  LLVM_DEBUG(dbgs() << F.getName() << ": streaming the " << stores.size() << " stores of "
                    << loop->getHeader()->getName() << "\n");

  // The check, in the preheader, which becomes the choice between the loops.
  Instruction *at = preheader->getTerminator();
  IRBuilder<> builder(at);
  Value *aligned = nullptr;
  uint64_t bytesPerRun = 0;
  for (StoreInst *store : stores) {
    uint64_t size = storeBytes(store, layout);
    bytesPerRun += size;
    Value *address =
        builder.CreatePtrToInt(expander.expandCodeFor(firstAddress(store, SE), store->getPointerOperandType(), at),
                               intType);
    Value *here = builder.CreateICmpEQ(builder.CreateAnd(address, size - 1), ConstantInt::get(intType, 0));
    aligned = aligned ? builder.CreateAnd(aligned, here) : here;
  }
  Value *groups = loadGroupInfo(builder, F.getArg(kGroupInfoParam), kNumGroups, 0);
  for (unsigned d = 1; d < 3; ++d)
    groups = builder.CreateMul(groups, loadGroupInfo(builder, F.getArg(kGroupInfoParam), kNumGroups, d));
  Value *bytes = builder.CreateMul(builder.CreateMul(groups, expander.expandCodeFor(runs, intType, at)),
                                   ConstantInt::get(intType, bytesPerRun));
  Value *enough = builder.CreateZExt(loadGroupInfo(builder, F.getArg(kGroupInfoParam), kStreamingStoreMiB), intType);
  Value *stream =
      builder.CreateAnd(aligned, builder.CreateICmpUGE(bytes, builder.CreateShl(enough, 20)), "stream.stores");

  ValueToValueMapTy map;
  versionLoop(loop, stream, ".stream", loops, dominators, map);
  MDNode *nontemporal = MDNode::get(F.getContext(), ConstantAsMetadata::get(builder.getInt32(1)));
  for (StoreInst *store : stores) {
    auto *streamed = cast<StoreInst>(map[store]);
    streamed->setAlignment(Align(storeBytes(store, layout)));
    streamed->setMetadata(LLVMContext::MD_nontemporal, nontemporal);
  }
  ++NumLoopsStreamed;
  return true;
}

bool streamStores(Function &F, LoopInfo &loops, DominatorTree &dominators, ScalarEvolution &SE) {
  if (!F.hasFnAttribute(kStraightLineAttr) || !Triple(F.getParent()->getTargetTriple()).isX86()) return false;
  const DataLayout &layout = F.getParent()->getDataLayout();
  SmallVector<std::pair<Loop *, SmallVector<StoreInst *, 4>>, 4> found;
  for (Loop *loop : loops.getLoopsInPreorder()) {
    SmallVector<StoreInst *, 4> stores;
    if (loop->isInnermost() && streamsStores(loop, SE, layout, stores)) found.push_back({loop, stores});
  }
  bool changed = false;
  for (auto &[loop, stores] : found) changed |= streamLoop(F, loop, stores, SE, loops, dominators, layout);
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

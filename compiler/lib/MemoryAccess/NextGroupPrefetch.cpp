// NextGroupPrefetchPass, after -O3: in a kernel whose groups are small
// tiles, each global load and store also prefetches what it will touch
// GroupsAhead groups later along x, the group the same thread runs then.
//
// A thread runs a chunk of groups in order, x fastest (WorkGroupLauncher).
// A 16 x 16 group of a stencil with a __local tile reads 18 rows of 64 to
// 72 bytes, each row a page of its own, and writes 16 more: 34 streams
// that advance one line per group, more than the hardware prefetchers
// follow, so each group waits on memory for its lines. The lines the same
// load reads a group later are known: its address moves with the group id
// by a fixed amount (the group's width in bytes).
//
//   v = load(p(group_x, ...))     ->   prefetch(p + slope * GroupsAhead)
//                                      v = load(p(group_x, ...))
//
// (stores prefetch for writing). Only accesses of the work-item loops themselves (a loop depth of at most 2:
// a row loop and its x loop) in kernels that may not run in groups of the
// driver's choice (kGroupFreeAttr kernels run in long rows, which the
// prefetchers follow), whose address moves with the group id along x by an
// amount the prologue knows (scalar evolution, through integer casts).
// Prefetches never fault: the last group's, past the array, are harmless.
// (The 5-point stencil with a __local tile on a 2-core EPYC: 16.5 GB/s,
// 20-21 with 2 groups ahead.)
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include "Internal.h"
#include "MemoryAccess/AccessPatterns.h"
#include "Passes.h"
#include "Statistics.h"
#include "lockstep/compiler/GroupAbi.h"

#define DEBUG_TYPE "lockstep-next-group-prefetch"

using namespace llvm;

LOCKSTEP_STATISTIC(NumNextGroupPrefetches, "Loads that prefetch what they read a few groups later");

static cl::opt<unsigned> GroupsAhead("lockstep-prefetch-groups-ahead", cl::init(2), cl::Hidden,
                                     cl::desc("Groups ahead along x that NextGroupPrefetchPass prefetches (0: off)"));

static cl::opt<bool> PrefetchStores("lockstep-prefetch-group-stores", cl::init(true), cl::Hidden,
                                    cl::desc("NextGroupPrefetchPass prefetches for stores too (for writing)"));

namespace lockstep::compiler {
namespace {

// How far `S` moves when `group` grows by one, or null: an induction
// moves as its start does.
const SCEV *slopeOver(const SCEV *S, const SCEV *group, ScalarEvolution &SE) {
  auto moves = [&](const SCEV *E) { return SCEVExprContains(E, [&](const SCEV *part) { return part == group; }); };
  return movementOf(
      S, SE, [&](const SCEV *E) { return !moves(E); },
      [&](const SCEV *E) -> const SCEV * {
        if (E == group) return SE.getOne(E->getType());
        auto *recurrence = dyn_cast<SCEVAddRecExpr>(E);
        if (!recurrence || !recurrence->isAffine() || moves(recurrence->getStepRecurrence(SE))) return nullptr;
        return slopeOver(recurrence->getStart(), group, SE);
      });
}

// The load of GroupInfo::groupId[0] (at offset 0 of the work-group
// function's GroupInfo argument), or null.
LoadInst *groupIdLoad(Function &F) {
  if (F.arg_size() <= kGroupInfoParam) return nullptr;
  for (User *user : F.getArg(kGroupInfoParam)->users())
    if (auto *load = dyn_cast<LoadInst>(user); load && load->getType()->isIntegerTy(64)) return load;
  return nullptr;
}

bool prefetchNextGroups(Function &F, LoopInfo &loops, DominatorTree &dominators, ScalarEvolution &SE) {
  static_assert(kGroupId == 0, "groupId[0] is read at offset 0");
  if (GroupsAhead == 0 || !F.hasFnAttribute(kWorkGroupCodeAttr) || F.hasFnAttribute(kGroupFreeAttr)) return false;
  LoadInst *group = groupIdLoad(F);
  if (!group || !SE.isSCEVable(group->getType())) return false;
  const SCEV *groupId = SE.getSCEV(group);
  const DataLayout &layout = F.getParent()->getDataLayout();
  struct Found {
    Instruction *access;
    Value *pointer;
    const SCEV *slope;
    bool write;
  };
  SmallVector<Found, 16> found;
  for (BasicBlock &block : F) {
    if (loops.getLoopDepth(&block) > 2) continue;  // inside a kernel loop
    for (Instruction &I : block) {
      Value *pointer = nullptr;
      bool write = false;
      if (auto *load = dyn_cast<LoadInst>(&I); load && load->isSimple()) {
        pointer = load->getPointerOperand();
      } else if (auto *store = dyn_cast<StoreInst>(&I); store && store->isSimple() && PrefetchStores) {
        pointer = store->getPointerOperand(), write = true;
      } else if (auto *call = dyn_cast<IntrinsicInst>(&I)) {
        if (call->getIntrinsicID() == Intrinsic::masked_load) pointer = call->getArgOperand(0);
        if (call->getIntrinsicID() == Intrinsic::masked_store && PrefetchStores)
          pointer = call->getArgOperand(1), write = true;
      }
      if (!pointer) continue;
      unsigned space = pointer->getType()->getPointerAddressSpace();
      if (space != kGlobalAddressSpace && space != kConstantAddressSpace) continue;
      const SCEV *slope = slopeOver(SE.getSCEV(pointer), groupId, SE);
      if (!slope || slope->isZero()) continue;
      found.push_back({&I, pointer, slope, write});
    }
  }
  // The distances are computed once, at the end of the prologue (the entry
  // block, where the GroupInfo reads are), or before the access when it is
  // in the prologue itself: what they use must be there.
  BasicBlock &entry = F.getEntryBlock();
  bool changed = false;
  for (const Found &access : found) {
    Instruction *at = access.access->getParent() == &entry ? access.access : entry.getTerminator();
    Type *intType = layout.getIndexType(access.pointer->getType());
    const SCEV *ahead = SE.getMulExpr(SE.getTruncateOrSignExtend(access.slope, intType),
                                      SE.getConstant(intType, GroupsAhead.getValue()));
    bool available = !SCEVExprContains(ahead, [&](const SCEV *part) {
      auto *unknown = dyn_cast<SCEVUnknown>(part);
      auto *I = unknown ? dyn_cast<Instruction>(unknown->getValue()) : nullptr;
      return I && (I->getParent() != &entry || !dominators.dominates(I, at));
    });
    SCEVExpander expander(SE, layout, "prefetch");
    // (isSafeToExpandAt refuses a point inside the block its operands are
    // in; that they dominate the point is checked above.)
    if (!available || !expander.isSafeToExpand(ahead)) continue;
    Value *bytes = expander.expandCodeFor(ahead, intType, at);
    prefetchAhead(access.access, access.pointer, bytes, access.write, /*locality=*/3, "prefetch.group");
    LLVM_DEBUG(dbgs() << "prefetching for " << *access.access << " " << GroupsAhead << " groups ahead\n");
    ++NumNextGroupPrefetches;
    changed = true;
  }
  return changed;
}

}  // namespace

PreservedAnalyses NextGroupPrefetchPass::run(Module &M, ModuleAnalysisManager &analyses) {
  return runOnLoops(M, analyses, prefetchNextGroups);
}

}  // namespace lockstep::compiler

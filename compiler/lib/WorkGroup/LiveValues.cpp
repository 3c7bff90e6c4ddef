// Live values across regions. demoteCrossBlockValues leaves no SSA value used
// outside its block (cheap work-item-id arithmetic is recomputed where it is
// used, everything else goes through a private variable), so that regions
// can be cloned freely. analyzeAllocas classifies the private variables
// (promotable, kept resident in the context, shared by all work-items of a
// region), and computeLiveness finds the variables live where a later region
// starts: those are copied per work-item into the context.
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/Statistic.h>
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
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

#include "WorkGroup/WorkGroupLoops.h"

using namespace llvm;

#define DEBUG_TYPE "lockstep-work-group-loops"

namespace lockstep::compiler {
namespace {

// How deep an expression of the local ids and uniform values may be to be
// recomputed after a barrier rather than kept per work-item in the context.
// GPU code computes an index once (`base + lid` with `base = group * 2 *
// size`: six instructions from the prologue's values) and uses it on both
// sides of its barriers; kept, it is reloaded per work-item and the access
// through it is a gather or scatter, recomputed it is consecutive. Rodinia's
// hotspot clamps its neighbours' indices against bounds computed from the
// group's id and the pyramid's height (ternaries, DiamondSelects.cpp):
// eleven deep, and 1.3-1.5x faster recomputed. The parts that do not
// depend on the local id leave the work-item loops after -O3.
cl::opt<unsigned> kRematerializeDepth("lockstep-rematerialize-depth", cl::Hidden, cl::init(16),
                                      cl::desc("Deepest expression recomputed after a barrier rather than kept"));

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

}  // namespace

// The depth of the expression recomputing I takes (1 for an instruction
// of prologue values, 0 for the local id), or kNever where it cannot be
// recomputed; memoized, since an expression's operands share parts.
unsigned WorkGroupLoops::rematerializeDepth(const Instruction *I,
                                            DenseMap<const Instruction *, unsigned> &known) const {
  constexpr unsigned kNever = ~0u;
  if (isLocalIdPlaceholder(*I)) return 0;
  if (auto found = known.find(I); found != known.end()) return found->second;
  unsigned depth = kNever;
  known[I] = kNever;  // no cycle goes around without a phi, but stay safe
  if (!isa<PHINode>(I) && !I->mayReadOrWriteMemory() && !I->mayHaveSideEffects() &&
      (isa<CastInst>(I) || isa<BinaryOperator>(I) || isa<CmpInst>(I) || isa<GetElementPtrInst>(I) ||
       isa<SelectInst>(I)) &&
      isSafeToSpeculativelyExecute(I)) {
    depth = 1;
    for (const Value *operand : I->operands()) {
      auto *def = dyn_cast<Instruction>(operand);
      if (!def || def->getParent() == prologue) continue;
      unsigned inner = isa<AllocaInst>(def) ? kNever : rematerializeDepth(def, known);
      if (inner == kNever) {
        depth = kNever;
        break;
      }
      depth = std::max(depth, inner + 1);
    }
  }
  known[I] = depth;
  return depth;
}

bool WorkGroupLoops::isRematerializable(const Instruction *I, unsigned depth) const {
  DenseMap<const Instruction *, unsigned> known;
  return rematerializeDepth(I, known) <= depth;
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
  // Demotion adds loads and stores, never blocks: one tree serves them all.
  DominatorTree dominators(F);
  for (PHINode *phi : phis)
    if (!demoteCarriedPhi(phi, allocaPoint, dominators)) DemotePHIToStack(phi, allocaPoint);

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
    if (isKeptResident(*allocas[i])) {
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

}  // namespace lockstep::compiler

// InvariantLoadHoistingPass, in -O3 right after the inliner's first
// simplification: a load marked `!invariant.load` at a constant offset from
// a pointer that is dereferenceable where it is defined (an image argument's
// descriptor, KernelWrapper.cpp; the GroupInfo and argument blocks) moves to
// just after that definition, and the loads of the same field become one.
//
// The image built-ins read the descriptor's fields (sizes, pitches, the data
// pointer, the format) inside the work-item loops, often under the format
// switch or the write's bounds check. LICM hoists such a load out of a
// conditional block only by dropping its metadata (the condition it was
// under might be what made it valid), and the load it leaves behind is an
// ordinary one: one loop further out, the image write's store may alias it,
// so it stays in the loop, and the fields stop being values the work-item
// loop does not change. A resize's `write_imagef` then kept its bounds test
// on a width loaded per work-item, InteriorVersioningPass could not settle
// it, and the loop ran scalar.
//
//   prologue:                                      prologue:
//     %img = load ptr, !dereferenceable !{i64 88}    %img = load ptr, !dereferenceable !{i64 88}
//   loop:                                            %w = load i32 (%img + 24), !invariant.load
//     br %inside, label %write, label %next   ->   loop:
//   write:                                           br %inside, label %write, label %next
//     %w = load i32 (%img + 24), !invariant.load   write:
//     ... uses %w ...                                ... uses %w ...
//
// A load may move only where it cannot fault: the pointer's dereferenceable
// bytes (its `!dereferenceable` metadata, `dereferenceable` attribute) must
// cover the field and the pointer must not be null or freed in between.
//
// A specialized launch states its images' formats as `assume(load == C)`
// (ImageSpecializationPass). Once the loads of a field are one, its uses
// that the assumption dominates become C here, before the loop passes
// weigh the loops: the format switches fold now rather than at GVN.
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DepthFirstIterator.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>

#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-invariant-load-hoisting"

using namespace llvm;

static cl::opt<bool> Enabled("lockstep-hoist-invariant-loads", cl::init(true), cl::Hidden,
                             cl::desc("Move invariant loads to their pointer's definition"));

LOCKSTEP_STATISTIC(NumHoistedLoads, "Invariant loads moved to their pointer's definition");
LOCKSTEP_STATISTIC(NumMergedLoads, "Invariant loads replaced by one of the same field");
LOCKSTEP_STATISTIC(NumAssumedFields, "Uses of an invariant load replaced by the value an assumption states");

namespace lockstep::compiler {
namespace {

// Where a load from `base` may be placed so that it dominates every use of
// `base`: after its definition, or at the entry for an argument.
Instruction *placeAfter(Value *base, Function &F) {
  if (isa<Argument>(base)) return &*F.getEntryBlock().getFirstInsertionPt();
  auto *definition = dyn_cast<Instruction>(base);
  if (!definition || definition->isTerminator()) return nullptr;
  if (isa<PHINode>(definition)) return &*definition->getParent()->getFirstInsertionPt();
  return definition->getNextNode();
}

// Whether a load of `type` at `base` + `offset` cannot fault anywhere
// `base` is defined.
bool safeEverywhere(Value *base, int64_t offset, Type *type, const DataLayout &DL) {
  bool canBeNull = false, canBeFreed = false;
  uint64_t bytes = base->getPointerDereferenceableBytes(DL, canBeNull, canBeFreed);
  if (canBeNull || canBeFreed || offset < 0) return false;
  TypeSize size = DL.getTypeStoreSize(type);
  return !size.isScalable() && uint64_t(offset) + size.getFixedValue() <= bytes;
}

// `assume(load == C)` (ImageSpecializationPass states a launch's formats
// so): the load's uses that the assumption dominates become C, now, so that
// the built-ins' format switches fold before the loop passes measure the
// loops (a switch left until GVN kept a 3x3 blur's loops from unrolling).
bool foldAssumedLoads(Function &F, DominatorTree &DT) {
  using namespace PatternMatch;
  bool changed = false;
  for (Instruction &I : instructions(F)) {
    auto *assume = dyn_cast<AssumeInst>(&I);
    Value *loaded;
    ConstantInt *value;
    if (!assume || !match(assume->getArgOperand(0), m_SpecificICmp(ICmpInst::ICMP_EQ, m_Value(loaded),
                                                                   m_ConstantInt(value))))
      continue;
    auto *load = dyn_cast<LoadInst>(loaded);
    if (!load || !load->hasMetadata(LLVMContext::MD_invariant_load)) continue;
    for (Use &use : make_early_inc_range(load->uses())) {
      if (use.getUser() == assume->getArgOperand(0) || !DT.dominates(assume, use)) continue;
      use.set(value);
      ++NumAssumedFields;
      changed = true;
    }
  }
  return changed;
}

}  // namespace

PreservedAnalyses InvariantLoadHoistingPass::run(Function &F, FunctionAnalysisManager &AM) {
  if (!Enabled) return PreservedAnalyses::all();
  const DataLayout &DL = F.getDataLayout();
  DominatorTree &DT = AM.getResult<DominatorTreeAnalysis>(F);
  DenseMap<std::tuple<Value *, int64_t, Type *>, LoadInst *> hoisted;
  // In dominator-tree order: a field's first load dominates its others, and
  // a load that another's address comes from is seen (and merged) first.
  SmallVector<LoadInst *, 32> loads;
  for (DomTreeNode *node : depth_first(DT.getRootNode()))
    for (Instruction &I : *node->getBlock())
      if (auto *load = dyn_cast<LoadInst>(&I); load && load->isSimple() &&
                                                   load->hasMetadata(LLVMContext::MD_invariant_load))
        loads.push_back(load);

  bool changed = false;
  for (LoadInst *load : loads) {
    Value *pointer = load->getPointerOperand();
    APInt offset(DL.getIndexTypeSizeInBits(pointer->getType()), 0);
    Value *base = pointer->stripAndAccumulateConstantOffsets(DL, offset, /*AllowNonInbounds=*/false);
    if (offset.getSignificantBits() > 64) continue;
    int64_t bytes = offset.getSExtValue();
    auto key = std::make_tuple(base, bytes, load->getType());
    if (auto found = hoisted.find(key); found != hoisted.end()) {
      LoadInst *kept = found->second;
      load->replaceAllUsesWith(kept);
      load->eraseFromParent();
      ++NumMergedLoads;
      changed = true;
      continue;
    }
    Instruction *at = placeAfter(base, F);
    if (!at || !safeEverywhere(base, bytes, load->getType(), DL)) continue;
    if (at->getParent() == load->getParent() && (at == load || at->comesBefore(load))) {
      hoisted[key] = load;  // already where its pointer is
      continue;
    }
    IRBuilder<> builder(at);
    Value *address = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), base, uint64_t(bytes));
    LoadInst *moved = builder.CreateAlignedLoad(load->getType(), address, load->getAlign(), load->getName());
    // Not the metadata that states facts about the value (!range,
    // !nonnull): the block it came from may never run.
    moved->copyMetadata(*load, {LLVMContext::MD_invariant_load, LLVMContext::MD_tbaa});
    LLVM_DEBUG(dbgs() << "hoisting " << *load << "\n");
    load->replaceAllUsesWith(moved);
    load->eraseFromParent();
    hoisted[key] = moved;
    ++NumHoistedLoads;
    changed = true;
  }
  changed |= foldAssumedLoads(F, DT);
  if (!changed) return PreservedAnalyses::all();
  PreservedAnalyses preserved;
  preserved.preserveSet<CFGAnalyses>();
  return preserved;
}

}  // namespace lockstep::compiler

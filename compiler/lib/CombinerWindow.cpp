// The combiner's window (CombinerWindow.h):
//
//     window = __lockstep_atomic_combiner_window(combiner, base, wide)  ; entry
//     ...
//     if (window == null)  (the add, combined as before)
//     else                 window[index] += sext(v)
//
// The runtime gives a thread's one window to the first buffer of a run that
// claims it (null for another buffer's, or without a combiner): two
// instructions an add where the table's lookup took about nine.
#include "CombinerWindow.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/KnownBits.h>

#include <optional>

#include "CombinerTestVersioning.h"
#include "Internal.h"
#include "Statistics.h"
#include "lockstep/compiler/GroupAbi.h"

#define DEBUG_TYPE "lockstep-global-atomic-combining"

using namespace llvm;

LOCKSTEP_STATISTIC(NumAddsWindowed, "Global atomic adds held back in the combiner's window, by index");

static cl::opt<bool> UseWindow("lockstep-combiner-window", cl::init(true), cl::Hidden,
                               cl::desc("Hold back adds to a byte-indexed bin (index below 256) in the "
                                        "combiner's window, by index"));

namespace lockstep::compiler {
namespace {

// An add to base + index * its size with index < kWindowEntries, base
// available at the entry of the add's function: its base and index.
struct WindowAdd {
  Value *base;
  Value *index;
};
std::optional<WindowAdd> windowAdd(AtomicRMWInst *rmw) {
  auto *gep = dyn_cast<GetElementPtrInst>(rmw->getPointerOperand());
  if (!gep || gep->getNumIndices() != 1) return std::nullopt;
  const DataLayout &layout = rmw->getModule()->getDataLayout();
  if (layout.getTypeAllocSize(gep->getSourceElementType()) != layout.getTypeStoreSize(rmw->getType()))
    return std::nullopt;
  Value *index = gep->getOperand(1);
  if (computeKnownBits(index, layout).getMaxValue().uge(AtomicCombiner::kWindowEntries)) return std::nullopt;
  Value *base = gep->getPointerOperand();
  auto *defined = dyn_cast<Instruction>(base);
  if (defined ? defined->getParent() != &rmw->getFunction()->getEntryBlock() : !isa<Argument, Constant>(base))
    return std::nullopt;
  return WindowAdd{base, index};
}

// The add at `rmw` to the window when there is one; the add as it was (to be
// combined) otherwise. Returns the test on `window == null`.
BranchInst *addToWindow(AtomicRMWInst *rmw, const WindowAdd &add, Value *window) {
  LLVMContext &context = rmw->getContext();
  BasicBlock *head = rmw->getParent();
  BasicBlock *tail = head->splitBasicBlock(rmw->getIterator(), "window.done");
  Function *F = head->getParent();
  auto *none = BasicBlock::Create(context, "window.none", F, tail);
  auto *windowed = BasicBlock::Create(context, "window.add", F, tail);
  head->getTerminator()->eraseFromParent();
  IRBuilder<> builder(head);
  BranchInst *test = builder.CreateCondBr(builder.CreateIsNull(window, "window.none"), none, windowed,
                                          MDBuilder(context).createUnlikelyBranchWeights());
  rmw->moveBefore(BranchInst::Create(tail, none));
  builder.SetInsertPoint(windowed);
  Type *i64 = builder.getInt64Ty();
  Value *delta = builder.CreateSExt(rmw->getValOperand(), i64);
  if (rmw->getOperation() == AtomicRMWInst::Sub) delta = builder.CreateNeg(delta);
  Value *slot = builder.CreateGEP(i64, window, builder.CreateZExtOrTrunc(add.index, i64), "window.slot");
  builder.CreateStore(builder.CreateAdd(builder.CreateLoad(i64, slot), delta), slot);
  builder.CreateBr(tail);
  ++NumAddsWindowed;
  return test;
}

}  // namespace

CombinerWindows::CombinerWindows(Module &M) {
  LLVMContext &context = M.getContext();
  auto *ptr = PointerType::get(context, 0);
  Type *i64 = Type::getInt64Ty(context);
  claim = M.getOrInsertFunction(kAtomicCombinerWindowSymbol, FunctionType::get(ptr, {ptr, i64, i64}, false));
}

void CombinerWindows::route(AtomicRMWInst *rmw, Value *combiner) {
  std::optional<WindowAdd> add = UseWindow ? windowAdd(rmw) : std::nullopt;
  if (!add) return;
  bool wide = rmw->getType()->isIntegerTy(64);
  Value *&window = windows[{rmw->getFunction(), add->base, unsigned(wide)}];
  if (!window) {
    // After the base and the combiner, both in the entry block (the
    // combiner first, at its top).
    auto *after = dyn_cast<Instruction>(add->base);
    IRBuilder<> at(after ? after->getNextNode() : cast<Instruction>(combiner)->getNextNode());
    Value *base = at.CreatePtrToInt(add->base, at.getInt64Ty());
    window = at.CreateCall(claim, {combiner, base, at.getInt64(wide)}, "window");
  }
  tests[window].push_back(addToWindow(rmw, *add, window));
}

void CombinerWindows::versionLoops() {
  for (auto &[key, window] : windows) versionLoopsOnCombiner(*std::get<0>(key), window, tests[window]);
}

}  // namespace lockstep::compiler

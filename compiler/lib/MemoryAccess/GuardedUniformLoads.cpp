// GuardedUniformLoadsPass (before the loop vectorizer) and
// GuardedUniformLoadsLoweringPass (after -O3): a load of one address that
// only some work-items make widens as one scalar load.
//
// A work-item loop that loads from an address the loop does not change,
// under a condition that differs between work-items, is left scalar by the
// loop vectorizer whenever its cost model prices that load high: the
// vectorizer cannot speculate a load that may fault (nothing says the
// address is valid when no work-item takes the branch), so it plans a masked
// gather of the one address, and x86 has no gather of bytes or halfwords:
// scalarized with a branch per lane, it is "not beneficial". A naive
// substring search, `while (j < m && text[i + j] == pat[j]) j++`, masked
// (LoopCuts), compares each round's bytes under the work-items' `active`
// flags with `pat[j]`, one address for all: the round ran scalar, 0.12
// Gpos/s on the 2-core Xeon against PoCL's 0.34.
//
// Such a load becomes a call the vectorizer widens through the vector
// function ABI (masked variants for 2 to 64 lanes, the pointer uniform):
//
//   %v = load i8, ptr addrspace(2) %p, align 1
//     ->  %v = call i8 @__lockstep_uniform_load_i8_p2_a1(ptr addrspace(2) %p)
//         "vector-function-abi-variant"="_ZGV_LLVM_M16u___lockstep_uniform_load_i8_p2_a1(..._v16)",
//         ...
//
// and after -O3 the calls become memory accesses again: a scalar call the
// load it was, a vector one `masked.gather(splat %p, mask)`, which
// MaskedMemoryGuardsPass puts behind a test of the mask and makes one scalar
// load (made only when some lane is active, as the scalar code made it only
// when some work-item was). Every lane gets the value memory holds at the
// call's place in the widened trip, after all lanes' accesses before it: a
// lane would see another's write only through a race between work-items,
// which the work-item loop's access group (the parallel loop the vectorizer
// trusts for every other access) rules out. Volatile and atomic loads,
// loads outside the access group, loads the vectorizer may speculate anyway
// and loads of vectors are left alone. The call reads only its argument's
// memory, so the passes between may move or merge it as they would the
// load, but never speculate it.
//
// `-lockstep-guarded-uniform-loads=false` turns the rewrite off.
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/Loads.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>

#include <string>

#include "Internal.h"
#include "MemoryAccess/MaskedVariants.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-guarded-uniform-loads"

using namespace llvm;

static cl::opt<bool> Enabled(
    "lockstep-guarded-uniform-loads", cl::init(true), cl::Hidden,
    cl::desc("Let the vectorizer widen loads of one address under a work-item condition"));

LOCKSTEP_STATISTIC(
    NumCalls, "Loads of one address under a work-item condition made calls the vectorizer widens");
LOCKSTEP_STATISTIC(NumVectorLowered,
                   "Widened uniform-load calls lowered to masked gathers of one address");
LOCKSTEP_STATISTIC(NumScalarLowered, "Uniform-load calls lowered back to loads");

namespace lockstep::compiler {
namespace {

constexpr const char *kPrefix = "__lockstep_uniform_load_";

// The name of the type in the name of the function that loads it; empty
// for a type it does not load (integers, float, double and pointers).
std::string typeName(Type *type) {
  if (auto *integer = dyn_cast<IntegerType>(type))
    return "i" + std::to_string(integer->getBitWidth());
  // Not half: NarrowGathers' calls of half loads made CLBlast's HGEMV wrong,
  // for a reason not found, so half loads stay loads here too.
  if (type->isFloatTy()) return "f32";
  if (type->isDoubleTy()) return "f64";
  if (auto *pointer = dyn_cast<PointerType>(type))
    return "p" + std::to_string(pointer->getAddressSpace());
  return "";
}

// Whether `load` is one the rewrite takes: of a scalar, from an address
// `loop` does not change, in a block only some trips run, which the
// vectorizer could not speculate.
bool takes(LoadInst &load, Loop &loop, DominatorTree &DT, const DataLayout &DL) {
  if (!load.isSimple() || typeName(load.getType()).empty()) return false;
  if (!loop.isLoopInvariant(load.getPointerOperand())) return false;
  BasicBlock *latch = loop.getLoopLatch();
  if (!latch || DT.dominates(load.getParent(), latch)) return false;
  BasicBlock *preheader = loop.getLoopPreheader();
  if (!preheader ||
      isSafeToLoadUnconditionally(load.getPointerOperand(), load.getType(), load.getAlign(), DL,
                                  preheader->getTerminator(), nullptr, &DT))
    return false;
  // In the loop's access group: the loop's trips (work-items) do not depend
  // on each other's accesses, which is also what lets the vectorizer widen
  // it; within a trip, the widened call keeps its place among the accesses.
  return load.hasMetadata(LLVMContext::MD_access_group);
}

}  // namespace

PreservedAnalyses GuardedUniformLoadsPass::run(Function &F, FunctionAnalysisManager &AM) {
  if (!Enabled || F.isDeclaration()) return PreservedAnalyses::all();
  auto &LI = AM.getResult<LoopAnalysis>(F);
  auto &DT = AM.getResult<DominatorTreeAnalysis>(F);
  const DataLayout &DL = F.getDataLayout();
  SmallVector<Instruction *, 8> found =
      collectInWorkItemLoops(F, LI, [&](Instruction &I, Loop &loop) {
        auto *load = dyn_cast<LoadInst>(&I);
        return load && takes(*load, loop, DT, DL);
      });
  if (found.empty()) return PreservedAnalyses::all();
  for (Instruction *I : found) {
    auto *load = cast<LoadInst>(I);
    LLVM_DEBUG(dbgs() << "uniform load under a condition: " << *load << "\n");
    ++NumCalls;
    replaceLoadWithVariantCall(*load, kPrefix, typeName(load->getType()), /*pointerVaries=*/false);
  }
  PreservedAnalyses preserved = PreservedAnalyses::none();
  preserved.preserveSet<CFGAnalyses>();
  return preserved;
}

PreservedAnalyses GuardedUniformLoadsLoweringPass::run(Module &M, ModuleAnalysisManager &) {
  bool any = lowerVariantCalls(M, kPrefix, [](CallInst &call, unsigned lanes) -> Value * {
    Align align = accessAlign(*call.getCalledFunction());
    IRBuilder<> builder(&call);
    Value *pointer = call.getArgOperand(0);
    if (lanes) {
      ++NumVectorLowered;
      return builder.CreateMaskedGather(call.getType(), builder.CreateVectorSplat(lanes, pointer),
                                        align, call.getArgOperand(1));
    }
    ++NumScalarLowered;
    return builder.CreateAlignedLoad(call.getType(), pointer, align);
  });
  return any ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

// StopPollPass: a work-group function can be stopped in a loop that might
// never end.
//
// A kernel stuck in a loop (waiting for a flag no one sets, a convergence
// test that never holds) would keep its launch, and clFinish, waiting for
// ever. The runtime's watchdog (runtime/exec/Watchdog.cpp) sets the word
// GroupInfo::stop points to when a launch runs past LOCKSTEP_KERNEL_TIMEOUT;
// this pass makes the loops that could run for ever look at it.
//
// After the work-group passes, every loop of a work-group function (the
// kernel's and each version of it that KernelVersions.cpp made for narrow
// groups or rows) whose backedge-taken count scalar evolution cannot
// compute gets, in a block that all of its back edges now go through:
//
//   %stop = load atomic i32, ptr %stop.word monotonic
//   br (%stop != 0), label %stop.group, label %rest   (weights: unlikely)
// stop.group:
//   call void @__lockstep_stop_group()               ; leaves the group
//
// The call (CheckReports.cpp) longjmps out of the group, which the launcher
// runs through runCheckedGroup for such kernels; to the IR it touches only
// memory the kernel cannot see, so loads may still leave the loop, and
// comes back to a frame that holds it (willreturn), so stores may too. It
// comes at the end of a trip, after the trip's stores. Loops with a
// computable trip count end by themselves and are left alone: the
// work-item loops (a group's size bounds them), and the loops a kernel runs
// a counted number of times, whose work-item loops still widen. A bound the
// loop loads in its header from an address it does not change and memory it
// does not write (`for (k = rowptr[r]; k < rowptr[r + 1]; k++)`, a sparse
// row; `i < params->count`) moves to the preheader first (LICM would, but
// only later), as does the header's arithmetic on values from outside the
// loop (`i < x + size.x`, a vector argument's element read in the test):
// the count is then computable, and the loop does not poll. A
// loop of
// the kernel's that WorkGroupLoops runs in lockstep across the work-items (a
// divergent `while`) polls once per round, outside its work-item loops.
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-stop-poll"

using namespace llvm;

LOCKSTEP_STATISTIC(NumPolls, "Loops that poll the launch's stop word");
LOCKSTEP_STATISTIC(NumBoundsHoisted, "Loops whose count became computable once their header's invariants moved out");

static cl::opt<bool> Polls("lockstep-stop-polls", cl::init(true),
                           cl::desc("Loops without a computable trip count poll the launch's stop word"));

namespace lockstep::compiler {
namespace {

// Moves the loads of `loop`'s header from addresses the loop does not change
// to its preheader, where nothing in the loop may write what they read:
// whenever the preheader runs, the header runs next and makes them; and the
// arithmetic of the header on values from outside the loop. Returns whether
// one moved.
bool hoistHeaderInvariants(Loop &loop, AAResults &AA, ScalarEvolution &evolution) {
  BasicBlock *preheader = loop.getLoopPreheader();
  if (!preheader) return false;
  SmallVector<Instruction *, 8> writes;
  for (BasicBlock *block : loop.blocks())
    for (Instruction &I : *block)
      if (I.mayWriteToMemory()) writes.push_back(&I);
  bool moved = false;
  for (Instruction &I : make_early_inc_range(*loop.getHeader())) {
    // Arithmetic on values from outside the loop (`x + size.x`, the
    // element of a vector argument that C reads in the loop's test).
    bool hoisted = false;
    if (!isa<PHINode>(I) && !I.mayReadOrWriteMemory() && !I.isTerminator() &&
        loop.makeLoopInvariant(&I, hoisted, preheader->getTerminator(), nullptr, &evolution) && hoisted) {
      evolution.forgetValue(&I);
      moved = true;
      continue;
    }
    auto *load = dyn_cast<LoadInst>(&I);
    if (load && load->isSimple()) {
      MemoryLocation location = MemoryLocation::get(load);
      bool changed = false;
      if (none_of(writes, [&](Instruction *W) { return isModSet(AA.getModRefInfo(W, location)); }) &&
          loop.makeLoopInvariant(load->getPointerOperand(), changed, preheader->getTerminator(), nullptr,
                                 &evolution)) {
        // Scalar evolution keeps what it found of the load inside the loop.
        evolution.forgetValue(load);
        load->moveBefore(preheader->getTerminator());
        moved = true;
        continue;
      }
    }
    // Past an instruction that may not go on to the next, a load may not
    // run earlier.
    if (!isGuaranteedToTransferExecutionToSuccessor(&I)) break;
  }
  return moved;
}

}  // namespace

PreservedAnalyses StopPollPass::run(Module &M, ModuleAnalysisManager &analyses) {
  if (!Polls) return PreservedAnalyses::all();
  FunctionAnalysisManager &functions = analyses.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  LLVMContext &context = M.getContext();
  FunctionCallee stop = M.getOrInsertFunction(kStopGroupSymbol, FunctionType::get(Type::getVoidTy(context), false));
  if (auto *callee = dyn_cast<Function>(stop.getCallee())) {
    callee->setDoesNotThrow();
    // It longjmps to runCheckedGroup, a point of the call stack that holds
    // this call: that is `willreturn` to LLVM, which then takes the poll for
    // one that passes control on. Without it, a poll in a loop made LICM
    // keep every store there (a strip's accumulators, Strips.cpp).
    callee->setWillReturn();
    callee->addFnAttr(Attribute::Cold);
    callee->setOnlyAccessesInaccessibleMemory();
  }
  bool changed = false;
  // Every version of a work-group function (WorkGroup/KernelVersions.cpp: the
  // kernel and the copies it calls for narrow groups and rows) polls.
  SmallPtrSet<const Function *, 8> polling;
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasFnAttribute(kWorkGroupCodeAttr)) continue;
    LoopInfo &loops = functions.getResult<LoopAnalysis>(F);
    ScalarEvolution &evolution = functions.getResult<ScalarEvolutionAnalysis>(F);
    // The loops that poll, each with its latches.
    SmallVector<std::pair<BasicBlock *, SmallVector<BasicBlock *, 4>>, 8> polled;
    bool hoisted = false;
    for (Loop *loop : loops.getLoopsInPreorder()) {
      if (!isa<SCEVCouldNotCompute>(evolution.getBackedgeTakenCount(loop))) continue;
      if (hoistHeaderInvariants(*loop, functions.getResult<AAManager>(F), evolution)) {
        hoisted = true;
        evolution.forgetLoop(loop);
        evolution.forgetLoopDispositions();
        if (!isa<SCEVCouldNotCompute>(evolution.getBackedgeTakenCount(loop))) {
          ++NumBoundsHoisted;
          continue;
        }
      }
      SmallVector<BasicBlock *, 4> latches;
      loop->getLoopLatches(latches);
      polled.push_back({loop->getHeader(), std::move(latches)});
    }
    if (polled.empty()) {
      if (hoisted) {
        functions.invalidate(F, PreservedAnalyses::none());
        changed = true;
      }
      continue;
    }
    IRBuilder<> entry(F.getEntryBlock().getTerminator());
    Value *word = loadGroupInfo(entry, F.getArg(kGroupInfoParam), kStop);
    word->setName("stop.word");
    if (auto *load = dyn_cast<Instruction>(word)) scopeAsKernelMemory(*load);
    for (auto &[header, latches] : polled) {
      // One block all of the loop's back edges go through (every edge from
      // a latch, a switch's several cases too), the header's phis merged
      // there.
      BasicBlock *back = SplitBlockPredecessors(header, latches, ".back");
      back->setName("stop.poll");
      IRBuilder<> builder(back->getTerminator());
      LoadInst *flag = builder.CreateAlignedLoad(builder.getInt32Ty(), word, Align(4), "stop");
      flag->setAtomic(AtomicOrdering::Monotonic);
      scopeAsKernelMemory(*flag);
      Value *stopping = builder.CreateICmpNE(flag, builder.getInt32(0));
      Instruction *then = SplitBlockAndInsertIfThen(stopping, &*builder.GetInsertPoint(), false,
                                                    MDBuilder(context).createUnlikelyBranchWeights());
      then->getParent()->setName("stop.group");
      IRBuilder<>(then).CreateCall(stop);
      ++NumPolls;
    }
    polling.insert(&F);
    functions.invalidate(F, PreservedAnalyses::none());
    changed = true;
  }
  // The runtime watches a kernel's launches when the kernel, or a version it
  // calls (a version may call another), polls.
  for (bool grew = true; grew;) {
    grew = false;
    for (Function &F : M) {
      if (F.isDeclaration() || !F.hasFnAttribute(kWorkGroupCodeAttr) || polling.count(&F)) continue;
      for (Instruction &I : instructions(F))
        if (auto *call = dyn_cast<CallInst>(&I); call && polling.count(call->getCalledFunction())) {
          polling.insert(&F);
          grew = true;
          break;
        }
    }
  }
  for (Function &F : M)
    if (F.hasFnAttribute(kKernelNameAttr) && polling.count(&F)) F.addFnAttr(kStopPollsAttr);
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

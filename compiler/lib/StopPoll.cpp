// StopPollPass: a work-group function can be stopped in a loop that might
// never end.
//
// A kernel stuck in a loop (waiting for a flag no one sets, a convergence
// test that never holds) would keep its launch, and clFinish, waiting for
// ever. The runtime's watchdog (runtime/exec/Watchdog.cpp) sets the word
// GroupInfo::stop points to when a launch runs past LOCKSTEP_KERNEL_TIMEOUT;
// this pass makes the loops that could run for ever look at it.
//
// After the work-group passes, every loop of a work-group function whose
// backedge-taken count scalar evolution cannot compute gets, at the top of
// its header:
//
//   %stop = load atomic i32, ptr %stop.word monotonic
//   br (%stop != 0), label %stop.group, label %rest   (weights: unlikely)
// stop.group:
//   call void @__lockstep_stop_group()               ; leaves the group
//
// The call (CheckReports.cpp) longjmps out of the group, which the launcher
// runs through runCheckedGroup for such kernels; to the IR it touches only
// memory the kernel cannot see, so loads may still leave the loop. Loops
// with a computable trip count end by themselves and are left alone: the
// work-item loops (a group's size bounds them), and the loops a kernel runs
// a counted number of times, whose work-item loops still widen. A loop of
// the kernel's that WorkGroupLoops runs in lockstep across the work-items (a
// divergent `while`) polls once per round, outside its work-item loops.
#include <llvm/ADT/Statistic.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include "Internal.h"

#define DEBUG_TYPE "lockstep-stop-poll"

using namespace llvm;

STATISTIC(NumPolls, "Loops that poll the launch's stop word");

static cl::opt<bool> Polls("lockstep-stop-polls", cl::init(true),
                           cl::desc("Loops without a computable trip count poll the launch's stop word"));

namespace lockstep::compiler {

PreservedAnalyses StopPollPass::run(Module &M, ModuleAnalysisManager &analyses) {
  if (!Polls) return PreservedAnalyses::all();
  FunctionAnalysisManager &functions = analyses.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  LLVMContext &context = M.getContext();
  FunctionCallee stop = M.getOrInsertFunction(kStopGroupSymbol, FunctionType::get(Type::getVoidTy(context), false));
  if (auto *callee = dyn_cast<Function>(stop.getCallee())) {
    callee->setDoesNotThrow();
    callee->addFnAttr(Attribute::Cold);
    callee->setOnlyAccessesInaccessibleMemory();
  }
  bool changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasFnAttribute(kKernelNameAttr)) continue;
    LoopInfo &loops = functions.getResult<LoopAnalysis>(F);
    ScalarEvolution &evolution = functions.getResult<ScalarEvolutionAnalysis>(F);
    SmallVector<BasicBlock *, 8> headers;
    for (Loop *loop : loops.getLoopsInPreorder())
      if (isa<SCEVCouldNotCompute>(evolution.getBackedgeTakenCount(loop))) headers.push_back(loop->getHeader());
    if (headers.empty()) continue;
    IRBuilder<> entry(F.getEntryBlock().getTerminator());
    Value *word = loadGroupInfo(entry, F.getArg(kGroupInfoParam), kStop);
    word->setName("stop.word");
    for (BasicBlock *header : headers) {
      IRBuilder<> builder(&*header->getFirstInsertionPt());
      LoadInst *flag = builder.CreateAlignedLoad(builder.getInt32Ty(), word, Align(4), "stop");
      flag->setAtomic(AtomicOrdering::Monotonic);
      Value *stopping = builder.CreateICmpNE(flag, builder.getInt32(0));
      Instruction *then = SplitBlockAndInsertIfThen(stopping, &*builder.GetInsertPoint(), false,
                                                    MDBuilder(context).createUnlikelyBranchWeights());
      then->getParent()->setName("stop.group");
      IRBuilder<>(then).CreateCall(stop);
      ++NumPolls;
    }
    F.addFnAttr(kStopPollsAttr);
    functions.invalidate(F, PreservedAnalyses::none());
    changed = true;
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

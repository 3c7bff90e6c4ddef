// CleanupSwitchesPass, in the prepare pipeline before the kernel wrapper: a
// function that holds a switch whose default is unreachable runs
// SimplifyCFG.
//
// Clang leaves `continue` or `break` out of a scope with locals (`int v =
// in[i + k]; if (v & 1) continue;`) as a store of a destination number to a
// cleanup slot and, where the paths meet, a switch on it whose default is
// `unreachable`. Once SROA has made the slot a phi of constants, the switch
// is still a loop exit that is no branch: LoopCuts (which wants every exit a
// branch) left such a loop whole, and scalar evolution, which sees the
// unreachable block as an exit, found no trip count, so the loop ran scalar
// inside the work-item loop (a sum over 32 elements that skips odd ones: 7
// GB/s, PoCL 78). SimplifyCFG threads the switch into branches.
//
// Only such functions: SimplifyCFG also threads other branches on phis of
// constants, `while (k < n && f(z))`'s among them, which turns a loop's one
// exiting block into two, and mandelbrot's masked loop ran slower that way
// (62 against 80 Mpixel/s in alternating runs). Before the wrapper, whose
// prologue block SimplifyCFG would merge into the body.
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>

#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-cleanup-switches"

using namespace llvm;

static cl::opt<bool> Enabled("lockstep-cleanup-switches", cl::init(true), cl::Hidden,
                             cl::desc("Simplify the CFG of functions with switches whose default is unreachable"));

LOCKSTEP_STATISTIC(NumFunctionsSimplified, "Functions with cleanup switches whose CFG was simplified");

namespace lockstep::compiler {

PreservedAnalyses CleanupSwitchesPass::run(Function &F, FunctionAnalysisManager &analyses) {
  if (!Enabled) return PreservedAnalyses::all();
  bool found = any_of(instructions(F), [](Instruction &I) {
    auto *switchInst = dyn_cast<SwitchInst>(&I);
    return switchInst && isa<UnreachableInst>(switchInst->getDefaultDest()->getFirstNonPHIOrDbg());
  });
  if (!found) return PreservedAnalyses::all();
  ++NumFunctionsSimplified;
  return SimplifyCFGPass().run(F, analyses);
}

}  // namespace lockstep::compiler

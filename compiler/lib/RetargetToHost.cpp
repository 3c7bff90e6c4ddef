// RetargetToHostPass, first of the optimize pipeline: the work-group passes
// work on spir64 IR; a prepared module (or a part of one) becomes the host's
// before -O3, which tunes for the CPU the functions name.
//
// The module gets the target machine's triple and data layout; every
// function and call the C calling convention (SPIR's is spir_func), and
// every definition the machine's target-cpu and target-features, with a
// vector width that suits its kind of kernel:
//
//   straight-line kernels on Zen    "prefer-vector-width"="256"
//   kernels with loops on AVX-512   "prefer-vector-width"="512"
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Debug.h>
#include <llvm/Target/TargetMachine.h>

#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"
#include "TargetInfo.h"

#define DEBUG_TYPE "lockstep-retarget-to-host"

using namespace llvm;

LOCKSTEP_STATISTIC(NumNarrowed, "Straight-line kernels that prefer 256-bit vectors (Zen)");
LOCKSTEP_STATISTIC(NumWidened, "Kernels with loops that prefer 512-bit vectors (AVX-512)");

namespace lockstep::compiler {

PreservedAnalyses RetargetToHostPass::run(Module &M, ModuleAnalysisManager &) {
  M.setTargetTriple(machine.getTargetTriple().str());
  M.setDataLayout(machine.createDataLayout());
  LLVM_DEBUG(dbgs() << "retargeting to " << machine.getTargetTriple().str() << ", " << machine.getTargetCPU()
                    << "\n");
  for (Function &F : M) {
    F.setCallingConv(CallingConv::C);
    for (User *user : F.users())
      if (auto *call = dyn_cast<CallBase>(user)) call->setCallingConv(CallingConv::C);
    if (F.isDeclaration()) continue;
    F.addFnAttr("target-cpu", machine.getTargetCPU());
    F.addFnAttr("target-features", machine.getTargetFeatureString());
    // Zen 4 runs 512-bit vectors as two 256-bit halves; a kernel that only
    // streams through memory (vector_add, triad: loads, a little
    // arithmetic, a store) moves 10-20% more bytes per second with 256-bit
    // accesses there (bench/, 5 alternating rounds, 4 of 5 won each).
    // Kernels with loops keep the full width, which they need (sgemm_tiled
    // runs a third slower at 256 bits).
    if (F.hasFnAttribute(kStraightLineAttr) && isZen(machine)) {
      F.addFnAttr("prefer-vector-width", "256");
      ++NumNarrowed;
    }
    // LLVM prefers 256-bit vectors on Intel's server cores (Skylake-SP to
    // Sapphire Rapids), against the clock drop of 512-bit instructions. For
    // kernels with loops the full width wins by far: on 16 Sapphire Rapids
    // cores sgemm_naive ran 2.4x, sgemm_tiled and stencil 1.4x, transpose
    // 1.25x and mandelbrot 1.2x faster with it (A/B, same library, 3 rounds).
    else if (!F.hasFnAttribute(kStraightLineAttr) && hasAvx512(machine)) {
      F.addFnAttr("prefer-vector-width", "512");
      ++NumWidened;
    }
  }
  return PreservedAnalyses::none();
}

}  // namespace lockstep::compiler

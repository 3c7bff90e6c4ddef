// VectorMathCallersPass, after -O3: a call that passes 512-bit vectors passes
// them in zmm registers only where the caller may use them. A kernel tuned
// for 256-bit vectors (straight-line kernels on Zen 4, RetargetToHostPass)
// would split them into two ymm registers, against the ABI of libmvec's
// AVX-512 variants (`_ZGVe...`, VectorMath.cpp) that the loop vectorizer
// calls: each function that calls one gets "min-legal-vector-width"="512".
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Module.h>

#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-vector-math-callers"

using namespace llvm;

LOCKSTEP_STATISTIC(NumCalls, "Calls of libmvec's AVX-512 variants whose caller was marked");

namespace lockstep::compiler {

PreservedAnalyses VectorMathCallersPass::run(Module &M, ModuleAnalysisManager &) {
  bool changed = false;
  for (Function &callee : M) {
    if (!callee.isDeclaration() || !callee.getName().starts_with("_ZGVe")) continue;
    for (User *user : callee.users())
      if (auto *call = dyn_cast<CallBase>(user)) {
        call->getFunction()->addFnAttr("min-legal-vector-width", "512");
        ++NumCalls;
        changed = true;
      }
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

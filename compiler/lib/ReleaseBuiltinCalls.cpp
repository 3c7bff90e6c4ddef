// ReleaseBuiltinCallsPass, first of the prepare pipeline, once the builtins
// are linked: takes back what the frontend's -fno-builtin put on the program
// where Lockstep wants LLVM to know the calls.
//
// -fno-builtin keeps Clang from treating OpenCL names as C library ones; the
// "no-builtins" attribute it leaves on every function would stop the inliner
// from merging builtins into the work-group functions, and goes. The builtins'
// calls of the math functions that libmvec has accurate vector variants of
// (expf, erff: VectorMath.cpp) lose their nobuiltin and convergent marks, so
// that the vectorizer may replace them (releaseMathCalls).
#include <llvm/IR/Module.h>

#include "Internal.h"
#include "Passes.h"

#define DEBUG_TYPE "lockstep-release-builtin-calls"

using namespace llvm;

namespace lockstep::compiler {

PreservedAnalyses ReleaseBuiltinCallsPass::run(Module &M, ModuleAnalysisManager &) {
  for (Function &F : M) F.removeFnAttr("no-builtins");
  releaseMathCalls(M);
  return PreservedAnalyses::none();
}

}  // namespace lockstep::compiler

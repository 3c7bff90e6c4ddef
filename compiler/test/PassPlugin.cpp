// Loads Lockstep's passes into LLVM's `opt` for the IR tests:
//   opt -load-pass-plugin=LockstepPasses.so -passes=lockstep-work-group-loops
// (every name in compiler/lib/Passes.def, the pipelines lockstep-prepare<...>
// and lockstep-optimize<...> too)
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>

#include "Internal.h"
#include "Passes.h"

extern "C" __attribute__((visibility("default"))) llvm::PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "LockstepPasses", "0.1",
          [](llvm::PassBuilder &builder) { lockstep::compiler::registerLockstepPasses(builder); }};
}

// From a linked OpenCL program module to host machine code: link the
// builtins (BuiltinLinking.cpp), run the prepare pipeline, which forms the
// work-group functions (PassPipeline.cpp), then cut the module into parts
// (ModuleParts.cpp) that each run the optimize pipeline, which retargets
// them from spir64 to the host and runs LLVM's -O3 (whose loop vectorizer
// widens the innermost work-item loops), and compile to object files in
// parallel (CodeEmission.cpp).
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/StandardInstrumentations.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/IPO/FunctionAttrs.h>

#include "Backend.h"
#include "Internal.h"
#include "PassPipeline.h"
#include "Passes.h"

using namespace llvm;

namespace lockstep::compiler {
namespace {

struct Analyses {
  // `library`, when given, replaces the target library info the builder
  // would make (it must outlive the analyses).
  explicit Analyses(PassBuilder &builder, const TargetLibraryInfoImpl *library = nullptr) {
    if (library) functions.registerPass([library] { return TargetLibraryAnalysis(*library); });
    builder.registerModuleAnalyses(modules);
    builder.registerCGSCCAnalyses(sccs);
    builder.registerFunctionAnalyses(functions);
    builder.registerLoopAnalyses(loops);
    builder.crossRegisterProxies(loops, functions, sccs, modules);
  }
  LoopAnalysisManager loops;
  FunctionAnalysisManager functions;
  CGSCCAnalysisManager sccs;
  ModuleAnalysisManager modules;
};

}  // namespace

void addCheckFlags(Module &M, const FrontendOptions &options) {
  if (options.checkBarriers && !M.getModuleFlag(kCheckBarriersAttr))
    M.addModuleFlag(Module::Warning, kCheckBarriersAttr, 1);
  if (options.checkBounds && !M.getModuleFlag(kCheckBoundsAttr))
    M.addModuleFlag(Module::Warning, kCheckBoundsAttr, 1);
}

bool prepareModule(Module &M, const FrontendOptions &options, std::string &log) {
  loadMathLibrary();
  if (!checkNoRecursion(M, log) || !linkBuiltins(M, log) || !checkUndefined(M, log)) return false;
  addCheckFlags(M, options);
  PipelineOptions pipeline = hostPipelineOptions(options.checkBounds, options.optDisable);
  if (dumpRequested("input")) {
    // The pipelines that go on from here, as `opt` runs them (for a
    // program compiled in one part; -vector-library=LIBMVEC-X86 stands in
    // for VectorMath.cpp's variants of the math builtins).
    PipelineOptions optimize = hostPipelineOptions(M.getModuleFlag(kCheckBoundsAttr) != nullptr, options.optDisable);
    dumpModule(M, "input",
               "wg: opt -load-pass-plugin=LockstepPasses.so -passes='" + pipelineName("lockstep-prepare", pipeline) +
                   "'\nfinal: opt -load-pass-plugin=LockstepPasses.so -mtriple=" +
                   hostTargetMachine().getTargetTriple().str() + " -passes='" +
                   pipelineName("lockstep-optimize", optimize) + "' on wg");
  }
  PassBuilder builder(&hostTargetMachine());
  registerLockstepPasses(builder);
  Analyses analyses(builder);
  ModulePassManager passes = buildPreparePipeline(pipeline);
  passes.run(M, analyses.modules);
  dumpModule(M, "wg");
  std::string problems;
  raw_string_ostream stream(problems);
  if (verifyModule(M, &stream)) {
    log += "internal error: invalid IR after the work-group passes:\n" + problems;
    return false;
  }
  return true;
}

void deferVersionCalls(Module &M) {
  PassBuilder builder(&hostTargetMachine());
  Analyses analyses(builder);
  ModulePassManager passes;
  // What each version does with its parameters, while the kernels still
  // call the versions directly: DeferVersionsPass puts it on the calls.
  passes.addPass(createModuleToPostOrderCGSCCPassAdaptor(PostOrderFunctionAttrsPass()));
  passes.addPass(DeferVersionsPass());
  passes.run(M, analyses.modules);
}

void optimizeModule(Module &M, const FrontendOptions &options) {
  TargetMachine &machine = hostTargetMachine();
  // LLVM's pass instrumentation, so that LOCKSTEP_LLVM_OPTIONS's
  // -print-after-all, -print-changed or -time-passes see this pipeline.
  PassInstrumentationCallbacks instrumentation;
  StandardInstrumentations standard(M.getContext(), /*DebugLogging=*/false);
  PassBuilder builder(&machine, optimizeTuning(), std::nullopt, &instrumentation);
  registerLockstepPasses(builder);
  // The math builtins' vector variants (VectorMath.cpp), for the vectorizer.
  TargetLibraryInfoImpl library(machine.getTargetTriple());
  library.addVectorizableFunctions(vectorMathMappings());
  Analyses analyses(builder, &library);
  standard.registerCallbacks(instrumentation, &analyses.modules);
  PipelineOptions pipeline = hostPipelineOptions(M.getModuleFlag(kCheckBoundsAttr) != nullptr, options.optDisable);
  ModulePassManager passes = buildOptimizePipeline(builder, machine, pipeline);
  passes.run(M, analyses.modules);
  dumpModule(M, "final");
}

}  // namespace lockstep::compiler

// The two pipelines a build runs (PassPipeline.cpp): prepare, on the linked
// spir64 module, makes every kernel's work-group function; optimize, on the
// prepared module or a part of one, makes it the host's and runs -O3 with
// the passes around it. `opt -load-pass-plugin=LockstepPasses.so
// -passes='lockstep-prepare<...>'` (or lockstep-optimize<...>) runs the same
// (PassRegistry.cpp).
#pragma once

#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>

#include <string>

namespace llvm {
class TargetMachine;
}

namespace lockstep::compiler {

// What the pipelines depend on besides the module; each is a parameter of
// the pipelines' names for `opt` (`lockstep-prepare<check-bounds;
// fold-narrow-rows;vector-bits=256>`, `lockstep-optimize<check-bounds;O1>`).
struct PipelineOptions {
  bool checkBounds = false;     // LOCKSTEP_CHECK_BOUNDS (the module flag kCheckBoundsAttr)
  bool foldNarrowRows = false;  // KernelVersionsPass's (targets with AVX-512)
  unsigned vectorBits = 512;    // the target's vector registers (hostVectorBits)
  bool optDisable = false;      // -cl-opt-disable: -O1 instead of -O3
};

// The options for this host and build.
PipelineOptions hostPipelineOptions(bool checkBounds, bool optDisable);

// How `opt` names `pipeline` (lockstep-prepare or lockstep-optimize) with
// these options: "lockstep-prepare<fold-narrow-rows;vector-bits=512>".
std::string pipelineName(llvm::StringRef pipeline, const PipelineOptions &options);

llvm::ModulePassManager buildPreparePipeline(const PipelineOptions &options);
// The part of it that makes the work-group functions, for `opt`
// (lockstep-work-group<fold-narrow-rows;vector-bits=N>).
llvm::ModulePassManager buildWorkGroupPipeline(const PipelineOptions &options);

// The tuning the optimize pipeline's PassBuilder must be made with.
llvm::PipelineTuningOptions optimizeTuning();
// The optimize pipeline for `machine`, built by `builder` (made with
// optimizeTuning(); the pipeline adds its passes to the vectorizer's part
// of -O3 through the builder's callbacks, so a builder builds it once).
llvm::ModulePassManager buildOptimizePipeline(llvm::PassBuilder &builder, llvm::TargetMachine &machine,
                                              const PipelineOptions &options);

}  // namespace lockstep::compiler

// The pass pipelines of a build, in the order they run.
//
// Prepare (prepareModule), on the program linked with the builtins, still
// spir64: the kernels become work-group functions `void wg(args, group,
// local, context)` that run a whole work-group, with the work-items in
// loops the vectorizer can widen.
//
// Optimize (compilePart), on the prepared module or a part of one: the code
// becomes the host's, LLVM's -O3 runs with Lockstep's passes at its
// vectorizer's start, and the passes that rewrite what the vectorizer made
// run after it.
//
// Both are made of passes only (Passes.def names them all), so `opt
// -load-pass-plugin=LockstepPasses.so -passes='lockstep-prepare<...>'` or
// `'lockstep-optimize<...>'` runs what a build runs (PassRegistry.cpp).
#include "PassPipeline.h"

#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>
#include <llvm/Transforms/IPO/Internalize.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Utils/LCSSA.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>

#include "Internal.h"
#include "Passes.h"

using namespace llvm;

namespace lockstep::compiler {

PipelineOptions hostPipelineOptions(bool checkBounds, bool optDisable) {
  return {checkBounds, hasAvx512(hostTargetMachine()), hostVectorBits(), optDisable};
}

ModulePassManager buildPreparePipeline(const PipelineOptions &options) {
  ModulePassManager passes;
  passes.addPass(ReleaseBuiltinCallsPass());
  passes.addPass(ImageTypeLoweringPass());
  passes.addPass(ImageSpecializationPass());
  passes.addPass(PrintfLoweringPass());
  passes.addPass(DeviceEnqueueLoweringPass());
  // Loops left by `continue` and `break` out of scopes with locals: their
  // cleanup switches become branches (CleanupSwitches.cpp).
  passes.addPass(createModuleToFunctionPassAdaptor(CleanupSwitchesPass()));
  passes.addPass(KernelWrapperPass());
  // Only the work-group functions are called from outside; the rest may go.
  passes.addPass(InternalizePass([](const GlobalValue &value) {
    auto *F = dyn_cast<Function>(&value);
    return F && F->hasFnAttribute(kKernelNameAttr);
  }));
  passes.addPass(GlobalDCEPass());
  FunctionPassManager simplify;
  simplify.addPass(SROAPass(SROAOptions::ModifyCFG));
  simplify.addPass(EarlyCSEPass(true));
  simplify.addPass(InstCombinePass());
  // Loops over private arrays unroll now, so that the arrays become values
  // before the work-group loops would keep them in memory per work-item.
  simplify.addPass(PrivateArrayLoopsPass());
  // Arrays still indexed by values: an element each, selects, values.
  simplify.addPass(PrivateArraySelectsPass());
  simplify.addPass(SROAPass(SROAOptions::ModifyCFG));
  passes.addPass(createModuleToFunctionPassAdaptor(std::move(simplify)));
  // On the kernels' own accesses and work-item calls: before the bounds
  // checks add theirs, and the work-item functions become GroupInfo reads.
  passes.addPass(GroupShapePass());
  // Before the work-item functions become GroupInfo reads: its reports ask
  // for the global id.
  if (options.checkBounds) passes.addPass(BoundsCheckPass());
  passes.addPass(FlattenDivRemIndicesPass());
  // After the simplification, so that nothing sinks the uniform values
  // these passes compute in the prologue back into the body.
  passes.addPass(WorkItemBuiltinsPass());
  passes.addPass(LocalMemoryLayoutPass());
  passes.addPass(buildWorkGroupPipeline(options));
  passes.addPass(WorkItemLoopFlattenPass());
  passes.addPass(WorkItemLoopSplitPass());
  passes.addPass(SafeIntegerDivisionPass());
  passes.addPass(StopPollPass());
  return passes;
}

// The work-group functions: the versions of each kernel cloned, their loops
// cut, each made a function of the whole group, and the kernel's prologue
// made to pick a version (WorkGroup/PhaseMarkers.h).
ModulePassManager buildWorkGroupPipeline(const PipelineOptions &options) {
  ModulePassManager passes;
  passes.addPass(KernelVersionsPass(options.foldNarrowRows));
  passes.addPass(LoopCutsPass(options.vectorBits));
  passes.addPass(WorkGroupLoopsPass(options.vectorBits));
  passes.addPass(VersionDispatchPass());
  return passes;
}

PipelineTuningOptions optimizeTuning() {
  PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  return tuning;
}

ModulePassManager buildOptimizePipeline(PassBuilder &builder, TargetMachine &machine,
                                        const PipelineOptions &options) {
  ModulePassManager passes;
  passes.addPass(RetargetToHostPass(machine));
  // Before -O3's ArgumentPromotion loads a small callee's pointer arguments
  // at its call sites, outside the work-item loops' access groups.
  passes.addPass(PointerCallInliningPass());
  // Bounds checking: loops whose checks hold throughout run a copy without
  // them (the settled branches fold away here), before -O3 and again at the
  // vectorizer's start.
  if (options.checkBounds) {
    FunctionPassManager versioning;
    versioning.addPass(LoopSimplifyPass());
    versioning.addPass(LCSSAPass());
    versioning.addPass(BoundsCheckVersioningPass());
    versioning.addPass(SimplifyCFGPass());
    passes.addPass(createModuleToFunctionPassAdaptor(std::move(versioning)));
  }
  // Before the first LICM, which would hoist the image built-ins' descriptor
  // loads out of their conditions by dropping their invariance.
  builder.registerPeepholeEPCallback(
      [](FunctionPassManager &passes, OptimizationLevel) { passes.addPass(InvariantLoadHoistingPass()); });
  builder.registerVectorizerStartEPCallback([checkBounds = options.checkBounds](FunctionPassManager &passes,
                                                                               OptimizationLevel) {
    // The loop vectorizer widens only scalar instructions: vector values of
    // work-group code split into scalars first.
    passes.addPass(ScalarizeWorkGroupCodePass());
    passes.addPass(InstCombinePass());
    // Before the interior copies: in a run the column is a recurrence, whose
    // clamps InteriorVersioning drops.
    passes.addPass(DivisionRunsPass());
    passes.addPass(InteriorVersioningPass());
    // After the interior copies. Run first, it let InteriorVersioning
    // produce wrong results (ClampedIndices.BlurOfRowsWithBorderTests,
    // BarrierSelects.PathfinderMatchesTheHost); not yet explained, so the
    // interior parts, whose bounds their row computes, keep their
    // extensions.
    passes.addPass(WideIndicesPass());
    if (checkBounds) {
      passes.addPass(BoundsCheckVersioningPass());
      passes.addPass(SimplifyCFGPass());
    }
    passes.addPass(UniformDivisionPass());
    passes.addPass(SpreadLoopsPass());
    passes.addPass(WorkItemInnerUnrollPass());
    // Before WorkItemJam, which takes the loops it leaves (or their copies).
    passes.addPass(WorkItemOuterVectorizePass());
    passes.addPass(WorkItemJamPass());
    // Last: SimplifyCFG would make the chains switches again.
    passes.addPass(WorkItemSwitchLoweringPass());
    passes.addPass(GuardedUniformLoadsPass());
    passes.addPass(UniformAtomicAggregationPass());
    passes.addPass(NarrowGathersPass());
  });
  passes.addPass(builder.buildPerModuleDefaultPipeline(options.optDisable ? OptimizationLevel::O1
                                                                          : OptimizationLevel::O3));
  // On what the vectorizer made.
  passes.addPass(createModuleToFunctionPassAdaptor(UniformVectorPhisPass()));
  passes.addPass(GuardedUniformLoadsLoweringPass());
  passes.addPass(UniformAtomicAggregationLoweringPass());
  passes.addPass(NarrowGathersLoweringPass());
  passes.addPass(MaskedMemoryGuardsPass());
  passes.addPass(SpacedAccessesPass());
  passes.addPass(StridedRunPrefetchPass());
  passes.addPass(NextTripPrefetchPass());
  passes.addPass(NextGroupPrefetchPass());
  passes.addPass(StreamingStoresPass());
  passes.addPass(VectorMathCallersPass());
  passes.addPass(LocalAtomicLoweringPass());
  passes.addPass(GlobalAtomicCombiningPass());
  return passes;
}

}  // namespace lockstep::compiler

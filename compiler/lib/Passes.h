// Lockstep's passes (LLVM's new pass manager), one declaration each, defined
// in the file named for the pass. PassPipeline.cpp puts them in order;
// Passes.def names them for `opt` and the pass instrumentation.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/IR/PassManager.h>

namespace llvm {
class PassBuilder;
class TargetMachine;
}  // namespace llvm

namespace lockstep::compiler {

// Before the kernel wrapper: a function with a switch whose default is
// unreachable (the front end's cleanup slot for `continue` and `break` out of
// a scope) runs SimplifyCFG, which makes it branches.
struct CleanupSwitchesPass : llvm::PassInfoMixin<CleanupSwitchesPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

// Wraps each kernel into `void wg(args, group, local, context)` that unpacks the
// argument block, and inlines the kernel and everything that (transitively)
// uses barriers or work-item functions into it.
struct KernelWrapperPass : llvm::PassInfoMixin<KernelWrapperPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// Bounds checking (LOCKSTEP_CHECK_BOUNDS): every load, store, atomic and
// memory intrinsic of a work-group function whose address comes from a
// buffer argument, a __local argument or variable, or a program-scope
// variable is checked against that object's size; outside it, the access
// is skipped and the kernel reports (BoundsCheck.cpp).
struct BoundsCheckPass : llvm::PassInfoMixin<BoundsCheckPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// Calls of a kernel's versions go through slots that a build may leave
// empty, to compile the version at its first call (DeferVersions.cpp).
struct DeferVersionsPass : llvm::PassInfoMixin<DeferVersionsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// Loops whose trip count scalar evolution cannot compute poll
// GroupInfo::stop and leave the group when the runtime sets it
// (StopPoll.cpp).
struct StopPollPass : llvm::PassInfoMixin<StopPollPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// Copies loop nests whose bounds checks can be decided before them (offsets
// linear in the trip numbers) and runs the copy, without the checks, when
// all hold (BoundsCheckVersioning.cpp).
struct BoundsCheckVersioningPass : llvm::PassInfoMixin<BoundsCheckVersioningPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

// Records the shape of work-group that suits each kernel's accesses (rows
// or columns) and whether the kernel can observe the shape of its groups
// (GroupShape.cpp).
struct GroupShapePass : llvm::PassInfoMixin<GroupShapePass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// Replaces work-item functions in work-group functions with reads of the
// GroupInfo and the local-id placeholder.
struct WorkItemBuiltinsPass : llvm::PassInfoMixin<WorkItemBuiltinsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// Lays out kernel-scope __local variables in each work-group function's
// local memory block.
struct LocalMemoryLayoutPass : llvm::PassInfoMixin<LocalMemoryLayoutPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// The work-group passes, in their order (WorkGroup/PhaseMarkers.h says what
// each leaves for the next). KernelVersionsPass clones each kernel into the
// versions it may run as: with `foldNarrowRows` (targets with masked vector
// memory access: AVX-512), a straight-line kernel gets one for groups
// narrower than a vector loop's step, whose work-item loops the vectorizer
// runs with masked tails.
struct KernelVersionsPass : llvm::PassInfoMixin<KernelVersionsPass> {
  explicit KernelVersionsPass(bool foldNarrowRows = false) : foldNarrowRows(foldNarrowRows) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  bool foldNarrowRows;
};

// Cuts uniform kernel loops at the top of their body with a barrier of its
// own, and peels or masks those whose trip count differs between
// work-items, so that the work-item loops move inside them.
struct LoopCutsPass : llvm::PassInfoMixin<LoopCutsPass> {
  explicit LoopCutsPass(unsigned vectorBits = 512) : vectorBits(vectorBits) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  unsigned vectorBits;  // the target's vector register width
};

// Cuts work-group functions at barriers into regions and wraps each region in
// loops over the work-items of the group.
struct WorkGroupLoopsPass : llvm::PassInfoMixin<WorkGroupLoopsPass> {
  explicit WorkGroupLoopsPass(unsigned vectorBits = 512) : vectorBits(vectorBits) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  unsigned vectorBits;  // the target's vector register width
};

// Makes each kernel call the version that suits its group's width.
struct VersionDispatchPass : llvm::PassInfoMixin<VersionDispatchPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// Turns printf calls into calls of the runtime formatter with a typed
// argument record (PrintfRecord.h).
// Device-side enqueue: enqueue_kernel and the get_kernel_* queries become
// calls of the runtime that name the block kernel (DeviceEnqueueLowering.cpp).
struct DeviceEnqueueLoweringPass : llvm::PassInfoMixin<DeviceEnqueueLoweringPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

struct PrintfLoweringPass : llvm::PassInfoMixin<PrintfLoweringPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// Guards integer divisions against the x86 traps (division by zero,
// INT_MIN / -1) that OpenCL C does not have.
struct SafeIntegerDivisionPass : llvm::PassInfoMixin<SafeIntegerDivisionPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// Before the work-group passes: `a[X / N][X % N]` on an [N x T] row becomes
// `a[0][X]`, so the vectorizer sees a consecutive access.
struct FlattenDivRemIndicesPass : llvm::PassInfoMixin<FlattenDivRemIndicesPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// Before the work-group passes: fully unrolls the loops of a few constant
// rounds, with no barrier or other convergent call, that index a private
// array (`float acc[8]; for (w = 0; w < 8; w++) acc[w] += ...`), so that
// the array, once every index is a constant, becomes values (SROA) instead
// of memory the work-group loops keep per work-item.
struct PrivateArrayLoopsPass : llvm::PassInfoMixin<PrivateArrayLoopsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

// Before the work-group passes, after PrivateArrayLoopsPass: a small private
// array indexed by a value becomes a variable per element, read and written
// at the value through selects, so that SROA makes it values.
struct PrivateArraySelectsPass : llvm::PassInfoMixin<PrivateArraySelectsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

// Before the loop vectorizer: a load of an address a work-item loop does not
// change, under a work-item condition, becomes a call the vectorizer widens
// through masked vector variants (MemoryAccess/GuardedUniformLoads.cpp).
struct GuardedUniformLoadsPass : llvm::PassInfoMixin<GuardedUniformLoadsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

// After -O3, before MaskedMemoryGuardsPass: GuardedUniformLoadsPass's calls
// become loads again, the widened ones masked gathers of one address.
struct GuardedUniformLoadsLoweringPass : llvm::PassInfoMixin<GuardedUniformLoadsLoweringPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// Before the loop vectorizer: a relaxed atomic add of a value and at an
// address a work-item loop does not change, whose result is used, becomes a
// call the vectorizer widens (MemoryAccess/UniformAtomicAggregation.cpp).
struct UniformAtomicAggregationPass : llvm::PassInfoMixin<UniformAtomicAggregationPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

// After -O3: UniformAtomicAggregationPass's widened calls become one atomic
// add of the active lanes' total and each lane's rank; scalar ones the
// atomics they were.
struct UniformAtomicAggregationLoweringPass : llvm::PassInfoMixin<UniformAtomicAggregationLoweringPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// Before the loop vectorizer: a loop of a few constant rounds inside a
// work-item loop is unrolled whole, so the work-item loop widens
// (WorkItemInnerUnroll.cpp).
struct WorkItemInnerUnrollPass : llvm::PassInfoMixin<WorkItemInnerUnrollPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

// Before the loop vectorizer: a work-item loop around a nest of kernel loops
// whose trip counts the work-items share is marked to be widened as an
// outer loop, where its accesses stay close across the work-items (copied
// under a check where that distance is known at run time)
// (WorkItemOuterVectorize.cpp).
struct WorkItemOuterVectorizePass : llvm::PassInfoMixin<WorkItemOuterVectorizePass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

// After -O3: vector phis whose lanes always agree (the inner counters of an
// outer-widened loop), and the arithmetic on them, become scalars and
// splats (UniformVectorPhis.cpp).
struct UniformVectorPhisPass : llvm::PassInfoMixin<UniformVectorPhisPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

// Before -O3: work-item loops' calls of functions that take pointers to
// shared memory are inlined, their accesses in the loop's access group
// (PointerCallInlining.cpp).
struct PointerCallInliningPass : llvm::PassInfoMixin<PointerCallInliningPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// Before the loop vectorizer: a work-item loop's load of a byte or halfword
// from an address computed from data becomes a call the vectorizer widens
// (MemoryAccess/NarrowGathers.cpp).
struct NarrowGathersPass : llvm::PassInfoMixin<NarrowGathersPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

// After -O3: NarrowGathersPass's widened calls gather the 32-bit words that
// hold the lanes' elements; scalar ones are loads again.
struct NarrowGathersLoweringPass : llvm::PassInfoMixin<NarrowGathersLoweringPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// After -O3: puts masked gathers and scatters behind a test of their mask,
// and turns those of one address into scalar accesses.
struct MaskedMemoryGuardsPass : llvm::PassInfoMixin<MaskedMemoryGuardsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// After MaskedMemoryGuardsPass: a gather or scatter whose active lanes are
// 1, 2, 4 or 8 elements apart runs, when a check of its lanes finds it so,
// as masked vector loads and shuffles (or shuffles and masked stores).
struct SpacedAccessesPass : llvm::PassInfoMixin<SpacedAccessesPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// After -O3: prefetches the short runs that a loop reads each time round an
// outer loop when the outer loop jumps far (a grid-stride loop's rounds, the
// rows of a 2-D group), a few outer iterations ahead.
struct StridedRunPrefetchPass : llvm::PassInfoMixin<StridedRunPrefetchPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// After -O3: a load that jumps far each trip of its loop (a tile's rows)
// prefetches what it reads on the next trip of an outer loop that holds other
// loops too (a tile loop's regions).
struct NextTripPrefetchPass : llvm::PassInfoMixin<NextTripPrefetchPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// Global loads and stores of small tiled groups prefetch what they touch a
// few groups later along x (MemoryAccess/NextGroupPrefetch.cpp).
struct NextGroupPrefetchPass : llvm::PassInfoMixin<NextGroupPrefetchPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// In -O3 after the inliner: invariant loads at a constant offset from a
// pointer dereferenceable where it is defined (image descriptors) move to
// that definition, one load per field, out of every loop.
struct InvariantLoadHoistingPass : llvm::PassInfoMixin<InvariantLoadHoistingPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

// Before the loop vectorizer: a work-item loop that stores through a uint
// index whose step only the run knows gets a scalar copy with 64-bit
// indices, run when the step is more than 2 elements and no index wraps.
struct SpreadLoopsPass : llvm::PassInfoMixin<SpreadLoopsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

// Before the loop vectorizer: a division or remainder in a loop by a divisor
// the loop does not change becomes a multiplication by its reciprocal,
// computed before the loop, which widens where a division does not.
struct UniformDivisionPass : llvm::PassInfoMixin<UniformDivisionPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

// Before the loop vectorizer: a work-item loop around one kernel loop that
// carries a chain the vectorizer cannot widen (a float sum in program order)
// is unrolled and jammed, so one trip of the kernel loop steps several
// work-items' chains.
struct WorkItemJamPass : llvm::PassInfoMixin<WorkItemJamPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

// Last before the loop vectorizer: a switch of a few cases in a work-item
// loop becomes a chain of equality tests and branches, which the vectorizer
// if-converts (it leaves any loop with a switch scalar).
struct WorkItemSwitchLoweringPass : llvm::PassInfoMixin<WorkItemSwitchLoweringPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

// Before the loop vectorizer: a work-item loop that clamps indices of the
// work-item (`clamp(x + dx, 0, width - 1)`) gets a copy without the clamps,
// for runs whose work-items lie inside every clamp's range.
// Before the loop vectorizer: a work-item loop that divides its ids by a
// divisor it does not change (`x = gid % width`, `y = gid / width`) runs in
// runs of work-items that share the quotient, where the remainder is
// consecutive.
struct DivisionRunsPass : llvm::PassInfoMixin<DivisionRunsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

struct InteriorVersioningPass : llvm::PassInfoMixin<InteriorVersioningPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

// Before the loop vectorizer: a nest of work-item loops whose indices extend
// 32-bit arithmetic gets a copy with the arithmetic in 64 bits, affine in
// the work-item loops, run when a check before the nest finds no index
// leaves the 32-bit range.
struct WideIndicesPass : llvm::PassInfoMixin<WideIndicesPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

// After -O3: in straight-line kernels, a second copy of a loop that stores
// whole vectors to consecutive global addresses, with non-temporal stores,
// for launches that store more than the caches keep, when aligned.
struct StreamingStoresPass : llvm::PassInfoMixin<StreamingStoresPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// After the work-group loops, before the split: runs the rows and columns
// of work-items of a region that sees only their linear local id
// (`ly * 16 + lx`) as one loop over it.
struct WorkItemLoopFlattenPass : llvm::PassInfoMixin<WorkItemLoopFlattenPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// After the work-group loops: splits a work-item loop where a test of the
// local id against a uniform value (`lid < n`, `lid == 0`) changes, so each
// part runs only what its work-items do.
struct WorkItemLoopSplitPass : llvm::PassInfoMixin<WorkItemLoopSplitPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// First of all, once the builtins are linked: image and sampler types become
// a descriptor pointer and CLK_* bits (ImageAbi.h); constant samplers and the
// builtins' accessors fold away (ImageTypeLowering.cpp).
struct ImageTypeLoweringPass : llvm::PassInfoMixin<ImageTypeLoweringPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};
// On a module from the SPIR-V translator, before the builtins are linked:
// its samplers (pointers) take Clang's type where builtins and kernel
// arguments meet them (Spirv/SpirvSamplers.cpp).
struct SpirvSamplersPass : llvm::PassInfoMixin<SpirvSamplersPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};
// Right after it: the kernels !lockstep.specialize names assume their image
// arguments' formats and take their sampler arguments' bits
// (ImageSpecialization.cpp); requestSpecialization (Internal.h) adds such a
// request.
struct ImageSpecializationPass : llvm::PassInfoMixin<ImageSpecializationPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// First of the prepare pipeline: drops the frontend's -fno-builtin marks
// where Lockstep wants LLVM to know the calls (ReleaseBuiltinCalls.cpp).
struct ReleaseBuiltinCallsPass : llvm::PassInfoMixin<ReleaseBuiltinCallsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// First of the optimize pipeline: the module becomes `machine`'s (triple,
// data layout, calling convention, target-cpu and vector width).
struct RetargetToHostPass : llvm::PassInfoMixin<RetargetToHostPass> {
  explicit RetargetToHostPass(llvm::TargetMachine &machine) : machine(machine) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  llvm::TargetMachine &machine;
};

// Before the loop vectorizer: work-group code whose vectors are narrower
// than a register is split into scalars, which widen across work-items.
struct ScalarizeWorkGroupCodePass : llvm::PassInfoMixin<ScalarizeWorkGroupCodePass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

// After -O3: the callers of libmvec's AVX-512 variants may pass zmm
// registers ("min-legal-vector-width"="512").
struct VectorMathCallersPass : llvm::PassInfoMixin<VectorMathCallersPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// After -O3: atomics on __local memory, which one thread runs for the whole
// group, become plain loads and stores.
struct LocalAtomicLoweringPass : llvm::PassInfoMixin<LocalAtomicLoweringPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// After the local atomics: global atomic adds that a kernel's work-items
// never read back go through the thread's AtomicCombiner (GroupAbi.h).
struct GlobalAtomicCombiningPass : llvm::PassInfoMixin<GlobalAtomicCombiningPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// Registers the passes above and the pipelines by name, from Passes.def
// ("lockstep-kernel-wrapper", "lockstep-prepare<...>", ...).
void registerLockstepPasses(llvm::PassBuilder &builder);

}  // namespace lockstep::compiler

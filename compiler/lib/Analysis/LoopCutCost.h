// LoopCutCost: what the work-group loops weigh before cutting a kernel loop
// (LoopCuts.cpp) or peeling and masking one (FewRounds.cpp, MaskedLoops.cpp).
//
// A cut at the top of a uniform kernel loop moves the work-item loop inside
// it, so the vectorizer widens the kernel loop's body across work-items; it
// costs the values the loop carries, kept per work-item in the context
// between rounds. These functions answer whether a loop's calls allow a cut,
// how its exit test reads, whether its accesses already run along the loop
// (so the work-item order would make them gathers), whether it makes
// atomics (so it would not widen masked either), what its code comes to
// once -O3 has inlined it, and whether it stays whole because -O3 unrolls it
// or because a cut would cost more than it gives.
#pragma once

#include <llvm/IR/InstrTypes.h>

#include <cstdint>
#include <optional>

namespace llvm {
class BasicBlock;
class CallBase;
class ConstantInt;
class Function;
class Loop;
class ScalarEvolution;
class Value;
template <typename PtrType> class SmallPtrSetImpl;
}  // namespace llvm

namespace lockstep::compiler {

// A call a loop with a cut may make: an intrinsic, or a function of the
// program or the builtins that calls only such (within `depth` levels), or
// a bounds check's report. Not printf's formatter, nor any function outside, nor a barrier or collective
// (declarations all). Clang marks every OpenCL call convergent, since any
// function might hold a barrier; looking inside answers that.
bool mayCallInLoopCut(const llvm::CallBase &call, unsigned depth);

// A loop header's exit test of a value against one computed before the
// loop, read as "the loop goes on while `counter` `stay` `bound`" (the
// predicate inverted when the test's true side leaves, swapped when the
// bound is on the left).
struct HeaderExit {
  llvm::Value *counter;
  llvm::Value *bound;
  llvm::CmpInst::Predicate stay;
};
std::optional<HeaderExit> headerExit(llvm::Loop *loop);

// The same, against a constant.
struct BoundedExit {
  llvm::Value *counter;
  llvm::ConstantInt *bound;
  llvm::CmpInst::Predicate stay;
};
std::optional<BoundedExit> boundedExit(llvm::Loop *loop);

// Whether `loop` makes an atomic read-modify-write, itself or in a function
// of the program or the builtins it calls (within four levels). The loop
// vectorizer widens no loop with one: __local atomics become plain
// read-modify-writes only after -O3 (LocalAtomicLoweringPass).
bool makesAtomics(const llvm::Loop &loop);

// Whether the accesses of `loop` run along it (consecutive from one round to
// the next) and none across the work-items (consecutive from one local id to
// the next): cut, the work-item order would turn them into gathers.
bool favoursWorkItemOrder(llvm::Loop *loop, llvm::ScalarEvolution &evolution,
                          const llvm::SmallPtrSetImpl<const llvm::Value *> &divergent);

// Whether some load or store of `loop` runs across the work-items, moving
// with the loop (`data[i]` in `for (i = gid; i < n; i += get_global_size(0))`):
// with the work-item loop inside the loop the group streams through such
// memory; with the loop whole inside the work-item loop each work-item
// strides through it a round at a time, one cache line a round, and a
// stride of a power of two puts every line in one cache set.
bool runsAcrossWorkItems(llvm::Loop *loop, llvm::ScalarEvolution &evolution,
                         const llvm::SmallPtrSetImpl<const llvm::Value *> &divergent);

// Whether masking `loop`, whose rounds differ between the work-items, would buy
// nothing but gathers: every load and store that moves with the loop has an
// address that is neither the same for the work-items nor a known step of at
// most a cache line apart across them (`val[j]` in `for (j = rowStart[row] +
// lane; j < rowEnd[row]; j += width)`, whose start comes from memory), and a
// round does little arithmetic besides (at most
// `-lockstep-masked-arithmetic-per-gather` lanes per such access). Masked, each
// round would gather those accesses across the group and keep each work-item's
// counters, bounds and sums in the context between rounds; whole, each
// work-item runs its rounds in registers. An escape loop (no memory) or a loop
// that streams across the work-items is masked as before.
bool gathersWhenMasked(llvm::Loop *loop, llvm::ScalarEvolution &evolution,
                       const llvm::SmallPtrSetImpl<const llvm::Value *> &divergent, unsigned vectorBits);

// What a loop's or a kernel's code comes to once -O3 has inlined the calls
// in it (the builtins are calls still, and a kernel's helpers), a call to a
// function with a body counted as that body, a few levels deep: about how
// many instructions (phis, casts and address arithmetic, mostly free, left
// out, as in the unroller's cost), how many lanes of arithmetic, whether it
// touches memory, whether it has vector values, and whether any of them
// fills a register.
struct CodeSummary {
  uint64_t size = 0;
  uint64_t arithmeticLanes = 0;
  bool memory = false;
  bool vectors = false;
  bool fullWidthVectors = false;
};
CodeSummary summarizeFunction(const llvm::Function &F, unsigned vectorBits);
CodeSummary summarizeLoop(const llvm::Loop &loop, unsigned vectorBits);

// Whether a uniform loop of `trips` rounds (a small constant) stays whole
// inside its work-item loop rather than being cut. One that -O3 will unroll
// whole (few small rounds, or a `#pragma unroll` with no count or one that
// covers every round, under the pragma's limit) becomes straight-line code,
// which widens without a cut (and a cut would keep it from unrolling). One
// that stays a loop keeps its work-item loop from widening, so it is cut if
// it is arithmetic on values it carries in registers: clpeak's float8
// kernel, 16 rounds of 16 mads on 8 lanes, ran at a tenth of its float4
// kernel's rate whole. One that works on memory is left whole: its values
// stay in registers across its rounds, where a cut would store and load them
// between rounds (CLBlast's Xgemm, whose inner loop of 16 rounds reads
// __local tiles into a private accumulator, ran at 0.55-0.7x cut).
bool keepsWhole(llvm::Loop *loop, unsigned trips, unsigned vectorBits);

}  // namespace lockstep::compiler

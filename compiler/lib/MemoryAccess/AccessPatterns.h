// What the memory-access passes (MemoryAccess/) share: the address spaces
// they look at, the operands of masked gathers and scatters, the lanes of a
// vector of addresses as element positions, and the walks over a module's
// instructions and loops.
#pragma once

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/PassManager.h>

#include <optional>

namespace lockstep::compiler {

inline constexpr unsigned kGlobalAddressSpace = 1, kConstantAddressSpace = 2;

// The instructions of type T in F that `keep` accepts, collected before a
// rewrite splits blocks or adds instructions.
template <typename T, typename Keep>
llvm::SmallVector<T *, 16> collect(llvm::Function &F, Keep keep) {
  llvm::SmallVector<T *, 16> found;
  for (llvm::BasicBlock &BB : F)
    for (llvm::Instruction &I : BB)
      if (auto *typed = llvm::dyn_cast<T>(&I); typed && keep(*typed)) found.push_back(typed);
  return found;
}

inline bool isGather(const llvm::IntrinsicInst &call) {
  return call.getIntrinsicID() == llvm::Intrinsic::masked_gather;
}
inline bool isScatter(const llvm::IntrinsicInst &call) {
  return call.getIntrinsicID() == llvm::Intrinsic::masked_scatter;
}

// The operands of a masked gather or scatter, which the two intrinsics put
// in different places.
struct MaskedAccess {
  bool gather;
  unsigned pointerOperand;  // the vector of addresses
  llvm::Value *pointers;
  llvm::Value *mask;
  llvm::Align align;
  llvm::FixedVectorType *type;  // of the values loaded or stored

  explicit MaskedAccess(llvm::IntrinsicInst *call)
      : gather(isGather(*call)),
        pointerOperand(gather ? 0 : 1),
        pointers(call->getArgOperand(pointerOperand)),
        mask(call->getArgOperand(gather ? 2 : 3)),
        align(llvm::cast<llvm::ConstantInt>(call->getArgOperand(gather ? 1 : 2))->getMaybeAlignValue().valueOrOne()),
        type(llvm::cast<llvm::FixedVectorType>(gather ? call->getType() : call->getArgOperand(0)->getType())) {}
};

// The lanes of `gep T, base, index` (a scalar base, one vector index) as
// element positions: the index with its extension peeled off, and how the
// GEP widens it to its index width. Lanes at consecutive or evenly spaced
// narrow positions are so in the wide ones too only if the narrow values do
// not wrap around between them; `noWrap` compares a lane with an earlier
// one (`later >= earlier`, unsigned for a zero-extended index), and is empty
// for an index as wide as the GEP's.
struct LaneIndex {
  llvm::GetElementPtrInst *gep;
  llvm::Value *narrow;
  std::optional<llvm::ICmpInst::Predicate> noWrap;
  unsigned bits;  // the GEP's index width

  // The address of the element at `scalar` (a narrow position), or `delta`
  // elements from it.
  llvm::Value *address(llvm::IRBuilder<> &builder, llvm::Value *scalar,
                       std::optional<int64_t> delta = std::nullopt) const;
};

// `pointers` as a LaneIndex; none if it is not such a GEP, or its index is
// wider than the GEP's.
std::optional<LaneIndex> laneIndex(llvm::Value *pointers, const llvm::DataLayout &layout);

// How far `S` moves when something moves by one step (a loop's trip, a
// group id), or null: sums, products with what does not move, and integer
// casts (seen through: a signed `int` index's sum need not be known not to
// wrap for a prefetch, which only needs to be near); `still(E)` says E does
// not move, `leaf(E)` answers for any other expression that does (an
// induction, the moving value itself; null: unknown).
const llvm::SCEV *movementOf(const llvm::SCEV *S, llvm::ScalarEvolution &SE,
                             llvm::function_ref<bool(const llvm::SCEV *)> still,
                             llvm::function_ref<const llvm::SCEV *(const llvm::SCEV *)> leaf);

// A prefetch of `address` (for writing if `write`; locality 3: the
// first-level cache, 2: the second), at `builder`.
void emitPrefetch(llvm::IRBuilder<> &builder, llvm::Value *address, bool write, unsigned locality);
// A prefetch of `pointer` + `bytes`, just before `access`.
void prefetchAhead(llvm::Instruction *access, llvm::Value *pointer, llvm::Value *bytes, bool write,
                   unsigned locality, const llvm::Twine &name);

// Runs `transform(F, loops, dominators, scalar evolution)` on every function
// of the module, dropping a function's analyses when it changed it.
template <typename Transform>
llvm::PreservedAnalyses runOnLoops(llvm::Module &M, llvm::ModuleAnalysisManager &analyses, Transform transform) {
  llvm::FunctionAnalysisManager &functions =
      analyses.getResult<llvm::FunctionAnalysisManagerModuleProxy>(M).getManager();
  bool changed = false;
  for (llvm::Function &F : M) {
    if (F.isDeclaration()) continue;
    bool here = transform(F, functions.getResult<llvm::LoopAnalysis>(F),
                          functions.getResult<llvm::DominatorTreeAnalysis>(F),
                          functions.getResult<llvm::ScalarEvolutionAnalysis>(F));
    if (here) functions.invalidate(F, llvm::PreservedAnalyses::none());
    changed |= here;
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

// FlattenDivRemIndicesPass, before the work-group passes: `tile[i / W][i % W]`
// (a 2-D __local tile filled through a linear index, as GPU code does) is
// `tile[0][i]`, but no LLVM pass sees it once the quotient and the remainder
// are extended to 64 bits for the address. The vectorizer then takes the
// access for a scatter; flattened, it is a consecutive store.
//
// In IR: `gep S, p, i0, ..., X / N, X % N, rest`, where the second of the
// pair indexes an [N x T], is `gep T, (gep S, p, i0, ...), X, rest`, since
// (X / N) * N + X % N == X in C's division, signed or not. The quotient and
// the remainder may each be extended, alike, to the index width.
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Debug.h>

#include "Internal.h"
#include "MemoryAccess/AccessPatterns.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-flatten-div-rem-indices"

using namespace llvm;

LOCKSTEP_STATISTIC(NumFlattened, "Addresses whose X / N, X % N index pair became X");

namespace lockstep::compiler {
namespace {

// X, if `index` is X / divisor (or its extension) and `pair` X % divisor
// (extended alike), signed or unsigned alike.
Value *divRemSource(Value *index, Value *pair, uint64_t divisor) {
  auto strip = [](Value *V, unsigned &ext) {
    if (auto *cast = dyn_cast<CastInst>(V); cast && (isa<SExtInst>(cast) || isa<ZExtInst>(cast))) {
      ext = cast->getOpcode();
      return cast->getOperand(0);
    }
    ext = 0;
    return V;
  };
  unsigned ext1, ext2;
  auto *quotient = dyn_cast<BinaryOperator>(strip(index, ext1));
  auto *remainder = dyn_cast<BinaryOperator>(strip(pair, ext2));
  if (!quotient || !remainder || ext1 != ext2) return nullptr;
  bool isSigned = quotient->getOpcode() == Instruction::SDiv;
  if (!(isSigned ? remainder->getOpcode() == Instruction::SRem
                 : quotient->getOpcode() == Instruction::UDiv && remainder->getOpcode() == Instruction::URem))
    return nullptr;
  // A signed pair widened by zext (or the reverse) is not the same number.
  if (ext1 && (ext1 == Instruction::SExt) != isSigned) return nullptr;
  Value *X = quotient->getOperand(0);
  if (remainder->getOperand(0) != X) return nullptr;
  auto *c1 = dyn_cast<ConstantInt>(quotient->getOperand(1));
  auto *c2 = dyn_cast<ConstantInt>(remainder->getOperand(1));
  if (!c1 || !c2 || c1->getZExtValue() != divisor || c2->getZExtValue() != divisor) return nullptr;
  return X;
}

// Rewrites `gep S, p, i0, ..., X / N, X % N, rest` where the second of the
// pair indexes an [N x T]: (X / N) * N + X % N == X in C's division, signed
// or not, so it is `gep T, (gep S, p, i0, ...), X, rest`.
bool flattenGep(GetElementPtrInst *gep) {
  SmallVector<Value *, 8> indices(gep->indices());
  // What indices[k + 1] indexes into; indices[k] steps over such objects.
  Type *indexed = gep->getSourceElementType();
  for (size_t k = 0; k + 1 < indices.size(); ++k) {
    auto *array = dyn_cast<ArrayType>(indexed);
    if (!array) return false;  // a struct or a vector: the walk stops here
    if (Value *X = divRemSource(indices[k], indices[k + 1], array->getNumElements())) {
      LLVM_DEBUG(dbgs() << "flattening index pair " << k << " of " << *gep << "\n");
      IRBuilder<> builder(gep);
      Value *prefix = gep->getPointerOperand();
      if (k > 0)
        prefix = builder.CreateGEP(gep->getSourceElementType(), prefix, ArrayRef(indices).take_front(k), "",
                                   gep->isInBounds());
      Type *indexType = indices[k + 1]->getType();
      Value *flat = X;
      if (X->getType() != indexType)
        flat = isa<SExtInst>(indices[k + 1]) ? builder.CreateSExt(X, indexType) : builder.CreateZExt(X, indexType);
      SmallVector<Value *, 8> rest{flat};
      rest.append(indices.begin() + k + 2, indices.end());
      Value *flattened = builder.CreateGEP(array->getElementType(), prefix, rest, "", gep->isInBounds());
      flattened->takeName(gep);
      gep->replaceAllUsesWith(flattened);
      gep->eraseFromParent();
      ++NumFlattened;
      return true;
    }
    indexed = array->getElementType();
  }
  return false;
}

}  // namespace

PreservedAnalyses FlattenDivRemIndicesPass::run(Module &M, ModuleAnalysisManager &) {
  bool changed = false;
  for (Function &F : M) {
    for (GetElementPtrInst *gep : collect<GetElementPtrInst>(F, [](auto &) { return true; }))
      changed |= flattenGep(gep);
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

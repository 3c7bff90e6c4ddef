// The lanes of a vector of addresses as element positions (AccessPatterns.h).
#include "MemoryAccess/AccessPatterns.h"

#include <llvm/Analysis/ScalarEvolutionExpressions.h>

#include <llvm/IR/DataLayout.h>

using namespace llvm;

namespace lockstep::compiler {

Value *LaneIndex::address(IRBuilder<> &builder, Value *scalar, std::optional<int64_t> delta) const {
  Type *wideType = builder.getIntNTy(bits);
  Value *wide = noWrap == ICmpInst::ICMP_UGE ? builder.CreateZExt(scalar, wideType)
                                             : builder.CreateSExtOrTrunc(scalar, wideType);
  if (delta) wide = builder.CreateAdd(wide, ConstantInt::get(wideType, *delta, true));
  return builder.CreateGEP(gep->getSourceElementType(), gep->getPointerOperand(), wide);
}

void emitPrefetch(IRBuilder<> &builder, Value *address, bool write, unsigned locality) {
  Function *prefetch =
      Intrinsic::getDeclaration(builder.GetInsertBlock()->getModule(), Intrinsic::prefetch, {address->getType()});
  builder.CreateCall(prefetch, {address, builder.getInt32(write), builder.getInt32(locality), builder.getInt32(1)});
}

void prefetchAhead(Instruction *access, Value *pointer, Value *bytes, bool write, unsigned locality,
                   const Twine &name) {
  IRBuilder<> builder(access);
  emitPrefetch(builder, builder.CreateGEP(builder.getInt8Ty(), pointer, bytes, name), write, locality);
}

const SCEV *movementOf(const SCEV *S, ScalarEvolution &SE, function_ref<bool(const SCEV *)> still,
                       function_ref<const SCEV *(const SCEV *)> leaf) {
  if (still(S)) return SE.getZero(S->getType());
  if (auto *cast = dyn_cast<SCEVIntegralCastExpr>(S)) {
    const SCEV *inner = movementOf(cast->getOperand(), SE, still, leaf);
    return inner ? SE.getTruncateOrSignExtend(inner, S->getType()) : nullptr;
  }
  if (auto *add = dyn_cast<SCEVAddExpr>(S)) {
    const SCEV *sum = SE.getZero(S->getType());
    for (const SCEV *operand : add->operands()) {
      const SCEV *moved = movementOf(operand, SE, still, leaf);
      if (!moved) return nullptr;
      sum = SE.getAddExpr(sum, SE.getTruncateOrSignExtend(moved, S->getType()));
    }
    return sum;
  }
  if (auto *mul = dyn_cast<SCEVMulExpr>(S)) {
    const SCEV *factor = nullptr, *moved = nullptr;
    for (const SCEV *operand : mul->operands()) {
      if (still(operand)) {
        factor = factor ? SE.getMulExpr(factor, operand) : operand;
      } else if (moved) {
        return nullptr;  // a product of two things that move
      } else {
        moved = movementOf(operand, SE, still, leaf);
        if (!moved) return nullptr;
      }
    }
    return factor ? SE.getMulExpr(factor, SE.getTruncateOrSignExtend(moved, factor->getType())) : moved;
  }
  return leaf(S);
}

std::optional<LaneIndex> laneIndex(Value *pointers, const DataLayout &layout) {
  auto *gep = dyn_cast<GetElementPtrInst>(pointers);
  if (!gep || gep->getNumIndices() != 1 || gep->getPointerOperandType()->isVectorTy() ||
      !gep->getOperand(1)->getType()->isVectorTy())
    return std::nullopt;
  LaneIndex lanes{gep, gep->getOperand(1), std::nullopt, layout.getIndexTypeSizeInBits(gep->getType())};
  if (isa<SExtInst>(lanes.narrow) || isa<ZExtInst>(lanes.narrow)) {
    lanes.noWrap = isa<SExtInst>(lanes.narrow) ? ICmpInst::ICMP_SGE : ICmpInst::ICMP_UGE;
    lanes.narrow = cast<CastInst>(lanes.narrow)->getOperand(0);
  } else if (lanes.narrow->getType()->getScalarSizeInBits() < lanes.bits) {
    lanes.noWrap = ICmpInst::ICMP_SGE;  // a GEP sign-extends a narrower index
  }
  if (lanes.narrow->getType()->getScalarSizeInBits() > lanes.bits) return std::nullopt;  // truncated
  return lanes;
}

}  // namespace lockstep::compiler

// The lanes of a vector of addresses as element positions (AccessPatterns.h).
#include "MemoryAccess/AccessPatterns.h"

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

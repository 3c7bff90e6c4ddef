// SafeIntegerDivisionPass: OpenCL C leaves integer division by zero (and
// INT_MIN / -1) with an undefined result, not undefined behaviour: the
// kernel must go on. x86's divide instructions trap on both, so each
// division whose divisor may be zero (or -1, for signed ones) divides by a
// guarded divisor instead: 1 where the hardware would trap.
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include "Internal.h"

using namespace llvm;

namespace lockstep::compiler {
namespace {

bool isDivision(unsigned opcode) {
  return opcode == Instruction::SDiv || opcode == Instruction::UDiv || opcode == Instruction::SRem ||
         opcode == Instruction::URem;
}

// The divisor to use instead of `divisor` (per element for vectors).
Value *guardedDivisor(IRBuilder<> &builder, BinaryOperator &division) {
  Value *dividend = division.getOperand(0), *divisor = division.getOperand(1);
  Type *type = divisor->getType();
  Value *one = ConstantInt::get(type, 1);
  Value *trap = builder.CreateICmpEQ(divisor, Constant::getNullValue(type));
  bool isSigned = division.getOpcode() == Instruction::SDiv || division.getOpcode() == Instruction::SRem;
  if (isSigned) {
    unsigned bits = type->getScalarSizeInBits();
    Value *minusOne = builder.CreateICmpEQ(divisor, Constant::getAllOnesValue(type));
    Value *minimum = builder.CreateICmpEQ(dividend, ConstantInt::get(type, APInt::getSignedMinValue(bits)));
    Value *overflow = builder.CreateAnd(minusOne, minimum);
    trap = builder.CreateOr(trap, overflow);
  }
  return builder.CreateSelect(trap, one, divisor, "safe.divisor");
}

bool needsGuard(const BinaryOperator &division) {
  auto *constant = dyn_cast<Constant>(division.getOperand(1));
  if (!constant) return true;
  auto *value = dyn_cast<ConstantInt>(constant);
  if (!value) value = dyn_cast_or_null<ConstantInt>(constant->getSplatValue());
  if (value) return value->isZero() || value->isMinusOne();
  return true;
}

}  // namespace

PreservedAnalyses SafeIntegerDivisionPass::run(Module &M, ModuleAnalysisManager &) {
  bool changed = false;
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      auto *division = dyn_cast<BinaryOperator>(&I);
      if (!division || !isDivision(division->getOpcode()) || !needsGuard(*division)) continue;
      IRBuilder<> builder(division);
      division->setOperand(1, guardedDivisor(builder, *division));
      changed = true;
    }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

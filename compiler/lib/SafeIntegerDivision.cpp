// SafeIntegerDivisionPass: OpenCL C leaves integer division by zero (and
// INT_MIN / -1) with an undefined result, not undefined behaviour: the
// kernel must go on. x86's divide instructions trap on both, so each
// division whose divisor may be zero (or -1, for signed ones) divides by a
// guarded divisor instead: 1 where the hardware would trap. A signed one
// divides by 1 for -1 too and negates (x % -1 is 0; -INT_MIN wraps, as the
// undefined result may): the guard then depends on the divisor alone, so a
// divisor that a loop does not change stays one (UniformDivisionPass).
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include "Internal.h"
#include "Passes.h"

using namespace llvm;

namespace lockstep::compiler {
namespace {

// Divides by a guarded divisor (per element for vectors).
void guard(BinaryOperator &division) {
  IRBuilder<> builder(&division);
  Value *dividend = division.getOperand(0), *divisor = division.getOperand(1);
  Type *type = divisor->getType();
  Value *one = ConstantInt::get(type, 1), *zero = Constant::getNullValue(type);
  Value *trap = builder.CreateICmpEQ(divisor, zero);
  bool isSigned =
      division.getOpcode() == Instruction::SDiv || division.getOpcode() == Instruction::SRem;
  if (!isSigned) {
    division.setOperand(1, builder.CreateSelect(trap, one, divisor, "safe.divisor"));
    return;
  }
  Value *minusOne = builder.CreateICmpEQ(divisor, Constant::getAllOnesValue(type));
  division.setOperand(
      1, builder.CreateSelect(builder.CreateOr(trap, minusOne), one, divisor, "safe.divisor"));
  builder.SetInsertPoint(division.getNextNode());
  Value *byMinusOne =
      division.getOpcode() == Instruction::SRem ? zero : builder.CreateSub(zero, dividend);
  Value *result = builder.CreateSelect(minusOne, byMinusOne, &division, "safe.result");
  division.replaceUsesWithIf(result, [result](Use &use) { return use.getUser() != result; });
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
      if (!division || !division->isIntDivRem() || !needsGuard(*division)) continue;
      guard(*division);
      changed = true;
    }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

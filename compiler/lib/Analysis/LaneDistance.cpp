// LaneDistance (LaneDistance.h): neighbouring work-items' distance in a
// work-item loop.
#include "Analysis/LaneDistance.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>

#include <optional>

using namespace llvm;

namespace lockstep::compiler {
namespace {

// Operands deeper than this in one expression: unknown.
constexpr unsigned kMaxExpressionDepth = 24;

Distance scaled(Distance d, int64_t by) {
  d.scale *= by;
  return d;
}

Distance add(const Distance &a, const Distance &b, bool subtract = false) {
  if (!a.known || !b.known) return Distance::unknown();
  if (b.zero()) return a;
  if (a.zero()) return subtract ? scaled(b, -1) : b;
  if (a.factors != b.factors) return Distance::unknown();
  Distance sum = a;
  sum.scale = subtract ? a.scale - b.scale : a.scale + b.scale;
  return sum;
}

}  // namespace

Distance DistanceReader::of(Value *value, unsigned depth) {
  auto *I = dyn_cast<Instruction>(value);
  if (!I || !loop.contains(I)) return Distance::constant(0);
  if (value == &counter) return Distance::constant(1);
  if (auto found = memo.find(I); found != memo.end()) return found->second;
  if (depth > kMaxExpressionDepth) return Distance::unknown();
  memo[I] = Distance::constant(0);  // a phi's cycle: neutral
  Distance result = compute(*I, depth + 1);
  memo[I] = result;
  return result;
}

// Whether `value` is computed from `phi` within `depth` steps.
bool DistanceReader::reaches(Value *value, PHINode *phi, unsigned depth) {
  if (value == phi) return true;
  auto *I = dyn_cast<Instruction>(value);
  if (!I || !loop.contains(I) || depth == 0 || isa<PHINode>(I)) return false;
  return any_of(I->operands(), [&](Value *operand) { return reaches(operand, phi, depth - 1); });
}

Distance DistanceReader::times(const Distance &d, Value *factor) {
  if (!d.known || d.zero()) return d;
  if (auto *constant = dyn_cast<ConstantInt>(factor)) return scaled(d, constant->getSExtValue());
  if (!loop.isLoopInvariant(factor) || d.factors.size() >= 2) return Distance::unknown();
  Distance product = d;
  product.factors.push_back(factor);
  return product;
}

Distance DistanceReader::compute(Instruction &I, unsigned depth) {
  switch (I.getOpcode()) {
    case Instruction::Add:
      return add(of(I.getOperand(0), depth), of(I.getOperand(1), depth));
    case Instruction::Sub:
      return add(of(I.getOperand(0), depth), of(I.getOperand(1), depth), true);
    case Instruction::Or:
      // InstCombine's sum of operands with no bit in common (`(k << 5) | 1`,
      // an unrolled loop's index): the sum's distance.
      if (!cast<PossiblyDisjointInst>(I).isDisjoint()) return Distance::unknown();
      return add(of(I.getOperand(0), depth), of(I.getOperand(1), depth));
    case Instruction::Mul: {
      Distance a = of(I.getOperand(0), depth), b = of(I.getOperand(1), depth);
      if (b.zero()) return times(a, I.getOperand(1));
      if (a.zero()) return times(b, I.getOperand(0));
      return Distance::unknown();
    }
    case Instruction::Shl: {
      auto *amount = dyn_cast<ConstantInt>(I.getOperand(1));
      if (!amount || amount->getZExtValue() >= 32) return Distance::unknown();
      return scaled(of(I.getOperand(0), depth), int64_t(1) << amount->getZExtValue());
    }
    case Instruction::AShr:
    case Instruction::LShr: {
      // InstCombine's sign extension of an index, scaled: (x << 32) >> 30.
      auto *amount = dyn_cast<ConstantInt>(I.getOperand(1));
      auto *shifted = dyn_cast<BinaryOperator>(I.getOperand(0));
      if (!amount || !shifted || shifted->getOpcode() != Instruction::Shl)
        return Distance::unknown();
      auto *left = dyn_cast<ConstantInt>(shifted->getOperand(1));
      if (!left || left->getZExtValue() < amount->getZExtValue() ||
          left->getZExtValue() - amount->getZExtValue() >= 32)
        return Distance::unknown();
      return scaled(of(shifted->getOperand(0), depth),
                    int64_t(1) << (left->getZExtValue() - amount->getZExtValue()));
    }
    case Instruction::And: {
      // An index's zero extension, as InstCombine writes it: x & 0xffffffff.
      auto *mask = dyn_cast<ConstantInt>(I.getOperand(1));
      if (!mask || !mask->getValue().isMask() || mask->getValue().countr_one() < 16)
        return Distance::unknown();
      return of(I.getOperand(0), depth);
    }
    case Instruction::SExt:
    case Instruction::ZExt:
    case Instruction::Trunc:
      return of(I.getOperand(0), depth);
    case Instruction::GetElementPtr: {
      auto &gep = cast<GetElementPtrInst>(I);
      Distance total = of(gep.getPointerOperand(), depth);
      for (gep_type_iterator type = gep_type_begin(gep), end = gep_type_end(gep); type != end;
           ++type) {
        Distance index = of(type.getOperand(), depth);
        if (index.zero()) continue;
        if (type.isStruct()) return Distance::unknown();
        total = add(total, scaled(index, type.getSequentialElementStride(layout).getFixedValue()));
      }
      return total;
    }
    case Instruction::PHI: {
      // An inner counter: while its round's step is read, it stands for
      // its start (`i = phi [x, pre], [i + 1, latch]`: the step adds
      // nothing, so the distance is x's).
      auto &phi = cast<PHINode>(I);
      for (Value *operand : phi.incoming_values())
        if (!reaches(operand, &phi, 8)) {
          memo[&phi] = of(operand, depth);
          break;
        }
      [[fallthrough]];
    }
    case Instruction::Select: {
      // Inner counters: their starts' distance (the steps are shared);
      // merges: the inputs' when they agree.
      std::optional<Distance> agreed;
      auto operands = isa<PHINode>(I) ? cast<PHINode>(I).incoming_values()
                                      : make_range(I.op_begin() + 1, I.op_end());
      for (Value *operand : operands) {
        Distance d = of(operand, depth);
        if (!d.known) return d;
        if (!agreed)
          agreed = d;
        else if (agreed->scale != d.scale || agreed->factors != d.factors)
          return Distance::unknown();
      }
      return agreed.value_or(Distance::constant(0));
    }
    default:
      return Distance::unknown();
  }
}

}  // namespace lockstep::compiler

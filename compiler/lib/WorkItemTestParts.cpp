// WorkItemTestParts: where a test of a work-item's id against a value the
// work-items share changes its answer over a work-item loop's ids
// [0, count): the arithmetic WorkItemLoopSplitPass splits a loop by. A test
// is the loop's id, or the id plus a uniform offset (a global id, perhaps
// truncated to `int`), against a uniform bound; its parts are the ranges of
// ids on which the answer is known, and those where the test must stay (a
// sum that may wrap).
#include "WorkItemTestParts.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/PatternMatch.h>

#include "Internal.h"
#include "lockstep/compiler/GroupAbi.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace lockstep::compiler {
namespace {

Value *umin(IRBuilder<> &builder, Value *a, Value *b) {
  if (auto *constant = dyn_cast<ConstantInt>(a); constant && constant->isZero()) return a;
  return builder.CreateBinaryIntrinsic(Intrinsic::umin, a, b);
}

// `sum > bound` is !(sum <= bound), `sum >= bound` is !(sum < bound): makes
// `predicate` a less-than (or less-or-equal) test and returns what the
// original test answers where the new one holds.
bool asLessThan(CmpInst::Predicate &predicate) {
  if (predicate != ICmpInst::ICMP_UGT && predicate != ICmpInst::ICMP_UGE && predicate != ICmpInst::ICMP_SGT &&
      predicate != ICmpInst::ICMP_SGE)
    return true;
  predicate = ICmpInst::getInversePredicate(predicate);
  return false;
}

}  // namespace

// The local id along x, in some integer type: the loop's counter, a
// truncation of it to 16 bits or more, or an extension of such a truncation.
bool isWorkItemId(Value *value, PHINode *id) {
  if (value == id) return true;
  if (auto *trunc = dyn_cast<TruncInst>(value))
    return trunc->getOperand(0) == id && trunc->getType()->getIntegerBitWidth() >= 16;
  if (isa<ZExtInst>(value) || isa<SExtInst>(value)) return isWorkItemId(cast<Instruction>(value)->getOperand(0), id);
  return false;
}

// Moves `value` before the loop if it is uniform there (the kernel's
// arguments and the group's geometry are prologue values already:
// WorkGroupLoops reads them there).
bool hoistUniform(Value *value, Loop *loop) {
  bool hoisted = false;
  return loop->makeLoopInvariant(value, hoisted);
}

// `id + offset` in the type of `value`: a sum of the id (as isWorkItemId
// sees it) and terms that are uniform in the loop (hoisted before it), the
// form of a grid-stride loop's exit test `gid + round * step < n`. The
// offset is null if there is none.
bool matchIdPlusOffset(Value *value, PHINode *id, Loop *loop, Value *&offset, IRBuilder<> &before,
                       bool throughTrunc) {
  if (isWorkItemId(value, id)) {
    offset = nullptr;
    return true;
  }
  // `(int)get_global_id(0)`: a sum truncated to W >= 16 bits is the sum of
  // its terms truncated, modulo 2^W, and the id is its own truncation.
  if (auto *trunc = dyn_cast<TruncInst>(value); throughTrunc && trunc && trunc->getType()->getIntegerBitWidth() >= 16) {
    Value *inner = nullptr;
    if (!matchIdPlusOffset(trunc->getOperand(0), id, loop, inner, before) || !inner) return false;
    offset = before.CreateTrunc(inner, trunc->getType());
    return true;
  }
  auto *sum = dyn_cast<BinaryOperator>(value);
  // `id - uniform` (`get_global_id(0) - get_global_offset(0)`): the id plus
  // the uniform's negation.
  if (sum && sum->getOpcode() == Instruction::Sub) {
    Value *inner = nullptr;
    if (!hoistUniform(sum->getOperand(1), loop) ||
        !matchIdPlusOffset(sum->getOperand(0), id, loop, inner, before, throughTrunc))
      return false;
    offset = inner ? before.CreateSub(inner, sum->getOperand(1)) : before.CreateNeg(sum->getOperand(1));
    return true;
  }
  if (!sum || sum->getOpcode() != Instruction::Add) return false;
  for (unsigned side = 0; side < 2; ++side) {
    Value *term = sum->getOperand(1 - side);
    Value *inner = nullptr;
    if (!hoistUniform(term, loop) ||
        !matchIdPlusOffset(sum->getOperand(side), id, loop, inner, before, throughTrunc))
      continue;
    offset = inner ? before.CreateAdd(inner, term) : term;
    return true;
  }
  return false;
}

bool countsUpFromZero(PHINode &phi, Loop &loop) {
  BasicBlock *latch = loop.getLoopLatch(), *preheader = loop.getLoopPreheader();
  return phi.getParent() == loop.getHeader() && latch && preheader && phi.getNumIncomingValues() == 2 &&
         match(phi.getIncomingValueForBlock(preheader), m_Zero()) &&
         match(phi.getIncomingValueForBlock(latch), m_Add(m_Specific(&phi), m_One()));
}

namespace {

// The group's local size along one dimension (a load of GroupInfo's field,
// at most kMaxWorkGroupSize) or a constant row width.
bool isLocalSize(Value *value) {
  if (auto *constant = dyn_cast<ConstantInt>(value)) return constant->getValue().ule(kMaxWorkGroupSize);
  auto *load = dyn_cast<LoadInst>(value);
  if (!load) return false;
  Function *F = load->getFunction();
  if (F->arg_size() <= kGroupInfoParam) return false;
  const DataLayout &layout = F->getDataLayout();
  int64_t offset = 0;
  Value *base = GetPointerBaseWithConstantOffset(load->getPointerOperand(), offset, layout);
  if (base != F->getArg(kGroupInfoParam)) return false;
  const StructLayout *fields = layout.getStructLayout(groupInfoType(F->getContext()));
  int64_t first = int64_t(fields->getElementOffset(kLocalSize));
  return offset >= first && offset < first + 3 * 8 && (offset - first) % 8 == 0;
}

// A local id of a loop around `loop` that WorkGroupLoops made: a counter
// from 0 by 1 whose loop ends at a local size.
bool isOuterLocalId(Value *value, Loop *loop) {
  auto *phi = dyn_cast<PHINode>(value);
  if (!phi) return false;
  for (Loop *outer = loop->getParentLoop(); outer; outer = outer->getParentLoop()) {
    if (outer->getHeader() != phi->getParent()) continue;
    if (!countsUpFromZero(*phi, *outer)) return false;
    Value *next = phi->getIncomingValueForBlock(outer->getLoopLatch());
    auto *branch = dyn_cast<BranchInst>(outer->getLoopLatch()->getTerminator());
    ICmpInst::Predicate predicate;
    Value *size = nullptr;
    return branch && branch->isConditional() &&
           match(branch->getCondition(), m_ICmp(predicate, m_Specific(next), m_Value(size))) &&
           predicate == ICmpInst::ICMP_ULT && isLocalSize(size);
  }
  return false;
}

// The largest value `value` takes, if it is built of local ids, local sizes
// and small constants by additions, multiplications and shifts (never
// negative); nothing otherwise.
std::optional<uint64_t> localIdArithmeticMax(Value *value, Loop *loop, unsigned depth = 0) {
  constexpr uint64_t kLimit = uint64_t(1) << 40;
  if (depth > 8) return std::nullopt;
  if (auto *constant = dyn_cast<ConstantInt>(value)) {
    if (constant->getValue().isNegative() || constant->getValue().uge(kLimit)) return std::nullopt;
    return constant->getZExtValue();
  }
  if (isOuterLocalId(value, loop)) return kMaxWorkGroupSize - 1;
  if (isLocalSize(value)) return kMaxWorkGroupSize;
  auto *I = dyn_cast<Instruction>(value);
  if (!I) return std::nullopt;
  if (isa<ZExtInst>(I) || isa<SExtInst>(I) || isa<TruncInst>(I)) {
    std::optional<uint64_t> inner = localIdArithmeticMax(I->getOperand(0), loop, depth + 1);
    unsigned bits = std::min(I->getType()->getIntegerBitWidth(), I->getOperand(0)->getType()->getIntegerBitWidth());
    if (!inner || (bits < 64 && *inner >= (uint64_t(1) << (bits - 1)))) return std::nullopt;
    return inner;
  }
  if (I->getOpcode() != Instruction::Add && I->getOpcode() != Instruction::Mul && I->getOpcode() != Instruction::Shl &&
      I->getOpcode() != Instruction::Or)
    return std::nullopt;
  std::optional<uint64_t> a = localIdArithmeticMax(I->getOperand(0), loop, depth + 1);
  std::optional<uint64_t> b = localIdArithmeticMax(I->getOperand(1), loop, depth + 1);
  if (!a || !b) return std::nullopt;
  uint64_t result;
  switch (I->getOpcode()) {
    case Instruction::Add: result = *a + *b; break;
    case Instruction::Or: result = *a + *b; break;  // a | b <= a + b
    case Instruction::Mul: result = *a * *b; break;
    default:
      if (*b >= 24) return std::nullopt;
      result = *a << *b;
  }
  if (result >= kLimit) return std::nullopt;
  return result;
}

}  // namespace

bool isSmallLocalIdSum(Value *offset, Loop *loop, unsigned bits) {
  std::optional<uint64_t> most = localIdArithmeticMax(offset, loop);
  return most && bits >= 16 && *most + kMaxWorkGroupSize < (uint64_t(1) << (bits - 1));
}

// The parts of [0, count) on which `compare` (of the id and the uniform
// `bound`, the id on the left) is constant; empty if it is not a test this
// pass understands.
SmallVector<Part, 3> partsOf(IRBuilder<> &builder, CmpInst::Predicate predicate, Value *bound, Value *count) {
  Type *i64 = builder.getInt64Ty();
  if (bound->getType()->getIntegerBitWidth() > 64) return {};
  Value *zero = builder.getInt64(0);
  auto prefix = [&](Value *end, bool answer) -> SmallVector<Part, 3> {
    return {{zero, end, answer}, {end, count, !answer}};
  };
  if (ICmpInst::isSigned(predicate)) {
    // In [-1, count]: every test of an id in [0, count) reads the same.
    Value *wide = builder.CreateSExt(bound, i64);
    Value *clamped = builder.CreateBinaryIntrinsic(
        Intrinsic::smin, builder.CreateBinaryIntrinsic(Intrinsic::smax, wide, builder.getInt64(-1)), count);
    Value *atLeastZero = builder.CreateBinaryIntrinsic(Intrinsic::smax, clamped, zero);
    Value *past = umin(builder, builder.CreateAdd(clamped, builder.getInt64(1)), count);
    switch (predicate) {
      case ICmpInst::ICMP_SLT: return prefix(atLeastZero, true);   // x < b
      case ICmpInst::ICMP_SLE: return prefix(past, true);          // x < b + 1
      case ICmpInst::ICMP_SGT: return prefix(past, false);         // x >= b + 1
      case ICmpInst::ICMP_SGE: return prefix(atLeastZero, false);  // x >= b
      default: return {};
    }
  }
  Value *clamped = umin(builder, builder.CreateZExt(bound, i64), count);
  auto pastClamped = [&] { return umin(builder, builder.CreateAdd(clamped, builder.getInt64(1)), count); };
  switch (predicate) {
    case ICmpInst::ICMP_ULT: return prefix(clamped, true);
    case ICmpInst::ICMP_ULE: return prefix(pastClamped(), true);
    case ICmpInst::ICMP_UGT: return prefix(pastClamped(), false);
    case ICmpInst::ICMP_UGE: return prefix(clamped, false);
    case ICmpInst::ICMP_EQ:
    case ICmpInst::ICMP_NE: {
      bool equal = predicate == ICmpInst::ICMP_EQ;
      SmallVector<Part, 3> parts;
      if (auto *constant = dyn_cast<ConstantInt>(clamped); !constant || !constant->isZero())
        parts.push_back({zero, clamped, !equal});
      Value *past = pastClamped();
      parts.push_back({clamped, past, equal});
      parts.push_back({past, count, !equal});
      return parts;
    }
    default: return {};
  }
}

// The parts for `id + offset <u bound` (or <=u, or the inverse tests), in
// the test's type W: [0, T) where it holds, then the rest with the test
// kept, since a sum that wraps around 2^W may hold again. T = bound - offset
// (+1 for <=) when offset is below the bound, else 0; no id below T makes
// the sum wrap, for its sum is below the bound.
SmallVector<Part, 3> offsetPartsOf(IRBuilder<> &builder, CmpInst::Predicate predicate, Value *offset, Value *bound,
                                   Value *count) {
  auto *type = cast<IntegerType>(bound->getType());
  if (type->getBitWidth() > 64) return {};
  bool answer = asLessThan(predicate);
  Type *i64 = builder.getInt64Ty();
  bool inclusive = predicate == ICmpInst::ICMP_ULE;
  // Whether any id passes, and how many do when one does.
  Value *below = inclusive ? builder.CreateICmpULE(offset, bound) : builder.CreateICmpULT(offset, bound);
  Value *room = builder.CreateZExt(builder.CreateSub(bound, offset), i64);
  if (inclusive) {
    room = builder.CreateAdd(room, builder.getInt64(1));
    if (type->getBitWidth() == 64)  // 2^64 ids pass: the +1 wrapped to 0
      room = builder.CreateSelect(builder.CreateICmpEQ(room, builder.getInt64(0)), count, room);
  }
  Value *end = builder.CreateSelect(below, builder.CreateBinaryIntrinsic(Intrinsic::umin, room, count),
                                    builder.getInt64(0), "wi.passing");
  return {{builder.getInt64(0), end, answer}, {end, count, false, /*keepTest=*/true}};
}

// The parts for `id + offset <s bound` (or <=s, or the inverse tests) in the
// test's type W (at most 32 bits): `if (row < M)` around a kernel's body,
// `row` an `int` global id. The test holds on [0, T), T = bound - offset
// (+1 for <=) clamped to [0, count], computed in 64 bits: there the sum
// climbs from offset to at most the bound, so it cannot wrap and is the
// exact sum the test compares. The rest keeps the test (a sum past 2^(W-1)
// - 1 wraps to a negative one, which may pass again), unless the sum cannot
// wrap (`mayWrap` false: a linear local id, isSmallLocalIdSum), where the
// rest knows the other answer.
SmallVector<Part, 3> signedOffsetPartsOf(IRBuilder<> &builder, CmpInst::Predicate predicate, Value *offset,
                                         Value *bound, Value *count, bool mayWrap) {
  auto *type = cast<IntegerType>(bound->getType());
  if (type->getBitWidth() > 32) return {};
  bool answer = asLessThan(predicate);
  if (predicate != ICmpInst::ICMP_SLT && predicate != ICmpInst::ICMP_SLE) return {};
  Type *i64 = builder.getInt64Ty();
  Value *room = builder.CreateSub(builder.CreateSExt(bound, i64), builder.CreateSExt(offset, i64));
  if (predicate == ICmpInst::ICMP_SLE) room = builder.CreateAdd(room, builder.getInt64(1));
  Value *end = builder.CreateBinaryIntrinsic(
      Intrinsic::umin, builder.CreateBinaryIntrinsic(Intrinsic::smax, room, builder.getInt64(0)), count,
      nullptr, "wi.passing");
  return {{builder.getInt64(0), end, answer}, {end, count, !answer, /*keepTest=*/mayWrap}};
}

}  // namespace lockstep::compiler

// AccessSlope (AccessSlope.h): an address's slope along get_global_id(0).
#include "Analysis/AccessSlope.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>

#include <optional>

#include "Analysis/OpenCLNames.h"

using namespace llvm;

namespace lockstep::compiler {
namespace {

// Operands deeper than this in one expression: unknown.
constexpr unsigned kMaxExpressionDepth = 48;

Slope add(Slope a, Slope b, bool subtract = false) {
  if (a.kind == Slope::Unknown || b.kind == Slope::Unknown) return Slope::unknown();
  if (b.kind == Slope::Zero || b.kind == Slope::Pending) return a.kind == Slope::Pending ? Slope::zero() : a;
  if (a.kind == Slope::Zero || a.kind == Slope::Pending) {
    if (b.kind == Slope::Constant) return Slope::constant(subtract ? -b.bytes : b.bytes);
    return b;
  }
  if (a.kind == Slope::Constant && b.kind == Slope::Constant)
    return Slope::constant(subtract ? a.bytes - b.bytes : a.bytes + b.bytes);
  return Slope::symbolic();
}

Slope scale(Slope a, const Value *factor) {
  if (a.kind != Slope::Constant && a.kind != Slope::Symbolic) return a;
  if (auto *constant = dyn_cast<ConstantInt>(factor)) {
    if (a.kind == Slope::Symbolic || constant->getBitWidth() > 64) return Slope::symbolic();
    int64_t product;
    if (__builtin_mul_overflow(a.bytes, constant->getSExtValue(), &product)) return Slope::symbolic();
    return Slope::constant(product);
  }
  return Slope::symbolic();  // times a value the work-items share
}

// Two values one of which the work-item takes (a phi's incoming values, a
// select's arms): the slope both have, else unknown.
Slope merge(Slope a, Slope b) {
  if (a.kind == Slope::Pending) return b;
  if (b.kind == Slope::Pending) return a;
  return a == b ? a : Slope::unknown();
}

// The slope of a global id query along `dimension`: 1 for its own id, 0
// for the other dimensions', unknown for a dimension only the run knows (or
// none of the three); the linear id moves by 1 along x and by a row along y
// or z; none for another call.
std::optional<Slope> globalIdSlope(const CallBase &call, unsigned dimension) {
  const Function *callee = call.getCalledFunction();
  WorkItemQuery query = callee ? workItemQuery(callee->getName()) : WorkItemQuery::None;
  if (query == WorkItemQuery::GlobalLinearId) return dimension == 0 ? Slope::constant(1) : Slope::symbolic();
  if (query != WorkItemQuery::GlobalId) return std::nullopt;
  auto *dim = dyn_cast<ConstantInt>(call.getArgOperand(0));
  if (!dim || dim->getValue().uge(3)) return Slope::unknown();
  return dim->getZExtValue() == dimension ? Slope::constant(1) : Slope::zero();
}

}  // namespace

Slope SlopeReader::of(const Value *value, unsigned depth) {
  if (auto *parameter = dyn_cast<Argument>(value)) {
    auto found = parameters.find(parameter);
    return found == parameters.end() ? Slope::zero() : found->second;
  }
  auto *I = dyn_cast<Instruction>(value);
  if (!I) return Slope::zero();  // constants, globals
  if (auto found = slopes.find(I); found != slopes.end()) return found->second;
  if (depth > kMaxExpressionDepth) return Slope::unknown();
  slopes[I] = Slope{Slope::Pending, 0};
  Slope slope = compute(*I, depth + 1);
  slopes[I] = slope;
  return slope;
}

Slope SlopeReader::compute(const Instruction &I, unsigned depth) {
  if (auto *call = dyn_cast<CallBase>(&I)) {
    if (std::optional<Slope> id = globalIdSlope(*call, dimension)) return *id;
    if (auto *intrinsic = dyn_cast<IntrinsicInst>(call)) {
      switch (intrinsic->getIntrinsicID()) {
        case Intrinsic::smax:
        case Intrinsic::smin:
        case Intrinsic::umax:
        case Intrinsic::umin: {
          // A clamp at an edge: the slope of the operand that moves.
          Slope a = of(call->getArgOperand(0), depth), b = of(call->getArgOperand(1), depth);
          if (a.kind == Slope::Zero) return b;
          if (b.kind == Slope::Zero) return a;
          return merge(a, b);
        }
        default: break;
      }
    }
    if (const Function *callee = call->getCalledFunction();
        callee && !callee->isDeclaration() && !callee->getReturnType()->isVoidTy() && callDepth < kMaxCallDepth)
      return returned(*call, *callee, depth);
    return sameForAll(I, depth);
  }
  switch (I.getOpcode()) {
    case Instruction::Add: return add(of(I.getOperand(0), depth), of(I.getOperand(1), depth));
    case Instruction::Sub: return add(of(I.getOperand(0), depth), of(I.getOperand(1), depth), true);
    case Instruction::Or:
      // An `or` of disjoint bits is an add (InstCombine writes x * 2 + 1
      // so).
      if (cast<PossiblyDisjointInst>(I).isDisjoint())
        return add(of(I.getOperand(0), depth), of(I.getOperand(1), depth));
      return sameForAll(I, depth);
    case Instruction::Mul: {
      Slope a = of(I.getOperand(0), depth), b = of(I.getOperand(1), depth);
      if (b.kind == Slope::Zero) return scale(a, I.getOperand(1));
      if (a.kind == Slope::Zero) return scale(b, I.getOperand(0));
      return Slope::unknown();
    }
    case Instruction::Shl: {
      auto *amount = dyn_cast<ConstantInt>(I.getOperand(1));
      if (!amount || amount->getZExtValue() >= 62) return sameForAll(I, depth);
      return scale(of(I.getOperand(0), depth), ConstantInt::get(I.getOperand(1)->getType(), 1ull << amount->getZExtValue()));
    }
    case Instruction::AShr:
    case Instruction::LShr: {
      // (x << 32) >> 32: InstCombine's sign or zero extension of an `int`
      // index in 64 bits.
      auto *shl = dyn_cast<BinaryOperator>(I.getOperand(0));
      if (shl && shl->getOpcode() == Instruction::Shl && shl->getOperand(1) == I.getOperand(1))
        return of(shl->getOperand(0), depth);
      return sameForAll(I, depth);
    }
    case Instruction::And: {
      // x & 0xffffffff: an unsigned index's zero extension.
      auto *mask = dyn_cast<ConstantInt>(I.getOperand(1));
      if (mask && mask->getValue().isMask() && mask->getValue().countr_one() >= 16)
        return of(I.getOperand(0), depth);
      return sameForAll(I, depth);
    }
    case Instruction::SExt:
    case Instruction::ZExt:
    case Instruction::Trunc:
    case Instruction::BitCast:
    case Instruction::AddrSpaceCast:
    case Instruction::PtrToInt:
    case Instruction::IntToPtr: return of(I.getOperand(0), depth);
    case Instruction::GetElementPtr: return gep(cast<GetElementPtrInst>(I), depth);
    case Instruction::PHI: {
      Slope slope{Slope::Pending, 0};
      for (const Value *incoming : cast<PHINode>(I).incoming_values()) slope = merge(slope, of(incoming, depth));
      return slope;
    }
    case Instruction::Select: {
      // A clamp (x > 0 ? x - 1 : 0) moves as its arm that moves.
      Slope a = of(I.getOperand(1), depth), b = of(I.getOperand(2), depth);
      if (a.kind == Slope::Zero) return b;
      if (b.kind == Slope::Zero) return a;
      return merge(a, b);
    }
    default: return sameForAll(I, depth);
  }
}

Slope SlopeReader::gep(const GetElementPtrInst &gep, unsigned depth) {
  Slope slope = of(gep.getPointerOperand(), depth);
  for (gep_type_iterator it = gep_type_begin(gep), end = gep_type_end(gep); it != end; ++it) {
    if (it.isStruct()) continue;  // a constant field offset
    Slope index = of(it.getOperand(), depth);
    if (index.kind == Slope::Zero || index.kind == Slope::Pending) continue;
    uint64_t size = it.getSequentialElementStride(layout).getFixedValue();
    slope = add(slope, scale(index, ConstantInt::get(Type::getInt64Ty(gep.getContext()), size)));
  }
  return slope;
}

// What a function returns (an index helper, the builtins' max and
// clamp), its parameters bound to the slopes of the call's arguments.
Slope SlopeReader::returned(const CallBase &call, const Function &callee, unsigned depth) {
  auto [bound, moves] = bind(call, &callee, depth);
  // Of arguments every work-item shares, the same for all (a function
  // that asks for the work-item is inlined by now).
  if (!moves) return Slope::zero();
  SlopeReader inner(layout, std::move(bound), callDepth + 1, dimension);
  Slope slope{Slope::Pending, 0};
  for (const BasicBlock &block : callee)
    if (auto *ret = dyn_cast<ReturnInst>(block.getTerminator()); ret && ret->getReturnValue())
      slope = merge(slope, inner.of(ret->getReturnValue()));
  return slope.kind == Slope::Pending ? Slope::zero() : slope;
}

std::pair<ParameterSlopes, bool> SlopeReader::bind(const CallBase &call, const Function *callee, unsigned depth) {
  ParameterSlopes bound;
  bool moves = false;
  for (unsigned i = 0; i < call.arg_size(); ++i) {
    Slope slope = of(call.getArgOperand(i), depth);
    if (slope.kind == Slope::Pending) slope = Slope::zero();
    moves |= slope.moves();
    if (callee && i < callee->arg_size()) bound[callee->getArg(i)] = slope;
  }
  return {std::move(bound), moves};
}

// Anything else: the same for every work-item when its operands are (a
// load from an address the work-items share), else unknown.
Slope SlopeReader::sameForAll(const Instruction &I, unsigned depth) {
  for (const Value *operand : I.operands()) {
    Slope slope = of(operand, depth);
    if (slope.kind != Slope::Zero && slope.kind != Slope::Pending) return Slope::unknown();
  }
  return Slope::zero();
}

bool isGlobalSpace(unsigned space) { return space == 1 || space == 2 || space == 4; }

// The address of a global access of memory, or null.
const Value *globalAddress(const Instruction &I) {
  const Value *pointer = nullptr;
  if (auto *load = dyn_cast<LoadInst>(&I)) pointer = load->getPointerOperand();
  else if (auto *store = dyn_cast<StoreInst>(&I)) pointer = store->getPointerOperand();
  else if (auto *rmw = dyn_cast<AtomicRMWInst>(&I)) pointer = rmw->getPointerOperand();
  else if (auto *cmpxchg = dyn_cast<AtomicCmpXchgInst>(&I)) pointer = cmpxchg->getPointerOperand();
  return pointer && isGlobalSpace(pointer->getType()->getPointerAddressSpace()) ? pointer : nullptr;
}

}  // namespace lockstep::compiler

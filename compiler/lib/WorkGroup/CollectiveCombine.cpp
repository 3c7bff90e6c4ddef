// Between the loop nests, a collective's combine: every work-item's operand,
// read from the context, is combined per segment (the whole group, or each
// sub-group) in linear-id order, and each work-item's result is written back
// (reductions, scans, broadcasts, any/all, ballots, shuffles, rotates, the
// clustered forms, and a masked loop's count of active work-items).
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include "WorkGroup/WorkGroupLoops.h"

using namespace llvm;

namespace lockstep::compiler {
namespace {

Value *identity(IRBuilder<> &builder, Type *type, const CollectiveOp &op) {
  if (op.kind == CollectiveOp::All) return builder.getInt32(1);
  if (op.kind == CollectiveOp::Any) return builder.getInt32(0);
  bool fp = type->isFPOrFPVectorTy();
  switch (op.arith) {
    case CollectiveOp::Min:
      if (fp) return ConstantFP::getInfinity(type, false);
      return ConstantInt::get(type, op.isSigned ? APInt::getSignedMaxValue(type->getScalarSizeInBits())
                                                : APInt::getMaxValue(type->getScalarSizeInBits()));
    case CollectiveOp::Max:
      if (fp) return ConstantFP::getInfinity(type, true);
      return ConstantInt::get(type, op.isSigned ? APInt::getSignedMinValue(type->getScalarSizeInBits())
                                                : APInt::getMinValue(type->getScalarSizeInBits()));
    case CollectiveOp::Mul:
      return fp ? ConstantFP::get(type, 1.0) : ConstantInt::get(type, 1);
    case CollectiveOp::And:
      return Constant::getAllOnesValue(type);
    case CollectiveOp::LogicalAnd:
      return ConstantInt::get(type, 1);
    default:
      return Constant::getNullValue(type);
  }
}

Value *combine(IRBuilder<> &builder, const CollectiveOp &op, Value *acc, Value *value) {
  Type *type = acc->getType();
  auto truth = [&](Value *v) { return builder.CreateICmpNE(v, Constant::getNullValue(v->getType())); };
  if (op.kind == CollectiveOp::All)
    return builder.CreateZExt(builder.CreateAnd(truth(acc), truth(value)), type);
  if (op.kind == CollectiveOp::Any)
    return builder.CreateZExt(builder.CreateOr(truth(acc), truth(value)), type);
  bool fp = type->isFPOrFPVectorTy();
  switch (op.arith) {
    case CollectiveOp::Min:
      if (fp) return builder.CreateMinNum(acc, value);
      return builder.CreateBinaryIntrinsic(op.isSigned ? Intrinsic::smin : Intrinsic::umin, acc, value);
    case CollectiveOp::Max:
      if (fp) return builder.CreateMaxNum(acc, value);
      return builder.CreateBinaryIntrinsic(op.isSigned ? Intrinsic::smax : Intrinsic::umax, acc, value);
    case CollectiveOp::Mul:
      return fp ? builder.CreateFMul(acc, value) : builder.CreateMul(acc, value);
    case CollectiveOp::And:
      return builder.CreateAnd(acc, value);
    case CollectiveOp::Or:
      return builder.CreateOr(acc, value);
    case CollectiveOp::Xor:
      return builder.CreateXor(acc, value);
    case CollectiveOp::LogicalAnd:
      return builder.CreateZExt(builder.CreateAnd(truth(acc), truth(value)), type);
    case CollectiveOp::LogicalOr:
      return builder.CreateZExt(builder.CreateOr(truth(acc), truth(value)), type);
    case CollectiveOp::LogicalXor:
      return builder.CreateZExt(builder.CreateXor(truth(acc), truth(value)), type);
    default:
      return fp ? builder.CreateFAdd(acc, value) : builder.CreateAdd(acc, value);
  }
}

// Whether a scan over `type` may combine out of order: integer operations
// whose result does not depend on their grouping (floats, whose rounding
// does, and the logical forms stay in linear-id order).
bool reassociates(Type *type, const CollectiveOp &op) {
  if (!type->isIntegerTy() || type->getIntegerBitWidth() < 8) return false;
  switch (op.arith) {
    case CollectiveOp::Add:
    case CollectiveOp::Mul:
    case CollectiveOp::Min:
    case CollectiveOp::Max:
    case CollectiveOp::And:
    case CollectiveOp::Or:
    case CollectiveOp::Xor:
      return true;
    default:
      return false;
  }
}

// The inclusive scan of the lanes of `v`: log2(lanes) steps, each combining
// every lane with the one `k` lanes before it (the identity before the first).
Value *scanLanes(IRBuilder<> &b, const CollectiveOp &op, Value *v, Value *identities, unsigned lanes) {
  for (unsigned k = 1; k < lanes; k *= 2) {
    SmallVector<int, 16> mask;
    for (unsigned j = 0; j < lanes; ++j) mask.push_back(j >= k ? int(j - k) : int(lanes));
    v = combine(b, op, v, b.CreateShuffleVector(v, identities, mask));
  }
  return v;
}

}  // namespace

// Whether a collective is a scan of whole vectors (emitVectorScan): an
// integer scan whose grouping does not matter, without lane states (every
// work-item of the segment takes part), its operand and result in slots of
// its own type laid out one after another.
bool WorkGroupLoops::scansVectors(const Collective &collective, Value *state) const {
  const CollectiveOp &op = collective.op;
  if ((op.kind != CollectiveOp::ScanExclusive && op.kind != CollectiveOp::ScanInclusive) || state) return false;
  Type *type = collective.type;
  const Slot &in = slots[allocaSlot.lookup(collective.in)], &out = slots[allocaSlot.lookup(collective.out)];
  return collective.in->getAllocatedType() == type && reassociates(type, op) && in.type == type && out.type == type &&
         !type->isIntegerTy(8);  // bytes may be strided (contextAddress)
}

// A scan's whole vectors of operands, each scanned in registers and combined
// with the running value; returns the first work-item past the last whole
// vector, where the scalar loop takes over. A work-group scan of 256 `uint`
// adds took 2 cycles a work-item in the scalar loop, whose every step waits
// for the one before.
Value *WorkGroupLoops::emitVectorScan(IRBuilder<> &b, const Collective &collective, AllocaInst *accumulator,
                                      Value *first, Value *end) {
  const CollectiveOp &op = collective.op;
  Type *type = collective.type;
  unsigned lanes = std::max(4u, std::min(16u, std::max(vectorBits, 128u) / type->getIntegerBitWidth()));
  auto *vectorType = FixedVectorType::get(type, lanes);
  Align elementAlign = F.getDataLayout().getABITypeAlign(type);
  unsigned inSlot = allocaSlot.lookup(collective.in), outSlot = allocaSlot.lookup(collective.out);
  Value *identities = identity(b, vectorType, op);
  Value *count = b.CreateSub(end, first);
  Value *vectors = b.CreateLShr(count, Log2_32(lanes));
  emitCountedLoop(b, b.getInt64(0), vectors, [&](IRBuilder<> &l, Value *k) {
    Value *i = l.CreateAdd(first, l.CreateShl(k, Log2_32(lanes)));
    Value *acc = l.CreateLoad(type, accumulator);
    Value *operands = l.CreateAlignedLoad(vectorType, contextAddress(l, inSlot, i), elementAlign);
    Value *scanned = combine(l, op, scanLanes(l, op, operands, identities, lanes), l.CreateVectorSplat(lanes, acc));
    Value *result = scanned;
    if (op.kind == CollectiveOp::ScanExclusive) {
      SmallVector<int, 16> mask{int(lanes)};
      for (unsigned j = 0; j + 1 < lanes; ++j) mask.push_back(int(j));
      result = l.CreateShuffleVector(scanned, l.CreateVectorSplat(lanes, acc), mask);
    }
    l.CreateAlignedStore(result, contextAddress(l, outSlot, i), elementAlign);
    l.CreateStore(l.CreateExtractElement(scanned, lanes - 1), accumulator);
  });
  return b.CreateAdd(first, b.CreateShl(vectors, Log2_32(lanes)));
}

// Between the loop nests: combine every work-item's operand, per segment
// (the whole group, or each sub-group of consecutive linear ids), in
// linear-id order, and give each work-item its result. In lane mode only
// the work-items whose state is `state` take part.
void WorkGroupLoops::emitCombine(IRBuilder<> &builder, const Collective &collective, Value *state) {
  IRBuilder<> entry(prologue->getTerminator());
  AllocaInst *accumulator = entry.CreateAlloca(collective.type, nullptr, "combine.acc");
  Value *dirty = collective.dirty ? groupWideAddress(collective.dirty) : nullptr;
  if (dirty && !state) {
    // A masked loop's count while no flag can be 0: the group's size. A
    // count that reads the flags says whether they are all 1 again.
    // Over the strip in strip mode (Strips.cpp), else the group.
    Value *first = stripMode ? subGroupFirst : builder.getInt64(0);
    Value *end = stripMode ? subGroupEnd : workItemCount;
    BasicBlock *read = BasicBlock::Create(context, "count.flags", &F);
    BasicBlock *known = BasicBlock::Create(context, "count.all.stayed", &F);
    BasicBlock *done = BasicBlock::Create(context, "count.done", &F);
    Value *size = builder.CreateTrunc(builder.CreateSub(end, first), collective.type);
    builder.CreateCondBr(builder.CreateICmpNE(builder.CreateLoad(builder.getInt32Ty(), dirty), builder.getInt32(0)),
                         read, known);
    builder.SetInsertPoint(known);
    storeResult(builder, collective, first, end, nullptr, size);
    builder.CreateBr(done);
    builder.SetInsertPoint(read);
    emitCombineSegment(builder, collective, accumulator, first, end, nullptr);
    Value *count = builder.CreateLoad(collective.type, slots[allocaSlot.lookup(collective.out)].base);
    builder.CreateStore(builder.CreateZExt(builder.CreateICmpNE(count, size), builder.getInt32Ty()), dirty);
    builder.CreateBr(done);
    builder.SetInsertPoint(done);
    return;
  }
  if (subGroupMode) {  // just the current sub-group (or strip)
    emitCombineSegment(builder, collective, accumulator, subGroupFirst, subGroupEnd, state);
    return;
  }
  Value *segmentSize = collective.op.subGroup ? builder.getInt64(subGroupSize) : workItemCount;
  Value *one = builder.getInt64(1);
  Value *segments =
      builder.CreateUDiv(builder.CreateAdd(workItemCount, builder.CreateSub(segmentSize, one)), segmentSize);
  emitCountedLoop(builder, builder.getInt64(0), segments, [&](IRBuilder<> &b, Value *segment) {
    Value *first = b.CreateMul(segment, segmentSize);
    Value *end = b.CreateBinaryIntrinsic(Intrinsic::umin, b.CreateAdd(first, segmentSize), workItemCount);
    emitCombineSegment(b, collective, accumulator, first, end, state);
  });
}

// Gives the work-items [first, end) `value` as the collective's result. A
// result every work-item shares that the analysis keeps as a uniform
// variable is read from work-item 0's slot only (a strip's count too; a
// sub-group's result differs between sub-groups, never uniform).
void WorkGroupLoops::storeResult(IRBuilder<> &b, const Collective &collective, Value *first, Value *end, Value *state,
                                 Value *value) {
  unsigned outSlot = allocaSlot.lookup(collective.out);
  if (!state && (!subGroupMode || stripMode) && uniformVariable[allocaIndex.lookup(collective.out)])
    b.CreateStore(value, stripMode ? slots[outSlot].base : contextAddress(b, outSlot, first));
  else
    emitCountedLoop(b, first, end,
                    [&](IRBuilder<> &l, Value *i) { l.CreateStore(value, contextAddress(l, outSlot, i)); });
}

void WorkGroupLoops::emitCombineSegment(IRBuilder<> &b, const Collective &collective, AllocaInst *accumulator,
                                        Value *first, Value *end, Value *state) {
  const CollectiveOp &op = collective.op;
  Type *i64 = b.getInt64Ty(), *i32 = b.getInt32Ty();
  unsigned outSlot = allocaSlot.lookup(collective.out);
  Type *inType = collective.in ? collective.in->getAllocatedType() : nullptr;
  Value *one = b.getInt64(1);
  auto in = [&](IRBuilder<> &at, Value *i) {
    return at.CreateLoad(inType, contextAddress(at, allocaSlot.lookup(collective.in), i));
  };
  auto out = [&](IRBuilder<> &at, Value *i, Value *v) { at.CreateStore(v, contextAddress(at, outSlot, i)); };
  auto operand = [&](IRBuilder<> &at, unsigned d, Value *lane) {  // extra operand d as i64
    unsigned slot = allocaSlot.lookup(collective.ids[d]);
    return at.CreateZExtOrTrunc(at.CreateLoad(slots[slot].type, contextAddress(at, slot, lane)), i64);
  };
  auto active = [&](IRBuilder<> &at, Value *i) -> Value * {
    if (!state) return at.getTrue();
    return at.CreateICmpEQ(at.CreateLoad(i32, contextAddress(at, laneSlot, i)), state);
  };
  auto toAll = [&](Value *value) { storeResult(b, collective, first, end, state, value); };
  // The leader: the first active work-item. Operands the spec requires to be
  // the same for every active work-item (a broadcast index, a cluster size)
  // are read from it. A segment with no active work-item is skipped.
  Value *leader = first;
  BasicBlock *skip = nullptr;
  if (state) {
    IRBuilder<> entry(prologue->getTerminator());
    AllocaInst *slot = entry.CreateAlloca(i64, nullptr, "combine.leader");
    b.CreateStore(end, slot);
    emitCountedLoop(b, first, end, [&](IRBuilder<> &l, Value *i) {
      Value *current = l.CreateLoad(i64, slot);
      Value *take = l.CreateAnd(active(l, i), l.CreateICmpEQ(current, end));
      l.CreateStore(l.CreateSelect(take, i, current), slot);
    });
    leader = b.CreateLoad(i64, slot, "leader");
    BasicBlock *work = BasicBlock::Create(context, "combine.segment", &F);
    skip = BasicBlock::Create(context, "combine.segment.done", &F);
    b.CreateCondBr(b.CreateICmpULT(leader, end), work, skip);
    b.SetInsertPoint(work);
  }
  Value *last = b.CreateSub(end, one);
  auto clampLane = [&](IRBuilder<> &at, Value *lane) { return at.CreateBinaryIntrinsic(Intrinsic::umin, lane, last); };
  switch (op.kind) {
    case CollectiveOp::Broadcast: {
      Value *source;
      if (op.subGroup) {
        source = b.CreateAdd(first, operand(b, 0, leader));
      } else {
        source = operand(b, collective.ids.size() - 1, leader);
        for (int d = int(collective.ids.size()) - 2; d >= 0; --d)
          source = b.CreateAdd(b.CreateMul(source, localSize[d]), operand(b, d, leader));
      }
      toAll(in(b, clampLane(b, source)));
      break;
    }
    case CollectiveOp::BroadcastFirst:
      toAll(in(b, leader));
      break;
    case CollectiveOp::Elect:
      emitCountedLoop(b, first, end, [&](IRBuilder<> &l, Value *i) {
        out(l, i, l.CreateZExt(l.CreateICmpEQ(i, leader), i32));
      });
      break;
    case CollectiveOp::Ballot: {
      b.CreateStore(Constant::getNullValue(collective.type), accumulator);
      emitCountedLoop(b, first, end, [&](IRBuilder<> &l, Value *i) {
        Value *bit = l.CreateSub(i, first);
        Value *word = l.CreateTrunc(l.CreateLShr(bit, 5), i32);
        Value *mask = l.CreateShl(l.getInt32(1), l.CreateTrunc(l.CreateAnd(bit, 31), i32));
        Value *set = l.CreateAnd(active(l, i), l.CreateICmpNE(in(l, i), Constant::getNullValue(inType)));
        Value *acc = l.CreateLoad(collective.type, accumulator);
        Value *updated = l.CreateOr(l.CreateExtractElement(acc, word), l.CreateSelect(set, mask, l.getInt32(0)));
        l.CreateStore(l.CreateInsertElement(acc, updated, word), accumulator);
      });
      toAll(b.CreateLoad(collective.type, accumulator));
      break;
    }
    case CollectiveOp::AllEqual: {
      Value *reference = in(b, leader);
      b.CreateStore(b.getInt32(1), accumulator);
      emitCountedLoop(b, first, end, [&](IRBuilder<> &l, Value *i) {
        Value *value = in(l, i);
        Value *equal = inType->isFPOrFPVectorTy() ? l.CreateFCmpOEQ(value, reference)
                                                  : l.CreateICmpEQ(value, reference);
        Value *agree = l.CreateOr(l.CreateNot(active(l, i)), equal);
        Value *acc = l.CreateLoad(i32, accumulator);
        l.CreateStore(l.CreateAnd(acc, l.CreateZExt(agree, i32)), accumulator);
      });
      toAll(b.CreateLoad(i32, accumulator));
      break;
    }
    case CollectiveOp::Shuffle:
    case CollectiveOp::ShuffleXor:
    case CollectiveOp::ShuffleUp:
    case CollectiveOp::ShuffleDown:
    case CollectiveOp::Rotate:
    case CollectiveOp::ClusteredRotate:
      emitCountedLoop(b, first, end, [&](IRBuilder<> &l, Value *i) {
        Value *lane = l.CreateSub(i, first), *n = operand(l, 0, i), *source = nullptr;
        switch (op.kind) {
          case CollectiveOp::Shuffle: source = n; break;
          case CollectiveOp::ShuffleXor: source = l.CreateXor(lane, n); break;
          case CollectiveOp::ShuffleUp: source = l.CreateSub(lane, n); break;
          case CollectiveOp::ShuffleDown: source = l.CreateAdd(lane, n); break;
          case CollectiveOp::Rotate:  // (id + delta) % get_max_sub_group_size(), in uint arithmetic
            source = l.CreateZExt(l.CreateURem(l.CreateTrunc(l.CreateAdd(lane, n), i32), maxSubGroupSize), i64);
            break;
          default: {  // clustered: within the cluster of `size` work-items
            Value *size = l.CreateBinaryIntrinsic(Intrinsic::umax, operand(l, 1, i), one);
            Value *base = l.CreateAnd(lane, l.CreateNot(l.CreateSub(size, one)));
            Value *offset = l.CreateZExt(
                l.CreateURem(l.CreateTrunc(l.CreateAdd(lane, n), i32), l.CreateTrunc(size, i32)), i64);
            source = l.CreateAdd(base, offset);
          }
        }
        // A source outside the sub-group is undefined by the spec; stay inside.
        out(l, i, in(l, clampLane(l, l.CreateAdd(first, source))));
      });
      break;
    case CollectiveOp::ClusteredReduce: {
      Value *size = b.CreateBinaryIntrinsic(Intrinsic::umax, operand(b, 0, leader), one);
      Value *mask = b.CreateNot(b.CreateSub(size, one));
      emitCountedLoop(b, first, end, [&](IRBuilder<> &l, Value *i) {
        Value *base = l.CreateAdd(first, l.CreateAnd(l.CreateSub(i, first), mask));
        Value *clusterEnd = l.CreateBinaryIntrinsic(Intrinsic::umin, l.CreateAdd(base, size), end);
        l.CreateStore(identity(l, collective.type, op), accumulator);
        emitCountedLoop(l, base, clusterEnd, [&](IRBuilder<> &c, Value *j) {
          Value *acc = c.CreateLoad(collective.type, accumulator);
          c.CreateStore(c.CreateSelect(active(c, j), combine(c, op, acc, in(c, j)), acc), accumulator);
        });
        out(l, i, l.CreateLoad(collective.type, accumulator));
      });
      break;
    }
    default: {  // all, any, reductions and scans
      b.CreateStore(identity(b, collective.type, op), accumulator);
      // One work-item at a time from the first (or from where whole vectors end).
      Value *from = scansVectors(collective, state) ? emitVectorScan(b, collective, accumulator, first, end) : first;
      emitCountedLoop(b, from, end, [&](IRBuilder<> &l, Value *i) {
        Value *acc = l.CreateLoad(collective.type, accumulator);
        Value *next = combine(l, op, acc, in(l, i));
        l.CreateStore(state ? l.CreateSelect(active(l, i), next, acc) : next, accumulator);
        if (op.kind == CollectiveOp::ScanExclusive) out(l, i, acc);
        if (op.kind == CollectiveOp::ScanInclusive) out(l, i, next);
      });
      if (op.kind != CollectiveOp::ScanExclusive && op.kind != CollectiveOp::ScanInclusive)
        toAll(b.CreateLoad(collective.type, accumulator));
    }
  }
  if (skip) {
    b.CreateBr(skip);
    b.SetInsertPoint(skip);
  }
}

}  // namespace lockstep::compiler

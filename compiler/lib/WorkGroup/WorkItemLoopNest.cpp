// The loops over the work-items of a region (z, y, x, or one loop over a
// sub-group's linear ids), and the metadata that marks the innermost one
// parallel for the vectorizer.
#include <array>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include "WorkGroup/WorkGroupLoops.h"

using namespace llvm;

namespace lockstep::compiler {

// The local ids (x, y, z) of the work-item whose linear id is `linear`.
std::array<Value *, 3> WorkGroupLoops::localIdsOf(IRBuilder<> &builder, Value *linear) {
  Value *rest = builder.CreateUDiv(linear, localSize[0]);
  return {builder.CreateURem(linear, localSize[0]), builder.CreateURem(rest, localSize[1]),
          builder.CreateUDiv(rest, localSize[1])};
}

// The loops over the work-items of a region: z, y, x over the whole group
// (do-while: every group has a work-item), or, in sub-group mode, one loop
// over the linear ids of the current sub-group (or strip). `body` is left without a
// terminator; `latch` is where an iteration ends.
WorkGroupLoops::LoopNest WorkGroupLoops::makeLoopNest(BasicBlock *pre, BasicBlock *after) {
  LoopNest nest;
  IRBuilder<> builder(pre);
  Type *i64 = builder.getInt64Ty();
  // One loop over a segment's work-items (sub-group or strip mode): `lane`
  // from `start` while below `end`; the caller gives the ids.
  auto laneLoop = [&](const Twine &name, const Twine &laneName, Value *start, Value *end) {
    BasicBlock *header = BasicBlock::Create(context, name, &F);
    nest.latch = BasicBlock::Create(context, name + ".next", &F);
    builder.CreateBr(header);
    builder.SetInsertPoint(header);
    PHINode *lane = builder.CreatePHI(i64, 2, laneName);
    lane->addIncoming(start, pre);
    IRBuilder<> latch(nest.latch);
    Value *next = latch.CreateAdd(lane, latch.getInt64(1), "", true, true);
    lane->addIncoming(next, nest.latch);
    nest.innerLatch = latch.CreateCondBr(latch.CreateICmpULT(next, end), header, after);
    return lane;
  };
  if (stripMode) {
    // A strip's work-items lie in one row, stripWidth of them from its first
    // (Strips.cpp): counted from 0, the loop's trip count is that constant.
    PHINode *lane = laneLoop("strip.lane", "lane", builder.getInt64(0), builder.getInt64(stripWidth));
    nest.workItem = builder.CreateAdd(subGroupFirst, lane, "wi", true, true);
    nest.ids[0] = builder.CreateAdd(subGroupIds[0], lane, "lid0", true, true);
    nest.ids[1] = subGroupIds[1];
    nest.ids[2] = subGroupIds[2];
    nest.body = builder.GetInsertBlock();
    return nest;
  }
  if (subGroupMode) {
    PHINode *lane = laneLoop("sg.lane", "wi", subGroupFirst, subGroupEnd);
    // A sub-group within one row (every sub-group, where the rows are a
    // multiple of its size) counts x from its first work-item's; else each
    // work-item's ids are divided out of its linear id.
    BasicBlock *inRow = BasicBlock::Create(context, "sg.lane.row", &F);
    BasicBlock *divided = BasicBlock::Create(context, "sg.lane.div", &F);
    BasicBlock *body = BasicBlock::Create(context, "sg.lane.ids", &F);
    builder.CreateCondBr(subGroupInRow, inRow, divided);
    builder.SetInsertPoint(inRow);
    Value *rowX = builder.CreateAdd(subGroupIds[0], builder.CreateSub(lane, subGroupFirst), "", true, true);
    builder.CreateBr(body);
    builder.SetInsertPoint(divided);
    std::array<Value *, 3> ids = localIdsOf(builder, lane);
    builder.CreateBr(body);
    builder.SetInsertPoint(body);
    Value *rowIds[3] = {rowX, subGroupIds[1], subGroupIds[2]};
    for (int d = 0; d < 3; ++d) {
      PHINode *id = builder.CreatePHI(i64, 2, "lid" + Twine(d));
      id->addIncoming(rowIds[d], inRow);
      id->addIncoming(ids[d], divided);
      nest.ids[d] = id;
    }
    nest.workItem = lane;
    nest.body = body;
    return nest;
  }
  // The loops from the outermost in: z, y, x; or z, x, y for a kernel whose
  // stores run down columns (columnMajor: widened along y, they store whole
  // vectors). Level 2 is the outermost, level 0 the innermost.
  const int dims[3] = {columnMajor ? 1 : 0, columnMajor ? 0 : 1, 2};  // level -> dimension
  BasicBlock *headers[3], *latches[3];
  PHINode *ids[3];
  for (int level = 2; level >= 0; --level) {
    headers[level] = BasicBlock::Create(context, "wi.loop" + Twine(dims[level]), &F);
    latches[level] = BasicBlock::Create(context, "wi.next" + Twine(dims[level]), &F);
  }
  builder.CreateBr(headers[2]);
  for (int level = 2; level >= 0; --level) {
    int d = dims[level];
    builder.SetInsertPoint(headers[level]);
    ids[d] = builder.CreatePHI(i64, 2, "lid" + Twine(d));
    ids[d]->addIncoming(builder.getInt64(0), level == 2 ? pre : headers[level + 1]);
    nest.ids[d] = ids[d];
    if (level > 0) builder.CreateBr(headers[level - 1]);
  }
  builder.SetInsertPoint(headers[0]);
  nest.workItem = builder.CreateAdd(
      builder.CreateMul(builder.CreateAdd(builder.CreateMul(ids[2], localSize[1]), ids[1]), localSize[0]),
      ids[0], "wi");
  nest.body = headers[0];
  for (int level = 0; level < 3; ++level) {
    int d = dims[level];
    builder.SetInsertPoint(latches[level]);
    Value *next = builder.CreateAdd(ids[d], builder.getInt64(1), "", true, true);
    ids[d]->addIncoming(next, latches[level]);
    BasicBlock *outer = level == 2 ? after : latches[level + 1];
    auto *branch = builder.CreateCondBr(builder.CreateICmpULT(next, localSize[d]), headers[level], outer);
    if (level == 0) {
      nest.innerLatch = branch;
      // The passes after the work-group loops that reshape the loop over x
      // (WorkItemLoopFlatten, WorkItemLoopSplit) find it by this mark.
      if (!columnMajor) branch->setMetadata(kWorkItemLoopMarker, MDNode::get(context, {}));
    }
  }
  nest.latch = latches[0];
  // RowJam jams rows of x loops: none here when y is innermost.
  nest.rowHeader = columnMajor ? nullptr : headers[1];
  nest.rowLatch = columnMajor ? nullptr : latches[1];
  return nest;
}

// Work-items of one region never depend on each other (that would need a
// barrier), so the innermost loop's iterations are independent, except for
// accesses to private memory that all work-items share.
void WorkGroupLoops::markParallel(ArrayRef<BasicBlock *> body, BranchInst *latch, BasicBlock *rowLatch) {
  MDNode *group = MDNode::getDistinct(context, {});
  auto touchesShared = [&](const Value *pointer) {
    auto *alloca = dyn_cast<AllocaInst>(getUnderlyingObject(pointer));
    return alloca && allocaIndex.count(alloca) && shared[allocaIndex.lookup(alloca)];
  };
  for (BasicBlock *block : body)
    for (Instruction &I : *block) {
      if (!I.mayReadOrWriteMemory()) continue;
      bool isShared = false;
      if (auto *load = dyn_cast<LoadInst>(&I)) isShared = touchesShared(load->getPointerOperand());
      else if (auto *store = dyn_cast<StoreInst>(&I))
        isShared = touchesShared(store->getPointerOperand());
      else if (auto *call = dyn_cast<CallBase>(&I))
        isShared = any_of(call->args(), [&](const Use &arg) {
          return arg->getType()->isPointerTy() && touchesShared(arg.get());
        });
      if (!isShared) I.setMetadata(LLVMContext::MD_access_group, group);
    }
  MDNode *parallel = MDNode::get(
      context, {MDString::get(context, "llvm.loop.parallel_accesses"), group});
  SmallVector<Metadata *, 3> properties{nullptr, parallel};
  if (foldTails)
    properties.push_back(MDNode::get(context, {MDString::get(context, "llvm.loop.vectorize.predicate.enable"),
                                               ConstantAsMetadata::get(ConstantInt::getTrue(context))}));
  if (foldTails || narrowRows)
    properties.push_back(
        MDNode::get(context, {MDString::get(context, "llvm.loop.interleave.count"),
                              ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(context), 1))}));
  // A loop of a constant count of work-items (rows of the vector-rows
  // version) would be unrolled whole before the vectorizer sees it, and
  // widened no more: a 16 x 16 tiled SGEMM ran at half its rate so.
  // Widened, its one or two vector trips are the row.
  if (rowWidth != 0)
    properties.push_back(MDNode::get(context, {MDString::get(context, "llvm.loop.unroll.disable")}));
  MDNode *loop = MDNode::getDistinct(context, properties);
  loop->replaceOperandWith(0, loop);
  latch->setMetadata(LLVMContext::MD_loop, loop);
  // The rows are work-items too: the loop over them is as parallel (only
  // the accesses of its x loop are marked, so a row loop with any other
  // access is not). WorkItemJamPass jams rows on it.
  if (rowLatch) {
    MDNode *rows = MDNode::getDistinct(context, {nullptr, parallel});
    rows->replaceOperandWith(0, rows);
    rowLatch->getTerminator()->setMetadata(LLVMContext::MD_loop, rows);
  }
}

}  // namespace lockstep::compiler

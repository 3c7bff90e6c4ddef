// WorkItemTestParts: where a test of a work-item's id against a uniform
// value changes its answer over a work-item loop (WorkItemTestParts.cpp),
// for WorkItemLoopSplitPass.
#pragma once

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstrTypes.h>

namespace lockstep::compiler {

// A part of the work-item range, [begin, end), and what the test answers there.
struct Part {
  llvm::Value *begin, *end;
  bool answer;
  bool keepTest = false;  // the test stays: its answer varies in the part
};

// The local id along x, in some integer type: the loop's counter, a
// truncation of it to 16 bits or more, or an extension of such a truncation.
bool isWorkItemId(llvm::Value *value, llvm::PHINode *id);

// Moves `value` before the loop if it is uniform there.
bool hoistUniform(llvm::Value *value, llvm::Loop *loop);

// `id + offset` (or `id - uniform`) in the type of `value`, the offset's
// terms hoisted before the loop and their sum built at `before`; with
// `throughTrunc`, also such a sum truncated to 16 bits or more. The offset
// is null if there is none.
bool matchIdPlusOffset(llvm::Value *value, llvm::PHINode *id, llvm::Loop *loop, llvm::Value *&offset,
                       llvm::IRBuilder<> &before, bool throughTrunc = false);

// Whether `phi` is a counter of `loop` from 0 by 1 (its header's phi).
bool countsUpFromZero(llvm::PHINode &phi, llvm::Loop &loop);

// Whether `offset` (uniform in `loop`) is a sum of the other dimensions'
// local ids scaled by constants or local sizes (`ly * 16` of the linear id
// `ly * 16 + lx`): never negative and small enough that the id plus it
// stays below 2^(bits - 1) - 1, so a signed test of the sum in `bits` bits
// cannot wrap.
bool isSmallLocalIdSum(llvm::Value *offset, llvm::Loop *loop, unsigned bits);

// The parts of [0, count) (i64) for the id against `bound`; for the id plus
// `offset` against `bound`, unsigned or equality (`bound - offset`, with
// partsOf) and signed (at most 32 bits). Empty where the test is not one
// they understand.
llvm::SmallVector<Part, 3> partsOf(llvm::IRBuilder<> &builder, llvm::CmpInst::Predicate predicate,
                                   llvm::Value *bound, llvm::Value *count);
llvm::SmallVector<Part, 3> offsetPartsOf(llvm::IRBuilder<> &builder, llvm::CmpInst::Predicate predicate,
                                         llvm::Value *offset, llvm::Value *bound, llvm::Value *count);
llvm::SmallVector<Part, 3> signedOffsetPartsOf(llvm::IRBuilder<> &builder, llvm::CmpInst::Predicate predicate,
                                               llvm::Value *offset, llvm::Value *bound, llvm::Value *count,
                                               bool mayWrap = true);

// Where a row ends early (WorkItemRowEnd.cpp): the exit of the loop over the
// rows around the work-item loop `loop` and that loop's counter, or nulls.
struct RowEnd {
  llvm::BasicBlock *exit = nullptr;
  llvm::PHINode *row = nullptr;
};
RowEnd rowsEndWhereNonePass(llvm::Loop *loop, llvm::ICmpInst *compare, llvm::ArrayRef<Part> parts);

}  // namespace lockstep::compiler

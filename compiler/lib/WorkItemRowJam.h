// Rows of work-items jammed around their x loop: WorkItemJamPass's helpers
// for its second case (WorkItemRowJam.cpp).
#pragma once

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/Function.h>

namespace lockstep::compiler {

// `inner`, an x loop, is one block with no recurrence but its counter, a
// few trips (-lockstep-work-item-jam-row-trips) and a chain of float
// operations of -lockstep-work-item-jam-row-chain or more (0: never).
bool isRowOfChains(llvm::Loop &inner, llvm::ScalarEvolution &evolution);

// Every write in `outer` is marked parallel for it, and every read is, but
// reads of memory no work-item's write reaches (not private variables).
bool rowsAreIndependent(llvm::Loop &outer);

// Numbers the instructions of `block` (metadata of kind `positionKind`),
// which the jam copies with them; untagPositions drops the numbers.
void tagPositions(llvm::BasicBlock &block, unsigned positionKind);
void untagPositions(llvm::Function &F, unsigned positionKind);

// `block` holds the jam's copies one after another: puts each instruction
// next to its copies and makes a copy that repeats the one before it that
// one. Leaves the block as it is if the copies are not in one order.
void interleaveCopies(llvm::BasicBlock &block, unsigned positionKind);

}  // namespace lockstep::compiler

// The guards WorkItemOuterVectorizePass widens a work-item loop past
// (OuterLoopGuards.cpp): branches inside the loop whose condition varies
// between the work-items, but holds for all of them when it holds for the
// first and the last. A copy of the loop runs with them true when a check
// before the loop finds that they do.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

namespace llvm {
class Loop;
class SCEV;
class ScalarEvolution;
}  // namespace llvm

namespace lockstep::compiler {

// Whether `condition`, which a branch of `loop` tests, is made of guards
// (appended to `guards`) and conditions the work-items share, joined by
// logical `and`s.
bool guardsOf(llvm::Value *condition, llvm::Loop &loop, llvm::ScalarEvolution &SE,
              llvm::SmallVectorImpl<llvm::ICmpInst *> &guards, unsigned depth = 4);

// Built at `builder` (the loop's preheader): whether every guard holds at the
// loop's first and last work-item (`taken` the loop's backedge-taken count),
// its values moving the one way between them; null for no guards.
llvm::Value *guardsHold(llvm::ArrayRef<llvm::ICmpInst *> guards, llvm::Loop &loop, const llvm::SCEV *taken,
                        llvm::ScalarEvolution &SE, llvm::IRBuilder<> &builder);

// Moves `value`, computed in `loop` from values outside it, and what it is
// computed from, to the loop's preheader (a copy's branch on guards made
// true: the native path takes only conditions from outside the loop).
void hoistOutOf(llvm::Value *value, llvm::Loop &loop);

}  // namespace lockstep::compiler

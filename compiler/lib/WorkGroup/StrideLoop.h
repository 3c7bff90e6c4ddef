// A loop whose work-items start a local id apart and step by a value the
// group shares, `for (i = lid(d) + u; i < n; i += t)` (a grid-stride loop,
// a loop over a __local array by get_local_size), read for LastRound.cpp:
// its counter, step, bound and comparison, and its start as a chain of
// instructions from the local id, which can be rebuilt for any local id.
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include <optional>
#include <utility>

namespace lockstep::compiler {

// The GroupInfo field and dimension that `value` loads, if it loads one of
// the per-dimension fields (kGroupId to kGlobalOffset); groupSize: only if
// one of the group's sizes.
std::optional<std::pair<unsigned, unsigned>> groupInfoRead(const llvm::Value *value, const llvm::Function &F);
std::optional<std::pair<unsigned, unsigned>> groupSize(const llvm::Value *value, const llvm::Function &F);

// The start `lid(d) + u` (through casts and adds of values the group
// shares): the local id placeholder and the instructions from it to the
// start, first to last.
struct Start {
  llvm::Instruction *localId = nullptr;
  unsigned dimension = 0;
  llvm::SmallVector<llvm::Instruction *, 4> chain;
};

// The start of the work-item whose local id is `id`, built at `builder`.
llvm::Value *startAt(const Start &start, llvm::Value *id, llvm::IRBuilder<> &builder);

// A loop `for (i = lid(d) + u; i < n; i += t)` as strideOf finds it.
struct Stride {
  llvm::BasicBlock *header, *preheader, *latch, *exit;
  llvm::PHINode *counter;
  llvm::BinaryOperator *next;  // counter + step, from the latch
  llvm::Value *step, *bound;
  llvm::IntegerType *type;
  bool isSigned, strict;  // `<` or `<=`, signed or not
  Start start;
};

// The loop's shape, or nothing: a loop (innermost, or a nest where
// `-lockstep-stride-nests` allows) of at most `maxSize` instructions whose
// header is the only exit and tests a counter (a header phi stepping by t)
// against a bound the group shares (computed alike from `prologue`, or a
// value `uniform` says every work-item holds alike: the counter of a loop
// around barriers, a tree's `stride`), a start `lid(d) + u`, nothing
// convergent inside; a constant step to a constant bound is FewRounds.cpp's.
std::optional<Stride> strideOf(llvm::Loop *loop, const llvm::BasicBlock *prologue, unsigned maxSize,
                               llvm::function_ref<bool(const llvm::Value *)> uniform = nullptr);

}  // namespace lockstep::compiler

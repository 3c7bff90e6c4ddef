// GlobalAtomicCombiningPass's loops: each combined add tests whether the
// launch has a combiner; a loop of them tests once (CombinerTestVersioning.cpp).
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

namespace lockstep::compiler {

// `tests` are the branches on `combiner == null` that GlobalAtomicCombining
// put before each add of `F`. Each innermost loop that holds some runs in
// two copies, chosen once before it: one where the launch has a combiner
// (its tests gone, the lookups left) and one where it has none (the plain
// atomic adds left). Returns whether it changed `F`.
bool versionLoopsOnCombiner(llvm::Function &F, llvm::Value *combiner, llvm::ArrayRef<llvm::BranchInst *> tests);

}  // namespace lockstep::compiler

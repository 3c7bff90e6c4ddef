// GlobalAtomicCombiningPass's adds to a byte's bin: an add to base + index *
// its size whose index is below AtomicCombiner::kWindowEntries (a
// histogram's `bins[data[i]]`), base known at the function's entry, goes to
// the combiner's window by index, with no key to compare
// (CombinerWindow.cpp).
#pragma once

#include <llvm/ADT/MapVector.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <tuple>

namespace lockstep::compiler {

// The windows of one kernel's functions, one per base and width, each
// claimed once at its function's entry.
class CombinerWindows {
 public:
  explicit CombinerWindows(llvm::Module &M);
  // Puts a test of the window before `rmw` (an add about to be combined
  // through `combiner`, loaded at its function's entry) when it qualifies:
  // with the window, the add goes to window[index]; without, on to the
  // combiner as before.
  void route(llvm::AtomicRMWInst *rmw, llvm::Value *combiner);
  // Each innermost loop of such adds tests its window once
  // (CombinerTestVersioning.h).
  void versionLoops();

 private:
  llvm::FunctionCallee claim;
  llvm::MapVector<std::tuple<llvm::Function *, llvm::Value *, unsigned>, llvm::Value *> windows;
  llvm::MapVector<llvm::Value *, llvm::SmallVector<llvm::BranchInst *, 8>> tests;
};

}  // namespace lockstep::compiler

// Functions the loop vectorizer widens through the vector function ABI: a
// scalar function declared with masked variants of 2 to 64 lanes, each
// parameter uniform (scalar in the variants) or not (a vector of the
// lanes'), and named in a call's `vector-function-abi-variant` attribute.
// GuardedUniformLoads.cpp, UniformAtomicAggregation.cpp and
// NarrowGathers.cpp turn an instruction the vectorizer cannot widen (or
// prices too high) into such a call before the vectorizer, and the call
// back into instructions after -O3: the scalar call what it was, a widened
// one what its lanes together do.
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <string>

namespace lockstep::compiler {

// Declares `name`_a<alignment> of type `type`, standing for a memory access
// of that alignment (accessAlign reads it back), and its masked variants
// (the uniform parameters scalar, the others vectors of the lanes, then a
// mask of i1 lanes; the result a vector of the lanes), all with the
// attributes `setAttributes` gives, and returns the scalar function.
// `varying` lists the parameters that are not uniform.
llvm::Function *declareWithMaskedVariants(llvm::Module &M, llvm::StringRef name,
                                          llvm::FunctionType *type, llvm::Align access,
                                          llvm::function_ref<void(llvm::Function &)> setAttributes,
                                          llvm::ArrayRef<unsigned> varying = {});

// The alignment of the access a function declareWithMaskedVariants declared
// stands for.
llvm::Align accessAlign(const llvm::Function &F);

// Calls `callee` (declared by declareWithMaskedVariants) in place of `I`,
// which the call's result replaces and which is erased; the call names the
// variants and stays in the loop's access group. Returns the call.
llvm::CallInst *replaceWithVariantCall(llvm::Instruction &I, llvm::Function *callee,
                                       llvm::ArrayRef<llvm::Value *> arguments);

// Replaces `load` by a call of `prefix`<type>_p<address space>_a<align>, a
// reader of its pointer argument declared with masked variants, whose
// pointer is uniform or, with `pointerVaries`, a vector of the lanes'.
llvm::CallInst *replaceLoadWithVariantCall(llvm::LoadInst &load, llvm::StringRef prefix,
                                           llvm::StringRef typeName, bool pointerVaries);

// Whether the vectorizer might widen `loop` once the instructions `taken`
// accepts are calls with variants: it holds no switch, no other atomic or
// volatile access, and calls only intrinsics and functions with vector
// variants.
// (The rewrites are pointless in a loop that stays scalar, and their calls
// weigh more than loads in the loop passes' cost models.)
bool mayWiden(const llvm::Loop &loop, llvm::function_ref<bool(const llvm::Instruction &)> taken);

// The instructions of F's work-item loops that `takes` accepts, in loops
// the vectorizer might widen once they are calls (mayWiden).
llvm::SmallVector<llvm::Instruction *, 8> collectInWorkItemLoops(
    llvm::Function &F, llvm::LoopInfo &loops,
    llvm::function_ref<bool(llvm::Instruction &, llvm::Loop &)> takes);

// Lowers every call of the functions whose names start with `prefix`
// (declareWithMaskedVariants's) to what `lower` builds before it, given the
// call and its lanes (0 for the scalar function), and removes the calls and
// the declarations. `lower` returns the call's replacement (null when it
// replaced and erased the call itself). Returns whether there were any.
bool lowerVariantCalls(llvm::Module &M, llvm::StringRef prefix,
                       llvm::function_ref<llvm::Value *(llvm::CallInst &, unsigned)> lower);

// The lanes of a variant declareWithMaskedVariants declared, or 0 for the
// scalar function.
unsigned variantLanes(const llvm::Function &F);

}  // namespace lockstep::compiler

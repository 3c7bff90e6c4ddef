// The versions of a kernel and the pass. A kernel with loop cuts also gets a
// version without them for groups too narrow to widen, and one whose
// work-item loops take one vector a trip for groups a vector or two wide; a straight-line
// kernel, on targets with masked vector memory access, a version with masked
// loop tails for groups whose width is not a multiple of the vector step.
// The prologue picks one by the group's local size along x.
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include "Statistics.h"
#include "WorkGroup/WorkGroupLoops.h"

using namespace llvm;

#define DEBUG_TYPE "lockstep-work-group-loops"
LOCKSTEP_STATISTIC(NumNarrowGroupVersions, "Kernels given a version without loop cuts for narrow groups");
LOCKSTEP_STATISTIC(NumNarrowRowVersions, "Straight-line kernels given a masked-tail version");
LOCKSTEP_STATISTIC(NumNarrowCutVersions, "Kernels with loop cuts given a version for narrow rows");
LOCKSTEP_STATISTIC(NumLongStraightLine, "Straight-line kernels too long for a masked-tail version");

namespace lockstep::compiler {
namespace {

// Below this many work-items along x, the work-item loop that a loop cut
// moves inside a kernel loop is too short to widen, and every trip of the
// kernel loop would pay for the values it keeps in the context: such groups
// run a version of the kernel without loop cuts.
cl::opt<uint64_t> kLoopCutMinWidth("lockstep-loop-cut-min-width", cl::Hidden, cl::init(4),
                                   cl::desc("Groups narrower than this along x run the version without loop cuts"));

// A straight-line kernel's work-item loop is widened to the vector (8 lanes
// of 32 bits on Zen 4, which gets 256-bit vectors for such kernels; 16 on
// other AVX-512 cores) and unrolled 4 times: up to 64 work-items a trip, and
// the rest one at a time. Groups whose width along x is not a multiple of
// this many work-items (16 x 16 tiles of an image) run a version whose loops mask the
// rest instead; its stores are masked, so it does without the streaming
// stores of the unmasked version. A store-bound kernel ran 2.2-2.4x faster
// in 16 x 16 and 8 x 8 groups with it on Zen 4.
cl::opt<uint64_t> kFullRowMultiple("lockstep-full-row-multiple", cl::Hidden, cl::init(64),
                                   cl::desc("Groups whose width is not a multiple of this run the masked-tail version"));

// A loop cut runs the work-item loops once per trip of the kernel's loop,
// over a row of the group: 16 work-items in the common 16 x 16 groups.
// Widened and interleaved 4 times, as the vectorizer does a loop of unknown
// length, such a row never reaches the main loop of 64 work-items a trip and
// runs in the epilogue's narrower vectors; groups narrower than this run a
// version of the cut kernel that takes one vector a trip. A naive SGEMM on
// 16 cores ran 1.4x faster in 16 x 16 groups, 1.5x in 32 x 8, 1.4x in
// 32 x 32; in 64 x 4 groups the interleaved loops ran 1.6x faster than
// one vector a trip, which is why both versions are kept.
cl::opt<uint64_t> kNarrowCutWidth("lockstep-narrow-cut-width", cl::Hidden, cl::init(64),
                                  cl::desc("Groups of loop-cut kernels narrower than this run the one-vector-a-trip "
                                           "version (0: never)"));

// The masked-tail version pays where a kernel streams through memory, a few
// instructions per store; a straight-line kernel longer than this computes
// far more than it stores, and its second copy doubles the build (a 2,000-line
// hash-like kernel: 16,000 instructions, 5.2 s of which 2.0 s went to the
// masked-tail copy).
cl::opt<unsigned> kMaskedTailMaxInstructions(
    "lockstep-masked-tail-max-instructions", cl::Hidden, cl::init(2000),
    cl::desc("Straight-line kernels longer than this get no masked-tail version"));

// Makes `F`'s prologue call `alternative` (an internal copy of the kernel,
// with the same parameters, already named) when `useAlternative` says so,
// and run its own body otherwise. The context and private memory the
// launcher allocates cover both.
void dispatchByWidth(Function &F, Function *alternative, StringRef blockName,
                     function_ref<Value *(IRBuilder<> &, Value *width)> useAlternative) {
  for (const char *attribute : {kContextBytesAttr, kPrivateBytesAttr}) {
    uint64_t most = std::max(functionAttrNumber(F, attribute), functionAttrNumber(*alternative, attribute));
    F.addFnAttr(attribute, std::to_string(most));
  }
  // Inlined, the alternative's allocas join the frame beside F's own.
  F.addFnAttr(kFrameBytesAttr, std::to_string(functionAttrNumber(F, kFrameBytesAttr) +
                                              functionAttrNumber(*alternative, kFrameBytesAttr)));
  alternative->removeFnAttr(kKernelNameAttr);
  // Each version optimized as a function of its own: inlined into the
  // kernel (and a third into the second), the versions made one function
  // that -O3 served worse (a naive SGEMM in 64 x 4 groups, which runs the
  // kernel's own body, ran 20% slower); a call per group costs nothing.
  alternative->addFnAttr(Attribute::NoInline);

  BasicBlock *prologue = &F.getEntryBlock();
  auto *start = cast<BranchInst>(prologue->getTerminator());
  IRBuilder<> builder(start);
  Value *width = loadGroupInfo(builder, F.getArg(kGroupInfoParam), kLocalSize, 0);
  BasicBlock *other = BasicBlock::Create(F.getContext(), blockName, &F);
  builder.CreateCondBr(useAlternative(builder, width), other, start->getSuccessor(0));
  start->eraseFromParent();
  IRBuilder<> call(other);
  SmallVector<Value *, 4> arguments;
  for (Argument &argument : F.args()) arguments.push_back(&argument);
  call.CreateCall(alternative, arguments);
  call.CreateRetVoid();
}

// The work-group function with loop cuts, and, when it has any, the same
// kernel without them for narrow groups and with them, one vector a trip,
// for narrow rows; the prologue picks one by the group's local size along x. A straight-line kernel instead gets, with
// `foldNarrowRows`, a version with masked loop tails for groups whose width
// is not a multiple of kFullRowMultiple.
void buildWorkGroupFunction(Function &F, bool foldNarrowRows, unsigned vectorBits) {
  // A kernel without loops, barriers or collectives: one pass over its
  // work-items that streams through memory (RetargetToHost.cpp picks its vector
  // width by that).
  bool straightLine = [&] {
    DominatorTree dominators(F);
    LoopInfo loops(dominators);
    if (!loops.empty()) return false;
    for (Instruction &I : instructions(F))
      if (auto *call = dyn_cast<CallInst>(&I); call && call->getCalledFunction())
        if (isBarrierCall(I) || parseCollective(call->getCalledFunction()->getName())) return false;
    return true;
  }();
  if (straightLine) F.addFnAttr(kStraightLineAttr);
  if (straightLine && foldNarrowRows && F.getInstructionCount() > kMaskedTailMaxInstructions) {
    ++NumLongStraightLine;
    foldNarrowRows = false;
  }
  F.addFnAttr(kWorkGroupCodeAttr);  // the copies below inherit it
  ValueToValueMapTy map, narrowMap;
  Function *whole = CloneFunction(&F, map);
  Function *narrowCut = straightLine || kNarrowCutWidth == 0 ? nullptr : CloneFunction(&F, narrowMap);
  WorkGroupLoops cut(F, {.cutLoops = true, .foldTails = false, .vectorBits = vectorBits});
  cut.run();
  whole->setLinkage(GlobalValue::InternalLinkage);
  if (straightLine && foldNarrowRows) {
    ++NumNarrowRowVersions;
    whole->setName(F.getName() + ".narrow_rows");
    WorkGroupLoops(*whole, {.cutLoops = false, .foldTails = true, .vectorBits = vectorBits}).run();
    dispatchByWidth(F, whole, "narrow.rows", [](IRBuilder<> &builder, Value *width) {
      return builder.CreateICmpNE(builder.CreateURem(width, builder.getInt64(kFullRowMultiple)), builder.getInt64(0));
    });
    return;
  }
  if (cut.loopCutCount() == 0) {
    whole->eraseFromParent();
    if (narrowCut) narrowCut->eraseFromParent();
    return;
  }
  if (cut.maskedLoopCount() != 0) F.addFnAttr(kMaskedLoopsAttr, std::to_string(cut.maskedLoopCount()));
  ++NumNarrowGroupVersions;
  whole->setName(F.getName() + ".whole_loops");
  WorkGroupLoops(*whole, {.cutLoops = false, .foldTails = false, .vectorBits = vectorBits}).run();
  // width < kLoopCutMinWidth: `whole`; below kNarrowCutWidth: `narrowCut`
  // (which hands the narrowest groups on to `whole`); else F's own body.
  Function *narrow = whole;
  if (narrowCut) {
    ++NumNarrowCutVersions;
    narrowCut->setLinkage(GlobalValue::InternalLinkage);
    narrowCut->setName(F.getName() + ".narrow_cut");
    WorkGroupLoops(*narrowCut, {.cutLoops = true, .foldTails = false, .narrowRows = true, .vectorBits = vectorBits})
        .run();
    dispatchByWidth(*narrowCut, whole, "narrow.group", [](IRBuilder<> &builder, Value *width) {
      return builder.CreateICmpULT(width, builder.getInt64(kLoopCutMinWidth));
    });
    narrow = narrowCut;
  }
  dispatchByWidth(F, narrow, narrow == whole ? "narrow.group" : "narrow.cut", [&](IRBuilder<> &builder, Value *width) {
    return builder.CreateICmpULT(width, builder.getInt64(narrow == whole ? kLoopCutMinWidth : kNarrowCutWidth));
  });
}

}  // namespace

PreservedAnalyses WorkGroupLoopsPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<Function *, 8> kernels;
  for (Function &F : M)
    if (!F.isDeclaration() && F.hasFnAttribute(kKernelNameAttr)) kernels.push_back(&F);
  for (Function *F : kernels) buildWorkGroupFunction(*F, foldNarrowRows, vectorBits);
  return kernels.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

}  // namespace lockstep::compiler

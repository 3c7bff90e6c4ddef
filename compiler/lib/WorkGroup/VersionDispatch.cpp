// VersionDispatchPass (lockstep-version-dispatch): after the work-group
// loops, each kernel's prologue picks the version (KernelVersions.cpp) that
// suits its group's local size along x, and calls it instead of running its
// own body: groups too narrow to widen a cut loop's rows run the version
// without loop cuts, narrow rows of a cut kernel the one-vector-a-trip
// version, rows of a straight-line kernel that are not a multiple of the
// vector step the masked-tail version, and rows of exactly the vector-row
// width (16) the version whose rows have that constant length, and rows a
// kernel's strips (Strips.cpp) do not divide the version with loop cuts
// over whole rows. The list of
// versions goes; each version is marked with its kernel
// (kDispatchedVersionAttr), for DeferVersionsPass.
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>

#include "Passes.h"
#include "Statistics.h"
#include "WorkGroup/PhaseMarkers.h"

using namespace llvm;

#define DEBUG_TYPE "lockstep-version-dispatch"
LOCKSTEP_STATISTIC(NumNarrowGroupVersions, "Kernels given a version without loop cuts for narrow groups");
LOCKSTEP_STATISTIC(NumNarrowRowVersions, "Straight-line kernels given a masked-tail version");
LOCKSTEP_STATISTIC(NumNarrowCutVersions, "Kernels with loop cuts given a version for narrow rows");
LOCKSTEP_STATISTIC(NumVectorRowVersions, "Kernels given a version for rows of the vector-row width");
LOCKSTEP_STATISTIC(NumWholeRowVersions, "Kernels in strips given a version for rows the strips do not divide");
LOCKSTEP_STATISTIC(NumEdgeGroupVersions, "Kernels given a version for the groups at the grid's edges");

namespace lockstep::compiler {

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

// Groups exactly this wide run a version whose work-item loops along x have
// this constant length (rows of 16 x 16 tiles). The vectorizer widens such
// a loop into one or two vector trips with no remainder and no runtime
// checks, and -O3 keeps what a row reads once in registers: a tiled SGEMM's
// compute phase becomes, per row, 16 multiply-adds with their broadcasts
// folded in (2-2.8x its rate on Zen 4), a transpose through a tile and a
// halo stencil 1.2-1.3x.
cl::opt<uint64_t> kVectorRowWidth("lockstep-vector-row-width", cl::Hidden, cl::init(16),
                                  cl::desc("Groups of this width run the version with constant-length rows (0: "
                                           "none)"));

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

// Makes `F`'s prologue call `alternative` (an internal copy of the kernel,
// with the same parameters, already named) when `useAlternative` says so,
// and go on as before otherwise (to its own body, or to the tests of an
// earlier call, which this one's test now comes before). The context and
// private memory the launcher allocates cover both.
void dispatchWhen(Function &F, Function *alternative, StringRef blockName,
                  function_ref<Value *(IRBuilder<> &)> useAlternative) {
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
  BasicBlock *next = prologue->splitBasicBlock(prologue->getTerminator(), "dispatch.next");
  Instruction *start = prologue->getTerminator();
  IRBuilder<> builder(start);
  BasicBlock *other = BasicBlock::Create(F.getContext(), blockName, &F);
  builder.CreateCondBr(useAlternative(builder), other, next);
  start->eraseFromParent();
  IRBuilder<> call(other);
  SmallVector<Value *, 4> arguments;
  for (Argument &argument : F.args()) arguments.push_back(&argument);
  call.CreateCall(alternative, arguments);
  call.CreateRetVoid();
}

// dispatchWhen on the group's width along x.
void dispatchByWidth(Function &F, Function *alternative, StringRef blockName,
                     function_ref<Value *(IRBuilder<> &, Value *width)> useAlternative) {
  dispatchWhen(F, alternative, blockName, [&](IRBuilder<> &builder) {
    return useAlternative(builder, loadGroupInfo(builder, F.getArg(kGroupInfoParam), kLocalSize, 0));
  });
}

// Whether the group is the first or the last along a dimension of more than
// one work-item: a group that holds the grid's first or last work-item
// along it. A dimension of one group (a group-free kernel's launch, whose
// groups the runtime makes as wide as the grid: NDRangeCommand.cpp) makes
// every group an edge group; a dimension of one work-item (y and z of a
// 1-D launch), none.
Value *isEdgeGroup(IRBuilder<> &builder, Function &F) {
  Value *groupInfo = F.getArg(kGroupInfoParam);
  Value *edge = builder.getFalse();
  for (unsigned d = 0; d < 3; ++d) {
    Value *id = loadGroupInfo(builder, groupInfo, kGroupId, d);
    Value *last = builder.CreateSub(loadGroupInfo(builder, groupInfo, kNumGroups, d), builder.getInt64(1));
    Value *atEnd = builder.CreateOr(builder.CreateICmpEQ(id, builder.getInt64(0)), builder.CreateICmpEQ(id, last));
    Value *spread = builder.CreateICmpUGT(loadGroupInfo(builder, groupInfo, kGlobalSize, d), builder.getInt64(1));
    edge = builder.CreateOr(edge, builder.CreateAnd(spread, atEnd));
  }
  return edge;
}

// width < kLoopCutMinWidth: `whole`; below kNarrowCutWidth: `narrowCut`
// (which hands the narrowest groups on to `whole`); else the kernel's own
// body. A straight-line kernel: `rows` where the width is not a multiple of
// kFullRowMultiple.
void dispatch(Function &F, Function *whole, Function *narrowCut, Function *rows) {
  if (rows) {
    ++NumNarrowRowVersions;
    dispatchByWidth(F, rows, "narrow.rows", [](IRBuilder<> &builder, Value *width) {
      return builder.CreateICmpNE(builder.CreateURem(width, builder.getInt64(kFullRowMultiple)), builder.getInt64(0));
    });
    return;
  }
  if (!whole) report_fatal_error("lockstep: a kernel's versions without the one that keeps its loops whole");
  ++NumNarrowGroupVersions;
  Function *narrow = whole;
  if (narrowCut) {
    ++NumNarrowCutVersions;
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

PreservedAnalyses VersionDispatchPass::run(Module &M, ModuleAnalysisManager &) {
  bool changed = false;
  for (Function *kernel : kernelsOf(M)) {
    SmallVector<Function *, 2> versions = versionsOf(*kernel);
    if (versions.empty()) continue;
    Function *whole = nullptr, *narrowCut = nullptr, *rows = nullptr, *wholeRows = nullptr, *edges = nullptr;
    SmallVector<Function *, 3> vectorRows;
    for (Function *version : versions) {
      switch (versionOf(*version)) {
        case WorkGroupVersion::WholeLoops: whole = version; break;
        case WorkGroupVersion::NarrowCut: narrowCut = version; break;
        case WorkGroupVersion::NarrowRows: rows = version; break;
        case WorkGroupVersion::VectorRows: vectorRows.push_back(version); break;
        case WorkGroupVersion::WholeRows: wholeRows = version; break;
        case WorkGroupVersion::EdgeGroups: edges = version; break;
        case WorkGroupVersion::LoopCuts: report_fatal_error("lockstep: a kernel listed as a version of another");
      }
    }
    // Tested last: rows the kernel's strips do not divide (Strips.cpp). A
    // kernel that did not take strips after all has no use for the version.
    if (uint64_t strip = functionAttrNumber(*kernel, kStripWidthAttr); wholeRows && strip != 0) {
      ++NumWholeRowVersions;
      bool intIds = kernel->hasFnAttribute(kStripIntIdsAttr);
      dispatchByWidth(*kernel, wholeRows, "whole.rows", [&](IRBuilder<> &builder, Value *width) {
        Value *partial = builder.CreateICmpNE(builder.CreateURem(width, builder.getInt64(strip)), builder.getInt64(0));
        if (!intIds) return partial;
        // Global ids along x past INT_MAX: `int` ids are not exact.
        Value *groupInfo = kernel->getArg(kGroupInfoParam);
        Value *offset = loadGroupInfo(builder, groupInfo, kGlobalOffset, 0);
        Value *size = loadGroupInfo(builder, groupInfo, kGlobalSize, 0);
        Value *limit = builder.getInt64(uint64_t(1) << 31);
        Value *past = builder.CreateOr(builder.CreateICmpUGT(offset, limit), builder.CreateICmpUGT(size, limit));
        past = builder.CreateOr(past, builder.CreateICmpUGT(builder.CreateAdd(offset, size), limit));
        return builder.CreateOr(partial, past);
      });
    } else if (wholeRows) {
      versions.erase(find(versions, wholeRows));
      wholeRows->eraseFromParent();
    }
    if (whole || narrowCut || rows) dispatch(*kernel, whole, narrowCut, rows);
    // Tested first: the widths that have versions of their own.
    for (Function *version : vectorRows) {
      ++NumVectorRowVersions;
      uint64_t rowWidth = functionAttrNumber(*version, kRowWidthAttr);
      dispatchByWidth(*kernel, version, "vector.rows", [&](IRBuilder<> &builder, Value *width) {
        return builder.CreateICmpEQ(width, builder.getInt64(rowWidth));
      });
    }
    // Tested before all: the groups at the grid's edges, whatever their width.
    if (edges) {
      ++NumEdgeGroupVersions;
      dispatchWhen(*kernel, edges, "edge.groups", [&](IRBuilder<> &builder) { return isEdgeGroup(builder, *kernel); });
    }
    for (Function *version : versions) {
      version->removeFnAttr(kWorkGroupVersionAttr);
      version->removeFnAttr(kRowWidthAttr);
      version->addFnAttr(kDispatchedVersionAttr, kernel->getName());
    }
    setVersions(*kernel, {});
    changed = true;
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

// KernelVersionsPass (lockstep-kernel-versions<fold-narrow-rows>): the
// versions of a kernel, cloned before anything is cut. A kernel with loops,
// barriers or collectives gets a copy that keeps its loops whole (for groups
// too narrow to widen a cut loop's rows) and one whose work-item loops take
// one vector a trip (for narrow rows); the loop cuts drop both where they
// cut nothing. It also gets one for rows of exactly 16 work-items (16 x 16
// tiles), whose work-item loops run a constant count, and one for the
// groups at the grid's edges, whose guarded loops are masked for the groups
// a guard splits (dropped where no such loop is). A kernel without a
// barrier or collective of its own runs in strips (Strips.cpp) and gets a
// copy that does not, for rows the strips do not divide. A straight-line
// kernel, with `fold-narrow-rows` (targets with masked vector memory
// access), gets a copy with masked loop tails for
// groups whose width is not a multiple of the vector step. Each copy is an
// internal function marked with its kind (kWorkGroupVersionAttr), listed on
// the kernel (kVersionsMetadata); VersionDispatch.cpp picks one per launch.
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include "Analysis/OpenCLNames.h"
#include "Passes.h"
#include "Statistics.h"
#include "WorkGroup/PhaseMarkers.h"

using namespace llvm;

#define DEBUG_TYPE "lockstep-kernel-versions"
LOCKSTEP_STATISTIC(NumLongStraightLine, "Straight-line kernels too long for a masked-tail version");

namespace lockstep::compiler {

// Groups narrower than this run the narrow-cut version (VersionDispatch.cpp;
// 0: there is none).
extern cl::opt<uint64_t> kNarrowCutWidth;
// Groups this wide run the vector-rows version (0: there is none).
extern cl::opt<uint64_t> kVectorRowWidth;

// Narrower rows with versions of their own. A loop over a row whose width
// is known only at run time is widened to 8 or 16 lanes and interleaved, and
// a row of 4 work-items never reaches its vector loop: it runs one work-item
// at a time. Rows of a constant 4, on the 2-core EPYC (alternating runs): a
// float4 SGEMM in 4 x 16 groups 18.8 -> 57.8 GFLOP/s (PoCL 30), a 4 x 4 tiled
// SGEMM 6.3 -> 10.8, a transpose through a 4 x 4 tile 6.6 -> 8.1 GB/s, a tree
// reduction in 4 x 4 groups 1.2 -> 2.5. Rows of 8 measured mixed (a tree
// reduction in 8 x 8 groups 3.0 -> 6.1 GB/s, but the 8 x 8 tiled SGEMM 36 ->
// 30 GFLOP/s and transpose 14.2 -> 11.0 GB/s, which the narrow-cut version
// and the kernel's own loops serve better), so 8 has none by default. Each
// version is compiled at its first call (DeferVersionsPass): a width no
// launch uses costs the build only its work-group passes.
cl::list<unsigned> kNarrowRowWidths("lockstep-narrow-row-widths", cl::Hidden, cl::CommaSeparated,
                                    cl::desc("Row widths below the vector-row width with versions of their own "
                                             "(default 4)"));

namespace {

// The masked-tail version pays where a kernel streams through memory, a few
// instructions per store; a straight-line kernel longer than this computes
// far more than it stores, and its second copy doubles the build (a 2,000-line
// hash-like kernel: 16,000 instructions, 5.2 s of which 2.0 s went to the
// masked-tail copy).
cl::opt<unsigned> kMaskedTailMaxInstructions(
    "lockstep-masked-tail-max-instructions", cl::Hidden, cl::init(2000),
    cl::desc("Straight-line kernels longer than this get no masked-tail version"));

// The vector-rows version is a fourth copy of the kernel through -O3.
cl::opt<unsigned> kVectorRowsMaxInstructions(
    "lockstep-vector-rows-max-instructions", cl::Hidden, cl::init(2000),
    cl::desc("Kernels longer than this get no version for rows of the vector-row width"));

// Groups at the grid's edges are the ones a guard splits (`if (i < n)` in
// the last group along x, `if (x > 0)` in the first): they run a version
// whose guarded loops mask the work-items the guard kept out, where the
// kernel's own body runs such a loop whole in each work-item (a 3-D
// stencil marching along z behind its guard: 14% of its groups took 85% of
// its time). In a version of its own, the masked loops leave the other
// groups' code as it was: in the kernel's body they made whole groups run
// 15-45% slower (a convolution, the same stencil without split groups).
cl::opt<bool> kEdgeGroupVersions("lockstep-edge-group-versions", cl::Hidden, cl::init(true),
                                 cl::desc("Give kernels with guarded loops a version for the groups at the grid's "
                                          "edges, whose split groups mask those loops"));

constexpr std::pair<WorkGroupVersion, const char *> kVersionNames[] = {
    {WorkGroupVersion::WholeLoops, "whole-loops"},
    {WorkGroupVersion::NarrowCut, "narrow-cut"},
    {WorkGroupVersion::NarrowRows, "narrow-rows"},
    {WorkGroupVersion::VectorRows, "vector-rows"},
    {WorkGroupVersion::WholeRows, "whole-rows"},
    {WorkGroupVersion::EdgeGroups, "edge-groups"},
};

// A kernel without loops, barriers or collectives: one pass over its
// work-items that streams through memory (RetargetToHost.cpp picks its
// vector width by that).
bool isStraightLine(Function &F, FunctionAnalysisManager &analyses) {
  return analyses.getResult<LoopAnalysis>(F).empty() && !hasBarrierOrCollective(F);
}

Function *cloneVersion(Function &kernel, WorkGroupVersion version, const Twine &suffix) {
  ValueToValueMapTy map;
  Function *copy = CloneFunction(&kernel, map);
  copy->setLinkage(GlobalValue::InternalLinkage);
  copy->setName(kernel.getName() + suffix);
  setVersion(*copy, version);
  return copy;
}

// The widths with vector-rows versions: the vector-row width and the
// narrower ones asked for (4 unless the option names others).
SmallVector<uint64_t, 4> vectorRowWidths() {
  SmallVector<uint64_t, 4> widths;
  if (kVectorRowWidth == 0) return widths;
  widths.push_back(kVectorRowWidth);
  static const unsigned kDefaultNarrow[] = {4};
  ArrayRef<unsigned> narrow = kNarrowRowWidths.getNumOccurrences() ? ArrayRef<unsigned>(kNarrowRowWidths)
                                                                   : ArrayRef<unsigned>(kDefaultNarrow);
  for (unsigned width : narrow)
    if (width > 1 && width < kVectorRowWidth) widths.push_back(width);
  return widths;
}

}  // namespace

WorkGroupVersion versionOf(const Function &F) {
  Attribute attribute = F.getFnAttribute(kWorkGroupVersionAttr);
  if (!attribute.isValid()) return WorkGroupVersion::LoopCuts;
  for (auto [version, name] : kVersionNames)
    if (attribute.getValueAsString() == name) return version;
  report_fatal_error("lockstep: unknown work-group version " + attribute.getValueAsString());
}

void setVersion(Function &F, WorkGroupVersion version) {
  for (auto [kind, name] : kVersionNames)
    if (kind == version) F.addFnAttr(kWorkGroupVersionAttr, name);
}

WorkGroupLoopsOptions optionsFor(const Function &F, unsigned vectorBits) {
  WorkGroupVersion version = versionOf(F);
  bool strips = version == WorkGroupVersion::LoopCuts && any_of(versionsOf(F), [](const Function *other) {
                  return versionOf(*other) == WorkGroupVersion::WholeRows;
                });
  return {.cutLoops = version == WorkGroupVersion::LoopCuts || version == WorkGroupVersion::NarrowCut ||
                      version == WorkGroupVersion::WholeRows || version == WorkGroupVersion::EdgeGroups,
          .foldTails = version == WorkGroupVersion::NarrowRows,
          .narrowRows = version == WorkGroupVersion::NarrowCut || version == WorkGroupVersion::VectorRows,
          .rowWidth = version == WorkGroupVersion::VectorRows ? functionAttrNumber(F, kRowWidthAttr) : 0,
          .stripWidth = strips ? stripWidthFor(vectorBits) : 0,
          .vectorBits = vectorBits};
}

SmallVector<Function *, 2> versionsOf(const Function &kernel) {
  SmallVector<Function *, 2> versions;
  if (MDNode *node = kernel.getMetadata(kVersionsMetadata))
    for (const MDOperand &operand : node->operands())
      if (auto *value = dyn_cast_or_null<ValueAsMetadata>(operand.get()))
        versions.push_back(cast<Function>(value->getValue()));
  return versions;
}

void setVersions(Function &kernel, ArrayRef<Function *> versions) {
  SmallVector<Metadata *, 2> operands;
  for (Function *version : versions) operands.push_back(ValueAsMetadata::get(version));
  kernel.setMetadata(kVersionsMetadata, versions.empty() ? nullptr : MDNode::get(kernel.getContext(), operands));
}

SmallVector<Function *, 8> kernelsOf(Module &M) {
  SmallVector<Function *, 8> kernels;
  for (Function &F : M)
    if (!F.isDeclaration() && F.hasFnAttribute(kKernelNameAttr) && !F.hasFnAttribute(kWorkGroupVersionAttr))
      kernels.push_back(&F);
  return kernels;
}

PreservedAnalyses KernelVersionsPass::run(Module &M, ModuleAnalysisManager &moduleAnalyses) {
  FunctionAnalysisManager &analyses = moduleAnalyses.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  SmallVector<Function *, 8> kernels = kernelsOf(M);
  for (Function *F : kernels) {
    bool straightLine = isStraightLine(*F, analyses);
    if (straightLine) F->addFnAttr(kStraightLineAttr);
    F->addFnAttr(kWorkGroupCodeAttr);  // the copies below inherit it
    SmallVector<Function *, 2> versions;
    if (straightLine) {
      if (!foldNarrowRows) continue;
      if (F->getInstructionCount() > kMaskedTailMaxInstructions) {
        ++NumLongStraightLine;
        continue;
      }
      versions.push_back(cloneVersion(*F, WorkGroupVersion::NarrowRows, ".narrow_rows"));
    } else {
      versions.push_back(cloneVersion(*F, WorkGroupVersion::WholeLoops, ".whole_loops"));
      if (mayRunInStrips(*F))
        versions.push_back(cloneVersion(*F, WorkGroupVersion::WholeRows, ".whole_rows"));
      if (kNarrowCutWidth != 0) versions.push_back(cloneVersion(*F, WorkGroupVersion::NarrowCut, ".narrow_cut"));
      // Kept only where the kernel's guarded loops get masked (LoopCuts.cpp).
      if (kEdgeGroupVersions) versions.push_back(cloneVersion(*F, WorkGroupVersion::EdgeGroups, ".edge_groups"));
      if (F->getInstructionCount() <= kVectorRowsMaxInstructions)
        for (uint64_t width : vectorRowWidths()) {
          Function *rows = cloneVersion(*F, WorkGroupVersion::VectorRows,
                                        width == kVectorRowWidth ? Twine(".vector_rows")
                                                                 : ".vector_rows" + Twine(width));
          rows->addFnAttr(kRowWidthAttr, std::to_string(width));
          versions.push_back(rows);
        }
    }
    setVersions(*F, versions);
  }
  return kernels.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

}  // namespace lockstep::compiler

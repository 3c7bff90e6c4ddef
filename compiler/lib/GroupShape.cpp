// GroupShapePass, before the work-item functions become GroupInfo reads:
// what shape of work-group suits a kernel, and whether the kernel could tell
// one shape from another.
//
// Shape. A group runs its work-items row by row, x fastest. Each global
// access of the kernel has a slope along x: how far its address moves when
// get_global_id(0) grows by one, read from the address's arithmetic
// (Analysis/AccessSlope.h: through `int` indices' extensions, clamps such as
// max(x - 1, 0), index helpers the kernel calls).
//
//   in[y * W + x], out[y * W + x]    slopes 4, 4            -> rows
//   out[x * H + y] = in[y * W + x]   slopes 4 * H (unknown  -> columns
//                                    at compile time), 4
//
// Rows (every slope small: 0 to kRowSlopeBytes): a group a few rows tall and
// wide along x streams whole rows; a 16 x 16 group of a 4096-wide stencil
// keeps 34 short streams going (16 rows in, 2 of halo, 16 out), more than the
// hardware prefetchers follow (20 GB/s against 30-33 for 256 x 4 on a
// 2-core EPYC). Columns (some slope a row's pitch or more): a narrow, tall
// group walks down its columns, the accesses along y consecutive (a naive
// transpose: 2.3 GB/s at 1024 x 1, 5.2-7.7 at 16 x 64). A slope the pass
// cannot read (an index loaded from memory, a hash) leaves the kernel
// without a shape. Recorded as kGroupShapeAttr ("rows" or "columns"); the
// runtime's choice of a NULL local size follows it.
//
// Column stores. A kernel whose stores all run down columns (and none
// elsewhere) is marked kColumnStoresAttr: where it is straight-line, its
// work-item loops run y innermost, widened along y (storesRunDownColumns).
//
// Free. A kernel that cannot tell one shape of its groups from another
// (Analysis/GroupFreedom.h: it never asks for its group, has no barrier,
// __local memory or narrow atomics) is marked kGroupFreeAttr; the runtime may then run a launch in the groups of its
// shape rather than the local size the application gave (a 16 x 16 local
// size is written by habit in many host programs whose kernels use only
// get_global_id).
#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>

#include "Analysis/AccessSlope.h"
#include "Analysis/GroupFreedom.h"
#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-group-shape"

using namespace llvm;

LOCKSTEP_STATISTIC(NumRows, "Kernels whose accesses run along x (groups of rows)");
LOCKSTEP_STATISTIC(NumColumns, "Kernels with an access down a column (narrow, tall groups)");
LOCKSTEP_STATISTIC(NumFree, "Kernels that cannot observe the shape of their groups");
LOCKSTEP_STATISTIC(NumColumnStores, "Kernels whose stores all run down columns (work-item loops y innermost)");

static cl::opt<unsigned> RowSlopeBytes(
    "lockstep-group-shape-row-slope", cl::init(256), cl::Hidden,
    cl::desc("The largest slope along x, in bytes, of an access that still runs along a row"));

static cl::opt<bool> GroupShapes("lockstep-group-shapes", cl::init(true), cl::Hidden,
                                 cl::desc("Record the group shape each kernel suits and whether it is free "
                                          "to run in any (off: the runtime keeps the local size it is given)"));

static cl::opt<bool> ColumnStores("lockstep-column-stores", cl::init(true), cl::Hidden,
                                  cl::desc("Straight-line kernels whose stores all run down columns run their "
                                           "work-item loops y innermost"));

namespace lockstep::compiler {
namespace {

enum class Shape { None, Rows, Columns };

// Whether every global store of `F` (and at least one) runs down a column:
// a row's pitch or more along x, at most 16 bytes along y (`out[x * H + y] =
// in[y * W + x]`), but those that stay in one place along y. Rodinia's
// Gaussian elimination (Fan2: `a[size * (x + 1 + t) + y + t] -= m[...] *
// a[size * t + y + t]`, and `b[x + 1 + t]` where y is 0) ran at PoCL's speed
// widened along x (900-1,100 Melem/s against 750-975), 2,000-2,200 along y.
// Widened along x, as the work-item loops run, such a store scatters a vector's lanes a row apart, each lane another cache line,
// and the lines of a power-of-two pitch share a cache set: a 4096^2 naive
// transpose in 16 x 16 groups ran at 3.5 GB/s, PoCL's 2.9. Widened along y
// it stores whole vectors and gathers the loads instead: 7.8 GB/s, as a
// blocked native transpose. A store the kernel hands to a function it calls,
// an atomic or a memory intrinsic, leaves the kernel as it is.
bool storesRunDownColumns(const Function &F, const DataLayout &layout) {
  SlopeReader alongX(layout), alongY(layout, ParameterSlopes(), 0, 1);
  bool any = false;
  for (const Instruction &I : instructions(F)) {
    if (auto *call = dyn_cast<CallBase>(&I)) {
      bool global = any_of(call->args(), [](const Value *arg) {
        return arg->getType()->isPointerTy() && isGlobalSpace(arg->getType()->getPointerAddressSpace());
      });
      if (global) return false;
      continue;
    }
    if (!I.mayWriteToMemory()) continue;
    const Value *address = globalAddress(I);
    if (!address) continue;
    if (!isa<StoreInst>(I)) return false;  // an atomic
    Slope x = alongX.of(address), y = alongY.of(address);
    // A store to one place for the whole column (Gaussian elimination's
    // `if (y == 0) b[x + 1 + t] -= ...` beside its row update) is one
    // store per vector either way.
    if (y.kind == Slope::Zero) continue;
    bool column = x.kind == Slope::Symbolic ||
                  (x.kind == Slope::Constant && uint64_t(std::abs(x.bytes)) > RowSlopeBytes);
    bool down = y.kind == Slope::Constant && std::abs(y.bytes) <= 16;
    if (!column || !down) return false;
    any = true;
  }
  return any;
}

// Reads the slopes of a function's global accesses, and of the functions it
// calls with their arguments' slopes (kMaxCallDepth deep; a call deeper, or
// of a function not defined here, that takes a moving argument: none).
class ShapeScan {
 public:
  explicit ShapeScan(const DataLayout &layout) : layout(layout) {}

  Shape run(const Function &F) {
    scan(F, ParameterSlopes(), 0);
    return unknown ? Shape::None : column ? Shape::Columns : Shape::Rows;
  }

 private:
  static constexpr unsigned kMaxCallDepth = SlopeReader::kMaxCallDepth;

  void scan(const Function &F, ParameterSlopes parameters, unsigned depth) {
    SlopeReader reader(layout, std::move(parameters), depth);
    for (const Instruction &I : instructions(F)) {
      if (unknown) return;
      if (auto *call = dyn_cast<CallBase>(&I)) {
        if (!isa<IntrinsicInst>(call)) this->call(*call, reader, depth);
        continue;
      }
      if (const Value *address = globalAddress(I)) access(reader.of(address), I);
    }
  }

  void call(const CallBase &call, SlopeReader &reader, unsigned depth) {
    // Only a call given the caller's global memory may access it.
    if (none_of(call.args(), [](const Value *arg) {
          return arg->getType()->isPointerTy() && isGlobalSpace(arg->getType()->getPointerAddressSpace());
        }))
      return;
    const Function *callee = call.getCalledFunction();
    auto [bound, moves] = reader.bind(call, callee);
    if (!callee || callee->isDeclaration() || depth >= kMaxCallDepth) {
      if (moves) unknown = true;  // where it reads, we cannot say
      return;
    }
    scan(*callee, std::move(bound), depth + 1);
  }

  void access(Slope slope, const Instruction &I) {
    LLVM_DEBUG(dbgs() << "group-shape: " << I << ": slope kind " << int(slope.kind) << ", " << slope.bytes
                      << " bytes\n");
    if (slope.kind == Slope::Unknown) unknown = true;
    if (slope.kind == Slope::Symbolic ||
        (slope.kind == Slope::Constant && uint64_t(std::abs(slope.bytes)) > RowSlopeBytes))
      column = true;
  }

  const DataLayout &layout;
  bool unknown = false, column = false;
};

}  // namespace

PreservedAnalyses GroupShapePass::run(Module &M, ModuleAnalysisManager &) {
  if (!GroupShapes) return PreservedAnalyses::all();
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasFnAttribute(kKernelNameAttr)) continue;
    switch (ShapeScan(M.getDataLayout()).run(F)) {
      case Shape::Rows: F.addFnAttr(kGroupShapeAttr, kGroupShapeRows), ++NumRows; break;
      case Shape::Columns:
        F.addFnAttr(kGroupShapeAttr, kGroupShapeColumns), ++NumColumns;
        if (ColumnStores && storesRunDownColumns(F, M.getDataLayout()))
          F.addFnAttr(kColumnStoresAttr), ++NumColumnStores;
        break;
      case Shape::None: break;
    }
    if (isGroupShapeFree(F)) F.addFnAttr(kGroupFreeAttr), ++NumFree;
  }
  return PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

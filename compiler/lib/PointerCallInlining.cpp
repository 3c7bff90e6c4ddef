// PointerCallInliningPass, after the work-group functions are built and
// before -O3: a call in a work-item loop to a function of the program or the
// built-ins that takes a pointer to global, constant, local or generic
// memory is inlined, its loads and stores joining the loop's access group.
//
// The work-group loops mark every access and call of a region with the
// loop's access group (its iterations, the work-items, are independent),
// which the vectorizer needs to widen the loop without proving it.
// Inlined there, a function's accesses take the call's mark. But -O3's
// ArgumentPromotion reaches a small callee first (the call graph is walked
// from the callees up) and, where it only loads through a pointer argument,
// makes each call site load the value and pass it: a load without the mark.
// `vload4(0, p + off)` of a `uchar *` did that, and the loop of a bilinear
// resize stayed scalar (10.4 ms, against 3.3 through a `uchar4 *` whose load
// the loop's own code makes; PoCL 7.9). A kernel's own helpers that read
// through a pointer (`float at(global float *p, int i)`) fared the same.
//
// KernelWrapper.cpp inlines such functions into the kernel before the
// work-group passes only where bounds checking follows addresses; doing so
// always would hand every kernel's helpers, uncapped, to the passes that
// read the kernel as written. Here, after them, only the calls the loops'
// access groups depend on go in.
//
// Only calls that carry an access group (in a work-item loop), to defined
// functions that are not `noinline`, of at most kMaxCalleeInstructions;
// functions with pointers to private memory only (sincos's output, which
// the vector math library widens as a call) are left to -O3.
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-pointer-call-inlining"

using namespace llvm;

static cl::opt<bool> Enabled(
    "lockstep-pointer-call-inlining", cl::init(true), cl::Hidden,
    cl::desc("Inline work-item loops' calls of functions taking pointers to "
             "global, constant, local or generic memory before -O3"));
static cl::opt<unsigned> kMaxCalleeInstructions(
    "lockstep-pointer-call-max-size", cl::init(1000), cl::Hidden,
    cl::desc("Largest function (in instructions) PointerCallInliningPass inlines"));

LOCKSTEP_STATISTIC(NumInlined,
                   "Work-item loops' calls of functions taking shared pointers, inlined");

namespace lockstep::compiler {
namespace {

bool takesSharedPointer(const Function &F) {
  for (const Argument &arg : F.args())
    if (auto *pointer = dyn_cast<PointerType>(arg.getType());
        pointer && pointer->getAddressSpace() != 0)
      return true;
  return false;
}

bool inlines(const CallBase &call) {
  const Function *callee = call.getCalledFunction();
  if (!callee || callee->isDeclaration() || callee->hasFnAttribute(Attribute::NoInline) ||
      callee == call.getFunction() || !call.hasMetadata(LLVMContext::MD_access_group) ||
      !takesSharedPointer(*callee))
    return false;
  return callee->getInstructionCount() <= kMaxCalleeInstructions;
}

}  // namespace

PreservedAnalyses PointerCallInliningPass::run(Module &M, ModuleAnalysisManager &) {
  if (!Enabled) return PreservedAnalyses::all();
  bool changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasFnAttribute(kWorkGroupCodeAttr)) continue;
    // Inlined bodies may hold calls of their own: until none is left (a
    // recursive call is refused where the program is built).
    for (bool again = true; again;) {
      again = false;
      SmallVector<CallBase *, 8> calls;
      for (Instruction &I : instructions(F))
        if (auto *call = dyn_cast<CallBase>(&I); call && inlines(*call)) calls.push_back(call);
      for (CallBase *call : calls) {
        LLVM_DEBUG(dbgs() << "inlining " << call->getCalledFunction()->getName() << " into "
                          << F.getName() << "\n");
        InlineFunctionInfo info;
        if (InlineFunction(*call, info).isSuccess()) {
          ++NumInlined;
          again = changed = true;
        }
      }
    }
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

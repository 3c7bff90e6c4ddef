// Machine code for a prepared module or a part of one: the optimize
// pipeline, then the target machine's code generator, to an object file.
// What LLVM reports on the way (a `#pragma unroll` it could not honour)
// goes to the build log; its pass timings and statistics, when
// LOCKSTEP_LLVM_OPTIONS asks for them, to stderr.
#include <llvm/ADT/Statistic.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassTimingInfo.h>
#include <llvm/Pass.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include "Backend.h"
#include "Internal.h"

using namespace llvm;

namespace lockstep::compiler {

// -O3 and machine code for a module or a part: the object file, and what
// the optimize passes marked on the work-group functions.
bool compilePart(Module &M, const FrontendOptions &options, std::string &object,
                 std::vector<OptimizedFunction> &functions, std::string &log) {
  // What LLVM itself reports while it optimizes (a `#pragma unroll` it
  // could not honour) goes to the build log, once per message, not to the
  // application's stderr, where LLVM's default handler prints it; -w drops
  // the warnings, as it does the frontend's.
  struct Reports {
    std::string &log;
    bool warnings;
    StringSet<> seen;
  } reports{log, !is_contained(options.clangArgs, "-w"), {}};
  LLVMContext &context = M.getContext();
  DiagnosticHandler::DiagnosticHandlerTy previous = context.getDiagnosticHandlerCallBack();
  void *previousContext = context.getDiagnosticContext();
  context.setDiagnosticHandlerCallBack(
      [](const DiagnosticInfo *info, void *out) {
        auto &reports = *static_cast<Reports *>(out);
        // Remarks come only when a developer asked for them
        // (LOCKSTEP_LLVM_OPTIONS=-pass-remarks...): to stderr, as opt prints them.
        if (info->getSeverity() == DS_Remark) {
          if (auto *remark = dyn_cast<DiagnosticInfoOptimizationBase>(info); remark && remark->isEnabled())
            errs() << remark->getFunction().getName() << ": " << remark->getPassName() << ": " << remark->getMsg()
                   << "\n";
          return;
        }
        if (info->getSeverity() != DS_Error && (info->getSeverity() != DS_Warning || !reports.warnings)) return;
        std::string text;
        raw_string_ostream stream(text);
        if (auto *optimization = dyn_cast<DiagnosticInfoOptimizationBase>(info)) {
          stream << optimization->getMsg();
        } else {
          DiagnosticPrinterRawOStream printer(stream);
          info->print(printer);
        }
        if (!reports.seen.insert(text).second) return;
        reports.log += (info->getSeverity() == DS_Error ? "error: " : "warning: ") + text + "\n";
      },
      &reports);
  struct Restore {
    LLVMContext &context;
    DiagnosticHandler::DiagnosticHandlerTy handler;
    void *handlerContext;
    ~Restore() { context.setDiagnosticHandlerCallBack(handler, handlerContext); }
  } restore{context, previous, previousContext};
  optimizeModule(M, options);
  for (const Function &F : M) {
    if (F.isDeclaration() || F.hasLocalLinkage()) continue;
    OptimizedFunction found{F.getName().str(), F.hasFnAttribute(kStreamingStoresAttr), {}};
    SmallVector<StringRef, 4> offsets;
    F.getFnAttribute(kCombinedAtomicsAttr).getValueAsString().split(offsets, ',', -1, false);
    for (StringRef text : offsets)
      if (uint32_t offset; !text.getAsInteger(10, offset)) found.combinedAtomicOffsets.push_back(offset);
    if (found.streamingStores || !found.combinedAtomicOffsets.empty()) functions.push_back(std::move(found));
  }
  SmallVector<char, 0> buffer;
  raw_svector_ostream stream(buffer);
  legacy::PassManager passes;
  if (hostTargetMachine().addPassesToEmitFile(passes, stream, nullptr, CodeGenFileType::ObjectFile)) {
    log += "internal error: the target cannot emit object files\n";
    return false;
  }
  passes.run(M);
  // LOCKSTEP_LLVM_OPTIONS=-time-passes: the code generator's passes run in
  // the legacy pass manager, whose timings LLVM prints only at shutdown,
  // which a driver never reaches; printed here, after each part.
  if (TimePassesIsEnabled) reportAndResetTimings(&errs());
  object.assign(buffer.begin(), buffer.end());
  return true;
}

void reportStatistics() {
  if (!AreStatisticsEnabled()) return;
  PrintStatistics(errs());
  ResetStatistics();
}

}  // namespace lockstep::compiler

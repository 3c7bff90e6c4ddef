// From a linked OpenCL program module to host machine code: link the
// builtins, form the work-group functions (KernelWrapper, WorkItemBuiltins,
// LocalMemoryLayout, WorkGroupLoops), then cut the module into parts that
// retarget from spir64 to the host, run LLVM's -O3 pipeline (whose loop
// vectorizer widens the innermost work-item loops) and compile to object
// files in parallel.
#include <llvm/ADT/StringSet.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/PassTimingInfo.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/StandardInstrumentations.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>
#include <llvm/Transforms/IPO/Internalize.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Utils/LCSSA.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <numeric>

#include "Analysis/WorkItemDivergence.h"
#include "Internal.h"

extern "C" const char lockstep_builtin_chunks[];
extern "C" const char lockstep_builtin_chunks_end[];

using namespace llvm;

namespace lockstep::compiler {
namespace {

// The builtins library, cut at build time into chunks of a few dozen
// functions with an index of which chunk defines each (format in
// builtins/tools/split_builtins.cpp). Reading bitcode costs in proportion to
// what the module declares, so a build reads only the chunks it needs.
struct BuiltinChunks {
  std::vector<StringRef> chunks;
  StringMap<unsigned> chunkOf;
  std::string error;
};

const BuiltinChunks &builtinChunks() {
  static const BuiltinChunks library = [] {
    BuiltinChunks parsed;
    StringRef rest(lockstep_builtin_chunks, lockstep_builtin_chunks_end - lockstep_builtin_chunks);
    auto nextLine = [&rest] {
      auto [line, after] = rest.split('\n');
      rest = after;
      return line;
    };
    auto fail = [&parsed](const char *what) {
      parsed.chunks.clear();
      parsed.chunkOf.clear();
      parsed.error = std::string("internal error: the embedded builtins are damaged (") + what + ")\n";
      return parsed;
    };
    if (nextLine() != "LOCKSTEP-BUILTIN-CHUNKS 2") return fail("header");
    nextLine();  // the data's hash (builtinLibraryHash)
    size_t chunkCount = 0, symbolCount = 0;
    if (nextLine().getAsInteger(10, chunkCount)) return fail("chunk count");
    std::vector<std::pair<size_t, size_t>> placement(chunkCount);
    for (auto &[offset, size] : placement) {
      auto [first, second] = nextLine().split(' ');
      if (first.getAsInteger(10, offset) || second.getAsInteger(10, size)) return fail("chunk table");
    }
    if (nextLine().getAsInteger(10, symbolCount)) return fail("symbol count");
    for (size_t i = 0; i < symbolCount; ++i) {
      auto [name, chunkText] = nextLine().split(' ');
      unsigned chunk = 0;
      if (chunkText.getAsInteger(10, chunk) || chunk >= chunkCount) return fail("symbol table");
      parsed.chunkOf[name] = chunk;
    }
    if (nextLine().rtrim(' ') != "data") return fail("data mark");
    for (auto [offset, size] : placement) {
      if (offset + size > rest.size()) return fail("chunk bounds");
      parsed.chunks.push_back(rest.substr(offset, size));
    }
    return parsed;
  }();
  return library;
}

}  // namespace

std::string_view builtinLibraryHash() {
  // The header's second line, written at build time: hashing the 3 MB of
  // chunks here took 0.4-0.7 ms of every process's first build, a fifth of a
  // warm build.
  std::string_view rest(lockstep_builtin_chunks, lockstep_builtin_chunks_end - lockstep_builtin_chunks);
  size_t first = rest.find('\n');
  if (first == std::string_view::npos) return {};
  size_t second = rest.find('\n', first + 1);
  return second == std::string_view::npos ? std::string_view() : rest.substr(first + 1, second - first - 1);
}

namespace {

// Links, chunk by chunk, the builtins that the module declares, and what
// those call in turn, until no declaration is left that the library defines.
bool linkBuiltins(Module &M, std::string &log) {
  const BuiltinChunks &library = builtinChunks();
  if (!library.error.empty()) {
    log += library.error;
    return false;
  }
  for (;;) {
    SmallVector<unsigned, 8> needed;
    // By name: linking may replace a declaration by a new function.
    SmallVector<std::string, 8> wanted;
    for (Function &F : M) {
      if (!F.isDeclaration() || F.isIntrinsic()) continue;
      auto it = library.chunkOf.find(F.getName());
      if (it == library.chunkOf.end()) continue;
      wanted.push_back(F.getName().str());
      if (!is_contained(needed, it->second)) needed.push_back(it->second);
    }
    if (needed.empty()) return true;
    for (unsigned chunk : needed) {
      Expected<std::unique_ptr<Module>> builtins =
          getLazyBitcodeModule(MemoryBufferRef(library.chunks[chunk], "builtins.bc"), M.getContext());
      if (!builtins) {
        log += "internal error: cannot read the builtins: " + toString(builtins.takeError()) + "\n";
        return false;
      }
      (*builtins)->setDataLayout(M.getDataLayout());
      (*builtins)->setTargetTriple(M.getTargetTriple());
      if (Linker::linkModules(M, std::move(*builtins), Linker::LinkOnlyNeeded)) {
        log += "internal error: cannot link the builtins\n";
        return false;
      }
    }
    // Each round defines what the last one declared; stop rather than loop if not.
    if (none_of(wanted, [&](const std::string &name) {
          const Function *F = M.getFunction(name);
          return F && !F->isDeclaration();
        })) {
      log += "internal error: the builtins do not define " + wanted.front() + "\n";
      return false;
    }
  }
}

struct Analyses {
  // `library`, when given, replaces the target library info the builder
  // would make (it must outlive the analyses).
  explicit Analyses(PassBuilder &builder, const TargetLibraryInfoImpl *library = nullptr) {
    if (library) functions.registerPass([library] { return TargetLibraryAnalysis(*library); });
    builder.registerModuleAnalyses(modules);
    builder.registerCGSCCAnalyses(sccs);
    builder.registerFunctionAnalyses(functions);
    builder.registerLoopAnalyses(loops);
    builder.crossRegisterProxies(loops, functions, sccs, modules);
  }
  LoopAnalysisManager loops;
  FunctionAnalysisManager functions;
  CGSCCAnalysisManager sccs;
  ModuleAnalysisManager modules;
};


// Kernels call libm (through the builtins and LLVM's math intrinsics); make
// it visible to symbol lookups even when the host program doesn't link it.
void loadMathLibrary() {
  static const bool loaded = [] {
    sys::DynamicLibrary::LoadLibraryPermanently(nullptr);
    return !sys::DynamicLibrary::LoadLibraryPermanently("libm.so.6");
  }();
  (void)loaded;
}

// A call of a function that neither the program, the builtins, the
// work-group passes nor the process define is a link error, reported with
// the function's source name.
bool checkUndefined(const Module &M, std::string &log) {
  static const StringRef provided[] = {"printf", kLocalIdPlaceholder, "__lockstep_is_local_pointer",
                                       "__lockstep_is_private_pointer"};
  bool ok = true;
  for (const Function &F : M) {
    if (!F.isDeclaration() || F.isIntrinsic() || F.use_empty()) continue;
    StringRef name = F.getName();
    if (is_contained(provided, name) || isImageAccessor(name) || name.contains("barrier") || name.starts_with("_Z12get_") ||
        name.starts_with("_Z13get_") || name.starts_with("_Z14get_") || name.starts_with("_Z15get_") ||
        name.starts_with("_Z17get_") || name.starts_with("_Z19get_") || name.starts_with("_Z20get_") ||
        name.starts_with("_Z23get_") || name.contains("work_group_") || name.contains("sub_group"))
      continue;
    if (sys::DynamicLibrary::SearchForAddressOfSymbol(name.str())) continue;
    log += "error: undefined function '" + demangle(name) + "' (" + name.str() + ")\n";
    ok = false;
  }
  return ok;
}

// Whether LOCKSTEP_DUMP_IR asks for the module at this point.
bool dumpRequested(std::string_view point) {
  const char *dump = std::getenv("LOCKSTEP_DUMP_IR");
  return dump && std::string_view(dump) == point;
}

// -O3 (or -O1 with -cl-opt-disable) and the passes that work on its result,
// on a prepared module or a part of one, retargeted to the host first.
void optimizeModule(Module &M, const FrontendOptions &options) {
  TargetMachine &machine = hostTargetMachine();
  PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  // LLVM's pass instrumentation, so that LOCKSTEP_LLVM_OPTIONS's
  // -print-after-all, -print-changed or -time-passes see this pipeline.
  PassInstrumentationCallbacks instrumentation;
  StandardInstrumentations standard(M.getContext(), /*DebugLogging=*/false);
  PassBuilder builder(&machine, tuning, std::nullopt, &instrumentation);
  bool checkedBounds = M.getModuleFlag(kCheckBoundsAttr) != nullptr;
  builder.registerVectorizerStartEPCallback(
      [checkedBounds](FunctionPassManager &passes, OptimizationLevel) {

        // The loop vectorizer widens only scalar instructions: a work-item
        // loop over float4 or int3 values (n-body's positions) stayed one
        // work-item a trip, in 128-bit halves of a register. Split into
        // scalars, each element widens across the work-items (an n-body
        // kernel ran 8x faster); straight-line float4 code widens too
        // (normalize 1.8x), and what the vectorizer leaves scalar, the SLP
        // vectorizer after it packs again.
        passes.addPass(ScalarizeWorkGroupCodePass());
        passes.addPass(InstCombinePass());
        passes.addPass(InteriorVersioningPass());
        // Bounds checking: loops whose checks hold throughout run a copy
        // without them (the settled branches fold away here).
        if (checkedBounds) {
          passes.addPass(BoundsCheckVersioningPass());
          passes.addPass(SimplifyCFGPass());
        }
        passes.addPass(UniformDivisionPass());
        passes.addPass(SpreadLoopsPass());
      });
  // The math builtins' vector variants (VectorMath.cpp), for the vectorizer.
  TargetLibraryInfoImpl library(machine.getTargetTriple());
  library.addVectorizableFunctions(vectorMathMappings());
  Analyses analyses(builder, &library);
  standard.registerCallbacks(instrumentation, &analyses.modules);
  OptimizationLevel level = options.optDisable ? OptimizationLevel::O1 : OptimizationLevel::O3;
  ModulePassManager passes;
  passes.addPass(RetargetToHostPass(machine));
  if (checkedBounds) {
    FunctionPassManager versioning;
    versioning.addPass(LoopSimplifyPass());
    versioning.addPass(LCSSAPass());
    versioning.addPass(BoundsCheckVersioningPass());
    versioning.addPass(SimplifyCFGPass());
    passes.addPass(createModuleToFunctionPassAdaptor(std::move(versioning)));
  }
  passes.addPass(builder.buildPerModuleDefaultPipeline(level));
  passes.addPass(MaskedMemoryGuardsPass());
  passes.addPass(SpacedAccessesPass());
  passes.addPass(StridedRunPrefetchPass());
  passes.addPass(StreamingStoresPass());
  passes.addPass(VectorMathCallersPass());
  passes.addPass(LocalAtomicLoweringPass());
  passes.run(M, analyses.modules);
  if (dumpRequested("final")) {
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    M.print(errs(), nullptr);
  }
}

// -O3 and machine code for a module or a part: the object file, and the
// work-group functions StreamingStoresPass marked.
bool compilePart(Module &M, const FrontendOptions &options, std::string &object,
                 std::vector<std::string> &streamingStores, std::string &log) {
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
  for (const Function &F : M)
    if (!F.isDeclaration() && !F.hasLocalLinkage() && F.hasFnAttribute(kStreamingStoresAttr))
      streamingStores.push_back(F.getName().str());
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

// ---- parts that compile in parallel -------------------------------------------

// The externally visible functions (the work-group functions the runtime
// looks up) grouped into parts, with everything each part's functions
// reach. A part is optimized and compiled on its own, with a copy of each
// internal function it calls, so -O3 inlines as it would in the whole
// module. A global variable that several parts use is one object all the
// same: one part defines it, under an external name; the others declare it
// (their copy of a constant stays available to -O3, to fold loads from).
// Only a constant whose address nothing can tell apart is copied outright.
// Functions that call one another stay in one part.
struct Part {
  SmallPtrSet<const GlobalValue *, 32> reach;
  SmallPtrSet<const GlobalVariable *, 4> borrowed;  // defined by another part
  uint64_t cost = 0;                                // instructions
};

void collectReach(const Function &root, SmallPtrSetImpl<const GlobalValue *> &reach) {
  SmallVector<const GlobalValue *, 32> work{&root};
  SmallPtrSet<const Constant *, 32> seen;
  SmallVector<const Constant *, 16> constants;
  reach.insert(&root);
  auto visit = [&](const Value *value) {
    auto *constant = dyn_cast<Constant>(value);
    if (!constant) return;
    constants.push_back(constant);
    while (!constants.empty()) {
      const Constant *next = constants.pop_back_val();
      if (auto *global = dyn_cast<GlobalValue>(next)) {
        if (reach.insert(global).second) work.push_back(global);
        continue;
      }
      if (!seen.insert(next).second) continue;
      for (const Use &operand : next->operands()) constants.push_back(cast<Constant>(operand.get()));
    }
  };
  while (!work.empty()) {
    const GlobalValue *global = work.pop_back_val();
    if (auto *F = dyn_cast<Function>(global)) {
      for (const BasicBlock &BB : *F)
        for (const Instruction &I : BB)
          for (const Use &operand : I.operands()) visit(operand.get());
    } else if (auto *variable = dyn_cast<GlobalVariable>(global); variable && variable->hasInitializer()) {
      visit(variable->getInitializer());
    }
  }
}

// Up to four parts a thread, each of at least 500 instructions: the parts'
// costs are guessed from their sizes, and several per thread let the threads
// even out the guesses' errors. A part adds its bitcode, a context, a pass
// pipeline and an object file, too little to measure against -O3 and codegen
// (about 100 ms per 500 instructions of a work-group function): the
// benchmarks' program (12 kernels, 6,000 instructions) took 1.07 s of CPU as
// one part and as 8, and built in 1.1 s as one part, 0.65 s as 2 and 0.59 s
// as 8 on 2 cores.
constexpr uint64_t kPartsPerThread = 4;
constexpr uint64_t kMinimumPartCost = 500;

std::vector<Part> splitIntoParts(const Module &M, unsigned threads) {
  std::vector<const Function *> roots;
  for (const Function &F : M)
    if (!F.isDeclaration() && !F.hasLocalLinkage()) roots.push_back(&F);
  uint64_t total = 0;
  for (const Function &F : M) total += F.getInstructionCount();
  unsigned wanted = std::min<uint64_t>(kPartsPerThread * threads, total / kMinimumPartCost);
  if (threads < 2 || wanted < 2 || roots.size() < 2 || !M.alias_empty() || !M.ifunc_empty()) return {};
  for (const GlobalVariable &variable : M.globals())
    if (variable.hasAppendingLinkage() || (!variable.isDeclaration() && !variable.hasLocalLinkage())) return {};
  // Groups of roots that must share a part (union-find): one calls another.
  std::vector<SmallPtrSet<const GlobalValue *, 32>> reaches(roots.size());
  std::vector<size_t> leader(roots.size());
  std::iota(leader.begin(), leader.end(), 0);
  auto find = [&](size_t i) {
    while (leader[i] != i) i = leader[i] = leader[leader[i]];
    return i;
  };
  DenseMap<const GlobalValue *, size_t> rootIndex;
  for (size_t i = 0; i < roots.size(); ++i) rootIndex[roots[i]] = i;
  for (size_t i = 0; i < roots.size(); ++i) {
    collectReach(*roots[i], reaches[i]);
    for (const GlobalValue *global : reaches[i])
      if (auto it = rootIndex.find(global); it != rootIndex.end()) leader[find(i)] = find(it->second);
  }
  std::vector<Part> groups;
  DenseMap<size_t, size_t> groupOf;
  for (size_t i = 0; i < roots.size(); ++i) {
    auto [it, inserted] = groupOf.try_emplace(find(i), groups.size());
    if (inserted) groups.emplace_back();
    groups[it->second].reach.insert(reaches[i].begin(), reaches[i].end());
  }
  if (groups.size() < 2) return {};
  for (Part &group : groups)
    for (const GlobalValue *global : group.reach)
      if (auto *F = dyn_cast<Function>(global)) group.cost += F->getInstructionCount();
  // Longest first, each to the part with the least work so far.
  sort(groups, [](const Part &a, const Part &b) { return a.cost > b.cost; });
  std::vector<Part> parts(std::min<size_t>(wanted, groups.size()));
  for (Part &group : groups) {
    Part &lightest = *min_element(parts, [](const Part &a, const Part &b) { return a.cost < b.cost; });
    lightest.reach.insert(group.reach.begin(), group.reach.end());
    lightest.cost += group.cost;
  }
  // The first part that uses a variable defines it.
  DenseSet<const GlobalVariable *> defined;
  for (Part &part : parts)
    for (const GlobalValue *global : part.reach) {
      auto *variable = dyn_cast<GlobalVariable>(global);
      if (!variable || variable->isDeclaration()) continue;
      bool copyable = variable->isConstant() && variable->hasAtLeastLocalUnnamedAddr();
      if (!copyable && !defined.insert(variable).second) part.borrowed.insert(variable);
    }
  return parts;
}

}  // namespace

void addCheckFlags(Module &M, const FrontendOptions &options) {
  if (options.checkBarriers && !M.getModuleFlag(kCheckBarriersAttr))
    M.addModuleFlag(Module::Warning, kCheckBarriersAttr, 1);
  if (options.checkBounds && !M.getModuleFlag(kCheckBoundsAttr))
    M.addModuleFlag(Module::Warning, kCheckBoundsAttr, 1);
}

bool prepareModule(Module &M, const FrontendOptions &options, std::string &log) {
  loadMathLibrary();
  if (!checkNoRecursion(M, log) || !linkBuiltins(M, log) || !checkUndefined(M, log)) return false;
  TargetMachine &machine = hostTargetMachine();
  addCheckFlags(M, options);
  PassBuilder builder(&machine);
  registerLockstepPasses(builder);
  Analyses analyses(builder);
  ModulePassManager passes;
  passes.addPass(ReleaseBuiltinCallsPass());
  passes.addPass(ImageTypeLoweringPass());
  passes.addPass(ImageSpecializationPass());
  passes.addPass(PrintfLoweringPass());
  passes.addPass(KernelWrapperPass());
  passes.addPass(InternalizePass([](const GlobalValue &value) {
    auto *F = dyn_cast<Function>(&value);
    return F && F->hasFnAttribute(kKernelNameAttr);
  }));
  passes.addPass(GlobalDCEPass());
  FunctionPassManager simplify;
  simplify.addPass(SROAPass(SROAOptions::ModifyCFG));
  simplify.addPass(EarlyCSEPass(true));
  simplify.addPass(InstCombinePass());
  // Loops over private arrays unroll now, so that the arrays become values
  // before the work-group loops would keep them in memory per work-item.
  simplify.addPass(PrivateArrayLoopsPass());
  passes.addPass(createModuleToFunctionPassAdaptor(std::move(simplify)));
  // Before the work-item functions become GroupInfo reads: its reports ask
  // for the global id.
  if (options.checkBounds) passes.addPass(BoundsCheckPass());
  passes.addPass(FlattenDivRemIndicesPass());
  // After the simplification, so that nothing sinks the uniform values
  // these passes compute in the prologue back into the body.
  passes.addPass(WorkItemBuiltinsPass());
  passes.addPass(LocalMemoryLayoutPass());
  passes.addPass(WorkGroupLoopsPass(hasAvx512(machine), hostVectorBits()));
  passes.addPass(WorkItemLoopSplitPass());
  passes.addPass(SafeIntegerDivisionPass());
  passes.addPass(StopPollPass());
  passes.run(M, analyses.modules);
  // LOCKSTEP_DUMP_IR=wg prints the module after the work-group passes,
  // LOCKSTEP_DUMP_IR=final each part after -O3 (debugging aid, documented in
  // README).
  if (dumpRequested("wg")) M.print(errs(), nullptr);
  std::string problems;
  raw_string_ostream stream(problems);
  if (verifyModule(M, &stream)) {
    log += "internal error: invalid IR after the work-group passes:\n" + problems;
    return false;
  }
  return true;
}

std::optional<MachineCode> compileModule(Module &M, const FrontendOptions &options, std::string &log) {
  std::vector<Part> parts = splitIntoParts(M, tbb::this_task_arena::max_concurrency());  // none, or two or more
  MachineCode code;
  if (parts.empty()) {
    code.objects.resize(1);
    if (!compilePart(M, options, code.objects[0], code.streamingStores, log)) return std::nullopt;
    return code;
  }
  code.objects.resize(parts.size());
  // A variable that parts share gets a name that is the program's own.
  for (const Part &part : parts)
    for (const GlobalVariable *shared : part.borrowed) {
      auto *variable = const_cast<GlobalVariable *>(shared);
      if (!variable->hasLocalLinkage()) continue;
      variable->setName("__lockstep.global." + variable->getName());
      // Default visibility: the other parts reach it through the GOT, so the
      // JIT may place the parts' code and data at any distance.
      variable->setLinkage(GlobalValue::ExternalLinkage);
      variable->setVisibility(GlobalValue::DefaultVisibility);
      variable->setDSOLocal(false);
    }
  // Each part goes to a context of its own, through bitcode: LLVM allows
  // one thread at a time per context.
  std::vector<SmallVector<char, 0>> bitcode(parts.size());
  for (size_t i = 0; i < parts.size(); ++i) {
    const Part &part = parts[i];
    // A variable another part defines is declared; a constant keeps its
    // initializer for -O3, as available_externally.
    auto defines = [&](const GlobalValue *value) {
      auto *variable = dyn_cast<GlobalVariable>(value);
      bool declared = variable && part.borrowed.contains(variable) && !variable->isConstant();
      return part.reach.contains(value) && !declared;
    };
    ValueToValueMapTy map;
    std::unique_ptr<Module> copy = CloneModule(M, map, defines);
    for (const GlobalVariable *variable : part.borrowed)
      if (variable->isConstant())
        cast<GlobalVariable>(map[variable])->setLinkage(GlobalValue::AvailableExternallyLinkage);
    raw_svector_ostream stream(bitcode[i]);
    WriteBitcodeToFile(*copy, stream);
  }
  std::vector<std::string> logs(parts.size());
  std::vector<std::vector<std::string>> streaming(parts.size());
  std::atomic<bool> failed{false};
  tbb::parallel_for(size_t(0), parts.size(), [&](size_t i) {
    LLVMContext context;
    Expected<std::unique_ptr<Module>> part =
        parseBitcodeFile(MemoryBufferRef(StringRef(bitcode[i].data(), bitcode[i].size()), "part.bc"), context);
    if (!part) {
      logs[i] = "internal error: " + toString(part.takeError()) + "\n";
      failed = true;
      return;
    }
    if (!compilePart(**part, options, code.objects[i], streaming[i], logs[i])) failed = true;
  });
  for (size_t i = 0; i < parts.size(); ++i) {
    log += logs[i];
    code.streamingStores.insert(code.streamingStores.end(), streaming[i].begin(), streaming[i].end());
  }
  if (failed) return std::nullopt;
  return code;
}

void registerLockstepPasses(PassBuilder &builder) {
  builder.registerPipelineParsingCallback(
      [](StringRef name, ModulePassManager &passes, ArrayRef<PassBuilder::PipelineElement>) {
        if (name == "lockstep-kernel-wrapper") passes.addPass(KernelWrapperPass());
        else if (name == "lockstep-release-builtin-calls") passes.addPass(ReleaseBuiltinCallsPass());
        else if (name == "lockstep-retarget-to-host") passes.addPass(RetargetToHostPass(hostTargetMachine()));
        else if (name == "lockstep-vector-math-callers") passes.addPass(VectorMathCallersPass());
        else if (name == "lockstep-local-atomic-lowering") passes.addPass(LocalAtomicLoweringPass());
        else if (name == "lockstep-image-types") passes.addPass(ImageTypeLoweringPass());
        else if (name == "lockstep-image-specialization") passes.addPass(ImageSpecializationPass());
        else if (name == "lockstep-workitem-builtins") passes.addPass(WorkItemBuiltinsPass());
        else if (name == "lockstep-local-memory") passes.addPass(LocalMemoryLayoutPass());
        else if (name == "lockstep-work-group-loops") passes.addPass(WorkGroupLoopsPass());
        else if (name == "lockstep-work-group-loops-fold-narrow-rows")
          passes.addPass(WorkGroupLoopsPass(true));
        else if (name == "lockstep-printf") passes.addPass(PrintfLoweringPass());
        else if (name == "lockstep-bounds-check") passes.addPass(BoundsCheckPass());
        else if (name == "lockstep-stop-poll") passes.addPass(StopPollPass());
        else if (name == "lockstep-safe-division") passes.addPass(SafeIntegerDivisionPass());
        else if (name == "lockstep-flatten-div-rem-indices") passes.addPass(FlattenDivRemIndicesPass());
        else if (name == "lockstep-work-item-loop-split") passes.addPass(WorkItemLoopSplitPass());
        else if (name == "lockstep-masked-memory-guards") passes.addPass(MaskedMemoryGuardsPass());
        else if (name == "lockstep-spaced-accesses") passes.addPass(SpacedAccessesPass());
        else if (name == "lockstep-strided-run-prefetch") passes.addPass(StridedRunPrefetchPass());
        else if (name == "lockstep-streaming-stores") passes.addPass(StreamingStoresPass());
        else return false;
        return true;
      });
  builder.registerPipelineParsingCallback(
      [](StringRef name, FunctionPassManager &passes, ArrayRef<PassBuilder::PipelineElement>) {
        if (name == "lockstep-spread-loops") passes.addPass(SpreadLoopsPass());
        else if (name == "lockstep-scalarize-work-group-code") passes.addPass(ScalarizeWorkGroupCodePass());
        else if (name == "lockstep-private-array-loops") passes.addPass(PrivateArrayLoopsPass());
        else if (name == "lockstep-uniform-division") passes.addPass(UniformDivisionPass());
        else if (name == "lockstep-interior-versioning") passes.addPass(InteriorVersioningPass());
        else if (name == "lockstep-bounds-check-versioning") passes.addPass(BoundsCheckVersioningPass());
        else if (name == "print<lockstep-divergence>") passes.addPass(WorkItemDivergencePrinterPass(errs()));
        else return false;
        return true;
      });
  builder.registerAnalysisRegistrationCallback([](FunctionAnalysisManager &analyses) {
    analyses.registerPass([] { return WorkItemDivergenceAnalysis(); });
  });
}

}  // namespace lockstep::compiler

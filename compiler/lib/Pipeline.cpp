// From a linked OpenCL program module to optimized host code: link the
// builtins, form the work-group functions (KernelWrapper, WorkItemBuiltins,
// LocalMemoryLayout, WorkGroupLoops), then retarget from spir64 to the host
// and run LLVM's -O3 pipeline, whose loop vectorizer widens the innermost
// work-item loops.
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>
#include <llvm/Transforms/IPO/Internalize.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Utils/LowerAtomic.h>

#include <cstdlib>

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
    if (nextLine() != "LOCKSTEP-BUILTIN-CHUNKS 1") return fail("header");
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

void retargetToHost(Module &M, TargetMachine &machine) {
  M.setTargetTriple(machine.getTargetTriple().str());
  M.setDataLayout(machine.createDataLayout());
  for (Function &F : M) {
    F.setCallingConv(CallingConv::C);
    for (User *user : F.users())
      if (auto *call = dyn_cast<CallBase>(user)) call->setCallingConv(CallingConv::C);
    if (F.isDeclaration()) continue;
    F.addFnAttr("target-cpu", machine.getTargetCPU());
    F.addFnAttr("target-features", machine.getTargetFeatureString());
    // Zen 4 runs 512-bit vectors as two 256-bit halves; a kernel that only
    // streams through memory (vector_add, triad: loads, a little
    // arithmetic, a store) moves 10-20% more bytes per second with 256-bit
    // accesses there (bench/, 5 alternating rounds, 4 of 5 won each).
    // Kernels with loops keep the full width, which they need (sgemm_tiled
    // runs a third slower at 256 bits).
    if (F.hasFnAttribute(kStraightLineAttr) && machine.getTargetCPU().starts_with("znver"))
      F.addFnAttr("prefer-vector-width", "256");
    // LLVM prefers 256-bit vectors on Intel's server cores (Skylake-SP to
    // Sapphire Rapids), against the clock drop of 512-bit instructions. For
    // kernels with loops the full width wins by far: on 16 Sapphire Rapids
    // cores sgemm_naive ran 2.4x, sgemm_tiled and stencil 1.4x, transpose
    // 1.25x and mandelbrot 1.2x faster with it (A/B, same library, 3 rounds).
    else if (!F.hasFnAttribute(kStraightLineAttr) && hasAvx512(machine))
      F.addFnAttr("prefer-vector-width", "512");
  }
}

struct Analyses {
  explicit Analyses(PassBuilder &builder) {
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
    if (is_contained(provided, name) || name.contains("barrier") || name.starts_with("_Z12get_") ||
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

// A pointer into __local memory: of the local address space, or cast from
// one (generic pointers to __local, the layout's cast of the group's block).
bool isLocalPointer(Value *pointer) {
  for (int depth = 0; depth < 16; ++depth) {
    if (pointer->getType()->getPointerAddressSpace() == kLocalAddressSpace) return true;
    if (auto *gep = dyn_cast<GEPOperator>(pointer)) pointer = gep->getPointerOperand();
    else if (auto *cast = dyn_cast<AddrSpaceCastOperator>(pointer)) pointer = cast->getPointerOperand();
    else return false;
  }
  return false;
}

// __local memory belongs to one work-group, and all work-items of a group run
// on one thread, in program order: atomics on it need no lock prefix and no
// fence. Lowered to plain read-modify-write after -O3, so the new accesses
// are never taken for independent work-item accesses by the vectorizer.
void lowerLocalAtomics(Module &M) {
  SmallVector<Instruction *, 16> atomics;
  for (Function &F : M)
    for (BasicBlock &BB : F)
      for (Instruction &I : BB) {
        if (auto *rmw = dyn_cast<AtomicRMWInst>(&I); rmw && isLocalPointer(rmw->getPointerOperand()))
          atomics.push_back(rmw);
        if (auto *cas = dyn_cast<AtomicCmpXchgInst>(&I); cas && isLocalPointer(cas->getPointerOperand()))
          atomics.push_back(cas);
      }
  for (Instruction *I : atomics) {
    if (auto *rmw = dyn_cast<AtomicRMWInst>(I)) lowerAtomicRMWInst(rmw);
    else lowerAtomicCmpXchgInst(cast<AtomicCmpXchgInst>(I));
  }
}

}  // namespace

bool finalizeModule(Module &M, const FrontendOptions &options, std::string &log) {
  loadMathLibrary();
  if (!linkBuiltins(M, log) || !checkUndefined(M, log)) return false;
  // -fno-builtin keeps Clang from treating OpenCL names as C library ones; the
  // attribute it leaves would stop the inliner from merging builtins into the
  // work-group functions.
  for (Function &F : M) F.removeFnAttr("no-builtins");
  TargetMachine &machine = hostTargetMachine();
  if (options.checkBarriers) M.addModuleFlag(Module::Warning, kCheckBarriersAttr, 1);
  {
    PassBuilder builder(&machine);
    registerLockstepPasses(builder);
    Analyses analyses(builder);
    ModulePassManager passes;
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
    passes.addPass(createModuleToFunctionPassAdaptor(std::move(simplify)));
    passes.addPass(FlattenDivRemIndicesPass());
    // After the simplification, so that nothing sinks the uniform values
    // these passes compute in the prologue back into the body.
    passes.addPass(WorkItemBuiltinsPass());
    passes.addPass(LocalMemoryLayoutPass());
    passes.addPass(WorkGroupLoopsPass(hasAvx512(machine)));
    passes.addPass(WorkItemLoopSplitPass());
    passes.addPass(SafeIntegerDivisionPass());
    passes.run(M, analyses.modules);
  }
  // LOCKSTEP_DUMP_IR=wg prints the module after the work-group passes,
  // LOCKSTEP_DUMP_IR=final after -O3 (debugging aid, documented in README).
  const char *dump = std::getenv("LOCKSTEP_DUMP_IR");
  if (dump && std::string_view(dump) == "wg") M.print(errs(), nullptr);
  std::string problems;
  raw_string_ostream stream(problems);
  if (verifyModule(M, &stream)) {
    log += "internal error: invalid IR after the work-group passes:\n" + problems;
    return false;
  }
  retargetToHost(M, machine);
  PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  PassBuilder builder(&machine, tuning);
  builder.registerVectorizerStartEPCallback(
      [](FunctionPassManager &passes, OptimizationLevel) { passes.addPass(SpreadLoopsPass()); });
  Analyses analyses(builder);
  OptimizationLevel level = options.optDisable ? OptimizationLevel::O1 : OptimizationLevel::O3;
  ModulePassManager passes = builder.buildPerModuleDefaultPipeline(level);
  passes.addPass(MaskedMemoryGuardsPass());
  passes.addPass(SpacedAccessesPass());
  passes.addPass(StridedRunPrefetchPass());
  passes.addPass(StreamingStoresPass());
  passes.run(M, analyses.modules);
  lowerLocalAtomics(M);
  if (dump && std::string_view(dump) == "final") M.print(errs(), nullptr);
  return true;
}

void registerLockstepPasses(PassBuilder &builder) {
  builder.registerPipelineParsingCallback(
      [](StringRef name, ModulePassManager &passes, ArrayRef<PassBuilder::PipelineElement>) {
        if (name == "lockstep-kernel-wrapper") passes.addPass(KernelWrapperPass());
        else if (name == "lockstep-workitem-builtins") passes.addPass(WorkItemBuiltinsPass());
        else if (name == "lockstep-local-memory") passes.addPass(LocalMemoryLayoutPass());
        else if (name == "lockstep-work-group-loops") passes.addPass(WorkGroupLoopsPass());
        else if (name == "lockstep-work-group-loops-fold-narrow-rows")
          passes.addPass(WorkGroupLoopsPass(true));
        else if (name == "lockstep-printf") passes.addPass(PrintfLoweringPass());
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
        if (name != "lockstep-spread-loops") return false;
        passes.addPass(SpreadLoopsPass());
        return true;
      });
}

}  // namespace lockstep::compiler

// The ORC JIT: one LLJIT per process, one JITDylib per program (removed when
// the program's executable is released), which links the program's object
// files. Symbols the generated code needs from outside (libm, memcpy, ...)
// resolve against the process.
#include <llvm/ExecutionEngine/JITLink/JITLink.h>
#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "Internal.h"
#include "ThreadHandOff.h"
#include "PrintfRecord.h"

using namespace llvm;
using namespace llvm::orc;

namespace lockstep::compiler {
namespace {

void initializeTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
  });
}

JITTargetMachineBuilder hostMachineBuilder() {
  initializeTargets();
  Expected<JITTargetMachineBuilder> builder = JITTargetMachineBuilder::detectHost();
  if (!builder) report_fatal_error(builder.takeError());
  builder->setCodeGenOptLevel(CodeGenOptLevel::Aggressive);
  // What JITLink links: position-independent code (calls to libm go through
  // stubs wherever the JIT puts the code), in the small code model.
  builder->setRelocationModel(Reloc::PIC_);
  builder->setCodeModel(CodeModel::Small);
  return std::move(*builder);
}

// LOCKSTEP_PERF_MAP=1: every function the JIT links (kernels, their
// narrow-group variants, helpers) goes into /tmp/perf-PID.map with its
// address and size, so `perf report` names JIT-compiled code (a debugging
// aid, documented in README).
class PerfMapPlugin final : public ObjectLinkingLayer::Plugin {
 public:
  void modifyPassConfig(MaterializationResponsibility &, jitlink::LinkGraph &,
                        jitlink::PassConfiguration &config) override {
    config.PostFixupPasses.emplace_back(writeMap);
  }
  Error notifyFailed(MaterializationResponsibility &) override { return Error::success(); }
  Error notifyRemovingResources(JITDylib &, ResourceKey) override { return Error::success(); }
  void notifyTransferringResources(JITDylib &, ResourceKey, ResourceKey) override {}

 private:
  static Error writeMap(jitlink::LinkGraph &graph) {
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    std::string path = "/tmp/perf-" + std::to_string(::getpid()) + ".map";
    if (FILE *map = std::fopen(path.c_str(), "a")) {
      for (jitlink::Symbol *symbol : graph.defined_symbols())
        if (symbol->hasName() && symbol->isCallable() && symbol->getSize() != 0)
          std::fprintf(map, "%llx %llx %s\n", (unsigned long long)symbol->getAddress().getValue(),
                       (unsigned long long)symbol->getSize(), symbol->getName().str().c_str());
      std::fclose(map);
    }
    return Error::success();
  }
};

// Never destroyed: programs may be released while the process exits, from
// static destructors that run after this library's (CLBlast's program cache
// does), and each release removes its JITDylib from this session.
LLJIT &processJit() {
  static LLJIT *jit = [] {
    // Only object files are added, never IR: the compile layer gets a compiler
    // that would make its TargetMachine when first used, which is never, and
    // the DataLayout comes from the host TargetMachine. The defaults made two
    // TargetMachines up front: 0.36 ms of a 2 ms warm build.
    Expected<std::unique_ptr<LLJIT>> created =
        LLJITBuilder()
            .setJITTargetMachineBuilder(hostMachineBuilder())
            .setDataLayout(hostTargetMachine().createDataLayout())
            .setCompileFunctionCreator(
                [](JITTargetMachineBuilder builder) -> Expected<std::unique_ptr<IRCompileLayer::IRCompiler>> {
                  return std::make_unique<ConcurrentIRCompiler>(std::move(builder));
                })
            .create();
    if (!created) report_fatal_error(created.takeError());
    // Errors reach the build log through lookups; don't print them.
    (*created)->getExecutionSession().setErrorReporter([](Error error) { consumeError(std::move(error)); });
    if (std::getenv("LOCKSTEP_PERF_MAP"))
      if (auto *linker = dyn_cast<ObjectLinkingLayer>(&(*created)->getObjLinkingLayer()))
        linker->addPlugin(std::make_unique<PerfMapPlugin>());
    return created->release();
  }();
  // Made once, used by every thread that builds (ThreadHandOff.h).
  static const bool handedOff = (handOff(jit), true);
  (void)handedOff;
  takeOver(jit);
  return *jit;
}

class Program final : public JitProgram {
 public:
  explicit Program(JITDylib &dylib) : dylib(dylib) {}
  ~Program() override {
    if (Error error = processJit().getExecutionSession().removeJITDylib(dylib))
      consumeError(std::move(error));
  }
  bool lookup(std::span<const std::string> symbols, std::vector<void *> &addresses, std::string &log) override {
    LLJIT &jit = processJit();
    SymbolLookupSet wanted;
    std::vector<SymbolStringPtr> names;
    for (const std::string &symbol : symbols) {
      names.push_back(jit.mangleAndIntern(symbol));
      wanted.add(names.back());
    }
    // One lookup for all: the objects are linked in one go.
    Expected<SymbolMap> found = jit.getExecutionSession().lookup(makeJITDylibSearchOrder(&dylib), std::move(wanted));
    if (!found) {
      log += toString(found.takeError()) + "\n";
      return false;
    }
    addresses.clear();
    for (const SymbolStringPtr &name : names) addresses.push_back((*found)[name].getAddress().toPtr<void *>());
    return true;
  }
  bool addObject(std::string object, std::string &log) override;

 private:
  JITDylib &dylib;
};

}  // namespace

// One per thread: a TargetMachine caches subtargets without locking, and
// programs are built on several threads at once.
TargetMachine &hostTargetMachine() {
  thread_local std::unique_ptr<TargetMachine> machine = [] {
    Expected<std::unique_ptr<TargetMachine>> created = hostMachineBuilder().createTargetMachine();
    if (!created) report_fatal_error(created.takeError());
    return std::move(*created);
  }();
  return *machine;
}

namespace {

// An object file the JIT owns without copying it: a program's objects come
// to megabytes, and a warm build spent a copy of each on the way in.
class StringMemoryBuffer final : public MemoryBuffer {
 public:
  explicit StringMemoryBuffer(std::string bytes) : bytes_(std::move(bytes)) {
    init(bytes_.data(), bytes_.data() + bytes_.size(), /*RequiresNullTerminator=*/false);
  }
  StringRef getBufferIdentifier() const override { return "program.o"; }
  BufferKind getBufferKind() const override { return MemoryBuffer_Malloc; }

 private:
  std::string bytes_;
};

// Deferred versions' slots call resolveVersion (LazyVersions.cpp), which
// LazyVersions::bind hands over before any kernel can call it: named here,
// it would pull the compiler's whole back end into code that links this file
// for hostTargetMachine alone (the passes' plugin for `opt`).
std::atomic<void *(*)(void **)> versionResolver{nullptr};

void *resolveThroughHook(void **slot) { return versionResolver.load(std::memory_order_acquire)(slot); }

// A JITDylib for one program, with the symbols kernels may need from outside.
JITDylib *createProgramDylib(std::string &log) {
  LLJIT &jit = processJit();
  static std::atomic<uint64_t> counter{0};
  Expected<JITDylib &> dylib = jit.createJITDylib("program." + std::to_string(counter++));
  if (!dylib) {
    log += "internal error: " + toString(dylib.takeError()) + "\n";
    return nullptr;
  }
  // libm, and libmvec for the vector variants of the math builtins
  // (VectorMath.cpp), which code read from the kernel cache calls too.
  for (const char *library : {"libm.so.6", "libmvec.so.1"}) {
    auto math = DynamicLibrarySearchGenerator::Load(library, jit.getDataLayout().getGlobalPrefix());
    if (math) dylib->addGenerator(std::move(*math));
    else consumeError(math.takeError());
  }
  auto symbols = DynamicLibrarySearchGenerator::GetForCurrentProcess(jit.getDataLayout().getGlobalPrefix());
  if (!symbols) {
    log += "internal error: " + toString(symbols.takeError()) + "\n";
    return nullptr;
  }
  dylib->addGenerator(std::move(*symbols));
  // Functions of Lockstep's own that kernels call; hidden in liblockstep.so,
  // so they are given to the JIT by address.
  SymbolMap own;
  own[jit.mangleAndIntern(kPrintfSymbol)] = {ExecutorAddr::fromPtr(&formatPrintf), JITSymbolFlags::Exported};
  own[jit.mangleAndIntern(kDivergenceSymbol)] = {ExecutorAddr::fromPtr(&reportBarrierDivergence),
                                                 JITSymbolFlags::Exported};
  own[jit.mangleAndIntern(kOutOfBoundsSymbol)] = {ExecutorAddr::fromPtr(&reportOutOfBounds),
                                                  JITSymbolFlags::Exported};
  own[jit.mangleAndIntern(kStopGroupSymbol)] = {ExecutorAddr::fromPtr(&stopGroup), JITSymbolFlags::Exported};
  own[jit.mangleAndIntern(kAtomicCombinerMissSymbol)] = {ExecutorAddr::fromPtr(&atomicCombinerMiss),
                                                         JITSymbolFlags::Exported};
  own[jit.mangleAndIntern(kAtomicCombinerWindowSymbol)] = {ExecutorAddr::fromPtr(&atomicCombinerWindow),
                                                           JITSymbolFlags::Exported};
  own[jit.mangleAndIntern(kKernelClockSymbol)] = {ExecutorAddr::fromPtr(&kernelClock), JITSymbolFlags::Exported};
  own[jit.mangleAndIntern(kResolveVersionSymbol)] = {ExecutorAddr::fromPtr(&resolveThroughHook),
                                                     JITSymbolFlags::Exported};
  auto pipe = [&](const char *name, auto *function) {
    own[jit.mangleAndIntern(std::string(kPipeSymbolPrefix) + name)] = {ExecutorAddr::fromPtr(function),
                                                                        JITSymbolFlags::Exported};
  };
  pipe("read", &pipeRead);
  pipe("write", &pipeWrite);
  pipe("reserve", &pipeReserve);
  pipe("access", &pipeAccess);
  pipe("commit", &pipeCommit);
  pipe("num_packets", &pipeNumPackets);
  pipe("max_packets", &pipeMaxPackets);
  for (const RuntimeSymbol &symbol : deviceEnqueueSymbols())
    own[jit.mangleAndIntern(symbol.name)] = {ExecutorAddr::fromPtr(symbol.address), JITSymbolFlags::Exported};
  if (Error error = dylib->define(absoluteSymbols(std::move(own)))) {
    log += "internal error: " + toString(std::move(error)) + "\n";
    return nullptr;
  }
  return &*dylib;
}

}  // namespace

void setVersionResolver(void *(*resolver)(void **)) { versionResolver.store(resolver, std::memory_order_release); }

namespace {

bool Program::addObject(std::string object, std::string &log) {
  if (Error error = processJit().addObjectFile(dylib, std::make_unique<StringMemoryBuffer>(std::move(object)))) {
    log += "internal error: " + toString(std::move(error)) + "\n";
    return false;
  }
  return true;
}

}  // namespace

std::unique_ptr<JitProgram> jitObjects(std::vector<std::string> objects, std::string &log) {
  JITDylib *dylib = createProgramDylib(log);
  if (!dylib) return nullptr;
  auto program = std::make_unique<Program>(*dylib);
  for (std::string &object : objects)
    if (!program->addObject(std::move(object), log)) return nullptr;
  return program;
}

}  // namespace lockstep::compiler

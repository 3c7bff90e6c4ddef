// The executable a build ends in: makeExecutable runs the back end on a
// module (the work-group passes, -O3, machine code, the JIT), fills in what
// the passes found about each kernel and stores the result in the kernel
// cache; fromCache loads what an earlier build stored. JitExecutable is what
// the runtime launches: the kernels' work-group functions, and versions of a
// kernel compiled for the image formats and samplers of its launches.
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <atomic>
#include <mutex>

#include "CompilerSteps.h"

using namespace llvm;

namespace lockstep::compiler {
namespace {

std::unique_ptr<JitProgram> compileSpecialized(std::span<const uint8_t> binary, const KernelDescription &kernel,
                                               std::span<const uint32_t> key, WorkGroupFunction &function);

// A launch that runs at least this many work-items gets its kernel compiled
// for its image formats and samplers at once; smaller ones after this many
// launches with the same values (Executable::specialize).
constexpr uint64_t kSpecializeWorkItems = uint64_t{1} << 18;
constexpr unsigned kSpecializeAfterLaunches = 3;

class JitExecutable final : public Executable {
 public:
  JitExecutable(std::vector<KernelDescription> kernels, size_t globals, std::unique_ptr<JitProgram> code,
                std::vector<uint8_t> binary)
      : kernels_(std::move(kernels)),
        globals_(globals),
        costs_(kernels_.size()),
        code_(std::move(code)),
        binary_(std::move(binary)),
        specialized_(kernels_.size()) {}
  // The program's deferred versions, compiled at their first calls.
  bool bindVersions(const std::vector<DeferredVersion> &versions, const std::string &cacheKey, std::string &log) {
    return versions.empty() || versions_.bind(*code_, versions, kernels_, binary_, cacheKey, log);
  }
  const std::vector<KernelDescription> &kernels() const override { return kernels_; }
  size_t globalVariableTotalSize() const override { return globals_; }
  std::atomic<uint64_t> &workCost(const KernelDescription &kernel) const override {
    return costs_[&kernel - kernels_.data()];
  }
  WorkGroupFunction specialize(const KernelDescription &kernel, std::span<const uint32_t> key,
                               uint64_t workItems) const override {
    // A program with __global variables at program scope keeps one copy of
    // them, which every kernel must share: a version loaded on its own would
    // have its own.
    if (key.empty() || globals_ != 0) return nullptr;
    // Every launch of an image kernel asks: found without allocating, among
    // the few keys its kernel has seen.
    std::lock_guard lock(specializedMutex_);
    std::vector<Specialized> &seen = specialized_[&kernel - kernels_.data()];
    auto it = std::find_if(seen.begin(), seen.end(), [&](const Specialized &entry) {
      return std::equal(entry.key.begin(), entry.key.end(), key.begin(), key.end());
    });
    if (it == seen.end()) it = seen.insert(seen.end(), Specialized{{key.begin(), key.end()}});
    Specialized &entry = *it;
    if (entry.function || entry.failed) return entry.function;
    if (workItems < kSpecializeWorkItems && ++entry.launches < kSpecializeAfterLaunches) return nullptr;
    entry.code = compileSpecialized(binary_, kernel, key, entry.function);
    entry.failed = !entry.function;
    return entry.function;
  }

 private:
  std::vector<KernelDescription> kernels_;
  size_t globals_;
  mutable std::vector<std::atomic<uint64_t>> costs_;
  std::unique_ptr<JitProgram> code_;
  std::vector<uint8_t> binary_;  // the program, for specialized versions of its kernels
  LazyVersions versions_;        // after code_ and binary_, which it uses: goes first
  struct Specialized {
    std::vector<uint32_t> key;  // the launch's formats and samplers
    unsigned launches = 0;
    bool failed = false;
    std::unique_ptr<JitProgram> code;
    WorkGroupFunction function = nullptr;
  };
  mutable std::mutex specializedMutex_;
  mutable std::vector<std::vector<Specialized>> specialized_;  // by kernel (kernels_' index)
};

size_t globalVariableBytes(const Module &M) {
  size_t total = 0;
  for (const GlobalVariable &global : M.globals())
    if (global.getAddressSpace() == 1 && !global.isDeclaration())
      total += M.getDataLayout().getTypeAllocSize(global.getValueType());
  return total;
}

// Looks the kernels' work-group functions up in freshly loaded code.
bool bindKernels(JitProgram &code, std::vector<KernelDescription> &kernels, std::string &log) {
  std::vector<std::string> symbols;
  for (const KernelDescription &kernel : kernels) symbols.push_back(workGroupFunctionName(kernel.name));
  std::vector<void *> addresses;
  if (!code.lookup(symbols, addresses, log)) return false;
  for (size_t i = 0; i < kernels.size(); ++i) kernels[i].function = reinterpret_cast<WorkGroupFunction>(addresses[i]);
  return true;
}

// The kernel of an executable binary compiled for the image formats and
// sampler values of a launch (ImageSpecialization.cpp): `key` holds four
// values per image or sampler argument, in argument order. Null if it
// cannot be built (the launch then runs the general code).
std::unique_ptr<JitProgram> compileSpecialized(std::span<const uint8_t> binary, const KernelDescription &kernel,
                                               std::span<const uint32_t> key, WorkGroupFunction &function) {
  ParsedBinary parsed = parseBinary(binary);
  if (parsed.kind != BinaryKind::Executable) return nullptr;
  std::string log;
  FrontendOptions options = binaryOptions(parsed);
  LLVMContext context;
  std::unique_ptr<Module> M = readBitcode(parsed.bitcode, context, log);
  if (!M) return nullptr;
  size_t next = 0;
  for (size_t i = 0; i < kernel.arguments.size(); ++i) {
    ArgKind kind = kernel.arguments[i].kind;
    if (kind != ArgKind::Image && kind != ArgKind::Sampler) continue;
    if (next + 4 > key.size()) return nullptr;
    requestSpecialization(*M, kernel.name, i, ArrayRef<uint32_t>(key.data() + next, 4));
    next += 4;
  }
  if (!prepareModule(*M, options, log)) return nullptr;
  // Only this kernel's work-group function is wanted.
  std::string wanted = workGroupFunctionName(kernel.name);
  for (Function &F : make_early_inc_range(*M))
    if (F.hasFnAttribute(kKernelNameAttr) && F.getName() != wanted && F.use_empty()) F.eraseFromParent();
  std::optional<MachineCode> machineCode = compileModule(*M, options, log);
  if (!machineCode) return nullptr;
  std::unique_ptr<JitProgram> code = jitObjects(std::move(machineCode->objects), log);
  std::vector<void *> address;
  if (!code || !code->lookup({&wanted, 1}, address, log)) return nullptr;
  function = reinterpret_cast<WorkGroupFunction>(address[0]);
  return code;
}

}  // namespace

std::vector<std::string> kernelNames(const std::vector<KernelDescription> &kernels) {
  std::vector<std::string> names;
  for (const KernelDescription &kernel : kernels)
    if (!isBlockKernelName(kernel.name)) names.push_back(kernel.name);
  return names;
}

// A build the kernel cache already holds: no Clang, passes or codegen.
std::optional<Result> fromCache(const std::string &key) {
  std::optional<CachedProgram> cached = loadCachedProgram(key);
  if (!cached) return std::nullopt;
  Result result;
  result.log = std::move(cached->log);
  std::unique_ptr<JitProgram> code = jitObjects(std::move(cached->objects), result.log);
  if (!code || !bindKernels(*code, cached->kernels, result.log)) return std::nullopt;
  result.status = Status::Success;
  result.kind = BinaryKind::Executable;
  result.binary = std::move(cached->binary);
  result.kernelNames = kernelNames(cached->kernels);
  auto executable = std::make_shared<JitExecutable>(std::move(cached->kernels), cached->globalVariableBytes,
                                                    std::move(code), result.binary);
  if (!executable->bindVersions(cached->deferred, key, result.log)) return std::nullopt;
  result.executable = std::move(executable);
  return result;
}

// The back end: work-group passes, -O3 and machine code, JIT; fills in what
// the passes found and, with a cache key, stores the result in the kernel
// cache.
Result makeExecutable(std::unique_ptr<Module> module, std::unique_ptr<LLVMContext> moduleContext,
                      const FrontendOptions &options, std::string_view optionText, Result result,
                      const std::string &cacheKey) {
  // The module must go before its context on every return. The caller
  // destroys the parameters in an order the compiler chooses (Clang: the
  // context first, so a failed build's module was freed into a dead context);
  // locals go in reverse order of declaration.
  std::unique_ptr<LLVMContext> context = std::move(moduleContext);
  std::unique_ptr<Module> M = std::move(module);
  result.kind = BinaryKind::Executable;
  result.binary = makeBinary(BinaryKind::Executable, *M, optionText);
  addCheckFlags(*M, options);
  std::vector<KernelDescription> kernels = describeKernels(*M);
  result.kernelNames = kernelNames(kernels);
  size_t globals = globalVariableBytes(*M);
  // -cl-denorms-are-zero, as Clang recorded it on the kernel (per kernel, so
  // a link keeps each object's own); whether it enqueues kernels.
  for (KernelDescription &kernel : kernels)
    if (Function *K = M->getFunction(kernel.name)) {
      kernel.flushDenormals = K->getFnAttribute("denormal-fp-math-f32").getValueAsString().starts_with("preserve-sign");
      kernel.enqueuesKernels = enqueuesKernels(*K);
    }
  if (!prepareModule(*M, options, result.log)) {
    result.status = Status::Failure;
    return result;
  }
  deferVersionCalls(*M);
  for (KernelDescription &kernel : kernels) {
    Function *F = M->getFunction(workGroupFunctionName(kernel.name));
    if (!F) continue;
    kernel.contextBytesPerWorkItem = functionAttrNumber(*F, kContextBytesAttr);
    kernel.staticLocalMemorySize = functionAttrNumber(*F, kStaticLocalBytesAttr);
    kernel.privateMemorySize = functionAttrNumber(*F, kPrivateBytesAttr);
    kernel.frameBytes = functionAttrNumber(*F, kFrameBytesAttr);
    kernel.barrierCount = functionAttrNumber(*F, kBarrierCountAttr);
    kernel.maskedLoops = functionAttrNumber(*F, kMaskedLoopsAttr);
    kernel.jammedRows = functionAttrNumber(*F, kJammedRowsAttr);
    kernel.subGroupSize = functionAttrNumber(*F, kSubGroupSizeAttr);
    StringRef shape = F->getFnAttribute(kGroupShapeAttr).getValueAsString();
    kernel.groupShape = shape == kGroupShapeRows      ? KernelDescription::GroupShape::Rows
                        : shape == kGroupShapeColumns ? KernelDescription::GroupShape::Columns
                                                   : KernelDescription::GroupShape::None;
    kernel.groupFree = F->hasFnAttribute(kGroupFreeAttr);
    kernel.checksBarriers = F->hasFnAttribute(kCheckBarriersAttr);
    kernel.checksBounds = F->hasFnAttribute(kCheckBoundsAttr);
    kernel.pollsStop = F->hasFnAttribute(kStopPollsAttr);
    kernel.preferredWorkGroupSizeMultiple = kernel.subGroupSize;
  }
  std::optional<MachineCode> machineCode = compileModule(*M, options, result.log);
  M.reset();
  if (!machineCode) {
    result.status = Status::Failure;
    return result;
  }
  for (KernelDescription &kernel : kernels)
    for (const OptimizedFunction &found : machineCode->functions) {
      if (found.name != workGroupFunctionName(kernel.name)) continue;
      kernel.streamingStores = found.streamingStores;
      for (uint32_t offset : found.combinedAtomicOffsets)
        for (uint32_t i = 0; i < kernel.arguments.size(); ++i)
          if (kernel.arguments[i].offset == offset && kernel.arguments[i].kind == ArgKind::GlobalPointer)
            kernel.combinedAtomicArguments.push_back(i);
      // A pointer the pass found in the block where no __global pointer
      // argument is (inside a by-value argument: a device-side enqueue's
      // captures): the runtime could not check what it overlaps, so no
      // launch of the kernel gets a combiner and its adds go to memory.
      if (kernel.combinedAtomicArguments.size() != found.combinedAtomicOffsets.size())
        kernel.combinedAtomicArguments.clear();
    }
  // A deferred version may stream its stores where the kernel's own body
  // does not: its launches end with the fence.
  for (const DeferredVersion &version : machineCode->deferred)
    for (KernelDescription &kernel : kernels)
      if (workGroupFunctionName(kernel.name) == version.kernel) kernel.streamingStores = true;
  std::unique_ptr<JitProgram> code = jitObjects(machineCode->objects, result.log);  // a copy: the cache stores them
  if (!code || !bindKernels(*code, kernels, result.log)) {
    result.status = Status::Failure;
    return result;
  }
  if (!cacheKey.empty()) {
    CachedProgram cached{result.binary, kernels, globals, std::move(machineCode->objects), result.log,
                         machineCode->deferred};
    for (KernelDescription &kernel : cached.kernels) kernel.function = nullptr;
    storeCachedProgram(cacheKey, cached);
  }
  auto executable = std::make_shared<JitExecutable>(std::move(kernels), globals, std::move(code), result.binary);
  if (!executable->bindVersions(machineCode->deferred, cacheKey, result.log)) {
    result.status = Status::Failure;
    return result;
  }
  result.executable = std::move(executable);
  result.status = Status::Success;
  return result;
}

}  // namespace lockstep::compiler

// lockstep::compiler::Compiler: builds, compiles, links and loads programs.
// (The implementation of Compiler.h's one interface, each entry point a
// few dozen lines; the stages themselves live in the files it calls.)
//
// A program binary (what CL_PROGRAM_BINARIES returns) is a small header and
// the program's LLVM bitcode before the work-group passes, so it stays valid
// whatever changes in code generation; loading an executable binary runs the
// back end again.
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/xxhash.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "Internal.h"
#include "Spirv/SpirvBinary.h"
#include "lockstep/compiler/Compiler.h"

using namespace llvm;

namespace lockstep::compiler {
namespace {

// A program binary: magic, kind, 3 reserved bytes, u32 options size, u64
// xxh3 of what follows the header (the options, then the bitcode). The
// checksum keeps a damaged binary from reaching LLVM's bitcode reader, which
// is not made for malformed input (on some it leaks, fuzz/regressions);
// clCreateProgramWithBinary refuses it with CL_INVALID_BINARY instead.
constexpr char kMagic[8] = {'L', 'S', 'T', 'P', 'B', 'I', 'N', '2'};
constexpr size_t kHeaderSize = sizeof(kMagic) + 16;

uint64_t payloadChecksum(std::span<const uint8_t> binary) {
  return xxh3_64bits(ArrayRef<uint8_t>(binary.data() + kHeaderSize, binary.size() - kHeaderSize));
}

std::vector<uint8_t> makeBinary(BinaryKind kind, const Module &M, std::string_view options) {
  SmallVector<char, 0> bitcode;
  raw_svector_ostream stream(bitcode);
  WriteBitcodeToFile(M, stream);
  std::vector<uint8_t> binary(kHeaderSize + options.size() + bitcode.size());
  std::memcpy(binary.data(), kMagic, sizeof(kMagic));
  binary[8] = static_cast<uint8_t>(kind);
  uint32_t optionsSize = options.size();
  std::memcpy(binary.data() + 12, &optionsSize, 4);
  std::memcpy(binary.data() + kHeaderSize, options.data(), options.size());
  std::memcpy(binary.data() + kHeaderSize + options.size(), bitcode.data(), bitcode.size());
  uint64_t checksum = payloadChecksum(binary);
  std::memcpy(binary.data() + 16, &checksum, 8);
  return binary;
}

struct ParsedBinary {
  BinaryKind kind = BinaryKind::None;
  std::string options;
  StringRef bitcode;
};

ParsedBinary parseBinary(std::span<const uint8_t> binary) {
  ParsedBinary parsed;
  if (binary.size() < kHeaderSize || std::memcmp(binary.data(), kMagic, sizeof(kMagic)) != 0) return parsed;
  uint32_t optionsSize;
  std::memcpy(&optionsSize, binary.data() + 12, 4);
  if (binary[8] < 1 || binary[8] > 3 || binary.size() < kHeaderSize + optionsSize + 4) return parsed;
  uint64_t checksum;
  std::memcpy(&checksum, binary.data() + 16, 8);
  if (checksum != payloadChecksum(binary)) return parsed;
  parsed.options.assign(reinterpret_cast<const char *>(binary.data()) + kHeaderSize, optionsSize);
  parsed.bitcode = StringRef(reinterpret_cast<const char *>(binary.data()) + kHeaderSize + optionsSize,
                             binary.size() - kHeaderSize - optionsSize);
  if (!isBitcode(reinterpret_cast<const unsigned char *>(parsed.bitcode.begin()),
                 reinterpret_cast<const unsigned char *>(parsed.bitcode.end())))
    return parsed;
  parsed.kind = static_cast<BinaryKind>(binary[8]);
  return parsed;
}

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

std::vector<std::string> kernelNames(const std::vector<KernelDescription> &kernels) {
  std::vector<std::string> names;
  for (const KernelDescription &kernel : kernels) names.push_back(kernel.name);
  return names;
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
  result.executable =
      std::make_shared<JitExecutable>(std::move(cached->kernels), cached->globalVariableBytes, std::move(code),
                                      result.binary);
  return result;
}

// The back end: work-group passes, -O3 and machine code, JIT; fills in what
// the passes found and, with a cache key, stores the result in the kernel
// cache.
Result makeExecutable(std::unique_ptr<Module> module, std::unique_ptr<LLVMContext> moduleContext,
                      const FrontendOptions &options, std::string_view optionText, Result result,
                      const std::string &cacheKey = {}) {
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
  // a link keeps each object's own).
  for (KernelDescription &kernel : kernels)
    if (Function *K = M->getFunction(kernel.name))
      kernel.flushDenormals = K->getFnAttribute("denormal-fp-math-f32").getValueAsString().starts_with("preserve-sign");
  if (!prepareModule(*M, options, result.log)) {
    result.status = Status::Failure;
    return result;
  }
  for (KernelDescription &kernel : kernels) {
    Function *F = M->getFunction(workGroupFunctionName(kernel.name));
    if (!F) continue;
    kernel.contextBytesPerWorkItem = functionAttrNumber(*F, kContextBytesAttr);
    kernel.staticLocalMemorySize = functionAttrNumber(*F, kStaticLocalBytesAttr);
    kernel.privateMemorySize = functionAttrNumber(*F, kPrivateBytesAttr);
    kernel.frameBytes = functionAttrNumber(*F, kFrameBytesAttr);
    kernel.barrierCount = functionAttrNumber(*F, kBarrierCountAttr);
    kernel.maskedLoops = functionAttrNumber(*F, kMaskedLoopsAttr);
    kernel.subGroupSize = functionAttrNumber(*F, kSubGroupSizeAttr);
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
    kernel.streamingStores = is_contained(machineCode->streamingStores, workGroupFunctionName(kernel.name));
  std::unique_ptr<JitProgram> code = jitObjects(machineCode->objects, result.log);  // a copy: the cache stores them
  if (!code || !bindKernels(*code, kernels, result.log)) {
    result.status = Status::Failure;
    return result;
  }
  if (!cacheKey.empty()) {
    CachedProgram cached{result.binary, kernels, globals, std::move(machineCode->objects), result.log};
    for (KernelDescription &kernel : cached.kernels) kernel.function = nullptr;
    storeCachedProgram(cacheKey, cached);
  }
  result.executable = std::make_shared<JitExecutable>(std::move(kernels), globals, std::move(code), result.binary);
  result.status = Status::Success;
  return result;
}

std::unique_ptr<Module> readBitcode(StringRef bitcode, LLVMContext &context, std::string &log) {
  Expected<std::unique_ptr<Module>> M =
      parseBitcodeFile(MemoryBufferRef(bitcode, "program.bc"), context);
  if (!M) {
    log += "invalid program binary: " + toString(M.takeError()) + "\n";
    return nullptr;
  }
  return std::move(*M);
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
  std::optional<FrontendOptions> options = parseOptions(parsed.options, false, log);
  if (!options) options = FrontendOptions{};
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
  if (!prepareModule(*M, *options, log)) return nullptr;
  // Only this kernel's work-group function is wanted.
  std::string wanted = workGroupFunctionName(kernel.name);
  for (Function &F : make_early_inc_range(*M))
    if (F.hasFnAttribute(kKernelNameAttr) && F.getName() != wanted && F.use_empty()) F.eraseFromParent();
  std::optional<MachineCode> machineCode = compileModule(*M, *options, log);
  if (!machineCode) return nullptr;
  std::unique_ptr<JitProgram> code = jitObjects(std::move(machineCode->objects), log);
  std::vector<void *> address;
  if (!code || !code->lookup({&wanted, 1}, address, log)) return nullptr;
  function = reinterpret_cast<WorkGroupFunction>(address[0]);
  return code;
}

// clCompileProgram's result for a module (from OpenCL C or SPIR-V).
Result compiledObject(const Module &M, std::string_view optionText, Result result) {
  result.kind = BinaryKind::CompiledObject;
  result.binary = makeBinary(BinaryKind::CompiledObject, M, optionText);
  result.kernelNames = kernelNames(describeKernels(M));
  result.status = Status::Success;
  return result;
}

// Options, or nullopt with `result` saying why (CL_INVALID_*_OPTIONS).
std::optional<FrontendOptions> parseOptionsInto(std::string_view text, bool forLink, Result &result) {
  std::string error;
  std::optional<FrontendOptions> options = parseOptions(text, forLink, error);
  if (!options) {
    result.status = Status::InvalidOptions;
    result.log = error + "\n";
  }
  return options;
}

}  // namespace

struct Compiler::Impl {
  LanguageSupport support;
};

Compiler::Compiler() : impl_(std::make_unique<Impl>()) {
  impl_->support.extensions = splitOptions(LOCKSTEP_OPENCL_C_EXTENSIONS);
  impl_->support.features = splitOptions(LOCKSTEP_OPENCL_C_FEATURES);
  for (const std::string &name : impl_->support.extensions) {
    if (name == "cl_khr_fp64") impl_->support.fp64 = true;
    if (name == "cl_khr_fp16") impl_->support.fp16 = true;
  }
  for (const std::string &name : impl_->support.features) {
    if (name == "__opencl_c_work_group_collective_functions") impl_->support.workGroupCollectives = true;
    if (name == "__opencl_c_subgroups") impl_->support.subGroupSize = hostSubGroupSize();
  }
  // A developer's aid (README): LLVM's own options, as opt takes them
  // (-pass-remarks-missed=loop-vectorize, a pass's cl::opt knobs).
  if (std::getenv("LOCKSTEP_LLVM_OPTIONS")) {
    const char *program[] = {"lockstep"};
    cl::ParseCommandLineOptions(1, program, "", &errs(), "LOCKSTEP_LLVM_OPTIONS");
  }
}

Compiler::~Compiler() = default;

Compiler &Compiler::instance() {
  // Never destroyed, like the JIT: a static destructor may still build.
  static Compiler *compiler = new Compiler;
  return *compiler;
}

const LanguageSupport &Compiler::languageSupport() const { return impl_->support; }

Result Compiler::compile(std::string_view source, std::string_view optionText, std::span<const Header> headers) {
  Result result;
  std::optional<FrontendOptions> options = parseOptionsInto(optionText, false, result);
  if (!options) return result;
  LLVMContext context;
  std::unique_ptr<Module> M = compileSource(context, source, *options, headers, result.log);
  if (!M) {
    result.status = Status::Failure;
    return result;
  }
  return compiledObject(*M, optionText, std::move(result));
}

Result Compiler::build(std::string_view source, std::string_view optionText) {
  Result result;
  std::optional<FrontendOptions> options = parseOptionsInto(optionText, false, result);
  if (!options) return result;
  std::string key = cacheKey("source", source, optionText);
  if (std::optional<Result> cached = fromCache(key)) return std::move(*cached);
  auto context = std::make_unique<LLVMContext>();
  std::unique_ptr<Module> M = compileSource(*context, source, *options, {}, result.log);
  if (!M) {
    result.status = Status::Failure;
    return result;
  }
  return makeExecutable(std::move(M), std::move(context), *options, optionText, std::move(result), key);
}

Result Compiler::link(std::span<const std::span<const uint8_t>> binaries, std::string_view optionText) {
  Result result;
  std::optional<FrontendOptions> options = parseOptionsInto(optionText, true, result);
  if (!options) return result;
  auto context = std::make_unique<LLVMContext>();
  std::unique_ptr<Module> linked;
  for (std::span<const uint8_t> binary : binaries) {
    ParsedBinary parsed = parseBinary(binary);
    if (parsed.kind != BinaryKind::CompiledObject && parsed.kind != BinaryKind::Library) {
      result.status = Status::InvalidBinary;
      result.log += "input is not a compiled object or library\n";
      return result;
    }
    std::unique_ptr<Module> M = readBitcode(parsed.bitcode, *context, result.log);
    if (!M) {
      result.status = Status::InvalidBinary;
      return result;
    }
    if (!linked) {
      linked = std::move(M);
      continue;
    }
    std::string linkLog;
    raw_string_ostream stream(linkLog);
    context->setDiagnosticHandlerCallBack(
        [](const DiagnosticInfo *info, void *out) {
          if (info->getSeverity() != DS_Error) return;
          DiagnosticPrinterRawOStream printer(*static_cast<raw_string_ostream *>(out));
          info->print(printer);
          *static_cast<raw_string_ostream *>(out) << "\n";
        },
        &stream);
    bool failed = Linker::linkModules(*linked, std::move(M));
    context->setDiagnosticHandlerCallBack(nullptr);
    if (failed) {
      result.status = Status::Failure;
      result.log += "link error: " + stream.str();
      return result;
    }
  }
  if (!linked) {
    result.status = Status::Failure;
    result.log += "nothing to link\n";
    return result;
  }
  // -cl-uniform-work-group-size at link time covers every kernel; without
  // it each keeps what its own compile promised.
  if (options->uniformWorkGroupSize) markUniformWorkGroups(*linked, true);
  if (options->createLibrary) {
    result.kind = BinaryKind::Library;
    result.binary = makeBinary(BinaryKind::Library, *linked, optionText);
    result.kernelNames = kernelNames(describeKernels(*linked));
    result.status = Status::Success;
    return result;
  }
  return makeExecutable(std::move(linked), std::move(context), *options, optionText, std::move(result));
}

std::vector<std::pair<uint32_t, uint32_t>> Compiler::ilVersions() const {
  if (spirvTranslatorPath().empty()) return {};
  std::span<const std::pair<uint32_t, uint32_t>> versions = spirv::readableVersions();
  return {versions.begin(), versions.end()};
}

std::optional<IntermediateLanguage> Compiler::inspectIL(std::span<const uint8_t> il, std::string &error) const {
  std::optional<spirv::Module> module = spirv::read(il, error);
  if (!module) return std::nullopt;
  return IntermediateLanguage{module->version, std::move(module->specConstants)};
}

namespace {

// The build options of an IL program as the compiler reads them: -cl-std,
// which names an OpenCL C version, has no meaning for SPIR-V and is left
// out whatever version it names (SYCL and HIP runtimes pass their own).
std::string ilOptions(std::string_view text) {
  std::string kept;
  for (const std::string &word : splitOptions(text)) {
    if (word.starts_with("-cl-std=")) continue;
    if (!kept.empty()) kept += ' ';
    kept += word.find_first_of(" \t\"'") == std::string::npos ? word : "\"" + word + "\"";
  }
  return kept;
}

// A SPIR-V module's words, specialized: nullopt with `result` saying why.
std::optional<std::vector<uint32_t>> specializedWords(std::span<const uint8_t> il, std::span<const SpecValue> values,
                                                      Result &result) {
  std::string error;
  std::optional<spirv::Module> module = spirv::read(il, error);
  if (!module || !module->unsupported.empty()) {
    result.status = Status::Failure;
    result.log += (module ? module->unsupported : error) + "\n";
    return std::nullopt;
  }
  return spirv::forTranslator(spirv::specialize(*module, values));
}

}  // namespace

Result Compiler::buildIL(std::span<const uint8_t> il, std::span<const SpecValue> values, std::string_view given) {
  std::string optionText = ilOptions(given);
  Result result;
  std::optional<FrontendOptions> options = parseOptionsInto(optionText, false, result);
  if (!options) return result;
  std::optional<std::vector<uint32_t>> words = specializedWords(il, values, result);
  if (!words) return result;
  std::string input = spirvTranslatorIdentity();
  input.append(reinterpret_cast<const char *>(words->data()), words->size() * sizeof(uint32_t));
  std::string key = cacheKey("spirv", input, optionText);
  if (std::optional<Result> cached = fromCache(key)) return std::move(*cached);
  auto context = std::make_unique<LLVMContext>();
  std::unique_ptr<Module> M = translateSpirv(*context, *words, options->uniformWorkGroupSize, result.log);
  if (!M) {
    result.status = Status::Failure;
    return result;
  }
  return makeExecutable(std::move(M), std::move(context), *options, optionText, std::move(result), key);
}

Result Compiler::compileIL(std::span<const uint8_t> il, std::span<const SpecValue> values,
                           std::string_view given) {
  std::string optionText = ilOptions(given);
  Result result;
  std::optional<FrontendOptions> options = parseOptionsInto(optionText, false, result);
  if (!options) return result;
  std::optional<std::vector<uint32_t>> words = specializedWords(il, values, result);
  if (!words) return result;
  LLVMContext context;
  std::unique_ptr<Module> M = translateSpirv(context, *words, options->uniformWorkGroupSize, result.log);
  if (!M) {
    result.status = Status::Failure;
    return result;
  }
  return compiledObject(*M, optionText, std::move(result));
}

BinaryKind Compiler::inspect(std::span<const uint8_t> binary) const { return parseBinary(binary).kind; }

Result Compiler::buildFromBinary(std::span<const uint8_t> binary, std::string_view optionText) {
  Result result;
  ParsedBinary parsed = parseBinary(binary);
  if (parsed.kind == BinaryKind::None || parsed.kind == BinaryKind::Library) {
    result.status = Status::InvalidBinary;
    result.log = "not an executable or compiled program binary\n";
    return result;
  }
  // The options given now are checked; the code is built with the ones the
  // binary was compiled with.
  std::optional<FrontendOptions> now = parseOptionsInto(optionText, false, result);
  if (!now) return result;
  std::string ignored;
  std::optional<FrontendOptions> options = parseOptions(parsed.options, false, ignored);
  if (!options) options = FrontendOptions{};
  std::string key = cacheKey("binary", std::string_view(reinterpret_cast<const char *>(binary.data()), binary.size()),
                             optionText);
  if (std::optional<Result> cached = fromCache(key)) return std::move(*cached);
  auto context = std::make_unique<LLVMContext>();
  std::unique_ptr<Module> M = readBitcode(parsed.bitcode, *context, result.log);
  if (!M) {
    result.status = Status::InvalidBinary;
    return result;
  }
  // Each kernel keeps the work-group rule it was compiled with
  // (KernelDescription::uniformWorkGroups), unless the options given now
  // promise full groups (-cl-uniform-work-group-size) or allow remainder
  // groups (-cl-std=CL3.0 without that promise).
  if (now->uniformWorkGroupSize) markUniformWorkGroups(*M, true);
  else if (!now->uniformWorkGroups()) markUniformWorkGroups(*M, false);
  return makeExecutable(std::move(M), std::move(context), *options, parsed.options, std::move(result), key);
}

}  // namespace lockstep::compiler

// lockstep::compiler::Compiler: builds, compiles, links and loads programs
// of OpenCL C and program binaries (the SPIR-V entry points are
// CompilerIL.cpp). Each entry point is a few dozen lines; the steps they
// share are CompilerSteps.h, the stages themselves live in the files those
// call.
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cstdlib>

#include "CompilerSteps.h"
#include "ThreadHandOff.h"

using namespace llvm;

namespace lockstep::compiler {

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

struct Compiler::Impl {
  LanguageSupport support;
};

Compiler::Compiler() : impl_(std::make_unique<Impl>()) {
  impl_->support.extensions = splitOptions(LOCKSTEP_OPENCL_C_EXTENSIONS);
  // Extensions the pinned CTS does not approve yet (LockstepFeatures.cmake):
  // only those LOCKSTEP_OPT_IN_EXTENSIONS names, or all of them.
  if (const char *asked = std::getenv("LOCKSTEP_OPT_IN_EXTENSIONS")) {
    std::string names = asked;
    std::replace(names.begin(), names.end(), ',', ' ');
    std::vector<std::string> wanted = splitOptions(names);
    for (const std::string &name : splitOptions(LOCKSTEP_OPENCL_C_OPT_IN_EXTENSIONS))
      if (is_contained(wanted, name) || is_contained(wanted, std::string("all")))
        impl_->support.extensions.push_back(name);
  }
  impl_->support.features = splitOptions(LOCKSTEP_OPENCL_C_FEATURES);
  for (const std::string &name : impl_->support.extensions) {
    if (name == "cl_khr_fp64") impl_->support.fp64 = true;
    if (name == "cl_khr_fp16") impl_->support.fp16 = true;
  }
  for (const std::string &name : impl_->support.features) {
    if (name == "__opencl_c_work_group_collective_functions") impl_->support.workGroupCollectives = true;
    if (name == "__opencl_c_subgroups") impl_->support.subGroupSize = hostSubGroupSize();
  }
  // "Support for OpenCL C 2.0 requires support for" these OpenCL C 3.0
  // features (and, with images, 3D image writes and read-write images).
  impl_->support.openclC20 = true;
  for (const char *name : {"__opencl_c_atomic_order_acq_rel", "__opencl_c_atomic_order_seq_cst",
                           "__opencl_c_atomic_scope_device", "__opencl_c_atomic_scope_all_devices",
                           "__opencl_c_device_enqueue", "__opencl_c_generic_address_space", "__opencl_c_pipes",
                           "__opencl_c_program_scope_global_variables",
                           "__opencl_c_work_group_collective_functions"})
    impl_->support.openclC20 &= is_contained(impl_->support.features, std::string(name));
  if (is_contained(impl_->support.features, std::string("__opencl_c_images")))
    for (const char *name : {"__opencl_c_3d_image_writes", "__opencl_c_read_write_images"})
      impl_->support.openclC20 &= is_contained(impl_->support.features, std::string(name));
  // Code generation's defaults. LLVM's X86 Domain Reassignment pass (moving
  // AVX-512 mask arithmetic out of general registers) grows faster than
  // linearly with a function's size: a straight-line kernel of 2,000 hash
  // statements spent 8.3 of its 9.6 s of code generation there, and 1.7 s
  // in all without it; the benchmark suite ran as fast without it (16-core
  // Xeon, geometric mean 0.99x, within the run's spread). A developer may
  // still name either pass's option in LOCKSTEP_LLVM_OPTIONS
  // (-disable-lsr=false).
  //
  // Loop strength reduction took 30-40% of code generation (0.45 of 1.14 s
  // for the suite's kernels, mostly rebuilding scalar evolution over the
  // vectorized work-item loops), and the kernels ran as fast or faster
  // without it: x86's addressing modes take the work-item loops' base +
  // index * scale as they are (suite and real-world sets, alternating runs,
  // 2-core EPYC: mandelbrot, nbody and reduce 10-15% faster, none slower;
  // 2 Xeon cores: rw_sgemm_tiled 95-110 against 58-102 GFLOP/s, the rest
  // within the host's noise).
  const char *user = std::getenv("LOCKSTEP_LLVM_OPTIONS");
  SmallVector<const char *, 3> arguments = {"lockstep"};
  if (cl::getRegisteredOptions().count("disable-x86-domain-reassignment") &&
      !(user && StringRef(user).contains("x86-domain-reassignment")))
    arguments.push_back("-disable-x86-domain-reassignment");
  if (cl::getRegisteredOptions().count("disable-lsr") && !(user && StringRef(user).contains("disable-lsr")))
    arguments.push_back("-disable-lsr");
  // Work-item loops around nests of uniform kernel loops are widened as outer
  // loops (WorkItemOuterVectorize.cpp), which LLVM's vectorizer does on its
  // VPlan-native path, for loops marked so.
  if (cl::getRegisteredOptions().count("enable-vplan-native-path") &&
      !(user && StringRef(user).contains("vplan-native-path")))
    arguments.push_back("-enable-vplan-native-path");
  // A developer's aid (README): LLVM's own options, as opt takes them
  // (-pass-remarks-missed=loop-vectorize, a pass's cl::opt knobs).
  if (arguments.size() > 1 || user)
    cl::ParseCommandLineOptions(int(arguments.size()), arguments.data(), "", &errs(),
                                user ? "LOCKSTEP_LLVM_OPTIONS" : nullptr);
}

Compiler::~Compiler() = default;

Compiler &Compiler::instance() {
  // Never destroyed, like the JIT: a static destructor may still build.
  static Compiler *compiler = new Compiler;
  // Made once, read by every thread (ThreadHandOff.h).
  static const bool handedOff = (handOff(compiler), true);
  (void)handedOff;
  takeOver(compiler);
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
  FrontendOptions options = binaryOptions(parsed);
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
  return makeExecutable(std::move(M), std::move(context), options, parsed.options, std::move(result), key);
}

}  // namespace lockstep::compiler

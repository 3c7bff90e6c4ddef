// OpenCL C → LLVM IR with Clang in-process, and the build options of
// clBuildProgram / clCompileProgram / clLinkProgram.
//
// The source is compiled for spir64-unknown-unknown so the OpenCL address
// spaces stay distinct through the work-group passes, with
// -fdeclare-opencl-builtins (fast) and exactly the extensions and features
// the device reports (cmake/LockstepFeatures.cmake).
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <llvm/IR/Module.h>
#include <llvm/Pass.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <cstdlib>

#include "Internal.h"

using namespace llvm;

namespace lockstep::compiler {
namespace {

// Options that Clang's -cc1 takes as they are.
constexpr std::string_view kMathOptions[] = {
    "-cl-single-precision-constant", "-cl-denorms-are-zero", "-cl-fp32-correctly-rounded-divide-sqrt",
    "-cl-mad-enable", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations", "-cl-finite-math-only",
    "-cl-fast-relaxed-math", "-cl-uniform-work-group-size"};
constexpr std::string_view kLinkOptions[] = {
    "-cl-denorms-are-zero", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only", "-cl-fast-relaxed-math", "-cl-no-subgroup-ifp"};

bool contains(std::span<const std::string_view> list, std::string_view word) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

// Clang's opencl-c-base.h declares every extension present for SPIR targets
// in OpenCL C 2.0+; those of these that Lockstep does not implement (not in
// LOCKSTEP_OPENCL_C_EXTENSIONS or _FEATURES) are taken back so that a
// kernel's #ifdef sees the truth. Clang declares an extension's builtins only
// while its macro is defined, so this also hides them. (The fp16 atomics'
// macros, which Clang defines only with cl_khr_fp16, are listed for the day
// that is offered: the library has no half atomics.)
constexpr const char *kAbsentExtensionMacros[] = {
    "cl_khr_subgroup_extended_types", "cl_khr_subgroup_non_uniform_vote", "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_non_uniform_arithmetic", "cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroup_clustered_reduce", "cl_khr_subgroup_rotate", "cl_khr_extended_bit_ops",
    "cl_khr_integer_dot_product", "__opencl_c_integer_dot_product_input_4x8bit",
    "__opencl_c_integer_dot_product_input_4x8bit_packed", "cl_ext_float_atomics",
    "__opencl_c_ext_fp64_global_atomic_add", "__opencl_c_ext_fp64_local_atomic_add",
    "__opencl_c_ext_fp64_global_atomic_min_max", "__opencl_c_ext_fp64_local_atomic_min_max",
    "__opencl_c_ext_fp32_global_atomic_add", "__opencl_c_ext_fp32_local_atomic_add",
    "__opencl_c_ext_fp32_global_atomic_min_max", "__opencl_c_ext_fp32_local_atomic_min_max",
    "__opencl_c_ext_fp16_global_atomic_load_store", "__opencl_c_ext_fp16_local_atomic_load_store",
    "__opencl_c_ext_fp16_global_atomic_add", "__opencl_c_ext_fp16_local_atomic_add",
    "__opencl_c_ext_fp16_global_atomic_min_max", "__opencl_c_ext_fp16_local_atomic_min_max",
    "__opencl_c_ext_image_raw10_raw12", "cl_khr_kernel_clock", "__opencl_c_kernel_clock_scope_device",
    "__opencl_c_kernel_clock_scope_work_group", "__opencl_c_kernel_clock_scope_sub_group"};
// Extensions Clang 19 does not know (its -cl-ext ignores them), whose
// OpenCL C it compiles all the same: cl_khr_expect_assume's __builtin_expect
// and __builtin_assume, and cl_khr_extended_async_copies, whose builtins are
// declared below. Their macros are defined here when the device offers them.
constexpr const char *kMacroOnlyExtensions[] = {"cl_khr_expect_assume", "cl_khr_extended_async_copies"};
// Extensions (and their feature macros) that Clang's opencl-c-base.h
// defines for SPIR in OpenCL C 2.0+ only, whose builtins need nothing of
// OpenCL C 2.0: defined for OpenCL C 1.x kernels too when the device offers
// them (Clang's builtin declarations follow the macros).
constexpr const char *kAnyVersionMacros[] = {
    "cl_khr_extended_bit_ops", "cl_khr_integer_dot_product", "__opencl_c_integer_dot_product_input_4x8bit",
    "__opencl_c_integer_dot_product_input_4x8bit_packed", "cl_khr_kernel_clock",
    "__opencl_c_kernel_clock_scope_device", "__opencl_c_kernel_clock_scope_work_group",
    "__opencl_c_kernel_clock_scope_sub_group"};
// cl_khr_extended_async_copies' builtins, which Clang 19 does not declare
// (defined in builtins/lib/async_copy_2d3d.cl with these prototypes).
constexpr const char *kExtendedAsyncCopies = R"(
#define __LS_COPY_2D2D(DAS, SAS) \
  event_t __attribute__((overloadable)) async_work_group_copy_2D2D(DAS void *, size_t, const SAS void *, \
      size_t, size_t, size_t, size_t, size_t, size_t, event_t);
#define __LS_COPY_3D3D(DAS, SAS) \
  event_t __attribute__((overloadable)) async_work_group_copy_3D3D(DAS void *, size_t, const SAS void *, \
      size_t, size_t, size_t, size_t, size_t, size_t, size_t, size_t, size_t, event_t);
__LS_COPY_2D2D(__local, __global)
__LS_COPY_2D2D(__global, __local)
__LS_COPY_3D3D(__local, __global)
__LS_COPY_3D3D(__global, __local)
#undef __LS_COPY_2D2D
#undef __LS_COPY_3D3D
)";
constexpr const char *kAbsentExtensionsHeader = "__lockstep_absent_extensions.h";

// cl_khr_work_group_uniform_arithmetic, which Clang 19 neither knows nor
// declares: its macro and its functions, declared as Clang declares the
// OpenCL C 2.0 collectives (overloadable, convergent), so they mangle as
// those do and the work-group passes lower them the same way
// (parseCollective, CollectiveCombine.cpp). Like those, only where the
// work-group collective functions are (OpenCL C 3.0 with the feature).
constexpr const char *kWorkGroupUniformArithmetic = R"(
#if defined(__opencl_c_work_group_collective_functions)
#define cl_khr_work_group_uniform_arithmetic 1
#define __LOCKSTEP_WG_ARITH(op, T) \
  T __attribute__((overloadable, convergent)) work_group_reduce_##op(T); \
  T __attribute__((overloadable, convergent)) work_group_scan_inclusive_##op(T); \
  T __attribute__((overloadable, convergent)) work_group_scan_exclusive_##op(T);
#define __LOCKSTEP_WG_INTEGER(op) \
  __LOCKSTEP_WG_ARITH(op, int) __LOCKSTEP_WG_ARITH(op, uint) \
  __LOCKSTEP_WG_ARITH(op, long) __LOCKSTEP_WG_ARITH(op, ulong)
__LOCKSTEP_WG_INTEGER(mul) __LOCKSTEP_WG_ARITH(mul, float)
#if defined(cl_khr_fp64) || defined(__opencl_c_fp64)
__LOCKSTEP_WG_ARITH(mul, double)
#endif
#if defined(cl_khr_fp16)
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__LOCKSTEP_WG_ARITH(mul, half)
#pragma OPENCL EXTENSION cl_khr_fp16 : disable
#endif
__LOCKSTEP_WG_INTEGER(and) __LOCKSTEP_WG_INTEGER(or) __LOCKSTEP_WG_INTEGER(xor)
__LOCKSTEP_WG_ARITH(logical_and, int) __LOCKSTEP_WG_ARITH(logical_or, int)
__LOCKSTEP_WG_ARITH(logical_xor, int)
#undef __LOCKSTEP_WG_INTEGER
#undef __LOCKSTEP_WG_ARITH
#endif
)";

// What the device offers: its extensions (the built-in list and the opt-in
// ones the environment asked for, Compiler.cpp) and its OpenCL C features
// (cmake/LockstepFeatures.cmake).
bool offered(const char *name) {
  const LanguageSupport &support = Compiler::instance().languageSupport();
  return is_contained(support.extensions, std::string(name)) || is_contained(support.features, std::string(name));
}

std::string absentExtensionsHeader() {
  std::string text;
  for (const char *name : kAbsentExtensionMacros)
    if (!offered(name)) text += std::string("#undef ") + name + "\n";
  for (const char *name : kMacroOnlyExtensions)
    if (offered(name)) text += std::string("#define ") + name + " 1\n";
  if (offered("cl_khr_work_group_uniform_arithmetic")) text += kWorkGroupUniformArithmetic;
  text += "#if __OPENCL_C_VERSION__ < 200\n";
  for (const char *name : kAnyVersionMacros)
    if (offered(name)) text += std::string("#define ") + name + " 1\n";
  text += "#endif\n";
  if (offered("cl_khr_extended_async_copies")) text += kExtendedAsyncCopies;
  return text;
}

}  // namespace

std::vector<std::string> splitOptions(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;
  char quote = 0;
  for (char c : text) {
    if (quote) {
      if (c == quote) quote = 0;
      else word += c;
    } else if (c == '"' || c == '\'') {
      quote = c;
      inWord = true;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (inWord) words.push_back(std::move(word));
      word.clear();
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push_back(std::move(word));
  return words;
}

bool environmentFlag(const char *name) {
  const char *value = std::getenv(name);
  return value && *value && std::string_view(value) != "0";
}

std::optional<FrontendOptions> parseOptions(std::string_view text, bool forLink, std::string &error) {
  FrontendOptions options;
  options.checkBarriers = environmentFlag("LOCKSTEP_CHECK_BARRIERS");
  options.checkBounds = environmentFlag("LOCKSTEP_CHECK_BOUNDS");
  // The checks' reports name source lines.
  if ((options.checkBarriers || options.checkBounds) && !forLink)
    options.clangArgs.push_back("-debug-info-kind=line-tables-only");
  std::vector<std::string> words = splitOptions(text);
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string &word = words[i];
    auto valueOf = [&](std::string_view flag) -> std::optional<std::string> {
      if (word.size() > flag.size()) return word.substr(flag.size());
      if (i + 1 < words.size()) return words[++i];
      return std::nullopt;
    };
    if (forLink) {
      if (word == "-create-library") options.createLibrary = true;
      else if (word == "-enable-link-options") continue;
      else if (contains(kLinkOptions, word)) {
        if (word == "-cl-uniform-work-group-size") options.uniformWorkGroupSize = true;
      } else {
        error = "invalid linker option '" + word + "'";
        return std::nullopt;
      }
      continue;
    }
    if (word.starts_with("-D") || word.starts_with("-I") || word.starts_with("-U")) {
      std::string flag = word.substr(0, 2);
      std::optional<std::string> value = valueOf(flag);
      if (!value || value->empty()) {
        error = "option '" + flag + "' needs a value";
        return std::nullopt;
      }
      options.clangArgs.push_back(flag + *value);
    } else if (word.starts_with("-cl-std=")) {
      std::string version = word.substr(8);
      if (version == "CL1.0") options.languageVersion = 100;
      else if (version == "CL1.1") options.languageVersion = 110;
      else if (version == "CL1.2") options.languageVersion = 120;
      else if (version == "CL2.0" && Compiler::instance().languageSupport().openclC20) options.languageVersion = 200;
      else if (version == "CL3.0") options.languageVersion = 300;
      else {
        error = "unsupported OpenCL C version '" + version + "' (the device supports CL1.0, CL1.1, CL1.2, " +
                (Compiler::instance().languageSupport().openclC20 ? "CL2.0, " : "") + "CL3.0)";
        return std::nullopt;
      }
    } else if (word == "-cl-opt-disable") {
      options.optDisable = true;
    } else if (word == "-cl-kernel-arg-info" || word == "-cl-strict-aliasing" || word == "-cl-no-subgroup-ifp") {
      continue;  // argument info is always kept; the others change nothing here
    } else if (word == "-w" || word == "-Werror") {
      options.clangArgs.push_back(word);
    } else if (word == "-g") {
      options.clangArgs.push_back("-debug-info-kind=line-tables-only");
    } else if (word == "-cl-denorms-are-zero") {
      // The driver's translation; -cc1 doesn't take the OpenCL spelling.
      options.clangArgs.push_back("-fdenormal-fp-math-f32=preserve-sign,preserve-sign");
    } else if (contains(kMathOptions, word)) {
      if (word == "-cl-uniform-work-group-size") options.uniformWorkGroupSize = true;
      options.clangArgs.push_back(word);
      if (word == "-cl-fast-relaxed-math" || word == "-cl-unsafe-math-optimizations") {
        for (const char *flag : {"-menable-no-infs", "-menable-no-nans", "-fno-signed-zeros", "-mreassociate",
                                 "-freciprocal-math", "-fapprox-func", "-ffp-contract=fast"})
          if (word == "-cl-fast-relaxed-math" || std::string_view(flag) != "-menable-no-infs")
            options.clangArgs.push_back(flag);
      }
    } else {
      error = "invalid build option '" + word + "'";
      return std::nullopt;
    }
  }
  return options;
}

std::unique_ptr<Module> compileSource(LLVMContext &context, std::string_view source,
                                      const FrontendOptions &options, std::span<const Header> headers,
                                      std::string &log) {
  raw_string_ostream logStream(log);

  // Sources and the input headers live in memory, over the real file system
  // (for -I directories), relative to the working directory.
  SmallString<256> cwd;
  sys::fs::current_path(cwd);
  auto memory = makeIntrusiveRefCnt<vfs::InMemoryFileSystem>();
  memory->setCurrentWorkingDirectory(cwd);
  const char *inputName = "program.cl";
  memory->addFile(inputName, 0, MemoryBuffer::getMemBufferCopy(StringRef(source.data(), source.size())));
  memory->addFile(kAbsentExtensionsHeader, 0, MemoryBuffer::getMemBufferCopy(absentExtensionsHeader()));
  for (const Header &header : headers)
    memory->addFile(header.name, 0, MemoryBuffer::getMemBufferCopy(header.source));
  auto files = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(vfs::getRealFileSystem());
  files->pushOverlay(memory);
  files->setCurrentWorkingDirectory(cwd);

  std::string standard = options.languageVersion == 300 ? "CL3.0"
                         : options.languageVersion == 200 ? "CL2.0"
                         : options.languageVersion == 100 ? "CL1.0"
                         : options.languageVersion == 110 ? "CL1.1"
                                                           : "CL1.2";
  std::vector<std::string> args = {"-triple", "spir64-unknown-unknown", "-cl-std=" + standard,
                                   "-fdeclare-opencl-builtins", "-finclude-default-header",
                                   LOCKSTEP_CLANG_CL_EXT, "-cl-kernel-arg-info", "-ffp-contract=on",
                                   "-fno-builtin", "-D__OPENCL_VERSION__=300",
                                   "-D__LOCKSTEP__=1"};
  if (options.optDisable) args.insert(args.end(), {"-O0", "-disable-O0-optnone"});
  else args.insert(args.end(), {"-O2", "-disable-llvm-passes"});
  args.insert(args.end(), {"-include", kAbsentExtensionsHeader});
  args.insert(args.end(), options.clangArgs.begin(), options.clangArgs.end());
  args.push_back(inputName);
  std::vector<const char *> argv;
  for (const std::string &arg : args) argv.push_back(arg.c_str());

  auto invocation = std::make_shared<clang::CompilerInvocation>();
  {
    IntrusiveRefCntPtr<clang::DiagnosticOptions> parseOptions = new clang::DiagnosticOptions();
    clang::DiagnosticsEngine parseDiagnostics(new clang::DiagnosticIDs(), parseOptions,
                                              new clang::TextDiagnosticPrinter(logStream, parseOptions.get()));
    if (!clang::CompilerInvocation::CreateFromArgs(*invocation, argv, parseDiagnostics)) {
      logStream.flush();
      return nullptr;
    }
  }
  invocation->getHeaderSearchOpts().ResourceDir = LOCKSTEP_CLANG_RESOURCE_DIR;
  invocation->getFrontendOpts().DisableFree = false;
  invocation->getDiagnosticOpts().ShowColors = false;
  // Clang's code generation sets LLVM's -time-passes flag from its own
  // options (TimePassesIsEnabled = CodeGenOpts.TimePasses), which switched
  // LOCKSTEP_LLVM_OPTIONS=-time-passes off before the optimizer ran. Carried
  // over, it stays on, and clang's emission of the IR is timed too.
  invocation->getCodeGenOpts().TimePasses = TimePassesIsEnabled;
  invocation->getCodeGenOpts().TimePassesPerRun = TimePassesPerRun;
  // The diagnostics take -w / -Werror from the parsed invocation.
  clang::CompilerInstance compiler;
  compiler.setInvocation(invocation);
  compiler.createDiagnostics(new clang::TextDiagnosticPrinter(logStream, &invocation->getDiagnosticOpts()), true);
  compiler.createFileManager(files);
  compiler.setVerboseOutputStream(logStream);  // "N warnings generated." belongs in the log
  clang::EmitLLVMOnlyAction action(&context);
  bool ok = compiler.ExecuteAction(action);
  logStream.flush();
  if (!ok) return nullptr;
  std::unique_ptr<Module> M = action.takeModule();
  if (M) markUniformWorkGroups(*M, options.uniformWorkGroups());
  return M;
}

}  // namespace lockstep::compiler

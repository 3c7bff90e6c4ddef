// The steps Compiler's entry points share: Compiler.cpp (OpenCL C, program
// binaries) and CompilerIL.cpp (SPIR-V) each parse options, run a frontend
// and end in one of these. The program binary's format is ProgramBinary.cpp;
// the back end, the executable and the kernel cache's side of a build are
// Executable.cpp.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "Internal.h"
#include "lockstep/compiler/Compiler.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace lockstep::compiler {

// ProgramBinary.cpp. A binary of `kind` holding M's bitcode and the options
// it was built with.
std::vector<uint8_t> makeBinary(BinaryKind kind, const llvm::Module &M, std::string_view options);

struct ParsedBinary {
  BinaryKind kind = BinaryKind::None;
  std::string options;
  llvm::StringRef bitcode;
};

// What a binary holds; kind None when it is not one of ours or is damaged
// (its checksum does not match).
ParsedBinary parseBinary(std::span<const uint8_t> binary);
// The options a parsed binary was built with (the defaults where they no
// longer parse).
inline FrontendOptions binaryOptions(const ParsedBinary &parsed) {
  std::string ignored;
  return parseOptions(parsed.options, false, ignored).value_or(FrontendOptions{});
}
// The module of a parsed binary's bitcode, or null with the reason in `log`.
std::unique_ptr<llvm::Module> readBitcode(llvm::StringRef bitcode, llvm::LLVMContext &context, std::string &log);

// Executable.cpp. A build the kernel cache already holds (no Clang, passes or
// code generation), or nullopt.
std::optional<Result> fromCache(const std::string &key);
// The back end: work-group passes, -O3 and machine code, JIT; fills in what
// the passes found and, with a cache key, stores the result in the kernel
// cache. Takes the module and its context (the module goes first).
Result makeExecutable(std::unique_ptr<llvm::Module> module, std::unique_ptr<llvm::LLVMContext> moduleContext,
                      const FrontendOptions &options, std::string_view optionText, Result result,
                      const std::string &cacheKey = {});
std::vector<std::string> kernelNames(const std::vector<KernelDescription> &kernels);

// Compiler.cpp. clCompileProgram's result for a module (from OpenCL C or
// SPIR-V).
Result compiledObject(const llvm::Module &M, std::string_view optionText, Result result);
// Options, or nullopt with `result` saying why (CL_INVALID_*_OPTIONS).
std::optional<FrontendOptions> parseOptionsInto(std::string_view text, bool forLink, Result &result);

}  // namespace lockstep::compiler

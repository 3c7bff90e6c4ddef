// Compiler's entry points for SPIR-V programs (clCreateProgramWithIL):
// which versions the device reads, what a module holds, and its build and
// compile. The module is specialized and rewritten for the translator
// (Spirv/SpirvBinary, SpirvRewrites), turned into LLVM IR by it
// (Spirv/SpirvTranslation) and then takes the OpenCL C path's back end
// (CompilerSteps.h). docs/spirv.md says why it goes this way.
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "CompilerSteps.h"
#include "Spirv/SpirvBinary.h"

using namespace llvm;

namespace lockstep::compiler {

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

}  // namespace lockstep::compiler

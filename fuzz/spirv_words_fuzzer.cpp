// Fuzz target: what the compiler does to a SPIR-V module's words before the
// translator sees them (compiler/lib/Spirv/SpirvBinary.cpp, SpirvRewrites.cpp),
// in process and without the translator, so it runs thousands of inputs a
// second: reading (header, instruction stream, capabilities, specialization
// constants), specializing every constant found, and the rewrites. The words
// that come out must be a well-formed instruction stream with the header's
// bound above every id the rewrites made. The whole path through
// clCreateProgramWithIL and the translator is build_program's `@il` input.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "Spirv/SpirvBinary.h"

namespace {

void require(bool condition, const char *what) {
  if (!condition) {
    std::fprintf(stderr, "spirv_words_fuzzer: %s\n", what);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace lockstep::compiler;
  std::string error;
  std::optional<spirv::Module> module = spirv::read({data, size}, error);
  if (!module) {
    require(!error.empty(), "a module refused without a reason");
    return 0;
  }
  std::vector<SpecValue> values;
  for (const SpecConstant &constant : module->specConstants) {
    require(constant.size == 1 || constant.size == 2 || constant.size == 4 || constant.size == 8,
            "a specialization constant of a size clSetProgramSpecializationConstant cannot take");
    values.push_back({constant.id, 0xfedcba9876543210ull});
  }
  std::vector<uint32_t> specialized = spirv::specialize(*module, values);
  require(specialized.size() == module->words.size(), "specialization changed the module's length");
  std::vector<uint32_t> words = spirv::forTranslator(specialized);
  require(words.size() >= 5 && words[0] == spirv::kMagic, "the rewritten module lost its header");
  require(words[3] >= module->words[3], "the rewrites lowered the id bound");
  for (size_t at = 5; at < words.size();) {
    uint32_t count = words[at] >> 16;
    require(count != 0 && at + count <= words.size(), "the rewrites left a broken instruction stream");
    at += count;
  }
  return 0;
}

// What the compiler reads from a SPIR-V module's words before translating it
// (no LLVM here): the header, the capabilities and addressing model the
// device must offer, and the specialization constants, which are set by
// rewriting their default values in the words (the module the translator
// sees is already specialized, so the kernel cache keys on it as it is).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lockstep/compiler/Compiler.h"

namespace lockstep::compiler::spirv {

inline constexpr uint32_t kMagic = 0x07230203;

struct Module {
  uint32_t version = 0;  // 0x00MMmm00, as in the header
  std::vector<uint32_t> words;  // in the host's byte order
  std::vector<SpecConstant> specConstants;
  // Why the device cannot run it ("" if it can): 32-bit addressing, a
  // capability the device lacks. Its builds fail with this in the log.
  std::string unsupported;
};

// Reads the words (either byte order). nullopt, and `error` saying why, for
// what is not a SPIR-V module the translator reads: a bad header or
// instruction stream, a newer version.
std::optional<Module> read(std::span<const uint8_t> bytes, std::string &error);

// The words with each given constant's default replaced by its value
// (`values` were validated against the module's specConstants).
std::vector<uint32_t> specialize(const Module &module, std::span<const SpecValue> values);

// The words with valid SPIR-V the translator (llvm-spirv 15) cannot read
// put in equivalent forms it reads (SpirvRewrites.cpp).
std::vector<uint32_t> forTranslator(std::span<const uint32_t> words);

// The versions the device reports and read() takes ({1, 0} ...), oldest
// first.
std::span<const std::pair<uint32_t, uint32_t>> readableVersions();

}  // namespace lockstep::compiler::spirv

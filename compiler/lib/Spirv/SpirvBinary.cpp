// SPIR-V module words: validation before translation, and specialization.
//
// The translator (SpirvTranslation.cpp) runs out of process and would turn
// some modules the device cannot run into LLVM IR all the same (device-side enqueue, 32-bit addressing); their builds
// fail here with a sentence the build log carries. Specialization
// constants are found from their SpecId decorations and the scalar types of
// their OpSpecConstant* instructions; setting one rewrites the literal (or
// OpSpecConstantTrue/False's opcode) in a copy of the words, as the SPIR-V
// specification describes specialization.
#include "Spirv/SpirvBinary.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <map>

namespace lockstep::compiler::spirv {
namespace {

// Capabilities of the OpenCL environment this device does not have, with
// what the log says.
struct Missing {
  uint32_t capability;
  const char *what;
};
constexpr Missing kMissingCapabilities[] = {
    {spv::CapabilityShader, "Shader (a graphics module, not an OpenCL kernel module)"},
    {spv::CapabilityImageMipmap, "ImageMipmap (the device has no cl_khr_mipmap_image)"},
    {spv::CapabilitySubgroupDispatch, "SubgroupDispatch (OpenCL 2.2 sub-group dispatch: not offered)"},
    {spv::CapabilityNamedBarrier, "NamedBarrier (the device has no named barriers)"},
    {spv::CapabilityPipeStorage, "PipeStorage (the device has no program-scope pipe storage)"},
};

// The versions the device reports, and reads: the translator reads SPIR-V
// 1.4's new instructions once SpirvRewrites.cpp has put them in older
// forms.
constexpr std::pair<uint32_t, uint32_t> kVersions[] = {{1, 0}, {1, 1}, {1, 2}, {1, 3}, {1, 4}, {1, 5}, {1, 6}};

uint32_t swapped(uint32_t word) {
  return (word >> 24) | ((word >> 8) & 0xff00) | ((word << 8) & 0xff0000) | (word << 24);
}

}  // namespace

std::span<const std::pair<uint32_t, uint32_t>> readableVersions() { return kVersions; }

std::optional<Module> read(std::span<const uint8_t> bytes, std::string &error) {
  if (bytes.size() % 4 != 0 || bytes.size() < 20) {
    error = "not a SPIR-V module: its size is not a whole number of words, or it is shorter than the header";
    return std::nullopt;
  }
  Module module;
  module.words.resize(bytes.size() / 4);
  std::copy(bytes.begin(), bytes.end(), reinterpret_cast<uint8_t *>(module.words.data()));
  std::vector<uint32_t> &words = module.words;
  if (words[0] == swapped(kMagic)) std::transform(words.begin(), words.end(), words.begin(), swapped);
  else if (words[0] != kMagic) {
    error = "not a SPIR-V module: wrong magic number";
    return std::nullopt;
  }
  module.version = words[1];
  uint32_t major = (words[1] >> 16) & 0xff, minor = (words[1] >> 8) & 0xff;
  if (major != 1 || (words[1] & 0xff0000ff) != 0 || std::find(std::begin(kVersions), std::end(kVersions), std::pair{major, minor}) == std::end(kVersions)) {
    error = "SPIR-V " + std::to_string(major) + "." + std::to_string(minor) +
            " is not read by this device (it reads SPIR-V 1.0 to 1.4)";
    return std::nullopt;
  }

  // Scalar types by id (bytes; 0 for others), spec ids by target id.
  std::map<uint32_t, uint32_t> typeBytes;
  std::map<uint32_t, bool> typeSigned;
  std::map<uint32_t, uint32_t> specIds;
  struct Found {
    uint32_t result, type;
  };
  std::vector<Found> constants;
  bool addressing64 = false, memoryModel = false;
  for (size_t at = 5; at < words.size();) {
    uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
    if (count == 0 || at + count > words.size()) {
      error = "invalid SPIR-V module: an instruction at word " + std::to_string(at) + " runs past the end";
      return std::nullopt;
    }
    const uint32_t *operand = &words[at + 1];
    uint32_t operands = count - 1;
    switch (opcode) {
      case spv::OpCapability:
        if (operands >= 1)
          for (const Missing &missing : kMissingCapabilities)
            if (operand[0] == missing.capability && module.unsupported.empty())
              module.unsupported = std::string("the module needs capability ") + missing.what;
        break;
      case spv::OpMemoryModel:
        memoryModel = true;
        addressing64 = operands >= 1 && operand[0] == spv::AddressingModelPhysical64;
        break;
      case spv::OpTypeBool:
        if (operands >= 1) typeBytes[operand[0]] = 1;
        break;
      case spv::OpTypeInt:
        if (operands >= 3) {
          typeBytes[operand[0]] = operand[1] / 8;
          typeSigned[operand[0]] = operand[2] != 0;
        }
        break;
      case spv::OpTypeFloat:
        if (operands >= 2) typeBytes[operand[0]] = operand[1] / 8;
        break;
      case spv::OpSpecConstantTrue:
      case spv::OpSpecConstantFalse:
      case spv::OpSpecConstant:
        if (operands >= 2) constants.push_back({operand[1], operand[0]});
        break;
      case spv::OpDecorate:
        if (operands >= 3 && operand[1] == spv::DecorationSpecId) specIds[operand[0]] = operand[2];
        break;
      default:
        break;
    }
    at += count;
  }
  if (!memoryModel) {
    error = "invalid SPIR-V module: no OpMemoryModel";
    return std::nullopt;
  }
  if (!addressing64 && module.unsupported.empty())
    module.unsupported = "the module's addressing model is not Physical64 (the device's address bits are 64)";
  for (const Found &constant : constants) {
    auto id = specIds.find(constant.result);
    auto bytes = typeBytes.find(constant.type);
    // Scalars of 1, 2, 4 or 8 bytes (a damaged module may declare others).
    if (id == specIds.end() || bytes == typeBytes.end()) continue;
    if (bytes->second != 1 && bytes->second != 2 && bytes->second != 4 && bytes->second != 8) continue;
    module.specConstants.push_back({id->second, bytes->second});
  }
  return module;
}

std::vector<uint32_t> specialize(const Module &module, std::span<const SpecValue> values) {
  std::vector<uint32_t> words = module.words;
  if (values.empty()) return words;
  std::map<uint32_t, uint64_t> byResult;  // value per result id
  std::map<uint32_t, uint32_t> typeBits;
  std::map<uint32_t, bool> typeSigned;
  std::map<uint32_t, uint64_t> valueOfSpecId;
  for (const SpecValue &value : values) valueOfSpecId[value.id] = value.bits;
  for (size_t at = 5; at < words.size(); at += words[at] >> 16) {
    uint32_t opcode = words[at] & 0xffff, count = words[at] >> 16;
    if (opcode == spv::OpDecorate && count >= 4 && words[at + 2] == spv::DecorationSpecId)
      if (auto value = valueOfSpecId.find(words[at + 3]); value != valueOfSpecId.end())
        byResult[words[at + 1]] = value->second;
    if (opcode == spv::OpTypeInt && count >= 4) {
      typeBits[words[at + 1]] = words[at + 2];
      typeSigned[words[at + 1]] = words[at + 3] != 0;
    }
    if (opcode == spv::OpTypeFloat && count >= 3) typeBits[words[at + 1]] = words[at + 2];
  }
  for (size_t at = 5; at < words.size(); at += words[at] >> 16) {
    uint32_t opcode = words[at] & 0xffff, count = words[at] >> 16;
    if (count < 3) continue;
    auto value = byResult.find(words[at + 2]);
    if (value == byResult.end()) continue;
    if (opcode == spv::OpSpecConstantTrue || opcode == spv::OpSpecConstantFalse) {
      words[at] = (count << 16) | (value->second & 0xff ? spv::OpSpecConstantTrue : spv::OpSpecConstantFalse);
    } else if (opcode == spv::OpSpecConstant && count >= 4) {
      uint32_t bits = typeBits[words[at + 1]];
      if (bits == 0 || bits > 64) continue;
      uint64_t raw = value->second;
      if (bits < 64) raw &= (uint64_t(1) << bits) - 1;
      // Literals narrower than a word are sign-extended for signed integer
      // types, zero-extended otherwise (SPIR-V 2.2.1).
      if (bits < 32 && typeSigned[words[at + 1]] && (raw >> (bits - 1)) & 1) raw |= ~uint64_t(0) << bits;
      words[at + 3] = uint32_t(raw);
      if (count >= 5) words[at + 4] = uint32_t(raw >> 32);
    }
  }
  return words;
}

}  // namespace lockstep::compiler::spirv

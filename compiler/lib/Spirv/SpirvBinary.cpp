// SPIR-V module words: validation before translation, and specialization.
//
// The translator (SpirvTranslation.cpp) runs out of process and would turn
// some modules the device cannot run into LLVM IR all the same (half
// arithmetic, pipes, device-side enqueue, 32-bit addressing); their builds
// fail here with a sentence the build log carries. Specialization
// constants are found from their SpecId decorations and the scalar types of
// their OpSpecConstant* instructions; setting one rewrites the literal (or
// OpSpecConstantTrue/False's opcode) in a copy of the words, as the SPIR-V
// specification describes specialization.
#include "Spirv/SpirvBinary.h"

#include <algorithm>
#include <map>

namespace lockstep::compiler::spirv {
namespace {

// SPIR-V opcodes and enumerants used here (SPIR-V 1.6 specification,
// section 3).
enum Op : uint32_t {
  OpCapability = 17,
  OpMemoryModel = 14,
  OpTypeBool = 20,
  OpTypeInt = 21,
  OpTypeFloat = 22,
  OpConstantFalse = 42,
  OpConstant = 43,
  OpConstantNull = 46,
  OpSpecConstantTrue = 48,
  OpSpecConstantFalse = 49,
  OpSpecConstant = 50,
  OpDecorate = 71,
  OpMemberDecorate = 72,
  OpCopyMemory = 63,
  OpCopyMemorySized = 64,
  OpDecorateString = 5632,
  OpMemberDecorateString = 5633,
};
constexpr uint32_t kDecorationSpecId = 1;
constexpr uint32_t kAddressingPhysical64 = 2;

// Capabilities of the OpenCL environment this device does not have, with
// what the log says.
struct Missing {
  uint32_t capability;
  const char *what;
};
constexpr Missing kMissingCapabilities[] = {
    {1, "Shader (a graphics module, not an OpenCL kernel module)"},
    {9, "Float16 (half-precision arithmetic: the device has no cl_khr_fp16)"},
    {15, "ImageMipmap (the device has no cl_khr_mipmap_image)"},
    {17, "Pipes (the device has no pipes)"},
    {19, "DeviceEnqueue (the device has no device-side enqueue)"},
    {58, "SubgroupDispatch (the device has no device-side enqueue)"},
    {59, "NamedBarrier (the device has no named barriers)"},
    {60, "PipeStorage (the device has no pipes)"},
};

// The versions the device reports: every instruction of these the
// translator reads. It reads SPIR-V 1.4 modules too, but not all of 1.4's
// new instructions (OpCopyLogical, OpPtrEqual/NotEqual/Diff,
// OpDecorateString, OpCopyMemory's second memory operands): such a module
// is taken, and one that uses those fails its build with the translator's
// message.
constexpr std::pair<uint32_t, uint32_t> kVersions[] = {{1, 0}, {1, 1}, {1, 2}, {1, 3}};
constexpr uint32_t kNewestRead = 0x00010400;

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
  if (major != 1 || (words[1] & 0xff0000ff) != 0 || words[1] > kNewestRead) {
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
      case OpCapability:
        if (operands >= 1)
          for (const Missing &missing : kMissingCapabilities)
            if (operand[0] == missing.capability && module.unsupported.empty())
              module.unsupported = std::string("the module needs capability ") + missing.what;
        break;
      case OpMemoryModel:
        memoryModel = true;
        addressing64 = operands >= 1 && operand[0] == kAddressingPhysical64;
        break;
      case OpTypeBool:
        if (operands >= 1) typeBytes[operand[0]] = 1;
        break;
      case OpTypeInt:
        if (operands >= 3) {
          typeBytes[operand[0]] = operand[1] / 8;
          typeSigned[operand[0]] = operand[2] != 0;
        }
        break;
      case OpTypeFloat:
        if (operands >= 2) typeBytes[operand[0]] = operand[1] / 8;
        break;
      case OpSpecConstantTrue:
      case OpSpecConstantFalse:
      case OpSpecConstant:
        if (operands >= 2) constants.push_back({operand[1], operand[0]});
        break;
      case OpDecorate:
        if (operands >= 3 && operand[1] == kDecorationSpecId) specIds[operand[0]] = operand[2];
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
    if (id == specIds.end() || bytes == typeBytes.end() || bytes->second == 0) continue;
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
    if (opcode == OpDecorate && count >= 4 && words[at + 2] == kDecorationSpecId)
      if (auto value = valueOfSpecId.find(words[at + 3]); value != valueOfSpecId.end())
        byResult[words[at + 1]] = value->second;
    if (opcode == OpTypeInt && count >= 4) {
      typeBits[words[at + 1]] = words[at + 2];
      typeSigned[words[at + 1]] = words[at + 3] != 0;
    }
    if (opcode == OpTypeFloat && count >= 3) typeBits[words[at + 1]] = words[at + 2];
  }
  for (size_t at = 5; at < words.size(); at += words[at] >> 16) {
    uint32_t opcode = words[at] & 0xffff, count = words[at] >> 16;
    if (count < 3) continue;
    auto value = byResult.find(words[at + 2]);
    if (value == byResult.end()) continue;
    if (opcode == OpSpecConstantTrue || opcode == OpSpecConstantFalse) {
      words[at] = (count << 16) | (value->second & 0xff ? OpSpecConstantTrue : OpSpecConstantFalse);
    } else if (opcode == OpSpecConstant) {
      uint32_t bits = typeBits[words[at + 1]];
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

namespace {

// Words a memory-operands mask is followed by (SPIR-V 3.26): Aligned's
// literal, MakePointerAvailable's and MakePointerVisible's scope ids.
uint32_t memoryOperandWords(uint32_t mask) {
  return ((mask & 0x2) ? 1 : 0) + ((mask & 0x8) ? 1 : 0) + ((mask & 0x10) ? 1 : 0);
}

}  // namespace

std::vector<uint32_t> forTranslator(std::span<const uint32_t> words) {
  std::map<uint32_t, uint32_t> scalarBits;  // int and float types: width; bool: 0
  std::vector<uint32_t> out(words.begin(), words.begin() + std::min<size_t>(5, words.size()));
  for (size_t at = 5; at < words.size();) {
    uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
    std::vector<uint32_t> instruction(words.begin() + at, words.begin() + at + count);
    at += count;
    if ((opcode == OpTypeInt || opcode == OpTypeFloat) && count >= 3) scalarBits[instruction[1]] = instruction[2];
    if (opcode == OpTypeBool && count >= 2) scalarBits[instruction[1]] = 0;
    if (opcode == OpConstantNull && count == 3) {
      // A scalar's null constant (the translator asserts on it): zero.
      if (auto scalar = scalarBits.find(instruction[1]); scalar != scalarBits.end()) {
        if (scalar->second == 0) instruction = {(3u << 16) | OpConstantFalse, instruction[1], instruction[2]};
        else if (scalar->second <= 32) instruction = {(4u << 16) | OpConstant, instruction[1], instruction[2], 0};
        else instruction = {(5u << 16) | OpConstant, instruction[1], instruction[2], 0, 0};
      }
    } else if (opcode == OpDecorateString || opcode == OpMemberDecorateString) {
      // SPIR-V 1.4's names of the string decorations; the same operands.
      instruction[0] = (count << 16) | (opcode == OpDecorateString ? OpDecorate : OpMemberDecorate);
    } else if (opcode == OpCopyMemory || opcode == OpCopyMemorySized) {
      // SPIR-V 1.4 lets the source have memory operands of its own, after
      // the target's: the translator reads one set, so the second goes
      // (hints about the source access only).
      size_t first = opcode == OpCopyMemory ? 3 : 4;
      if (count > first) {
        size_t end = first + 1 + memoryOperandWords(instruction[first]);
        if (end < count) {
          instruction.resize(end);
          instruction[0] = (uint32_t(end) << 16) | opcode;
        }
      }
    }
    out.insert(out.end(), instruction.begin(), instruction.end());
  }
  return out;
}

}  // namespace lockstep::compiler::spirv

// Valid SPIR-V the translator (llvm-spirv 15) cannot read, rewritten into
// equivalent forms it reads, before it runs (spirv::forTranslator).
//
//   OpConstantNull of a scalar        → OpConstant 0 / OpConstantFalse
//   OpDecorateString, OpMemberDecorateString (1.4)
//                                     → OpDecorate, OpMemberDecorate
//   a UserSemantic decoration         → nothing (an annotation)
//   OpCopyMemory                      → OpLoad and OpStore
//   OpCopyMemorySized with the source's own memory operands (1.4)
//                                     → the target's operands only
//   OpPtrEqual / OpPtrNotEqual (1.4)  → OpConvertPtrToU of both, OpIEqual /
//                                       OpINotEqual
//   OpPtrDiff (1.4)                   → (OpConvertPtrToU a - b) / element size
//   OpCopyLogical (1.4)               → OpCompositeExtract of each member,
//                                       copied logically, OpCompositeConstruct
//   OpCompositeConstruct (the translator makes it a constant, and
//   crashes on one of values)         → OpCompositeInsert from an OpUndef
//   OpBitcast of a pointer to or from an integer or vector (1.5)
//                                     → OpConvertPtrToU / OpConvertUToPtr
//   the Nontemporal image operand (1.6) → nothing (a hint)
//   OpVectorShuffle of vectors of two lengths
//                                     → the shorter widened by a shuffle of
//                                       itself first
//
// Types the rewrites need (a 64-bit integer, a vector of another length)
// are reused when the module declares them and appended to its
// declarations otherwise, with fresh ids (the header's bound grows).
#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <map>
#include <optional>

#include "Spirv/SpirvBinary.h"

namespace lockstep::compiler::spirv {
namespace {

using Words = std::vector<uint32_t>;

Words instruction(spv::Op opcode, std::initializer_list<uint32_t> operands) {
  Words words{uint32_t(operands.size() + 1) << 16 | opcode};
  words.insert(words.end(), operands);
  return words;
}

uint32_t memoryOperandWords(uint32_t mask) {
  return ((mask & spv::MemoryAccessAlignedMask) ? 1 : 0) +
         ((mask & spv::MemoryAccessMakePointerAvailableMask) ? 1 : 0) +
         ((mask & spv::MemoryAccessMakePointerVisibleMask) ? 1 : 0);
}

class Rewriter {
 public:
  explicit Rewriter(std::span<const uint32_t> words) : bound_(words.size() > 3 ? words[3] : 0) {
    header_.assign(words.begin(), words.begin() + std::min<size_t>(5, words.size()));
    for (size_t at = 5; at < words.size();) {
      uint32_t count = words[at] >> 16;
      body_.emplace_back(words.begin() + at, words.begin() + at + count);
      at += count;
    }
    for (const Words &inst : body_) learn(inst);
  }

  Words run() {
    // Function bodies are rewritten first: types their rewrites add go
    // after the module's own declarations, before its first function.
    std::vector<Words> globals, functions;
    bool inFunctions = false;
    for (Words &inst : body_) {
      inFunctions |= (inst[0] & 0xffff) == spv::OpFunction;
      for (Words &replacement : rewrite(std::move(inst)))
        (inFunctions ? functions : globals).push_back(std::move(replacement));
    }
    Words words = header_;
    if (words.size() > 3) words[3] = bound_;
    // What SPIR-V 1.5 and 1.6 add that OpenCL kernels use is rewritten
    // here; the translator reads the rest as 1.4.
    if (words.size() > 1 && words[1] > 0x00010400) words[1] = 0x00010400;
    bool needsInt64 = addedInt64_ && !hasInt64_;
    auto append = [&](const Words &inst) {
      // A capability goes with the others, before OpMemoryModel.
      if (needsInt64 && (inst[0] & 0xffff) == spv::OpMemoryModel) {
        Words capability = instruction(spv::OpCapability, {spv::CapabilityInt64});
        words.insert(words.end(), capability.begin(), capability.end());
        needsInt64 = false;
      }
      words.insert(words.end(), inst.begin(), inst.end());
    };
    for (const Words &inst : globals) append(inst);
    for (const Words &inst : newTypes_) append(inst);
    for (const Words &inst : functions) append(inst);
    return words;
  }

  // Types, constants and the types of values, as declared.
  void learn(const Words &inst) {
    auto opcode = spv::Op(inst[0] & 0xffff);
    bool hasResult = false, hasType = false;
    spv::HasResultAndType(opcode, &hasResult, &hasType);
    if (hasResult && hasType && inst.size() >= 3) typeOf_[inst[2]] = inst[1];
    if (hasResult && !hasType && opcode >= spv::OpTypeVoid && opcode <= spv::OpTypeForwardPointer &&
        inst.size() >= minimumTypeWords(opcode))
      types_[inst[1]] = inst;
    if (opcode == spv::OpConstant && inst.size() >= 4) constants_[inst[2]] = inst[3];
    if (opcode == spv::OpCapability && inst.size() >= 2 && inst[1] == spv::CapabilityInt64) hasInt64_ = true;
    if (opcode == spv::OpDecorate && inst.size() >= 3 && inst[2] == spv::DecorationCPacked) packed_.push_back(inst[1]);
  }

  // Words a type declaration must have for the operands read here (a
  // damaged module's shorter ones are not recorded).
  static size_t minimumTypeWords(spv::Op opcode) {
    switch (opcode) {
      case spv::OpTypeInt:
      case spv::OpTypeVector:
      case spv::OpTypeArray:
      case spv::OpTypePointer: return 4;
      case spv::OpTypeFloat: return 3;
      default: return 2;
    }
  }

  // Words an instruction rewritten here must have; a shorter one (a
  // damaged module) is left for the translator to refuse.
  static size_t minimumWords(spv::Op opcode) {
    switch (opcode) {
      case spv::OpPtrEqual:
      case spv::OpPtrNotEqual:
      case spv::OpPtrDiff:
      case spv::OpVectorShuffle: return 5;
      case spv::OpCopyLogical:
      case spv::OpBitcast:
      case spv::OpCopyMemorySized: return 4;
      default: return 3;
    }
  }
  // Limits on what a rewrite builds, against a damaged module's sizes and
  // self-containing types.
  static constexpr uint32_t kMaxComponents = 16, kMaxMembers = 1024, kMaxDepth = 16;

  uint32_t fresh() { return bound_++; }

  // The id of a type declared as `opcode operands...`, declared now if the
  // module has none.
  uint32_t typeId(spv::Op opcode, std::initializer_list<uint32_t> operands) {
    for (auto &[id, inst] : types_)
      if ((inst[0] & 0xffff) == uint32_t(opcode) && inst.size() == operands.size() + 2 &&
          std::equal(operands.begin(), operands.end(), inst.begin() + 2))
        return id;
    uint32_t id = fresh();
    Words inst{uint32_t(operands.size() + 2) << 16 | opcode, id};
    inst.insert(inst.end(), operands);
    types_[id] = inst;
    newTypes_.push_back(inst);
    if (opcode == spv::OpTypeInt && *operands.begin() == 64) addedInt64_ = true;
    return id;
  }
  uint32_t ulongType() { return typeId(spv::OpTypeInt, {64, 0}); }

  std::optional<Words> typeOf(uint32_t value) const {
    auto type = typeOf_.find(value);
    if (type == typeOf_.end()) return std::nullopt;
    auto inst = types_.find(type->second);
    if (inst == types_.end()) return std::nullopt;
    return inst->second;
  }

  // Bytes and alignment of a type as OpenCL C lays it out; nullopt if not
  // known here (or not sensible: a damaged module's zero-width integer, a
  // size past 2^40).
  std::optional<std::pair<uint64_t, uint64_t>> layout(uint32_t type, uint32_t depth = 0) const {
    std::optional<std::pair<uint64_t, uint64_t>> result = layoutOf(type, depth);
    if (!result || result->first == 0 || result->second == 0 || result->first > (uint64_t(1) << 40))
      return std::nullopt;
    return result;
  }
  std::optional<std::pair<uint64_t, uint64_t>> layoutOf(uint32_t type, uint32_t depth) const {
    auto found = types_.find(type);
    if (found == types_.end() || depth > kMaxDepth) return std::nullopt;
    const Words &inst = found->second;
    switch (spv::Op(inst[0] & 0xffff)) {
      case spv::OpTypeBool: return std::pair{1, 1};
      case spv::OpTypeInt:
      case spv::OpTypeFloat: return std::pair{inst[2] / 8, inst[2] / 8};
      case spv::OpTypePointer: return std::pair{8, 8};
      case spv::OpTypeVector: {
        auto element = layout(inst[2], depth + 1);
        if (!element || inst[3] > kMaxComponents) return std::nullopt;
        uint64_t count = inst[3] == 3 ? 4 : inst[3];
        return std::pair{element->first * count, element->first * count};
      }
      case spv::OpTypeArray: {
        auto element = layout(inst[2], depth + 1);
        auto length = constants_.find(inst[3]);
        if (!element || length == constants_.end()) return std::nullopt;
        return std::pair{element->first * length->second, element->second};
      }
      case spv::OpTypeStruct: {
        bool packed = std::find(packed_.begin(), packed_.end(), inst[1]) != packed_.end();
        uint64_t size = 0, align = 1;
        for (size_t i = 2; i < inst.size(); ++i) {
          auto member = layout(inst[i], depth + 1);
          if (!member) return std::nullopt;
          uint64_t a = packed ? 1 : member->second;
          size = (size + a - 1) / a * a + member->first;
          align = std::max(align, a);
        }
        return std::pair{(size + align - 1) / align * align, align};
      }
      default: return std::nullopt;
    }
  }

  // The members of an aggregate type (nullopt if it is none, or an
  // array whose length is not a known constant).
  std::optional<std::vector<uint32_t>> members(uint32_t type) const {
    auto found = types_.find(type);
    if (found == types_.end()) return std::nullopt;
    const Words &inst = found->second;
    if ((inst[0] & 0xffff) == spv::OpTypeStruct) return std::vector<uint32_t>(inst.begin() + 2, inst.end());
    if ((inst[0] & 0xffff) != spv::OpTypeArray) return std::nullopt;
    auto length = constants_.find(inst[3]);
    if (length == constants_.end() || length->second > kMaxMembers) return std::nullopt;
    return std::vector<uint32_t>(length->second, inst[2]);
  }

  // `value` (of type `from`) as a value of the logically matching type
  // `to`, built by instructions appended to `out`; nullopt if the types'
  // shapes are not known here.
  std::optional<uint32_t> copyLogically(uint32_t value, uint32_t from, uint32_t to, std::vector<Words> &out,
                                        uint32_t depth = 0) {
    if (from == to) return value;
    std::optional<std::vector<uint32_t>> source = members(from), target = members(to);
    if (!source || !target || source->size() != target->size() || source->size() > kMaxMembers ||
        depth > kMaxDepth)
      return std::nullopt;
    std::vector<uint32_t> copied;
    for (size_t i = 0; i < target->size(); ++i) {
      uint32_t element = fresh();
      out.push_back(instruction(spv::OpCompositeExtract, {(*source)[i], element, value, uint32_t(i)}));
      std::optional<uint32_t> member = copyLogically(element, (*source)[i], (*target)[i], out, depth + 1);
      if (!member) return std::nullopt;
      copied.push_back(*member);
    }
    uint32_t result = fresh();
    construct(to, result, copied, out);
    return result;
  }

  // `result` of composite type `type` made of `members`: the translator
  // makes every OpCompositeConstruct a constant, and crashes on one of
  // values, so it is built by OpCompositeInsert from an OpUndef.
  void construct(uint32_t type, uint32_t result, const std::vector<uint32_t> &members, std::vector<Words> &out) {
    uint32_t value = fresh();
    out.push_back(instruction(spv::OpUndef, {type, value}));
    for (size_t i = 0; i < members.size(); ++i) {
      uint32_t next = i + 1 == members.size() ? result : fresh();
      out.push_back(instruction(spv::OpCompositeInsert, {type, next, members[i], value, uint32_t(i)}));
      value = next;
    }
    if (members.empty()) out.back()[2] = result;
  }

  std::vector<Words> rewrite(Words inst) {
    auto opcode = spv::Op(inst[0] & 0xffff);
    uint32_t count = uint32_t(inst.size());
    if (count < minimumWords(opcode)) return {std::move(inst)};
    switch (opcode) {
      case spv::OpConstantNull: {
        auto type = types_.find(inst[1]);
        if (type == types_.end()) break;
        auto kind = spv::Op(type->second[0] & 0xffff);
        if (kind == spv::OpTypeBool) return {instruction(spv::OpConstantFalse, {inst[1], inst[2]})};
        if (kind == spv::OpTypeInt || kind == spv::OpTypeFloat)
          return {type->second[2] > 32 ? instruction(spv::OpConstant, {inst[1], inst[2], 0, 0})
                                       : instruction(spv::OpConstant, {inst[1], inst[2], 0})};
        break;
      }
      case spv::OpCopyMemory: {
        // The translator cannot read OpCopyMemory at all: a load of the
        // source and a store of the target, each with its memory operands
        // (one set applies to both; with two, the second is the source's).
        std::optional<Words> pointer = typeOf(inst[2]);
        if (!pointer || (((*pointer)[0] & 0xffff) != spv::OpTypePointer)) break;
        Words targetOperands(inst.begin() + 3, inst.end()), sourceOperands = targetOperands;
        if (!targetOperands.empty()) {
          size_t first = 1 + memoryOperandWords(targetOperands[0]);
          if (first < targetOperands.size()) {
            sourceOperands.assign(targetOperands.begin() + first, targetOperands.end());
            targetOperands.resize(first);
          }
        }
        uint32_t value = fresh();
        Words load{uint32_t(4 + sourceOperands.size()) << 16 | spv::OpLoad, (*pointer)[3], value, inst[2]};
        load.insert(load.end(), sourceOperands.begin(), sourceOperands.end());
        Words store{uint32_t(3 + targetOperands.size()) << 16 | spv::OpStore, inst[1], value};
        store.insert(store.end(), targetOperands.begin(), targetOperands.end());
        return {load, store};
      }
      case spv::OpCopyMemorySized: {
        // SPIR-V 1.4 lets the source have memory operands of its own,
        // after the target's: the translator reads one set, so the
        // second goes (hints about the source access only).
        if (count > 4) {
          size_t end = 5 + memoryOperandWords(inst[4]);
          if (end < count) {
            inst.resize(end);
            inst[0] = uint32_t(end) << 16 | opcode;
          }
        }
        break;
      }
      case spv::OpDecorate:
      case spv::OpDecorateString:
      case spv::OpMemberDecorate:
      case spv::OpMemberDecorateString: {
        // UserSemantic is an annotation with no effect on execution, and
        // the translator stops on several of them on one variable.
        bool member = opcode == spv::OpMemberDecorate || opcode == spv::OpMemberDecorateString;
        if (count > (member ? 3u : 2u) && inst[member ? 3 : 2] == spv::DecorationUserSemantic) return {};
        // SPIR-V 1.4's names of the string decorations; the same operands.
        if (opcode == spv::OpDecorateString) inst[0] = count << 16 | spv::OpDecorate;
        if (opcode == spv::OpMemberDecorateString) inst[0] = count << 16 | spv::OpMemberDecorate;
        break;
      }
      case spv::OpPtrEqual:
      case spv::OpPtrNotEqual: {
        uint32_t ulong = ulongType(), a = fresh(), b = fresh();
        return {instruction(spv::OpConvertPtrToU, {ulong, a, inst[3]}),
                instruction(spv::OpConvertPtrToU, {ulong, b, inst[4]}),
                instruction(opcode == spv::OpPtrEqual ? spv::OpIEqual : spv::OpINotEqual, {inst[1], inst[2], a, b})};
      }
      case spv::OpPtrDiff: {
        std::optional<Words> pointer = typeOf(inst[3]);
        auto element = pointer && ((*pointer)[0] & 0xffff) == spv::OpTypePointer ? layout((*pointer)[3]) : std::nullopt;
        auto result = types_.find(inst[1]);
        if (!element || element->first == 0 || result == types_.end() ||
            (result->second[0] & 0xffff) != spv::OpTypeInt)
          break;
        uint32_t ulong = ulongType(), a = fresh(), b = fresh(), bytes = fresh(), size = fresh(), elements = fresh();
        std::vector<Words> out = {
            instruction(spv::OpConvertPtrToU, {ulong, a, inst[3]}),
            instruction(spv::OpConvertPtrToU, {ulong, b, inst[4]}),
            instruction(spv::OpISub, {ulong, bytes, a, b}),
        };
        newTypes_.push_back(instruction(spv::OpConstant, {ulong, size, uint32_t(element->first), uint32_t(element->first >> 32)}));
        out.push_back(instruction(spv::OpSDiv, {ulong, result->second[2] == 64 ? inst[2] : elements, bytes, size}));
        if (result->second[2] != 64) out.push_back(instruction(spv::OpSConvert, {inst[1], inst[2], elements}));
        return out;
      }
      case spv::OpCopyLogical: {
        auto source = typeOf_.find(inst[3]);
        std::vector<Words> out;
        if (source == typeOf_.end() || source->second == inst[1] ||
            !copyLogically(inst[3], source->second, inst[1], out))
          break;
        // The last instruction built the value: it takes the result's id.
        out.back()[2] = inst[2];
        return out;
      }
      case spv::OpCompositeConstruct: {
        std::vector<Words> out;
        std::vector<uint32_t> members;
        auto type = types_.find(inst[1]);
        bool vector = type != types_.end() && (type->second[0] & 0xffff) == spv::OpTypeVector;
        for (size_t i = 3; i < count; ++i) {
          // A vector's constituents may be vectors: their components, in
          // order.
          std::optional<Words> part = vector ? typeOf(inst[i]) : std::nullopt;
          if (!part || ((*part)[0] & 0xffff) != spv::OpTypeVector || (*part)[3] > kMaxComponents) {
            members.push_back(inst[i]);
            continue;
          }
          for (uint32_t c = 0; c < (*part)[3]; ++c) {
            uint32_t component = fresh();
            out.push_back(instruction(spv::OpCompositeExtract, {(*part)[2], component, inst[i], c}));
            members.push_back(component);
          }
        }
        construct(inst[1], inst[2], members, out);
        return out;
      }
      case spv::OpBitcast: {
        // SPIR-V 1.5: a bitcast between a pointer and a 64-bit integer or
        // vector (LLVM's is not): through OpConvertPtrToU / OpConvertUToPtr.
        std::optional<Words> from = typeOf(inst[3]);
        auto to = types_.find(inst[1]);
        if (!from || to == types_.end()) break;
        bool fromPointer = ((*from)[0] & 0xffff) == spv::OpTypePointer;
        bool toPointer = (to->second[0] & 0xffff) == spv::OpTypePointer;
        if (fromPointer == toPointer) break;
        uint32_t ulong = ulongType(), integer = fresh();
        bool toScalar = (to->second[0] & 0xffff) == spv::OpTypeInt;
        bool fromScalar = ((*from)[0] & 0xffff) == spv::OpTypeInt;
        if (fromPointer) {
          if (toScalar) return {instruction(spv::OpConvertPtrToU, {inst[1], inst[2], inst[3]})};
          return {instruction(spv::OpConvertPtrToU, {ulong, integer, inst[3]}),
                  instruction(spv::OpBitcast, {inst[1], inst[2], integer})};
        }
        if (fromScalar) return {instruction(spv::OpConvertUToPtr, {inst[1], inst[2], inst[3]})};
        return {instruction(spv::OpBitcast, {ulong, integer, inst[3]}),
                instruction(spv::OpConvertUToPtr, {inst[1], inst[2], integer})};
      }
      case spv::OpImageSampleExplicitLod:
      case spv::OpImageRead:
      case spv::OpImageFetch:
      case spv::OpImageWrite: {
        // SPIR-V 1.6's Nontemporal image operand: a hint, which the
        // translator does not know; it has no operands of its own.
        size_t mask = opcode == spv::OpImageWrite ? 4 : 5;
        if (count > mask) inst[mask] &= ~uint32_t(spv::ImageOperandsNontemporalMask);
        break;
      }
      case spv::OpVectorShuffle: {
        std::optional<Words> first = typeOf(inst[3]), second = typeOf(inst[4]);
        if (!first || !second || first->size() < 4 || second->size() < 4 || (*first)[3] == (*second)[3]) break;
        uint32_t n1 = (*first)[3], n2 = (*second)[3], n = std::max(n1, n2);
        if (n > kMaxComponents) break;
        uint32_t wide = typeId(spv::OpTypeVector, {(*first)[2], n});
        auto widen = [&](uint32_t value, uint32_t length, std::vector<Words> &out) {
          uint32_t id = fresh();
          Words shuffle{(5 + n) << 16 | spv::OpVectorShuffle, wide, id, value, value};
          for (uint32_t i = 0; i < n; ++i) shuffle.push_back(i < length ? i : 0);
          out.push_back(shuffle);
          return id;
        };
        std::vector<Words> out;
        uint32_t v1 = n1 < n ? widen(inst[3], n1, out) : inst[3];
        uint32_t v2 = n2 < n ? widen(inst[4], n2, out) : inst[4];
        Words shuffle{inst[0], inst[1], inst[2], v1, v2};
        for (size_t i = 5; i < count; ++i) {
          uint32_t index = inst[i];
          // A component of the second vector moves by the first's growth.
          if (index != 0xffffffff && index >= n1) index = index - n1 + n;
          shuffle.push_back(index);
        }
        out.push_back(shuffle);
        return out;
      }
      default:
        break;
    }
    return {std::move(inst)};
  }

  Words header_;
  std::vector<Words> body_;
  uint32_t bound_;
  std::map<uint32_t, uint32_t> typeOf_;   // value → its type id
  std::map<uint32_t, Words> types_;       // type id → its declaration
  std::map<uint32_t, uint32_t> constants_;  // 32-bit integer constants' values
  std::vector<uint32_t> packed_;          // structs decorated CPacked
  std::vector<Words> newTypes_;           // declarations to add
  bool hasInt64_ = false, addedInt64_ = false;
};

}  // namespace

std::vector<uint32_t> forTranslator(std::span<const uint32_t> words) { return Rewriter(words).run(); }

}  // namespace lockstep::compiler::spirv

// The program binary, what CL_PROGRAM_BINARIES returns: a small header and
// the program's LLVM bitcode before the work-group passes, so it stays valid
// whatever changes in code generation (loading an executable binary runs the
// back end again). Written by makeBinary, read back by parseBinary and
// readBitcode (CompilerSteps.h).
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/xxhash.h>

#include <cstring>

#include "CompilerSteps.h"

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

}  // namespace

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

std::unique_ptr<Module> readBitcode(StringRef bitcode, LLVMContext &context, std::string &log) {
  Expected<std::unique_ptr<Module>> M =
      parseBitcodeFile(MemoryBufferRef(bitcode, "program.bc"), context);
  if (!M) {
    log += "invalid program binary: " + toString(M.takeError()) + "\n";
    return nullptr;
  }
  return std::move(*M);
}

}  // namespace lockstep::compiler

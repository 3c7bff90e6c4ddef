// Build-time tool: cuts the linked builtins bitcode into small chunks, and
// writes them with an index of which chunk defines each function.
//
// Reading a bitcode module costs in proportion to the functions it declares,
// even lazily: every build reading all ~11,000 builtins spent 25 ms on it,
// most of a small program's build. With chunks, a build reads only the few
// that define what the program calls (compiler/lib/BuiltinLinking.cpp).
//
//   split_builtins <builtins.bc> <out.chunks>
//
// Output (read by compiler/lib/BuiltinLinking.cpp):
//   LOCKSTEP-BUILTIN-CHUNKS 2\n
//   <xxh3-64 of the data, 16 hex digits>\n   (part of every kernel cache key:
//                                             hashed here, not per process)
//   <chunk count>\n  then per chunk  <offset> <size>\n   (offsets from the data)
//   <symbol count>\n then per symbol <name> <chunk>\n
//   data, spaces to a multiple of 16 bytes, \n, then the chunks' bitcode
#include <llvm/ADT/StringRef.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/xxhash.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <map>
#include <string>
#include <vector>

using namespace llvm;

namespace {

// Overloads of one built-in share the source name in their Itanium mangling
// (_Z<length><name>...): they go in one chunk, since a program that calls one
// overload of a function is likely to call others.
StringRef sourceName(StringRef mangled) {
  if (!mangled.consume_front("_Z")) return mangled;
  unsigned length = 0;
  if (mangled.consumeInteger(10, length) || length > mangled.size()) return mangled;
  return mangled.take_front(length);
}

// Chunks of about this many functions; a family larger than twice this is cut.
constexpr size_t kChunkFunctions = 48;

}  // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    errs() << "usage: split_builtins <builtins.bc> <out.chunks>\n";
    return 2;
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> input = MemoryBuffer::getFile(argv[1]);
  if (!input) {
    errs() << argv[1] << ": " << input.getError().message() << "\n";
    return 1;
  }
  LLVMContext context;
  Expected<std::unique_ptr<Module>> parsed = parseBitcodeFile((*input)->getMemBufferRef(), context);
  if (!parsed) {
    errs() << argv[1] << ": " << toString(parsed.takeError()) << "\n";
    return 1;
  }
  Module &M = **parsed;
  if (!M.global_empty() || !M.alias_empty() || !M.ifunc_empty()) {
    errs() << "split_builtins: the builtins define global variables or aliases; "
              "teach the splitter to place them\n";
    return 1;
  }

  // Families in module order, then chunks of whole small families or slices
  // of large ones.
  std::vector<std::vector<Function *>> families;
  std::map<std::string, size_t> familyIndex;
  for (Function &F : M) {
    if (F.isDeclaration()) continue;
    if (!F.hasExternalLinkage()) {
      errs() << "split_builtins: " << F.getName() << " is not external; chunks cannot share it\n";
      return 1;
    }
    auto [it, inserted] = familyIndex.try_emplace(sourceName(F.getName()).str(), families.size());
    if (inserted) families.emplace_back();
    families[it->second].push_back(&F);
  }
  std::vector<std::vector<Function *>> chunks(1);
  for (const std::vector<Function *> &family : families) {
    if (family.size() > 2 * kChunkFunctions) {
      for (size_t i = 0; i < family.size(); i += kChunkFunctions) {
        if (!chunks.back().empty()) chunks.emplace_back();
        size_t end = std::min(family.size(), i + kChunkFunctions);
        chunks.back().assign(family.begin() + i, family.begin() + end);
      }
      chunks.emplace_back();
      continue;
    }
    if (chunks.back().size() + family.size() > kChunkFunctions && !chunks.back().empty()) chunks.emplace_back();
    chunks.back().insert(chunks.back().end(), family.begin(), family.end());
  }
  if (chunks.back().empty()) chunks.pop_back();

  std::map<const GlobalValue *, size_t> chunkOf;
  for (size_t c = 0; c < chunks.size(); ++c)
    for (Function *F : chunks[c]) chunkOf[F] = c;

  std::string data;
  std::vector<std::pair<size_t, size_t>> placement;
  for (size_t c = 0; c < chunks.size(); ++c) {
    ValueToValueMapTy map;
    std::unique_ptr<Module> part = CloneModule(M, map, [&](const GlobalValue *GV) {
      auto it = chunkOf.find(GV);
      return it != chunkOf.end() && it->second == c;
    });
    // CloneModule declares everything the source had; keep what this chunk uses.
    for (Function &F : make_early_inc_range(*part))
      if (F.isDeclaration() && F.use_empty()) F.eraseFromParent();
    std::string bitcode;
    raw_string_ostream stream(bitcode);
    WriteBitcodeToFile(*part, stream);
    stream.flush();
    placement.emplace_back(data.size(), bitcode.size());
    data += bitcode;
    // Bitcode is read in 32-bit words: keep every chunk 4-byte aligned.
    while (data.size() % 4) data.push_back('\0');
  }

  std::string header;
  raw_string_ostream text(header);
  text << "LOCKSTEP-BUILTIN-CHUNKS 2\n"
       << format_hex_no_prefix(
              xxh3_64bits(ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(data.data()), data.size())), 16)
       << "\n"
       << chunks.size() << "\n";
  for (auto [offset, size] : placement) text << offset << " " << size << "\n";
  text << chunkOf.size() << "\n";
  for (size_t c = 0; c < chunks.size(); ++c)
    for (Function *F : chunks[c]) text << F->getName() << " " << c << "\n";
  text << "data";
  text.flush();
  // Spaces before the newline that ends the header put the data at a multiple
  // of 16 bytes from the start, which the embedding aligns to 16.
  while ((header.size() + 1) % 16) header.push_back(' ');
  header.push_back('\n');

  std::error_code error;
  raw_fd_ostream out(argv[2], error);
  if (error) {
    errs() << argv[2] << ": " << error.message() << "\n";
    return 1;
  }
  out << header << data;
  out.close();
  return out.has_error() ? 1 : 0;
}

// The builtins library and the program's link with it. The library is cut
// at build time into chunks of a few dozen functions with an index of which
// chunk defines each (format in builtins/tools/split_builtins.cpp); a build
// links only the chunks its program needs, and then checks that every
// function the program calls is defined somewhere: by the program, the
// builtins, the work-group passes or the process (libm).
#include <llvm/ADT/StringMap.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/MemoryBuffer.h>

#include "Analysis/OpenCLNames.h"
#include "Backend.h"
#include "Internal.h"
#include "ThreadHandOff.h"

extern "C" const char lockstep_builtin_chunks[];
extern "C" const char lockstep_builtin_chunks_end[];

using namespace llvm;

namespace lockstep::compiler {
namespace {

// The builtins library, cut at build time into chunks of a few dozen
// functions with an index of which chunk defines each (format in
// builtins/tools/split_builtins.cpp). Reading bitcode costs in proportion to
// what the module declares, so a build reads only the chunks it needs.
struct BuiltinChunks {
  std::vector<StringRef> chunks;
  StringMap<unsigned> chunkOf;
  std::string error;
};

const BuiltinChunks &builtinChunks() {
  static const BuiltinChunks library = [] {
    BuiltinChunks parsed;
    StringRef rest(lockstep_builtin_chunks, lockstep_builtin_chunks_end - lockstep_builtin_chunks);
    auto nextLine = [&rest] {
      auto [line, after] = rest.split('\n');
      rest = after;
      return line;
    };
    auto fail = [&parsed](const char *what) {
      parsed.chunks.clear();
      parsed.chunkOf.clear();
      parsed.error = std::string("internal error: the embedded builtins are damaged (") + what + ")\n";
      return parsed;
    };
    if (nextLine() != "LOCKSTEP-BUILTIN-CHUNKS 2") return fail("header");
    nextLine();  // the data's hash (builtinLibraryHash)
    size_t chunkCount = 0, symbolCount = 0;
    if (nextLine().getAsInteger(10, chunkCount)) return fail("chunk count");
    std::vector<std::pair<size_t, size_t>> placement(chunkCount);
    for (auto &[offset, size] : placement) {
      auto [first, second] = nextLine().split(' ');
      if (first.getAsInteger(10, offset) || second.getAsInteger(10, size)) return fail("chunk table");
    }
    if (nextLine().getAsInteger(10, symbolCount)) return fail("symbol count");
    for (size_t i = 0; i < symbolCount; ++i) {
      auto [name, chunkText] = nextLine().split(' ');
      unsigned chunk = 0;
      if (chunkText.getAsInteger(10, chunk) || chunk >= chunkCount) return fail("symbol table");
      parsed.chunkOf[name] = chunk;
    }
    if (nextLine().rtrim(' ') != "data") return fail("data mark");
    for (auto [offset, size] : placement) {
      if (offset + size > rest.size()) return fail("chunk bounds");
      parsed.chunks.push_back(rest.substr(offset, size));
    }
    return parsed;
  }();
  // Made once, read by every thread that builds (ThreadHandOff.h).
  static const bool handedOff = (handOff(&library), true);
  (void)handedOff;
  takeOver(&library);
  return library;
}

}  // namespace

std::string_view builtinLibraryHash() {
  // The header's second line, written at build time: hashing the 3 MB of
  // chunks here took 0.4-0.7 ms of every process's first build, a fifth of a
  // warm build.
  std::string_view rest(lockstep_builtin_chunks, lockstep_builtin_chunks_end - lockstep_builtin_chunks);
  size_t first = rest.find('\n');
  if (first == std::string_view::npos) return {};
  size_t second = rest.find('\n', first + 1);
  return second == std::string_view::npos ? std::string_view() : rest.substr(first + 1, second - first - 1);
}

// Links, chunk by chunk, the builtins that the module declares, and what
// those call in turn, until no declaration is left that the library defines.
bool linkBuiltins(Module &M, std::string &log) {
  const BuiltinChunks &library = builtinChunks();
  if (!library.error.empty()) {
    log += library.error;
    return false;
  }
  for (;;) {
    SmallVector<unsigned, 8> needed;
    // By name: linking may replace a declaration by a new function.
    SmallVector<std::string, 8> wanted;
    for (Function &F : M) {
      if (!F.isDeclaration() || F.isIntrinsic()) continue;
      auto it = library.chunkOf.find(F.getName());
      if (it == library.chunkOf.end()) continue;
      wanted.push_back(F.getName().str());
      if (!is_contained(needed, it->second)) needed.push_back(it->second);
    }
    if (needed.empty()) return true;
    for (unsigned chunk : needed) {
      Expected<std::unique_ptr<Module>> builtins =
          getLazyBitcodeModule(MemoryBufferRef(library.chunks[chunk], "builtins.bc"), M.getContext());
      if (!builtins) {
        log += "internal error: cannot read the builtins: " + toString(builtins.takeError()) + "\n";
        return false;
      }
      (*builtins)->setDataLayout(M.getDataLayout());
      (*builtins)->setTargetTriple(M.getTargetTriple());
      if (Linker::linkModules(M, std::move(*builtins), Linker::LinkOnlyNeeded)) {
        log += "internal error: cannot link the builtins\n";
        return false;
      }
    }
    // Each round defines what the last one declared; stop rather than loop if not.
    if (none_of(wanted, [&](const std::string &name) {
          const Function *F = M.getFunction(name);
          return F && !F->isDeclaration();
        })) {
      log += "internal error: the builtins do not define " + wanted.front() + "\n";
      return false;
    }
  }
}

// Kernels call libm (through the builtins and LLVM's math intrinsics); make
// it visible to symbol lookups even when the host program doesn't link it.
void loadMathLibrary() {
  static const bool loaded = [] {
    sys::DynamicLibrary::LoadLibraryPermanently(nullptr);
    return !sys::DynamicLibrary::LoadLibraryPermanently("libm.so.6");
  }();
  (void)loaded;
}

// A call of a function that neither the program, the builtins, the
// work-group passes nor the process define is a link error, reported with
// the function's source name.
bool checkUndefined(const Module &M, std::string &log) {
  bool ok = true;
  for (const Function &F : M) {
    if (!F.isDeclaration() || F.isIntrinsic() || F.use_empty()) continue;
    StringRef name = F.getName();
    // The JIT gives kernels Lockstep's own functions by address (Jit.cpp).
    if (name == "printf" || name == kKernelClockSymbol || name.starts_with(kPipeSymbolPrefix) ||
        isImageAccessor(name) || isWorkGroupFunctionName(name) || isDeviceEnqueueFunction(name))
      continue;
    if (sys::DynamicLibrary::SearchForAddressOfSymbol(name.str())) continue;
    log += "error: undefined function '" + demangle(name) + "' (" + name.str() + ")\n";
    ok = false;
  }
  return ok;
}

}  // namespace lockstep::compiler

// The on-disk kernel cache: a build's machine code and kernel descriptions,
// keyed by everything that affects them, so a second build of the same
// program (in this process or another) skips Clang, the passes and codegen.
//
// Where: $LOCKSTEP_CACHE_DIR, else $XDG_CACHE_HOME/lockstep, else
// ~/.cache/lockstep; LOCKSTEP_CACHE=0 turns it off. One file per program
// (KEY.bin), and one per version of a kernel compiled at its first call
// (KEY.obj, an object file; LazyVersions.cpp),
// written to a temporary name and renamed into place (safe when processes
// race), with a checksum: a damaged file is deleted and the program rebuilt.
// The folder is kept under LOCKSTEP_CACHE_MAX_MB (default 256) by removing
// the least recently used files.
#include <llvm/Config/llvm-config.h>
#include <llvm/Support/BLAKE3.h>
#include <llvm/Support/xxhash.h>
#include <llvm/Target/TargetMachine.h>

#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <system_error>
#include <thread>

#include "Internal.h"
#include "ThreadHandOff.h"

namespace fs = std::filesystem;

namespace lockstep::compiler {
namespace {

constexpr char kMagic[8] = {'L', 'S', 'C', 'A', 'C', 'H', 'E', 'D'};
// A program's file, and a version of a kernel compiled at its first call
// (LazyVersions.cpp).
constexpr const char *kProgramExtension = ".bin", *kObjectExtension = ".obj";

std::optional<fs::path> cacheDirectory() {
  const char *enabled = std::getenv("LOCKSTEP_CACHE");
  if (enabled && std::string_view(enabled) == "0") return std::nullopt;
  if (const char *dir = std::getenv("LOCKSTEP_CACHE_DIR"); dir && *dir) return fs::path(dir);
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "lockstep";
  if (const char *home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "lockstep";
  return std::nullopt;
}

uint64_t maxCacheBytes() {
  const char *text = std::getenv("LOCKSTEP_CACHE_MAX_MB");
  uint64_t megabytes = text ? std::strtoull(text, nullptr, 10) : 0;
  return (megabytes ? megabytes : 256) << 20;
}

class Writer {
 public:
  void u8(uint8_t v) { bytes.push_back(char(v)); }
  void u32(uint32_t v) { raw(&v, 4); }
  void u64(uint64_t v) { raw(&v, 8); }
  void text(std::string_view v) {
    u64(v.size());
    raw(v.data(), v.size());
  }
  void raw(const void *data, size_t size) { bytes.append(static_cast<const char *>(data), size); }
  std::string bytes;
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : rest(bytes) {}
  bool ok = true;
  uint8_t u8() { uint8_t v = 0; raw(&v, 1); return v; }
  uint32_t u32() { uint32_t v = 0; raw(&v, 4); return v; }
  uint64_t u64() { uint64_t v = 0; raw(&v, 8); return v; }
  std::string text() { return std::string(view()); }
  std::string_view view() {
    uint64_t size = u64();
    if (!ok || size > rest.size()) return ok = false, std::string_view();
    std::string_view v = rest.substr(0, size);
    rest.remove_prefix(size);
    return v;
  }
  void raw(void *out, size_t size) {
    if (!ok || size > rest.size()) {
      ok = false;
      return;
    }
    std::memcpy(out, rest.data(), size);
    rest.remove_prefix(size);
  }
  std::string_view rest;
};

void writeKernel(Writer &out, const KernelDescription &kernel) {
  out.text(kernel.name);
  out.text(kernel.attributes);
  out.text(kernel.vecTypeHint);
  out.u32(kernel.arguments.size());
  for (const KernelArgument &arg : kernel.arguments) {
    out.text(arg.name);
    out.text(arg.typeName);
    out.u8(uint8_t(arg.kind));
    out.u32(arg.addressQualifier);
    out.u32(arg.accessQualifier);
    out.u64(arg.typeQualifier);
    out.u32(arg.imageType);
    out.u32(arg.size);
    out.u32(arg.alignment);
    out.u32(arg.offset);
  }
  out.u32(kernel.argumentBlockSize);
  out.u64(kernel.staticLocalMemorySize);
  out.u64(kernel.privateMemorySize);
  out.u64(kernel.frameBytes);
  out.u64(kernel.contextBytesPerWorkItem);
  for (int d = 0; d < 3; ++d) out.u32(kernel.requiredWorkGroupSize[d]);
  for (int d = 0; d < 3; ++d) out.u32(kernel.workGroupSizeHint[d]);
  out.u32(kernel.preferredWorkGroupSizeMultiple);
  out.u32(kernel.barrierCount);
  out.u32(kernel.maskedLoops);
  out.u32(kernel.jammedRows);
  out.u32(kernel.subGroupSize);
  out.u8(uint8_t(kernel.groupShape));
  out.u8(kernel.groupFree);
  out.u8(kernel.checksBarriers);
  out.u8(kernel.checksBounds);
  out.u8(kernel.pollsStop);
  out.u32(kernel.argumentSizesOffset);
  out.u8(kernel.streamingStores);
  out.u8(kernel.flushDenormals);
  out.u8(kernel.uniformWorkGroups);
  out.u8(kernel.enqueuesKernels);
  out.u32(static_cast<uint32_t>(kernel.combinedAtomicArguments.size()));
  for (uint32_t index : kernel.combinedAtomicArguments) out.u32(index);
}

KernelDescription readKernel(Reader &in) {
  KernelDescription kernel;
  kernel.name = in.text();
  kernel.attributes = in.text();
  kernel.vecTypeHint = in.text();
  uint32_t count = in.u32();
  for (uint32_t i = 0; in.ok && i < count; ++i) {
    KernelArgument arg;
    arg.name = in.text();
    arg.typeName = in.text();
    arg.kind = ArgKind(in.u8());
    arg.addressQualifier = in.u32();
    arg.accessQualifier = in.u32();
    arg.typeQualifier = in.u64();
    arg.imageType = in.u32();
    arg.size = in.u32();
    arg.alignment = in.u32();
    arg.offset = in.u32();
    kernel.arguments.push_back(std::move(arg));
  }
  kernel.argumentBlockSize = in.u32();
  kernel.staticLocalMemorySize = in.u64();
  kernel.privateMemorySize = in.u64();
  kernel.frameBytes = in.u64();
  kernel.contextBytesPerWorkItem = in.u64();
  for (int d = 0; d < 3; ++d) kernel.requiredWorkGroupSize[d] = in.u32();
  for (int d = 0; d < 3; ++d) kernel.workGroupSizeHint[d] = in.u32();
  kernel.preferredWorkGroupSizeMultiple = in.u32();
  kernel.barrierCount = in.u32();
  kernel.maskedLoops = in.u32();
  kernel.jammedRows = in.u32();
  kernel.subGroupSize = in.u32();
  kernel.groupShape = KernelDescription::GroupShape(std::min<uint8_t>(in.u8(), 2));
  kernel.groupFree = in.u8();
  kernel.checksBarriers = in.u8();
  kernel.checksBounds = in.u8();
  kernel.pollsStop = in.u8();
  kernel.argumentSizesOffset = in.u32();
  kernel.streamingStores = in.u8();
  kernel.flushDenormals = in.u8();
  kernel.uniformWorkGroups = in.u8();
  kernel.enqueuesKernels = in.u8();
  uint32_t combined = in.u32();
  for (uint32_t i = 0; in.ok && i < combined && i < kernel.arguments.size(); ++i) {
    uint32_t index = in.u32();
    if (index < kernel.arguments.size()) kernel.combinedAtomicArguments.push_back(index);
  }
  return kernel;
}

// Keeps the folder under its size bound, oldest files first; returns what
// it holds after.
uint64_t trim(const fs::path &directory) {
  std::error_code error;
  std::vector<std::pair<fs::file_time_type, fs::path>> files;
  uint64_t total = 0;
  for (const fs::directory_entry &entry : fs::directory_iterator(directory, error)) {
    if (!entry.is_regular_file(error)) continue;
    total += entry.file_size(error);
    files.push_back({entry.last_write_time(error), entry.path()});
  }
  uint64_t limit = maxCacheBytes();
  if (total <= limit) return total;
  std::sort(files.begin(), files.end());
  for (const auto &[time, path] : files) {
    if (total <= limit * 9 / 10) break;
    uint64_t size = fs::file_size(path, error);
    if (fs::remove(path, error)) total -= size;
  }
  return total;
}

// Counting the folder stats every file in it: with tens of thousands of
// programs (the CTS builds that many) a count per store made storing
// quadratic. The folder is counted (and trimmed) at a process's first store,
// then when what it held plus what this process stored since passes the
// bound, and every kStoresPerCount stores to notice other processes' files.
constexpr unsigned kStoresPerCount = 256;

void noteStored(const fs::path &directory, uint64_t bytes) {
  static std::mutex mutex;
  static uint64_t estimate = 0;
  static unsigned storesSinceCount = kStoresPerCount;  // count at the first store
  std::lock_guard lock(mutex);
  estimate += bytes;
  if (++storesSinceCount < kStoresPerCount && estimate <= maxCacheBytes()) return;
  estimate = trim(directory);
  storesSinceCount = 0;
}

// The code that compiled a program is part of its key: the library's file,
// size and modification time change with every build and install of it.
std::string libraryIdentity() {
  static const std::string identity = [] {
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void *>(&libraryIdentity), &info) || !info.dli_fname) return std::string();
    std::error_code error;
    fs::path path = fs::canonical(info.dli_fname, error);
    auto size = fs::file_size(path, error);
    auto time = fs::last_write_time(path, error).time_since_epoch().count();
    return path.string() + " " + std::to_string(size) + " " + std::to_string(time);
  }();
  // Built once, read by every thread that builds (ThreadHandOff.h).
  static const bool handedOff = (handOff(&identity), true);
  (void)handedOff;
  takeOver(&identity);
  return identity;
}

}  // namespace

std::string cacheKey(std::string_view kind, std::string_view input, std::string_view options) {
  llvm::TargetMachine &machine = hostTargetMachine();
  Writer key;
  key.text("lockstep " LOCKSTEP_VERSION " llvm " LLVM_VERSION_STRING);
  key.text(libraryIdentity());
  key.text(builtinLibraryHash());
  key.text(machine.getTargetCPU());
  key.text(machine.getTargetFeatureString());
  key.text(vectorMathIdentity());
  key.text(environmentFlag("LOCKSTEP_CHECK_BARRIERS") ? "check" : "");
  key.text(environmentFlag("LOCKSTEP_CHECK_BOUNDS") ? "bounds" : "");
  // LLVM's options (the passes' knobs) change the code: a kernel built with
  // other ones is another kernel.
  const char *llvmOptions = std::getenv("LOCKSTEP_LLVM_OPTIONS");
  key.text(llvmOptions ? llvmOptions : "");
  // The extensions offered (LOCKSTEP_OPT_IN_EXTENSIONS adds some): the
  // frontend declares what they bring.
  for (const std::string &name : Compiler::instance().languageSupport().extensions) key.text(name);
  key.text(kind);
  key.text(options);
  key.text(input);
  // BLAKE3: as collision-resistant as SHA-256 and several times faster on the
  // whole source (LLVM's SHA-256 took about a millisecond on a 250 KB program).
  std::array<uint8_t, 32> digest = llvm::BLAKE3::hash<32>(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(key.bytes.data()), key.bytes.size()));
  static const char hex[] = "0123456789abcdef";
  std::string name;
  for (uint8_t byte : digest) {
    name += hex[byte >> 4];
    name += hex[byte & 15];
  }
  return name;
}

namespace {

// The body of the file stored under `key`, checked; a damaged file is
// deleted. Reading it touches it: trimming removes the least recently used
// files first.
std::optional<std::string> readEntry(const std::string &key, const char *extension) {
  std::optional<fs::path> directory = cacheDirectory();
  if (!directory) return std::nullopt;
  fs::path path = *directory / (key + extension);
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file) return std::nullopt;
  // One read of the whole file (a 1.5 MB program took milliseconds through
  // istreambuf_iterator, a character at a time).
  std::string bytes(size_t(std::max<std::streamoff>(0, file.tellg())), '\0');
  file.seekg(0);
  if (!file.read(bytes.data(), std::streamsize(bytes.size()))) return std::nullopt;
  std::error_code error;
  if (bytes.size() < sizeof(kMagic) + 8 || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) {
    fs::remove(path, error);
    return std::nullopt;
  }
  uint64_t checksum;
  std::memcpy(&checksum, bytes.data() + bytes.size() - 8, 8);
  bytes.resize(bytes.size() - 8);
  bytes.erase(0, sizeof(kMagic));
  if (llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size())) !=
      checksum) {
    fs::remove(path, error);
    return std::nullopt;
  }
  fs::last_write_time(path, fs::file_time_type::clock::now(), error);
  return bytes;
}

void removeEntry(const std::string &key, const char *extension) {
  if (std::optional<fs::path> directory = cacheDirectory()) {
    std::error_code error;
    fs::remove(*directory / (key + extension), error);
  }
}

// Stores `body` under `key`: written to a temporary name and renamed into
// place, so that processes racing to store it are safe.
void writeEntry(const std::string &key, const char *extension, std::string_view body) {
  std::optional<fs::path> directory = cacheDirectory();
  if (!directory) return;
  std::error_code error;
  fs::create_directories(*directory, error);
  uint64_t checksum =
      llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(body.data()), body.size()));
  static std::atomic<uint64_t> counter{0};
  fs::path temporary = *directory / (key + ".tmp." + std::to_string(getpid()) + "." + std::to_string(counter++));
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file) return;
    file.write(kMagic, sizeof(kMagic));
    file.write(body.data(), std::streamsize(body.size()));
    file.write(reinterpret_cast<const char *>(&checksum), 8);
    if (!file) {
      file.close();
      fs::remove(temporary, error);
      return;
    }
  }
  fs::rename(temporary, *directory / (key + extension), error);
  if (error) {
    fs::remove(temporary, error);
    return;
  }
  noteStored(*directory, sizeof(kMagic) + body.size() + 8);
}

}  // namespace

std::optional<CachedProgram> loadCachedProgram(const std::string &key) {
  std::optional<std::string> body = readEntry(key, kProgramExtension);
  if (!body) return std::nullopt;
  Reader in(*body);
  CachedProgram program;
  std::string_view binary = in.view();
  program.binary.assign(binary.begin(), binary.end());
  program.globalVariableBytes = in.u64();
  uint32_t kernels = in.u32();
  for (uint32_t i = 0; in.ok && i < kernels; ++i) program.kernels.push_back(readKernel(in));
  uint32_t objects = in.u32();
  for (uint32_t i = 0; in.ok && i < objects; ++i) program.objects.push_back(in.text());
  program.log = in.text();
  uint32_t deferred = in.u32();
  for (uint32_t i = 0; in.ok && i < deferred; ++i) {
    DeferredVersion &version = program.deferred.emplace_back();
    version.symbol = in.text();
    version.kernel = in.text();
    version.bitcode = in.text();
  }
  if (!in.ok || !in.rest.empty() || program.objects.empty()) {
    removeEntry(key, kProgramExtension);
    return std::nullopt;
  }
  return program;
}

void storeCachedProgram(const std::string &key, const CachedProgram &program) {
  if (program.objects.empty()) return;
  Writer out;
  out.text(std::string_view(reinterpret_cast<const char *>(program.binary.data()), program.binary.size()));
  out.u64(program.globalVariableBytes);
  out.u32(program.kernels.size());
  for (const KernelDescription &kernel : program.kernels) writeKernel(out, kernel);
  out.u32(program.objects.size());
  for (const std::string &object : program.objects) out.text(object);
  out.text(program.log);
  out.u32(program.deferred.size());
  for (const DeferredVersion &version : program.deferred) {
    out.text(version.symbol);
    out.text(version.kernel);
    out.text(version.bitcode);
  }
  writeEntry(key, kProgramExtension, out.bytes);
}

std::optional<std::string> loadCachedObject(const std::string &key) { return readEntry(key, kObjectExtension); }

void storeCachedObject(const std::string &key, std::string_view object) { writeEntry(key, kObjectExtension, object); }

}  // namespace lockstep::compiler

// The versions a build deferred (DeferVersions.cpp, ModuleParts.cpp),
// compiled at their first call. A loaded program puts each deferred
// version's entry in its slot's second word (LazyVersions::bind); the first
// group that takes the version finds the slot's first word empty and calls
// resolveVersion, which, once per version (other threads that call it
// meanwhile wait), reads the version's
// machine code from the kernel cache or optimizes and compiles its bitcode
// as a part of the program (compilePart) and stores it there, links it into
// the program's JITDylib, and fills the slot. Builds of the same program in
// other processes find the version in the cache under a key made of the
// program's key and the version's name.
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <pthread.h>

#include <atomic>
#include <mutex>

#include "Backend.h"
#include "CompilerSteps.h"

using namespace llvm;

namespace lockstep::compiler {

struct LazyVersions::Entry {
  DeferredVersion version;
  std::string combineOffsets;  // kCombineOffsetsAttr
  std::string programKey;      // the program's cache key, or "" (not cached)
  JitProgram *code = nullptr;
  const std::vector<uint8_t> *binary = nullptr;  // the program's, for its options
  std::mutex mutex;                               // held while the version is compiled
};

namespace {

// The version's machine code, linked into its program; null (and why, in
// `log`) if it cannot be made.
void *compileVersion(LazyVersions::Entry &entry, std::string &log) {
  const std::string &symbol = entry.version.symbol;
  std::string key = entry.programKey.empty() ? std::string() : cacheKey("version", symbol, entry.programKey);
  std::optional<std::string> object;
  if (!key.empty()) object = loadCachedObject(key);
  if (!object) {
    FrontendOptions options = binaryOptions(parseBinary(*entry.binary));
    LLVMContext context;
    Expected<std::unique_ptr<Module>> M =
        parseBitcodeFile(MemoryBufferRef(entry.version.bitcode, "version.bc"), context);
    if (!M) {
      log += "internal error: " + toString(M.takeError()) + "\n";
      return nullptr;
    }
    Function *version = (*M)->getFunction(symbol);
    if (!version) {
      log += "internal error: the deferred module lacks " + symbol + "\n";
      return nullptr;
    }
    version->addFnAttr(kCombineOffsetsAttr, entry.combineOffsets);
    std::string compiled;
    std::vector<OptimizedFunction> found;
    if (!compilePart(**M, options, compiled, found, log)) return nullptr;
    reportStatistics();
    if (!key.empty()) storeCachedObject(key, compiled);
    object = std::move(compiled);
  }
  std::vector<void *> address;
  if (!entry.code->addObject(std::move(*object), log) || !entry.code->lookup({&symbol, 1}, address, log))
    return nullptr;
  return address[0];
}

// Compiling takes more stack than a group may have left (its frame runs on
// a thread with a margin of 1 MiB beyond it): the compile runs on a thread
// of its own, with the stack the runtime's workers have, and this one waits.
void *compileOnThreadOfItsOwn(LazyVersions::Entry &entry, std::string &log) {
  constexpr size_t kCompileStackBytes = size_t(64) << 20;
  struct Job {
    LazyVersions::Entry &entry;
    std::string &log;
    void *function = nullptr;
  } job{entry, log};
  auto run = [](void *data) -> void * {
    auto &job = *static_cast<Job *>(data);
    job.function = compileVersion(job.entry, job.log);
    return nullptr;
  };
  pthread_attr_t attributes;
  pthread_t thread;
  bool started = pthread_attr_init(&attributes) == 0 &&
                 pthread_attr_setstacksize(&attributes, kCompileStackBytes) == 0 &&
                 pthread_create(&thread, &attributes, run, &job) == 0;
  pthread_attr_destroy(&attributes);
  if (!started) return compileVersion(entry, log);  // no thread to be had: here, then
  pthread_join(thread, nullptr);
  return job.function;
}

}  // namespace

void *resolveVersion(void **slot) {
  // The slot's second word: the entry bind put there before any launch.
  auto *entry = static_cast<LazyVersions::Entry *>(slot[1]);
  if (!entry) report_fatal_error("lockstep: a kernel's version was called through a slot no program bound");
  std::lock_guard lock(entry->mutex);
  std::atomic_ref<void *> held(*slot);
  if (void *function = held.load(std::memory_order_acquire)) return function;
  std::string log;
  void *function = compileOnThreadOfItsOwn(*entry, log);
  // The version's module was verified with the program and compiled the
  // same way as the program's parts: failing here is the compiler's fault.
  if (!function) report_fatal_error(Twine("lockstep: compiling ") + entry->version.symbol + " failed: " + log);
  held.store(function, std::memory_order_release);
  return function;
}

LazyVersions::LazyVersions() = default;
LazyVersions::~LazyVersions() = default;

bool LazyVersions::bind(JitProgram &code, const std::vector<DeferredVersion> &versions,
                        const std::vector<KernelDescription> &kernels, const std::vector<uint8_t> &binary,
                        const std::string &cacheKey, std::string &log) {
  std::vector<std::string> slots;
  for (const DeferredVersion &version : versions) slots.push_back(kVersionSlotPrefix + version.symbol);
  std::vector<void *> addresses;
  if (!code.lookup(slots, addresses, log)) return false;
  for (size_t i = 0; i < versions.size(); ++i) {
    auto entry = std::make_unique<Entry>();
    entry->version = versions[i];
    entry->programKey = cacheKey;
    entry->code = &code;
    entry->binary = &binary;
    // The version combines the adds its kernel combines, no others: the
    // runtime checked those arguments' memory for a launch's combiner.
    for (const KernelDescription &kernel : kernels) {
      if (workGroupFunctionName(kernel.name) != versions[i].kernel) continue;
      for (uint32_t argument : kernel.combinedAtomicArguments)
        entry->combineOffsets += (entry->combineOffsets.empty() ? "" : ",") +
                                 std::to_string(kernel.arguments[argument].offset);
    }
    static_cast<void **>(addresses[i])[1] = entry.get();
    entries_.push_back(std::move(entry));
  }
  setVersionResolver(&resolveVersion);
  return true;
}

}  // namespace lockstep::compiler

// SPIR-V → LLVM IR, through the Khronos LLVM/SPIR-V translator run as a
// separate process.
//
// LLVM 19 has no SPIR-V reader, and Debian packages the translator only for
// LLVM 14 and 15. Its command-line tool (llvm-spirv-15) turns the module
// into LLVM 15 bitcode, which LLVM 19's bitcode reader upgrades (typed
// pointers become opaque ones). Run out of process, a translator that
// asserts or crashes on a damaged module fails the build with its message
// in the log instead of bringing the application down, and two LLVM
// versions never share one process.
//
// The translation asks for the OpenCL C 2.0 representation of SPIR-V
// instructions (`--spirv-target-env=CL2.0`): atomics, barriers, work-item
// and group functions come back as calls to the OpenCL C built-ins Clang's
// mangling names, which the builtin library defines, so the IR enters the
// pipeline exactly where Clang's output does (compileSource). What differs
// from Clang's output is mended here: the data layout (the translator's is
// SPIR 1.2's), argument names (kept in kernel_arg_name metadata as Clang's
// -cl-kernel-arg-info does), the work-group-size rule (an IL program may
// run remainder groups unless built with -cl-uniform-work-group-size), and
// the type of samplers (SpirvSamplersPass).
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "Internal.h"
#include "Spirv/SpirvBinary.h"
#include "Passes.h"

extern char **environ;

using namespace llvm;

namespace lockstep::compiler {
namespace {

// Clang 19's data layout for spir64-unknown-unknown.
constexpr const char *kSpir64Layout =
    "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1";

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A folder of its own for one translation, removed with what it holds.
struct ScratchFolder {
  std::string path;
  ScratchFolder() {
    const char *base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/lockstep-spirv-XXXXXX";
    if (mkdtemp(pattern.data())) path = pattern;
  }
  ~ScratchFolder() {
    if (path.empty()) return;
    for (const char *name : {"/module.spv", "/module.bc", "/log.txt"}) unlink((path + name).c_str());
    rmdir(path.c_str());
  }
};

// What the translator said, less the stack dump LLVM's signal handler adds
// when it crashes (the assertion's message before it is the useful part).
std::string withoutStackDump(const std::string &said) {
  std::string kept;
  std::istringstream lines(said);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("PLEASE submit a bug report") || line.starts_with("Stack dump:")) break;
    kept += line + "\n";
  }
  return kept;
}

// Runs the translator; its exit status, or -1 if it could not start or was
// killed by a signal (`log` says which).
int runTranslator(const std::string &tool, const std::string &folder, std::string &log) {
  std::string input = folder + "/module.spv", output = folder + "/module.bc", logFile = folder + "/log.txt";
  std::vector<std::string> args = {tool, "-r", "--spirv-target-env=CL2.0", "--spirv-ext=+all",
                                   input, "-o", output};
  std::vector<char *> argv;
  for (std::string &arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, logFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t child = 0;
  int failed = posix_spawn(&child, tool.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (failed) {
    log += "cannot run the SPIR-V translator " + tool + ": " + std::strerror(failed) + "\n";
    return -1;
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0)
    if (errno != EINTR) {
      log += "lost the SPIR-V translator process\n";
      return -1;
    }
  log += withoutStackDump(readFile(logFile));
  if (WIFSIGNALED(status)) {
    log += "the SPIR-V translator stopped on signal " + std::to_string(WTERMSIG(status)) + "\n";
    return -1;
  }
  return WEXITSTATUS(status);
}

// kernel_arg_name metadata from the arguments' names (SPIR-V OpName), where
// every argument of the kernel has one.
void nameArguments(Function &F) {
  if (F.getMetadata("kernel_arg_name")) return;
  LLVMContext &context = F.getContext();
  SmallVector<Metadata *> names;
  for (Argument &arg : F.args()) {
    if (!arg.hasName()) return;
    names.push_back(MDString::get(context, arg.getName()));
  }
  F.setMetadata("kernel_arg_name", MDNode::get(context, names));
}

}  // namespace

std::string spirvTranslatorPath() {
  const char *chosen = std::getenv("LOCKSTEP_LLVM_SPIRV");
  std::string path = chosen && *chosen ? chosen : LOCKSTEP_LLVM_SPIRV_PATH;
  if (path.empty() || access(path.c_str(), X_OK) != 0) return {};
  return path;
}

std::string spirvTranslatorIdentity() {
  std::string path = spirvTranslatorPath();
  struct stat info {};
  if (path.empty() || stat(path.c_str(), &info) != 0) return {};
  return path + " " + std::to_string(info.st_size) + " " + std::to_string(info.st_mtime);
}

std::unique_ptr<Module> translateSpirv(LLVMContext &context, std::span<const uint32_t> words,
                                       bool uniformWorkGroups, std::string &log) {
  std::string tool = spirvTranslatorPath();
  if (tool.empty()) {
    log += "no SPIR-V translator (install llvm-spirv-15, or name one in LOCKSTEP_LLVM_SPIRV)\n";
    return nullptr;
  }
  ScratchFolder folder;
  if (folder.path.empty()) {
    log += "cannot make a scratch folder for the SPIR-V translator: " + std::string(std::strerror(errno)) + "\n";
    return nullptr;
  }
  {
    std::ofstream out(folder.path + "/module.spv", std::ios::binary);
    out.write(reinterpret_cast<const char *>(words.data()), std::streamsize(words.size() * sizeof(uint32_t)));
    if (!out) {
      log += "cannot write the SPIR-V module for the translator\n";
      return nullptr;
    }
  }
  int status = runTranslator(tool, folder.path, log);
  if (status != 0) {
    if (status > 0) log += "the SPIR-V translator failed (exit status " + std::to_string(status) + ")\n";
    return nullptr;
  }
  std::string bitcode = readFile(folder.path + "/module.bc");
  Expected<std::unique_ptr<Module>> M = parseBitcodeFile(MemoryBufferRef(bitcode, "module.bc"), context);
  if (!M) {
    log += "cannot read the SPIR-V translator's output: " + toString(M.takeError()) + "\n";
    return nullptr;
  }
  Module &module = **M;
  if (module.getTargetTriple() != "spir64-unknown-unknown") {
    log += "the module translates to target " + module.getTargetTriple() + ", not spir64\n";
    return nullptr;
  }
  module.setDataLayout(kSpir64Layout);
  for (Function &F : module)
    if (F.getCallingConv() == CallingConv::SPIR_KERNEL) nameArguments(F);
  markUniformWorkGroups(module, uniformWorkGroups);
  ModuleAnalysisManager analyses;
  SpirvSamplersPass().run(module, analyses);
  return std::move(*M);
}

}  // namespace lockstep::compiler

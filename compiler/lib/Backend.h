// What the files of the back end (prepareModule and compileModule, declared
// in Internal.h) share among themselves.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class Module;
}

namespace lockstep::compiler {

struct FrontendOptions;
struct OptimizedFunction;

// BuiltinLinking.cpp: links, chunk by chunk, the builtins that the module
// declares, and what those call in turn; false (and why, in `log`) when the
// embedded library is damaged.
bool linkBuiltins(llvm::Module &M, std::string &log);
// Makes libm visible to symbol lookups even when the host program doesn't
// link it (kernels call it, through the builtins and LLVM's math intrinsics).
void loadMathLibrary();
// False, with an error in `log` for each, if the module calls a function
// that neither the program, the builtins, the work-group passes nor the
// process define.
bool checkUndefined(const llvm::Module &M, std::string &log);

// Backend.cpp: the optimize pipeline on a prepared module or a part of one.
void optimizeModule(llvm::Module &M, const FrontendOptions &options);

// CodeEmission.cpp: optimizeModule and machine code for a module or a part:
// the object file, and what the optimize passes marked on the work-group
// functions (OptimizedFunction).
bool compilePart(llvm::Module &M, const FrontendOptions &options, std::string &object,
                 std::vector<OptimizedFunction> &functions, std::string &log);
// LOCKSTEP_LLVM_OPTIONS=-stats: the counters of the build just done, to
// stderr, then reset (LLVM prints them only at shutdown, which a driver
// never reaches). Once a program's parts are all compiled: the parts run in
// parallel and share the counters.
void reportStatistics();

// IRDump.cpp: prints `M` to stderr when LOCKSTEP_DUMP_IR names `point`
// (input: the linked program, before the prepare pipeline; wg: after it;
// final: each part after the optimize pipeline), one module at a time;
// `header`, if any, goes before it as comment lines.
bool dumpRequested(std::string_view point);
void dumpModule(const llvm::Module &M, std::string_view point, std::string_view header = {});

}  // namespace lockstep::compiler

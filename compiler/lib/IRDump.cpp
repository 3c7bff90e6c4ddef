// LOCKSTEP_DUMP_IR=POINT: the module at one point of a build, printed to
// stderr (a debugging aid). `input` is what the prepare pipeline starts
// from, with a comment naming the pipeline (`opt -passes=...`) that
// reproduces the build's `wg`, the module after it; `final` is each part
// after the optimize pipeline.
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>
#include <mutex>

#include "Backend.h"

using namespace llvm;

namespace lockstep::compiler {

bool dumpRequested(std::string_view point) {
  const char *dump = std::getenv("LOCKSTEP_DUMP_IR");
  return dump && std::string_view(dump) == point;
}

void dumpModule(const Module &M, std::string_view point, std::string_view header) {
  if (!dumpRequested(point)) return;
  // Parts of a program are optimized on several threads at once.
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  for (StringRef rest = header; !rest.empty();) {
    auto [line, after] = rest.split('\n');
    errs() << "; " << line << "\n";
    rest = after;
  }
  M.print(errs(), nullptr);
}

}  // namespace lockstep::compiler

// OpenCL C forbids recursion (s6.11, "Recursion is not supported"): a
// program whose functions call themselves, directly or through others,
// fails to build with a log that names the cycle. Compiled, such a kernel
// ran out of its worker's stack and brought the process down.
//
// Checked on the program as linked (its own functions and those of the
// objects it links, before the built-ins join them), over the call graph's
// strongly connected components: a component of several functions, or of
// one that calls itself, is a cycle.
#include <llvm/ADT/SCCIterator.h>
#include <llvm/Analysis/CallGraph.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/DebugInfoMetadata.h>

#include "Internal.h"

using namespace llvm;

namespace lockstep::compiler {
namespace {

// "name (file:line)" where the function's debug information says.
std::string describe(const Function &F) {
  std::string text = "'" + demangle(F.getName()) + "'";
  if (const DISubprogram *program = F.getSubprogram())
    text += " (" + program->getFilename().str() + ":" + std::to_string(program->getLine()) + ")";
  return text;
}

}  // namespace

bool checkNoRecursion(Module &M, std::string &log) {
  CallGraph graph(M);
  bool ok = true;
  for (scc_iterator<CallGraph *> component = scc_begin(&graph); !component.isAtEnd(); ++component) {
    if (!component.hasCycle()) continue;
    std::string cycle;
    for (const CallGraphNode *node : *component) {
      const Function *F = node->getFunction();
      if (!F) continue;  // the graph's external nodes
      cycle += cycle.empty() ? describe(*F) : " -> " + describe(*F);
    }
    if (cycle.empty()) continue;
    log += "error: recursion is not supported in OpenCL C: " + cycle + " calls itself\n";
    ok = false;
  }
  return ok;
}

}  // namespace lockstep::compiler

// A large program compiled in parts, in parallel: the module is cut into
// parts of whole work-group functions (with what they reach), each part
// optimized and compiled to an object file of its own on a thread of its
// own (compilePart), and the JIT links the objects together. The versions
// of kernels that a build defers (DeferVersions.cpp) are parts of their own
// that stay bitcode, for their first calls (LazyVersions.cpp).
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <numeric>

#include "Backend.h"
#include "Internal.h"
#include "ThreadHandOff.h"

using namespace llvm;

// Up to four parts a thread, each of at least 500 instructions: the parts'
// costs are guessed from their sizes, and several per thread let the threads
// even out the guesses' errors. A part adds its bitcode, a context, a pass
// pipeline and an object file, too little to measure against -O3 and codegen
// (about 100 ms per 500 instructions of a work-group function): the
// benchmarks' program (12 kernels, 6,000 instructions) took 1.07 s of CPU as
// one part and as 8, and built in 1.1 s as one part, 0.65 s as 2 and 0.59 s
// as 8 on 2 cores.
static cl::opt<uint64_t> PartsPerThread("lockstep-parts-per-thread", cl::init(4), cl::Hidden,
                                        cl::desc("Most parts per thread a program is compiled in"));
static cl::opt<uint64_t> MinimumPartCost(
    "lockstep-min-part-instructions", cl::init(500), cl::Hidden,
    cl::desc("Fewest instructions per part of a program compiled in parts"));

namespace lockstep::compiler {
namespace {

// The externally visible functions (the work-group functions the runtime
// looks up) grouped into parts, with everything each part's functions
// reach. A part is optimized and compiled on its own, with a copy of each
// internal function it calls, so -O3 inlines as it would in the whole
// module. A global variable that several parts use is one object all the
// same: one part defines it, under an external name; the others declare it
// (their copy of a constant stays available to -O3, to fold loads from).
// Only a constant whose address nothing can tell apart is copied outright.
// Functions that call one another stay in one part.
struct Part {
  SmallPtrSet<const GlobalValue *, 32> reach;
  SmallPtrSet<const GlobalVariable *, 4> borrowed;  // defined by another part
  uint64_t cost = 0;                                // instructions
};

void collectReach(const GlobalValue &root, SmallPtrSetImpl<const GlobalValue *> &reach) {
  SmallVector<const GlobalValue *, 32> work{&root};
  SmallPtrSet<const Constant *, 32> seen;
  SmallVector<const Constant *, 16> constants;
  reach.insert(&root);
  auto visit = [&](const Value *value) {
    auto *constant = dyn_cast<Constant>(value);
    if (!constant) return;
    constants.push_back(constant);
    while (!constants.empty()) {
      const Constant *next = constants.pop_back_val();
      if (auto *global = dyn_cast<GlobalValue>(next)) {
        if (reach.insert(global).second) work.push_back(global);
        continue;
      }
      if (!seen.insert(next).second) continue;
      for (const Use &operand : next->operands()) constants.push_back(cast<Constant>(operand.get()));
    }
  };
  while (!work.empty()) {
    const GlobalValue *global = work.pop_back_val();
    if (auto *F = dyn_cast<Function>(global)) {
      for (const BasicBlock &BB : *F)
        for (const Instruction &I : BB)
          for (const Use &operand : I.operands()) visit(operand.get());
    } else if (auto *variable = dyn_cast<GlobalVariable>(global); variable && variable->hasInitializer()) {
      visit(variable->getInitializer());
    }
  }
}

// Whether the module can be cut into parts at all: no aliases, and no
// variables of its own visible outside it but the versions' slots.
bool canSplit(const Module &M) {
  if (!M.alias_empty() || !M.ifunc_empty()) return false;
  for (const GlobalVariable &variable : M.globals())
    if (variable.hasAppendingLinkage() || (!variable.isDeclaration() && !variable.hasLocalLinkage() &&
                                           !variable.getName().starts_with(kVersionSlotPrefix)))
      return false;
  return true;
}

bool isCopyable(const GlobalVariable &variable) {
  return variable.isConstant() && variable.hasAtLeastLocalUnnamedAddr() && variable.hasLocalLinkage();
}

// The parts to compile now (none: compile the module whole), and in
// `deferredParts` one part for each of `deferred`, whose variables the
// parts compiled now define.
std::vector<Part> splitIntoParts(const Module &M, unsigned threads, ArrayRef<const Function *> deferred,
                                 std::vector<Part> &deferredParts) {
  std::vector<const Function *> roots;
  for (const Function &F : M)
    if (!F.isDeclaration() && !F.hasLocalLinkage() && !is_contained(deferred, &F)) roots.push_back(&F);
  uint64_t total = 0;  // of the work done now
  for (const Function &F : M)
    if (!is_contained(deferred, &F)) total += F.getInstructionCount();
  unsigned wanted = std::max<uint64_t>(1, std::min<uint64_t>(PartsPerThread * threads, total / MinimumPartCost));
  if (roots.empty() || !canSplit(M)) return {};
  if (deferred.empty() && (threads < 2 || wanted < 2 || roots.size() < 2)) return {};
  // Groups of roots that must share a part (union-find): one calls another.
  std::vector<SmallPtrSet<const GlobalValue *, 32>> reaches(roots.size());
  std::vector<size_t> leader(roots.size());
  std::iota(leader.begin(), leader.end(), 0);
  auto find = [&](size_t i) {
    while (leader[i] != i) i = leader[i] = leader[leader[i]];
    return i;
  };
  DenseMap<const GlobalValue *, size_t> rootIndex;
  for (size_t i = 0; i < roots.size(); ++i) rootIndex[roots[i]] = i;
  for (size_t i = 0; i < roots.size(); ++i) {
    collectReach(*roots[i], reaches[i]);
    for (const GlobalValue *global : reaches[i])
      if (auto it = rootIndex.find(global); it != rootIndex.end()) leader[find(i)] = find(it->second);
  }
  std::vector<Part> groups;
  DenseMap<size_t, size_t> groupOf;
  for (size_t i = 0; i < roots.size(); ++i) {
    auto [it, inserted] = groupOf.try_emplace(find(i), groups.size());
    if (inserted) groups.emplace_back();
    groups[it->second].reach.insert(reaches[i].begin(), reaches[i].end());
  }
  if (deferred.empty() && groups.size() < 2) return {};
  for (Part &group : groups)
    for (const GlobalValue *global : group.reach)
      if (auto *F = dyn_cast<Function>(global)) group.cost += F->getInstructionCount();
  // Longest first, each to the part with the least work so far.
  sort(groups, [](const Part &a, const Part &b) { return a.cost > b.cost; });
  std::vector<Part> parts(std::min<size_t>(wanted, groups.size()));
  for (Part &group : groups) {
    Part &lightest = *min_element(parts, [](const Part &a, const Part &b) { return a.cost < b.cost; });
    lightest.reach.insert(group.reach.begin(), group.reach.end());
    lightest.cost += group.cost;
  }
  // The first part that uses a variable defines it.
  DenseSet<const GlobalVariable *> defined;
  for (Part &part : parts)
    for (const GlobalValue *global : part.reach) {
      auto *variable = dyn_cast<GlobalVariable>(global);
      if (!variable || variable->isDeclaration()) continue;
      if (!isCopyable(*variable) && !defined.insert(variable).second) part.borrowed.insert(variable);
    }
  // A deferred part borrows every variable; one that no part compiled now
  // uses, the first of those defines.
  for (const Function *root : deferred) {
    Part &part = deferredParts.emplace_back();
    collectReach(*root, part.reach);
    // Another part's root it reaches (through a constant) stays that part's.
    for (const GlobalValue *global : SmallVector<const GlobalValue *, 32>(part.reach.begin(), part.reach.end()))
      if (isa<Function>(global) && global != root && !global->hasLocalLinkage()) part.reach.erase(global);
    for (const GlobalValue *global : part.reach) {
      auto *variable = dyn_cast<GlobalVariable>(global);
      if (!variable || variable->isDeclaration() || isCopyable(*variable)) continue;
      part.borrowed.insert(variable);
      if (!defined.insert(variable).second) continue;
      SmallPtrSet<const GlobalValue *, 8> reach;
      collectReach(*variable, reach);
      for (const GlobalValue *reached : reach)  // the functions compiled now are their own parts' roots
        if (!isa<Function>(reached) || reached->hasLocalLinkage()) parts[0].reach.insert(reached);
    }
  }
  return parts;
}

// A part's module, as bitcode: a variable another part defines is declared;
// a constant keeps its initializer for -O3, as available_externally.
void writePart(const Module &M, const Part &part, SmallVector<char, 0> &bitcode) {
  auto defines = [&](const GlobalValue *value) {
    auto *variable = dyn_cast<GlobalVariable>(value);
    bool declared = variable && part.borrowed.contains(variable) && !variable->isConstant();
    return part.reach.contains(value) && !declared;
  };
  ValueToValueMapTy map;
  std::unique_ptr<Module> copy = CloneModule(M, map, defines);
  for (const GlobalVariable *variable : part.borrowed)
    if (variable->isConstant())
      cast<GlobalVariable>(map[variable])->setLinkage(GlobalValue::AvailableExternallyLinkage);
  raw_svector_ostream stream(bitcode);
  WriteBitcodeToFile(*copy, stream);
}

}  // namespace

namespace {

// The versions of each kernel that its launches may never use
// (DeferVersions.cpp) are compiled at their first call.
cl::opt<bool> DeferVersions("lockstep-defer-versions", cl::init(true), cl::Hidden,
                            cl::desc("Compile a kernel's versions at their first call, not with the program"));

// The versions to leave for their first calls, each made a function of its
// own with its slot emptied, if the module can be cut into parts.
std::vector<const Function *> deferVersions(Module &M) {
  std::vector<const Function *> deferred;
  if (!DeferVersions || !canSplit(M)) return deferred;
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasFnAttribute(kDispatchedVersionAttr)) continue;
    GlobalVariable *slot = M.getGlobalVariable((kVersionSlotPrefix + F.getName()).str());
    if (!slot || slot->getInitializer() != versionSlot(M.getContext(), &F)) continue;
    slot->setInitializer(versionSlot(M.getContext(), nullptr));
    F.setLinkage(GlobalValue::ExternalLinkage);
    deferred.push_back(&F);
  }
  return deferred;
}

std::optional<MachineCode> compileInParts(Module &M, const FrontendOptions &options, std::string &log) {
  std::vector<const Function *> deferred = deferVersions(M);
  std::vector<Part> deferredParts;
  // None, or two or more (one or more with deferred versions).
  std::vector<Part> parts = splitIntoParts(M, tbb::this_task_arena::max_concurrency(), deferred, deferredParts);
  MachineCode code;
  if (parts.empty()) {
    for (const Function *version : deferred)  // compiled with the rest after all
      M.getGlobalVariable((kVersionSlotPrefix + version->getName()).str())
          ->setInitializer(versionSlot(M.getContext(), const_cast<Function *>(version)));
    code.objects.resize(1);
    if (!compilePart(M, options, code.objects[0], code.functions, log)) return std::nullopt;
    return code;
  }
  code.objects.resize(parts.size());
  // A variable that parts share gets a name that is the program's own.
  for (const std::vector<Part> *list : {&parts, &deferredParts})
    for (const Part &part : *list)
      for (const GlobalVariable *shared : part.borrowed) {
        auto *variable = const_cast<GlobalVariable *>(shared);
        if (!variable->hasLocalLinkage()) continue;
        variable->setName("__lockstep.global." + variable->getName());
        // Default visibility: the other parts reach it through the GOT, so
        // the JIT may place the parts' code and data at any distance.
        variable->setLinkage(GlobalValue::ExternalLinkage);
        variable->setVisibility(GlobalValue::DefaultVisibility);
        variable->setDSOLocal(false);
      }
  // Each part goes to a context of its own, through bitcode: LLVM allows
  // one thread at a time per context.
  std::vector<SmallVector<char, 0>> bitcode(parts.size());
  for (size_t i = 0; i < parts.size(); ++i) writePart(M, parts[i], bitcode[i]);
  for (size_t i = 0; i < deferred.size(); ++i) {
    SmallVector<char, 0> written;
    writePart(M, deferredParts[i], written);
    code.deferred.push_back({deferred[i]->getName().str(),
                             deferred[i]->getFnAttribute(kDispatchedVersionAttr).getValueAsString().str(),
                             std::string(written.begin(), written.end())});
  }
  std::vector<std::string> logs(parts.size());
  std::vector<std::vector<OptimizedFunction>> functions(parts.size());
  std::atomic<bool> failed{false};
  tbb::parallel_for(size_t(0), parts.size(), [&](size_t i) {
    struct Done {  // however the part ends, its results go back to the caller
      const void *results;
      ~Done() { handOff(results); }
    } done{&logs[i]};
    LLVMContext context;
    Expected<std::unique_ptr<Module>> part =
        parseBitcodeFile(MemoryBufferRef(StringRef(bitcode[i].data(), bitcode[i].size()), "part.bc"), context);
    if (!part) {
      logs[i] = "internal error: " + toString(part.takeError()) + "\n";
      failed = true;
      return;
    }
    if (!compilePart(**part, options, code.objects[i], functions[i], logs[i])) failed = true;
  });
  for (size_t i = 0; i < parts.size(); ++i) {
    takeOver(&logs[i]);
    log += logs[i];
    code.functions.insert(code.functions.end(), functions[i].begin(), functions[i].end());
  }
  if (failed) return std::nullopt;
  return code;
}

}  // namespace

std::optional<MachineCode> compileModule(Module &M, const FrontendOptions &options, std::string &log) {
  std::optional<MachineCode> code = compileInParts(M, options, log);
  reportStatistics();
  return code;
}

}  // namespace lockstep::compiler

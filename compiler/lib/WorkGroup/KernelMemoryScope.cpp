// Kernel memory apart from the context. The context block (ContextLayout.cpp)
// is the runtime's: a kernel's own pointers (its arguments' buffers, local
// memory, program-scope variables, pointers it loads) never reach it. Alias
// analysis proves as much only while it can follow every use of the
// context parameter (CaptureTracking gives up after 100 uses and takes the
// parameter as captured), and a work-group function of masked loops, guard
// copies and strips has more: every global access then may alias every
// context slot, so LICM kept no per-work-item accumulator in registers
// across a loop of regions (a 16-tap convolution in strips, 8.9 -> 14.2 ms)
// and a uniform store stayed inside the vectorized work-item loop.
//
// One alias scope in a domain of its own, `lockstep.kernel-memory`, says it
// without asking alias analysis to look:
//
//   load/store at a context address  (underlying object: the context)
//     !noalias += { kernel-memory }
//   load/store at kernel memory       (underlying object: a pointer loaded
//                                      from memory, a global variable, or a
//                                      parameter other than the context)
//     !alias.scope += { kernel-memory }
//
// The scope is the function's `lockstep.kernel_memory` metadata, for the
// accesses later passes add (StopPoll.cpp's stop word: unscoped, its load
// in a loop of regions again kept a strip's accumulators out of registers).
//
// Accesses through anything else (a phi or select of addresses, an
// integer cast to a pointer, an alloca) keep their metadata and are left to
// alias analysis as before.
//
// The one way a kernel's pointer could reach the context is one the kernel
// wrote itself: the address of a private array kept in the context, stored
// to memory and loaded back, or handed to a function that might store it.
// A function that stores a pointer not known to be kernel memory (or a
// vector or aggregate holding pointers), exchanges one atomically, or
// passes one to a function it defines, gets no scope.
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/Support/CommandLine.h>

#include "Internal.h"
#include "Statistics.h"
#include "WorkGroup/WorkGroupLoops.h"

using namespace llvm;

#define DEBUG_TYPE "lockstep-work-group-loops"
LOCKSTEP_STATISTIC(NumKernelMemoryScopes,
                   "Work-group functions whose kernel memory is scoped apart from the context");

namespace lockstep::compiler {

static cl::opt<bool> kScopeKernelMemory(
    "lockstep-scope-kernel-memory", cl::Hidden, cl::init(true),
    cl::desc("Mark the kernel's own memory accesses as apart from the "
             "work-group context"));

namespace {

enum class Memory { Context, Kernel, Unknown };

Memory memoryOf(const Value *address, const Argument *contextParam) {
  const Value *object = getUnderlyingObject(address, 32);
  if (object == contextParam) return Memory::Context;
  if (isa<LoadInst>(object) || isa<GlobalVariable>(object) || isa<Argument>(object))
    return Memory::Kernel;
  return Memory::Unknown;
}

bool holdsPointer(Type *type) {
  if (type->isPtrOrPtrVectorTy()) return true;
  if (auto *array = dyn_cast<ArrayType>(type)) return holdsPointer(array->getElementType());
  if (auto *structure = dyn_cast<StructType>(type))
    return any_of(structure->elements(), [](Type *element) { return holdsPointer(element); });
  return false;
}

// Whether the function may put a pointer that is not kernel memory where
// a later load of a pointer finds it.
bool mayLeakPointers(Function &F, const Argument *contextParam) {
  auto leaks = [&](const Value *value) {
    if (!holdsPointer(value->getType())) return false;
    return !value->getType()->isPointerTy() || memoryOf(value, contextParam) != Memory::Kernel;
  };
  for (Instruction &I : instructions(F)) {
    if (auto *store = dyn_cast<StoreInst>(&I); store && leaks(store->getValueOperand()))
      return true;
    if (auto *rmw = dyn_cast<AtomicRMWInst>(&I);
        rmw && holdsPointer(rmw->getValOperand()->getType()))
      return true;
    if (auto *exchange = dyn_cast<AtomicCmpXchgInst>(&I);
        exchange && holdsPointer(exchange->getNewValOperand()->getType()))
      return true;
    if (auto *call = dyn_cast<CallBase>(&I); call && !isa<IntrinsicInst>(call)) {
      const Function *callee = call->getCalledFunction();
      if (callee && callee->isDeclaration()) continue;  // a built-in of the library
      if (any_of(call->args(), [&](const Use &argument) { return leaks(argument.get()); }))
        return true;
    }
  }
  return false;
}

}  // namespace

void WorkGroupLoops::scopeKernelMemory() {
  const Argument *contextParam = F.getArg(kContextParam);
  if (!kScopeKernelMemory || mayLeakPointers(F, contextParam)) return;
  MDBuilder md(context);
  MDNode *domain = md.createAnonymousAliasScopeDomain("lockstep.kernel-memory");
  MDNode *kernelMemory = MDNode::get(context, md.createAnonymousAliasScope(domain));
  auto mark = [&](Instruction &I, ArrayRef<const Value *> addresses) {
    std::optional<Memory> memory;
    for (const Value *address : addresses) {
      Memory each = memoryOf(address, contextParam);
      if (memory && *memory != each) return;
      memory = each;
    }
    if (!memory || *memory == Memory::Unknown) return;
    unsigned kind =
        *memory == Memory::Context ? LLVMContext::MD_noalias : LLVMContext::MD_alias_scope;
    I.setMetadata(kind, MDNode::concatenate(I.getMetadata(kind), kernelMemory));
  };
  F.setMetadata(kKernelMemoryMetadata, kernelMemory);
  for (Instruction &I : instructions(F)) {
    if (auto *load = dyn_cast<LoadInst>(&I))
      mark(I, {load->getPointerOperand()});
    else if (auto *store = dyn_cast<StoreInst>(&I))
      mark(I, {store->getPointerOperand()});
    else if (auto *rmw = dyn_cast<AtomicRMWInst>(&I))
      mark(I, {rmw->getPointerOperand()});
    else if (auto *exchange = dyn_cast<AtomicCmpXchgInst>(&I))
      mark(I, {exchange->getPointerOperand()});
    else if (auto *transfer = dyn_cast<MemTransferInst>(&I))
      mark(I, {transfer->getRawDest(), transfer->getRawSource()});
    else if (auto *set = dyn_cast<MemSetInst>(&I))
      mark(I, {set->getRawDest()});
  }
  ++NumKernelMemoryScopes;
}

void scopeAsKernelMemory(Instruction &access) {
  if (MDNode *kernelMemory = access.getFunction()->getMetadata(kKernelMemoryMetadata))
    access.setMetadata(
        LLVMContext::MD_alias_scope,
        MDNode::concatenate(access.getMetadata(LLVMContext::MD_alias_scope), kernelMemory));
}

}  // namespace lockstep::compiler

// DeviceEnqueueLoweringPass: OpenCL C 2.0 device-side enqueue, as Clang 19
// emits it, becomes calls of the runtime (docs/device_enqueue.md).
//
// Clang turns each block passed to enqueue_kernel (and to the
// get_kernel_* queries) into a block literal, `{ i32 size, i32 align,
// ptr invoke, captured values... }` in the caller's frame, and a kernel of
// its own, `__<caller>_block_invoke[_N]_kernel(ptr addrspace(4) literal,
// ptr addrspace(3) local...)`, and calls
//
//   __enqueue_kernel_basic(queue, flags, ndrange*, kernel, literal)
//   __enqueue_kernel_basic_events(queue, flags, ndrange*, n, wait, ret, kernel, literal)
//   __enqueue_kernel_varargs(queue, flags, ndrange*, kernel, literal, nlocal, size_t sizes[])
//   __enqueue_kernel_events_varargs(queue, flags, ndrange*, n, wait, ret, kernel, literal, nlocal, sizes)
//   __get_kernel_work_group_size_impl(kernel, literal)
//   __get_kernel_preferred_work_group_size_multiple_impl(kernel, literal)
//   __get_kernel_sub_group_count_for_ndrange_impl(ndrange*, kernel, literal)
//   __get_kernel_max_sub_group_size_for_ndrange_impl(ndrange*, kernel, literal)
//
// with the block kernel as a function pointer. The block kernels are
// compiled like every other kernel (KernelWrapperPass makes a work-group
// function of each), so the pointer names code that the pipeline replaces.
// This pass names the kernel instead: every call becomes one of
//
//   i32 __lockstep_enqueue_kernel(queue, flags, ndrange*, n, wait, ret,
//                                 name, literal, nlocal, sizes)
//   i32 __lockstep_kernel_query(i32 query, name, ndrange* or null)
//
// where `name` is a constant string holding the block kernel's name, which
// the runtime looks up in the program of the kernel that is running; the
// runtime copies the literal (its first field is its size) when it
// enqueues, so the caller's frame may go. The block kernels get the
// kernel_arg_* metadata Clang leaves off them (the literal a pointer passed
// by value, the rest __local pointers), and an attribute that keeps them
// out of the program's kernel names.
//
// Runs after ImageTypeLoweringPass (which makes queue_t and clk_event_t
// pointers) and before KernelWrapperPass.
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/StringSwitch.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Debug.h>

#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-device-enqueue-lowering"

using namespace llvm;

LOCKSTEP_STATISTIC(NumEnqueues, "enqueue_kernel calls lowered");
LOCKSTEP_STATISTIC(NumQueries, "get_kernel_* queries lowered");
LOCKSTEP_STATISTIC(NumBlockKernels, "Block kernels described");

namespace lockstep::compiler {
namespace {

constexpr unsigned kGenericAddressSpace = 4;
constexpr unsigned kConstantAddressSpace = 2;

enum class Form { None, Basic, BasicEvents, Varargs, EventsVarargs, Query };

Form formOf(StringRef name) {
  return StringSwitch<Form>(name)
      .Case("__enqueue_kernel_basic", Form::Basic)
      .Case("__enqueue_kernel_basic_events", Form::BasicEvents)
      .Case("__enqueue_kernel_varargs", Form::Varargs)
      .Case("__enqueue_kernel_events_varargs", Form::EventsVarargs)
      .Cases("__get_kernel_work_group_size_impl", "__get_kernel_preferred_work_group_size_multiple_impl",
             "__get_kernel_sub_group_count_for_ndrange_impl", "__get_kernel_max_sub_group_size_for_ndrange_impl",
             Form::Query)
      .Default(Form::None);
}

int queryOf(StringRef name) {
  return StringSwitch<int>(name)
      .Case("__get_kernel_work_group_size_impl", kKernelQueryWorkGroupSize)
      .Case("__get_kernel_preferred_work_group_size_multiple_impl", kKernelQueryPreferredMultiple)
      .Case("__get_kernel_sub_group_count_for_ndrange_impl", kKernelQuerySubGroupCount)
      .Default(kKernelQueryMaxSubGroupSize);
}

// The block kernel a call names: the operand is the kernel, or a cast of it.
Function *blockKernel(Value *operand) {
  return dyn_cast<Function>(operand->stripPointerCasts());
}

// A constant string holding the kernel's name, in the generic address
// space as the runtime's functions take it; one per kernel.
Constant *nameOf(Function &kernel, DenseMap<Function *, Constant *> &names) {
  Constant *&name = names[&kernel];
  if (!name) {
    Module &M = *kernel.getParent();
    Constant *text = ConstantDataArray::getString(M.getContext(), kernel.getName());
    auto *global = new GlobalVariable(M, text->getType(), true, GlobalValue::PrivateLinkage, text,
                                      "__lockstep_block_name." + kernel.getName(), nullptr,
                                      GlobalValue::NotThreadLocal, kConstantAddressSpace);
    global->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    name = ConstantExpr::getAddrSpaceCast(global, PointerType::get(M.getContext(), kGenericAddressSpace));
  }
  return name;
}

// Stores of `value` (or a cast of it) become stores of null.
void dropStoresOf(Constant *value) {
  for (User *user : make_early_inc_range(value->users())) {
    if (auto *store = dyn_cast<StoreInst>(user); store && store->getValueOperand() == value)
      store->setOperand(0, Constant::getNullValue(value->getType()));
    else if (auto *cast = dyn_cast<ConstantExpr>(user); cast && cast->isCast())
      dropStoresOf(cast);
  }
}

// The block literal keeps the address of the block's invoke function, which
// nothing calls through (OpenCL C blocks are called directly; the block
// kernel calls the invoke function by name): the store is dropped, so that
// the invoke function, which calls work-item functions, is inlined into the
// block kernel's work-group function and not left behind unlowered.
void dropInvokeAddresses(Function &kernel) {
  for (BasicBlock &block : kernel)
    for (Instruction &I : block)
      if (auto *call = dyn_cast<CallInst>(&I))
        if (Function *invoke = call->getCalledFunction(); invoke && !invoke->isDeclaration())
          dropStoresOf(invoke);
}

// Clang leaves the block kernels without argument metadata: the literal is
// a pointer the runtime passes by value, the rest are __local pointers.
void describeBlockKernel(Function &kernel) {
  if (kernel.hasFnAttribute(kBlockKernelAttr)) return;
  dropInvokeAddresses(kernel);
  LLVMContext &context = kernel.getContext();
  SmallVector<Metadata *, 4> spaces, access, types, qualifiers, names;
  for (Argument &arg : kernel.args()) {
    bool local = arg.getArgNo() != 0;
    spaces.push_back(ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(context), local ? 3 : 0)));
    access.push_back(MDString::get(context, "none"));
    types.push_back(MDString::get(context, "void*"));
    qualifiers.push_back(MDString::get(context, ""));
    names.push_back(MDString::get(context, local ? "local" + std::to_string(arg.getArgNo()) : "block"));
  }
  kernel.setMetadata("kernel_arg_addr_space", MDNode::get(context, spaces));
  kernel.setMetadata("kernel_arg_access_qual", MDNode::get(context, access));
  kernel.setMetadata("kernel_arg_type", MDNode::get(context, types));
  kernel.setMetadata("kernel_arg_base_type", MDNode::get(context, types));
  kernel.setMetadata("kernel_arg_type_qual", MDNode::get(context, qualifiers));
  kernel.setMetadata("kernel_arg_name", MDNode::get(context, names));
  kernel.addFnAttr(kBlockKernelAttr);
  ++NumBlockKernels;
}

FunctionCallee enqueueFunction(Module &M) {
  LLVMContext &context = M.getContext();
  Type *i32 = Type::getInt32Ty(context);
  Type *ptr = PointerType::get(context, 0);
  Type *generic = PointerType::get(context, kGenericAddressSpace);
  // queue, flags, ndrange, n, wait, ret, name, literal, nlocal, sizes
  auto *type = FunctionType::get(i32, {ptr, i32, ptr, i32, generic, generic, generic, generic, i32, ptr}, false);
  return M.getOrInsertFunction(kEnqueueKernelSymbol, type);
}

FunctionCallee queryFunction(Module &M) {
  LLVMContext &context = M.getContext();
  Type *i32 = Type::getInt32Ty(context);
  auto *type = FunctionType::get(
      i32, {i32, PointerType::get(context, kGenericAddressSpace), PointerType::get(context, 0)}, false);
  return M.getOrInsertFunction(kKernelQuerySymbol, type);
}

// Replaces one call; false if it is not of a form Clang makes.
bool lower(CallInst &call, Form form, DenseMap<Function *, Constant *> &names) {
  Module &M = *call.getModule();
  LLVMContext &context = M.getContext();
  IRBuilder<> builder(&call);
  Type *i32 = builder.getInt32Ty();
  Type *generic = PointerType::get(context, kGenericAddressSpace);
  Type *ptr = PointerType::get(context, 0);
  auto arg = [&](unsigned i) { return call.getArgOperand(i); };
  auto asGeneric = [&](Value *value) { return builder.CreatePointerBitCastOrAddrSpaceCast(value, generic); };
  auto asPrivate = [&](Value *value) { return builder.CreatePointerBitCastOrAddrSpaceCast(value, ptr); };
  Value *replacement = nullptr;
  if (form == Form::Query) {
    StringRef callee = call.getCalledFunction()->getName();
    bool withRange = call.arg_size() == 3;
    Function *kernel = blockKernel(arg(withRange ? 1 : 0));
    if (!kernel) return false;
    describeBlockKernel(*kernel);
    Value *range = withRange ? asPrivate(arg(0)) : ConstantPointerNull::get(cast<PointerType>(ptr));
    replacement = builder.CreateCall(queryFunction(M), {builder.getInt32(queryOf(callee)), nameOf(*kernel, names), range});
    ++NumQueries;
  } else {
    bool events = form == Form::BasicEvents || form == Form::EventsVarargs;
    bool varargs = form == Form::Varargs || form == Form::EventsVarargs;
    unsigned kernelIndex = events ? 6 : 3;
    if (call.arg_size() != kernelIndex + 2 + (varargs ? 2 : 0)) return false;
    Function *kernel = blockKernel(arg(kernelIndex));
    if (!kernel) return false;
    describeBlockKernel(*kernel);
    Value *none = ConstantPointerNull::get(cast<PointerType>(generic));
    Value *count = events ? arg(3) : builder.getInt32(0);
    Value *wait = events ? asGeneric(arg(4)) : none;
    Value *ret = events ? asGeneric(arg(5)) : none;
    Value *locals = varargs ? arg(kernelIndex + 2) : builder.getInt32(0);
    Value *sizes = varargs ? asPrivate(arg(kernelIndex + 3)) : ConstantPointerNull::get(cast<PointerType>(ptr));
    replacement = builder.CreateCall(enqueueFunction(M),
                                     {asPrivate(arg(0)), arg(1), asPrivate(arg(2)), count, wait, ret,
                                      nameOf(*kernel, names), asGeneric(arg(kernelIndex + 1)), locals, sizes});
    ++NumEnqueues;
  }
  if (replacement->getType() != call.getType()) replacement = builder.CreateZExtOrTrunc(replacement, call.getType());
  (void)i32;
  call.replaceAllUsesWith(replacement);
  call.eraseFromParent();
  return true;
}

}  // namespace

bool enqueuesKernels(const Function &kernel) {
  SmallPtrSet<const Function *, 16> seen{&kernel};
  SmallVector<const Function *, 16> work{&kernel};
  while (!work.empty()) {
    const Function *F = work.pop_back_val();
    for (const BasicBlock &block : *F)
      for (const Instruction &I : block) {
        const auto *call = dyn_cast<CallBase>(&I);
        const Function *callee = call ? call->getCalledFunction() : nullptr;
        if (!callee) continue;
        Form form = formOf(callee->getName());
        if (form != Form::None && form != Form::Query) return true;
        if (!callee->isDeclaration() && seen.insert(callee).second) work.push_back(callee);
      }
  }
  return false;
}

PreservedAnalyses DeviceEnqueueLoweringPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<std::pair<CallInst *, Form>, 16> calls;
  for (Function &F : M) {
    if (!F.isDeclaration()) continue;
    Form form = formOf(F.getName());
    if (form == Form::None) continue;
    for (User *user : F.users())
      if (auto *call = dyn_cast<CallInst>(user); call && call->getCalledOperand() == &F)
        calls.push_back({call, form});
  }
  if (calls.empty()) return PreservedAnalyses::all();
  DenseMap<Function *, Constant *> names;
  for (auto [call, form] : calls)
    if (!lower(*call, form, names)) LLVM_DEBUG(dbgs() << "left alone: " << *call << "\n");
  for (Function &F : make_early_inc_range(M))
    if (F.isDeclaration() && formOf(F.getName()) != Form::None && F.use_empty()) F.eraseFromParent();
  return PreservedAnalyses::none();
}

}  // namespace lockstep::compiler

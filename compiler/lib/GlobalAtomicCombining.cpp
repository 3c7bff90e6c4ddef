// GlobalAtomicCombiningPass, after -O3: global atomic adds whose results a
// kernel ignores, to a buffer it touches in no other way, are held back in
// the launching thread's AtomicCombiner (GroupAbi.h) and reach memory once
// per run of groups.
//
// A histogram or counter kernel adds to a few hundred integers of one buffer
// from every work-item (`atomic_inc(&bins[data[i]])`), or from every group
// after a __local histogram (`atomic_add(&bins[b], hist[b])`). On a CPU each
// add is a `lock add` on a cache line that every core's adds pull back and
// forth; a million of them cost more than the rest of such a kernel. When
// nothing in the kernel reads those integers, no work-item can tell when an
// add reached memory, and the host reads them only after the launch: adds
// held back per thread and summed give the same result, in an order of the
// adds that the relaxed atomics allow.
//
//   atomicrmw volatile add ptr addrspace(1) %p, i32 %v monotonic  ; unused
//     ->  if (group->atomicCombiner == null)  atomicrmw ... (as before)
//         else {
//           entry = &combiner->entries[(p >> 2) % 512]
//           if (entry->key == p) entry->value += sext(v)
//           else __lockstep_atomic_combiner_miss(combiner, p, sext(v))
//         }
//
// (a 64-bit add's key is p | 1; a sub adds the negated value). An add to
// base + index * size whose index is below AtomicCombiner::kWindowEntries (a
// byte's bin: `bins[data[i]]`), base known at the function's entry, goes
// to the combiner's window instead, by index, without a key to compare:
//
//     window = __lockstep_atomic_combiner_window(combiner, base, wide)  ; entry
//     ...
//     if (window == null)  (the add above)
//     else                 window[index] += sext(v)
//
// (the window is one buffer's; null for another's, or without a combiner),
// and each loop of such adds tests the window once (CombinerWindow.cpp). Which buffer
// an access reaches is its underlying object: a load of a pointer argument
// from the argument block (at the argument's offset), or a parameter of a
// version that every call passes such a load (-O3's argument promotion),
// the group's scratch, a private array or a program-scope variable. An argument qualifies when
// every access whose object it may be is such an add (add or sub, integer,
// relaxed, result unused), in a kernel none of whose accesses has an object
// the scan cannot name (a pointer loaded from memory, made from an integer,
// or a parameter of a function the kernel calls that is not one of the
// work-group function's own). The work-group function gets kCombinedAtomicsAttr
// with the qualifying arguments' offsets; the runtime gives a launch a
// combiner only when no other argument's memory overlaps theirs and none is
// an SVM pointer (runtime/Kernel.cpp), else the adds go to memory as before.
// Versions of the kernel that -O3 left as functions of their own reach the
// group's GroupInfo through the parameter their caller passes it in. A
// version called through its slot (DeferVersions.cpp) is scanned where it
// is compiled, as a work-group function of its own, and combines only the
// arguments its kernel combines (kCombineOffsetsAttr).
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/MapVector.h>
#include <llvm/ADT/SetVector.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>

#include <set>

#include "CombinerTestVersioning.h"
#include "CombinerWindow.h"
#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-global-atomic-combining"

using namespace llvm;

LOCKSTEP_STATISTIC(NumAddsCombined, "Global atomic adds held back in the thread's atomic combiner");
LOCKSTEP_STATISTIC(NumKernelsCombined, "Kernels with arguments whose atomic adds are combined");

static cl::opt<bool> CombineGlobalAtomics("lockstep-combine-global-atomics", cl::init(true), cl::Hidden,
                                          cl::desc("Hold back global atomic adds whose results a kernel "
                                                   "ignores in a per-thread table"));


namespace lockstep::compiler {
namespace {

// What the runtime passes in a work-group function's parameters, and what
// -O3's argument promotion passes a version in place of the argument block:
// the pointer argument in one of its slots.
enum class Role : uint8_t { None, ArgumentBlock, GroupInfo, Scratch, Slot };
struct Binding {
  Role role = Role::None;
  uint64_t offset = 0;  // Slot: in the argument block
  bool operator==(const Binding &other) const { return role == other.role && offset == other.offset; }
};

// The memory an access may reach, from its underlying object.
struct Object {
  enum Kind : uint8_t { Unnamed, Own, Argument } kind;
  uint64_t offset = 0;  // Argument: in the argument block
};

class KernelScan {
 public:
  explicit KernelScan(Function &W) : W(W) {}

  // The functions the work-group function reaches and what their parameters
  // hold; false if it calls through a pointer.
  bool collect() {
    SetVector<Function *> reached;
    reached.insert(&W);
    for (size_t i = 0; i < reached.size(); ++i)
      for (Instruction &I : instructions(*reached[i]))
        if (auto *call = dyn_cast<CallBase>(&I)) {
          if (call->isInlineAsm()) return false;
          Function *callee = call->getCalledFunction();
          if (!callee && isVersionCall(*call)) continue;  // the version is combined on its own
          if (!callee) return false;
          if (!callee->isDeclaration()) reached.insert(callee);
        }
    functions.assign(reached.begin(), reached.end());
    if (W.arg_size() <= kContextParam) return false;  // not a work-group function's signature
    bindings[W.getArg(kArgBlockParam)] = {Role::ArgumentBlock};
    bindings[W.getArg(kGroupInfoParam)] = {Role::GroupInfo};
    bindings[W.getArg(kLocalMemoryParam)] = {Role::Scratch};
    bindings[W.getArg(kContextParam)] = {Role::Scratch};
    // A callee's parameter holds what every call passes it (callees of
    // callees: a few rounds settle them).
    for (int round = 0; round < 4; ++round)
      for (Function *G : functions) {
        if (G == &W) continue;
        for (Argument &param : G->args()) {
          std::optional<Binding> common;
          for (User *user : G->users()) {
            auto *call = dyn_cast<CallBase>(user);
            Binding here = call && call->getCalledFunction() == G ? bindingOf(call->getArgOperand(param.getArgNo()))
                                                                  : Binding{};
            common = !common || *common == here ? here : Binding{};
          }
          bindings[&param] = common.value_or(Binding{});
        }
      }
    return true;
  }

  Role roleOf(const Value *value) const { return bindingOf(value).role; }

  // A parameter's binding, or for a load of a slot of the argument block,
  // that slot.
  Binding bindingOf(const Value *value) const {
    if (auto found = bindings.find(value); found != bindings.end()) return found->second;
    if (auto *load = dyn_cast<LoadInst>(value)) {
      const DataLayout &layout = W.getParent()->getDataLayout();
      APInt offset(layout.getIndexTypeSizeInBits(load->getPointerOperandType()), 0);
      const Value *base = load->getPointerOperand()->stripAndAccumulateConstantOffsets(layout, offset, true);
      if (roleOf(base) == Role::ArgumentBlock && !offset.isNegative()) return {Role::Slot, offset.getZExtValue()};
    }
    return {};
  }

  Object classify(const Value *object) const {
    if (isa<AllocaInst, GlobalValue, ConstantPointerNull, UndefValue>(object)) return {Object::Own};
    Binding binding = bindingOf(object);
    if (binding.role == Role::Slot) return {Object::Argument, binding.offset};
    if (binding.role != Role::None) return {Object::Own};
    // A pointer the GroupInfo holds: the runtime's (GroupInfo::stop).
    if (auto *load = dyn_cast<LoadInst>(object);
        load && roleOf(getUnderlyingObject(load->getPointerOperand())) == Role::GroupInfo)
      return {Object::Own};
    return {Object::Unnamed};
  }

  // Every access's objects: arguments that a non-add touches are spoiled,
  // those only adds touch collect their adds.
  void scan() {
    for (Function *G : functions)
      for (Instruction &I : instructions(*G)) {
        if (auto *rmw = dyn_cast<AtomicRMWInst>(&I); rmw && isCombinable(*rmw)) {
          SmallVector<const Value *, 4> objects;
          getUnderlyingObjects(rmw->getPointerOperand(), objects, nullptr, 0);
          SmallVector<uint64_t, 2> offsets;
          for (const Value *object : objects)
            if (Object found = classify(object); found.kind == Object::Argument) offsets.push_back(found.offset);
          if (!objects.empty() && offsets.size() == objects.size()) {
            adds.push_back({rmw, std::move(offsets)});
            continue;
          }
        }
        if (!I.mayReadOrWriteMemory() && !isa<CallBase>(I)) continue;
        // A call of a function of the kernel's own: its accesses are scanned
        // where they are, through the parameters' bindings.
        if (auto *call = dyn_cast<CallBase>(&I);
            call && (isVersionCall(*call) || !call->getCalledFunction()->isDeclaration()))
          continue;
        if (auto *intrinsic = dyn_cast<IntrinsicInst>(&I))
          if (intrinsic->isAssumeLikeIntrinsic() || intrinsic->getIntrinsicID() == Intrinsic::prefetch ||
              isa<DbgInfoIntrinsic>(intrinsic))
            continue;
        for (Value *operand : I.operands())
          if (operand->getType()->isPtrOrPtrVectorTy()) touch(operand);
      }
  }

  // An atomic add and the arguments whose memory it may reach.
  struct Add {
    AtomicRMWInst *rmw;
    SmallVector<uint64_t, 2> offsets;
  };
  // The adds that may be combined: every argument they may reach is touched
  // by adds alone, in a kernel whose every access is named.
  SmallVector<Add, 8> combinable() const {
    SmallVector<Add, 8> found;
    if (unnamed) return found;
    for (const Add &add : adds)
      if (none_of(add.offsets, [&](uint64_t offset) { return spoiled.contains(offset); })) found.push_back(add);
    return found;
  }

  // The parameter of `G` that holds the group's GroupInfo, or null.
  Argument *groupInfo(Function &G) const {
    for (Argument &param : G.args())
      if (roleOf(&param) == Role::GroupInfo) return &param;
    return nullptr;
  }

  Function &W;

 private:
  static bool isCombinable(const AtomicRMWInst &rmw) {
    if (rmw.getOperation() != AtomicRMWInst::Add && rmw.getOperation() != AtomicRMWInst::Sub) return false;
    Type *type = rmw.getType();
    return rmw.use_empty() && rmw.getOrdering() == AtomicOrdering::Monotonic &&
           (type->isIntegerTy(32) || type->isIntegerTy(64)) &&
           rmw.getPointerAddressSpace() != kLocalAddressSpace;
  }

  // What a vector of pointers is made of: a vector GEP's base, or the one
  // pointer a splat repeats (getUnderlyingObject stops at any vector).
  static const Value *objectOfLanes(const Value *lanes) {
    while (auto *gep = dyn_cast<GEPOperator>(lanes)) lanes = gep->getPointerOperand();
    if (lanes->getType()->isVectorTy()) {
      const Value *splat = getSplatValue(lanes);
      if (!splat) return lanes;
      lanes = splat;
    }
    return getUnderlyingObject(lanes, 0);
  }

  void touch(const Value *pointer) {
    SmallVector<const Value *, 4> objects;
    if (pointer->getType()->isVectorTy()) {
      // A gather's or scatter's pointers.
      objects.push_back(objectOfLanes(pointer));
    } else {
      getUnderlyingObjects(pointer, objects, nullptr, 0);
    }
    // A lane of a vector of pointers (SpacedAccessesPass stores a scatter's
    // evenly spaced lanes through its first).
    for (const Value *&object : objects)
      if (auto *lane = dyn_cast<ExtractElementInst>(object); lane && lane->getType()->isPointerTy())
        object = objectOfLanes(lane->getVectorOperand());
    for (const Value *object : objects) {
      Object found = classify(object);
      if (found.kind == Object::Unnamed) unnamed = true;
      if (found.kind == Object::Argument) spoiled.insert(found.offset);
    }
  }

  std::vector<Function *> functions;
  DenseMap<const Value *, Binding> bindings;
  SmallVector<Add, 8> adds;
  DenseSet<uint64_t> spoiled;
  bool unnamed = false;
};

// The add at `rmw`, through the combiner when there is one.
BranchInst *combine(AtomicRMWInst *rmw, Value *combiner, FunctionCallee miss) {
  LLVMContext &context = rmw->getContext();
  Type *i64 = Type::getInt64Ty(context);
  BasicBlock *head = rmw->getParent();
  BasicBlock *tail = head->splitBasicBlock(rmw->getIterator(), "combine.done");
  Function *F = head->getParent();
  auto *direct = BasicBlock::Create(context, "combine.direct", F, tail);
  auto *lookup = BasicBlock::Create(context, "combine.lookup", F, tail);
  auto *hit = BasicBlock::Create(context, "combine.hit", F, tail);
  auto *missed = BasicBlock::Create(context, "combine.miss", F, tail);
  MDBuilder weights(context);

  head->getTerminator()->eraseFromParent();
  IRBuilder<> builder(head);
  BranchInst *test = builder.CreateCondBr(builder.CreateIsNull(combiner, "combine.none"), direct, lookup,
                                          weights.createUnlikelyBranchWeights());
  rmw->moveBefore(BranchInst::Create(tail, direct));

  builder.SetInsertPoint(lookup);
  Value *address = builder.CreatePtrToInt(rmw->getPointerOperand(), i64);
  Value *key = rmw->getType()->isIntegerTy(64) ? builder.CreateOr(address, 1) : address;
  Value *slot = builder.CreateAnd(builder.CreateLShr(address, 2), AtomicCombiner::kEntries - 1);
  auto *entryType = StructType::get(i64, i64);
  Value *entry = builder.CreateGEP(entryType, combiner, slot, "combine.entry");
  Value *delta = builder.CreateSExt(rmw->getValOperand(), i64);
  if (rmw->getOperation() == AtomicRMWInst::Sub) delta = builder.CreateNeg(delta);
  Value *found = builder.CreateICmpEQ(builder.CreateLoad(i64, entry, "combine.key"), key);
  builder.CreateCondBr(found, hit, missed, weights.createLikelyBranchWeights());

  builder.SetInsertPoint(hit);
  Value *valueAddress = builder.CreateConstGEP2_32(entryType, entry, 0, 1);
  builder.CreateStore(builder.CreateAdd(builder.CreateLoad(i64, valueAddress), delta), valueAddress);
  builder.CreateBr(tail);

  builder.SetInsertPoint(missed);
  builder.CreateCall(miss, {combiner, key, delta});
  builder.CreateBr(tail);
  ++NumAddsCombined;
  return test;
}

bool combineKernel(Function &W) {
  KernelScan scan(W);
  if (!scan.collect()) return false;
  scan.scan();
  SmallVector<KernelScan::Add, 8> adds = scan.combinable();
  // A deferred version (LazyVersions.cpp) combines only what its kernel does.
  if (W.hasFnAttribute(kCombineOffsetsAttr)) {
    SmallVector<StringRef, 4> listed;
    W.getFnAttribute(kCombineOffsetsAttr).getValueAsString().split(listed, ',', -1, false);
    std::set<uint64_t> allowed;
    for (StringRef text : listed)
      if (uint64_t offset; !text.getAsInteger(10, offset)) allowed.insert(offset);
    erase_if(adds, [&](const KernelScan::Add &add) {
      return any_of(add.offsets, [&](uint64_t offset) { return !allowed.count(offset); });
    });
  }
  if (adds.empty()) return false;

  Module &M = *W.getParent();
  LLVMContext &context = M.getContext();
  auto *ptr = PointerType::get(context, 0);
  FunctionCallee miss = M.getOrInsertFunction(
      kAtomicCombinerMissSymbol,
      FunctionType::get(Type::getVoidTy(context), {ptr, Type::getInt64Ty(context), Type::getInt64Ty(context)}, false));
  DenseMap<Function *, Value *> combiners;
  MapVector<Function *, SmallVector<BranchInst *, 8>> tests;
  CombinerWindows windows(M);
  std::set<uint64_t> offsets;
  for (const KernelScan::Add &add : adds) {
    Function &G = *add.rmw->getFunction();
    Argument *group = scan.groupInfo(G);
    if (!group) continue;  // a function that cannot reach the GroupInfo: adds as before
    Value *&combiner = combiners[&G];
    if (!combiner) {
      IRBuilder<> entry(&*G.getEntryBlock().getFirstInsertionPt());
      combiner = loadGroupInfo(entry, group, kAtomicCombiner);
    }
    windows.route(add.rmw, combiner);
    tests[&G].push_back(combine(add.rmw, combiner, miss));
    offsets.insert(add.offsets.begin(), add.offsets.end());
  }
  if (offsets.empty()) return false;
  for (auto &[G, functionTests] : tests) versionLoopsOnCombiner(*G, combiners[G], functionTests);
  // Then, in the copies with a combiner, on the window.
  windows.versionLoops();
  std::string list;
  for (uint64_t offset : offsets) list += (list.empty() ? "" : ",") + std::to_string(offset);
  LLVM_DEBUG(dbgs() << W.getName() << ": atomic adds to the arguments at " << list << " combined\n");
  W.addFnAttr(kCombinedAtomicsAttr, list);
  ++NumKernelsCombined;
  return true;
}

}  // namespace

PreservedAnalyses GlobalAtomicCombiningPass::run(Module &M, ModuleAnalysisManager &) {
  if (!CombineGlobalAtomics) return PreservedAnalyses::all();
  bool changed = false;
  for (Function &F : M)
    if (!F.isDeclaration() && !F.hasLocalLinkage() &&
        (F.hasFnAttribute(kKernelNameAttr) || F.hasFnAttribute(kCombineOffsetsAttr)))
      changed |= combineKernel(F);
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

// BoundsCheckPass (LOCKSTEP_CHECK_BOUNDS): every access a work-group function
// makes to a buffer is checked against the buffer's size, before it happens.
//
// It runs on the work-group function while its body is still the code of
// one work-item (after KernelWrapperPass, which in this mode also inlines
// every function that takes or returns a non-private pointer, so that each
// address can be followed to where it came from). For each load, store,
// atomic and memory intrinsic it follows the address back through GEPs,
// casts, phis and selects to the objects it may point into:
//
//   - a buffer, __constant or __local argument: the wrapper handed it over
//     through a marker call (kBufferMarker) that names the argument; its
//     size is in the argument block, where the runtime wrote it
//     (KernelDescription::argumentSizesOffset);
//   - a kernel-scope __local variable or a program-scope variable: its size
//     is its type's.
//
// The access is in bounds when its byte offset from one of those objects'
// start is below size - (access bytes - 1), one unsigned compare (negative
// offsets wrap to huge ones):
//
//   %off = sub i64 (ptrtoint %p), (ptrtoint %base)
//   %ok  = icmp ult i64 %off, usub.sat(%size, bytes - 1)
//   br %ok, label %access, label %report      (weights: in bounds is likely)
//
// Outside, the access is not made: the kernel calls
// __lockstep_report_out_of_bounds with a text naming the kernel, the source
// line (the build has line tables in this mode), the access and the
// argument, and with the offset, the size and the work-item's global id;
// the runtime prints it, leaves the work-group there and ends the launch
// with CL_OUT_OF_RESOURCES (CheckReports.cpp: runCheckedGroup,
// takeKernelFailure). To the compiler the report returns and a load outside
// gives zero: the work-group passes and LLVM's loop passes see an ordinary
// diamond in a loop with one exit.
//
// The branch is marked (kBoundsCheckMetadata): BoundsCheckVersioningPass
// takes such checks out of the work-item loops once those exist, so that
// the loops still widen.
//
// Not checked (counted as unchecked): accesses through addresses that come
// from memory (a pointer stored in a buffer) or from private memory, and
// calls of functions the kernel does not define. The marker calls are
// removed at the end.
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-bounds-check"

using namespace llvm;

LOCKSTEP_STATISTIC(NumChecked, "Accesses checked against the bounds of their buffer");
LOCKSTEP_STATISTIC(NumUnchecked, "Accesses whose buffer is unknown, left unchecked");

namespace lockstep::compiler {
namespace {

// An object an address may point into.
struct Extent {
  Value *base;  // its start, as i64; or the variable itself
  Value *size;  // its bytes, as i64
  std::string name;
};

// One memory access: its address, its bytes (constant or not) and what it
// does, for the report.
struct Access {
  Instruction *instruction;
  Value *pointer;
  Value *bytes;
  std::string what;
};

class Instrumenter {
 public:
  explicit Instrumenter(Function &F)
      : F(F), M(*F.getParent()), layout(M.getDataLayout()), prologue(F.getEntryBlock().getTerminator()) {
    sizesOffset = functionAttrNumber(F, kCheckBoundsAttr);
    Type *i64 = Type::getInt64Ty(F.getContext());
    Type *ptr = PointerType::get(F.getContext(), 0);
    report = M.getOrInsertFunction(kOutOfBoundsSymbol,
                                   FunctionType::get(Type::getVoidTy(F.getContext()), {ptr, i64, i64, i64, i64, i64}, false));
    if (auto *callee = dyn_cast<Function>(report.getCallee())) {
      callee->setDoesNotThrow();
      callee->addFnAttr(Attribute::Cold);
    }
    globalId = M.getOrInsertFunction("_Z13get_global_idj", FunctionType::get(i64, {Type::getInt32Ty(F.getContext())}, false));
  }

  void run() {
    SmallVector<Access, 32> accesses;
    for (Instruction &I : instructions(F)) collect(I, accesses);
    for (Access &access : accesses) check(access);
  }

 private:
  void collect(Instruction &I, SmallVectorImpl<Access> &out) {
    auto add = [&](Value *pointer, Type *type, const char *what) {
      if (pointer->getType()->getPointerAddressSpace() == 0) return;  // private
      uint64_t bytes = layout.getTypeStoreSize(type);
      out.push_back({&I, pointer, ConstantInt::get(Type::getInt64Ty(F.getContext()), bytes),
                     std::to_string(bytes) + "-byte " + what});
    };
    if (auto *load = dyn_cast<LoadInst>(&I)) add(load->getPointerOperand(), load->getType(), "load");
    else if (auto *store = dyn_cast<StoreInst>(&I))
      add(store->getPointerOperand(), store->getValueOperand()->getType(), "store");
    else if (auto *rmw = dyn_cast<AtomicRMWInst>(&I))
      add(rmw->getPointerOperand(), rmw->getValOperand()->getType(), "atomic");
    else if (auto *cmpxchg = dyn_cast<AtomicCmpXchgInst>(&I))
      add(cmpxchg->getPointerOperand(), cmpxchg->getCompareOperand()->getType(), "atomic compare-exchange");
    else if (auto *intrinsic = dyn_cast<MemIntrinsic>(&I)) {
      Value *length = intrinsic->getLength();
      Type *i64 = Type::getInt64Ty(F.getContext());
      IRBuilder<> builder(&I);
      Value *bytes = builder.CreateZExtOrTrunc(length, i64);
      auto addRange = [&](Value *pointer, const char *what) {
        if (pointer->getType()->getPointerAddressSpace() != 0) out.push_back({&I, pointer, bytes, what});
      };
      addRange(intrinsic->getRawDest(), isa<MemSetInst>(intrinsic) ? "fill" : "copy's store");
      if (auto *transfer = dyn_cast<MemTransferInst>(intrinsic)) addRange(transfer->getRawSource(), "copy's load");
    }
  }

  // The extent of an underlying object, or nullopt if it is none we know.
  std::optional<Extent> extentOf(Value *object) {
    if (auto found = extents.find(object); found != extents.end()) return found->second;
    std::optional<Extent> extent;
    IRBuilder<> builder(prologue);
    Type *i64 = builder.getInt64Ty();
    if (auto *call = dyn_cast<CallInst>(object)) {
      Function *callee = call->getCalledFunction();
      if (callee && callee->getName() == kBufferMarker && call->getFunction() == &F) {
        builder.SetInsertPoint(call->getNextNode());
        auto index = cast<ConstantInt>(call->getArgOperand(1))->getZExtValue();
        Value *slot = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), F.getArg(kArgBlockParam),
                                                         sizesOffset + index * sizeof(uint64_t));
        LoadInst *size = builder.CreateAlignedLoad(i64, slot, Align(sizeof(uint64_t)), "bytes");
        size->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(F.getContext(), {}));
        StringRef name;
        if (MDNode *node = call->getMetadata(kBufferMarker)) name = cast<MDString>(node->getOperand(0))->getString();
        extent = Extent{builder.CreatePtrToInt(call, i64), size, name.str()};
      }
    } else if (auto *global = dyn_cast<GlobalVariable>(object)) {
      unsigned space = global->getAddressSpace();
      if ((space == 1 || space == 2 || space == kLocalAddressSpace) && global->getValueType()->isSized()) {
        uint64_t bytes = layout.getTypeAllocSize(global->getValueType());
        std::string name = (space == kLocalAddressSpace ? "__local variable '" : "program-scope variable '") +
                           global->getName().str() + "'";
        // Its start is taken where it is checked (check()):
        // LocalMemoryLayoutPass replaces a __local variable by an address
        // in the group's __local memory computed after the prologue.
        extent = Extent{global, builder.getInt64(bytes), name};
      }
    }
    extents[object] = extent;
    return extent;
  }

  void check(const Access &access) {
    SmallVector<const Value *, 4> objects;
    getUnderlyingObjects(access.pointer, objects, nullptr, 0);
    SmallVector<Extent, 2> candidates;
    for (const Value *object : objects) {
      std::optional<Extent> extent = extentOf(const_cast<Value *>(object));
      if (!extent) {
        ++NumUnchecked;
        LLVM_DEBUG(dbgs() << "unchecked (unknown object " << *object << "): " << *access.instruction << "\n");
        return;
      }
      candidates.push_back(*extent);
    }
    if (candidates.empty()) return;
    ++NumChecked;
    Instruction *I = access.instruction;
    IRBuilder<> builder(I);
    Type *i64 = builder.getInt64Ty();
    Value *address = builder.CreatePtrToInt(access.pointer, i64);
    Value *ok = nullptr;
    Value *firstOffset = nullptr;
    auto *constantBytes = dyn_cast<ConstantInt>(access.bytes);
    for (const Extent &extent : candidates) {
      Value *base = extent.base;
      if (isa<GlobalVariable>(base)) base = builder.Insert(new PtrToIntInst(base, i64), "base");
      Value *offset = builder.CreateSub(address, base, "offset");
      if (!firstOffset) firstOffset = offset;
      Value *inside;
      if (constantBytes) {
        // offset + bytes <= size, as offset < size - (bytes - 1).
        uint64_t slack = std::max<uint64_t>(constantBytes->getZExtValue(), 1) - 1;
        Value *limit = builder.CreateBinaryIntrinsic(Intrinsic::usub_sat, extent.size, builder.getInt64(slack));
        inside = builder.CreateICmpULT(offset, limit);
      } else {
        // Empty copies and fills touch nothing.
        Value *fits = builder.CreateAnd(builder.CreateICmpULE(offset, extent.size),
                                        builder.CreateICmpULE(access.bytes, builder.CreateSub(extent.size, offset)));
        inside = builder.CreateOr(builder.CreateICmpEQ(access.bytes, builder.getInt64(0)), fits);
      }
      ok = ok ? builder.CreateOr(ok, inside) : inside;
    }
    Instruction *thenTerm = nullptr, *elseTerm = nullptr;
    MDNode *weights = MDBuilder(F.getContext()).createLikelyBranchWeights();
    SplitBlockAndInsertIfThenElse(ok, I, &thenTerm, &elseTerm, weights);
    BasicBlock *tail = I->getParent();
    tail->setName("checked");
    thenTerm->getParent()->getSinglePredecessor()->getTerminator()->setMetadata(
        kBoundsCheckMetadata, MDNode::get(F.getContext(), {}));
    thenTerm->getParent()->setName("in.bounds");
    elseTerm->getParent()->setName("out.of.bounds");
    I->moveBefore(thenTerm);
    // The report, in the skipped access's place.
    IRBuilder<> fail(elseTerm);
    fail.SetCurrentDebugLocation(I->getDebugLoc());
    Value *ids[3];
    for (unsigned d = 0; d < 3; ++d) ids[d] = fail.CreateCall(globalId, {fail.getInt32(d)});
    std::string names;
    for (const Extent &extent : candidates) names += (names.empty() ? "" : " or ") + extent.name;
    std::string text = "in kernel '" + F.getFnAttribute(kKernelNameAttr).getValueAsString().str() + "', the " +
                       access.what + location(*I) + " to " + names;
    Value *site = fail.CreateGlobalStringPtr(text, "bounds.site", 0, &M);
    Value *firstSize = candidates.front().size;
    fail.CreateCall(report, {site, firstOffset, firstSize, ids[0], ids[1], ids[2]});
    // A skipped load or atomic gives zero.
    if (!I->getType()->isVoidTy()) {
      IRBuilder<> join(&*tail->getFirstInsertionPt());
      PHINode *value = join.CreatePHI(I->getType(), 2);
      I->replaceAllUsesWith(value);
      value->addIncoming(I, thenTerm->getParent());
      value->addIncoming(Constant::getNullValue(I->getType()), elseTerm->getParent());
    }
  }

  // " at file:line:col" from the access's debug location, if it has one.
  static std::string location(const Instruction &I) {
    const DebugLoc &loc = I.getDebugLoc();
    if (!loc) return "";
    std::string file = loc->getFilename().str();
    if (file.empty()) file = "<source>";
    return " at " + file + ":" + std::to_string(loc.getLine()) + ":" + std::to_string(loc.getCol());
  }

  Function &F;
  Module &M;
  const DataLayout &layout;
  Instruction *prologue;
  uint64_t sizesOffset = 0;
  FunctionCallee report;
  FunctionCallee globalId;
  DenseMap<Value *, std::optional<Extent>> extents;
};

}  // namespace

PreservedAnalyses BoundsCheckPass::run(Module &M, ModuleAnalysisManager &) {
  bool changed = false;
  for (Function &F : M)
    if (!F.isDeclaration() && F.hasFnAttribute(kKernelNameAttr) && F.hasFnAttribute(kCheckBoundsAttr)) {
      Instrumenter(F).run();
      changed = true;
    }
  // The markers go: each gives back its address.
  if (Function *marker = M.getFunction(kBufferMarker)) {
    for (User *user : make_early_inc_range(marker->users())) {
      auto *call = cast<CallInst>(user);
      call->replaceAllUsesWith(call->getArgOperand(0));
      call->eraseFromParent();
    }
    marker->eraseFromParent();
    changed = true;
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

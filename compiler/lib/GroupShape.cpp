// GroupShapePass, before the work-item functions become GroupInfo reads:
// what shape of work-group suits a kernel, and whether the kernel could tell
// one shape from another.
//
// Shape. A group runs its work-items row by row, x fastest. Each global
// access of the kernel has a slope along x: how far its address moves when
// get_global_id(0) grows by one, read from the address's arithmetic (sums,
// products with values the same for every work-item, shifts, extensions
// and truncations of `int` indices, GEPs, clamps such as max(x - 1, 0)).
//
//   in[y * W + x], out[y * W + x]    slopes 4, 4            -> rows
//   out[x * H + y] = in[y * W + x]   slopes 4 * H (unknown  -> columns
//                                    at compile time), 4
//
// Rows (every slope small: 0 to kRowSlopeBytes): a group a few rows tall and
// wide along x streams whole rows; a 16 x 16 group of a 4096-wide stencil
// keeps 34 short streams going (16 rows in, 2 of halo, 16 out), more than the
// hardware prefetchers follow (20 GB/s against 30-33 for 256 x 4 on a
// 2-core EPYC). Columns (some slope a row's pitch or more): a narrow, tall
// group walks down its columns, the accesses along y consecutive (a naive
// transpose: 2.3 GB/s at 1024 x 1, 5.2-7.7 at 16 x 64). A slope the pass
// cannot read (an index loaded from memory, a hash) leaves the kernel
// without a shape. Recorded as kGroupShapeAttr ("rows" or "columns"); the
// runtime's choice of a NULL local size follows it.
//
// Free. A kernel that never asks for its group (no local or group id, local
// size, group count, sub-group query, barrier or collective, no __local
// memory, no device-side enqueue, no atomic or fence narrower than the
// device) computes the same results under any shape of group: what its
// work-items share is global memory, at device scope. Recorded as
// kGroupFreeAttr; the runtime may then run a launch in the groups of its
// shape rather than the local size the application gave (a 16 x 16 local
// size is written by habit in many host programs whose kernels use only
// get_global_id).
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>

#include "Analysis/OpenCLNames.h"
#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-group-shape"

using namespace llvm;

LOCKSTEP_STATISTIC(NumRows, "Kernels whose accesses run along x (groups of rows)");
LOCKSTEP_STATISTIC(NumColumns, "Kernels with an access down a column (narrow, tall groups)");
LOCKSTEP_STATISTIC(NumFree, "Kernels that cannot observe the shape of their groups");

static cl::opt<unsigned> RowSlopeBytes(
    "lockstep-group-shape-row-slope", cl::init(256), cl::Hidden,
    cl::desc("The largest slope along x, in bytes, of an access that still runs along a row"));

static cl::opt<bool> GroupShapes("lockstep-group-shapes", cl::init(true), cl::Hidden,
                                 cl::desc("Record the group shape each kernel suits and whether it is free "
                                          "to run in any (off: the runtime keeps the local size it is given)"));

namespace lockstep::compiler {
namespace {

// How an address moves when get_global_id(0) grows by one.
struct Slope {
  enum Kind : uint8_t { Zero, Constant, Symbolic, Unknown, Pending } kind = Zero;
  int64_t bytes = 0;  // Constant's

  static Slope zero() { return {}; }
  static Slope constant(int64_t bytes) { return bytes == 0 ? zero() : Slope{Constant, bytes}; }
  static Slope symbolic() { return {Symbolic, 0}; }
  static Slope unknown() { return {Unknown, 0}; }
  bool operator==(const Slope &other) const { return kind == other.kind && bytes == other.bytes; }
};

Slope add(Slope a, Slope b, bool subtract = false) {
  if (a.kind == Slope::Unknown || b.kind == Slope::Unknown) return Slope::unknown();
  if (b.kind == Slope::Zero || b.kind == Slope::Pending) return a.kind == Slope::Pending ? Slope::zero() : a;
  if (a.kind == Slope::Zero || a.kind == Slope::Pending) {
    if (b.kind == Slope::Constant) return Slope::constant(subtract ? -b.bytes : b.bytes);
    return b;
  }
  if (a.kind == Slope::Constant && b.kind == Slope::Constant)
    return Slope::constant(subtract ? a.bytes - b.bytes : a.bytes + b.bytes);
  return Slope::symbolic();
}

Slope scale(Slope a, const Value *factor) {
  if (a.kind != Slope::Constant && a.kind != Slope::Symbolic) return a;
  if (auto *constant = dyn_cast<ConstantInt>(factor)) {
    if (a.kind == Slope::Symbolic || constant->getBitWidth() > 64) return Slope::symbolic();
    int64_t product;
    if (__builtin_mul_overflow(a.bytes, constant->getSExtValue(), &product)) return Slope::symbolic();
    return Slope::constant(product);
  }
  return Slope::symbolic();  // times a value the work-items share
}

// Two values one of which the work-item takes (a phi's incoming values, a
// select's arms): the slope both have, else unknown.
Slope merge(Slope a, Slope b) {
  if (a.kind == Slope::Pending) return b;
  if (b.kind == Slope::Pending) return a;
  return a == b ? a : Slope::unknown();
}

bool isGlobalId(const CallBase &call, unsigned &dim) {
  const Function *callee = call.getCalledFunction();
  if (!callee) return false;
  if (callee->getName() == "_Z20get_global_linear_idv") return dim = 0, true;
  if (callee->getName() != "_Z13get_global_idj") return false;
  auto *constant = dyn_cast<ConstantInt>(call.getArgOperand(0));
  if (!constant) return dim = 3, true;  // a dimension known at run time
  dim = unsigned(std::min<uint64_t>(constant->getZExtValue(), 3));
  return true;
}

// The slopes of one function's values; a function F calls is read with the
// slopes of its call's arguments bound to its parameters.
class SlopeReader {
 public:
  SlopeReader(const DataLayout &layout, DenseMap<const Argument *, Slope> parameters = DenseMap<const Argument *, Slope>(),
              unsigned callDepth = 0)
      : layout(layout), parameters(std::move(parameters)), callDepth(callDepth) {}

  static constexpr unsigned kMaxCallDepth = 4;

  Slope of(const Value *value, unsigned depth = 0) {
    if (auto *parameter = dyn_cast<Argument>(value)) {
      auto found = parameters.find(parameter);
      return found == parameters.end() ? Slope::zero() : found->second;
    }
    auto *I = dyn_cast<Instruction>(value);
    if (!I) return Slope::zero();  // constants, globals
    if (auto found = slopes.find(I); found != slopes.end()) return found->second;
    if (depth > kMaxDepth) return Slope::unknown();
    slopes[I] = Slope{Slope::Pending, 0};
    Slope slope = compute(*I, depth + 1);
    slopes[I] = slope;
    return slope;
  }

 private:
  static constexpr unsigned kMaxDepth = 48;

  Slope compute(const Instruction &I, unsigned depth) {
    if (auto *call = dyn_cast<CallBase>(&I)) {
      unsigned dim;
      if (isGlobalId(*call, dim)) return dim == 0 ? Slope::constant(1) : dim < 3 ? Slope::zero() : Slope::unknown();
      if (auto *intrinsic = dyn_cast<IntrinsicInst>(call)) {
        switch (intrinsic->getIntrinsicID()) {
          case Intrinsic::smax:
          case Intrinsic::smin:
          case Intrinsic::umax:
          case Intrinsic::umin: {
            // A clamp at an edge: the slope of the operand that moves.
            Slope a = of(call->getArgOperand(0), depth), b = of(call->getArgOperand(1), depth);
            if (a.kind == Slope::Zero) return b;
            if (b.kind == Slope::Zero) return a;
            return merge(a, b);
          }
          default: break;
        }
      }
      if (const Function *callee = call->getCalledFunction();
          callee && !callee->isDeclaration() && !callee->getReturnType()->isVoidTy() && callDepth < kMaxCallDepth)
        return returned(*call, *callee, depth);
      return sameForAll(I, depth);
    }
    switch (I.getOpcode()) {
      case Instruction::Add: return add(of(I.getOperand(0), depth), of(I.getOperand(1), depth));
      case Instruction::Sub: return add(of(I.getOperand(0), depth), of(I.getOperand(1), depth), true);
      case Instruction::Or:
        // An `or` of disjoint bits is an add (InstCombine writes x * 2 + 1
        // so).
        if (cast<PossiblyDisjointInst>(I).isDisjoint())
          return add(of(I.getOperand(0), depth), of(I.getOperand(1), depth));
        return sameForAll(I, depth);
      case Instruction::Mul: {
        Slope a = of(I.getOperand(0), depth), b = of(I.getOperand(1), depth);
        if (b.kind == Slope::Zero) return scale(a, I.getOperand(1));
        if (a.kind == Slope::Zero) return scale(b, I.getOperand(0));
        return Slope::unknown();
      }
      case Instruction::Shl: {
        auto *amount = dyn_cast<ConstantInt>(I.getOperand(1));
        if (!amount || amount->getZExtValue() >= 62) return sameForAll(I, depth);
        return scale(of(I.getOperand(0), depth), ConstantInt::get(I.getOperand(1)->getType(), 1ull << amount->getZExtValue()));
      }
      case Instruction::AShr:
      case Instruction::LShr: {
        // (x << 32) >> 32: InstCombine's sign or zero extension of an `int`
        // index in 64 bits.
        auto *shl = dyn_cast<BinaryOperator>(I.getOperand(0));
        if (shl && shl->getOpcode() == Instruction::Shl && shl->getOperand(1) == I.getOperand(1))
          return of(shl->getOperand(0), depth);
        return sameForAll(I, depth);
      }
      case Instruction::And: {
        // x & 0xffffffff: an unsigned index's zero extension.
        auto *mask = dyn_cast<ConstantInt>(I.getOperand(1));
        if (mask && mask->getValue().isMask() && mask->getValue().countr_one() >= 16)
          return of(I.getOperand(0), depth);
        return sameForAll(I, depth);
      }
      case Instruction::SExt:
      case Instruction::ZExt:
      case Instruction::Trunc:
      case Instruction::BitCast:
      case Instruction::AddrSpaceCast:
      case Instruction::PtrToInt:
      case Instruction::IntToPtr: return of(I.getOperand(0), depth);
      case Instruction::GetElementPtr: return gep(cast<GetElementPtrInst>(I), depth);
      case Instruction::PHI: {
        Slope slope{Slope::Pending, 0};
        for (const Value *incoming : cast<PHINode>(I).incoming_values()) slope = merge(slope, of(incoming, depth));
        return slope;
      }
      case Instruction::Select: {
        // A clamp (x > 0 ? x - 1 : 0) moves as its arm that moves.
        Slope a = of(I.getOperand(1), depth), b = of(I.getOperand(2), depth);
        if (a.kind == Slope::Zero) return b;
        if (b.kind == Slope::Zero) return a;
        return merge(a, b);
      }
      default: return sameForAll(I, depth);
    }
  }

  Slope gep(const GetElementPtrInst &gep, unsigned depth) {
    Slope slope = of(gep.getPointerOperand(), depth);
    for (gep_type_iterator it = gep_type_begin(gep), end = gep_type_end(gep); it != end; ++it) {
      if (it.isStruct()) continue;  // a constant field offset
      Slope index = of(it.getOperand(), depth);
      if (index.kind == Slope::Zero || index.kind == Slope::Pending) continue;
      uint64_t size = it.getSequentialElementStride(layout).getFixedValue();
      slope = add(slope, scale(index, ConstantInt::get(Type::getInt64Ty(gep.getContext()), size)));
    }
    return slope;
  }

  // What a function returns (an index helper, the builtins' max and
  // clamp), its parameters bound to the slopes of the call's arguments.
  Slope returned(const CallBase &call, const Function &callee, unsigned depth) {
    DenseMap<const Argument *, Slope> bound;
    bool moves = false;
    for (unsigned i = 0; i < call.arg_size() && i < callee.arg_size(); ++i) {
      Slope slope = of(call.getArgOperand(i), depth);
      if (slope.kind == Slope::Pending) slope = Slope::zero();
      moves |= slope.kind != Slope::Zero;
      bound[callee.getArg(i)] = slope;
    }
    // Of arguments every work-item shares, the same for all (a function
    // that asks for the work-item is inlined by now).
    if (!moves) return Slope::zero();
    SlopeReader inner(layout, std::move(bound), callDepth + 1);
    Slope slope{Slope::Pending, 0};
    for (const BasicBlock &block : callee)
      if (auto *ret = dyn_cast<ReturnInst>(block.getTerminator()); ret && ret->getReturnValue())
        slope = merge(slope, inner.of(ret->getReturnValue()));
    return slope.kind == Slope::Pending ? Slope::zero() : slope;
  }

  // Anything else: the same for every work-item when its operands are (a
  // load from an address the work-items share), else unknown.
  Slope sameForAll(const Instruction &I, unsigned depth) {
    for (const Value *operand : I.operands()) {
      Slope slope = of(operand, depth);
      if (slope.kind != Slope::Zero && slope.kind != Slope::Pending) return Slope::unknown();
    }
    return Slope::zero();
  }

  const DataLayout &layout;
  DenseMap<const Argument *, Slope> parameters;
  unsigned callDepth;
  DenseMap<const Instruction *, Slope> slopes;
};

bool isGlobalSpace(unsigned space) { return space == 1 || space == 2 || space == 4; }

// The address of a global access of memory, or null.
const Value *globalAddress(const Instruction &I) {
  const Value *pointer = nullptr;
  if (auto *load = dyn_cast<LoadInst>(&I)) pointer = load->getPointerOperand();
  else if (auto *store = dyn_cast<StoreInst>(&I)) pointer = store->getPointerOperand();
  else if (auto *rmw = dyn_cast<AtomicRMWInst>(&I)) pointer = rmw->getPointerOperand();
  else if (auto *cmpxchg = dyn_cast<AtomicCmpXchgInst>(&I)) pointer = cmpxchg->getPointerOperand();
  return pointer && isGlobalSpace(pointer->getType()->getPointerAddressSpace()) ? pointer : nullptr;
}

enum class Shape { None, Rows, Columns };

// Reads the slopes of a function's global accesses, and of the functions it
// calls with their arguments' slopes (kMaxCallDepth deep; a call deeper, or
// of a function not defined here, that takes a moving argument: none).
class ShapeScan {
 public:
  explicit ShapeScan(const DataLayout &layout) : layout(layout) {}

  Shape run(const Function &F) {
    scan(F, DenseMap<const Argument *, Slope>(), 0);
    return unknown ? Shape::None : column ? Shape::Columns : Shape::Rows;
  }

 private:
  static constexpr unsigned kMaxCallDepth = SlopeReader::kMaxCallDepth;

  void scan(const Function &F, DenseMap<const Argument *, Slope> parameters, unsigned depth) {
    SlopeReader reader(layout, std::move(parameters), depth);
    for (const Instruction &I : instructions(F)) {
      if (unknown) return;
      if (auto *call = dyn_cast<CallBase>(&I)) {
        if (!isa<IntrinsicInst>(call)) this->call(*call, reader, depth);
        continue;
      }
      if (const Value *address = globalAddress(I)) access(reader.of(address), I);
    }
  }

  void call(const CallBase &call, SlopeReader &reader, unsigned depth) {
    DenseMap<const Argument *, Slope> bound;
    bool moves = false, pointer = false;
    const Function *callee = call.getCalledFunction();
    for (unsigned i = 0; i < call.arg_size(); ++i) {
      const Value *arg = call.getArgOperand(i);
      Slope slope = reader.of(arg);
      if (slope.kind == Slope::Pending) slope = Slope::zero();
      moves |= slope.kind != Slope::Zero;
      pointer |= arg->getType()->isPointerTy() && isGlobalSpace(arg->getType()->getPointerAddressSpace());
      if (callee && i < callee->arg_size()) bound[callee->getArg(i)] = slope;
    }
    if (!pointer) return;  // no global memory of the caller's: math, conversions
    if (!callee || callee->isDeclaration() || depth >= kMaxCallDepth) {
      if (moves) unknown = true;  // where it reads, we cannot say
      return;
    }
    scan(*callee, std::move(bound), depth + 1);
  }

  void access(Slope slope, const Instruction &I) {
    LLVM_DEBUG(dbgs() << "group-shape: " << I << ": slope kind " << int(slope.kind) << ", " << slope.bytes
                      << " bytes\n");
    if (slope.kind == Slope::Unknown) unknown = true;
    if (slope.kind == Slope::Symbolic ||
        (slope.kind == Slope::Constant && uint64_t(std::abs(slope.bytes)) > RowSlopeBytes))
      column = true;
  }

  const DataLayout &layout;
  bool unknown = false, column = false;
};

// Whether F's results are the same under any shape of group (the header's
// "Free"). Functions F calls cannot ask for their group (KernelWrapperPass
// inlined every one that does) but may enqueue kernels or narrow atomics.
bool isGroupFree(const Function &F) {
  SmallPtrSet<const Function *, 16> seen{&F};
  SmallVector<const Function *, 16> work{&F};
  while (!work.empty()) {
    const Function *G = work.pop_back_val();
    for (const Instruction &I : instructions(*G)) {
      SyncScope::ID scope = SyncScope::System;
      if (auto *fence = dyn_cast<FenceInst>(&I)) scope = fence->getSyncScopeID();
      else if (auto *rmw = dyn_cast<AtomicRMWInst>(&I)) scope = rmw->getSyncScopeID();
      else if (auto *cmpxchg = dyn_cast<AtomicCmpXchgInst>(&I)) scope = cmpxchg->getSyncScopeID();
      else if (auto *load = dyn_cast<LoadInst>(&I); load && load->isAtomic()) scope = load->getSyncScopeID();
      else if (auto *store = dyn_cast<StoreInst>(&I); store && store->isAtomic()) scope = store->getSyncScopeID();
      if (scope != SyncScope::System) {
        SmallVector<StringRef, 8> names;
        I.getContext().getSyncScopeNames(names);
        StringRef name = scope < names.size() ? names[scope] : "";
        if (name != "agent" && name != "device") return false;
      }
      // __local memory: kernel-scope variables, arguments, casts of either.
      for (const Use &operand : I.operands())
        if (operand->getType()->isPointerTy() && operand->getType()->getPointerAddressSpace() == kLocalAddressSpace)
          return false;
      if (I.getType()->isPointerTy() && I.getType()->getPointerAddressSpace() == kLocalAddressSpace) return false;
      auto *call = dyn_cast<CallBase>(&I);
      const Function *callee = call ? call->getCalledFunction() : nullptr;
      if (call && !callee) return false;  // an indirect call (a block): what it does is not known here
      if (!callee) continue;
      StringRef name = callee->getName();
      if (name.starts_with("__lockstep_enqueue") || name == kKernelQuerySymbol) return false;
      if (isWorkGroupFunctionName(name)) {
        unsigned dim;
        bool globalQuery = isGlobalId(*call, dim) || name == "_Z15get_global_sizej" ||
                           name == "_Z17get_global_offsetj" || name == "_Z12get_work_dimv";
        if (!globalQuery) return false;
      }
      if (!callee->isDeclaration() && seen.insert(callee).second) work.push_back(callee);
    }
  }
  return true;
}

}  // namespace

PreservedAnalyses GroupShapePass::run(Module &M, ModuleAnalysisManager &) {
  if (!GroupShapes) return PreservedAnalyses::all();
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasFnAttribute(kKernelNameAttr)) continue;
    switch (ShapeScan(M.getDataLayout()).run(F)) {
      case Shape::Rows: F.addFnAttr(kGroupShapeAttr, "rows"), ++NumRows; break;
      case Shape::Columns: F.addFnAttr(kGroupShapeAttr, "columns"), ++NumColumns; break;
      case Shape::None: break;
    }
    if (isGroupFree(F)) F.addFnAttr(kGroupFreeAttr), ++NumFree;
  }
  return PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

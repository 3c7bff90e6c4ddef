// PrivateArraySelectsPass, before the work-group passes, after
// PrivateArrayLoopsPass: a small private array that a work-item indexes by
// a value (`int lut[8]; ... lut[in[i] & 7]`) becomes one variable per
// element, and an access at a value index a chain of selects over them,
// so that SROA makes the array values.
//
// An array SROA cannot split stays memory, one copy that the work-items of
// a work-item loop take turns in: its accesses cannot be marked parallel,
// and the loop runs one work-item at a time (a lookup table built per
// work-item and read at two data-dependent indices ran at 0.7-0.8x PoCL).
// As values, the loop widens across work-items like any other arithmetic:
//
//   %lut = alloca [8 x i32]                      %lut.0 ... %lut.7 = alloca i32   (values after SROA)
//   store %a, gep %lut, 0, 3               ->    store %a, %lut.3
//   %v = load gep %lut, 0, %k                    %v = select (%k == 7), %lut.7, (select (%k == 6), ... %lut.0)
//   store %b, gep %lut, 0, %j                    store (select (%j == e), %b, %lut.e), %lut.e   for every e
//
// Only arrays of at most MaxElements scalars, reached by GEPs to one element
// (and whole-array memsets to zero, copies of a constant of the array's
// type, which is how initializer lists start, lifetime markers), and while the
// selects the value indices cost stay within MaxSelects. An index outside
// the array reads element 0 and writes nothing (it was undefined).
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>

#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-private-array-selects"

using namespace llvm;
using namespace llvm::PatternMatch;

LOCKSTEP_STATISTIC(NumArraysSplit, "Private arrays indexed by values made one variable per element");

static cl::opt<unsigned> MaxElements("lockstep-private-array-select-elements", cl::init(8), cl::Hidden,
                                     cl::desc("Most elements of a private array made variables with selects"));
static cl::opt<unsigned> MaxSelects("lockstep-private-array-selects", cl::init(64), cl::Hidden,
                                    cl::desc("Most selects the value-indexed accesses of one array may take"));

namespace lockstep::compiler {
namespace {

// One access of the array: a load or store of one element (at the
// constant `element`, or at the value `index`), or an initializer.
struct Access {
  enum Kind { AtConstant, AtValue, ZeroFill, ConstantCopy };
  Instruction *access;
  Kind kind;
  uint64_t element = 0;
  Value *index = nullptr;
};

// The element a GEP from the array reaches, as the front end writes it
// (`gep [8 x T], %a, 0, %k`), as an element pointer (`gep T, %a, %k`), or,
// InstCombine's form of a constant one, in bytes (`gep i8, %a, 12`); null
// for anything else.
Value *elementIndex(GetElementPtrInst *gep, Type *arrayType, Type *elementType, const DataLayout &layout) {
  Type *source = gep->getSourceElementType();
  if (source == arrayType && gep->getNumIndices() == 2 && match(gep->getOperand(1), m_Zero()))
    return gep->getOperand(2);
  if (gep->getNumIndices() != 1) return nullptr;
  if (source == elementType) return gep->getOperand(1);
  auto *bytes = dyn_cast<ConstantInt>(gep->getOperand(1));
  uint64_t size = layout.getTypeAllocSize(elementType);
  if (!source->isIntegerTy(8) || !bytes || bytes->isNegative() || bytes->getZExtValue() % size != 0) return nullptr;
  return ConstantInt::get(bytes->getType(), bytes->getZExtValue() / size);
}

// The accesses of `array` if every use is one this pass rewrites, else false.
bool collectAccesses(AllocaInst *array, Type *elementType, uint64_t count, const DataLayout &layout,
                     SmallVectorImpl<Access> &accesses, SmallVectorImpl<Instruction *> &markers) {
  auto isElementAccess = [&](User *user, Value *pointer) {
    if (auto *load = dyn_cast<LoadInst>(user)) return load->isSimple() && load->getType() == elementType;
    if (auto *store = dyn_cast<StoreInst>(user))
      return store->isSimple() && store->getPointerOperand() == pointer &&
             store->getValueOperand()->getType() == elementType;
    return false;
  };
  uint64_t bytes = layout.getTypeAllocSize(array->getAllocatedType());
  for (User *user : array->users()) {
    if (auto *marker = dyn_cast<LifetimeIntrinsic>(user)) {
      markers.push_back(marker);
    } else if (auto *memset = dyn_cast<MemSetInst>(user)) {
      auto *length = dyn_cast<ConstantInt>(memset->getLength());
      auto *value = dyn_cast<ConstantInt>(memset->getValue());
      if (memset->isVolatile() || memset->getDest() != array || !length || length->getZExtValue() != bytes ||
          !value || !value->isZero())
        return false;
      accesses.push_back({memset, Access::ZeroFill});
    } else if (auto *memcpy = dyn_cast<MemCpyInst>(user)) {
      // An initializer list: a copy of a constant of the array's type.
      auto *source = dyn_cast<GlobalVariable>(memcpy->getSource()->stripPointerCasts());
      auto *length = dyn_cast<ConstantInt>(memcpy->getLength());
      if (memcpy->isVolatile() || memcpy->getDest() != array || !length || length->getZExtValue() != bytes ||
          !source || !source->isConstant() || !source->hasDefinitiveInitializer() ||
          source->getValueType() != array->getAllocatedType())
        return false;
      accesses.push_back({memcpy, Access::ConstantCopy});
    } else if (isElementAccess(user, array)) {
      accesses.push_back({cast<Instruction>(user), Access::AtConstant});
    } else if (auto *gep = dyn_cast<GetElementPtrInst>(user)) {
      Value *index = elementIndex(gep, array->getAllocatedType(), elementType, layout);
      if (!index) return false;
      auto *constant = dyn_cast<ConstantInt>(index);
      if (constant && constant->getValue().uge(count)) return false;
      for (User *elementUser : gep->users())
        if (!isElementAccess(elementUser, gep)) return false;
      for (User *elementUser : gep->users()) {
        auto *access = cast<Instruction>(elementUser);
        accesses.push_back(constant ? Access{access, Access::AtConstant, constant->getZExtValue()}
                                    : Access{access, Access::AtValue, 0, index});
      }
    } else {
      return false;
    }
  }
  return true;
}

bool splitArray(AllocaInst *array, const DataLayout &layout) {
  auto *arrayType = dyn_cast<ArrayType>(array->getAllocatedType());
  if (!arrayType || array->isArrayAllocation() || arrayType->getNumElements() < 2 ||
      arrayType->getNumElements() > MaxElements)
    return false;
  Type *elementType = arrayType->getElementType();
  if (!elementType->isIntegerTy() && !elementType->isFloatingPointTy() && !elementType->isPointerTy()) return false;
  uint64_t count = arrayType->getNumElements();
  SmallVector<Access, 16> accesses;
  SmallVector<Instruction *, 4> markers;
  if (!collectAccesses(array, elementType, count, layout, accesses, markers)) return false;
  uint64_t selects = 0;
  bool byValue = false;
  for (const Access &access : accesses)
    if (access.kind == Access::AtValue) {
      selects += count;
      byValue = true;
    }
  // What SROA splits itself, and what would cost too many selects, stay.
  if (!byValue || selects > MaxSelects) return false;

  IRBuilder<> builder(array);
  SmallVector<AllocaInst *, 8> elements;
  Align align = layout.getABITypeAlign(elementType);
  for (uint64_t e = 0; e < count; ++e) {
    AllocaInst *element = builder.CreateAlloca(elementType, nullptr, array->getName() + "." + Twine(e));
    element->setAlignment(align);
    elements.push_back(element);
  }
  for (const Access &access : accesses) {
    Instruction *I = access.access;
    builder.SetInsertPoint(I);
    if (access.kind == Access::ZeroFill) {
      for (AllocaInst *element : elements)
        builder.CreateAlignedStore(Constant::getNullValue(elementType), element, align);
    } else if (access.kind == Access::ConstantCopy) {
      auto *source = cast<GlobalVariable>(cast<MemCpyInst>(I)->getSource()->stripPointerCasts());
      for (uint64_t e = 0; e < count; ++e)
        builder.CreateAlignedStore(source->getInitializer()->getAggregateElement(unsigned(e)), elements[e], align);
    } else if (auto *load = dyn_cast<LoadInst>(I)) {
      Value *value;
      if (access.kind == Access::AtConstant) {
        value = builder.CreateAlignedLoad(elementType, elements[access.element], align);
      } else {
        value = builder.CreateAlignedLoad(elementType, elements[0], align);
        for (uint64_t e = 1; e < count; ++e) {
          Value *is = builder.CreateICmpEQ(access.index, ConstantInt::get(access.index->getType(), e));
          value = builder.CreateSelect(is, builder.CreateAlignedLoad(elementType, elements[e], align), value);
        }
      }
      value->takeName(load);
      load->replaceAllUsesWith(value);
    } else {
      auto *store = cast<StoreInst>(I);
      Value *stored = store->getValueOperand();
      if (access.kind == Access::AtConstant) {
        builder.CreateAlignedStore(stored, elements[access.element], align);
      } else {
        for (uint64_t e = 0; e < count; ++e) {
          Value *is = builder.CreateICmpEQ(access.index, ConstantInt::get(access.index->getType(), e));
          Value *old = builder.CreateAlignedLoad(elementType, elements[e], align);
          builder.CreateAlignedStore(builder.CreateSelect(is, stored, old), elements[e], align);
        }
      }
    }
  }
  for (const Access &access : accesses) {
    Instruction *I = access.access;
    Value *pointer = isa<MemIntrinsic>(I) ? nullptr : getLoadStorePointerOperand(I);
    I->eraseFromParent();
    if (auto *gep = dyn_cast_or_null<GetElementPtrInst>(pointer); gep && gep->use_empty()) gep->eraseFromParent();
  }
  for (Instruction *marker : markers) marker->eraseFromParent();
  LLVM_DEBUG(dbgs() << "split " << *array << "\n");
  array->eraseFromParent();
  ++NumArraysSplit;
  return true;
}

}  // namespace

PreservedAnalyses PrivateArraySelectsPass::run(Function &F, FunctionAnalysisManager &) {
  SmallVector<AllocaInst *, 8> arrays;
  for (Instruction &I : F.getEntryBlock())
    if (auto *alloca = dyn_cast<AllocaInst>(&I)) arrays.push_back(alloca);
  bool changed = false;
  for (AllocaInst *array : arrays) changed |= splitArray(array, F.getDataLayout());
  if (!changed) return PreservedAnalyses::all();
  PreservedAnalyses preserved;
  preserved.preserveSet<CFGAnalyses>();
  return preserved;
}

}  // namespace lockstep::compiler

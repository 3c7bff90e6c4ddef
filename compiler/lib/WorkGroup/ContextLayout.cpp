// The context block (GroupAbi.h): one slot per variable kept per work-item
// (copied or resident) and per decision, laid out by the work-item count;
// vector variables get split slots (one array per element); each slot gets
// an alias scope. Also the addresses of a work-item's element of a slot and
// the loads and stores of copied variables.
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/Statistic.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>

#include "WorkGroup/WorkGroupLoops.h"

using namespace llvm;

#define DEBUG_TYPE "lockstep-work-group-loops"

static cl::opt<size_t> MaxScopedSlots("lockstep-max-scoped-slots", cl::Hidden, cl::init(64),
                                      cl::desc("Most context slots given alias scopes"));

namespace lockstep::compiler {

void WorkGroupLoops::layOutContext() {
  auto addSlot = [&](Type *type, uint64_t size, Align align) {
    uint64_t stride = alignTo(size, align);
    contextBytes = alignTo(contextBytes, align);
    slots.push_back({type, stride, contextBytes});
    contextBytes += stride;
    return slots.size() - 1;
  };
  for (unsigned i = 0; i < allocas.size(); ++i) {
    if (!copied[i] && !resident[i]) continue;
    AllocaInst *alloca = allocas[i];
    uint64_t size = alloca->getAllocationSize(layout)->getFixedValue();
    Type *type = alloca->isArrayAllocation() ? Type::getInt8Ty(context) : alloca->getAllocatedType();
    if (splitsSlot(i)) {
      auto *vector = cast<FixedVectorType>(type);
      Type *element = vector->getElementType();
      allocaSlot[alloca] = addSlot(type, layout.getTypeAllocSize(element) * vector->getNumElements(),
                                   layout.getABITypeAlign(element));
      slots.back().split = true;
      continue;
    }
    allocaSlot[alloca] = addSlot(type, std::max<uint64_t>(size, 1), alloca->getAlign());
  }
  for (BasicBlock *decision : decisions) {
    Type *type = Type::getInt32Ty(context);
    if (auto *sw = dyn_cast<SwitchInst>(decision->getTerminator())) type = sw->getCondition()->getType();
    uint64_t size = layout.getTypeAllocSize(type);
    decisionSlot[decision] = addSlot(type, size, layout.getABITypeAlign(type));
  }
  if (laneMode) laneSlot = addSlot(Type::getInt32Ty(context), 4, Align(4));
  contextBytes = alignTo(contextBytes, 16);
  IRBuilder<> builder(prologue->getTerminator());
  // The runtime aligns the context block to 64 bytes; a variable that needs
  // more (a ulong16 in a private struct) gets it by aligning the base here,
  // with room for that paid for by every work-item's share.
  uint64_t maxAlign = 1;
  for (unsigned i = 0; i < allocas.size(); ++i)
    if (copied[i] || resident[i]) maxAlign = std::max<uint64_t>(maxAlign, allocas[i]->getAlign().value());
  Value *base = F.getArg(kContextParam);
  if (maxAlign > 64) {
    Value *address = builder.CreatePtrToInt(base, builder.getInt64Ty());
    Value *padding = builder.CreateAnd(builder.CreateNeg(address), builder.getInt64(maxAlign - 1));
    base = builder.CreateGEP(builder.getInt8Ty(), base, padding, "ctx.aligned");
    contextBytes += maxAlign;
  }
  contextBase = base;
  if (laneMode) {
    builder.CreateStore(workItemCount, base);
    contextBytes += kLaneHeaderBytes;
    return;
  }
  for (Slot &slot : slots)
    slot.base = builder.CreateGEP(builder.getInt8Ty(), base,
                                  builder.CreateMul(workItemCount, builder.getInt64(slot.offset)), "ctx.slot");
  // A group-wide flag starts set: the first count reads the flags.
  for (AllocaInst *alloca : allocas)
    if (Value *wide = groupWideAddress(alloca)) builder.CreateStore(builder.getInt32(1), wide);
}

// Where a group-wide variable lives: work-item 0's place in its slot. Null
// in lane or sub-group mode, where each work-item keeps its own and the
// combine does not read it; strips (Strips.cpp), which run one after
// another, share it.
Value *WorkGroupLoops::groupWideAddress(AllocaInst *alloca) const {
  if (laneMode || (subGroupMode && !stripMode) || !isGroupWide(*alloca)) return nullptr;
  return slots[allocaSlot.lookup(alloca)].base;
}

// The slots are disjoint, but their offsets scale with the local size, which
// alias analysis cannot see through. Each slot gets an alias scope, and every
// load and store addressed from a slot's base (through GEPs only) is marked
// as apart from the other slots. A uniform variable that a loop of regions
// reads at the top and writes at the bottom (a masked loop's round count)
// then stays in a register across the loop, where scalar evolution sees it.
void WorkGroupLoops::scopeContextSlots() {
  size_t kMaxScopedSlots = MaxScopedSlots;  // the lists grow as the square
  if (laneMode || slots.size() < 2 || slots.size() > kMaxScopedSlots) return;
  MDBuilder md(context);
  MDNode *domain = md.createAnonymousAliasScopeDomain("lockstep.context");
  SmallVector<Metadata *, 16> scopes;
  for (size_t s = 0; s < slots.size(); ++s) scopes.push_back(md.createAnonymousAliasScope(domain));
  for (size_t s = 0; s < slots.size(); ++s) {
    SmallVector<Metadata *, 16> others;
    for (size_t t = 0; t < slots.size(); ++t)
      if (t != s) others.push_back(scopes[t]);
    MDNode *scope = MDNode::get(context, scopes[s]);
    MDNode *apart = MDNode::get(context, others);
    auto mark = [&](Instruction *access) {
      access->setMetadata(LLVMContext::MD_alias_scope,
                          MDNode::concatenate(access->getMetadata(LLVMContext::MD_alias_scope), scope));
      access->setMetadata(LLVMContext::MD_noalias,
                          MDNode::concatenate(access->getMetadata(LLVMContext::MD_noalias), apart));
    };
    SmallVector<Value *, 16> work{slots[s].base};
    SmallPtrSet<Value *, 16> seen;
    while (!work.empty()) {
      Value *address = work.pop_back_val();
      for (User *user : address->users()) {
        if (isa<GetElementPtrInst>(user)) {
          if (seen.insert(user).second) work.push_back(user);
        } else if (auto *load = dyn_cast<LoadInst>(user)) {
          mark(load);
        } else if (auto *store = dyn_cast<StoreInst>(user); store && store->getPointerOperand() == address) {
          mark(store);
        }
      }
    }
  }
}

Value *WorkGroupLoops::contextAddress(IRBuilder<> &builder, unsigned slotIndex, Value *workItem) {
  const Slot &slot = slots[slotIndex];
  Value *base = slot.base;
  if (laneMode) {
    Value *count = laneCount ? laneCount : builder.CreateLoad(builder.getInt64Ty(), contextBase, "lanes.count");
    base = builder.CreateGEP(builder.getInt8Ty(), contextBase,
                             builder.CreateAdd(builder.CreateMul(count, builder.getInt64(slot.offset)),
                                               builder.getInt64(kLaneHeaderBytes)),
                             "ctx.slot");
  }
  if (slot.type->isIntegerTy(8) && slot.stride != 1)
    return builder.CreateGEP(builder.getInt8Ty(), base,
                             builder.CreateMul(workItem, builder.getInt64(slot.stride)));
  return builder.CreateGEP(slot.type, base, workItem);
}

// Whether variable `i` gets a split slot: a vector (float4, int3) copied
// between regions, one value per work-item, that only the copies in and out
// of a region touch (not a collective's operand, not kept once per group,
// not addressed in lane mode, where the work-item count is read per
// access).
bool WorkGroupLoops::splitsSlot(unsigned i) const {
  const AllocaInst *alloca = allocas[i];
  auto *vector = dyn_cast<FixedVectorType>(alloca->getAllocatedType());
  if (!vector || alloca->isArrayAllocation() || !promotable[i] || !copied[i] || resident[i] ||
      uniformVariable[i] || laneMode)
    return false;
  Type *element = vector->getElementType();
  if (layout.getTypeSizeInBits(element) != layout.getTypeAllocSizeInBits(element)) return false;
  return none_of(collectives, [&](const Collective &collective) {
    return collective.in == alloca || collective.out == alloca || is_contained(collective.ids, alloca);
  });
}

// Where element `element` of a work-item's value lies in a split slot: in
// the element's own array, base + element * work-item count.
Value *WorkGroupLoops::splitElementAddress(IRBuilder<> &builder, unsigned slotIndex, unsigned element,
                                           Value *workItem) {
  const Slot &slot = slots[slotIndex];
  Value *item = builder.CreateZExtOrTrunc(workItem, builder.getInt64Ty());
  Value *index = builder.CreateAdd(builder.CreateMul(workItemCount, builder.getInt64(element)), item);
  return builder.CreateGEP(cast<FixedVectorType>(slot.type)->getElementType(), slot.base, index);
}

// A copied variable's value for one work-item, read from its slot. A bool
// (i1) is kept as a byte, which the copies read and write whole: the loop
// vectorizer widens no load or store of i1 (a type narrower than its
// storage), so a region that keeps a flag per work-item (`computed`, a
// validity test) would store and reload it a lane at a time.
Value *WorkGroupLoops::loadCopy(IRBuilder<> &builder, unsigned slotIndex, Value *workItem) {
  const Slot &slot = slots[slotIndex];
  if (!slot.split && slot.type->isIntegerTy(1))
    return builder.CreateTrunc(builder.CreateLoad(builder.getInt8Ty(), contextAddress(builder, slotIndex, workItem)),
                               slot.type);
  if (!slot.split) return builder.CreateLoad(slot.type, contextAddress(builder, slotIndex, workItem));
  auto *vector = cast<FixedVectorType>(slot.type);
  Type *element = vector->getElementType();
  Value *value = PoisonValue::get(vector);
  for (unsigned k = 0; k < vector->getNumElements(); ++k) {
    Value *address = splitElementAddress(builder, slotIndex, k, workItem);
    value = builder.CreateInsertElement(
        value, builder.CreateAlignedLoad(element, address, layout.getABITypeAlign(element)), k);
  }
  return value;
}

// ... and written to it.
void WorkGroupLoops::storeCopy(IRBuilder<> &builder, Value *value, unsigned slotIndex, Value *workItem) {
  const Slot &slot = slots[slotIndex];
  if (!slot.split && slot.type->isIntegerTy(1)) {
    builder.CreateStore(builder.CreateZExt(value, builder.getInt8Ty()), contextAddress(builder, slotIndex, workItem));
    return;
  }
  if (!slot.split) {
    builder.CreateStore(value, contextAddress(builder, slotIndex, workItem));
    return;
  }
  auto *vector = cast<FixedVectorType>(slot.type);
  Align align = layout.getABITypeAlign(vector->getElementType());
  for (unsigned k = 0; k < vector->getNumElements(); ++k)
    builder.CreateAlignedStore(builder.CreateExtractElement(value, k), splitElementAddress(builder, slotIndex, k, workItem),
                               align);
}

}  // namespace lockstep::compiler

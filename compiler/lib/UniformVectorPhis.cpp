// UniformVectorPhisPass, after -O3: vector phis whose lanes always agree,
// and the vector arithmetic on them, become scalars and splats.
//
// LLVM's vectorizer on its VPlan-native path (WorkItemOuterVectorizePass's
// outer-widened work-item loops) widens every value in the loop, the inner
// loops' counters too: `j` becomes a vector phi stepping all its lanes by 1,
// an address `cent + (c * dim + j) * 4` a vector of equal pointers, and the
// load through it a gather of one address, a load per lane, in the
// innermost loop. Here a vector phi is uniform when every value it takes is
// a splat, a uniform phi, or arithmetic (binary operations, casts,
// comparisons, selects, GEPs) on uniform values (found optimistically over
// the phis' cycles, then pruned); such phis and the uniform arithmetic that
// reads them are rebuilt on scalars, each vector value a splat of its
// scalar, so a gather through a splat is one load that MaskedMemoryGuards
// makes of it, and an extract of a lane of a splat its scalar:
//
//   %j = phi <16 x i64> [ zeroinitializer, %pre ], [ %j.next, %body ]
//   %j.next = add <16 x i64> %j, splat(1)
//     ->
//   %j.s = phi i64 [ 0, %pre ], [ %j.next.s, %body ]
//   %j.next.s = add i64 %j.s, 1        (uses of %j: splat(%j.s))
//
// The same values in every lane before and after, so nothing observable
// changes.
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SetVector.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/Local.h>

#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-uniform-vector-phis"

using namespace llvm;

LOCKSTEP_STATISTIC(NumPhis, "Vector phis whose lanes agree made scalar");
LOCKSTEP_STATISTIC(NumScalarized, "Vector instructions on such phis made scalar");

namespace lockstep::compiler {
namespace {

bool isRebuilt(const Instruction &I) {
  if (!I.getType()->isVectorTy()) return false;
  if (auto *conversion = dyn_cast<CastInst>(&I)) {
    auto *from = dyn_cast<VectorType>(conversion->getSrcTy());
    if (!from || from->getElementCount() != cast<VectorType>(I.getType())->getElementCount())
      return false;
  }
  return isa<BinaryOperator>(I) || isa<CastInst>(I) || isa<CmpInst>(I) || isa<SelectInst>(I) ||
         isa<GetElementPtrInst>(I) || isa<UnaryOperator>(I) || isa<PHINode>(I);
}

class Uniformity {
 public:
  explicit Uniformity(const SmallPtrSetImpl<PHINode *> &phis) : phis(phis) {}

  // Whether every lane of `value` holds the same value (a scalar operand
  // counts: it is the same for all lanes).
  bool uniform(Value *value, unsigned depth = 0) {
    if (!value->getType()->isVectorTy()) return true;
    if (getSplatValue(value)) return true;
    auto *I = dyn_cast<Instruction>(value);
    if (!I || !isRebuilt(*I)) return false;
    if (auto *phi = dyn_cast<PHINode>(I)) return phis.contains(phi);
    if (auto found = memo.find(I); found != memo.end()) return found->second;
    if (depth > 16) return false;
    bool all = true;
    for (Value *operand : I->operands()) all = all && uniform(operand, depth + 1);
    memo[I] = all;
    return all;
  }

 private:
  const SmallPtrSetImpl<PHINode *> &phis;
  DenseMap<Instruction *, bool> memo;
};

// The scalar of a uniform value, built before its vector instruction.
class Scalarizer {
 public:
  explicit Scalarizer(DenseMap<Instruction *, Value *> &scalars) : scalars(scalars) {}

  Value *of(Value *value) {
    if (!value->getType()->isVectorTy()) return value;
    if (Value *splat = getSplatValue(value)) return splat;
    auto *I = cast<Instruction>(value);
    if (auto found = scalars.find(I); found != scalars.end()) return found->second;
    IRBuilder<> builder(I);
    Value *scalar = nullptr;
    if (auto *binary = dyn_cast<BinaryOperator>(I)) {
      scalar = builder.CreateBinOp(binary->getOpcode(), of(I->getOperand(0)), of(I->getOperand(1)));
    } else if (auto *unary = dyn_cast<UnaryOperator>(I)) {
      scalar = builder.CreateUnOp(unary->getOpcode(), of(I->getOperand(0)));
    } else if (auto *cast = dyn_cast<CastInst>(I)) {
      scalar = builder.CreateCast(cast->getOpcode(), of(I->getOperand(0)),
                                  I->getType()->getScalarType());
    } else if (auto *compare = dyn_cast<CmpInst>(I)) {
      scalar =
          builder.CreateCmp(compare->getPredicate(), of(I->getOperand(0)), of(I->getOperand(1)));
    } else if (isa<SelectInst>(I)) {
      scalar =
          builder.CreateSelect(of(I->getOperand(0)), of(I->getOperand(1)), of(I->getOperand(2)));
    } else if (auto *gep = dyn_cast<GetElementPtrInst>(I)) {
      SmallVector<Value *, 4> indices;
      for (Value *index : gep->indices()) indices.push_back(of(index));
      scalar = builder.CreateGEP(gep->getSourceElementType(), of(gep->getPointerOperand()), indices,
                                 "", gep->getNoWrapFlags());
    }
    assert(scalar && "not a rebuilt instruction");
    if (auto *made = dyn_cast<Instruction>(scalar)) {
      made->copyIRFlags(I);
      made->takeName(I);
    }
    scalars[I] = scalar;
    ++NumScalarized;
    return scalar;
  }

 private:
  DenseMap<Instruction *, Value *> &scalars;
};

bool run(Function &F) {
  SmallPtrSet<PHINode *, 8> phis;
  for (BasicBlock &block : F)
    for (PHINode &phi : block.phis())
      if (isRebuilt(phi)) phis.insert(&phi);
  // Optimistic: every vector phi uniform, pruned until the rest hold.
  for (bool pruned = true; pruned && !phis.empty();) {
    pruned = false;
    Uniformity uniformity(phis);
    for (PHINode *phi : SmallVector<PHINode *, 8>(phis.begin(), phis.end()))
      for (Value *incoming : phi->incoming_values())
        if (!uniformity.uniform(incoming)) {
          phis.erase(phi);
          pruned = true;
          break;
        }
  }
  if (phis.empty()) return false;

  // The uniform instructions: the phis, what they take, and what reads
  // them, transitively.
  Uniformity uniformity(phis);
  SetVector<Instruction *> taken;
  SmallVector<Instruction *, 16> pending(phis.begin(), phis.end());
  while (!pending.empty()) {
    Instruction *I = pending.pop_back_val();
    if (!taken.insert(I)) continue;
    for (Value *operand : I->operands())
      if (auto *inst = dyn_cast<Instruction>(operand);
          inst && !getSplatValue(inst) && isRebuilt(*inst))
        pending.push_back(inst);
    for (User *user : I->users())
      if (auto *inst = dyn_cast<Instruction>(user);
          inst && isRebuilt(*inst) && uniformity.uniform(inst))
        pending.push_back(inst);
  }

  DenseMap<Instruction *, Value *> scalars;
  for (PHINode *phi : phis) {
    PHINode *scalar = PHINode::Create(phi->getType()->getScalarType(), phi->getNumIncomingValues(),
                                      phi->getName() + ".scalar", phi->getIterator());
    scalars[phi] = scalar;
  }
  Scalarizer scalarizer(scalars);
  for (Instruction *I : taken) scalarizer.of(I);
  for (PHINode *phi : phis) {
    auto *scalar = cast<PHINode>(scalars[phi]);
    for (unsigned i = 0, e = phi->getNumIncomingValues(); i < e; ++i) {
      // An incoming splat's scalar, or a taken instruction's, built where
      // it dominates the edge.
      scalar->addIncoming(scalarizer.of(phi->getIncomingValue(i)), phi->getIncomingBlock(i));
    }
    ++NumPhis;
  }
  // Every vector use of a taken instruction reads a splat of its scalar.
  SmallVector<Instruction *, 4> gathers;
  for (Instruction *I : taken) {
    Value *scalar = scalars[I];
    auto *made = dyn_cast<Instruction>(scalar);
    IRBuilder<> builder(I->getParent(), made && !isa<PHINode>(made)
                                            ? std::next(made->getIterator())
                                            : I->getParent()->getFirstInsertionPt());
    Value *splat =
        builder.CreateVectorSplat(cast<VectorType>(I->getType())->getElementCount(), scalar);
    for (Use &use : make_early_inc_range(I->uses())) {
      auto *user = cast<Instruction>(use.getUser());
      if (taken.contains(user)) continue;
      use.set(splat);
      if (auto *extract = dyn_cast<ExtractElementInst>(user)) extract->replaceAllUsesWith(scalar);
      // A gather of one address, every lane on: one load.
      auto *gather = dyn_cast<IntrinsicInst>(user);
      if (gather && gather->getIntrinsicID() == Intrinsic::masked_gather && use.getOperandNo() == 0)
        if (auto *mask = dyn_cast<Constant>(gather->getArgOperand(2));
            mask && mask->isAllOnesValue()) {
          IRBuilder<> at(gather);
          auto *type = cast<VectorType>(gather->getType());
          LoadInst *load = at.CreateAlignedLoad(
              type->getElementType(), scalar,
              cast<ConstantInt>(gather->getArgOperand(1))->getMaybeAlignValue());
          AAMDNodes metadata = gather->getAAMetadata();
          load->setAAMetadata(metadata);
          if (MDNode *group = gather->getMetadata(LLVMContext::MD_access_group))
            load->setMetadata(LLVMContext::MD_access_group, group);
          gather->replaceAllUsesWith(at.CreateVectorSplat(type->getElementCount(), load));
          gathers.push_back(gather);
        }
    }
  }
  for (Instruction *I : gathers) I->eraseFromParent();
  for (Instruction *I : taken) I->dropAllReferences();
  for (Instruction *I : taken) I->eraseFromParent();
  for (BasicBlock &block : F) SimplifyInstructionsInBlock(&block);
  return true;
}

}  // namespace

PreservedAnalyses UniformVectorPhisPass::run(Function &F, FunctionAnalysisManager &) {
  return lockstep::compiler::run(F) ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

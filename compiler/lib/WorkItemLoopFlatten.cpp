// WorkItemLoopFlattenPass: after WorkGroupLoopsPass, before
// WorkItemLoopSplitPass, turns the loops over a region's rows and columns of
// work-items into one loop over their linear local ids, where the region
// sees its work-items' ids only through that linear id.
//
// 2-D GPU code often works on the linear local id: `int l = ly * 16 + lx;
// if (l < o) part[l] += part[l + o];` in the levels of a tree reduction,
// `for (i = l; i < 256; i += 256) hist[i] = 0;`. As a loop over rows of 16
// work-items, each level pays a row loop, a split per row and a 16-wide
// masked vector per row; the same tree over a 1-D group of 256 is one loop
// that the split bounds at `o` and the vectorizer widens whole. Where every
// value of the region that depends on lx and ly is, as ScalarEvolution sees
// it, a function of ly * size_x + lx (the loop's own count aside), running
// x from 0 to size_x * size_y with ly = 0 gives each of those values what
// work-item (l / size_x, l % size_x) had, in the same order: the rows loop
// once and x counts the linear id. The same holds for z with
// size_x * size_y.
//
// What "a function of the linear id" means here: a value whose SCEV is
// {{{r,+,az}<z>,+,ay}<y>,+,ax}<x> with r the same for every work-item and
// ay = ax * size_x (az = ax * size_x * size_y), in the value's integer type
// (modular arithmetic: equal SCEVs are equal values), or a computation
// without memory of such values (`sext(ly * 16 + lx)`, which SCEV may not
// see through). The ids pass through computations (arithmetic, casts,
// compares, selects, getelementptr); every other use of a value they reach
// (a memory access, a call, a phi, a branch, a use after the loops) must
// see a function of the linear id: then each of those sees what it saw for
// work-item (l / size_x, l % size_x), and runs in the same order, so memory
// ends the same. Computations on x that are no such function (`lx * 4` on
// its way to `ly * 64 + lx * 4`) take values they never had: they lose
// their no-wrap flags, and a division among them keeps the loops as they
// are (it could trap). A value that does not grow with lz (a 2-D linear id
// in a 3-D loop nest) keeps the z loop.
//
// The context's per-work-item slots are indexed by the linear id too, so a
// region that reloads `l` from its slot rather than recomputing it
// flattens in every version, the group's size a run-time value. The loops'
// sizes and the kernel's get_local_size are one read of the group's info
// (loadGroupInfo), so `ly * get_local_size(0) + lx` matches the x loop's
// count; in the vector-rows versions both are the row width.
//
// Only the loops WorkGroupLoops made (kWorkItemLoopMarker on the x loop, the
// y and z loops around it with nothing but their counters): the vector-rows
// version's x loop counts to its row width, a constant, which a kernel's
// `ly * 16` then matches; the others count to the group's size.
#include <llvm/ADT/SetVector.h>
#include <llvm/Analysis/InstructionSimplify.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Debug.h>

#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"

#define DEBUG_TYPE "lockstep-work-item-loop-flatten"

using namespace llvm;
using namespace llvm::PatternMatch;

LOCKSTEP_STATISTIC(NumFlattened, "Work-item loop nests run as one loop over linear local ids");

namespace lockstep::compiler {
namespace {

cl::opt<bool> kFlatten("lockstep-work-item-loop-flatten", cl::Hidden, cl::init(true),
                       cl::desc("Run regions that see only linear local ids as one loop over them"));

// One loop of the nest: its id (from 0 by 1), the id's next value, and the
// count it runs to.
struct Level {
  Loop *loop = nullptr;
  PHINode *id = nullptr;
  BinaryOperator *next = nullptr;
  ICmpInst *test = nullptr;
};

// The level of `loop` when it is one of WorkGroupLoops' counters: a phi from
// 0 and `next = id + 1`, its latch `next < count` back to the header.
std::optional<Level> levelOf(Loop *loop) {
  BasicBlock *header = loop->getHeader(), *latch = loop->getLoopLatch(), *preheader = loop->getLoopPreheader();
  if (!latch || !preheader) return std::nullopt;
  auto *branch = dyn_cast<BranchInst>(latch->getTerminator());
  if (!branch || !branch->isConditional() || branch->getSuccessor(0) != header) return std::nullopt;
  auto *test = dyn_cast<ICmpInst>(branch->getCondition());
  if (!test || test->getPredicate() != ICmpInst::ICMP_ULT || !test->hasOneUse() ||
      !loop->isLoopInvariant(test->getOperand(1)))
    return std::nullopt;
  auto *next = dyn_cast<BinaryOperator>(test->getOperand(0));
  if (!next || next->getOpcode() != Instruction::Add || !match(next->getOperand(1), m_One())) return std::nullopt;
  auto *id = dyn_cast<PHINode>(next->getOperand(0));
  if (!id || id->getParent() != header || id->getNumIncomingValues() != 2 ||
      id->getIncomingValueForBlock(latch) != next || !match(id->getIncomingValueForBlock(preheader), m_Zero()))
    return std::nullopt;
  // The counter serves only the loop.
  if (!all_of(next->users(), [&](User *user) { return user == test || user == id; })) return std::nullopt;
  return Level{loop, id, next, test};
}

// Whether `outer` holds nothing but `inner` and its own counter: its header
// has the id and goes to inner's header, inner leaves to outer's latch,
// which has the counter.
bool holdsOnly(const Level &outer, const Level &inner) {
  BasicBlock *header = outer.loop->getHeader(), *latch = outer.loop->getLoopLatch();
  if (outer.loop->getNumBlocks() != inner.loop->getNumBlocks() + 2 || inner.loop->getParentLoop() != outer.loop ||
      inner.loop->getLoopPreheader() != header || inner.loop->getExitBlock() != latch)
    return false;
  auto *enter = dyn_cast<BranchInst>(header->getTerminator());
  if (!enter || enter->isConditional() || header->size() != 2 || &header->front() != outer.id) return false;
  return latch->size() == 3 && outer.next->getParent() == latch && outer.test->getParent() == latch;
}

class Flattener {
 public:
  Flattener(ScalarEvolution &SE) : SE(SE) {}

  // Flattens the nest around the x loop `inner` as far out as its values
  // allow (x and y, or x, y and z).
  bool run(Loop *inner) {
    std::optional<Level> x = levelOf(inner);
    if (!x) return false;
    SmallVector<Level, 3> levels{*x};
    for (Loop *loop = inner->getParentLoop(); loop && levels.size() < 3; loop = loop->getParentLoop()) {
      std::optional<Level> level = levelOf(loop);
      if (!level || !holdsOnly(*level, levels.back())) break;
      levels.push_back(*level);
    }
    // The widest nest whose values allow it.
    for (size_t count = levels.size(); count >= 2; --count)
      if (allows(ArrayRef(levels).take_front(count))) {
        flatten(ArrayRef(levels).take_front(count));
        return true;
      }
    return false;
  }

 private:
  ScalarEvolution &SE;
  // Values computed from the ids without memory, and whether each is a
  // function of the linear id (memoized).
  SetVector<Instruction *> passing;
  DenseMap<Value *, bool> linear;
  SmallPtrSet<Instruction *, 16> onX;

  // Whether `S` is r + ax * (ly * size_x + lx) (+ lz * size_x * size_y)
  // for the loops of `levels`, with r and ax the same for every work-item.
  bool isLinear(const SCEV *S, ArrayRef<Level> levels) {
    Loop *outermost = levels.back().loop;
    Type *type = SE.getEffectiveSCEVType(S->getType());
    const SCEV *size = SE.getOne(type), *ax = nullptr;
    for (const Level &level : levels) {
      const SCEV *step = SE.getZero(type);
      if (auto *rec = dyn_cast<SCEVAddRecExpr>(S); rec && rec->getLoop() == level.loop) {
        if (!rec->isAffine()) return false;
        step = rec->getStepRecurrence(SE);
        S = rec->getStart();
      }
      if (!SE.isLoopInvariant(step, outermost)) return false;
      if (!ax) ax = step;
      else if (SE.getMulExpr(ax, size) != step) return false;
      size = SE.getMulExpr(size, SE.getTruncateOrZeroExtend(SE.getSCEV(level.test->getOperand(1)), type));
    }
    return SE.isLoopInvariant(S, outermost);
  }

  // Whether `value` is the same function of the linear id for every
  // work-item: a value the ids do not reach, an affine function of the
  // linear id as ScalarEvolution sees it, or a computation without memory
  // of such values (`sext(ly * 16 + lx)`).
  bool isLinearValue(Value *value, ArrayRef<Level> levels) {
    auto *I = dyn_cast<Instruction>(value);
    if (!I || (!passing.contains(I) && none_of(levels, [&](const Level &level) { return level.id == I; })))
      return true;
    if (auto found = linear.find(I); found != linear.end()) return found->second;
    bool result = SE.isSCEVable(I->getType()) && isLinear(SE.getSCEV(I), levels);
    if (!result && !isa<PHINode>(I))
      result = all_of(I->operands(), [&](Value *op) { return isLinearValue(op, levels); });
    linear[I] = result;
    return result;
  }

  // Instructions that compute a value from their operands alone.
  static bool isComputation(const Instruction *I) {
    return !isa<PHINode>(I) && !isa<CallBase>(I) && !I->isTerminator() && !I->mayReadOrWriteMemory() &&
           !I->isEHPad() && !isa<AllocaInst>(I);
  }

  bool allows(ArrayRef<Level> levels) {
    Loop *outermost = levels.back().loop;
    passing.clear();
    linear.clear();
    onX.clear();
    SmallPtrSet<Instruction *, 8> control;
    for (const Level &level : levels) control.insert({level.next, level.test});
    SmallVector<Instruction *, 32> work;
    for (const Level &level : levels) work.push_back(level.id);
    SmallPtrSet<Instruction *, 32> seen(work.begin(), work.end());
    SmallVector<std::pair<Instruction *, Value *>, 32> uses;
    while (!work.empty()) {
      Instruction *value = work.pop_back_val();
      for (User *user : value->users()) {
        auto *I = cast<Instruction>(user);
        if (control.contains(I)) continue;
        if (outermost->contains(I) && isComputation(I)) {
          if (seen.insert(I).second) {
            passing.insert(I);
            work.push_back(I);
          }
          continue;
        }
        uses.push_back({I, value});
      }
    }
    // Any other use (memory, a phi, a call, a branch, a use after the
    // loops) sees the value as it is.
    for (auto [I, value] : uses)
      if (!isLinearValue(value, levels)) {
        LLVM_DEBUG(dbgs() << "  not linear: " << *value << "\n    in " << *I << "\n");
        return false;
      }
    // The computations on x (whose values the flat loop changes).
    onX.insert(levels[0].id);
    for (bool grew = true; grew;) {
      grew = false;
      for (Instruction *I : passing)
        if (!onX.contains(I) && any_of(I->operands(), [&](Value *op) {
              auto *def = dyn_cast<Instruction>(op);
              return def && onX.contains(def);
            }))
          grew |= onX.insert(I).second;
    }
    // A division by such a value could trap where the work-item it stood
    // for did not.
    return none_of(passing, [&](Instruction *I) {
      return onX.contains(I) && !isSafeToSpeculativelyExecute(I) && !isLinearValue(I, levels);
    });
  }

  void flatten(ArrayRef<Level> levels) {
    Loop *outermost = levels.back().loop;
    // Values on x that are no function of the linear id take new values.
    for (Instruction *I : passing)
      if (onX.contains(I) && !isLinearValue(I, levels)) I->dropPoisonGeneratingFlags();
    IRBuilder<> builder(outermost->getLoopPreheader()->getTerminator());
    Value *count = levels[0].test->getOperand(1);
    for (const Level &level : levels.drop_front())
      count = builder.CreateMul(count, level.test->getOperand(1), "linear.count", /*HasNUW=*/true, /*HasNSW=*/true);
    levels[0].test->setOperand(1, count);
    // The outer loops run once, at id 0.
    const DataLayout &layout = outermost->getHeader()->getModule()->getDataLayout();
    for (const Level &level : levels.drop_front()) {
      auto *branch = cast<BranchInst>(level.loop->getLoopLatch()->getTerminator());
      branch->setCondition(ConstantInt::getFalse(branch->getContext()));
      level.test->eraseFromParent();
      level.id->replaceUsesWithIf(ConstantInt::get(level.id->getType(), 0),
                                  [&](Use &use) { return use.getUser() != level.next; });
    }
    // Fold what the zeros make constant, so that the split sees lx alone.
    SmallVector<Instruction *, 16> work(passing.begin(), passing.end());
    while (!work.empty()) {
      Instruction *I = work.pop_back_val();
      if (!I->getParent()) continue;
      if (Value *simpler = simplifyInstruction(I, SimplifyQuery(layout))) {
        for (User *user : I->users()) work.push_back(cast<Instruction>(user));
        I->replaceAllUsesWith(simpler);
        I->eraseFromParent();
        passing.remove(I);
      }
    }
    ++NumFlattened;
  }
};

}  // namespace

PreservedAnalyses WorkItemLoopFlattenPass::run(Module &M, ModuleAnalysisManager &moduleAnalyses) {
  if (!kFlatten) return PreservedAnalyses::all();
  FunctionAnalysisManager &analyses = moduleAnalyses.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  bool changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || none_of(F, [](BasicBlock &block) {
          return block.getTerminator() && block.getTerminator()->getMetadata(kWorkItemLoopMarker);
        }))
      continue;
    LoopInfo &loops = analyses.getResult<LoopAnalysis>(F);
    SmallVector<Loop *, 8> inner;
    for (Loop *loop : loops.getLoopsInPreorder())
      if (BasicBlock *latch = loop->getLoopLatch(); latch && latch->getTerminator()->getMetadata(kWorkItemLoopMarker))
        inner.push_back(loop);
    // Each nest is its own region's: flattening one leaves the others'
    // loops and values as they were.
    ScalarEvolution &SE = analyses.getResult<ScalarEvolutionAnalysis>(F);
    bool flattened = false;
    for (Loop *loop : inner) {
      LLVM_DEBUG(dbgs() << "work-item loop " << loop->getHeader()->getName() << " in " << F.getName() << "\n");
      flattened |= Flattener(SE).run(loop);
    }
    if (flattened) {
      analyses.invalidate(F, PreservedAnalyses::none());
      changed = true;
    }
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace lockstep::compiler

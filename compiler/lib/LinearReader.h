// LinearReader: reads the offsets of a loop nest's accesses (scalar
// evolution's expressions) as linear functions of the nest's trip numbers,
// plus bounded terms, and emits before the nest the code that computes
// their smallest and largest values over it, exactly, in 128 bits, with the
// conditions under which that reading is exact. BoundsCheckVersioning.cpp
// decides bounds checks before a nest with it (its header comment says what
// is read and why each reading is exact).
#pragma once

#include <llvm/ADT/APInt.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/IRBuilder.h>

namespace llvm {
class BasicBlock;
class DominatorTree;
class ICmpInst;
class Loop;
class SCEV;
class SCEVExpander;
class SCEVMinMaxExpr;
class SCEVMulExpr;
class ScalarEvolution;
class Value;
}  // namespace llvm

namespace lockstep::compiler {

using llvm::APInt;
using llvm::BasicBlock;
using llvm::DenseMap;
using llvm::DominatorTree;
using llvm::ICmpInst;
using llvm::IRBuilder;
using llvm::Loop;
using llvm::ScalarEvolution;
using llvm::SCEV;
using llvm::SCEVExpander;
using llvm::SCEVMinMaxExpr;
using llvm::SCEVMulExpr;
using llvm::SmallVector;
using llvm::SmallVectorImpl;
using llvm::Value;

// An expression of a loop nest's trip numbers, exactly: base + the sum of
// step_L * i_L over the nest's loops L, in 128 bits, equal to the
// expression modulo 2^bits on every trip when the conditions (computed
// before the nest) hold.
struct Linear {
  Value *base = nullptr;
  SmallVector<std::pair<Loop *, APInt>, 4> steps;
  // Plus a term that is not linear, somewhere in [low, high] on each trip
  // (both null: none).
  Value *low = nullptr, *high = nullptr;
};

// Reads SCEV expressions inside a loop nest as Linear ones: invariants of
// the nest, affine recurrences of its loops with constant steps (over loops
// whose trip counts the nest does not change), sums, products with
// constants, and zero- or sign-extensions of such (an index computed in 32
// bits: the extension is exact when the narrow value stays in range over
// the whole nest, which for a linear expression its extremes decide); and,
// as bounded terms, mins and maxes with at least one operand it reads, and
// products of a term it reads with an invariant.
class LinearReader {
 public:
  LinearReader(Loop *nest, ScalarEvolution &evolution, SCEVExpander &expander, IRBuilder<> &builder,
               DominatorTree &dominators)
      : nest(nest), evolution(evolution), expander(expander), builder(builder), dominators(dominators) {}

  // Whether `expression` can be read (nothing is emitted).
  bool readable(const SCEV *expression);

  // Emits `expression` as a Linear one; adds the conditions of its
  // extensions to `conditions`.
  Linear read(const SCEV *expression, SmallVectorImpl<Value *> &conditions);

  // The check the expressions read next belong to: where it is decides
  // on which trips it runs. What the guards on its way rely on is added to
  // `conditions`.
  void setSite(BasicBlock *block, SmallVectorImpl<Value *> &conditions);

  // Its largest (or smallest) value over the trips on which the site runs:
  // each step taken for every such trip of its loop where that raises
  // (lowers) the value, else not.
  Value *extreme(const Linear &linear, bool largest);

 private:
  // Which operand of a two-operand product the nest does not change (and
  // can be computed before it), or -1.
  int invariantFactor(const SCEVMulExpr *product);

  // A bounded term: `linear` is zero, its interval [low, high].
  Linear bounded(Value *low, Value *high);

  // `value` in [low, high] (128-bit constants) over the nest.
  void requireWithin(const Linear &linear, const APInt &low, const APInt &high,
                     SmallVectorImpl<Value *> &conditions);

  // A product of a term and an invariant: between the smaller and the
  // larger of the products of the term's extremes with the invariant.
  Linear readBoundedProduct(const SCEVMulExpr *product, SmallVectorImpl<Value *> &conditions);

  // A min or max lies where its operands' bounds put it: a max at least
  // the largest of their lower bounds and at most the largest upper bound,
  // a min likewise. An operand the reader does not follow is bounded by the
  // range scalar evolution knows for it.
  Linear readMinMax(const SCEVMinMaxExpr *minMax, SmallVectorImpl<Value *> &conditions);

  static void addStep(Linear &linear, Loop *loop, const APInt &step);

  // The number of the last trip of `loop` on which the site runs, in 128
  // bits: its backedge-taken count, one less where the loop leaves from its
  // header (not rotated) and the site comes after that test. (A site that
  // runs on fewer trips only makes the answer cautious.)
  Value *lastTrip(Loop *loop);

  // The comparisons that must come out true (or false: `below` says which
  // way the guarded value lies) for the site to run: conditional branches
  // of `loop` between its header and the site, through an edge that
  // dominates the site. (A peeled round of a loop, `if (i + 256 < 324)`.)
  SmallVector<std::pair<ICmpInst *, bool>, 2> guards(Loop *loop);

  // The last trip of `loop` on which `compare` comes out `taken`, when it
  // compares an increasing recurrence of the loop, {s,+,d} with a constant
  // d > 0, against a value the nest does not change, X < B or X <= B
  // (signed or not, either operand order): trip k has s + d * k < B, so k
  // <= (B - 1 - s) / d. The division rounds toward zero, which for a
  // negative quotient (no trip) only makes the answer cautious. That X
  // does not wrap over the loop's trips, so that the narrow comparison is
  // the exact one, is added to the site's conditions. Null when it does
  // not apply.
  Value *guardedLastTrip(Loop *loop, ICmpInst *compare, bool taken, Value *count);

  Loop *nest;
  ScalarEvolution &evolution;
  SCEVExpander &expander;
  IRBuilder<> &builder;
  DominatorTree &dominators;
  BasicBlock *site = nullptr;
  SmallVectorImpl<Value *> *siteConditions = nullptr;
  DenseMap<Loop *, Value *> tripValues;
};

}  // namespace lockstep::compiler

// Strips: a kernel whose only cuts are its loops' runs its region machine
// once per strip of S work-items of a row, as sub-group mode runs it once
// per sub-group, instead of once for the whole group.
//
// A loop cut makes each trip of a kernel loop one work-item loop over the
// group, so that the vectorizer widens it across work-items; what the loop
// carries per work-item (an accumulator) goes to the context and back every
// trip. A 17-tap convolution, `for (k = 0; k < taps; k++) acc += in[i + k]
// * w[k]`, then does per 16 work-items a load of acc, a load of in, an FMA
// and a store of acc: one FMA per three memory operations, where a native
// loop keeps four vectors of accumulators in registers and does one load per
// FMA. When no barrier or collective of the kernel's own orders its
// work-items, nothing ties one work-item's trips to another's: the loop can
// run all its trips for a strip of S work-items before the next strip starts.
// Then the work-item loop inside each trip runs a constant S work-items (a
// few vectors: 4 x 16 floats on AVX-512, `-lockstep-strip-vectors`) over the
// same context elements every trip; the vectorizer widens it into one trip
// of S lanes, and LICM keeps those elements in registers across the kernel
// loop, as in the native loop:
//
//   for each trip k:                 for each strip s of S work-items:
//     for each work-item i:     =>     for each trip k:
//       ctx.acc[i] += ...                for i in s: acc[i] += ...  (registers)
//
// The collectives the loop cuts add for their own decisions (a masked loop's
// count of active work-items, a guard's count, the sure rounds' maximum)
// decide as well for a strip as for the group: they count the strip, and a
// masked loop goes round while any of the strip's work-items is active.
//
// Strips are whole and lie within one row: the kernel runs them only where
// the group's width is a multiple of S (VersionDispatch.cpp); other widths
// run the WholeRows version, loop cuts over whole rows. The strips are
// segments of sub-group mode (WorkGroupLoops.cpp): the segment loop, the
// local ids counted along the row from the strip's first, decisions and
// uniform variables per segment, the collectives combined per segment
// (CollectiveCombine.cpp), a masked loop's group-wide `dirty` word kept
// (each strip's loop leaves it set, as a count of 0 does).
//
// `int i = get_global_id(0); ... in[i + k]`: the address is a sign extension
// of 32-bit arithmetic on a truncated id, which the vectorizer widens only
// behind a check that the id does not wrap across the strip's lanes, made on
// every trip of the kernel loop (it depends on k); its scalar fallback, which
// touches the accumulators one lane at a time, kept LICM from holding them in
// registers. Where the launch's global ids along x are at most INT_MAX, the
// truncation of a global or local id is exact, and a sign extension of `nsw`
// arithmetic on such ids is that arithmetic done in 64 bits: sext(k +nsw
// trunc(gid)) = sext(k) + gid. The strips rewrite those sign extensions so
// (widenStripIds), and the kernel records it (kStripIntIdsAttr): launches
// whose ids pass INT_MAX run the WholeRows version (VersionDispatch.cpp).
#include <functional>

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Support/CommandLine.h>

#include "Analysis/OpenCLNames.h"
#include "Statistics.h"
#include "WorkGroup/StrideLoop.h"
#include "WorkGroup/WorkGroupLoops.h"

using namespace llvm;

#define DEBUG_TYPE "lockstep-work-group-loops"
LOCKSTEP_STATISTIC(NumStripKernels, "Work-group functions that run their loop cuts strip by strip");
LOCKSTEP_STATISTIC(NumWidenedIndices, "Sign extensions of int work-item indices widened in strips");

namespace lockstep::compiler {

// Strips of this many vectors of 32-bit work-items (0: the kernels keep
// their loop cuts over whole rows).
cl::opt<unsigned> kStripVectors("lockstep-strip-vectors", cl::Hidden, cl::init(4),
                                cl::desc("Vectors of work-items in a strip of a loop-cut kernel without barriers "
                                         "(0: no strips)"));

uint64_t stripWidthFor(unsigned vectorBits) { return uint64_t(kStripVectors) * std::max(vectorBits / 32, 1u); }

// A kernel with no barrier or collective of its own whose work-items differ
// along x alone. One that reads its y or z id keeps its loop cuts over whole
// rows, where RowJam.cpp jams rows that share loads (a naive SGEMM's B[k *
// N + col]), which strips of one row would give up: `rw_sgemm_naive` ran at
// half its rate in strips.
bool mayRunInStrips(const Function &kernel) {
  if (kStripVectors == 0 || hasBarrierOrCollective(kernel)) return false;
  for (const BasicBlock &block : kernel)
    for (const Instruction &I : block)
      if (isLocalIdPlaceholder(I)) {
        auto *dim = dyn_cast<ConstantInt>(cast<CallInst>(I).getArgOperand(0));
        if (!dim || (dim->getZExtValue() != 0 && dim->getZExtValue() < 3)) return false;
      }
  return true;
}

// Whether a loop that a cut stands in (a block of `isCut`: a loop cut, or a
// masked loop's count) reads or writes memory at an address
// that depends on the work-item (in[i + k]). Such a loop pays for the
// context: each trip's work-item loop moves what it carries in and out of it
// through the load and store ports its own accesses need, and strips take
// that traffic away (a 17-tap convolution: 39 -> 60 GFLOP/s on the 2-core
// Xeon). A loop that only computes (a logistic map's x = r * x * (1 - x),
// 200 trips) keeps its cuts over whole rows: its chains of dependent
// operations need more work-items in flight than a strip's few vectors, and
// the context's loads and stores cost it nothing it needs (40 Giter/s over
// whole rows, 21 in strips of 4 vectors, 34 in strips of 8).
static bool cutLoopsReadPerWorkItem(Function &F, function_ref<bool(BasicBlock *)> isCut) {
  DominatorTree dominators(F);
  LoopInfo loops(dominators);
  DenseMap<const Value *, bool> known;
  std::function<bool(const Value *, unsigned)> fromWorkItem = [&](const Value *value, unsigned depth) -> bool {
    auto *I = dyn_cast<Instruction>(value);
    if (!I || depth == 0) return false;
    if (isLocalIdPlaceholder(*I)) return true;
    auto [it, fresh] = known.try_emplace(I, false);
    if (!fresh) return it->second;
    bool depends = any_of(I->operands(), [&](const Use &operand) { return fromWorkItem(operand.get(), depth - 1); });
    return known[I] = depends;
  };
  for (Loop *loop : loops.getLoopsInPreorder()) {
    if (none_of(loop->blocks(), isCut)) continue;
    for (BasicBlock *block : loop->blocks())
      for (Instruction &I : *block)
        if (Value *pointer = getLoadStorePointerOperand(&I);
            pointer && !isa<AllocaInst>(getUnderlyingObject(pointer)) && fromWorkItem(pointer, 16))
          return true;
  }
  return false;
}

// Strips where the options allow them and every cut is a loop's: a barrier
// the loop cuts made, or a work-group collective they made (the kernel's own
// get no strips: KernelVersions.cpp).
void WorkGroupLoops::chooseStripMode() {
  stripMode = stripWidth != 0 && !laneMode && !subGroupMode && !checking &&
              all_of(barrierBlocks,
                     [&](const auto &cut) {
                       CallInst *call = cut.second;
                       return call ? isLoopCut(*call) : !collectives[collectiveAt.lookup(cut.first)].op.subGroup;
                     }) &&
              cutLoopsReadPerWorkItem(F, [&](BasicBlock *block) { return barrierBlocks.count(block) != 0; });
  if (!stripMode) return;
  ++NumStripKernels;
  subGroupMode = true;
  F.addFnAttr(kStripWidthAttr, std::to_string(stripWidth));
}

namespace {

// A read of the GroupInfo field `field` along x.
bool isGroupInfoX(const Value *value, const Function &F, unsigned field) {
  auto read = groupInfoRead(value, F);
  return read && read->first == field && read->second == 0;
}

// A 64-bit work-item id along x whose truncation to 32 bits is exact: the
// local id (below kMaxWorkGroupSize), or, where the launch's global ids are
// at most INT_MAX, the global id (group id * size + offset + local id) and
// the id within the NDRange (group id * size + local id), the size being
// the group's, read or fixed (reqd_work_group_size).
struct ExactIds {
  const Function &F;
  Value *localId;
  bool usesGlobal = false;
  bool isGroupSize(Value *value) const {
    if (auto *constant = dyn_cast<ConstantInt>(value)) {
      Attribute fixed = F.getFnAttribute(kFixedLocalSizeAttr);
      uint64_t width = 0;
      return fixed.isValid() && !fixed.getValueAsString().split(',').first.getAsInteger(10, width) &&
             constant->getZExtValue() == width;
    }
    return isGroupInfoX(value, F, kEnqueuedLocalSize) || isGroupInfoX(value, F, kLocalSize);
  }
  bool isGroupStart(Value *value) const {
    using namespace PatternMatch;
    Value *group = nullptr, *size = nullptr, *offset = nullptr;
    if (match(value, m_c_Add(m_c_Mul(m_Value(group), m_Value(size)), m_Value(offset)))) {
      if (!isGroupInfoX(offset, F, kGlobalOffset)) return false;
    } else if (!match(value, m_c_Mul(m_Value(group), m_Value(size)))) {
      return false;
    }
    return isGroupInfoX(group, F, kGroupId) && isGroupSize(size);
  }
  bool isExact(Value *id) {
    if (id == localId) return true;
    Value *a, *b;
    using namespace PatternMatch;
    if (!match(id, m_Add(m_Value(a), m_Value(b)))) return false;
    if ((a == localId && isGroupStart(b)) || (b == localId && isGroupStart(a))) return usesGlobal = true;
    return false;
  }
};

// `value` (i32) sign-extended to i64 without the extension where it is nsw
// arithmetic (add, sub, mul) on exactly truncated ids and other values,
// built before `at`; null where it holds no such id.
Value *widened(Value *value, Instruction *at, ExactIds &ids, unsigned depth = 6) {
  if (auto *trunc = dyn_cast<TruncInst>(value);
      trunc && trunc->getSrcTy()->isIntegerTy(64) && ids.isExact(trunc->getOperand(0)))
    return trunc->getOperand(0);
  auto *op = dyn_cast<BinaryOperator>(value);
  if (!op || depth == 0 || !op->hasNoSignedWrap()) return nullptr;
  if (op->getOpcode() != Instruction::Add && op->getOpcode() != Instruction::Sub &&
      op->getOpcode() != Instruction::Mul)
    return nullptr;
  Value *left = widened(op->getOperand(0), at, ids, depth - 1);
  Value *right = widened(op->getOperand(1), at, ids, depth - 1);
  if (!left && !right) return nullptr;
  IRBuilder<> builder(at);
  Type *i64 = builder.getInt64Ty();
  if (!left) left = builder.CreateSExt(op->getOperand(0), i64);
  if (!right) right = builder.CreateSExt(op->getOperand(1), i64);
  auto *wide = cast<BinaryOperator>(builder.CreateBinOp(op->getOpcode(), left, right, op->getName() + ".wide"));
  wide->setHasNoSignedWrap();  // the 32-bit operation does not wrap; 64 bits hold it
  return wide;
}

}  // namespace

void WorkGroupLoops::widenStripIds(ArrayRef<BasicBlock *> body, const LoopNest &nest) {
  ExactIds ids{F, nest.ids[0]};
  SmallVector<SExtInst *, 8> extensions;
  for (BasicBlock *block : body)
    for (Instruction &I : *block)
      if (auto *sext = dyn_cast<SExtInst>(&I);
          sext && sext->getSrcTy()->isIntegerTy(32) && sext->getDestTy()->isIntegerTy(64))
        extensions.push_back(sext);
  for (SExtInst *sext : extensions)
    if (Value *wide = widened(sext->getOperand(0), sext, ids)) {
      sext->replaceAllUsesWith(wide);
      sext->eraseFromParent();
      ++NumWidenedIndices;
    }
  if (ids.usesGlobal) F.addFnAttr(kStripIntIdsAttr);
}

}  // namespace lockstep::compiler

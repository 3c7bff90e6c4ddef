// The copied variables every work-item shares (WorkGroupLoops::
// findUniformVariables): a variable kept per work-item across regions whose
// value is the same for all of them is kept once instead, work-item 0's
// element of its slot, loaded before a region's work-item loop and stored
// after it (RegionCodegen.cpp). A masked loop's round count is one: kept
// once, it stays in a register across the loop, where scalar evolution sees
// it.
//
// Which variables differ is WorkItemDivergence's answer, following the
// promotable variables through their loads and stores; the collectives'
// operands and broadcast ids differ, and so do their results, except those
// that give every work-item the same value.
#include "Analysis/WorkItemDivergence.h"
#include "WorkGroup/WorkGroupLoops.h"

using namespace llvm;

namespace lockstep::compiler {

void WorkGroupLoops::findUniformVariables() {
  unsigned n = allocas.size();
  uniformVariable.resize(n);
  if (laneMode || n == 0) return;
  BitVector divergentVariable(n);
  for (const Collective &collective : collectives) {
    if (collective.in) divergentVariable.set(allocaIndex.lookup(collective.in));
    // A work-group reduction, any, all or broadcast gives every work-item
    // the same value (the combine stores it for each): a loop that goes round
    // while work_group_any holds (a masked loop) is left on a uniform
    // decision, and what it updates every round stays uniform.
    const CollectiveOp &op = collective.op;
    bool sameForAll = !op.subGroup && !op.nonUniform &&
                      (op.kind == CollectiveOp::All || op.kind == CollectiveOp::Any ||
                       op.kind == CollectiveOp::Broadcast || op.kind == CollectiveOp::Reduce);
    if (!sameForAll) divergentVariable.set(allocaIndex.lookup(collective.out));
    for (AllocaInst *id : collective.ids) divergentVariable.set(allocaIndex.lookup(id));
  }
  WorkItemDivergence::Variables variables{allocaIndex, promotable, divergentVariable};
  WorkItemDivergence divergence(F, prologue, &variables);
  for (unsigned i = 0; i < n; ++i) uniformVariable[i] = promotable[i] && copied[i] && !divergentVariable[i];
}

}  // namespace lockstep::compiler

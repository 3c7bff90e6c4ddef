// LaneDistance: how far apart neighbouring work-items' values are in a
// work-item loop after the work-group passes lowered it (the loop's counter
// steps by one per work-item), read from the value's arithmetic: sums, products
// with values the loop does not change, shifts (InstCombine's
// `(x << 32) >> 30`, a sign extension scaled), ors of disjoint bits (sums),
// zero extensions written as `x & 0xffffffff`, extensions and truncations
// (wraps ignored: a reading to decide by, not a proof), GEPs, and phis and
// selects whose inputs agree (an inner loop's counter moves as its start). A
// distance keeps the shared values it is a multiple of (`i * dim`), so that a
// check before the loop can bound it at run time (WorkItemOuterVectorizePass).
//
// AccessSlope reads the same arithmetic along get_global_id, before the
// work-item loops exist, for GroupShapePass; it starts from the id queries
// and keeps only whether a slope is symbolic, not the value.
#pragma once

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Instructions.h>

#include <cstdint>

namespace lockstep::compiler {

// `scale` bytes times the product of `factors` (values the work-items
// share), or unknown.
struct Distance {
  bool known = true;
  int64_t scale = 0;  // 0: the same for every work-item
  llvm::SmallVector<llvm::Value *, 2> factors;

  static Distance unknown() { return Distance{false, 0, {}}; }
  static Distance constant(int64_t scale) { return Distance{true, scale, {}}; }
  bool zero() const { return known && scale == 0; }
};

// Distances along `counter`, the counter of the work-item loop `loop`.
class DistanceReader {
 public:
  DistanceReader(llvm::Loop &loop, llvm::PHINode &counter, const llvm::DataLayout &layout)
      : loop(loop), counter(counter), layout(layout) {}

  Distance of(llvm::Value *value, unsigned depth = 0);

 private:
  Distance times(const Distance &d, llvm::Value *factor);
  bool reaches(llvm::Value *value, llvm::PHINode *phi, unsigned depth);
  Distance compute(llvm::Instruction &I, unsigned depth);

  llvm::Loop &loop;
  llvm::PHINode &counter;
  const llvm::DataLayout &layout;
  llvm::DenseMap<llvm::Instruction *, Distance> memo;
};

}  // namespace lockstep::compiler

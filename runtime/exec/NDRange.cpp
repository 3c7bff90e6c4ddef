#include "exec/NDRange.h"

#include <algorithm>
#include <limits>

namespace lockstep::runtime {

namespace {

// x-sizes that are multiples of this vectorize without a scalar tail for
// every vector width up to 16 lanes (AVX-512 with 32-bit elements).
constexpr uint64_t kVectorMultiple = 16;
// Groups per core that let the TBB scheduler balance uneven groups.
constexpr uint64_t kGroupsPerCore = 4;

uint64_t ceilDiv(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }  // a + b - 1 may wrap

uint64_t largestDivisorAtMost(uint64_t value, uint64_t limit, uint64_t step) {
  for (uint64_t d = limit / step * step; d >= step; d -= step)
    if (value % d == 0) return d;
  return 0;
}

// The smallest divisor of `value` above `floor` and at most `limit`, or 0.
// It runs on the enqueue path: the divisors d in (floor, limit] pair with
// the cofactors value / d in [value / limit, value / (floor + 1)], and the
// shorter of the two ranges is walked (3837 above 256: 14 cofactors rather
// than a thousand candidates).
uint64_t smallestDivisorAbove(uint64_t value, uint64_t floor, uint64_t limit) {
  if (value == 0 || floor >= limit) return 0;
  uint64_t lowCofactor = ceilDiv(value, limit), highCofactor = value / (floor + 1);
  if (highCofactor < lowCofactor) return 0;
  if (highCofactor - lowCofactor < limit - floor) {
    // From the largest cofactor: the smallest divisor.
    for (uint64_t q = highCofactor; q >= lowCofactor; --q)
      if (value % q == 0) return value / q;
    return 0;
  }
  for (uint64_t d = floor + 1; d <= limit; ++d)
    if (value % d == 0) return d;
  return 0;
}

// The local size of one dimension: at most `limit` work-items, or up to
// `hardLimit` (what the kernel and the device allow) where uniform groups
// are required and no divisor within `limit` fits well.
uint64_t chooseDimension(uint64_t global, uint64_t limit, uint64_t hardLimit,
                         bool preferVectorMultiple, bool uniformRequired) {
  limit = std::max<uint64_t>(limit, 1);
  if (global <= limit) return global;
  if (preferVectorMultiple) {
    uint64_t vectorDivisor = largestDivisorAtMost(global, limit, kVectorMultiple);
    if (vectorDivisor * 2 > limit) return vectorDivisor;
  }
  uint64_t divisor = largestDivisorAtMost(global, limit, 1);
  if (divisor * 2 > limit) return divisor;
  if (uniformRequired) {
    // An OpenCL C 1.x kernel's groups divide the range: for a width with no
    // divisor near the budget (3837 = 3 x 1279, a prime 1913) the budget's
    // divisors made groups of 3 or 1 work-items (3837 x 2161 pixels in
    // groups of 3 x 1 ran 125x slower than PoCL's whole rows). A larger
    // divisor the device allows, the smallest above the budget, is better
    // than such slivers.
    uint64_t larger = smallestDivisorAbove(global, limit, std::min(global, hardLimit));
    if (larger != 0) return larger;
    return divisor;
  }
  // No divisor fits well (a prime-ish size): fill the budget and let the last
  // group be a smaller remainder group (OpenCL 2.0 non-uniform work-groups).
  if (preferVectorMultiple && limit >= kVectorMultiple)
    return limit / kVectorMultiple * kVectorMultiple;
  return limit;
}

}  // namespace

NDRange NDRange::make(uint32_t workDim, const Dims &globalOffset, const Dims &globalSize,
                      const Dims &localSize) {
  NDRange range;
  range.workDim = workDim;
  for (uint32_t d = 0; d < workDim; ++d) {
    range.globalOffset[d] = globalOffset[d];
    range.globalSize[d] = globalSize[d];
    range.localSize[d] = localSize[d];
    range.numGroups[d] = localSize[d] ? ceilDiv(globalSize[d], localSize[d]) : 0;
  }
  return range;
}

Dims chooseLocalSize(uint32_t workDim, const Dims &globalSize, const LocalSizeLimits &limits) {
  // Saturating: clEnqueueNDRangeKernel refuses ranges past 2^64 - 1 work-items,
  // but this choice stays safe on its own.
  uint64_t totalItems = 1;
  for (uint32_t d = 0; d < workDim; ++d)
    if (__builtin_mul_overflow(totalItems, globalSize[d], &totalItems))
      totalItems = std::numeric_limits<uint64_t>::max();
  // An empty range runs no group; any valid size will do.
  if (totalItems == 0) return {1, 1, 1};
  uint64_t targetGroups = kGroupsPerCore * std::max(limits.computeUnits, 1u);
  uint64_t budget = std::max(kVectorMultiple, totalItems / targetGroups);
  budget =
      std::min({budget, std::max<uint64_t>(limits.preferredMaxGroupItems, 1),
                std::max<uint64_t>(limits.maxWorkGroupSize, 1)});

  Dims local{1, 1, 1};
  uint64_t hardBudget = std::max<uint64_t>(limits.maxWorkGroupSize, 1);
  for (uint32_t d = 0; d < workDim; ++d) {
    uint64_t limit = std::min(budget, limits.maxWorkItemSizes[d]);
    // Leave room for the rows a jammed kernel runs together, along x no
    // narrower than a vector.
    if (d == 0 && workDim > 1 && limits.preferredRows > 1 && globalSize[1] >= limits.preferredRows)
      limit = std::min(limit, std::max(kVectorMultiple, budget / limits.preferredRows));
    if (d == 0 && workDim > 1) limit = std::min(limit, std::max<uint64_t>(limits.maxWidth, 1));
    uint64_t hardLimit = std::min(hardBudget, limits.maxWorkItemSizes[d]);
    local[d] = chooseDimension(globalSize[d], std::min(limit, hardLimit), hardLimit, d == 0,
                               limits.uniformRequired);
    budget = std::max<uint64_t>(budget / local[d], 1);
    hardBudget = std::max<uint64_t>(hardBudget / local[d], 1);
  }
  return local;
}

}  // namespace lockstep::runtime

// AccessSlope: how far an address moves when get_global_id(0) grows by one
// (or the id of another dimension: GroupShapePass reads y's too),
// read from its arithmetic before the work-item functions are lowered (sums,
// products with values every work-item shares, shifts, the extensions and
// truncations of `int` indices, InstCombine's `(x << 32) >> 32`, GEPs,
// clamps such as max(x - 1, 0), phis and selects whose inputs agree, and the
// return value of a function the kernel calls, read with the slopes of the
// call's arguments). GroupShapePass classifies a kernel's accesses by it.
#pragma once

#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

#include <cstdint>

namespace lockstep::compiler {

struct Slope {
  // Zero: the same for every work-item; Constant: `bytes` a work-item;
  // Symbolic: a value the work-items share that only the launch knows (a
  // row pitch); Unknown: not a slope (a loaded index); Pending: being read
  // (a phi's cycle), neutral in sums and merges.
  enum Kind : uint8_t { Zero, Constant, Symbolic, Unknown, Pending } kind = Zero;
  int64_t bytes = 0;  // Constant's

  static Slope zero() { return {}; }
  static Slope constant(int64_t bytes) { return bytes == 0 ? zero() : Slope{Constant, bytes}; }
  static Slope symbolic() { return {Symbolic, 0}; }
  static Slope unknown() { return {Unknown, 0}; }
  bool moves() const { return kind != Zero && kind != Pending; }
  bool operator==(const Slope &other) const { return kind == other.kind && bytes == other.bytes; }
};

using ParameterSlopes = llvm::DenseMap<const llvm::Argument *, Slope>;

// The slopes of one function's values, its parameters' given (a function a
// kernel calls, read with the slopes of the call's arguments).
class SlopeReader {
 public:
  static constexpr unsigned kMaxCallDepth = 4;

  // Slopes along get_global_id(dimension) (0 unless said).
  SlopeReader(const llvm::DataLayout &layout, ParameterSlopes parameters = ParameterSlopes(), unsigned callDepth = 0,
              unsigned dimension = 0)
      : layout(layout), parameters(std::move(parameters)), callDepth(callDepth), dimension(dimension) {}

  Slope of(const llvm::Value *value, unsigned depth = 0);

  // The slopes of `call`'s arguments bound to `callee`'s parameters, and
  // whether any moves.
  std::pair<ParameterSlopes, bool> bind(const llvm::CallBase &call, const llvm::Function *callee,
                                        unsigned depth = 0);

 private:
  Slope compute(const llvm::Instruction &I, unsigned depth);
  Slope gep(const llvm::GetElementPtrInst &gep, unsigned depth);
  Slope returned(const llvm::CallBase &call, const llvm::Function &callee, unsigned depth);
  Slope sameForAll(const llvm::Instruction &I, unsigned depth);

  const llvm::DataLayout &layout;
  ParameterSlopes parameters;
  unsigned callDepth;
  unsigned dimension;
  llvm::DenseMap<const llvm::Instruction *, Slope> slopes;
};

// Global, constant or generic memory (not private, not __local).
bool isGlobalSpace(unsigned space);
// The address of a load, store or atomic of such memory, or null.
const llvm::Value *globalAddress(const llvm::Instruction &I);

}  // namespace lockstep::compiler

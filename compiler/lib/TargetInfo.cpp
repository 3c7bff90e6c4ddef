// The CPU model and features the compiler tunes for, read from the host's
// target machine (hostTargetMachine, Jit.cpp) or from the target-cpu
// attribute RetargetToHostPass puts on each function. Every check of a CPU
// model or feature is here, so that what "AVX-512" or "Zen" means is decided
// once.
#include <llvm/IR/Function.h>
#include <llvm/Target/TargetMachine.h>

#include "Internal.h"
#include "TargetInfo.h"

using namespace llvm;

namespace lockstep::compiler {

bool hasAvx512(const TargetMachine &machine) { return machine.getTargetFeatureString().contains("+avx512f"); }

bool hasAvx2(const TargetMachine &machine) { return machine.getTargetFeatureString().contains("+avx2"); }

bool hasAvx(const TargetMachine &machine) { return machine.getTargetFeatureString().contains("+avx"); }

bool isZen(const TargetMachine &machine) { return machine.getTargetCPU().starts_with("znver"); }

bool isZen(const Function &F) { return F.getFnAttribute("target-cpu").getValueAsString().starts_with("znver"); }

unsigned hostSubGroupSize() {
  const TargetMachine &machine = hostTargetMachine();
  if (hasAvx512(machine)) return 16;
  if (hasAvx(machine)) return 8;
  return 4;
}

}  // namespace lockstep::compiler

// What the compiler asks about the CPU it compiles for (TargetInfo.cpp): the
// checks of one CPU model or feature, in one place. hasAvx512,
// hostSubGroupSize and hostVectorBits, which most of the compiler asks, are
// declared in Internal.h.
#pragma once

namespace llvm {
class Function;
class TargetMachine;
}

namespace lockstep::compiler {

// Whether `machine` targets AVX (any version) or AVX2.
bool hasAvx(const llvm::TargetMachine &machine);
bool hasAvx2(const llvm::TargetMachine &machine);
// Whether `machine`, or the target-cpu attribute of `F`, names one of AMD's
// Zen cores, whose gathers and scatters cost about a memory access per lane
// and which run 512-bit vectors as two 256-bit halves (Zen 4).
bool isZen(const llvm::TargetMachine &machine);
bool isZen(const llvm::Function &F);

}  // namespace lockstep::compiler

// Vector variants of the math builtins, from glibc's libmvec. The builtins
// compute exp, sin, pow, erf, ... through LLVM's math intrinsics and C's
// libm names (expf, erff); the loop vectorizer widens a work-item loop that
// calls them only by calling the scalar function once per lane, unless the
// target library info names a vector function for the call. libmvec has
// those for 4, 8 and 16 floats and 2, 4 and 8 doubles (SSE, AVX2, AVX-512;
// glibc 2.22 for sin, cos, exp, log, pow, 2.35 for the rest), under the x86
// vector function ABI. A variant is offered to the vectorizer when this
// process can load it and its error stays within the bound OpenCL C sets
// for the builtin (s7.4), as measured for glibc 2.36 (Debian 12; the table
// below says how). Other glibc versions get no variants until they are
// measured: libmvec's accuracy changes between versions.
#include <gnu/libc-version.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Target/TargetMachine.h>

#include <deque>
#include <string_view>

#include "Internal.h"
#include "ThreadHandOff.h"
#include "TargetInfo.h"

using namespace llvm;

namespace lockstep::compiler {
namespace {

// One math function of libmvec: its C name (the double one; float adds an
// f), how many arguments it takes, whether LLVM 19 has an intrinsic for it,
// and the ISA letters of variants whose error exceeds OpenCL's bound.
struct MathFunction {
  const char *name;
  unsigned arity;
  bool intrinsic;
  const char *floatTooInaccurate = "";
  const char *doubleTooInaccurate = "";
};

// The variants whose error exceeds the bound were found by measuring each
// against glibc's double (float: every 16 consecutive inputs of each 128,
// 537 million in all) or long double functions (double: 4 million inputs,
// half random bit patterns, half the function's usual range): float log
// (3.9 ulp, 3 allowed) and log10 on AVX-512 (3.3), float exp10 on AVX-512
// (3.8), float log1p on SSE (2.03, 2 allowed), float cbrt on AVX2 and SSE
// (2.8, 2 allowed), double exp on AVX2 (3.002, 3 allowed; the others reach
// 2.995-2.999, too close to trust). The CTS's math brute force (wimpy mode)
// found double sin at 3.73 ulp (4 allowed) and double expm1 at 2.92 (3
// allowed), closer than measured here: double sin and cos, and double expm1
// on AVX2 and SSE, are left out too. Not here: sincos (a pointer argument the
// builtins don't pass), and double cbrt, whose builtin corrects glibc's
// scalar cbrt (3-4 ulp) and would have to correct the vector one too.
constexpr MathFunction kFunctions[] = {
    {"sin", 1, true, "", "edb"},
    {"cos", 1, true, "", "edb"},
    {"tan", 1, true},
    {"asin", 1, true},
    {"acos", 1, true},
    {"atan", 1, true},
    {"sinh", 1, true},
    {"cosh", 1, true},
    {"tanh", 1, true},
    {"asinh", 1, false},
    {"acosh", 1, false},
    {"atanh", 1, false},
    {"exp", 1, true, "", "edb"},
    {"exp2", 1, true},
    {"exp10", 1, true, "e"},
    {"expm1", 1, false, "", "db"},
    {"log", 1, true, "edb"},
    {"log2", 1, true},
    {"log10", 1, true, "e"},
    {"log1p", 1, false, "b"},
    {"erf", 1, false},
    {"erfc", 1, false},
    {"cbrt", 1, false, "db", "edb"},
    {"pow", 2, true},
    {"atan2", 2, false},
    {"hypot", 2, false},
};

constexpr std::string_view kMeasuredGlibc = "2.36";

// The x86 vector function ABI's ISA letters, widest first, with their
// register width in bits.
struct Isa {
  char letter;
  unsigned bits;
};

std::vector<Isa> hostIsas(const TargetMachine &machine) {
  std::vector<Isa> isas;
  if (hasAvx512(machine)) isas.push_back({'e', 512});
  if (hasAvx2(machine)) isas.push_back({'d', 256});
  isas.push_back({'b', 128});
  return isas;
}

struct Library {
  std::vector<VecDesc> mappings;
  StringSet<> scalars;  // the mappings' scalar names
  std::string identity;
  std::deque<std::string> names;  // the mappings' strings
};

Library loadLibrary() {
  Library library;
  std::string error;
  if (std::string_view(gnu_get_libc_version()) != kMeasuredGlibc) return library;
  if (sys::DynamicLibrary::LoadLibraryPermanently("libmvec.so.1", &error)) return library;
  library.identity = std::string("libmvec glibc ") + gnu_get_libc_version();
  auto keep = [&library](std::string text) -> StringRef {
    return library.names.emplace_back(std::move(text));
  };
  for (const Isa &isa : hostIsas(hostTargetMachine()))
    for (const MathFunction &function : kFunctions)
      for (bool isFloat : {true, false}) {
        const char *excluded = isFloat ? function.floatTooInaccurate : function.doubleTooInaccurate;
        if (StringRef(excluded).contains(isa.letter)) continue;
        unsigned lanes = isa.bits / (isFloat ? 32 : 64);
        std::string scalar = std::string(function.name) + (isFloat ? "f" : "");
        std::string parameters(function.arity, 'v');
        std::string vector = "_ZGV" + std::string(1, isa.letter) + "N" + std::to_string(lanes) +
                             parameters + "_" + scalar;
        if (!sys::DynamicLibrary::SearchForAddressOfSymbol(vector)) continue;
        StringRef vectorName = keep(vector);
        StringRef prefix = keep("_ZGV_LLVM_N" + std::to_string(lanes) + parameters);
        ElementCount count = ElementCount::getFixed(lanes);
        library.mappings.emplace_back(keep(scalar), vectorName, count, false, prefix);
        if (function.intrinsic) {
          std::string intrinsic =
              "llvm." + std::string(function.name) + (isFloat ? ".f32" : ".f64");
          library.mappings.emplace_back(keep(intrinsic), vectorName, count, false, prefix);
        }
        library.identity += " " + vector;
      }
  for (const VecDesc &mapping : library.mappings) library.scalars.insert(mapping.getScalarFnName());
  return library;
}

const Library &library() {
  static const Library loaded = loadLibrary();
  // Made once, read by every thread that builds (ThreadHandOff.h).
  static const bool handedOff = (handOff(&loaded), true);
  (void)handedOff;
  takeOver(&loaded);
  return loaded;
}

}  // namespace

ArrayRef<VecDesc> vectorMathMappings() { return library().mappings; }

const std::string &vectorMathIdentity() { return library().identity; }

// The builtins are compiled as OpenCL C without builtins (-fno-builtin), so
// their libm calls come marked nobuiltin and convergent, which keep the
// vectorizer from looking them up. A libm function neither synchronizes nor
// is anything but itself.
void releaseMathCalls(Module &M) {
  const StringSet<> &scalars = library().scalars;
  for (Function &F : M) {
    if (!F.isDeclaration() || F.isIntrinsic() || !scalars.contains(F.getName())) continue;
    F.removeFnAttr(Attribute::Convergent);
    for (User *user : F.users())
      if (auto *call = dyn_cast<CallBase>(user); call && call->getCalledFunction() == &F) {
        call->removeFnAttr(Attribute::NoBuiltin);
        call->removeFnAttr(Attribute::Convergent);
        call->removeFnAttr("no-builtins");
      }
  }
}

}  // namespace lockstep::compiler

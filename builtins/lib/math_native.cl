// half_* and native_* math builtins (OpenCL C 3.0 s6.15.2.1-2), float only.
// half_* may be off by 8192 ulp and native_* by an implementation-defined
// amount; on a CPU the full-precision functions are about as fast as any
// approximation LLVM would pick, so both forward to them and are accurate.

// Tables of macro definitions and invocations, which clang-format would run
// together; they are kept within 100 columns by hand.
// clang-format off
#include "ls_math.h"

#define LS_FORWARD_UNARY(T, NAME, TARGET) \
  LS_OVERLOAD T NAME(T x) { return TARGET(x); }
#define LS_FORWARD_BINARY(T, NAME, TARGET) \
  LS_OVERLOAD T NAME(T x, T y) { return TARGET(x, y); }
#define LS_DIVIDE(T, NAME) \
  LS_OVERLOAD T NAME(T x, T y) { return x / y; }
#define LS_RECIP(T, NAME) \
  LS_OVERLOAD T NAME(T x) { return (T)1.0f / x; }

#define LS_FLOAT_FORWARDS(PREFIX)                                 \
  LS_FOR_FLOAT_TYPES(LS_FORWARD_UNARY, PREFIX##cos, cos)          \
  LS_FOR_FLOAT_TYPES(LS_FORWARD_UNARY, PREFIX##sin, sin)          \
  LS_FOR_FLOAT_TYPES(LS_FORWARD_UNARY, PREFIX##tan, tan)          \
  LS_FOR_FLOAT_TYPES(LS_FORWARD_UNARY, PREFIX##exp, exp)          \
  LS_FOR_FLOAT_TYPES(LS_FORWARD_UNARY, PREFIX##exp2, exp2)        \
  LS_FOR_FLOAT_TYPES(LS_FORWARD_UNARY, PREFIX##exp10, exp10)      \
  LS_FOR_FLOAT_TYPES(LS_FORWARD_UNARY, PREFIX##log, log)          \
  LS_FOR_FLOAT_TYPES(LS_FORWARD_UNARY, PREFIX##log2, log2)        \
  LS_FOR_FLOAT_TYPES(LS_FORWARD_UNARY, PREFIX##log10, log10)      \
  LS_FOR_FLOAT_TYPES(LS_FORWARD_UNARY, PREFIX##rsqrt, rsqrt)      \
  LS_FOR_FLOAT_TYPES(LS_FORWARD_UNARY, PREFIX##sqrt, sqrt)        \
  LS_FOR_FLOAT_TYPES(LS_FORWARD_BINARY, PREFIX##powr, powr)       \
  LS_FOR_FLOAT_TYPES(LS_DIVIDE, PREFIX##divide)                   \
  LS_FOR_FLOAT_TYPES(LS_RECIP, PREFIX##recip)

LS_FLOAT_FORWARDS(half_)
LS_FLOAT_FORWARDS(native_)

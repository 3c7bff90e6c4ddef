// Common builtins (OpenCL C 3.0 s6.15.4) for float and double, scalar and
// vector, with the overloads that take scalar arguments beside vectors.

// Tables of macro definitions and invocations, which clang-format would run
// together; they are kept within 100 columns by hand.
// clang-format off
#include "ls_math.h"

// clamp, max, min: results are undefined for NaN and inf arguments or
// minval > maxval, so llvm.minnum/maxnum (one instruction pair on x86) do.
#define LS_COMMON_SAME(T, unused)                                                       \
  LS_OVERLOAD T clamp(T x, T lo, T hi) {                                                \
    return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi);             \
  }                                                                                     \
  LS_OVERLOAD T max(T x, T y) { return __builtin_elementwise_max(x, y); }               \
  LS_OVERLOAD T min(T x, T y) { return __builtin_elementwise_min(x, y); }               \
  LS_OVERLOAD T mix(T x, T y, T a) { return x + (y - x) * a; }                          \
  LS_OVERLOAD T step(T edge, T x) { return x < edge ? (T)0 : (T)1; }                    \
  LS_OVERLOAD T smoothstep(T edge0, T edge1, T x) {                                     \
    T t = clamp((x - edge0) / (edge1 - edge0), (T)0, (T)1);                             \
    return t * t * ((T)3 - (T)2 * t);                                                   \
  }                                                                                     \
  /* sign: +-1 for nonzero x, x itself for +-0, 0 for a NaN. */                       \
  LS_OVERLOAD T sign(T x) {                                                             \
    T s = x > (T)0 ? (T)1 : (x < (T)0 ? (T)-1 : x);                                     \
    return x != x ? (T)0 : s;                                                           \
  }
LS_FOR_FP_TYPES(LS_COMMON_SAME, 0)

// degrees/radians: one multiplication by the correctly rounded constant,
// within the 2 ulp s7.4 allows.
#define LS_DEGREES(T, DEG_PER_RAD, RAD_PER_DEG) \
  LS_OVERLOAD T degrees(T r) { return r * (T)(DEG_PER_RAD); } \
  LS_OVERLOAD T radians(T d) { return d * (T)(RAD_PER_DEG); }
#define LS_DEGREES_FLOAT(T, unused) \
  LS_DEGREES(T, 57.295779513082320876798154814105f, 0.017453292519943295769236907684886f)
#define LS_DEGREES_DOUBLE(T, unused) \
  LS_DEGREES(T, 57.295779513082320876798154814105, 0.017453292519943295769236907684886)
LS_FOR_FLOAT_TYPES(LS_DEGREES_FLOAT, 0)
LS_FOR_DOUBLE_TYPES(LS_DEGREES_DOUBLE, 0)

// The overloads with scalar arguments broadcast them and reuse the above.
#define LS_COMMON_BROADCAST(T, S, unused)                                                \
  LS_OVERLOAD T clamp(T x, S lo, S hi) { return clamp(x, (T)lo, (T)hi); }                \
  LS_OVERLOAD T max(T x, S y) { return max(x, (T)y); }                                   \
  LS_OVERLOAD T min(T x, S y) { return min(x, (T)y); }                                   \
  LS_OVERLOAD T mix(T x, T y, S a) { return mix(x, y, (T)a); }                           \
  LS_OVERLOAD T step(S edge, T x) { return step((T)edge, x); }                           \
  LS_OVERLOAD T smoothstep(S edge0, S edge1, T x) { return smoothstep((T)edge0, (T)edge1, x); }
LS_FOR_FP_VECTORS_WITH_SCALAR(LS_COMMON_BROADCAST, 0)

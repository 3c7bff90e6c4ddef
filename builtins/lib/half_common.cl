// Common (OpenCL C 3.0 s6.15.4) and geometric (s6.15.5) builtins for half
// and its vectors (cl_khr_fp16). As the math ones (half_math.cl), each is
// its float overload on the widened arguments, rounded once to half: the
// float functions are far finer than a half ulp, and length, distance and
// normalize cannot overflow in float where the half result is finite.

// Tables of macro definitions and invocations, which clang-format would run
// together; they are kept within 100 columns by hand.
// clang-format off
#include "ls_math.h"
#include "ls_gentype.h"

#define LS_F(x, N) LS_CONVERT(x, float, N)
#define LS_H(x, N) LS_CONVERT(x, half, N)

// The float overloads called are declared again first: once this file
// defines a half overload of a name, Clang 19 no longer finds the other
// overloads opencl-c.h declares under it.
#define LS_HALF_COMMON(unused, N)                                                      \
  LS_OVERLOAD float##N mix(float##N, float##N, float##N);                              \
  LS_OVERLOAD float##N step(float##N, float##N);                                       \
  LS_OVERLOAD float##N smoothstep(float##N, float##N, float##N);                       \
  LS_OVERLOAD float##N sign(float##N);                                                 \
  LS_OVERLOAD float##N degrees(float##N);                                              \
  LS_OVERLOAD float##N radians(float##N);                                              \
  /* clamp, max, min are exact: LLVM's half minnum/maxnum (vminph/vmaxph */           \
  /* with AVX512-FP16). */                                                             \
  LS_OVERLOAD half##N clamp(half##N x, half##N lo, half##N hi) {                       \
    return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi);            \
  }                                                                                    \
  LS_OVERLOAD half##N max(half##N x, half##N y) { return __builtin_elementwise_max(x, y); } \
  LS_OVERLOAD half##N min(half##N x, half##N y) { return __builtin_elementwise_min(x, y); } \
  LS_OVERLOAD half##N mix(half##N x, half##N y, half##N a) {                           \
    return LS_H(mix(LS_F(x, N), LS_F(y, N), LS_F(a, N)), N);                           \
  }                                                                                    \
  LS_OVERLOAD half##N step(half##N edge, half##N x) {                                  \
    return LS_H(step(LS_F(edge, N), LS_F(x, N)), N);                                   \
  }                                                                                    \
  LS_OVERLOAD half##N smoothstep(half##N edge0, half##N edge1, half##N x) {            \
    return LS_H(smoothstep(LS_F(edge0, N), LS_F(edge1, N), LS_F(x, N)), N);            \
  }                                                                                    \
  LS_OVERLOAD half##N sign(half##N x) { return LS_H(sign(LS_F(x, N)), N); }            \
  LS_OVERLOAD half##N degrees(half##N r) { return LS_H(degrees(LS_F(r, N)), N); }      \
  LS_OVERLOAD half##N radians(half##N d) { return LS_H(radians(LS_F(d, N)), N); }
LS_FOR_EACH_WIDTH(LS_HALF_COMMON, 0)

// The overloads with scalar arguments broadcast them.
#define LS_HALF_COMMON_BROADCAST(T, S, unused)                                           \
  LS_OVERLOAD T clamp(T x, S lo, S hi) { return clamp(x, (T)lo, (T)hi); }                \
  LS_OVERLOAD T max(T x, S y) { return max(x, (T)y); }                                   \
  LS_OVERLOAD T min(T x, S y) { return min(x, (T)y); }                                   \
  LS_OVERLOAD T mix(T x, T y, S a) { return mix(x, y, (T)a); }                           \
  LS_OVERLOAD T step(S edge, T x) { return step((T)edge, x); }                           \
  LS_OVERLOAD T smoothstep(S edge0, S edge1, T x) { return smoothstep((T)edge0, (T)edge1, x); }
LS_FOR_HALF_VECTORS_WITH_SCALAR(LS_HALF_COMMON_BROADCAST, 0)

// Geometric functions of half, half2, half3 and half4.
#define LS_HALF_GEOMETRY(unused, N)                                                    \
  LS_OVERLOAD float dot(float##N, float##N);                                           \
  LS_OVERLOAD float length(float##N);                                                  \
  LS_OVERLOAD float distance(float##N, float##N);                                      \
  LS_OVERLOAD float##N normalize(float##N);                                            \
  LS_OVERLOAD half dot(half##N p0, half##N p1) {                                       \
    return (half)dot(LS_F(p0, N), LS_F(p1, N));                                        \
  }                                                                                    \
  LS_OVERLOAD half length(half##N p) { return (half)length(LS_F(p, N)); }              \
  LS_OVERLOAD half distance(half##N p0, half##N p1) {                                  \
    return (half)distance(LS_F(p0, N), LS_F(p1, N));                                   \
  }                                                                                    \
  LS_OVERLOAD half##N normalize(half##N p) { return LS_H(normalize(LS_F(p, N)), N); }
LS_HALF_GEOMETRY(0, )
LS_HALF_GEOMETRY(0, 2)
LS_HALF_GEOMETRY(0, 3)
LS_HALF_GEOMETRY(0, 4)

LS_OVERLOAD float3 cross(float3, float3);
LS_OVERLOAD float4 cross(float4, float4);
LS_OVERLOAD half3 cross(half3 p0, half3 p1) { return LS_H(cross(LS_F(p0, 3), LS_F(p1, 3)), 3); }
LS_OVERLOAD half4 cross(half4 p0, half4 p1) { return LS_H(cross(LS_F(p0, 4), LS_F(p1, 4)), 4); }

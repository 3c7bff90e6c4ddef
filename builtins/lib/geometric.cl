// Geometric builtins (OpenCL C 3.0 s6.15.5) for float and double scalars and
// vectors of 2, 3 and 4 components.
//
// length, distance and normalize must not overflow or underflow where the
// result itself is representable: float is computed in double (squares of
// floats cannot overflow there), double is scaled by a power of two first.

// Tables of macro definitions and invocations, which clang-format would run
// together; they are kept within 100 columns by hand.
// clang-format off
#include "ls_math.h"

LS_HELPER double ls_sum_of_squares(double p) { return p * p; }
LS_HELPER double ls_sum_of_squares(double2 p) { return p.x * p.x + p.y * p.y; }
LS_HELPER double ls_sum_of_squares(double3 p) { return p.x * p.x + p.y * p.y + p.z * p.z; }
LS_HELPER double ls_sum_of_squares(double4 p) {
  return p.x * p.x + p.y * p.y + p.z * p.z + p.w * p.w;
}
LS_HELPER double ls_max_magnitude(double p) { return __builtin_elementwise_abs(p); }
LS_HELPER double ls_max_magnitude(double2 p) {
  double2 a = __builtin_elementwise_abs(p);
  return __builtin_elementwise_max(a.x, a.y);
}
LS_HELPER double ls_max_magnitude(double3 p) {
  double3 a = __builtin_elementwise_abs(p);
  return __builtin_elementwise_max(__builtin_elementwise_max(a.x, a.y), a.z);
}
LS_HELPER double ls_max_magnitude(double4 p) {
  double4 a = __builtin_elementwise_abs(p);
  return __builtin_elementwise_max(__builtin_elementwise_max(a.x, a.y),
                                   __builtin_elementwise_max(a.z, a.w));
}
LS_HELPER double ls_to_double(float p) { return (double)p; }
LS_HELPER double2 ls_to_double(float2 p) { return __builtin_convertvector(p, double2); }
LS_HELPER double3 ls_to_double(float3 p) { return __builtin_convertvector(p, double3); }
LS_HELPER double4 ls_to_double(float4 p) { return __builtin_convertvector(p, double4); }
LS_HELPER float ls_to_float(double p) { return (float)p; }
LS_HELPER float2 ls_to_float(double2 p) { return __builtin_convertvector(p, float2); }
LS_HELPER float3 ls_to_float(double3 p) { return __builtin_convertvector(p, float3); }
LS_HELPER float4 ls_to_float(double4 p) { return __builtin_convertvector(p, float4); }

// A power of two bringing the largest component near 1, so that the sum of
// squares neither overflows nor loses the small components to underflow.
// Max ignores NaNs, which then reach the sum. Exact, so it is undone exactly.
LS_HELPER double ls_length_scale(double largest) {
  return largest > 0x1p+500 ? 0x1p-600 : (largest < 0x1p-500 ? 0x1p+600 : 1.0);
}

// normalize of a vector with infinite components works on the vector of
// +-1 where they are and +-0 (or NaN) elsewhere (s6.15.5).
#define LS_GEOMETRY(N)                                                                 \
  LS_OVERLOAD float dot(float##N p0, float##N p1) {                                    \
    return ls_sum_of_products(p0, p1);                                                 \
  }                                                                                    \
  LS_OVERLOAD double dot(double##N p0, double##N p1) {                                 \
    return ls_sum_of_products(p0, p1);                                                 \
  }                                                                                    \
  LS_OVERLOAD float length(float##N p) {                                               \
    return (float)__builtin_elementwise_sqrt(ls_sum_of_squares(ls_to_double(p)));      \
  }                                                                                    \
  LS_OVERLOAD double length(double##N p) {                                             \
    double scale = ls_length_scale(ls_max_magnitude(p));                               \
    return __builtin_elementwise_sqrt(ls_sum_of_squares(p * scale)) / scale;           \
  }                                                                                    \
  LS_OVERLOAD float distance(float##N p0, float##N p1) {                               \
    double##N d = ls_to_double(p0) - ls_to_double(p1);                                 \
    return (float)__builtin_elementwise_sqrt(ls_sum_of_squares(d));                    \
  }                                                                                    \
  LS_OVERLOAD double distance(double##N p0, double##N p1) { return length(p0 - p1); }  \
  LS_OVERLOAD float##N normalize(float##N p) {                                         \
    double##N d = ls_to_double(p);                                                     \
    d = ls_infinities_to_units(d);                                                     \
    double##N r = d / __builtin_elementwise_sqrt(ls_sum_of_squares(d));                \
    return ls_sum_of_squares(d) == 0.0 ? p : ls_to_float(r);                           \
  }                                                                                    \
  /* Tiny vectors are scaled up exactly; for huge ones the scale keeps the */        \
  /* sum of squares in range, and components that scaling would push below */         \
  /* the normal range are divided by the unscaled length instead. */                  \
  LS_OVERLOAD double##N normalize(double##N p) {                                       \
    double##N u = ls_infinities_to_units(p);                                           \
    if (ls_max_magnitude(u) < 0x1p-500) u *= 0x1p+600;                                 \
    double scale = ls_max_magnitude(u) > 0x1p+500 ? 0x1p-600 : 1.0;                    \
    double##N scaled = u * scale;                                                      \
    double sum = ls_sum_of_squares(scaled);                                            \
    double root = __builtin_elementwise_sqrt(sum);                                     \
    double##N direct = scaled / root, reciprocal = u * (scale / root);                 \
    double##N r = __builtin_elementwise_abs(scaled) < 0x1p-1000 ? reciprocal : direct; \
    return sum == 0.0 ? p : r;                                                         \
  }                                                                                    \
  LS_OVERLOAD float fast_length(float##N p) {                                          \
    return __builtin_elementwise_sqrt(ls_sum_of_products(p, p));                       \
  }                                                                                    \
  LS_OVERLOAD float fast_distance(float##N p0, float##N p1) {                          \
    return fast_length(p0 - p1);                                                       \
  }                                                                                    \
  LS_OVERLOAD float##N fast_normalize(float##N p) {                                    \
    float sum = ls_sum_of_products(p, p);                                              \
    return sum == 0.0f ? p : p / __builtin_elementwise_sqrt(sum);                      \
  }

#define LS_DOT_HELPERS(T)                                                              \
  LS_HELPER T ls_sum_of_products(T p, T q) { return p * q; }                           \
  LS_HELPER T ls_sum_of_products(T##2 p, T##2 q) { return p.x * q.x + p.y * q.y; }     \
  LS_HELPER T ls_sum_of_products(T##3 p, T##3 q) {                                     \
    return p.x * q.x + p.y * q.y + p.z * q.z;                                          \
  }                                                                                    \
  LS_HELPER T ls_sum_of_products(T##4 p, T##4 q) {                                     \
    return p.x * q.x + p.y * q.y + p.z * q.z + p.w * q.w;                              \
  }
LS_DOT_HELPERS(float)
LS_DOT_HELPERS(double)

#define LS_INF_TO_UNITS(T)                                                             \
  LS_HELPER T ls_infinities_to_units(T p) {                                            \
    T a = __builtin_elementwise_abs(p);                                                \
    T units = a == (T)INFINITY ? __builtin_elementwise_copysign((T)1, p) : (T)0 * p;   \
    return ls_max_magnitude(a) == INFINITY ? units : p;                                \
  }
LS_INF_TO_UNITS(double)
LS_INF_TO_UNITS(double2)
LS_INF_TO_UNITS(double3)
LS_INF_TO_UNITS(double4)

LS_GEOMETRY()
LS_GEOMETRY(2)
LS_GEOMETRY(3)
LS_GEOMETRY(4)

// cross of 4-component vectors leaves w = 0.
#define LS_CROSS(T)                                                                    \
  LS_OVERLOAD T##3 cross(T##3 p0, T##3 p1) {                                           \
    return (T##3)(p0.y * p1.z - p0.z * p1.y, p0.z * p1.x - p0.x * p1.z,                \
                  p0.x * p1.y - p0.y * p1.x);                                          \
  }                                                                                    \
  LS_OVERLOAD T##4 cross(T##4 p0, T##4 p1) {                                           \
    return (T##4)(cross(p0.xyz, p1.xyz), (T)0);                                        \
  }
LS_CROSS(float)
LS_CROSS(double)

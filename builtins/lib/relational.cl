// Relational builtins (OpenCL C 3.0 s6.15.6). The comparisons return what
// OpenCL C's own operators return: int 1/0 for scalars, -1/0 of the signed
// integer type of the element size (shortn for half, intn for float, longn
// for double) for vectors, so each builtin is its operator, and NaNs compare
// unordered.

// Tables of macro definitions and invocations, which clang-format would run
// together; they are kept within 100 columns by hand.
// clang-format off
#include "ls_math.h"

#define LS_COMPARISONS(T, unused)                                                    \
  LS_OVERLOAD __typeof__((T)0 == (T)0) isequal(T x, T y) { return x == y; }          \
  LS_OVERLOAD __typeof__((T)0 == (T)0) isnotequal(T x, T y) { return x != y; }       \
  LS_OVERLOAD __typeof__((T)0 == (T)0) isgreater(T x, T y) { return x > y; }         \
  LS_OVERLOAD __typeof__((T)0 == (T)0) isgreaterequal(T x, T y) { return x >= y; }   \
  LS_OVERLOAD __typeof__((T)0 == (T)0) isless(T x, T y) { return x < y; }            \
  LS_OVERLOAD __typeof__((T)0 == (T)0) islessequal(T x, T y) { return x <= y; }      \
  LS_OVERLOAD __typeof__((T)0 == (T)0) islessgreater(T x, T y) {                     \
    return (x < y) | (x > y);                                                        \
  }                                                                                  \
  LS_OVERLOAD __typeof__((T)0 == (T)0) isordered(T x, T y) {                         \
    return (x == x) & (y == y);                                                      \
  }                                                                                  \
  LS_OVERLOAD __typeof__((T)0 == (T)0) isunordered(T x, T y) {                       \
    return (x != x) | (y != y);                                                      \
  }                                                                                  \
  LS_OVERLOAD __typeof__((T)0 == (T)0) isnan(T x) { return x != x; }                 \
  LS_OVERLOAD __typeof__((T)0 == (T)0) isfinite(T x) {                               \
    return __builtin_elementwise_abs(x) < (T)INFINITY;                               \
  }                                                                                  \
  LS_OVERLOAD __typeof__((T)0 == (T)0) isinf(T x) {                                  \
    return __builtin_elementwise_abs(x) == (T)INFINITY;                              \
  }
LS_FOR_FP_TYPES(LS_COMPARISONS, 0)
LS_FOR_HALF_TYPES(LS_COMPARISONS, 0)

// isnormal and signbit need the type's limits and sign bit.
#define LS_CLASSIFY(T, MIN_NORMAL, AS_SIGNED)                                 \
  LS_OVERLOAD __typeof__((T)0 == (T)0) isnormal(T x) {                               \
    T a = __builtin_elementwise_abs(x);                                              \
    return (a >= (T)(MIN_NORMAL)) & (a < (T)INFINITY);                               \
  }                                                                                  \
  LS_OVERLOAD __typeof__((T)0 == (T)0) signbit(T x) {                            \
    return AS_SIGNED(x) < (__typeof__(AS_SIGNED(x)))0;                                \
  }
#define LS_CLASSIFY_FLOAT(N) LS_CLASSIFY(float##N, FLT_MIN, as_int##N)
#define LS_CLASSIFY_DOUBLE(N) LS_CLASSIFY(double##N, DBL_MIN, as_long##N)
#define LS_CLASSIFY_HALF(N) LS_CLASSIFY(half##N, HALF_MIN, as_short##N)
LS_CLASSIFY_FLOAT() LS_CLASSIFY_FLOAT(2) LS_CLASSIFY_FLOAT(3) LS_CLASSIFY_FLOAT(4)
LS_CLASSIFY_FLOAT(8) LS_CLASSIFY_FLOAT(16)
LS_CLASSIFY_DOUBLE() LS_CLASSIFY_DOUBLE(2) LS_CLASSIFY_DOUBLE(3) LS_CLASSIFY_DOUBLE(4)
LS_CLASSIFY_DOUBLE(8) LS_CLASSIFY_DOUBLE(16)
LS_CLASSIFY_HALF() LS_CLASSIFY_HALF(2) LS_CLASSIFY_HALF(3) LS_CLASSIFY_HALF(4) LS_CLASSIFY_HALF(8)
LS_CLASSIFY_HALF(16)

// any/all test the most significant bit of each component: ORing (ANDing)
// all components leaves it set exactly when some (every) component has it.
#define LS_ANY_ALL_SCALAR(T)                          \
  LS_OVERLOAD int any(T x) { return x < (T)0; }       \
  LS_OVERLOAD int all(T x) { return x < (T)0; }
#define LS_ANY_ALL_VECTOR(T, unused)                                       \
  LS_OVERLOAD int any(T x) { return __builtin_reduce_or(x) < 0; }          \
  LS_OVERLOAD int all(T x) { return __builtin_reduce_and(x) < 0; }
#define LS_ANY_ALL(T) \
  LS_ANY_ALL_SCALAR(T) LS_ANY_ALL_VECTOR(T##2, 0) LS_ANY_ALL_VECTOR(T##3, 0) \
  LS_ANY_ALL_VECTOR(T##4, 0) LS_ANY_ALL_VECTOR(T##8, 0) LS_ANY_ALL_VECTOR(T##16, 0)
LS_ANY_ALL(char)
LS_ANY_ALL(short)
LS_ANY_ALL(int)
LS_ANY_ALL(long)

// bitselect: each result bit from b where c has a 1, from a elsewhere.
// select: each component from b where c's most significant bit is set (the
// scalar form: where c is nonzero), from a elsewhere. U is the unsigned
// integer type of the element size; S, the signed one.
#define LS_SELECTS(T, S, U)                                                    \
  LS_OVERLOAD T bitselect(T a, T b, T c) {                                           \
    U ua = __builtin_bit_cast(U, a), ub = __builtin_bit_cast(U, b);                  \
    U uc = __builtin_bit_cast(U, c);                                                 \
    return __builtin_bit_cast(T, (ua & ~uc) | (ub & uc));                            \
  }                                                                                  \
  LS_OVERLOAD T select(T a, T b, S c) { return LS_SELECT_BY(c < (S)0, a, b); }       \
  LS_OVERLOAD T select(T a, T b, U c) {                                              \
    return LS_SELECT_BY(__builtin_bit_cast(S, c) < (S)0, a, b);                      \
  }
#define LS_SELECT_BY(mask, a, b) ((mask) ? (b) : (a))
#define LS_SELECTS_SCALAR(T, S, U)                                                   \
  LS_OVERLOAD T bitselect(T a, T b, T c) {                                           \
    U ua = __builtin_bit_cast(U, a), ub = __builtin_bit_cast(U, b);                  \
    U uc = __builtin_bit_cast(U, c);                                                 \
    return __builtin_bit_cast(T, (U)((ua & ~uc) | (ub & uc)));                       \
  }                                                                                  \
  LS_OVERLOAD T select(T a, T b, S c) { return c ? b : a; }                          \
  LS_OVERLOAD T select(T a, T b, U c) { return c ? b : a; }
#define LS_ALL_SELECTS(T, S, U)                                                       \
  LS_SELECTS_SCALAR(T, S, U)                                                         \
  LS_SELECTS(T##2, S##2, U##2) LS_SELECTS(T##3, S##3, U##3)                          \
  LS_SELECTS(T##4, S##4, U##4) LS_SELECTS(T##8, S##8, U##8)                          \
  LS_SELECTS(T##16, S##16, U##16)
LS_ALL_SELECTS(char, char, uchar)
LS_ALL_SELECTS(uchar, char, uchar)
LS_ALL_SELECTS(short, short, ushort)
LS_ALL_SELECTS(ushort, short, ushort)
LS_ALL_SELECTS(int, int, uint)
LS_ALL_SELECTS(uint, int, uint)
LS_ALL_SELECTS(long, long, ulong)
LS_ALL_SELECTS(ulong, long, ulong)
LS_ALL_SELECTS(half, short, ushort)
LS_ALL_SELECTS(float, int, uint)
LS_ALL_SELECTS(double, long, ulong)

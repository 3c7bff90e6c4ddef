// Work-group collective functions (OpenCL C 3.0, __opencl_c_work_group_
// collective_functions): work_group_all/any, work_group_broadcast in its 1D,
// 2D and 3D forms, and work_group_reduce/scan_inclusive/scan_exclusive with
// add, min and max, for int, uint, long, ulong, float and double. Values are
// chosen so that every sum is exact; scans follow the linear local id.
#include <algorithm>
#include <limits>

#include "SyncTest.h"

namespace lockstep::test::sync {
namespace {

// Eleven results per item: reduce add/min/max, inclusive and exclusive scans
// of add/min/max, all(v != 0), any(v == 7).
const char *kCollectives = R"CLC(
kernel void coll_TYPE(global const TYPE *in, global TYPE *out) {
  TYPE v = in[GIDX];
  global TYPE *o = out + 11 * GIDX;
  o[0] = work_group_reduce_add(v);
  o[1] = work_group_reduce_min(v);
  o[2] = work_group_reduce_max(v);
  o[3] = work_group_scan_inclusive_add(v);
  o[4] = work_group_scan_inclusive_min(v);
  o[5] = work_group_scan_inclusive_max(v);
  o[6] = work_group_scan_exclusive_add(v);
  o[7] = work_group_scan_exclusive_min(v);
  o[8] = work_group_scan_exclusive_max(v);
  /* all/any return some non-zero value for true */
  o[9] = (TYPE)(work_group_all(v != (TYPE)0) != 0);
  o[10] = (TYPE)(work_group_any(v == (TYPE)7) != 0);
}
kernel void bcast1_TYPE(global const TYPE *in, global TYPE *out, uint x, uint y, uint z) {
  out[GIDX] = work_group_broadcast(in[GIDX], (size_t)x) + in[GIDX];
}
kernel void bcast2_TYPE(global const TYPE *in, global TYPE *out, uint x, uint y, uint z) {
  out[GIDX] = work_group_broadcast(in[GIDX], (size_t)x, (size_t)y) + in[GIDX];
}
kernel void bcast3_TYPE(global const TYPE *in, global TYPE *out, uint x, uint y, uint z) {
  out[GIDX] = work_group_broadcast(in[GIDX], (size_t)x, (size_t)y, (size_t)z) + in[GIDX];
}
)CLC";

template <typename T>
struct TypeName;
#define TYPE_NAME(T, name)                     \
  template <>                                  \
  struct TypeName<T> {                         \
    static constexpr const char *value = name; \
  };
TYPE_NAME(cl_int, "int")
TYPE_NAME(cl_uint, "uint")
TYPE_NAME(cl_long, "long")
TYPE_NAME(cl_ulong, "ulong")
TYPE_NAME(cl_float, "float")
TYPE_NAME(cl_double, "double")
#undef TYPE_NAME

// The exclusive scans' identities: 0, the largest value, the smallest value
// (infinities for floating point, as the spec says).
template <typename T>
T minIdentity() {
  if constexpr (std::numeric_limits<T>::has_infinity) return std::numeric_limits<T>::infinity();
  return std::numeric_limits<T>::max();
}
template <typename T>
T maxIdentity() {
  if constexpr (std::numeric_limits<T>::has_infinity) return -std::numeric_limits<T>::infinity();
  return std::numeric_limits<T>::lowest();
}

template <typename T>
void collectiveReference(const Group &g, const std::vector<T> &in, std::vector<T> &want) {
  T sum = 0, lo = minIdentity<T>(), hi = maxIdentity<T>();
  bool all = true, any = false;
  for (const Item &it : g.items) {
    T v = in[it.index];
    T *o = &want[11 * it.index];
    o[6] = sum, o[7] = lo, o[8] = hi;
    sum = T(sum + v), lo = std::min(lo, v), hi = std::max(hi, v);
    o[3] = sum, o[4] = lo, o[5] = hi;
    all = all && v != T(0);
    any = any || v == T(7);
  }
  for (const Item &it : g.items) {
    T *o = &want[11 * it.index];
    o[0] = sum, o[1] = lo, o[2] = hi, o[9] = T(all), o[10] = T(any);
  }
}

class Collectives : public SyncTest {
 protected:
  void SetUp() override {
    SyncTest::SetUp();
    if (!hasFeature("__opencl_c_work_group_collective_functions"))
      GTEST_SKIP() << "no __opencl_c_work_group_collective_functions";
  }

  // Values whose sums over a group are exact in T; zeros and sevens appear
  // often enough that all() and any() come out both ways over the groups.
  template <typename T>
  T value(std::mt19937 &rng) {
    std::uniform_int_distribution<int> pick(0, 299);
    int p = pick(rng);
    if (p == 0) return T(0);
    if (p == 1) return T(7);
    if constexpr (std::is_same_v<T, cl_long> || std::is_same_v<T, cl_double>)
      return T(std::uniform_int_distribution<int64_t>(-(1LL << 40), 1LL << 40)(rng));
    else if constexpr (std::is_same_v<T, cl_ulong>)
      return T(std::uniform_int_distribution<uint64_t>(0, ~0ULL)(rng));  // sums wrap
    else if constexpr (std::is_same_v<T, cl_uint>)
      return T(std::uniform_int_distribution<uint32_t>(0, ~0U)(rng));
    else
      return T(std::uniform_int_distribution<int>(-10000, 10000)(rng));  // float sums < 2^24
  }

  template <typename T>
  void checkType() {
    const std::string type = TypeName<T>::value;
    if (type == "double" && !hasFeature("__opencl_c_fp64")) GTEST_SKIP() << "no fp64";
    cl_program program = makeProgram(instantiate(kCollectives, type));
    ASSERT_NE(program, nullptr);
    std::vector<T> data(1 << 16);
    for (T &x : data) x = value<T>(rng_);
    {
      SCOPED_TRACE("coll_" + type);
      PerItem<T, T> spec;
      spec.perItem = 11;
      spec.input = [&](size_t i) { return data[i]; };
      spec.reference = [](const Shape &, const Group &g, const std::vector<T> &in,
                          std::vector<T> &want) { collectiveReference(g, in, want); };
      checkPerItem(kernelOf(program, ("coll_" + type).c_str()), allShapes(device_), spec);
    }
    for (cl_uint dims = 1; dims <= 3; ++dims) {
      SCOPED_TRACE("bcast" + std::to_string(dims) + "_" + type);
      checkBroadcast<T>(kernelOf(program, ("bcast" + std::to_string(dims) + "_" + type).c_str()),
                        dims, data);
    }
  }

  // The broadcast kernel of one form over the shapes of that many
  // dimensions; the source item is the last one every group (remainder
  // groups included) has, or its middle.
  template <typename T>
  void checkBroadcast(cl_kernel k, cl_uint dims, const std::vector<T> &data) {
    for (bool middle : {false, true}) {
      std::vector<Shape> shapes;
      for (const Shape &s : allShapes(device_))
        if (s.dims == dims) shapes.push_back(s);
      std::array<cl_uint, 3> source{};
      PerItem<T, T> spec;
      spec.input = [&](size_t i) { return data[i]; };
      spec.extra = [&](cl_kernel kernel, const Shape &s) {
        for (int d = 0; d < 3; ++d) {
          size_t smallest = s.global[d] % s.local[d] ? s.global[d] % s.local[d] : s.local[d];
          smallest = std::min(smallest, s.local[d]);
          source[d] = cl_uint(middle ? smallest / 2 : smallest - 1);
        }
        return setKernelArgs(kernel, 2, source[0], source[1], source[2]);
      };
      spec.reference = [&](const Shape &, const Group &g, const std::vector<T> &in,
                           std::vector<T> &want) {
        T from{};
        for (const Item &it : g.items)
          if (it.local[0] == source[0] && it.local[1] == source[1] && it.local[2] == source[2])
            from = in[it.index];
        for (const Item &it : g.items) want[it.index] = T(from + in[it.index]);
      };
      checkPerItem(k, shapes, spec);
    }
  }
};

// OpenCL 3.0: the device query and the feature macro tell the same story.
TEST_F(Collectives, DeviceQueryAgreesWithTheFeature) {
  EXPECT_EQ(deviceInfo<cl_bool>(device_, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT),
            cl_bool(CL_TRUE))
      << "__opencl_c_work_group_collective_functions is listed";
}

TEST_F(Collectives, Int) { checkType<cl_int>(); }
TEST_F(Collectives, Uint) { checkType<cl_uint>(); }
TEST_F(Collectives, Long) { checkType<cl_long>(); }
TEST_F(Collectives, Ulong) { checkType<cl_ulong>(); }
TEST_F(Collectives, Float) { checkType<cl_float>(); }
TEST_F(Collectives, Double) { checkType<cl_double>(); }

// Collectives where barriers are: in a loop with a trip count from an
// argument, in both arms of a uniform branch, and mixed with barriers and
// __local memory, so the compiler must cut the body at both kinds.
const char *kCollectivesInControlFlow = R"CLC(
kernel void coll_flow(global const int *in, global int *out, local int *buf, int rounds) {
  uint lid = LID, n = LSZ;
  int v = in[GIDX];
  for (int r = 0; r < rounds; ++r) {
    int total = work_group_reduce_add(v);
    buf[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = buf[(lid + 1) % n] + (total & 0xff);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (GRP % 2)
    v = work_group_scan_inclusive_add(v);
  else
    v = work_group_broadcast(v, (size_t)0) - work_group_reduce_max(v);
  out[GIDX] = v;
}
)CLC";

TEST_F(Collectives, InLoopsAndBranchesBesideBarriers) {
  const int rounds = 3;
  std::vector<int> data = randomInts(1 << 16, -1000, 1000);
  PerItem<int, int> spec;
  spec.input = [&](size_t i) { return data[i]; };
  spec.extra = [&](cl_kernel k, const Shape &s) {
    return setKernelArgs(k, 2, LocalBytes{s.groupItems() * 4}, rounds);
  };
  spec.reference = [&](const Shape &, const Group &g, const std::vector<int> &in,
                       std::vector<int> &want) {
    const size_t n = g.count();
    std::vector<int> v(n);
    for (size_t l = 0; l < n; ++l) v[l] = in[g.items[l].index];
    for (int r = 0; r < rounds; ++r) {
      int total = 0;
      for (int x : v) total += x;
      std::vector<int> next(n);
      for (size_t l = 0; l < n; ++l) next[l] = v[(l + 1) % n] + (total & 0xff);
      v = next;
    }
    if (g.linearId % 2) {
      for (size_t l = 1; l < n; ++l) v[l] += v[l - 1];
    } else {
      int first = v[0], mx = *std::max_element(v.begin(), v.end());
      for (int &x : v) x = first - mx;
    }
    for (size_t l = 0; l < n; ++l) want[g.items[l].index] = v[l];
  };
  checkPerItem(make(kCollectivesInControlFlow, "coll_flow"), allShapes(device_), spec);
}

}  // namespace
}  // namespace lockstep::test::sync

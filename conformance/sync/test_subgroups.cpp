// Sub-groups (OpenCL C 3.0 __opencl_c_subgroups / cl_khr_subgroups): the
// queries agree with each other and partition the linear local id into
// consecutive blocks of get_max_sub_group_size() (the last may be smaller);
// sub_group_barrier in both forms; and sub_group_all/any/broadcast/reduce/
// scan for every type, checked per sub-group with the sizes the device
// reports. Sub-group operations stand in control flow that is uniform over
// the whole work-group, as the implementation requires.
#include <algorithm>
#include <limits>

#include "SyncTest.h"

namespace lockstep::test::sync {
namespace {

using u32 = uint32_t;

class SubGroups : public SubGroupTest {
 protected:
  // Blocks of `size` consecutive items (by linear local id) of a group.
  static std::vector<std::vector<size_t>> subGroupsOf(const Group &g, size_t size) {
    std::vector<std::vector<size_t>> blocks;
    for (size_t first = 0; first < g.count(); first += size) {
      blocks.emplace_back();
      for (size_t l = first; l < std::min(g.count(), first + size); ++l) blocks.back().push_back(l);
    }
    return blocks;
  }
  template <typename T>
  using SubGroupReference =
      std::function<void(size_t size, const Group &, const std::vector<T> &in, std::vector<T> &want)>;
  // checkPerItem over every shape the kernel fits; the reference is also told
  // the sub-group size the device uses for the shape.
  template <typename T>
  void checkEveryShape(cl_program program, cl_kernel k, PerItem<T, T> spec, const SubGroupReference<T> &reference) {
    for (const Shape &shape : allShapes(device_)) {
      SCOPED_TRACE("shape " + shape.name());
      if (!fits(k, shape)) continue;
      const size_t size = maxSubGroupSize(program, shape);
      spec.reference = [&](const Shape &, const Group &g, const std::vector<T> &in, std::vector<T> &want) {
        reference(size, g, in, want);
      };
      checkPerItem(k, {shape}, spec);
    }
  }
};

const char *kQueries = R"CLC(
kernel void sg_queries(global const uint *in, global uint *out) {
  global uint *o = out + 6 * GIDX;
  o[0] = get_sub_group_size();
  o[1] = get_max_sub_group_size();
  o[2] = get_num_sub_groups();
  o[3] = get_enqueued_num_sub_groups();
  o[4] = get_sub_group_id();
  o[5] = get_sub_group_local_id();
}
)CLC";

TEST_F(SubGroups, QueriesPartitionTheGroupIntoConsecutiveBlocks) {
  EXPECT_GT(deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_NUM_SUB_GROUPS), 0u)
      << "CL_DEVICE_MAX_NUM_SUB_GROUPS must be at least 1 where sub-groups are supported";
  cl_program program = makeProgram(std::string(kQueries) + kSubGroupSizeKernel);
  ASSERT_NE(program, nullptr);
  cl_kernel k = kernelOf(program, "sg_queries");
  for (const Shape &shape : allShapes(device_)) {
    SCOPED_TRACE("shape " + shape.name());
    if (!fits(k, shape)) continue;
    const size_t n = shape.items();
    cl_mem in = buffer(CL_MEM_READ_ONLY, n * 4), out = buffer(CL_MEM_WRITE_ONLY, 6 * n * 4);
    ASSERT_CL(setKernelArgs(k, 0, in, out));
    ASSERT_TRUE(launch(k, shape));
    std::vector<u32> got = read<u32>(out, 6 * n);
    const u32 max = got[1];
    ASSERT_GE(max, 1u);
    ASSERT_LE(max, shape.groupItems()) << "a sub-group is never larger than the group";
    // The kernel's own query for this local size agrees.
    size_t fromApi = 0;
    cl_int err = clGetKernelSubGroupInfo(k, device_, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                         shape.dims * sizeof(size_t), shape.local.data(),
                                         sizeof fromApi, &fromApi, nullptr);
    EXPECT_EQ(err, CL_SUCCESS) << errorName(err) << " from clGetKernelSubGroupInfo";
    if (err == CL_SUCCESS) {
      EXPECT_EQ(fromApi, max);
    }
    const u32 enqueued = u32((shape.groupItems() + max - 1) / max);
    std::vector<u32> want(6 * n);
    for (const Group &g : groupsOf(shape)) {
      const u32 count = u32(g.count()), num = (count + max - 1) / max;
      for (size_t l = 0; l < g.count(); ++l) {
        u32 id = u32(l) / max, *o = &want[6 * g.items[l].index];
        o[0] = std::min(max, count - id * max);
        o[1] = max;
        o[2] = num;
        o[3] = enqueued;
        o[4] = id;
        o[5] = u32(l) % max;
      }
    }
    EXPECT_TRUE(sameValues(got, want));
  }
}

// Exchanges within each sub-group through __local memory, with
// sub_group_barrier(flags) and sub_group_barrier(flags, scope).
const char *kSubGroupBarrier = R"CLC(
kernel void sg_barrier(global const uint *in, global uint *out, local uint *buf) {
  uint lid = LID, sgs = get_sub_group_size(), sgl = get_sub_group_local_id();
  uint base = lid - sgl;
  buf[lid] = in[GIDX];
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  uint a = buf[base + (sgl + 1) % sgs];
  sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);
  buf[lid] = a * 3u + sgl;
  sub_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE, memory_scope_work_group);
  out[GIDX] = buf[base + sgs - 1 - sgl];
}
)CLC";

TEST_F(SubGroups, SubGroupBarrierBothForms) {
  cl_program program = makeProgram(std::string(kSubGroupBarrier) + kSubGroupSizeKernel);
  ASSERT_NE(program, nullptr);
  cl_kernel k = kernelOf(program, "sg_barrier");
  std::vector<int> data = randomInts(1 << 16, 0, 1 << 20);
  PerItem<u32, u32> spec;
  spec.input = [&](size_t i) { return u32(data[i]); };
  spec.extra = [](cl_kernel k, const Shape &s) { return setKernelArgs(k, 2, LocalBytes{s.groupItems() * 4}); };
  checkEveryShape<u32>(program, k, spec,
                       [&](size_t size, const Group &g, const std::vector<u32> &in, std::vector<u32> &want) {
                         for (const std::vector<size_t> &sg : subGroupsOf(g, size)) {
                           const size_t m = sg.size();
                           std::vector<u32> b(m);
                           for (size_t j = 0; j < m; ++j) b[j] = in[g.items[sg[(j + 1) % m]].index] * 3u + u32(j);
                           for (size_t j = 0; j < m; ++j) want[g.items[sg[j]].index] = b[m - 1 - j];
                         }
                       });
}

const char *kSubGroupCollectives = R"CLC(
kernel void sg_coll_TYPE(global const TYPE *in, global TYPE *out) {
  TYPE v = in[GIDX];
  global TYPE *o = out + 12 * GIDX;
  o[0] = sub_group_reduce_add(v);
  o[1] = sub_group_reduce_min(v);
  o[2] = sub_group_reduce_max(v);
  o[3] = sub_group_scan_inclusive_add(v);
  o[4] = sub_group_scan_inclusive_min(v);
  o[5] = sub_group_scan_inclusive_max(v);
  o[6] = sub_group_scan_exclusive_add(v);
  o[7] = sub_group_scan_exclusive_min(v);
  o[8] = sub_group_scan_exclusive_max(v);
  o[9] = (TYPE)(sub_group_all(v != (TYPE)0) != 0);
  o[10] = (TYPE)(sub_group_any(v == (TYPE)7) != 0);
  o[11] = sub_group_broadcast(v, (get_sub_group_id() * 3) % get_sub_group_size());
}
)CLC";

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
void subGroupReference(const Group &g, const std::vector<size_t> &sg, size_t sgId,
                       const std::vector<T> &in, std::vector<T> &want) {
  T sum = 0, lo = minIdentity<T>(), hi = maxIdentity<T>();
  bool all = true, any = false;
  for (size_t l : sg) {
    T v = in[g.items[l].index], *o = &want[12 * g.items[l].index];
    o[6] = sum, o[7] = lo, o[8] = hi;
    sum = T(sum + v), lo = std::min(lo, v), hi = std::max(hi, v);
    o[3] = sum, o[4] = lo, o[5] = hi;
    all = all && v != T(0);
    any = any || v == T(7);
  }
  T from = in[g.items[sg[(sgId * 3) % sg.size()]].index];
  for (size_t l : sg) {
    T *o = &want[12 * g.items[l].index];
    o[0] = sum, o[1] = lo, o[2] = hi, o[9] = T(all), o[10] = T(any), o[11] = from;
  }
}

class SubGroupCollectives : public SubGroups {
 protected:
  template <typename T>
  void checkType(const std::string &type) {
    if (type == "double" && !hasFeature("__opencl_c_fp64")) GTEST_SKIP() << "no fp64";
    cl_program program = makeProgram(instantiate(kSubGroupCollectives, type) + kSubGroupSizeKernel);
    ASSERT_NE(program, nullptr);
    cl_kernel k = kernelOf(program, ("sg_coll_" + type).c_str());
    // Exact sums in T; zeros and sevens make all() and any() go both ways.
    std::vector<T> data(1 << 16);
    std::uniform_int_distribution<int> small(-10000, 10000), pick(0, 99);
    for (T &x : data) {
      int p = pick(rng_);
      if (p < 2) {
        x = p == 0 ? T(0) : T(7);
        continue;
      }
      x = T(small(rng_));
      if constexpr (sizeof(T) == 8 && std::is_integral_v<T>) x = T(x * T(1 << 20) + 3);
    }
    PerItem<T, T> spec;
    spec.perItem = 12;
    spec.input = [&](size_t i) { return data[i]; };
    checkEveryShape<T>(program, k, spec,
                       [&](size_t size, const Group &g, const std::vector<T> &in, std::vector<T> &want) {
                         auto blocks = subGroupsOf(g, size);
                         for (size_t id = 0; id < blocks.size(); ++id)
                           subGroupReference(g, blocks[id], id, in, want);
                       });
  }
};

TEST_F(SubGroupCollectives, Int) { checkType<cl_int>("int"); }
TEST_F(SubGroupCollectives, Uint) { checkType<cl_uint>("uint"); }
TEST_F(SubGroupCollectives, Long) { checkType<cl_long>("long"); }
TEST_F(SubGroupCollectives, Ulong) { checkType<cl_ulong>("ulong"); }
TEST_F(SubGroupCollectives, Float) { checkType<cl_float>("float"); }
TEST_F(SubGroupCollectives, Double) { checkType<cl_double>("double"); }

// Sub-group operations and sub-group barriers inside a loop with work-group
// barriers, its trip count from an argument: the loop is uniform over the
// whole work-group.
const char *kMixed = R"CLC(
kernel void sg_mixed(global const int *in, global int *out, local int *buf, int rounds) {
  uint lid = LID, n = LSZ, sgs = get_sub_group_size(), sgl = get_sub_group_local_id();
  int v = in[GIDX];
  for (int r = 0; r < rounds; ++r) {
    int s = sub_group_reduce_add(v);
    buf[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = buf[(lid + 1) % n] + (s & 0xff);
    barrier(CLK_LOCAL_MEM_FENCE);
    buf[lid] = v;
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    v += buf[lid - sgl + (sgl + 1) % sgs] & 0xf;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[GIDX] = sub_group_scan_inclusive_add(v);
}
)CLC";

TEST_F(SubGroups, SubGroupOperationsInALoopWithWorkGroupBarriers) {
  const int rounds = 3;
  cl_program program = makeProgram(std::string(kMixed) + kSubGroupSizeKernel);
  ASSERT_NE(program, nullptr);
  cl_kernel k = kernelOf(program, "sg_mixed");
  std::vector<int> data = randomInts(1 << 16, -1000, 1000);
  PerItem<int, int> spec;
  spec.input = [&](size_t i) { return data[i]; };
  spec.extra = [&](cl_kernel k, const Shape &s) {
    return setKernelArgs(k, 2, LocalBytes{s.groupItems() * 4}, rounds);
  };
  checkEveryShape<int>(program, k, spec,
                       [&](size_t size, const Group &g, const std::vector<int> &in, std::vector<int> &want) {
                         const size_t n = g.count();
                         auto blocks = subGroupsOf(g, size);
                         std::vector<int> v(n);
                         for (size_t l = 0; l < n; ++l) v[l] = in[g.items[l].index];
                         for (int r = 0; r < rounds; ++r) {
                           std::vector<int> s(n), next(n);
                           for (auto &b : blocks) {
                             int sum = 0;
                             for (size_t l : b) sum += v[l];
                             for (size_t l : b) s[l] = sum;
                           }
                           for (size_t l = 0; l < n; ++l) next[l] = v[(l + 1) % n] + (s[l] & 0xff);
                           v = next;
                           for (auto &b : blocks)
                             for (size_t j = 0; j < b.size(); ++j)
                               next[b[j]] = v[b[j]] + (v[b[(j + 1) % b.size()]] & 0xf);
                           v = next;
                         }
                         for (auto &b : blocks) {
                           int sum = 0;
                           for (size_t l : b) want[g.items[l].index] = sum += v[l];
                         }
                       });
}

// Control flow uniform per sub-group but not per work-group, in a kernel
// with work-group barriers: odd sub-groups reduce, even ones scan, then all
// exchange through __local memory across the barrier.
const char *kPerSubGroupBranches = R"CLC(
kernel void sg_branches(global const int *in, global int *out, local int *buf) {
  uint lid = LID, n = LSZ;
  int v = in[GIDX], r;
  if (get_sub_group_id() % 2 == 1) r = sub_group_reduce_add(v);
  else r = sub_group_scan_inclusive_max(v) * 3;
  buf[lid] = r;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[GIDX] = buf[n - 1 - lid] - v;
}
)CLC";

TEST_F(SubGroups, SubGroupUniformBranchesAroundWorkGroupBarriers) {
  cl_program program = makeProgram(std::string(kPerSubGroupBranches) + kSubGroupSizeKernel);
  ASSERT_NE(program, nullptr);
  cl_kernel k = kernelOf(program, "sg_branches");
  std::vector<int> data = randomInts(1 << 16, -1000, 1000);
  PerItem<int, int> spec;
  spec.input = [&](size_t i) { return data[i]; };
  spec.extra = [&](cl_kernel k, const Shape &s) { return setKernelArgs(k, 2, LocalBytes{s.groupItems() * 4}); };
  checkEveryShape<int>(program, k, spec,
                       [&](size_t size, const Group &g, const std::vector<int> &in, std::vector<int> &want) {
                         const size_t n = g.count();
                         auto blocks = subGroupsOf(g, size);
                         std::vector<int> r(n);
                         for (size_t id = 0; id < blocks.size(); ++id) {
                           int sum = 0, hi = std::numeric_limits<int>::min();
                           for (size_t l : blocks[id]) sum += in[g.items[l].index];
                           for (size_t l : blocks[id]) {
                             hi = std::max(hi, in[g.items[l].index]);
                             r[l] = id % 2 == 1 ? sum : hi * 3;
                           }
                         }
                         for (size_t l = 0; l < n; ++l) want[g.items[l].index] = r[n - 1 - l] - in[g.items[l].index];
                       });
}

}  // namespace
}  // namespace lockstep::test::sync

// Every form of synchronization: barrier(flags), work_group_barrier(flags)
// and work_group_barrier(flags, scope) for every combination of the three
// fence flags (and none), mem_fence / read_mem_fence / write_mem_fence, and
// atomic_work_item_fence for every order and scope. Each variant is a kernel
// generated from one exchange pattern, so one host reference checks them all.
#include <cstdio>

#include "SyncTest.h"

namespace lockstep::test::sync {
namespace {

// How work-items publish a value for the others of their group to fetch
// after the synchronization: the fence flags decide which memory a
// data-race-free kernel may exchange through.
enum class Path {
  Local,        // a __local array
  Global,       // this group's slice of a global scratch buffer
  LocalGlobal,  // the first round through __local, the second through global
  Atomic,       // atomics on a __local array: no fence needed for their data
};

struct Variant {
  std::string name;
  std::string sync;  // the statement(s) that stand for one synchronization
  Path path;
};

// Two rounds of exchange between the items of a group:
//   a = v of item (lid + 1) % n;  b = (a * 3 + lid) of item n - 1 - lid.
// The SYNC between the rounds keeps the second round's writes after every
// read of the first (a write-after-read hazard).
std::string exchangeKernel(const Variant &v) {
  auto publish = [&](int round, const char *index, const char *value) {
    Path p = v.path == Path::LocalGlobal ? (round == 1 ? Path::Local : Path::Global) : v.path;
    std::string i = index, x = value;
    if (p == Path::Local) return "tile[" + i + "] = " + x + ";";
    if (p == Path::Global) return "scratch[GRP * stride + " + i + "] = " + x + ";";
    return "atomic_xchg(&tile[" + i + "], " + x + ");";
  };
  auto fetch = [&](int round, const std::string &index) {
    Path p = v.path == Path::LocalGlobal ? (round == 1 ? Path::Local : Path::Global) : v.path;
    if (p == Path::Local) return "tile[" + index + "]";
    if (p == Path::Global) return "scratch[GRP * stride + " + index + "]";
    return "atomic_add(&tile[" + index + "], 0)";
  };
  return "kernel void " + v.name +
         "(global const int *in, global int *out, global int *scratch, local int *tile,\n"
         "    uint stride) {\n"
         "  uint lid = LID, n = LSZ;\n"
         "  int v = in[GIDX];\n  " +
         publish(1, "lid", "v") + "\n  " + v.sync + "\n  int a = " + fetch(1, "(lid + 1) % n") +
         ";\n  " + v.sync + "\n  " + publish(2, "lid", "a * 3 + (int)lid") + "\n  " + v.sync +
         "\n  out[GIDX] = " + fetch(2, "n - 1 - lid") + ";\n}\n";
}

void exchangeReference(const Shape &, const Group &group, const std::vector<int> &in,
                       std::vector<int> &want) {
  const size_t n = group.count();
  std::vector<int> a(n);
  for (size_t l = 0; l < n; ++l) a[l] = in[group.items[(l + 1) % n].index];
  for (size_t l = 0; l < n; ++l) want[group.items[l].index] = a[n - 1 - l] * 3 + int(n - 1 - l);
}

struct Flags {
  const char *name, *text;
  bool local, global;
};
const Flags kFlagSets[] = {
    {"none", "0", false, false},
    {"local", "CLK_LOCAL_MEM_FENCE", true, false},
    {"global", "CLK_GLOBAL_MEM_FENCE", false, true},
    {"image", "CLK_IMAGE_MEM_FENCE", false, false},
    {"local_global", "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE", true, true},
    {"local_image", "CLK_LOCAL_MEM_FENCE | CLK_IMAGE_MEM_FENCE", true, false},
    {"global_image", "CLK_GLOBAL_MEM_FENCE | CLK_IMAGE_MEM_FENCE", false, true},
    {"all", "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE | CLK_IMAGE_MEM_FENCE", true, true},
};

Path pathFor(const Flags &f) {
  if (f.local && f.global) return Path::LocalGlobal;
  if (f.local) return Path::Local;
  if (f.global) return Path::Global;
  return Path::Atomic;
}

class Forms : public SyncTest {
 protected:
  // Builds all variants as one program and checks each over every shape.
  void checkVariants(const std::vector<Variant> &variants) {
    std::string source;
    for (const Variant &v : variants) source += exchangeKernel(v);
    cl_program program = makeProgram(source);
    ASSERT_NE(program, nullptr) << source;
    const std::vector<Shape> shapes = allShapes(device_);
    for (const Variant &v : variants) {
      SCOPED_TRACE("kernel " + v.name + ": " + v.sync);
      cl_kernel k = kernelOf(program, v.name.c_str());
      // Inputs for every item; a slice of the scratch buffer for every
      // group, as wide as the enqueued group (remainder groups use less).
      size_t largest = 0, slices = 0;
      for (const Shape &s : shapes) {
        largest = std::max(largest, s.items());
        slices = std::max(slices, s.groups(0) * s.groups(1) * s.groups(2) * s.groupItems());
      }
      cl_mem scratch = buffer(CL_MEM_READ_WRITE, slices * sizeof(int));
      std::vector<int> data = randomInts(largest);
      PerItem<int, int> spec;
      spec.input = [&](size_t i) { return data[i]; };
      spec.extra = [&](cl_kernel kernel, const Shape &s) {
        return setKernelArgs(kernel, 2, scratch, LocalBytes{s.groupItems() * sizeof(int)},
                             cl_uint(s.groupItems()));
      };
      spec.reference = exchangeReference;
      checkPerItem(k, shapes, spec);
    }
  }
};

TEST_F(Forms, BarrierWithEveryFlagCombination) {
  std::vector<Variant> variants;
  for (const Flags &f : kFlagSets)
    variants.push_back(
        {std::string("barrier_") + f.name, std::string("barrier(") + f.text + ");", pathFor(f)});
  checkVariants(variants);
}

TEST_F(Forms, WorkGroupBarrierWithEveryFlagCombination) {
  std::vector<Variant> variants;
  for (const Flags &f : kFlagSets)
    variants.push_back({std::string("wg_barrier_") + f.name,
                        std::string("work_group_barrier(") + f.text + ");", pathFor(f)});
  checkVariants(variants);
}

TEST_F(Forms, WorkGroupBarrierWithWorkGroupAndDeviceScopes) {
  std::vector<Variant> variants;
  for (const char *scope : {"memory_scope_work_group", "memory_scope_device"})
    for (const Flags &f : kFlagSets)
      variants.push_back({std::string("wg_barrier_") + f.name + "_" + (scope + 13),
                          std::string("work_group_barrier(") + f.text + ", " + scope + ");",
                          pathFor(f)});
  checkVariants(variants);
}

TEST_F(Forms, WorkGroupBarrierWithAllSvmDevicesScope) {
  if (!hasFeature("__opencl_c_atomic_scope_all_devices"))
    GTEST_SKIP() << "no __opencl_c_atomic_scope_all_devices";
  std::vector<Variant> variants;
  for (const Flags &f : kFlagSets)
    variants.push_back(
        {std::string("wg_barrier_") + f.name + "_all_svm_devices",
         std::string("work_group_barrier(") + f.text + ", memory_scope_all_svm_devices);",
         pathFor(f)});
  checkVariants(variants);
}

// mem_fence, read_mem_fence and write_mem_fence order one work-item's own
// accesses; around a barrier they are the fences of a producer (write) and a
// consumer (read).
TEST_F(Forms, MemFenceReadMemFenceWriteMemFence) {
  std::vector<Variant> variants;
  for (const Flags &f : kFlagSets) {
    if (!f.local && !f.global) continue;
    std::string flags = f.text;
    variants.push_back(
        {std::string("mem_fence_") + f.name,
         "mem_fence(" + flags + "); barrier(" + flags + "); mem_fence(" + flags + ");",
         pathFor(f)});
    variants.push_back(
        {std::string("read_write_fence_") + f.name,
         "write_mem_fence(" + flags + "); barrier(" + flags + "); read_mem_fence(" + flags + ");",
         pathFor(f)});
    // The fences alone in a sequence, the order a reader then writer uses.
    variants.push_back({std::string("read_then_write_fence_") + f.name,
                        "read_mem_fence(" + flags + "); write_mem_fence(" + flags +
                            "); work_group_barrier(" + flags + ");",
                        pathFor(f)});
  }
  checkVariants(variants);
}

// atomic_work_item_fence(flags, order, scope) for every order and scope the
// device reports, on both sides of a barrier that does the synchronizing.
TEST_F(Forms, AtomicWorkItemFenceEveryOrderAndScope) {
  std::vector<std::string> orders = {"memory_order_relaxed", "memory_order_acquire",
                                     "memory_order_release", "memory_order_acq_rel"};
  if (hasFeature("__opencl_c_atomic_order_seq_cst")) orders.push_back("memory_order_seq_cst");
  std::vector<std::string> scopes = {"memory_scope_work_group"};
  if (hasFeature("__opencl_c_atomic_scope_device")) scopes.push_back("memory_scope_device");
  if (hasFeature("__opencl_c_atomic_scope_all_devices"))
    scopes.push_back("memory_scope_all_svm_devices");
  if (hasFeature("__opencl_c_subgroups") || hasFeature("cl_khr_subgroups"))
    scopes.push_back("memory_scope_sub_group");
  const char *flags = "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE";
  std::vector<Variant> variants;
  for (const std::string &order : orders) {
    for (const std::string &scope : scopes) {
      std::string fence =
          std::string("atomic_work_item_fence(") + flags + ", " + order + ", " + scope + ");";
      variants.push_back({"fence_" + order.substr(13) + "_" + scope.substr(13),
                          fence + " barrier(" + flags + "); " + fence, Path::LocalGlobal});
    }
    // memory_scope_work_item is only valid with CLK_IMAGE_MEM_FENCE alone.
    std::string fence =
        "atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, " + order + ", memory_scope_work_item);";
    variants.push_back({"fence_" + order.substr(13) + "_work_item",
                        fence + " barrier(CLK_LOCAL_MEM_FENCE); " + fence, Path::Local});
  }
  checkVariants(variants);
}

// The "last work-group to finish does the final step" pattern: every group
// reduces its part in __local memory, publishes it, and takes a ticket from a
// device-scope atomic counter; the group that draws the last ticket reads all
// published parts (after an acquire fence) and writes the total. Real
// cross-group communication: hundreds of groups on all cores.
class LastGroup : public Forms {
 protected:
  void checkLastGroup(const std::string &source, const char *name) {
    cl_kernel k = make(source, name);
    ASSERT_NE(k, nullptr);
    std::vector<Shape> shapes = allShapes(device_);
    Shape many;
    many.global[0] = 64 * 517;
    many.local[0] = 64;
    shapes.push_back(many);
    many.global[0] = 3001;
    many.local[0] = 1;
    shapes.push_back(many);
    for (const Shape &shape : shapes) {
      SCOPED_TRACE("shape " + shape.name());
      if (!fits(k, shape)) continue;
      const size_t n = shape.items(), groups = shape.groupCount();
      std::vector<int> in = randomInts(n, -50, 50);
      cl_mem mi = bufferFrom(in), parts = buffer(CL_MEM_READ_WRITE, groups * sizeof(int));
      std::vector<int> zero(2, 0);
      cl_mem counter = bufferFrom(zero), result = bufferFrom(zero);
      ASSERT_CL(setKernelArgs(k, 0, mi, parts, counter, result,
                              LocalBytes{shape.groupItems() * sizeof(int)}));
      int total = 0;
      for (int x : in) total += x;
      // Twice: the last group also resets the counter for the next launch.
      for (int launchCount = 0; launchCount < 2; ++launchCount) {
        ASSERT_TRUE(launch(k, shape));
        std::vector<int> got = read<int>(result, 1), ticket = read<int>(counter, 1);
        EXPECT_EQ(got[0], total) << "launch " << launchCount;
        EXPECT_EQ(ticket[0], 0) << "the last group resets the counter";
        std::vector<int> part = read<int>(parts, groups), wantPart(groups);
        for (const Group &g : groupsOf(shape))
          for (const Item &item : g.items) wantPart[g.linearId] += in[item.index];
        EXPECT_TRUE(sameValues(part, wantPart));
      }
    }
  }
};

// The body shared by the OpenCL C 2.0+ spellings; RELEASE/ACQUIRE/SCOPE are
// replaced per variant.
const char *kLastGroupAtomics = R"CLC(
kernel void NAME(global const int *in, global int *parts, global atomic_int *counter,
                 global int *result, local int *scratch) {
  uint lid = LID, n = LSZ;
  local int isLast;
  scratch[lid] = in[GIDX];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 1; s < n; s <<= 1) {
    if (lid % (2 * s) == 0 && lid + s < n) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    parts[GRP] = scratch[0];
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, RELEASE, SCOPE);
    int ticket = atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, SCOPE);
    isLast = ticket == (int)NGRP - 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (isLast) {
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, ACQUIRE, SCOPE);
    int sum = 0;
    for (uint g = lid; g < NGRP; g += n) sum += parts[g];
    scratch[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
      for (uint i = 1; i < n; ++i) sum += scratch[i];
      *result = sum;
      atomic_store_explicit(counter, 0, memory_order_relaxed, SCOPE);
    }
  }
}
)CLC";

std::string lastGroupVariant(const std::string &name, const std::string &release,
                             const std::string &acquire, const std::string &scope) {
  std::string text = kLastGroupAtomics;
  auto replace = [&](const std::string &from, const std::string &to) {
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  };
  replace("NAME", name);
  replace("RELEASE", release);
  replace("ACQUIRE", acquire);
  replace("SCOPE", scope);
  return text;
}

TEST_F(LastGroup, ReleaseAcquireDeviceScope) {
  checkLastGroup(lastGroupVariant("last_rel_acq", "memory_order_release", "memory_order_acquire",
                                  "memory_scope_device"),
                 "last_rel_acq");
}

TEST_F(LastGroup, AcqRelDeviceScope) {
  checkLastGroup(lastGroupVariant("last_acq_rel", "memory_order_acq_rel", "memory_order_acq_rel",
                                  "memory_scope_device"),
                 "last_acq_rel");
}

TEST_F(LastGroup, SeqCstDeviceScope) {
  if (!hasFeature("__opencl_c_atomic_order_seq_cst")) GTEST_SKIP() << "no seq_cst";
  checkLastGroup(lastGroupVariant("last_seq_cst", "memory_order_seq_cst", "memory_order_seq_cst",
                                  "memory_scope_device"),
                 "last_seq_cst");
}

TEST_F(LastGroup, ReleaseAcquireAllSvmDevicesScope) {
  if (!hasFeature("__opencl_c_atomic_scope_all_devices")) GTEST_SKIP() << "no all-devices scope";
  checkLastGroup(lastGroupVariant("last_svm", "memory_order_release", "memory_order_acquire",
                                  "memory_scope_all_svm_devices"),
                 "last_svm");
}

// The OpenCL 1.x spelling: mem_fence(CLK_GLOBAL_MEM_FENCE) before atomic_inc
// publishes the part; the last group reads the parts through volatile loads.
TEST_F(LastGroup, MemFenceAndAtomicIncOpenCL1) {
  checkLastGroup(R"CLC(
kernel void last_legacy(global const int *in, global volatile int *parts,
                        global volatile int *counter, global int *result, local int *scratch) {
  uint lid = LID, n = LSZ;
  local int isLast;
  scratch[lid] = in[GIDX];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 1; s < n; s <<= 1) {
    if (lid % (2 * s) == 0 && lid + s < n) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    parts[GRP] = scratch[0];
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    isLast = atomic_inc(counter) == (int)NGRP - 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (isLast) {
    read_mem_fence(CLK_GLOBAL_MEM_FENCE);
    if (lid == 0) {
      int sum = 0;
      for (uint g = 0; g < NGRP; ++g) sum += parts[g];
      *result = sum;
      atomic_xchg(counter, 0);
    }
  }
}
)CLC",
                 "last_legacy");
}

}  // namespace
}  // namespace lockstep::test::sync

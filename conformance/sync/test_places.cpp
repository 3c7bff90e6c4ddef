// Every place a barrier may stand: nested for/while/do loops whose trip
// counts come from arguments or memory, loops left by uniform break and
// continue, if/else and switch arms, several barriers in a row, non-inlined
// functions called from several places, a kernel called from another kernel,
// and an early uniform return. Each kernel runs over every shape (1D local
// sizes 1, 7, 64, 256; 2D and 3D with offsets and remainder groups) and is
// checked against a host simulation of each group.
#include "SyncTest.h"

namespace lockstep::test::sync {
namespace {

using u32 = uint32_t;

// Host view of one group's values in linear local id order.
std::vector<u32> groupValues(const Group &g, const std::vector<u32> &in) {
  std::vector<u32> v(g.count());
  for (size_t l = 0; l < g.count(); ++l) v[l] = in[g.items[l].index];
  return v;
}
void store(const Group &g, const std::vector<u32> &v, std::vector<u32> &want) {
  for (size_t l = 0; l < g.count(); ++l) want[g.items[l].index] = v[l];
}

class Places : public SyncTest {
 protected:
  // Runs a kernel(in, out, local uint *buf, extra...) whose reference maps a
  // group's inputs (and the group) to its outputs.
  void check(cl_kernel k, std::function<cl_int(cl_kernel, const Shape &)> extra,
             std::function<std::vector<u32>(const Group &, std::vector<u32>)> simulate) {
    std::vector<int> data = randomInts(1 << 16, 0, 1 << 20);
    PerItem<u32, u32> spec;
    spec.input = [&](size_t i) { return u32(data[i]); };
    spec.extra = extra;
    spec.reference = [&](const Shape &, const Group &g, const std::vector<u32> &in,
                         std::vector<u32> &want) {
      store(g, simulate(g, groupValues(g, in)), want);
    };
    checkPerItem(k, allShapes(device_), spec);
  }
};

// The exchange step most kernels here repeat: each item adds (a mix of) the
// value of the item `distance` places after it in its group.
std::vector<u32> rotateAdd(const std::vector<u32> &acc, size_t distance, u32 salt) {
  const size_t n = acc.size();
  std::vector<u32> next(n);
  for (size_t l = 0; l < n; ++l) next[l] = acc[l] * 3u + (acc[(l + distance) % n] ^ salt);
  return next;
}

const char *kNestedLoops = R"CLC(
#define STEP(dist, salt) \
  buf[lid] = acc; barrier(CLK_LOCAL_MEM_FENCE); \
  acc = acc * 3u + (buf[(lid + (dist)) % n] ^ (salt)); barrier(CLK_LOCAL_MEM_FENCE);
kernel void nested_loops(global const uint *in, global uint *out, local uint *buf,
                         global const int *trips, int outer) {
  uint lid = LID, n = LSZ;
  uint acc = in[GIDX];
  for (int o = 0; o < outer; ++o) {           /* trip count from an argument */
    int w = trips[o];                          /* from global memory */
    while (w > 0) {
      STEP(1, (uint)o)
      int d = trips[outer + o];
      do {                                     /* runs at least once */
        STEP((uint)d, (uint)w)
      } while (--d > 0);
      --w;
    }
  }
  out[GIDX] = acc;
}
)CLC";

TEST_F(Places, NestedForWhileDoWithTripCountsFromArgumentsAndMemory) {
  const std::vector<int> trips = {2, 0, 1, 3, /* do-loop counts: */ 1, 4, 0, 2};
  const int outer = 4;
  cl_mem mt = bufferFrom(trips);
  check(
      make(kNestedLoops, "nested_loops"),
      [&](cl_kernel k, const Shape &s) {
        return setKernelArgs(k, 2, LocalBytes{s.groupItems() * 4}, mt, outer);
      },
      [&](const Group &, std::vector<u32> acc) {
        for (int o = 0; o < outer; ++o)
          for (int w = trips[o]; w > 0; --w) {
            acc = rotateAdd(acc, 1, u32(o));
            int d = trips[outer + o];
            do acc = rotateAdd(acc, size_t(d), u32(w));
            while (--d > 0);
          }
        return acc;
      });
}

// A for loop left by a uniform break decided after a barrier (from __local
// memory), a uniform continue before the barriers, and a while(1) loop whose
// only exit is a break between two barriers.
const char *kBreakContinue = R"CLC(
kernel void break_continue(global const uint *in, global uint *out, local uint *buf,
                           int limit, int skip, uint stop_sum) {
  uint lid = LID, n = LSZ;
  local uint total;
  uint acc = in[GIDX] & 0xffff;
  for (int i = 0; i < limit; ++i) {
    if (i % skip == 1) continue;
    buf[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    acc = acc * 3u + (buf[(lid + 1) % n] ^ (uint)i);
    if (lid == 0) total = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    if ((total & 7u) == stop_sum) break;
  }
  int rounds = 0;
  while (1) {
    buf[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (++rounds == 3) break;
    acc += buf[n - 1 - lid];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[GIDX] = acc;
}
)CLC";

TEST_F(Places, LoopsWithUniformBreakAndContinue) {
  const int limit = 9, skip = 3;
  const cl_uint stopSum = 5;
  check(
      make(kBreakContinue, "break_continue"),
      [&](cl_kernel k, const Shape &s) {
        return setKernelArgs(k, 2, LocalBytes{s.groupItems() * 4}, limit, skip, stopSum);
      },
      [&](const Group &, std::vector<u32> acc) {
        for (u32 &a : acc) a &= 0xffff;
        for (int i = 0; i < limit; ++i) {
          if (i % skip == 1) continue;
          acc = rotateAdd(acc, 1, u32(i));
          if ((acc[0] & 7u) == stopSum) break;
        }
        const size_t n = acc.size();
        for (int rounds = 1; rounds < 3; ++rounds) {
          std::vector<u32> buf = acc;
          for (size_t l = 0; l < n; ++l) acc[l] += buf[n - 1 - l];
        }
        return acc;
      });
}

// if/else chains with barriers in the arms (a different number in each) and
// a nested if; the conditions are uniform per group (group id, argument, and
// a value read from __local memory).
const char *kIfElse = R"CLC(
#define STEP(dist, salt) \
  buf[lid] = acc; barrier(CLK_LOCAL_MEM_FENCE); \
  acc = acc * 3u + (buf[(lid + (dist)) % n] ^ (salt)); barrier(CLK_LOCAL_MEM_FENCE);
kernel void if_else(global const uint *in, global uint *out, local uint *buf, uint mode) {
  uint lid = LID, n = LSZ;
  local uint first;
  uint acc = in[GIDX];
  if (((GRP + mode) & 1) == 0) {
    STEP(1, 1u)
  } else if (GRP % 3 == 0) {
    STEP(2, 2u)
    STEP(3, 3u)
  } else {
    if (lid == 0) first = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (first & 1) {
      STEP(1, 4u)
    } else {
      acc += 7;
    }
  }
  STEP(n - 1, 5u)
  out[GIDX] = acc;
}
)CLC";

TEST_F(Places, IfElseWithBarriersInTheArms) {
  for (cl_uint mode : {0u, 1u}) {
    SCOPED_TRACE("mode " + std::to_string(mode));
    check(
        make(kIfElse, "if_else"),
        [&](cl_kernel k, const Shape &s) {
          return setKernelArgs(k, 2, LocalBytes{s.groupItems() * 4}, mode);
        },
        [&](const Group &g, std::vector<u32> acc) {
          if (((g.linearId + mode) & 1) == 0) {
            acc = rotateAdd(acc, 1, 1);
          } else if (g.linearId % 3 == 0) {
            acc = rotateAdd(rotateAdd(acc, 2, 2), 3, 3);
          } else if (acc[0] & 1) {
            acc = rotateAdd(acc, 1, 4);
          } else {
            for (u32 &a : acc) a += 7;
          }
          return rotateAdd(acc, acc.size() - 1, 5);
        });
  }
}

// switch on a value read from memory per group: cases with zero, one and two
// barriers, a fall-through from one case with a barrier into the next, and a
// default.
const char *kSwitch = R"CLC(
#define STEP(dist, salt) \
  buf[lid] = acc; barrier(CLK_LOCAL_MEM_FENCE); \
  acc = acc * 3u + (buf[(lid + (dist)) % n] ^ (salt)); barrier(CLK_LOCAL_MEM_FENCE);
kernel void switch_arms(global const uint *in, global uint *out, local uint *buf,
                        global const int *modes) {
  uint lid = LID, n = LSZ;
  uint acc = in[GIDX];
  switch (modes[GRP % 5]) {
    case 0:
      acc ^= 0x55;
      break;
    case 1:
      STEP(1, 10u)
      break;
    case 2:
      STEP(2, 20u)
      /* fall through */
    case 3:
      STEP(3, 30u)
      STEP(1, 31u)
      break;
    default:
      barrier(CLK_LOCAL_MEM_FENCE);
      acc += 1000;
  }
  out[GIDX] = acc;
}
)CLC";

TEST_F(Places, SwitchWithBarriersInCases) {
  const std::vector<int> modes = {3, 0, 2, 1, 9};
  cl_mem mm = bufferFrom(modes);
  check(
      make(kSwitch, "switch_arms"),
      [&](cl_kernel k, const Shape &s) {
        return setKernelArgs(k, 2, LocalBytes{s.groupItems() * 4}, mm);
      },
      [&](const Group &g, std::vector<u32> acc) {
        switch (modes[g.linearId % 5]) {
          case 0:
            for (u32 &a : acc) a ^= 0x55;
            break;
          case 1:
            acc = rotateAdd(acc, 1, 10);
            break;
          case 2:
            acc = rotateAdd(acc, 2, 20);
            [[fallthrough]];
          case 3:
            acc = rotateAdd(rotateAdd(acc, 3, 30), 1, 31);
            break;
          default:
            for (u32 &a : acc) a += 1000;
        }
        return acc;
      });
}

// Barriers back to back (empty regions between them), a barrier as the first
// and as the last statement of the kernel.
const char *kInARow = R"CLC(
kernel void in_a_row(global const uint *in, global uint *out, local uint *buf) {
  barrier(CLK_LOCAL_MEM_FENCE);
  uint lid = LID, n = LSZ;
  uint acc = in[GIDX];
  buf[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  barrier(CLK_LOCAL_MEM_FENCE);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  barrier(CLK_GLOBAL_MEM_FENCE);
  uint a = buf[(lid + 1) % n];
  barrier(CLK_LOCAL_MEM_FENCE);
  barrier(CLK_LOCAL_MEM_FENCE);
  buf[lid] = a + acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[GIDX] = buf[n - 1 - lid];
  barrier(CLK_LOCAL_MEM_FENCE);
}
)CLC";

TEST_F(Places, SeveralBarriersInARow) {
  check(
      make(kInARow, "in_a_row"),
      [&](cl_kernel k, const Shape &s) {
        return setKernelArgs(k, 2, LocalBytes{s.groupItems() * 4});
      },
      [&](const Group &, std::vector<u32> v) {
        const size_t n = v.size();
        std::vector<u32> b(n), out(n);
        for (size_t l = 0; l < n; ++l) b[l] = v[(l + 1) % n] + v[l];
        for (size_t l = 0; l < n; ++l) out[l] = b[n - 1 - l];
        return out;
      });
}

// Barriers in non-inlined functions: one called from a branch, a loop and
// another non-inlined function, which itself is called twice.
const char *kFunctions = R"CLC(
__attribute__((noinline)) uint step_fn(local uint *buf, uint acc, uint dist, uint salt) {
  uint lid = LID, n = LSZ;
  buf[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint r = acc * 3u + (buf[(lid + dist) % n] ^ salt);
  barrier(CLK_LOCAL_MEM_FENCE);
  return r;
}
__attribute__((noinline)) uint twice(local uint *buf, uint acc, uint salt) {
  acc = step_fn(buf, acc, 1, salt);
  return step_fn(buf, acc, 2, salt + 1);
}
kernel void functions(global const uint *in, global uint *out, local uint *buf, int times) {
  uint acc = in[GIDX];
  if (GRP % 2) acc = step_fn(buf, acc, 3, 100);
  for (int t = 0; t < times; ++t) acc = step_fn(buf, acc, (uint)t, (uint)t);
  acc = twice(buf, acc, 7);
  acc = twice(buf, acc, 9);
  out[GIDX] = acc;
}
)CLC";

TEST_F(Places, BarriersInNonInlinedFunctionsCalledFromSeveralPlaces) {
  const int times = 3;
  check(
      make(kFunctions, "functions"),
      [&](cl_kernel k, const Shape &s) {
        return setKernelArgs(k, 2, LocalBytes{s.groupItems() * 4}, times);
      },
      [&](const Group &g, std::vector<u32> acc) {
        if (g.linearId % 2) acc = rotateAdd(acc, 3, 100);
        for (int t = 0; t < times; ++t) acc = rotateAdd(acc, size_t(t), u32(t));
        for (u32 salt : {7u, 9u}) acc = rotateAdd(rotateAdd(acc, 1, salt), 2, salt + 1);
        return acc;
      });
}

// A kernel that calls another kernel containing barriers; both are launched.
const char *kKernelCallsKernel = R"CLC(
kernel void inner(global const uint *in, global uint *out, local uint *buf) {
  uint lid = LID, n = LSZ;
  buf[lid] = in[GIDX];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[GIDX] = buf[(lid + 1) % n] * 5u;
  barrier(CLK_LOCAL_MEM_FENCE);
}
kernel void outer(global const uint *in, global uint *out, local uint *buf) {
  inner(in, out, buf);
  barrier(CLK_GLOBAL_MEM_FENCE);
  uint lid = LID, n = LSZ;
  buf[lid] = out[GIDX] + 1u;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[GIDX] = buf[n - 1 - lid];
}
)CLC";

TEST_F(Places, KernelCalledFromAnotherKernel) {
  cl_program program = makeProgram(kKernelCallsKernel);
  ASSERT_NE(program, nullptr);
  auto local = [](cl_kernel k, const Shape &s) {
    return setKernelArgs(k, 2, LocalBytes{s.groupItems() * 4});
  };
  auto innerRef = [](const std::vector<u32> &v) {
    std::vector<u32> out(v.size());
    for (size_t l = 0; l < v.size(); ++l) out[l] = v[(l + 1) % v.size()] * 5u;
    return out;
  };
  {
    SCOPED_TRACE("inner");
    check(kernelOf(program, "inner"), local,
          [&](const Group &, std::vector<u32> v) { return innerRef(v); });
  }
  SCOPED_TRACE("outer");
  check(kernelOf(program, "outer"), local, [&](const Group &, std::vector<u32> v) {
    std::vector<u32> a = innerRef(v), out(v.size());
    for (size_t l = 0; l < v.size(); ++l) out[l] = a[v.size() - 1 - l] + 1u;
    return out;
  });
}

// Early uniform returns: whole groups leave before the first barrier, and
// others leave from inside a loop, after a barrier, on a value all agree on.
const char *kEarlyReturn = R"CLC(
kernel void early_return(global const uint *in, global uint *out, local uint *buf,
                         uint skip_every) {
  uint lid = LID, n = LSZ;
  local uint shared_acc;
  uint acc = in[GIDX];
  out[GIDX] = 0xdead;
  if (GRP % skip_every == 1) return;
  for (uint i = 0; i < 6; ++i) {
    buf[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    acc = acc * 3u + (buf[(lid + 1) % n] ^ i);
    if (lid == 0) shared_acc = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[GIDX] = acc;
    if (shared_acc % 4 == 0) return;
  }
  out[GIDX] = acc + 1;
}
)CLC";

TEST_F(Places, EarlyUniformReturnBeforeABarrier) {
  const cl_uint skipEvery = 3;
  check(
      make(kEarlyReturn, "early_return"),
      [&](cl_kernel k, const Shape &s) {
        return setKernelArgs(k, 2, LocalBytes{s.groupItems() * 4}, skipEvery);
      },
      [&](const Group &g, std::vector<u32> acc) {
        if (g.linearId % skipEvery == 1) return std::vector<u32>(acc.size(), 0xdead);
        for (u32 i = 0; i < 6; ++i) {
          acc = rotateAdd(acc, 1, i);
          if (acc[0] % 4 == 0) return acc;
        }
        for (u32 &a : acc) a += 1;
        return acc;
      });
}

// The trip count of a loop with a barrier differs between groups (it depends
// on the group id and the group's size) but is uniform within each group.
const char *kPerGroupTrips = R"CLC(
kernel void per_group_trips(global const uint *in, global uint *out, local uint *buf) {
  uint lid = LID, n = LSZ;
  uint acc = in[GIDX];
  for (uint i = 0; i < GRP % 4 + n % 3; ++i) {
    buf[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    acc = acc * 3u + (buf[(lid + 1) % n] ^ i);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[GIDX] = acc;
}
)CLC";

TEST_F(Places, TripCountsThatDifferBetweenGroups) {
  check(
      make(kPerGroupTrips, "per_group_trips"),
      [&](cl_kernel k, const Shape &s) {
        return setKernelArgs(k, 2, LocalBytes{s.groupItems() * 4});
      },
      [&](const Group &g, std::vector<u32> acc) {
        const u32 trips = u32(g.linearId % 4 + acc.size() % 3);
        for (u32 i = 0; i < trips; ++i) acc = rotateAdd(acc, 1, i);
        return acc;
      });
}

}  // namespace
}  // namespace lockstep::test::sync

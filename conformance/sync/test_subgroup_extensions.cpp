// The sub-group extensions of OpenCL C 3.0: cl_khr_subgroup_non_uniform_vote,
// _ballot, _non_uniform_arithmetic, _shuffle, _shuffle_relative,
// _clustered_reduce, _rotate and _extended_types. Each kernel body runs three
// times in one kernel: in uniform control flow, then in both arms of an `if`
// whose condition differs between the lanes of a sub-group (odd lanes, lanes
// below 5, or a mask from an argument, one launch each). Every output of every
// work-item is checked against a host reference computed per sub-group from
// the lanes that reached the call; work-items that did not reach a call must
// leave its outputs alone, and outputs the spec leaves undefined (a shuffle
// from an inactive or missing lane) are not checked. The core collectives on
// the extended types must be reached by the whole sub-group, so they only run
// in uniform control flow.
#include <algorithm>
#include <bit>
#include <bitset>
#include <cstring>
#include <iomanip>
#include <limits>
#include <optional>
#include <sstream>

#include "SyncTest.h"

namespace lockstep::test::sync {
namespace {

using u32 = uint32_t;

// BODY is pasted three times; it writes o[0 .. N) from v and the ids below.
const char *kKernel = R"CLC(
bool taken(uint condition, uint sgl, uint sgid, uint mask) {
  if (condition == 0) return (sgl & 1) != 0;
  if (condition == 1) return sgl < 5;
  return ((mask >> ((sgl + 3 * sgid) & 31)) & 1) != 0;
}
kernel void sg_ext(global const IN *in, global OUT *out, uint condition, uint mask) {
  const uint sgl = get_sub_group_local_id(), sgs = get_sub_group_size();
  const uint msz = get_max_sub_group_size(), sgid = get_sub_group_id();
  const IN v = in[GIDX];
  global OUT *const base = out + SLOTS * N * GIDX;
  { global OUT *o = base; BODY }
#if SLOTS > 1
  if (taken(condition, sgl, sgid, mask)) { global OUT *o = base + N; BODY }
  else { global OUT *o = base + 2 * N; BODY }
#endif
}
)CLC";

enum Slot { kUniform, kThen, kElse };
const char *const kConditions[] = {"odd lanes", "lanes < 5", "mask argument"};

// Host twin of taken() in kKernel.
bool taken(u32 condition, u32 lane, u32 sgid, u32 mask) {
  if (condition == 0) return lane & 1;
  if (condition == 1) return lane < 5;
  return (mask >> ((lane + 3 * sgid) & 31)) & 1;
}

// Where a sub-group stands: its size, get_max_sub_group_size(), its id, and
// the kernel's mask argument.
struct Place {
  u32 size = 0, max = 0, id = 0, mask = 0;
};

// One sub-group as the host reference sees it.
template <typename T>
struct SubGroup : Place {
  std::vector<T> in;         // inputs by sub-group local id
  std::vector<bool> active;  // the lanes that reached the call

  std::vector<u32> lanes() const {
    std::vector<u32> out;
    for (u32 l = 0; l < size; ++l)
      if (active[l]) out.push_back(l);
    return out;
  }
  // The value of lane `source`; nullopt where it does not exist or did not
  // reach the call (the spec leaves the result undefined then).
  std::optional<T> from(int64_t source) const {
    if (source < 0 || source >= int64_t(size) || !active[source]) return std::nullopt;
    return in[source];
  }
};

// One output of a kernel body: an OpenCL C expression of v, sgl, sgs, msz,
// sgid, mask (and the body's prelude), and its value for an active lane.
template <typename In, typename Out>
struct Output {
  std::string expression;
  std::function<std::optional<Out>(const SubGroup<In> &, u32 lane)> want;
  u32 minMax = 1;  // evaluated only where get_max_sub_group_size() >= minMax
};

// A test: its extension, the OpenCL C element types of the kernel's input
// and output, statements run before the outputs, and the outputs.
template <typename In, typename Out>
struct Spec {
  std::string extension, in, out, prelude;
  std::vector<Output<In, Out>> outputs;
  bool uniformOnly = false;
  std::function<In(size_t index)> input;
};

// What an output holds before the kernel runs.
template <typename T>
T unwritten() {
  return T(0x5a5a5a5);
}
template <typename T>
bool sameBits(const T &a, const T &b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}
template <typename T>
std::string show(T value) {
  if (sameBits(value, unwritten<T>())) return "nothing written";
  std::ostringstream s;
  if constexpr (std::is_floating_point_v<T>) s << std::setprecision(9);
  s << +value;
  return s.str();
}

class SubGroupExtensions : public SubGroupTest {
 protected:
  // Builds the spec's kernel and checks it over every shape and condition.
  // Long lists of outputs are split over several kernels: the build time
  // grows faster than linearly with the sub-group calls in one kernel.
  template <typename In, typename Out>
  void check(const Spec<In, Out> &spec) {
    if (!hasFeature(spec.extension)) GTEST_SKIP() << spec.extension << " is not listed";
    constexpr size_t kMaxOutputs = 8;
    if (spec.outputs.size() > kMaxOutputs) {
      for (size_t first = 0; first < spec.outputs.size(); first += kMaxOutputs) {
        Spec<In, Out> part = spec;
        part.outputs.assign(
            spec.outputs.begin() + first,
            spec.outputs.begin() + std::min(first + kMaxOutputs, spec.outputs.size()));
        check(part);
      }
      return;
    }
    const size_t n = spec.outputs.size(), slots = spec.uniformOnly ? 1 : 3;
    std::string body = spec.prelude;
    for (size_t k = 0; k < n; ++k) {
      const Output<In, Out> &output = spec.outputs[k];
      if (output.minMax > 1) body += "if (msz >= " + std::to_string(output.minMax) + "u) ";
      body += "o[" + std::to_string(k) + "] = (OUT)(" + output.expression + ");\n";
    }
    std::string source = "#define IN " + spec.in + "\n#define OUT " + spec.out + "\n#define N " +
                         std::to_string(n) + "\n#define SLOTS " + std::to_string(slots) + "\n" +
                         kKernel + kSubGroupSizeKernel;
    for (size_t at = source.find("BODY"); at != std::string::npos; at = source.find("BODY", at))
      source.replace(at, 4, body);
    cl_program program = makeProgram(instantiate(source, spec.in));
    ASSERT_NE(program, nullptr);
    cl_kernel k = kernelOf(program, "sg_ext");
    for (const Shape &shape : allShapes(device_)) {
      SCOPED_TRACE("shape " + shape.name());
      if (!fits(k, shape)) continue;
      const u32 max = maxSubGroupSize(program, shape);
      std::vector<In> in(shape.items());
      for (size_t i = 0; i < in.size(); ++i) in[i] = spec.input(i);
      cl_mem mi = bufferFrom(in);
      for (u32 condition = 0; condition < (spec.uniformOnly ? 1u : 3u); ++condition) {
        const u32 mask = u32(rng_());
        std::vector<Out> got(in.size() * slots * n, unwritten<Out>());
        cl_mem mo = bufferFrom(got);
        ASSERT_CL(setKernelArgs(k, 0, mi, mo, condition, mask));
        ASSERT_TRUE(launch(k, shape));
        got = read<Out>(mo, got.size());
        EXPECT_TRUE(compare(spec, shape, max, condition, mask, in, got));
      }
    }
  }

  template <typename In, typename Out>
  ::testing::AssertionResult compare(const Spec<In, Out> &spec, const Shape &shape, u32 max,
                                     u32 condition, u32 mask, const std::vector<In> &in,
                                     const std::vector<Out> &got) {
    const size_t n = spec.outputs.size(), slots = spec.uniformOnly ? 1 : 3;
    size_t bad = 0;
    auto failure = ::testing::AssertionFailure();
    for (const Group &g : groupsOf(shape))
      for (size_t first = 0, id = 0; first < g.count(); first += max, ++id) {
        SubGroup<In> sg;
        sg.size = u32(std::min<size_t>(max, g.count() - first)), sg.max = max;
        sg.id = u32(id), sg.mask = mask;
        for (u32 l = 0; l < sg.size; ++l) sg.in.push_back(in[g.items[first + l].index]);
        for (size_t slot = 0; slot < slots; ++slot) {
          sg.active.assign(sg.size, true);
          for (u32 l = 0; l < sg.size && slot != kUniform; ++l)
            sg.active[l] = taken(condition, l, sg.id, mask) == (slot == kThen);
          for (u32 lane = 0; lane < sg.size; ++lane) {
            const Out *o = &got[(g.items[first + lane].index * slots + slot) * n];
            for (size_t k = 0; k < n; ++k) {
              const Output<In, Out> &output = spec.outputs[k];
              // Lanes that did not reach the call, and calls the kernel
              // skips, leave the output as it was.
              std::optional<Out> want = unwritten<Out>();
              if (sg.active[lane] && max >= output.minMax) want = output.want(sg, lane);
              if (!want || sameBits(o[k], *want)) continue;
              if (++bad > 12) continue;
              std::ostringstream active;  // lane 0 first
              for (u32 l = 0; l < sg.size; ++l) active << (sg.active[l] ? '1' : '.');
              failure << "\n  " << output.expression << " ["
                      << (slot == kUniform ? "uniform"
                                           : std::string(slot == kThen ? "if " : "else of ") +
                                                 kConditions[condition])
                      << "] group " << g.linearId << " sub-group " << id << " (size " << sg.size
                      << ", active " << active.str() << ") lane " << lane << ": got " << show(o[k])
                      << ", want " << show(*want);
            }
          }
        }
      }
    if (bad == 0) return ::testing::AssertionSuccess();
    return failure << "\n  " << bad << " outputs differ (max sub-group size " << max << ")";
  }
};

// Inputs make(x) for x mostly in [lo, hi], with 2% zeros and 2% sevens so
// that votes and logical operations go both ways.
template <typename T>
std::function<T(size_t)> inputs(
    std::mt19937 &rng, int lo, int hi, T (*make)(int) = [](int x) { return T(x); }) {
  auto data = std::make_shared<std::vector<T>>(1 << 16);
  std::uniform_int_distribution<int> value(lo, hi), pick(0, 99);
  for (T &x : *data) {
    int p = pick(rng);
    x = p == 0 ? T(0) : p == 1 ? T(7) : make(value(rng));
  }
  return [data](size_t i) { return (*data)[i]; };
}

// ---------------------------------------------------------------- votes

TEST_F(SubGroupExtensions, NonUniformVote) {
  using SG = SubGroup<int>;
  using Want = std::function<std::optional<int>(const SG &, u32)>;
  // all, any and all_equal of f(v) over the active lanes.
  auto all = [](auto f) -> Want {
    return [f](const SG &sg, u32) {
      auto lanes = sg.lanes();
      return std::all_of(lanes.begin(), lanes.end(), [&](u32 l) { return f(sg.in[l]); });
    };
  };
  auto any = [](auto f) -> Want {
    return [f](const SG &sg, u32) {
      auto lanes = sg.lanes();
      return std::any_of(lanes.begin(), lanes.end(), [&](u32 l) { return f(sg.in[l]); });
    };
  };
  auto equal = [](auto f) -> Want {
    return [f](const SG &sg, u32) {
      auto lanes = sg.lanes();
      return std::all_of(lanes.begin(), lanes.end(),
                         [&](u32 l) { return f(sg.in[l]) == f(sg.in[lanes[0]]); });
    };
  };
  Spec<int, int> spec{"cl_khr_subgroup_non_uniform_vote", "int", "int"};
  spec.input = inputs<int>(rng_, -1000, 1000);
  spec.outputs = {
      {"sub_group_elect() != 0", [](const SG &sg, u32 l) { return l == sg.lanes()[0]; }},
      {"sub_group_non_uniform_all(v != 0) != 0", all([](int x) { return x != 0; })},
      {"sub_group_non_uniform_all(v & 6) != 0", all([](int x) { return (x & 6) != 0; })},
      {"sub_group_non_uniform_any(v == 7) != 0", any([](int x) { return x == 7; })},
      {"sub_group_non_uniform_any(v & 0x400) != 0", any([](int x) { return (x & 0x400) != 0; })},
      {"sub_group_non_uniform_all_equal(v > -900) != 0", equal([](int x) { return x > -900; })},
      {"sub_group_non_uniform_all_equal(v > -900 ? 0.5f : (float)v) != 0",
       equal([](int x) { return x > -900 ? 0.5f : float(x); })},
      {"sub_group_non_uniform_all_equal((v > -900 ? 1ul : 3ul) << 40) != 0",
       equal([](int x) { return (x > -900 ? 1ull : 3ull) << 40; })},
      {"sub_group_non_uniform_all_equal((uchar)(v > -900 ? 1 : 0x81)) != 0",
       equal([](int x) { return cl_uchar(x > -900 ? 1 : 0x81); })},
      // An ordered comparison: +0.0 and -0.0 are equal.
      {"sub_group_non_uniform_all_equal((v & 1) ? 0.0f : -0.0f) != 0",
       equal([](int x) { return (x & 1) ? 0.0f : -0.0f; })},
  };
  check(spec);
}

// ---------------------------------------------------------------- ballots

using Ballot = std::bitset<128>;  // bit i: sub-group local id i

Ballot below(u32 n) {
  Ballot b;
  for (u32 i = 0; i < std::min(n, 128u); ++i) b.set(i);
  return b;
}
Ballot fromWords(std::array<u32, 4> words) {
  Ballot b;
  for (int c = 0; c < 4; ++c) b |= Ballot(words[c]) << (32 * c);
  return b;
}
u32 word(const Ballot &b, int c) { return u32(((b >> (32 * c)) & Ballot(~0u)).to_ulong()); }
std::optional<u32> lowest(const Ballot &b) {  // undefined without a bit set
  for (u32 i = 0; i < 128; ++i)
    if (b[i]) return i;
  return std::nullopt;
}
std::optional<u32> highest(const Ballot &b) {
  for (u32 i = 128; i-- > 0;)
    if (b[i]) return i;
  return std::nullopt;
}

// The host's values of the ballots the prelude of the ballot test computes.
struct Ballots {
  Ballot b, act, w, W;
  Ballots(const SubGroup<u32> &sg, u32 lane) {
    for (u32 l : sg.lanes()) act.set(l), b.set(l, sg.in[l] & 1);
    u32 v = sg.in[lane], m = sg.mask;
    w = fromWords({(1u << (v % 20)) | (1u << ((v >> 5) % 24)), v * 0x9E3779B1u, ~v, v << 7});
    W = fromWords({m, m * 3u, ~m, m ^ 0xffffu});
  }
};

const char *kBallotPrelude = R"CLC(
const uint4 b = sub_group_ballot(v & 1), act = sub_group_ballot(1);
const uint last = sub_group_ballot_find_msb(act);
const uint4 w = (uint4)((1u << (v % 20)) | (1u << ((v >> 5) % 24)), v * 0x9E3779B1u, ~v, v << 7);
const uint4 W = (uint4)(mask, mask * 3u, ~mask, mask ^ 0xffffu);
const uint2 nb = sub_group_non_uniform_broadcast((uint2)(v, ~v * 3u), last);
)CLC";

TEST_F(SubGroupExtensions, Ballot) {
  using O = Output<u32, u32>;
  using SG = SubGroup<u32>;
  using Pick = Ballot Ballots::*;
  using Want = std::function<std::optional<u32>(const SG &, u32, const Ballots &)>;
  Spec<u32, u32> spec{"cl_khr_subgroup_ballot", "uint", "uint", kBallotPrelude};
  std::vector<O> &out = spec.outputs;
  auto add = [&](std::string expression, Want want) {
    out.push_back(
        O{expression, [want](const SG &sg, u32 l) { return want(sg, l, Ballots(sg, l)); }});
  };
  auto add4 = [&](const std::string &vector,
                  std::function<Ballot(const SG &, u32, const Ballots &)> f) {
    for (int c = 0; c < 4; ++c)
      add(vector + ".s" + std::to_string(c),
          [f, c](const SG &sg, u32 l, const Ballots &h) { return word(f(sg, l, h), c); });
  };
  add4("b", [](const SG &, u32, const Ballots &h) { return h.b; });
  add4("act", [](const SG &, u32, const Ballots &h) { return h.act; });
  add("sub_group_inverse_ballot(b) != 0",
      [](const SG &, u32 l, const Ballots &h) { return u32(h.b[l]); });
  add("sub_group_ballot_bit_extract(b, (sgl * 5 + 3) % sgs) != 0",
      [](const SG &sg, u32 l, const Ballots &h) { return u32(h.b[(l * 5 + 3) % sg.size]); });
  add("sub_group_ballot_bit_extract(w, (v >> 3) % sgs) != 0",
      [](const SG &sg, u32 l, const Ballots &h) { return u32(h.w[(sg.in[l] >> 3) % sg.size]); });
  add("sub_group_inverse_ballot(W) != 0",
      [](const SG &, u32 l, const Ballots &h) { return u32(h.W[l]); });
  // The counts and searches only look at the bits below the maximum
  // sub-group size; the scans at those up to this lane.
  const std::pair<const char *, Pick> picks[] = {
      {"b", &Ballots::b}, {"act", &Ballots::act}, {"w", &Ballots::w}, {"W", &Ballots::W}};
  for (auto [name, pick] : picks) {
    std::string arg = std::string("(") + name + ")";
    add("sub_group_ballot_bit_count" + arg, [pick](const SG &sg, u32, const Ballots &h) {
      return u32((h.*pick & below(sg.max)).count());
    });
    add("sub_group_ballot_inclusive_scan" + arg, [pick](const SG &, u32 l, const Ballots &h) {
      return u32((h.*pick & below(l + 1)).count());
    });
    add("sub_group_ballot_exclusive_scan" + arg,
        [pick](const SG &, u32 l, const Ballots &h) { return u32((h.*pick & below(l)).count()); });
    add("sub_group_ballot_find_lsb" + arg,
        [pick](const SG &sg, u32, const Ballots &h) { return lowest(h.*pick & below(sg.max)); });
    add("sub_group_ballot_find_msb" + arg,
        [pick](const SG &sg, u32, const Ballots &h) { return highest(h.*pick & below(sg.max)); });
  }
  add4("get_sub_group_eq_mask()",
       [](const SG &, u32 l, const Ballots &) { return below(l + 1) & ~below(l); });
  add4("get_sub_group_ge_mask()",
       [](const SG &sg, u32 l, const Ballots &) { return below(sg.max) & ~below(l); });
  add4("get_sub_group_gt_mask()",
       [](const SG &sg, u32 l, const Ballots &) { return below(sg.max) & ~below(l + 1); });
  add4("get_sub_group_le_mask()", [](const SG &, u32 l, const Ballots &) { return below(l + 1); });
  add4("get_sub_group_lt_mask()", [](const SG &, u32 l, const Ballots &) { return below(l); });
  // Broadcasts from the last active lane (found by the ballot) and the first.
  auto last = [](const SG &sg) { return sg.in[sg.lanes().back()]; };
  auto first = [](const SG &sg) { return sg.in[sg.lanes().front()]; };
  add("sub_group_non_uniform_broadcast(v, last)",
      [=](const SG &sg, u32, auto &) { return last(sg); });
  add("nb.s0", [=](const SG &sg, u32, auto &) { return last(sg); });
  add("nb.s1", [=](const SG &sg, u32, auto &) { return ~last(sg) * 3u; });
  add("as_uint(sub_group_non_uniform_broadcast((float)v * 0.25f, last))",
      [=](const SG &sg, u32, auto &) { return std::bit_cast<u32>(float(last(sg)) * 0.25f); });
  add("sub_group_broadcast_first(v)", [=](const SG &sg, u32, auto &) { return first(sg); });
  add("sub_group_broadcast_first((ushort)(v >> 3))",
      [=](const SG &sg, u32, auto &) { return u32(cl_ushort(first(sg) >> 3)); });
  add("as_uint(sub_group_broadcast_first((float)v * 0.25f))",
      [=](const SG &sg, u32, auto &) { return std::bit_cast<u32>(float(first(sg)) * 0.25f); });
  std::uniform_int_distribution<u32> bits;
  std::vector<u32> data(1 << 16);
  for (u32 &x : data) x = bits(rng_);
  spec.input = [data](size_t i) { return data[i]; };
  check(spec);
}

// ---------------------------------------------------- reductions and scans

enum class Op { Add, Mul, Min, Max, And, Or, Xor, LogicalAnd, LogicalOr, LogicalXor };
const char *const kOpNames[] = {"add", "mul", "min",         "max",        "and",
                                "or",  "xor", "logical_and", "logical_or", "logical_xor"};
const std::vector<Op> kArithmetic = {Op::Add, Op::Mul, Op::Min, Op::Max};
const std::vector<Op> kIntegerOps = {Op::Add, Op::Mul, Op::Min, Op::Max, Op::And, Op::Or, Op::Xor};
const std::vector<Op> kAll = {Op::Add, Op::Mul, Op::Min,        Op::Max,       Op::And,
                              Op::Or,  Op::Xor, Op::LogicalAnd, Op::LogicalOr, Op::LogicalXor};
bool logical(Op op) { return op >= Op::LogicalAnd; }

// mul multiplies factors of +-1 and +-2 (exact in every type, no overflow in
// 16 lanes); the logical operations take v & 3, a predicate that is not
// always 0 or 1.
const char *kOperands = R"CLC(
const int iv = (int)v;
const TYPE m = (TYPE)(((iv & 1) + 1) * ((iv & 2) ? -1 : 1));
const int p = iv & 3;
)CLC";

std::string operandText(Op op) { return op == Op::Mul ? "m" : logical(op) ? "p" : "v"; }

template <typename T>
T operand(Op op, T v) {
  int iv = int(v);
  if (op == Op::Mul) return T(((iv & 1) + 1) * ((iv & 2) ? -1 : 1));
  if (logical(op)) return T((iv & 3) != 0);
  return v;
}

template <typename T>
T identity(Op op) {
  using Limits = std::numeric_limits<T>;
  if (op == Op::Mul || op == Op::LogicalAnd) return T(1);
  if (op == Op::Min) return Limits::has_infinity ? Limits::infinity() : Limits::max();
  if (op == Op::Max) return Limits::has_infinity ? -Limits::infinity() : Limits::lowest();
  return op == Op::And ? T(~0ull) : T(0);
}

template <typename T>
T combine(Op op, T a, T b) {
  if (op == Op::Add) return T(a + b);
  if (op == Op::Mul) return T(a * b);
  if (op == Op::Min) return std::min(a, b);
  if (op == Op::Max) return std::max(a, b);
  const bool x = a != T(0), y = b != T(0);
  if (logical(op)) return T(op == Op::LogicalAnd ? x && y : op == Op::LogicalOr ? x || y : x != y);
  if constexpr (std::is_integral_v<T>)
    return T(op == Op::And ? a & b : op == Op::Or ? a | b : a ^ b);
  ADD_FAILURE() << "no " << kOpNames[int(op)] << " on this type";
  return T(0);
}

// op over the operands of the active lanes in [begin, end).
template <typename T>
T fold(Op op, const SubGroup<T> &sg, u32 begin, u32 end) {
  T r = identity<T>(op);
  for (u32 l = begin; l < std::min(end, sg.size); ++l)
    if (sg.active[l]) r = combine(op, r, operand(op, sg.in[l]));
  return r;
}

const char *const kKinds[] = {"reduce", "scan_inclusive", "scan_exclusive"};

template <typename T>
Output<T, T> reduction(const std::string &prefix, Op op, int kind) {
  std::string call = prefix + kKinds[kind] + "_" + kOpNames[int(op)] + "(" + operandText(op) + ")";
  if (logical(op)) call = "(" + call + ") != 0";
  return {call, [op, kind](const SubGroup<T> &sg, u32 l) -> std::optional<T> {
            return fold(op, sg, 0, kind == 0 ? sg.size : kind == 1 ? l + 1 : l);
          }};
}

class NonUniformArithmetic : public SubGroupExtensions {
 protected:
  template <typename T>
  void checkType(
      const std::string &type, const std::vector<Op> &ops,
      T (*make)(int) = [](int x) { return T(x); }) {
    Spec<T, T> spec{"cl_khr_subgroup_non_uniform_arithmetic", type, type, kOperands};
    for (Op op : ops)
      for (int kind = 0; kind < 3; ++kind)
        spec.outputs.push_back(reduction<T>("sub_group_non_uniform_", op, kind));
    spec.input = inputs<T>(rng_, -1000, 1000, make);
    check(spec);
  }
};

TEST_F(NonUniformArithmetic, Int) { checkType<cl_int>("int", kAll); }
TEST_F(NonUniformArithmetic, Uint) { checkType<cl_uint>("uint", kIntegerOps); }
TEST_F(NonUniformArithmetic, Long) {  // high bits in use, low bits varied for mul
  checkType<cl_long>("long", kIntegerOps, [](int x) { return cl_long(x) * (1 << 20) + x; });
}
TEST_F(NonUniformArithmetic, Short) { checkType<cl_short>("short", kIntegerOps); }
TEST_F(NonUniformArithmetic, Float) { checkType<cl_float>("float", kArithmetic); }

const u32 kClusterSizes[] = {1, 2, 4, 8, 16};

class ClusteredReduce : public SubGroupExtensions {
 protected:
  template <typename T>
  void checkType(const std::string &type, const std::vector<Op> &ops) {
    Spec<T, T> spec{"cl_khr_subgroup_clustered_reduce", type, type, kOperands};
    for (u32 cs : kClusterSizes)
      for (Op op : ops) {
        std::string call = "sub_group_clustered_reduce_" + std::string(kOpNames[int(op)]) + "(" +
                           operandText(op) + ", " + std::to_string(cs) + ")";
        if (logical(op)) call = "(" + call + ") != 0";
        // A cluster size above the maximum sub-group size is undefined:
        // the kernel skips it.
        spec.outputs.push_back({call,
                                [op, cs](const SubGroup<T> &sg, u32 l) -> std::optional<T> {
                                  return fold(op, sg, l / cs * cs, l / cs * cs + cs);
                                },
                                cs});
      }
    spec.input = inputs<T>(rng_, -1000, 1000);
    check(spec);
  }
};

TEST_F(ClusteredReduce, Int) { checkType<cl_int>("int", kAll); }
TEST_F(ClusteredReduce, Float) { checkType<cl_float>("float", kArithmetic); }

// --------------------------------------------- shuffles and rotations

// Outputs that read v from another lane: `source` gives that lane (maybe
// outside the sub-group, then the result is undefined).
struct Move {
  std::string expression;
  std::function<int64_t(const Place &, u32 lane)> source;
  u32 minMax = 1;
};

class Moves : public SubGroupExtensions {
 protected:
  template <typename T>
  void checkType(const char *extension, const std::string &type, const std::vector<Move> &moves) {
    Spec<T, T> spec{extension, type, type};
    for (const Move &move : moves)
      spec.outputs.push_back(
          {move.expression,
           [source = move.source](const SubGroup<T> &sg, u32 l) { return sg.from(source(sg, l)); },
           move.minMax});
    // Distinct values in every type (floats with a fraction).
    auto ints = std::make_shared<std::vector<int>>(randomInts(1 << 16, -100000, 100000));
    spec.input = [ints](size_t i) {
      if constexpr (std::is_floating_point_v<T>) return T((*ints)[i]) * T(0.25);
      return T((*ints)[i]);
    };
    check(spec);
  }
  void checkTypes(const char *extension, const std::vector<Move> &moves) {
    checkType<cl_char>(extension, "char", moves);
    checkType<cl_int>(extension, "int", moves);
    checkType<cl_long>(extension, "long", moves);
    checkType<cl_float>(extension, "float", moves);
  }
};

TEST_F(Moves, Shuffle) {
  checkTypes(
      "cl_khr_subgroup_shuffle",
      {{"sub_group_shuffle(v, (sgl * 7 + 3) % sgs)",
        [](const Place &sg, u32 l) { return (l * 7 + 3) % sg.size; }},
       {"sub_group_shuffle(v, sgs - 1 - sgl)",
        [](const Place &sg, u32 l) { return sg.size - 1 - l; }},
       {"sub_group_shuffle(v, mask % sgs)", [](const Place &sg, u32) { return sg.mask % sg.size; }},
       {"sub_group_shuffle_xor(v, 1)", [](const Place &, u32 l) { return l ^ 1; }},
       {"sub_group_shuffle_xor(v, 2)", [](const Place &, u32 l) { return l ^ 2; }},
       {"sub_group_shuffle_xor(v, (sgl >> 2) + 1)",
        [](const Place &, u32 l) { return l ^ ((l >> 2) + 1); }}});
}

TEST_F(Moves, ShuffleRelative) {
  checkTypes("cl_khr_subgroup_shuffle_relative",
             {{"sub_group_shuffle_up(v, 1)", [](const Place &, u32 l) { return int64_t(l) - 1; }},
              {"sub_group_shuffle_up(v, 2)", [](const Place &, u32 l) { return int64_t(l) - 2; }},
              {"sub_group_shuffle_up(v, sgl & 3)",
               [](const Place &, u32 l) { return int64_t(l) - (l & 3); }},
              {"sub_group_shuffle_down(v, 1)", [](const Place &, u32 l) { return l + 1; }},
              {"sub_group_shuffle_down(v, 2)", [](const Place &, u32 l) { return l + 2; }},
              {"sub_group_shuffle_down(v, mask % 5)",
               [](const Place &sg, u32 l) { return l + sg.mask % 5; }}});
}

TEST_F(Moves, Rotate) {
  // Lane l reads lane (l + delta) % get_max_sub_group_size(): in a smaller
  // last sub-group that lane may not exist, and the result is undefined.
  std::vector<Move> moves;
  for (u32 delta : {0u, 1u, 5u, 19u})
    moves.push_back({"sub_group_rotate(v, " + std::to_string(delta) + ")",
                     [delta](const Place &sg, u32 l) { return (l + delta) % sg.max; }});
  moves.push_back({"sub_group_rotate(v, (int)(mask % 13))",
                   [](const Place &sg, u32 l) { return (l + sg.mask % 13) % sg.max; }});
  for (u32 cs : kClusterSizes) {
    auto within = [cs](u32 l, u32 delta) { return l / cs * cs + (l % cs + delta) % cs; };
    std::string size = std::to_string(cs);
    moves.push_back({"sub_group_clustered_rotate(v, 1, " + size + ")",
                     [within](const Place &, u32 l) { return within(l, 1); }, cs});
    moves.push_back({"sub_group_clustered_rotate(v, (int)(mask % 7), " + size + ")",
                     [within](const Place &sg, u32 l) { return within(l, sg.mask % 7); }, cs});
  }
  checkTypes("cl_khr_subgroup_rotate", moves);
}

// ------------------------------------------------------ extended types

class ExtendedTypes : public SubGroupExtensions {
 protected:
  // The core sub-group collectives on char, uchar, short and ushort (every
  // lane reaches them, so the uniform slot only).
  template <typename T>
  void checkType(const std::string &type, int lo, int hi) {
    Spec<T, T> spec{"cl_khr_subgroup_extended_types", type, type};
    spec.uniformOnly = true;
    spec.prelude =
        "const uint idx = (sgid * 3) % sgs;\n"
        "const TYPE2 pair = sub_group_broadcast((TYPE2)(v, (TYPE)~v), idx);\n";
    auto broadcast = [](const SubGroup<T> &sg, u32) { return sg.in[(sg.id * 3) % sg.size]; };
    spec.outputs.push_back({"sub_group_broadcast(v, idx)", broadcast});
    spec.outputs.push_back({"pair.s0", broadcast});
    spec.outputs.push_back(
        {"pair.s1", [broadcast](const SubGroup<T> &sg, u32 l) { return T(~broadcast(sg, l)); }});
    for (Op op : {Op::Add, Op::Min, Op::Max})
      for (int kind = 0; kind < 3; ++kind)
        spec.outputs.push_back(reduction<T>("sub_group_", op, kind));
    spec.input = inputs<T>(rng_, lo, hi);
    check(spec);
  }
};

// Sums of 16 lanes stay inside each type.
TEST_F(ExtendedTypes, Char) { checkType<cl_char>("char", -7, 7); }
TEST_F(ExtendedTypes, Uchar) { checkType<cl_uchar>("uchar", 0, 15); }
TEST_F(ExtendedTypes, Short) { checkType<cl_short>("short", -1000, 1000); }
TEST_F(ExtendedTypes, Ushort) { checkType<cl_ushort>("ushort", 0, 4000); }

TEST_F(ExtendedTypes, VectorBroadcast) {
  Spec<int, u32> spec{"cl_khr_subgroup_extended_types", "int", "uint"};
  spec.uniformOnly = true;
  spec.prelude = R"CLC(
const uint idx = (sgid * 5 + 1) % sgs;
const float4 f = sub_group_broadcast((float4)((float)v * 0.5f, -(float)v, (float)v + 0.25f,
                                              (float)(v * 3)), idx);
const int2 i = sub_group_broadcast((int2)(v, v * 3 + 1), idx);
)CLC";
  using F = float (*)(int);
  const F parts[] = {[](int v) { return float(v) * 0.5f; }, [](int v) { return -float(v); },
                     [](int v) { return float(v) + 0.25f; }, [](int v) { return float(v * 3); }};
  auto source = [](const SubGroup<int> &sg) { return sg.in[(sg.id * 5 + 1) % sg.size]; };
  for (int c = 0; c < 4; ++c)
    spec.outputs.push_back(
        {"as_uint(f.s" + std::to_string(c) + ")",
         [=](const SubGroup<int> &sg, u32) { return std::bit_cast<u32>(parts[c](source(sg))); }});
  spec.outputs.push_back({"i.s0", [=](const SubGroup<int> &sg, u32) { return u32(source(sg)); }});
  spec.outputs.push_back(
      {"i.s1", [=](const SubGroup<int> &sg, u32) { return u32(source(sg) * 3 + 1); }});
  spec.input = inputs<int>(rng_, -100000, 100000);
  check(spec);
}

}  // namespace
}  // namespace lockstep::test::sync

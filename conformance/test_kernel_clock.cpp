// cl_khr_kernel_clock: the capability query, the macros, and the clocks
// themselves. Lockstep's counter is the host's monotonic clock in
// nanoseconds (docs/compiler.md), so every reading a kernel takes must lie
// between the host's steady_clock just before the enqueue and just after
// the finish, and each work-item's successive readings (of any scope, as
// ulong or as hi/lo halves) must never go backwards.
#include <chrono>

#include "ClTest.h"

#ifndef CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR
#define CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR 0x1076
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR (1 << 0)
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR (1 << 1)
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR (1 << 2)
#endif

namespace lockstep::test {
namespace {

class KernelClock : public ClTest {};

TEST_F(KernelClock, CapabilitiesAndMacros) {
  std::string list = " " + deviceString(device_, CL_DEVICE_EXTENSIONS) + " ";
  EXPECT_NE(list.find(" cl_khr_kernel_clock "), std::string::npos);
  EXPECT_EQ(deviceInfo<cl_bitfield>(device_, CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR),
            cl_bitfield(CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR | CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR |
                        CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR));
  for (const char *name : {"__opencl_c_kernel_clock_scope_device", "__opencl_c_kernel_clock_scope_work_group",
                           "__opencl_c_kernel_clock_scope_sub_group"})
    EXPECT_TRUE(hasFeature(name)) << name;
  const char *source = R"CLC(
#if !defined(cl_khr_kernel_clock) || !defined(__opencl_c_kernel_clock_scope_device) || \
    !defined(__opencl_c_kernel_clock_scope_work_group) || !defined(__opencl_c_kernel_clock_scope_sub_group)
#error kernel clock macros missing
#endif
kernel void k(global ulong *out) { out[0] = clock_read_device(); }
)CLC";
  for (const char *options : {"", "-cl-std=CL1.2", "-cl-std=CL3.0"}) EXPECT_NE(kernel(source, "k", options), nullptr);
}

// Each work-item reads the three clocks in both forms, twice around a loop
// of work, and reports the twelve readings.
const char *kClockSource = R"CLC(
ulong joined(uint2 t) { return ((ulong)t.y << 32) | t.x; }
kernel void clocks(global ulong *out, uint spins) {
  size_t i = get_global_id(0);
  global ulong *o = out + i * 12;
  o[0] = clock_read_device();
  o[1] = joined(clock_read_hilo_device());
  o[2] = clock_read_work_group();
  o[3] = joined(clock_read_hilo_work_group());
  o[4] = clock_read_sub_group();
  o[5] = joined(clock_read_hilo_sub_group());
  uint x = (uint)i;
  for (uint k = 0; k < spins; ++k) x = x * 1664525u + 1013904223u;
  o[6] = clock_read_sub_group() + (x == 12345u);
  o[7] = joined(clock_read_hilo_sub_group());
  o[8] = clock_read_work_group();
  o[9] = joined(clock_read_hilo_work_group());
  o[10] = clock_read_device();
  o[11] = joined(clock_read_hilo_device());
}
)CLC";

uint64_t hostNanoseconds() {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

TEST_F(KernelClock, MonotonicWithinTheLaunch) {
  for (const char *options : {"-cl-std=CL1.2", "-cl-std=CL3.0"}) {
    SCOPED_TRACE(options);
    cl_kernel k = kernel(kClockSource, "clocks", options);
    ASSERT_NE(k, nullptr);
    const size_t items = 1024, local = 64;
    cl_mem out = buffer(CL_MEM_WRITE_ONLY, items * 12 * sizeof(cl_ulong));
    ASSERT_TRUE(setArgs(k, out, cl_uint(20000)));
    uint64_t before = hostNanoseconds();
    ASSERT_TRUE(run(k, {items}, {local}));
    uint64_t after = hostNanoseconds();
    std::vector<cl_ulong> got = read<cl_ulong>(out, items * 12);
    int failures = 0;
    for (size_t i = 0; i < items && failures < 5; ++i) {
      const cl_ulong *t = &got[i * 12];
      for (int r = 0; r < 12; ++r) {
        // o[6] may carry the +1 that keeps the loop; allow it.
        bool inside = t[r] >= before && t[r] <= after + 1;
        bool ordered = r == 0 || t[r] + (r == 7 ? 1 : 0) >= t[r - 1];
        if (!inside || !ordered) {
          ++failures;
          ADD_FAILURE() << "work-item " << i << " reading " << r << ": " << t[r] << " (previous "
                        << (r ? t[r - 1] : 0) << "), host " << before << ".." << after;
        }
      }
    }
    // The loop of work shows on the clock: a work-item's last reading is
    // later than its first.
    size_t advanced = 0;
    for (size_t i = 0; i < items; ++i) advanced += got[i * 12 + 11] > got[i * 12];
    EXPECT_GT(advanced, items / 2);
  }
}

}  // namespace
}  // namespace lockstep::test

// Device partitioning (clCreateSubDevices): every partition type this machine
// allows, sub-devices of sub-devices, each sub-device's queries against what
// the test reads from the OS itself (sched_getaffinity, sysfs), kernels on
// sub-devices against a host reference, that a sub-device's kernel runs only
// on its CPUs (its threads' affinity and CPU, read from /proc/self/task while
// it runs), reference counting, and every error code.
#include <CL/cl_ext.h>
#include <dirent.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "ClTest.h"

namespace lockstep::test {
namespace {

using CpuList = std::vector<int>;
using Props = std::vector<cl_device_partition_property>;

// --- the machine, read independently of the implementation ---

CpuList affinityOf(pid_t tid) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CpuList cpus;
  if (sched_getaffinity(tid, sizeof set, &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  return cpus;
}

CpuList usableCpus() { return affinityOf(0); }

std::string firstLine(const std::string &path) {
  std::ifstream file(path);
  std::string line;
  std::getline(file, line);
  return line;
}

// "0-2,5" -> {0, 1, 2, 5}
CpuList cpuList(const std::string &text) {
  CpuList cpus;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, ',');) {
    if (part.empty()) continue;
    size_t dash = part.find('-');
    int first = std::stoi(part.substr(0, dash));
    int last = dash == std::string::npos ? first : std::stoi(part.substr(dash + 1));
    for (int cpu = first; cpu <= last; ++cpu) cpus.push_back(cpu);
  }
  return cpus;
}

CpuList within(const CpuList &cpus, const CpuList &allowed) {
  CpuList out;
  for (int cpu : cpus)
    if (std::count(allowed.begin(), allowed.end(), cpu)) out.push_back(cpu);
  return out;
}

// The groups of the usable CPUs (or of `only`) sharing an affinity domain,
// as a set (empty if the machine does not describe the domain).
std::set<CpuList> domainGroups(cl_device_affinity_domain domain, const CpuList &only = {}) {
  CpuList usable = only.empty() ? usableCpus() : only;
  std::set<CpuList> groups;
  if (domain == CL_DEVICE_AFFINITY_DOMAIN_NUMA) {
    for (int node = 0; node < 1024; ++node) {
      std::string list = firstLine("/sys/devices/system/node/node" + std::to_string(node) + "/cpulist");
      CpuList mine = within(cpuList(list), usable);
      if (!mine.empty()) groups.insert(mine);
    }
    return groups;
  }
  int level = domain == CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE   ? 1
              : domain == CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE ? 2
              : domain == CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE ? 3
                                                             : 4;
  bool described = false;
  for (int cpu : usable) {
    CpuList sharers;
    for (int index = 0; index < 16; ++index) {
      std::string dir = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/cache/index" +
                        std::to_string(index) + "/";
      std::string type = firstLine(dir + "type");
      if (type.empty()) break;
      if (type != "Instruction" && firstLine(dir + "level") == std::to_string(level))
        sharers = within(cpuList(firstLine(dir + "shared_cpu_list")), usable);
    }
    described |= !sharers.empty();
    groups.insert(sharers.empty() ? CpuList{cpu} : sharers);
  }
  return described ? groups : std::set<CpuList>{};
}

constexpr cl_device_affinity_domain kDomains[] = {
    CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE};

cl_device_affinity_domain describedDomains() {
  cl_device_affinity_domain mask = 0;
  for (cl_device_affinity_domain domain : kDomains)
    if (!domainGroups(domain).empty()) mask |= domain;
  return mask ? mask | CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE : 0;
}

// What CL_DEVICE_PARTITION_AFFINITY_DOMAIN reports for a device of `cpus`:
// the domains that split them into two groups or more.
cl_device_affinity_domain partitioningDomains(const CpuList &cpus = {}) {
  cl_device_affinity_domain mask = 0;
  for (cl_device_affinity_domain domain : kDomains)
    if (domainGroups(domain, cpus).size() > 1) mask |= domain;
  return mask ? mask | CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE : 0;
}

// --- sub-devices ---

// Sub-devices the test owns: released at the end unless released already.
struct SubDevices {
  std::vector<cl_device_id> devices;
  ~SubDevices() {
    for (cl_device_id device : devices) EXPECT_CL(clReleaseDevice(device));
  }
  size_t size() const { return devices.size(); }
  cl_device_id operator[](size_t i) const { return devices[i]; }
};

// Partitions `device`, asking for the count first as applications do.
::testing::AssertionResult partition(cl_device_id device, const Props &props, SubDevices &out) {
  cl_uint count = 0;
  cl_int err = clCreateSubDevices(device, props.data(), 0, nullptr, &count);
  if (err != CL_SUCCESS) return ::testing::AssertionFailure() << errorName(err) << " counting";
  out.devices.resize(count);
  cl_uint made = 0;
  err = clCreateSubDevices(device, props.data(), count, out.devices.data(), &made);
  if (err != CL_SUCCESS) {
    out.devices.clear();
    return ::testing::AssertionFailure() << errorName(err) << " creating";
  }
  if (made != count) return ::testing::AssertionFailure() << made << " made, " << count << " counted";
  return ::testing::AssertionSuccess();
}

Props partitionType(cl_device_id device) {
  size_t size = 0;
  EXPECT_CL(clGetDeviceInfo(device, CL_DEVICE_PARTITION_TYPE, 0, nullptr, &size));
  Props props(size / sizeof(cl_device_partition_property));
  if (size) EXPECT_CL(clGetDeviceInfo(device, CL_DEVICE_PARTITION_TYPE, size, props.data(), nullptr));
  return props;
}

cl_uint computeUnits(cl_device_id device) {
  return deviceInfo<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS);
}

cl_uint referenceCount(cl_device_id device) {
  return deviceInfo<cl_uint>(device, CL_DEVICE_REFERENCE_COUNT);
}

// The queries a sub-device answers as its parent does.
void expectLikeParent(cl_device_id sub, cl_device_id parent) {
  EXPECT_EQ(deviceString(sub, CL_DEVICE_NAME), deviceString(parent, CL_DEVICE_NAME));
  EXPECT_EQ(deviceString(sub, CL_DEVICE_EXTENSIONS), deviceString(parent, CL_DEVICE_EXTENSIONS));
  EXPECT_EQ(deviceString(sub, CL_DEVICE_VERSION), deviceString(parent, CL_DEVICE_VERSION));
  EXPECT_EQ(deviceInfo<cl_device_type>(sub, CL_DEVICE_TYPE), CL_DEVICE_TYPE_CPU);
  EXPECT_EQ(deviceInfo<cl_platform_id>(sub, CL_DEVICE_PLATFORM),
            deviceInfo<cl_platform_id>(parent, CL_DEVICE_PLATFORM));
  EXPECT_EQ(deviceInfo<cl_ulong>(sub, CL_DEVICE_GLOBAL_MEM_SIZE),
            deviceInfo<cl_ulong>(parent, CL_DEVICE_GLOBAL_MEM_SIZE));
  EXPECT_EQ(deviceInfo<cl_ulong>(sub, CL_DEVICE_MAX_MEM_ALLOC_SIZE),
            deviceInfo<cl_ulong>(parent, CL_DEVICE_MAX_MEM_ALLOC_SIZE));
  EXPECT_EQ(deviceInfo<size_t>(sub, CL_DEVICE_MAX_WORK_GROUP_SIZE),
            deviceInfo<size_t>(parent, CL_DEVICE_MAX_WORK_GROUP_SIZE));
  EXPECT_EQ(deviceInfo<cl_device_affinity_domain>(sub, CL_DEVICE_PARTITION_AFFINITY_DOMAIN) &
                ~deviceInfo<cl_device_affinity_domain>(parent, CL_DEVICE_PARTITION_AFFINITY_DOMAIN),
            0u) << "a sub-device partitions by a domain its parent does not";
}

// The checks every sub-device passes: its parent, its partition type, its
// compute units (its CPU count), its sub-device limit, its count.
void expectSubDevice(cl_device_id sub, cl_device_id parent, const Props &type, size_t cpus) {
  EXPECT_EQ(deviceInfo<cl_device_id>(sub, CL_DEVICE_PARENT_DEVICE), parent);
  EXPECT_EQ(partitionType(sub), type);
  EXPECT_EQ(computeUnits(sub), cpus);
  EXPECT_EQ(deviceInfo<cl_uint>(sub, CL_DEVICE_PARTITION_MAX_SUB_DEVICES), cpus);
  EXPECT_EQ(referenceCount(sub), 1u);
  expectLikeParent(sub, parent);
}

// --- running on a sub-device ---

const char *kSource = R"(
kernel void affine(global const int *in, global int *out, int scale) {
  size_t i = get_global_id(0);
  out[i] = in[i] * scale + (int)i;
}
kernel void spin(global uint *out, uint iterations) {
  uint x = (uint)get_global_id(0) + 1u;
  for (uint i = 0; i < iterations; ++i) x = x * 1664525u + 1013904223u;
  out[get_global_id(0)] = x;
}
)";

uint32_t spinReference(uint32_t id, uint32_t iterations) {
  uint32_t x = id + 1;
  for (uint32_t i = 0; i < iterations; ++i) x = x * 1664525u + 1013904223u;
  return x;
}

// A context, a queue and the program on some devices.
struct Devices {
  cl_context context = nullptr;
  cl_program program = nullptr;
  std::vector<cl_command_queue> queues;
  explicit Devices(const std::vector<cl_device_id> &devices) {
    cl_int err;
    context = clCreateContext(nullptr, cl_uint(devices.size()), devices.data(), nullptr, nullptr, &err);
    EXPECT_CL(err);
    for (cl_device_id device : devices) {
      queues.push_back(clCreateCommandQueueWithProperties(context, device, nullptr, &err));
      EXPECT_CL(err);
    }
    program = clCreateProgramWithSource(context, 1, &kSource, nullptr, &err);
    EXPECT_CL(err);
    EXPECT_CL(clBuildProgram(program, 0, nullptr, "", nullptr, nullptr));
  }
  ~Devices() {
    for (cl_command_queue queue : queues) clReleaseCommandQueue(queue);
    if (program) clReleaseProgram(program);
    if (context) clReleaseContext(context);
  }
};

// Runs `affine` on the queue and checks every element against the host.
void runAffine(cl_context context, cl_program program, cl_command_queue queue, cl_device_id device,
               int scale) {
  constexpr size_t n = 4096;
  std::vector<int> in(n), out(n, 0);
  for (size_t i = 0; i < n; ++i) in[i] = int(i * 7 % 1000) - 500;
  cl_int err;
  cl_kernel kernel = clCreateKernel(program, "affine", &err);
  ASSERT_CL(err);
  size_t groupSize = 0;
  EXPECT_CL(clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof groupSize,
                                     &groupSize, nullptr));
  EXPECT_GE(groupSize, 1u);
  cl_build_status status = CL_BUILD_NONE;
  EXPECT_CL(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status,
                                  nullptr));
  EXPECT_EQ(status, CL_BUILD_SUCCESS);
  cl_mem a = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, n * sizeof(int), in.data(), &err);
  EXPECT_CL(err);
  cl_mem b = clCreateBuffer(context, CL_MEM_WRITE_ONLY, n * sizeof(int), nullptr, &err);
  EXPECT_CL(err);
  EXPECT_CL(clSetKernelArg(kernel, 0, sizeof a, &a));
  EXPECT_CL(clSetKernelArg(kernel, 1, sizeof b, &b));
  EXPECT_CL(clSetKernelArg(kernel, 2, sizeof scale, &scale));
  size_t global = n, local = 64;
  EXPECT_CL(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr));
  EXPECT_CL(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, n * sizeof(int), out.data(), 0, nullptr, nullptr));
  for (size_t i = 0; i < n; ++i) {
    ASSERT_EQ(out[i], in[i] * scale + int(i)) << "element " << i;
  }
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseKernel(kernel);
}

void runAffineOn(cl_device_id device, int scale) {
  Devices setup({device});
  runAffine(setup.context, setup.program, setup.queues[0], device, scale);
}

// One thread of this process, read from /proc/self/task/<tid>/stat.
struct ThreadSample {
  char state = '?';
  long cpuTicks = 0;  // utime + stime
  int processor = -1;
};

bool sampleThread(pid_t tid, ThreadSample &sample) {
  std::string stat = firstLine("/proc/self/task/" + std::to_string(tid) + "/stat");
  size_t paren = stat.rfind(')');
  if (paren == std::string::npos) return false;
  std::istringstream fields(stat.substr(paren + 2));
  std::vector<std::string> f;
  for (std::string field; fields >> field;) f.push_back(field);
  if (f.size() < 37) return false;
  sample.state = f[0][0];                                    // field 3
  sample.cpuTicks = std::stol(f[11]) + std::stol(f[12]);     // fields 14, 15
  sample.processor = std::stoi(f[36]);                       // field 39
  return true;
}

std::vector<pid_t> threads() {
  std::vector<pid_t> tids;
  DIR *dir = opendir("/proc/self/task");
  if (!dir) return tids;
  while (dirent *entry = readdir(dir))
    if (entry->d_name[0] != '.') tids.push_back(pid_t(std::atoi(entry->d_name)));
  closedir(dir);
  return tids;
}

// Runs a long `spin` launch of many work-groups on `device` while sampling
// every thread of the process: the thread that did its work (the one whose
// CPU time grew the most; never this sampling thread) must have had an
// affinity within `cpus` and run on CPUs of `cpus` whenever seen running.
void expectRunsOnlyOn(cl_device_id device, const CpuList &cpus) {
  Devices setup({device});
  cl_int err;
  cl_kernel kernel = clCreateKernel(setup.program, "spin", &err);
  ASSERT_CL(err);
  constexpr size_t n = 256;
  cl_mem out = clCreateBuffer(setup.context, CL_MEM_WRITE_ONLY, n * sizeof(cl_uint), nullptr, &err);
  ASSERT_CL(err);
  ASSERT_CL(clSetKernelArg(kernel, 0, sizeof out, &out));
  cl_command_queue queue = setup.queues[0];
  size_t global = n, local = 4;  // 64 work-groups: enough for every thread of an arena

  // Calibrate: iterations for a launch of about 400 ms of processor time
  // (the process's, which the launch's threads use: unlike the wall clock,
  // it does not shrink the launch when other programs load the machine).
  auto cpuMs = [] {
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return double(now.tv_sec) * 1e3 + double(now.tv_nsec) / 1e6;
  };
  cl_uint iterations = 1 << 14;
  for (;;) {
    ASSERT_CL(clSetKernelArg(kernel, 1, sizeof iterations, &iterations));
    double start = cpuMs();
    ASSERT_CL(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr));
    ASSERT_CL(clFinish(queue));
    double ms = cpuMs() - start;
    if (ms > 40 || iterations >= (1u << 30)) {
      iterations = cl_uint(std::min(double(1u << 31), iterations * 400.0 / std::max(ms, 1.0)));
      break;
    }
    iterations *= 4;
  }
  ASSERT_CL(clSetKernelArg(kernel, 1, sizeof iterations, &iterations));

  const pid_t self = pid_t(syscall(SYS_gettid));
  std::map<pid_t, long> ticksBefore;
  for (pid_t tid : threads()) {
    ThreadSample sample;
    if (sampleThread(tid, sample)) ticksBefore[tid] = sample.cpuTicks;
  }
  struct Seen {
    int running = 0;
    std::set<int> processors;
    std::set<CpuList> masks;
  };
  std::map<pid_t, Seen> seen;
  cl_event done;
  ASSERT_CL(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, &local, 0, nullptr, &done));
  ASSERT_CL(clFlush(queue));
  for (;;) {
    cl_int status;
    ASSERT_CL(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr));
    if (status <= CL_COMPLETE) break;
    for (pid_t tid : threads()) {
      ThreadSample sample;
      if (tid == self || !sampleThread(tid, sample) || sample.state != 'R') continue;
      Seen &s = seen[tid];
      ++s.running;
      s.processors.insert(sample.processor);
      s.masks.insert(affinityOf(tid));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_CL(clWaitForEvents(1, &done));
  clReleaseEvent(done);

  // The launch's worker: the thread whose CPU time grew the most. (Not every
  // thread that grew: a oneTBB worker pinned to another device may spin a
  // while looking for work it cannot join, without running any of it.)
  std::map<pid_t, long> grown;
  long most = 0;
  for (pid_t tid : threads()) {
    ThreadSample sample;
    if (tid == self || !sampleThread(tid, sample)) continue;
    grown[tid] = sample.cpuTicks - ticksBefore[tid];
    most = std::max(most, grown[tid]);
  }
  ASSERT_GE(most, 5) << "no thread did the launch's work";
  pid_t worker = 0;
  for (auto [tid, ticks] : grown)
    if (ticks == most) worker = tid;
  const Seen &s = seen[worker];
  EXPECT_GT(s.running, 0) << "worker " << worker << " never seen running";
  for (int processor : s.processors)
    EXPECT_TRUE(std::count(cpus.begin(), cpus.end(), processor))
        << "worker " << worker << " (" << most << " ticks) ran on CPU " << processor;
  for (const CpuList &mask : s.masks) EXPECT_EQ(within(mask, cpus), mask) << "worker " << worker;

  std::vector<cl_uint> results(n);
  ASSERT_CL(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, n * sizeof(cl_uint), results.data(), 0, nullptr, nullptr));
  for (size_t i = 0; i < n; i += 37) EXPECT_EQ(results[i], spinReference(uint32_t(i), iterations)) << i;
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
}

cl_device_id root() { return testDevice(); }

// --- the root device's answers ---

TEST(DevicePartition, RootReportsWhatItSupports) {
  cl_device_id device = root();
  ASSERT_NE(device, nullptr);
  CpuList usable = usableCpus();
  EXPECT_EQ(computeUnits(device), usable.size());
  EXPECT_EQ(deviceInfo<cl_uint>(device, CL_DEVICE_PARTITION_MAX_SUB_DEVICES), usable.size());
  size_t size = 0;
  ASSERT_CL(clGetDeviceInfo(device, CL_DEVICE_PARTITION_PROPERTIES, 0, nullptr, &size));
  Props props(size / sizeof(cl_device_partition_property));
  ASSERT_CL(clGetDeviceInfo(device, CL_DEVICE_PARTITION_PROPERTIES, size, props.data(), nullptr));
  Props expected = {CL_DEVICE_PARTITION_EQUALLY, CL_DEVICE_PARTITION_BY_COUNTS};
  if (partitioningDomains()) expected.push_back(CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN);
  EXPECT_EQ(props, expected);
  EXPECT_EQ(deviceInfo<cl_device_affinity_domain>(device, CL_DEVICE_PARTITION_AFFINITY_DOMAIN),
            partitioningDomains());
  EXPECT_EQ(deviceInfo<cl_device_id>(device, CL_DEVICE_PARENT_DEVICE), nullptr);
  EXPECT_TRUE(partitionType(device).empty());
  // The root device is not counted.
  EXPECT_EQ(referenceCount(device), 1u);
  EXPECT_CL(clRetainDevice(device));
  EXPECT_EQ(referenceCount(device), 1u);
  EXPECT_CL(clReleaseDevice(device));
  EXPECT_CL(clReleaseDevice(device));
  EXPECT_EQ(referenceCount(device), 1u);
}

// --- each partition type ---

TEST(DevicePartition, EquallyOneComputeUnitEach) {
  CpuList usable = usableCpus();
  if (usable.size() < 2) GTEST_SKIP() << "one CPU: nothing to partition";
  SubDevices subs;
  const Props props = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  ASSERT_TRUE(partition(root(), props, subs));
  ASSERT_EQ(subs.size(), usable.size());
  for (size_t i = 0; i < subs.size(); ++i) {
    expectSubDevice(subs[i], root(), props, 1);
    runAffineOn(subs[i], int(i) + 2);
  }
  // Sub-device i runs on the i-th CPU the process may use.
  for (size_t i = 0; i < std::min<size_t>(subs.size(), 4); ++i) expectRunsOnlyOn(subs[i], {usable[i]});
}

TEST(DevicePartition, EquallyLeavesTheRemainderUnused) {
  CpuList usable = usableCpus();
  if (usable.size() < 2) GTEST_SKIP() << "one CPU: nothing to partition";
  // n CPUs each with some left over needs 3 CPUs or more.
  if (usable.size() >= 3) {
    cl_device_partition_property n = cl_device_partition_property(usable.size() / 2 + 1);
    SubDevices subs;
    const Props props = {CL_DEVICE_PARTITION_EQUALLY, n, 0};
    ASSERT_TRUE(partition(root(), props, subs));
    ASSERT_EQ(subs.size(), usable.size() / size_t(n));
    for (size_t i = 0; i < subs.size(); ++i) expectSubDevice(subs[i], root(), props, size_t(n));
    runAffineOn(subs[0], -3);
  }
  // All of them: the device again, which is no partition.
  const Props whole = {CL_DEVICE_PARTITION_EQUALLY, cl_device_partition_property(usable.size()), 0};
  cl_uint count = 0;
  EXPECT_CL_ERROR(CL_DEVICE_PARTITION_FAILED, clCreateSubDevices(root(), whole.data(), 0, nullptr, &count));
}

TEST(DevicePartition, ByCounts) {
  CpuList usable = usableCpus();
  if (usable.size() < 2) GTEST_SKIP() << "one CPU: nothing to partition";
  {
    SubDevices subs;
    const Props props = {CL_DEVICE_PARTITION_BY_COUNTS, 1, 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    ASSERT_TRUE(partition(root(), props, subs));
    ASSERT_EQ(subs.size(), 2u);
    for (size_t i = 0; i < 2; ++i) {
      expectSubDevice(subs[i], root(), props, 1);
      runAffineOn(subs[i], 5);
    }
    expectRunsOnlyOn(subs[1], {usable[1]});
  }
  {
    SubDevices subs;
    const Props props = {CL_DEVICE_PARTITION_BY_COUNTS, 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    ASSERT_TRUE(partition(root(), props, subs));
    ASSERT_EQ(subs.size(), 1u);
    expectSubDevice(subs[0], root(), props, 1);
    expectRunsOnlyOn(subs[0], {usable[0]});
  }
  {
    // Uneven counts: the first gets the first CPUs.
    SubDevices subs;
    const Props props = {CL_DEVICE_PARTITION_BY_COUNTS, cl_device_partition_property(usable.size() - 1), 1,
                         CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    ASSERT_TRUE(partition(root(), props, subs));
    ASSERT_EQ(subs.size(), 2u);
    expectSubDevice(subs[0], root(), props, usable.size() - 1);
    expectSubDevice(subs[1], root(), props, 1);
    expectRunsOnlyOn(subs[1], {usable.back()});
  }
}

TEST(DevicePartition, ByEachAffinityDomain) {
  cl_device_affinity_domain supported = describedDomains();
  if (!supported) GTEST_SKIP() << "the machine describes no affinity domain";
  int tried = 0;
  for (cl_device_affinity_domain domain : kDomains) {
    SCOPED_TRACE("domain " + std::to_string(domain));
    const Props props = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, cl_device_partition_property(domain), 0};
    std::set<CpuList> groups = domainGroups(domain);
    cl_uint count = 0;
    cl_int err = clCreateSubDevices(root(), props.data(), 0, nullptr, &count);
    if (groups.empty()) {
      EXPECT_EQ(err, CL_INVALID_VALUE) << errorName(err) << ": the domain is not described";
      continue;
    }
    if (groups.size() == 1) {
      EXPECT_EQ(err, CL_DEVICE_PARTITION_FAILED) << errorName(err) << ": one group, no partition";
      continue;
    }
    ++tried;
    SubDevices subs;
    ASSERT_TRUE(partition(root(), props, subs));
    ASSERT_EQ(subs.size(), groups.size());
    // The sub-devices take the groups in order of their first CPU.
    size_t i = 0;
    for (const CpuList &group : groups) {
      expectSubDevice(subs[i], root(), props, group.size());
      if (i < 2) expectRunsOnlyOn(subs[i], group);
      ++i;
    }
    runAffineOn(subs[0], 9);
  }
  // NEXT_PARTITIONABLE: the outermost domain that splits the device.
  const Props next = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                      CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, 0};
  cl_device_affinity_domain used = 0;
  for (cl_device_affinity_domain domain : kDomains)
    if (!used && domainGroups(domain).size() > 1) used = domain;
  if (!used) {
    cl_uint count;
    EXPECT_CL_ERROR(CL_DEVICE_PARTITION_FAILED, clCreateSubDevices(root(), next.data(), 0, nullptr, &count));
    return;
  }
  SubDevices subs;
  ASSERT_TRUE(partition(root(), next, subs));
  ASSERT_EQ(subs.size(), domainGroups(used).size());
  // CL_DEVICE_PARTITION_TYPE names the domain used.
  const Props reported = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, cl_device_partition_property(used), 0};
  for (size_t i = 0; i < subs.size(); ++i) EXPECT_EQ(partitionType(subs[i]), reported);
  EXPECT_GE(tried, 1);
}

TEST(DevicePartition, SubDevicesOfSubDevices) {
  CpuList usable = usableCpus();
  if (usable.size() < 2) GTEST_SKIP() << "one CPU: nothing to partition";
  SubDevices outer;
  const Props whole = {CL_DEVICE_PARTITION_BY_COUNTS, cl_device_partition_property(usable.size()),
                       CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  ASSERT_TRUE(partition(root(), whole, outer));
  ASSERT_EQ(outer.size(), 1u);
  cl_device_id middle = outer[0];
  EXPECT_EQ(deviceInfo<cl_uint>(middle, CL_DEVICE_PARTITION_MAX_SUB_DEVICES), usable.size());
  SubDevices inner;
  const Props props = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  ASSERT_TRUE(partition(middle, props, inner));
  ASSERT_EQ(inner.size(), usable.size());
  for (size_t i = 0; i < inner.size(); ++i) expectSubDevice(inner[i], middle, props, 1);
  // The middle device lives on while its sub-devices do.
  ASSERT_CL(clReleaseDevice(middle));
  outer.devices.clear();
  runAffineOn(inner[1], 11);
  expectRunsOnlyOn(inner[1], {usable[1]});
  // A device of one CPU cannot be partitioned further: EQUALLY 1 would give
  // the device again.
  cl_uint count;
  EXPECT_CL_ERROR(CL_DEVICE_PARTITION_FAILED, clCreateSubDevices(inner[0], props.data(), 0, nullptr, &count));
  const Props two = {CL_DEVICE_PARTITION_EQUALLY, 2, 0};
  EXPECT_CL_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT, clCreateSubDevices(inner[0], two.data(), 0, nullptr, &count));
}

TEST(DevicePartition, OneContextOfRootAndSubDevices) {
  CpuList usable = usableCpus();
  if (usable.size() < 2) GTEST_SKIP() << "one CPU: nothing to partition";
  SubDevices subs;
  ASSERT_TRUE(partition(root(), {CL_DEVICE_PARTITION_EQUALLY, 1, 0}, subs));
  std::vector<cl_device_id> devices = {root(), subs[0], subs[1]};
  Devices setup(devices);
  cl_uint count = 0;
  ASSERT_CL(clGetContextInfo(setup.context, CL_CONTEXT_NUM_DEVICES, sizeof count, &count, nullptr));
  EXPECT_EQ(count, 3u);
  for (size_t i = 0; i < devices.size(); ++i)
    runAffine(setup.context, setup.program, setup.queues[i], devices[i], int(i) * 3 - 4);
  // A command on one sub-device that waits for one on another.
  cl_event user = nullptr;
  cl_int err;
  user = clCreateUserEvent(setup.context, &err);
  ASSERT_CL(err);
  cl_event marker;
  ASSERT_CL(clEnqueueMarkerWithWaitList(setup.queues[1], 1, &user, &marker));
  ASSERT_CL(clEnqueueBarrierWithWaitList(setup.queues[2], 1, &marker, nullptr));
  ASSERT_CL(clSetUserEventStatus(user, CL_COMPLETE));
  runAffine(setup.context, setup.program, setup.queues[2], devices[2], 7);
  clReleaseEvent(marker);
  clReleaseEvent(user);

  // A build for the root device alone is one for its sub-devices too; a
  // build for a sub-device is not one for its parent.
  cl_program program = clCreateProgramWithSource(setup.context, 1, &kSource, nullptr, &err);
  ASSERT_CL(err);
  ASSERT_CL(clBuildProgram(program, 1, &devices[0], "", nullptr, nullptr));
  runAffine(setup.context, program, setup.queues[1], devices[1], 6);
  clReleaseProgram(program);
  program = clCreateProgramWithSource(setup.context, 1, &kSource, nullptr, &err);
  ASSERT_CL(err);
  ASSERT_CL(clBuildProgram(program, 1, &devices[2], "", nullptr, nullptr));
  for (cl_device_id device : {devices[0], devices[1]}) {
    cl_build_status status = CL_BUILD_SUCCESS;
    ASSERT_CL(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr));
    EXPECT_EQ(status, CL_BUILD_NONE);
  }
  runAffine(setup.context, program, setup.queues[2], devices[2], 8);
  clReleaseProgram(program);
}

TEST(DevicePartition, GetDeviceIDsListsOnlyRootDevices) {
  cl_uint before = 0;
  ASSERT_CL(clGetDeviceIDs(testPlatform(), CL_DEVICE_TYPE_ALL, 0, nullptr, &before));
  SubDevices subs;
  ASSERT_TRUE(partition(root(), {CL_DEVICE_PARTITION_EQUALLY, 1, 0}, subs));
  cl_uint after = 0;
  ASSERT_CL(clGetDeviceIDs(testPlatform(), CL_DEVICE_TYPE_ALL, 0, nullptr, &after));
  EXPECT_EQ(after, before);
  std::vector<cl_device_id> listed(after);
  ASSERT_CL(clGetDeviceIDs(testPlatform(), CL_DEVICE_TYPE_ALL, after, listed.data(), nullptr));
  for (cl_device_id sub : subs.devices) EXPECT_EQ(std::count(listed.begin(), listed.end(), sub), 0);
}

// --- reference counting ---

TEST(DevicePartition, SubDevicesAreCounted) {
  SubDevices subs;
  ASSERT_TRUE(partition(root(), {CL_DEVICE_PARTITION_EQUALLY, 1, 0}, subs));
  cl_device_id sub = subs[0];
  EXPECT_EQ(referenceCount(sub), 1u);
  ASSERT_CL(clRetainDevice(sub));
  EXPECT_EQ(referenceCount(sub), 2u);
  ASSERT_CL(clRetainDeviceEXT(sub));
  EXPECT_EQ(referenceCount(sub), 3u);
  ASSERT_CL(clReleaseDeviceEXT(sub));
  ASSERT_CL(clReleaseDevice(sub));
  EXPECT_EQ(referenceCount(sub), 1u);

  // A context and a queue keep a sub-device the application released.
  cl_int err;
  cl_context context = clCreateContext(nullptr, 1, &sub, nullptr, nullptr, &err);
  ASSERT_CL(err);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, sub, nullptr, &err);
  ASSERT_CL(err);
  cl_program program = clCreateProgramWithSource(context, 1, &kSource, nullptr, &err);
  ASSERT_CL(err);
  ASSERT_CL(clBuildProgram(program, 0, nullptr, "", nullptr, nullptr));
  ASSERT_CL(clReleaseDevice(sub));
  for (size_t i = 1; i < subs.size(); ++i) ASSERT_CL(clReleaseDevice(subs[i]));
  subs.devices.clear();
  runAffine(context, program, queue, sub, 4);
  // The application's handle is gone.
  EXPECT_CL_ERROR(CL_INVALID_DEVICE, clReleaseDevice(sub));
  EXPECT_CL_ERROR(CL_INVALID_DEVICE, clRetainDevice(sub));
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
}

// --- errors ---

TEST(DevicePartition, Errors) {
  cl_device_id device = root();
  const cl_uint cus = computeUnits(device);
  const auto cu = cl_device_partition_property(cus);
  cl_uint count = 0;
  cl_device_id out[4] = {};
  auto create = [&](const Props &props) {
    return clCreateSubDevices(device, props.data(), 0, nullptr, &count);
  };
  const Props equally1 = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};

  // CL_INVALID_DEVICE
  EXPECT_CL_ERROR(CL_INVALID_DEVICE, clCreateSubDevices(nullptr, equally1.data(), 0, nullptr, &count));
  EXPECT_CL_ERROR(CL_INVALID_DEVICE, clRetainDevice(nullptr));
  EXPECT_CL_ERROR(CL_INVALID_DEVICE, clReleaseDevice(nullptr));
  EXPECT_CL_ERROR(CL_INVALID_DEVICE, clReleaseDeviceEXT(nullptr));

  // CL_INVALID_VALUE: no or bad properties, more than one scheme.
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clCreateSubDevices(device, nullptr, 0, nullptr, &count));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, create({0}));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, create({0x4999, 1, 0}));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, create({CL_DEVICE_PARTITION_EQUALLY, 0, 0}));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, create({CL_DEVICE_PARTITION_EQUALLY, -1, 0}));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  create({CL_DEVICE_PARTITION_EQUALLY, 1, CL_DEVICE_PARTITION_EQUALLY, 1, 0}));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  create({CL_DEVICE_PARTITION_BY_COUNTS, 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END,
                          CL_DEVICE_PARTITION_EQUALLY, 1, 0}));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, create({CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, 0, 0}));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  create({CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                          CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE | CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, 0}));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, create({CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, 1 << 12, 0}));
  for (cl_device_affinity_domain domain : kDomains)
    if (!(describedDomains() & domain))
      EXPECT_CL_ERROR(CL_INVALID_VALUE,
                      create({CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, cl_device_partition_property(domain), 0}));
  // Not offered: cl_ext_device_fission's partition by names.
  const cl_device_partition_property_ext byNames[] = {CL_DEVICE_PARTITION_BY_NAMES_EXT, 0,
                                                      CL_PARTITION_BY_NAMES_LIST_END_EXT,
                                                      CL_PROPERTIES_LIST_END_EXT};
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clCreateSubDevicesEXT(device, byNames, 0, nullptr, &count));

  // CL_INVALID_VALUE: out_devices too small, and nothing made.
  if (cus >= 2) {
    count = 77;
    EXPECT_CL_ERROR(CL_INVALID_VALUE, clCreateSubDevices(device, equally1.data(), 1, out, &count));
    EXPECT_EQ(out[0], nullptr);
    EXPECT_EQ(count, 77u);
  }

  // More compute units than the device has; all of them (the device again).
  EXPECT_CL_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT, create({CL_DEVICE_PARTITION_EQUALLY, cu + 1, 0}));
  EXPECT_CL_ERROR(CL_DEVICE_PARTITION_FAILED, create({CL_DEVICE_PARTITION_EQUALLY, cu, 0}));

  // CL_INVALID_DEVICE_PARTITION_COUNT
  const auto end = CL_DEVICE_PARTITION_BY_COUNTS_LIST_END;
  EXPECT_CL_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT, create({CL_DEVICE_PARTITION_BY_COUNTS, end, 0}));
  EXPECT_CL_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT, create({CL_DEVICE_PARTITION_BY_COUNTS, cu + 1, end, 0}));
  EXPECT_CL_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT, create({CL_DEVICE_PARTITION_BY_COUNTS, cu, 1, end, 0}));
  EXPECT_CL_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT, create({CL_DEVICE_PARTITION_BY_COUNTS, -1, end, 0}));
  EXPECT_CL_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT, create({CL_DEVICE_PARTITION_BY_COUNTS, 1, -2, end, 0}));
  Props tooMany = {CL_DEVICE_PARTITION_BY_COUNTS};
  tooMany.insert(tooMany.end(), cus + 1, 1);
  tooMany.insert(tooMany.end(), {end, 0});
  EXPECT_CL_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT, create(tooMany));

  // Neither out_devices nor num_devices_ret: a valid request still succeeds.
  EXPECT_CL(clCreateSubDevices(device, equally1.data(), 0, nullptr, nullptr));

  // A queue on a sub-device its context does not have.
  SubDevices subs;
  ASSERT_TRUE(partition(device, equally1, subs));
  cl_int err;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  ASSERT_CL(err);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, subs[0], nullptr, &err);
  EXPECT_EQ(queue, nullptr);
  EXPECT_EQ(err, CL_INVALID_DEVICE) << errorName(err);
  // A program of that context has no build for the sub-device.
  cl_program program = clCreateProgramWithSource(context, 1, &kSource, nullptr, &err);
  ASSERT_CL(err);
  EXPECT_CL_ERROR(CL_INVALID_DEVICE, clBuildProgram(program, 1, &subs.devices[0], "", nullptr, nullptr));
  ASSERT_CL(clBuildProgram(program, 0, nullptr, "", nullptr, nullptr));
  cl_kernel kernel = clCreateKernel(program, "affine", &err);
  ASSERT_CL(err);
  size_t size;
  EXPECT_CL_ERROR(CL_INVALID_DEVICE, clGetKernelWorkGroupInfo(kernel, subs[0], CL_KERNEL_WORK_GROUP_SIZE,
                                                              sizeof size, &size, nullptr));
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseContext(context);

  // A released sub-device is no device.
  cl_device_id gone = subs[1 % subs.size()];
  ASSERT_CL(clReleaseDevice(gone));
  subs.devices.erase(std::find(subs.devices.begin(), subs.devices.end(), gone));
  cl_uint units;
  EXPECT_CL_ERROR(CL_INVALID_DEVICE,
                  clGetDeviceInfo(gone, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_DEVICE, clCreateSubDevices(gone, equally1.data(), 0, nullptr, &count));
  EXPECT_CL_ERROR(CL_INVALID_DEVICE, clReleaseDevice(gone));
}

TEST(DevicePartition, FissionExtensionCreatesTheSameDevices) {
  CpuList usable = usableCpus();
  if (usable.size() < 2) GTEST_SKIP() << "one CPU: nothing to partition";
  const cl_device_partition_property_ext props[] = {CL_DEVICE_PARTITION_BY_COUNTS_EXT, 1, 1,
                                                    CL_PARTITION_BY_COUNTS_LIST_END_EXT,
                                                    CL_PROPERTIES_LIST_END_EXT};
  cl_uint count = 0;
  ASSERT_CL(clCreateSubDevicesEXT(root(), props, 0, nullptr, &count));
  ASSERT_EQ(count, 2u);
  SubDevices subs;
  subs.devices.resize(2);
  ASSERT_CL(clCreateSubDevicesEXT(root(), props, 2, subs.devices.data(), &count));
  for (size_t i = 0; i < 2; ++i)
    expectSubDevice(subs[i], root(),
                    {CL_DEVICE_PARTITION_BY_COUNTS, 1, 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0}, 1);
  expectRunsOnlyOn(subs[0], {usable[0]});
}

}  // namespace
}  // namespace lockstep::test

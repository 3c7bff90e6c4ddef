#include "Device.h"

#include <oneapi/tbb/global_control.h>
#include <sched.h>
#include <sys/sysinfo.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>

namespace {

// The value of the first "key : value" line of /proc/cpuinfo with this key.
std::string cpuinfoField(std::string_view key) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.compare(0, key.size(), key) != 0) continue;
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    size_t start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? std::string() : line.substr(start);
  }
  return {};
}

// A sysfs number such as "32K", "8M" or "64", in bytes (or as is).
cl_ulong readSysfsSize(const std::string &path) {
  std::ifstream file(path);
  cl_ulong value = 0;
  char unit = 0;
  if (!(file >> value)) return 0;
  if (file >> unit) {
    if (unit == 'K') value <<= 10;
    if (unit == 'M') value <<= 20;
    if (unit == 'G') value <<= 30;
  }
  return value;
}

std::string readSysfsWord(const std::string &path) {
  std::ifstream file(path);
  std::string word;
  file >> word;
  return word;
}

// The last-level data cache of cpu0: its size and line size.
void readCaches(cl_ulong &size, cl_uint &lineSize) {
  int bestLevel = 0;
  for (int index = 0; index < 8; ++index) {
    std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    std::string type = readSysfsWord(dir + "type");
    if (type.empty()) break;
    if (type == "Instruction") continue;
    int level = int(readSysfsSize(dir + "level"));
    if (level <= bestLevel) continue;
    bestLevel = level;
    size = readSysfsSize(dir + "size");
    if (cl_ulong line = readSysfsSize(dir + "coherency_line_size")) lineSize = cl_uint(line);
  }
}

cl_uint maxClockMHz() {
  cl_ulong khz = readSysfsSize("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  if (khz) return cl_uint(khz / 1000);
  // strtod, not stod: a malformed field must not throw out of the platform's
  // construction.
  std::string mhz = cpuinfoField("cpu MHz");
  return cl_uint(std::strtod(mhz.c_str(), nullptr));
}

// The widest vector registers the ISA offers for each element type, in
// elements: char short int long float double.
std::array<cl_uint, 6> vectorWidths() {
  __builtin_cpu_init();
  cl_uint intBytes = 16, floatBytes = 16;
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) {
    intBytes = floatBytes = 64;
  } else if (__builtin_cpu_supports("avx2")) {
    intBytes = floatBytes = 32;
  } else if (__builtin_cpu_supports("avx")) {
    floatBytes = 32;  // AVX1 widens floating point only
  }
  return {intBytes / 1, intBytes / 2, intBytes / 4, intBytes / 8, floatBytes / 4, floatBytes / 8};
}

}  // namespace

_cl_device_id::_cl_device_id(cl_platform_id platform) : platform_(platform) {
  name = cpuinfoField("model name");
  if (name.empty()) name = "CPU";
  // The CPU's maker, by its CPUID vendor string (and PCI vendor id).
  vendor = cpuinfoField("vendor_id");
  if (vendor == "GenuineIntel") {
    vendor = "Intel(R) Corporation";
    vendorId = 0x8086;
  } else if (vendor == "AuthenticAMD") {
    vendor = "Advanced Micro Devices, Inc.";
    vendorId = 0x1022;
  } else if (vendor.empty()) {
    vendor = "Unknown";
  }
  uuid = lockstep::runtime::uuid::rootDevice(cpuinfoField("vendor_id") + "\n" + name + "\n" +
                                             cpuinfoField("cpu family") + "\n" +
                                             cpuinfoField("model\t") + "\n" +
                                             cpuinfoField("stepping"));
  cpus_ = lockstep::runtime::topology::usableCpus();
  computeUnits = cl_uint(cpus_.size());
  affinityDomains_ = lockstep::runtime::topology::partitioningDomains(cpus_);
  maxClockMHz = ::maxClockMHz();
  struct sysinfo info {};
  if (sysinfo(&info) == 0) globalMemSize = cl_ulong(info.totalram) * info.mem_unit;
  constexpr cl_ulong kMinMaxAlloc = 128ull << 20;
  maxAllocSize = std::max(globalMemSize / 4, kMinMaxAlloc);
  readCaches(globalCacheSize, globalCacheLineSize);
  preferredVectorWidth = vectorWidths();
  nativeVectorWidth = preferredVectorWidth;

  // oneTBB starts one worker fewer than there are CPUs (it expects the
  // calling thread to work too). Commands are enqueued to the arena from
  // threads that then block, so allow a worker for every usable CPU.
  static tbb::global_control workers(tbb::global_control::max_allowed_parallelism,
                                     computeUnits + 1);
  static tbb::global_control stacks(tbb::global_control::thread_stack_size, kWorkerStackBytes);
  startArena();
}

_cl_device_id::_cl_device_id(_cl_device_id *parent, lockstep::runtime::topology::CpuList cpus,
                             std::vector<cl_device_partition_property> partitionType)
    : name(parent->name),
      vendor(parent->vendor),
      vendorId(parent->vendorId),
      computeUnits(cl_uint(cpus.size())),
      maxClockMHz(parent->maxClockMHz),
      globalMemSize(parent->globalMemSize),
      maxAllocSize(parent->maxAllocSize),
      globalCacheSize(parent->globalCacheSize),
      globalCacheLineSize(parent->globalCacheLineSize),
      preferredVectorWidth(parent->preferredVectorWidth),
      nativeVectorWidth(parent->nativeVectorWidth),
      platform_(parent->platform_),
      parent_(parent),
      cpus_(std::move(cpus)),
      partitionType_(std::move(partitionType)),
      affinityDomains_(lockstep::runtime::topology::partitioningDomains(cpus_)) {
  const _cl_device_id *root = parent;
  while (root->isSubDevice()) root = root->parent();
  uuid = lockstep::runtime::uuid::subDevice(root->uuid, cpus_);
  parent_->retainInternal();
  try {
    startArena();
  } catch (...) {
    parent_->releaseInternal();
    throw;
  }
}

// An arena of one thread per CPU of the device, its threads pinned to them.
// (The oneTBB worker pool, sized for the root device's CPUs, serves every
// arena: sub-devices used at once share it.)
void _cl_device_id::startArena() {
  arena_ = std::make_unique<tbb::task_arena>(int(computeUnits), 0);
  arena_->initialize();
  pinning_ = std::make_unique<lockstep::runtime::ThreadPinning>(*arena_, cpus_, isSubDevice());
}

_cl_device_id::~_cl_device_id() {
  pinning_.reset();
  arena_.reset();
  if (parent_) parent_->releaseInternal();
}

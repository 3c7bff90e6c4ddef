// Device partitioning: clCreateSubDevices and cl_ext_device_fission's
// clCreateSubDevicesEXT, clRetainDeviceEXT, clReleaseDeviceEXT and device
// queries. Here the partition properties are validated and turned into the
// CPU set of each sub-device (from the parent's CPUs, ascending; affinity
// domains from the OS topology, runtime/Topology.h); _cl_device_id makes
// the devices. The extension's calls are the core ones with its property
// values, error codes and query answers translated.
#include <CL/cl_ext.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "Device.h"
#include "Topology.h"
#include "api/device_info.h"
#include "api/entry_points.h"

using namespace lockstep::runtime;
using lockstep::runtime::topology::CpuList;

namespace lockstep::api {

namespace {

// What a partition request asks for: each sub-device's CPUs and the
// properties CL_DEVICE_PARTITION_TYPE reports for them.
struct Plan {
  std::vector<CpuList> cpus;
  std::vector<cl_device_partition_property> type;
};

// CL_DEVICE_PARTITION_EQUALLY n: as many devices of n CPUs as there are.
Plan equally(const _cl_device_id &device, cl_device_partition_property n) {
  // "CL_INVALID_VALUE if values specified in properties are not valid".
  check(n > 0 && n <= cl_device_partition_property(std::numeric_limits<cl_uint>::max()),
        CL_INVALID_VALUE);
  const CpuList &cpus = device.cpus();
  // More compute units than the device has: "CL_INVALID_DEVICE_PARTITION_COUNT
  // if ... the total number of compute units requested exceeds
  // CL_DEVICE_PARTITION_MAX_COMPUTE_UNITS". All of them would give the
  // device again: "CL_DEVICE_PARTITION_FAILED if the partition name is
  // supported by the implementation but in_device could not be further
  // partitioned" (the CTS reads both so).
  check(size_t(n) <= cpus.size(), CL_INVALID_DEVICE_PARTITION_COUNT);
  check(size_t(n) < cpus.size(), CL_DEVICE_PARTITION_FAILED);
  Plan plan;
  for (size_t first = 0; first + size_t(n) <= cpus.size(); first += size_t(n))
    plan.cpus.emplace_back(cpus.begin() + first, cpus.begin() + first + n);
  plan.type = {CL_DEVICE_PARTITION_EQUALLY, n, 0};
  return plan;
}

// CL_DEVICE_PARTITION_BY_COUNTS c1 c2 ... LIST_END: a device of each count.
// `counts` points at c1; `*end` receives the element after LIST_END.
Plan byCounts(const _cl_device_id &device, const cl_device_partition_property *counts,
              const cl_device_partition_property **end) {
  const CpuList &cpus = device.cpus();
  std::vector<cl_device_partition_property> list;
  size_t total = 0;
  const cl_device_partition_property *p = counts;
  for (; *p != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END; ++p) {
    // "the number of compute units requested for one or more sub-devices is
    // less than zero", "the number of sub-devices requested exceeds
    // CL_DEVICE_PARTITION_MAX_SUB_DEVICES", "the total number of compute
    // units requested exceeds CL_DEVICE_PARTITION_MAX_COMPUTE_UNITS" (read
    // no further than that: an unterminated list is not walked to its end).
    check(*p > 0, CL_INVALID_DEVICE_PARTITION_COUNT);
    check(list.size() < cpus.size(), CL_INVALID_DEVICE_PARTITION_COUNT);
    check(size_t(*p) <= cpus.size() - total, CL_INVALID_DEVICE_PARTITION_COUNT);
    total += size_t(*p);
    list.push_back(*p);
  }
  *end = p + 1;
  // No count at all: no sub-device is requested.
  check(!list.empty(), CL_INVALID_DEVICE_PARTITION_COUNT);
  Plan plan;
  size_t first = 0;
  for (cl_device_partition_property count : list) {
    plan.cpus.emplace_back(cpus.begin() + first, cpus.begin() + first + count);
    first += size_t(count);
  }
  plan.type.push_back(CL_DEVICE_PARTITION_BY_COUNTS);
  plan.type.insert(plan.type.end(), list.begin(), list.end());
  plan.type.push_back(CL_DEVICE_PARTITION_BY_COUNTS_LIST_END);
  plan.type.push_back(0);
  return plan;
}

// CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN: a device per group of CPUs that
// share the domain. A domain all of the device's CPUs share (or that
// leaves one group) does not partition it: CL_DEVICE_PARTITION_FAILED.
Plan byAffinityDomain(const _cl_device_id &device, cl_device_partition_property value) {
  auto domain = cl_device_affinity_domain(value);
  constexpr cl_device_affinity_domain kKnown =
      CL_DEVICE_AFFINITY_DOMAIN_NUMA | CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE | CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE |
      CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE | CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE |
      CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
  // Exactly one domain of the spec's.
  check(value > 0 && (domain & (domain - 1)) == 0 && (domain & kKnown), CL_INVALID_VALUE);
  std::vector<CpuList> groups;
  if (domain == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE) {
    for (cl_device_affinity_domain candidate : topology::kDomainOrder) {
      groups = topology::domainGroups(candidate, device.cpus());
      if (groups.size() > 1) {
        domain = candidate;  // CL_DEVICE_PARTITION_TYPE names the domain used
        break;
      }
    }
  } else {
    groups = topology::domainGroups(domain, device.cpus());
    // A domain the machine does not describe for these CPUs is not
    // supported; one that leaves them in one group is, but does not
    // partition the device (neither is reported in
    // CL_DEVICE_PARTITION_AFFINITY_DOMAIN).
    check(!groups.empty(), CL_INVALID_VALUE);
  }
  check(groups.size() > 1, CL_DEVICE_PARTITION_FAILED);
  Plan plan;
  plan.cpus = std::move(groups);
  plan.type = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, cl_device_partition_property(domain), 0};
  return plan;
}

// The plan `properties` describe: exactly one partition scheme and its
// value(s), then the terminating 0.
Plan planFor(const _cl_device_id &device, const cl_device_partition_property *properties) {
  check(properties != nullptr, CL_INVALID_VALUE);
  Plan plan;
  const cl_device_partition_property *end = nullptr;
  switch (properties[0]) {
    case CL_DEVICE_PARTITION_EQUALLY:
      plan = equally(device, properties[1]);
      end = properties + 2;
      break;
    case CL_DEVICE_PARTITION_BY_COUNTS:
      plan = byCounts(device, properties + 1, &end);
      break;
    case CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN:
      plan = byAffinityDomain(device, properties[1]);
      end = properties + 2;
      break;
    default:
      // No scheme (an empty list), or one not offered.
      fail(CL_INVALID_VALUE);
  }
  // "Only one of the listed partitioning schemes can be specified."
  check(*end == 0, CL_INVALID_VALUE);
  return plan;
}

}  // namespace

cl_int CL_API_CALL clCreateSubDevices(cl_device_id in_device,
                                      const cl_device_partition_property *properties,
                                      cl_uint num_devices, cl_device_id *out_devices,
                                      cl_uint *num_devices_ret) {
  return guarded([&] {
    checked(in_device);
    Plan plan = planFor(*in_device, properties);
    check(out_devices == nullptr || num_devices >= plan.cpus.size(), CL_INVALID_VALUE);
    if (out_devices) {
      // All or none: a failure part-way releases those already made.
      std::vector<Ref<_cl_device_id>> made;
      made.reserve(plan.cpus.size());
      for (CpuList &cpus : plan.cpus)
        made.push_back(Ref<_cl_device_id>::adopt(new _cl_device_id(in_device, std::move(cpus), plan.type)));
      for (size_t i = 0; i < made.size(); ++i) out_devices[i] = made[i].detach();
    }
    if (num_devices_ret) *num_devices_ret = cl_uint(plan.cpus.size());
  });
}

namespace {

// cl_ext_device_fission's properties, in the core scheme's terms. Its
// partition by names (CPU numbers) is not offered: CL_INVALID_VALUE.
std::vector<cl_device_partition_property> coreProperties(
    const cl_device_partition_property_ext *properties) {
  check(properties != nullptr, CL_INVALID_VALUE);
  std::vector<cl_device_partition_property> core;
  switch (properties[0]) {
    case CL_DEVICE_PARTITION_EQUALLY_EXT:
      check(properties[1] <= std::numeric_limits<cl_uint>::max(), CL_INVALID_VALUE);
      core = {CL_DEVICE_PARTITION_EQUALLY, cl_device_partition_property(properties[1])};
      properties += 2;
      break;
    case CL_DEVICE_PARTITION_BY_COUNTS_EXT: {
      core = {CL_DEVICE_PARTITION_BY_COUNTS};
      const cl_device_partition_property_ext *p = properties + 1;
      // The counts are unsigned here: one past the largest core count is
      // refused as the core call would refuse it (and the walk stops there).
      size_t limit = size_t(std::numeric_limits<cl_uint>::max());
      for (; *p != CL_PARTITION_BY_COUNTS_LIST_END_EXT; ++p) {
        check(*p <= limit && core.size() <= limit, CL_INVALID_DEVICE_PARTITION_COUNT);
        core.push_back(cl_device_partition_property(*p));
      }
      core.push_back(CL_DEVICE_PARTITION_BY_COUNTS_LIST_END);
      properties = p + 1;
      break;
    }
    case CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN_EXT: {
      cl_device_affinity_domain domain = 0;
      switch (properties[1]) {
        case CL_AFFINITY_DOMAIN_L1_CACHE_EXT: domain = CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE; break;
        case CL_AFFINITY_DOMAIN_L2_CACHE_EXT: domain = CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE; break;
        case CL_AFFINITY_DOMAIN_L3_CACHE_EXT: domain = CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE; break;
        case CL_AFFINITY_DOMAIN_L4_CACHE_EXT: domain = CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE; break;
        case CL_AFFINITY_DOMAIN_NUMA_EXT: domain = CL_DEVICE_AFFINITY_DOMAIN_NUMA; break;
        case CL_AFFINITY_DOMAIN_NEXT_FISSIONABLE_EXT:
          domain = CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
          break;
        default: fail(CL_INVALID_VALUE);
      }
      core = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, cl_device_partition_property(domain)};
      properties += 2;
      break;
    }
    default:
      fail(CL_INVALID_VALUE);  // CL_DEVICE_PARTITION_BY_NAMES_EXT, or none
  }
  check(*properties == CL_PROPERTIES_LIST_END_EXT, CL_INVALID_VALUE);
  core.push_back(0);
  return core;
}

}  // namespace

cl_int CL_API_CALL clCreateSubDevicesEXT(cl_device_id in_device,
                                         const cl_device_partition_property_ext *properties,
                                         cl_uint num_entries, cl_device_id *out_devices,
                                         cl_uint *num_devices) {
  std::vector<cl_device_partition_property> core;
  cl_int error = guarded([&] {
    checked(in_device);
    core = coreProperties(properties);
  });
  if (error == CL_SUCCESS)
    error = api::clCreateSubDevices(in_device, core.data(), num_entries, out_devices, num_devices);
  // The extension's names of the two partition errors: "CL_DEVICE_PARTITION_FAILED_EXT
  // if the partition name is supported by the implementation but the input
  // device couldn't be further partitioned", "CL_INVALID_PARTITION_COUNT_EXT
  // if ... the number of sub-devices requested exceeds ... or the total
  // number of compute units requested exceeds ...".
  if (error == CL_DEVICE_PARTITION_FAILED) return CL_DEVICE_PARTITION_FAILED_EXT;
  if (error == CL_INVALID_DEVICE_PARTITION_COUNT) return CL_INVALID_PARTITION_COUNT_EXT;
  return error;
}

// cl_ext_device_fission's retain and release: as clRetainDevice and
// clReleaseDevice (counted for sub-devices, nothing for the root device).
cl_int CL_API_CALL clRetainDeviceEXT(cl_device_id device) { return api::clRetainDevice(device); }
cl_int CL_API_CALL clReleaseDeviceEXT(cl_device_id device) { return api::clReleaseDevice(device); }

namespace {

// A core affinity domain (one bit of cl_device_affinity_domain) as the
// extension's value.
cl_device_partition_property_ext extDomain(cl_device_affinity_domain domain) {
  switch (domain) {
    case CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE: return CL_AFFINITY_DOMAIN_L1_CACHE_EXT;
    case CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE: return CL_AFFINITY_DOMAIN_L2_CACHE_EXT;
    case CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE: return CL_AFFINITY_DOMAIN_L3_CACHE_EXT;
    case CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE: return CL_AFFINITY_DOMAIN_L4_CACHE_EXT;
    case CL_DEVICE_AFFINITY_DOMAIN_NUMA: return CL_AFFINITY_DOMAIN_NUMA_EXT;
    default: return CL_AFFINITY_DOMAIN_NEXT_FISSIONABLE_EXT;
  }
}

// A sub-device's core partition properties (CL_DEVICE_PARTITION_TYPE) in
// the extension's terms; a root device's is the empty list.
std::vector<cl_device_partition_property_ext> extPartitionStyle(const _cl_device_id &device) {
  const std::vector<cl_device_partition_property> &core = device.partitionType();
  std::vector<cl_device_partition_property_ext> style;
  if (!core.empty()) {
    switch (core[0]) {
      case CL_DEVICE_PARTITION_EQUALLY:
        style = {CL_DEVICE_PARTITION_EQUALLY_EXT, cl_device_partition_property_ext(core[1])};
        break;
      case CL_DEVICE_PARTITION_BY_COUNTS:
        style = {CL_DEVICE_PARTITION_BY_COUNTS_EXT};
        for (size_t i = 1; core[i] != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END; ++i)
          style.push_back(cl_device_partition_property_ext(core[i]));
        style.push_back(CL_PARTITION_BY_COUNTS_LIST_END_EXT);
        break;
      case CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN:
        style = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN_EXT,
                 extDomain(cl_device_affinity_domain(core[1]))};
        break;
    }
  }
  style.push_back(CL_PROPERTIES_LIST_END_EXT);
  return style;
}

}  // namespace

bool fissionInfo(cl_device_id d, cl_device_info param, const InfoWriter &out) {
  using List = std::vector<cl_device_partition_property_ext>;
  switch (param) {
    case CL_DEVICE_PARENT_DEVICE_EXT:
      out.value<cl_device_id>(d->parent());
      return true;
    case CL_DEVICE_PARTITION_TYPES_EXT: {
      // As CL_DEVICE_PARTITION_PROPERTIES: by names is not offered.
      List types = {CL_DEVICE_PARTITION_EQUALLY_EXT, CL_DEVICE_PARTITION_BY_COUNTS_EXT};
      if (d->affinityDomains()) types.push_back(CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN_EXT);
      types.push_back(CL_PROPERTIES_LIST_END_EXT);
      out.array<cl_device_partition_property_ext>(types);
      return true;
    }
    case CL_DEVICE_AFFINITY_DOMAINS_EXT: {
      // Each domain of CL_DEVICE_PARTITION_AFFINITY_DOMAIN, in the order
      // the extension numbers them (next fissionable last).
      List domains;
      for (cl_device_affinity_domain domain :
           {CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
            CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE,
            CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE})
        if (d->affinityDomains() & domain) domains.push_back(extDomain(domain));
      domains.push_back(CL_PROPERTIES_LIST_END_EXT);
      out.array<cl_device_partition_property_ext>(domains);
      return true;
    }
    case CL_DEVICE_REFERENCE_COUNT_EXT:
      out.value<cl_uint>(d->applicationReferences());
      return true;
    case CL_DEVICE_PARTITION_STYLE_EXT:
      out.array<cl_device_partition_property_ext>(extPartitionStyle(*d));
      return true;
  }
  return false;
}

}  // namespace lockstep::api

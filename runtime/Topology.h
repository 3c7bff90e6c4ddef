// The CPU topology that device partitioning reads: which CPUs this process
// may run on (sched_getaffinity), and which of them share a NUMA node or a
// cache level (Linux sysfs: /sys/devices/system/node/node*/cpulist and
// /sys/devices/system/cpu/cpu*/cache/index*/shared_cpu_list). Read when
// asked, so a partition sees the machine as it is.
#pragma once

#include <CL/cl.h>

#include <string_view>
#include <vector>

namespace lockstep::runtime::topology {

// CPU numbers, ascending, without repeats.
using CpuList = std::vector<int>;

// The CPUs this process may run on; {0} if the kernel does not say.
CpuList usableCpus();

// A sysfs CPU list such as "0-3,8,10-11". Malformed parts are skipped.
CpuList parseCpuList(std::string_view text);

// The groups of `cpus` that share `domain` (one of CL_DEVICE_AFFINITY_DOMAIN_
// NUMA, L4_CACHE, L3_CACHE, L2_CACHE, L1_CACHE), ordered by their first CPU.
// A CPU the machine describes no such domain for forms a group of its own.
// Empty if the machine describes that domain for none of `cpus`.
std::vector<CpuList> domainGroups(cl_device_affinity_domain domain, const CpuList &cpus);

// The domains that partition `cpus`, the bits of
// CL_DEVICE_PARTITION_AFFINITY_DOMAIN (NEXT_PARTITIONABLE included when
// there is one): those the machine describes for them and that make two
// groups or more. A domain that leaves them in one group is described but
// not reported: an application (the CTS's buffer_migrate) may expect every
// reported domain to partition the device.
cl_device_affinity_domain partitioningDomains(const CpuList &cpus);

// The domains NEXT_PARTITIONABLE tries, outermost first.
inline constexpr cl_device_affinity_domain kDomainOrder[] = {
    CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE};

}  // namespace lockstep::runtime::topology

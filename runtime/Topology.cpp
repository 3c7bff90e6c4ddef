// Reading the CPU topology from the kernel (Topology.h).
#include "Topology.h"

#include <dirent.h>
#include <sched.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <string>

namespace lockstep::runtime::topology {

namespace {

std::string readLine(const std::string &path) {
  std::ifstream file(path);
  std::string line;
  std::getline(file, line);
  return line;
}

// The cache level a CPU's cache `index` directory describes: 0 if absent or
// an instruction cache (the domains are about the data the CPUs share).
int cacheLevel(const std::string &dir) {
  std::string type = readLine(dir + "type");
  if (type.empty() || type == "Instruction") return 0;
  std::string level = readLine(dir + "level");
  int value = 0;
  std::from_chars(level.data(), level.data() + level.size(), value);
  return value;
}

// The CPUs that share `cpu`'s data cache of `level`; empty if it has none.
CpuList cacheSharers(int cpu, int level) {
  std::string base = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/cache/index";
  for (int index = 0; index < 16; ++index) {
    std::string dir = base + std::to_string(index) + "/";
    std::string type = readLine(dir + "type");
    if (type.empty()) break;
    if (cacheLevel(dir) == level) return parseCpuList(readLine(dir + "shared_cpu_list"));
  }
  return {};
}

// The CPU lists of the NUMA nodes, by node number.
std::vector<CpuList> numaNodes() {
  std::vector<CpuList> nodes;
  DIR *dir = opendir("/sys/devices/system/node");
  if (!dir) return nodes;
  std::map<int, CpuList> byNumber;
  while (dirent *entry = readdir(dir)) {
    std::string_view name = entry->d_name;
    if (name.size() <= 4 || name.substr(0, 4) != "node") continue;
    int number = 0;
    auto [end, error] = std::from_chars(name.data() + 4, name.data() + name.size(), number);
    if (error != std::errc() || end != name.data() + name.size()) continue;
    byNumber[number] =
        parseCpuList(readLine("/sys/devices/system/node/" + std::string(name) + "/cpulist"));
  }
  closedir(dir);
  for (auto &[number, cpus] : byNumber) nodes.push_back(std::move(cpus));
  return nodes;
}

int cacheLevelOf(cl_device_affinity_domain domain) {
  switch (domain) {
    case CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE: return 1;
    case CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE: return 2;
    case CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE: return 3;
    case CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE: return 4;
  }
  return 0;
}

CpuList intersect(const CpuList &a, const CpuList &b) {
  CpuList both;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
  return both;
}

}  // namespace

CpuList usableCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  CpuList cpus;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  if (cpus.empty()) cpus.push_back(0);
  return cpus;
}

CpuList parseCpuList(std::string_view text) {
  CpuList cpus;
  while (!text.empty()) {
    size_t comma = std::min(text.find(','), text.size());
    std::string_view part = text.substr(0, comma);
    text.remove_prefix(std::min(comma + 1, text.size()));
    int first = 0, last = 0;
    auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), first);
    if (error != std::errc()) continue;
    last = first;
    if (end != part.data() + part.size() && *end == '-') {
      auto [end2, error2] = std::from_chars(end + 1, part.data() + part.size(), last);
      if (error2 != std::errc()) continue;
    }
    if (first < 0 || last < first || last >= CPU_SETSIZE) continue;
    for (int cpu = first; cpu <= last; ++cpu) cpus.push_back(cpu);
  }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

std::vector<CpuList> domainGroups(cl_device_affinity_domain domain, const CpuList &cpus) {
  std::vector<CpuList> groups;
  bool described = false;
  if (domain == CL_DEVICE_AFFINITY_DOMAIN_NUMA) {
    for (const CpuList &node : numaNodes()) {
      CpuList mine = intersect(node, cpus);
      if (!mine.empty()) groups.push_back(std::move(mine));
    }
    described = !groups.empty();
  } else if (int level = cacheLevelOf(domain)) {
    for (int cpu : cpus) {
      CpuList sharers = intersect(cacheSharers(cpu, level), cpus);
      described |= !sharers.empty();
      if (sharers.empty()) sharers = {cpu};
      if (std::find(groups.begin(), groups.end(), sharers) == groups.end())
        groups.push_back(std::move(sharers));
    }
  }
  if (!described) return {};
  // CPUs no group holds (on no node) each form one of their own.
  for (int cpu : cpus) {
    bool held = std::any_of(groups.begin(), groups.end(), [&](const CpuList &g) {
      return std::binary_search(g.begin(), g.end(), cpu);
    });
    if (!held) groups.push_back({cpu});
  }
  // A CPU in two groups (sysfs that contradicts itself) would be in two
  // sub-devices: each stays only in the first group that has it.
  CpuList taken;
  std::vector<CpuList> disjoint;
  std::sort(groups.begin(), groups.end());
  for (CpuList &group : groups) {
    CpuList fresh;
    std::set_difference(group.begin(), group.end(), taken.begin(), taken.end(),
                        std::back_inserter(fresh));
    if (fresh.empty()) continue;
    taken.insert(taken.end(), fresh.begin(), fresh.end());
    std::sort(taken.begin(), taken.end());
    disjoint.push_back(std::move(fresh));
  }
  return disjoint;
}

cl_device_affinity_domain partitioningDomains(const CpuList &cpus) {
  cl_device_affinity_domain domains = 0;
  for (cl_device_affinity_domain domain : kDomainOrder)
    if (domainGroups(domain, cpus).size() > 1) domains |= domain;
  if (domains) domains |= CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
  return domains;
}

}  // namespace lockstep::runtime::topology

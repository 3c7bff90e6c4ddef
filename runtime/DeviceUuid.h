// cl_khr_device_uuid's identifiers. A device's UUID names the hardware: the
// same on every run, in every process and with every Lockstep version on
// one machine (its CPU model and the OS's machine id), and distinct for a
// sub-device on other CPUs. The driver's UUID names the Lockstep build.
// Both are name-based (RFC 9562 version 8: a hash of those names).
#pragma once

#include <CL/cl_ext.h>

#include <array>
#include <string_view>

#include "Topology.h"

namespace lockstep::runtime::uuid {

using Uuid = std::array<cl_uchar, CL_UUID_SIZE_KHR>;

// The root device: from `cpuIdentity` (what identifies the CPU model: its
// vendor, name, family, model and stepping) and the machine's id
// (/etc/machine-id, where there is one). Not from the CPUs this process may
// use, which another process may see otherwise.
Uuid rootDevice(std::string_view cpuIdentity);

// A sub-device on `cpus` of the root device `root` names: the same CPUs
// give the same UUID, however the device was partitioned to reach them.
Uuid subDevice(const Uuid &root, const topology::CpuList &cpus);

// The driver: Lockstep's version.
Uuid driver();

}  // namespace lockstep::runtime::uuid

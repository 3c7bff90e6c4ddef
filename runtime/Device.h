// The CPU device: what it reports (fixed when the platform is created, read
// from the machine) and the oneTBB arena every command of the device runs in.
// A sub-device (clCreateSubDevices) is a device of its own on some of its
// parent's CPUs: it reports what its parent does except for its compute
// units and partition queries, and its arena's threads run on its CPUs only.
#pragma once

#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "DeviceUuid.h"
#include "Object.h"
#include "Topology.h"
#include "exec/ThreadPinning.h"
#include "lockstep/compiler/GroupAbi.h"

struct _cl_device_id
    : lockstep::runtime::Object<_cl_device_id, lockstep::runtime::Tag::Device, CL_INVALID_DEVICE> {
  // The root device: every CPU this process may use.
  explicit _cl_device_id(cl_platform_id platform);
  // A sub-device of `parent` on `cpus` (some of the parent's), made with the
  // partition properties `partitionType` (terminated by 0). Keeps its parent.
  _cl_device_id(_cl_device_id *parent, lockstep::runtime::topology::CpuList cpus,
                std::vector<cl_device_partition_property> partitionType);
  ~_cl_device_id();

  cl_platform_id platform() const { return platform_; }

  // Partitioning. The root device has no parent and an empty partition type.
  bool isSubDevice() const { return parent_ != nullptr; }
  _cl_device_id *parent() const { return parent_; }
  const lockstep::runtime::topology::CpuList &cpus() const { return cpus_; }
  const std::vector<cl_device_partition_property> &partitionType() const { return partitionType_; }
  // The affinity domains that partition this device's CPUs
  // (CL_DEVICE_PARTITION_AFFINITY_DOMAIN; topology::partitioningDomains).
  cl_device_affinity_domain affinityDomains() const { return affinityDomains_; }
  // The application's clRetainDevice / clReleaseDevice: counted for
  // sub-devices; the root device is never destroyed and ignores them.
  void retainByApplication() {
    if (isSubDevice()) retain();
  }
  void releaseByApplication() {
    if (isSubDevice()) release();
  }
  // CL_DEVICE_REFERENCE_COUNT: 1 for the root device.
  cl_uint applicationReferences() const { return isSubDevice() ? referenceCount() : 1; }

  // Every command of the device runs as a task of this arena (all cores this
  // process may use). Kernels run their work-groups as TBB tasks spawned
  // from inside such a task (runWorkGroups), so they use the same arena.
  tbb::task_arena &arena() { return *arena_; }

  // Facts about the machine, read once.
  std::string name;          // CPU model from /proc/cpuinfo
  std::string vendor;        // CPU vendor from /proc/cpuinfo
  cl_uint vendorId = 0;      // PCI vendor id of the CPU maker, 0 if unknown
  lockstep::runtime::uuid::Uuid uuid{};  // CL_DEVICE_UUID_KHR (DeviceUuid.h)
  cl_uint computeUnits = 1;  // CPUs usable by this process (sched_getaffinity)
  cl_uint maxClockMHz = 0;
  cl_ulong globalMemSize = 0;
  cl_ulong maxAllocSize = 0;
  cl_ulong globalCacheSize = 0;
  cl_uint globalCacheLineSize = 64;
  // How much a launch must store before straight-line kernels store with
  // non-temporal stores (GroupInfo::streamingStoreMiB): half the last-level
  // cache, but no more than 2 MiB per CPU this process may run on, and at
  // least 16 MiB. Such a kernel also reads (vector_add reads twice what it
  // stores), and on the 32 MiB L3 of a Zen 4 EPYC vector_add with 8 MiB
  // arrays already ran 1.5x faster with them. The cap is for a VM or a
  // container: it sees the whole socket's cache (480 MiB on a 2-vCPU Xeon)
  // and shares it with CPUs it does not have; there, vector_add of 128 MiB
  // arrays ran 1.3x faster with non-temporal stores.
  uint32_t streamingStoreMiB() const {
    cl_ulong usable = std::min<cl_ulong>(globalCacheSize >> 21, cl_ulong{computeUnits} * 2);
    return static_cast<uint32_t>(std::max<cl_ulong>(16, usable));
  }
  std::array<cl_uint, 6> preferredVectorWidth{};  // char short int long float double
  std::array<cl_uint, 6> nativeVectorWidth{};

  // Fixed limits of the implementation.
  static constexpr size_t kMaxWorkGroupSize = lockstep::compiler::kMaxWorkGroupSize;
  static constexpr cl_uint kMaxWorkItemDimensions = 3;
  static constexpr cl_ulong kLocalMemSize = 64 * 1024;
  // The stack of the arena's worker threads (address space; pages are
  // touched only as used): it holds a work-group function's frame, whose
  // private arrays that no barrier crosses are allocas. A launch whose frame
  // does not fit with kStackMarginBytes to spare fails with
  // CL_OUT_OF_RESOURCES (it crashed the process on a worker's 4 MiB stack).
  static constexpr size_t kWorkerStackBytes = size_t(64) << 20;
  static constexpr size_t kStackMarginBytes = size_t(1) << 20;
  static constexpr cl_uint kMemBaseAddrAlignBits = 1024;  // 128 bytes
  static constexpr size_t kMemBaseAddrAlignBytes = kMemBaseAddrAlignBits / 8;
  static constexpr size_t kPrintfBufferSize = 1024 * 1024;
  static constexpr cl_ulong kMaxConstantBufferSize = 64 * 1024 * 1024;
  static constexpr cl_uint kMaxConstantArgs = 64;
  // Pipes (api/pipe.cpp): a packet is copied under the pipe's lock by the
  // unreserved read_pipe/write_pipe, so it is kept to 1 MiB; reservations
  // are limited only by the pipe's packets, so any number the CTS asks for
  // up to 64 Ki is met; pipe arguments are pointers like any other.
  static constexpr cl_uint kPipeMaxPacketSize = 1u << 20;
  static constexpr cl_uint kPipeMaxActiveReservations = 1u << 16;
  static constexpr cl_uint kMaxPipeArgs = 16;
  static constexpr size_t kMaxParameterSize = 4096;
  static constexpr size_t kMaxGlobalVariableSize = 64 * 1024 * 1024;

  // Images: the full profile's limits (an image's size is bounded by memory
  // anyway: CL_INVALID_IMAGE_SIZE past maxAllocSize).
  static constexpr size_t kImage2DMaxSize = 16384;  // width and height
  static constexpr size_t kImage3DMaxSize = 2048;   // width, height and depth
  static constexpr size_t kImageMaxArraySize = 2048;
  static constexpr cl_uint kMaxReadImageArgs = 128;
  static constexpr cl_uint kMaxWriteImageArgs = 64;
  static constexpr cl_uint kMaxReadWriteImageArgs = 64;
  static constexpr cl_uint kMaxSamplers = 16;
  // In texels: a 2D image from a buffer may have any row pitch that is a
  // whole number of texels, and start at any texel-aligned address (what the
  // image built-ins need: each channel naturally aligned).
  static constexpr cl_uint kImagePitchAlignment = 1;
  static constexpr cl_uint kImageBaseAddressAlignment = 1;
  // CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, in texels: a 1D buffer image of the
  // largest texels (16 bytes) fits in the largest buffer.
  size_t imageMaxBufferSize() const { return size_t(maxAllocSize / 16); }

  // Root devices are never destroyed by the application: retain/release on
  // them succeed and change nothing.

 private:
  void startArena();

  cl_platform_id platform_;
  _cl_device_id *parent_ = nullptr;  // an internal reference, if a sub-device
  lockstep::runtime::topology::CpuList cpus_;
  std::vector<cl_device_partition_property> partitionType_;
  cl_device_affinity_domain affinityDomains_ = 0;
  std::unique_ptr<tbb::task_arena> arena_;
  // Declared after the arena: stops observing before the arena goes.
  std::unique_ptr<lockstep::runtime::ThreadPinning> pinning_;
};

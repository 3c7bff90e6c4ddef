// Device-side enqueue (OpenCL C 2.0 enqueue_kernel, docs/device_enqueue.md):
// what a running kernel's calls of enqueue_kernel, enqueue_marker and the
// clk_event_t built-ins do, and how a kernel's launch waits for what it
// enqueued.
//
// Every launch runs with a LaunchScope (on its command's stack), which each
// thread running its groups makes current: a child kernel a work-item
// enqueues becomes a command of a device queue, an ordinary event of the
// command graph (exec/Scheduler.h) that waits for its wait list and, by its
// flags, for nothing (CLK_ENQUEUE_FLAGS_NO_WAIT), the enqueuing work-group
// (WAIT_WORK_GROUP: released when the group returns) or the whole launch
// (WAIT_KERNEL: released when its last group returns). No thread ever waits
// for a child: a child runs as a task of the device's arena once its
// dependencies are done. The host launch's event completes only when every
// descendant has: the launch and all the commands enqueued under it, at any
// depth, count in one Tree, and the host launch's command holds its
// completion (Scheduler::holdCompletion) until the count reaches zero.
#pragma once

#include <CL/cl.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

struct _cl_device_id;
struct _cl_event;
struct _cl_kernel;

namespace lockstep::runtime {

// What the device reports and enforces for device queues.
inline constexpr cl_uint kDeviceQueuePreferredSize = 256 * 1024;
inline constexpr cl_uint kDeviceQueueMaxSize = 8 * 1024 * 1024;
// A command (kernel or marker) takes this much of its queue's CL_QUEUE_SIZE
// until it completes; beyond, enqueue_kernel is CLK_DEVICE_QUEUE_FULL.
inline constexpr cl_uint kDeviceCommandBytes = 128;
// Device queues per device and context (CL_DEVICE_MAX_ON_DEVICE_QUEUES).
inline constexpr cl_uint kMaxDeviceQueues = 4096;
// Events kernels may hold at once per device queue (enqueue_kernel's and
// enqueue_marker's returned events, create_user_event's, counted on the
// default device queue), CL_DEVICE_MAX_ON_DEVICE_EVENTS.
inline constexpr cl_uint kMaxDeviceEvents = 65536;

// The launch and every command enqueued under it: the host launch's
// completion waits for the count to reach zero.
class DeviceEnqueueTree {
 public:
  void add() { outstanding_.fetch_add(1, std::memory_order_relaxed); }
  // One of them is done; the last lets the host launch's event complete
  // and deletes the tree.
  void done();
  // The host launch's event, held by its command (set once its groups ran).
  _cl_event *held = nullptr;

 private:
  std::atomic<int64_t> outstanding_{1};  // the host launch itself
};

// One running launch's device-enqueue state.
class LaunchScope {
 public:
  // `tree`: the tree of the launch that enqueued this one, or null for a
  // host launch (its tree is made at its first enqueue).
  LaunchScope(_cl_kernel *kernel, _cl_device_id *device, DeviceEnqueueTree *tree)
      : kernel_(kernel), device_(device), tree_(tree) {}
  LaunchScope(const LaunchScope &) = delete;
  LaunchScope &operator=(const LaunchScope &) = delete;

  // Called by the command once every group ran (on the thread running the
  // command): starts the WAIT_KERNEL children and, for a host launch that
  // enqueued, holds its event until the tree is done.
  void launchEnded();

  _cl_kernel *kernel() const { return kernel_; }
  _cl_device_id *device() const { return device_; }
  // The tree children count in (made for a host launch at the first call).
  DeviceEnqueueTree *tree();
  // A WAIT_KERNEL child: its enqueuer's guard is released at launchEnded.
  void holdUntilEnd(_cl_event *child);

 private:
  _cl_kernel *kernel_;
  _cl_device_id *device_;
  std::atomic<DeviceEnqueueTree *> tree_;
  bool ownsTree_ = false;
  std::mutex mutex_;
  std::vector<_cl_event *> afterLaunch_;
};

// Makes `scope` this thread's current launch while it runs the launch's
// groups (WorkGroupLauncher); null does nothing.
class ScopeEntry {
 public:
  explicit ScopeEntry(LaunchScope *scope);
  ~ScopeEntry();
  ScopeEntry(const ScopeEntry &) = delete;
  ScopeEntry &operator=(const ScopeEntry &) = delete;

 private:
  LaunchScope *outer_;
};

// A work-group returned on this thread: starts its WAIT_WORK_GROUP children.
void groupEnded();

// Gives the compiler the functions kernels call (compiler::DeviceEnqueueHooks).
void installDeviceEnqueueHooks();

}  // namespace lockstep::runtime

// A context: its devices, the properties it was created with, the error
// notification, the destructor callbacks and its shared virtual memory
// allocations (Svm.h).
#pragma once

#include <mutex>
#include <vector>

#include "Object.h"
#include "Svm.h"

struct _cl_context
    : lockstep::runtime::Object<_cl_context, lockstep::runtime::Tag::Context, CL_INVALID_CONTEXT> {
  using NotifyFn = void(CL_CALLBACK *)(const char *, const void *, size_t, void *);
  using DestructorFn = void(CL_CALLBACK *)(cl_context, void *);

  _cl_context(std::vector<cl_device_id> devices, std::vector<cl_context_properties> properties,
              NotifyFn notify, void *notifyUserData);
  ~_cl_context();

  const std::vector<cl_device_id> &devices() const { return devices_; }
  bool hasDevice(cl_device_id device) const;
  // As given to clCreateContext (with its terminating 0), or empty.
  const std::vector<cl_context_properties> &properties() const { return properties_; }

  // Reports an error that happened asynchronously (pfn_notify), if given.
  void notify(const char *message) const;
  void addDestructorCallback(DestructorFn fn, void *userData);

  // clSVMAlloc's allocations; those the application did not free go with
  // the context.
  lockstep::runtime::SvmRegistry &svm() { return svm_; }
  const lockstep::runtime::SvmRegistry &svm() const { return svm_; }

  // The context's live command-queues, for clMemBlockingFreeINTEL, which
  // waits for the commands that may use an allocation: a queue registers
  // itself when created and leaves first thing when destroyed (it has no
  // pending command then, and finishQueues skips it).
  void addQueue(cl_command_queue queue);
  void removeQueue(cl_command_queue queue);
  // Waits for every command enqueued so far on every queue of the context.
  void finishQueues();

  // Device-side enqueue (exec/DeviceEnqueue.h): the default device queue of
  // a device (get_default_queue; none: null), and the device queues made
  // per device (CL_DEVICE_MAX_ON_DEVICE_QUEUES). The context holds no
  // reference: a device queue leaves when it is destroyed.
  cl_command_queue defaultDeviceQueue(cl_device_id device = nullptr);
  void setDefaultDeviceQueue(cl_device_id device, cl_command_queue queue);
  // False (nothing counted) if the device has as many device queues as it may.
  bool addDeviceQueue(cl_device_id device, cl_uint limit);
  void deviceQueueGone(cl_device_id device, cl_command_queue queue);

 private:
  std::vector<cl_device_id> devices_;
  std::vector<cl_context_properties> properties_;
  NotifyFn notify_;
  void *notifyUserData_;
  std::mutex mutex_;
  std::vector<std::pair<DestructorFn, void *>> destructorCallbacks_;
  lockstep::runtime::SvmRegistry svm_;
  std::mutex queuesMutex_;
  std::vector<cl_command_queue> queues_;
  struct DeviceQueues {
    cl_device_id device;
    cl_command_queue defaultQueue;
    cl_uint count;
  };
  std::mutex deviceQueuesMutex_;
  std::vector<DeviceQueues> deviceQueues_;
};

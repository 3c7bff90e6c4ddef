#include "Context.h"

#include "Queue.h"

#include <algorithm>

#include "Device.h"

_cl_context::_cl_context(std::vector<cl_device_id> devices,
                         std::vector<cl_context_properties> properties, NotifyFn notify,
                         void *notifyUserData)
    : devices_(std::move(devices)),
      properties_(std::move(properties)),
      notify_(notify),
      notifyUserData_(notifyUserData) {
  // The context keeps its devices: sub-devices the application released
  // live on while a context (and so its programs) uses them.
  for (cl_device_id device : devices_) device->retainInternal();
}

_cl_context::~_cl_context() {
  // "called in the reverse order they were registered", just before the
  // context is destroyed.
  for (auto it = destructorCallbacks_.rbegin(); it != destructorCallbacks_.rend(); ++it)
    it->first(this, it->second);
  for (cl_device_id device : devices_) device->releaseInternal();
}

void _cl_context::addQueue(cl_command_queue queue) {
  std::lock_guard lock(queuesMutex_);
  queues_.push_back(queue);
}

void _cl_context::removeQueue(cl_command_queue queue) {
  std::lock_guard lock(queuesMutex_);
  std::erase(queues_, queue);
}

void _cl_context::finishQueues() {
  // Each queue is finished outside the lock, under a reference of its own
  // (a command finishing meanwhile may destroy another queue, which waits
  // for the lock); one already being destroyed has nothing pending.
  std::vector<cl_command_queue> live;
  {
    std::lock_guard lock(queuesMutex_);
    live.reserve(queues_.size());
    for (cl_command_queue queue : queues_)
      if (queue->tryRetainInternal()) live.push_back(queue);
  }
  for (cl_command_queue queue : live) {
    queue->finish();
    queue->releaseInternal();
  }
}

bool _cl_context::hasDevice(cl_device_id device) const {
  return std::find(devices_.begin(), devices_.end(), device) != devices_.end();
}

void _cl_context::notify(const char *message) const {
  if (notify_) notify_(message, nullptr, 0, notifyUserData_);
}

void _cl_context::addDestructorCallback(DestructorFn fn, void *userData) {
  std::lock_guard lock(mutex_);
  destructorCallbacks_.emplace_back(fn, userData);
}

cl_command_queue _cl_context::defaultDeviceQueue(cl_device_id device) {
  std::lock_guard lock(deviceQueuesMutex_);
  for (const DeviceQueues &entry : deviceQueues_)
    if ((entry.device == device || !device) && entry.defaultQueue) return entry.defaultQueue;
  return nullptr;
}

void _cl_context::setDefaultDeviceQueue(cl_device_id device, cl_command_queue queue) {
  std::lock_guard lock(deviceQueuesMutex_);
  for (DeviceQueues &entry : deviceQueues_)
    if (entry.device == device) {
      entry.defaultQueue = queue;
      return;
    }
  deviceQueues_.push_back({device, queue, 0});
}

bool _cl_context::addDeviceQueue(cl_device_id device, cl_uint limit) {
  std::lock_guard lock(deviceQueuesMutex_);
  for (DeviceQueues &entry : deviceQueues_)
    if (entry.device == device) {
      if (entry.count >= limit) return false;
      ++entry.count;
      return true;
    }
  if (limit == 0) return false;
  deviceQueues_.push_back({device, nullptr, 1});
  return true;
}

void _cl_context::deviceQueueGone(cl_device_id device, cl_command_queue queue) {
  std::lock_guard lock(deviceQueuesMutex_);
  for (DeviceQueues &entry : deviceQueues_)
    if (entry.device == device) {
      if (entry.defaultQueue == queue) entry.defaultQueue = nullptr;
      if (entry.count) --entry.count;
    }
}

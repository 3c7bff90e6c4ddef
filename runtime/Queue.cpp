#include "Queue.h"

#include "Context.h"
#include "Device.h"
#include "Platform.h"
#include "exec/DeviceEnqueue.h"

using namespace lockstep::runtime;

_cl_command_queue::_cl_command_queue(cl_context context, cl_device_id device,
                                     cl_command_queue_properties properties,
                                     std::vector<cl_queue_properties> propertiesArray)
    : context_(context),
      device_(device),
      properties_(properties),
      propertiesArray_(std::move(propertiesArray)) {
  context_->retainInternal();
  // A sub-device lives while a queue on it does (its commands run in its
  // arena).
  device_->retainInternal();
  context_->addQueue(this);
}

_cl_command_queue::~_cl_command_queue() {
  // Every command holds the queue, so none is pending here.
  if (onDevice()) context_->deviceQueueGone(device_, this);
  context_->removeQueue(this);
  device_->releaseInternal();
  context_->releaseInternal();
}

void _cl_command_queue::orderAfterEarlier(_cl_event *event, bool waitsForAll, _cl_event **previous,
                                          std::vector<_cl_event *> &earlier) {
  auto take = [&](_cl_event *e) {
    e->retainInternal();
    earlier.push_back(e);
  };
  std::lock_guard lock(mutex_);
  if (!outOfOrder()) {
    // In order: after the previous command, which covers all earlier ones.
    // last_'s reference moves to the caller.
    *previous = std::exchange(last_, event);
  } else {
    if (barrier_) take(barrier_);
    if (waitsForAll)
      for (_cl_event *e : outstanding_) take(e);
    if (event->commandType() == CL_COMMAND_BARRIER) {
      if (barrier_) barrier_->releaseInternal();
      event->retainInternal();
      barrier_ = event;
    }
    event->queueSlot = outstanding_.size();
    outstanding_.push_back(event);
  }
  event->retainInternal();  // held by last_ or outstanding_
}

cl_int _cl_command_queue::enqueue(cl_command_type type, cl_uint numEvents, const cl_event *waitList,
                                  cl_event *eventOut, Command work, bool blocking,
                                  bool runHereIfBlocking) {
  // References: the application's (dropped below if it asked for no event)
  // and the scheduler's (dropped by finish()).
  auto *event = new _cl_event(context_, this, type);
  if (profiling()) event->timeQueued = nowNs();
  Scheduler::prepare(event, std::move(work));
  event->retainInternal();

  for (cl_uint i = 0; i < numEvents; ++i) Scheduler::addDependent(waitList[i], event, true);
  // "If event_wait_list is NULL, then this particular command waits until
  // all previous enqueued commands to command_queue have completed."
  bool waitsForAll = numEvents == 0 && (type == CL_COMMAND_MARKER || type == CL_COMMAND_BARRIER);
  _cl_event *previous = nullptr;
  std::vector<_cl_event *> earlier;  // stays empty (no allocation) in order
  orderAfterEarlier(event, waitsForAll, &previous, earlier);
  // Queue order, not a wait list: an earlier failure does not fail this.
  if (previous) {
    Scheduler::addDependent(previous, event, false);
    previous->releaseInternal();
  }
  for (_cl_event *e : earlier) {
    Scheduler::addDependent(e, event, false);
    e->releaseInternal();
  }
  // The enqueuer's guard: may start it now. A blocking caller whose command
  // is ready runs it itself (it would only wait); never used for kernels,
  // which must run in the device's arena.
  Scheduler::dependencyDone(event, false, blocking && runHereIfBlocking);

  if (blocking) {
    cl_int status = event->wait();
    if (status < 0) {
      event->release();
      return status;
    }
  }
  if (eventOut)
    *eventOut = event;
  else
    event->release();
  return CL_SUCCESS;
}

void _cl_command_queue::finish() {
  std::vector<_cl_event *> pending;
  {
    std::lock_guard lock(mutex_);
    // In order, the newest command completes after all the others.
    if (last_) pending.push_back(last_);
    if (outOfOrder()) pending = outstanding_;
    for (_cl_event *e : pending) e->retainInternal();
  }
  for (_cl_event *e : pending) {
    e->wait();
    e->releaseInternal();
  }
}

bool _cl_command_queue::reserveDeviceCommand() {
  uint64_t used = deviceBytesUsed_.fetch_add(kDeviceCommandBytes, std::memory_order_relaxed);
  if (used + kDeviceCommandBytes <= deviceQueueSize_) return true;
  deviceBytesUsed_.fetch_sub(kDeviceCommandBytes, std::memory_order_relaxed);
  return false;
}

void _cl_command_queue::releaseDeviceCommand() {
  deviceBytesUsed_.fetch_sub(kDeviceCommandBytes, std::memory_order_relaxed);
}

void _cl_command_queue::commandDone(_cl_event *event) {
  if (onDevice()) {
    // Device queues keep no order and no list: the command's room goes.
    releaseDeviceCommand();
    event->releaseInternal();
    return;
  }
  {
    std::lock_guard lock(mutex_);
    if (!outOfOrder()) {
      if (last_ != event) return;  // a newer command took its place already
      last_ = nullptr;
    } else {
      // Swap-remove: O(1) however many commands are outstanding.
      _cl_event *moved = outstanding_.back();
      outstanding_[event->queueSlot] = moved;
      moved->queueSlot = event->queueSlot;
      outstanding_.pop_back();
      if (barrier_ == event) {
        barrier_ = nullptr;
        event->releaseInternal();  // not the last reference: the scheduler holds one
      }
    }
  }
  event->releaseInternal();
}

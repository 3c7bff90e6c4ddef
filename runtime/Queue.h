// A command-queue. Enqueuing returns at once: the command runs on the
// device's arena when its wait list is complete and, in order, the previous
// command; out of order, the last barrier (and, for a marker or barrier with
// no wait list, every command enqueued before it).
#pragma once

#include <atomic>
#include <mutex>
#include <span>
#include <vector>

#include "Event.h"
#include "Object.h"

struct _cl_command_queue
    : lockstep::runtime::Object<_cl_command_queue, lockstep::runtime::Tag::Queue,
                                CL_INVALID_COMMAND_QUEUE> {
  _cl_command_queue(cl_context context, cl_device_id device, cl_command_queue_properties properties,
                    std::vector<cl_queue_properties> propertiesArray);
  ~_cl_command_queue();

  cl_context context() const { return context_; }
  cl_device_id device() const { return device_; }
  cl_command_queue_properties properties() const { return properties_; }
  // A device queue's commands always keep their times:
  // capture_event_profiling_info reads them.
  bool profiling() const { return properties_ & (CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE); }
  // A device queue (CL_QUEUE_ON_DEVICE): only kernels enqueue to it
  // (exec/DeviceEnqueue.cpp); host commands are CL_INVALID_COMMAND_QUEUE.
  bool onDevice() const { return properties_ & CL_QUEUE_ON_DEVICE; }
  cl_uint deviceQueueSize() const { return deviceQueueSize_; }
  void setDeviceQueueSize(cl_uint bytes) { deviceQueueSize_ = bytes; }
  // A device queue's room: a command takes kDeviceCommandBytes until it is
  // done. False (and nothing taken) when the queue is full.
  bool reserveDeviceCommand();
  void releaseDeviceCommand();
  // Events kernels hold on this device queue (exec/DeviceEnqueue.cpp).
  std::atomic<cl_uint> deviceEvents{0};
  bool outOfOrder() const { return properties_ & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE; }
  // As given to clCreateCommandQueueWithProperties (terminated), or empty.
  const std::vector<cl_queue_properties> &propertiesArray() const { return propertiesArray_; }

  // Enqueues `work` as a command of `type` after the events of `waitList`
  // (valid events of this queue's context: api::checkWaitList). If
  // `eventOut` is non-null it receives the command's event (the
  // application's reference). If `blocking`, returns only when the command
  // is done, with its final status: negative if it failed (then no event is
  // returned); otherwise CL_SUCCESS. `work` may be empty (markers).
  // `runHereIfBlocking`: a blocking command that is ready at once may run on
  // the caller's thread (host copies; not kernels, which need the arena).
  cl_int enqueue(cl_command_type type, cl_uint numEvents, const cl_event *waitList,
                 cl_event *eventOut, lockstep::runtime::Command work, bool blocking = false,
                 bool runHereIfBlocking = false);

  void flush() {}  // commands are submitted as soon as they are ready
  void finish();   // waits for every command enqueued so far

  // Called by an event of this queue when it is done.
  void commandDone(_cl_event *event);

 private:
  // The commands `event` must wait for besides its wait list (in order: the
  // previous one; out of order: `earlier`), each with an internal reference
  // for the caller to drop; records `event`.
  void orderAfterEarlier(_cl_event *event, bool waitsForAll, _cl_event **previous,
                         std::vector<_cl_event *> &earlier);

  cl_context context_;
  cl_device_id device_;
  cl_command_queue_properties properties_;
  std::vector<cl_queue_properties> propertiesArray_;
  std::mutex mutex_;
  // Internal references, each dropped when its command is done.
  _cl_event *last_ = nullptr;             // in order: the newest command
  _cl_event *barrier_ = nullptr;          // out of order: the newest barrier
  std::vector<_cl_event *> outstanding_;  // out of order: every command not done
  cl_uint deviceQueueSize_ = 0;
  std::atomic<uint64_t> deviceBytesUsed_{0};
};

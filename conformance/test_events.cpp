// Events: commands run asynchronously after their wait lists, status moves
// through QUEUED/SUBMITTED/RUNNING/COMPLETE with callbacks, failed user events
// terminate their dependents, markers and barriers order commands, and
// profiling timestamps are ordered.
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "ClTest.h"

namespace lockstep::test {
namespace {

const char *kIncrement = "kernel void inc(global int *a) { a[get_global_id(0)] += 1; }";

class Events : public ClTest {};

TEST_F(Events, EnqueueReturnsBeforeAGatedKernelRuns) {
  const size_t n = 1024;
  std::vector<int> host(n, 5);
  cl_mem mem = buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, n * 4, host.data());
  cl_kernel inc = kernel(kIncrement, "inc");
  ASSERT_TRUE(setArgs(inc, mem));
  cl_event gate = userEvent();
  cl_event done = nullptr;
  size_t global = n;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, inc, 1, nullptr, &global, nullptr, 1, &gate, &done));
  track(done);
  ASSERT_CL(clFlush(queue_));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  cl_int before = status(done);
  EXPECT_TRUE(before == CL_QUEUED || before == CL_SUBMITTED) << before;
  cl_command_type type = 0;
  ASSERT_CL(clGetEventInfo(done, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_NDRANGE_KERNEL));
  ASSERT_CL(clGetEventInfo(gate, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_USER));
  EXPECT_EQ(status(gate), CL_SUBMITTED);
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clWaitForEvents(1, &done));
  EXPECT_EQ(status(done), CL_COMPLETE);
  std::vector<int> out = read<int>(mem, n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], 6) << i;
}

// A gated command must not touch memory before its gate opens.
TEST_F(Events, GatedWriteDoesNotHappenEarly) {
  cl_mem mem = buffer(CL_MEM_READ_WRITE, 64);
  std::vector<int> zeros(16, 0), ones(16, 1), out(16, -1);
  ASSERT_CL(clEnqueueWriteBuffer(queue_, mem, CL_TRUE, 0, 64, zeros.data(), 0, nullptr, nullptr));
  cl_command_queue other = makeQueue(0);
  cl_event gate = userEvent();
  ASSERT_CL(clEnqueueWriteBuffer(other, mem, CL_FALSE, 0, 64, ones.data(), 1, &gate, nullptr));
  ASSERT_CL(clFlush(other));
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  ASSERT_CL(clEnqueueReadBuffer(queue_, mem, CL_TRUE, 0, 64, out.data(), 0, nullptr, nullptr));
  EXPECT_EQ(out, zeros);
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clFinish(other));
  ASSERT_CL(clEnqueueReadBuffer(queue_, mem, CL_TRUE, 0, 64, out.data(), 0, nullptr, nullptr));
  EXPECT_EQ(out, ones);
}

struct CallbackLog {
  std::mutex mutex;
  std::vector<std::pair<cl_int, cl_int>> calls;  // (registered for, status given)
};

void CL_CALLBACK recordCallback(cl_event, cl_int status, void *data) {
  auto *entry = static_cast<std::pair<CallbackLog *, cl_int> *>(data);
  std::lock_guard lock(entry->first->mutex);
  entry->first->calls.push_back({entry->second, status});
}

TEST_F(Events, CallbacksForEachStatus) {
  cl_mem mem = buffer(CL_MEM_READ_WRITE, 4096 * 4);
  cl_kernel inc = kernel(kIncrement, "inc");
  ASSERT_TRUE(setArgs(inc, mem));
  int zero = 0;
  ASSERT_CL(clEnqueueFillBuffer(queue_, mem, &zero, 4, 0, 4096 * 4, 0, nullptr, nullptr));
  cl_event gate = userEvent(), done = nullptr;
  size_t global = 4096;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, inc, 1, nullptr, &global, nullptr, 1, &gate, &done));
  track(done);
  CallbackLog log;
  std::pair<CallbackLog *, cl_int> submitted{&log, CL_SUBMITTED}, running{&log, CL_RUNNING},
      complete{&log, CL_COMPLETE};
  ASSERT_CL(clSetEventCallback(done, CL_SUBMITTED, recordCallback, &submitted));
  ASSERT_CL(clSetEventCallback(done, CL_RUNNING, recordCallback, &running));
  ASSERT_CL(clSetEventCallback(done, CL_COMPLETE, recordCallback, &complete));
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clWaitForEvents(1, &done));
  // Callbacks may run on another thread shortly after the status changes.
  for (int i = 0; i < 200; ++i) {
    {
      std::lock_guard lock(log.mutex);
      if (log.calls.size() == 3) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::lock_guard lock(log.mutex);
  ASSERT_EQ(log.calls.size(), 3u);
  for (auto [registered, given] : log.calls) EXPECT_EQ(registered, given);
  // A callback registered after completion runs too.
  CallbackLog late;
  std::pair<CallbackLog *, cl_int> lateEntry{&late, CL_COMPLETE};
  ASSERT_CL(clSetEventCallback(done, CL_COMPLETE, recordCallback, &lateEntry));
  for (int i = 0; i < 200; ++i) {
    {
      std::lock_guard lateLock(late.mutex);
      if (!late.calls.empty()) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::lock_guard lateLock(late.mutex);
  ASSERT_EQ(late.calls.size(), 1u);
  EXPECT_EQ(late.calls[0].second, CL_COMPLETE);
}

TEST_F(Events, FailedUserEventTerminatesDependents) {
  cl_mem mem = buffer(CL_MEM_READ_WRITE, 256 * 4);
  cl_kernel inc = kernel(kIncrement, "inc");
  ASSERT_TRUE(setArgs(inc, mem));
  int seven = 7;
  ASSERT_CL(clEnqueueFillBuffer(queue_, mem, &seven, 4, 0, 256 * 4, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
  // The queue of a terminated command may be unusable afterwards: it gets
  // released, never finished.
  cl_int err = CL_SUCCESS;
  cl_command_queue doomed = clCreateCommandQueueWithProperties(context_, device_, nullptr, &err);
  ASSERT_CL(err);
  cl_event gate = userEvent(), dependent = nullptr;
  size_t global = 256;
  ASSERT_CL(
      clEnqueueNDRangeKernel(doomed, inc, 1, nullptr, &global, nullptr, 1, &gate, &dependent));
  track(dependent);
  CallbackLog log;
  std::pair<CallbackLog *, cl_int> entry{&log, CL_COMPLETE};
  ASSERT_CL(clSetEventCallback(dependent, CL_COMPLETE, recordCallback, &entry));
  ASSERT_CL(clSetUserEventStatus(gate, -42));
  EXPECT_EQ(status(gate), -42);
  EXPECT_CL_ERROR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, &dependent));
  EXPECT_LT(status(dependent), 0);
  for (int i = 0; i < 200; ++i) {
    {
      std::lock_guard lock(log.mutex);
      if (!log.calls.empty()) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  {
    std::lock_guard lock(log.mutex);
    ASSERT_EQ(log.calls.size(), 1u) << "a COMPLETE callback runs for a terminated command";
    EXPECT_LT(log.calls[0].second, 0);
  }
  EXPECT_CL(clReleaseCommandQueue(doomed));
  // The kernel never ran.
  std::vector<int> out = read<int>(mem, 256);
  for (int v : out) ASSERT_EQ(v, 7);
}

TEST_F(Events, MarkerWaitsForItsWaitList) {
  cl_event gate = userEvent(), marker = nullptr;
  ASSERT_CL(clEnqueueMarkerWithWaitList(queue_, 1, &gate, &marker));
  track(marker);
  ASSERT_CL(clFlush(queue_));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_NE(status(marker), CL_COMPLETE);
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clWaitForEvents(1, &marker));
  EXPECT_EQ(status(marker), CL_COMPLETE);
  cl_command_type type = 0;
  ASSERT_CL(clGetEventInfo(marker, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_MARKER));
}

// On an out-of-order queue a barrier orders what comes after it behind
// everything before it; a marker with no wait list waits for all before it.
TEST_F(Events, BarrierAndMarkerOnOutOfOrderQueue) {
  auto props = deviceInfo<cl_command_queue_properties>(device_, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
  cl_command_queue queue = makeQueue(
      props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0);
  ASSERT_NE(queue, nullptr);
  const size_t n = 4096;
  cl_mem mem = buffer(CL_MEM_READ_WRITE, n * 4);
  cl_kernel inc = kernel(kIncrement, "inc");
  ASSERT_TRUE(setArgs(inc, mem));
  cl_event gate = userEvent();
  int zero = 0;
  ASSERT_CL(clEnqueueFillBuffer(queue, mem, &zero, 4, 0, n * 4, 1, &gate, nullptr));
  ASSERT_CL(clEnqueueBarrierWithWaitList(queue, 0, nullptr, nullptr));
  size_t global = n;
  ASSERT_CL(clEnqueueNDRangeKernel(queue, inc, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  ASSERT_CL(clEnqueueBarrierWithWaitList(queue, 0, nullptr, nullptr));
  ASSERT_CL(clEnqueueNDRangeKernel(queue, inc, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  cl_event marker = nullptr;
  ASSERT_CL(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &marker));
  track(marker);
  ASSERT_CL(clFlush(queue));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_NE(status(marker), CL_COMPLETE);
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clWaitForEvents(1, &marker));
  std::vector<int> out(n, -1);
  ASSERT_CL(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, n * 4, out.data(), 0, nullptr, nullptr));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], 2) << i;
}

// Commands of two queues chained through events.
TEST_F(Events, CrossQueueDependencies) {
  cl_command_queue second = makeQueue(0);
  const size_t n = 2048;
  cl_mem mem = buffer(CL_MEM_READ_WRITE, n * 4);
  cl_kernel inc = kernel(kIncrement, "inc");
  ASSERT_TRUE(setArgs(inc, mem));
  cl_event gate = userEvent(), filled = nullptr, first = nullptr;
  int ten = 10;
  ASSERT_CL(clEnqueueFillBuffer(queue_, mem, &ten, 4, 0, n * 4, 1, &gate, &filled));
  track(filled);
  size_t global = n;
  ASSERT_CL(clEnqueueNDRangeKernel(second, inc, 1, nullptr, &global, nullptr, 1, &filled, &first));
  track(first);
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, inc, 1, nullptr, &global, nullptr, 1, &first, nullptr));
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clFinish(queue_));
  for (int v : read<int>(mem, n)) ASSERT_EQ(v, 12);
}

TEST_F(Events, ProfilingTimestampsAreOrdered) {
  cl_command_queue profiled = makeQueue(CL_QUEUE_PROFILING_ENABLE);
  const size_t n = 1 << 20;
  cl_mem mem = buffer(CL_MEM_READ_WRITE, n * 4);
  cl_kernel inc = kernel(kIncrement, "inc");
  ASSERT_TRUE(setArgs(inc, mem));
  int zero = 0;
  cl_event fill = nullptr, run1 = nullptr, run2 = nullptr;
  ASSERT_CL(clEnqueueFillBuffer(profiled, mem, &zero, 4, 0, n * 4, 0, nullptr, &fill));
  size_t global = n;
  ASSERT_CL(clEnqueueNDRangeKernel(profiled, inc, 1, nullptr, &global, nullptr, 0, nullptr, &run1));
  ASSERT_CL(clEnqueueNDRangeKernel(profiled, inc, 1, nullptr, &global, nullptr, 0, nullptr, &run2));
  track(fill), track(run1), track(run2);
  ASSERT_CL(clFinish(profiled));
  cl_ulong previousEnd = 0;
  for (cl_event event : {fill, run1, run2}) {
    cl_ulong t[5] = {};
    const cl_profiling_info what[5] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                       CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                       CL_PROFILING_COMMAND_COMPLETE};
    for (int i = 0; i < 5; ++i)
      ASSERT_CL(clGetEventProfilingInfo(event, what[i], sizeof t[i], &t[i], nullptr));
    EXPECT_GT(t[0], 0u);
    EXPECT_LE(t[0], t[1]);
    EXPECT_LE(t[1], t[2]);
    EXPECT_LE(t[2], t[3]);
    EXPECT_LE(t[3], t[4]);
    EXPECT_LE(previousEnd, t[2]) << "an in-order queue starts a command after the previous ends";
    previousEnd = t[3];
  }
  cl_ulong start = 0, end = 0;
  ASSERT_CL(
      clGetEventProfilingInfo(run1, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr));
  ASSERT_CL(clGetEventProfilingInfo(run1, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr));
  EXPECT_GT(end, start) << "a kernel over a million items takes some time";
  for (int v : read<int>(mem, 16)) EXPECT_EQ(v, 2);
}

TEST_F(Events, WaitForEventsFromManyThreads) {
  cl_event gate = userEvent();
  std::atomic<int> released{0};
  std::vector<std::thread> waiters;
  for (int i = 0; i < 4; ++i)
    waiters.emplace_back([&] {
      if (clWaitForEvents(1, &gate) == CL_SUCCESS) ++released;
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(released.load(), 0);
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  for (std::thread &t : waiters) t.join();
  EXPECT_EQ(released.load(), 4);
}

// Threads launching back to back, each on its own queue, with arguments
// that change every launch, events waited for now and then and the rest
// dropped: the launches' events and state are recycled between threads, and
// every launch must still run once, with its own arguments.
TEST_F(Events, ManyThreadsLaunchingWithChangingArguments) {
  constexpr int kThreads = 4, kLaunches = 3000;
  cl_program program = build("kernel void add(global int *a, int v) { a[get_global_id(0)] += v; }");
  ASSERT_NE(program, nullptr);
  std::vector<cl_kernel> kernels;
  std::vector<cl_command_queue> queues;
  std::vector<cl_mem> sums;
  for (int t = 0; t < kThreads; ++t) {
    kernels.push_back(kernelOf(program, "add"));
    queues.push_back(makeQueue(t % 2 ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0));
    sums.push_back(bufferFrom(std::vector<int>(3, 0)));
    ASSERT_TRUE(kernels.back() && queues.back());
  }
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      size_t global = 3;
      for (int i = 0; i < kLaunches; ++i) {
        int v = (i * 7 + t) % 11;
        cl_event event = nullptr;
        bool keep = i % 7 == 0;
        if (clSetKernelArg(kernels[t], 0, sizeof(cl_mem), &sums[t]) != CL_SUCCESS ||
            clSetKernelArg(kernels[t], 1, sizeof v, &v) != CL_SUCCESS ||
            clEnqueueNDRangeKernel(queues[t], kernels[t], 1, nullptr, &global, nullptr, 0, nullptr,
                                   keep ? &event : nullptr) != CL_SUCCESS) {
          ++failures;
          return;
        }
        // An out-of-order queue runs launches in any order, even together:
        // one at a time keeps its += exact.
        bool outOfOrder = t % 2;
        if (keep) {
          if (clWaitForEvents(1, &event) != CL_SUCCESS) ++failures;
          clReleaseEvent(event);
        } else if (outOfOrder || i % 13 == 0) {
          if (clFinish(queues[t]) != CL_SUCCESS) ++failures;
        }
      }
      if (clFinish(queues[t]) != CL_SUCCESS) ++failures;
    });
  for (std::thread &thread : threads) thread.join();
  ASSERT_EQ(failures.load(), 0);
  for (int t = 0; t < kThreads; ++t) {
    int want = 0;
    for (int i = 0; i < kLaunches; ++i) want += (i * 7 + t) % 11;
    EXPECT_EQ(read<int>(sums[t], 3), std::vector<int>(3, want)) << "thread " << t;
  }
}

TEST_F(Events, EventInfoNamesItsQueueAndContext) {
  cl_event event = nullptr;
  int v = 1;
  cl_mem mem = buffer(CL_MEM_READ_WRITE, 4);
  ASSERT_CL(clEnqueueWriteBuffer(queue_, mem, CL_TRUE, 0, 4, &v, 0, nullptr, &event));
  track(event);
  cl_command_queue queue = nullptr;
  cl_context context = nullptr;
  ASSERT_CL(clGetEventInfo(event, CL_EVENT_COMMAND_QUEUE, sizeof queue, &queue, nullptr));
  ASSERT_CL(clGetEventInfo(event, CL_EVENT_CONTEXT, sizeof context, &context, nullptr));
  EXPECT_EQ(queue, queue_);
  EXPECT_EQ(context, context_);
  EXPECT_EQ(status(event), CL_COMPLETE) << "a blocking write has completed when it returns";
  cl_event user = userEvent();
  ASSERT_CL(clGetEventInfo(user, CL_EVENT_COMMAND_QUEUE, sizeof queue, &queue, nullptr));
  EXPECT_EQ(queue, nullptr);
  ASSERT_CL(clSetUserEventStatus(user, CL_COMPLETE));
}

// The usual pattern: set a callback, release the event at once; the callback
// queries the event it is given, which stays a valid handle while it runs.
TEST_F(Events, CallbackMayQueryAnEventTheApplicationReleased) {
  cl_int err = CL_SUCCESS;
  cl_event user = clCreateUserEvent(context_, &err);
  ASSERT_CL(err);
  struct Seen {
    std::atomic<int> calls{0};
    std::atomic<cl_int> queryError{CL_SUCCESS}, status{-1};
  } seen;
  auto callback = [](cl_event event, cl_int, void *data) {
    auto *seen = static_cast<Seen *>(data);
    cl_int status = -1;
    seen->queryError = clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
    seen->status = status;
    seen->calls++;
  };
  cl_event marker = nullptr;
  ASSERT_CL(clEnqueueMarkerWithWaitList(queue_, 1, &user, &marker));
  ASSERT_CL(clSetEventCallback(marker, CL_COMPLETE, callback, &seen));
  ASSERT_CL(clReleaseEvent(marker));
  ASSERT_CL(clSetUserEventStatus(user, CL_COMPLETE));
  ASSERT_CL(clFinish(queue_));
  for (int i = 0; i < 1000 && seen.calls == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(seen.calls, 1);
  EXPECT_EQ(seen.queryError, CL_SUCCESS) << errorName(seen.queryError);
  EXPECT_EQ(seen.status, CL_COMPLETE);
  // Once the callback is over, the released handle is invalid again.
  EXPECT_CL(clReleaseEvent(user));
}

}  // namespace
}  // namespace lockstep::test

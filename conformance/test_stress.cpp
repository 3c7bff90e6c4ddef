// Many host threads on one context at once, each with its own queue (in
// order or out of order), every command waiting on a user event that other
// code completes or fails, on the neighbouring thread's last kernel (a
// wait list across queues), kernels and buffers released while their
// commands are pending, and a callback on every kernel's event that enqueues
// more work. Every result is checked: a kernel whose user event failed never
// runs and reports an error to its callback; every other kernel adds its
// own value once; every callback's work lands.
#include <atomic>
#include <mutex>
#include <thread>

#include "ClTest.h"

namespace lockstep::test {
namespace {

class Stress : public ClTest {};

constexpr int kThreads = 8;
constexpr int kRounds = 30;
constexpr size_t kItems = 64;

struct ThreadState {
  cl_command_queue queue = nullptr;
  cl_mem callbacks = nullptr;  // one int per round, set by the callbacks' fills
  std::atomic<int> callbacksRun{0};
  std::atomic<cl_int> statusSeen[kRounds];
  cl_event kernels[kRounds] = {};
  std::vector<cl_int> results[kRounds];
  cl_event reads[kRounds] = {};
};

struct Shared {
  std::mutex mutex;
  cl_event lastGood[kThreads] = {};  // each thread's last kernel that will succeed
};

struct CallbackData {
  ThreadState *state;
  int round;
};

void CL_CALLBACK onKernelDone(cl_event event, cl_int status, void *data) {
  auto *what = static_cast<CallbackData *>(data);
  ThreadState &state = *what->state;
  state.statusSeen[what->round] = status;
  cl_int one = 1;
  // Work enqueued from a callback: marks this round in the thread's buffer.
  cl_int err =
      clEnqueueFillBuffer(state.queue, state.callbacks, &one, sizeof one,
                          what->round * sizeof(cl_int), sizeof(cl_int), 0, nullptr, nullptr);
  if (err != CL_SUCCESS) state.statusSeen[what->round] = 12345;  // reported below
  clFlush(state.queue);
  state.callbacksRun.fetch_add(1);
  delete what;
}

bool roundFails(int thread, int round) { return (thread + round) % 4 == 0; }
cl_int valueOf(int thread, int round) { return thread * 1000 + round; }

TEST_F(Stress, ThreadsQueuesUserEventsCallbacksAndReleases) {
  cl_program program = build(R"CLC(
    kernel void add(global int *data, int value) { data[get_global_id(0)] += value; }
  )CLC");
  ASSERT_NE(program, nullptr);
  cl_kernel add = kernelOf(program, "add");
  ASSERT_NE(add, nullptr);
  std::vector<ThreadState> states(kThreads);
  Shared shared;
  for (int t = 0; t < kThreads; ++t) {
    cl_int err = CL_SUCCESS;
    cl_queue_properties properties[] = {
        CL_QUEUE_PROPERTIES,
        t % 2 ? cl_queue_properties(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) : 0, 0};
    states[t].queue = clCreateCommandQueueWithProperties(context_, device_, properties, &err);
    ASSERT_CL(err);
    std::vector<cl_int> zeros(kRounds, 0);
    states[t].callbacks = bufferFrom(zeros);
    for (auto &seen : states[t].statusSeen) seen = 1;  // no callback yet
  }

  auto work = [&](int t) {
    ThreadState &state = states[t];
    for (int r = 0; r < kRounds; ++r) {
      cl_int err = CL_SUCCESS;
      std::vector<cl_int> zeros(kItems, 0);
      cl_mem data = clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                   kItems * sizeof(cl_int), zeros.data(), &err);
      if (err != CL_SUCCESS) {
        ADD_FAILURE() << "buffer: " << errorName(err);
        return;
      }
      cl_event gate = clCreateUserEvent(context_, &err);
      if (err != CL_SUCCESS) {
        ADD_FAILURE() << "user event: " << errorName(err);
        return;
      }
      // A kernel of its own, released as soon as it is enqueued.
      cl_kernel mine = clCloneKernel(add, &err);
      if (err != CL_SUCCESS) {
        ADD_FAILURE() << "clone: " << errorName(err);
        return;
      }
      cl_int value = valueOf(t, r);
      clSetKernelArg(mine, 0, sizeof data, &data);
      clSetKernelArg(mine, 1, sizeof value, &value);
      std::vector<cl_event> waits{gate};
      {
        std::lock_guard lock(shared.mutex);
        if (cl_event other = shared.lastGood[(t + 1) % kThreads]) {
          clRetainEvent(other);
          waits.push_back(other);
        }
      }
      size_t global = kItems;
      err = clEnqueueNDRangeKernel(state.queue, mine, 1, nullptr, &global, nullptr,
                                   cl_uint(waits.size()), waits.data(), &state.kernels[r]);
      if (err != CL_SUCCESS) {
        ADD_FAILURE() << "enqueue: " << errorName(err);
        return;
      }
      for (size_t i = 1; i < waits.size(); ++i) clReleaseEvent(waits[i]);
      clReleaseKernel(mine);
      clSetEventCallback(state.kernels[r], CL_COMPLETE, onKernelDone, new CallbackData{&state, r});
      if (!roundFails(t, r)) {
        state.results[r].assign(kItems, -1);
        err = clEnqueueReadBuffer(state.queue, data, CL_FALSE, 0, kItems * sizeof(cl_int),
                                  state.results[r].data(), 1, &state.kernels[r], &state.reads[r]);
        if (err != CL_SUCCESS) {
          ADD_FAILURE() << "read: " << errorName(err);
          return;
        }
        std::lock_guard lock(shared.mutex);
        cl_event &slot = shared.lastGood[t];
        if (slot) clReleaseEvent(slot);
        clRetainEvent(state.kernels[r]);
        slot = state.kernels[r];
      }
      clReleaseMemObject(data);  // the pending kernel and read keep it
      clFlush(state.queue);
      clSetUserEventStatus(gate, roundFails(t, r) ? -1 : CL_COMPLETE);
      clReleaseEvent(gate);
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(work, t);
  for (std::thread &thread : threads) thread.join();
  ASSERT_FALSE(HasFailure());

  for (int t = 0; t < kThreads; ++t) {
    ThreadState &state = states[t];
    for (int r = 0; r < kRounds; ++r) {
      if (state.reads[r]) ASSERT_CL(clWaitForEvents(1, &state.reads[r]));
      cl_int status = 0;
      // A failed kernel's wait ends with its error.
      clWaitForEvents(1, &state.kernels[r]);
      ASSERT_CL(clGetEventInfo(state.kernels[r], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                               &status, nullptr));
      if (roundFails(t, r)) {
        EXPECT_LT(status, 0) << "thread " << t << ", round " << r;
      } else {
        EXPECT_EQ(status, CL_COMPLETE) << "thread " << t << ", round " << r;
        for (size_t i = 0; i < kItems; ++i)
          ASSERT_EQ(state.results[r][i], valueOf(t, r))
              << "thread " << t << ", round " << r << ", item " << i;
      }
    }
    // Every callback ran, saw its kernel's status, and its fill landed.
    while (state.callbacksRun.load() < kRounds) std::this_thread::yield();
    ASSERT_CL(clFinish(state.queue));
    for (int r = 0; r < kRounds; ++r) {
      cl_int seen = state.statusSeen[r];
      if (roundFails(t, r))
        EXPECT_LT(seen, 0) << "thread " << t << ", round " << r;
      else
        EXPECT_EQ(seen, CL_COMPLETE) << "thread " << t << ", round " << r;
    }
    std::vector<cl_int> marks = read<cl_int>(state.callbacks, kRounds);
    for (int r = 0; r < kRounds; ++r) EXPECT_EQ(marks[r], 1) << "thread " << t << ", round " << r;
    for (int r = 0; r < kRounds; ++r) {
      clReleaseEvent(state.kernels[r]);
      if (state.reads[r]) clReleaseEvent(state.reads[r]);
    }
    clReleaseCommandQueue(state.queue);
  }
  for (cl_event event : shared.lastGood)
    if (event) clReleaseEvent(event);
}

}  // namespace
}  // namespace lockstep::test

// Pipes, the kernel side, one work-item at a time: read_pipe and write_pipe
// in both forms, reservations and their commits, the queries, each checked
// against what the host computes from the packets it gave: the same packets
// come out, each once, in FIFO order where one work-item wrote them,
// reservations whole and in reservation order, a full pipe refuses and an
// empty one gives nothing. And a producer and a consumer kernel running at
// the same time on two queues (and on one out-of-order queue) through a
// pipe far smaller than what they pass. The work-group and sub-group forms
// are in test_pipe_collectives.cpp.
#include <algorithm>
#include <map>

#include "PipeTest.h"

namespace lockstep::test {
namespace {

const char *kOneByOne = R"CLC(
kernel void produce(global const int *src, write_only pipe int p, global int *status) {
  size_t i = get_global_id(0);
  status[i] = write_pipe(p, &src[i]);
}
kernel void consume(read_only pipe int p, global int *dst, global int *status) {
  size_t i = get_global_id(0);
  status[i] = read_pipe(p, &dst[i]);
}
)CLC";

// Many work-items on every core write one packet each, then many read one
// each: the packets that come out are the ones that went in.
TEST_F(PipeKernels, UnreservedPacketsComeOutOnce) {
  for (const std::string &options : languages()) {
    SCOPED_TRACE(options);
    const size_t n = 8192;
    cl_kernel produce = kernel(kOneByOne, "produce", options), consume = kernel(kOneByOne, "consume", options);
    ASSERT_TRUE(produce && consume);
    std::vector<cl_int> src = distinctValues(n);
    cl_mem p = pipe(sizeof(cl_int), cl_uint(n));
    cl_mem in = bufferFrom(src), out = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int)),
           status = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
    ASSERT_TRUE(setArgs(produce, in, p, status));
    ASSERT_TRUE(run(produce, {n}, {64}));
    EXPECT_EQ(read<cl_int>(status, n), std::vector<cl_int>(n, 0));
    ASSERT_TRUE(setArgs(consume, p, out, status));
    ASSERT_TRUE(run(consume, {n}, {64}));
    EXPECT_EQ(read<cl_int>(status, n), std::vector<cl_int>(n, 0));
    EXPECT_EQ(sorted(read<cl_int>(out, n)), sorted(src));
  }
}

// A pipe of `capacity` packets takes that many of more writers and refuses
// the rest; its readers get exactly what was taken, and the rest find it
// empty.
TEST_F(PipeKernels, FullPipeRefusesAndEmptyPipeGivesNothing) {
  const size_t n = 1000, capacity = 300;
  cl_kernel produce = kernel(kOneByOne, "produce", "-cl-std=CL3.0"),
            consume = kernel(kOneByOne, "consume", "-cl-std=CL3.0");
  ASSERT_TRUE(produce && consume);
  std::vector<cl_int> src = distinctValues(n);
  cl_mem p = pipe(sizeof(cl_int), cl_uint(capacity));
  cl_mem in = bufferFrom(src), out = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int)),
         status = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
  ASSERT_TRUE(setArgs(produce, in, p, status));
  ASSERT_TRUE(run(produce, {n}, {50}));
  std::vector<cl_int> wrote = read<cl_int>(status, n), taken;
  for (size_t i = 0; i < n; ++i) {
    EXPECT_TRUE(wrote[i] == 0 || wrote[i] < 0) << wrote[i];
    if (wrote[i] == 0) taken.push_back(src[i]);
  }
  EXPECT_EQ(taken.size(), capacity);
  ASSERT_TRUE(setArgs(consume, p, out, status));
  ASSERT_TRUE(run(consume, {n}, {50}));
  std::vector<cl_int> got = read<cl_int>(status, n), values = read<cl_int>(out, n), came;
  for (size_t i = 0; i < n; ++i)
    if (got[i] == 0) came.push_back(values[i]);
  EXPECT_EQ(sorted(came), sorted(taken));
}

// One work-item writes in order with every form (unreserved, and
// reservations of 1 to 5 packets written back to front) and another reads
// them with every form: a FIFO.
TEST_F(PipeKernels, OneWriterOneReaderIsFirstInFirstOut) {
  const char *source = R"CLC(
kernel void produce(global const int *src, int n, write_only pipe int p, global int *status) {
  int i = 0, chunk = 1;
  while (i < n) {
    if (chunk == 1) {
      if (write_pipe(p, &src[i]) != 0) { *status = 1; return; }
      ++i;
    } else {
      int count = min(chunk, n - i);
      reserve_id_t r = reserve_write_pipe(p, count);
      if (!is_valid_reserve_id(r)) { *status = 2; return; }
      for (int k = count - 1; k >= 0; --k)
        if (write_pipe(p, r, k, &src[i + k]) != 0) *status = 3;
      commit_write_pipe(p, r);
      i += count;
    }
    chunk = chunk % 5 + 1;
  }
}
kernel void consume(read_only pipe int p, int n, global int *dst, global int *status) {
  int i = 0, chunk = 3;
  while (i < n) {
    if (chunk == 1) {
      if (read_pipe(p, &dst[i]) != 0) { *status = 4; return; }
      ++i;
    } else {
      int count = min(chunk, n - i);
      reserve_id_t r = reserve_read_pipe(p, count);
      if (!is_valid_reserve_id(r)) { *status = 5; return; }
      for (int k = 0; k < count; ++k)
        if (read_pipe(p, r, k, &dst[i + k]) != 0) *status = 6;
      commit_read_pipe(p, r);
      i += count;
    }
    chunk = chunk % 4 + 1;
  }
  // Empty now: an unreserved read fails, a reservation is not valid.
  int extra;
  if (read_pipe(p, &extra) == 0) *status = 7;
  if (is_valid_reserve_id(reserve_read_pipe(p, 1))) *status = 8;
  reserve_id_t none = CLK_NULL_RESERVE_ID;
  if (is_valid_reserve_id(none)) *status = 9;
}
)CLC";
  for (const std::string &options : languagesAndO0()) {
    SCOPED_TRACE(options);
    cl_kernel produce = kernel(source, "produce", options), consume = kernel(source, "consume", options);
    ASSERT_TRUE(produce && consume);
    const cl_int n = 997;
    std::vector<cl_int> src = randomValues<cl_int>(n, -1000000, 1000000);
    cl_mem p = pipe(sizeof(cl_int), cl_uint(n));
    cl_mem in = bufferFrom(src), out = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int)),
           status = bufferFrom(std::vector<cl_int>{0});
    ASSERT_TRUE(setArgs(produce, in, n, p, status));
    ASSERT_TRUE(run(produce, {1}));
    ASSERT_TRUE(setArgs(consume, p, n, out, status));
    ASSERT_TRUE(run(consume, {1}));
    EXPECT_EQ(read<cl_int>(status, 1)[0], 0);
    EXPECT_EQ(read<cl_int>(out, n), src);
  }
}

// Commits in another order than the reservations: packets become visible,
// and slots free, only in reservation order.
TEST_F(PipeKernels, CommitsOutOfOrderPublishInReservationOrder) {
  const char *source = R"CLC(
kernel void writes(write_only pipe int p, global const int *src, global int *seen) {
  reserve_id_t a = reserve_write_pipe(p, 2);
  reserve_id_t b = reserve_write_pipe(p, 3);
  reserve_id_t c = reserve_write_pipe(p, 1);
  for (int k = 0; k < 3; ++k) write_pipe(p, b, k, &src[2 + k]);
  for (int k = 0; k < 2; ++k) write_pipe(p, a, k, &src[k]);
  write_pipe(p, c, 0, &src[5]);
  commit_write_pipe(p, c);
  seen[0] = get_pipe_num_packets(p);
  commit_write_pipe(p, b);
  seen[1] = get_pipe_num_packets(p);
  commit_write_pipe(p, a);
  seen[2] = get_pipe_num_packets(p);
  // All six slots are taken: the pipe is full.
  seen[3] = is_valid_reserve_id(reserve_write_pipe(p, 1));
}
kernel void reads(read_only pipe int in, write_only pipe int out, global int *dst, global const int *more,
                  global int *seen) {
  reserve_id_t a = reserve_read_pipe(in, 4);
  reserve_id_t b = reserve_read_pipe(in, 2);
  for (int k = 0; k < 2; ++k) read_pipe(in, b, k, &dst[4 + k]);
  for (int k = 0; k < 4; ++k) read_pipe(in, a, k, &dst[k]);
  // b's slots are not free while a is not committed.
  commit_read_pipe(in, b);
  seen[4] = write_pipe(out, &more[0]) == 0;
  commit_read_pipe(in, a);
  seen[5] = write_pipe(out, &more[0]) == 0;
  seen[6] = get_pipe_num_packets(in);
}
)CLC";
  cl_kernel writes = kernel(source, "writes", "-cl-std=CL3.0"), reads = kernel(source, "reads", "-cl-std=CL3.0");
  ASSERT_TRUE(writes && reads);
  std::vector<cl_int> src = randomValues<cl_int>(6, 1, 1 << 30);
  cl_mem p = pipe(sizeof(cl_int), 6);
  cl_mem in = bufferFrom(src), dst = buffer(CL_MEM_READ_WRITE, 6 * sizeof(cl_int)),
         seen = bufferFrom(std::vector<cl_int>(7, -1)), more = bufferFrom(std::vector<cl_int>{42});
  ASSERT_TRUE(setArgs(writes, p, in, seen));
  ASSERT_TRUE(run(writes, {1}));
  ASSERT_TRUE(setArgs(reads, p, p, dst, more, seen));
  ASSERT_TRUE(run(reads, {1}));
  // Host model: reservations a = [0, 2), b = [2, 5), c = [5, 6); visible is
  // the committed prefix in reservation order.
  std::vector<cl_int> seenValues = read<cl_int>(seen, 7);
  EXPECT_EQ(seenValues[0], 0);  // c committed, a and b not: nothing visible
  EXPECT_EQ(seenValues[1], 0);  // b too: still waits for a
  EXPECT_EQ(seenValues[2], 6);  // a: a, b and c
  EXPECT_EQ(seenValues[3], 0);
  EXPECT_EQ(seenValues[4], 0);  // read reservation a not committed: no slot free
  EXPECT_EQ(seenValues[5], 1);  // now six are free
  EXPECT_EQ(seenValues[6], 1);  // the packet just written
  EXPECT_EQ(read<cl_int>(dst, 6), src);  // a's packets, then b's, then c's
}

// Every work-item reserves four packets; readers reserving four get one
// writer's four, whole and in order.
TEST_F(PipeKernels, WorkItemReservationsStayWhole) {
  const char *source = R"CLC(
kernel void produce(global const int *src, write_only pipe int p, global int *status) {
  size_t i = get_global_id(0);
  reserve_id_t r = reserve_write_pipe(p, 4);
  if (!is_valid_reserve_id(r)) { atomic_inc(status); return; }
  for (uint k = 0; k < 4; ++k) write_pipe(p, r, k, &src[4 * i + k]);
  commit_write_pipe(p, r);
}
kernel void consume(read_only pipe int p, global int *dst, global int *status) {
  size_t i = get_global_id(0);
  reserve_id_t r = reserve_read_pipe(p, 4);
  if (!is_valid_reserve_id(r)) { atomic_inc(status); return; }
  for (uint k = 0; k < 4; ++k) read_pipe(p, r, k, &dst[4 * i + k]);
  commit_read_pipe(p, r);
}
)CLC";
  cl_kernel produce = kernel(source, "produce", "-cl-std=CL3.0"), consume = kernel(source, "consume", "-cl-std=CL3.0");
  ASSERT_TRUE(produce && consume);
  const size_t items = 2048, n = items * 4;
  std::vector<cl_int> src = distinctValues(n);
  cl_mem p = pipe(sizeof(cl_int), cl_uint(n));
  cl_mem in = bufferFrom(src), out = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int)),
         status = bufferFrom(std::vector<cl_int>{0});
  ASSERT_TRUE(setArgs(produce, in, p, status));
  ASSERT_TRUE(run(produce, {items}, {32}));
  ASSERT_TRUE(setArgs(consume, p, out, status));
  ASSERT_TRUE(run(consume, {items}, {32}));
  EXPECT_EQ(read<cl_int>(status, 1)[0], 0);
  std::vector<cl_int> dst = read<cl_int>(out, n);
  std::map<cl_int, size_t> block;  // first packet of each writer -> its index
  for (size_t i = 0; i < items; ++i) block[src[4 * i]] = i;
  std::vector<bool> used(items, false);
  for (size_t j = 0; j < items; ++j) {
    auto found = block.find(dst[4 * j]);
    ASSERT_NE(found, block.end()) << "reader " << j;
    size_t i = found->second;
    EXPECT_FALSE(used[i]);
    used[i] = true;
    for (size_t k = 0; k < 4; ++k) EXPECT_EQ(dst[4 * j + k], src[4 * i + k]) << "reader " << j;
  }
}

TEST_F(PipeKernels, QueriesCountPackets) {
  const char *source = R"CLC(
kernel void fill(write_only pipe int p, int k, global uint *seen) {
  for (int i = 0; i < k; ++i) write_pipe(p, &i);
  seen[0] = get_pipe_num_packets(p);
  seen[1] = get_pipe_max_packets(p);
}
kernel void drain(read_only pipe int p, int k, global uint *seen) {
  seen[2] = get_pipe_num_packets(p);
  int v;
  for (int i = 0; i < k; ++i) read_pipe(p, &v);
  seen[3] = get_pipe_num_packets(p);
  seen[4] = get_pipe_max_packets(p);
}
)CLC";
  cl_kernel fill = kernel(source, "fill", "-cl-std=CL3.0"), drain = kernel(source, "drain", "-cl-std=CL3.0");
  ASSERT_TRUE(fill && drain);
  const cl_uint capacity = 77;
  const cl_int written = 50, drained = 20;
  cl_mem p = pipe(sizeof(cl_int), capacity), seen = buffer(CL_MEM_READ_WRITE, 5 * sizeof(cl_uint));
  ASSERT_TRUE(setArgs(fill, p, written, seen));
  ASSERT_TRUE(run(fill, {1}));
  ASSERT_TRUE(setArgs(drain, p, drained, seen));
  ASSERT_TRUE(run(drain, {1}));
  EXPECT_EQ(read<cl_uint>(seen, 5),
            (std::vector<cl_uint>{cl_uint(written), capacity, cl_uint(written), cl_uint(written - drained), capacity}));
}

// Packets of a struct, and of 1 KiB: copied whole.
TEST_F(PipeKernels, StructAndLargePackets) {
  const char *source = R"CLC(
typedef struct { char c; long l; float f[3]; } Small;
typedef struct { int v[256]; } Large;
kernel void produce(global const Small *s, global const Large *l, write_only pipe Small ps, write_only pipe Large pl) {
  size_t i = get_global_id(0);
  write_pipe(ps, &s[i]);
  write_pipe(pl, &l[i]);
}
kernel void consume(read_only pipe Small ps, read_only pipe Large pl, global Small *s, global Large *l) {
  size_t i = get_global_id(0);
  read_pipe(ps, &s[i]);
  read_pipe(pl, &l[i]);
}
)CLC";
  struct Small {
    cl_char c;
    cl_long l;
    cl_float f[3];
  };
  cl_kernel produce = kernel(source, "produce", "-cl-std=CL3.0"), consume = kernel(source, "consume", "-cl-std=CL3.0");
  ASSERT_TRUE(produce && consume);
  const size_t n = 64;
  std::vector<cl_int> large = randomValues<cl_int>(n * 256, -100000, 100000);
  std::vector<Small> small(n);
  for (size_t i = 0; i < n; ++i) small[i] = {cl_char(i), cl_long(i) << 40, {float(i), -float(i), 0.5f}};
  cl_mem ps = pipe(sizeof(Small), n), pl = pipe(256 * sizeof(cl_int), n);
  cl_mem s = bufferFrom(small), l = bufferFrom(large), so = buffer(CL_MEM_READ_WRITE, n * sizeof(Small)),
         lo = buffer(CL_MEM_READ_WRITE, large.size() * sizeof(cl_int));
  ASSERT_TRUE(setArgs(produce, s, l, ps, pl));
  ASSERT_TRUE(run(produce, {n}, {1}));
  ASSERT_TRUE(setArgs(consume, ps, pl, so, lo));
  ASSERT_TRUE(run(consume, {n}, {1}));
  // Unreserved packets of several writers come out in some order; each
  // Large packet must be one writer's whole, and each Small one too.
  std::vector<cl_int> largeOut = read<cl_int>(lo, large.size());
  std::map<cl_int, size_t> first;
  for (size_t i = 0; i < n; ++i) first[large[i * 256]] = i;
  for (size_t j = 0; j < n; ++j) {
    auto found = first.find(largeOut[j * 256]);
    ASSERT_NE(found, first.end());
    EXPECT_TRUE(std::equal(largeOut.begin() + j * 256, largeOut.begin() + (j + 1) * 256,
                           large.begin() + found->second * 256));
  }
  std::vector<Small> smallOut = read<Small>(so, n);
  std::vector<bool> seen(n, false);
  for (const Small &v : smallOut) {
    ASSERT_LT(size_t(cl_uchar(v.c)), n);
    size_t i = cl_uchar(v.c);
    EXPECT_FALSE(seen[i]);
    seen[i] = true;
    EXPECT_EQ(v.l, small[i].l);
    EXPECT_EQ(v.f[0], small[i].f[0]);
    EXPECT_EQ(v.f[1], small[i].f[1]);
    EXPECT_EQ(v.f[2], small[i].f[2]);
  }
}

// A producer and a consumer running at the same time through a pipe of 16
// packets: 20,000 packets pass, in order (one writer, one reader), with
// each side waiting for the other when the pipe is full or empty. A side
// that waits too long gives up and says so, rather than hang the test.
const char *kStreaming = R"CLC(
kernel void produce(global const int *src, int n, write_only pipe int p, global int *status) {
  for (int i = 0; i < n; ++i) {
    long tries = 0;
    while (write_pipe(p, &src[i]) != 0)
      if (++tries > 200000000L) { status[0] = i + 1; return; }
  }
}
kernel void consume(read_only pipe int p, int n, global int *dst, global int *status) {
  for (int i = 0; i < n; ++i) {
    long tries = 0;
    while (read_pipe(p, &dst[i]) != 0)
      if (++tries > 200000000L) { status[1] = i + 1; return; }
  }
}
)CLC";

TEST_F(PipeKernels, ProducerAndConsumerRunConcurrently) {
  cl_kernel produce = kernel(kStreaming, "produce", "-cl-std=CL3.0"),
            consume = kernel(kStreaming, "consume", "-cl-std=CL3.0");
  ASSERT_TRUE(produce && consume);
  const cl_int n = 20000;
  std::vector<cl_int> src = randomValues<cl_int>(n, -(1 << 30), 1 << 30);
  cl_command_queue other = makeQueue(0), outOfOrder = makeQueue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  ASSERT_TRUE(other && outOfOrder);
  struct Setup {
    const char *what;
    cl_command_queue producerQueue, consumerQueue;
  };
  for (Setup setup : {Setup{"two queues, consumer first", other, queue_}, Setup{"two queues", queue_, other},
                      Setup{"one out-of-order queue", outOfOrder, outOfOrder}}) {
    SCOPED_TRACE(setup.what);
    cl_mem p = pipe(sizeof(cl_int), 16);
    cl_mem in = bufferFrom(src), out = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int)),
           status = bufferFrom(std::vector<cl_int>{0, 0});
    ASSERT_TRUE(setArgs(produce, in, n, p, status));
    ASSERT_TRUE(setArgs(consume, p, n, out, status));
    const size_t one = 1;
    bool consumerFirst = setup.producerQueue == other;
    if (consumerFirst) ASSERT_CL(clEnqueueNDRangeKernel(setup.consumerQueue, consume, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
    ASSERT_CL(clEnqueueNDRangeKernel(setup.producerQueue, produce, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
    if (!consumerFirst) ASSERT_CL(clEnqueueNDRangeKernel(setup.consumerQueue, consume, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
    ASSERT_CL(clFlush(setup.producerQueue));
    ASSERT_CL(clFlush(setup.consumerQueue));
    ASSERT_CL(clFinish(setup.producerQueue));
    ASSERT_CL(clFinish(setup.consumerQueue));
    EXPECT_EQ(read<cl_int>(status, 2), (std::vector<cl_int>{0, 0}));
    EXPECT_EQ(read<cl_int>(out, n), src);
  }
}

}  // namespace
}  // namespace lockstep::test

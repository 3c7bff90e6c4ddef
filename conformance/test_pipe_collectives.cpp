// Pipes, the collective forms: work-group and sub-group reservations and
// commits. One reservation per group (sub-group), filled by index by its
// work-items: a reading group gets one writing group's packets, whole and in
// order, checked against the host's packets; a reservation that does not
// fit fails for every work-item of the group.
#include <map>

#include "PipeTest.h"

namespace lockstep::test {
namespace {

class PipeCollectives : public PipeKernels {};

// Work-group and sub-group reservations: one per group, the group's
// work-items fill it by index; a reading group gets one writing group's
// packets, whole and in order. `segment` is the group's or the sub-group's
// size, which the consumer reports.
void checkSegments(const std::vector<cl_int> &src, const std::vector<cl_int> &dst, size_t segment) {
  ASSERT_GT(segment, 0u);
  ASSERT_EQ(src.size() % segment, 0u);
  std::map<cl_int, size_t> first;
  for (size_t i = 0; i < src.size(); i += segment) first[src[i]] = i;
  std::vector<bool> used(src.size() / segment, false);
  for (size_t j = 0; j < dst.size(); j += segment) {
    auto found = first.find(dst[j]);
    ASSERT_NE(found, first.end()) << "segment at " << j;
    EXPECT_FALSE(used[found->second / segment]);
    used[found->second / segment] = true;
    for (size_t k = 0; k < segment; ++k) EXPECT_EQ(dst[j + k], src[found->second + k]) << "segment at " << j;
  }
}

TEST_F(PipeCollectives, WorkGroupReservations) {
  const char *source = R"CLC(
kernel void produce(global const int *src, write_only pipe int p, global int *status) {
  reserve_id_t r = work_group_reserve_write_pipe(p, get_local_size(0));
  if (is_valid_reserve_id(r)) {
    if (write_pipe(p, r, get_local_id(0), &src[get_global_id(0)]) != 0) atomic_inc(status);
    work_group_commit_write_pipe(p, r);
  } else if (get_local_id(0) == 0) {
    atomic_inc(status);
  }
}
kernel void consume(read_only pipe int p, global int *dst, global int *status) {
  reserve_id_t r = work_group_reserve_read_pipe(p, get_local_size(0));
  if (is_valid_reserve_id(r)) {
    if (read_pipe(p, r, get_local_id(0), &dst[get_global_id(0)]) != 0) atomic_inc(status);
    work_group_commit_read_pipe(p, r);
  } else if (get_local_id(0) == 0) {
    atomic_inc(status);
  }
}
)CLC";
  for (const std::string &options : languagesAndO0()) {
    for (size_t local : {size_t(1), size_t(16), size_t(64), size_t(256)}) {
      SCOPED_TRACE(options + " local " + std::to_string(local));
      cl_kernel produce = kernel(source, "produce", options), consume = kernel(source, "consume", options);
      ASSERT_TRUE(produce && consume);
      const size_t n = 64 * 256;
      std::vector<cl_int> src = distinctValues(n);
      cl_mem p = pipe(sizeof(cl_int), cl_uint(n));
      cl_mem in = bufferFrom(src), out = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int)),
             status = bufferFrom(std::vector<cl_int>{0});
      ASSERT_TRUE(setArgs(produce, in, p, status));
      ASSERT_TRUE(run(produce, {n}, {local}));
      ASSERT_TRUE(setArgs(consume, p, out, status));
      ASSERT_TRUE(run(consume, {n}, {local}));
      EXPECT_EQ(read<cl_int>(status, 1)[0], 0);
      checkSegments(src, read<cl_int>(out, n), local);
    }
  }
}

TEST_F(PipeCollectives, WorkGroupReservationFailsForTheWholeGroup) {
  // Room for two groups of 64: the other groups' reservations are not valid
  // for any of their work-items.
  const char *source = R"CLC(
kernel void produce(write_only pipe int p, global int *valid) {
  reserve_id_t r = work_group_reserve_write_pipe(p, get_local_size(0));
  valid[get_global_id(0)] = is_valid_reserve_id(r);
  if (is_valid_reserve_id(r)) {
    int v = (int)get_global_id(0);
    write_pipe(p, r, get_local_id(0), &v);
    work_group_commit_write_pipe(p, r);
  }
}
)CLC";
  cl_kernel produce = kernel(source, "produce", "-cl-std=CL3.0");
  ASSERT_NE(produce, nullptr);
  const size_t n = 64 * 10;
  cl_mem p = pipe(sizeof(cl_int), 128), valid = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
  ASSERT_TRUE(setArgs(produce, p, valid));
  ASSERT_TRUE(run(produce, {n}, {64}));
  std::vector<cl_int> v = read<cl_int>(valid, n);
  size_t groupsValid = 0;
  for (size_t g = 0; g < n / 64; ++g) {
    for (size_t i = 1; i < 64; ++i) EXPECT_EQ(v[g * 64 + i], v[g * 64]) << "group " << g;
    groupsValid += v[g * 64] != 0;
  }
  EXPECT_EQ(groupsValid, 2u);
}

TEST_F(PipeCollectives, SubGroupReservations) {
  const char *source = R"CLC(
kernel void produce(global const int *src, write_only pipe int p, global int *status) {
  reserve_id_t r = sub_group_reserve_write_pipe(p, get_sub_group_size());
  if (is_valid_reserve_id(r)) {
    if (write_pipe(p, r, get_sub_group_local_id(), &src[get_global_id(0)]) != 0) atomic_inc(status);
    sub_group_commit_write_pipe(p, r);
  } else if (get_sub_group_local_id() == 0) {
    atomic_inc(status);
  }
}
kernel void consume(read_only pipe int p, global int *dst, global int *status, global int *size) {
  reserve_id_t r = sub_group_reserve_read_pipe(p, get_sub_group_size());
  if (is_valid_reserve_id(r)) {
    if (read_pipe(p, r, get_sub_group_local_id(), &dst[get_global_id(0)]) != 0) atomic_inc(status);
    sub_group_commit_read_pipe(p, r);
  } else if (get_sub_group_local_id() == 0) {
    atomic_inc(status);
  }
  if (get_global_id(0) == 0) *size = get_sub_group_size();
}
)CLC";
  cl_kernel produce = kernel(source, "produce", "-cl-std=CL3.0"), consume = kernel(source, "consume", "-cl-std=CL3.0");
  ASSERT_TRUE(produce && consume);
  const size_t n = 64 * 128, local = 64;
  std::vector<cl_int> src = distinctValues(n);
  cl_mem p = pipe(sizeof(cl_int), cl_uint(n));
  cl_mem in = bufferFrom(src), out = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int)),
         status = bufferFrom(std::vector<cl_int>{0}), size = bufferFrom(std::vector<cl_int>{0});
  ASSERT_TRUE(setArgs(produce, in, p, status));
  ASSERT_TRUE(run(produce, {n}, {local}));
  ASSERT_TRUE(setArgs(consume, p, out, status, size));
  ASSERT_TRUE(run(consume, {n}, {local}));
  EXPECT_EQ(read<cl_int>(status, 1)[0], 0);
  cl_int subGroupSize = read<cl_int>(size, 1)[0];
  ASSERT_GT(subGroupSize, 0);
  EXPECT_EQ(local % size_t(subGroupSize), 0u);
  checkSegments(src, read<cl_int>(out, n), size_t(subGroupSize));
}

}  // namespace
}  // namespace lockstep::test

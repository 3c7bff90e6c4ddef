#include "SyncTest.h"

#include <sstream>

namespace lockstep::test::sync {

const char *const kPreamble = R"CLC(
#define LID ((uint)((get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) + \
                    get_local_id(0)))
#define LSZ ((uint)(get_local_size(0) * get_local_size(1) * get_local_size(2)))
#define GIDX ((uint)(((get_global_id(2) - get_global_offset(2)) * get_global_size(1) + \
                      (get_global_id(1) - get_global_offset(1))) * get_global_size(0) + \
                     (get_global_id(0) - get_global_offset(0))))
#define GRP ((uint)((get_group_id(2) * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) + \
                    get_group_id(0)))
#define NGRP ((uint)(get_num_groups(0) * get_num_groups(1) * get_num_groups(2)))
#line 1
)CLC";

bool Shape::uniform() const {
  for (int d = 0; d < 3; ++d)
    if (global[d] % local[d]) return false;
  return true;
}

std::string Shape::name() const {
  std::ostringstream out;
  auto list = [&](const std::array<size_t, 3> &v) {
    for (cl_uint d = 0; d < dims; ++d) out << (d ? "x" : "") << v[d];
  };
  out << "global ";
  list(global);
  out << " local ";
  list(local);
  out << " offset ";
  list(offset);
  return out.str();
}

std::vector<Group> groupsOf(const Shape &s) {
  std::vector<Group> groups;
  groups.reserve(s.groupCount());
  for (size_t gz = 0; gz < s.groups(2); ++gz)
    for (size_t gy = 0; gy < s.groups(1); ++gy)
      for (size_t gx = 0; gx < s.groups(0); ++gx) {
        Group group;
        group.id = {gx, gy, gz};
        group.linearId = (gz * s.groups(1) + gy) * s.groups(0) + gx;
        for (int d = 0; d < 3; ++d)
          group.size[d] = std::min(s.local[d], s.global[d] - group.id[d] * s.local[d]);
        for (size_t lz = 0; lz < group.size[2]; ++lz)
          for (size_t ly = 0; ly < group.size[1]; ++ly)
            for (size_t lx = 0; lx < group.size[0]; ++lx) {
              Item item;
              item.local = {lx, ly, lz};
              std::array<size_t, 3> rel;
              for (int d = 0; d < 3; ++d) {
                rel[d] = group.id[d] * s.local[d] + item.local[d];
                item.global[d] = rel[d] + s.offset[d];
              }
              item.index = (rel[2] * s.global[1] + rel[1]) * s.global[0] + rel[0];
              group.items.push_back(item);
            }
        groups.push_back(std::move(group));
      }
  return groups;
}

Shape shapeN(cl_uint dims, std::array<size_t, 3> global, std::array<size_t, 3> local,
             std::array<size_t, 3> offset) {
  Shape s;
  s.dims = dims;
  s.global = global;
  s.local = local;
  s.offset = offset;
  return s;
}

namespace {
Shape shape1(size_t global, size_t local, size_t offset) {
  Shape s;
  s.global[0] = global;
  s.local[0] = local;
  s.offset[0] = offset;
  return s;
}
}  // namespace

std::vector<Shape> linearShapes() {
  return {shape1(23, 1, 0), shape1(7 * 13, 7, 3), shape1(64 * 6, 64, 0),
          shape1(256 * 3, 256, 1000)};
}

std::vector<Shape> multiDimShapes() {
  return {
      shape1(48 * 4 + 19, 48, 5),                                  // 1D, remainder group of 19
      shapeN(2, {16 * 3, 16 * 2, 1}, {16, 16, 1}, {0, 0, 0}),      // 2D, 256 per group
      shapeN(2, {8 * 3 + 5, 8 * 2 + 3, 1}, {8, 8, 1}, {2, 7, 0}),  // 2D remainders
      shapeN(3, {4 * 2 + 3, 4 * 2 + 1, 4 + 2}, {4, 4, 4}, {1, 2, 3}),
      shapeN(3, {7 * 2 + 6, 3 * 2 + 1, 2 * 2}, {7, 3, 2}, {0, 0, 5}),  // 42 items, not 2^k
      // Rows of 16 (a version of their own) beside remainder groups along
      // every dimension.
      shapeN(3, {16 * 2 + 5, 3 * 2 + 1, 3}, {16, 3, 2}, {1, 0, 2}),
  };
}

std::vector<Shape> allShapes(cl_device_id device) {
  std::vector<Shape> shapes = linearShapes();
  cl_bool nonUniform = deviceInfo<cl_bool>(device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT);
  for (const Shape &s : multiDimShapes())
    if (nonUniform || s.uniform()) shapes.push_back(s);
  return shapes;
}

::testing::AssertionResult SyncTest::launch(cl_kernel kernel, const Shape &shape) {
  cl_int err = clEnqueueNDRangeKernel(queue_, kernel, shape.dims, shape.offset.data(),
                                      shape.global.data(), shape.local.data(), 0, nullptr, nullptr);
  if (err != CL_SUCCESS)
    return ::testing::AssertionFailure() << errorName(err) << " from clEnqueueNDRangeKernel";
  err = clFinish(queue_);
  if (err != CL_SUCCESS) return ::testing::AssertionFailure() << errorName(err) << " from clFinish";
  return ::testing::AssertionSuccess();
}

bool SyncTest::fits(cl_kernel kernel, const Shape &shape) {
  size_t limit = kernelMaxGroupSize(kernel);
  auto itemSizes = std::array<size_t, 3>{};
  clGetDeviceInfo(device_, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof itemSizes, itemSizes.data(),
                  nullptr);
  bool ok = shape.groupItems() <= limit;
  for (cl_uint d = 0; d < shape.dims; ++d) ok = ok && shape.local[d] <= itemSizes[d];
  // Not a failure: the device may limit group sizes; say so in the log.
  if (!ok)
    std::printf("[ note ] skipping shape %s: group size limit %zu\n", shape.name().c_str(), limit);
  return ok;
}

bool SyncTest::hasFeature(const std::string &feature) {
  if (feature.rfind("cl_", 0) == 0)
    return (" " + deviceString(device_, CL_DEVICE_EXTENSIONS) + " ").find(" " + feature + " ") !=
           std::string::npos;
  size_t bytes = 0;
  if (clGetDeviceInfo(device_, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &bytes) != CL_SUCCESS)
    return false;
  std::vector<cl_name_version> features(bytes / sizeof(cl_name_version));
  clGetDeviceInfo(device_, CL_DEVICE_OPENCL_C_FEATURES, bytes, features.data(), nullptr);
  for (const cl_name_version &f : features)
    if (feature == f.name) return true;
  return false;
}

std::vector<int> SyncTest::randomInts(size_t n, int lo, int hi) {
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<int> out(n);
  for (int &v : out) v = dist(rng_);
  return out;
}

const char *const kSubGroupSizeKernel = R"CLC(
kernel void sg_max(global uint *out) {
  if (GIDX == 0) out[0] = get_max_sub_group_size();
}
)CLC";

void SubGroupTest::SetUp() {
  SyncTest::SetUp();
  if (!hasFeature("__opencl_c_subgroups") && !hasFeature("cl_khr_subgroups")) GTEST_SKIP() << "no sub-groups";
}

cl_uint SubGroupTest::maxSubGroupSize(cl_program program, const Shape &shape) {
  cl_kernel k = kernelOf(program, "sg_max");
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, sizeof(cl_uint));
  EXPECT_CL(setKernelArgs(k, 0, out));
  EXPECT_TRUE(launch(k, shape));
  return read<cl_uint>(out, 1)[0];
}

}  // namespace lockstep::test::sync

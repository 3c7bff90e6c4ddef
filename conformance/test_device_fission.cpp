// cl_ext_device_fission as its own API: the functions found through
// clGetExtensionFunctionAddressForPlatform, its device queries (parent,
// partition types, affinity domains, reference count, partition style),
// each checked against the core query it restates, and its error codes
// (CL_DEVICE_PARTITION_FAILED_EXT, CL_INVALID_PARTITION_COUNT_EXT).
// test_device_partition.cpp covers the devices the calls make.
#include <CL/cl_ext.h>

#include <string>
#include <vector>

#include "ClTest.h"

namespace lockstep::test {
namespace {

using ExtList = std::vector<cl_device_partition_property_ext>;

class DeviceFission : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = testDevice();
    ASSERT_NE(root_, nullptr);
    ASSERT_NE(deviceString(root_, CL_DEVICE_EXTENSIONS).find("cl_ext_device_fission"), std::string::npos);
    cl_platform_id platform = testPlatform();
    create_ = reinterpret_cast<clCreateSubDevicesEXT_fn>(
        clGetExtensionFunctionAddressForPlatform(platform, "clCreateSubDevicesEXT"));
    retain_ = reinterpret_cast<clRetainDeviceEXT_fn>(
        clGetExtensionFunctionAddressForPlatform(platform, "clRetainDeviceEXT"));
    release_ = reinterpret_cast<clReleaseDeviceEXT_fn>(
        clGetExtensionFunctionAddressForPlatform(platform, "clReleaseDeviceEXT"));
    ASSERT_NE(create_, nullptr);
    ASSERT_NE(retain_, nullptr);
    ASSERT_NE(release_, nullptr);
    units_ = deviceInfo<cl_uint>(root_, CL_DEVICE_MAX_COMPUTE_UNITS);
  }

  static ExtList extList(cl_device_id device, cl_device_info param) {
    size_t size = 0;
    EXPECT_CL(clGetDeviceInfo(device, param, 0, nullptr, &size));
    EXPECT_EQ(size % sizeof(cl_device_partition_property_ext), 0u);
    ExtList list(size / sizeof(cl_device_partition_property_ext));
    EXPECT_CL(clGetDeviceInfo(device, param, size, list.data(), nullptr));
    return list;
  }

  std::vector<cl_device_id> create(const ExtList &properties) {
    cl_uint count = 0;
    EXPECT_CL(create_(root_, properties.data(), 0, nullptr, &count));
    std::vector<cl_device_id> devices(count);
    EXPECT_CL(create_(root_, properties.data(), count, devices.data(), nullptr));
    return devices;
  }

  cl_device_id root_ = nullptr;
  cl_uint units_ = 0;
  clCreateSubDevicesEXT_fn create_ = nullptr;
  clRetainDeviceEXT_fn retain_ = nullptr;
  clReleaseDeviceEXT_fn release_ = nullptr;
};

// The root device: no parent, reference count 1, a style of just the
// terminator, and the core query's partition types and affinity domains in
// the extension's values.
TEST_F(DeviceFission, RootDeviceQueries) {
  EXPECT_EQ(deviceInfo<cl_device_id>(root_, CL_DEVICE_PARENT_DEVICE_EXT), nullptr);
  EXPECT_EQ(deviceInfo<cl_uint>(root_, CL_DEVICE_REFERENCE_COUNT_EXT), 1u);
  EXPECT_EQ(extList(root_, CL_DEVICE_PARTITION_STYLE_EXT), ExtList{CL_PROPERTIES_LIST_END_EXT});

  size_t size = 0;
  ASSERT_CL(clGetDeviceInfo(root_, CL_DEVICE_PARTITION_PROPERTIES, 0, nullptr, &size));
  std::vector<cl_device_partition_property> core(size / sizeof(cl_device_partition_property));
  ASSERT_CL(clGetDeviceInfo(root_, CL_DEVICE_PARTITION_PROPERTIES, size, core.data(), nullptr));
  ExtList expected;
  for (cl_device_partition_property type : core) {
    if (type == CL_DEVICE_PARTITION_EQUALLY) expected.push_back(CL_DEVICE_PARTITION_EQUALLY_EXT);
    if (type == CL_DEVICE_PARTITION_BY_COUNTS) expected.push_back(CL_DEVICE_PARTITION_BY_COUNTS_EXT);
    if (type == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN)
      expected.push_back(CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN_EXT);
  }
  expected.push_back(CL_PROPERTIES_LIST_END_EXT);
  EXPECT_EQ(extList(root_, CL_DEVICE_PARTITION_TYPES_EXT), expected);

  auto domains = deviceInfo<cl_device_affinity_domain>(root_, CL_DEVICE_PARTITION_AFFINITY_DOMAIN);
  ExtList expectedDomains;
  const std::pair<cl_device_affinity_domain, cl_device_partition_property_ext> names[] = {
      {CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE, CL_AFFINITY_DOMAIN_L1_CACHE_EXT},
      {CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, CL_AFFINITY_DOMAIN_L2_CACHE_EXT},
      {CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, CL_AFFINITY_DOMAIN_L3_CACHE_EXT},
      {CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE, CL_AFFINITY_DOMAIN_L4_CACHE_EXT},
      {CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_AFFINITY_DOMAIN_NUMA_EXT},
      {CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, CL_AFFINITY_DOMAIN_NEXT_FISSIONABLE_EXT}};
  for (auto [domain, ext] : names)
    if (domains & domain) expectedDomains.push_back(ext);
  expectedDomains.push_back(CL_PROPERTIES_LIST_END_EXT);
  EXPECT_EQ(extList(root_, CL_DEVICE_AFFINITY_DOMAINS_EXT), expectedDomains);
}

// Sub-devices made by the extension report their parent, the properties
// they were made with and their reference count through its queries.
TEST_F(DeviceFission, SubDeviceQueries) {
  if (units_ < 2) GTEST_SKIP() << "one compute unit: nothing to partition";
  std::vector<cl_device_id> equal = create({CL_DEVICE_PARTITION_EQUALLY_EXT, 1, CL_PROPERTIES_LIST_END_EXT});
  ASSERT_EQ(equal.size(), units_);
  for (cl_device_id sub : equal) {
    EXPECT_EQ(deviceInfo<cl_device_id>(sub, CL_DEVICE_PARENT_DEVICE_EXT), root_);
    EXPECT_EQ(extList(sub, CL_DEVICE_PARTITION_STYLE_EXT),
              (ExtList{CL_DEVICE_PARTITION_EQUALLY_EXT, 1, CL_PROPERTIES_LIST_END_EXT}));
    EXPECT_EQ(deviceInfo<cl_uint>(sub, CL_DEVICE_MAX_COMPUTE_UNITS), 1u);
  }
  cl_device_id sub = equal[0];
  EXPECT_EQ(deviceInfo<cl_uint>(sub, CL_DEVICE_REFERENCE_COUNT_EXT), 1u);
  ASSERT_CL(retain_(sub));
  EXPECT_EQ(deviceInfo<cl_uint>(sub, CL_DEVICE_REFERENCE_COUNT_EXT), 2u);
  EXPECT_EQ(deviceInfo<cl_uint>(sub, CL_DEVICE_REFERENCE_COUNT), 2u);
  ASSERT_CL(release_(sub));
  EXPECT_EQ(deviceInfo<cl_uint>(sub, CL_DEVICE_REFERENCE_COUNT_EXT), 1u);
  // The root device: retain and release succeed and change nothing.
  EXPECT_CL(retain_(root_));
  EXPECT_CL(release_(root_));
  EXPECT_EQ(deviceInfo<cl_uint>(root_, CL_DEVICE_REFERENCE_COUNT_EXT), 1u);

  std::vector<cl_device_id> counted = create(
      {CL_DEVICE_PARTITION_BY_COUNTS_EXT, 1, CL_PARTITION_BY_COUNTS_LIST_END_EXT, CL_PROPERTIES_LIST_END_EXT});
  ASSERT_EQ(counted.size(), 1u);
  EXPECT_EQ(extList(counted[0], CL_DEVICE_PARTITION_STYLE_EXT),
            (ExtList{CL_DEVICE_PARTITION_BY_COUNTS_EXT, 1, CL_PARTITION_BY_COUNTS_LIST_END_EXT,
                     CL_PROPERTIES_LIST_END_EXT}));
  // A sub-device of the sub-device names its own parent.
  std::vector<cl_device_id> pair = create({CL_DEVICE_PARTITION_BY_COUNTS_EXT, 2,
                                           CL_PARTITION_BY_COUNTS_LIST_END_EXT, CL_PROPERTIES_LIST_END_EXT});
  ASSERT_EQ(pair.size(), 1u);
  const cl_device_partition_property_ext halves[] = {CL_DEVICE_PARTITION_EQUALLY_EXT, 1,
                                                     CL_PROPERTIES_LIST_END_EXT};
  cl_device_id grandchildren[2] = {};
  ASSERT_CL(create_(pair[0], halves, 2, grandchildren, nullptr));
  for (cl_device_id child : grandchildren) {
    EXPECT_EQ(deviceInfo<cl_device_id>(child, CL_DEVICE_PARENT_DEVICE_EXT), pair[0]);
    EXPECT_CL(release_(child));
  }
  EXPECT_CL(release_(pair[0]));
  for (cl_device_id device : equal) EXPECT_CL(release_(device));
  for (cl_device_id device : counted) EXPECT_CL(release_(device));
}

// The extension's codes where the core call has its own.
TEST_F(DeviceFission, Errors) {
  cl_uint count = 0;
  auto request = [&](const ExtList &properties) { return create_(root_, properties.data(), 0, nullptr, &count); };
  const auto units = cl_device_partition_property_ext(units_);
  EXPECT_CL_ERROR(CL_INVALID_PARTITION_COUNT_EXT,
                  request({CL_DEVICE_PARTITION_EQUALLY_EXT, units + 1, CL_PROPERTIES_LIST_END_EXT}));
  EXPECT_CL_ERROR(CL_DEVICE_PARTITION_FAILED_EXT,
                  request({CL_DEVICE_PARTITION_EQUALLY_EXT, units, CL_PROPERTIES_LIST_END_EXT}));
  EXPECT_CL_ERROR(CL_INVALID_PARTITION_COUNT_EXT,
                  request({CL_DEVICE_PARTITION_BY_COUNTS_EXT, units + 1, CL_PARTITION_BY_COUNTS_LIST_END_EXT,
                           CL_PROPERTIES_LIST_END_EXT}));
  EXPECT_CL_ERROR(CL_INVALID_PARTITION_COUNT_EXT,
                  request({CL_DEVICE_PARTITION_BY_COUNTS_EXT, CL_PARTITION_BY_COUNTS_LIST_END_EXT,
                           CL_PROPERTIES_LIST_END_EXT}));
  // Values that are no partition, or one not offered (by names).
  EXPECT_CL_ERROR(CL_INVALID_VALUE, request({CL_PROPERTIES_LIST_END_EXT}));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, request({CL_DEVICE_PARTITION_EQUALLY_EXT, 0, CL_PROPERTIES_LIST_END_EXT}));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, request({CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN_EXT, 0x7,
                                             CL_PROPERTIES_LIST_END_EXT}));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, request({CL_DEVICE_PARTITION_BY_NAMES_EXT, 0,
                                             CL_PARTITION_BY_NAMES_LIST_END_EXT, CL_PROPERTIES_LIST_END_EXT}));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, create_(root_, nullptr, 0, nullptr, &count));
  if (units_ >= 2) {
    const cl_device_partition_property_ext equally[] = {CL_DEVICE_PARTITION_EQUALLY_EXT, 1,
                                                        CL_PROPERTIES_LIST_END_EXT};
    cl_device_id one = nullptr;
    EXPECT_CL_ERROR(CL_INVALID_VALUE, create_(root_, equally, 1, &one, nullptr));
    EXPECT_EQ(one, nullptr);
  }
  const cl_device_partition_property_ext equally1[] = {CL_DEVICE_PARTITION_EQUALLY_EXT, 1,
                                                       CL_PROPERTIES_LIST_END_EXT};
  EXPECT_CL_ERROR(CL_INVALID_DEVICE, create_(nullptr, equally1, 0, nullptr, &count));
  EXPECT_CL_ERROR(CL_INVALID_DEVICE, retain_(nullptr));
  EXPECT_CL_ERROR(CL_INVALID_DEVICE, release_(nullptr));
}

}  // namespace
}  // namespace lockstep::test

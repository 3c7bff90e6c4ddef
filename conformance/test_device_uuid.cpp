// cl_khr_device_uuid: the device's and the driver's UUIDs are 16 bytes, the
// same on every query and in another process (this binary run again for
// the one test), not all zero; sub-devices have their own UUIDs, one per set
// of CPUs, and share the driver's; the LUID is not valid; too small a
// param_value_size is CL_INVALID_VALUE.
#include <CL/cl_ext.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "ClTest.h"

extern char **environ;

namespace lockstep::test {
namespace {

namespace fs = std::filesystem;
using Uuid = std::array<cl_uchar, CL_UUID_SIZE_KHR>;

constexpr const char *kChildVariable = "LOCKSTEP_DEVICE_UUID_TEST_OUT";

Uuid uuidOf(cl_device_id device, cl_device_info param) {
  Uuid id{};
  size_t size = 0;
  EXPECT_CL(clGetDeviceInfo(device, param, id.size(), id.data(), &size));
  EXPECT_EQ(size, size_t(CL_UUID_SIZE_KHR));
  return id;
}

std::string hex(const Uuid &id) {
  std::string text;
  char byte[3];
  for (cl_uchar c : id) {
    std::snprintf(byte, sizeof byte, "%02x", unsigned(c));
    text += byte;
  }
  return text;
}

bool allZero(const Uuid &id) {
  for (cl_uchar c : id)
    if (c) return false;
  return true;
}

TEST(DeviceUuid, Listed) {
  EXPECT_NE(deviceString(testDevice(), CL_DEVICE_EXTENSIONS).find("cl_khr_device_uuid"), std::string::npos);
  EXPECT_NE(platformString(testPlatform(), CL_PLATFORM_EXTENSIONS).find("cl_khr_device_uuid"), std::string::npos);
}

TEST(DeviceUuid, StableAndNotEmpty) {
  cl_device_id device = testDevice();
  for (cl_device_info param : {cl_device_info(CL_DEVICE_UUID_KHR), cl_device_info(CL_DRIVER_UUID_KHR)}) {
    Uuid first = uuidOf(device, param);
    EXPECT_FALSE(allZero(first));
    EXPECT_EQ(uuidOf(device, param), first);
    // Too small a buffer; the size alone.
    cl_uchar small[CL_UUID_SIZE_KHR - 1];
    EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetDeviceInfo(device, param, sizeof small, small, nullptr));
    size_t size = 0;
    EXPECT_CL(clGetDeviceInfo(device, param, 0, nullptr, &size));
    EXPECT_EQ(size, size_t(CL_UUID_SIZE_KHR));
  }
  EXPECT_NE(uuidOf(device, CL_DEVICE_UUID_KHR), uuidOf(device, CL_DRIVER_UUID_KHR));
}

TEST(DeviceUuid, NoLocallyUniqueId) {
  cl_device_id device = testDevice();
  EXPECT_EQ(deviceInfo<cl_bool>(device, CL_DEVICE_LUID_VALID_KHR), cl_bool(CL_FALSE));
  size_t size = 0;
  cl_uchar luid[CL_LUID_SIZE_KHR];
  EXPECT_CL(clGetDeviceInfo(device, CL_DEVICE_LUID_KHR, sizeof luid, luid, &size));
  EXPECT_EQ(size, size_t(CL_LUID_SIZE_KHR));
  cl_uint mask = 0;
  EXPECT_CL(clGetDeviceInfo(device, CL_DEVICE_NODE_MASK_KHR, sizeof mask, &mask, &size));
  EXPECT_EQ(size, sizeof(cl_uint));
}

// Another process (this binary, running only this test with kChildVariable
// naming a file) writes the UUIDs it sees; they are this process's.
TEST(DeviceUuid, SameInAnotherProcess) {
  cl_device_id device = testDevice();
  std::string ours = hex(uuidOf(device, CL_DEVICE_UUID_KHR)) + " " + hex(uuidOf(device, CL_DRIVER_UUID_KHR));
  if (const char *out = std::getenv(kChildVariable); out && *out) {
    std::ofstream(out) << ours;
    return;
  }
  std::string pattern = (fs::temp_directory_path() / "lockstep-uuid-XXXXXX").string();
  int fd = mkstemp(pattern.data());
  ASSERT_GE(fd, 0) << std::strerror(errno);
  close(fd);
  std::vector<std::string> environment = {std::string(kChildVariable) + "=" + pattern};
  for (char **entry = environ; *entry; ++entry)
    if (std::strncmp(*entry, kChildVariable, std::strlen(kChildVariable)) != 0) environment.push_back(*entry);
  std::vector<char *> envp;
  for (std::string &entry : environment) envp.push_back(entry.data());
  envp.push_back(nullptr);
  std::string program = fs::read_symlink("/proc/self/exe").string();
  std::string filter = "--gtest_filter=DeviceUuid.SameInAnotherProcess";
  char *argv[] = {program.data(), filter.data(), nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  int error = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ASSERT_EQ(error, 0) << "posix_spawn: " << std::strerror(error);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  std::string theirs;
  std::getline(std::ifstream(pattern), theirs);
  fs::remove(pattern);
  EXPECT_EQ(theirs, ours);
}

// Sub-devices: one UUID per CPU set, none the root's; partitioning the same
// CPUs again gives the same UUIDs; the driver is the same.
TEST(DeviceUuid, SubDevicesHaveTheirOwn) {
  cl_device_id root = testDevice();
  cl_uint units = deviceInfo<cl_uint>(root, CL_DEVICE_MAX_COMPUTE_UNITS);
  if (units < 2) GTEST_SKIP() << "one compute unit: nothing to partition";
  const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  auto partition = [&](std::vector<cl_device_id> &subs) {
    cl_uint count = 0;
    ASSERT_CL(clCreateSubDevices(root, equally, 0, nullptr, &count));
    subs.resize(count);
    ASSERT_CL(clCreateSubDevices(root, equally, count, subs.data(), nullptr));
  };
  std::vector<cl_device_id> first, second;
  partition(first);
  partition(second);
  ASSERT_EQ(first.size(), second.size());
  std::set<Uuid> seen = {uuidOf(root, CL_DEVICE_UUID_KHR)};
  for (size_t i = 0; i < first.size(); ++i) {
    Uuid id = uuidOf(first[i], CL_DEVICE_UUID_KHR);
    EXPECT_TRUE(seen.insert(id).second) << "sub-device " << i << " repeats a UUID";
    EXPECT_EQ(uuidOf(second[i], CL_DEVICE_UUID_KHR), id) << "sub-device " << i;
    EXPECT_EQ(uuidOf(first[i], CL_DRIVER_UUID_KHR), uuidOf(root, CL_DRIVER_UUID_KHR));
  }
  // A sub-device of two CPUs differs from each of its one-CPU sub-devices.
  const cl_device_partition_property two[] = {CL_DEVICE_PARTITION_BY_COUNTS, 2,
                                              CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  cl_device_id pair = nullptr;
  ASSERT_CL(clCreateSubDevices(root, two, 1, &pair, nullptr));
  EXPECT_TRUE(seen.insert(uuidOf(pair, CL_DEVICE_UUID_KHR)).second);
  for (cl_device_id sub : first) clReleaseDevice(sub);
  for (cl_device_id sub : second) clReleaseDevice(sub);
  clReleaseDevice(pair);
}

}  // namespace
}  // namespace lockstep::test

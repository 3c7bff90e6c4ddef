// The fixture of the shared virtual memory tests (test_svm.cpp: allocation
// and the SVM commands; test_svm_kernels.cpp: kernels over SVM and host
// memory): a test context on a device that offers every kind of SVM, and
// the helpers both files use.
#pragma once

#include "ClTest.h"

namespace lockstep::test {

inline constexpr cl_device_svm_capabilities kAllSvm =
    CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
    CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS;

class SvmTest : public ClTest {
 protected:
  void SetUp() override {
    ClTest::SetUp();
    if (HasFatalFailure()) return;
    if (deviceInfo<cl_device_svm_capabilities>(device_, CL_DEVICE_SVM_CAPABILITIES) != kAllSvm)
      GTEST_SKIP() << "the device does not offer every kind of SVM";
  }
  // An allocation the context frees when the test releases it, if the test
  // did not free it itself.
  template <typename T = char>
  T *alloc(size_t count, cl_svm_mem_flags flags = CL_MEM_READ_WRITE, cl_uint alignment = 0) {
    void *p = clSVMAlloc(context_, flags, count * sizeof(T), alignment);
    EXPECT_NE(p, nullptr) << "clSVMAlloc of " << count * sizeof(T) << " bytes";
    return static_cast<T *>(p);
  }
  // Whether `pointer` lies in an SVM allocation of the context, with
  // `bytes` of it from there: a migration of that range is refused
  // otherwise.
  bool inAllocation(const void *pointer, size_t bytes) {
    const void *list[] = {pointer};
    return clEnqueueSVMMigrateMem(queue_, 1, list, &bytes, 0, 0, nullptr, nullptr) == CL_SUCCESS;
  }
};

// A kernel that scales an int array in place and adds each index.
inline const char *const kScaleSource = R"CLC(
kernel void scale(global int *data, int factor) {
  size_t i = get_global_id(0);
  data[i] = data[i] * factor + (int)i;
}
)CLC";

}  // namespace lockstep::test

// The fixture of the pipe kernel tests (test_pipe_kernels.cpp,
// test_pipe_collectives.cpp): pipes of the test's context, distinct packet
// values, and the OpenCL C versions with pipes the device offers.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "ClTest.h"

namespace lockstep::test {

class PipeKernels : public ClTest {
 protected:
  cl_mem pipe(cl_uint packetSize, cl_uint maxPackets) {
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreatePipe(context_, 0, packetSize, maxPackets, nullptr, &err);
    EXPECT_EQ(err, CL_SUCCESS) << errorName(err);
    return mem ? track(mem) : nullptr;
  }
  // Distinct packet values, in a random order.
  std::vector<cl_int> distinctValues(size_t n) {
    std::vector<cl_int> values(n);
    for (size_t i = 0; i < n; ++i) values[i] = cl_int(i * 7919 + 13);
    std::shuffle(values.begin(), values.end(), rng_);
    return values;
  }
  // The OpenCL C versions with pipes the device offers: 3.0, and 2.0 once
  // every feature it requires is there.
  std::vector<std::string> languages() {
    std::vector<std::string> out = {"-cl-std=CL3.0"};
    if (offersOpenCLC(2, 0)) out.push_back("-cl-std=CL2.0");
    return out;
  }
  // And unoptimized (pipe and reserve id values in allocas and loads).
  std::vector<std::string> languagesAndO0() {
    std::vector<std::string> out = languages();
    out.push_back("-cl-std=CL3.0 -cl-opt-disable");
    return out;
  }
  static std::vector<cl_int> sorted(std::vector<cl_int> v) {
    std::sort(v.begin(), v.end());
    return v;
  }
};

}  // namespace lockstep::test

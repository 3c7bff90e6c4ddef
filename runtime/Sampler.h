// A sampler: how a kernel's read_image* call addresses and filters an image.
// Kernels never see the object, only its bits (ImageAbi.h), which clSetKernelArg
// copies into the argument block.
#pragma once

#include <cstdint>
#include <vector>

#include "Object.h"

struct _cl_sampler
    : lockstep::runtime::Object<_cl_sampler, lockstep::runtime::Tag::Sampler, CL_INVALID_SAMPLER> {
  // Values validated by the caller; `properties` as the application gave
  // them (with the terminating 0), or empty (clCreateSampler, or none given).
  _cl_sampler(cl_context context, cl_bool normalizedCoords, cl_addressing_mode addressing,
              cl_filter_mode filter, std::vector<cl_sampler_properties> properties);
  ~_cl_sampler();

  cl_context context() const { return context_; }
  cl_bool normalizedCoords() const { return normalizedCoords_; }
  cl_addressing_mode addressingMode() const { return addressing_; }
  cl_filter_mode filterMode() const { return filter_; }
  const std::vector<cl_sampler_properties> &properties() const { return properties_; }

  // The sampler as a kernel argument: OpenCL C's CLK_* bits.
  uint32_t bits() const;

 private:
  cl_context context_;
  cl_bool normalizedCoords_;
  cl_addressing_mode addressing_;
  cl_filter_mode filter_;
  std::vector<cl_sampler_properties> properties_;
};

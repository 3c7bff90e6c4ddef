#include "Sampler.h"

#include "Context.h"
#include "lockstep/compiler/ImageAbi.h"

_cl_sampler::_cl_sampler(cl_context context, cl_bool normalizedCoords,
                         cl_addressing_mode addressing, cl_filter_mode filter,
                         std::vector<cl_sampler_properties> properties)
    : context_(context),
      normalizedCoords_(normalizedCoords),
      addressing_(addressing),
      filter_(filter),
      properties_(std::move(properties)) {
  context_->retainInternal();
}

_cl_sampler::~_cl_sampler() { context_->releaseInternal(); }

uint32_t _cl_sampler::bits() const {
  uint32_t bits = normalizedCoords_ ? LOCKSTEP_SAMPLER_NORMALIZED_COORDS : 0;
  switch (addressing_) {
    case CL_ADDRESS_CLAMP_TO_EDGE:
      bits |= LOCKSTEP_SAMPLER_ADDRESS_CLAMP_TO_EDGE;
      break;
    case CL_ADDRESS_CLAMP:
      bits |= LOCKSTEP_SAMPLER_ADDRESS_CLAMP;
      break;
    case CL_ADDRESS_REPEAT:
      bits |= LOCKSTEP_SAMPLER_ADDRESS_REPEAT;
      break;
    case CL_ADDRESS_MIRRORED_REPEAT:
      bits |= LOCKSTEP_SAMPLER_ADDRESS_MIRRORED_REPEAT;
      break;
    default:  // CL_ADDRESS_NONE
      bits |= LOCKSTEP_SAMPLER_ADDRESS_NONE;
  }
  bits |= filter_ == CL_FILTER_LINEAR ? LOCKSTEP_SAMPLER_FILTER_LINEAR
                                      : LOCKSTEP_SAMPLER_FILTER_NEAREST;
  return bits;
}

// Samplers: creation, queries, reference counts. Each entry point validates
// its arguments in the order the OpenCL 3.0 API specification lists them.
#include "Sampler.h"

#include <vector>

#include "Context.h"
#include "api/entry_points.h"

using namespace lockstep::runtime;

namespace lockstep::api {

namespace {

struct SamplerSettings {
  cl_bool normalizedCoords = CL_TRUE;  // the spec's defaults
  cl_addressing_mode addressing = CL_ADDRESS_CLAMP;
  cl_filter_mode filter = CL_FILTER_NEAREST;
};

bool isAddressingMode(cl_ulong mode) {
  return mode == CL_ADDRESS_NONE || mode == CL_ADDRESS_CLAMP_TO_EDGE || mode == CL_ADDRESS_CLAMP ||
         mode == CL_ADDRESS_REPEAT || mode == CL_ADDRESS_MIRRORED_REPEAT;
}

bool isFilterMode(cl_ulong mode) { return mode == CL_FILTER_NEAREST || mode == CL_FILTER_LINEAR; }

// "CL_INVALID_VALUE if the property name in sampler_properties is not a
// supported property name, if the value specified for a supported property
// name is not valid, or if the same property name is specified more than
// once."
SamplerSettings parseProperties(const cl_sampler_properties *properties) {
  SamplerSettings settings;
  bool seen[3] = {};
  for (const cl_sampler_properties *p = properties; p && p[0] != 0; p += 2) {
    cl_sampler_properties value = p[1];
    int which = -1;
    switch (p[0]) {
      case CL_SAMPLER_NORMALIZED_COORDS:
        which = 0;
        check(value == CL_TRUE || value == CL_FALSE, CL_INVALID_VALUE);
        settings.normalizedCoords = cl_bool(value);
        break;
      case CL_SAMPLER_ADDRESSING_MODE:
        which = 1;
        check(isAddressingMode(value), CL_INVALID_VALUE);
        settings.addressing = cl_addressing_mode(value);
        break;
      case CL_SAMPLER_FILTER_MODE:
        which = 2;
        check(isFilterMode(value), CL_INVALID_VALUE);
        settings.filter = cl_filter_mode(value);
        break;
      default:
        fail(CL_INVALID_VALUE);
    }
    check(!seen[which], CL_INVALID_VALUE);
    seen[which] = true;
  }
  return settings;
}

}  // namespace

cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized_coords,
                                       cl_addressing_mode addressing_mode,
                                       cl_filter_mode filter_mode, cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&]() -> cl_sampler {
    checked(context);
    // "CL_INVALID_VALUE if addressing_mode, filter_mode, normalized_coords
    // or a combination of these arguments are not valid."
    check(normalized_coords == CL_TRUE || normalized_coords == CL_FALSE, CL_INVALID_VALUE);
    check(isAddressingMode(addressing_mode), CL_INVALID_VALUE);
    check(isFilterMode(filter_mode), CL_INVALID_VALUE);
    // Every device supports images, so no CL_INVALID_OPERATION.
    return new _cl_sampler(context, normalized_coords, addressing_mode, filter_mode, {});
  });
}

cl_sampler CL_API_CALL clCreateSamplerWithProperties(
    cl_context context, const cl_sampler_properties *sampler_properties, cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&]() -> cl_sampler {
    checked(context);
    SamplerSettings settings = parseProperties(sampler_properties);
    // CL_SAMPLER_PROPERTIES returns them as given, terminator included.
    std::vector<cl_sampler_properties> kept;
    if (sampler_properties) {
      const cl_sampler_properties *end = sampler_properties;
      while (*end != 0) end += 2;
      kept.assign(sampler_properties, end + 1);
    }
    return new _cl_sampler(context, settings.normalizedCoords, settings.addressing, settings.filter,
                           std::move(kept));
  });
}

cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) {
  return guarded([&] { checked(sampler)->retain(); });
}

cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) {
  return guarded([&] { checked(sampler)->release(); });
}

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name,
                                    size_t param_value_size, void *param_value,
                                    size_t *param_value_size_ret) {
  return guarded([&] {
    _cl_sampler *s = checked(sampler);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
      case CL_SAMPLER_REFERENCE_COUNT:
        return out.value<cl_uint>(s->referenceCount());
      case CL_SAMPLER_CONTEXT:
        return out.value<cl_context>(s->context());
      case CL_SAMPLER_NORMALIZED_COORDS:
        return out.value<cl_bool>(s->normalizedCoords());
      case CL_SAMPLER_ADDRESSING_MODE:
        return out.value<cl_addressing_mode>(s->addressingMode());
      case CL_SAMPLER_FILTER_MODE:
        return out.value<cl_filter_mode>(s->filterMode());
      case CL_SAMPLER_PROPERTIES:
        return out.array<cl_sampler_properties>(s->properties());
      default:
        fail(CL_INVALID_VALUE);
    }
  });
}

}  // namespace lockstep::api

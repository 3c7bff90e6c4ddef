// read_imageh and write_imageh (OpenCL C 3.0 s6.15.15 with cl_khr_fp16): the
// float reads and writes of the same image, sampler and coordinates, with
// the colour rounded to half (round to nearest even) or widened from it.
// Reads of CL_HALF_FLOAT images are exact both ways; normalized formats
// give their float value rounded once.

// Tables of macro definitions and invocations, which clang-format would run
// together; they are kept within 100 columns by hand.
// clang-format off
#include "ls_image.h"

#define LS_READH_SAMPLED(T, COORD)                                                   \
  LS_IMAGE_BUILTIN half4 read_imageh(read_only T image, sampler_t sampler, COORD coord) { \
    return convert_half4(read_imagef(image, sampler, coord));                         \
  }
#define LS_READH(ACCESS, T, COORD)                                                   \
  LS_IMAGE_BUILTIN half4 read_imageh(ACCESS T image, COORD coord) {                   \
    return convert_half4(read_imagef(image, coord));                                  \
  }
#define LS_WRITEH(ACCESS, T, COORD)                                                  \
  LS_IMAGE_BUILTIN void write_imageh(ACCESS T image, COORD coord, half4 colour) {     \
    write_imagef(image, coord, convert_float4(colour));                               \
  }

#define LS_HALF_IMAGE_SAMPLED(T, ICOORD, FCOORD) \
  LS_READH_SAMPLED(T, ICOORD) LS_READH_SAMPLED(T, FCOORD)
LS_HALF_IMAGE_SAMPLED(image1d_t, int, float)
LS_HALF_IMAGE_SAMPLED(image2d_t, int2, float2)
LS_HALF_IMAGE_SAMPLED(image3d_t, int4, float4)
LS_HALF_IMAGE_SAMPLED(image1d_array_t, int2, float2)
LS_HALF_IMAGE_SAMPLED(image2d_array_t, int4, float4)

#define LS_HALF_IMAGE_ACCESS(ACCESS, M)  \
  M(ACCESS, image1d_t, int)              \
  M(ACCESS, image2d_t, int2)             \
  M(ACCESS, image3d_t, int4)             \
  M(ACCESS, image1d_array_t, int2)       \
  M(ACCESS, image2d_array_t, int4)       \
  M(ACCESS, image1d_buffer_t, int)
LS_HALF_IMAGE_ACCESS(read_only, LS_READH)
LS_HALF_IMAGE_ACCESS(read_write, LS_READH)
LS_HALF_IMAGE_ACCESS(write_only, LS_WRITEH)
LS_HALF_IMAGE_ACCESS(read_write, LS_WRITEH)

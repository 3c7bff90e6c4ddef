// read_imagef / read_imagei / read_imageui without a sampler (OpenCL C 3.0
// s6.15.15.3): integer coordinates, nearest texel, no addressing, for
// read_only and read_write images. Such a read behaves as a sampler with
// unnormalized coordinates, CLK_ADDRESS_NONE and CLK_FILTER_NEAREST; outside
// the image the spec leaves the result undefined, and it is the border
// colour here (what CLK_ADDRESS_NONE gives too), never a read outside.

// Tables of macro definitions and invocations, which clang-format would run
// together; they are kept within 100 columns by hand.
// clang-format off
#include "ls_image.h"

#define LS_READ_COLOUR(ACCESS, T, COORD, DIMS, ARRAYED)                          \
  LS_IMAGE_BUILTIN float4 read_imagef(ACCESS T image, COORD coord) {                 \
    ls_image d = __lockstep_image(image);                                        \
    return ls_image_fetch_float(d, ls_image_coord(coord), ls_image_limits(d, DIMS, ARRAYED)); \
  }                                                                              \
  LS_IMAGE_BUILTIN int4 read_imagei(ACCESS T image, COORD coord) {                   \
    ls_image d = __lockstep_image(image);                                        \
    return ls_image_fetch_int(d, ls_image_coord(coord), ls_image_limits(d, DIMS, ARRAYED)); \
  }                                                                              \
  LS_IMAGE_BUILTIN uint4 read_imageui(ACCESS T image, COORD coord) {                 \
    ls_image d = __lockstep_image(image);                                        \
    return ls_image_fetch_uint(d, ls_image_coord(coord), ls_image_limits(d, DIMS, ARRAYED)); \
  }

#define LS_READ_DEPTH(ACCESS, T, COORD, DIMS, ARRAYED)                           \
  LS_IMAGE_BUILTIN float read_imagef(ACCESS T image, COORD coord) {                  \
    ls_image d = __lockstep_image(image);                                        \
    return ls_image_fetch_float(d, ls_image_coord(coord), ls_image_limits(d, DIMS, ARRAYED)).x; \
  }

#define LS_READS(ACCESS)                                   \
  LS_READ_COLOUR(ACCESS, image1d_t, int, 1, 0)             \
  LS_READ_COLOUR(ACCESS, image1d_buffer_t, int, 1, 0)      \
  LS_READ_COLOUR(ACCESS, image1d_array_t, int2, 1, 1)      \
  LS_READ_COLOUR(ACCESS, image2d_t, int2, 2, 0)            \
  LS_READ_COLOUR(ACCESS, image2d_array_t, int4, 2, 1)      \
  LS_READ_COLOUR(ACCESS, image3d_t, int4, 3, 0)            \
  LS_READ_DEPTH(ACCESS, image2d_depth_t, int2, 2, 0)       \
  LS_READ_DEPTH(ACCESS, image2d_array_depth_t, int4, 2, 1)

LS_READS(read_only)
LS_READS(read_write)

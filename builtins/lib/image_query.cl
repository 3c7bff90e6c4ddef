// The image queries (OpenCL C 3.0 s6.15.15.5): get_image_width, _height,
// _depth, _array_size, _dim, _channel_data_type and _channel_order, for
// every image type and access qualifier, read from the image's descriptor.
// The channel values are the CL_* enums, which equal OpenCL C's CLK_* ones.

// Tables of macro definitions and invocations, which clang-format would run
// together; they are kept within 100 columns by hand.
// clang-format off
#include "ls_image.h"

// Every image type.
#define LS_QUERIES_ALL(T, ACCESS)                                                           \
  LS_IMAGE_BUILTIN int get_image_width(ACCESS T image) {                                    \
    return __lockstep_image(image)->width;                                                  \
  }                                                                                         \
  LS_IMAGE_BUILTIN int get_image_channel_data_type(ACCESS T image) {                        \
    return __lockstep_image(image)->channelType;                                            \
  }                                                                                         \
  LS_IMAGE_BUILTIN int get_image_channel_order(ACCESS T image) {                            \
    return __lockstep_image(image)->channelOrder;                                           \
  }
LS_FOR_EACH_IMAGE(LS_QUERIES_ALL)

// 2D images, 2D arrays (their layer size) and 2D depth images.
#define LS_QUERIES_2D(T, ACCESS)                                                            \
  LS_IMAGE_BUILTIN int get_image_height(ACCESS T image) {                                   \
    return __lockstep_image(image)->height;                                                 \
  }                                                                                         \
  LS_IMAGE_BUILTIN int2 get_image_dim(ACCESS T image) {                                     \
    ls_image d = __lockstep_image(image);                                                   \
    return (int2)(d->width, d->height);                                                     \
  }
LS_FOR_EACH_IMAGE_ACCESS(LS_QUERIES_2D, image2d_t)
LS_FOR_EACH_IMAGE_ACCESS(LS_QUERIES_2D, image2d_array_t)
LS_FOR_EACH_IMAGE_ACCESS(LS_QUERIES_2D, image2d_depth_t)
LS_FOR_EACH_IMAGE_ACCESS(LS_QUERIES_2D, image2d_array_depth_t)

// 3D images: dim is (width, height, depth, 0).
#define LS_QUERIES_3D(T, ACCESS)                                                            \
  LS_IMAGE_BUILTIN int get_image_height(ACCESS T image) {                                   \
    return __lockstep_image(image)->height;                                                 \
  }                                                                                         \
  LS_IMAGE_BUILTIN int get_image_depth(ACCESS T image) {                                    \
    return __lockstep_image(image)->depth;                                                  \
  }                                                                                         \
  LS_IMAGE_BUILTIN int4 get_image_dim(ACCESS T image) {                                     \
    ls_image d = __lockstep_image(image);                                                   \
    return (int4)(d->width, d->height, d->depth, 0);                                        \
  }
LS_FOR_EACH_IMAGE_ACCESS(LS_QUERIES_3D, image3d_t)

// Array images.
#define LS_QUERIES_ARRAY(T, ACCESS)                                                         \
  LS_IMAGE_BUILTIN size_t get_image_array_size(ACCESS T image) {                            \
    return (size_t)__lockstep_image(image)->arraySize;                                      \
  }
LS_FOR_EACH_IMAGE_ACCESS(LS_QUERIES_ARRAY, image1d_array_t)
LS_FOR_EACH_IMAGE_ACCESS(LS_QUERIES_ARRAY, image2d_array_t)
LS_FOR_EACH_IMAGE_ACCESS(LS_QUERIES_ARRAY, image2d_array_depth_t)

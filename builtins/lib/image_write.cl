// write_imagef / write_imagei / write_imageui (OpenCL C 3.0 s6.15.15.4) for
// write_only and read_write images of every type (3D: cl_khr_3d_image_writes;
// sRGB orders: cl_khr_srgb_image_writes; depth images: cl_khr_depth_images).
//
// Conversions to the stored type as s8.3 of the spec writes them:
// normalized types convert_<type>_sat_rte(f * max), packed 565/555/101010
// the same per field, half round to nearest even, signed and unsigned
// integers saturate; sRGB orders encode r, g, b first. A write outside the
// image is undefined by the spec and skipped here.

// Tables of macro definitions and invocations, which clang-format would run
// together; they are kept within 100 columns by hand.
// clang-format off
#include "ls_image.h"

// round-to-nearest-even of x saturated to [lo, hi]; NaN becomes 0, as the
// _sat conversions make it.
LS_HELPER float4 ls_round_sat(float4 x, float4 lo, float4 hi) {
  float4 y = __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi);
  return __builtin_elementwise_roundeven(x == x ? y : (float4)0.0f);
}

// The fields of a packed type, each saturated to [0, max] and rounded.
LS_HELPER uint4 ls_pack_fields(float4 v, float4 max) {
  return __builtin_convertvector(ls_round_sat(v * max, (float4)0.0f, max), uint4);
}

LS_HELPER int4 ls_clamp(int4 v, int lo, int hi) {
  return __builtin_elementwise_min(__builtin_elementwise_max(v, (int4)lo), (int4)hi);
}

// v in memory order -> the stored components of `type`.
LS_HELPER void ls_image_encode_float(global uchar *p, int type, int n, float4 v) {
  switch (type) {
  case CLK_UNORM_INT8:
    ls_image_store_components(
        p, __builtin_convertvector(ls_round_sat(v * 255.0f, (float4)0.0f, (float4)255.0f), uchar4),
        n);
    return;
  case CLK_UNORM_INT16:
    ls_image_store_components(
        (global ushort *)p,
        __builtin_convertvector(ls_round_sat(v * 65535.0f, (float4)0.0f, (float4)65535.0f),
                                ushort4), n);
    return;
  case CLK_SNORM_INT8:
    ls_image_store_components(
        (global char *)p,
        __builtin_convertvector(ls_round_sat(v * 127.0f, (float4)-128.0f, (float4)127.0f), char4),
        n);
    return;
  case CLK_SNORM_INT16:
    ls_image_store_components(
        (global short *)p,
        __builtin_convertvector(ls_round_sat(v * 32767.0f, (float4)-32768.0f, (float4)32767.0f),
                                short4), n);
    return;
  case CLK_UNORM_SHORT_565: {
    uint4 c = ls_pack_fields(v, (float4)(31.0f, 63.0f, 31.0f, 0.0f));
    *(global ushort *)p = (ushort)((c.x << 11) | (c.y << 5) | c.z);
    return;
  }
  case CLK_UNORM_SHORT_555: {
    uint4 c = ls_pack_fields(v, (float4)(31.0f, 31.0f, 31.0f, 0.0f));
    *(global ushort *)p = (ushort)((c.x << 10) | (c.y << 5) | c.z);
    return;
  }
  case CLK_UNORM_INT_101010: {
    uint4 c = ls_pack_fields(v, (float4)(1023.0f, 1023.0f, 1023.0f, 0.0f));
    *(global uint *)p = (c.x << 20) | (c.y << 10) | c.z;
    return;
  }
  case CLK_UNORM_INT_101010_2: {
    uint4 c = ls_pack_fields(v, (float4)(1023.0f, 1023.0f, 1023.0f, 3.0f));
    *(global uint *)p = (c.x << 22) | (c.y << 12) | (c.z << 2) | c.w;
    return;
  }
  case CLK_HALF_FLOAT:
    ls_image_store_half((global half *)p, v, n);
    return;
  default:  // CLK_FLOAT
    ls_image_store_components((global float *)p, v, n);
    return;
  }
}

LS_HELPER void ls_image_encode_int(global uchar *p, int type, int n, int4 v) {
  switch (type) {
  case CLK_SIGNED_INT8:
    ls_image_store_components(
        (global char *)p, __builtin_convertvector(ls_clamp(v, CHAR_MIN, CHAR_MAX), char4),
        n);
    return;
  case CLK_SIGNED_INT16:
    ls_image_store_components(
        (global short *)p,
        __builtin_convertvector(ls_clamp(v, SHRT_MIN, SHRT_MAX), short4), n);
    return;
  default:  // CLK_SIGNED_INT32
    ls_image_store_components((global int *)p, v, n);
    return;
  }
}

LS_HELPER void ls_image_encode_uint(global uchar *p, int type, int n, uint4 v) {
  switch (type) {
  case CLK_UNSIGNED_INT8:
    ls_image_store_components(
        p, __builtin_convertvector(__builtin_elementwise_min(v, (uint4)UCHAR_MAX), uchar4), n);
    return;
  case CLK_UNSIGNED_INT16:
    ls_image_store_components(
        (global ushort *)p,
        __builtin_convertvector(__builtin_elementwise_min(v, (uint4)USHRT_MAX), ushort4), n);
    return;
  default:  // CLK_UNSIGNED_INT32
    ls_image_store_components((global uint *)p, v, n);
    return;
  }
}

LS_HELPER void ls_image_write_float(ls_image d, int4 c, float4 colour, int dims, int arrayed) {
  if (!ls_image_inside(c, ls_image_limits(d, dims, arrayed))) return;
  int order = d->channelOrder;
  float4 v = ls_image_is_srgb(order) ? ls_linear_to_srgb(colour) : colour;
  ls_image_encode_float(ls_image_texel(d, c), d->channelType, d->channelCount,
                        ls_image_from_rgba(v, order));
}

LS_HELPER void ls_image_write_int(ls_image d, int4 c, int4 colour, int dims, int arrayed) {
  if (!ls_image_inside(c, ls_image_limits(d, dims, arrayed))) return;
  ls_image_encode_int(ls_image_texel(d, c), d->channelType, d->channelCount,
                      ls_image_from_rgba(colour, d->channelOrder));
}

LS_HELPER void ls_image_write_uint(ls_image d, int4 c, uint4 colour, int dims, int arrayed) {
  if (!ls_image_inside(c, ls_image_limits(d, dims, arrayed))) return;
  ls_image_encode_uint(ls_image_texel(d, c), d->channelType, d->channelCount,
                       ls_image_from_rgba(colour, d->channelOrder));
}

#define LS_WRITE_COLOUR(ACCESS, T, COORD, DIMS, ARRAYED)                                 \
  LS_IMAGE_BUILTIN void write_imagef(ACCESS T image, COORD coord, float4 colour) {           \
    ls_image_write_float(__lockstep_image(image), ls_image_coord(coord), colour, DIMS, ARRAYED); \
  }                                                                                      \
  LS_IMAGE_BUILTIN void write_imagei(ACCESS T image, COORD coord, int4 colour) {             \
    ls_image_write_int(__lockstep_image(image), ls_image_coord(coord), colour, DIMS, ARRAYED); \
  }                                                                                      \
  LS_IMAGE_BUILTIN void write_imageui(ACCESS T image, COORD coord, uint4 colour) {           \
    ls_image_write_uint(__lockstep_image(image), ls_image_coord(coord), colour, DIMS, ARRAYED); \
  }

#define LS_WRITE_DEPTH(ACCESS, T, COORD, DIMS, ARRAYED)                                  \
  LS_IMAGE_BUILTIN void write_imagef(ACCESS T image, COORD coord, float depth) {             \
    ls_image_write_float(__lockstep_image(image), ls_image_coord(coord),                 \
                         (float4)(depth, 0.0f, 0.0f, 0.0f), DIMS, ARRAYED);              \
  }

#define LS_WRITES(ACCESS)                                   \
  LS_WRITE_COLOUR(ACCESS, image1d_t, int, 1, 0)             \
  LS_WRITE_COLOUR(ACCESS, image1d_buffer_t, int, 1, 0)      \
  LS_WRITE_COLOUR(ACCESS, image1d_array_t, int2, 1, 1)      \
  LS_WRITE_COLOUR(ACCESS, image2d_t, int2, 2, 0)            \
  LS_WRITE_COLOUR(ACCESS, image2d_array_t, int4, 2, 1)      \
  LS_WRITE_COLOUR(ACCESS, image3d_t, int4, 3, 0)            \
  LS_WRITE_DEPTH(ACCESS, image2d_depth_t, int2, 2, 0)       \
  LS_WRITE_DEPTH(ACCESS, image2d_array_depth_t, int4, 2, 1)

LS_WRITES(write_only)
LS_WRITES(read_write)

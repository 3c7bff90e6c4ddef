// read_imagef / read_imagei / read_imageui with a sampler (OpenCL C 3.0
// s6.15.15.2), for read_only images: the addressing modes and the nearest
// and linear filters as the spec defines them ("Image Addressing and
// Filtering"), with normalized or unnormalized float coordinates, and
// integer coordinates (nearest, unnormalized).
//
// Each axis is addressed on its own in scalar arithmetic; the addressing
// mode and the normalized flag select among a few values (no branches), so a
// read inlined into a work-item loop stays straight-line code. The filter
// is a branch on the sampler, the same for every work-item. Whatever the
// coordinates (NaN, huge, outside), every load stays inside the image:
// indices outside it give the border colour (ls_image_fetch_*).
//
// Undefined cases get the nearest defined behaviour: repeat and mirrored
// repeat always read the coordinate as normalized, read_imagei/ui filter
// nearest whatever the sampler says, CLK_ADDRESS_NONE reads the border
// colour outside the image (as CLK_ADDRESS_CLAMP does), and integer
// coordinates clamp to the edge with CLK_ADDRESS_CLAMP_TO_EDGE and read the
// border colour outside the image otherwise.

// Tables of macro definitions and invocations, which clang-format would run
// together; they are kept within 100 columns by hand.
// clang-format off
#include "ls_image.h"

#define LS_FLOOR(x) __builtin_elementwise_floor(x)
#define LS_CLAMPF(x, lo, hi) __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi)

LS_HELPER uint ls_address_mode(uint sampler) { return sampler & LOCKSTEP_SAMPLER_ADDRESS_MASK; }

// The unnormalized coordinate u along an axis of `size` texels: for repeat,
// (s - floor(s)) * size; for mirrored repeat, |s - 2 rint(s / 2)| * size;
// otherwise s * size for normalized coordinates and s itself for the others.
LS_HELPER float ls_unnormalize(float s, float size, uint sampler) {
  uint mode = ls_address_mode(sampler);
  float repeat = (s - LS_FLOOR(s)) * size;
  float mirrored =
      __builtin_elementwise_abs(s - 2.0f * __builtin_elementwise_roundeven(0.5f * s)) * size;
  float plain = (sampler & LOCKSTEP_SAMPLER_NORMALIZED_COORDS) ? s * size : s;
  return mode == LOCKSTEP_SAMPLER_ADDRESS_REPEAT
             ? repeat
             : (mode == LOCKSTEP_SAMPLER_ADDRESS_MIRRORED_REPEAT ? mirrored : plain);
}

// Whether an index may leave the image by one texel, to read the border
// colour: clamp and none. Clamp-to-edge and mirrored repeat keep it inside;
// repeat wraps it around.
LS_HELPER bool ls_address_to_border(uint sampler) {
  uint mode = ls_address_mode(sampler);
  return mode == LOCKSTEP_SAMPLER_ADDRESS_CLAMP || mode == LOCKSTEP_SAMPLER_ADDRESS_NONE;
}

// Nearest filter: i = floor(u), clamped to [0, size - 1] (clamp-to-edge,
// mirrored repeat), to [-1, size] (clamp, none), or wrapped (repeat: u lies
// in [0, size], and i = size becomes 0).
LS_HELPER int ls_nearest_index(float s, int size, uint sampler) {
  uint mode = ls_address_mode(sampler);
  bool repeat = mode == LOCKSTEP_SAMPLER_ADDRESS_REPEAT;
  bool border = ls_address_to_border(sampler);
  float fsize = (float)size;
  float u = ls_unnormalize(s, fsize, sampler);
  float lo = border ? -1.0f : 0.0f;
  float hi = (border || repeat) ? fsize : fsize - 1.0f;
  int i = (int)LS_CLAMPF(LS_FLOOR(u), lo, hi);
  return (repeat && i > size - 1) ? i - size : i;
}

// Linear filter: the two texels i0 = floor(u - 0.5), i1 = i0 + 1 around u,
// addressed as the mode says, and the weight of i1, frac(u - 0.5).
LS_HELPER int2 ls_linear_indices(float s, int size, uint sampler, float *weight) {
  uint mode = ls_address_mode(sampler);
  bool repeat = mode == LOCKSTEP_SAMPLER_ADDRESS_REPEAT;
  bool border = ls_address_to_border(sampler);
  float fsize = (float)size;
  float u = ls_unnormalize(s, fsize, sampler) - 0.5f;
  float f = LS_FLOOR(u);
  *weight = u - f;
  // Far outside the image every index clamps alike; this bound keeps the
  // conversion to int defined (NaN becomes -2).
  int i0 = (int)LS_CLAMPF(f, -2.0f, fsize + 1.0f);
  int i1 = i0 + 1;
  if (repeat) {
    i0 = i0 < 0 ? i0 + size : i0;
    i1 = i1 > size - 1 ? i1 - size : i1;
    return (int2)(i0, i1);
  }
  int lo = border ? -1 : 0;
  int hi = border ? size : size - 1;
  return __builtin_elementwise_min(__builtin_elementwise_max((int2)(i0, i1), (int2)lo), (int2)hi);
}

// The layer of an array image: clamp(rint(s), 0, layers - 1), never
// normalized, never filtered.
LS_HELPER int ls_image_layer(float s, int layers) {
  return (int)LS_CLAMPF(__builtin_elementwise_roundeven(s), 0.0f, (float)(layers - 1));
}

// The texel the nearest filter reads for float coordinates.
LS_HELPER int4 ls_image_nearest_texel(float4 coord, int4 limits, uint sampler, int dims,
                                      int arrayed) {
  int x = ls_nearest_index(coord.x, limits.x, sampler);
  int y = dims >= 2 ? ls_nearest_index(coord.y, limits.y, sampler) : 0;
  int z = dims == 3 ? ls_nearest_index(coord.z, limits.z, sampler) : 0;
  if (arrayed && dims == 1) y = ls_image_layer(coord.y, limits.y);
  if (arrayed && dims == 2) z = ls_image_layer(coord.z, limits.z);
  return (int4)(x, y, z, 0);
}

// The texel integer coordinates read: clamped to the edge for
// clamp-to-edge, as given otherwise (outside: the border colour); the layer
// of an array image is clamped as for float coordinates.
LS_HELPER int4 ls_image_integer_texel(int4 coord, int4 limits, uint sampler, int dims,
                                      int arrayed) {
  int4 clamped = ls_image_clamp(coord, limits);
  int4 c = ls_address_mode(sampler) == LOCKSTEP_SAMPLER_ADDRESS_CLAMP_TO_EDGE ? clamped : coord;
  if (arrayed && dims == 1) c.y = clamped.y;
  if (arrayed && dims == 2) c.z = clamped.z;
  return c;
}

// The linear filter: the spec's weighted sum of 2, 4 or 8 texels
// T = (1-a)(1-b)(1-c) T000 + a(1-b)(1-c) T100 + (1-a)b(1-c) T010 + ...,
// its terms in the spec's order (x fastest, then y, then z), each weight a
// product left to right as the spec writes it.
LS_HELPER float4 ls_image_linear(ls_image d, float4 coord, int4 limits, uint sampler, int dims,
                                 int arrayed) {
  float a, b = 0.0f, c = 0.0f;
  int2 i = ls_linear_indices(coord.x, limits.x, sampler, &a);
  int2 j = (int2)0, k = (int2)0;
  if (dims >= 2) j = ls_linear_indices(coord.y, limits.y, sampler, &b);
  if (dims == 3) k = ls_linear_indices(coord.z, limits.z, sampler, &c);
  if (arrayed && dims == 1) j = (int2)ls_image_layer(coord.y, limits.y);
  if (arrayed && dims == 2) k = (int2)ls_image_layer(coord.z, limits.z);

  float4 sum = (float4)0.0f;
  // Unrolled before the vectorizer (the count is a constant once inlined):
  // a loop left inside the work-item loop would keep that loop scalar.
#pragma unroll
  for (int t = 0; t < (1 << dims); ++t) {
    float wx = (t & 1) ? a : 1.0f - a;
    float wy = (t & 2) ? b : 1.0f - b;
    float wz = (t & 4) ? c : 1.0f - c;
    float w = dims == 1 ? wx : (dims == 2 ? wx * wy : wx * wy * wz);
    int4 texel = (int4)((t & 1) ? i.y : i.x, (t & 2) ? j.y : j.x, (t & 4) ? k.y : k.x, 0);
    sum += w * ls_image_fetch_float(d, texel, limits);
  }
  return sum;
}

LS_HELPER float4 ls_image_sample_float(ls_image d, uint sampler, float4 coord, int dims,
                                       int arrayed) {
  int4 limits = ls_image_limits(d, dims, arrayed);
  if ((sampler & LOCKSTEP_SAMPLER_FILTER_MASK) == LOCKSTEP_SAMPLER_FILTER_LINEAR)
    return ls_image_linear(d, coord, limits, sampler, dims, arrayed);
  return ls_image_fetch_float(d, ls_image_nearest_texel(coord, limits, sampler, dims, arrayed),
                              limits);
}

// read_imagef/i/ui(image, sampler, float and int coordinates) of one image
// type; depth images have read_imagef only, returning a float.
#define LS_SAMPLED_READ(RET, NAME, T, COORD, DIMS, ARRAYED, BODY)                \
  LS_IMAGE_BUILTIN RET NAME(read_only T image, sampler_t sampler, COORD coord) {     \
    ls_image d = __lockstep_image(image);                                        \
    uint s = __lockstep_sampler(sampler);                                        \
    int4 limits = ls_image_limits(d, DIMS, ARRAYED);                             \
    return BODY;                                                                 \
  }
#define LS_NEAREST(KIND, DIMS, ARRAYED)                                          \
  ls_image_fetch_##KIND(d, ls_image_nearest_texel(ls_image_coord(coord), limits, s, DIMS, \
                                                  ARRAYED), limits)
#define LS_INTEGER(KIND, DIMS, ARRAYED)                                          \
  ls_image_fetch_##KIND(d, ls_image_integer_texel(ls_image_coord(coord), limits, s, DIMS, \
                                                  ARRAYED), limits)
#define LS_FILTERED(DIMS, ARRAYED) ls_image_sample_float(d, s, ls_image_coord(coord), DIMS, ARRAYED)

#define LS_SAMPLED_READS(T, ICOORD, FCOORD, DIMS, ARRAYED)                                    \
  LS_SAMPLED_READ(float4, read_imagef, T, FCOORD, DIMS, ARRAYED, LS_FILTERED(DIMS, ARRAYED))  \
  LS_SAMPLED_READ(float4, read_imagef, T, ICOORD, DIMS, ARRAYED, LS_INTEGER(float, DIMS, ARRAYED)) \
  LS_SAMPLED_READ(int4, read_imagei, T, FCOORD, DIMS, ARRAYED, LS_NEAREST(int, DIMS, ARRAYED))     \
  LS_SAMPLED_READ(int4, read_imagei, T, ICOORD, DIMS, ARRAYED, LS_INTEGER(int, DIMS, ARRAYED))     \
  LS_SAMPLED_READ(uint4, read_imageui, T, FCOORD, DIMS, ARRAYED, LS_NEAREST(uint, DIMS, ARRAYED))  \
  LS_SAMPLED_READ(uint4, read_imageui, T, ICOORD, DIMS, ARRAYED, LS_INTEGER(uint, DIMS, ARRAYED))

#define LS_SAMPLED_DEPTH_READS(T, ICOORD, FCOORD, DIMS, ARRAYED)                              \
  LS_SAMPLED_READ(float, read_imagef, T, FCOORD, DIMS, ARRAYED, LS_FILTERED(DIMS, ARRAYED).x) \
  LS_SAMPLED_READ(float, read_imagef, T, ICOORD, DIMS, ARRAYED, LS_INTEGER(float, DIMS, ARRAYED).x)

LS_SAMPLED_READS(image1d_t, int, float, 1, 0)
LS_SAMPLED_READS(image1d_array_t, int2, float2, 1, 1)
LS_SAMPLED_READS(image2d_t, int2, float2, 2, 0)
LS_SAMPLED_READS(image2d_array_t, int4, float4, 2, 1)
LS_SAMPLED_READS(image3d_t, int4, float4, 3, 0)
LS_SAMPLED_DEPTH_READS(image2d_depth_t, int2, float2, 2, 0)
LS_SAMPLED_DEPTH_READS(image2d_array_depth_t, int4, float4, 2, 1)

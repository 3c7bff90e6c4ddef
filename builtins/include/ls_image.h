// The image built-ins' shared part (OpenCL C 3.0 s6.15.15; the conversion
// rules of s8.3): how a built-in reaches an image's descriptor and a
// sampler's bits, where a texel lives, and how a texel converts between its
// stored format and the float4 / int4 / uint4 the built-ins speak.
//
// An image or a sampler cannot be cast in OpenCL C, so the built-ins reach
// them through __lockstep_image and __lockstep_sampler, declared here and
// never defined: the compiler lowers image types to a descriptor pointer and
// sampler_t to a uint, and replaces each call of these by its argument.
//
// Speed: the channel type, channel order and sampler bits come from the
// descriptor or the sampler, so they are the same for every work-item; the
// switches over them are uniform branches. Everything else is straight-line
// arithmetic on small vectors, inlined (LS_HELPER) into the entry points,
// which are inlined into the kernel in turn (LS_IMAGE_BUILTIN).

// Tables of macro definitions, which clang-format would run together; they
// are kept within 100 columns by hand.
// clang-format off
#ifndef LOCKSTEP_BUILTINS_LS_IMAGE_H
#define LOCKSTEP_BUILTINS_LS_IMAGE_H

#include "ls_common.h"
#include "lockstep/compiler/ImageAbi.h"

typedef const global struct lockstep_image_descriptor *ls_image;

// The read and write built-ins are always inlined into the kernel: a call
// would hide the format and sampler from the optimizer (a constant sampler
// folds its addressing away only inside the caller) and keep the work-item
// loop from being widened.
#define LS_IMAGE_BUILTIN __attribute__((overloadable, always_inline))

// M(image type, access qualifier) for every image type and access.
#define LS_FOR_EACH_IMAGE_ACCESS(M, T) M(T, read_only) M(T, write_only) M(T, read_write)
#define LS_FOR_EACH_IMAGE(M)                          \
  LS_FOR_EACH_IMAGE_ACCESS(M, image1d_t)              \
  LS_FOR_EACH_IMAGE_ACCESS(M, image1d_buffer_t)       \
  LS_FOR_EACH_IMAGE_ACCESS(M, image1d_array_t)        \
  LS_FOR_EACH_IMAGE_ACCESS(M, image2d_t)              \
  LS_FOR_EACH_IMAGE_ACCESS(M, image2d_array_t)        \
  LS_FOR_EACH_IMAGE_ACCESS(M, image3d_t)              \
  LS_FOR_EACH_IMAGE_ACCESS(M, image2d_depth_t)        \
  LS_FOR_EACH_IMAGE_ACCESS(M, image2d_array_depth_t)

#define LS_DECLARE_IMAGE_DESCRIPTOR(T, ACCESS) \
  ls_image __attribute__((overloadable, const)) __lockstep_image(ACCESS T);
LS_FOR_EACH_IMAGE(LS_DECLARE_IMAGE_DESCRIPTOR)
uint __attribute__((overloadable, const)) __lockstep_sampler(sampler_t);

// ---------------------------------------------------------------------------
// Where a texel lives. Coordinates are int4 (x, y, z, 0) in the ABI's sense
// (ImageAbi.h): 1D arrays put the layer in y, 2D arrays in z. An image type
// is described to the helpers by two constants: its spatial dimensions
// (1, 2, 3) and whether it is an array (the layer follows the last spatial
// coordinate).

// One past the largest coordinate along x, y, z (1 along unused axes).
LS_HELPER int4 ls_image_limits(ls_image d, int dims, int arrayed) {
  int layers = arrayed ? d->arraySize : 1;
  if (dims == 1) return (int4)(d->width, layers, 1, 1);
  if (dims == 2) return (int4)(d->width, d->height, layers, 1);
  return (int4)(d->width, d->height, d->depth, 1);
}

// One unsigned test per axis (limits are at least 1 and below 2^31): the
// two signed tests, c >= 0 and c < limit, also told the optimizer that an
// index past the write's bounds check is not negative, and its 64-bit
// extension became a mask that scalar evolution cannot follow, which kept
// an image write from storing whole vectors.
LS_HELPER bool ls_image_inside(int4 c, int4 limits) {
  int4 in = __builtin_convertvector(c, uint4) < __builtin_convertvector(limits, uint4);
  return (in.x & in.y & in.z) != 0;
}

// c clamped into the image, so that a load there is always safe.
LS_HELPER int4 ls_image_clamp(int4 c, int4 limits) {
  return __builtin_elementwise_min(__builtin_elementwise_max(c, (int4)0), limits - 1);
}

LS_HELPER global uchar *ls_image_texel(ls_image d, int4 c) {
  return d->data + (long)c.x * d->elementSize + (long)c.y * (long)d->rowPitch +
         (long)c.z * (long)d->slicePitch;
}

// ---------------------------------------------------------------------------
// Components as stored: n (1..4) components of one type, aligned only as
// that type is (a texel's address is not always aligned to its size). Lanes
// past n read as 0. uchar3 & co. take four elements' room, so three
// components move one at a time.
#define LS_IMAGE_COMPONENTS(T)                                                   \
  typedef T##2 __attribute__((aligned(sizeof(T)))) ls_##T##2_packed;             \
  typedef T##4 __attribute__((aligned(sizeof(T)))) ls_##T##4_packed;             \
  LS_HELPER T##4 ls_image_load_components(const global T *p, int n) {           \
    switch (n) {                                                                 \
    case 4: return *(const global ls_##T##4_packed *)p;                          \
    case 3: return (T##4)(p[0], p[1], p[2], 0);                                  \
    case 2: return (T##4)(*(const global ls_##T##2_packed *)p, 0, 0);            \
    default: return (T##4)(p[0], 0, 0, 0);                                       \
    }                                                                            \
  }                                                                              \
  LS_HELPER void ls_image_store_components(global T *p, T##4 v, int n) {        \
    switch (n) {                                                                 \
    case 4: *(global ls_##T##4_packed *)p = v; return;                           \
    case 3: p[0] = v.x; p[1] = v.y; p[2] = v.z; return;                          \
    case 2: *(global ls_##T##2_packed *)p = v.xy; return;                        \
    default: p[0] = v.x; return;                                                 \
    }                                                                            \
  }
LS_IMAGE_COMPONENTS(uchar)
LS_IMAGE_COMPONENTS(char)
LS_IMAGE_COMPONENTS(ushort)
LS_IMAGE_COMPONENTS(short)
LS_IMAGE_COMPONENTS(uint)
LS_IMAGE_COMPONENTS(int)
LS_IMAGE_COMPONENTS(float)

// Half components convert exactly to float, and from float rounding to
// nearest even, through the library's vload_half / vstore_half_rte (which
// use the F16C instructions where the ISA has them).
LS_HELPER float4 ls_image_load_half(const global half *p, int n) {
  switch (n) {
  case 4: return vload_half4(0, p);
  case 3: return (float4)(vload_half3(0, p), 0.0f);
  case 2: return (float4)(vload_half2(0, p), 0.0f, 0.0f);
  default: return (float4)(vload_half(0, p), 0.0f, 0.0f, 0.0f);
  }
}

LS_HELPER void ls_image_store_half(global half *p, float4 v, int n) {
  switch (n) {
  case 4: vstore_half4_rte(v, 0, p); return;
  case 3: vstore_half3_rte(v.xyz, 0, p); return;
  case 2: vstore_half2_rte(v.xy, 0, p); return;
  default: vstore_half_rte(v.x, 0, p); return;
  }
}

// ---------------------------------------------------------------------------
// Stored components -> values, in memory order (channel order not applied).
// Normalized types divide exactly as the spec writes them (c / 255.0f is
// not always c * (1.0f / 255.0f): 126 of the 256 codes differ). Packed RGB
// types give (r, g, b, 0).

// c / d, correctly rounded, without a division: q = c * (1/d) is within an
// ulp, and one step of q + (c - q d) / d through fused multiply-adds rounds
// it right (the remainder c - q d is exact in an FMA). Checked against the
// division for every code the formats store: |c| <= d + 1 for d = 3, 31,
// 63, 127, 255, 1023, 32767 and 65535. A division does not widen well
// (vdivps at a quarter of the multiplier's rate held a 3x3 blur over a
// UNORM_INT8 image to a third of the same blur over a buffer).
LS_HELPER float4 ls_exact_quotient(float4 c, float4 d) {
  float4 r = 1.0f / d;
  float4 q = c * r;
  return __builtin_elementwise_fma(__builtin_elementwise_fma(-q, d, c), r, q);
}

LS_HELPER float4 ls_image_decode_float(const global uchar *p, int type, int n) {
  switch (type) {
  case CLK_UNORM_INT8:
    return ls_exact_quotient(__builtin_convertvector(ls_image_load_components(p, n), float4),
                             (float4)255.0f);
  case CLK_UNORM_INT16:
    return ls_exact_quotient(
        __builtin_convertvector(ls_image_load_components((const global ushort *)p, n), float4),
        (float4)65535.0f);
  case CLK_SNORM_INT8:
    return __builtin_elementwise_max(
        ls_exact_quotient(
            __builtin_convertvector(ls_image_load_components((const global char *)p, n), float4),
            (float4)127.0f), (float4)-1.0f);
  case CLK_SNORM_INT16:
    return __builtin_elementwise_max(
        ls_exact_quotient(
            __builtin_convertvector(ls_image_load_components((const global short *)p, n), float4),
            (float4)32767.0f), (float4)-1.0f);
  case CLK_UNORM_SHORT_565: {
    uint v = *(const global ushort *)p;
    uint4 c = (uint4)(v >> 11, v >> 5, v, 0) & (uint4)(0x1f, 0x3f, 0x1f, 0);
    return ls_exact_quotient(__builtin_convertvector(c, float4),
                             (float4)(31.0f, 63.0f, 31.0f, 1.0f));
  }
  case CLK_UNORM_SHORT_555: {
    uint v = *(const global ushort *)p;
    uint4 c = (uint4)(v >> 10, v >> 5, v, 0) & (uint4)(0x1f, 0x1f, 0x1f, 0);
    return ls_exact_quotient(__builtin_convertvector(c, float4), (float4)31.0f);
  }
  case CLK_UNORM_INT_101010: {
    uint v = *(const global uint *)p;
    uint4 c = (uint4)(v >> 20, v >> 10, v, 0) & (uint4)(0x3ff, 0x3ff, 0x3ff, 0);
    return ls_exact_quotient(__builtin_convertvector(c, float4), (float4)1023.0f);
  }
  case CLK_UNORM_INT_101010_2: {
    uint v = *(const global uint *)p;
    uint4 c = (uint4)(v >> 22, v >> 12, v >> 2, v) & (uint4)(0x3ff, 0x3ff, 0x3ff, 0x3);
    return ls_exact_quotient(__builtin_convertvector(c, float4),
                             (float4)(1023.0f, 1023.0f, 1023.0f, 3.0f));
  }
  case CLK_HALF_FLOAT:
    return ls_image_load_half((const global half *)p, n);
  default:  // CLK_FLOAT
    return ls_image_load_components((const global float *)p, n);
  }
}

// Integer texels of every integer channel type, as their 32-bit patterns
// (signed types sign-extended, unsigned ones zero-extended). read_imagei of
// an unsigned image and read_imageui of a signed one, which OpenCL C leaves
// undefined, give these too: SPIR-V has one image read for both, and the
// translator (docs/spirv.md) calls read_imagei for either.
LS_HELPER int4 ls_image_decode_integer(const global uchar *p, int type, int n) {
  switch (type) {
  case CLK_SIGNED_INT8:
    return __builtin_convertvector(ls_image_load_components((const global char *)p, n), int4);
  case CLK_SIGNED_INT16:
    return __builtin_convertvector(ls_image_load_components((const global short *)p, n), int4);
  case CLK_UNSIGNED_INT8:
    return __builtin_convertvector(ls_image_load_components(p, n), int4);
  case CLK_UNSIGNED_INT16:
    return __builtin_convertvector(ls_image_load_components((const global ushort *)p, n), int4);
  default:  // CLK_SIGNED_INT32, CLK_UNSIGNED_INT32
    return ls_image_load_components((const global int *)p, n);
  }
}

LS_HELPER int4 ls_image_decode_int(const global uchar *p, int type, int n) {
  return ls_image_decode_integer(p, type, n);
}

LS_HELPER uint4 ls_image_decode_uint(const global uchar *p, int type, int n) {
  return as_uint4(ls_image_decode_integer(p, type, n));
}

// ---------------------------------------------------------------------------
// Channel orders: memory order <-> (r, g, b, a). A component the order lacks
// reads as 0, alpha as 1 (`one`). Lanes past the stored components are 0
// already, so R, RG, RGB and the packed RGB types share the default.
#define LS_IMAGE_ORDER(T)                                                        \
  LS_HELPER T##4 ls_image_to_rgba(T##4 v, int order, T one) {                   \
    switch (order) {                                                             \
    case CLK_RGBA: case CLK_sRGBA: return v;                                     \
    case CLK_BGRA: case CLK_sBGRA: return v.zyxw;                                \
    case CLK_ARGB: return v.yzwx;                                                \
    case CLK_ABGR: return v.wzyx;                                                \
    case CLK_A: return (T##4)(0, 0, 0, v.x);                                     \
    case CLK_RA: return (T##4)(v.x, 0, 0, v.y);                                  \
    case CLK_INTENSITY: return v.xxxx;                                           \
    case CLK_LUMINANCE: return (T##4)(v.xxx, one);                               \
    case CLK_Rx: return (T##4)(v.x, 0, 0, one);                                  \
    case CLK_RGx: return (T##4)(v.xy, 0, one);                                   \
    default: return (T##4)(v.xyz, one); /* R RG RGB RGBx sRGB sRGBx DEPTH */     \
    }                                                                            \
  }                                                                              \
  /* What is stored, in memory order, for (r, g, b, a); padding (x) lanes */     \
  /* keep what they hold. */                                                     \
  LS_HELPER T##4 ls_image_from_rgba(T##4 v, int order) {                        \
    switch (order) {                                                             \
    case CLK_BGRA: case CLK_sBGRA: return v.zyxw;                                \
    case CLK_ARGB: return v.wxyz;                                                \
    case CLK_ABGR: return v.wzyx;                                                \
    case CLK_A: return v.wwww;                                                   \
    case CLK_RA: return v.xwxw;                                                  \
    default: return v; /* the first stored component is r (I, L, depth) */       \
    }                                                                            \
  }
LS_IMAGE_ORDER(float)
LS_IMAGE_ORDER(int)
LS_IMAGE_ORDER(uint)

LS_HELPER bool ls_image_is_srgb(int order) {
  return order == CLK_sRGB || order == CLK_sRGBx || order == CLK_sRGBA || order == CLK_sBGRA;
}

// The border colour of CLK_ADDRESS_CLAMP (and of every texel outside the
// image): 0 in every component, but alpha 1 for orders without alpha.
LS_HELPER bool ls_image_has_alpha(int order) {
  switch (order) {
  case CLK_A: case CLK_RA: case CLK_INTENSITY: case CLK_RGBA: case CLK_BGRA:
  case CLK_ARGB: case CLK_ABGR: case CLK_sRGBA: case CLK_sBGRA:
    return true;
  default:
    return false;
  }
}

// sRGB <-> linear for r, g, b (the spec's formulas; alpha stays linear).
LS_HELPER float4 ls_srgb_to_linear(float4 c) {
  float3 lo = c.xyz / 12.92f;
  float3 hi = powr((c.xyz + 0.055f) / 1.055f, (float3)2.4f);
  return (float4)(c.xyz <= 0.04045f ? lo : hi, c.w);
}

LS_HELPER float4 ls_linear_to_srgb(float4 c) {
  float3 x = __builtin_elementwise_min(__builtin_elementwise_max(c.xyz, (float3)0.0f),
                                       (float3)1.0f);
  float3 lo = x * 12.92f;
  float3 hi = 1.055f * powr(x, (float3)(1.0f / 2.4f)) - 0.055f;
  return (float4)(x <= 0.0031308f ? lo : hi, c.w);
}

// ---------------------------------------------------------------------------
// One texel at c, which must lie inside the image, as (r, g, b, a).

LS_HELPER float4 ls_image_load_float(ls_image d, int4 c) {
  int order = d->channelOrder;
  float4 v = ls_image_to_rgba(
      ls_image_decode_float(ls_image_texel(d, c), d->channelType, d->channelCount), order, 1.0f);
  return ls_image_is_srgb(order) ? ls_srgb_to_linear(v) : v;
}

LS_HELPER int4 ls_image_load_int(ls_image d, int4 c) {
  return ls_image_to_rgba(
      ls_image_decode_int(ls_image_texel(d, c), d->channelType, d->channelCount),
      d->channelOrder, 1);
}

LS_HELPER uint4 ls_image_load_uint(ls_image d, int4 c) {
  return ls_image_to_rgba(
      ls_image_decode_uint(ls_image_texel(d, c), d->channelType, d->channelCount),
      d->channelOrder, 1u);
}

// The texel at c, or the border colour where c lies outside the image (the
// load itself always reads inside).
LS_HELPER float4 ls_image_fetch_float(ls_image d, int4 c, int4 limits) {
  float4 v = ls_image_load_float(d, ls_image_clamp(c, limits));
  float4 border = (float4)(0.0f, 0.0f, 0.0f, ls_image_has_alpha(d->channelOrder) ? 0.0f : 1.0f);
  return ls_image_inside(c, limits) ? v : border;
}

LS_HELPER int4 ls_image_fetch_int(ls_image d, int4 c, int4 limits) {
  int4 v = ls_image_load_int(d, ls_image_clamp(c, limits));
  int4 border = (int4)(0, 0, 0, ls_image_has_alpha(d->channelOrder) ? 0 : 1);
  return ls_image_inside(c, limits) ? v : border;
}

LS_HELPER uint4 ls_image_fetch_uint(ls_image d, int4 c, int4 limits) {
  uint4 v = ls_image_load_uint(d, ls_image_clamp(c, limits));
  uint4 border = (uint4)(0, 0, 0, ls_image_has_alpha(d->channelOrder) ? 0 : 1);
  return ls_image_inside(c, limits) ? v : border;
}

// Coordinates of any image type as int4 / float4 (x, y, z, 0).
LS_HELPER int4 ls_image_coord(int c) { return (int4)(c, 0, 0, 0); }
LS_HELPER int4 ls_image_coord(int2 c) { return (int4)(c, 0, 0); }
LS_HELPER int4 ls_image_coord(int4 c) { return (int4)(c.xyz, 0); }
LS_HELPER float4 ls_image_coord(float c) { return (float4)(c, 0.0f, 0.0f, 0.0f); }
LS_HELPER float4 ls_image_coord(float2 c) { return (float4)(c, 0.0f, 0.0f); }
LS_HELPER float4 ls_image_coord(float4 c) { return (float4)(c.xyz, 0.0f); }

#endif  // LOCKSTEP_BUILTINS_LS_IMAGE_H

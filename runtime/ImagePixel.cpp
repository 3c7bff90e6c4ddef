// The host's texel conversions: a colour as write_imagef/i/ui would store it
// (OpenCL C spec, "Conversion Rules" for images). clEnqueueFillImage uses
// them; they must agree bit for bit with the image built-ins, so every
// rounding here is round-to-nearest-even, independent of the host's
// floating-point rounding mode.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "Image.h"

namespace lockstep::runtime {

namespace {

// Round to nearest, ties to even, without consulting fegetround().
float roundEven(float x) {
  float below = std::floor(x);
  float fraction = x - below;
  if (fraction > 0.5f || (fraction == 0.5f && std::fmod(below, 2.0f) != 0.0f)) below += 1.0f;
  return below;
}

// convert_<unsigned>_sat_rte(f * max) with f clamped to [0, 1]; NaN is 0.
uint32_t unorm(float f, float max) {
  if (!(f > 0.0f)) return 0;
  if (f >= 1.0f) return static_cast<uint32_t>(max);
  return static_cast<uint32_t>(roundEven(f * max));
}

// convert_<signed>_sat_rte(f * max), as the spec writes it: f * max
// saturates to [-max - 1, max] (so -1.0 is -max, but below -1.0 reaches
// -max - 1); NaN is 0.
int32_t snorm(float f, float max) {
  if (std::isnan(f)) return 0;
  return static_cast<int32_t>(roundEven(std::clamp(f * max, -max - 1.0f, max)));
}

// The OpenCL C spec's linear-to-sRGB transfer function, then to unorm8.
uint32_t srgb(float c) {
  if (std::isnan(c)) c = 0.0f;
  c = std::clamp(c, 0.0f, 1.0f);
  if (c < 0.0031308f)
    c = 12.92f * c;
  else
    c = 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f;
  return unorm(c, 255.0f);
}

// IEEE binary16 from binary32, round-to-nearest-even; NaN stays a (quiet)
// NaN, overflow becomes infinity.
uint16_t halfFromFloat(float f) {
  uint32_t bits = std::bit_cast<uint32_t>(f);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  uint32_t magnitude = bits & 0x7fffffff;
  if (magnitude >= 0x7f800000) return sign | 0x7c00 | (magnitude > 0x7f800000 ? 0x200 : 0);
  if (magnitude >= 0x477ff000) return sign | 0x7c00;  // >= 65520 rounds to infinity
  int exponent = static_cast<int>(magnitude >> 23) - 127;
  uint32_t mantissa = (magnitude & 0x7fffff) | 0x800000;  // 24 significant bits
  // A normal half keeps 11 significant bits (drop 13); a subnormal one
  // counts units of 2^-24 (drop more, the smaller the value).
  int drop = exponent >= -14 ? 13 : -exponent - 1;
  if (drop > 24) return sign;
  uint32_t kept = mantissa >> drop;
  uint32_t rest = mantissa & ((1u << drop) - 1), halfway = 1u << (drop - 1);
  if (rest > halfway || (rest == halfway && (kept & 1))) ++kept;  // may carry into the exponent
  if (exponent >= -14) kept = ((exponent + 14) << 10) + kept;     // kept includes the hidden 1
  return sign | static_cast<uint16_t>(kept);
}

// Which colour components (0 r, 1 g, 2 b, 3 a) a channel order stores, in
// storage order. A padding channel (the x of CL_Rx, CL_RGx, CL_RGBx,
// CL_sRGBx) holds whatever the colour has in that place, as the CTS's
// reference does: its value is undefined, and reads ignore it. Formats
// whose texel has fewer channels than listed keep only the first ones.
struct Stored {
  int count;
  int component[4];
};
Stored storedComponents(cl_channel_order order) {
  switch (order) {
    case CL_A:
      return {1, {3}};
    case CL_RA:
      return {2, {0, 3}};
    case CL_RG:
    case CL_Rx:
      return {2, {0, 1}};
    case CL_RGB:
    case CL_RGx:
    case CL_sRGB:
      return {3, {0, 1, 2}};
    case CL_RGBA:
    case CL_RGBx:
    case CL_sRGBA:
    case CL_sRGBx:
      return {4, {0, 1, 2, 3}};
    case CL_BGRA:
    case CL_sBGRA:
      return {4, {2, 1, 0, 3}};
    case CL_ARGB:
      return {4, {3, 0, 1, 2}};
    case CL_ABGR:
      return {4, {3, 2, 1, 0}};
    default:
      return {1, {0}};  // CL_R, CL_INTENSITY, CL_LUMINANCE, CL_DEPTH
  }
}

bool isSrgb(cl_channel_order order) {
  return order == CL_sRGB || order == CL_sRGBx || order == CL_sRGBA || order == CL_sBGRA;
}

// The packed formats: one 16- or 32-bit word holding every channel.
bool packWord(cl_channel_type type, const float *c, unsigned char *texel) {
  switch (type) {
    case CL_UNORM_SHORT_565: {
      auto word =
          static_cast<uint16_t>(unorm(c[0], 31) << 11 | unorm(c[1], 63) << 5 | unorm(c[2], 31));
      std::memcpy(texel, &word, 2);
      return true;
    }
    case CL_UNORM_SHORT_555: {
      auto word =
          static_cast<uint16_t>(unorm(c[0], 31) << 10 | unorm(c[1], 31) << 5 | unorm(c[2], 31));
      std::memcpy(texel, &word, 2);
      return true;
    }
    case CL_UNORM_INT_101010: {
      uint32_t word = unorm(c[0], 1023) << 20 | unorm(c[1], 1023) << 10 | unorm(c[2], 1023);
      std::memcpy(texel, &word, 4);
      return true;
    }
    case CL_UNORM_INT_101010_2: {
      uint32_t word = unorm(c[0], 1023) << 22 | unorm(c[1], 1023) << 12 | unorm(c[2], 1023) << 2 |
                      unorm(c[3], 3);
      std::memcpy(texel, &word, 4);
      return true;
    }
    default:
      return false;
  }
}

template <class T>
void store(unsigned char *texel, int channel, T value) {
  std::memcpy(texel + channel * sizeof(T), &value, sizeof(T));
}

// One channel of a float-valued format.
void storeFloatChannel(cl_image_format format, int channel, int component, float value,
                       unsigned char *texel) {
  switch (format.image_channel_data_type) {
    case CL_UNORM_INT8: {
      bool encode = isSrgb(format.image_channel_order) && component != 3;  // alpha stays linear
      store(texel, channel, static_cast<uint8_t>(encode ? srgb(value) : unorm(value, 255)));
      break;
    }
    case CL_UNORM_INT16:
      store(texel, channel, static_cast<uint16_t>(unorm(value, 65535)));
      break;
    case CL_SNORM_INT8:
      store(texel, channel, static_cast<int8_t>(snorm(value, 127)));
      break;
    case CL_SNORM_INT16:
      store(texel, channel, static_cast<int16_t>(snorm(value, 32767)));
      break;
    case CL_HALF_FLOAT:
      store(texel, channel, halfFromFloat(value));
      break;
    case CL_FLOAT:
      store(texel, channel, value);
      break;
  }
}

// One channel of an integer format: write_imagei/ui saturate to the
// channel's range (convert_char_sat, ...).
void storeIntegerChannel(cl_channel_type type, int channel, const void *color, int component,
                         unsigned char *texel) {
  int32_t i = static_cast<const int32_t *>(color)[component];
  uint32_t u = static_cast<const uint32_t *>(color)[component];
  switch (type) {
    case CL_SIGNED_INT8:
      store(texel, channel, static_cast<int8_t>(std::clamp(i, -128, 127)));
      break;
    case CL_SIGNED_INT16:
      store(texel, channel, static_cast<int16_t>(std::clamp(i, -32768, 32767)));
      break;
    case CL_SIGNED_INT32:
      store(texel, channel, i);
      break;
    case CL_UNSIGNED_INT8:
      store(texel, channel, static_cast<uint8_t>(std::min(u, 255u)));
      break;
    case CL_UNSIGNED_INT16:
      store(texel, channel, static_cast<uint16_t>(std::min(u, 65535u)));
      break;
    case CL_UNSIGNED_INT32:
      store(texel, channel, u);
      break;
  }
}

bool isIntegerType(cl_channel_type type) {
  return type == CL_SIGNED_INT8 || type == CL_SIGNED_INT16 || type == CL_SIGNED_INT32 ||
         type == CL_UNSIGNED_INT8 || type == CL_UNSIGNED_INT16 || type == CL_UNSIGNED_INT32;
}

}  // namespace

void packFillColor(const cl_image_format &format, const void *color, unsigned char *texel) {
  // Built whole (at most 4 channels of 4 bytes), then cut to the element
  // size: a texel may hold fewer channels than its order lists.
  unsigned char whole[16] = {};  // unused bits of packed formats stay 0
  cl_channel_type type = format.image_channel_data_type;
  if (!packWord(type, static_cast<const float *>(color), whole)) {
    Stored stored = storedComponents(format.image_channel_order);
    for (int channel = 0; channel < stored.count; ++channel) {
      int component = stored.component[channel];
      if (isIntegerType(type))
        storeIntegerChannel(type, channel, color, component, whole);
      else
        storeFloatChannel(format, channel, component, static_cast<const float *>(color)[component],
                          whole);
    }
  }
  std::memcpy(texel, whole, std::min<size_t>(imageElementSize(format), sizeof whole));
}

}  // namespace lockstep::runtime

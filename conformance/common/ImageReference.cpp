// Host reference of images, from the OpenCL C 3.0 specification (section
// "Image Addressing and Filtering" and the conversion rules for each channel
// data type). Computed in double so that it is the spec's exact value; the
// tolerances below are the spec's allowances, each with its reason.
#include "ImageReference.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <sstream>

namespace lockstep::test {
namespace image {
namespace {

// Where each stored channel goes in the RGBA result (-1: a padding channel
// that reads as nothing). Packed types store R, G, B whatever the order says
// (RGB or RGBx). The x orders store the channels they name: Rx one and RGx
// two channels like R and RG, RGBx and sRGBx four with the last one padding
// (the Khronos CTS's image harness counts them so, 4 bytes an sRGBx UNORM_INT8
// texel, and conformance is judged by it).
std::vector<int> storedComponents(const cl_image_format &format) {
  if (isPacked(format.image_channel_data_type)) return {0, 1, 2};
  switch (format.image_channel_order) {
    case CL_R:
    case CL_DEPTH:
    case CL_INTENSITY:
    case CL_LUMINANCE:
      return {0};
    case CL_A:
      return {3};
    case CL_RG:
      return {0, 1};
    case CL_RA:
      return {0, 3};
    case CL_Rx:
      return {0};
    case CL_RGB:
    case CL_sRGB:
      return {0, 1, 2};
    case CL_RGx:
      return {0, 1};
    case CL_RGBx:
    case CL_sRGBx:
      return {0, 1, 2, -1};
    case CL_RGBA:
    case CL_sRGBA:
      return {0, 1, 2, 3};
    case CL_BGRA:
    case CL_sBGRA:
      return {2, 1, 0, 3};
    case CL_ARGB:
      return {3, 0, 1, 2};
    case CL_ABGR:
      return {3, 2, 1, 0};
  }
  return {};
}

size_t elementSize(cl_channel_type type) {
  switch (type) {
    case CL_SNORM_INT8:
    case CL_UNORM_INT8:
    case CL_SIGNED_INT8:
    case CL_UNSIGNED_INT8:
      return 1;
    case CL_SNORM_INT16:
    case CL_UNORM_INT16:
    case CL_SIGNED_INT16:
    case CL_UNSIGNED_INT16:
    case CL_HALF_FLOAT:
      return 2;
    default:
      return 4;
  }
}

// The largest code of a normalized type, per channel (packed types differ).
double normScale(cl_channel_type type, int channel) {
  switch (type) {
    case CL_UNORM_INT8:
      return 255;
    case CL_UNORM_INT16:
      return 65535;
    case CL_SNORM_INT8:
      return 127;
    case CL_SNORM_INT16:
      return 32767;
    case CL_UNORM_SHORT_565:
      return channel == 1 ? 63 : 31;
    case CL_UNORM_SHORT_555:
      return 31;
    case CL_UNORM_INT_101010:
      return 1023;
  }
  return 1;
}

bool isSigned(cl_channel_type type) {
  return type == CL_SNORM_INT8 || type == CL_SNORM_INT16 || type == CL_SIGNED_INT8 ||
         type == CL_SIGNED_INT16 || type == CL_SIGNED_INT32;
}

// Raw stored channels: integer codes (sign-extended), or the float value.
std::vector<double> rawChannels(const cl_image_format &format, const uint8_t *texel) {
  cl_channel_type type = format.image_channel_data_type;
  std::vector<double> out;
  if (isPacked(type)) {
    uint32_t bits = 0;
    std::memcpy(&bits, texel, type == CL_UNORM_INT_101010 ? 4 : 2);
    if (type == CL_UNORM_SHORT_565)
      return {double(bits >> 11 & 31), double(bits >> 5 & 63), double(bits & 31)};
    if (type == CL_UNORM_SHORT_555)
      return {double(bits >> 10 & 31), double(bits >> 5 & 31), double(bits & 31)};
    return {double(bits >> 20 & 1023), double(bits >> 10 & 1023), double(bits & 1023)};
  }
  size_t n = storedComponents(format).size(), size = elementSize(type);
  for (size_t c = 0; c < n; ++c) {
    const uint8_t *p = texel + c * size;
    switch (type) {
      case CL_SNORM_INT8:
      case CL_SIGNED_INT8:
        out.push_back(int8_t(*p));
        break;
      case CL_UNORM_INT8:
      case CL_UNSIGNED_INT8:
        out.push_back(*p);
        break;
      case CL_SNORM_INT16:
      case CL_SIGNED_INT16: {
        int16_t v;
        std::memcpy(&v, p, 2);
        out.push_back(v);
        break;
      }
      case CL_UNORM_INT16:
      case CL_UNSIGNED_INT16: {
        uint16_t v;
        std::memcpy(&v, p, 2);
        out.push_back(v);
        break;
      }
      case CL_HALF_FLOAT: {
        uint16_t v;
        std::memcpy(&v, p, 2);
        out.push_back(halfToFloat(v));
        break;
      }
      case CL_SIGNED_INT32: {
        int32_t v;
        std::memcpy(&v, p, 4);
        out.push_back(v);
        break;
      }
      case CL_UNSIGNED_INT32: {
        uint32_t v;
        std::memcpy(&v, p, 4);
        out.push_back(v);
        break;
      }
      case CL_FLOAT: {
        float v;
        std::memcpy(&v, p, 4);
        out.push_back(v);
        break;
      }
    }
  }
  return out;
}

double srgbToLinear(double c) {
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}
double linearToSrgb(double c) {
  if (std::isnan(c)) c = 0;
  c = std::clamp(c, 0.0, 1.0);
  return c < 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055;
}

// Distributes stored channel values over RGBA with the spec's defaults.
std::array<double, 4> toRgba(const cl_image_format &format, const std::vector<double> &stored) {
  std::array<double, 4> rgba{0, 0, 0, 1};
  cl_channel_order order = format.image_channel_order;
  if (order == CL_INTENSITY) return {stored[0], stored[0], stored[0], stored[0]};
  if (order == CL_LUMINANCE) return {stored[0], stored[0], stored[0], 1};
  std::vector<int> where = storedComponents(format);
  for (size_t c = 0; c < where.size(); ++c)
    if (where[c] >= 0) rgba[where[c]] = stored[c];
  return rgba;
}

std::array<double, 4> decodeExact(const cl_image_format &format, const uint8_t *texel) {
  cl_channel_type type = format.image_channel_data_type;
  std::vector<double> stored = rawChannels(format, texel);
  if (isNormalized(type))
    for (size_t c = 0; c < stored.size(); ++c)
      stored[c] = std::max(-1.0, stored[c] / normScale(type, int(c)));
  std::array<double, 4> rgba = toRgba(format, stored);
  if (isSrgb(format.image_channel_order))
    for (int c = 0; c < 3; ++c) rgba[c] = srgbToLinear(rgba[c]);
  return rgba;
}

// CL_ADDRESS_CLAMP's border colour: transparent black for orders with an
// alpha channel (A, INTENSITY, RA, ARGB, BGRA, ABGR, RGBA, sRGBA, sBGRA),
// opaque black for R, RG, RGB, sRGB, LUMINANCE. The API spec's list puts
// the x orders with the transparent ones, but the Khronos CTS, by which
// conformance is judged, expects opaque black for them (they have no alpha
// channel: its has_alpha is 0), and so does every implementation that
// passes it; we follow the CTS. Depth compares x only: 0 either way.
std::array<double, 4> borderColor(cl_channel_order order) {
  switch (order) {
    case CL_R:
    case CL_RG:
    case CL_RGB:
    case CL_sRGB:
    case CL_LUMINANCE:
    case CL_Rx:
    case CL_RGx:
    case CL_RGBx:
    case CL_sRGBx:
      return {0, 0, 0, 1};
    default:
      return {0, 0, 0, 0};
  }
}

size_t extent(const View &view, int dim) {
  return dim == 0 ? view.width : dim == 1 ? view.height : view.depth;
}

// One dimension of the spec's addressing: the texel indices and weights
// (nearest: one index; linear: two); an index of -1 or n is the border.
struct Taps {
  long index[2];
  double weight[2];
  int count;
};

Taps address(double s, size_t n, const Sampler &sampler) {
  double size = double(n);
  double u = sampler.normalized ? s * size : s;
  cl_addressing_mode mode = sampler.addressing;
  bool linear = sampler.filter == CL_FILTER_LINEAR;
  if (mode == CL_ADDRESS_REPEAT) {
    u = (s - std::floor(s)) * size;
  } else if (mode == CL_ADDRESS_MIRRORED_REPEAT) {
    double mirrored = std::fabs(s - 2.0 * std::nearbyint(0.5 * s));
    u = mirrored * size;
  }
  long last = long(n) - 1;
  if (!linear) {
    long i = long(std::floor(u));
    switch (mode) {
      case CL_ADDRESS_CLAMP_TO_EDGE:
        i = std::clamp(i, 0L, last);
        break;
      case CL_ADDRESS_CLAMP:
        i = std::clamp(i, -1L, long(n));
        break;
      case CL_ADDRESS_REPEAT:
        if (i > last) i -= long(n);
        break;
      case CL_ADDRESS_MIRRORED_REPEAT:
        i = std::min(i, last);
        break;
      default:
        break;  // CL_ADDRESS_NONE: the tests stay inside the image
    }
    return {{i, i}, {1, 0}, 1};
  }
  long i0 = long(std::floor(u - 0.5)), i1 = i0 + 1;
  double a = (u - 0.5) - std::floor(u - 0.5);
  switch (mode) {
    case CL_ADDRESS_CLAMP_TO_EDGE:
      i0 = std::clamp(i0, 0L, last);
      i1 = std::clamp(i1, 0L, last);
      break;
    case CL_ADDRESS_CLAMP:
      i0 = std::clamp(i0, -1L, long(n));
      i1 = std::clamp(i1, -1L, long(n));
      break;
    case CL_ADDRESS_REPEAT:
      if (i0 < 0) i0 += long(n);
      if (i1 > last) i1 -= long(n);
      break;
    case CL_ADDRESS_MIRRORED_REPEAT:
      i0 = std::max(i0, 0L);
      i1 = std::min(i1, last);
      break;
    default:
      break;
  }
  return {{i0, i1}, {1 - a, a}, 2};
}

size_t layerOf(const View &view, float coord) {
  double layer = std::nearbyint(double(coord));
  return size_t(std::clamp(layer, 0.0, double(view.layers - 1)));
}

// The texels a sample reads and their weights.
struct Footprint {
  std::vector<std::array<double, 4>> texels;  // decoded (sRGB already linear)
  std::vector<double> weights;
  std::vector<const uint8_t *> raw;  // nullptr for the border
};

Footprint footprint(const View &view, const Sampler &sampler, const std::array<float, 3> &coord) {
  int dims = view.dims();
  Taps taps[3] = {{{0, 0}, {1, 0}, 1}, {{0, 0}, {1, 0}, 1}, {{0, 0}, {1, 0}, 1}};
  for (int d = 0; d < dims; ++d) taps[d] = address(coord[d], extent(view, d), sampler);
  size_t layer = view.arrayed() ? layerOf(view, coord[dims]) : 0;
  Footprint out;
  for (int k = 0; k < taps[2].count; ++k)
    for (int j = 0; j < taps[1].count; ++j)
      for (int i = 0; i < taps[0].count; ++i) {
        long at[3] = {taps[0].index[i], taps[1].index[j], taps[2].index[k]};
        double weight = taps[0].weight[i] * taps[1].weight[j] * taps[2].weight[k];
        bool border = false;
        for (int d = 0; d < dims; ++d) border |= at[d] < 0 || at[d] >= long(extent(view, d));
        if (border) {
          out.texels.push_back(borderColor(view.format.image_channel_order));
          out.raw.push_back(nullptr);
        } else {
          size_t x = size_t(at[0]), y = dims > 1 ? size_t(at[1]) : 0,
                 z = dims > 2 ? size_t(at[2]) : 0;
          if (view.type == CL_MEM_OBJECT_IMAGE1D_ARRAY) y = layer;
          if (view.type == CL_MEM_OBJECT_IMAGE2D_ARRAY) z = layer;
          const uint8_t *p = view.texel(x, y, z);
          out.raw.push_back(p);
          out.texels.push_back(familyOf(view.format.image_channel_data_type) == Family::Float
                                   ? decodeExact(view.format, p)
                                   : std::array<double, 4>{});
        }
        out.weights.push_back(weight);
      }
  return out;
}

std::string describe(const std::array<double, 4> &v) {
  std::ostringstream s;
  s.precision(9);
  s << "(" << v[0] << ", " << v[1] << ", " << v[2] << ", " << v[3] << ")";
  return s.str();
}

// The coordinates to try: the given one and, per dimension, one a rounding
// error either side. The spec computes u = s * size and floor() in float:
// a coordinate within a few ulp of a texel boundary may land on either side
// (and a normalized coordinate is rarely exact), so either neighbour is right.
std::vector<std::array<float, 3>> nearbyCoords(const View &view,
                                               const std::array<float, 3> &coord) {
  std::vector<std::array<float, 3>> out{coord};
  int dims = view.dims();
  for (int d = 0; d < dims; ++d) {
    size_t count = out.size();
    for (size_t i = 0; i < count; ++i)
      for (float dir : {-1.0f, 1.0f}) {
        std::array<float, 3> c = out[i];
        float step = std::max(std::fabs(c[d]), 1.0f) * 0x1p-16f;
        c[d] += dir * step;
        out.push_back(c);
      }
  }
  return out;
}

// How far read_imagef's channel may be from the exact value.
//  - Normalized integers: the spec bounds the conversion at 1.5 ulp of the
//    float result, with 0, the largest code (and -127/-128 for snorm) exact.
//  - sRGB: the spec gives no tighter bound than the unorm code; we accept a
//    sixteenth of one 8-bit code step (1/4080), far below a wrong curve.
//  - Half and float: exact (the conversion to float is lossless).
//  - Linear filtering: the spec leaves the weights' precision to the device
//    (GPUs use 8-bit fractions); we allow a weight error of 2^-8 of the spread
//    of the texels filtered, plus float rounding of the weighted sum.
double channelTolerance(const View &view, const Sampler &sampler, const Footprint &fp, int c,
                        double want) {
  cl_channel_type type = view.format.image_channel_data_type;
  double tolerance = 0;
  if (isSrgb(view.format.image_channel_order) && c < 3)
    tolerance = 1.0 / 4080;
  else if (isNormalized(type))
    tolerance = 1.5 * std::ldexp(1.0, std::ilogb(std::max(std::fabs(want), 1e-30)) - 23);
  if (sampler.filter == CL_FILTER_LINEAR) {
    double lo = INFINITY, hi = -INFINITY, magnitude = 0;
    for (size_t t = 0; t < fp.texels.size(); ++t) {
      lo = std::min(lo, fp.texels[t][c]);
      hi = std::max(hi, fp.texels[t][c]);
      magnitude += std::fabs(fp.weights[t] * fp.texels[t][c]);
    }
    tolerance += (hi - lo) * 0x1p-8 + magnitude * 8 * 0x1p-24;
  }
  return tolerance;
}

}  // namespace

Family familyOf(cl_channel_type type) {
  switch (type) {
    case CL_SIGNED_INT8:
    case CL_SIGNED_INT16:
    case CL_SIGNED_INT32:
      return Family::Int;
    case CL_UNSIGNED_INT8:
    case CL_UNSIGNED_INT16:
    case CL_UNSIGNED_INT32:
      return Family::Uint;
    default:
      return Family::Float;
  }
}
bool isFloatStorage(cl_channel_type type) { return type == CL_FLOAT || type == CL_HALF_FLOAT; }
bool isNormalized(cl_channel_type type) {
  return familyOf(type) == Family::Float && !isFloatStorage(type);
}
bool isSrgb(cl_channel_order order) {
  return order == CL_sRGB || order == CL_sRGBA || order == CL_sBGRA || order == CL_sRGBx;
}
bool isPacked(cl_channel_type type) {
  return type == CL_UNORM_SHORT_565 || type == CL_UNORM_SHORT_555 || type == CL_UNORM_INT_101010;
}

size_t channelCount(cl_channel_order order) {
  cl_image_format format{order, CL_UNORM_INT8};
  return storedComponents(format).size();
}

size_t pixelSize(const cl_image_format &format) {
  cl_channel_type type = format.image_channel_data_type;
  if (isPacked(type)) return type == CL_UNORM_INT_101010 ? 4 : 2;
  return channelCount(format.image_channel_order) * elementSize(type);
}

std::string formatName(const cl_image_format &format) {
  static const std::pair<cl_uint, const char *> names[] = {
      {CL_R, "R"},
      {CL_A, "A"},
      {CL_RG, "RG"},
      {CL_RA, "RA"},
      {CL_RGB, "RGB"},
      {CL_RGBA, "RGBA"},
      {CL_BGRA, "BGRA"},
      {CL_ARGB, "ARGB"},
      {CL_INTENSITY, "INTENSITY"},
      {CL_LUMINANCE, "LUMINANCE"},
      {CL_Rx, "Rx"},
      {CL_RGx, "RGx"},
      {CL_RGBx, "RGBx"},
      {CL_DEPTH, "DEPTH"},
      {CL_sRGB, "sRGB"},
      {CL_sRGBx, "sRGBx"},
      {CL_sRGBA, "sRGBA"},
      {CL_sBGRA, "sBGRA"},
      {CL_ABGR, "ABGR"},
      {CL_SNORM_INT8, "SNORM_INT8"},
      {CL_SNORM_INT16, "SNORM_INT16"},
      {CL_UNORM_INT8, "UNORM_INT8"},
      {CL_UNORM_INT16, "UNORM_INT16"},
      {CL_UNORM_SHORT_565, "UNORM_SHORT_565"},
      {CL_UNORM_SHORT_555, "UNORM_SHORT_555"},
      {CL_UNORM_INT_101010, "UNORM_INT_101010"},
      {CL_SIGNED_INT8, "SIGNED_INT8"},
      {CL_SIGNED_INT16, "SIGNED_INT16"},
      {CL_SIGNED_INT32, "SIGNED_INT32"},
      {CL_UNSIGNED_INT8, "UNSIGNED_INT8"},
      {CL_UNSIGNED_INT16, "UNSIGNED_INT16"},
      {CL_UNSIGNED_INT32, "UNSIGNED_INT32"},
      {CL_HALF_FLOAT, "HALF_FLOAT"},
      {CL_FLOAT, "FLOAT"}};
  auto name = [&](cl_uint value) -> std::string {
    for (auto &[v, n] : names)
      if (v == value) return n;
    return "0x" + std::to_string(value);
  };
  return "CL_" + name(format.image_channel_order) + "/CL_" + name(format.image_channel_data_type);
}

Float4 decodeFloat(const cl_image_format &format, const uint8_t *texel) {
  std::array<double, 4> v = decodeExact(format, texel);
  return {float(v[0]), float(v[1]), float(v[2]), float(v[3])};
}

Int4 decodeInt(const cl_image_format &format, const uint8_t *texel) {
  std::array<double, 4> v = toRgba(format, rawChannels(format, texel));
  return {int32_t(v[0]), int32_t(v[1]), int32_t(v[2]), int32_t(v[3])};
}

Uint4 decodeUint(const cl_image_format &format, const uint8_t *texel) {
  std::array<double, 4> v = toRgba(format, rawChannels(format, texel));
  return {uint32_t(v[0]), uint32_t(v[1]), uint32_t(v[2]), uint32_t(v[3])};
}

void randomTexels(const cl_image_format &format, size_t texels, std::mt19937 &rng,
                  std::vector<uint8_t> &out) {
  size_t size = pixelSize(format);
  out.resize(texels * size);
  cl_channel_type type = format.image_channel_data_type;
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_real_distribution<float> value(-4.0f, 4.0f);
  for (size_t t = 0; t < texels; ++t) {
    uint8_t *p = out.data() + t * size;
    if (!isFloatStorage(type)) {
      for (size_t b = 0; b < size; ++b) p[b] = uint8_t(byte(rng));
      continue;
    }
    for (size_t c = 0; c < size / elementSize(type); ++c) {
      float v = value(rng);
      if (std::fabs(v) < 1e-3f) v = 0;  // no denormals: the spec lets them flush
      if (type == CL_FLOAT)
        std::memcpy(p + 4 * c, &v, 4);
      else {
        uint16_t h = floatToHalfRte(v);
        std::memcpy(p + 2 * c, &h, 2);
      }
    }
  }
}

namespace {

template <typename Vec>
std::vector<double> idealFromColor(const cl_image_format &format, const Vec &color) {
  std::vector<int> where = storedComponents(format);
  std::vector<double> out;
  for (int component : where) out.push_back(component < 0 ? 0.0 : double(color[component]));
  return out;
}

}  // namespace

std::vector<double> idealStored(const cl_image_format &format, const Float4 &color) {
  std::vector<double> out = idealFromColor(format, color);
  cl_channel_type type = format.image_channel_data_type;
  std::vector<int> where = storedComponents(format);
  for (size_t c = 0; c < out.size(); ++c) {
    double v = out[c];
    if (isSrgb(format.image_channel_order) && where[c] >= 0 && where[c] < 3) v = linearToSrgb(v);
    if (isNormalized(type)) {
      // convert_<type>_sat_rte(f * scale): saturation to the integer range
      // (so -1.5 gives -128 for SNORM_INT8, not -127); NaN converts to 0.
      if (std::isnan(v)) v = 0;
      double scale = normScale(type, int(c));
      v = std::clamp(v * scale, isSigned(type) ? -scale - 1 : 0.0, scale);
    }
    out[c] = v;
  }
  return out;
}

std::vector<double> idealStored(const cl_image_format &format, const Int4 &color) {
  std::vector<double> out = idealFromColor(format, color);
  double lo = -2147483648.0, hi = 2147483647.0;
  switch (format.image_channel_data_type) {
    case CL_SIGNED_INT8:
      lo = -128, hi = 127;
      break;
    case CL_SIGNED_INT16:
      lo = -32768, hi = 32767;
      break;
  }
  for (double &v : out) v = std::clamp(v, lo, hi);
  return out;
}

std::vector<double> idealStored(const cl_image_format &format, const Uint4 &color) {
  std::vector<double> out = idealFromColor(format, color);
  double hi = 4294967295.0;
  switch (format.image_channel_data_type) {
    case CL_UNSIGNED_INT8:
      hi = 255;
      break;
    case CL_UNSIGNED_INT16:
      hi = 65535;
      break;
  }
  for (double &v : out) v = std::min(v, hi);
  return out;
}

std::vector<double> storedChannels(const cl_image_format &format, const uint8_t *texel) {
  return rawChannels(format, texel);
}

// Tolerances of writes:
//  - Normalized integers (and sRGB, encoded then stored as unorm8): the spec
//    prefers round to nearest even and allows an error of at most 0.6 ulp of
//    the integer code, so a code within 0.6 of the exact scaled value is right.
//  - Half: the spec lets float-to-half round to nearest even or toward zero,
//    and flush half denormals to zero.
//  - Float: exact (denormals may flush to zero); integers: saturated, exact.
bool storedMatches(const cl_image_format &format, const std::vector<double> &ideal,
                   const uint8_t *texel, std::string *why) {
  std::vector<double> got = rawChannels(format, texel);
  std::vector<int> where = storedComponents(format);
  cl_channel_type type = format.image_channel_data_type;
  for (size_t c = 0; c < got.size(); ++c) {
    if (where[c] < 0) continue;  // x channels hold anything
    bool ok = false;
    double want = ideal[c];
    if (isNormalized(type)) {
      ok = std::fabs(got[c] - want) <= 0.6;
    } else if (type == CL_HALF_FLOAT) {
      float f = float(want);
      ok = (std::isnan(want) && std::isnan(got[c])) || got[c] == halfToFloat(floatToHalfRte(f)) ||
           got[c] == halfToFloat(floatToHalfRtz(f)) || (std::fabs(want) < 0x1p-14 && got[c] == 0);
    } else if (type == CL_FLOAT) {
      ok = (std::isnan(want) && std::isnan(got[c])) || got[c] == want ||
           (std::fabs(want) < 0x1p-126 && got[c] == 0);
    } else {
      ok = got[c] == want;
    }
    if (!ok) {
      if (why) {
        std::ostringstream s;
        s.precision(9);
        s << formatName(format) << " stored channel " << c << " holds " << got[c] << ", want "
          << want;
        *why = s.str();
      }
      return false;
    }
  }
  return true;
}

size_t View::rowBytes() const { return rowPitch ? rowPitch : width * pixelSize(format); }
size_t View::sliceBytes() const {
  if (slicePitch) return slicePitch;
  if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY) return rowBytes();
  return rowBytes() * height;
}
const uint8_t *View::texel(size_t x, size_t y, size_t z) const {
  if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY) return data + y * sliceBytes() + x * pixelSize(format);
  return data + z * sliceBytes() + y * rowBytes() + x * pixelSize(format);
}
int View::dims() const {
  switch (type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      return 1;
    case CL_MEM_OBJECT_IMAGE3D:
      return 3;
    default:
      return 2;
  }
}
bool View::arrayed() const {
  return type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
}

std::array<double, 4> sampleFloat(const View &view, const Sampler &sampler,
                                  const std::array<float, 3> &coord) {
  Footprint fp = footprint(view, sampler, coord);
  std::array<double, 4> sum{0, 0, 0, 0};
  for (size_t t = 0; t < fp.texels.size(); ++t)
    for (int c = 0; c < 4; ++c) sum[c] += fp.weights[t] * fp.texels[t][c];
  return sum;
}

namespace {

template <typename Vec, typename Decode>
Vec sampleInteger(const View &view, const Sampler &sampler, const std::array<float, 3> &coord,
                  Decode decode) {
  Footprint fp = footprint(view, sampler, coord);
  if (!fp.raw[0]) {
    std::array<double, 4> border = borderColor(view.format.image_channel_order);
    return {typename Vec::value_type(border[0]), typename Vec::value_type(border[1]),
            typename Vec::value_type(border[2]), typename Vec::value_type(border[3])};
  }
  return decode(view.format, fp.raw[0]);
}

template <typename Vec, typename Sample>
bool integerMatches(const View &view, const Sampler &sampler, const std::array<float, 3> &coord,
                    const Vec &got, std::string *why, Sample sample) {
  Vec first{};
  bool firstSet = false;
  for (const auto &c : nearbyCoords(view, coord)) {
    Vec want = sample(view, sampler, c);
    if (want == got) return true;
    if (!firstSet) first = want, firstSet = true;
  }
  if (why)
    *why = "got (" + std::to_string(got[0]) + ", " + std::to_string(got[1]) + ", " +
           std::to_string(got[2]) + ", " + std::to_string(got[3]) + "), want (" +
           std::to_string(first[0]) + ", " + std::to_string(first[1]) + ", " +
           std::to_string(first[2]) + ", " + std::to_string(first[3]) + ")";
  return false;
}

}  // namespace

Int4 sampleInt(const View &view, const Sampler &sampler, const std::array<float, 3> &coord) {
  return sampleInteger<Int4>(view, sampler, coord, decodeInt);
}
Uint4 sampleUint(const View &view, const Sampler &sampler, const std::array<float, 3> &coord) {
  return sampleInteger<Uint4>(view, sampler, coord, decodeUint);
}

bool sampleMatches(const View &view, const Sampler &sampler, const std::array<float, 3> &coord,
                   const Float4 &got, std::string *why) {
  bool depth = view.format.image_channel_order == CL_DEPTH;
  std::string first;
  for (const auto &c : nearbyCoords(view, coord)) {
    Footprint fp = footprint(view, sampler, c);
    std::array<double, 4> want = sampleFloat(view, sampler, c);
    bool ok = true;
    for (int ch = 0; ch < (depth ? 1 : 4) && ok; ++ch) {
      double tolerance = channelTolerance(view, sampler, fp, ch, want[ch]);
      // The spec requires exact results for the end codes of normalized types.
      bool exactEnd = isNormalized(view.format.image_channel_data_type) &&
                      sampler.filter == CL_FILTER_NEAREST &&
                      (want[ch] == 0 || std::fabs(want[ch]) == 1);
      if (exactEnd) tolerance = 0;
      ok = std::fabs(double(got[ch]) - want[ch]) <= tolerance;
    }
    if (ok) return true;
    if (first.empty()) first = "want " + describe(want);
  }
  if (why)
    *why = "got " + describe({got[0], got[1], got[2], got[3]}) + ", " + first +
           (depth ? " (x only)" : "");
  return false;
}

bool sampleMatches(const View &view, const Sampler &sampler, const std::array<float, 3> &coord,
                   const Int4 &got, std::string *why) {
  return integerMatches(view, sampler, coord, got, why, sampleInt);
}
bool sampleMatches(const View &view, const Sampler &sampler, const std::array<float, 3> &coord,
                   const Uint4 &got, std::string *why) {
  return integerMatches(view, sampler, coord, got, why, sampleUint);
}

float halfToFloat(uint16_t h) {
  int sign = h >> 15, exponent = h >> 10 & 31, mantissa = h & 1023;
  double magnitude;
  if (exponent == 31)
    magnitude = mantissa ? NAN : INFINITY;
  else if (exponent == 0)
    magnitude = std::ldexp(double(mantissa), -24);
  else
    magnitude = std::ldexp(double(mantissa | 1024), exponent - 25);
  return float(sign ? -magnitude : magnitude);
}

namespace {

uint16_t floatToHalf(float f, bool nearestEven) {
  uint32_t bits = std::bit_cast<uint32_t>(f);
  uint16_t sign = uint16_t(bits >> 16 & 0x8000);
  float a = std::fabs(f);
  if (std::isnan(f)) return sign | 0x7e00;
  if (std::isinf(f)) return sign | 0x7c00;
  // Work in units of the half's smallest denormal (2^-24) or, for normal
  // values, of the half ulp of a's binade, then round the scaled mantissa.
  int exponent = a == 0 ? -25 : std::ilogb(a);
  int quantum = std::max(exponent, -14) - 10;  // log2 of one half ulp at a
  double scaled = std::ldexp(double(a), -quantum);
  double rounded = nearestEven ? std::nearbyint(scaled) : std::trunc(scaled);
  double value = std::ldexp(rounded, quantum);
  if (value >= 65536.0 || (nearestEven && value > 65504.0))
    return sign | (nearestEven ? 0x7c00 : 0x7bff);
  if (value < 0x1p-14) return sign | uint16_t(std::ldexp(value, 24));  // denormal
  int e = std::ilogb(value);
  uint16_t mantissa = uint16_t(std::ldexp(value, 10 - e)) & 1023;
  return sign | uint16_t((e + 15) << 10) | mantissa;
}

}  // namespace

uint16_t floatToHalfRte(float f) { return floatToHalf(f, true); }
uint16_t floatToHalfRtz(float f) { return floatToHalf(f, false); }

}  // namespace image

}  // namespace lockstep::test

// The host reference of the image tests, written from the OpenCL C
// specification (3.0: "Image Addressing and Filtering", "Conversion Rules" for
// normalized integer, half, floating-point, sRGB and integer channel data
// types), independently of any driver: texel decode/encode for each format,
// addressing modes, nearest and linear filtering, and the spec's tolerances.
//
// Below it, ImageTest: the fixture of the image tests (fails loudly when the
// device reports no image support, owns the images and samplers it makes).
#pragma once

#include <CL/cl.h>

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ClTest.h"

namespace lockstep::test {
namespace image {

using Float4 = std::array<float, 4>;
using Int4 = std::array<int32_t, 4>;
using Uint4 = std::array<uint32_t, 4>;

// Which read_image/write_image family a channel data type goes with.
enum class Family { Float, Int, Uint };
Family familyOf(cl_channel_type type);
// read_imagef of this type is exact (float and half storage): no rounding slack.
bool isFloatStorage(cl_channel_type type);
bool isNormalized(cl_channel_type type);
bool isSrgb(cl_channel_order order);
bool isPacked(cl_channel_type type);  // 565, 555, 101010

size_t channelCount(cl_channel_order order);  // stored channels (x channels included)
size_t pixelSize(const cl_image_format &format);
std::string formatName(const cl_image_format &format);

// A texel as the kernel sees it (RGBA after the channel-order mapping, missing
// components as (0, 0, 0, 1)), in each family.
Float4 decodeFloat(const cl_image_format &format, const uint8_t *texel);
Int4 decodeInt(const cl_image_format &format, const uint8_t *texel);
Uint4 decodeUint(const cl_image_format &format, const uint8_t *texel);

// Deterministic texel contents: finite values (floats and halves in [-4, 4),
// no denormals; any bit pattern otherwise).
void randomTexels(const cl_image_format &format, size_t texels, std::mt19937 &rng,
                  std::vector<uint8_t> &out);
// The ideal value written by write_imagef/i/ui, channel by channel in storage
// order, before rounding: codes for normalized types (after clamping), the
// float for float/half, the saturated integer for integer types.
std::vector<double> idealStored(const cl_image_format &format, const Float4 &color);
std::vector<double> idealStored(const cl_image_format &format, const Int4 &color);
std::vector<double> idealStored(const cl_image_format &format, const Uint4 &color);
// The channel values actually stored in a texel, in storage order (codes for
// normalized and integer types, the value for float and half).
std::vector<double> storedChannels(const cl_image_format &format, const uint8_t *texel);
// Whether a stored texel is an allowed result of writing `ideal` (see the
// tolerances in ImageReference.cpp); `why` explains a mismatch.
bool storedMatches(const cl_image_format &format, const std::vector<double> &ideal,
                   const uint8_t *texel, std::string *why);

// Geometry of an image in host memory (tightly packed unless pitches say
// otherwise), whatever its type: 1D arrays keep their layers in `height`'s
// place of the pitch arithmetic (one row per layer), 2D arrays in `depth`'s.
struct View {
  cl_mem_object_type type = CL_MEM_OBJECT_IMAGE2D;
  cl_image_format format{};
  size_t width = 1, height = 1, depth = 1, layers = 1;
  size_t rowPitch = 0, slicePitch = 0;  // 0: tightly packed
  const uint8_t *data = nullptr;
  size_t rowBytes() const;
  size_t sliceBytes() const;
  // The texel at integer coordinates (x, y, z); z is the layer of a 2D array,
  // y the layer of a 1D array.
  const uint8_t *texel(size_t x, size_t y, size_t z) const;
  // Spatial dimensions: 1, 2 or 3 (layers not counted).
  int dims() const;
  bool arrayed() const;
};

struct Sampler {
  bool normalized = false;
  cl_addressing_mode addressing = CL_ADDRESS_NONE;
  cl_filter_mode filter = CL_FILTER_NEAREST;
};

// read_imagef(image, sampler, coord) by the spec's formulas in exact
// arithmetic (double); coord is (x, y, z) with the layer in the place the
// image type puts it.
std::array<double, 4> sampleFloat(const View &view, const Sampler &sampler,
                                  const std::array<float, 3> &coord);
// read_imagei/ui (nearest filtering only).
Int4 sampleInt(const View &view, const Sampler &sampler, const std::array<float, 3> &coord);
Uint4 sampleUint(const View &view, const Sampler &sampler, const std::array<float, 3> &coord);

// Whether `got` from read_imagef may be the result of sampling at `coord`:
// the spec's conversion error bounds, plus (for coordinates within a
// rounding error of a texel boundary) either neighbour, and for linear
// filtering a weight-precision slack. `why` explains a mismatch.
bool sampleMatches(const View &view, const Sampler &sampler, const std::array<float, 3> &coord,
                   const Float4 &got, std::string *why);
bool sampleMatches(const View &view, const Sampler &sampler, const std::array<float, 3> &coord,
                   const Int4 &got, std::string *why);
bool sampleMatches(const View &view, const Sampler &sampler, const std::array<float, 3> &coord,
                   const Uint4 &got, std::string *why);

// IEEE half conversions.
float halfToFloat(uint16_t h);
uint16_t floatToHalfRte(float f);
uint16_t floatToHalfRtz(float f);

}  // namespace image

// An image with deterministic random contents and its host copy.
struct HostImage {
  cl_mem mem = nullptr;
  image::View geometry;  // data left null: see view()
  std::vector<uint8_t> bytes;
  image::View view() const {
    image::View v = geometry;
    v.data = bytes.data();
    return v;
  }
};

// Fixture of the image tests.
class ImageTest : public ClTest {
 protected:
  // A tightly packed image of `type` made with CL_MEM_COPY_HOST_PTR from
  // random texels (height/depth/layers ignored where the type has none).
  HostImage randomImage(cl_mem_object_type type, const cl_image_format &format, size_t width,
                        size_t height = 1, size_t depth = 1, size_t layers = 1,
                        cl_mem_flags flags = CL_MEM_READ_ONLY);
  // The cl_image_desc of a view's geometry.
  static cl_image_desc descOf(const image::View &view);
  void SetUp() override;
  void TearDown() override;

  // The formats the device lists for this type and these flags.
  std::vector<cl_image_format> supportedFormats(cl_mem_flags flags, cl_mem_object_type type);
  bool supports(const cl_image_format &format, cl_mem_flags flags, cl_mem_object_type type);
  cl_mem image(cl_mem_flags flags, const cl_image_format &format, const cl_image_desc &desc,
               void *host = nullptr);
  cl_mem imageNoCheck(cl_mem_flags flags, const cl_image_format &format, const cl_image_desc &desc,
                      void *host, cl_int *err);
  cl_sampler sampler(bool normalized, cl_addressing_mode addressing, cl_filter_mode filter);
  static cl_image_desc desc(cl_mem_object_type type, size_t width, size_t height = 0,
                            size_t depth = 0, size_t arraySize = 0, cl_mem buffer = nullptr);
  // Keeps a memory object to release at the end of the test.
  cl_mem own(cl_mem mem);

  std::vector<cl_mem> images_;
  std::vector<cl_sampler> samplers_;
};

// Options for image kernels: OpenCL C 3.0 (read_write images, optional
// features by macro).
inline const char *kImageBuildOptions = "-cl-std=CL3.0";

}  // namespace lockstep::test

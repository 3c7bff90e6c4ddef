// Writing images in kernels: write_imagef/i/ui into every format the device
// lists for writing (normalized rounding and saturation, half rounding,
// integer saturation), every image type including 3D, sRGB encoding, depth
// images; the stored texels are read back with clEnqueueReadImage and checked
// against the host reference's conversion rules (common/ImageReference).
#include <cmath>
#include <limits>
#include <map>

#include "ImageReference.h"

namespace lockstep::test {
namespace {

using image::Float4;
using image::Int4;
using image::Uint4;

struct TypeInfo {
  cl_mem_object_type type;
  const char *name, *imageType, *coord;
};
const TypeInfo kTypes[] = {
    {CL_MEM_OBJECT_IMAGE1D, "1d", "image1d_t", "x"},
    {CL_MEM_OBJECT_IMAGE2D, "2d", "image2d_t", "(int2)(x, y)"},
    {CL_MEM_OBJECT_IMAGE3D, "3d", "image3d_t", "(int4)(x, y, z, 0)"},
    {CL_MEM_OBJECT_IMAGE1D_ARRAY, "1darray", "image1d_array_t", "(int2)(x, y)"},
    {CL_MEM_OBJECT_IMAGE2D_ARRAY, "2darray", "image2d_array_t", "(int4)(x, y, z, 0)"},
};

// write_<f|i|ui>_<type>: work-item (x, y, z) writes values[its linear id].
// Each kernel is built alone, when a test first needs it.
std::string writeKernel(const std::string &family, const TypeInfo &t) {
  const char *vec = family == "f" ? "float4" : family == "i" ? "int4" : "uint4";
  return std::string("#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable\n") +
         "kernel void write_" + family + "_" + t.name + "(write_only " + t.imageType +
         " img, global const " + vec +
         " *values) {\n  int x = get_global_id(0), y = get_global_id(1), z = "
         "get_global_id(2);\n  size_t i = (z * get_global_size(1) + y) * "
         "get_global_size(0) + x;\n  write_image" +
         family + "(img, " + t.coord + ", values[i]);\n}\n";
}

class ImageWrites : public ImageTest {
 protected:
  // Values a kernel writes: the interesting ones first (ends, halfway
  // codes, out of range, NaN), then random, for the format's family.
  std::vector<Float4> floatValues(const cl_image_format &format, size_t n) {
    std::vector<float> special;
    if (image::isNormalized(format.image_channel_data_type))
      special = {0.0f,
                 1.0f,
                 -1.0f,
                 0.5f,
                 0.5f / 255,
                 1.5f / 255,
                 2.5f / 255,
                 127.5f / 255,
                 -0.5f / 127,
                 1.25f,
                 -3.0f,
                 std::numeric_limits<float>::quiet_NaN(),
                 std::numeric_limits<float>::infinity(),
                 0.5f / 65535,
                 0.0031308f,
                 0.04045f};
    else if (format.image_channel_data_type == CL_HALF_FLOAT)
      special = {0.0f,
                 -0.0f,
                 1.0f,
                 65504.0f,
                 70000.0f,
                 -1e6f,
                 1.0f + 0x1p-11f,
                 1.0f + 3 * 0x1p-11f,
                 0x1p-14f,
                 3.14159f,
                 std::numeric_limits<float>::infinity(),
                 -2.71828f,
                 1e-3f};
    else
      special = {
          0.0f, -0.0f, 1.0f, 3.0e38f, -1.5e-30f, 3.14159f, std::numeric_limits<float>::infinity()};
    bool normalized = image::isNormalized(format.image_channel_data_type);
    std::uniform_real_distribution<float> any(normalized ? -0.25f : -100.0f,
                                              normalized ? 1.25f : 100.0f);
    std::vector<Float4> out(n);
    for (size_t i = 0; i < n; ++i)
      for (int c = 0; c < 4; ++c)
        out[i][c] =
            (i * 4 + c) / 3 < special.size() && c != 3 ? special[(i * 4 + c) / 3] : any(rng_);
    return out;
  }
  template <typename Vec>
  std::vector<Vec> integerValues(size_t n) {
    using T = typename Vec::value_type;
    std::vector<Vec> out(n);
    std::uniform_int_distribution<T> any(std::numeric_limits<T>::min(),
                                         std::numeric_limits<T>::max());
    std::uniform_int_distribution<T> small(std::is_signed_v<T> ? T(-300) : T(0), T(300));
    for (size_t i = 0; i < n; ++i)
      for (int c = 0; c < 4; ++c) out[i][c] = (i + c) % 2 ? any(rng_) : small(rng_);
    out[0] = {T(0), std::numeric_limits<T>::max(), std::numeric_limits<T>::min(), T(127)};
    return out;
  }

  // Writes `values` into a new image of this geometry with write_<family>_<type>
  // and checks every stored texel.
  template <typename Vec>
  void writeAndCheck(cl_mem_object_type type, const cl_image_format &format, size_t w, size_t h,
                     size_t d, const std::vector<Vec> &values, const char *family,
                     cl_kernel custom = nullptr) {
    const TypeInfo *info = nullptr;
    for (const TypeInfo &t : kTypes)
      if (t.type == type) info = &t;
    image::View view;
    view.type = type;
    view.format = format;
    view.width = w;
    view.height = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : h;
    view.depth = type == CL_MEM_OBJECT_IMAGE3D ? d : 1;
    view.layers = type == CL_MEM_OBJECT_IMAGE1D_ARRAY   ? h
                  : type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? d
                                                        : 1;
    cl_mem img = image(CL_MEM_WRITE_ONLY, format, descOf(view));
    if (!img) return;  // the failure is recorded; the caller goes on
    std::string name = std::string("write_") + family + "_" + info->name;
    if (!custom && !writeKernels_.count(name))
      writeKernels_[name] = kernel(writeKernel(family, *info), name.c_str(), kImageBuildOptions);
    cl_kernel k = custom ? custom : writeKernels_[name];
    ASSERT_NE(k, nullptr);
    ASSERT_EQ(values.size(), w * h * d);
    cl_mem in = bufferFrom(values);
    ASSERT_TRUE(setArgs(k, img, in));
    ASSERT_TRUE(run(k, {w, h, d}));
    std::vector<uint8_t> stored(w * h * d * image::pixelSize(format));
    size_t origin[3] = {0, 0, 0}, region[3] = {w, h, d};
    ASSERT_CL(clEnqueueReadImage(queue_, img, CL_TRUE, origin, region, 0, 0, stored.data(), 0,
                                 nullptr, nullptr));
    int failures = 0;
    for (size_t i = 0; i < values.size() && failures < 5; ++i) {
      std::string why;
      if (!image::storedMatches(format, image::idealStored(format, values[i]),
                                stored.data() + i * image::pixelSize(format), &why)) {
        ++failures;
        ADD_FAILURE() << "write_image" << family << " to " << (info ? info->name : "?") << " "
                      << image::formatName(format) << ", texel " << i % w << ", " << i / w % h
                      << ", " << i / (w * h) << " (value " << double(values[i][0]) << ", "
                      << double(values[i][1]) << ", " << double(values[i][2]) << ", "
                      << double(values[i][3]) << "): " << why;
      }
    }
  }

  std::map<std::string, cl_kernel> writeKernels_;
};

// Every format the device lists for writing 2D images stores what the
// conversion rules say. (PoCL 3.1 corrupts CL_R and CL_A with CL_HALF_FLOAT.)
TEST_F(ImageWrites, EverySupportedFormat2D) {
  std::vector<cl_image_format> formats = supportedFormats(CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE2D);
  ASSERT_FALSE(formats.empty()) << "no 2D image format for writing";
  const size_t w = 9, h = 5;
  for (const cl_image_format &format : formats) {
    if (format.image_channel_order == CL_DEPTH) continue;  // ImageWrites.Depth
    switch (image::familyOf(format.image_channel_data_type)) {
      case image::Family::Float:
        writeAndCheck(CL_MEM_OBJECT_IMAGE2D, format, w, h, 1, floatValues(format, w * h), "f");
        break;
      case image::Family::Int:
        writeAndCheck(CL_MEM_OBJECT_IMAGE2D, format, w, h, 1, integerValues<Int4>(w * h), "i");
        break;
      case image::Family::Uint:
        writeAndCheck(CL_MEM_OBJECT_IMAGE2D, format, w, h, 1, integerValues<Uint4>(w * h), "ui");
        break;
    }
  }
}

TEST_F(ImageWrites, EveryImageType) {
  ASSERT_TRUE(hasFeature("__opencl_c_3d_image_writes"))
      << "the device does not list __opencl_c_3d_image_writes";
  struct Case {
    cl_mem_object_type type;
    size_t w, h, d;  // global size: layers in h (1D array) or d (2D array)
  } cases[] = {{CL_MEM_OBJECT_IMAGE1D, 29, 1, 1},
               {CL_MEM_OBJECT_IMAGE1D_ARRAY, 11, 3, 1},
               {CL_MEM_OBJECT_IMAGE2D_ARRAY, 7, 5, 3},
               {CL_MEM_OBJECT_IMAGE3D, 6, 5, 4}};
  const cl_image_format f{CL_RGBA, CL_UNORM_INT16}, h{CL_RGBA, CL_HALF_FLOAT},
      i{CL_RGBA, CL_SIGNED_INT8}, u{CL_RGBA, CL_UNSIGNED_INT32};
  for (const Case &c : cases) {
    size_t n = c.w * c.h * c.d;
    writeAndCheck(c.type, f, c.w, c.h, c.d, floatValues(f, n), "f");
    writeAndCheck(c.type, h, c.w, c.h, c.d, floatValues(h, n), "f");
    writeAndCheck(c.type, i, c.w, c.h, c.d, integerValues<Int4>(n), "i");
    writeAndCheck(c.type, u, c.w, c.h, c.d, integerValues<Uint4>(n), "ui");
    if (HasFatalFailure()) return;
  }
}

// write_imagef to an sRGB image encodes linear values with the sRGB curve.
TEST_F(ImageWrites, Srgb) {
  const cl_image_format srgb{CL_sRGBA, CL_UNORM_INT8};
  ASSERT_TRUE(supports(srgb, CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE2D))
      << "CL_sRGBA/CL_UNORM_INT8 is not listed for writing (sRGB writes)";
  const size_t w = 16, h = 4;
  std::vector<Float4> values = floatValues(cl_image_format{CL_RGBA, CL_UNORM_INT8}, w * h);
  for (size_t i = 0; i < w * h; ++i)
    values[i][i % 3] = float(i) / float(w * h - 1);  // the whole curve
  writeAndCheck(CL_MEM_OBJECT_IMAGE2D, srgb, w, h, 1, values, "f");
}

TEST_F(ImageWrites, Depth) {
  const cl_image_format depth{CL_DEPTH, CL_FLOAT};
  ASSERT_TRUE(supports(depth, CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE2D))
      << "CL_DEPTH/CL_FLOAT is not listed for writing (cl_khr_depth_images)";
  cl_kernel k = kernel(R"CLC(
    kernel void depth(write_only image2d_depth_t img, global const float4 *values) {
      int x = get_global_id(0), y = get_global_id(1);
      write_imagef(img, (int2)(x, y), values[y * get_global_size(0) + x].x);
    })CLC",
                       "depth", kImageBuildOptions);
  ASSERT_NE(k, nullptr);
  const size_t w = 8, h = 6;
  std::vector<Float4> values = floatValues(cl_image_format{CL_RGBA, CL_FLOAT}, w * h);
  writeAndCheck(CL_MEM_OBJECT_IMAGE2D, depth, w, h, 1, values, "f", k);
}

}  // namespace
}  // namespace lockstep::test

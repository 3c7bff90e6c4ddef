// Reading images in kernels: every addressing mode x filter x normalized or
// unnormalized coordinates, every image type, every format the device lists,
// samplerless reads, read_write images, program-scope samplers, compared with
// the host reference (common/ImageReference) at coordinates on texel centres,
// texel boundaries, edges, outside the image and in between.
#include <cmath>
#include <cstring>
#include <map>

#include "ImageReference.h"

namespace lockstep::test {
namespace {

using image::Float4;
using image::Int4;
using image::Uint4;

struct TypeInfo {
  cl_mem_object_type type;
  const char *name;       // kernel name suffix
  const char *imageType;  // OpenCL C type
  const char *coord;      // coordinate expression from float4 c
  const char *intCoord;   // integer coordinate expression from int4 c
};
const TypeInfo kTypes[] = {
    {CL_MEM_OBJECT_IMAGE1D, "1d", "image1d_t", "c.x", "c.x"},
    {CL_MEM_OBJECT_IMAGE2D, "2d", "image2d_t", "c.xy", "c.xy"},
    {CL_MEM_OBJECT_IMAGE3D, "3d", "image3d_t", "c", "c"},
    {CL_MEM_OBJECT_IMAGE1D_ARRAY, "1darray", "image1d_array_t", "c.xy", "c.xy"},
    {CL_MEM_OBJECT_IMAGE2D_ARRAY, "2darray", "image2d_array_t", "c", "c"},
};
const TypeInfo &typeInfo(cl_mem_object_type type) {
  for (const TypeInfo &t : kTypes)
    if (t.type == type) return t;
  return kTypes[1];
}

// Kernel sources by name: sampled_<f|i|ui>_<type> and
// samplerless_<f|i|ui>_<type>; each is built alone when a test first needs
// it (a program of all thirty would cost every test the compile of all).
std::map<std::string, std::string> readKernels() {
  std::map<std::string, std::string> sources;
  const char *families[][2] = {{"f", "float4"}, {"i", "int4"}, {"ui", "uint4"}};
  for (const TypeInfo &t : kTypes)
    for (auto &[suffix, vec] : families) {
      std::string sampled = std::string("sampled_") + suffix + "_" + t.name;
      sources[sampled] =
          "kernel void " + sampled + "(read_only " + t.imageType +
          " img, sampler_t s, global const float4 *coords, global " + vec +
          " *out) {\n  float4 c = coords[get_global_id(0)];\n  out[get_global_id(0)] = "
          "read_image" +
          suffix + "(img, s, " + t.coord + ");\n}\n";
      std::string samplerless = std::string("samplerless_") + suffix + "_" + t.name;
      sources[samplerless] =
          "kernel void " + samplerless + "(read_only " + t.imageType +
          " img, global const int4 *coords, global " + vec +
          " *out) {\n  int4 c = coords[get_global_id(0)];\n  out[get_global_id(0)] = "
          "read_image" +
          suffix + "(img, " + t.intCoord + ");\n}\n";
    }
  return sources;
}

const char *familySuffix(image::Family family) {
  return family == image::Family::Float ? "f" : family == image::Family::Int ? "i" : "ui";
}

class ImageSampling : public ImageTest {
 protected:
  cl_kernel readKernel(const std::string &name) {
    auto it = readKernels_.find(name);
    if (it != readKernels_.end()) return it->second;
    static const std::map<std::string, std::string> sources = readKernels();
    return readKernels_[name] = kernel(sources.at(name), name.c_str(), kImageBuildOptions);
  }

  // Coordinates (in texels, unnormalized) that hit centres, boundaries, the
  // edges, outside the image (unless `inside`) and random places, per axis;
  // combined into `count` points.
  std::vector<std::array<float, 3>> coordinates(const image::View &view, bool inside, bool linear,
                                                size_t count) {
    int dims = view.dims();
    size_t extents[3] = {view.width, view.height, view.depth};
    std::vector<float> axis[3];
    for (int d = 0; d < dims; ++d) {
      float n = float(extents[d]);
      // Linear filtering with CL_ADDRESS_NONE must keep its 2x2 footprint inside.
      float lo = inside ? (linear ? 0.5f : 0.0f) : -2.5f,
            hi = inside ? (linear ? n - 0.5f : n - 0.001f) : n + 2.5f;
      for (float v : {0.0f, 0.5f, 1.0f, 1.25f, n - 1.0f, n - 0.5f, n - 0.25f, n, n + 0.5f, -0.5f,
                      -0.25f, -1.0f, 2.0f, 2.75f, 1.5f, n / 2})
        if (v >= lo && v <= hi) axis[d].push_back(v);
      std::uniform_real_distribution<float> any(lo, hi);
      for (int i = 0; i < 8; ++i) axis[d].push_back(any(rng_));
    }
    std::vector<std::array<float, 3>> out;
    std::uniform_int_distribution<size_t> pick(0, 1 << 20);
    std::uniform_real_distribution<float> layer(-1.4f, float(view.layers) + 0.4f);
    for (size_t i = 0; i < count; ++i) {
      std::array<float, 3> c{0, 0, 0};
      for (int d = 0; d < dims; ++d) {
        // The first points walk each axis list completely.
        size_t k = i < axis[d].size() ? i : pick(rng_);
        c[d] = axis[d][k % axis[d].size()];
      }
      // Layer coordinates: integers, near integers, outside (clamped); the
      // halfway cases have a test of their own (ArrayLayerSelection).
      if (view.arrayed()) {
        float l = std::round(layer(rng_));
        c[dims] = i % 3 == 0 ? float(i % view.layers) : l + (i % 3 == 1 ? 0.3f : -0.4f);
      }
      out.push_back(c);
    }
    return out;
  }

  // Runs sampled_<family>_<type> over `coords` (unnormalized texels; scaled
  // to normalized for a normalized sampler) and checks every result.
  void checkSampled(const HostImage &img, const image::Sampler &s, cl_sampler sampler,
                    std::vector<std::array<float, 3>> coords, const std::string &what,
                    cl_kernel custom = nullptr) {
    image::View view = img.view();
    if (s.normalized) {
      size_t extents[3] = {view.width, view.height, view.depth};
      for (auto &c : coords)
        for (int d = 0; d < view.dims(); ++d) c[d] = c[d] / float(extents[d]);
    }
    std::vector<cl_float4> coordData;
    for (auto &c : coords) coordData.push_back({{c[0], c[1], c[2], 0}});
    image::Family family = image::familyOf(view.format.image_channel_data_type);
    std::string name =
        std::string("sampled_") + familySuffix(family) + "_" + typeInfo(view.type).name;
    cl_kernel k = custom ? custom : readKernel(name);
    ASSERT_NE(k, nullptr);
    cl_mem coordBuffer = bufferFrom(coordData);
    cl_mem out = buffer(CL_MEM_WRITE_ONLY, coords.size() * 16);
    ASSERT_TRUE(setArgs(k, img.mem, sampler, coordBuffer, out)) << what;
    ASSERT_TRUE(run(k, {coords.size()})) << what;
    std::vector<std::array<uint32_t, 4>> raw = read<std::array<uint32_t, 4>>(out, coords.size());
    int failures = 0;
    for (size_t i = 0; i < coords.size() && failures < 5; ++i) {
      std::string why;
      bool ok;
      if (family == image::Family::Float) {
        Float4 got;
        std::memcpy(got.data(), raw[i].data(), 16);
        ok = image::sampleMatches(view, s, coords[i], got, &why);
      } else if (family == image::Family::Int) {
        Int4 got;
        std::memcpy(got.data(), raw[i].data(), 16);
        ok = image::sampleMatches(view, s, coords[i], got, &why);
      } else {
        ok = image::sampleMatches(view, s, coords[i], raw[i], &why);
      }
      if (!ok) {
        ++failures;
        ADD_FAILURE() << what << ", " << image::formatName(view.format) << " " << name << " "
                      << view.width << "x" << view.height << "x" << view.depth << " ["
                      << view.layers << "], normalized " << s.normalized << ", addressing 0x"
                      << std::hex << s.addressing << ", filter 0x" << s.filter << std::dec
                      << ", coord (" << coords[i][0] << ", " << coords[i][1] << ", " << coords[i][2]
                      << "): " << why;
      }
    }
  }

  // Every sampler the spec allows for this format (linear only for float
  // families), each on its own set of coordinates.
  void checkEverySampler(const HostImage &img, size_t count, const std::string &what) {
    bool floatFamily =
        image::familyOf(img.geometry.format.image_channel_data_type) == image::Family::Float;
    for (bool normalized : {false, true})
      for (cl_addressing_mode mode : {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
                                      CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT})
        for (cl_filter_mode filter : {CL_FILTER_NEAREST, CL_FILTER_LINEAR}) {
          // Repeat modes need normalized coordinates; integer reads, nearest.
          bool repeat = mode == CL_ADDRESS_REPEAT || mode == CL_ADDRESS_MIRRORED_REPEAT;
          if ((repeat && !normalized) || (filter == CL_FILTER_LINEAR && !floatFamily)) continue;
          image::Sampler s{normalized, mode, filter};
          cl_sampler sampler = this->sampler(normalized, mode, filter);
          ASSERT_NE(sampler, nullptr);
          bool linear = filter == CL_FILTER_LINEAR;
          auto coords = coordinates(img.geometry, mode == CL_ADDRESS_NONE, linear, count);
          if (repeat)  // several periods away, both directions
            for (size_t i = 0; i < coords.size(); i += 3)
              for (int d = 0; d < img.geometry.dims(); ++d)
                coords[i][d] += float((int(i % 7) - 3) * int(d == 0   ? img.geometry.width
                                                             : d == 1 ? img.geometry.height
                                                                      : img.geometry.depth));
          checkSampled(img, s, sampler, coords, what);
          if (HasFatalFailure()) return;
        }
  }

  std::map<std::string, cl_kernel> readKernels_;
};

TEST_F(ImageSampling, EveryAddressingFilterAndCoordinateMode2D) {
  for (cl_image_format format :
       {cl_image_format{CL_RGBA, CL_UNORM_INT8}, cl_image_format{CL_RGBA, CL_FLOAT},
        cl_image_format{CL_RGBA, CL_SIGNED_INT16}}) {
    HostImage img = randomImage(CL_MEM_OBJECT_IMAGE2D, format, 13, 7);
    ASSERT_NE(img.mem, nullptr);
    checkEverySampler(img, 160, "2D");
  }
}

TEST_F(ImageSampling, EveryImageType) {
  const cl_image_format unorm{CL_RGBA, CL_UNORM_INT8}, uint32{CL_RGBA, CL_UNSIGNED_INT32};
  struct Case {
    cl_mem_object_type type;
    size_t w, h, d, layers;
  } cases[] = {{CL_MEM_OBJECT_IMAGE1D, 37, 1, 1, 1},
               {CL_MEM_OBJECT_IMAGE1D_ARRAY, 19, 1, 1, 4},
               {CL_MEM_OBJECT_IMAGE2D_ARRAY, 9, 6, 1, 3},
               {CL_MEM_OBJECT_IMAGE3D, 6, 5, 4, 1}};
  for (const Case &c : cases)
    for (const cl_image_format &format : {unorm, uint32}) {
      HostImage img = randomImage(c.type, format, c.w, c.h, c.d, c.layers);
      ASSERT_NE(img.mem, nullptr);
      checkEverySampler(img, 96, typeInfo(c.type).name);
      if (HasFatalFailure()) return;
    }
}

// Every format the device lists for reading 2D images works: each channel
// order's mapping, each data type's conversion, CL_ADDRESS_CLAMP's border
// colour, and linear filtering of the float families. (PoCL 3.1 disagrees
// with the spec here, and the spec wins: its border for CL_R is (0, 0, 0, 0)
// where the spec says (0, 0, 0, 1), and it misreads CL_A/CL_HALF_FLOAT.)
TEST_F(ImageSampling, EverySupportedFormat) {
  std::vector<cl_image_format> formats = supportedFormats(CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D);
  ASSERT_FALSE(formats.empty()) << "no 2D image format for reading";
  for (const cl_image_format &format : formats) {
    if (format.image_channel_order == CL_DEPTH) continue;  // ImageSampling.DepthImages
    HostImage img = randomImage(CL_MEM_OBJECT_IMAGE2D, format, 11, 5);
    if (!img.mem) continue;  // the failure is recorded; the other formats still run
    bool floatFamily = image::familyOf(format.image_channel_data_type) == image::Family::Float;
    image::Sampler nearest{false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST};
    checkSampled(img, nearest, sampler(false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST),
                 coordinates(img.geometry, false, false, 64), "every format");
    if (floatFamily) {
      image::Sampler linear{true, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR};
      checkSampled(img, linear, sampler(true, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR),
                   coordinates(img.geometry, false, true, 64), "every format");
    }
  }
}

TEST_F(ImageSampling, DepthImages) {
  const cl_image_format depth{CL_DEPTH, CL_FLOAT};
  ASSERT_TRUE(supports(depth, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D))
      << "CL_DEPTH/CL_FLOAT is not listed (cl_khr_depth_images)";
  HostImage img = randomImage(CL_MEM_OBJECT_IMAGE2D, depth, 9, 7);
  ASSERT_NE(img.mem, nullptr);
  cl_kernel k = kernel(R"CLC(
    kernel void depth(read_only image2d_depth_t img, sampler_t s, global const float4 *coords,
                      global float4 *out) {
      size_t i = get_global_id(0);
      out[i] = (float4)(read_imagef(img, s, coords[i].xy), 0, 0, 1);
    })CLC",
                       "depth", kImageBuildOptions);
  ASSERT_NE(k, nullptr);
  for (cl_filter_mode filter : {CL_FILTER_NEAREST, CL_FILTER_LINEAR}) {
    image::Sampler s{false, CL_ADDRESS_CLAMP_TO_EDGE, filter};
    checkSampled(img, s, sampler(false, CL_ADDRESS_CLAMP_TO_EDGE, filter),
                 coordinates(img.geometry, false, filter == CL_FILTER_LINEAR, 80), "depth", k);
  }
}

// The layer of an array image is rint(coordinate) clamped to the layers, in
// unnormalized units whatever the sampler says: halfway cases round to even.
// (PoCL 3.1 rounds halves away from zero and scales the layer by the array
// size under a normalized sampler; the spec wins, so EveryImageType's arrays
// with normalized samplers fail there too.)
TEST_F(ImageSampling, ArrayLayerSelection) {
  const cl_image_format format{CL_RGBA, CL_UNSIGNED_INT8};
  for (cl_mem_object_type type : {CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D_ARRAY}) {
    HostImage img = randomImage(type, format, 4, 4, 1, 4);
    ASSERT_NE(img.mem, nullptr);
    int layerAxis = img.geometry.dims();
    for (bool normalized : {false, true}) {
      image::Sampler s{normalized, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST};
      std::vector<std::array<float, 3>> coords;
      for (float layer : {-0.5f, 0.5f, 1.5f, 2.5f, 3.5f, 0.49f, 1.51f, 1.0f, 2.0f, 7.0f, -3.0f}) {
        std::array<float, 3> c{1.5f, 2.5f, 0};
        c[layerAxis] = layer;
        coords.push_back(c);
      }
      checkSampled(img, s, sampler(normalized, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST), coords,
                   std::string("layer selection, ") + typeInfo(type).name);
    }
  }
}

// Samplerless reads take integer coordinates inside the image; they read the
// texel itself (and the layer given by the last coordinate of an array).
TEST_F(ImageSampling, SamplerlessReads) {
  struct Case {
    cl_mem_object_type type;
    size_t w, h, d, layers;
    cl_image_format format;
  } cases[] = {{CL_MEM_OBJECT_IMAGE1D, 23, 1, 1, 1, {CL_RGBA, CL_HALF_FLOAT}},
               {CL_MEM_OBJECT_IMAGE2D, 10, 7, 1, 1, {CL_RGBA, CL_SNORM_INT16}},
               {CL_MEM_OBJECT_IMAGE2D, 10, 7, 1, 1, {CL_RGBA, CL_SIGNED_INT8}},
               {CL_MEM_OBJECT_IMAGE3D, 5, 4, 3, 1, {CL_RGBA, CL_UNSIGNED_INT16}},
               {CL_MEM_OBJECT_IMAGE1D_ARRAY, 9, 1, 1, 5, {CL_RGBA, CL_FLOAT}},
               {CL_MEM_OBJECT_IMAGE2D_ARRAY, 6, 5, 1, 3, {CL_BGRA, CL_UNORM_INT8}}};
  for (const Case &c : cases) {
    HostImage img = randomImage(c.type, c.format, c.w, c.h, c.d, c.layers);
    ASSERT_NE(img.mem, nullptr);
    image::View view = img.view();
    std::vector<cl_int4> coords;
    std::vector<std::array<float, 3>> asFloat;
    std::uniform_int_distribution<int> x(0, int(view.width) - 1), y(0, int(view.height) - 1),
        z(0, int(view.depth) - 1), layer(0, int(view.layers) - 1);
    for (int i = 0; i < 64; ++i) {
      int at[3] = {i == 0 ? 0 : x(rng_), i == 0 ? 0 : y(rng_), i == 0 ? 0 : z(rng_)};
      if (i == 1)
        at[0] = int(view.width) - 1, at[1] = int(view.height) - 1, at[2] = int(view.depth) - 1;
      int dims = view.dims();
      if (view.arrayed()) at[dims] = i == 1 ? int(view.layers) - 1 : layer(rng_);
      coords.push_back({{at[0], at[1], at[2], 0}});
      // The same texel as an unnormalized nearest sample at its centre.
      std::array<float, 3> centre{at[0] + 0.5f, at[1] + 0.5f, at[2] + 0.5f};
      if (view.arrayed()) centre[dims] = float(at[dims]);
      asFloat.push_back(centre);
    }
    image::Family family = image::familyOf(c.format.image_channel_data_type);
    std::string name =
        std::string("samplerless_") + familySuffix(family) + "_" + typeInfo(c.type).name;
    cl_kernel k = readKernel(name);
    ASSERT_NE(k, nullptr);
    cl_mem coordBuffer = bufferFrom(coords);
    cl_mem out = buffer(CL_MEM_WRITE_ONLY, coords.size() * 16);
    ASSERT_TRUE(setArgs(k, img.mem, coordBuffer, out));
    ASSERT_TRUE(run(k, {coords.size()}));
    auto raw = read<std::array<uint32_t, 4>>(out, coords.size());
    image::Sampler s{false, CL_ADDRESS_NONE, CL_FILTER_NEAREST};
    for (size_t i = 0; i < coords.size(); ++i) {
      std::string why;
      Float4 f;
      Int4 n;
      std::memcpy(f.data(), raw[i].data(), 16);
      std::memcpy(n.data(), raw[i].data(), 16);
      bool ok = family == image::Family::Float ? image::sampleMatches(view, s, asFloat[i], f, &why)
                : family == image::Family::Int
                    ? image::sampleMatches(view, s, asFloat[i], n, &why)
                    : image::sampleMatches(view, s, asFloat[i], raw[i], &why);
      ASSERT_TRUE(ok) << name << " " << image::formatName(c.format) << " at (" << coords[i].s[0]
                      << ", " << coords[i].s[1] << ", " << coords[i].s[2] << "): " << why;
    }
  }
}

// A read_write image read and written by the same work-item: each texel
// becomes a function of its old value (a fence orders the write before a
// second read of the same texel in the work-item).
TEST_F(ImageSampling, ReadWriteImages) {
  ASSERT_TRUE(hasFeature("__opencl_c_read_write_images"))
      << "the device does not list __opencl_c_read_write_images";
  const cl_image_format format{CL_RGBA, CL_SIGNED_INT32};
  HostImage img = randomImage(CL_MEM_OBJECT_IMAGE2D, format, 17, 9, 1, 1, CL_MEM_READ_WRITE);
  ASSERT_NE(img.mem, nullptr);
  cl_kernel k = kernel(R"CLC(
    kernel void update(read_write image2d_t img, global int4 *seen) {
      int2 at = (int2)(get_global_id(0), get_global_id(1));
      int4 old = read_imagei(img, at);
      write_imagei(img, at, old * 3 + (int4)(at.x, at.y, 1, -1));
      atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);
      seen[at.y * get_global_size(0) + at.x] = read_imagei(img, at);
    })CLC",
                       "update", kImageBuildOptions);
  ASSERT_NE(k, nullptr);
  const size_t w = 17, h = 9;
  cl_mem seen = buffer(CL_MEM_WRITE_ONLY, w * h * 16);
  ASSERT_TRUE(setArgs(k, img.mem, seen));
  ASSERT_TRUE(run(k, {w, h}));
  std::vector<cl_int4> after(w * h), seenData = read<cl_int4>(seen, w * h);
  size_t origin[3] = {0, 0, 0}, region[3] = {w, h, 1};
  ASSERT_CL(clEnqueueReadImage(queue_, img.mem, CL_TRUE, origin, region, 0, 0, after.data(), 0,
                               nullptr, nullptr));
  image::View view = img.view();
  for (size_t y = 0; y < h; ++y)
    for (size_t x = 0; x < w; ++x) {
      Int4 old = image::decodeInt(format, view.texel(x, y, 0));
      int32_t add[4] = {int32_t(x), int32_t(y), 1, -1};
      for (int c = 0; c < 4; ++c) {
        int32_t want = int32_t(uint32_t(old[c]) * 3u + uint32_t(add[c]));
        ASSERT_EQ(after[y * w + x].s[c], want) << "texel (" << x << ", " << y << ") channel " << c;
        ASSERT_EQ(seenData[y * w + x].s[c], want)
            << "read after the fence, (" << x << ", " << y << ")";
      }
    }
}

// Samplers declared in the program: at program scope in the constant
// address space and inside a kernel, each with a different mode.
// A launch of 2^18 work-items or more, and the third launch with the same
// image formats and sampler values, runs a copy of the kernel compiled for
// them (Executable::specialize): the same kernel, launched alternately on
// images of different formats and with different samplers, must read what
// the general code reads, whichever copy runs.
TEST_F(ImageSampling, LaunchesCompiledForTheirFormatsAndSamplers) {
  struct Case {
    cl_image_format format;
    image::Sampler sampler;
  } cases[] = {
      {{CL_RGBA, CL_UNORM_INT8}, {false, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST}},
      {{CL_R, CL_FLOAT}, {true, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR}},
      {{CL_BGRA, CL_UNORM_INT8}, {false, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR}},
      {{CL_RGBA, CL_UNORM_INT8}, {true, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_NEAREST}},
  };
  for (size_t count : {size_t(1) << 18, size_t(300)}) {
    // Small launches: three rounds, so that the third of each key runs the
    // specialized copy after two of the general code; keys the large
    // launches did not have (unnormalized coordinates become normalized).
    bool small = count < 1000;
    for (int round = 0; round < (small ? 3 : 1); ++round)
      for (Case c : cases) {
        if (small && c.sampler.addressing != CL_ADDRESS_REPEAT &&
            c.sampler.addressing != CL_ADDRESS_MIRRORED_REPEAT)
          c.sampler.normalized = !c.sampler.normalized;
        HostImage img = randomImage(CL_MEM_OBJECT_IMAGE2D, c.format, 37, 23);
        ASSERT_NE(img.mem, nullptr);
        cl_sampler sampler = this->sampler(c.sampler.normalized, c.sampler.addressing, c.sampler.filter);
        ASSERT_NE(sampler, nullptr);
        auto coords = coordinates(img.geometry, false, c.sampler.filter == CL_FILTER_LINEAR, count);
        checkSampled(img, c.sampler, sampler, coords,
                     std::to_string(count) + " work-items, round " + std::to_string(round));
        if (HasFatalFailure() || HasFailure()) return;
      }
  }
}

// An image resized through a linear sampler into another image, one
// work-item per output pixel at the pixel's centre in normalized
// coordinates (the shape of bench's image_resize): the work-item loop's
// interior gathers the 2x2 texels of each pixel, whose places the scaled
// coordinate decides. Enlarged and shrunk, into float and 8-bit UNORM
// images, with and without a border, in launches of 2^18 work-items and
// more (compiled for their formats at once) and in small ones.
TEST_F(ImageSampling, ResizeThroughALinearSamplerIntoAnotherImage) {
  cl_kernel k = kernel(R"(
    kernel void resize(read_only image2d_t in, write_only image2d_t out, sampler_t s) {
      int x = get_global_id(0), y = get_global_id(1);
      float2 scale = (float2)(1.0f / get_image_width(out), 1.0f / get_image_height(out));
      write_imagef(out, (int2)(x, y), read_imagef(in, s, ((float2)(x, y) + 0.5f) * scale));
    })",
                       "resize", kImageBuildOptions);
  ASSERT_NE(k, nullptr);
  struct Case {
    size_t sourceWidth, sourceHeight, width, height;
    cl_addressing_mode addressing;
    cl_image_format target;
  } cases[] = {{301, 203, 640, 410, CL_ADDRESS_CLAMP_TO_EDGE, {CL_RGBA, CL_FLOAT}},
               {700, 500, 530, 499, CL_ADDRESS_CLAMP, {CL_RGBA, CL_UNORM_INT8}},
               {64, 48, 77, 53, CL_ADDRESS_CLAMP, {CL_RGBA, CL_FLOAT}},
               {90, 60, 41, 29, CL_ADDRESS_CLAMP_TO_EDGE, {CL_RGBA, CL_UNORM_INT8}}};
  for (const Case &c : cases) {
    HostImage source = randomImage(CL_MEM_OBJECT_IMAGE2D, {CL_RGBA, CL_UNORM_INT8}, c.sourceWidth,
                                   c.sourceHeight);
    ASSERT_NE(source.mem, nullptr);
    image::Sampler s{true, c.addressing, CL_FILTER_LINEAR};
    cl_sampler sampler = this->sampler(s.normalized, s.addressing, s.filter);
    ASSERT_NE(sampler, nullptr);
    cl_mem target = image(CL_MEM_WRITE_ONLY, c.target, desc(CL_MEM_OBJECT_IMAGE2D, c.width, c.height));
    ASSERT_NE(target, nullptr);
    ASSERT_TRUE(setArgs(k, source.mem, target, sampler));
    ASSERT_TRUE(run(k, {c.width, c.height}));
    size_t pixel = image::pixelSize(c.target);
    std::vector<uint8_t> stored(c.width * c.height * pixel);
    size_t origin[3] = {0, 0, 0}, region[3] = {c.width, c.height, 1};
    ASSERT_CL(clEnqueueReadImage(queue_, target, CL_TRUE, origin, region, 0, 0, stored.data(), 0,
                                 nullptr, nullptr));
    std::string what = std::to_string(c.sourceWidth) + "x" + std::to_string(c.sourceHeight) + " to " +
                       std::to_string(c.width) + "x" + std::to_string(c.height) + " " +
                       image::formatName(c.target);
    image::View view = source.view();
    int failures = 0;
    for (size_t y = 0; y < c.height && failures < 5; ++y)
      for (size_t x = 0; x < c.width && failures < 5; ++x) {
        std::array<float, 3> coord{(float(x) + 0.5f) * (1.0f / float(c.width)),
                                   (float(y) + 0.5f) * (1.0f / float(c.height)), 0.0f};
        const uint8_t *texel = stored.data() + (y * c.width + x) * pixel;
        std::string why;
        bool ok;
        if (c.target.image_channel_data_type == CL_FLOAT) {
          Float4 got;
          std::memcpy(got.data(), texel, 16);
          ok = image::sampleMatches(view, s, coord, got, &why);
        } else {
          std::array<double, 4> ideal = image::sampleFloat(view, s, coord);
          Float4 value{float(ideal[0]), float(ideal[1]), float(ideal[2]), float(ideal[3])};
          ok = image::storedMatches(c.target, image::idealStored(c.target, value), texel, &why);
        }
        if (!ok) {
          ++failures;
          ADD_FAILURE() << what << ", pixel (" << x << ", " << y << "): " << why;
        }
      }
    if (HasFailure()) return;
  }
}

// A program's __global variables are one copy that all its kernels share,
// also when a launch runs the copy of a kernel compiled for its formats.
TEST_F(ImageSampling, LargeImageLaunchesShareProgramScopeVariables) {
  ASSERT_TRUE(hasFeature("__opencl_c_program_scope_global_variables"));
  HostImage img = randomImage(CL_MEM_OBJECT_IMAGE2D, {CL_RGBA, CL_UNSIGNED_INT8}, 16, 16);
  ASSERT_NE(img.mem, nullptr);
  cl_program program = build(R"CLC(
    global uint offset_g;
    kernel void set_offset(uint v) { offset_g = v; }
    kernel void add_offset(read_only image2d_t img, global uint *out) {
      int x = get_global_id(0), y = get_global_id(1);
      uint4 t = read_imageui(img, (int2)(x % 16, y % 16));
      out[y * get_global_size(0) + x] = t.x + offset_g;
    })CLC",
                             kImageBuildOptions);
  ASSERT_NE(program, nullptr);
  cl_kernel set = kernelOf(program, "set_offset"), add = kernelOf(program, "add_offset");
  ASSERT_TRUE(set && add);
  const size_t side = 512;  // 2^18 work-items: a launch compiled for its format
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, side * side * sizeof(cl_uint));
  for (cl_uint offset : {1000u, 7000u}) {
    ASSERT_TRUE(setArgs(set, offset));
    ASSERT_TRUE(run(set, {1}));
    ASSERT_TRUE(setArgs(add, img.mem, out));
    ASSERT_TRUE(run(add, {side, side}));
    std::vector<cl_uint> got = read<cl_uint>(out, side * side);
    for (size_t y = 0; y < side; y += 37)
      for (size_t x = 0; x < side; x += 5) {
        cl_uint texel = image::decodeUint(img.geometry.format, img.view().texel(x % 16, y % 16, 0))[0];
        ASSERT_EQ(got[y * side + x], texel + offset) << "at (" << x << ", " << y << ")";
      }
  }
}

TEST_F(ImageSampling, ProgramScopeAndKernelSamplers) {
  const cl_image_format format{CL_RGBA, CL_UNORM_INT16};
  HostImage img = randomImage(CL_MEM_OBJECT_IMAGE2D, format, 12, 10);
  ASSERT_NE(img.mem, nullptr);
  cl_program program = build(R"CLC(
    constant sampler_t repeatLinear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
    kernel void global_sampler(read_only image2d_t img, global const float4 *c, global float4 *out) {
      out[get_global_id(0)] = read_imagef(img, repeatLinear, c[get_global_id(0)].xy);
    }
    kernel void local_sampler(read_only image2d_t img, global const float4 *c, global float4 *out) {
      const sampler_t clampNearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
      out[get_global_id(0)] = read_imagef(img, clampNearest, c[get_global_id(0)].xy);
    })CLC",
                             kImageBuildOptions);
  ASSERT_NE(program, nullptr);
  struct Case {
    const char *name;
    image::Sampler sampler;
  } cases[] = {{"global_sampler", {true, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR}},
               {"local_sampler", {false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST}}};
  for (const Case &c : cases) {
    cl_kernel k = kernelOf(program, c.name);
    ASSERT_NE(k, nullptr);
    auto coords = coordinates(img.geometry, false, c.sampler.filter == CL_FILTER_LINEAR, 96);
    if (c.sampler.normalized)
      for (auto &p : coords) p[0] /= 12.0f, p[1] /= 10.0f;
    std::vector<cl_float4> data;
    for (auto &p : coords) data.push_back({{p[0], p[1], 0, 0}});
    cl_mem in = bufferFrom(data), out = buffer(CL_MEM_WRITE_ONLY, data.size() * 16);
    ASSERT_TRUE(setArgs(k, img.mem, in, out));
    ASSERT_TRUE(run(k, {data.size()}));
    auto got = read<Float4>(out, data.size());
    for (size_t i = 0; i < coords.size(); ++i) {
      std::string why;
      ASSERT_TRUE(image::sampleMatches(img.view(), c.sampler, coords[i], got[i], &why))
          << c.name << " at (" << coords[i][0] << ", " << coords[i][1] << "): " << why;
    }
  }
}

}  // namespace
}  // namespace lockstep::test

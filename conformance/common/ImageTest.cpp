// ImageTest, the fixture of the image tests (declared in ImageReference.h):
// fails loudly when the device reports no image support, makes images of
// deterministic random contents, and releases the images and samplers a
// test makes.
#include <cstring>
#include <random>

#include "ImageReference.h"

namespace lockstep::test {

void ImageTest::SetUp() {
  ClTest::SetUp();
  if (HasFatalFailure()) return;
  cl_bool images = deviceInfo<cl_bool>(device_, CL_DEVICE_IMAGE_SUPPORT);
  ASSERT_EQ(images, CL_TRUE) << "the device reports no image support (CL_DEVICE_IMAGE_SUPPORT is "
                                "CL_FALSE): every image test needs images";
}

void ImageTest::TearDown() {
  if (queue_) EXPECT_CL(clFinish(queue_));
  for (cl_sampler sampler : samplers_) EXPECT_CL(clReleaseSampler(sampler));
  for (auto it = images_.rbegin(); it != images_.rend(); ++it) EXPECT_CL(clReleaseMemObject(*it));
  ClTest::TearDown();
}

std::vector<cl_image_format> ImageTest::supportedFormats(cl_mem_flags flags,
                                                         cl_mem_object_type type) {
  cl_uint count = 0;
  EXPECT_CL(clGetSupportedImageFormats(context_, flags, type, 0, nullptr, &count));
  std::vector<cl_image_format> formats(count);
  if (count)
    EXPECT_CL(clGetSupportedImageFormats(context_, flags, type, count, formats.data(), nullptr));
  return formats;
}

bool ImageTest::supports(const cl_image_format &format, cl_mem_flags flags,
                         cl_mem_object_type type) {
  for (const cl_image_format &f : supportedFormats(flags, type))
    if (f.image_channel_order == format.image_channel_order &&
        f.image_channel_data_type == format.image_channel_data_type)
      return true;
  return false;
}

cl_mem ImageTest::own(cl_mem mem) {
  if (mem) images_.push_back(mem);
  return mem;
}

cl_mem ImageTest::imageNoCheck(cl_mem_flags flags, const cl_image_format &format,
                               const cl_image_desc &desc, void *host, cl_int *err) {
  return own(clCreateImage(context_, flags, &format, &desc, host, err));
}

cl_mem ImageTest::image(cl_mem_flags flags, const cl_image_format &format,
                        const cl_image_desc &desc, void *host) {
  cl_int err = CL_SUCCESS;
  cl_mem mem = imageNoCheck(flags, format, desc, host, &err);
  EXPECT_EQ(err, CL_SUCCESS) << errorName(err) << " creating a " << image::formatName(format)
                             << " image of type 0x" << std::hex << desc.image_type << std::dec
                             << " " << desc.image_width << "x" << desc.image_height << "x"
                             << desc.image_depth << " [" << desc.image_array_size << "]";
  // The tests lay out host memory with the reference's element size: a
  // device that disagrees would have its reads overrun that memory.
  size_t elementSize = 0;
  if (mem)
    EXPECT_CL(
        clGetImageInfo(mem, CL_IMAGE_ELEMENT_SIZE, sizeof elementSize, &elementSize, nullptr));
  if (mem && elementSize != image::pixelSize(format)) {
    ADD_FAILURE() << image::formatName(format) << ": CL_IMAGE_ELEMENT_SIZE is " << elementSize
                  << ", the reference says " << image::pixelSize(format);
    return nullptr;
  }
  return mem;
}

cl_sampler ImageTest::sampler(bool normalized, cl_addressing_mode addressing,
                              cl_filter_mode filter) {
  cl_sampler_properties properties[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                        normalized,
                                        CL_SAMPLER_ADDRESSING_MODE,
                                        addressing,
                                        CL_SAMPLER_FILTER_MODE,
                                        filter,
                                        0};
  cl_int err = CL_SUCCESS;
  cl_sampler s = clCreateSamplerWithProperties(context_, properties, &err);
  EXPECT_EQ(err, CL_SUCCESS) << errorName(err) << " creating a sampler";
  if (s) samplers_.push_back(s);
  return s;
}

cl_image_desc ImageTest::desc(cl_mem_object_type type, size_t width, size_t height, size_t depth,
                              size_t arraySize, cl_mem buffer) {
  cl_image_desc d{};
  d.image_type = type;
  d.image_width = width;
  d.image_height = height;
  d.image_depth = depth;
  d.image_array_size = arraySize;
  d.buffer = buffer;
  return d;
}

cl_image_desc ImageTest::descOf(const image::View &view) {
  switch (view.type) {
    case CL_MEM_OBJECT_IMAGE1D:
      return desc(view.type, view.width);
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      return desc(view.type, view.width, 0, 0, view.layers);
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      return desc(view.type, view.width, view.height, 0, view.layers);
    case CL_MEM_OBJECT_IMAGE3D:
      return desc(view.type, view.width, view.height, view.depth);
    default:
      return desc(view.type, view.width, view.height);
  }
}

HostImage ImageTest::randomImage(cl_mem_object_type type, const cl_image_format &format,
                                 size_t width, size_t height, size_t depth, size_t layers,
                                 cl_mem_flags flags) {
  HostImage out;
  image::View &v = out.geometry;
  v.type = type;
  v.format = format;
  v.width = width;
  v.height = (type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
              type == CL_MEM_OBJECT_IMAGE3D)
                 ? height
                 : 1;
  v.depth = type == CL_MEM_OBJECT_IMAGE3D ? depth : 1;
  v.layers = v.arrayed() ? layers : 1;
  size_t texels = v.width * v.height * v.depth * v.layers;
  image::randomTexels(format, texels, rng_, out.bytes);
  cl_image_desc d = descOf(v);
  out.mem = image(flags | CL_MEM_COPY_HOST_PTR, format, d, out.bytes.data());
  return out;
}

}  // namespace lockstep::test

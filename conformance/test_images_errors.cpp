// Bad arguments to every image and sampler entry point get the spec's error
// code, never a crash: bad formats and descriptors, sizes beyond the device's
// limits, wrong image types, regions out of bounds, handles of the wrong
// kind, bad sampler properties, wrong kernel argument types. (PoCL 3.1 checks
// few of these: most of its answers are CL_SUCCESS, and a descriptor with mip
// levels aborts the process; on PoCL run this binary with
// --gtest_filter=-*CreateImage.)
#include "ImageReference.h"

namespace lockstep::test {
namespace {

class ImageErrors : public ImageTest {
 protected:
  void SetUp() override {
    ImageTest::SetUp();
    if (HasFatalFailure()) return;
    image2d_ = image(CL_MEM_READ_WRITE, kFormat, desc(CL_MEM_OBJECT_IMAGE2D, 16, 8));
    image3d_ = image(CL_MEM_READ_WRITE, kFormat, desc(CL_MEM_OBJECT_IMAGE3D, 8, 4, 4));
    buffer_ = buffer(CL_MEM_READ_WRITE, 4096);
    sampler_ = sampler(true, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR);
    ASSERT_TRUE(image2d_ && image3d_ && buffer_ && sampler_);
  }
  cl_int create(cl_mem_flags flags, const cl_image_format *format, const cl_image_desc *d,
                void *host = nullptr) {
    cl_int err = CL_SUCCESS;
    own(clCreateImage(context_, flags, format, d, host, &err));
    return err;
  }
  template <typename To, typename From>
  static To as(From handle) {  // deliberately the wrong kind of handle
    return reinterpret_cast<To>(handle);
  }
  static constexpr cl_image_format kFormat{CL_RGBA, CL_UNORM_INT8};
  cl_mem image2d_ = nullptr, image3d_ = nullptr, buffer_ = nullptr;
  cl_sampler sampler_ = nullptr;
  uint8_t host_[4096] = {};
};

TEST_F(ImageErrors, CreateImage) {
  cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE2D, 16, 16);
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateImage(nullptr, CL_MEM_READ_WRITE, &kFormat, &d, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT) << errorName(err);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, create(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &kFormat, &d));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, create(cl_mem_flags(1) << 40, &kFormat, &d));
  // Formats: none, an unknown order or type, a packed type with a 4-channel
  // order, CL_RGB with a non-packed type, ARGB with more than 8 bits,
  // INTENSITY with an integer type.
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, create(CL_MEM_READ_WRITE, nullptr, &d));
  for (cl_image_format bad :
       {cl_image_format{0x7777, CL_UNORM_INT8}, cl_image_format{CL_RGBA, 0x7777},
        cl_image_format{CL_RGBA, CL_UNORM_SHORT_565}, cl_image_format{CL_RGB, CL_UNORM_INT8},
        cl_image_format{CL_ARGB, CL_FLOAT}, cl_image_format{CL_INTENSITY, CL_SIGNED_INT8}}) {
    SCOPED_TRACE(image::formatName(bad));
    EXPECT_CL_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, create(CL_MEM_READ_WRITE, &bad, &d));
  }
  // Descriptors: none, not an image type, mip levels, samples, a 1D buffer
  // image without its buffer, pitches without host memory, a row pitch
  // smaller than a row or not a multiple of the element size.
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, create(CL_MEM_READ_WRITE, &kFormat, nullptr));
  cl_image_desc bad = d;
  bad.image_type = CL_MEM_OBJECT_BUFFER;
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, create(CL_MEM_READ_WRITE, &kFormat, &bad));
  bad = d, bad.num_mip_levels = 2;
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, create(CL_MEM_READ_WRITE, &kFormat, &bad));
  bad = d, bad.num_samples = 4;
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, create(CL_MEM_READ_WRITE, &kFormat, &bad));
  bad = desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 16);
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, create(CL_MEM_READ_WRITE, &kFormat, &bad));
  bad = d, bad.image_row_pitch = 128;
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, create(CL_MEM_READ_WRITE, &kFormat, &bad));
  bad = d, bad.image_row_pitch = 16 * 4 - 4;
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR,
                  create(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &kFormat, &bad, host_));
  bad = d, bad.image_row_pitch = 16 * 4 + 2;
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR,
                  create(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &kFormat, &bad, host_));
  // Sizes beyond the device's limits, for each kind of extent.
  bad = d, bad.image_width = deviceInfo<size_t>(device_, CL_DEVICE_IMAGE2D_MAX_WIDTH) + 1,
  bad.image_height = 1;
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_SIZE, create(CL_MEM_READ_WRITE, &kFormat, &bad));
  bad = d, bad.image_height = deviceInfo<size_t>(device_, CL_DEVICE_IMAGE2D_MAX_HEIGHT) + 1,
  bad.image_width = 1;
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_SIZE, create(CL_MEM_READ_WRITE, &kFormat, &bad));
  bad = desc(CL_MEM_OBJECT_IMAGE3D, 1, 1,
             deviceInfo<size_t>(device_, CL_DEVICE_IMAGE3D_MAX_DEPTH) + 1);
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_SIZE, create(CL_MEM_READ_WRITE, &kFormat, &bad));
  bad = desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, 1, 1, 0,
             deviceInfo<size_t>(device_, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE) + 1);
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_SIZE, create(CL_MEM_READ_WRITE, &kFormat, &bad));
  bad = desc(CL_MEM_OBJECT_IMAGE1D, deviceInfo<size_t>(device_, CL_DEVICE_IMAGE2D_MAX_WIDTH) + 1);
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_SIZE, create(CL_MEM_READ_WRITE, &kFormat, &bad));
  // Host pointers: missing with COPY_HOST_PTR, given without a host flag.
  EXPECT_CL_ERROR(CL_INVALID_HOST_PTR,
                  create(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &kFormat, &d));
  EXPECT_CL_ERROR(CL_INVALID_HOST_PTR,
                  create(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, &kFormat, &d));
  EXPECT_CL_ERROR(CL_INVALID_HOST_PTR, create(CL_MEM_READ_WRITE, &kFormat, &d, host_));
  // A valid format the device does not list for this type and these flags.
  const cl_image_format candidates[] = {
      {CL_RGB, CL_UNORM_SHORT_565}, {CL_RGBx, CL_UNORM_INT_101010}, {CL_ARGB, CL_SIGNED_INT8},
      {CL_RA, CL_UNSIGNED_INT32},   {CL_sBGRA, CL_UNORM_INT8},      {CL_LUMINANCE, CL_SNORM_INT16},
      {CL_ABGR, CL_UNSIGNED_INT8},  {CL_RGx, CL_HALF_FLOAT}};
  for (const cl_image_format &candidate : candidates)
    if (!supports(candidate, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D)) {
      SCOPED_TRACE(image::formatName(candidate));
      EXPECT_CL_ERROR(CL_IMAGE_FORMAT_NOT_SUPPORTED, create(CL_MEM_READ_WRITE, &candidate, &d));
      break;
    }
}

TEST_F(ImageErrors, FormatAndImageQueries) {
  cl_uint count = 0;
  cl_image_format formats[4];
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT,
                  clGetSupportedImageFormats(nullptr, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0,
                                             nullptr, &count));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clGetSupportedImageFormats(context_, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
                                             CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &count));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clGetSupportedImageFormats(context_, CL_MEM_READ_ONLY, CL_MEM_OBJECT_BUFFER, 0,
                                             nullptr, &count));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clGetSupportedImageFormats(context_, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0,
                                             formats, nullptr));
  size_t width = 0;
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT,
                  clGetImageInfo(buffer_, CL_IMAGE_WIDTH, sizeof width, &width, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT,
                  clGetImageInfo(nullptr, CL_IMAGE_WIDTH, sizeof width, &width, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clGetImageInfo(image2d_, 0x7fff, sizeof width, &width, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetImageInfo(image2d_, CL_IMAGE_WIDTH, 1, &width, nullptr));
}

TEST_F(ImageErrors, ReadWriteImage) {
  size_t origin[3] = {0, 0, 0}, region[3] = {16, 8, 1};
  EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE,
                  clEnqueueReadImage(nullptr, image2d_, CL_TRUE, origin, region, 0, 0, host_, 0,
                                     nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT,
                  clEnqueueReadImage(queue_, buffer_, CL_TRUE, origin, region, 0, 0, host_, 0,
                                     nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueReadImage(queue_, image2d_, CL_TRUE, origin, region, 0,
                                                       0, nullptr, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST,
                  clEnqueueReadImage(queue_, image2d_, CL_TRUE, origin, region, 0, 0, host_, 1,
                                     nullptr, nullptr));
  // Regions out of bounds: past the width, past the height, a depth in a 2D
  // image, a zero extent, a z origin in a 2D image, past a 3D image's depth.
  size_t wide[3] = {17, 8, 1}, tall[3] = {16, 9, 1}, deep[3] = {16, 8, 2}, empty[3] = {0, 8, 1},
         z1[3] = {0, 0, 1};
  size_t shifted[3] = {1, 0, 0}, tooDeep[3] = {8, 4, 5};
  for (size_t *r : {wide, tall, deep, empty}) {
    EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueReadImage(queue_, image2d_, CL_TRUE, origin, r, 0, 0,
                                                         host_, 0, nullptr, nullptr));
    EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueWriteImage(queue_, image2d_, CL_TRUE, origin, r, 0,
                                                          0, host_, 0, nullptr, nullptr));
  }
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueReadImage(queue_, image2d_, CL_TRUE, shifted, region,
                                                       0, 0, host_, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueWriteImage(queue_, image2d_, CL_TRUE, z1, region, 0, 0,
                                                        host_, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueReadImage(queue_, image3d_, CL_TRUE, origin, tooDeep,
                                                       0, 0, host_, 0, nullptr, nullptr));
  // A host row pitch smaller than the region's row.
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueReadImage(queue_, image2d_, CL_TRUE, origin, region, 8,
                                                       0, host_, 0, nullptr, nullptr));
  // Host access flags forbid the transfer.
  cl_mem noRead = image(CL_MEM_READ_WRITE | CL_MEM_HOST_WRITE_ONLY, kFormat,
                        desc(CL_MEM_OBJECT_IMAGE2D, 16, 8));
  cl_mem noWrite =
      image(CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY, kFormat, desc(CL_MEM_OBJECT_IMAGE2D, 16, 8));
  EXPECT_CL_ERROR(CL_INVALID_OPERATION, clEnqueueReadImage(queue_, noRead, CL_TRUE, origin, region,
                                                           0, 0, host_, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_OPERATION,
                  clEnqueueWriteImage(queue_, noWrite, CL_TRUE, origin, region, 0, 0, host_, 0,
                                      nullptr, nullptr));
  // An image of another context.
  cl_int err = CL_SUCCESS;
  cl_context other = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &err);
  ASSERT_CL(err);
  cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE2D, 16, 8);
  cl_mem foreign = own(clCreateImage(other, CL_MEM_READ_WRITE, &kFormat, &d, nullptr, &err));
  ASSERT_CL(err);
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT, clEnqueueReadImage(queue_, foreign, CL_TRUE, origin, region,
                                                         0, 0, host_, 0, nullptr, nullptr));
  EXPECT_CL(clReleaseContext(other));
}

TEST_F(ImageErrors, CopyFillAndBufferCopies) {
  size_t origin[3] = {0, 0, 0}, region[3] = {4, 4, 1}, overlap[3] = {2, 2, 0},
         outside[3] = {14, 0, 0};
  cl_image_format otherFormat{CL_RGBA, CL_FLOAT};
  cl_mem other = image(CL_MEM_READ_WRITE, otherFormat, desc(CL_MEM_OBJECT_IMAGE2D, 16, 8));
  ASSERT_NE(other, nullptr);
  EXPECT_CL_ERROR(
      CL_IMAGE_FORMAT_MISMATCH,
      clEnqueueCopyImage(queue_, image2d_, other, origin, origin, region, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_MEM_COPY_OVERLAP, clEnqueueCopyImage(queue_, image2d_, image2d_, origin,
                                                          overlap, region, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueCopyImage(queue_, image2d_, image2d_, origin, outside,
                                                       region, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clEnqueueCopyImage(queue_, buffer_, image2d_, origin,
                                                            origin, region, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE,
                  clEnqueueCopyImage(nullptr, image2d_, image2d_, origin, outside, region, 0,
                                     nullptr, nullptr));
  const cl_float4 color{{0.5f, 0.5f, 0.5f, 1.0f}};
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueFillImage(queue_, image2d_, nullptr, origin, region, 0,
                                                       nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueFillImage(queue_, image2d_, &color, outside, region, 0,
                                                       nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT,
                  clEnqueueFillImage(queue_, buffer_, &color, origin, region, 0, nullptr, nullptr));
  // Image <-> buffer: the image region out of bounds, the buffer too small,
  // the two kinds of object swapped.
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueCopyImageToBuffer(queue_, image2d_, buffer_, outside,
                                                               region, 0, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueCopyImageToBuffer(queue_, image2d_, buffer_, origin, region, 4096 - 16,
                                             0, nullptr, nullptr));
  EXPECT_CL_ERROR(
      CL_INVALID_MEM_OBJECT,
      clEnqueueCopyImageToBuffer(queue_, buffer_, buffer_, origin, region, 0, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT,
                  clEnqueueCopyImageToBuffer(queue_, image2d_, image3d_, origin, region, 0, 0,
                                             nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueCopyBufferToImage(queue_, buffer_, image2d_, 0, outside, region, 0,
                                             nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueCopyBufferToImage(queue_, buffer_, image2d_, 4096 - 16, origin, region,
                                             0, nullptr, nullptr));
  EXPECT_CL_ERROR(
      CL_INVALID_MEM_OBJECT,
      clEnqueueCopyBufferToImage(queue_, buffer_, buffer_, 0, origin, region, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT,
                  clEnqueueCopyBufferToImage(queue_, image3d_, image2d_, 0, origin, region, 0,
                                             nullptr, nullptr));
}

TEST_F(ImageErrors, MapImage) {
  size_t origin[3] = {0, 0, 0}, region[3] = {4, 4, 1}, outside[3] = {14, 0, 0}, row = 0, slice = 0;
  cl_int err = CL_SUCCESS;
  auto map = [&](cl_mem mem, cl_map_flags flags, size_t *o, size_t *rowPitch, size_t *slicePitch) {
    void *p = clEnqueueMapImage(queue_, mem, CL_TRUE, flags, o, region, rowPitch, slicePitch, 0,
                                nullptr, nullptr, &err);
    if (p) {
      clEnqueueUnmapMemObject(queue_, mem, p, 0, nullptr, nullptr);
      clFinish(queue_);
    }
    return err;
  };
  EXPECT_CL_ERROR(CL_INVALID_VALUE, map(image2d_, CL_MAP_READ, origin, nullptr, &slice));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, map(image3d_, CL_MAP_READ, origin, &row, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, map(image2d_, CL_MAP_READ, outside, &row, &slice));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, map(image2d_, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION,
                                        origin, &row, &slice));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, map(buffer_, CL_MAP_READ, origin, &row, &slice));
  cl_mem noRead = image(CL_MEM_READ_WRITE | CL_MEM_HOST_WRITE_ONLY, kFormat,
                        desc(CL_MEM_OBJECT_IMAGE2D, 16, 8));
  EXPECT_CL_ERROR(CL_INVALID_OPERATION, map(noRead, CL_MAP_READ, origin, &row, &slice));
}

TEST_F(ImageErrors, Samplers) {
  cl_int err = CL_SUCCESS;
  auto create = [&](std::vector<cl_sampler_properties> properties) {
    properties.push_back(0);
    cl_sampler s = clCreateSamplerWithProperties(context_, properties.data(), &err);
    if (s) clReleaseSampler(s);
    return err;
  };
  cl_sampler_properties good[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_TRUE, 0};
  EXPECT_EQ(clCreateSamplerWithProperties(nullptr, good, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT) << errorName(err);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, create({0x7777, 1}));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, create({CL_SAMPLER_ADDRESSING_MODE, 0x7777}));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, create({CL_SAMPLER_FILTER_MODE, 0x7777}));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, create({CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR,
                                            CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST}));
  EXPECT_CL(create({}));  // all defaults
  cl_uint refs = 0;
  EXPECT_CL_ERROR(CL_INVALID_SAMPLER, clGetSamplerInfo(nullptr, CL_SAMPLER_REFERENCE_COUNT,
                                                       sizeof refs, &refs, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clGetSamplerInfo(sampler_, 0x7777, sizeof refs, &refs, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clGetSamplerInfo(sampler_, CL_SAMPLER_REFERENCE_COUNT, 1, &refs, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_SAMPLER, clRetainSampler(nullptr));
  EXPECT_CL_ERROR(CL_INVALID_SAMPLER, clReleaseSampler(nullptr));
}

// Handles of the wrong kind reach the platform through the loader's dispatch
// table: Lockstep's own handle checks answer. (The spec leaves such calls
// undefined; other platforms crash on them, PoCL among them, so this test is
// Lockstep's promise alone.)
TEST_F(ImageErrors, WrongKindsOfHandles) {
  if (platformString(platform_, CL_PLATFORM_NAME).find("Lockstep") == std::string::npos)
    GTEST_SKIP() << "handles of the wrong kind are undefined behaviour outside Lockstep";
  size_t width = 0, origin[3] = {0, 0, 0}, region[3] = {1, 1, 1};
  cl_uint refs = 0;
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clGetImageInfo(as<cl_mem>(sampler_), CL_IMAGE_WIDTH,
                                                        sizeof width, &width, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_SAMPLER,
                  clGetSamplerInfo(as<cl_sampler>(image2d_), CL_SAMPLER_REFERENCE_COUNT,
                                   sizeof refs, &refs, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_SAMPLER, clRetainSampler(as<cl_sampler>(queue_)));
  EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE,
                  clEnqueueReadImage(as<cl_command_queue>(image2d_), image2d_, CL_TRUE, origin,
                                     region, 0, 0, host_, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT,
                  clEnqueueReadImage(queue_, as<cl_mem>(sampler_), CL_TRUE, origin, region, 0, 0,
                                     host_, 0, nullptr, nullptr));
  cl_int err = CL_SUCCESS;
  cl_sampler_properties props[] = {0};
  EXPECT_EQ(clCreateSamplerWithProperties(as<cl_context>(queue_), props, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT) << errorName(err);
}

TEST_F(ImageErrors, KernelArguments) {
  cl_kernel k = kernel(R"CLC(
    kernel void k(read_only image2d_t in, write_only image2d_t out, sampler_t s, global int *b) {
      write_imagef(out, (int2)(0, 0), read_imagef(in, s, (float2)(0.5f, 0.5f)) + b[0]);
    })CLC",
                       "k", kImageBuildOptions);
  ASSERT_NE(k, nullptr);
  cl_mem writeOnly = image(CL_MEM_WRITE_ONLY, kFormat, desc(CL_MEM_OBJECT_IMAGE2D, 4, 4));
  cl_mem readOnly = image(CL_MEM_READ_ONLY, kFormat, desc(CL_MEM_OBJECT_IMAGE2D, 4, 4));
  // A buffer for an image2d_t, an image for a global pointer: not a valid
  // memory object for the argument's declared type.
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 0, sizeof(cl_mem), &buffer_));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 3, sizeof(cl_mem), &image2d_));
  // Access: a write-only image for read_only, a read-only one for write_only.
  EXPECT_CL_ERROR(CL_INVALID_ARG_VALUE, clSetKernelArg(k, 0, sizeof(cl_mem), &writeOnly));
  EXPECT_CL_ERROR(CL_INVALID_ARG_VALUE, clSetKernelArg(k, 1, sizeof(cl_mem), &readOnly));
  // Sizes and samplers.
  EXPECT_CL_ERROR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 0, sizeof(cl_mem) + 1, &image2d_));
  EXPECT_CL_ERROR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 2, sizeof(cl_sampler) + 4, &sampler_));
  EXPECT_CL_ERROR(CL_INVALID_SAMPLER, clSetKernelArg(k, 2, sizeof(cl_sampler), &image2d_));
  cl_sampler none = nullptr;
  EXPECT_CL_ERROR(CL_INVALID_SAMPLER, clSetKernelArg(k, 2, sizeof(cl_sampler), &none));
  // The right arguments still work, and the kernel runs.
  EXPECT_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &readOnly));
  EXPECT_CL(clSetKernelArg(k, 1, sizeof(cl_mem), &writeOnly));
  EXPECT_CL(clSetKernelArg(k, 2, sizeof(cl_sampler), &sampler_));
  EXPECT_CL(clSetKernelArg(k, 3, sizeof(cl_mem), &buffer_));
  EXPECT_TRUE(run(k, {1}));
}

}  // namespace
}  // namespace lockstep::test

// Image and sampler objects: the device's image limits and required formats,
// creating every image type with every host-pointer flag and querying it back,
// 1D buffer images and 2D images from buffers (shared storage), images from
// images, sampler queries, kernel argument info and the image query
// built-ins. Contents are checked against the bytes the test put there.
#include <cstring>

#include "ImageReference.h"

namespace lockstep::test {
namespace {

class ImageObjects : public ImageTest {
 protected:
  template <typename T>
  T imageInfo(cl_mem mem, cl_image_info param) {
    T value{};
    EXPECT_CL(clGetImageInfo(mem, param, sizeof(T), &value, nullptr));
    return value;
  }
  template <typename T>
  T memInfo(cl_mem mem, cl_mem_info param) {
    T value{};
    EXPECT_CL(clGetMemObjectInfo(mem, param, sizeof(T), &value, nullptr));
    return value;
  }
};

TEST_F(ImageObjects, DeviceLimitsAndRequiredFormats) {
  // The spec's minimums for a full-profile device with images.
  EXPECT_GE(deviceInfo<size_t>(device_, CL_DEVICE_IMAGE2D_MAX_WIDTH), 16384u);
  EXPECT_GE(deviceInfo<size_t>(device_, CL_DEVICE_IMAGE2D_MAX_HEIGHT), 16384u);
  EXPECT_GE(deviceInfo<size_t>(device_, CL_DEVICE_IMAGE3D_MAX_WIDTH), 2048u);
  EXPECT_GE(deviceInfo<size_t>(device_, CL_DEVICE_IMAGE3D_MAX_HEIGHT), 2048u);
  EXPECT_GE(deviceInfo<size_t>(device_, CL_DEVICE_IMAGE3D_MAX_DEPTH), 2048u);
  EXPECT_GE(deviceInfo<size_t>(device_, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE), 65536u);
  EXPECT_GE(deviceInfo<size_t>(device_, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE), 2048u);
  EXPECT_GE(deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_READ_IMAGE_ARGS), 128u);
  EXPECT_GE(deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_WRITE_IMAGE_ARGS), 64u);
  EXPECT_GE(deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_SAMPLERS), 16u);
  EXPECT_TRUE(hasFeature("__opencl_c_images"))
      << "images supported but __opencl_c_images not listed";
  // Every device with images supports RGBA in each of the 11 channel data
  // types and BGRA/UNORM_INT8, for reading and for writing, in every type.
  const cl_channel_type rgbaTypes[] = {CL_UNORM_INT8,     CL_UNORM_INT16,   CL_SNORM_INT8,
                                       CL_SNORM_INT16,    CL_SIGNED_INT8,   CL_SIGNED_INT16,
                                       CL_SIGNED_INT32,   CL_UNSIGNED_INT8, CL_UNSIGNED_INT16,
                                       CL_UNSIGNED_INT32, CL_HALF_FLOAT,    CL_FLOAT};
  for (cl_mem_object_type type :
       {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE2D,
        CL_MEM_OBJECT_IMAGE3D, CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D_ARRAY})
    for (cl_mem_flags flags : {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY}) {
      std::vector<cl_image_format> listed = supportedFormats(flags, type);
      auto has = [&](cl_image_format f) {
        for (const cl_image_format &l : listed)
          if (l.image_channel_order == f.image_channel_order &&
              l.image_channel_data_type == f.image_channel_data_type)
            return true;
        return false;
      };
      for (cl_channel_type t : rgbaTypes)
        EXPECT_TRUE(has({CL_RGBA, t})) << image::formatName({CL_RGBA, t}) << " missing for type 0x"
                                       << std::hex << type << " flags 0x" << flags;
      EXPECT_TRUE(has({CL_BGRA, CL_UNORM_INT8}))
          << "CL_BGRA/CL_UNORM_INT8 missing for type 0x" << std::hex << type;
    }
}

// Every image type with every host-pointer flag: the queries answer what was
// asked, and the contents are the host's. (PoCL 3.1 lays a 1D array's host
// layers out by the row pitch, not image_slice_pitch, and fails that case.)
TEST_F(ImageObjects, EveryTypeWithEveryHostPointerFlag) {
  const cl_image_format format{CL_RGBA, CL_UNSIGNED_INT16};
  const size_t px = 8;
  struct Shape {
    cl_mem_object_type type;
    size_t w, h, d, layers;
  } shapes[] = {{CL_MEM_OBJECT_IMAGE1D, 33, 0, 0, 0},
                {CL_MEM_OBJECT_IMAGE2D, 17, 6, 0, 0},
                {CL_MEM_OBJECT_IMAGE3D, 9, 5, 4, 0},
                {CL_MEM_OBJECT_IMAGE1D_ARRAY, 12, 0, 0, 3},
                {CL_MEM_OBJECT_IMAGE2D_ARRAY, 7, 4, 0, 5}};
  const cl_mem_flags flagSets[] = {
      CL_MEM_READ_WRITE, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
      CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, CL_MEM_WRITE_ONLY | CL_MEM_ALLOC_HOST_PTR,
      CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR};
  for (const Shape &s : shapes)
    for (cl_mem_flags flags : flagSets) {
      SCOPED_TRACE("type 0x" + std::to_string(s.type) + " flags " + std::to_string(flags));
      bool hostData = flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR);
      cl_image_desc d = desc(s.type, s.w, s.h, s.d, s.layers);
      size_t rows = std::max<size_t>(s.h, 1),
             slices = std::max<size_t>(s.d, 1) * std::max<size_t>(s.layers, 1);
      if (s.type == CL_MEM_OBJECT_IMAGE1D_ARRAY) rows = 1;
      // Host memory with padded rows (and slices) when the host gives it.
      size_t row = s.w * px + (hostData && s.type != CL_MEM_OBJECT_IMAGE1D ? 3 * px : 0);
      size_t slice = row * rows + (hostData && slices > 1 ? row : 0);  // a padded slice
      if (hostData && s.type != CL_MEM_OBJECT_IMAGE1D) d.image_row_pitch = row;
      if (hostData && slices > 1) d.image_slice_pitch = slice;
      std::vector<uint8_t> host(slice * slices);
      for (uint8_t &b : host) b = uint8_t(rng_());
      cl_mem mem = image(flags, format, d, hostData ? host.data() : nullptr);
      ASSERT_NE(mem, nullptr);
      cl_image_format got = imageInfo<cl_image_format>(mem, CL_IMAGE_FORMAT);
      EXPECT_EQ(got.image_channel_order, format.image_channel_order);
      EXPECT_EQ(got.image_channel_data_type, format.image_channel_data_type);
      EXPECT_EQ(imageInfo<size_t>(mem, CL_IMAGE_ELEMENT_SIZE), px);
      EXPECT_EQ(imageInfo<size_t>(mem, CL_IMAGE_WIDTH), s.w);
      EXPECT_EQ(imageInfo<size_t>(mem, CL_IMAGE_HEIGHT), s.h);
      EXPECT_EQ(imageInfo<size_t>(mem, CL_IMAGE_DEPTH), s.d);
      EXPECT_EQ(imageInfo<size_t>(mem, CL_IMAGE_ARRAY_SIZE), s.layers);
      EXPECT_EQ(imageInfo<cl_mem>(mem, CL_IMAGE_BUFFER), nullptr);
      EXPECT_EQ(imageInfo<cl_uint>(mem, CL_IMAGE_NUM_MIP_LEVELS), 0u);
      EXPECT_EQ(imageInfo<cl_uint>(mem, CL_IMAGE_NUM_SAMPLES), 0u);
      size_t rowPitch = imageInfo<size_t>(mem, CL_IMAGE_ROW_PITCH);
      size_t slicePitch = imageInfo<size_t>(mem, CL_IMAGE_SLICE_PITCH);
      EXPECT_GE(rowPitch, s.w * px);
      if (slices > 1 || s.type == CL_MEM_OBJECT_IMAGE3D)
        EXPECT_GE(slicePitch, s.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? rowPitch : rowPitch * rows);
      else
        EXPECT_EQ(slicePitch, 0u) << "a 1D or 2D image has slice pitch 0";
      if (flags & CL_MEM_USE_HOST_PTR) {
        EXPECT_EQ(rowPitch, s.type == CL_MEM_OBJECT_IMAGE1D ? s.w * px : row)
            << "USE_HOST_PTR keeps the host's pitch";
      }
      EXPECT_EQ(memInfo<cl_mem_object_type>(mem, CL_MEM_TYPE), s.type);
      EXPECT_EQ(memInfo<cl_mem_flags>(mem, CL_MEM_FLAGS), flags);
      EXPECT_EQ(memInfo<void *>(mem, CL_MEM_HOST_PTR),
                (flags & CL_MEM_USE_HOST_PTR) ? host.data() : nullptr);
      EXPECT_GE(memInfo<size_t>(mem, CL_MEM_SIZE), s.w * px * rows * slices);
      EXPECT_EQ(memInfo<cl_context>(mem, CL_MEM_CONTEXT), context_);
      if (!hostData) continue;
      // The contents, read back tightly packed, are the host's.
      size_t region[3] = {s.w, s.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? s.layers : rows,
                          s.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : slices};
      size_t origin[3] = {0, 0, 0};
      std::vector<uint8_t> back(s.w * px * rows * slices);
      ASSERT_CL(clEnqueueReadImage(queue_, mem, CL_TRUE, origin, region, 0, 0, back.data(), 0,
                                   nullptr, nullptr));
      // A 1D array's layers lie image_slice_pitch apart in host memory (the
      // spec: "the size in bytes of each image in a 1D or 2D image array").
      for (size_t z = 0; z < slices; ++z)
        for (size_t y = 0; y < rows; ++y)
          ASSERT_EQ(0, std::memcmp(back.data() + (z * rows + y) * s.w * px,
                                   host.data() + z * slice + y * row, s.w * px))
              << "row " << y << " slice " << z;
    }
}

// A 1D image on a buffer and a 2D image on a buffer share the buffer's
// storage: what a kernel writes to the buffer, the image reads.
TEST_F(ImageObjects, OneDImageOnBuffer) {
  const cl_image_format format{CL_RGBA, CL_FLOAT};
  const size_t w = 100;
  std::vector<float> data = randomValues<float>(w * 4, -10.0f, 10.0f);
  cl_mem buf = bufferFrom(data);
  cl_mem img = image(CL_MEM_READ_ONLY, format, desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, w, 0, 0, 0, buf));
  ASSERT_NE(img, nullptr);
  EXPECT_EQ(imageInfo<cl_mem>(img, CL_IMAGE_BUFFER), buf);
  EXPECT_EQ(memInfo<cl_mem>(img, CL_MEM_ASSOCIATED_MEMOBJECT), buf);
  EXPECT_EQ(memInfo<cl_mem_object_type>(img, CL_MEM_TYPE),
            cl_mem_object_type(CL_MEM_OBJECT_IMAGE1D_BUFFER));
  cl_program program = build(R"CLC(
    kernel void scale(global float *data) { data[get_global_id(0)] *= -2.0f; }
    kernel void read1d(read_only image1d_buffer_t img, global float4 *out) {
      out[get_global_id(0)] = read_imagef(img, (int)get_global_id(0));
    })CLC",
                             kImageBuildOptions);
  ASSERT_NE(program, nullptr);
  cl_kernel scale = kernelOf(program, "scale"), read1 = kernelOf(program, "read1d");
  ASSERT_TRUE(scale && read1);
  ASSERT_TRUE(setArgs(scale, buf));
  ASSERT_TRUE(run(scale, {data.size()}));
  for (float &v : data) v *= -2.0f;
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, w * 16);
  ASSERT_TRUE(setArgs(read1, img, out));
  ASSERT_TRUE(run(read1, {w}));
  std::vector<float> got = read<float>(out, w * 4);
  for (size_t i = 0; i < w * 4; ++i) ASSERT_EQ(got[i], data[i]) << "1D buffer image, float " << i;
}

TEST_F(ImageObjects, ImagesOnBuffers) {
  const cl_image_format format{CL_RGBA, CL_FLOAT};
  const size_t w = 64, h = 8;
  cl_uint pitchAlignment = deviceInfo<cl_uint>(device_, CL_DEVICE_IMAGE_PITCH_ALIGNMENT);
  ASSERT_NE(pitchAlignment, 0u) << "CL_DEVICE_IMAGE_PITCH_ALIGNMENT is 0: the device makes no 2D "
                                   "images from buffers";
  size_t alignTexels = pitchAlignment;
  size_t rowTexels = (w + 3 + alignTexels - 1) / alignTexels * alignTexels;  // a padded pitch
  std::vector<float> data = randomValues<float>(rowTexels * h * 4, -10.0f, 10.0f);
  cl_mem buf = bufferFrom(data);
  cl_mem oneD =
      image(CL_MEM_READ_ONLY, format, desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, w, 0, 0, 0, buf));
  ASSERT_NE(oneD, nullptr);
  cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE2D, w, h, 0, 0, buf);
  d.image_row_pitch = rowTexels * 16;
  cl_mem twoD = image(CL_MEM_READ_ONLY, format, d);
  ASSERT_NE(twoD, nullptr);
  EXPECT_EQ(imageInfo<cl_mem>(oneD, CL_IMAGE_BUFFER), buf);
  EXPECT_EQ(memInfo<cl_mem>(oneD, CL_MEM_ASSOCIATED_MEMOBJECT), buf);
  EXPECT_EQ(imageInfo<size_t>(twoD, CL_IMAGE_ROW_PITCH), rowTexels * 16);
  cl_program program = build(R"CLC(
    kernel void scale(global float *data) { data[get_global_id(0)] *= -2.0f; }
    kernel void read1d(read_only image1d_buffer_t img, global float4 *out) {
      out[get_global_id(0)] = read_imagef(img, (int)get_global_id(0));
    }
    kernel void read2d(read_only image2d_t img, global float4 *out) {
      int x = get_global_id(0), y = get_global_id(1);
      out[y * get_global_size(0) + x] = read_imagef(img, (int2)(x, y));
    })CLC",
                             kImageBuildOptions);
  ASSERT_NE(program, nullptr);
  cl_kernel scale = kernelOf(program, "scale"), read1 = kernelOf(program, "read1d"),
            read2 = kernelOf(program, "read2d");
  ASSERT_TRUE(scale && read1 && read2);
  ASSERT_TRUE(setArgs(scale, buf));
  ASSERT_TRUE(run(scale, {data.size()}));
  for (float &v : data) v *= -2.0f;
  cl_mem out1 = buffer(CL_MEM_WRITE_ONLY, w * 16), out2 = buffer(CL_MEM_WRITE_ONLY, w * h * 16);
  ASSERT_TRUE(setArgs(read1, oneD, out1));
  ASSERT_TRUE(run(read1, {w}));
  ASSERT_TRUE(setArgs(read2, twoD, out2));
  ASSERT_TRUE(run(read2, {w, h}));
  std::vector<float> got1 = read<float>(out1, w * 4), got2 = read<float>(out2, w * h * 4);
  for (size_t i = 0; i < w * 4; ++i) ASSERT_EQ(got1[i], data[i]) << "1D buffer image, float " << i;
  for (size_t y = 0; y < h; ++y)
    for (size_t i = 0; i < w * 4; ++i)
      ASSERT_EQ(got2[y * w * 4 + i], data[y * rowTexels * 4 + i])
          << "2D image on a buffer, row " << y << " float " << i;
}

// A 2D image made from another 2D image shares its storage. (PoCL 3.1 has
// neither this nor 2D images on buffers: CL_INVALID_OPERATION.)
TEST_F(ImageObjects, ImageFromImage) {
  const cl_image_format format{CL_RGBA, CL_UNORM_INT8};
  HostImage base = randomImage(CL_MEM_OBJECT_IMAGE2D, format, 10, 6, 1, 1, CL_MEM_READ_WRITE);
  ASSERT_NE(base.mem, nullptr);
  cl_mem alias =
      image(CL_MEM_READ_WRITE, format, desc(CL_MEM_OBJECT_IMAGE2D, 10, 6, 0, 0, base.mem));
  ASSERT_NE(alias, nullptr);
  EXPECT_EQ(memInfo<cl_mem>(alias, CL_MEM_ASSOCIATED_MEMOBJECT), base.mem);
  std::vector<uint8_t> fresh(10 * 6 * 4);
  for (uint8_t &b : fresh) b = uint8_t(rng_());
  size_t origin[3] = {0, 0, 0}, region[3] = {10, 6, 1};
  ASSERT_CL(clEnqueueWriteImage(queue_, base.mem, CL_TRUE, origin, region, 0, 0, fresh.data(), 0,
                                nullptr, nullptr));
  std::vector<uint8_t> back(fresh.size());
  ASSERT_CL(clEnqueueReadImage(queue_, alias, CL_TRUE, origin, region, 0, 0, back.data(), 0,
                               nullptr, nullptr));
  EXPECT_EQ(back, fresh) << "the image made from an image sees the writes to its base";
}

TEST_F(ImageObjects, SamplerQueries) {
  for (bool normalized : {false, true})
    for (cl_addressing_mode mode : {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
                                    CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT})
      for (cl_filter_mode filter : {CL_FILTER_NEAREST, CL_FILTER_LINEAR}) {
        // The repeat modes are for normalized coordinates only.
        if (!normalized && (mode == CL_ADDRESS_REPEAT || mode == CL_ADDRESS_MIRRORED_REPEAT))
          continue;
        cl_sampler s = sampler(normalized, mode, filter);
        ASSERT_NE(s, nullptr);
        cl_bool n = CL_FALSE;
        cl_addressing_mode a = 0;
        cl_filter_mode f = 0;
        cl_context c = nullptr;
        cl_uint refs = 0;
        EXPECT_CL(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof n, &n, nullptr));
        EXPECT_CL(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof a, &a, nullptr));
        EXPECT_CL(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof f, &f, nullptr));
        EXPECT_CL(clGetSamplerInfo(s, CL_SAMPLER_CONTEXT, sizeof c, &c, nullptr));
        EXPECT_CL(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, nullptr));
        EXPECT_EQ(n, normalized ? CL_TRUE : CL_FALSE);
        EXPECT_EQ(a, mode);
        EXPECT_EQ(f, filter);
        EXPECT_EQ(c, context_);
        EXPECT_EQ(refs, 1u);
        size_t size = 0;
        EXPECT_CL(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 0, nullptr, &size));
        EXPECT_EQ(size, 7 * sizeof(cl_sampler_properties)) << "the properties as given, with the 0";
      }
}

// Kernel argument info names image and sampler arguments and their access.
TEST_F(ImageObjects, KernelArgumentInfo) {
  cl_kernel k = kernel(R"CLC(
    kernel void args(read_only image2d_t a, write_only image3d_t b, read_write image2d_array_t c,
                     sampler_t s, image1d_buffer_t d) {})CLC",
                       "args", std::string(kImageBuildOptions) + " -cl-kernel-arg-info");
  ASSERT_NE(k, nullptr);
  struct Want {
    const char *type;
    cl_kernel_arg_access_qualifier access;
  } want[] = {{"image2d_t", CL_KERNEL_ARG_ACCESS_READ_ONLY},
              {"image3d_t", CL_KERNEL_ARG_ACCESS_WRITE_ONLY},
              {"image2d_array_t", CL_KERNEL_ARG_ACCESS_READ_WRITE},
              {"sampler_t", CL_KERNEL_ARG_ACCESS_NONE},
              {"image1d_buffer_t", CL_KERNEL_ARG_ACCESS_READ_ONLY}};
  for (cl_uint i = 0; i < 5; ++i) {
    char type[64] = {};
    cl_kernel_arg_access_qualifier access = 0;
    EXPECT_CL(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, nullptr));
    EXPECT_CL(
        clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access, &access, nullptr));
    EXPECT_STREQ(type, want[i].type) << "argument " << i;
    EXPECT_EQ(access, want[i].access) << "argument " << i;
  }
}

// get_image_width/height/depth/array_size/dim/channel_data_type/order.
TEST_F(ImageObjects, ImageQueryBuiltins) {
  cl_program program = build(R"CLC(
    kernel void q2d(read_only image2d_t i, global int *o) {
      o[0] = get_image_width(i); o[1] = get_image_height(i); o[2] = get_image_dim(i).x;
      o[3] = get_image_dim(i).y; o[4] = get_image_channel_data_type(i); o[5] = get_image_channel_order(i);
    }
    kernel void q3d(read_only image3d_t i, global int *o) {
      o[0] = get_image_width(i); o[1] = get_image_height(i); o[2] = get_image_depth(i);
      o[3] = get_image_dim(i).z; o[4] = get_image_channel_data_type(i); o[5] = get_image_channel_order(i);
    }
    kernel void q1da(read_only image1d_array_t i, global int *o) {
      o[0] = get_image_width(i); o[1] = (int)get_image_array_size(i); o[2] = 0; o[3] = 0;
      o[4] = get_image_channel_data_type(i); o[5] = get_image_channel_order(i);
    }
    kernel void q2da(read_only image2d_array_t i, global int *o) {
      o[0] = get_image_width(i); o[1] = get_image_height(i); o[2] = (int)get_image_array_size(i);
      o[3] = get_image_dim(i).y; o[4] = get_image_channel_data_type(i); o[5] = get_image_channel_order(i);
    })CLC",
                             kImageBuildOptions);
  ASSERT_NE(program, nullptr);
  struct Case {
    const char *kernel;
    cl_mem_object_type type;
    cl_image_format format;
    size_t w, h, d, layers;
    std::vector<int> want;  // besides data type and order
  } cases[] = {
      {"q2d", CL_MEM_OBJECT_IMAGE2D, {CL_BGRA, CL_UNORM_INT8}, 21, 13, 1, 1, {21, 13, 21, 13}},
      {"q3d", CL_MEM_OBJECT_IMAGE3D, {CL_RGBA, CL_HALF_FLOAT}, 5, 6, 7, 1, {5, 6, 7, 7}},
      {"q1da", CL_MEM_OBJECT_IMAGE1D_ARRAY, {CL_RGBA, CL_SIGNED_INT8}, 9, 1, 1, 4, {9, 4, 0, 0}},
      {"q2da",
       CL_MEM_OBJECT_IMAGE2D_ARRAY,
       {CL_RGBA, CL_UNSIGNED_INT32},
       3,
       8,
       1,
       6,
       {3, 8, 6, 8}}};
  for (const Case &c : cases) {
    HostImage img = randomImage(c.type, c.format, c.w, c.h, c.d, c.layers);
    cl_kernel k = kernelOf(program, c.kernel);
    ASSERT_TRUE(img.mem && k);
    cl_mem out = buffer(CL_MEM_WRITE_ONLY, 6 * sizeof(int));
    ASSERT_TRUE(setArgs(k, img.mem, out));
    ASSERT_TRUE(run(k, {1}));
    std::vector<int> got = read<int>(out, 6), want = c.want;
    // CLK_* values equal the CL_* values of the API.
    want.push_back(int(c.format.image_channel_data_type));
    want.push_back(int(c.format.image_channel_order));
    EXPECT_EQ(got, want) << c.kernel;
  }
}

}  // namespace
}  // namespace lockstep::test

// Programs from SPIR-V (clCreateProgramWithIL): the modules are
// conformance/spirv/*.spvasm, assembled at build time (kernels.spvasm,
// linked.spvasm and pipes.spvasm are the SPIR-V of kernels.cl, linked.cl
// and pipes.cl, the rest are written by hand). Every result is checked against a host computation:
// local memory and barriers, atomics, work-group collectives over remainder
// groups, images with sampler arguments and constant samplers, struct and
// vector arguments, specialization constants of every scalar kind, linking
// with OpenCL C both ways, SPIR-V 1.4's instructions,
// SPV_KHR_uniform_group_instructions' group operations, pipes, and the errors of
// creation, build and specialization, including a module that crashes the
// translator.
#include <CL/cl_ext.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>

#include "ClTest.h"

namespace lockstep::test {
namespace {

std::vector<uint8_t> loadModule(const char *name) {
  std::ifstream in(std::string(LOCKSTEP_SPIRV_MODULES_DIR) + "/" + name + ".spv", std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_FALSE(bytes.empty()) << "no module " << name;
  return bytes;
}

class Spirv : public ClTest {
 protected:
  void TearDown() override {
    for (cl_program program : owned_) EXPECT_CL(clReleaseProgram(program));
    ClTest::TearDown();
  }
  // A program created from `bytes` (not built), or nullptr after failing.
  cl_program create(const std::vector<uint8_t> &bytes) {
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithIL(context_, bytes.data(), bytes.size(), &err);
    EXPECT_CL(err);
    if (program) owned_.push_back(program);
    return program;
  }
  // The module `name`, built; nullptr after failing the test.
  cl_program built(const char *name, const char *options = "") {
    cl_program program = create(loadModule(name));
    if (!program) return nullptr;
    cl_int err = clBuildProgram(program, 1, &device_, options, nullptr, nullptr);
    EXPECT_EQ(err, CL_SUCCESS) << errorName(err) << "; log:\n" << buildLog(program, device_);
    return err == CL_SUCCESS ? program : nullptr;
  }
  // A read-only 2D image of `format`, w x h, holding `texels`.
  cl_mem image2d(cl_image_format format, size_t w, size_t h, void *texels) {
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = w;
    desc.image_height = h;
    cl_int err = CL_SUCCESS;
    cl_mem image = clCreateImage(context_, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &format, &desc, texels, &err);
    EXPECT_CL(err);
    return image ? track(image) : nullptr;
  }
  // Builds a module that must fail; its log.
  std::string failedBuildLog(const char *name) {
    cl_program program = create(loadModule(name));
    if (!program) return {};
    EXPECT_EQ(clBuildProgram(program, 1, &device_, "", nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
    cl_build_status status = CL_BUILD_NONE;
    EXPECT_CL(clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr));
    EXPECT_EQ(status, CL_BUILD_ERROR);
    return buildLog(program, device_);
  }
  std::vector<cl_program> owned_;
};

TEST_F(Spirv, DeviceAndPlatformReportTheIntermediateLanguage) {
  std::string versions = deviceString(device_, CL_DEVICE_IL_VERSION);
  for (const char *version : {"SPIR-V_1.0", "SPIR-V_1.1", "SPIR-V_1.2", "SPIR-V_1.3", "SPIR-V_1.4",
                              "SPIR-V_1.5", "SPIR-V_1.6"})
    EXPECT_NE(versions.find(version), std::string::npos) << versions;
  size_t bytes = 0;
  ASSERT_CL(clGetDeviceInfo(device_, CL_DEVICE_ILS_WITH_VERSION, 0, nullptr, &bytes));
  std::vector<cl_name_version> ils(bytes / sizeof(cl_name_version));
  ASSERT_CL(clGetDeviceInfo(device_, CL_DEVICE_ILS_WITH_VERSION, bytes, ils.data(), nullptr));
  ASSERT_EQ(ils.size(), 7u);
  for (size_t i = 0; i < ils.size(); ++i) {
    EXPECT_STREQ(ils[i].name, "SPIR-V");
    EXPECT_EQ(CL_VERSION_MAJOR(ils[i].version), 1u);
    EXPECT_EQ(CL_VERSION_MINOR(ils[i].version), i);
  }
  EXPECT_NE(deviceString(device_, CL_DEVICE_EXTENSIONS).find("cl_khr_il_program"), std::string::npos);
  EXPECT_NE(platformString(platform_, CL_PLATFORM_EXTENSIONS).find("cl_khr_il_program"), std::string::npos);
  auto createKhr = reinterpret_cast<clCreateProgramWithILKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(platform_, "clCreateProgramWithILKHR"));
  ASSERT_NE(createKhr, nullptr);
  std::vector<uint8_t> module = loadModule("kernels");
  cl_int err = CL_SUCCESS;
  cl_program program = createKhr(context_, module.data(), module.size(), &err);
  ASSERT_CL(err);
  owned_.push_back(program);
}

TEST_F(Spirv, LocalMemoryAndBarrier) {
  cl_kernel k = kernelOf(built("kernels"), "reverse_in_group");
  ASSERT_NE(k, nullptr);
  const size_t n = 1024, group = 64;
  std::vector<float> in = randomValues<float>(n, 0.0f, 100.0f);
  cl_mem src = bufferFrom(in), dst = buffer(CL_MEM_READ_WRITE, n * sizeof(float));
  ASSERT_TRUE(setArgs(k, src, dst, LocalBytes{group * sizeof(float)}));
  ASSERT_TRUE(run(k, {n}, {group}));
  std::vector<float> out = read<float>(dst, n);
  for (size_t i = 0; i < n; ++i) {
    size_t first = i / group * group, lid = i - first;
    float expected = std::sqrt(in[first + group - 1 - lid]) + float(i / group);
    ASSERT_FLOAT_EQ(out[i], expected) << "work-item " << i;
  }
}

// -cl-std names an OpenCL C version: an IL program's build ignores it
// (runtimes over SPIR-V pass their own), while other options still count.
TEST_F(Spirv, Atomics) {
  cl_kernel k = kernelOf(built("kernels", "-cl-std=CL2.0 -cl-mad-enable"), "count_odd");
  ASSERT_NE(k, nullptr);
  const size_t n = 100000;
  std::vector<int> in = randomValues<int>(n, -1000000, 1000000);
  int odd = int(std::count_if(in.begin(), in.end(), [](int v) { return v & 1; }));
  cl_mem src = bufferFrom(in), counter = bufferFrom(std::vector<int>{0}), legacy = bufferFrom(std::vector<int>{5});
  ASSERT_TRUE(setArgs(k, src, counter, legacy));
  ASSERT_TRUE(run(k, {n}));
  EXPECT_EQ(read<int>(counter, 1)[0], odd);
  EXPECT_EQ(read<int>(legacy, 1)[0], odd + 5);
}

// An IL program may run remainder groups (no -cl-uniform-work-group-size):
// 1000 work-items in groups of 64 end with a group of 40.
TEST_F(Spirv, WorkGroupCollectivesOverARemainderGroup) {
  cl_kernel k = kernelOf(built("kernels"), "group_sums");
  ASSERT_NE(k, nullptr);
  const size_t n = 1000, group = 64, groups = (n + group - 1) / group;
  std::vector<int> in = randomValues<int>(n, -50, 50);
  cl_mem src = bufferFrom(in), sums = buffer(CL_MEM_READ_WRITE, groups * sizeof(int)),
         prefix = buffer(CL_MEM_READ_WRITE, n * sizeof(int));
  ASSERT_TRUE(setArgs(k, src, sums, prefix));
  ASSERT_TRUE(run(k, {n}, {group}));
  std::vector<int> gotSums = read<int>(sums, groups), gotPrefix = read<int>(prefix, n);
  for (size_t g = 0; g < groups; ++g) {
    int running = 0;
    for (size_t i = g * group; i < std::min(n, (g + 1) * group); ++i) {
      running += in[i];
      ASSERT_EQ(gotPrefix[i], running) << "work-item " << i;
    }
    EXPECT_EQ(gotSums[g], running) << "group " << g;
  }
}

// Sub-groups through SPIR-V (OpGroupIAdd, OpGroupBroadcast, the
// SubgroupId built-ins): a sub-group is as many consecutive local ids as
// the kernel's sub-group size, the last one of a group possibly fewer.
TEST_F(Spirv, SubGroups) {
  cl_kernel k = kernelOf(built("kernels"), "sub_group_sums");
  ASSERT_NE(k, nullptr);
  const size_t n = 1000, group = 100;
  size_t width = 0;
  ASSERT_CL(clGetKernelSubGroupInfo(k, device_, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof group, &group,
                                    sizeof width, &width, nullptr));
  ASSERT_GT(width, 0u);
  std::vector<int> in = randomValues<int>(n, -1000, 1000);
  cl_mem src = bufferFrom(in), sums = buffer(CL_MEM_READ_WRITE, n * sizeof(int)),
         first = buffer(CL_MEM_READ_WRITE, n * sizeof(int)), ids = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_uint));
  ASSERT_TRUE(setArgs(k, src, sums, first, ids));
  ASSERT_TRUE(run(k, {n}, {group}));
  std::vector<int> gotSums = read<int>(sums, n), gotFirst = read<int>(first, n);
  std::vector<cl_uint> gotIds = read<cl_uint>(ids, n);
  for (size_t i = 0; i < n; ++i) {
    size_t lid = i % group, sub = lid / width, start = i - lid + sub * width;
    size_t end = std::min(i - lid + group, start + width);
    int total = 0;
    for (size_t j = start; j < end; ++j) total += in[j];
    ASSERT_EQ(gotSums[i], total) << "work-item " << i;
    ASSERT_EQ(gotFirst[i], in[start]) << "work-item " << i;
    ASSERT_EQ(gotIds[i], sub * 1000 + lid % width) << "work-item " << i;
  }
}

TEST_F(Spirv, ImageWithSamplerArgument) {
  cl_kernel k = kernelOf(built("kernels"), "sample");
  ASSERT_NE(k, nullptr);
  const size_t w = 8, h = 4;
  std::vector<float> texels(w * h * 4);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = float(i) * 0.5f - 7.0f;
  cl_mem image = image2d({CL_RGBA, CL_FLOAT}, w, h, texels.data());
  ASSERT_NE(image, nullptr);
  cl_int err = CL_SUCCESS;
  cl_sampler sampler = clCreateSampler(context_, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST, &err);
  ASSERT_CL(err);
  // Normalized coordinates inside and outside [0, 1): repeat wraps them.
  std::vector<float> coords;
  for (int i = 0; i < 64; ++i) coords.insert(coords.end(), {-1.3f + 0.07f * i, 2.6f - 0.05f * i});
  size_t n = coords.size() / 2;
  cl_mem coordBuffer = bufferFrom(coords), out = buffer(CL_MEM_READ_WRITE, n * 4 * sizeof(float));
  EXPECT_TRUE(setArgs(k, image, sampler, coordBuffer, out));
  EXPECT_TRUE(run(k, {n}));
  EXPECT_CL(clReleaseSampler(sampler));
  std::vector<float> got = read<float>(out, n * 4);
  auto wrap = [](float c, size_t size) {  // the spec's repeat, nearest
    float u = (c - std::floor(c)) * float(size);
    size_t i = size_t(std::floor(u));
    return std::min(i, size - 1);
  };
  for (size_t i = 0; i < n; ++i) {
    size_t x = wrap(coords[2 * i], w), y = wrap(coords[2 * i + 1], h);
    for (size_t c = 0; c < 4; ++c)
      ASSERT_EQ(got[4 * i + c], texels[(y * w + x) * 4 + c]) << "sample " << i << " channel " << c;
  }
}

TEST_F(Spirv, ImageWithConstantSampler) {
  cl_kernel k = kernelOf(built("kernels"), "sample_constant");
  ASSERT_NE(k, nullptr);
  const size_t w = 5, h = 3;
  std::vector<uint8_t> texels(w * h * 4);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = uint8_t(i * 7 + 3);
  cl_mem image = image2d({CL_RGBA, CL_UNSIGNED_INT8}, w, h, texels.data());
  ASSERT_NE(image, nullptr);
  std::vector<int> coords;  // clamp to edge outside the image
  for (int y = -2; y < 5; ++y)
    for (int x = -2; x < 7; ++x) coords.insert(coords.end(), {x, y});
  size_t n = coords.size() / 2;
  cl_mem coordBuffer = bufferFrom(coords), out = buffer(CL_MEM_READ_WRITE, n * 4 * sizeof(uint32_t));
  ASSERT_TRUE(setArgs(k, image, coordBuffer, out));
  ASSERT_TRUE(run(k, {n}));
  std::vector<uint32_t> got = read<uint32_t>(out, n * 4);
  for (size_t i = 0; i < n; ++i) {
    size_t x = size_t(std::clamp(coords[2 * i], 0, int(w) - 1)), y = size_t(std::clamp(coords[2 * i + 1], 0, int(h) - 1));
    for (size_t c = 0; c < 4; ++c) ASSERT_EQ(got[4 * i + c], texels[(y * w + x) * 4 + c]) << "sample " << i;
  }
}

TEST_F(Spirv, StructAndVectorArgumentsByValue) {
  cl_kernel k = kernelOf(built("kernels"), "scale_by_value");
  ASSERT_NE(k, nullptr);
  struct Params {
    cl_int count;
    cl_float scale;
  } params{700, -1.5f};
  cl_int4 offsets{{10, 20, 30, 4}};
  const size_t n = 1024;
  std::vector<float> data = randomValues<float>(n, -10.0f, 10.0f);
  cl_mem buffer = bufferFrom(data);
  ASSERT_TRUE(setArgs(k, params, buffer, offsets));
  ASSERT_TRUE(run(k, {n}));
  std::vector<float> got = read<float>(buffer, n);
  for (size_t i = 0; i < n; ++i) {
    float expected = i < 700 ? data[i] * -1.5f + 10.0f - 4.0f : data[i];
    ASSERT_FLOAT_EQ(got[i], expected) << i;
  }
}

TEST_F(Spirv, ProgramAndKernelQueries) {
  std::vector<uint8_t> module = loadModule("kernels");
  cl_program program = built("kernels");
  ASSERT_NE(program, nullptr);
  size_t bytes = 0;
  ASSERT_CL(clGetProgramInfo(program, CL_PROGRAM_IL, 0, nullptr, &bytes));
  std::vector<uint8_t> il(bytes);
  ASSERT_CL(clGetProgramInfo(program, CL_PROGRAM_IL, bytes, il.data(), nullptr));
  EXPECT_EQ(il, module);
  char names[512] = {};
  ASSERT_CL(clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, nullptr));
  for (const char *name : {"reverse_in_group", "count_odd", "group_sums", "sample", "sample_constant", "scale_by_value",
                           "sub_group_sums"})
    EXPECT_NE(std::string(names).find(name), std::string::npos) << names;
  cl_kernel k = kernelOf(program, "reverse_in_group");
  ASSERT_NE(k, nullptr);
  cl_uint args = 0;
  ASSERT_CL(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof args, &args, nullptr));
  EXPECT_EQ(args, 3u);
  // The module's names and types (SPIR-V OpName, the translator's metadata).
  char text[64] = {};
  ASSERT_CL(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof text, text, nullptr));
  EXPECT_STREQ(text, "in");
  ASSERT_CL(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_TYPE_NAME, sizeof text, text, nullptr));
  EXPECT_STREQ(text, "float*");
  cl_kernel_arg_address_qualifier space = 0;
  ASSERT_CL(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof space, &space, nullptr));
  EXPECT_EQ(space, cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_LOCAL));
  // A program from source has no IL.
  cl_program fromSource = build("kernel void k() {}");
  ASSERT_NE(fromSource, nullptr);
  ASSERT_CL(clGetProgramInfo(fromSource, CL_PROGRAM_IL, 0, nullptr, &bytes));
  EXPECT_EQ(bytes, 0u);
}

// CL_PROGRAM_BINARIES of an IL program load into a new program that runs.
TEST_F(Spirv, ProgramBinaryOfAnILProgram) {
  cl_program program = built("kernels");
  ASSERT_NE(program, nullptr);
  size_t size = 0;
  ASSERT_CL(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr));
  ASSERT_GT(size, 0u);
  std::vector<unsigned char> binary(size);
  unsigned char *target = binary.data();
  ASSERT_CL(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof target, &target, nullptr));
  const unsigned char *source = binary.data();
  cl_int err = CL_SUCCESS;
  cl_program loaded = clCreateProgramWithBinary(context_, 1, &device_, &size, &source, nullptr, &err);
  ASSERT_CL(err);
  owned_.push_back(loaded);
  ASSERT_CL(clBuildProgram(loaded, 1, &device_, "", nullptr, nullptr));
  cl_kernel k = kernelOf(loaded, "group_sums");
  ASSERT_NE(k, nullptr);
  std::vector<int> in = randomValues<int>(100, -9, 9);
  cl_mem src = bufferFrom(in), sums = buffer(CL_MEM_READ_WRITE, sizeof(int)),
         prefix = buffer(CL_MEM_READ_WRITE, in.size() * sizeof(int));
  ASSERT_TRUE(setArgs(k, src, sums, prefix));
  ASSERT_TRUE(run(k, {in.size()}, {in.size()}));
  int total = 0;
  for (int v : in) total += v;
  EXPECT_EQ(read<int>(sums, 1)[0], total);
}

// The module's bytes with every word byte-swapped: SPIR-V may be either.
TEST_F(Spirv, OppositeByteOrder) {
  std::vector<uint8_t> module = loadModule("kernels");
  for (size_t i = 0; i + 3 < module.size(); i += 4) std::reverse(module.begin() + i, module.begin() + i + 4);
  cl_program program = create(module);
  ASSERT_NE(program, nullptr);
  ASSERT_CL(clBuildProgram(program, 1, &device_, "", nullptr, nullptr));
  cl_kernel k = kernelOf(program, "scale_by_value");
  ASSERT_NE(k, nullptr);
  struct {
    cl_int count;
    cl_float scale;
  } params{4, 2.0f};
  cl_int4 offsets{{1, 0, 0, 0}};
  cl_mem data = bufferFrom(std::vector<float>{1, 2, 3, 4, 5});
  ASSERT_TRUE(setArgs(k, params, data, offsets));
  ASSERT_TRUE(run(k, {5}));
  EXPECT_EQ(read<float>(data, 5), (std::vector<float>{3, 5, 7, 9, 5}));
}

class SpecConstants : public Spirv {
 protected:
  // Builds the program and returns its kernel's seven values.
  std::vector<uint64_t> values(cl_program program) {
    EXPECT_EQ(clBuildProgram(program, 1, &device_, "", nullptr, nullptr), CL_SUCCESS)
        << buildLog(program, device_);
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, "spec_values", &err);
    EXPECT_CL(err);
    if (!k) return {};
    cl_mem out = buffer(CL_MEM_READ_WRITE, 7 * sizeof(uint64_t));
    EXPECT_TRUE(setArgs(k, out));
    EXPECT_TRUE(run(k, {1}));
    EXPECT_CL(clReleaseKernel(k));
    return read<uint64_t>(out, 7);
  }
  static uint64_t bits(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  static uint64_t bits(double d) {
    uint64_t b;
    std::memcpy(&b, &d, 8);
    return b;
  }
};

TEST_F(SpecConstants, DefaultsThenEveryScalarKindSet) {
  cl_program program = create(loadModule("spec_constants"));
  ASSERT_NE(program, nullptr);
  std::vector<uint64_t> defaults = {123456, 9876543210123ull, uint64_t(-7), uint64_t(-300), bits(2.5f), bits(0.125), 1};
  EXPECT_EQ(values(program), defaults);

  cl_int i32 = -5;
  cl_float f32 = -1.75f;
  cl_bool flag = CL_FALSE;
  uint8_t b = 0;  // a boolean's size is 1
  cl_long i64 = -1234567890123ll;
  cl_char i8 = 100;
  cl_short i16 = -2;
  cl_double f64 = 3.0;
  ASSERT_CL(clSetProgramSpecializationConstant(program, 1, sizeof i32, &i32));
  ASSERT_CL(clSetProgramSpecializationConstant(program, 2, sizeof f32, &f32));
  ASSERT_CL(clSetProgramSpecializationConstant(program, 3, 1, &b));
  ASSERT_CL(clSetProgramSpecializationConstant(program, 4, sizeof i64, &i64));
  ASSERT_CL(clSetProgramSpecializationConstant(program, 5, sizeof i8, &i8));
  ASSERT_CL(clSetProgramSpecializationConstant(program, 6, sizeof i16, &i16));
  ASSERT_CL(clSetProgramSpecializationConstant(program, 7, sizeof f64, &f64));
  (void)flag;
  std::vector<uint64_t> set = {uint32_t(-5), uint64_t(-1234567890123ll), 100, uint64_t(-2), bits(-1.75f), bits(3.0), 0};
  EXPECT_EQ(values(program), set);

  // Back to the defaults' values: the rebuild (from the kernel cache) must
  // not keep the last ones.
  i32 = 123456;
  b = 1;
  ASSERT_CL(clSetProgramSpecializationConstant(program, 1, sizeof i32, &i32));
  ASSERT_CL(clSetProgramSpecializationConstant(program, 3, 1, &b));
  std::vector<uint64_t> again = values(program);
  ASSERT_EQ(again.size(), 7u);
  EXPECT_EQ(again[0], 123456u);
  EXPECT_EQ(again[6], 1u);
  EXPECT_EQ(again[4], bits(-1.75f));
}

TEST_F(SpecConstants, Errors) {
  cl_program program = create(loadModule("spec_constants"));
  ASSERT_NE(program, nullptr);
  cl_int i32 = 1;
  EXPECT_EQ(clSetProgramSpecializationConstant(program, 99, sizeof i32, &i32), CL_INVALID_SPEC_ID);
  EXPECT_EQ(clSetProgramSpecializationConstant(program, 1, 8, &i32), CL_INVALID_VALUE);
  EXPECT_EQ(clSetProgramSpecializationConstant(program, 3, 4, &i32), CL_INVALID_VALUE);
  EXPECT_EQ(clSetProgramSpecializationConstant(program, 1, sizeof i32, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clSetProgramSpecializationConstant(nullptr, 1, sizeof i32, &i32), CL_INVALID_PROGRAM);
  cl_program fromSource = build("kernel void k() {}");
  ASSERT_NE(fromSource, nullptr);
  EXPECT_EQ(clSetProgramSpecializationConstant(fromSource, 1, sizeof i32, &i32), CL_INVALID_PROGRAM);
}

// linked.spvasm (SPIR-V 1.4) calls lockstep_test_helper, which OpenCL C
// defines; the OpenCL C calls lockstep_test_triple, which the SPIR-V exports.
TEST_F(Spirv, CompileAndLinkWithOpenCLC) {
  cl_program il = create(loadModule("linked"));
  ASSERT_NE(il, nullptr);
  ASSERT_EQ(clCompileProgram(il, 1, &device_, "", 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS)
      << buildLog(il, device_);
  cl_program_binary_type type = 0;
  ASSERT_CL(clGetProgramBuildInfo(il, device_, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(type, cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT));
  const char *source = "int lockstep_test_triple(int x);\n"
                       "int lockstep_test_helper(int x) { return x * x + lockstep_test_triple(x); }\n";
  cl_int err = CL_SUCCESS;
  cl_program c = clCreateProgramWithSource(context_, 1, &source, nullptr, &err);
  ASSERT_CL(err);
  owned_.push_back(c);
  ASSERT_CL(clCompileProgram(c, 1, &device_, "", 0, nullptr, nullptr, nullptr, nullptr));
  cl_program inputs[] = {il, c};
  cl_program program = clLinkProgram(context_, 1, &device_, "", 2, inputs, nullptr, nullptr, &err);
  ASSERT_CL(err);
  owned_.push_back(program);
  cl_kernel k = kernelOf(program, "call_helper");
  ASSERT_NE(k, nullptr);
  std::vector<int> data = randomValues<int>(300, -1000, 1000);
  cl_mem buffer = bufferFrom(data);
  ASSERT_TRUE(setArgs(k, buffer));
  ASSERT_TRUE(run(k, {data.size()}));
  std::vector<int> got = read<int>(buffer, data.size());
  for (size_t i = 0; i < data.size(); ++i) ASSERT_EQ(got[i], data[i] * data[i] + 3 * data[i]) << i;
}

// SPIR-V 1.4's instructions the translator cannot read, rewritten.
TEST_F(Spirv, Spirv14Instructions) {
  cl_kernel k = kernelOf(built("spirv14"), "spirv14_ops");
  ASSERT_NE(k, nullptr);
  std::vector<uint32_t> in = randomValues<uint32_t>(7, 0, 1u << 30);
  cl_mem input = bufferFrom(in), output = bufferFrom(std::vector<uint32_t>(12, 12345));
  ASSERT_TRUE(setArgs(k, output, input));
  ASSERT_TRUE(run(k, {1}));
  std::vector<uint32_t> expected = {0, 1, 2, in[0], in[1], in[1], in[5], in[0], in[3], in[6], in[1], in[2]};
  EXPECT_EQ(read<uint32_t>(output, 12), expected);
}

TEST_F(Spirv, BuildWithAnUnresolvedImportFailsWithALog) {
  std::string log = failedBuildLog("linked");
  EXPECT_NE(log.find("lockstep_test_helper"), std::string::npos) << log;
}

TEST_F(Spirv, InvalidBuildOptions) {
  cl_program program = create(loadModule("kernels"));
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(clBuildProgram(program, 1, &device_, "-no-such-option", nullptr, nullptr), CL_INVALID_BUILD_OPTIONS);
  EXPECT_EQ(clCompileProgram(program, 1, &device_, "-no-such-option", 0, nullptr, nullptr, nullptr, nullptr),
            CL_INVALID_COMPILER_OPTIONS);
  EXPECT_CL(clBuildProgram(program, 1, &device_, "-cl-fast-relaxed-math -DIGNORED=1", nullptr, nullptr));
}

TEST_F(Spirv, CreateRefusesWhatIsNotSpirv) {
  cl_int err = CL_SUCCESS;
  std::vector<uint8_t> module = loadModule("kernels");
  EXPECT_EQ(clCreateProgramWithIL(context_, nullptr, 20, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithIL(context_, module.data(), 0, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithIL(nullptr, module.data(), module.size(), &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  const char text[] = "kernel void k(global int *p) { *p = 1; }";
  EXPECT_EQ(clCreateProgramWithIL(context_, text, sizeof text - 1, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  // Cut inside an instruction.
  EXPECT_EQ(clCreateProgramWithIL(context_, module.data(), module.size() / 8 * 4 + 4, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  // Words after the header that claim zero length.
  std::vector<uint8_t> damaged = module;
  std::fill(damaged.begin() + 20, damaged.begin() + 24, 0);
  EXPECT_EQ(clCreateProgramWithIL(context_, damaged.data(), damaged.size(), &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  // SPIR-V 1.7, which does not exist yet.
  std::vector<uint8_t> newer = module;
  uint32_t version = 0x00010700;
  std::memcpy(newer.data() + 4, &version, 4);
  EXPECT_EQ(clCreateProgramWithIL(context_, newer.data(), newer.size(), &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
}

// The Float16 capability (cl_khr_fp16): half arithmetic, denormals kept.
TEST_F(Spirv, HalfArithmetic) {
  cl_kernel k = kernelOf(built("half_arithmetic"), "twice");
  ASSERT_NE(k, nullptr);
  const std::pair<uint16_t, uint16_t> cases[] = {
      {0x3e00, 0x4200},  // 1.5 -> 3
      {0x0001, 0x0002},  // the smallest denormal, doubled
      {0x7bff, 0x7c00},  // HALF_MAX overflows to infinity
      {0xc500, 0xc900},  // -5 -> -10
  };
  for (auto [in, want] : cases) {
    cl_mem data = bufferFrom(std::vector<uint16_t>{in});
    ASSERT_TRUE(setArgs(k, data));
    ASSERT_TRUE(run(k, {1}));
    EXPECT_EQ(read<uint16_t>(data, 1)[0], want) << std::hex << in;
  }
}

// Device-side enqueue from SPIR-V (the DeviceEnqueue capability): the
// translator gives back Clang's enqueue calls, which run as from OpenCL C.
TEST_F(Spirv, DeviceEnqueueRunsTheEnqueuedBlocks) {
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES,
                                 CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT,
                                 0};
  cl_int err = CL_SUCCESS;
  cl_command_queue deviceQueue = clCreateCommandQueueWithProperties(context_, device_, props, &err);
  ASSERT_CL(err);
  cl_program program = built("device_enqueue");
  ASSERT_NE(program, nullptr);
  cl_kernel k = kernelOf(program, "parent");
  const int v = 1234567;
  cl_mem out = bufferFrom(std::vector<int>(8, -1));
  ASSERT_TRUE(setArgs(k, out, v));
  ASSERT_TRUE(run(k, {1}));
  std::vector<int> expect(8, -1);
  for (int i = 0; i < 4; ++i) expect[i] = v;
  expect[5] = v;
  EXPECT_EQ(read<int>(out, 8), expect);
  ASSERT_CL(clReleaseCommandQueue(deviceQueue));
}

TEST_F(Spirv, ModulesTheDeviceCannotRunFailToBuildWithALog) {
  std::string log = failedBuildLog("pipe_storage");
  EXPECT_NE(log.find("PipeStorage"), std::string::npos) << log;
  log = failedBuildLog("physical32");
  EXPECT_NE(log.find("Physical64"), std::string::npos) << log;
  // The translator stops on a damaged module: its message is the log, and
  // this process goes on.
  log = failedBuildLog("damaged");
  EXPECT_NE(log.find("SPIR-V translator"), std::string::npos) << log;
  EXPECT_EQ(log.find("Stack dump"), std::string::npos) << log;
  EXPECT_NE(kernelOf(built("kernels"), "count_odd"), nullptr);
}

// Pipes (pipes.cl): reservations of two packets per producer, group
// reservations by consumers, then the unreserved reads of what is left and
// the queries. The packets that come out are those that went in, each
// producer's pair whole and in order, each consumer group's block one run
// of pairs.
TEST_F(Spirv, Pipes) {
  cl_program program = built("pipes");
  ASSERT_NE(program, nullptr);
  cl_kernel produce = kernelOf(program, "produce"), consume = kernelOf(program, "consume_groups"),
            drain = kernelOf(program, "drain");
  ASSERT_TRUE(produce && consume && drain);
  const size_t producers = 512, n = 2 * producers, local = 32, consumed = 512;
  std::vector<cl_int> src(n);
  for (size_t i = 0; i < n; ++i) src[i] = cl_int(i * 2654435761u >> 3);
  cl_int err = CL_SUCCESS;
  cl_mem pipe = track(clCreatePipe(context_, 0, sizeof(cl_int), cl_uint(n), nullptr, &err));
  ASSERT_CL(err);
  cl_mem in = bufferFrom(src), out = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int)),
         failed = bufferFrom(std::vector<cl_int>{0}), count = bufferFrom(std::vector<cl_int>{0, 0, 0});
  ASSERT_TRUE(setArgs(produce, in, pipe, failed));
  ASSERT_TRUE(run(produce, {producers}, {16}));
  ASSERT_TRUE(setArgs(consume, pipe, out, failed));
  ASSERT_TRUE(run(consume, {consumed}, {local}));
  cl_mem rest = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
  ASSERT_TRUE(setArgs(drain, pipe, rest, count));
  ASSERT_TRUE(run(drain, {1}));
  EXPECT_EQ(read<cl_int>(failed, 1)[0], 0);
  EXPECT_EQ(read<cl_int>(count, 3), (std::vector<cl_int>{cl_int(n - consumed), cl_int(n - consumed), cl_int(n)}));
  // Every packet once: the consumers' and the drain's together.
  std::vector<cl_int> all = read<cl_int>(out, consumed), left = read<cl_int>(rest, n - consumed);
  all.insert(all.end(), left.begin(), left.end());
  // Pairs stay whole: a packet at an even position of the stream is some
  // producer's first, and the next one its second.
  std::map<cl_int, size_t> position;
  for (size_t i = 0; i < n; ++i) position[src[i]] = i;
  for (size_t j = 0; j < n; j += 2) {
    ASSERT_TRUE(position.count(all[j])) << j;
    size_t i = position[all[j]];
    EXPECT_EQ(i % 2, 0u) << j;
    EXPECT_EQ(all[j + 1], src[i + 1]) << j;
  }
  std::vector<cl_int> sortedAll = all, sortedSrc = src;
  std::sort(sortedAll.begin(), sortedAll.end());
  std::sort(sortedSrc.begin(), sortedSrc.end());
  EXPECT_EQ(sortedAll, sortedSrc);
}

// SPV_KHR_uniform_group_instructions (what OpenCL C's
// cl_khr_work_group_uniform_arithmetic becomes; a SPIR-V module gets them
// whether or not that extension is listed): the bitwise, logical and
// multiplying group operations over groups of 16 and a remainder group,
// against the host's combine of each group in linear order.
TEST_F(Spirv, UniformGroupInstructions) {
  cl_program program = built("uniform_group");
  ASSERT_NE(program, nullptr);
  cl_kernel k = kernelOf(program, "uniform_group");
  ASSERT_NE(k, nullptr);
  const size_t local = 16, n = 4 * local + 5;
  std::vector<cl_uint> in = randomValues<cl_uint>(n, 0, 0xffffffffu);
  for (size_t i = 0; i < n; i += 3) in[i] |= 1;  // odd factors keep the products informative
  // Some zeros for the logical operations: a group of all zeros, scattered
  // ones in the last groups, none in the first.
  for (size_t i = 0; i < local; ++i) in[local + i] = 0;
  for (size_t i = 3 * local; i < n; i += 5) in[i] = 0;
  std::vector<float> fin = randomValues<float>(n, 0.9f, 1.1f);
  cl_mem mi = bufferFrom(in), mo = buffer(CL_MEM_WRITE_ONLY, 7 * n * sizeof(cl_uint));
  cl_mem mf = bufferFrom(fin), mfo = buffer(CL_MEM_WRITE_ONLY, n * sizeof(float));
  ASSERT_TRUE(setArgs(k, mi, mo, mf, mfo));
  ASSERT_TRUE(run(k, {n}, {local}));
  std::vector<cl_uint> out = read<cl_uint>(mo, 7 * n);
  std::vector<float> fout = read<float>(mfo, n);
  for (size_t first = 0; first < n; first += local) {
    size_t end = std::min(first + local, n);
    cl_uint allBits = ~0u, product = 1, orScan = 0, xorScan = 0;
    bool all = true, any = false, odd = false;
    float fproduct = 1.0f;
    for (size_t i = first; i < end; ++i) {
      allBits &= in[i];
      product *= in[i];
      all = all && in[i] != 0;
    }
    for (size_t i = first; i < end; ++i) {
      EXPECT_EQ(out[i], allBits) << "BitwiseAnd reduce, " << i;
      EXPECT_EQ(out[3 * n + i], product) << "IMul reduce, " << i;
      EXPECT_EQ(out[4 * n + i], cl_uint(all)) << "LogicalAnd reduce, " << i;
      EXPECT_EQ(out[2 * n + i], xorScan) << "BitwiseXor exclusive scan, " << i;
      EXPECT_EQ(out[6 * n + i], cl_uint(odd)) << "LogicalXor exclusive scan, " << i;
      EXPECT_NEAR(fout[i], fproduct, 1e-5f * local * std::fabs(fproduct)) << "FMul exclusive scan, " << i;
      orScan |= in[i];
      xorScan ^= in[i];
      any = any || in[i] != 0;
      odd = odd != (in[i] != 0);
      fproduct *= fin[i];
      EXPECT_EQ(out[n + i], orScan) << "BitwiseOr inclusive scan, " << i;
      EXPECT_EQ(out[5 * n + i], cl_uint(any)) << "LogicalOr inclusive scan, " << i;
    }
  }
}

}  // namespace
}  // namespace lockstep::test

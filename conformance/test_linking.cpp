// Programs made of separately compiled objects (clCompileProgram, then
// clLinkProgram): each kernel keeps the work-group rule of the object it was
// compiled in (OpenCL C 3.0 allows remainder groups, OpenCL C 1.2 and
// -cl-uniform-work-group-size do not), whatever else is linked with it; and
// build options whose values are quoted (a path with a space, a define whose
// value has spaces) reach the compiler whole through clBuildProgram and
// through clCompileProgram + clLinkProgram alike.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "ClTest.h"

namespace lockstep::test {
namespace {

// Each work-item writes its global id times 3 plus the size of its own
// group (a remainder group is smaller) plus 1000 times the enqueued size.
const char *kRemainderKernel = R"CLC(
kernel void spread(global int *out) {
  size_t i = get_global_id(0);
  out[i] = (int)(i * 3 + get_local_size(0) + 1000 * get_enqueued_local_size(0));
}
)CLC";

// The same without OpenCL C 2.0's get_enqueued_local_size (it compiles as
// OpenCL C 1.2, whose groups are all full).
const char *kFullGroupKernel = R"CLC(
kernel void bump(global int *out) {
  size_t i = get_global_id(0);
  out[i] = (int)(i * 5 + get_local_size(0));
}
)CLC";

class Linking : public ClTest {
 protected:
  void TearDown() override {
    for (cl_program program : owned_) EXPECT_CL(clReleaseProgram(program));
    ClTest::TearDown();
  }
  // A compiled object of `source`, or nullptr after failing the test.
  cl_program compiled(const char *source, const std::string &options) {
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context_, 1, &source, nullptr, &err);
    EXPECT_CL(err);
    if (!program) return nullptr;
    owned_.push_back(program);
    err = clCompileProgram(program, 1, &device_, options.c_str(), 0, nullptr, nullptr, nullptr, nullptr);
    EXPECT_EQ(err, CL_SUCCESS) << errorName(err) << " compiling with '" << options << "'; log:\n"
                               << buildLog(program, device_);
    return err == CL_SUCCESS ? program : nullptr;
  }
  // The executable linked from `objects`, or nullptr after failing the test.
  cl_program linked(std::vector<cl_program> objects) {
    cl_int err = CL_SUCCESS;
    cl_program program = clLinkProgram(context_, 1, &device_, "", cl_uint(objects.size()), objects.data(),
                                       nullptr, nullptr, &err);
    EXPECT_CL(err);
    if (program) owned_.push_back(program);
    return err == CL_SUCCESS ? program : nullptr;
  }
  // Enqueues `name` of `program` over `global` work-items in groups of
  // `local` (0: NULL); the status of clEnqueueNDRangeKernel, and, when it
  // succeeded, what the work-items wrote.
  cl_int launch(cl_program program, const char *name, size_t global, size_t local, std::vector<int> &out) {
    cl_kernel k = kernelOf(program, name);
    if (!k) return CL_INVALID_KERNEL;
    cl_mem buffer = this->buffer(CL_MEM_READ_WRITE, global * sizeof(int));
    EXPECT_TRUE(setArgs(k, buffer));
    cl_int err = clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, local ? &local : nullptr, 0, nullptr,
                                        nullptr);
    if (err == CL_SUCCESS) out = read<int>(buffer, global);
    return err;
  }
  // Checks what `spread` wrote over `global` work-items in groups of `local`.
  static void checkSpread(const std::vector<int> &out, size_t global, size_t local) {
    ASSERT_EQ(out.size(), global);
    for (size_t i = 0; i < global; ++i) {
      size_t groupStart = i / local * local;
      size_t groupSize = std::min(local, global - groupStart);
      ASSERT_EQ(out[i], int(i * 3 + groupSize + 1000 * local)) << "work-item " << i;
    }
  }
  static void checkBump(const std::vector<int> &out, size_t global, size_t local) {
    ASSERT_EQ(out.size(), global);
    for (size_t i = 0; i < global; ++i) ASSERT_EQ(out[i], int(i * 5 + local)) << "work-item " << i;
  }
  bool nonUniformSupported() { return deviceInfo<cl_bool>(device_, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT); }

  std::vector<cl_program> owned_;
};

// An OpenCL C 3.0 kernel linked with an OpenCL C 1.2 one, in either order:
// the 3.0 kernel runs remainder groups, the 1.2 kernel refuses them.
TEST_F(Linking, EachKernelKeepsItsLanguageVersionsWorkGroupRule) {
  if (!nonUniformSupported()) GTEST_SKIP() << "device reports no non-uniform work-group support";
  cl_program modern = compiled(kRemainderKernel, "-cl-std=CL3.0");
  cl_program classic = compiled(kFullGroupKernel, "-cl-std=CL1.2");
  ASSERT_NE(modern, nullptr);
  ASSERT_NE(classic, nullptr);
  for (bool modernFirst : {true, false}) {
    SCOPED_TRACE(modernFirst ? "3.0 object first" : "1.2 object first");
    cl_program program = modernFirst ? linked({modern, classic}) : linked({classic, modern});
    ASSERT_NE(program, nullptr);
    std::vector<int> out;
    ASSERT_CL(launch(program, "spread", 37, 8, out));
    checkSpread(out, 37, 8);
    EXPECT_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE, launch(program, "bump", 37, 8, out));
    // Full groups, given or chosen, still run.
    ASSERT_CL(launch(program, "bump", 40, 8, out));
    checkBump(out, 40, 8);
    ASSERT_CL(launch(program, "bump", 37, 0, out));
    ASSERT_EQ(out.size(), 37u);
    for (size_t i = 0; i < 37; ++i) ASSERT_EQ(out[i] - int(i * 5), out[0]) << "work-item " << i;
    EXPECT_EQ(37 % out[0], 0) << "a NULL local size chose " << out[0] << " for 37 work-items";
  }
}

// -cl-uniform-work-group-size binds the kernels of its own object only.
TEST_F(Linking, UniformWorkGroupSizeOptionBindsItsOwnObjectOnly) {
  if (!nonUniformSupported()) GTEST_SKIP() << "device reports no non-uniform work-group support";
  cl_program modern = compiled(kRemainderKernel, "-cl-std=CL3.0");
  cl_program promised = compiled(kFullGroupKernel, "-cl-std=CL3.0 -cl-uniform-work-group-size");
  ASSERT_NE(modern, nullptr);
  ASSERT_NE(promised, nullptr);
  cl_program program = linked({promised, modern});
  ASSERT_NE(program, nullptr);
  std::vector<int> out;
  ASSERT_CL(launch(program, "spread", 45, 16, out));
  checkSpread(out, 45, 16);
  EXPECT_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE, launch(program, "bump", 45, 16, out));
  ASSERT_CL(launch(program, "bump", 48, 16, out));
  checkBump(out, 48, 16);
}

// A header in a folder whose name has spaces, and defines whose values do.
class QuotedOptions : public Linking {
 protected:
  void SetUp() override {
    Linking::SetUp();
    dir_ = std::filesystem::temp_directory_path() / ("lockstep dir with space " + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "quoted.h") << "#define FROM_HEADER 100\n";
  }
  void TearDown() override {
    std::filesystem::remove_all(dir_);
    Linking::TearDown();
  }
  // -I with the folder in double quotes, a define in double quotes and one
  // in single quotes, both with spaces in their values.
  std::string options() const {
    return "-I \"" + dir_.string() + "\" -D PAIR=\"40 + 2\" -D 'TRIPLE=1 + 2 * 3'";
  }
  std::filesystem::path dir_;
};

const char *kQuotedSource = R"CLC(
#include "quoted.h"
kernel void k(global int *out) { out[get_global_id(0)] = FROM_HEADER + PAIR + TRIPLE; }
)CLC";

TEST_F(QuotedOptions, ThroughBuildProgram) {
  cl_program program = build(kQuotedSource, options());
  ASSERT_NE(program, nullptr);
  std::vector<int> out;
  ASSERT_CL(launch(program, "k", 1, 1, out));
  EXPECT_EQ(out, std::vector<int>{149});
}

TEST_F(QuotedOptions, ThroughCompileAndLink) {
  cl_program object = compiled(kQuotedSource, options());
  ASSERT_NE(object, nullptr);
  cl_program program = linked({object});
  ASSERT_NE(program, nullptr);
  std::vector<int> out;
  ASSERT_CL(launch(program, "k", 1, 1, out));
  EXPECT_EQ(out, std::vector<int>{149});
}

// An option's spelling inside a quoted value is part of that value: this
// OpenCL C 3.0 kernel makes no -cl-uniform-work-group-size promise.
TEST_F(QuotedOptions, AnOptionInsideAQuotedValueIsNoOption) {
  if (!nonUniformSupported()) GTEST_SKIP() << "device reports no non-uniform work-group support";
  std::string text = "-cl-std=CL3.0 -D \"NOTE=x -cl-uniform-work-group-size y\"";
  std::vector<int> out;
  cl_program built = build(kRemainderKernel, text);
  ASSERT_NE(built, nullptr);
  ASSERT_CL(launch(built, "spread", 37, 8, out));
  checkSpread(out, 37, 8);
  cl_program object = compiled(kRemainderKernel, text);
  ASSERT_NE(object, nullptr);
  cl_program program = linked({object});
  ASSERT_NE(program, nullptr);
  ASSERT_CL(launch(program, "spread", 37, 8, out));
  checkSpread(out, 37, 8);
}

}  // namespace
}  // namespace lockstep::test

// Building programs: diagnostics in the build log, build options, program
// binaries that round-trip, and separate compilation and linking.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>

#include "ClTest.h"

namespace lockstep::test {
namespace {

class Build : public ClTest {
 protected:
  cl_program source(const std::string &text) {
    const char *p = text.c_str();
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context_, 1, &p, nullptr, &err);
    EXPECT_EQ(err, CL_SUCCESS) << errorName(err);
    if (program) owned_.push_back(program);
    return program;
  }
  // A program made with clCreateProgramWithBinary from `program`'s
  // CL_PROGRAM_BINARIES (not built yet), or nullptr after failing the test.
  cl_program fromItsBinary(cl_program program) {
    size_t size = 0;
    EXPECT_CL(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr));
    EXPECT_GT(size, 0u);
    if (size == 0) return nullptr;
    std::vector<unsigned char> binary(size);
    unsigned char *pointers[] = {binary.data()};
    EXPECT_CL(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof pointers, pointers, nullptr));
    const unsigned char *constPointers[] = {binary.data()};
    cl_int status = CL_INVALID_VALUE, err = CL_SUCCESS;
    cl_program copy = clCreateProgramWithBinary(context_, 1, &device_, &size, constPointers, &status, &err);
    EXPECT_CL(err);
    if (!copy) return nullptr;
    owned_.push_back(copy);
    EXPECT_CL(status);
    return copy;
  }
  cl_int buildWith(cl_program program, const std::string &options) {
    return clBuildProgram(program, 1, &device_, options.c_str(), nullptr, nullptr);
  }
  // Runs a one-work-item kernel `k(global int *out)` and returns out[0..n).
  std::vector<int> runOnce(cl_program program, size_t n = 1) {
    cl_kernel k = kernelOf(program, "k");
    if (!k) return {};
    cl_mem out = buffer(CL_MEM_READ_WRITE, n * sizeof(int));
    EXPECT_TRUE(setArgs(k, out));
    EXPECT_TRUE(run(k, {1}));
    return read<int>(out, n);
  }
  void TearDown() override {
    for (cl_program program : owned_) EXPECT_CL(clReleaseProgram(program));
    ClTest::TearDown();
  }
  std::vector<cl_program> owned_;
};

TEST_F(Build, ErrorGivesFailureAndALogWithLineAndColumn) {
  cl_program program = source(
      "kernel void k(global int *out) {\n"
      "  int fine = 1;\n"
      "  out[0] = fine + undeclared_thing;\n"
      "}\n");
  ASSERT_NE(program, nullptr);
  EXPECT_CL_ERROR(CL_BUILD_PROGRAM_FAILURE, buildWith(program, ""));
  std::string log = buildLog(program, device_);
  // A compiler-style diagnostic: <file>:3:<column>: on an error line.
  EXPECT_TRUE(std::regex_search(log, std::regex("error.*:3:[0-9]+:|:3:[0-9]+: (fatal )?error")))
      << "log lacks a line:column error on line 3:\n"
      << log;
  EXPECT_NE(log.find("undeclared_thing"), std::string::npos) << log;
  cl_build_status status = CL_BUILD_NONE;
  ASSERT_CL(clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_STATUS, sizeof status, &status,
                                  nullptr));
  EXPECT_EQ(status, CL_BUILD_ERROR);
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(program, "k", &err);
  EXPECT_EQ(k, nullptr);
  EXPECT_CL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE, err);
}

TEST_F(Build, FailedBuildCanBeRetriedWithAFixingDefine) {
  cl_program program = source(
      "#ifndef VALUE\n#error VALUE must be defined\n#endif\n"
      "kernel void k(global int *out) { out[0] = VALUE; }\n");
  ASSERT_NE(program, nullptr);
  EXPECT_CL_ERROR(CL_BUILD_PROGRAM_FAILURE, buildWith(program, ""));
  EXPECT_NE(buildLog(program, device_).find("VALUE must be defined"), std::string::npos);
  ASSERT_CL(buildWith(program, "-D VALUE=17"));
  EXPECT_EQ(runOnce(program), std::vector<int>{17});
}

TEST_F(Build, DefinesWithAndWithoutValues) {
  cl_program program = build(
      "kernel void k(global int *out) {\n"
      "#ifdef FLAG\n  out[0] = A + B;\n#else\n  out[0] = -1;\n#endif\n}\n",
      "-DFLAG -D A=40 -DB=2");
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(runOnce(program), std::vector<int>{42});
}

TEST_F(Build, IncludeDirectory) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("lockstep-include-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "sub");
  std::ofstream(dir / "sub" / "answer.h") << "#define ANSWER (6 * 7)\n";
  cl_program program =
      build("#include \"sub/answer.h\"\nkernel void k(global int *out) { out[0] = ANSWER; }\n",
            "-I " + dir.string());
  std::filesystem::remove_all(dir);
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(runOnce(program), std::vector<int>{42});
}

TEST_F(Build, LanguageVersionOption) {
  const char *text = "kernel void k(global int *out) { out[0] = __OPENCL_C_VERSION__; }\n";
  EXPECT_EQ(runOnce(build(text, "-cl-std=CL1.2")), std::vector<int>{120});
  EXPECT_EQ(runOnce(build(text, "-cl-std=CL3.0")), std::vector<int>{300});
  // Without -cl-std an OpenCL 3.0 device compiles OpenCL C 1.2.
  EXPECT_EQ(runOnce(build(text, "")), std::vector<int>{120});
}

TEST_F(Build, UnknownLanguageVersionIsInvalidOptions) {
  cl_program program = source("kernel void k(global int *out) { out[0] = 1; }\n");
  ASSERT_NE(program, nullptr);
  EXPECT_CL_ERROR(CL_INVALID_BUILD_OPTIONS, buildWith(program, "-cl-std=CL9.9"));
  EXPECT_CL_ERROR(CL_INVALID_BUILD_OPTIONS, buildWith(program, "-cl-no-such-option"));
}

TEST_F(Build, FastRelaxedMathDefinesItsMacroAndStillComputes) {
  const char *text =
      "kernel void k(global int *out) {\n"
      "#ifdef __FAST_RELAXED_MATH__\n  out[0] = 1;\n#else\n  out[0] = 0;\n#endif\n"
      "  out[1] = (int)(sqrt(16.0f) * 10.0f + 0.5f);\n}\n";
  EXPECT_EQ(runOnce(build(text, "-cl-fast-relaxed-math"), 2), (std::vector<int>{1, 40}));
  EXPECT_EQ(runOnce(build(text, ""), 2), (std::vector<int>{0, 40}));
  EXPECT_EQ(runOnce(build(text, "-cl-mad-enable -cl-no-signed-zeros -cl-finite-math-only"), 2)[1],
            40);
}

TEST_F(Build, OptDisableStillRunsBarriersCorrectly) {
  cl_kernel k = kernel(R"CLC(
    kernel void k(global int *data, local int *tmp) {
      uint lid = get_local_id(0), n = get_local_size(0);
      tmp[lid] = data[get_global_id(0)];
      barrier(CLK_LOCAL_MEM_FENCE);
      data[get_global_id(0)] = tmp[n - 1 - lid];
    }
  )CLC",
                       "k", "-cl-opt-disable");
  ASSERT_NE(k, nullptr);
  std::vector<int> in(128);
  for (int i = 0; i < 128; ++i) in[i] = i * i;
  cl_mem m = bufferFrom(in);
  ASSERT_TRUE(setArgs(k, m, LocalBytes{32 * 4}));
  ASSERT_TRUE(run(k, {128}, {32}));
  std::vector<int> out = read<int>(m, 128);
  for (int i = 0; i < 128; ++i) ASSERT_EQ(out[i], in[i / 32 * 32 + 31 - i % 32]) << i;
}

const char *kWarns =
    "#warning lockstep-test-warning\n"
    "kernel void k(global int *out) { out[0] = 5; }\n";

TEST_F(Build, WarningsAppearInTheLog) {
  cl_program program = build(kWarns);
  ASSERT_NE(program, nullptr);
  EXPECT_NE(buildLog(program, device_).find("lockstep-test-warning"), std::string::npos)
      << buildLog(program, device_);
  EXPECT_EQ(runOnce(program), std::vector<int>{5});
}

TEST_F(Build, DashWSilencesWarnings) {
  cl_program program = build(kWarns, "-w");
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(buildLog(program, device_).find("lockstep-test-warning"), std::string::npos)
      << buildLog(program, device_);
  EXPECT_EQ(runOnce(program), std::vector<int>{5});
}

TEST_F(Build, WerrorTurnsAWarningIntoAFailure) {
  cl_program program = source(kWarns);
  ASSERT_NE(program, nullptr);
  EXPECT_CL_ERROR(CL_BUILD_PROGRAM_FAILURE, buildWith(program, "-Werror"));
  EXPECT_NE(buildLog(program, device_).find("lockstep-test-warning"), std::string::npos);
}

// What LLVM reports while it optimizes goes to the build log, not to the
// application's stderr: here a `#pragma unroll` on loops whose rounds
// differ between work-items, which the compiler masks, so the unroller
// cannot honour it (OpenCV's histogram kernels wrote one line per copy of
// the loop to stderr). Once per message in the log; none with -w. The
// histogram it computes is checked against the host's.
TEST_F(Build, OptimizerReportsGoToTheLogNotToStderr) {
  const std::string text = R"CLC(
    kernel void k(global const uchar *in, global uint *out, int n) {
      local uint hist[256];
      int lid = get_local_id(0);
      #pragma unroll
      for (int i = lid; i < 256; i += get_local_size(0)) hist[i] = 0;
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int i = get_global_id(0); i < n; i += get_global_size(0)) atomic_inc(hist + in[i]);
      barrier(CLK_LOCAL_MEM_FENCE);
      #pragma unroll
      for (int i = lid; i < 256; i += get_local_size(0)) atomic_add(out + i, hist[i]);
    }
  )CLC";
  // A define no earlier run used, so that the kernel cache cannot answer.
  const std::string salt = "-DSALT=" + std::to_string(std::random_device{}());
  for (const std::string options : {salt, salt + " -w"}) {
    SCOPED_TRACE(options);
    cl_program program = source(text);
    ASSERT_NE(program, nullptr);
    testing::internal::CaptureStderr();
    cl_int err = buildWith(program, options);
    std::string stderrText = testing::internal::GetCapturedStderr();
    ASSERT_CL(err);
    EXPECT_EQ(stderrText, "");
    std::string log = buildLog(program, device_);
    size_t first = log.find("loop not unrolled");
    if (options.ends_with("-w"))
      EXPECT_EQ(first, std::string::npos) << log;
    else if (first != std::string::npos)
      EXPECT_EQ(log.find("loop not unrolled", first + 1), std::string::npos) << log;

    cl_kernel k = kernelOf(program, "k");
    ASSERT_NE(k, nullptr);
    const cl_int n = 100000;
    std::vector<cl_uchar> in(n);
    std::uniform_int_distribution<int> dist(0, 255);
    for (cl_uchar &v : in) v = static_cast<cl_uchar>(dist(rng_));
    std::vector<cl_uint> want(256, 0);
    for (cl_uchar v : in) ++want[v];
    cl_mem min = bufferFrom(in), mout = bufferFrom(std::vector<cl_uint>(256, 0));
    ASSERT_TRUE(setArgs(k, min, mout, n));
    ASSERT_TRUE(run(k, {4096}, {64}));
    EXPECT_EQ(read<cl_uint>(mout, 256), want);
  }
}

TEST_F(Build, OptionsAreReported) {
  cl_program program = build("kernel void k(global int *out) { out[0] = X; }\n", "-DX=3 -w");
  ASSERT_NE(program, nullptr);
  size_t size = 0;
  ASSERT_CL(clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_OPTIONS, 0, nullptr, &size));
  std::string options(size, '\0');
  ASSERT_CL(clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_OPTIONS, size, options.data(),
                                  nullptr));
  EXPECT_STREQ(options.c_str(), "-DX=3 -w");
}

// CL_PROGRAM_BINARIES -> clCreateProgramWithBinary -> the same results.
TEST_F(Build, BinaryRoundTrip) {
  const char *text = R"CLC(
    kernel void k(global int *out, local int *tmp) {
      uint lid = get_local_id(0);
      tmp[lid] = (int)(lid * lid) + SHIFT;
      barrier(CLK_LOCAL_MEM_FENCE);
      out[get_global_id(0)] = tmp[get_local_size(0) - 1 - lid];
    }
  )CLC";
  cl_program original = build(text, "-DSHIFT=5");
  ASSERT_NE(original, nullptr);
  cl_program copy = fromItsBinary(original);
  ASSERT_NE(copy, nullptr);
  ASSERT_CL(buildWith(copy, ""));
  cl_program_binary_type type = 0;
  ASSERT_CL(
      clGetProgramBuildInfo(copy, device_, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(type, cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
  for (cl_program program : {original, copy}) {
    cl_kernel k = kernelOf(program, "k");
    ASSERT_NE(k, nullptr);
    cl_mem out = buffer(CL_MEM_WRITE_ONLY, 64 * sizeof(int));
    ASSERT_TRUE(setArgs(k, out, LocalBytes{16 * sizeof(int)}));
    ASSERT_TRUE(run(k, {64}, {16}));
    std::vector<int> got = read<int>(out, 64);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(got[i], (15 - i % 16) * (15 - i % 16) + 5) << i;
  }
}

TEST_F(Build, CorruptBinaryIsRefused) {
  std::vector<unsigned char> garbage(256);
  for (size_t i = 0; i < garbage.size(); ++i) garbage[i] = static_cast<unsigned char>(i * 37 + 1);
  const unsigned char *pointers[] = {garbage.data()};
  size_t size = garbage.size();
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  cl_program program =
      clCreateProgramWithBinary(context_, 1, &device_, &size, pointers, &status, &err);
  if (program) owned_.push_back(program);
  EXPECT_CL_ERROR(CL_INVALID_BINARY, err);
  EXPECT_CL_ERROR(CL_INVALID_BINARY, status);
}

// clCompileProgram with an embedded header, two objects, one clLinkProgram.
TEST_F(Build, CompileTwoObjectsWithAHeaderAndLink) {
  const char *headerText = "#define SCALE 3\nint helper(int x);\n";
  cl_program header = source(headerText);
  cl_program main = source(
      "#include \"lib/defs.h\"\n"
      "kernel void k(global int *data) {\n"
      "  size_t i = get_global_id(0);\n"
      "  data[i] = helper(data[i]) * SCALE;\n"
      "}\n");
  cl_program lib = source(
      "#include \"lib/defs.h\"\n"
      "int helper(int x) { return x + SCALE; }\n");
  ASSERT_TRUE(header && main && lib);
  const char *headerName = "lib/defs.h";
  for (cl_program object : {main, lib}) {
    cl_int err =
        clCompileProgram(object, 1, &device_, "", 1, &header, &headerName, nullptr, nullptr);
    ASSERT_EQ(err, CL_SUCCESS) << errorName(err) << "\n" << buildLog(object, device_);
    cl_program_binary_type type = 0;
    ASSERT_CL(clGetProgramBuildInfo(object, device_, CL_PROGRAM_BINARY_TYPE, sizeof type, &type,
                                    nullptr));
    EXPECT_EQ(type, cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT));
  }
  // A compiled object has no kernels to create yet.
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateKernel(main, "k", &err), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE, err);

  cl_program objects[] = {main, lib};
  cl_program linked = clLinkProgram(context_, 1, &device_, "", 2, objects, nullptr, nullptr, &err);
  ASSERT_CL(err);
  owned_.push_back(linked);
  cl_kernel k = kernelOf(linked, "k");
  ASSERT_NE(k, nullptr);
  std::vector<int> data(100);
  for (int i = 0; i < 100; ++i) data[i] = i - 50;
  cl_mem m = bufferFrom(data);
  ASSERT_TRUE(setArgs(k, m));
  ASSERT_TRUE(run(k, {100}));
  std::vector<int> out = read<int>(m, 100);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(out[i], (i - 50 + 3) * 3) << i;
}

TEST_F(Build, LinkingWithAnUndefinedFunctionFails) {
  cl_program main =
      source("int missing(int);\nkernel void k(global int *d) { d[0] = missing(d[0]); }\n");
  ASSERT_NE(main, nullptr);
  ASSERT_CL(clCompileProgram(main, 1, &device_, "", 0, nullptr, nullptr, nullptr, nullptr));
  cl_int err = CL_SUCCESS;
  cl_program linked = clLinkProgram(context_, 1, &device_, "", 1, &main, nullptr, nullptr, &err);
  if (linked) owned_.push_back(linked);
  EXPECT_CL_ERROR(CL_LINK_PROGRAM_FAILURE, err);
  if (linked) {
    EXPECT_NE(buildLog(linked, device_).find("missing"), std::string::npos);
  }
}

// OpenCL C forbids recursion: a function that calls itself, or two that
// call each other (across linked objects too), fail the build with a log
// that names them, instead of running out of stack at run time.
TEST_F(Build, RecursionFailsTheBuild) {
  cl_program direct = source(
      "int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\n"
      "kernel void k(global int *d) { d[0] = fib(d[0]); }\n");
  ASSERT_NE(direct, nullptr);
  EXPECT_CL_ERROR(CL_BUILD_PROGRAM_FAILURE, buildWith(direct, ""));
  std::string log = buildLog(direct, device_);
  EXPECT_NE(log.find("recursion"), std::string::npos) << log;
  EXPECT_NE(log.find("fib"), std::string::npos) << log;

  cl_program even = source(
      "int odd(int n);\n"
      "int even(int n) { return n == 0 ? 1 : odd(n - 1) * 2; }\n"
      "kernel void k(global int *d) { d[0] = even(d[0]); }\n");
  cl_program odd = source("int even(int n);\nint odd(int n) { return n == 0 ? 0 : even(n - 1) + 1; }\n");
  ASSERT_TRUE(even && odd);
  for (cl_program object : {even, odd})
    ASSERT_CL(clCompileProgram(object, 1, &device_, "", 0, nullptr, nullptr, nullptr, nullptr));
  cl_program objects[] = {even, odd};
  cl_int err = CL_SUCCESS;
  cl_program linked = clLinkProgram(context_, 1, &device_, "", 2, objects, nullptr, nullptr, &err);
  if (linked) owned_.push_back(linked);
  EXPECT_CL_ERROR(CL_LINK_PROGRAM_FAILURE, err);
  if (linked) {
    log = buildLog(linked, device_);
    EXPECT_NE(log.find("recursion"), std::string::npos) << log;
    EXPECT_TRUE(log.find("even") != std::string::npos && log.find("odd") != std::string::npos) << log;
  }
}

// A program too large to compile as one part on several threads is compiled
// in parts at once: every kernel still runs its own code, the helper and
// __constant table they share work in each, and a program-scope variable
// written by one kernel is the one another kernel reads.
// A straight-line kernel of `lines` statements in the shape of unrolled hash
// rounds and filters (hashcat, image kernels): rotates, adds, xors and fmas
// over eight words and two floats. `nonce` keeps it out of the kernel cache.
std::string straightLineKernel(int lines, uint64_t nonce) {
  const char *words = "abcdefgh";
  std::string text = "// " + std::to_string(nonce) + "\n" +
                     "kernel void k(global uint *data, global float *fl) {\n  size_t i = get_global_id(0);\n";
  for (int w = 0; w < 8; ++w)
    text += std::string("  uint ") + words[w] + " = data[i * 8 + " + std::to_string(w) + "];\n";
  text += "  float x = fl[i], y = fl[i + 1];\n";
  for (int k = 0; k < lines; ++k) {
    char v = words[k % 8], w = words[(k + 3) % 8], u = words[(k + 5) % 8];
    if (k % 4 == 3)
      text += std::string("  x = fma(x, (float)") + v + " * 1e-9f, y * " + std::to_string(1 + k % 13) +
              ".5f); y = y * 0.999f + x;\n";
    else
      text += std::string("  ") + v + " = rotate(" + v + " + (" + w + " ^ " + u + ") + " +
              std::to_string((uint64_t(k) * 2654435761u) % 4294967296u) + "u, " + std::to_string(1 + k % 31) + "u);\n";
  }
  for (int w = 0; w < 8; ++w) text += std::string("  data[i * 8 + ") + std::to_string(w) + "] = " + words[w] + ";\n";
  return text + "  fl[i] = x + y;\n}\n";
}

// Seconds of processor time this process (all its threads: the build runs
// on several) spent building a straight-line kernel of `lines` lines that
// `make` turned into a program, the least of two builds.
double buildSeconds(const std::function<cl_program(const std::string &)> &make, int lines) {
  double best = 1e9;
  for (int round = 0; round < 2; ++round) {
    uint64_t nonce = std::chrono::steady_clock::now().time_since_epoch().count();
    cl_program program = make(straightLineKernel(lines, nonce));
    if (!program) return -1;
    auto cpu = [] {
      rusage usage{};
      getrusage(RUSAGE_SELF, &usage);
      return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + 1e-6 * (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
    };
    double before = cpu();
    cl_int err = clBuildProgram(program, 0, nullptr, "", nullptr, nullptr);
    double spent = cpu() - before;
    EXPECT_CL(err);
    best = std::min(best, spent);
  }
  return best;
}

// Build time grows in proportion to kernel size: four times the lines take
// at most twice four times as long (the compiler once spent 20 s on 2,000
// lines and over a minute on 4,000). Processor time, not wall time, so that
// other processes on the machine do not count; the margin covers caches
// and the fixed cost of a build.
TEST_F(Build, BuildTimeGrowsLinearlyWithKernelSize) {
  auto make = [this](const std::string &text) { return source(text); };
  double small = buildSeconds(make, 300);
  double large = buildSeconds(make, 1200);
  ASSERT_GT(small, 0.0);
  EXPECT_LT(large / small, 8.0) << "300 lines: " << small << " s, 1200 lines: " << large << " s of processor time";
}

TEST_F(Build, LargeProgramBuiltInPartsRunsEveryKernel) {
  bool globals = hasFeature("__opencl_c_program_scope_global_variables");
  cl_program program = build(largeProgramSource(globals), globals ? "-cl-std=CL3.0" : "");
  ASSERT_NE(program, nullptr);
  checkLargeProgram(program, globals);
}

TEST_F(Build, LibraryThenExecutable) {
  cl_program lib = source("int twice(int x) { return 2 * x; }\n");
  cl_program main = source("int twice(int);\nkernel void k(global int *d) { d[0] = twice(21); }\n");
  ASSERT_TRUE(lib && main);
  ASSERT_CL(clCompileProgram(lib, 1, &device_, "", 0, nullptr, nullptr, nullptr, nullptr));
  ASSERT_CL(clCompileProgram(main, 1, &device_, "", 0, nullptr, nullptr, nullptr, nullptr));
  cl_int err = CL_SUCCESS;
  cl_program library =
      clLinkProgram(context_, 1, &device_, "-create-library", 1, &lib, nullptr, nullptr, &err);
  ASSERT_CL(err);
  owned_.push_back(library);
  cl_program_binary_type type = 0;
  ASSERT_CL(
      clGetProgramBuildInfo(library, device_, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(type, cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_LIBRARY));
  cl_program inputs[] = {main, library};
  cl_program exe = clLinkProgram(context_, 1, &device_, "", 2, inputs, nullptr, nullptr, &err);
  ASSERT_CL(err);
  owned_.push_back(exe);
  EXPECT_EQ(runOnce(exe), std::vector<int>{42});
}

// A kernel with reqd_work_group_size(8, 2, 1) that mirrors each group's
// global ids through __local memory, within the group's real extent, and
// adds the local size it sees: a remainder group that ran the full size's
// code would read tile slots nobody wrote, or report 8 and 2.
const char *kMirrorGroup = R"CLC(
  __attribute__((reqd_work_group_size(8, 2, 1)))
  kernel void mirror(global uint *out) {
    local uint tile[16];
    uint lx = get_local_id(0), ly = get_local_id(1);
    uint nx = get_local_size(0), ny = get_local_size(1);
    tile[ly * 8 + lx] = get_global_id(1) * 1000 + get_global_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint step = 0; step < 2; ++step) {  // a loop with a barrier in it
      uint v = tile[(ny - 1 - ly) * 8 + (nx - 1 - lx)];
      barrier(CLK_LOCAL_MEM_FENCE);
      tile[ly * 8 + lx] = v;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(1) * get_global_size(0) + get_global_id(0)] =
        tile[ly * 8 + lx] + 1000000 * (nx * 10 + ny);
  }
)CLC";

class RequiredSize : public Build {
 protected:
  // Runs `mirror` of `program` over gx x gy (local size NULL, or the required
  // one) and checks every output against the host's mirror.
  void checkMirror(cl_program program, size_t gx, size_t gy, bool nullLocal) {
    cl_kernel k = kernelOf(program, "mirror");
    ASSERT_NE(k, nullptr);
    cl_mem out = buffer(CL_MEM_WRITE_ONLY, gx * gy * sizeof(cl_uint));
    ASSERT_TRUE(setArgs(k, out));
    ASSERT_TRUE(nullLocal ? run(k, {gx, gy}) : run(k, {gx, gy}, {8, 2}));
    std::vector<cl_uint> got = read<cl_uint>(out, gx * gy);
    for (size_t y = 0; y < gy; ++y)
      for (size_t x = 0; x < gx; ++x) {
        size_t bx = x / 8 * 8, by = y / 2 * 2;
        size_t nx = std::min<size_t>(8, gx - bx), ny = std::min<size_t>(2, gy - by);
        // Mirrored twice: back where it started.
        size_t want = y * 1000 + x + 1000000 * (nx * 10 + ny);
        ASSERT_EQ(got[y * gx + x], want) << "at " << x << "," << y;
      }
  }
  bool nonUniformSupported() {
    return deviceInfo<cl_bool>(device_, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT);
  }
};

// OpenCL C 1.2: every group is full, the compiled code may rely on 8 x 2.
TEST_F(RequiredSize, FullGroupsUnderOpenClC12) {
  cl_program program = build(kMirrorGroup);
  ASSERT_NE(program, nullptr);
  checkMirror(program, 32, 6, false);
  checkMirror(program, 16, 2, true);
  cl_kernel k = kernelOf(program, "mirror");
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, 21 * 5 * sizeof(cl_uint));
  ASSERT_TRUE(setArgs(k, out));
  size_t global[2] = {21, 5}, local[2] = {8, 2};
  EXPECT_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE,
                  clEnqueueNDRangeKernel(queue_, k, 2, nullptr, global, local, 0, nullptr, nullptr));
}

// OpenCL C 3.0 allows remainder groups smaller than the required size.
TEST_F(RequiredSize, RemainderGroupsUnderOpenClC30) {
  if (!nonUniformSupported()) GTEST_SKIP() << "device reports no non-uniform work-group support";
  cl_program program = build(kMirrorGroup, "-cl-std=CL3.0");
  ASSERT_NE(program, nullptr);
  checkMirror(program, 21, 5, false);
  checkMirror(program, 13, 3, true);
}

// An object compiled as OpenCL C 1.2 (full groups), built from its binary
// as OpenCL C 3.0: the runtime now allows remainder groups, and the code
// must handle them.
TEST_F(RequiredSize, Cl12ObjectBuiltFromItsBinaryAsCl30) {
  if (!nonUniformSupported()) GTEST_SKIP() << "device reports no non-uniform work-group support";
  cl_program object = source(kMirrorGroup);
  ASSERT_NE(object, nullptr);
  ASSERT_CL(clCompileProgram(object, 1, &device_, "", 0, nullptr, nullptr, nullptr, nullptr));
  cl_program copy = fromItsBinary(object);
  ASSERT_NE(copy, nullptr);
  ASSERT_CL(buildWith(copy, "-cl-std=CL3.0"));
  checkMirror(copy, 21, 5, false);
}

// Linking keeps each object's promise: an OpenCL C 3.0 object runs
// remainder groups; one compiled with -cl-uniform-work-group-size (or as
// OpenCL C 1.2) has only full groups, and the runtime refuses the rest.
TEST_F(RequiredSize, LinkedObjects) {
  if (!nonUniformSupported()) GTEST_SKIP() << "device reports no non-uniform work-group support";
  for (const char *options : {"-cl-std=CL3.0", "-cl-std=CL3.0 -cl-uniform-work-group-size", ""}) {
    SCOPED_TRACE(options);
    bool uniform = std::string_view(options) != "-cl-std=CL3.0";
    cl_program object = source(kMirrorGroup);
    ASSERT_NE(object, nullptr);
    ASSERT_CL(clCompileProgram(object, 1, &device_, options, 0, nullptr, nullptr, nullptr, nullptr));
    cl_int err = CL_SUCCESS;
    cl_program linked = clLinkProgram(context_, 1, &device_, "", 1, &object, nullptr, nullptr, &err);
    ASSERT_CL(err);
    owned_.push_back(linked);
    checkMirror(linked, 24, 4, true);
    if (!uniform) {
      checkMirror(linked, 21, 5, false);
      continue;
    }
    cl_kernel k = kernelOf(linked, "mirror");
    cl_mem out = buffer(CL_MEM_WRITE_ONLY, 21 * 5 * sizeof(cl_uint));
    ASSERT_TRUE(setArgs(k, out));
    size_t global[2] = {21, 5};
    EXPECT_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE, clEnqueueNDRangeKernel(queue_, k, 2, nullptr, global,
                                                                       nullptr, 0, nullptr, nullptr));
  }
}

}  // namespace
}  // namespace lockstep::test

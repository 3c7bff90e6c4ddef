// The on-disk kernel cache (compiler/lib/KernelCache.cpp), observed from the
// outside: every test points LOCKSTEP_CACHE_DIR at a fresh folder of its own
// and looks at the files that appear there while kernels still compute what
// the host expects.
//
// Whether a build was served by a stored file is told apart from a rebuild
// with hard links: the test keeps a second name (outside the cache folder) for
// a stored file; a build that loads the file leaves the cache's name on that
// same file, while a build that rebuilds and stores again renames a new file
// into place (a new inode, as the old one is still alive through the link).
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <latch>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "ClTest.h"

extern char **environ;

namespace lockstep::test {
namespace {

namespace fs = std::filesystem;

// Set in a child process started by TwoProcessesBuildTheSameProgramAtOnce:
// the folder (holding cache/) that the parent made.
constexpr const char *kChildVariable = "LOCKSTEP_KERNEL_CACHE_TEST_CHILD";

// The variables the cache reads; each test restores them as it found them.
constexpr const char *kCacheVariables[] = {
    "LOCKSTEP_CACHE", "LOCKSTEP_CACHE_DIR", "LOCKSTEP_CACHE_MAX_MB", "XDG_CACHE_HOME",
    "HOME",           kChildVariable};

std::string readFile(const fs::path &path) {
  std::ifstream file(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

void writeFile(const fs::path &path, const std::string &bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), std::streamsize(bytes.size()));
}

// out[i] = in[i] * SCALE + offset, SCALE given as a build option.
std::string scaleSource(int offset) {
  return "kernel void k(global const int *in, global int *out) {\n"
         "  size_t i = get_global_id(0);\n"
         "  out[i] = in[i] * SCALE + " +
         std::to_string(offset) + ";\n}\n";
}

class KernelCache : public ClTest {
 protected:
  void SetUp() override {
    for (const char *name : kCacheVariables)
      if (const char *value = std::getenv(name)) saved_[name] = value;
    if (const char *child = std::getenv(kChildVariable); child && *child) {
      child_ = true;
      root_ = child;
    } else {
      std::string pattern = (fs::temp_directory_path() / "lockstep-kernel-cache-XXXXXX").string();
      ASSERT_NE(mkdtemp(pattern.data()), nullptr) << "mkdtemp: " << std::strerror(errno);
      root_ = pattern;
    }
    cache_ = root_ / "cache";
    links_ = root_ / "links";
    fs::create_directories(cache_);
    fs::create_directories(links_);
    ::unsetenv("LOCKSTEP_CACHE");
    ::unsetenv("LOCKSTEP_CACHE_MAX_MB");
    ::setenv("LOCKSTEP_CACHE_DIR", cache_.c_str(), 1);
    ClTest::SetUp();
  }

  void TearDown() override {
    ClTest::TearDown();
    for (const char *name : kCacheVariables) {
      auto it = saved_.find(name);
      if (it == saved_.end())
        ::unsetenv(name);
      else
        ::setenv(name, it->second.c_str(), 1);
    }
    std::error_code error;
    if (!child_ && !root_.empty()) fs::remove_all(root_, error);
  }

  // Everything in the cache folder, sorted by name.
  std::vector<fs::path> entries() const {
    std::vector<fs::path> found;
    std::error_code error;
    for (const fs::directory_entry &entry : fs::directory_iterator(cache_, error))
      found.push_back(entry.path());
    std::sort(found.begin(), found.end());
    return found;
  }
  std::set<std::string> binNames() const {
    std::set<std::string> names;
    for (const fs::path &path : entries())
      if (path.extension() == ".bin") names.insert(path.filename().string());
    return names;
  }
  // The <key>.obj files: versions of kernels compiled at their first call.
  std::set<std::string> objNames() const {
    std::set<std::string> names;
    for (const fs::path &path : entries())
      if (path.extension() == ".obj") names.insert(path.filename().string());
    return names;
  }
  // What the folder holds besides regular <key>.bin and <key>.obj files
  // (temporaries).
  std::vector<std::string> strays() const {
    std::vector<std::string> found;
    for (const fs::path &path : entries())
      if ((path.extension() != ".bin" && path.extension() != ".obj") || !fs::is_regular_file(path))
        found.push_back(path.filename().string());
    return found;
  }
  uint64_t totalBytes() const {
    uint64_t total = 0;
    for (const fs::path &path : entries()) total += fs::file_size(path);
    return total;
  }
  std::string listing() const {
    std::ostringstream text;
    for (const fs::path &path : entries())
      text << "  " << path.filename().string() << " " << fs::file_size(path) << "\n";
    return text.str();
  }
  // The one .bin file in the folder, or "" after failing the test.
  std::string onlyBin() const {
    std::set<std::string> names = binNames();
    EXPECT_EQ(names.size(), 1u) << "folder:\n" << listing();
    return names.size() == 1 ? *names.begin() : std::string();
  }
  // A second name, outside the folder, for the cache file `name`.
  fs::path keep(const std::string &name) {
    fs::path link = links_ / (name + "." + std::to_string(links_made_++));
    std::error_code error;
    fs::create_hard_link(cache_ / name, link, error);
    EXPECT_FALSE(error) << "linking " << name << ": " << error.message();
    return link;
  }
  // Whether the cache's file `name` is still the file `link` names.
  bool stillSameFile(const std::string &name, const fs::path &link) const {
    std::error_code error;
    return fs::equivalent(cache_ / name, link, error) && !error;
  }

  // Builds scaleSource(offset) with -DSCALE=scale and checks what it computes.
  cl_program buildScale(int scale, int offset) {
    cl_program program = build(scaleSource(offset), "-DSCALE=" + std::to_string(scale));
    EXPECT_TRUE(computesScale(program, scale, offset));
    return program;
  }
  ::testing::AssertionResult computesScale(cl_program program, int scale, int offset) {
    if (!program) return ::testing::AssertionFailure() << "no program";
    cl_kernel k = kernelOf(program, "k");
    if (!k) return ::testing::AssertionFailure() << "no kernel";
    constexpr size_t n = 1000;
    std::vector<int> in(n);
    std::uniform_int_distribution<int> values(-100000, 100000);
    for (int &v : in) v = values(rng_);
    cl_mem input = bufferFrom(in, CL_MEM_READ_ONLY);
    cl_mem output = buffer(CL_MEM_WRITE_ONLY, n * sizeof(int));
    if (auto ok = setArgs(k, input, output); !ok) return ok;
    if (auto ok = run(k, {n}); !ok) return ok;
    std::vector<int> out = read<int>(output, n);
    for (size_t i = 0; i < n; ++i)
      if (out[i] != in[i] * scale + offset)
        return ::testing::AssertionFailure()
               << "SCALE=" << scale << " offset " << offset << ": out[" << i << "] = " << out[i]
               << ", want " << in[i] * scale + offset;
    return ::testing::AssertionSuccess();
  }

  enum class Damage { Garbage, Truncated, FlippedByte, Emptied };
  // Stores a program, damages its file, builds it again: the build must not
  // trust the file, and must leave a good one in its place.
  void checkHealsFrom(Damage damage) {
    constexpr int scale = 5, offset = 21;
    buildScale(scale, offset);
    std::string name = onlyBin();
    ASSERT_FALSE(name.empty());
    std::string good = readFile(cache_ / name);
    ASSERT_GT(good.size(), 64u);
    std::string bad = good;
    switch (damage) {
      case Damage::Garbage:
        for (size_t i = 0; i < bad.size(); ++i) bad[i] = "not a kernel cache file! "[i % 25];
        break;
      case Damage::Truncated:
        bad.resize(good.size() / 2);
        break;
      case Damage::FlippedByte:
        bad[bad.size() / 2] ^= 0x5a;
        break;
      case Damage::Emptied:
        bad.clear();
        break;
    }
    writeFile(cache_ / name, bad);  // in place: the same file, now damaged
    fs::path damaged = keep(name);
    ASSERT_TRUE(readFile(cache_ / name) == bad);

    SCOPED_TRACE("build over the damaged file");
    buildScale(scale, offset);
    EXPECT_EQ(binNames(), std::set<std::string>{name}) << "folder:\n" << listing();
    EXPECT_TRUE(strays().empty()) << "folder:\n" << listing();
    EXPECT_FALSE(stillSameFile(name, damaged)) << "the damaged file was kept";
    std::string healed = readFile(cache_ / name);
    EXPECT_TRUE(healed != bad) << "the file still holds the damaged bytes";
    EXPECT_EQ(healed.size(), good.size());

    SCOPED_TRACE("build from the healed file");
    fs::path kept = keep(name);
    buildScale(scale, offset);
    EXPECT_EQ(binNames(), std::set<std::string>{name}) << "folder:\n" << listing();
    EXPECT_TRUE(stillSameFile(name, kept)) << "the healed file was not used: it was replaced again";
  }


  // After builds racing to store one program: exactly one stored file and
  // no temporary ones, and a further build loads that file.
  void expectOneFileThenReused(int scale, int offset, const char *whose) {
    std::string name = onlyBin();
    EXPECT_TRUE(strays().empty()) << "folder:\n" << listing();
    if (name.empty()) return;
    fs::path kept = keep(name);
    buildScale(scale, offset);
    EXPECT_EQ(binNames(), std::set<std::string>{name}) << "folder:\n" << listing();
    EXPECT_TRUE(stillSameFile(name, kept)) << whose << " was not used";
  }

  fs::path root_, cache_, links_;
  bool child_ = false;
  int links_made_ = 0;
  std::map<std::string, std::string> saved_;
};

// A first build stores one file; the same source and options again are served
// from it; other options or another source store files of their own.
TEST_F(KernelCache, StoresOneFilePerProgramAndReusesIt) {
  EXPECT_TRUE(entries().empty());
  buildScale(3, 7);
  std::string first = onlyBin();
  ASSERT_FALSE(first.empty());
  EXPECT_TRUE(strays().empty()) << "folder:\n" << listing();
  EXPECT_GT(fs::file_size(cache_ / first), 0u);
  fs::path kept = keep(first);

  // Same source, same options: no new file, and the stored one is used as is.
  buildScale(3, 7);
  EXPECT_EQ(binNames(), std::set<std::string>{first}) << "folder:\n" << listing();
  EXPECT_TRUE(stillSameFile(first, kept)) << "the second build stored the program again";

  // Other options: a file of its own, and code that uses them.
  buildScale(4, 7);
  std::set<std::string> names = binNames();
  EXPECT_EQ(names.size(), 2u) << "folder:\n" << listing();
  EXPECT_TRUE(names.count(first));

  // Another source: a third file.
  buildScale(3, 8);
  EXPECT_EQ(binNames().size(), 3u) << "folder:\n" << listing();

  // Each of the three again: all served from the folder, each right.
  std::map<std::string, fs::path> links;
  for (const std::string &name : binNames()) links[name] = keep(name);
  buildScale(3, 7);
  buildScale(4, 7);
  buildScale(3, 8);
  EXPECT_EQ(binNames().size(), 3u) << "folder:\n" << listing();
  for (const auto &[name, link] : links)
    EXPECT_TRUE(stillSameFile(name, link)) << name << " was stored again";
  EXPECT_TRUE(strays().empty()) << "folder:\n" << listing();
}

// A SPIR-V program: one file per specialization; the same module and
// values again are served from it (neither the translator nor LLVM runs).
TEST_F(KernelCache, SpirvProgramIsStoredPerSpecialization) {
  std::ifstream in(std::string(LOCKSTEP_SPIRV_MODULES_DIR) + "/spec_constants.spv", std::ios::binary);
  std::vector<uint8_t> module((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(module.empty());
  // Builds the module with SpecId 1 set to `value` (unset: its default,
  // 123456) and returns what the kernel writes for it.
  auto run = [&](std::optional<cl_int> value) -> uint64_t {
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithIL(context_, module.data(), module.size(), &err);
    EXPECT_CL(err);
    if (!program) return 0;
    if (value) EXPECT_CL(clSetProgramSpecializationConstant(program, 1, sizeof(cl_int), &*value));
    EXPECT_CL(clBuildProgram(program, 1, &device_, "", nullptr, nullptr));
    cl_kernel k = clCreateKernel(program, "spec_values", &err);
    EXPECT_CL(err);
    cl_mem out = buffer(CL_MEM_READ_WRITE, 7 * sizeof(uint64_t));
    EXPECT_TRUE(setArgs(k, out));
    EXPECT_TRUE(ClTest::run(k, {1}));
    uint64_t first = read<uint64_t>(out, 1)[0];
    EXPECT_CL(clReleaseKernel(k));
    EXPECT_CL(clReleaseProgram(program));
    return first;
  };
  EXPECT_EQ(run(std::nullopt), 123456u);
  std::string name = onlyBin();
  ASSERT_FALSE(name.empty());
  fs::path kept = keep(name);
  EXPECT_EQ(run(std::nullopt), 123456u);
  EXPECT_TRUE(stillSameFile(name, kept)) << "the second build stored the program again";
  EXPECT_EQ(run(77), 77u);
  EXPECT_EQ(binNames().size(), 2u) << "folder:\n" << listing();
  EXPECT_EQ(run(std::nullopt), 123456u);
  EXPECT_TRUE(stillSameFile(name, kept));
  EXPECT_TRUE(strays().empty()) << "folder:\n" << listing();
}

// A program served from the cache looks like the one that was built: kernel
// names, arguments, attributes, work-group sizes, local and private memory,
// program-scope variables, the program binary and the build log.
TEST_F(KernelCache, CachedProgramDescribesItselfLikeTheBuiltOne) {
  bool globals = hasFeature("__opencl_c_program_scope_global_variables");
  std::string source =
      std::string(globals ? "global int base = 1000;\n" : "constant int base = 1000;\n") + R"CLC(
    kernel void plain(global const float *in, global float *out, int bias) {
      size_t i = get_global_id(0);
      out[i] = in[i] * 2.0f + bias;
      in[0] == 1.0f;  // a warning for the build log
    }
    kernel __attribute__((reqd_work_group_size(16, 1, 1)))
    void reverse(global const int *in, global int *out, local int *scratch) {
      local int fixed[16];
      size_t l = get_local_id(0);
      fixed[l] = in[get_global_id(0)];
      scratch[l] = 1;
      barrier(CLK_LOCAL_MEM_FENCE);
      out[get_global_id(0)] = fixed[15 - l] + scratch[15 - l] + base;
    }
  )CLC";
  const std::string options = "-cl-std=CL3.0 -cl-kernel-arg-info";

  struct Seen {
    std::string names, log;
    size_t kernels = 0, globalBytes = 0;
    std::vector<unsigned char> binary;
    std::vector<std::string> kernelFacts;
    std::vector<float> plainOut;
    std::vector<int> reverseOut;
  };
  auto programString = [&](cl_program program, cl_program_info param) {
    size_t size = 0;
    EXPECT_CL(clGetProgramInfo(program, param, 0, nullptr, &size));
    std::string value(size, '\0');
    EXPECT_CL(clGetProgramInfo(program, param, size, value.data(), nullptr));
    value.resize(std::strlen(value.c_str()));
    return value;
  };
  auto argString = [&](cl_kernel k, cl_uint index, cl_kernel_arg_info param) {
    size_t size = 0;
    EXPECT_CL(clGetKernelArgInfo(k, index, param, 0, nullptr, &size));
    std::string value(size, '\0');
    EXPECT_CL(clGetKernelArgInfo(k, index, param, size, value.data(), nullptr));
    value.resize(std::strlen(value.c_str()));
    return value;
  };
  auto observe = [&](cl_program program) {
    Seen seen;
    seen.names = programString(program, CL_PROGRAM_KERNEL_NAMES);
    seen.log = buildLog(program, device_);
    EXPECT_CL(clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof seen.kernels, &seen.kernels,
                               nullptr));
    if (globals)
      EXPECT_CL(clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                      sizeof seen.globalBytes, &seen.globalBytes, nullptr));
    size_t binarySize = 0;
    EXPECT_CL(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof binarySize, &binarySize,
                               nullptr));
    seen.binary.resize(binarySize);
    unsigned char *binaries[] = {seen.binary.data()};
    EXPECT_CL(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binaries, binaries, nullptr));
    for (const char *name : {"plain", "reverse"}) {
      cl_kernel k = kernelOf(program, name);
      if (!k) continue;
      std::ostringstream facts;
      cl_uint args = 0;
      EXPECT_CL(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof args, &args, nullptr));
      size_t attributesSize = 0;
      EXPECT_CL(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, 0, nullptr, &attributesSize));
      std::string attributes(attributesSize, '\0');
      EXPECT_CL(
          clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, attributesSize, attributes.data(), nullptr));
      facts << name << " args " << args << " attributes '" << attributes.c_str() << "'";
      for (cl_uint a = 0; a < args; ++a) {
        cl_kernel_arg_address_qualifier address = 0;
        cl_kernel_arg_access_qualifier access = 0;
        cl_kernel_arg_type_qualifier type = 0;
        EXPECT_CL(clGetKernelArgInfo(k, a, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof address,
                                     &address, nullptr));
        EXPECT_CL(clGetKernelArgInfo(k, a, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access, &access,
                                     nullptr));
        EXPECT_CL(
            clGetKernelArgInfo(k, a, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof type, &type, nullptr));
        facts << " [" << argString(k, a, CL_KERNEL_ARG_NAME) << " : "
              << argString(k, a, CL_KERNEL_ARG_TYPE_NAME) << " " << address << " " << access << " "
              << type << "]";
      }
      size_t compileSize[3] = {};
      EXPECT_CL(clGetKernelWorkGroupInfo(k, device_, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                         sizeof compileSize, compileSize, nullptr));
      cl_ulong localBytes = 0, privateBytes = 0;
      EXPECT_CL(clGetKernelWorkGroupInfo(k, device_, CL_KERNEL_LOCAL_MEM_SIZE, sizeof localBytes,
                                         &localBytes, nullptr));
      EXPECT_CL(clGetKernelWorkGroupInfo(k, device_, CL_KERNEL_PRIVATE_MEM_SIZE,
                                         sizeof privateBytes, &privateBytes, nullptr));
      size_t multiple = 0;
      EXPECT_CL(clGetKernelWorkGroupInfo(k, device_, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                         sizeof multiple, &multiple, nullptr));
      facts << " reqd " << compileSize[0] << "x" << compileSize[1] << "x" << compileSize[2]
            << " local " << localBytes << " private " << privateBytes << " multiple " << multiple
            << " max " << kernelMaxGroupSize(k);
      seen.kernelFacts.push_back(facts.str());
    }
    // Run both kernels.
    constexpr size_t n = 64;
    std::vector<float> fin(n);
    std::vector<int> iin(n);
    for (size_t i = 0; i < n; ++i) fin[i] = float(i) * 0.25f, iin[i] = int(i * 3);
    cl_kernel plain = kernelOf(program, "plain"), reverse = kernelOf(program, "reverse");
    if (!plain || !reverse) return seen;
    cl_mem fIn = bufferFrom(fin), fOut = buffer(CL_MEM_READ_WRITE, n * sizeof(float));
    cl_mem iIn = bufferFrom(iin), iOut = buffer(CL_MEM_READ_WRITE, n * sizeof(int));
    EXPECT_TRUE(setArgs(plain, fIn, fOut, cl_int(-3)));
    EXPECT_TRUE(run(plain, {n}));
    EXPECT_TRUE(setArgs(reverse, iIn, iOut, LocalBytes{16 * sizeof(int)}));
    EXPECT_TRUE(run(reverse, {n}, {16}));
    seen.plainOut = read<float>(fOut, n);
    seen.reverseOut = read<int>(iOut, n);
    std::vector<float> wantPlain(n);
    std::vector<int> wantReverse(n);
    for (size_t i = 0; i < n; ++i) {
      wantPlain[i] = fin[i] * 2.0f - 3.0f;
      wantReverse[i] = iin[i / 16 * 16 + 15 - i % 16] + 1 + 1000;
    }
    EXPECT_EQ(seen.plainOut, wantPlain);
    EXPECT_EQ(seen.reverseOut, wantReverse);
    return seen;
  };

  cl_program built = build(source, options);
  ASSERT_NE(built, nullptr);
  std::string name = onlyBin();
  ASSERT_FALSE(name.empty());
  fs::path kept = keep(name);
  Seen fresh = observe(built);

  cl_program cached = build(source, options);
  ASSERT_NE(cached, nullptr);
  EXPECT_EQ(binNames(), std::set<std::string>{name}) << "folder:\n" << listing();
  EXPECT_TRUE(stillSameFile(name, kept)) << "the second build did not come from the cache";
  Seen again = observe(cached);

  EXPECT_EQ(fresh.kernels, 2u);
  EXPECT_EQ(again.kernels, fresh.kernels);
  EXPECT_EQ(again.names, fresh.names);
  EXPECT_NE(fresh.log.find("warning"), std::string::npos)
      << "the test expects a warning in the log:\n"
      << fresh.log;
  EXPECT_EQ(again.log, fresh.log);
  if (globals) {
    EXPECT_GE(fresh.globalBytes, sizeof(int));
  }
  EXPECT_EQ(again.globalBytes, fresh.globalBytes);
  EXPECT_FALSE(fresh.binary.empty());
  EXPECT_TRUE(again.binary == fresh.binary) << "program binaries differ";
  EXPECT_EQ(fresh.kernelFacts.size(), 2u);
  EXPECT_EQ(again.kernelFacts, fresh.kernelFacts);
  EXPECT_EQ(again.plainOut, fresh.plainOut);
  EXPECT_EQ(again.reverseOut, fresh.reverseOut);

  // A binary taken from the cached program builds and runs as well.
  const unsigned char *binaries[] = {again.binary.data()};
  size_t sizes[] = {again.binary.size()};
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  cl_program fromBinary =
      clCreateProgramWithBinary(context_, 1, &device_, sizes, binaries, &status, &err);
  ASSERT_CL(err);
  ASSERT_CL(status);
  ASSERT_CL(clBuildProgram(fromBinary, 1, &device_, "", nullptr, nullptr));
  Seen loaded = observe(fromBinary);
  EXPECT_EQ(loaded.plainOut, fresh.plainOut);
  EXPECT_EQ(loaded.reverseOut, fresh.reverseOut);
  EXPECT_CL(clReleaseProgram(fromBinary));
}

TEST_F(KernelCache, GarbageFileIsReplacedByARebuild) { checkHealsFrom(Damage::Garbage); }
TEST_F(KernelCache, TruncatedFileIsReplacedByARebuild) { checkHealsFrom(Damage::Truncated); }
TEST_F(KernelCache, FileWithOneChangedByteIsReplacedByARebuild) {
  checkHealsFrom(Damage::FlippedByte);
}
TEST_F(KernelCache, EmptyFileIsReplacedByARebuild) { checkHealsFrom(Damage::Emptied); }

// A program with a 64 KiB constant table (its cache file is well over 64 KiB);
// -DSALT=<n> makes each build a program of its own.
std::string bigSource() {
  std::ostringstream text;
  text << "constant int table[16384] = {";
  uint32_t x = 12345;
  for (int i = 0; i < 16384; ++i) {
    x = x * 1103515245u + 12345u;
    text << int(x >> 9) << (i % 16 == 15 ? ",\n" : ",");
  }
  text << "};\n"
          "kernel void k(global const int *in, global int *out) {\n"
          "  size_t i = get_global_id(0);\n"
          "  out[i] = table[in[i] & 16383] + SALT;\n"
          "}\n";
  return text.str();
}

class KernelCacheBound : public KernelCache {
 protected:
  void SetUp() override {
    KernelCache::SetUp();
    source_ = bigSource();
    table_.resize(16384);
    uint32_t x = 12345;
    for (int &v : table_) {
      x = x * 1103515245u + 12345u;
      v = int(x >> 9);
    }
    ::setenv("LOCKSTEP_CACHE_MAX_MB", "1", 1);
  }
  // Builds bigSource() with SALT=salt, checks what it computes, releases it
  // (dozens of programs with big tables stay small that way) and returns the
  // name of the file the build stored ("" when it stored none).
  std::string buildBig(int salt) {
    std::set<std::string> before = binNames();
    const char *text = source_.c_str();
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context_, 1, &text, nullptr, &err);
    EXPECT_CL(err);
    if (!program) return "";
    std::string options = "-DSALT=" + std::to_string(salt);
    err = clBuildProgram(program, 1, &device_, options.c_str(), nullptr, nullptr);
    EXPECT_EQ(err, CL_SUCCESS) << errorName(err) << " building with " << options << "; log:\n"
                               << buildLog(program, device_);
    if (err == CL_SUCCESS) {
      EXPECT_TRUE(computesBig(program, salt)) << options;
    }
    EXPECT_CL(clReleaseProgram(program));
    std::set<std::string> after = binNames();
    std::vector<std::string> added;
    std::set_difference(after.begin(), after.end(), before.begin(), before.end(),
                        std::back_inserter(added));
    EXPECT_LE(added.size(), 1u);
    return added.empty() ? std::string() : added.front();
  }
  ::testing::AssertionResult computesBig(cl_program program, int salt) {
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, "k", &err);
    if (!k) return ::testing::AssertionFailure() << errorName(err) << " creating the kernel";
    constexpr size_t n = 256;
    std::vector<int> in(n), out(n);
    for (size_t i = 0; i < n; ++i) in[i] = int((i * 977 + size_t(salt) * 31) % 16384);
    cl_mem input = clCreateBuffer(context_, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                  n * sizeof(int), in.data(), &err);
    cl_mem output = clCreateBuffer(context_, CL_MEM_WRITE_ONLY, n * sizeof(int), nullptr, &err);
    ::testing::AssertionResult result = setArgs(k, input, output);
    if (result) result = run(k, {n});
    if (result)
      if (cl_int status = clEnqueueReadBuffer(queue_, output, CL_TRUE, 0, n * sizeof(int),
                                              out.data(), 0, nullptr, nullptr);
          status != CL_SUCCESS)
        result = ::testing::AssertionFailure() << errorName(status) << " reading the output";
    for (size_t i = 0; result && i < n; ++i)
      if (out[i] != table_[in[i]] + salt)
        result = ::testing::AssertionFailure()
                 << "out[" << i << "] = " << out[i] << ", want " << table_[in[i]] + salt;
    if (input) clReleaseMemObject(input);
    if (output) clReleaseMemObject(output);
    clReleaseKernel(k);
    return result;
  }
  std::string source_;
  std::vector<int> table_;
};

// With LOCKSTEP_CACHE_MAX_MB=1 and programs worth several MiB, the folder stays
// near 1 MiB, keeping the newest files.
TEST_F(KernelCacheBound, FolderStaysUnderTheSizeBound) {
  constexpr uint64_t kBound = 1 << 20;
  std::string first = buildBig(0);
  ASSERT_FALSE(first.empty());
  uint64_t size = fs::file_size(cache_ / first);
  ASSERT_GE(size, 64u << 10) << "the test expects big files";
  // Enough programs for three times the bound.
  size_t count = 3 * kBound / size + 2;
  ASSERT_LE(count, 60u) << "files of " << size << " bytes: too many builds";
  std::string latest = first;
  uint64_t largest = size;
  for (size_t salt = 1; salt < count && !HasFailure(); ++salt) {
    latest = buildBig(int(salt));
    ASSERT_FALSE(latest.empty()) << "build " << salt << " stored nothing";
    largest = std::max<uint64_t>(largest, fs::file_size(cache_ / latest));
    ASSERT_LE(totalBytes(), kBound + largest) << "after build " << salt << ", folder:\n"
                                              << listing();
  }
  uint64_t total = totalBytes();
  EXPECT_LE(total, kBound + largest) << "folder:\n" << listing();
  EXPECT_GT(total, 0u);
  EXPECT_TRUE(fs::exists(cache_ / latest)) << "the newest program's file was removed; folder:\n"
                                           << listing();
  EXPECT_LT(binNames().size(), count) << "nothing was removed";
  EXPECT_TRUE(strays().empty()) << "folder:\n" << listing();
}

// Trimming removes the least recently used files: a program that keeps being
// built (from the cache) stays although it was stored first.
TEST_F(KernelCacheBound, TrimmingKeepsRecentlyUsedFiles) {
  constexpr uint64_t kBound = 1 << 20;
  std::string first = buildBig(0);
  ASSERT_FALSE(first.empty());
  fs::path kept = keep(first);
  uint64_t size = fs::file_size(cache_ / first);
  size_t count = 3 * kBound / size + 2;
  ASSERT_LE(count, 60u);
  std::vector<std::string> stored{first};
  for (size_t salt = 1; salt < count && !HasFailure(); ++salt) {
    stored.push_back(buildBig(int(salt)));
    if (salt % 2 == 0) {
      // Used again: served from the cache (the same file), which marks it used.
      EXPECT_EQ(buildBig(0), "") << "the first program was stored again";
      ASSERT_TRUE(stillSameFile(first, kept))
          << "after build " << salt << " the first program's file was replaced";
    }
  }
  EXPECT_TRUE(fs::exists(cache_ / first)) << "folder:\n" << listing();
  // Files stored early and never used again went first.
  EXPECT_FALSE(fs::exists(cache_ / stored[1])) << "folder:\n" << listing();
  EXPECT_TRUE(fs::exists(cache_ / stored.back())) << "folder:\n" << listing();
  EXPECT_LE(totalBytes(), kBound + 2 * size) << "folder:\n" << listing();
}

// A program compiled in several parts at once is stored as one file with
// every part's machine code; a build served from that file runs every kernel
// as the first build did, with a program-scope variable of its own.
TEST_F(KernelCache, ProgramBuiltInPartsComesBackWhole) {
  bool globals = hasFeature("__opencl_c_program_scope_global_variables");
  const std::string source = largeProgramSource(globals), options = globals ? "-cl-std=CL3.0" : "";
  cl_program first = build(source, options);
  ASSERT_NE(first, nullptr);
  std::string stored = onlyBin();
  ASSERT_FALSE(stored.empty()) << "folder:\n" << listing();
  fs::path kept = keep(stored);
  checkLargeProgram(first, globals);
  cl_program second = build(source, options);
  ASSERT_NE(second, nullptr);
  EXPECT_TRUE(stillSameFile(stored, kept)) << "the second build stored the program again";
  checkLargeProgram(second, globals);
}

// Four threads build the same new program at once: all get working code, and
// the folder ends with one good file for it.
TEST_F(KernelCache, ThreadsBuildTheSameProgramAtOnce) {
  constexpr int kThreads = 4, scale = 9, offset = -4;
  std::string source = scaleSource(offset);
  const char *text = source.c_str();
  std::vector<cl_program> programs(kThreads);
  std::vector<cl_int> created(kThreads, CL_SUCCESS), built(kThreads, CL_SUCCESS);
  for (int t = 0; t < kThreads; ++t)
    programs[t] = clCreateProgramWithSource(context_, 1, &text, nullptr, &created[t]);
  std::latch start(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      built[t] = clBuildProgram(programs[t], 1, &device_, "-DSCALE=9", nullptr, nullptr);
    });
  for (std::thread &thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    SCOPED_TRACE("thread " + std::to_string(t));
    EXPECT_CL(created[t]);
    EXPECT_CL(built[t]);
    if (built[t] == CL_SUCCESS) {
      EXPECT_TRUE(computesScale(programs[t], scale, offset));
    }
  }
  expectOneFileThenReused(scale, offset, "the file the threads left");
  for (cl_program program : programs)
    if (program) EXPECT_CL(clReleaseProgram(program));
}

// Two processes (this binary, running this test as a child) build the same
// new program into one folder at once.
TEST_F(KernelCache, TwoProcessesBuildTheSameProgramAtOnce) {
  constexpr int scale = 11, offset = 3;
  const std::string testName =
      std::string(::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name()) +
      "." + ::testing::UnitTest::GetInstance()->current_test_info()->name();
  if (child_) {
    // The child's part: say it is ready, wait for the word, build, check.
    const char *index = std::getenv("LOCKSTEP_KERNEL_CACHE_TEST_INDEX");
    ASSERT_NE(index, nullptr);
    writeFile(root_ / ("ready." + std::string(index)), "");
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!fs::exists(root_ / "go") && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ASSERT_TRUE(fs::exists(root_ / "go"));
    buildScale(scale, offset);
    if (!HasFailure()) writeFile(root_ / ("passed." + std::string(index)), "");
    return;
  }
  constexpr int kChildren = 2;
  std::vector<pid_t> children;
  for (int i = 0; i < kChildren; ++i) {
    std::vector<std::string> environment;
    for (char **entry = environ; *entry; ++entry) {
      std::string_view text(*entry);
      // Not the parent's role, nor its sharding or output file.
      if (text.starts_with(std::string(kChildVariable) + "=") ||
          text.starts_with("LOCKSTEP_KERNEL_CACHE_TEST_INDEX=") || text.starts_with("GTEST_"))
        continue;
      environment.emplace_back(text);
    }
    environment.push_back(std::string(kChildVariable) + "=" + root_.string());
    environment.push_back("LOCKSTEP_KERNEL_CACHE_TEST_INDEX=" + std::to_string(i));
    std::vector<char *> envp;
    for (std::string &entry : environment) envp.push_back(entry.data());
    envp.push_back(nullptr);
    std::string program = fs::read_symlink("/proc/self/exe").string();
    std::string filter = "--gtest_filter=" + testName;
    std::string log = (root_ / ("child." + std::to_string(i) + ".log")).string();
    char *argv[] = {program.data(), filter.data(), nullptr};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    pid_t pid = 0;
    int error = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv, envp.data());
    posix_spawn_file_actions_destroy(&actions);
    EXPECT_EQ(error, 0) << "posix_spawn: " << std::strerror(error);
    if (error == 0) children.push_back(pid);
  }
  // The children up (platform found, context made): let them build together.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  auto ready = [&] {
    for (size_t i = 0; i < children.size(); ++i)
      if (!fs::exists(root_ / ("ready." + std::to_string(i)))) return false;
    return true;
  };
  while (!ready() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_TRUE(ready()) << "the children did not start";
  writeFile(root_ / "go", "");
  for (size_t i = 0; i < children.size(); ++i) {
    int status = 0;
    ASSERT_EQ(waitpid(children[i], &status, 0), children[i]);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << "child " << i << " status " << status << "; its output:\n"
        << readFile(root_ / ("child." + std::to_string(i) + ".log"));
    EXPECT_TRUE(fs::exists(root_ / ("passed." + std::to_string(i))))
        << "child " << i << " did not pass; its output:\n"
        << readFile(root_ / ("child." + std::to_string(i) + ".log"));
  }
  expectOneFileThenReused(scale, offset, "the file the children left");
}

// LOCKSTEP_CACHE=0: nothing is stored, nothing is read, nothing is removed.
// A kernel's versions (for rows of 16, narrow groups, groups too narrow to
// cut its loop) are compiled at their first calls, not with the program: each
// is stored once, as a <key>.obj file beside the program's; a build of the
// same program read from the cache finds them there, and a damaged one is
// compiled again and replaced.
TEST_F(KernelCache, VersionsAreCompiledAtTheirFirstCallsAndStored) {
  const std::string source = R"(
kernel void sums(global const int *in, global int *out, local int *tile) {
  int l = get_local_id(0), size = get_local_size(0), g = get_global_id(0);
  tile[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  int s = 0;
  for (int k = 0; k < size; ++k) s += tile[k] * (k + 1 + l);
  out[g] = s;
})";
  constexpr size_t n = 512;
  std::vector<int> in(n);
  std::uniform_int_distribution<int> values(-1000, 1000);
  for (int &v : in) v = values(rng_);
  auto computes = [&](cl_program program, size_t local) -> ::testing::AssertionResult {
    cl_kernel k = kernelOf(program, "sums");
    if (!k) return ::testing::AssertionFailure() << "no kernel";
    cl_mem input = bufferFrom(in, CL_MEM_READ_ONLY);
    cl_mem output = buffer(CL_MEM_WRITE_ONLY, n * sizeof(int));
    if (auto ok = setArgs(k, input, output, LocalBytes{local * sizeof(int)}); !ok) return ok;
    if (auto ok = run(k, {n}, {local}); !ok) return ok;
    std::vector<int> out = read<int>(output, n);
    for (size_t g = 0; g < n; ++g) {
      size_t first = g / local * local, l = g % local;
      int want = 0;
      for (size_t k = 0; k < local; ++k) want += in[first + k] * int(k + 1 + l);
      if (out[g] != want)
        return ::testing::AssertionFailure() << "local size " << local << ": out[" << g << "] = " << out[g]
                                             << ", want " << want;
    }
    return ::testing::AssertionSuccess();
  };
  cl_program program = build(source, "");
  ASSERT_TRUE(program);
  EXPECT_EQ(binNames().size(), 1u) << "folder:\n" << listing();
  EXPECT_TRUE(objNames().empty()) << "a version compiled before any launch:\n" << listing();
  size_t seen = 0;
  for (size_t local : {64, 16, 16, 8, 2}) {
    EXPECT_TRUE(computes(program, local));
    seen = objNames().size();
  }
  EXPECT_GE(seen, 3u) << "the 16-wide, narrow and whole-loop versions:\n" << listing();
  std::set<std::string> stored = objNames();
  EXPECT_TRUE(strays().empty()) << "folder:\n" << listing();

  cl_program again = build(source, "");
  ASSERT_TRUE(again);
  for (size_t local : {16, 8, 2, 64}) EXPECT_TRUE(computes(again, local));
  EXPECT_EQ(objNames(), stored) << "a version compiled again:\n" << listing();

  const std::string garbage(4096, 'x');
  for (const std::string &name : stored) writeFile(cache_ / name, garbage);
  cl_program healed = build(source, "");
  ASSERT_TRUE(healed);
  for (size_t local : {16, 8, 2}) EXPECT_TRUE(computes(healed, local));
  EXPECT_EQ(objNames(), stored) << "folder:\n" << listing();
  for (const std::string &name : stored) EXPECT_NE(readFile(cache_ / name), garbage) << name << " kept";
}

TEST_F(KernelCache, ZeroTurnsTheCacheOff) {
  ::setenv("LOCKSTEP_CACHE", "0", 1);
  ASSERT_TRUE(fs::remove(cache_));
  buildScale(6, 1);
  buildScale(6, 1);
  EXPECT_FALSE(fs::exists(cache_)) << "the folder was made; it holds:\n" << listing();

  // On again, the folder is made; then a stored file, damaged, with the cache
  // off: not read, not replaced.
  ::unsetenv("LOCKSTEP_CACHE");
  buildScale(6, 2);
  std::string name = onlyBin();
  ASSERT_FALSE(name.empty());
  std::string garbage(fs::file_size(cache_ / name), 'x');
  writeFile(cache_ / name, garbage);
  fs::path kept = keep(name);
  ::setenv("LOCKSTEP_CACHE", "0", 1);
  buildScale(6, 2);
  EXPECT_EQ(binNames(), std::set<std::string>{name}) << "folder:\n" << listing();
  EXPECT_TRUE(stillSameFile(name, kept));
  EXPECT_TRUE(readFile(cache_ / name) == garbage) << "the file was changed";

  // Any other value leaves it on.
  ::setenv("LOCKSTEP_CACHE", "1", 1);
  buildScale(6, 3);
  EXPECT_EQ(binNames().size(), 2u) << "folder:\n" << listing();
}

// Without LOCKSTEP_CACHE_DIR the folder is $XDG_CACHE_HOME/lockstep, and
// without that ~/.cache/lockstep.
TEST_F(KernelCache, FolderFallsBackToXdgCacheHomeThenHome) {
  ::unsetenv("LOCKSTEP_CACHE_DIR");
  ::setenv("XDG_CACHE_HOME", (root_ / "xdg").c_str(), 1);
  buildScale(2, 5);
  EXPECT_TRUE(entries().empty());
  std::vector<fs::path> xdg;
  std::error_code error;
  for (const fs::directory_entry &entry : fs::directory_iterator(root_ / "xdg" / "lockstep", error))
    if (entry.path().extension() == ".bin") xdg.push_back(entry.path());  // and versions' .obj
  ASSERT_EQ(xdg.size(), 1u) << error.message();
  EXPECT_EQ(xdg[0].extension(), ".bin");

  ::unsetenv("XDG_CACHE_HOME");
  ::setenv("HOME", (root_ / "home").c_str(), 1);
  buildScale(2, 6);
  std::vector<fs::path> home;
  for (const fs::directory_entry &entry :
       fs::directory_iterator(root_ / "home" / ".cache" / "lockstep", error))
    if (entry.path().extension() == ".bin") home.push_back(entry.path());
  ASSERT_EQ(home.size(), 1u) << error.message();
  EXPECT_EQ(home[0].extension(), ".bin");

  // An empty LOCKSTEP_CACHE_DIR counts as unset.
  ::setenv("LOCKSTEP_CACHE_DIR", "", 1);
  buildScale(2, 7);
  home.clear();
  for (const fs::directory_entry &entry :
       fs::directory_iterator(root_ / "home" / ".cache" / "lockstep", error))
    if (entry.path().extension() == ".bin") home.push_back(entry.path());
  EXPECT_EQ(home.size(), 2u);
}

}  // namespace
}  // namespace lockstep::test

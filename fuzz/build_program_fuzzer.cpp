// Fuzz target: the OpenCL C build path, from clCreateProgramWithSource to the
// kernel queries, through the system ICD loader like any application.
//
// The input is text. Its first line holds the build options, the rest is the
// program source. Two first lines switch to other paths:
//
//   @COMPILE_OPTIONS|LINK_OPTIONS   separate compilation: the source is cut
//       into compilation units at lines "//@unit" and into headers at lines
//       "//@header NAME" (a header is included as "NAME"); each unit goes
//       through clCompileProgram with every header, then all units through
//       clLinkProgram (and, when the link made a library, once more into an
//       executable)
//   @binary     the rest of the input is a program binary for
//       clCreateProgramWithBinary + clBuildProgram
//   @il         the rest of the input is a SPIR-V module for
//       clCreateProgramWithIL; every specialization constant id 0-7 is set
//       with each size 1, 2, 4, 8 (the wrong ones must be refused), then
//       clBuildProgram, and clCompileProgram on a second program (the
//       translator runs out of process: a crash of it is a failed build)
//
// Whatever comes out is queried: the build status, options and log (which
// must be a NUL-terminated string of the size reported), the program's
// binaries, kernel names and counts; for an executable every kernel from
// clCreateKernelsInProgram and clCreateKernel with its info, work-group info
// and argument info. A successful build's binary is fed back through
// clCreateProgramWithBinary. No kernel runs: a fuzzed kernel may loop
// forever. The kernel cache stays off (LOCKSTEP_CACHE=0) so the cache folder
// does not grow with every input.
#include <CL/cl.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "LockstepDevice.h"

namespace {

cl_platform_id gPlatform = nullptr;
cl_device_id gDevice = nullptr;

[[noreturn]] void die(const char *what, cl_int code) {
  std::fprintf(stderr, "build_program_fuzzer: %s failed (%d)\n", what, code);
  std::abort();
}

// A broken promise of the API (not a mere error code): abort, so the fuzzer
// keeps the input.
void require(bool condition, const char *what) {
  if (!condition) {
    std::fprintf(stderr, "build_program_fuzzer: %s\n", what);
    std::abort();
  }
}

// A string query: its size, then the string itself, which must end at the
// reported size with its only NUL (`embeddedNul`: the string may hold the
// NULs of the source it quotes).
template <class Query>
std::string queryString(Query &&query, const char *what, bool embeddedNul = false) {
  size_t size = 0;
  cl_int err = query(0, nullptr, &size);
  if (err != CL_SUCCESS) return {};
  require(size >= 1, what);
  std::vector<char> text(size + 16, 'x');
  size_t again = 0;
  err = query(size, text.data(), &again);
  require(err == CL_SUCCESS && again == size, what);
  require(text[size - 1] == '\0' && (embeddedNul || std::strlen(text.data()) == size - 1), what);
  // One byte short must fail without writing past it.
  if (size > 1) {
    std::vector<char> small(size - 1, 'y');
    require(query(size - 1, small.data(), nullptr) == CL_INVALID_VALUE, what);
  }
  return std::string(text.data(), size - 1);
}

bool gVerbose = false;  // LOCKSTEP_FUZZ_VERBOSE=1: print each build's status and log

void checkBuildInfo(cl_program program) {
  cl_build_status status = CL_BUILD_NONE;
  clGetProgramBuildInfo(program, gDevice, CL_PROGRAM_BUILD_STATUS, sizeof status, &status,
                        nullptr);
  require(status == CL_BUILD_NONE || status == CL_BUILD_ERROR || status == CL_BUILD_SUCCESS,
          "a build status after the build returned");
  for (cl_program_build_info name : {CL_PROGRAM_BUILD_LOG, CL_PROGRAM_BUILD_OPTIONS}) {
    std::string text = queryString(
        [&](size_t size, void *value, size_t *ret) {
          return clGetProgramBuildInfo(program, gDevice, name, size, value, ret);
        },
        "clGetProgramBuildInfo string");
    if (gVerbose)
      std::fprintf(stderr, "build_program_fuzzer: status %d, %s: %s\n", status,
                   name == CL_PROGRAM_BUILD_LOG ? "log" : "options", text.c_str());
  }
  cl_program_binary_type type;
  clGetProgramBuildInfo(program, gDevice, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr);
  size_t globals;
  clGetProgramBuildInfo(program, gDevice, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                        sizeof globals, &globals, nullptr);
}

// The binary of the program's one device (empty if none).
std::vector<unsigned char> binaryOf(cl_program program) {
  size_t size = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) !=
          CL_SUCCESS ||
      size == 0)
    return {};
  std::vector<unsigned char> binary(size);
  unsigned char *pointer = binary.data();
  cl_int err = clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof pointer, &pointer, nullptr);
  require(err == CL_SUCCESS, "CL_PROGRAM_BINARIES after CL_PROGRAM_BINARY_SIZES");
  return binary;
}

void checkKernel(cl_kernel kernel) {
  std::string name = queryString(
      [&](size_t size, void *value, size_t *ret) {
        return clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, size, value, ret);
      },
      "CL_KERNEL_FUNCTION_NAME");
  queryString(
      [&](size_t size, void *value, size_t *ret) {
        return clGetKernelInfo(kernel, CL_KERNEL_ATTRIBUTES, size, value, ret);
      },
      "CL_KERNEL_ATTRIBUTES");
  cl_uint args = 0;
  require(clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof args, &args, nullptr) == CL_SUCCESS,
          "CL_KERNEL_NUM_ARGS");
  for (cl_uint i = 0; i <= args; ++i) {
    for (cl_kernel_arg_info param : {CL_KERNEL_ARG_TYPE_NAME, CL_KERNEL_ARG_NAME}) {
      std::string text = queryString(
          [&](size_t size, void *value, size_t *ret) {
            return clGetKernelArgInfo(kernel, i, param, size, value, ret);
          },
          "clGetKernelArgInfo string");
      (void)text;
    }
    cl_kernel_arg_address_qualifier address;
    cl_kernel_arg_access_qualifier access;
    cl_kernel_arg_type_qualifier typeQualifier;
    cl_int e1 = clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof address,
                                   &address, nullptr);
    clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access, &access, nullptr);
    clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof typeQualifier,
                       &typeQualifier, nullptr);
    // One past the last argument is no argument.
    if (i == args) require(e1 == CL_INVALID_ARG_INDEX, "argument info past the last argument");
  }
  size_t workGroupSize, multiple, compileSize[3];
  cl_ulong localMemory, privateMemory;
  clGetKernelWorkGroupInfo(kernel, gDevice, CL_KERNEL_WORK_GROUP_SIZE, sizeof workGroupSize,
                           &workGroupSize, nullptr);
  clGetKernelWorkGroupInfo(kernel, gDevice, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                           sizeof multiple, &multiple, nullptr);
  clGetKernelWorkGroupInfo(kernel, gDevice, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compileSize,
                           compileSize, nullptr);
  clGetKernelWorkGroupInfo(kernel, gDevice, CL_KERNEL_LOCAL_MEM_SIZE, sizeof localMemory,
                           &localMemory, nullptr);
  clGetKernelWorkGroupInfo(kernel, gDevice, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof privateMemory,
                           &privateMemory, nullptr);
  size_t maxSubGroup = 0, local[3] = {workGroupSize ? workGroupSize : 1, 1, 1};
  clGetKernelSubGroupInfo(kernel, gDevice, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local,
                          local, sizeof maxSubGroup, &maxSubGroup, nullptr);
  // A second kernel object for the same name, and a clone.
  cl_int err;
  cl_program program;
  clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof program, &program, nullptr);
  cl_kernel byName = clCreateKernel(program, name.c_str(), &err);
  require(err == CL_SUCCESS && byName, "clCreateKernel of a name clCreateKernelsInProgram made");
  cl_kernel clone = clCloneKernel(byName, &err);
  if (clone) clReleaseKernel(clone);
  clReleaseKernel(byName);
}

// The queries of a program after its build, compile or link.
void checkProgram(cl_program program, bool feedBinaryBack, cl_context context);

void checkExecutable(cl_program program) {
  size_t count = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof count, &count, nullptr) !=
      CL_SUCCESS)
    return;
  std::string names = queryString(
      [&](size_t size, void *value, size_t *ret) {
        return clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, size, value, ret);
      },
      "CL_PROGRAM_KERNEL_NAMES");
  cl_uint made = 0;
  cl_int err = clCreateKernelsInProgram(program, 0, nullptr, &made);
  require(err == CL_SUCCESS && made == count, "clCreateKernelsInProgram count");
  if (made == 0) return;
  // Too small an array is refused.
  std::vector<cl_kernel> kernels(made, nullptr);
  require(clCreateKernelsInProgram(program, made - 1, kernels.data(), nullptr) == CL_INVALID_VALUE,
          "clCreateKernelsInProgram with too small an array");
  err = clCreateKernelsInProgram(program, made, kernels.data(), nullptr);
  require(err == CL_SUCCESS, "clCreateKernelsInProgram");
  for (cl_kernel kernel : kernels) checkKernel(kernel);
  // A program with kernels attached may not be rebuilt.
  require(clBuildProgram(program, 0, nullptr, "", nullptr, nullptr) == CL_INVALID_OPERATION,
          "clBuildProgram with kernels attached");
  for (cl_kernel kernel : kernels) clReleaseKernel(kernel);
}

void checkProgram(cl_program program, bool feedBinaryBack, cl_context context) {
  checkBuildInfo(program);
  queryString(
      [&](size_t size, void *value, size_t *ret) {
        return clGetProgramInfo(program, CL_PROGRAM_SOURCE, size, value, ret);
      },
      "CL_PROGRAM_SOURCE", true);
  cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_NONE;
  clGetProgramBuildInfo(program, gDevice, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr);
  std::vector<unsigned char> binary = binaryOf(program);
  if (type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE) checkExecutable(program);
  if (!feedBinaryBack || binary.empty()) return;
  const unsigned char *data = binary.data();
  size_t length = binary.size();
  cl_int status = CL_SUCCESS, err;
  cl_program again =
      clCreateProgramWithBinary(context, 1, &gDevice, &length, &data, &status, &err);
  require(err == CL_SUCCESS && again, "clCreateProgramWithBinary of a binary Lockstep made");
  if (type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
    err = clBuildProgram(again, 0, nullptr, "", nullptr, nullptr);
    require(err == CL_SUCCESS, "clBuildProgram of an executable binary Lockstep made");
    checkProgram(again, false, context);
  }
  clReleaseProgram(again);
}

cl_program fromSource(cl_context context, std::string_view source) {
  const char *text = source.data();
  size_t length = source.size();
  cl_int err;
  // A length of 0 means NUL-terminated: an empty source is given as "".
  static const char empty[] = "";
  if (length == 0) text = empty;
  cl_program program = clCreateProgramWithSource(context, 1, &text, &length, &err);
  require(err == CL_SUCCESS && program, "clCreateProgramWithSource");
  return program;
}

// Build options from the fuzzer's bytes: up to the first NUL.
std::string optionsOf(std::string_view line) { return std::string(line.substr(0, line.find('\0'))); }

void buildPath(cl_context context, std::string_view options, std::string_view source) {
  cl_program program = fromSource(context, source);
  std::string opts = optionsOf(options);
  cl_int err = clBuildProgram(program, 1, &gDevice, opts.c_str(), nullptr, nullptr);
  require(err == CL_SUCCESS || err == CL_BUILD_PROGRAM_FAILURE || err == CL_INVALID_BUILD_OPTIONS,
          "clBuildProgram returned an error outside the spec's list for this input");
  checkProgram(program, err == CL_SUCCESS, context);
  clReleaseProgram(program);
}

// Cuts `source` at "//@unit" and "//@header NAME" lines.
struct Parts {
  std::vector<std::string> units{std::string()};
  std::vector<std::string> headerNames, headers;
};
Parts split(std::string_view source) {
  Parts parts;
  std::string *current = &parts.units.back();
  while (!source.empty()) {
    size_t end = source.find('\n');
    std::string_view line = source.substr(0, end == std::string_view::npos ? source.size() : end + 1);
    source.remove_prefix(line.size());
    if (line.starts_with("//@unit") && parts.units.size() < 4) {
      parts.units.emplace_back();
      current = &parts.units.back();
    } else if (line.starts_with("//@header ") && parts.headers.size() < 4) {
      std::string_view name = line.substr(10);
      while (!name.empty() && (name.back() == '\n' || name.back() == '\r')) name.remove_suffix(1);
      parts.headerNames.push_back(optionsOf(name));
      parts.headers.emplace_back();
      current = &parts.headers.back();
    } else {
      current->append(line);
    }
  }
  return parts;
}

void linkPath(cl_context context, std::string_view options, std::string_view source) {
  std::string_view compileOptions = options, linkOptions;
  if (size_t bar = options.find('|'); bar != std::string_view::npos) {
    compileOptions = options.substr(0, bar);
    linkOptions = options.substr(bar + 1);
  }
  std::string compileOpts = optionsOf(compileOptions), linkOpts = optionsOf(linkOptions);
  Parts parts = split(source);
  std::vector<cl_program> headers;
  std::vector<const char *> headerNames;
  for (size_t i = 0; i < parts.headers.size(); ++i) {
    headers.push_back(fromSource(context, parts.headers[i]));
    headerNames.push_back(parts.headerNames[i].c_str());
  }
  std::vector<cl_program> objects;
  for (const std::string &unit : parts.units) {
    cl_program program = fromSource(context, unit);
    cl_int err = clCompileProgram(program, 1, &gDevice, compileOpts.c_str(),
                                  static_cast<cl_uint>(headers.size()),
                                  headers.empty() ? nullptr : headers.data(),
                                  headers.empty() ? nullptr : headerNames.data(), nullptr, nullptr);
    require(err == CL_SUCCESS || err == CL_COMPILE_PROGRAM_FAILURE ||
                err == CL_INVALID_COMPILER_OPTIONS,
            "clCompileProgram returned an error outside the spec's list for this input");
    checkProgram(program, false, context);
    objects.push_back(program);
  }
  cl_int err;
  cl_program linked = clLinkProgram(context, 1, &gDevice, linkOpts.c_str(),
                                    static_cast<cl_uint>(objects.size()), objects.data(), nullptr,
                                    nullptr, &err);
  if (linked) {
    checkProgram(linked, err == CL_SUCCESS, context);
    cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_NONE;
    clGetProgramBuildInfo(linked, gDevice, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr);
    if (err == CL_SUCCESS && type == CL_PROGRAM_BINARY_TYPE_LIBRARY) {
      cl_program executable =
          clLinkProgram(context, 1, &gDevice, "", 1, &linked, nullptr, nullptr, &err);
      if (executable) {
        checkProgram(executable, false, context);
        clReleaseProgram(executable);
      }
    }
    clReleaseProgram(linked);
  } else {
    require(err != CL_SUCCESS, "clLinkProgram returned no program and CL_SUCCESS");
  }
  for (cl_program program : objects) clReleaseProgram(program);
  for (cl_program header : headers) clReleaseProgram(header);
}

void binaryPath(cl_context context, std::string_view bytes) {
  const unsigned char *data = reinterpret_cast<const unsigned char *>(bytes.data());
  size_t length = bytes.size();
  cl_int status = CL_SUCCESS, err;
  cl_program program =
      clCreateProgramWithBinary(context, 1, &gDevice, &length, &data, &status, &err);
  if (!program) return;
  err = clBuildProgram(program, 0, nullptr, "", nullptr, nullptr);
  checkProgram(program, false, context);
  clReleaseProgram(program);
}

void ilPath(cl_context context, std::string_view bytes) {
  cl_int err;
  cl_program program = clCreateProgramWithIL(context, bytes.data(), bytes.size(), &err);
  require((program != nullptr) == (err == CL_SUCCESS), "clCreateProgramWithIL's program and status disagree");
  if (!program) {
    require(err == CL_INVALID_VALUE, "clCreateProgramWithIL refused a module with an error outside the spec's list");
    return;
  }
  const uint64_t value = 0x0123456789abcdefull;
  for (cl_uint id = 0; id < 8; ++id) {
    int accepted = 0;
    for (size_t size : {1, 2, 4, 8}) {
      err = clSetProgramSpecializationConstant(program, id, size, &value);
      require(err == CL_SUCCESS || err == CL_INVALID_SPEC_ID || err == CL_INVALID_VALUE,
              "clSetProgramSpecializationConstant: an error outside the spec's list");
      accepted += err == CL_SUCCESS;
    }
    require(accepted <= 1, "a specialization constant took two sizes");
  }
  err = clBuildProgram(program, 1, &gDevice, "", nullptr, nullptr);
  require(err == CL_SUCCESS || err == CL_BUILD_PROGRAM_FAILURE,
          "clBuildProgram of an IL program returned an error outside the spec's list");
  checkProgram(program, err == CL_SUCCESS, context);
  size_t ilSize = 0;
  require(clGetProgramInfo(program, CL_PROGRAM_IL, 0, nullptr, &ilSize) == CL_SUCCESS && ilSize == bytes.size(),
          "CL_PROGRAM_IL is not the module given");
  clReleaseProgram(program);

  cl_program object = clCreateProgramWithIL(context, bytes.data(), bytes.size(), &err);
  require(err == CL_SUCCESS && object, "clCreateProgramWithIL of a module it took before");
  err = clCompileProgram(object, 1, &gDevice, "", 0, nullptr, nullptr, nullptr, nullptr);
  require(err == CL_SUCCESS || err == CL_COMPILE_PROGRAM_FAILURE,
          "clCompileProgram of an IL program returned an error outside the spec's list");
  checkProgram(object, false, context);
  clReleaseProgram(object);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // Before the first OpenCL call: the driver reads it when it loads.
  setenv("LOCKSTEP_CACHE", "0", 1);
  const char *verbose = std::getenv("LOCKSTEP_FUZZ_VERBOSE");
  gVerbose = verbose && *verbose == '1';
  lockstep::fuzz::findLockstepDevice(gPlatform, gDevice, die);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Sources past 64 KiB only make the compiler slower, not the fuzzing better.
  if (size > 65536) return -1;
  std::string_view input(reinterpret_cast<const char *>(data), size);
  size_t newline = input.find('\n');
  std::string_view options = input.substr(0, newline);
  std::string_view rest = newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);

  cl_context_properties properties[] = {CL_CONTEXT_PLATFORM,
                                        reinterpret_cast<cl_context_properties>(gPlatform), 0};
  cl_int err;
  cl_context context = clCreateContext(properties, 1, &gDevice, nullptr, nullptr, &err);
  if (!context) die("clCreateContext", err);
  if (options == "@binary")
    binaryPath(context, rest);
  else if (options == "@il")
    ilPath(context, rest);
  else if (options.starts_with("@"))
    linkPath(context, options.substr(1), rest);
  else
    buildPath(context, options, rest);
  clReleaseContext(context);
  return 0;
}

// The one interface between the runtime and the compiler: build OpenCL C for
// this CPU and get back kernels with their argument descriptions and a native
// work-group function each. No LLVM type crosses this boundary.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lockstep/compiler/GroupAbi.h"

namespace lockstep::compiler {

enum class ArgKind : uint8_t {
  Value,            // scalar, vector or struct passed by value
  GlobalPointer,    // __global T*  : a pointer in the argument block
  ConstantPointer,  // __constant T*: a pointer in the argument block
  LocalPointer,     // __local T*   : a uint64 byte offset into localMemory
  Sampler,          // sampler_t    : a uint32 in the argument block (ImageAbi.h)
  Image,            // image*_t     : a pointer to the image's
                    //                lockstep_image_descriptor (ImageAbi.h)
  Pipe,             // pipe T       : a pointer to the pipe's storage,
                    //                a lockstep_pipe (PipeAbi.h)
};

struct KernelArgument {
  std::string name;
  std::string typeName;         // as written, e.g. "float4*"
  ArgKind kind = ArgKind::Value;
  uint32_t addressQualifier = 0;  // CL_KERNEL_ARG_ADDRESS_*
  uint32_t accessQualifier = 0;   // CL_KERNEL_ARG_ACCESS_*
  uint64_t typeQualifier = 0;     // CL_KERNEL_ARG_TYPE_* bits
  uint32_t imageType = 0;  // Image: CL_MEM_OBJECT_IMAGE2D, ... (depth images
                           // too: image2d_depth_t is CL_MEM_OBJECT_IMAGE2D)
  uint32_t size = 0;       // bytes clSetKernelArg must be given (Value) or
                           // sizeof(cl_mem)/sizeof(cl_sampler)
  uint32_t alignment = 1;  // of the slot in the argument block
  uint32_t offset = 0;     // of the slot in the argument block
};

struct KernelDescription {
  std::string name;
  std::string attributes;  // CL_KERNEL_ATTRIBUTES
  std::vector<KernelArgument> arguments;
  uint32_t argumentBlockSize = 0;
  uint64_t staticLocalMemorySize = 0;   // kernel-scope __local variables
  uint64_t privateMemorySize = 0;       // per work-item
  uint64_t frameBytes = 0;  // private arrays in the work-group function's stack frame
  uint64_t contextBytesPerWorkItem = 0;  // scratch for values live across barriers
  uint32_t requiredWorkGroupSize[3] = {0, 0, 0};  // 0,0,0: none
  uint32_t workGroupSizeHint[3] = {0, 0, 0};
  std::string vecTypeHint;
  uint32_t preferredWorkGroupSizeMultiple = 1;
  uint32_t barrierCount = 0;
  // Loops whose trip count differs between work-items, run in lockstep
  // while any work-item is still in them (the driver keeps such groups small).
  uint32_t maskedLoops = 0;
  // Rows of work-items that a region runs together, sharing loads (the
  // compiler's row jam; 0: none): the driver gives a NULL-local-size group
  // of a 2D range at least this many rows.
  uint32_t jammedRows = 0;
  uint32_t subGroupSize = 1;  // fixed per kernel, from the SIMD width
  // The shape of group the kernel's global accesses suit (GroupShape.cpp):
  // rows (every access runs along x), columns (some access walks down a
  // column as x grows), or none known. A NULL local size follows it.
  enum class GroupShape : uint8_t { None, Rows, Columns } groupShape = GroupShape::None;
  // The kernel cannot observe the shape of its groups (no local or group id,
  // barrier, __local memory, ...): a launch may run in groups of the
  // driver's choice whatever local size it was given.
  bool groupFree = false;
  // Every work-group must be full (global size a multiple of the local size):
  // compiled as OpenCL C 1.x or with -cl-uniform-work-group-size. Per kernel,
  // so a program linked from objects of both kinds keeps each one's rule;
  // the compiled code relies on it (a reqd_work_group_size becomes constant).
  bool uniformWorkGroups = true;
  bool checksBarriers = false;  // built with LOCKSTEP_CHECK_BARRIERS: see takeKernelFailure
  bool checksBounds = false;    // built with LOCKSTEP_CHECK_BOUNDS: see takeKernelFailure
  // Has loops that poll GroupInfo::stop (StopPollPass): its groups run
  // through runCheckedGroup, so that a stopped launch leaves them.
  bool pollsStop = false;
  // Bounds-checked kernels: where in the argument block the runtime writes
  // each argument's size in bytes (a uint64_t per argument, in order: a
  // buffer's size, a __local argument's size; 0 for a NULL buffer). 0: none.
  uint32_t argumentSizesOffset = 0;
  // May store with non-temporal stores, which the launcher must fence
  // (sfence) before it reports the launch done.
  bool streamingStores = false;
  // The __global pointer arguments whose atomic adds may be held back in
  // the launching thread's AtomicCombiner (GroupAbi.h): the kernel's only
  // use of them is adds whose results it ignores. The runtime lets a launch
  // hold them back only when no other argument's memory overlaps theirs
  // and none is an SVM pointer.
  std::vector<uint32_t> combinedAtomicArguments;
  // Built with -cl-denorms-are-zero: the launcher runs it with denormal
  // inputs and results flushed to zero (x86's MXCSR DAZ and FTZ).
  bool flushDenormals = false;
  // Calls enqueue_kernel, directly or through functions it calls
  // (device-side enqueue): a command-buffer may not record it.
  bool enqueuesKernels = false;
  WorkGroupFunction function = nullptr;  // valid while the Executable lives
};

// JIT-compiled code of one program; kernels stay callable while it lives.
class Executable {
 public:
  virtual ~Executable() = default;
  virtual const std::vector<KernelDescription> &kernels() const = 0;
  virtual size_t globalVariableTotalSize() const = 0;
  // A slot the runtime keeps for a kernel of this executable (one of
  // kernels()), shared by every cl_kernel made for it: what a work-item cost
  // on the kernel's last launch, in picoseconds of a thread's time.
  virtual std::atomic<uint64_t> &workCost(const KernelDescription &kernel) const = 0;
  // The kernel compiled for the image formats and sampler values of one
  // launch, whose image switches fold away so its work-item loops widen:
  // `key` holds four values per Image or Sampler argument, in argument order
  // (an image: channel order, channel type, element size, channel count; a
  // sampler: its bits, then zeros). Null when the launch should run
  // kernel.function: the compile is not worth it yet for so few work-items,
  // or failed. May compile (blocking), once per kernel and key.
  virtual WorkGroupFunction specialize(const KernelDescription &kernel, std::span<const uint32_t> key,
                                       uint64_t workItems) const {
    return nullptr;
  }
  const KernelDescription *find(std::string_view name) const {
    for (const auto &kernel : kernels())
      if (kernel.name == name) return &kernel;
    return nullptr;
  }
};

enum class BinaryKind : uint8_t { None, CompiledObject, Library, Executable };

enum class Status : uint8_t {
  Success,
  Failure,         // CL_BUILD/COMPILE/LINK_PROGRAM_FAILURE: see the log
  InvalidOptions,  // CL_INVALID_(COMPILER|LINKER)_OPTIONS / CL_INVALID_BUILD_OPTIONS
  InvalidBinary,   // CL_INVALID_BINARY
};

struct Result {
  Status status = Status::Failure;
  std::string log;
  BinaryKind kind = BinaryKind::None;
  std::vector<uint8_t> binary;  // what CL_PROGRAM_BINARIES returns
  std::shared_ptr<const Executable> executable;  // set for Executable binaries
  std::vector<std::string> kernelNames;          // CL_PROGRAM_KERNEL_NAMES
  bool ok() const { return status == Status::Success; }
};

// A SPIR-V module's specialization constant: its SpecId and the size
// clSetProgramSpecializationConstant must be given (a boolean's is 1).
struct SpecConstant {
  uint32_t id = 0;
  uint32_t size = 0;
};
// A value set for one (the low `size` bytes of `bits`).
struct SpecValue {
  uint32_t id = 0;
  uint64_t bits = 0;
};

// What clCreateProgramWithIL keeps of a module the device can take.
struct IntermediateLanguage {
  uint32_t version = 0;  // SPIR-V's, 0x00MMmm00
  std::vector<SpecConstant> specConstants;
};

struct Header {  // clCompileProgram's input_headers
  std::string name;
  std::string source;
};

// What the device offers OpenCL C: the runtime reports exactly these.
struct LanguageSupport {
  std::vector<std::string> extensions;  // cl_khr_* the compiler implements
  std::vector<std::string> features;    // __opencl_c_* feature macros
  bool fp64 = false;
  bool fp16 = false;  // cl_khr_fp16: half arithmetic and builtins
  bool workGroupCollectives = false;
  // OpenCL C 2.0 (-cl-std=CL2.0, CL_DEVICE_OPENCL_C_ALL_VERSIONS): offered
  // only with every feature OpenCL C 2.0 made mandatory (pipes and
  // device-side enqueue among them).
  bool openclC20 = false;
  uint32_t subGroupSize = 0;  // 0: no sub-groups
};

// Build options as the compiler reads them: words split at blanks outside
// quotes; a run in double or single quotes belongs to its word, without the
// quotes (-I "dir with space", -D NAME='a b'). The one tokenizer of options.
std::vector<std::string> splitOptions(std::string_view options);

// After a work-group function returns on this thread: the reason it stopped
// early (a barrier divergence found by LOCKSTEP_CHECK_BARRIERS, an access
// outside its buffer found by LOCKSTEP_CHECK_BOUNDS), or "" if it ran to
// completion. Clears it.
std::string takeKernelFailure();
// Runs one work-group of a checked or polling kernel. A bounds check that
// fails, or a poll that finds GroupInfo::stop set, abandons the group at
// once (the failing access is not made, nor anything after it): the call
// returns false (takeKernelFailure says why a check failed).
bool runCheckedGroup(WorkGroupFunction function, const void *args, const GroupInfo *group,
                     void *localMemory, void *workItemContext);

// Device-side enqueue (docs/device_enqueue.md). Clang's ndrange_t, as
// kernels pass it to the runtime: a local size of zeros was not given.
struct DeviceNDRange {
  uint32_t workDim;
  uint64_t globalOffset[3];
  uint64_t globalSize[3];
  uint64_t localSize[3];
};
// The runtime's functions compiled kernels call for enqueue_kernel and the
// other device-enqueue built-ins; queue_t and clk_event_t are the runtime's
// handles (cl_command_queue, cl_event) and nothing else. The runtime sets
// them once, before its first build; until then the calls fail
// (CLK_ENQUEUE_FAILURE, null queues and events).
struct DeviceEnqueueHooks {
  // enqueue_kernel: `kernel` names a block kernel of the running kernel's
  // program, `literal` is the block literal (its first int is its size),
  // `localSizes` the sizes of its `local void *` parameters.
  int32_t (*enqueueKernel)(void *queue, int32_t flags, const DeviceNDRange *range, uint32_t numEvents,
                           void *const *waitList, void **eventOut, const char *kernel, const void *literal,
                           uint32_t numLocals, const uint64_t *localSizes) = nullptr;
  // get_kernel_work_group_size and the other get_kernel_* queries
  // (KernelQuery in compiler/lib/Internal.h: 0 work-group size, 1 preferred
  // multiple, 2 sub-group count, 3 max sub-group size); `range` may be null.
  uint32_t (*kernelQuery)(int32_t query, const char *kernel, const DeviceNDRange *range) = nullptr;
  void *(*defaultQueue)() = nullptr;
  int32_t (*enqueueMarker)(void *queue, uint32_t numEvents, void *const *waitList, void **eventOut) = nullptr;
  void (*retainEvent)(void *event) = nullptr;
  void (*releaseEvent)(void *event) = nullptr;
  void *(*createUserEvent)() = nullptr;
  int32_t (*isValidEvent)(void *event) = nullptr;
  void (*setUserEventStatus)(void *event, int32_t status) = nullptr;
  void (*captureEventProfilingInfo)(void *event, int32_t name, void *value) = nullptr;
};
void setDeviceEnqueueHooks(const DeviceEnqueueHooks &hooks);
// A kernel Clang generated for a block passed to enqueue_kernel
// (`__<function>_block_invoke[_N]_kernel`, a name reserved to the
// implementation): compiled like any kernel, but not one of the program's
// (CL_PROGRAM_KERNEL_NAMES, clCreateKernel).
bool isBlockKernelName(std::string_view name);

class Compiler {
 public:
  static Compiler &instance();  // thread-safe; builds may run concurrently

  const LanguageSupport &languageSupport() const;

  // clBuildProgram from source: compile, link with the builtins, JIT.
  Result build(std::string_view source, std::string_view options);
  // clCompileProgram: a compiled object (no builtins linked yet).
  Result compile(std::string_view source, std::string_view options,
                 std::span<const Header> headers);
  // clLinkProgram: objects and libraries → a library (-create-library) or an
  // executable.
  Result link(std::span<const std::span<const uint8_t>> binaries,
              std::string_view options);
  // clCreateProgramWithBinary: the kind of a binary, or None if invalid.
  BinaryKind inspect(std::span<const uint8_t> binary) const;
  // SPIR-V: the versions the device reads ({major, minor}, oldest first);
  // empty when no translator is installed (see docs/spirv.md), and then the
  // device offers no intermediate language.
  std::vector<std::pair<uint32_t, uint32_t>> ilVersions() const;
  // clCreateProgramWithIL: a module's version and specialization constants,
  // or nullopt and `error` saying why the device cannot take it.
  std::optional<IntermediateLanguage> inspectIL(std::span<const uint8_t> il, std::string &error) const;
  // clBuildProgram / clCompileProgram on a program created from IL, with
  // the specialization constants set so far.
  Result buildIL(std::span<const uint8_t> il, std::span<const SpecValue> values, std::string_view options);
  Result compileIL(std::span<const uint8_t> il, std::span<const SpecValue> values, std::string_view options);
  // clBuildProgram on a program created from a binary.
  Result buildFromBinary(std::span<const uint8_t> binary,
                         std::string_view options);

  Compiler(const Compiler &) = delete;
  Compiler &operator=(const Compiler &) = delete;

 private:
  Compiler();
  ~Compiler();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lockstep::compiler

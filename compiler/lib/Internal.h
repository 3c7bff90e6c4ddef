// Declarations shared by the compiler's translation units. Everything here
// speaks LLVM; nothing of it crosses into the runtime. Longer than most
// headers because it is the one place the function attributes and metadata
// names the passes hand on are listed; the passes themselves are declared
// in Passes.h.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lockstep/compiler/Compiler.h"

namespace llvm {
class DominatorTree;
class Loop;
class LoopInfo;
class PassBuilder;
class VecDesc;
class TargetMachine;
}

namespace lockstep::compiler {

// ---- names shared between passes -------------------------------------------

// Placeholder the work-item builtin lowering leaves for get_local_id(d); the
// work-group loop pass replaces it with the loop induction variables.
inline constexpr const char *kLocalIdPlaceholder = "__lockstep.local_id";
// Function attribute on a work-group function naming its kernel.
inline constexpr const char *kKernelNameAttr = "lockstep-kernel";
// Function attributes carrying facts from the passes to the runtime.
inline constexpr const char *kContextBytesAttr = "lockstep-context-bytes";
inline constexpr const char *kMaskedLoopsAttr = "lockstep-masked-loops";
// Rows of work-items a region of the kernel runs jammed (RowJam.cpp): NULL
// local sizes give such kernels at least that many rows.
inline constexpr const char *kJammedRowsAttr = "lockstep-jammed-rows";
// The shape of group a kernel's accesses suit, "rows" or "columns", and
// whether its results are the same under any shape of group (GroupShape.cpp):
// the runtime's choice of a NULL local size follows the one; with the other,
// it may run a launch in groups of its choice.
inline constexpr const char *kGroupShapeAttr = "lockstep-group-shape";
inline constexpr const char *kGroupShapeRows = "rows", *kGroupShapeColumns = "columns";
// A straight-line kernel whose global stores all run down columns (out[x * H
// + y]): its work-item loops run y innermost, widened along y
// (GroupShapePass, WorkGroup/WorkItemLoopNest.cpp).
inline constexpr const char *kColumnStoresAttr = "lockstep-column-stores";
inline constexpr const char *kGroupFreeAttr = "lockstep-group-free";
// On a work-group function that may store with non-temporal stores
// (StreamingStoresPass, or a function it calls): the launcher fences them.
inline constexpr const char *kStreamingStoresAttr = "lockstep-streaming-stores";
// On a work-group function whose global atomic adds to some arguments go
// through the thread's AtomicCombiner (GlobalAtomicCombiningPass): those
// arguments' offsets in the argument block, "8,24".
inline constexpr const char *kCombinedAtomicsAttr = "lockstep-combined-atomics";
inline constexpr const char *kStaticLocalBytesAttr = "lockstep-static-local-bytes";
inline constexpr const char *kPrivateBytesAttr = "lockstep-private-bytes";
// Bytes of private arrays the work-group function keeps in its own frame
// (allocas no barrier crosses; per version of the body, summed): the stack
// a thread needs free to run a group.
inline constexpr const char *kFrameBytesAttr = "lockstep-frame-bytes";
inline constexpr const char *kBarrierCountAttr = "lockstep-barriers";
// Work-group functions: the sub-group size chosen for the SIMD width, and
// whether barrier checking (LOCKSTEP_CHECK_BARRIERS) was on for the build.
inline constexpr const char *kSubGroupSizeAttr = "lockstep-sub-group-size";
inline constexpr const char *kCheckBarriersAttr = "lockstep-check-barriers";
// Module flag: bounds checking (LOCKSTEP_CHECK_BOUNDS) was on for the build
// (BoundsCheck.cpp). On work-group functions its value is the argument
// block offset of the argument sizes (KernelDescription::argumentSizesOffset).
inline constexpr const char *kCheckBoundsAttr = "lockstep-check-bounds";
// Work-group functions of kernels without loops, barriers or collectives.
inline constexpr const char *kStraightLineAttr = "lockstep-straight-line";
// On a work-group function and the copies it dispatches to: code that runs
// per work-item in loops the vectorizer widens (ScalarizeWorkGroupCodePass
// scalarizes vector values there, and nowhere else).
inline constexpr const char *kWorkGroupCodeAttr = "lockstep-work-group-code";
// On a kernel whose work-groups are all full: compiled as OpenCL C 1.x or
// with -cl-uniform-work-group-size (markUniformWorkGroups). Lives in program
// binaries, so a link keeps each object's own promise; describeKernels reports
// it as KernelDescription::uniformWorkGroups, the runtime's one source.
inline constexpr const char *kUniformGroupsAttr = "lockstep-uniform-groups";
// On a work-group function whose every group has the kernel's
// reqd_work_group_size: "x,y,z". loadGroupInfo answers local-size queries
// with these constants, so the work-item loops have known trip counts.
inline constexpr const char *kFixedLocalSizeAttr = "lockstep-fixed-local-size";
// Metadata on the latch branch of the innermost loop over the work-items of
// a region (WorkGroupLoops), for WorkItemLoopSplitPass, which removes it.
inline constexpr const char *kWorkItemLoopMarker = "lockstep.work_item_loop";
// Called by checked kernels when work-items disagree about a barrier
// (CheckReports.cpp).
inline constexpr const char *kDivergenceSymbol = "__lockstep_report_divergence";
void reportBarrierDivergence(const char *what, const GroupInfo *group, uint64_t workItem);
// Called by bounds-checked kernels when an access falls outside its buffer
// (CheckReports.cpp): `site` names the kernel, access and buffer; `offset`
// is the access's byte offset from the buffer's start, `size` the
// buffer's bytes; gx, gy, gz the work-item's global id. Does not return: it
// leaves the group (runCheckedGroup).
inline constexpr const char *kOutOfBoundsSymbol = "__lockstep_report_out_of_bounds";
[[noreturn]] void reportOutOfBounds(const char *site, uint64_t offset, uint64_t size, uint64_t gx, uint64_t gy,
                                    uint64_t gz);
// In a bounds-checked build the wrapper hands each pointer argument to the
// kernel through a call of this marker (`ptr marker(ptr, i32 index)`), so
// that BoundsCheckPass knows which argument an access goes through; the
// pass removes the calls. Metadata of the same name on the call says what
// a report calls the argument.
// Called by a loop that polls GroupInfo::stop when it is set
// (StopPollPass): leaves the group (CheckReports.cpp).
inline constexpr const char *kStopGroupSymbol = "__lockstep_stop_group";
void stopGroup();
// atomicCombinerMiss (GroupAbi.h), as generated code calls it.
inline constexpr const char *kAtomicCombinerMissSymbol = "__lockstep_atomic_combiner_miss";
// atomicCombinerWindow (GroupAbi.h), as generated code calls it.
inline constexpr const char *kAtomicCombinerWindowSymbol = "__lockstep_atomic_combiner_window";
// Versions a kernel's prologue dispatches to (VersionDispatch.cpp) are
// called through a slot, `@__lockstep.version.NAME`, that holds the
// version's address (DeferVersionsPass): a build that defers them leaves
// the slot null and compiles the version at its first call, which asks
// resolveVersion (LazyVersions.cpp) for it. The mark on such a version
// names its kernel's work-group function.
inline constexpr const char *kDispatchedVersionAttr = "lockstep-dispatched-version";
inline constexpr const char *kVersionSlotPrefix = "__lockstep.version.";
inline constexpr const char *kResolveVersionSymbol = "__lockstep_resolve_version";
void *resolveVersion(void **slot);
// Jit.cpp: what the programs' `__lockstep_resolve_version` calls.
void setVersionResolver(void *(*resolver)(void **));
// A version's slot, `[2 x ptr]`: the version (null until compiled, in a
// build that defers it) and, once the program is loaded, the
// LazyVersions::Entry that compiles it.
llvm::ArrayType *versionSlotType(llvm::LLVMContext &context);
llvm::Constant *versionSlot(llvm::LLVMContext &context, llvm::Function *version);
// Whether `call` calls a version through its slot (combining scans skip it:
// the version is scanned, and combined, on its own).
bool isVersionCall(const llvm::CallBase &call);
// On a deferred version compiled at its first call: the argument offsets
// whose atomic adds its kernel combines ("8,24", or ""), the only ones the
// version may combine (GlobalAtomicCombiningPass).
inline constexpr const char *kCombineOffsetsAttr = "lockstep-combine-offsets";
// The counter of cl_khr_kernel_clock's builtins (KernelClock.cpp): the
// host's monotonic clock in nanoseconds.
inline constexpr const char *kKernelClockSymbol = "__lockstep_kernel_clock";
uint64_t kernelClock();
// The pipe functions (PipeRuntime.cpp; builtins/lib/pipe.cl calls them by
// these names): the storage is a lockstep_pipe (PipeAbi.h).
inline constexpr const char *kPipeSymbolPrefix = "__lockstep_pipe_";
int32_t pipeRead(void *storage, void *data, uint32_t size);
int32_t pipeWrite(void *storage, const void *data, uint32_t size);
uint64_t pipeReserve(void *storage, uint32_t count, int32_t write);
int32_t pipeAccess(void *storage, uint64_t id, uint32_t index, void *data, uint32_t size, int32_t write);
void pipeCommit(void *storage, uint64_t id, int32_t write);
uint32_t pipeNumPackets(void *storage);
uint32_t pipeMaxPackets(void *storage);
// Device-side enqueue (DeviceEnqueueLoweringPass, DeviceEnqueueRuntime.cpp):
// the runtime's functions that kernels call, and the attribute that marks a
// block kernel Clang generated for enqueue_kernel.
inline constexpr const char *kEnqueueKernelSymbol = "__lockstep_enqueue_kernel";
inline constexpr const char *kKernelQuerySymbol = "__lockstep_kernel_query";
inline constexpr const char *kBlockKernelAttr = "lockstep-block-kernel";
// The first argument of __lockstep_kernel_query (the get_kernel_* built-in).
enum KernelQuery : int {
  kKernelQueryWorkGroupSize = 0,
  kKernelQueryPreferredMultiple = 1,
  kKernelQuerySubGroupCount = 2,
  kKernelQueryMaxSubGroupSize = 3,
};
// Every device-enqueue function kernels and built-ins call, by name, for the
// JIT to define (the runtime's hooks, reached through trampolines).
struct RuntimeSymbol {
  const char *name;
  void *address;
};
std::span<const RuntimeSymbol> deviceEnqueueSymbols();
// A function device-side enqueue defines for the program: Clang's
// __enqueue_kernel_* and __get_kernel_*_impl (DeviceEnqueueLoweringPass
// replaces their calls) and the runtime's (deviceEnqueueSymbols).
bool isDeviceEnqueueFunction(llvm::StringRef name);
// Whether `kernel` calls enqueue_kernel (Clang's __enqueue_kernel_*),
// directly or through the functions it calls; before
// DeviceEnqueueLoweringPass.
bool enqueuesKernels(const llvm::Function &kernel);
// On work-group functions with such loops: the launcher runs their groups
// through runCheckedGroup.
inline constexpr const char *kStopPollsAttr = "lockstep-stop-polls";
// Metadata on the branch of each bounds check (BoundsCheckVersioningPass
// finds them by it).
inline constexpr const char *kBoundsCheckMetadata = "lockstep.bounds_check";
// A work-group function's alias scope of kernel memory, apart from its
// context (WorkGroup/KernelMemoryScope.cpp); later passes put their own
// accesses of kernel memory in it with scopeAsKernelMemory.
inline constexpr const char *kKernelMemoryMetadata = "lockstep.kernel_memory";
void scopeAsKernelMemory(llvm::Instruction &access);
inline constexpr const char *kBufferMarker = "__lockstep_buffer_argument";
unsigned hostSubGroupSize();
// The host's vector registers, in bits: 32 bits a lane of a sub-group.
inline unsigned hostVectorBits() { return hostSubGroupSize() * 32; }
// The vector of numbers (not of pointers) an instruction computes, or a
// store stores; null if none.
llvm::FixedVectorType *valueVector(const llvm::Instruction &I);
// Whether a vector fills a register of `registerBits` bits (uint16 or
// float16 with AVX-512, float8 with AVX2): such vectors are not split for
// widening across work-items (ScalarizeWorkGroupCodePass, WorkGroupLoops).
bool fillsRegister(const llvm::FixedVectorType &vector, uint64_t registerBits);
// A float multiply, add or subtract, or a multiply-add (llvm.fmuladd,
// llvm.fma): what a row jam counts and a chain is made of.
bool isFloatArithmetic(const llvm::Instruction &I);

// Work-group and sub-group collective functions, by mangled name.
// The ones of the cl_khr_subgroup_* extensions (nonUniform) may be called by
// part of a sub-group: the active work-items are those that reach the call
// together.
struct CollectiveOp {
  enum Kind : uint8_t {
    All, Any, AllEqual, Broadcast, BroadcastFirst, Elect, Ballot, Reduce, ScanExclusive, ScanInclusive,
    Shuffle, ShuffleXor, ShuffleUp, ShuffleDown, Rotate, ClusteredRotate, ClusteredReduce
  } kind;
  enum Arith : uint8_t { None, Add, Min, Max, Mul, And, Or, Xor, LogicalAnd, LogicalOr, LogicalXor } arith = None;
  bool subGroup = false;
  bool isSigned = false;
  bool nonUniform = false;
};
std::optional<CollectiveOp> parseCollective(llvm::StringRef mangled);

// Work-group function argument order (GroupAbi.h).
enum WorkGroupParam : unsigned { kArgBlockParam = 0, kGroupInfoParam = 1, kLocalMemoryParam = 2, kContextParam = 3 };

inline constexpr unsigned kLocalAddressSpace = 3;
inline constexpr uint64_t kLocalMemoryAlignment = 128;

std::string workGroupFunctionName(llvm::StringRef kernel);

// The LLVM type of GroupInfo (GroupAbi.h) and a load of one of its fields
// (`index` selects the dimension of array fields), marked invariant.
llvm::StructType *groupInfoType(llvm::LLVMContext &context);
llvm::Value *loadGroupInfo(llvm::IRBuilderBase &builder, llvm::Value *groupInfo, unsigned field,
                           unsigned index = 0);
uint64_t functionAttrNumber(const llvm::Function &F, llvm::StringRef name);
// A fresh loop id with the same properties, for a copy of a loop (llvm.loop
// ids must be distinct per loop), and `added` besides when it is not null;
// null for null (LoopVersioning.cpp).
llvm::MDNode *copyLoopId(llvm::MDNode *id, llvm::MDNode *added = nullptr);
// The work-item loops WorkGroupLoops made, as -O3 sees them: innermost,
// their accesses marked parallel (LoopVersioning.cpp).
bool isWorkItemLoop(const llvm::Loop *loop);

// A loop copied under a condition (LoopVersioning.cpp): the loop's
// preheader when versionLoop can copy it (one exit block, LCSSA), else null;
// then the copy, which runs instead of the loop when `useCopy` holds.
llvm::BasicBlock *versionablePreheader(llvm::Loop *loop, llvm::LoopInfo &loops, llvm::DominatorTree &dominators);
llvm::Loop *versionLoop(llvm::Loop *loop, llvm::Value *useCopy, llvm::StringRef suffix, llvm::LoopInfo &loops,
                        llvm::DominatorTree &dominators, llvm::ValueToValueMapTy &map);
// The counter of a loop over work-items as WorkGroupLoops made it and -O3
// left it: a header phi `id` from `start` (0, or where a part of a loop
// WorkItemLoopSplitPass split begins), stepped by 1, which the latch, the
// loop's one exit, leaves when the step reaches `count` (a value the loop does
// not change; `==`, or `<` to stay), operand `countOperand` of `exitTest`
// (LoopVersioning.cpp).
struct WorkItemCounter {
  llvm::PHINode *id;
  llvm::ICmpInst *exitTest;
  unsigned countOperand;
  llvm::Value *count, *start;
};
std::optional<WorkItemCounter> workItemCounter(llvm::Loop *loop);

// Gives the loop a fresh id with its properties but the vectorizer's, marked
// already vectorized, and not to unroll when `noUnroll` (LoopVersioning.cpp).
void keepScalar(llvm::Loop *loop, bool noUnroll);

// False, with an error in `log` naming the cycle, if functions of the
// program (before the built-ins are linked) call themselves, directly or
// through others (RecursionCheck.cpp).
bool checkNoRecursion(llvm::Module &M, std::string &log);

// The functions ImageTypeLoweringPass replaces by their argument.
bool isImageAccessor(llvm::StringRef name);
// Asks ImageSpecializationPass to make `kernel` assume `values` (an image
// argument's format, a sampler argument's bits) for `argument`.
void requestSpecialization(llvm::Module &M, llvm::StringRef kernel, unsigned argument,
                           llvm::ArrayRef<uint32_t> values);

// ---- kernel interface ----------------------------------------------------------

// Argument descriptions of every kernel, from Clang's kernel metadata; call
// before KernelWrapperPass (which reads the same layout).
std::vector<KernelDescription> describeKernels(const llvm::Module &M);
// Marks every kernel of `M` kUniformGroupsAttr (`uniform`), or takes the
// mark away (!uniform): the runtime then allows remainder work-groups.
void markUniformWorkGroups(llvm::Module &M, bool uniform);

// ---- frontend -----------------------------------------------------------------

struct FrontendOptions {
  std::vector<std::string> clangArgs;  // validated user options, for cc1
  int languageVersion = 120;           // 100, 110, 120, 200, 300
  bool optDisable = false;
  bool uniformWorkGroupSize = false;
  bool createLibrary = false;          // link only
  bool checkBarriers = false;          // LOCKSTEP_CHECK_BARRIERS
  bool checkBounds = false;            // LOCKSTEP_CHECK_BOUNDS
  // Work-groups are all full: OpenCL C 1.x, or -cl-uniform-work-group-size
  // (marked on each kernel, kUniformGroupsAttr; the runtime reads it from
  // KernelDescription::uniformWorkGroups).
  bool uniformWorkGroups() const { return languageVersion < 200 || uniformWorkGroupSize; }
};

// Parses clBuildProgram/clCompileProgram/clLinkProgram options; nullopt and a
// message in `error` if an option is invalid.
std::optional<FrontendOptions> parseOptions(std::string_view options, bool forLink,
                                            std::string &error);

// OpenCL C source → spir64 LLVM IR (no optimization yet). nullptr on error;
// diagnostics go to `log` in file:line:col form.
std::unique_ptr<llvm::Module> compileSource(llvm::LLVMContext &context, std::string_view source,
                                            const FrontendOptions &options,
                                            std::span<const Header> headers, std::string &log);

// SPIR-V (Spirv/SpirvTranslation.cpp): the translator's path ("" when none
// is installed), what identifies its build (for the kernel cache), and a
// module's words (host byte order, already specialized) as LLVM IR ready
// for the pipeline, or null with the reason in `log`.
std::string spirvTranslatorPath();
std::string spirvTranslatorIdentity();
std::unique_ptr<llvm::Module> translateSpirv(llvm::LLVMContext &context, std::span<const uint32_t> words,
                                             bool uniformWorkGroups, std::string &log);

// ---- back end -------------------------------------------------------------------

// Whether an environment variable is set to something other than "" or "0"
// (LOCKSTEP_CHECK_BARRIERS, LOCKSTEP_CHECK_BOUNDS).
bool environmentFlag(const char *name);
// Records the check modes of `options` as module flags (before
// describeKernels, which lays out the argument block by them).
void addCheckFlags(llvm::Module &M, const FrontendOptions &options);

// Links the builtins into `M` and runs the work-group passes: every kernel
// gets its work-group function.
bool prepareModule(llvm::Module &M, const FrontendOptions &options, std::string &log);
// Calls of the kernels' versions through slots (DeferVersionsPass), with
// what each version does with its parameters; a build that compiles the
// module in parts may then defer the versions (ModuleParts.cpp).
void deferVersionCalls(llvm::Module &M);
// A prepared module compiled for the host: -O3 (or less with
// -cl-opt-disable), then machine code, as one object file or, for a large
// program, several made in parallel.
// What the optimize pipeline found out about one work-group function, read
// back from the attributes its passes set.
struct OptimizedFunction {
  std::string name;
  bool streamingStores = false;                  // kStreamingStoresAttr
  std::vector<uint32_t> combinedAtomicOffsets;  // kCombinedAtomicsAttr
};
// A version of a kernel left for its first call (DeferVersionsPass): the
// version's symbol, its kernel's work-group function and the version's
// module as bitcode, prepared but not optimized.
struct DeferredVersion {
  std::string symbol;
  std::string kernel;
  std::string bitcode;
};
struct MachineCode {
  std::vector<std::string> objects;
  std::vector<OptimizedFunction> functions;  // those with something to say
  std::vector<DeferredVersion> deferred;
};
std::optional<MachineCode> compileModule(llvm::Module &M, const FrontendOptions &options, std::string &log);

// The JIT: code of one program; destroying it frees the code.
class JitProgram {
 public:
  virtual ~JitProgram() = default;
  // The addresses of these symbols, in order; false (and why, in `log`) if
  // one is missing.
  virtual bool lookup(std::span<const std::string> symbols, std::vector<void *> &addresses, std::string &log) = 0;
  // Links one more object file into the program (a deferred version's).
  virtual bool addObject(std::string object, std::string &log) = 0;
};
// Loads a program's object files (compiled now or read from the kernel
// cache) into a new program; the JIT takes the strings over (no copy).
std::unique_ptr<JitProgram> jitObjects(std::vector<std::string> objects, std::string &log);
llvm::TargetMachine &hostTargetMachine();
// Whether `machine` targets AVX-512F: 512-bit vectors and masked vector
// memory accesses in hardware.
bool hasAvx512(const llvm::TargetMachine &machine);

// ---- vector math (VectorMath.cpp) -------------------------------------------

// The vector variants of math functions (glibc's libmvec) that this process
// can call and that are accurate enough for OpenCL C, for the vectorizer's
// target library info; loads libmvec on the first call.
llvm::ArrayRef<llvm::VecDesc> vectorMathMappings();
// Which variants those are, for the kernel cache key.
const std::string &vectorMathIdentity();
// Makes the builtins' calls of those functions' scalar forms (expf, erff)
// plain calls the vectorizer may replace.
void releaseMathCalls(llvm::Module &M);

// ---- kernel cache (KernelCache.cpp) --------------------------------------------

struct CachedProgram {
  std::vector<uint8_t> binary;
  std::vector<KernelDescription> kernels;  // without function pointers
  size_t globalVariableBytes = 0;
  std::vector<std::string> objects;  // machine code
  std::string log;     // the build log (warnings) of the build that made it
  std::vector<DeferredVersion> deferred;
};
// The embedded builtins' hash, computed when they were built (16 hex digits).
std::string_view builtinLibraryHash();
// The key of a build: everything that affects the code (input, options,
// LOCKSTEP_CHECK_BARRIERS, the CPU, LLVM, Lockstep, the builtins, libmvec).
std::string cacheKey(std::string_view kind, std::string_view input, std::string_view options);
std::optional<CachedProgram> loadCachedProgram(const std::string &key);
void storeCachedProgram(const std::string &key, const CachedProgram &program);
// One object file under its own key (a deferred version compiled at its
// first call).
std::optional<std::string> loadCachedObject(const std::string &key);
void storeCachedObject(const std::string &key, std::string_view object);

// ---- deferred versions (LazyVersions.cpp) ----------------------------------------

// The deferred versions of one loaded program: each slot found in its code
// and given its entry, with which resolveVersion compiles the version (or
// reads it from the kernel cache) at its first call and links it into the
// program.
class LazyVersions {
 public:
  LazyVersions();
  ~LazyVersions();
  LazyVersions(const LazyVersions &) = delete;
  LazyVersions &operator=(const LazyVersions &) = delete;
  // False (and why, in `log`) if a slot is missing from `code`. `binary`
  // (the program's, for its options) and `code` must outlive this.
  bool bind(JitProgram &code, const std::vector<DeferredVersion> &versions,
            const std::vector<KernelDescription> &kernels, const std::vector<uint8_t> &binary,
            const std::string &cacheKey, std::string &log);

  struct Entry;  // one version (LazyVersions.cpp)

 private:
  std::vector<std::unique_ptr<Entry>> entries_;
};

}  // namespace lockstep::compiler

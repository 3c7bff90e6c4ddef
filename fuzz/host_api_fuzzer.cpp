// Fuzz target: the host API. The input is read as a program of host API
// calls over a small pool of handles, each call's arguments decoded from
// the bytes that follow its opcode (one byte; see the Op enum). Calls create,
// retain and release contexts, queues, buffers, sub-buffers, images,
// samplers, programs (the tiny kernels below, from a prebuilt binary or
// from source), kernels, user events and command events; query every
// object with random param names and sizes; enqueue reads, writes, copies,
// fills, rectangular transfers, maps and unmaps of buffers and images with
// random offsets, sizes and flags; set kernel arguments to random sizes and
// values; launch the tiny kernels with random work sizes and offsets; pass
// wait lists holding bad, stale and foreign handles; set user event status
// and callbacks; allocate and free shared virtual memory with random flags,
// sizes and alignments, and pass SVM pointers (into the middle of an
// allocation, past its end, or host memory) to the SVM commands, to kernel
// arguments and to buffers made over them.
//
// What it never does: pass host memory shorter than the size it gives (the
// spec lets a driver read or write any host pointer it is handed; the host
// arrays here are larger than any buffer or host region the calls name; an
// SVM range may run past its allocation only where Lockstep can see it, on
// a queue of the allocation's context), free SVM memory that anything may
// still use (only allocations never handed to a call are freed before the
// end; the rest go with the context),
// pass a garbage pointer as the first handle of a call (the ICD loader
// follows it to find the dispatch table; a released handle of Lockstep's is
// fine, its memory stays mapped, runtime/Object.cpp), or block on a user
// event nobody will set. At the end of each input every user event is set,
// every queue finished and every handle released, so LeakSanitizer sees
// anything Lockstep keeps.
// The deprecated entry points are called too (clCreateImage2D,
// clEnqueueMarker, clCreateCommandQueue, clCreateSampler...).
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#include <CL/cl.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "LockstepDevice.h"

namespace {

// The kernels the pool's programs hold. Each writes at most one byte of its
// buffer (the smallest buffer or sub-buffer is one byte) and of its __local
// argument (the smallest is one byte), whatever the arguments and the range.
const char kTinySource[] = R"CLC(
typedef struct { int a; char b; } pair;
kernel void tiny(global uchar *out, local uchar *scratch, uint value) {
  if (get_local_id(0) == 0 && get_local_id(1) == 0 && get_local_id(2) == 0) scratch[0] = (uchar)value;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (out && get_global_id(0) == 0 && get_global_id(1) == 0 && get_global_id(2) == 0)
    out[0] = scratch[0] + 1;
}
kernel void sample(read_only image2d_t image, sampler_t sampler, global uchar *out) {
  float4 v = read_imagef(image, sampler, (float2)(0.5f, 0.5f));
  if (out && get_global_id(0) == 0) out[0] = (uchar)(v.x * 100.0f);
}
kernel void values(constant uchar *c, int3 v, pair p, float f, global uchar *out) {
  if (out && c && get_global_id(0) == 0) out[0] = c[0] + (uchar)(v.x + p.b + (int)f);
}
)CLC";
// Sources a program may be built from besides the prebuilt binary.
const char *const kSources[] = {
    kTinySource,
    "kernel void broken(global int *a) { a[0] = ; }",
    "int helper(int x) { return x + 1; }\n",
    "int helper(int x);\nkernel void calls(global uchar *out) { if (out) out[0] = helper(1); }\n",
};
const char *const kKernelNames[] = {"tiny", "sample", "values", "calls", "missing", ""};

constexpr size_t kHostBytes = 1 << 18;  // larger than any buffer or host region
constexpr size_t kMaxBuffer = 1 << 16;
alignas(4096) unsigned char gHostIn[kHostBytes];   // what writes read
alignas(4096) unsigned char gHostOut[kHostBytes];  // what reads write
alignas(4096) unsigned char gHostUse[kHostBytes];  // CL_MEM_USE_HOST_PTR storage

cl_platform_id gPlatform = nullptr;
cl_device_id gDevice = nullptr;
std::vector<unsigned char> gBinary;  // kTinySource, built
std::atomic<int> gCallbacks{0};

[[noreturn]] void die(const char *what, cl_int code) {
  std::fprintf(stderr, "host_api_fuzzer: %s (%d)\n", what, code);
  std::abort();
}

// Sizes as the harness reasons about them: products saturate far above any
// size it would let through, instead of wrapping.
using Wide = unsigned __int128;
constexpr Wide kHuge = Wide(1) << 100;
Wide mul(Wide a, Wide b) {
  if (a == 0 || b == 0) return 0;
  return a > kHuge / b ? kHuge : a * b;
}
Wide add(Wide a, Wide b) { return std::min(a + b, kHuge); }

// The input, read from the front; zeros once it is used up.
class Bytes {
 public:
  Bytes(const uint8_t *data, size_t size) : p_(data), end_(data + size) {}
  bool empty() const { return p_ == end_; }
  uint8_t u8() { return p_ == end_ ? 0 : *p_++; }
  uint16_t u16() { return uint16_t(u8() | u8() << 8); }
  uint32_t u32() { return uint32_t(u16()) | uint32_t(u16()) << 16; }
  uint64_t u64() { return uint64_t(u32()) | uint64_t(u32()) << 32; }
  bool flag() { return u8() & 1; }
  template <class T, size_t N>
  T pick(const T (&table)[N]) {
    return table[u8() % N];
  }
  void fill(void *out, size_t n) {
    auto *bytes = static_cast<unsigned char *>(out);
    for (size_t i = 0; i < n; ++i) bytes[i] = u8();
  }

 private:
  const uint8_t *p_;
  const uint8_t *end_;
};

enum Kind { kContext, kQueue, kMem, kSampler, kProgram, kKernel, kEvent, kKinds };

// Every handle an input has seen, live or released, keyed by address: a
// released object's memory is reused by the next object of its size, so two
// handles of the input may be one address, and what the harness holds is
// counted per address.
struct Handle {
  Kind kind;
  void *object;
  int refs;              // references the harness holds
  bool userEvent = false;
  bool userStatusSet = false;
  size_t size = 0;       // buffers: their size; images: 0
  bool image = false;
};

struct Mapping {
  cl_mem mem;
  void *pointer;
};

// An SVM allocation of the harness's context, which lives until the end.
struct SvmBlock {
  char *base;
  size_t size;
  bool used = false;  // handed to a call: may be in use until the end
};

void CL_CALLBACK countSvmFree(cl_command_queue, cl_uint, void **, void *) { gCallbacks.fetch_add(1); }

class Harness {
 public:
  explicit Harness(Bytes &in) : in_(in) {}
  void run();

 private:
  // --- the pool ---
  Handle *find(Kind kind, void *object) {
    for (Handle &h : handles_)
      if (h.object == object && h.kind == kind) return &h;
    return nullptr;
  }
  Handle &track(Kind kind, void *object) {
    if (Handle *h = find(kind, object)) {
      *h = Handle{kind, object, 1};
      return *h;
    }
    handles_.push_back(Handle{kind, object, 1});
    return handles_.back();
  }
  // A handle of `kind`: live or released, or sometimes one of another kind or
  // null. `first`: the call's first handle, which the loader follows, so
  // never a pointer that is no object.
  void *pick(Kind kind, bool first = false) {
    uint8_t choice = in_.u8();
    if (choice < 8) return nullptr;
    if (choice < 16 && !handles_.empty()) return handles_[in_.u8() % handles_.size()].object;
    if (choice < 20 && !first) {
      // Not an object at all.
      static unsigned char notAnObject[64];
      return choice < 18 ? static_cast<void *>(notAnObject + (choice & 1) * 8)
                         : reinterpret_cast<void *>(uintptr_t(in_.u64()));
    }
    std::vector<Handle *> ofKind;
    for (Handle &h : handles_)
      if (h.kind == kind) ofKind.push_back(&h);
    if (ofKind.empty()) return nullptr;
    // Mostly live ones.
    std::vector<Handle *> live;
    for (Handle *h : ofKind)
      if (h->refs > 0) live.push_back(h);
    if (!live.empty() && choice >= 64) return live[in_.u8() % live.size()]->object;
    return ofKind[in_.u8() % ofKind.size()]->object;
  }
  template <class T>
  T pickAs(Kind kind, bool first = false) {
    return static_cast<T>(pick(kind, first));
  }
  cl_context anyContext() { return context_; }
  bool unsetUserEvents() const {
    for (const Handle &h : handles_)
      if (h.userEvent && !h.userStatusSet) return true;
    return false;
  }
  // A blocking flag: never blocks while a user event is unset (the command
  // might wait for it forever).
  cl_bool blocking() { return in_.flag() && !unsetUserEvents() ? CL_TRUE : CL_FALSE; }

  // A wait list: its events (bad, stale, foreign ones included) and count,
  // sometimes inconsistent.
  struct WaitList {
    std::vector<cl_event> events;
    cl_uint count = 0;
    const cl_event *list() const { return events.empty() ? nullptr : events.data(); }
  };
  WaitList waitList() {
    WaitList w;
    uint8_t shape = in_.u8();
    size_t n = shape % 4 == 0 ? (shape >> 2) % 4 : 0;
    for (size_t i = 0; i < n; ++i) w.events.push_back(pickAs<cl_event>(kEvent));
    w.count = static_cast<cl_uint>(n);
    if (shape == 0xff) w.count = 1;                    // a count with no list
    if (shape == 0xfe && !w.events.empty()) w.count = 0;  // a list with no count
    return w;
  }
  // Where a command's event goes, if anywhere.
  cl_event *eventOut() {
    event_ = nullptr;
    return in_.u8() % 3 == 0 ? nullptr : &event_;
  }
  void keepEvent(cl_int err, cl_event *out) {
    if (err == CL_SUCCESS && out && event_) track(kEvent, event_);
  }
  size_t sizeValue() {
    static const size_t kSizes[] = {0,  1,   2,    3,    4,     7,     8,         15,
                                    16, 64,  100,  128,  256,   1024,  4096,      kMaxBuffer - 1,
                                    kMaxBuffer, kMaxBuffer + 1, SIZE_MAX, SIZE_MAX / 2 + 1};
    uint8_t choice = in_.u8();
    if (choice < 200) return kSizes[choice % (sizeof kSizes / sizeof kSizes[0])];
    return in_.u16();
  }
  // A size that a host array of kHostBytes covers (host memory is always
  // valid for the size passed).
  size_t hostSize() {
    size_t size = sizeValue();
    return size > kHostBytes ? kHostBytes : size;
  }
  size_t offsetValue() {
    static const size_t kOffsets[] = {0, 1, 2, 4, 8, 16, 64, 127, 128, 1000, 4096, kMaxBuffer, SIZE_MAX};
    return in_.pick(kOffsets);
  }

  // --- the calls ---
  void createBuffer();
  void createSubBuffer();
  void createImage();
  void createSampler();
  void createQueue();
  void createUserEvent();
  void createProgram();
  void createKernel();
  void retain();
  void release();
  void releaseOne(Handle &h, void *object);
  void query();
  void setKernelArg();
  void setKernelArgsValid();
  void launch();
  void readWrite();
  void copyFill();
  void rect();
  void mapUnmap();
  void imageCommand();
  void markers();
  void userEvents();
  void flushFinishWait();
  void svmAllocFree();
  void svmCommand();
  void svmKernelAndBuffer();
  // A pointer for an SVM call and the bytes it may reach: into one of the
  // harness's allocations (marked used), one of the host arrays, or NULL.
  struct SvmPointer {
    char *pointer;
    size_t room;
    bool inAllocation;
  };
  SvmPointer svmPointer(bool written);
  // The size an SVM command is given from `p`: anything on a queue of the
  // harness's context (Lockstep refuses what runs past an allocation),
  // else no more than the memory there.
  size_t svmSize(const SvmPointer &p, bool queueOfOwnContext);
  bool queueOfOwnContext(cl_command_queue queue) {
    cl_context context = nullptr;
    return clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof context, &context, nullptr) ==
               CL_SUCCESS &&
           context == context_;
  }
  void misc();
  void cleanUp();

  // The first live handle of a kind matching `test`, or null.
  template <class F>
  void *firstLive(Kind kind, F &&test) {
    for (Handle &h : handles_)
      if (h.kind == kind && h.refs > 0 && test(h)) return h.object;
    return nullptr;
  }

  Bytes &in_;
  cl_context context_ = nullptr;
  std::vector<Handle> handles_;
  std::vector<Mapping> mappings_;
  std::vector<SvmBlock> svm_;
  cl_event event_ = nullptr;
};

void CL_CALLBACK countEvent(cl_event, cl_int, void *) { gCallbacks.fetch_add(1); }
void CL_CALLBACK countMem(cl_mem, void *) { gCallbacks.fetch_add(1); }
void CL_CALLBACK countContext(cl_context, void *) { gCallbacks.fetch_add(1); }
void CL_CALLBACK contextNotify(const char *, const void *, size_t, void *) {}

void Harness::createBuffer() {
  static const cl_mem_flags kFlags[] = {
      CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_USE_HOST_PTR,
      CL_MEM_COPY_HOST_PTR, CL_MEM_ALLOC_HOST_PTR, CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY,
      CL_MEM_HOST_NO_ACCESS, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, CL_MEM_KERNEL_READ_AND_WRITE,
      CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS};
  cl_mem_flags flags = in_.pick(kFlags);
  if (in_.u8() < 64) flags |= in_.pick(kFlags);
  if (in_.u8() < 8) flags = in_.u64();
  size_t size = sizeValue();
  // Host memory: always enough for `size` when given (buffers never exceed
  // kMaxBuffer, and larger sizes are refused before the copy).
  void *host = nullptr;
  if ((flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) ? in_.u8() >= 16 : in_.u8() < 16)
    host = (flags & CL_MEM_COPY_HOST_PTR) ? static_cast<void *>(gHostIn) : static_cast<void *>(gHostUse + (in_.u8() & 0xf0));
  cl_int err;
  cl_mem mem;
  cl_context context = pickAs<cl_context>(kContext, true);
  if (in_.flag()) {
    cl_mem_properties properties[3] = {0, 0, 0};
    if (in_.u8() < 32) {
      properties[0] = in_.u32();
      properties[1] = in_.u32();
    }
    mem = clCreateBufferWithProperties(context, in_.flag() ? properties : nullptr, flags, size,
                                       host, &err);
  } else {
    mem = clCreateBuffer(context, flags, size, host, &err);
  }
  if (mem) {
    // The harness's host arrays back any buffer it asks for; a larger one
    // was never meant to be valid.
    if (size > kHostBytes / 2) die("a buffer of an invalid size was created", CL_SUCCESS);
    track(kMem, mem).size = size;
  }
}

void Harness::createSubBuffer() {
  cl_mem parent = pickAs<cl_mem>(kMem, true);
  static const cl_mem_flags kFlags[] = {0, CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY,
                                        CL_MEM_HOST_NO_ACCESS, CL_MEM_USE_HOST_PTR,
                                        CL_MEM_HOST_READ_ONLY};
  cl_mem_flags flags = in_.pick(kFlags);
  cl_buffer_region region{offsetValue(), sizeValue()};
  cl_buffer_create_type type = in_.u8() < 240 ? CL_BUFFER_CREATE_TYPE_REGION : in_.u32();
  cl_int err;
  cl_mem mem = clCreateSubBuffer(parent, flags, type, in_.u8() < 8 ? nullptr : &region, &err);
  if (mem) track(kMem, mem).size = region.size;
}

void Harness::createImage() {
  static const cl_channel_order kOrders[] = {
      CL_R, CL_A, CL_RG, CL_RA, CL_RGB, CL_RGBA, CL_BGRA, CL_ARGB, CL_INTENSITY, CL_LUMINANCE,
      CL_Rx, CL_RGx, CL_RGBx, CL_DEPTH, CL_sRGBA, CL_sBGRA, CL_ABGR, 0x10DF /* none */};
  static const cl_channel_type kTypes[] = {
      CL_SNORM_INT8, CL_SNORM_INT16, CL_UNORM_INT8, CL_UNORM_INT16, CL_UNORM_SHORT_565,
      CL_UNORM_SHORT_555, CL_UNORM_INT_101010, CL_SIGNED_INT8, CL_SIGNED_INT16, CL_SIGNED_INT32,
      CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT, CL_FLOAT,
      CL_UNORM_INT24, 0x10E0 /* none */};
  static const cl_mem_object_type kImageTypes[] = {
      CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE1D,
      CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D_ARRAY,
      CL_MEM_OBJECT_IMAGE3D, CL_MEM_OBJECT_BUFFER, CL_MEM_OBJECT_PIPE};
  static const size_t kDims[] = {0, 1, 2, 3, 4, 5, 8, 16, 17, 33, 1 << 20, SIZE_MAX};
  static const size_t kPitches[] = {0, 0, 0, 1, 3, 16, 64, 100, 256, 1024, SIZE_MAX};
  static const cl_mem_flags kFlags[] = {CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY,
                                        CL_MEM_USE_HOST_PTR, CL_MEM_COPY_HOST_PTR,
                                        CL_MEM_HOST_NO_ACCESS, CL_MEM_KERNEL_READ_AND_WRITE,
                                        CL_MEM_ALLOC_HOST_PTR};
  cl_image_format format{in_.pick(kOrders), in_.pick(kTypes)};
  cl_image_desc desc{};
  desc.image_type = in_.pick(kImageTypes);
  desc.image_width = in_.pick(kDims);
  desc.image_height = in_.pick(kDims);
  desc.image_depth = in_.pick(kDims);
  desc.image_array_size = in_.pick(kDims);
  desc.image_row_pitch = in_.pick(kPitches);
  desc.image_slice_pitch = in_.pick(kPitches);
  desc.num_mip_levels = in_.u8() < 8 ? 1 : 0;
  desc.num_samples = in_.u8() < 8 ? 1 : 0;
  if (in_.u8() < 48) desc.mem_object = pickAs<cl_mem>(kMem);
  cl_mem_flags flags = in_.pick(kFlags);
  if (in_.u8() < 32) flags |= in_.pick(kFlags);
  // Host memory must cover what the descriptor names, as far as the image
  // is small enough to be created at all: the widest texel (16 bytes) at the
  // larger of the pitch given and the tight pitch.
  auto dims = [&](size_t d) { return d == 0 ? 1 : d; };
  Wide width = dims(desc.image_width), height = dims(desc.image_height),
       depth = dims(desc.image_depth), layers = dims(desc.image_array_size);
  Wide row = std::max<Wide>(mul(width, 16), desc.image_row_pitch);
  Wide slice = std::max<Wide>(mul(row, height), desc.image_slice_pitch);
  Wide total = mul(mul(slice, depth), layers);
  // Leave out what would be huge but valid: an image the harness's host
  // memory could not back, or one that would take much of the machine's
  // memory. Absurd sizes (past any limit) stay: they must be refused.
  bool tooBig = total > Wide(64 << 20);
  bool absurd = width >= (1ull << 40) || height >= (1ull << 40) || depth >= (1ull << 40) ||
                layers >= (1ull << 40) || row >= (Wide(1) << 60);
  if (tooBig && !absurd) return;
  void *host = nullptr;
  if (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) {
    if (total > kHostBytes && !absurd) return;
    host = (flags & CL_MEM_USE_HOST_PTR) ? gHostUse : gHostIn;
  }
  cl_int err;
  cl_mem mem;
  cl_context context = pickAs<cl_context>(kContext, true);
  bool pipe = false;
  switch (in_.u8() % 5) {
    case 4: {
      // A pipe instead (a memory object no host command takes): flags,
      // packet size, count and properties as fuzzed, most of them refused.
      // At most 64 MiB are ever allocated; the absurd count comes with a
      // packet size that makes the pipe too large to allocate.
      static const cl_uint kPacketSizes[] = {0, 1, 4, 64, 1024, (1u << 20) + 1};
      static const cl_uint kCounts[] = {0, 1, 16, 1000, 65536};
      cl_uint packetSize = in_.pick(kPacketSizes), count = in_.pick(kCounts);
      if (in_.u8() < 8) packetSize = 1024, count = 0xffffffffu;
      const cl_pipe_properties empty[] = {0}, unknown[] = {0x1234, 1, 0};
      const cl_pipe_properties *properties = in_.flag() ? nullptr : in_.flag() ? empty : unknown;
      mem = clCreatePipe(context, flags, packetSize, count, properties, &err);
      pipe = true;
      break;
    }
    case 0:
      mem = clCreateImage2D(context, flags, &format, desc.image_width, desc.image_height,
                            desc.image_row_pitch, host, &err);
      break;
    case 1:
      mem = clCreateImage3D(context, flags, &format, desc.image_width, desc.image_height,
                            desc.image_depth, desc.image_row_pitch, desc.image_slice_pitch, host,
                            &err);
      break;
    case 2: {
      cl_mem_properties properties[] = {0};
      mem = clCreateImageWithProperties(context, properties, flags, &format, &desc, host, &err);
      break;
    }
    default:
      mem = clCreateImage(context, flags, in_.u8() < 8 ? nullptr : &format,
                          in_.u8() < 8 ? nullptr : &desc, host, &err);
      break;
  }
  if (mem) track(kMem, mem).image = !pipe;
}

void Harness::createSampler() {
  static const cl_addressing_mode kAddressing[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE,
                                                   CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT,
                                                   CL_ADDRESS_MIRRORED_REPEAT, 0x1135};
  static const cl_filter_mode kFilters[] = {CL_FILTER_NEAREST, CL_FILTER_LINEAR, 0x1142};
  cl_int err;
  cl_sampler sampler;
  cl_context context = pickAs<cl_context>(kContext, true);
  if (in_.flag()) {
    cl_bool normalized = in_.u8() < 240 ? in_.flag() : in_.u8();
    sampler = clCreateSampler(context, normalized, in_.pick(kAddressing), in_.pick(kFilters), &err);
  } else {
    static const cl_sampler_properties kNames[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                                   CL_SAMPLER_ADDRESSING_MODE,
                                                   CL_SAMPLER_FILTER_MODE, 0x1234};
    cl_sampler_properties properties[9] = {};
    size_t n = in_.u8() % 4;
    for (size_t i = 0; i < n; ++i) {
      cl_sampler_properties name = in_.pick(kNames);
      properties[2 * i] = name;
      properties[2 * i + 1] = name == CL_SAMPLER_ADDRESSING_MODE ? in_.pick(kAddressing)
                              : name == CL_SAMPLER_FILTER_MODE  ? in_.pick(kFilters)
                                                                : in_.u8() % 3;
    }
    sampler = clCreateSamplerWithProperties(context, in_.u8() < 16 ? nullptr : properties, &err);
  }
  if (sampler) track(kSampler, sampler);
}

void Harness::createQueue() {
  static const cl_command_queue_properties kFlags[] = {
      0, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, CL_QUEUE_PROFILING_ENABLE,
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, CL_QUEUE_ON_DEVICE,
      CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 1 << 7};
  cl_int err;
  cl_command_queue queue;
  cl_context context = pickAs<cl_context>(kContext, true);
  cl_device_id device = in_.u8() < 8 ? nullptr : gDevice;
  if (in_.flag()) {
    queue = clCreateCommandQueue(context, device, in_.pick(kFlags), &err);
  } else {
    cl_queue_properties properties[7] = {};
    size_t n = in_.u8() % 3;
    for (size_t i = 0; i < n; ++i) {
      uint8_t which = in_.u8() % 4;
      properties[2 * i] = which == 0 ? CL_QUEUE_PROPERTIES : which == 1 ? CL_QUEUE_SIZE
                          : which == 2 ? CL_QUEUE_PROPERTIES
                                       : in_.u32();
      properties[2 * i + 1] = which == 1 ? in_.u32() : in_.pick(kFlags);
    }
    queue = clCreateCommandQueueWithProperties(context, device,
                                               in_.u8() < 32 ? nullptr : properties, &err);
  }
  if (queue) track(kQueue, queue);
}

void Harness::createUserEvent() {
  cl_int err;
  cl_event event = clCreateUserEvent(pickAs<cl_context>(kContext, true), &err);
  if (event) track(kEvent, event).userEvent = true;
}

void Harness::createProgram() {
  cl_int err;
  cl_program program = nullptr;
  cl_context context = pickAs<cl_context>(kContext, true);
  uint8_t how = in_.u8() % 8;
  if (how < 4) {
    // The prebuilt binary (what most inputs use: fast).
    const unsigned char *binary = gBinary.data();
    size_t length = gBinary.size();
    std::vector<unsigned char> damaged;
    if (how == 3) {
      // A damaged copy: one byte changed, or cut short.
      damaged = gBinary;
      size_t at = in_.u32() % damaged.size();
      if (in_.flag())
        damaged[at] ^= uint8_t(1u << (in_.u8() % 8));
      else
        damaged.resize(at);
      binary = damaged.data();
      length = damaged.size();
    }
    cl_int status;
    cl_device_id device = gDevice;
    program = clCreateProgramWithBinary(context, 1, &device, &length, &binary, &status, &err);
    if (program) {
      track(kProgram, program);
      if (in_.u8() < 240) clBuildProgram(program, 0, nullptr, in_.flag() ? "" : "-cl-fast-relaxed-math", nullptr, nullptr);
    }
    return;
  }
  const char *source = in_.pick(kSources);
  program = clCreateProgramWithSource(context, 1, &source, nullptr, &err);
  if (!program) return;
  track(kProgram, program);
  static const char *const kOptions[] = {"", "-cl-std=CL3.0", "-cl-std=CL1.2 -Werror",
                                         "-create-library", "-cl-no-such-option"};
  const char *options = in_.pick(kOptions);
  if (how < 6) {
    clBuildProgram(program, in_.u8() < 8 ? 0 : 1, &gDevice, options, nullptr, nullptr);
  } else if (how == 6) {
    clCompileProgram(program, 0, nullptr, options, 0, nullptr, nullptr, nullptr, nullptr);
  } else {
    // Link whatever programs the pool has (compiled or not).
    std::vector<cl_program> inputs;
    size_t n = 1 + in_.u8() % 3;
    for (size_t i = 0; i < n; ++i) inputs.push_back(pickAs<cl_program>(kProgram));
    cl_program linked = clLinkProgram(context, 0, nullptr, in_.pick(kOptions),
                                      static_cast<cl_uint>(inputs.size()), inputs.data(), nullptr,
                                      nullptr, &err);
    if (linked) track(kProgram, linked);
  }
}

void Harness::createKernel() {
  cl_int err;
  cl_program program = pickAs<cl_program>(kProgram, true);
  switch (in_.u8() % 4) {
    case 0: {
      cl_uint count = 0;
      if (clCreateKernelsInProgram(program, 0, nullptr, &count) != CL_SUCCESS) return;
      cl_uint room = in_.flag() ? count : in_.u8() % 4;
      std::vector<cl_kernel> kernels(std::max<cl_uint>(room, 1), nullptr);
      cl_uint made = 0;
      if (clCreateKernelsInProgram(program, room, kernels.data(), &made) == CL_SUCCESS)
        for (cl_uint i = 0; i < made; ++i) track(kKernel, kernels[i]);
      return;
    }
    case 1: {
      cl_kernel clone = clCloneKernel(pickAs<cl_kernel>(kKernel, true), &err);
      if (clone) track(kKernel, clone);
      return;
    }
    default: {
      const char *name = in_.u8() < 8 ? nullptr : in_.pick(kKernelNames);
      cl_kernel kernel = clCreateKernel(program, name, &err);
      if (kernel) track(kKernel, kernel);
    }
  }
}

void Harness::retain() {
  void *object = pick(Kind(in_.u8() % kKinds), true);
  if (!object) return;
  Kind kind = Kind(in_.u8() % kKinds);
  cl_int err = CL_INVALID_VALUE;
  switch (kind) {
    case kContext: err = clRetainContext(static_cast<cl_context>(object)); break;
    case kQueue: err = clRetainCommandQueue(static_cast<cl_command_queue>(object)); break;
    case kMem: err = clRetainMemObject(static_cast<cl_mem>(object)); break;
    case kSampler: err = clRetainSampler(static_cast<cl_sampler>(object)); break;
    case kProgram: err = clRetainProgram(static_cast<cl_program>(object)); break;
    case kKernel: err = clRetainKernel(static_cast<cl_kernel>(object)); break;
    case kEvent: err = clRetainEvent(static_cast<cl_event>(object)); break;
    default: break;
  }
  if (err == CL_SUCCESS) {
    Handle *h = find(kind, object);
    if (!h) die("a retain succeeded on a handle of another kind", err);
    if (h->refs <= 0) die("a retain succeeded on a released handle", err);
    ++h->refs;
  }
}

// Finishes a queue the harness made; a device queue (CL_QUEUE_ON_DEVICE)
// takes no host commands and refuses clFinish (CL_INVALID_COMMAND_QUEUE),
// with nothing of the host's to wait for.
void finishQueue(cl_command_queue queue) {
  cl_command_queue_properties properties = 0;
  if (clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof properties, &properties, nullptr) != CL_SUCCESS)
    die("clGetCommandQueueInfo on a live queue", 0);
  cl_int expected = (properties & CL_QUEUE_ON_DEVICE) ? CL_INVALID_COMMAND_QUEUE : CL_SUCCESS;
  if (clFinish(queue) != expected) die("clFinish", 0);
}

// Drops one of the harness's references to `h` (whose object is `object`):
// the last one of an unset user event sets it first (nothing could set it
// after), the last one of a queue finishes it first (no work outlives the
// input), or keeps it when it cannot finish yet.
void Harness::releaseOne(Handle &h, void *object) {
  if (h.refs == 1 && h.userEvent && !h.userStatusSet) {
    if (clSetUserEventStatus(static_cast<cl_event>(object), CL_COMPLETE) != CL_SUCCESS)
      die("clSetUserEventStatus on a live user event", 0);
    h.userStatusSet = true;
  }
  if (h.refs == 1 && h.kind == kQueue) {
    if (unsetUserEvents()) return;
    finishQueue(static_cast<cl_command_queue>(object));
  }
  cl_int err = CL_SUCCESS;
  switch (h.kind) {
    case kContext: err = clReleaseContext(static_cast<cl_context>(object)); break;
    case kQueue: err = clReleaseCommandQueue(static_cast<cl_command_queue>(object)); break;
    case kMem: err = clReleaseMemObject(static_cast<cl_mem>(object)); break;
    case kSampler: err = clReleaseSampler(static_cast<cl_sampler>(object)); break;
    case kProgram: err = clReleaseProgram(static_cast<cl_program>(object)); break;
    case kKernel: err = clReleaseKernel(static_cast<cl_kernel>(object)); break;
    case kEvent: err = clReleaseEvent(static_cast<cl_event>(object)); break;
    default: break;
  }
  if (err != CL_SUCCESS) die("releasing a handle the harness holds failed", err);
  --h.refs;
}

void Harness::release() {
  Kind kind = Kind(in_.u8() % kKinds);
  void *object = pick(kind, true);
  if (!object) return;
  // The context the harness made stays until the end.
  if (object == context_ && kind == kContext) {
    Handle *h = find(kContext, object);
    if (h && h->refs == 1) return;
  }
  Handle *h = find(kind, object);
  if (h && h->refs > 0) {
    releaseOne(*h, object);
    return;
  }
  // Released, of another kind, or no object: must fail.
  cl_int err = CL_SUCCESS;
  switch (kind) {
    case kContext: err = clReleaseContext(static_cast<cl_context>(object)); break;
    case kQueue: err = clReleaseCommandQueue(static_cast<cl_command_queue>(object)); break;
    case kMem: err = clReleaseMemObject(static_cast<cl_mem>(object)); break;
    case kSampler: err = clReleaseSampler(static_cast<cl_sampler>(object)); break;
    case kProgram: err = clReleaseProgram(static_cast<cl_program>(object)); break;
    case kKernel: err = clReleaseKernel(static_cast<cl_kernel>(object)); break;
    case kEvent: err = clReleaseEvent(static_cast<cl_event>(object)); break;
    default: break;
  }
  // A handle of another kind at the address of one the harness holds (the
  // arena reused it) releases nothing of ours: the tag says so.
  if (err == CL_SUCCESS) die("a release succeeded on a handle the harness does not hold", err);
}

void Harness::query() {
  static const size_t kSizes[] = {0, 1, 2, 4, 8, 16, 24, 32, 64, 256, 4096};
  size_t size = in_.pick(kSizes);
  std::vector<unsigned char> value(size ? size : 1);
  bool giveValue = in_.u8() >= 32, giveSizeRet = in_.u8() >= 32;
  size_t sizeRet = SIZE_MAX;
  void *out = giveValue ? value.data() : nullptr;
  size_t *ret = giveSizeRet ? &sizeRet : nullptr;
  uint8_t which = in_.u8() % 14;
  cl_uint name = in_.u8() < 200 ? 0 : in_.u32();
  auto named = [&](cl_uint base, cl_uint count) { return name ? name : base + in_.u8() % count; };
  cl_int err = CL_SUCCESS;
  switch (which) {
    case 0:
      err = clGetPlatformInfo(in_.u8() < 16 ? nullptr : gPlatform, named(0x0900, 12), size, out, ret);
      break;
    case 1:
      err = clGetDeviceInfo(gDevice, named(0x1000, 0x90), size, out, ret);
      break;
    case 2:
      err = clGetContextInfo(pickAs<cl_context>(kContext, true), named(0x1080, 6), size, out, ret);
      break;
    case 3:
      err = clGetCommandQueueInfo(pickAs<cl_command_queue>(kQueue, true), named(0x1090, 10), size,
                                  out, ret);
      break;
    case 4:
      err = clGetMemObjectInfo(pickAs<cl_mem>(kMem, true), named(0x1100, 12), size, out, ret);
      break;
    case 5:
      err = clGetImageInfo(pickAs<cl_mem>(kMem, true), named(0x1110, 12), size, out, ret);
      break;
    case 6:
      err = clGetSamplerInfo(pickAs<cl_sampler>(kSampler, true), named(0x1150, 8), size, out, ret);
      break;
    case 7: {
      cl_program program = pickAs<cl_program>(kProgram, true);
      cl_uint param = named(0x1160, 14);
      // CL_PROGRAM_BINARIES writes through the pointers param_value holds:
      // give it room for the binary, or null pointers.
      std::vector<unsigned char> binary;
      if (param == CL_PROGRAM_BINARIES && out) {
        size_t binarySize = 0;
        if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof binarySize, &binarySize,
                             nullptr) != CL_SUCCESS)
          binarySize = 0;
        binary.resize(binarySize + 1);
        unsigned char *target = in_.u8() < 32 ? nullptr : binary.data();
        for (size_t i = 0; i + sizeof target <= value.size(); i += sizeof target)
          std::memcpy(value.data() + i, &target, sizeof target);
      }
      err = clGetProgramInfo(program, param, size, out, ret);
      break;
    }
    case 8:
      err = clGetProgramBuildInfo(pickAs<cl_program>(kProgram, true),
                                  in_.u8() < 16 ? nullptr : gDevice, named(0x1181, 5), size, out,
                                  ret);
      break;
    case 9:
      err = clGetKernelInfo(pickAs<cl_kernel>(kKernel, true), named(0x1190, 7), size, out, ret);
      break;
    case 10:
      err = clGetKernelWorkGroupInfo(pickAs<cl_kernel>(kKernel, true),
                                     in_.u8() < 32 ? nullptr : gDevice, named(0x11B0, 7), size,
                                     out, ret);
      break;
    case 11:
      err = clGetKernelArgInfo(pickAs<cl_kernel>(kKernel, true), in_.u8() % 6, named(0x1196, 5),
                               size, out, ret);
      break;
    case 12:
      if (in_.flag())
        err = clGetEventInfo(pickAs<cl_event>(kEvent, true), named(0x11D0, 6), size, out, ret);
      else
        err = clGetEventProfilingInfo(pickAs<cl_event>(kEvent, true), named(0x1280, 5), size, out,
                                      ret);
      break;
    default: {
      std::vector<unsigned char> input(in_.pick(kSizes) + 1);
      in_.fill(input.data(), input.size());
      err = clGetKernelSubGroupInfo(pickAs<cl_kernel>(kKernel, true),
                                    in_.u8() < 32 ? nullptr : gDevice, named(0x2033, 6),
                                    input.size() - 1, in_.u8() < 16 ? nullptr : input.data(), size,
                                    out, ret);
      break;
    }
  }
  // The size reported never exceeds the room given.
  if (err == CL_SUCCESS && out && ret && sizeRet > size)
    die("an info query reported more bytes than it was given room for", err);
}

void Harness::setKernelArg() {
  cl_kernel kernel = pickAs<cl_kernel>(kKernel, true);
  cl_uint index = in_.u8() % 6;
  static const size_t kSizes[] = {0, 1, 2, 4, 8, 12, 16, 32, 64, sizeof(cl_mem)};
  size_t size = in_.pick(kSizes);
  alignas(16) unsigned char value[64] = {};
  switch (in_.u8() % 4) {
    case 0: {
      void *handle = pick(kMem);
      std::memcpy(value, &handle, sizeof handle);
      break;
    }
    case 1: {
      void *handle = pick(kSampler);
      std::memcpy(value, &handle, sizeof handle);
      break;
    }
    default:
      in_.fill(value, 16);
  }
  clSetKernelArg(kernel, index, size, in_.u8() < 32 ? nullptr : value);
}

// Sets every argument of a kernel to a value its kind takes, from the live
// pool, so launches get past CL_INVALID_KERNEL_ARGS often.
void Harness::setKernelArgsValid() {
  cl_kernel kernel = pickAs<cl_kernel>(kKernel, true);
  cl_uint count = 0;
  if (clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof count, &count, nullptr) != CL_SUCCESS)
    return;
  for (cl_uint i = 0; i < count; ++i) {
    cl_kernel_arg_address_qualifier address = 0;
    char type[64] = {};
    clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof address, &address,
                       nullptr);
    clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type - 1, type, nullptr);
    if (address == CL_KERNEL_ARG_ADDRESS_LOCAL) {
      clSetKernelArg(kernel, i, 1 + in_.u8() % 64, nullptr);
    } else if (address == CL_KERNEL_ARG_ADDRESS_GLOBAL || address == CL_KERNEL_ARG_ADDRESS_CONSTANT) {
      cl_mem mem = static_cast<cl_mem>(
          in_.u8() < 16 ? nullptr : firstLive(kMem, [&](Handle &h) { return !h.image && (in_.u8() & 3); }));
      clSetKernelArg(kernel, i, sizeof mem, &mem);
    } else if (std::strstr(type, "image")) {
      cl_mem mem = static_cast<cl_mem>(firstLive(kMem, [&](Handle &h) { return h.image && (in_.u8() & 3); }));
      clSetKernelArg(kernel, i, sizeof mem, &mem);
    } else if (std::strstr(type, "sampler")) {
      cl_sampler sampler = static_cast<cl_sampler>(firstLive(kSampler, [](Handle &) { return true; }));
      clSetKernelArg(kernel, i, sizeof sampler, &sampler);
    } else {
      alignas(16) unsigned char value[64];
      in_.fill(value, sizeof value);
      // The size the type takes: try them all (the wrong ones fail).
      for (size_t size : {1, 2, 4, 8, 16, 32, 64})
        if (clSetKernelArg(kernel, i, size, value) == CL_SUCCESS) break;
    }
  }
}

void Harness::launch() {
  cl_command_queue queue = pickAs<cl_command_queue>(kQueue, true);
  cl_kernel kernel = pickAs<cl_kernel>(kKernel);
  static const size_t kGlobal[] = {0, 1, 1, 2, 3, 4, 7, 8, 16, 33, 64, 100, 256, 1000, 4096,
                                   size_t(1) << 32, SIZE_MAX, SIZE_MAX / 2 + 1};
  static const size_t kLocal[] = {0, 1, 1, 2, 3, 4, 8, 16, 32, 64, 128, 1024, 4097, SIZE_MAX};
  static const size_t kOffset[] = {0, 0, 0, 1, 5, 1000, SIZE_MAX, SIZE_MAX - 3};
  size_t global[3], local[3], offset[3];
  for (int d = 0; d < 3; ++d) {
    global[d] = in_.pick(kGlobal);
    local[d] = in_.pick(kLocal);
    offset[d] = in_.pick(kOffset);
  }
  cl_uint dims = in_.u8() % 5;
  // The range may be refused, but if it is valid it must be small enough to
  // run quickly: at most 2^16 work-items unless the count overflows 64 bits
  // (then it must be refused).
  Wide items = 1;
  for (cl_uint d = 0; d < std::min<cl_uint>(dims, 3); ++d) items = mul(items, global[d]);
  if (items > (1u << 16) && items <= UINT64_MAX)
    for (int d = 0; d < 3; ++d) global[d] = std::min<size_t>(global[d], 32);
  WaitList w = waitList();
  cl_event *out = eventOut();
  cl_int err;
  if (in_.u8() < 16) {
    err = clEnqueueTask(queue, kernel, w.count, w.list(), out);
  } else {
    err = clEnqueueNDRangeKernel(queue, kernel, dims, in_.u8() < 64 ? offset : nullptr,
                                 in_.u8() < 8 ? nullptr : global,
                                 in_.u8() < 64 ? nullptr : local, w.count, w.list(), out);
  }
  keepEvent(err, out);
}

void Harness::readWrite() {
  cl_command_queue queue = pickAs<cl_command_queue>(kQueue, true);
  cl_mem mem = pickAs<cl_mem>(kMem);
  size_t offset = offsetValue(), size = hostSize();
  size_t hostOffset = in_.u8() < 200 ? 0 : in_.u16() % 256;
  if (hostOffset + size > kHostBytes) size = kHostBytes - hostOffset;
  cl_bool block = blocking();
  WaitList w = waitList();
  cl_event *out = eventOut();
  cl_int err;
  bool noHost = in_.u8() < 8;
  if (in_.flag())
    err = clEnqueueReadBuffer(queue, mem, block, offset, size, noHost ? nullptr : gHostOut + hostOffset,
                              w.count, w.list(), out);
  else
    err = clEnqueueWriteBuffer(queue, mem, block, offset, size, noHost ? nullptr : gHostIn + hostOffset,
                               w.count, w.list(), out);
  keepEvent(err, out);
}

void Harness::copyFill() {
  cl_command_queue queue = pickAs<cl_command_queue>(kQueue, true);
  WaitList w = waitList();
  cl_event *out = eventOut();
  cl_int err;
  if (in_.flag()) {
    cl_mem src = pickAs<cl_mem>(kMem), dst = in_.flag() ? src : pickAs<cl_mem>(kMem);
    err = clEnqueueCopyBuffer(queue, src, dst, offsetValue(), offsetValue(), sizeValue(), w.count,
                              w.list(), out);
  } else {
    static const size_t kPatterns[] = {0, 1, 2, 3, 4, 8, 16, 32, 64, 128, 256};
    unsigned char pattern[256];
    in_.fill(pattern, 16);
    size_t patternSize = in_.pick(kPatterns);
    err = clEnqueueFillBuffer(queue, pickAs<cl_mem>(kMem), in_.u8() < 8 ? nullptr : pattern,
                              patternSize, offsetValue(), sizeValue(), w.count, w.list(), out);
  }
  keepEvent(err, out);
}

void Harness::rect() {
  cl_command_queue queue = pickAs<cl_command_queue>(kQueue, true);
  static const size_t kCoords[] = {0, 0, 1, 2, 3, 7, 16, 64, 255, 4096, SIZE_MAX};
  static const size_t kPitches[] = {0, 0, 1, 8, 16, 64, 100, 256, 1024, 4096, SIZE_MAX};
  size_t bufferOrigin[3], hostOrigin[3], region[3];
  for (int d = 0; d < 3; ++d) {
    bufferOrigin[d] = in_.pick(kCoords);
    hostOrigin[d] = in_.pick(kCoords);
    region[d] = in_.pick(kCoords);
  }
  size_t bufferRow = in_.pick(kPitches), bufferSlice = in_.pick(kPitches);
  size_t hostRow = in_.pick(kPitches), hostSlice = in_.pick(kPitches);
  WaitList w = waitList();
  cl_event *out = eventOut();
  uint8_t which = in_.u8() % 3;
  cl_int err;
  if (which == 2) {
    err = clEnqueueCopyBufferRect(queue, pickAs<cl_mem>(kMem), pickAs<cl_mem>(kMem), bufferOrigin,
                                  hostOrigin, region, bufferRow, bufferSlice, hostRow, hostSlice,
                                  w.count, w.list(), out);
    keepEvent(err, out);
    return;
  }
  // The host side's extent, as the spec computes it (pitches of 0 are the
  // tight ones): it must lie in the host array, else the call is not made.
  Wide row = hostRow ? hostRow : region[0];
  Wide slice = hostSlice ? Wide(hostSlice) : mul(row, region[1]);
  Wide end = add(add(mul(hostOrigin[2], slice), mul(hostOrigin[1], row)), hostOrigin[0]);
  if (region[0] && region[1] && region[2])
    end = add(end, add(add(mul(region[2] - 1, slice), mul(region[1] - 1, row)), region[0]));
  // Past the end of the address space no host memory can be valid for it:
  // that the call must refuse, so it is made.
  if (end > kHostBytes && end <= Wide(UINT64_MAX)) return;
  cl_mem mem = pickAs<cl_mem>(kMem);
  cl_bool block = blocking();
  if (which == 0)
    err = clEnqueueReadBufferRect(queue, mem, block, bufferOrigin, hostOrigin, region, bufferRow,
                                  bufferSlice, hostRow, hostSlice, gHostOut, w.count, w.list(), out);
  else
    err = clEnqueueWriteBufferRect(queue, mem, block, bufferOrigin, hostOrigin, region, bufferRow,
                                   bufferSlice, hostRow, hostSlice, gHostIn, w.count, w.list(), out);
  keepEvent(err, out);
}

void Harness::mapUnmap() {
  cl_command_queue queue = pickAs<cl_command_queue>(kQueue, true);
  static const cl_map_flags kFlags[] = {CL_MAP_READ, CL_MAP_WRITE, CL_MAP_READ | CL_MAP_WRITE,
                                        CL_MAP_WRITE_INVALIDATE_REGION,
                                        CL_MAP_WRITE_INVALIDATE_REGION | CL_MAP_READ, 0, 1 << 5};
  WaitList w = waitList();
  cl_event *out = eventOut();
  cl_int err;
  uint8_t which = in_.u8() % 3;
  if (which == 0) {
    cl_mem mem = pickAs<cl_mem>(kMem);
    size_t offset = offsetValue(), size = sizeValue();
    cl_bool block = blocking();
    void *pointer = clEnqueueMapBuffer(queue, mem, block, in_.pick(kFlags), offset, size, w.count,
                                       w.list(), out, &err);
    if (err == CL_SUCCESS) {
      keepEvent(err, out);
      mappings_.push_back({mem, pointer});
      // A blocking map is ready: every byte of it must be writable.
      if (block) std::memset(pointer, 0x5a, size);
    }
  } else if (which == 1) {
    cl_mem mem = pickAs<cl_mem>(kMem);
    static const size_t kCoords[] = {0, 0, 1, 1, 2, 3, 8, 16, SIZE_MAX};
    size_t origin[3], region[3];
    for (int d = 0; d < 3; ++d) {
      origin[d] = in_.pick(kCoords);
      region[d] = in_.pick(kCoords);
    }
    size_t rowPitch = 0, slicePitch = 0;
    cl_bool block = blocking();
    void *pointer = clEnqueueMapImage(queue, mem, block, in_.pick(kFlags), origin, region,
                                      in_.u8() < 8 ? nullptr : &rowPitch,
                                      in_.u8() < 64 ? nullptr : &slicePitch, w.count, w.list(),
                                      out, &err);
    if (err == CL_SUCCESS) {
      keepEvent(err, out);
      mappings_.push_back({mem, pointer});
      if (block) static_cast<volatile unsigned char *>(pointer)[0] = 0x5a;
    }
  } else {
    // Unmap one of the maps made, or a pointer that is none.
    cl_mem mem = pickAs<cl_mem>(kMem);
    void *pointer = gHostOut;
    if (!mappings_.empty() && in_.u8() >= 32) {
      size_t i = in_.u8() % mappings_.size();
      if (in_.u8() >= 32) mem = mappings_[i].mem;
      pointer = mappings_[i].pointer;
    }
    err = clEnqueueUnmapMemObject(queue, mem, pointer, w.count, w.list(), out);
    keepEvent(err, out);
    if (err == CL_SUCCESS)
      for (size_t i = 0; i < mappings_.size(); ++i)
        if (mappings_[i].mem == mem && mappings_[i].pointer == pointer) {
          mappings_.erase(mappings_.begin() + i);
          break;
        }
  }
}

void Harness::imageCommand() {
  cl_command_queue queue = pickAs<cl_command_queue>(kQueue, true);
  static const size_t kCoords[] = {0, 0, 1, 1, 2, 3, 5, 8, 16, 33, SIZE_MAX};
  static const size_t kPitches[] = {0, 0, 0, 1, 16, 64, 256, 1024, SIZE_MAX};
  size_t origin[3], origin2[3], region[3];
  for (int d = 0; d < 3; ++d) {
    origin[d] = in_.pick(kCoords);
    origin2[d] = in_.pick(kCoords);
    region[d] = in_.pick(kCoords);
  }
  size_t rowPitch = in_.pick(kPitches), slicePitch = in_.pick(kPitches);
  cl_mem image = pickAs<cl_mem>(kMem), other = pickAs<cl_mem>(kMem);
  WaitList w = waitList();
  cl_event *out = eventOut();
  cl_int err = CL_SUCCESS;
  // Host memory for reads and writes: the widest texel (16 bytes) at the
  // larger of the pitch given and the tight one.
  Wide row = std::max<Wide>(mul(region[0], 16), rowPitch);
  Wide slice = std::max<Wide>(mul(row, region[1]), slicePitch);
  // Past the end of the address space no host memory can be valid for it:
  // that the call must refuse, so it is made.
  Wide hostExtent = mul(slice, region[2]);
  bool hostFits = hostExtent <= kHostBytes || hostExtent > Wide(UINT64_MAX);
  switch (in_.u8() % 6) {
    case 0:
      if (!hostFits) return;
      err = clEnqueueReadImage(queue, image, blocking(), origin, region, rowPitch, slicePitch,
                               gHostOut, w.count, w.list(), out);
      break;
    case 1:
      if (!hostFits) return;
      err = clEnqueueWriteImage(queue, image, blocking(), origin, region, rowPitch, slicePitch,
                                gHostIn, w.count, w.list(), out);
      break;
    case 2:
      err = clEnqueueCopyImage(queue, image, in_.flag() ? image : other, origin, origin2, region,
                               w.count, w.list(), out);
      break;
    case 3: {
      float color[4];
      in_.fill(color, sizeof color);
      err = clEnqueueFillImage(queue, image, in_.u8() < 8 ? nullptr : color, origin, region,
                               w.count, w.list(), out);
      break;
    }
    case 4:
      err = clEnqueueCopyImageToBuffer(queue, image, other, origin, region, offsetValue(), w.count,
                                       w.list(), out);
      break;
    default:
      err = clEnqueueCopyBufferToImage(queue, other, image, offsetValue(), origin, region, w.count,
                                       w.list(), out);
      break;
  }
  keepEvent(err, out);
}

void Harness::markers() {
  cl_command_queue queue = pickAs<cl_command_queue>(kQueue, true);
  WaitList w = waitList();
  cl_event *out = eventOut();
  cl_int err;
  switch (in_.u8() % 6) {
    case 0: err = clEnqueueMarkerWithWaitList(queue, w.count, w.list(), out); break;
    case 1: err = clEnqueueBarrierWithWaitList(queue, w.count, w.list(), out); break;
    case 2:
      out = &event_;
      event_ = nullptr;
      err = clEnqueueMarker(queue, in_.u8() < 8 ? nullptr : out);
      break;
    case 3: err = clEnqueueBarrier(queue); out = nullptr; break;
    case 4: err = clEnqueueWaitForEvents(queue, w.count, w.list()); out = nullptr; break;
    default: {
      std::vector<cl_mem> mems;
      size_t n = in_.u8() % 4;
      for (size_t i = 0; i < n; ++i) mems.push_back(pickAs<cl_mem>(kMem));
      static const cl_mem_migration_flags kFlags[] = {0, CL_MIGRATE_MEM_OBJECT_HOST,
                                                      CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 4};
      err = clEnqueueMigrateMemObjects(queue, static_cast<cl_uint>(n),
                                       mems.empty() ? nullptr : mems.data(), in_.pick(kFlags),
                                       w.count, w.list(), out);
    }
  }
  keepEvent(err, out);
}

void Harness::userEvents() {
  cl_event event = pickAs<cl_event>(kEvent, true);
  if (in_.flag()) {
    static const cl_int kStatus[] = {CL_COMPLETE, CL_COMPLETE, -1, -5, -1000, CL_RUNNING,
                                     CL_SUBMITTED, 7};
    cl_int status = in_.pick(kStatus);
    if (clSetUserEventStatus(event, status) == CL_SUCCESS) {
      Handle *h = find(kEvent, event);
      if (!h || !h->userEvent || h->refs <= 0) die("clSetUserEventStatus on no live user event", 0);
      if (h->userStatusSet) die("clSetUserEventStatus twice", 0);
      h->userStatusSet = true;
    }
  } else {
    static const cl_int kTypes[] = {CL_COMPLETE, CL_RUNNING, CL_SUBMITTED, CL_QUEUED, -1};
    clSetEventCallback(event, in_.pick(kTypes), in_.u8() < 8 ? nullptr : countEvent, nullptr);
  }
}

void Harness::flushFinishWait() {
  switch (in_.u8() % 3) {
    case 0:
      clFlush(pickAs<cl_command_queue>(kQueue, true));
      break;
    case 1:
      if (!unsetUserEvents()) clFinish(pickAs<cl_command_queue>(kQueue, true));
      break;
    default: {
      if (unsetUserEvents()) return;
      WaitList w = waitList();
      // The loader follows the first event: a real one (or none).
      if (!w.events.empty()) {
        void *first = w.events[0];
        bool known = false;
        for (Handle &h : handles_) known |= h.object == first;
        if (!known) w.events[0] = nullptr;
      }
      clWaitForEvents(w.count, w.list());
    }
  }
}

Harness::SvmPointer Harness::svmPointer(bool written) {
  uint8_t choice = in_.u8();
  if (choice < 8) return {nullptr, 0, false};
  if (choice < 64 || svm_.empty()) {
    size_t offset = in_.u16() % 4096;
    char *host = reinterpret_cast<char *>(written ? gHostOut : gHostIn);
    return {host + offset, kHostBytes - offset, false};
  }
  SvmBlock &block = svm_[in_.u8() % svm_.size()];
  block.used = true;
  // The start, somewhere inside, or its very end, which is not in the
  // allocation (what lies behind it is not the harness's memory; Lockstep
  // takes it for an ordinary host pointer).
  size_t offset = in_.u8() < 128 ? 0 : std::min(offsetValue(), block.size);
  return {block.base + offset, block.size - offset, offset < block.size};
}

size_t Harness::svmSize(const SvmPointer &p, bool ownContext) {
  size_t size = sizeValue();
  if (ownContext && p.inAllocation) return size;
  return std::min(size, p.room);
}

void Harness::svmAllocFree() {
  static const cl_svm_mem_flags kFlags[] = {
      0, CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_SVM_FINE_GRAIN_BUFFER,
      CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, CL_MEM_SVM_ATOMICS,
      CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, CL_MEM_USE_HOST_PTR, 1ull << 40};
  static const cl_uint kAlignments[] = {0, 0, 1, 2, 3, 8, 64, 128, 4096, 1u << 21, 1u << 22, 0x80000000u};
  if (svm_.empty() || in_.u8() < 160) {
    cl_context context = pickAs<cl_context>(kContext, true);
    size_t size = sizeValue();
    void *p = clSVMAlloc(context, in_.pick(kFlags), size, in_.pick(kAlignments));
    if (!p) return;
    if (size > kHostBytes) die("clSVMAlloc granted a size the harness never means", 0);
    if (context == context_) {
      svm_.push_back({static_cast<char *>(p), size});
      // Every byte is the application's.
      std::memset(p, 0x11, size);
    } else {
      // Another context may go at any time, and its allocations with it.
      clSVMFree(context, p);
    }
    return;
  }
  size_t i = in_.u8() % svm_.size();
  SvmBlock block = svm_[i];
  switch (in_.u8() % 4) {
    case 0:
      // Only what no call ever saw is freed now.
      if (block.used) return;
      clSVMFree(context_, block.base);
      svm_.erase(svm_.begin() + i);
      break;
    case 1: {
      if (block.used) return;
      void *list[] = {block.base};
      cl_command_queue queue = pickAs<cl_command_queue>(kQueue, true);
      WaitList w = waitList();
      cl_event *out = eventOut();
      cl_int err = clEnqueueSVMFree(queue, 1, list, nullptr, nullptr, w.count, w.list(), out);
      keepEvent(err, out);
      if (err == CL_SUCCESS) svm_.erase(svm_.begin() + i);
      break;
    }
    case 2: {
      // With a callback (which frees nothing), any pointers; without one
      // (Lockstep frees them), allocations no call saw. Sometimes a list
      // whose count and pointer disagree.
      bool callback = in_.u8() >= 64;
      void *list[4];
      cl_uint n = in_.u8() % 5;
      for (cl_uint j = 0; j < n; ++j) {
        if (callback) {
          list[j] = svmPointer(false).pointer;
        } else {
          const SvmBlock &b = svm_[in_.u8() % svm_.size()];
          if (b.used) return;
          list[j] = b.base;
        }
      }
      cl_command_queue queue = pickAs<cl_command_queue>(kQueue, true);
      WaitList w = waitList();
      cl_event *out = eventOut();
      bool mismatch = in_.u8() < 16;
      cl_int err = clEnqueueSVMFree(queue, mismatch ? 1 : n, mismatch ? nullptr : list,
                                    callback ? countSvmFree : nullptr, nullptr, w.count, w.list(), out);
      keepEvent(err, out);
      if (err == CL_SUCCESS && !callback)
        for (cl_uint j = 0; j < n; ++j)
          for (size_t k = 0; k < svm_.size(); ++k)
            if (svm_[k].base == list[j]) {
              svm_.erase(svm_.begin() + k);
              break;
            }
      break;
    }
    default:
      // Frees that must do nothing: NULL, the middle of an allocation, host
      // memory, a context that is not the allocation's.
      clSVMFree(context_, nullptr);
      if (block.size > 1) clSVMFree(context_, block.base + 1);
      clSVMFree(context_, gHostOut);
      if (cl_context other = pickAs<cl_context>(kContext, true); other != context_)
        clSVMFree(other, block.base);
      break;
  }
}

void Harness::svmCommand() {
  cl_command_queue queue = pickAs<cl_command_queue>(kQueue, true);
  bool own = queueOfOwnContext(queue);
  WaitList w = waitList();
  cl_event *out = eventOut();
  cl_int err = CL_SUCCESS;
  static const cl_map_flags kMapFlags[] = {CL_MAP_READ, CL_MAP_WRITE, CL_MAP_READ | CL_MAP_WRITE,
                                           CL_MAP_WRITE_INVALIDATE_REGION,
                                           CL_MAP_WRITE_INVALIDATE_REGION | CL_MAP_READ, 0, 1 << 5};
  switch (in_.u8() % 5) {
    case 0: {
      SvmPointer dst = svmPointer(true), src = in_.flag() ? dst : svmPointer(false);
      if (src.pointer == dst.pointer && src.pointer && in_.flag()) {
        // Overlapping, a little apart.
        size_t shift = std::min<size_t>(in_.u8() % 8, src.room);
        src.pointer += shift;
        src.room -= shift;
      }
      size_t size = std::min(svmSize(dst, own), svmSize(src, own));
      err = clEnqueueSVMMemcpy(queue, blocking(), dst.pointer, src.pointer, size, w.count, w.list(), out);
      break;
    }
    case 1: {
      static const size_t kPatterns[] = {0, 1, 2, 3, 4, 8, 16, 32, 64, 128, 256};
      unsigned char pattern[256];
      in_.fill(pattern, 16);
      SvmPointer p = svmPointer(true);
      err = clEnqueueSVMMemFill(queue, p.pointer, in_.u8() < 8 ? nullptr : pattern, in_.pick(kPatterns),
                                svmSize(p, own), w.count, w.list(), out);
      break;
    }
    case 2: {
      SvmPointer p = svmPointer(true);
      size_t size = svmSize(p, own);
      cl_bool block = blocking();
      err = clEnqueueSVMMap(queue, block, in_.pick(kMapFlags), p.pointer, size, w.count, w.list(), out);
      // A blocking map is ready: every byte of it must be the host's.
      if (err == CL_SUCCESS && block && p.inAllocation) std::memset(p.pointer, 0x5a, std::min(size, p.room));
      break;
    }
    case 3:
      err = clEnqueueSVMUnmap(queue, svmPointer(true).pointer, w.count, w.list(), out);
      break;
    default: {
      const void *pointers[4];
      size_t sizes[4];
      cl_uint n = in_.u8() % 5;
      for (cl_uint j = 0; j < n; ++j) {
        SvmPointer p = svmPointer(false);
        pointers[j] = p.pointer;
        sizes[j] = in_.u8() < 128 ? 0 : sizeValue();
      }
      static const cl_mem_migration_flags kFlags[] = {0, CL_MIGRATE_MEM_OBJECT_HOST,
                                                      CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 4};
      err = clEnqueueSVMMigrateMem(queue, in_.u8() < 16 ? 1 : n, in_.u8() < 16 ? nullptr : pointers,
                                   in_.flag() ? sizes : nullptr, in_.pick(kFlags), w.count, w.list(), out);
      break;
    }
  }
  keepEvent(err, out);
}

void Harness::svmKernelAndBuffer() {
  switch (in_.u8() % 3) {
    case 0: {
      // The tiny kernels touch one byte of a pointer argument at most: any
      // pointer with a byte behind it (or NULL) may be set.
      SvmPointer p = svmPointer(true);
      if (p.pointer && p.room == 0) return;
      clSetKernelArgSVMPointer(pickAs<cl_kernel>(kKernel, true), in_.u8() % 6, p.pointer);
      break;
    }
    case 1: {
      static const cl_kernel_exec_info kNames[] = {CL_KERNEL_EXEC_INFO_SVM_PTRS,
                                                   CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 0x11B8};
      static const size_t kSizes[] = {0, 1, 4, 8, 16, 24, 32};
      void *value[4];
      for (void *&v : value) v = svmPointer(false).pointer;
      clSetKernelExecInfo(pickAs<cl_kernel>(kKernel, true), in_.pick(kNames), in_.pick(kSizes),
                          in_.u8() < 16 ? nullptr : value);
      break;
    }
    default: {
      // A buffer over SVM memory, in the allocation's context: a size past
      // the allocation's end is refused.
      if (svm_.empty()) return;
      SvmPointer p = svmPointer(false);
      if (!p.inAllocation) return;
      size_t size = sizeValue();
      cl_mem_flags flags = in_.flag() ? CL_MEM_USE_HOST_PTR : CL_MEM_COPY_HOST_PTR;
      cl_int err;
      cl_mem mem = clCreateBuffer(context_, flags, size, p.pointer, &err);
      if (mem) {
        if (size > p.room) die("a buffer past the end of its SVM allocation was created", 0);
        track(kMem, mem).size = size;
      }
    }
  }
}

void Harness::misc() {
  switch (in_.u8() % 7) {
    case 0:
      clSetMemObjectDestructorCallback(pickAs<cl_mem>(kMem, true), in_.u8() < 8 ? nullptr : countMem,
                                       nullptr);
      break;
    case 1:
      clSetContextDestructorCallback(pickAs<cl_context>(kContext, true),
                                     in_.u8() < 8 ? nullptr : countContext, nullptr);
      break;
    case 2: {
      static const cl_mem_flags kFlags[] = {CL_MEM_READ_WRITE, CL_MEM_READ_ONLY,
                                            CL_MEM_WRITE_ONLY, CL_MEM_KERNEL_READ_AND_WRITE,
                                            CL_MEM_USE_HOST_PTR, 1ull << 40};
      static const cl_mem_object_type kTypes[] = {CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE3D,
                                                  CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_BUFFER,
                                                  CL_MEM_OBJECT_IMAGE2D_ARRAY};
      cl_uint room = in_.u8();
      std::vector<cl_image_format> formats(room + 1);
      cl_uint count = 0;
      clGetSupportedImageFormats(pickAs<cl_context>(kContext, true), in_.pick(kFlags),
                                 in_.pick(kTypes), room, in_.u8() < 32 ? nullptr : formats.data(),
                                 in_.u8() < 32 ? nullptr : &count);
      break;
    }
    case 3: {
      cl_device_id devices[4];
      cl_uint count;
      static const cl_device_type kTypes[] = {CL_DEVICE_TYPE_ALL, CL_DEVICE_TYPE_CPU,
                                              CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_DEFAULT, 0,
                                              1ull << 40};
      clGetDeviceIDs(in_.u8() < 16 ? nullptr : gPlatform, in_.pick(kTypes), in_.u8() % 5,
                     in_.u8() < 32 ? nullptr : devices, in_.u8() < 32 ? nullptr : &count);
      break;
    }
    case 4: {
      cl_device_partition_property properties[5] = {
          static_cast<cl_device_partition_property>(
              in_.flag() ? CL_DEVICE_PARTITION_EQUALLY : CL_DEVICE_PARTITION_BY_COUNTS),
          static_cast<cl_device_partition_property>(in_.u8() % 3), 0, 0, 0};
      cl_device_id out[4];
      cl_uint count;
      cl_uint wanted = in_.u8() % 5;
      cl_int err = clCreateSubDevices(gDevice, properties, wanted, wanted ? out : nullptr, &count);
      // Sub-devices made are released at once (and the count must fit).
      if (err == CL_SUCCESS && wanted) {
        if (count > wanted) die("clCreateSubDevices wrote more devices than asked for", 0);
        for (cl_uint i = 0; i < count; ++i) clReleaseDevice(out[i]);
      }
      break;
    }
    case 5: {
      cl_ulong device, host;
      clGetDeviceAndHostTimer(gDevice, &device, &host);
      clGetHostTimer(gDevice, &host);
      break;
    }
    default: {
      // A second context: every cross-context check has something to catch.
      cl_int err;
      cl_context_properties properties[] = {
          CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(gPlatform),
          in_.flag() ? CL_CONTEXT_INTEROP_USER_SYNC : 0, static_cast<cl_context_properties>(in_.u8() % 3), 0};
      cl_context context;
      if (in_.flag())
        context = clCreateContext(in_.u8() < 32 ? nullptr : properties, in_.u8() < 16 ? 0 : 1,
                                  &gDevice, in_.flag() ? contextNotify : nullptr, nullptr, &err);
      else
        context = clCreateContextFromType(properties, in_.flag() ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU,
                                          nullptr, nullptr, &err);
      if (context) track(kContext, context);
    }
  }
}

// Every user event set, every queue finished, every reference released.
void Harness::cleanUp() {
  for (Handle &h : handles_)
    if (h.userEvent && h.refs > 0 && !h.userStatusSet) {
      clSetUserEventStatus(static_cast<cl_event>(h.object), in_.flag() ? CL_COMPLETE : -1);
      h.userStatusSet = true;
    }
  for (Handle &h : handles_)
    if (h.kind == kQueue && h.refs > 0)
      finishQueue(static_cast<cl_command_queue>(h.object));
  // Kernels before programs, the context last: any order must work, but
  // this one releases a kind at a time.
  for (Kind kind : {kKernel, kProgram, kEvent, kSampler, kMem, kQueue, kContext})
    for (Handle &h : handles_)
      while (h.kind == kind && h.refs > 0) releaseOne(h, h.object);
}

void Harness::run() {
  cl_int err;
  context_ = clCreateContext(nullptr, 1, &gDevice, nullptr, nullptr, &err);
  if (!context_) die("clCreateContext", err);
  track(kContext, context_);
  // A starting pool, so most inputs get to the commands quickly.
  if (cl_command_queue queue = clCreateCommandQueue(context_, gDevice, 0, &err))
    track(kQueue, queue);
  if (cl_mem buffer = clCreateBuffer(context_, CL_MEM_READ_WRITE, 4096, nullptr, &err))
    track(kMem, buffer).size = 4096;

  enum Op : uint8_t {
    kCreateBuffer, kCreateSubBuffer, kCreateImage, kCreateSampler, kCreateQueue,
    kCreateUserEvent, kCreateProgram, kCreateKernel, kRetain, kRelease, kQuery,
    kSetKernelArg, kSetKernelArgsValid, kLaunch, kReadWrite, kCopyFill, kRect, kMapUnmap,
    kImageCommand, kMarkers, kUserEvents, kFlushFinishWait, kSvmAllocFree, kSvmCommand,
    kSvmKernelAndBuffer, kMisc, kOps
  };
  for (int steps = 0; steps < 256 && !in_.empty(); ++steps) {
    switch (in_.u8() % kOps) {
      case kCreateBuffer: createBuffer(); break;
      case kCreateSubBuffer: createSubBuffer(); break;
      case kCreateImage: createImage(); break;
      case kCreateSampler: createSampler(); break;
      case kCreateQueue: createQueue(); break;
      case kCreateUserEvent: createUserEvent(); break;
      case kCreateProgram: createProgram(); break;
      case kCreateKernel: createKernel(); break;
      case kRetain: retain(); break;
      case kRelease: release(); break;
      case kQuery: query(); break;
      case kSetKernelArg: setKernelArg(); break;
      case kSetKernelArgsValid: setKernelArgsValid(); break;
      case kLaunch: launch(); break;
      case kReadWrite: readWrite(); break;
      case kCopyFill: copyFill(); break;
      case kRect: rect(); break;
      case kMapUnmap: mapUnmap(); break;
      case kImageCommand: imageCommand(); break;
      case kMarkers: markers(); break;
      case kUserEvents: userEvents(); break;
      case kFlushFinishWait: flushFinishWait(); break;
      case kSvmAllocFree: svmAllocFree(); break;
      case kSvmCommand: svmCommand(); break;
      case kSvmKernelAndBuffer: svmKernelAndBuffer(); break;
      default: misc(); break;
    }
  }
  cleanUp();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // Programs come from a few fixed sources and the prebuilt binary (and now
  // and then a damaged copy of it): the kernel cache makes their builds
  // take milliseconds instead of a full compile each. It lives in a folder
  // of its own, bounded, apart from the user's cache.
  if (!std::getenv("LOCKSTEP_CACHE_DIR")) {
    const char *tmp = std::getenv("TMPDIR");
    std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/lockstep-fuzz-host-api-cache";
    setenv("LOCKSTEP_CACHE_DIR", dir.c_str(), 1);
  }
  setenv("LOCKSTEP_CACHE_MAX_MB", "64", 0);
  lockstep::fuzz::findLockstepDevice(gPlatform, gDevice, die);
  // The tiny kernels, built once; inputs load the binary.
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &gDevice, nullptr, nullptr, &err);
  if (!context) die("clCreateContext", err);
  const char *source = kTinySource;
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &err);
  err = clBuildProgram(program, 0, nullptr, "-cl-std=CL3.0", nullptr, nullptr);
  if (err != CL_SUCCESS) die("building the tiny kernels", err);
  size_t size = 0;
  clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr);
  gBinary.resize(size);
  unsigned char *binary = gBinary.data();
  err = clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binary, &binary, nullptr);
  if (err != CL_SUCCESS || size == 0) die("CL_PROGRAM_BINARIES", err);
  clReleaseProgram(program);
  clReleaseContext(context);
  std::memset(gHostIn, 0x33, sizeof gHostIn);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Bytes in(data, size);
  Harness harness(in);
  harness.run();
  return 0;
}

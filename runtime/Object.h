// What every OpenCL object shares: the dispatch pointer the ICD loader reads,
// a type tag checked on every call, reference counts; and the one error
// mechanism and the one info-query helper used by every cl* entry point.
//
// Layout rule: every _cl_* struct derives from Object<> first and has no
// virtual functions, so `dispatch` lies at offset 0 as the ICD loader expects.
#pragma once

#include <CL/cl_icd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

namespace lockstep::runtime {

// The table of every entry point (icd/Dispatch.cpp).
extern const cl_icd_dispatch kDispatchTable;

// Thrown anywhere below an entry point; the entry point's guard turns it into
// the returned cl_int or *errcode_ret.
struct ClError {
  cl_int code;
};
[[noreturn]] inline void fail(cl_int code) { throw ClError{code}; }
inline void check(bool condition, cl_int code) {
  if (!condition) fail(code);
}

// Distinct, unlikely bit patterns: a stale or foreign pointer rarely matches.
enum class Tag : uint32_t {
  Dead = 0,
  Platform = 0x4c530a01,
  Device,
  Context,
  Queue,
  Memory,
  Program,
  Kernel,
  Event,
  Sampler,
  CommandBuffer,
  MutableCommand,
};

// Where every object lives (Object.cpp): an arena of address space that is
// reserved once and never given back, carved into objects as they are
// created. A handle is read only once it lies in the arena's committed part,
// which stays mapped for the life of the process; its tag then says whether
// it is a live object of the right kind. So a random or freed pointer (a
// cl_mem passed by value to clSetKernelArg, an event in a wait list) is
// refused with the call's CL_INVALID_* error instead of being dereferenced,
// for the cost of a range check.
namespace arena {
void *allocate(size_t bytes);
void release(void *object, size_t bytes) noexcept;
bool contains(const void *object) noexcept;
// For an object that lives as long as the process (the platform, its
// device): LeakSanitizer does not scan the arena, so without this what such
// an object owns (its strings, its vectors) looks leaked. Objects the
// application creates are not registered: one it released completely that
// still holds memory is a leak LeakSanitizer should see. Nothing without
// LeakSanitizer.
void keepForever(const void *object, size_t bytes) noexcept;
}  // namespace arena

// Two counts: `external_` is what the application holds (CL_*_REFERENCE_COUNT
// reports it; clRelease* decrements it); `total_` adds the references the
// implementation holds (an event keeps its queue, a command its buffers), so
// an object lives until the application AND every pending command let go.
template <class Derived, Tag kTag, cl_int kInvalid>
class Object {
 public:
  const cl_icd_dispatch *const dispatch = &kDispatchTable;
  static constexpr cl_int kInvalidError = kInvalid;

  Object() = default;
  Object(const Object &) = delete;
  Object &operator=(const Object &) = delete;

  // Every object of every type comes from the arena.
  static void *operator new(size_t bytes) { return arena::allocate(bytes); }
  static void operator delete(void *object, size_t bytes) noexcept { arena::release(object, bytes); }

  bool valid() const { return tag_.load(std::memory_order_relaxed) == kTag; }
  cl_uint referenceCount() const { return external_.load(std::memory_order_relaxed); }

  // clRetain*/clRelease*: the application's references. Like a release, a
  // retain of a handle the application already released completely is
  // invalid, even while a pending command keeps the object alive: it would
  // bring the object back to the application, and its last-release hook
  // (a kernel leaving its program) would run twice.
  void retain() {
    cl_uint count = external_.load(std::memory_order_relaxed);
    do {
      if (count == 0) fail(kInvalid);
    } while (!external_.compare_exchange_weak(count, count + 1, std::memory_order_relaxed));
    retainInternal();
  }
  void release() {
    // A handle the application already released completely is invalid.
    cl_uint count = external_.load(std::memory_order_relaxed);
    do {
      if (count == 0) fail(kInvalid);
    } while (!external_.compare_exchange_weak(count, count - 1, std::memory_order_relaxed));
    if (count == 1) static_cast<Derived *>(this)->onLastExternalRelease();
    releaseInternal();
  }
  // A reference lent to code the implementation calls with this handle (an
  // event's callbacks, which the specification hands the event): the handle
  // is valid while that code runs, even if the application had released it
  // (the usual clSetEventCallback, then clReleaseEvent). No last-release
  // hook runs when the loan ends.
  void lendHandle() {
    external_.fetch_add(1, std::memory_order_relaxed);
    retainInternal();
  }
  void endLoan() {
    external_.fetch_sub(1, std::memory_order_relaxed);
    releaseInternal();
  }
  // The implementation's references (see Ref<> below).
  void retainInternal() { total_.fetch_add(1, std::memory_order_relaxed); }
  // A reference to an object found through a list that does not own it
  // (a context's queues): false if the object is already being destroyed.
  bool tryRetainInternal() {
    cl_uint count = total_.load(std::memory_order_relaxed);
    do {
      if (count == 0) return false;
    } while (!total_.compare_exchange_weak(count, count + 1, std::memory_order_acquire));
    return true;
  }
  void releaseInternal() {
    if (total_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      static_assert(!std::is_polymorphic_v<Derived>, "dispatch must stay at offset 0");
      delete static_cast<Derived *>(this);
    }
  }

  // Hook: the application dropped its last reference (e.g. a queue flushes).
  void onLastExternalRelease() {}

 protected:
  // Clearing the tag makes a call through a freed handle fail the tag check
  // (as long as the memory was not reused) instead of touching a dead object.
  ~Object() { tag_.store(Tag::Dead, std::memory_order_relaxed); }

 private:
  std::atomic<Tag> tag_{kTag};
  std::atomic<cl_uint> external_{1};
  std::atomic<cl_uint> total_{1};
};

// Validates a handle of the application: CL_INVALID_<OBJECT> if null, freed,
// of another type, or released by the application completely. The last
// matters while a pending command still keeps the object alive: the handle
// is no longer the application's, and the object may be destroyed on a
// worker at any moment, so a command made from it (an unmap of a buffer
// whose map was its last user, a wait on a released event) took a reference
// to an object being destroyed, and destroyed it a second time (found by
// fuzz/host_api_fuzzer.cpp). While the application holds a reference, the
// object cannot go.
template <class T>
bool isValid(T *handle) {
  return handle != nullptr && arena::contains(handle) && handle->valid() &&
         handle->referenceCount() != 0;
}
template <class T>
T *checked(T *handle) {
  if (!isValid(handle)) fail(T::kInvalidError);
  return handle;
}

// An internal reference: keeps an object alive for as long as a command, an
// event or another object needs it. Copyable so it can live in a lambda.
template <class T>
class Ref {
 public:
  Ref() = default;
  explicit Ref(T *object) : object_(object) {
    if (object_) object_->retainInternal();
  }
  // Takes over a reference already counted (e.g. a freshly created object).
  static Ref adopt(T *object) {
    Ref ref;
    ref.object_ = object;
    return ref;
  }
  Ref(const Ref &other) : Ref(other.object_) {}
  Ref(Ref &&other) noexcept : object_(std::exchange(other.object_, nullptr)) {}
  Ref &operator=(Ref other) noexcept {
    std::swap(object_, other.object_);
    return *this;
  }
  ~Ref() {
    if (object_) object_->releaseInternal();
  }
  T *get() const { return object_; }
  T *operator->() const { return object_; }
  T &operator*() const { return *object_; }
  explicit operator bool() const { return object_ != nullptr; }
  // Gives up the reference without releasing it.
  T *detach() { return std::exchange(object_, nullptr); }

 private:
  T *object_ = nullptr;
};

// The two shapes of entry point. Every cl* function body runs inside one of
// them, so no exception ever crosses into the application.
inline cl_int errorOf(std::exception_ptr error) noexcept {
  try {
    std::rethrow_exception(error);
  } catch (const ClError &e) {
    return e.code;
  } catch (const std::bad_alloc &) {
    return CL_OUT_OF_HOST_MEMORY;
  } catch (...) {
    return CL_OUT_OF_RESOURCES;  // e.g. std::system_error from a thread primitive
  }
}

// For entry points returning cl_int.
template <class F>
cl_int guarded(F &&body) noexcept {
  try {
    std::forward<F>(body)();
    return CL_SUCCESS;
  } catch (...) {
    return errorOf(std::current_exception());
  }
}

// For entry points returning a handle (or a pointer) and an errcode_ret.
template <class F>
auto guardedCreate(cl_int *errcodeRet, F &&body) noexcept -> decltype(body()) {
  try {
    auto result = std::forward<F>(body)();
    if (errcodeRet) *errcodeRet = CL_SUCCESS;
    return result;
  } catch (...) {
    if (errcodeRet) *errcodeRet = errorOf(std::current_exception());
    return nullptr;
  }
}

// Writes the answer of a clGet*Info query: CL_INVALID_VALUE if param_value is
// given but param_value_size is smaller than the answer; param_value_size_ret
// receives the answer's size in any case.
class InfoWriter {
 public:
  InfoWriter(size_t size, void *value, size_t *sizeRet)
      : size_(size), value_(value), sizeRet_(sizeRet) {}

  void bytes(const void *data, size_t n) const {
    if (value_) {
      check(size_ >= n, CL_INVALID_VALUE);
      if (n) std::memcpy(value_, data, n);
    }
    if (sizeRet_) *sizeRet_ = n;
  }
  template <class T>
  void value(const T &v) const {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes(&v, sizeof v);
  }
  // A NUL-terminated string.
  void string(std::string_view s) const {
    if (value_) {
      check(size_ >= s.size() + 1, CL_INVALID_VALUE);
      std::memcpy(value_, s.data(), s.size());
      static_cast<char *>(value_)[s.size()] = '\0';
    }
    if (sizeRet_) *sizeRet_ = s.size() + 1;
  }
  template <class T>
  void array(std::span<const T> items) const {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes(items.data(), items.size_bytes());
  }

 private:
  size_t size_;
  void *value_;
  size_t *sizeRet_;
};

}  // namespace lockstep::runtime

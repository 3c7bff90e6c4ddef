// Shared virtual memory: clSVMAlloc and clSVMFree, and the SVM commands
// (free, memcpy, fill, map, unmap, migrate). The device offers coarse- and
// fine-grained buffer SVM, fine-grained system SVM and SVM atomics: host
// and kernels share one address space and coherent memory, so an SVM
// pointer is the memory itself (the context's SvmRegistry remembers what
// clSVMAlloc made). Copies and fills are memcpy and memset run in queue
// order; maps, unmaps and migrations move nothing and only order the queue.
// The kernel side (clSetKernelArgSVMPointer, clSetKernelExecInfo) is in
// api/kernel_arguments.cpp.
#include <cstring>
#include <vector>

#include "Context.h"
#include "Device.h"
#include "Queue.h"
#include "api/enqueue.h"
#include "api/entry_points.h"
#include "api/fill.h"
#include "api/commands.h"
#include "api/svm_commands.h"

using namespace lockstep::runtime;

namespace lockstep::api {

namespace {

constexpr cl_svm_mem_flags kAccessFlags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_svm_mem_flags kKnownSvmFlags =
    kAccessFlags | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;

// The reasons clSVMAlloc "will fail" that its arguments alone decide (it
// has no error code: it returns NULL).
bool validAllocation(cl_context context, cl_svm_mem_flags flags, size_t size,
                     unsigned int alignment) {
  // "Values specified in flags do not follow rules described for supported
  // values in the SVM Memory Flags table": no unknown bit, one access flag
  // at most, and "CL_MEM_SVM_ATOMICS ... is valid only if
  // CL_MEM_SVM_FINE_GRAIN_BUFFER is specified in flags".
  if (flags & ~kKnownSvmFlags) return false;
  if ((flags & kAccessFlags) & ((flags & kAccessFlags) - 1)) return false;
  if ((flags & CL_MEM_SVM_ATOMICS) && !(flags & CL_MEM_SVM_FINE_GRAIN_BUFFER)) return false;
  // "size is 0 or > CL_DEVICE_MAX_MEM_ALLOC_SIZE value for any device in
  // context."
  if (size == 0) return false;
  for (cl_device_id device : context->devices())
    if (size > device->maxAllocSize) return false;
  // "alignment is not a power of two or the OpenCL implementation cannot
  // support the specified alignment": 0 is the default; past
  // SvmRegistry::kMaxAlignment is refused.
  return (alignment & (alignment - 1)) == 0 && alignment <= SvmRegistry::kMaxAlignment;
}

// Every SVM command: CL_INVALID_COMMAND_QUEUE; the wait list is checked
// when the command is enqueued (enqueueCommand). The device supports SVM,
// so "CL_INVALID_OPERATION if the device associated with command_queue
// does not support SVM" never applies.
_cl_command_queue *svmQueue(cl_command_queue queue) { return checkedHostQueue(queue); }

using FreeFn = void(CL_CALLBACK *)(cl_command_queue, cl_uint, void **, void *);

// The queue handle the free callback receives is valid inside it (as an
// event is inside its own callbacks), even if the application released the
// queue after enqueuing: the pending command still holds it.
void callFreeCallback(cl_command_queue queue, FreeFn fn, std::vector<void *> &pointers,
                      void *userData) {
  queue->lendHandle();
  fn(queue, static_cast<cl_uint>(pointers.size()), pointers.data(), userData);
  queue->endLoan();
}

}  // namespace

// The commands SVM and USM share (api/svm_commands.h).

// The spec names no error for a range that wraps or runs past its
// allocation; CL_INVALID_VALUE, as for a buffer region out of bounds,
// instead of a command that would fault on a worker thread.
void checkSvmRange(_cl_command_queue *queue, const void *pointer, size_t size) {
  check(reinterpret_cast<uintptr_t>(pointer) <= UINTPTR_MAX - size, CL_INVALID_VALUE);
  check(queue->context()->svm().fitsAllocation(pointer, size), CL_INVALID_VALUE);
}

Command hostMemcpyCommand(_cl_command_queue *queue, void *dstPtr, const void *srcPtr, size_t size) {
  // "CL_INVALID_VALUE if dst_ptr is NULL", "if src_ptr is NULL".
  check(dstPtr != nullptr && srcPtr != nullptr, CL_INVALID_VALUE);
  checkSvmRange(queue, dstPtr, size);
  checkSvmRange(queue, srcPtr, size);
  // "CL_MEM_COPY_OVERLAP if the values specified for dst_ptr, src_ptr and
  // size result in an overlapping copy."
  auto *dst = static_cast<char *>(dstPtr);
  auto *src = static_cast<const char *>(srcPtr);
  check(size == 0 || src + size <= dst || dst + size <= src, CL_MEM_COPY_OVERLAP);
  return [dst, src, size] {
    if (size) std::memcpy(dst, src, size);
    return CL_SUCCESS;
  };
}

Command hostFillCommand(_cl_command_queue *queue, void *pointer, const void *pattern,
                        size_t patternSize, size_t size) {
  // "CL_INVALID_VALUE if svm_ptr is NULL".
  check(pointer != nullptr, CL_INVALID_VALUE);
  // The pattern's checks (pattern NULL, its size 0, not a power of two or
  // past 128), then "if svm_ptr is not aligned to pattern_size bytes" and
  // "if size is not a multiple of pattern_size".
  FillPattern copy = checkedPattern(pattern, patternSize);
  check(reinterpret_cast<uintptr_t>(pointer) % patternSize == 0, CL_INVALID_VALUE);
  check(size % patternSize == 0, CL_INVALID_VALUE);
  checkSvmRange(queue, pointer, size);
  return [out = static_cast<char *>(pointer), copy, size] {
    fillPattern(out, copy, size);
    return CL_SUCCESS;
  };
}

void enqueueHostMemcpy(_cl_command_queue *queue, cl_command_type type, cl_bool blocking,
                       void *dstPtr, const void *srcPtr, size_t size, cl_uint numEvents,
                       const cl_event *waitList, cl_event *event) {
  enqueueCommand(queue, type, numEvents, waitList, event,
                 hostMemcpyCommand(queue, dstPtr, srcPtr, size), blocking, true);
}

void enqueueHostFill(_cl_command_queue *queue, cl_command_type type, void *pointer,
                     const void *pattern, size_t patternSize, size_t size, cl_uint numEvents,
                     const cl_event *waitList, cl_event *event) {
  enqueueCommand(queue, type, numEvents, waitList, event,
                 hostFillCommand(queue, pointer, pattern, patternSize, size));
}

void *CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                             unsigned int alignment) {
  // "Like malloc, it returns a NULL pointer value" on every failure:
  // "context is not a valid context" included.
  try {
    if (!isValid(context) || !validAllocation(context, flags, size, alignment)) return nullptr;
    // CL_MEM_READ_WRITE "is the default".
    if (!(flags & kAccessFlags)) flags |= CL_MEM_READ_WRITE;
    return context->svm().allocate(flags, size, alignment);
  } catch (...) {
    return nullptr;
  }
}

void CL_API_CALL clSVMFree(cl_context context, void *svm_pointer) {
  // "If a NULL pointer is passed in svm_pointer, no action occurs." Nor for
  // an invalid context, or a pointer that no allocation of the context
  // starts at (the spec leaves those undefined): freeing is always safe.
  if (svm_pointer && isValid(context)) context->svm().free(svm_pointer);
}

cl_int CL_API_CALL clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers,
                                    void *svm_pointers[], FreeFn pfn_free_func, void *user_data,
                                    cl_uint num_events_in_wait_list,
                                    const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    _cl_command_queue *queue = svmQueue(command_queue);
    // "CL_INVALID_VALUE if num_svm_pointers is 0 and svm_pointers is
    // non-NULL, or if svm_pointers is NULL and num_svm_pointers is not 0."
    check((num_svm_pointers == 0) == (svm_pointers == nullptr), CL_INVALID_VALUE);
    // "The memory associated with svm_pointers can be reused or freed after
    // the function returns."
    std::vector<void *> pointers(svm_pointers, svm_pointers + num_svm_pointers);
    if (!pfn_free_func) {
      // "If pfn_free_func is NULL, all pointers specified in svm_pointers
      // must be allocated using clSVMAlloc": Lockstep frees them, so each
      // must start an allocation of this context (or be NULL, which
      // clSVMFree ignores too).
      for (void *pointer : pointers) {
        if (!pointer) continue;
        std::optional<SvmAllocation> allocation = queue->context()->svm().find(pointer);
        check(allocation && allocation->base == pointer, CL_INVALID_VALUE);
      }
    }
    enqueueCommand(queue, CL_COMMAND_SVM_FREE, num_events_in_wait_list, event_wait_list, event,
                   [queue = Ref(queue), pointers = std::move(pointers), pfn_free_func,
                    user_data]() mutable {
                     if (pfn_free_func) {
                       callFreeCallback(queue.get(), pfn_free_func, pointers, user_data);
                     } else {
                       for (void *pointer : pointers)
                         if (pointer) queue->context()->svm().free(pointer);
                     }
                     return CL_SUCCESS;
                   });
  });
}

cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy,
                                      void *dst_ptr, const void *src_ptr, size_t size,
                                      cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    _cl_command_queue *queue = svmQueue(command_queue);
    enqueueHostMemcpy(queue, CL_COMMAND_SVM_MEMCPY, blocking_copy, dst_ptr, src_ptr, size,
                      num_events_in_wait_list, event_wait_list, event);
  });
}

cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr,
                                       const void *pattern, size_t pattern_size, size_t size,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    _cl_command_queue *queue = svmQueue(command_queue);
    enqueueHostFill(queue, CL_COMMAND_SVM_MEMFILL, svm_ptr, pattern, pattern_size, size,
                    num_events_in_wait_list, event_wait_list, event);
  });
}

cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map,
                                   cl_map_flags flags, void *svm_ptr, size_t size,
                                   cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                   cl_event *event) {
  return guarded([&] {
    _cl_command_queue *queue = svmQueue(command_queue);
    // "CL_INVALID_VALUE if svm_ptr is NULL", "if size is zero", "if values
    // specified in map_flags are not valid" (CL_MAP_WRITE_INVALIDATE_REGION
    // excludes the other two).
    check(svm_ptr != nullptr && size != 0, CL_INVALID_VALUE);
    constexpr cl_map_flags kKnown = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    check(!(flags & ~kKnown), CL_INVALID_VALUE);
    check(!((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))),
          CL_INVALID_VALUE);
    checkSvmRange(queue, svm_ptr, size);
    // "Since we are enqueuing a command with a SVM buffer, the region is
    // already mapped in the host address space": the command only orders.
    enqueueCommand(queue, CL_COMMAND_SVM_MAP, num_events_in_wait_list, event_wait_list, event, {},
                   blocking_map, true);
  });
}

cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr,
                                     cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    _cl_command_queue *queue = svmQueue(command_queue);
    // "CL_INVALID_VALUE if svm_ptr is NULL."
    check(svm_ptr != nullptr, CL_INVALID_VALUE);
    enqueueCommand(queue, CL_COMMAND_SVM_UNMAP, num_events_in_wait_list, event_wait_list, event,
                   {});
  });
}

cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers,
                                          const void **svm_pointers, const size_t *sizes,
                                          cl_mem_migration_flags flags,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    _cl_command_queue *queue = svmQueue(command_queue);
    // "CL_INVALID_VALUE if num_svm_pointers is zero", "if svm_pointers is
    // NULL".
    check(num_svm_pointers != 0 && svm_pointers != nullptr, CL_INVALID_VALUE);
    // "if flags is not zero and is not a valid combination of the values
    // described in the Memory migration Flags table".
    constexpr cl_mem_migration_flags kKnown =
        CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
    check(!(flags & ~kKnown), CL_INVALID_VALUE);
    // "if sizes[i] is non-zero and the memory range described by
    // svm_pointers[i] and sizes[i] is not contained within an SVM
    // allocation returned by clSVMAlloc". A size of 0 (or no sizes) names
    // the whole allocation the pointer lies in.
    const SvmRegistry &svm = queue->context()->svm();
    for (cl_uint i = 0; i < num_svm_pointers; ++i) {
      if (!sizes || sizes[i] == 0) continue;
      std::optional<SvmAllocation> allocation = svm.find(svm_pointers[i]);
      check(allocation && sizes[i] <= allocation->bytesFrom(svm_pointers[i]), CL_INVALID_VALUE);
    }
    // Host and device share the memory: ordering is all a migration means.
    enqueueCommand(queue, CL_COMMAND_SVM_MIGRATE_MEM, num_events_in_wait_list, event_wait_list,
                   event, {});
  });
}

}  // namespace lockstep::api

// Unified shared memory (cl_intel_unified_shared_memory): host, device and
// shared allocations, their queries, and the USM commands (memcpy, fill,
// memset, migrate, advise). On a CPU all three kinds are ordinary host
// memory, exactly like fine-grained SVM: each is allocated by, and
// registered in, the context's SvmRegistry (runtime/Svm.h) with its kind,
// device and flags, so SVM commands, kernel-argument bounds and these
// queries all resolve a pointer into any of them. Copies and fills share
// the SVM commands' code (api/svm_commands.h); migrations and advice move
// nothing and only order the queue. clSetKernelArgMemPointerINTEL and the
// USM clSetKernelExecInfo names are in api/kernel_arguments.cpp.
#include <cstring>
#include <optional>

#include "Context.h"
#include "Device.h"
#include "Queue.h"
#include "api/enqueue.h"
#include "api/entry_points.h"
#include "api/svm_commands.h"

using namespace lockstep::runtime;

namespace lockstep::api {

namespace {

constexpr cl_mem_alloc_flags_intel kKnownAllocFlags = CL_MEM_ALLOC_WRITE_COMBINED_INTEL |
                                                      CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL |
                                                      CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL;

// The properties list: CL_MEM_ALLOC_FLAGS_INTEL at most once, with known
// bits and at most one initial placement; anything else is
// CL_INVALID_PROPERTY ("if properties is not a valid list of property
// names and values, or a property name is not supported, or a property
// value is not valid, or the same property is specified more than once").
cl_mem_alloc_flags_intel parseProperties(const cl_mem_properties_intel *properties) {
  cl_mem_alloc_flags_intel flags = 0;
  bool seen = false;
  for (const cl_mem_properties_intel *p = properties; p && *p; p += 2) {
    check(p[0] == CL_MEM_ALLOC_FLAGS_INTEL && !seen, CL_INVALID_PROPERTY);
    seen = true;
    flags = static_cast<cl_mem_alloc_flags_intel>(p[1]);
    check(!(flags & ~kKnownAllocFlags), CL_INVALID_PROPERTY);
    check(!((flags & CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL) &&
            (flags & CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL)),
          CL_INVALID_PROPERTY);
  }
  return flags;
}

// The three allocation functions: `device` is checked by the caller (NULL
// for host memory, and allowed for shared memory).
void *allocate(cl_context context, cl_device_id device, cl_unified_shared_memory_type_intel type,
               const cl_mem_properties_intel *properties, size_t size, cl_uint alignment) {
  _cl_context *ctx = checked(context);
  if (device || type == CL_MEM_TYPE_DEVICE_INTEL) {
    // "CL_INVALID_DEVICE if device is not a valid device or is not
    // associated with context."
    check(isValid(device) && ctx->hasDevice(device), CL_INVALID_DEVICE);
  }
  cl_mem_alloc_flags_intel flags = parseProperties(properties);
  // "CL_INVALID_BUFFER_SIZE if size is zero or greater than
  // CL_DEVICE_MAX_MEM_ALLOC_SIZE" (of the device, or any of the context's
  // for a host allocation or a shared one with no device).
  check(size != 0, CL_INVALID_BUFFER_SIZE);
  if (device) {
    check(size <= device->maxAllocSize, CL_INVALID_BUFFER_SIZE);
  } else {
    for (cl_device_id d : ctx->devices()) check(size <= d->maxAllocSize, CL_INVALID_BUFFER_SIZE);
  }
  // "CL_INVALID_VALUE if alignment is not zero or a power of two, or is
  // larger than the largest alignment supported" (SvmRegistry's).
  check((alignment & (alignment - 1)) == 0 && alignment <= SvmRegistry::kMaxAlignment,
        CL_INVALID_VALUE);
  void *pointer = ctx->svm().allocate(CL_MEM_READ_WRITE, size, alignment,
                                      UsmInfo{type, device, flags});
  check(pointer != nullptr, CL_OUT_OF_HOST_MEMORY);
  return pointer;
}

// What a USM free may free: NULL ("no action"), or the base of a USM
// allocation of the context; CL_INVALID_VALUE for anything else (a pointer
// into the middle, one of clSVMAlloc, memory the registry never made).
bool checkFreeable(_cl_context *ctx, void *ptr) {
  if (!ptr) return false;
  std::optional<SvmAllocation> allocation = ctx->svm().find(ptr);
  check(allocation && allocation->base == ptr && allocation->usm.type != 0, CL_INVALID_VALUE);
  return true;
}

}  // namespace

void *CL_API_CALL clHostMemAllocINTEL(cl_context context,
                                      const cl_mem_properties_intel *properties, size_t size,
                                      cl_uint alignment, cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&]() -> void * {
    return allocate(context, nullptr, CL_MEM_TYPE_HOST_INTEL, properties, size, alignment);
  });
}

void *CL_API_CALL clDeviceMemAllocINTEL(cl_context context, cl_device_id device,
                                        const cl_mem_properties_intel *properties, size_t size,
                                        cl_uint alignment, cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&]() -> void * {
    return allocate(context, device, CL_MEM_TYPE_DEVICE_INTEL, properties, size, alignment);
  });
}

void *CL_API_CALL clSharedMemAllocINTEL(cl_context context, cl_device_id device,
                                        const cl_mem_properties_intel *properties, size_t size,
                                        cl_uint alignment, cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&]() -> void * {
    return allocate(context, device, CL_MEM_TYPE_SHARED_INTEL, properties, size, alignment);
  });
}

cl_int CL_API_CALL clMemFreeINTEL(cl_context context, void *ptr) {
  return guarded([&] {
    _cl_context *ctx = checked(context);
    // Commands still using the memory are the application's to wait for.
    if (checkFreeable(ctx, ptr)) ctx->svm().free(ptr);
  });
}

cl_int CL_API_CALL clMemBlockingFreeINTEL(cl_context context, void *ptr) {
  return guarded([&] {
    _cl_context *ctx = checked(context);
    if (!checkFreeable(ctx, ptr)) return;
    // "waits for all previously enqueued commands that may be accessing
    // ptr to complete": every command of every queue of the context.
    ctx->finishQueues();
    ctx->svm().free(ptr);
  });
}

cl_int CL_API_CALL clGetMemAllocInfoINTEL(cl_context context, const void *ptr,
                                          cl_mem_info_intel param_name, size_t param_value_size,
                                          void *param_value, size_t *param_value_size_ret) {
  return guarded([&] {
    _cl_context *ctx = checked(context);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    // Any pointer into a USM allocation (its end excluded) resolves to it;
    // others (clSVMAlloc's, the application's own memory, NULL) are no USM
    // allocation: CL_MEM_TYPE_UNKNOWN_INTEL, a NULL base and device, size 0.
    std::optional<SvmAllocation> found = ctx->svm().find(ptr);
    if (found && (found->usm.type == 0 || found->bytesFrom(ptr) == 0)) found.reset();
    switch (param_name) {
      case CL_MEM_ALLOC_TYPE_INTEL:
        return out.value<cl_unified_shared_memory_type_intel>(
            found ? found->usm.type : CL_MEM_TYPE_UNKNOWN_INTEL);
      case CL_MEM_ALLOC_BASE_PTR_INTEL:
        return out.value<void *>(found ? found->base : nullptr);
      case CL_MEM_ALLOC_SIZE_INTEL:
        return out.value<size_t>(found ? found->size : 0);
      case CL_MEM_ALLOC_DEVICE_INTEL:
        return out.value<cl_device_id>(found ? found->usm.device : nullptr);
      case CL_MEM_ALLOC_FLAGS_INTEL:
        return out.value<cl_mem_alloc_flags_intel>(found ? found->usm.flags : 0);
      default:
        // "CL_INVALID_VALUE if param_name is not one of the supported values".
        fail(CL_INVALID_VALUE);
    }
  });
}

cl_int CL_API_CALL clEnqueueMemFillINTEL(cl_command_queue command_queue, void *dst_ptr,
                                         const void *pattern, size_t pattern_size, size_t size,
                                         cl_uint num_events_in_wait_list,
                                         const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    enqueueHostFill(checkedHostQueue(command_queue), CL_COMMAND_MEMFILL_INTEL, dst_ptr, pattern,
                    pattern_size, size, num_events_in_wait_list, event_wait_list, event);
  });
}

cl_int CL_API_CALL clEnqueueMemsetINTEL(cl_command_queue command_queue, void *dst_ptr,
                                        cl_int value, size_t size,
                                        cl_uint num_events_in_wait_list,
                                        const cl_event *event_wait_list, cl_event *event) {
  // The older form of a fill: `value` converted to a byte (memset's).
  return guarded([&] {
    auto byte = static_cast<unsigned char>(value);
    enqueueHostFill(checkedHostQueue(command_queue), CL_COMMAND_MEMFILL_INTEL, dst_ptr, &byte, 1, size,
                    num_events_in_wait_list, event_wait_list, event);
  });
}

cl_int CL_API_CALL clEnqueueMemcpyINTEL(cl_command_queue command_queue, cl_bool blocking,
                                        void *dst_ptr, const void *src_ptr, size_t size,
                                        cl_uint num_events_in_wait_list,
                                        const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    enqueueHostMemcpy(checkedHostQueue(command_queue), CL_COMMAND_MEMCPY_INTEL, blocking, dst_ptr, src_ptr,
                      size, num_events_in_wait_list, event_wait_list, event);
  });
}

cl_int CL_API_CALL clEnqueueMigrateMemINTEL(cl_command_queue command_queue, const void *ptr,
                                            size_t size, cl_mem_migration_flags flags,
                                            cl_uint num_events_in_wait_list,
                                            const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    _cl_command_queue *queue = checkedHostQueue(command_queue);
    check(ptr != nullptr, CL_INVALID_VALUE);
    // "CL_INVALID_VALUE if flags is not zero and is not a valid combination"
    // of the migration flags.
    constexpr cl_mem_migration_flags kKnown =
        CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
    check(!(flags & ~kKnown), CL_INVALID_VALUE);
    checkSvmRange(queue, ptr, size);
    // Host and device share the memory: ordering is all a migration means.
    enqueueCommand(queue, CL_COMMAND_MIGRATEMEM_INTEL, num_events_in_wait_list, event_wait_list,
                   event, {});
  });
}

cl_int CL_API_CALL clEnqueueMemAdviseINTEL(cl_command_queue command_queue, const void *ptr,
                                           size_t size, cl_mem_advice_intel advice,
                                           cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    _cl_command_queue *queue = checkedHostQueue(command_queue);
    check(ptr != nullptr, CL_INVALID_VALUE);
    checkSvmRange(queue, ptr, size);
    // Advice is device-specific and only a hint; the extension defines no
    // value, and one memory has nothing to be advised about: every value is
    // accepted and the command only orders the queue.
    (void)advice;
    enqueueCommand(queue, CL_COMMAND_MEMADVISE_INTEL, num_events_in_wait_list, event_wait_list,
                   event, {});
  });
}

}  // namespace lockstep::api

// Mapping buffers and images (zero copy: the map is a pointer into the
// storage) and migrating memory objects (nothing to move: all memory is the
// host's).
#include "Context.h"
#include "Memory.h"
#include "Queue.h"
#include "api/enqueue.h"
#include "api/entry_points.h"
#include "api/image_region.h"

using namespace lockstep::runtime;

namespace lockstep::api {

namespace {

void checkMapFlags(cl_mem buffer, cl_map_flags flags) {
  constexpr cl_map_flags kKnown = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  check(!(flags & ~kKnown), CL_INVALID_VALUE);
  // CL_MAP_WRITE_INVALIDATE_REGION excludes the other two.
  check(!((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))),
        CL_INVALID_VALUE);
}

void checkMapAccess(cl_mem buffer, cl_map_flags flags) {
  // "CL_INVALID_OPERATION if buffer has been created with
  // CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set
  // ..., or with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS and
  // CL_MAP_WRITE or CL_MAP_WRITE_INVALIDATE_REGION is set."
  if (flags & CL_MAP_READ) check(buffer->hostCanRead(), CL_INVALID_OPERATION);
  if (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
    check(buffer->hostCanWrite(), CL_INVALID_OPERATION);
}

}  // namespace

void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer,
                                     cl_bool blocking_map, cl_map_flags map_flags, size_t offset,
                                     size_t size, cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list, cl_event *event,
                                     cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&]() -> void * {
    checkedHostQueue(command_queue);
    // An image is mapped with clEnqueueMapImage.
    check(isValid(buffer) && buffer->type() == CL_MEM_OBJECT_BUFFER, CL_INVALID_MEM_OBJECT);
    check(buffer->context() == command_queue->context(), CL_INVALID_CONTEXT);
    // "CL_INVALID_VALUE if region being mapped given by (offset, size) is out
    // of bounds or if size is 0 or if values specified in map_flags are not
    // valid."
    check(offset <= buffer->size() && size != 0 && size <= buffer->size() - offset,
          CL_INVALID_VALUE);
    checkMapFlags(buffer, map_flags);
    checkMapAccess(buffer, map_flags);
    void *pointer = buffer->address() + offset;
    enqueueCommand(
        command_queue, CL_COMMAND_MAP_BUFFER, num_events_in_wait_list, event_wait_list, event,
        [mem = Ref(buffer)] {
          mem->mapCount.fetch_add(1, std::memory_order_relaxed);
          return CL_SUCCESS;
        },
        blocking_map, true);
    buffer->addMapping(pointer);
    return pointer;
  });
}

void *CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue, cl_mem image,
                                    cl_bool blocking_map, cl_map_flags map_flags,
                                    const size_t *origin, const size_t *region,
                                    size_t *image_row_pitch, size_t *image_slice_pitch,
                                    cl_uint num_events_in_wait_list,
                                    const cl_event *event_wait_list, cl_event *event,
                                    cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&]() -> void * {
    checkedHostQueue(command_queue);
    const ImageLayout &layout = imageOf(image);
    checkSameContext(command_queue, image);
    // "CL_INVALID_VALUE if region being mapped given by (origin,
    // origin + region) is out of bounds or if values specified in map_flags
    // are not valid", or origin and region break the rules of the type.
    Triple box = regionOf(region);
    Triple start = boxIn(layout, origin, box);
    checkMapFlags(image, map_flags);
    // "CL_INVALID_VALUE if image_row_pitch is NULL", and "if image is a 3D
    // image, 1D or 2D image array object and image_slice_pitch is NULL".
    check(image_row_pitch != nullptr, CL_INVALID_VALUE);
    check(image_slice_pitch != nullptr || !hasSlices(layout.type), CL_INVALID_VALUE);
    checkMapAccess(image, map_flags);
    // Zero copy: the map is the storage itself, laid out as the image is (a
    // 1D or 2D image reports a slice pitch of 0, as ImageLayout has it).
    void *pointer = stridedIn(image, start).base;
    enqueueCommand(
        command_queue, CL_COMMAND_MAP_IMAGE, num_events_in_wait_list, event_wait_list, event,
        [mem = Ref(image)] {
          mem->mapCount.fetch_add(1, std::memory_order_relaxed);
          return CL_SUCCESS;
        },
        blocking_map, true);
    image->addMapping(pointer);
    *image_row_pitch = layout.rowPitch;
    if (image_slice_pitch) *image_slice_pitch = layout.slicePitch;
    return pointer;
  });
}

// Unmaps a buffer's or an image's map: either is a pointer into the storage,
// so only the bookkeeping changes.
cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj,
                                           void *mapped_ptr, cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    checkedHostQueue(command_queue);
    // "CL_INVALID_MEM_OBJECT if memobj is not a valid memory object or is a
    // pipe object."
    check(isValid(memobj) && memobj->type() != CL_MEM_OBJECT_PIPE, CL_INVALID_MEM_OBJECT);
    check(memobj->context() == command_queue->context(), CL_INVALID_CONTEXT);
    checkWaitList(*command_queue, num_events_in_wait_list, event_wait_list);
    // "CL_INVALID_VALUE if mapped_ptr is not a valid pointer returned by
    // clEnqueueMapBuffer or clEnqueueMapImage for memobj."
    check(memobj->removeMapping(mapped_ptr), CL_INVALID_VALUE);
    enqueueCommand(command_queue, CL_COMMAND_UNMAP_MEM_OBJECT, num_events_in_wait_list,
                   event_wait_list, event, [mem = Ref(memobj)] {
                     mem->mapCount.fetch_sub(1, std::memory_order_relaxed);
                     return CL_SUCCESS;
                   });
  });
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue command_queue,
                                              cl_uint num_mem_objects, const cl_mem *mem_objects,
                                              cl_mem_migration_flags flags,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    checkedHostQueue(command_queue);
    check(num_mem_objects != 0 && mem_objects != nullptr, CL_INVALID_VALUE);
    for (cl_uint i = 0; i < num_mem_objects; ++i) {
      checked(mem_objects[i]);
      check(mem_objects[i]->context() == command_queue->context(), CL_INVALID_CONTEXT);
    }
    constexpr cl_mem_migration_flags kKnown =
        CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
    check(!(flags & ~kKnown), CL_INVALID_VALUE);
    // Host and device share the memory: ordering is all a migration means.
    enqueueCommand(command_queue, CL_COMMAND_MIGRATE_MEM_OBJECTS, num_events_in_wait_list,
                   event_wait_list, event, {});
  });
}

}  // namespace lockstep::api

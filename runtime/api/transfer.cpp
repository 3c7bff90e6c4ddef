// Buffer commands: read, write, copy (linear and rectangular), fill, map,
// unmap, migrate. All memory is host memory, so every command is a memcpy
// (or nothing) run when its dependencies are complete.
#include <cstring>

#include "Context.h"
#include "Memory.h"
#include "Queue.h"
#include "api/enqueue.h"
#include "api/commands.h"
#include "api/entry_points.h"
#include "api/fill.h"

using namespace lockstep::runtime;

namespace lockstep::api {

namespace {

// A buffer argument of a command: CL_INVALID_MEM_OBJECT, then
// CL_INVALID_CONTEXT if it is not of the queue's context.
cl_mem bufferOf(cl_command_queue queue, cl_mem buffer) {
  check(isValid(buffer) && buffer->type() == CL_MEM_OBJECT_BUFFER, CL_INVALID_MEM_OBJECT);
  check(buffer->context() == queue->context(), CL_INVALID_CONTEXT);
  return buffer;
}

// (offset, size) lies inside the buffer (overflow-safe).
void checkRange(cl_mem buffer, size_t offset, size_t size) {
  check(offset <= buffer->size() && size <= buffer->size() - offset, CL_INVALID_VALUE);
}

cl_int enqueueRead(cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset,
                   size_t size, void *ptr, cl_uint numEvents, const cl_event *waitList,
                   cl_event *event) {
  checkedHostQueue(queue);
  bufferOf(queue, buffer);
  checkRange(buffer, offset, size);
  check(ptr != nullptr, CL_INVALID_VALUE);
  check(buffer->hostCanRead(), CL_INVALID_OPERATION);
  enqueueCommand(
      queue, CL_COMMAND_READ_BUFFER, numEvents, waitList, event,
      [source = Ref(buffer), offset, size, ptr] {
        std::memmove(ptr, source->address() + offset, size);
        return CL_SUCCESS;
      },
      blocking, true);
  return CL_SUCCESS;
}

}  // namespace

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer,
                                       cl_bool blocking_read, size_t offset, size_t size, void *ptr,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    enqueueRead(command_queue, buffer, blocking_read, offset, size, ptr, num_events_in_wait_list,
                event_wait_list, event);
  });
}

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer,
                                        cl_bool blocking_write, size_t offset, size_t size,
                                        const void *ptr, cl_uint num_events_in_wait_list,
                                        const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    checkedHostQueue(command_queue);
    bufferOf(command_queue, buffer);
    checkRange(buffer, offset, size);
    check(ptr != nullptr, CL_INVALID_VALUE);
    check(buffer->hostCanWrite(), CL_INVALID_OPERATION);
    enqueueCommand(
        command_queue, CL_COMMAND_WRITE_BUFFER, num_events_in_wait_list, event_wait_list, event,
        [target = Ref(buffer), offset, size, ptr] {
          std::memmove(target->address() + offset, ptr, size);
          return CL_SUCCESS;
        },
        blocking_write, true);
  });
}

Command copyBufferCommand(cl_command_queue queue, cl_mem src_buffer, cl_mem dst_buffer,
                          size_t src_offset, size_t dst_offset, size_t size) {
  bufferOf(queue, src_buffer);
  bufferOf(queue, dst_buffer);
  checkRange(src_buffer, src_offset, size);
  checkRange(dst_buffer, dst_offset, size);
  // "CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer
  // or sub-buffer object and the source and destination regions overlap or
  // if src_buffer and dst_buffer are different sub-buffers of the same
  // associated buffer object and they overlap": the same bytes of storage.
  const char *src = src_buffer->address() + src_offset;
  const char *dst = dst_buffer->address() + dst_offset;
  check(size == 0 || src + size <= dst || dst + size <= src, CL_MEM_COPY_OVERLAP);
  return [source = Ref(src_buffer), target = Ref(dst_buffer), src_offset, dst_offset, size] {
    std::memcpy(target->address() + dst_offset, source->address() + src_offset, size);
    return CL_SUCCESS;
  };
}

Command fillBufferCommand(cl_command_queue queue, cl_mem buffer, const void *pattern,
                          size_t pattern_size, size_t offset, size_t size) {
  bufferOf(queue, buffer);
  checkRange(buffer, offset, size);
  FillPattern copy = checkedPattern(pattern, pattern_size);
  // "CL_INVALID_VALUE if offset and size are not a multiple of
  // pattern_size".
  check(offset % pattern_size == 0 && size % pattern_size == 0, CL_INVALID_VALUE);
  return [target = Ref(buffer), copy, offset, size] {
    fillPattern(target->address() + offset, copy, size);
    return CL_SUCCESS;
  };
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer,
                                       cl_mem dst_buffer, size_t src_offset, size_t dst_offset,
                                       size_t size, cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    checkedHostQueue(command_queue);
    enqueueCommand(command_queue, CL_COMMAND_COPY_BUFFER, num_events_in_wait_list,
                   event_wait_list, event,
                   copyBufferCommand(command_queue, src_buffer, dst_buffer, src_offset,
                                     dst_offset, size));
  });
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer,
                                       const void *pattern, size_t pattern_size, size_t offset,
                                       size_t size, cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    checkedHostQueue(command_queue);
    enqueueCommand(command_queue, CL_COMMAND_FILL_BUFFER, num_events_in_wait_list, event_wait_list,
                   event,
                   fillBufferCommand(command_queue, buffer, pattern, pattern_size, offset, size));
  });
}

}  // namespace lockstep::api

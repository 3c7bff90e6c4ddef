// The commands that a queue runs once (clEnqueue*) and a command-buffer
// records to run many times (clCommand*KHR, api/command_buffer_record.cpp):
// each function makes the spec's checks of its arguments against `queue`
// (its context and device; not the queue handle itself, nor a wait list
// unless it takes one) and returns the command, which may run any number of
// times, overlapping runs included (a kernel launch only when asked for a
// replayable one). Each throws the error (runtime::check): call inside
// guarded().
#pragma once

#include <CL/cl.h>

#include "exec/Command.h"

struct _cl_command_queue;

namespace lockstep::api {

// api/transfer.cpp
runtime::Command copyBufferCommand(cl_command_queue queue, cl_mem src_buffer, cl_mem dst_buffer,
                                   size_t src_offset, size_t dst_offset, size_t size);
runtime::Command fillBufferCommand(cl_command_queue queue, cl_mem buffer, const void *pattern,
                                   size_t pattern_size, size_t offset, size_t size);

// api/transfer_rect.cpp
runtime::Command copyBufferRectCommand(cl_command_queue queue, cl_mem src_buffer, cl_mem dst_buffer,
                                       const size_t *src_origin, const size_t *dst_origin,
                                       const size_t *region, size_t src_row_pitch,
                                       size_t src_slice_pitch, size_t dst_row_pitch,
                                       size_t dst_slice_pitch);

// api/image_copy.cpp. The spec puts clEnqueueCopyImage's wait-list errors
// before CL_MEM_COPY_OVERLAP: copyImageCommand checks the wait list it is
// given (none for a recorded copy).
runtime::Command copyImageCommand(cl_command_queue queue, cl_mem src_image, cl_mem dst_image,
                                  const size_t *src_origin, const size_t *dst_origin,
                                  const size_t *region, cl_uint num_events_in_wait_list,
                                  const cl_event *event_wait_list);
runtime::Command copyImageToBufferCommand(cl_command_queue queue, cl_mem src_image,
                                          cl_mem dst_buffer, const size_t *src_origin,
                                          const size_t *region, size_t dst_offset);
runtime::Command copyBufferToImageCommand(cl_command_queue queue, cl_mem src_buffer,
                                          cl_mem dst_image, size_t src_offset,
                                          const size_t *dst_origin, const size_t *region);

// api/image_transfer.cpp
runtime::Command fillImageCommand(cl_command_queue queue, cl_mem image, const void *fill_color,
                                  const size_t *origin, const size_t *region);

// api/svm.cpp: SVM (and USM) copies and pattern fills between host-visible
// pointers (api/svm_commands.h says what they check).
runtime::Command hostMemcpyCommand(_cl_command_queue *queue, void *dst, const void *src,
                                   size_t size);
runtime::Command hostFillCommand(_cl_command_queue *queue, void *pointer, const void *pattern,
                                 size_t patternSize, size_t size);

// api/ndrange.cpp: every check of clEnqueueNDRangeKernel but the queue's and
// the wait list's, and the launch with its argument snapshot. `replayable`:
// a command that may run many times (PreparedLaunch::replayableCommand);
// otherwise one that runs once, for a queue.
runtime::Command kernelCommand(_cl_command_queue *queue, cl_kernel kernel, cl_uint work_dim,
                               const size_t *global_work_offset, const size_t *global_work_size,
                               const size_t *local_work_size, bool replayable);

}  // namespace lockstep::api

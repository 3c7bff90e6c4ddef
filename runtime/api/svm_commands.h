// The commands that SVM (api/svm.cpp) and unified shared memory
// (api/usm.cpp) share: a copy and a pattern fill between host-visible
// pointers, with the spec's checks, enqueued as a command of the caller's
// type (CL_COMMAND_SVM_MEMCPY or CL_COMMAND_MEMCPY_INTEL, ...). Each throws
// the error (runtime::check): call inside guarded().
#pragma once

#include <CL/cl.h>

struct _cl_command_queue;

namespace lockstep::api {

// A range a command reads or writes: it does not wrap around the address
// space, and one that starts in an SVM (or USM) allocation of the queue's
// context ends inside it; CL_INVALID_VALUE otherwise.
void checkSvmRange(_cl_command_queue *queue, const void *pointer, size_t size);

// CL_INVALID_VALUE for a NULL pointer, CL_MEM_COPY_OVERLAP for ranges that
// overlap; then a memcpy in queue order.
void enqueueHostMemcpy(_cl_command_queue *queue, cl_command_type type, cl_bool blocking,
                       void *dst, const void *src, size_t size, cl_uint numEvents,
                       const cl_event *waitList, cl_event *event);

// The pattern's checks (api/fill.h), CL_INVALID_VALUE for a NULL pointer,
// one not aligned to the pattern, or a size not a multiple of it.
void enqueueHostFill(_cl_command_queue *queue, cl_command_type type, void *pointer,
                     const void *pattern, size_t patternSize, size_t size, cl_uint numEvents,
                     const cl_event *waitList, cl_event *event);

}  // namespace lockstep::api

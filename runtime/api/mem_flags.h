// The memory flags every memory object's creation validates (buffers,
// sub-buffers, images): one set of rules, shared by runtime/api/memory.cpp
// and runtime/api/image.cpp.
#pragma once

#include <CL/cl.h>

namespace lockstep::api {

// "CL_INVALID_VALUE if values specified in flags are not valid as defined in
// the Memory Flags table": unknown bits and mutually exclusive ones.
void checkMemFlags(cl_mem_flags flags);
// The flags of an object made from `parent`'s storage (a sub-buffer, a 1D
// buffer image, an image from a buffer or an image): validated against the
// parent's (CL_INVALID_VALUE), the access and host-access flags not given
// inherited, the host-pointer flags the parent's.
cl_mem_flags inheritedMemFlags(cl_mem_flags parentFlags, cl_mem_flags flags);
// The flags of an object made on its own: CL_MEM_READ_WRITE when no access
// flag is given (the default, reported as such).
cl_mem_flags withDefaultAccess(cl_mem_flags flags);

}  // namespace lockstep::api

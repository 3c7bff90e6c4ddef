// Optional features Lockstep does not offer, answered with the error the
// spec gives for an absent feature after the handles are checked: pipes,
// SVM (no CL_DEVICE_SVM_CAPABILITIES), and the sharing extensions (GL, EGL) and
// cl_khr_subgroups, which the dispatch table has slots for but the platform
// does not list.
#include "Context.h"
#include "Memory.h"
#include "Queue.h"
#include "api/entry_points.h"

using namespace lockstep::runtime;

namespace lockstep::api {

namespace {

// "CL_INVALID_OPERATION if there are no devices in context that support
// images" (likewise samplers, pipes).
[[noreturn]] void absentIn(cl_context context) {
  checked(context);
  fail(CL_INVALID_OPERATION);
}

// "CL_INVALID_OPERATION if the device associated with command_queue does
// not support images" (likewise SVM, the sharing extensions).
[[noreturn]] void notOnQueue(cl_command_queue queue) {
  checked(queue);
  fail(CL_INVALID_OPERATION);
}

// No memory object is an image or a pipe: a valid handle is a buffer.
[[noreturn]] void notOfThatKind(cl_mem mem) { fail(CL_INVALID_MEM_OBJECT); }

}  // namespace

// --- pipes ---
cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags, cl_uint, cl_uint,
                                const cl_pipe_properties *, cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&]() -> cl_mem { absentIn(context); });
}
cl_int CL_API_CALL clGetPipeInfo(cl_mem pipe, cl_pipe_info, size_t, void *, size_t *) {
  return guarded([&] { notOfThatKind(pipe); });
}

// --- shared virtual memory ---
// "If clSVMAlloc fails, a NULL pointer is returned": no device supports SVM.
void *CL_API_CALL clSVMAlloc(cl_context, cl_svm_mem_flags, size_t, unsigned int) { return nullptr; }
// Only pointers from clSVMAlloc may be passed, and it returns none.
void CL_API_CALL clSVMFree(cl_context, void *) {}

cl_int CL_API_CALL clEnqueueSVMFree(cl_command_queue command_queue, cl_uint, void **,
                                    void(CL_CALLBACK *)(cl_command_queue, cl_uint, void **, void *),
                                    void *, cl_uint, const cl_event *, cl_event *) {
  return guarded([&] { notOnQueue(command_queue); });
}
cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool, void *, const void *,
                                      size_t, cl_uint, const cl_event *, cl_event *) {
  return guarded([&] { notOnQueue(command_queue); });
}
cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue command_queue, void *, const void *, size_t,
                                       size_t, cl_uint, const cl_event *, cl_event *) {
  return guarded([&] { notOnQueue(command_queue); });
}
cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue command_queue, cl_bool, cl_map_flags, void *,
                                   size_t, cl_uint, const cl_event *, cl_event *) {
  return guarded([&] { notOnQueue(command_queue); });
}
cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue command_queue, void *, cl_uint,
                                     const cl_event *, cl_event *) {
  return guarded([&] { notOnQueue(command_queue); });
}
cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint, const void **,
                                          const size_t *, cl_mem_migration_flags, cl_uint,
                                          const cl_event *, cl_event *) {
  return guarded([&] { notOnQueue(command_queue); });
}

// --- OpenGL sharing: "CL_INVALID_CONTEXT if context is not a valid context
// or was not created from a GL context" (none is) ---
cl_mem CL_API_CALL clCreateFromGLBuffer(cl_context, cl_mem_flags, cl_GLuint, int *errcode_ret) {
  return guardedCreate(errcode_ret, []() -> cl_mem { fail(CL_INVALID_CONTEXT); });
}
cl_mem CL_API_CALL clCreateFromGLTexture(cl_context, cl_mem_flags, cl_GLenum, cl_GLint, cl_GLuint,
                                         cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, []() -> cl_mem { fail(CL_INVALID_CONTEXT); });
}
cl_mem CL_API_CALL clCreateFromGLTexture2D(cl_context, cl_mem_flags, cl_GLenum, cl_GLint, cl_GLuint,
                                           cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, []() -> cl_mem { fail(CL_INVALID_CONTEXT); });
}
cl_mem CL_API_CALL clCreateFromGLTexture3D(cl_context, cl_mem_flags, cl_GLenum, cl_GLint, cl_GLuint,
                                           cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, []() -> cl_mem { fail(CL_INVALID_CONTEXT); });
}
cl_mem CL_API_CALL clCreateFromGLRenderbuffer(cl_context, cl_mem_flags, cl_GLuint,
                                              cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, []() -> cl_mem { fail(CL_INVALID_CONTEXT); });
}
cl_event CL_API_CALL clCreateEventFromGLsyncKHR(cl_context, cl_GLsync, cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, []() -> cl_event { fail(CL_INVALID_CONTEXT); });
}
// "CL_INVALID_GL_OBJECT if there is no GL object associated with memobj."
cl_int CL_API_CALL clGetGLObjectInfo(cl_mem memobj, cl_gl_object_type *, cl_GLuint *) {
  return guarded([&] {
    checked(memobj);
    fail(CL_INVALID_GL_OBJECT);
  });
}
cl_int CL_API_CALL clGetGLTextureInfo(cl_mem memobj, cl_gl_texture_info, size_t, void *, size_t *) {
  return guarded([&] {
    checked(memobj);
    fail(CL_INVALID_GL_OBJECT);
  });
}
cl_int CL_API_CALL clEnqueueAcquireGLObjects(cl_command_queue command_queue, cl_uint,
                                             const cl_mem *, cl_uint, const cl_event *,
                                             cl_event *) {
  return guarded([&] {
    checked(command_queue);
    fail(CL_INVALID_CONTEXT);
  });
}
cl_int CL_API_CALL clEnqueueReleaseGLObjects(cl_command_queue command_queue, cl_uint,
                                             const cl_mem *, cl_uint, const cl_event *,
                                             cl_event *) {
  return guarded([&] {
    checked(command_queue);
    fail(CL_INVALID_CONTEXT);
  });
}
cl_int CL_API_CALL clGetGLContextInfoKHR(const cl_context_properties *, cl_gl_context_info, size_t,
                                         void *, size_t *) {
  return CL_INVALID_OPERATION;
}

// --- EGL sharing ---
cl_mem CL_API_CALL clCreateFromEGLImageKHR(cl_context context, CLeglDisplayKHR, CLeglImageKHR,
                                           cl_mem_flags, const cl_egl_image_properties_khr *,
                                           cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&]() -> cl_mem { absentIn(context); });
}
cl_int CL_API_CALL clEnqueueAcquireEGLObjectsKHR(cl_command_queue command_queue, cl_uint,
                                                 const cl_mem *, cl_uint, const cl_event *,
                                                 cl_event *) {
  return guarded([&] { notOnQueue(command_queue); });
}
cl_int CL_API_CALL clEnqueueReleaseEGLObjectsKHR(cl_command_queue command_queue, cl_uint,
                                                 const cl_mem *, cl_uint, const cl_event *,
                                                 cl_event *) {
  return guarded([&] { notOnQueue(command_queue); });
}
cl_event CL_API_CALL clCreateEventFromEGLSyncKHR(cl_context context, CLeglSyncKHR, CLeglDisplayKHR,
                                                 cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&]() -> cl_event { absentIn(context); });
}

}  // namespace lockstep::api

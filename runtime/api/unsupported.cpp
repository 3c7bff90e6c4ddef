// Every entry point of a feature Lockstep does not offer, in one place. Each
// checks its handles, then gives the error the spec names for a device
// without the feature. The dispatch table has slots for them
// (api/entry_points.h); the platform and device report none of their
// features or extensions. Everything else in runtime/api/ is offered.
//
//   native kernels            clEnqueueNativeKernel
//   built-in kernels          clCreateProgramWithBuiltInKernels
//   program-scope global      clSetProgramReleaseCallback
//   constructors/destructors
//   changing queue properties clSetCommandQueueProperty (OpenCL 1.0 only)
//   OpenGL sharing            clCreateFromGLBuffer, clCreateFromGLTexture,
//   (cl_khr_gl_sharing,       clCreateFromGLTexture2D, clCreateFromGLTexture3D,
//   cl_khr_gl_event)          clCreateFromGLRenderbuffer, clGetGLObjectInfo,
//                             clGetGLTextureInfo, clEnqueueAcquireGLObjects,
//                             clEnqueueReleaseGLObjects, clGetGLContextInfoKHR,
//                             clCreateEventFromGLsyncKHR
//   EGL sharing               clCreateFromEGLImageKHR,
//   (cl_khr_egl_image,        clEnqueueAcquireEGLObjectsKHR,
//   cl_khr_egl_event)         clEnqueueReleaseEGLObjectsKHR,
//                             clCreateEventFromEGLSyncKHR
#include "Context.h"
#include "Device.h"
#include "Memory.h"
#include "Program.h"
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
// not support images" (likewise the sharing extensions).
[[noreturn]] void notOnQueue(cl_command_queue queue) {
  checked(queue);
  fail(CL_INVALID_OPERATION);
}

}  // namespace

// --- changing a queue's properties ---
cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue command_queue,
                                             cl_command_queue_properties properties, cl_bool enable,
                                             cl_command_queue_properties *old_properties) {
  // Removed from OpenCL 1.1 on: the properties of a queue are fixed when it
  // is created.
  return guarded([&] {
    checked(command_queue);
    fail(CL_INVALID_OPERATION);
  });
}

// --- native kernels ---
cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue command_queue,
                                         void(CL_CALLBACK *user_func)(void *), void *args,
                                         size_t cb_args, cl_uint num_mem_objects,
                                         const cl_mem *mem_list, const void **args_mem_loc,
                                         cl_uint num_events_in_wait_list,
                                         const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    checked(command_queue);
    // CL_DEVICE_EXECUTION_CAPABILITIES has no CL_EXEC_NATIVE_KERNEL.
    fail(CL_INVALID_OPERATION);
  });
}

// --- built-in kernels ---
cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                                         const cl_device_id *device_list,
                                                         const char *kernel_names,
                                                         cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&]() -> cl_program {
    _cl_context *ctx = checked(context);
    // "CL_INVALID_VALUE if device_list is NULL or num_devices is zero."
    check(device_list != nullptr && num_devices != 0, CL_INVALID_VALUE);
    // "CL_INVALID_VALUE if kernel_names is NULL ..."
    check(kernel_names != nullptr, CL_INVALID_VALUE);
    // "CL_INVALID_DEVICE if devices listed in device_list are not in the
    // list of devices associated with context."
    for (cl_uint i = 0; i < num_devices; ++i)
      check(ctx->hasDevice(device_list[i]), CL_INVALID_DEVICE);
    // "... or kernel_names contains a kernel name that is not supported by
    // any of the devices in device_list": Lockstep has no built-in kernels.
    fail(CL_INVALID_VALUE);
  });
}

// --- program-scope constructors and destructors ---
cl_int CL_API_CALL clSetProgramReleaseCallback(cl_program program,
                                               void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                               void *user_data) {
  return guarded([&] {
    checked(program);
    // "CL_INVALID_VALUE if pfn_notify is NULL."
    check(pfn_notify != nullptr, CL_INVALID_VALUE);
    // "CL_INVALID_OPERATION if no devices in the context associated with
    // program support global variables with non-trivial constructors or
    // destructors": OpenCL C has none, so neither does Lockstep.
    fail(CL_INVALID_OPERATION);
  });
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

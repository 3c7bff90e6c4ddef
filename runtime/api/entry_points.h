// The one list of Lockstep's cl* entry points. icd/Dispatch.cpp fills the
// cl_icd_dispatch table from it (a missing definition is a link error), and
// clGetExtensionFunctionAddress* answers from LOCKSTEP_EXTENSION_FUNCTIONS.
//
// Each entry point is declared here as lockstep::api::<clName> with exactly
// the type of its dispatch-table slot (cl_api_<clName> from CL/cl_icd.h) and
// defined in runtime/api/<object>.cpp inside `namespace lockstep::api`;
// those of features Lockstep does not offer in runtime/api/unsupported.cpp.
// Every body runs in guarded()/guardedCreate() (runtime/Object.h). Call another
// entry point qualified (api::clRetainX(x)): argument-dependent lookup also
// finds the global ::clRetainX of CL/cl.h, and the call is ambiguous.
#pragma once

#include <CL/cl_ext.h>
#include <CL/cl_icd.h>

#include "api/command_buffer_abi.h"

#include <type_traits>

// clang-format off
// Platform, device, context, queue, event, memory (buffers and images),
// samplers, shared virtual memory (api/svm.cpp), device partitioning
// (api/device_partition.cpp), and the optional features Lockstep does not
// offer (pipes, GL/EGL sharing, native kernels: api/unsupported.cpp lists
// them all), and cl_khr_subgroups' name of the sub-group query.
#define LOCKSTEP_OBJECT_ENTRY_POINTS(X)                                                       \
  X(clGetPlatformIDs) X(clGetPlatformInfo) X(clGetDeviceIDs) X(clGetDeviceInfo)               \
  X(clCreateSubDevices) X(clRetainDevice) X(clReleaseDevice) X(clGetDeviceAndHostTimer)      \
  X(clGetHostTimer) X(clUnloadCompiler) X(clUnloadPlatformCompiler)                           \
  X(clGetExtensionFunctionAddress) X(clGetExtensionFunctionAddressForPlatform)                \
  X(clCreateContext) X(clCreateContextFromType) X(clRetainContext) X(clReleaseContext)        \
  X(clGetContextInfo) X(clSetContextDestructorCallback)                                       \
  X(clCreateCommandQueue) X(clCreateCommandQueueWithProperties) X(clRetainCommandQueue)       \
  X(clReleaseCommandQueue) X(clGetCommandQueueInfo) X(clSetCommandQueueProperty) X(clFlush)   \
  X(clFinish) X(clSetDefaultDeviceCommandQueue)                                               \
  X(clCreateBuffer) X(clCreateBufferWithProperties) X(clCreateSubBuffer)                      \
  X(clRetainMemObject) X(clReleaseMemObject) X(clGetMemObjectInfo)                            \
  X(clSetMemObjectDestructorCallback) X(clEnqueueReadBuffer) X(clEnqueueWriteBuffer)          \
  X(clEnqueueCopyBuffer) X(clEnqueueReadBufferRect) X(clEnqueueWriteBufferRect)               \
  X(clEnqueueCopyBufferRect) X(clEnqueueFillBuffer) X(clEnqueueMapBuffer)                     \
  X(clEnqueueUnmapMemObject) X(clEnqueueMigrateMemObjects)                                    \
  X(clCreateImage2D) X(clCreateImage3D) X(clCreateImage) X(clCreateImageWithProperties)       \
  X(clGetSupportedImageFormats) X(clGetImageInfo) X(clEnqueueReadImage)                       \
  X(clEnqueueWriteImage) X(clEnqueueCopyImage) X(clEnqueueCopyImageToBuffer)                  \
  X(clEnqueueCopyBufferToImage) X(clEnqueueMapImage) X(clEnqueueFillImage)                    \
  X(clCreateSampler) X(clCreateSamplerWithProperties) X(clRetainSampler)                      \
  X(clReleaseSampler) X(clGetSamplerInfo) X(clCreatePipe) X(clGetPipeInfo)                    \
  X(clSVMAlloc) X(clSVMFree) X(clEnqueueSVMFree) X(clEnqueueSVMMemcpy)                        \
  X(clEnqueueSVMMemFill) X(clEnqueueSVMMap) X(clEnqueueSVMUnmap) X(clEnqueueSVMMigrateMem)    \
  X(clWaitForEvents) X(clGetEventInfo) X(clRetainEvent) X(clReleaseEvent)                     \
  X(clGetEventProfilingInfo) X(clSetEventCallback) X(clCreateUserEvent)                       \
  X(clSetUserEventStatus) X(clEnqueueMarker) X(clEnqueueWaitForEvents) X(clEnqueueBarrier)    \
  X(clEnqueueMarkerWithWaitList) X(clEnqueueBarrierWithWaitList) X(clEnqueueNativeKernel)     \
  X(clCreateFromGLBuffer) X(clCreateFromGLTexture) X(clCreateFromGLTexture2D)                 \
  X(clCreateFromGLTexture3D) X(clCreateFromGLRenderbuffer) X(clGetGLObjectInfo)               \
  X(clGetGLTextureInfo) X(clEnqueueAcquireGLObjects) X(clEnqueueReleaseGLObjects)             \
  X(clGetGLContextInfoKHR) X(clCreateEventFromGLsyncKHR)                                      \
  X(clCreateSubDevicesEXT) X(clRetainDeviceEXT) X(clReleaseDeviceEXT)                         \
  X(clCreateFromEGLImageKHR) X(clEnqueueAcquireEGLObjectsKHR)                                 \
  X(clEnqueueReleaseEGLObjectsKHR) X(clCreateEventFromEGLSyncKHR)                             \
  X(clGetKernelSubGroupInfoKHR)

// Programs, kernels and kernel launches (runtime/api/program.cpp, kernel.cpp,
// kernel_arguments.cpp (SVM arguments too), ndrange.cpp; the IL, built-in
// kernel and release-callback ones in unsupported.cpp).
#define LOCKSTEP_PROGRAM_ENTRY_POINTS(X)                                                      \
  X(clCreateProgramWithSource) X(clCreateProgramWithBinary)                                   \
  X(clCreateProgramWithBuiltInKernels) X(clCreateProgramWithIL) X(clRetainProgram)            \
  X(clReleaseProgram) X(clBuildProgram) X(clCompileProgram) X(clLinkProgram)                  \
  X(clGetProgramInfo) X(clGetProgramBuildInfo) X(clSetProgramReleaseCallback)                 \
  X(clSetProgramSpecializationConstant)                                                       \
  X(clCreateKernel) X(clCreateKernelsInProgram) X(clCloneKernel) X(clRetainKernel)            \
  X(clReleaseKernel) X(clSetKernelArg) X(clSetKernelArgSVMPointer) X(clSetKernelExecInfo)     \
  X(clGetKernelInfo) X(clGetKernelWorkGroupInfo) X(clGetKernelArgInfo)                        \
  X(clGetKernelSubGroupInfo) X(clEnqueueNDRangeKernel) X(clEnqueueTask)

#define LOCKSTEP_ENTRY_POINTS(X) LOCKSTEP_OBJECT_ENTRY_POINTS(X) LOCKSTEP_PROGRAM_ENTRY_POINTS(X)

// What clGetExtensionFunctionAddress* return: the functions of the API-level
// extensions in CL_PLATFORM_EXTENSIONS (not core functions, per the spec),
// and clGetKernelSubGroupInfoKHR, the extension-named form of the core
// sub-group query that programs written against cl_khr_subgroups look up
// (a non-NULL address does not claim the extension, per the spec); and
// cl_ext_device_fission's (api/device_partition.cpp: they have dispatch
// table slots too); cl_intel_unified_shared_memory's (api/usm.cpp) and
// cl_khr_suggested_local_work_size's (api/suggested_local_size.cpp), which
// have no dispatch table slot: the ICD loader reaches them only through these;
// and cl_khr_command_buffer's (api/command_buffer.cpp, command_buffer_record.cpp),
// and cl_khr_command_buffer_mutable_dispatch's (command_buffer_mutable.cpp),
// likewise without a slot.
#define LOCKSTEP_EXTENSION_FUNCTIONS(X)                                                       \
  X(clIcdGetPlatformIDsKHR) X(clGetKernelSubGroupInfoKHR) X(clCreateProgramWithILKHR)         \
  X(clCreateSubDevicesEXT) X(clRetainDeviceEXT) X(clReleaseDeviceEXT)                         \
  X(clGetKernelSuggestedLocalWorkSizeKHR) LOCKSTEP_USM_FUNCTIONS(X)                           \
  LOCKSTEP_COMMAND_BUFFER_FUNCTIONS(X)

#define LOCKSTEP_USM_FUNCTIONS(X)                                                             \
  X(clHostMemAllocINTEL) X(clDeviceMemAllocINTEL) X(clSharedMemAllocINTEL) X(clMemFreeINTEL)  \
  X(clMemBlockingFreeINTEL) X(clGetMemAllocInfoINTEL) X(clSetKernelArgMemPointerINTEL)        \
  X(clEnqueueMemFillINTEL) X(clEnqueueMemcpyINTEL) X(clEnqueueMemsetINTEL)                    \
  X(clEnqueueMigrateMemINTEL) X(clEnqueueMemAdviseINTEL)

#define LOCKSTEP_COMMAND_BUFFER_FUNCTIONS(X)                                                  \
  X(clCreateCommandBufferKHR) X(clFinalizeCommandBufferKHR) X(clRetainCommandBufferKHR)       \
  X(clReleaseCommandBufferKHR) X(clEnqueueCommandBufferKHR) X(clGetCommandBufferInfoKHR)      \
  X(clCommandBarrierWithWaitListKHR) X(clCommandCopyBufferKHR) X(clCommandCopyBufferRectKHR)  \
  X(clCommandCopyBufferToImageKHR) X(clCommandCopyImageKHR) X(clCommandCopyImageToBufferKHR)  \
  X(clCommandFillBufferKHR) X(clCommandFillImageKHR) X(clCommandNDRangeKernelKHR)             \
  X(clCommandSVMMemcpyKHR) X(clCommandSVMMemFillKHR)                                         \
  X(clUpdateMutableCommandsKHR) X(clGetMutableCommandInfoKHR)
// clang-format on

namespace lockstep::api {

#define LOCKSTEP_DECLARE_ENTRY_POINT(name) extern std::remove_pointer_t<cl_api_##name> name;
LOCKSTEP_ENTRY_POINTS(LOCKSTEP_DECLARE_ENTRY_POINT)
#undef LOCKSTEP_DECLARE_ENTRY_POINT

cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint numEntries, cl_platform_id *platforms,
                                          cl_uint *numPlatforms);
cl_program CL_API_CALL clCreateProgramWithILKHR(cl_context context, const void *il, size_t length,
                                                cl_int *errcode_ret);
extern std::remove_pointer_t<clGetKernelSuggestedLocalWorkSizeKHR_fn>
    clGetKernelSuggestedLocalWorkSizeKHR;

// cl_intel_unified_shared_memory (api/usm.cpp; clSetKernelArgMemPointerINTEL
// in api/kernel_arguments.cpp), with the types of CL/cl_ext.h's prototypes.
#define LOCKSTEP_DECLARE_USM_FUNCTION(name) extern std::remove_pointer_t<name##_fn> name;
LOCKSTEP_USM_FUNCTIONS(LOCKSTEP_DECLARE_USM_FUNCTION)
#undef LOCKSTEP_DECLARE_USM_FUNCTION

// cl_khr_command_buffer 0.9.8, with the types of api/command_buffer_abi.h
// (Debian's CL/cl_ext.h declares an older version).
#define LOCKSTEP_DECLARE_COMMAND_BUFFER_FUNCTION(name) \
  extern std::remove_pointer_t<khr::name##_fn> name;
LOCKSTEP_COMMAND_BUFFER_FUNCTIONS(LOCKSTEP_DECLARE_COMMAND_BUFFER_FUNCTION)
#undef LOCKSTEP_DECLARE_COMMAND_BUFFER_FUNCTION

}  // namespace lockstep::api

// clGetDeviceInfo's answers about memory and images (the rest are
// api/device.cpp's): sizes, caches, alignment, argument limits, SVM, pipes
// (absent); image sizes and formats' limits, samplers.
#include <CL/cl_ext.h>

#include <algorithm>

#include "Device.h"
#include "api/device_info.h"
#include "lockstep/compiler/Compiler.h"

using namespace lockstep::runtime;
using lockstep::compiler::Compiler;

namespace lockstep::api {

// Memory: sizes, caches, alignment, arguments, SVM; pipes.
bool memoryInfo(cl_device_id d, cl_device_info param, const InfoWriter &out) {
  switch (param) {
    case CL_DEVICE_ADDRESS_BITS:
      out.value<cl_uint>(64);
      return true;
    case CL_DEVICE_GLOBAL_MEM_SIZE:
      out.value<cl_ulong>(d->globalMemSize);
      return true;
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
      out.value<cl_ulong>(d->maxAllocSize);
      return true;
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
      out.value<cl_device_mem_cache_type>(CL_READ_WRITE_CACHE);
      return true;
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
      out.value<cl_ulong>(d->globalCacheSize);
      return true;
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
      out.value<cl_uint>(d->globalCacheLineSize);
      return true;
    case CL_DEVICE_LOCAL_MEM_TYPE:
      out.value<cl_device_local_mem_type>(CL_LOCAL);
      return true;
    case CL_DEVICE_LOCAL_MEM_SIZE:
      out.value<cl_ulong>(_cl_device_id::kLocalMemSize);
      return true;
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
      out.value<cl_ulong>(std::min(_cl_device_id::kMaxConstantBufferSize, d->maxAllocSize));
      return true;
    case CL_DEVICE_MAX_CONSTANT_ARGS:
      out.value<cl_uint>(_cl_device_id::kMaxConstantArgs);
      return true;
    case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
    case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
      out.value<size_t>(_cl_device_id::kMaxGlobalVariableSize);
      return true;
    case CL_DEVICE_MAX_PARAMETER_SIZE:
      out.value<size_t>(_cl_device_id::kMaxParameterSize);
      return true;
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
      out.value<cl_uint>(_cl_device_id::kMemBaseAddrAlignBits);
      return true;
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
      out.value<cl_uint>(_cl_device_id::kMemBaseAddrAlignBytes);
      return true;
    case CL_DEVICE_PRINTF_BUFFER_SIZE:
      out.value<size_t>(_cl_device_id::kPrintfBufferSize);
      return true;
    case CL_DEVICE_SVM_CAPABILITIES:
      // One address space with the host, coherent caches: every kind of
      // SVM, host memory of any origin included (api/svm.cpp).
      out.value<cl_device_svm_capabilities>(
          CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
          CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS);
      return true;
    case CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL:
    case CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL:
    case CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL:
    case CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL:
    case CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL:
      // Every kind of USM is the host's coherent memory, as is memory of
      // any origin (fine-grained system SVM): kernels may access it, with
      // atomics, while the host (or another device's kernels) does too.
      out.value<cl_device_unified_shared_memory_capabilities_intel>(
          CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL | CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL |
          CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL |
          CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL);
      return true;
    case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
      // "0 which indicates that the preferred alignment is aligned to the
      // natural size of the type": an x86 atomic needs no more.
      out.value<cl_uint>(0);
      return true;
    case CL_DEVICE_MAX_PIPE_ARGS:
      out.value<cl_uint>(_cl_device_id::kMaxPipeArgs);
      return true;
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
      out.value<cl_uint>(_cl_device_id::kPipeMaxActiveReservations);
      return true;
    case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
      out.value<cl_uint>(_cl_device_id::kPipeMaxPacketSize);
      return true;
  }
  return false;
}

// Images and samplers.
bool imageInfo(cl_device_id d, cl_device_info param, const InfoWriter &out) {
  switch (param) {
    case CL_DEVICE_IMAGE_SUPPORT:
      out.value<cl_bool>(CL_TRUE);
      return true;
    case CL_DEVICE_MAX_READ_IMAGE_ARGS:
      out.value<cl_uint>(_cl_device_id::kMaxReadImageArgs);
      return true;
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
      out.value<cl_uint>(_cl_device_id::kMaxWriteImageArgs);
      return true;
    case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
      out.value<cl_uint>(_cl_device_id::kMaxReadWriteImageArgs);
      return true;
    case CL_DEVICE_MAX_SAMPLERS:
      out.value<cl_uint>(_cl_device_id::kMaxSamplers);
      return true;
    case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
      out.value<cl_uint>(_cl_device_id::kImagePitchAlignment);
      return true;
    case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
      out.value<cl_uint>(_cl_device_id::kImageBaseAddressAlignment);
      return true;
    case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
      out.value<size_t>(_cl_device_id::kImage2DMaxSize);
      return true;
    case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_DEPTH:
      out.value<size_t>(_cl_device_id::kImage3DMaxSize);
      return true;
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
      out.value<size_t>(d->imageMaxBufferSize());
      return true;
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
      out.value<size_t>(_cl_device_id::kImageMaxArraySize);
      return true;
  }
  return false;
}

}  // namespace lockstep::api

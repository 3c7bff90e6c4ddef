// Buffers and sub-buffers: creation; every memory object: queries, reference
// counts (images are created in image.cpp).
#include "Memory.h"

#include "Context.h"
#include "Device.h"
#include "api/entry_points.h"
#include "api/mem_flags.h"

using namespace lockstep::runtime;

namespace lockstep::api {

namespace {

cl_mem createBuffer(cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
                    size_t size, void *hostPtr) {
  checked(context);
  std::vector<cl_mem_properties> props;
  if (properties) {
    // OpenCL 3.0 defines no buffer property; extensions Lockstep lacks would.
    check(properties[0] == 0, CL_INVALID_PROPERTY);
    props.push_back(0);
  }
  checkMemFlags(flags);
  // "CL_INVALID_BUFFER_SIZE if size is 0, or if size is greater than
  // CL_DEVICE_MAX_MEM_ALLOC_SIZE for all devices in context."
  check(size != 0, CL_INVALID_BUFFER_SIZE);
  bool fits = false;
  for (cl_device_id device : context->devices()) fits |= size <= device->maxAllocSize;
  check(fits, CL_INVALID_BUFFER_SIZE);
  // "CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or
  // CL_MEM_COPY_HOST_PTR are set in flags or if host_ptr is not NULL but
  // CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags."
  bool wantsHostPtr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  check(wantsHostPtr == (hostPtr != nullptr), CL_INVALID_HOST_PTR);
  // "CL_INVALID_BUFFER_SIZE ... if CL_MEM_USE_HOST_PTR or
  // CL_MEM_COPY_HOST_PTR is set in flags, and host_ptr is a pointer returned
  // by clSVMAlloc, and size is greater than the size passed to clSVMAlloc":
  // likewise for a pointer into an allocation, whose bytes end with it.
  if (wantsHostPtr)
    check(context->svm().fitsAllocation(hostPtr, size), CL_INVALID_BUFFER_SIZE);
  return new _cl_mem(context, withDefaultAccess(flags), size, hostPtr, std::move(props));
}

}  // namespace

cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size,
                                  void *host_ptr, cl_int *errcode_ret) {
  return guardedCreate(errcode_ret,
                       [&] { return createBuffer(context, nullptr, flags, size, host_ptr); });
}

cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context,
                                                const cl_mem_properties *properties,
                                                cl_mem_flags flags, size_t size, void *host_ptr,
                                                cl_int *errcode_ret) {
  return guardedCreate(errcode_ret,
                       [&] { return createBuffer(context, properties, flags, size, host_ptr); });
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                                     cl_buffer_create_type buffer_create_type,
                                     const void *buffer_create_info, cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&]() -> cl_mem {
    // A buffer, neither a sub-buffer nor an image.
    check(isValid(buffer) && buffer->type() == CL_MEM_OBJECT_BUFFER && buffer->parent() == nullptr,
          CL_INVALID_MEM_OBJECT);
    cl_mem_flags childFlags = inheritedMemFlags(buffer->flags(), flags);
    check(buffer_create_type == CL_BUFFER_CREATE_TYPE_REGION, CL_INVALID_VALUE);
    check(buffer_create_info != nullptr, CL_INVALID_VALUE);
    const auto *region = static_cast<const cl_buffer_region *>(buffer_create_info);
    check(region->origin <= buffer->size() && region->size <= buffer->size() - region->origin,
          CL_INVALID_VALUE);
    check(region->size != 0, CL_INVALID_BUFFER_SIZE);
    // Every device of the context has the same CL_DEVICE_MEM_BASE_ADDR_ALIGN.
    check(region->origin % _cl_device_id::kMemBaseAddrAlignBytes == 0,
          CL_MISALIGNED_SUB_BUFFER_OFFSET);
    return new _cl_mem(buffer, childFlags, region->origin, region->size);
  });
}

cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) {
  return guarded([&] { checked(memobj)->retain(); });
}

cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
  // The storage goes when the last command using it is done too (Ref<>).
  return guarded([&] { checked(memobj)->release(); });
}

cl_int CL_API_CALL clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name,
                                      size_t param_value_size, void *param_value,
                                      size_t *param_value_size_ret) {
  return guarded([&] {
    cl_mem m = checked(memobj);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
      case CL_MEM_TYPE:
        return out.value<cl_mem_object_type>(m->type());
      case CL_MEM_FLAGS:
        return out.value<cl_mem_flags>(m->flags());
      case CL_MEM_SIZE:
        return out.value<size_t>(m->size());
      case CL_MEM_HOST_PTR:
        return out.value<void *>(m->hostPtr());
      case CL_MEM_MAP_COUNT:
        return out.value<cl_uint>(m->mapCount.load(std::memory_order_relaxed));
      case CL_MEM_REFERENCE_COUNT:
        return out.value<cl_uint>(m->referenceCount());
      case CL_MEM_CONTEXT:
        return out.value<cl_context>(m->context());
      case CL_MEM_ASSOCIATED_MEMOBJECT:
        return out.value<cl_mem>(m->parent());
      case CL_MEM_OFFSET:
        return out.value<size_t>(m->offset());
      case CL_MEM_USES_SVM_POINTER:
        return out.value<cl_bool>(m->usesSvmPointer() ? CL_TRUE : CL_FALSE);
      case CL_MEM_PROPERTIES:
        return out.array<cl_mem_properties>(m->properties());
      default:
        fail(CL_INVALID_VALUE);
    }
  });
}

cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem memobj,
                                                    void(CL_CALLBACK *pfn_notify)(cl_mem, void *),
                                                    void *user_data) {
  return guarded([&] {
    checked(memobj);
    check(pfn_notify != nullptr, CL_INVALID_VALUE);
    memobj->addDestructorCallback(pfn_notify, user_data);
  });
}

}  // namespace lockstep::api

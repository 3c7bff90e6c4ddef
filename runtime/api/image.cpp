// (Long because each creation path validates the spec's list of errors for
// its image type in the spec's order; the work is in Image.cpp.)
// Images: creation (every image type, with or without the application's
// memory, a 1D image over a buffer, and cl_khr_image2d_from_buffer's 2D
// image over a buffer or another 2D image), the supported formats and
// clGetImageInfo. Each entry point validates its arguments in the order the
// OpenCL 3.0 API specification lists them.
#include <algorithm>
#include <vector>

#include "Context.h"
#include "Device.h"
#include "Memory.h"
#include "api/entry_points.h"
#include "api/mem_flags.h"

using namespace lockstep::runtime;

namespace lockstep::api {

namespace {

bool isImageType(cl_mem_object_type type) {
  switch (type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    case CL_MEM_OBJECT_IMAGE3D:
      return true;
  }
  return false;
}

bool hasHeight(cl_mem_object_type type) {
  return type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
         type == CL_MEM_OBJECT_IMAGE3D;
}
bool isArray(cl_mem_object_type type) {
  return type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
}

// a * b, or SIZE_MAX if that overflows (then no pitch or size can reach it).
size_t mulOrMax(size_t a, size_t b) {
  size_t product;
  return __builtin_mul_overflow(a, b, &product) ? SIZE_MAX : product;
}

// "CL_INVALID_PROPERTY if a property name in properties is not a supported
// property name": OpenCL 3.0 defines no image property.
std::vector<cl_mem_properties> imageProperties(const cl_mem_properties *properties) {
  if (!properties) return {};
  check(properties[0] == 0, CL_INVALID_PROPERTY);
  return {0};
}

// The object whose storage the image uses (desc->mem_object), or null:
// a buffer for a 1D buffer image, a buffer or a 2D image for a 2D image,
// nothing for the others.
_cl_mem *sourceOf(cl_context context, const cl_image_desc &desc) {
  cl_mem source = desc.mem_object;
  if (desc.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    check(source != nullptr, CL_INVALID_IMAGE_DESCRIPTOR);
  } else if (desc.image_type != CL_MEM_OBJECT_IMAGE2D) {
    check(source == nullptr, CL_INVALID_IMAGE_DESCRIPTOR);
  }
  if (!source) return nullptr;
  check(isValid(source) && source->context() == context, CL_INVALID_IMAGE_DESCRIPTOR);
  bool buffer = source->type() == CL_MEM_OBJECT_BUFFER;
  if (desc.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER) check(buffer, CL_INVALID_IMAGE_DESCRIPTOR);
  check(buffer || source->type() == CL_MEM_OBJECT_IMAGE2D, CL_INVALID_IMAGE_DESCRIPTOR);
  return source;
}

// An image from a 2D image views the same texels through another channel
// order: the same data type, the same or the sRGB/linear (or depth/red)
// counterpart order.
bool compatibleOrders(cl_channel_order a, cl_channel_order b) {
  auto pairOf = [](cl_channel_order order) -> cl_channel_order {
    switch (order) {
      case CL_sBGRA:
        return CL_BGRA;
      case CL_sRGBA:
        return CL_RGBA;
      case CL_sRGB:
        return CL_RGB;
      case CL_sRGBx:
        return CL_RGBx;
      case CL_DEPTH:
        return CL_R;
    }
    return order;
  };
  return pairOf(a) == pairOf(b);
}

// Bytes each channel must be aligned to (the whole texel for packed types):
// what CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT's one texel guarantees, and
// all the image built-ins need.
size_t channelAlignment(const cl_image_format &format) {
  size_t element = imageElementSize(format);
  switch (format.image_channel_data_type) {
    case CL_UNORM_SHORT_565:
    case CL_UNORM_SHORT_555:
    case CL_UNORM_INT_101010:
      return element;
  }
  return element / imageChannelCount(format);
}

// "CL_INVALID_IMAGE_SIZE if image dimensions specified in image_desc exceed
// the maximum image dimensions described in the Device Queries table for
// all devices in context."
void checkLimits(cl_context context, const cl_image_desc &desc) {
  size_t maxBufferTexels = 0;
  for (cl_device_id device : context->devices())
    maxBufferTexels = std::max(maxBufferTexels, device->imageMaxBufferSize());
  bool fits = true;
  switch (desc.image_type) {
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
      fits = desc.image_width <= maxBufferTexels;
      break;
    case CL_MEM_OBJECT_IMAGE3D:
      fits = desc.image_width <= _cl_device_id::kImage3DMaxSize &&
             desc.image_height <= _cl_device_id::kImage3DMaxSize &&
             desc.image_depth <= _cl_device_id::kImage3DMaxSize;
      break;
    default:
      fits = desc.image_width <= _cl_device_id::kImage2DMaxSize &&
             (!hasHeight(desc.image_type) || desc.image_height <= _cl_device_id::kImage2DMaxSize);
  }
  if (isArray(desc.image_type)) fits &= desc.image_array_size <= _cl_device_id::kImageMaxArraySize;
  check(fits, CL_INVALID_IMAGE_SIZE);
}

// Type, sizes and the sizes' own rules ("image_desc ... not valid").
ImageLayout shapeOf(const cl_image_desc &desc, const cl_image_format &format, size_t element) {
  ImageLayout layout;
  layout.type = desc.image_type;
  layout.format = format;
  layout.elementSize = element;
  layout.width = desc.image_width;
  check(layout.width >= 1, CL_INVALID_IMAGE_DESCRIPTOR);
  if (hasHeight(layout.type)) {
    layout.height = desc.image_height;
    check(layout.height >= 1, CL_INVALID_IMAGE_DESCRIPTOR);
  }
  if (layout.type == CL_MEM_OBJECT_IMAGE3D) {
    layout.depth = desc.image_depth;
    check(layout.depth >= 1, CL_INVALID_IMAGE_DESCRIPTOR);
  }
  if (isArray(layout.type)) {
    layout.arraySize = desc.image_array_size;
    check(layout.arraySize >= 1, CL_INVALID_IMAGE_DESCRIPTOR);
  }
  // "num_mip_levels and num_samples must be 0."
  check(desc.num_mip_levels == 0 && desc.num_samples == 0, CL_INVALID_IMAGE_DESCRIPTOR);
  return layout;
}

// The pitches of the application's memory, from image_row_pitch and
// image_slice_pitch (0: tightly packed). A 1D array's layers are its rows:
// rowPitch is then the layer pitch.
struct HostPitches {
  size_t row = 0, slice = 0;
  size_t given = 0;  // a 1D array's image_row_pitch (row is its layer pitch)
};

HostPitches hostPitchesOf(const cl_image_desc &desc, const ImageLayout &layout) {
  // "If image_row_pitch is not 0, it must be >= image_width * size of
  // element in bytes, and must be a multiple of the image element size."
  size_t tightRow = layout.width * layout.elementSize;
  size_t row = desc.image_row_pitch ? desc.image_row_pitch : tightRow;
  check(row >= tightRow && row % layout.elementSize == 0, CL_INVALID_IMAGE_DESCRIPTOR);
  // "image_slice_pitch ... can be either 0 or >= image_row_pitch *
  // image_height for a 2D image array or 3D image and can be either 0 or
  // >= image_row_pitch for a 1D image array", and a multiple of the row
  // pitch.
  size_t tightSlice = 0;
  if (layout.type == CL_MEM_OBJECT_IMAGE1D_ARRAY) tightSlice = row;
  if (layout.type == CL_MEM_OBJECT_IMAGE2D_ARRAY || layout.type == CL_MEM_OBJECT_IMAGE3D)
    tightSlice = mulOrMax(row, layout.height);
  if (tightSlice == 0) return {row, 0};  // 1D and 2D: no slices
  size_t slice = desc.image_slice_pitch ? desc.image_slice_pitch : tightSlice;
  check(tightSlice != SIZE_MAX && slice >= tightSlice && slice % row == 0,
        CL_INVALID_IMAGE_DESCRIPTOR);
  if (layout.type == CL_MEM_OBJECT_IMAGE1D_ARRAY) return {slice, slice, row};
  return {row, slice};
}

// Tightly packed storage: the image's own.
void packTightly(ImageLayout &layout) {
  layout.rowPitch = layout.width * layout.elementSize;
  if (layout.type == CL_MEM_OBJECT_IMAGE1D_ARRAY) layout.slicePitch = layout.rowPitch;
  if (layout.type == CL_MEM_OBJECT_IMAGE2D_ARRAY || layout.type == CL_MEM_OBJECT_IMAGE3D)
    layout.slicePitch = layout.rowPitch * layout.height;
}

// A 1D image over a buffer, or cl_khr_image2d_from_buffer's 2D image over
// one: the buffer's bytes with the given row pitch.
void layOutOverBuffer(ImageLayout &layout, const cl_image_desc &desc, const _cl_mem &buffer) {
  check(desc.image_slice_pitch == 0, CL_INVALID_IMAGE_DESCRIPTOR);
  size_t tightRow = layout.width * layout.elementSize;
  layout.rowPitch = desc.image_row_pitch ? desc.image_row_pitch : tightRow;
  if (layout.type == CL_MEM_OBJECT_IMAGE2D) {
    // "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if a 2D image is created from a
    // buffer and the row pitch and base address alignment does not follow
    // the rules": a pitch of whole texels (CL_DEVICE_IMAGE_PITCH_ALIGNMENT
    // 1), channels aligned at the base (CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT).
    check(layout.rowPitch % (layout.elementSize * _cl_device_id::kImagePitchAlignment) == 0,
          CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    check(reinterpret_cast<uintptr_t>(buffer.address()) % channelAlignment(layout.format) == 0,
          CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  }
  check(layout.rowPitch >= tightRow && layout.rowPitch % layout.elementSize == 0,
        CL_INVALID_IMAGE_DESCRIPTOR);
  // The image must lie inside the buffer.
  size_t rows = std::max<size_t>(layout.height, 1);
  size_t bytes = rows == 1 ? tightRow : mulOrMax(layout.rowPitch, rows);
  check(bytes <= buffer.size(), CL_INVALID_IMAGE_DESCRIPTOR);
}

// A 2D image over another 2D image's texels, seen in a compatible format:
// "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if a 2D image is created from a 2D
// image object and the rules described above are not followed".
void layOutOverImage(ImageLayout &layout, const cl_image_desc &desc, const _cl_mem &image) {
  const ImageLayout &other = *image.image();
  check(layout.format.image_channel_data_type == other.format.image_channel_data_type &&
            compatibleOrders(layout.format.image_channel_order, other.format.image_channel_order),
        CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  check(layout.width == other.width && layout.height == other.height &&
            (desc.image_row_pitch == 0 || desc.image_row_pitch == other.rowPitch),
        CL_INVALID_IMAGE_DESCRIPTOR);
  layout.rowPitch = other.rowPitch;
  layout.slicePitch = other.slicePitch;
}

// The bytes an image's rows, layers or slices span (SIZE_MAX if more than
// memory holds: the application's pitches may be anything).
size_t spannedBytes(const ImageLayout &layout) {
  if (layout.slicePitch) return mulOrMax(layout.slicePitch, layout.extent(2));
  return mulOrMax(layout.rowPitch, layout.extent(1));
}

// The bytes of the application's memory that the host pitches of an image
// span (SIZE_MAX if more than memory holds). A 1D array's layers are its
// rows (HostPitches).
size_t hostSpannedBytes(const ImageLayout &layout, const HostPitches &host) {
  if (host.slice && layout.type != CL_MEM_OBJECT_IMAGE1D_ARRAY)
    return mulOrMax(host.slice, layout.extent(2));
  return mulOrMax(host.row, layout.extent(1));
}

struct ImageRequest {
  cl_context context;
  const cl_mem_properties *properties;
  cl_mem_flags flags;
  const cl_image_format *format;
  const cl_image_desc *desc;
  void *hostPtr;
};

// Where the texels lie: over the source's storage, in the application's
// memory with its pitches (CL_MEM_USE_HOST_PTR), or tightly packed in the
// image's own. Returns the pitches of the host memory given, if any.
HostPitches layOutStorage(ImageLayout &layout, const cl_image_desc &desc, _cl_mem *source,
                          cl_mem_flags flags, void *hostPtr) {
  HostPitches host;
  if (source && source->image()) {
    layOutOverImage(layout, desc, *source);
  } else if (source) {
    layOutOverBuffer(layout, desc, *source);
  } else if (hostPtr) {
    host = hostPitchesOf(desc, layout);
    if (flags & CL_MEM_USE_HOST_PTR) {
      layout.rowPitch = host.row;
      layout.slicePitch = host.slice;
      layout.givenRowPitch = host.given;
    } else {
      packTightly(layout);
    }
  } else {
    // "image_row_pitch ... must be 0 if host_ptr is NULL" (slice pitch too).
    check(desc.image_row_pitch == 0 && desc.image_slice_pitch == 0, CL_INVALID_IMAGE_DESCRIPTOR);
    packTightly(layout);
  }
  return host;
}

cl_mem createImage(const ImageRequest &r) {
  checked(r.context);
  std::vector<cl_mem_properties> properties = imageProperties(r.properties);
  checkMemFlags(r.flags);
  // "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if values specified in image_format
  // are not valid or if image_format is NULL."
  check(r.format != nullptr, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  size_t element = imageElementSize(*r.format);
  check(element != 0, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  // "CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are not
  // valid or if image_desc is NULL."
  check(r.desc != nullptr && isImageType(r.desc->image_type), CL_INVALID_IMAGE_DESCRIPTOR);
  const cl_image_desc &desc = *r.desc;
  ImageLayout layout = shapeOf(desc, *r.format, element);
  _cl_mem *source = sourceOf(r.context, desc);
  checkLimits(r.context, desc);

  HostPitches host = layOutStorage(layout, desc, source, r.flags, r.hostPtr);
  // "CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are not
  // valid": pitches whose rows or slices run past the end of the address
  // space name memory no application has (CL_MEM_COPY_HOST_PTR's copy
  // wrapped around to the bytes before host_ptr; found by
  // fuzz/host_api_fuzzer.cpp).
  if (r.hostPtr && !source) {
    size_t span = hostSpannedBytes(layout, host);
    check(span != SIZE_MAX && span <= UINTPTR_MAX - reinterpret_cast<uintptr_t>(r.hostPtr),
          CL_INVALID_IMAGE_DESCRIPTOR);
  }
  // Bounded by memory, as a buffer is (the dimension limits allow more).
  cl_ulong maxAlloc = 0;
  for (cl_device_id device : r.context->devices())
    maxAlloc = std::max(maxAlloc, device->maxAllocSize);
  check(source || spannedBytes(layout) <= maxAlloc, CL_INVALID_IMAGE_SIZE);

  // "CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or
  // CL_MEM_COPY_HOST_PTR are set in flags or if host_ptr is not NULL but
  // CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags."
  bool wantsHostPtr = r.flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  check(wantsHostPtr == (r.hostPtr != nullptr), CL_INVALID_HOST_PTR);
  // An image over another object: access narrows, the rest is inherited
  // (CL_INVALID_VALUE otherwise, and for any host-pointer flag).
  cl_mem_flags flags = source ? inheritedMemFlags(source->flags(), r.flags) : withDefaultAccess(r.flags);
  // "CL_IMAGE_FORMAT_NOT_SUPPORTED if there are no devices in context that
  // support image_format" (for this image type and access).
  check(isSupportedImageFormat(*r.format, flags, layout.type), CL_IMAGE_FORMAT_NOT_SUPPORTED);
  return new _cl_mem(r.context, flags, layout, r.hostPtr, host.row, host.slice, source,
                     std::move(properties));
}

// The 1.0 entry points report what clCreateImage calls a bad descriptor as
// "CL_INVALID_IMAGE_SIZE if image_width or image_height are 0 ... or if
// values specified by image_row_pitch [and image_slice_pitch] do not follow
// rules described in the argument description".
cl_mem createLegacyImage(const ImageRequest &r) {
  try {
    return createImage(r);
  } catch (const ClError &e) {
    if (e.code == CL_INVALID_IMAGE_DESCRIPTOR) fail(CL_INVALID_IMAGE_SIZE);
    throw;
  }
}

}  // namespace

cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags,
                                 const cl_image_format *image_format,
                                 const cl_image_desc *image_desc, void *host_ptr,
                                 cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&] {
    return createImage({context, nullptr, flags, image_format, image_desc, host_ptr});
  });
}

cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context,
                                               const cl_mem_properties *properties,
                                               cl_mem_flags flags,
                                               const cl_image_format *image_format,
                                               const cl_image_desc *image_desc, void *host_ptr,
                                               cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&] {
    return createImage({context, properties, flags, image_format, image_desc, host_ptr});
  });
}

cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags,
                                   const cl_image_format *image_format, size_t image_width,
                                   size_t image_height, size_t image_row_pitch, void *host_ptr,
                                   cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&] {
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = image_width;
    desc.image_height = image_height;
    desc.image_row_pitch = image_row_pitch;
    return createLegacyImage({context, nullptr, flags, image_format, &desc, host_ptr});
  });
}

cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags,
                                   const cl_image_format *image_format, size_t image_width,
                                   size_t image_height, size_t image_depth, size_t image_row_pitch,
                                   size_t image_slice_pitch, void *host_ptr, cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&] {
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE3D;
    desc.image_width = image_width;
    desc.image_height = image_height;
    // "image_depth ... For clCreateImage3D, this must be a value > 1": a
    // depth of 1 is refused as a depth of 0 would be.
    desc.image_depth = image_depth > 1 ? image_depth : 0;
    desc.image_row_pitch = image_row_pitch;
    desc.image_slice_pitch = image_slice_pitch;
    return createLegacyImage({context, nullptr, flags, image_format, &desc, host_ptr});
  });
}

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                              cl_mem_object_type image_type, cl_uint num_entries,
                                              cl_image_format *image_formats,
                                              cl_uint *num_image_formats) {
  return guarded([&] {
    checked(context);
    // "CL_INVALID_VALUE if flags or image_type are not valid, or if
    // num_entries is 0 and image_formats is not NULL."
    checkMemFlags(flags);
    check(isImageType(image_type), CL_INVALID_VALUE);
    check(!(num_entries == 0 && image_formats != nullptr), CL_INVALID_VALUE);
    std::span<const cl_image_format> formats = supportedImageFormats(flags, image_type);
    if (image_formats)
      std::copy_n(formats.begin(), std::min<size_t>(num_entries, formats.size()), image_formats);
    if (num_image_formats) *num_image_formats = cl_uint(formats.size());
  });
}

cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size,
                                  void *param_value, size_t *param_value_size_ret) {
  return guarded([&] {
    // "CL_INVALID_MEM_OBJECT if image is a not a valid image object."
    check(isValid(image) && image->image() != nullptr, CL_INVALID_MEM_OBJECT);
    const ImageLayout &layout = *image->image();
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
      case CL_IMAGE_FORMAT:
        return out.value<cl_image_format>(layout.format);
      case CL_IMAGE_ELEMENT_SIZE:
        return out.value<size_t>(layout.elementSize);
      case CL_IMAGE_ROW_PITCH:
        return out.value<size_t>(layout.givenRowPitch ? layout.givenRowPitch : layout.rowPitch);
      case CL_IMAGE_SLICE_PITCH:
        return out.value<size_t>(layout.slicePitch);
      case CL_IMAGE_WIDTH:
        return out.value<size_t>(layout.width);
      case CL_IMAGE_HEIGHT:
        return out.value<size_t>(layout.height);
      case CL_IMAGE_DEPTH:
        return out.value<size_t>(layout.depth);
      case CL_IMAGE_ARRAY_SIZE:
        return out.value<size_t>(layout.arraySize);
      case CL_IMAGE_BUFFER: {
        // The buffer a 1D buffer image (or a 2D image from a buffer) uses.
        cl_mem parent = image->parent();
        return out.value<cl_mem>(parent && !parent->image() ? parent : nullptr);
      }
      case CL_IMAGE_NUM_MIP_LEVELS:
      case CL_IMAGE_NUM_SAMPLES:
        return out.value<cl_uint>(0);
      default:
        fail(CL_INVALID_VALUE);
    }
  });
}

}  // namespace lockstep::api

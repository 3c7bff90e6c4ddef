// Image commands between an image and the host: clEnqueueReadImage,
// clEnqueueWriteImage and clEnqueueFillImage. Image storage is host memory,
// so each is a box copy (or fill) run when its dependencies are complete.
#include <algorithm>
#include <array>
#include <cstring>

#include "api/commands.h"
#include "api/enqueue.h"
#include "api/entry_points.h"
#include "api/image_region.h"

using namespace lockstep::runtime;

namespace lockstep::api {

namespace {

// The host memory's side of a read or write. "row_pitch ... must be greater
// than or equal to the element size in bytes * width. If row_pitch is set to
// 0, the appropriate row pitch is calculated"; "slice_pitch ... must be 0 if
// image is a 1D or 2D image. Otherwise this value must be greater than or
// equal to row_pitch * height", a 1D array's height being 1: its layers lie
// slice_pitch apart (row_pitch apart when slice_pitch is 0).
Strided hostSide(const ImageLayout &image, void *ptr, const Triple &region, size_t rowPitch,
                 size_t slicePitch) {
  size_t rowBytes = region[0] * image.elementSize;
  if (rowPitch == 0) rowPitch = rowBytes;
  check(rowPitch >= rowBytes, CL_INVALID_VALUE);
  bool array1D = image.type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
  char *base = static_cast<char *>(ptr);
  if (!hasSlices(image.type)) {
    check(slicePitch == 0, CL_INVALID_VALUE);
    return {base, rowPitch, 0};
  }
  size_t minSlice;
  check(!__builtin_mul_overflow(rowPitch, array1D ? 1 : region[1], &minSlice), CL_INVALID_VALUE);
  if (slicePitch == 0) slicePitch = minSlice;
  check(slicePitch >= minSlice, CL_INVALID_VALUE);
  if (array1D) return {base, slicePitch, 0};
  return {base, rowPitch, slicePitch};
}

// Read (`toHost`) or write: the spec lists the same checks for both.
void enqueueHostTransfer(cl_command_queue queue, cl_mem image, bool toHost, cl_bool blocking,
                         const size_t *originArg, const size_t *regionArg, size_t rowPitch,
                         size_t slicePitch, void *ptr, cl_uint numEvents, const cl_event *waitList,
                         cl_event *event) {
  checkedHostQueue(queue);
  const ImageLayout &layout = imageOf(image);
  checkSameContext(queue, image);
  // "CL_INVALID_VALUE if the region being read or written specified by
  // origin and region is out of bounds or if ptr is a NULL value", and if
  // origin and region break the rules of the image's type.
  Triple region = regionOf(regionArg);
  Triple origin = boxIn(layout, originArg, region);
  Strided host = hostSide(layout, ptr, region, rowPitch, slicePitch);
  check(ptr != nullptr, CL_INVALID_VALUE);
  // "CL_INVALID_OPERATION if clEnqueueReadImage is called on image which has
  // been created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS" (and
  // clEnqueueWriteImage with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS).
  check(toHost ? image->hostCanRead() : image->hostCanWrite(), CL_INVALID_OPERATION);
  Strided stored = stridedIn(image, origin);
  size_t rowBytes = region[0] * layout.elementSize;
  enqueueCommand(
      queue, toHost ? CL_COMMAND_READ_IMAGE : CL_COMMAND_WRITE_IMAGE, numEvents, waitList, event,
      [mem = Ref(image), toHost, stored, host, rowBytes, region] {
        if (toHost)
          copyBox(host, stored, rowBytes, region);
        else
          copyBox(stored, host, rowBytes, region);
        return CL_SUCCESS;
      },
      blocking, true);
}

// Fills region[1] x region[2] rows of `width` texels. The box's first row is
// built in place by doubling (so a row costs a few memcpy calls, whatever
// the texel size, 3 bytes included); every other row is a copy of it.
void fillBox(Strided to, const std::array<unsigned char, 16> &texel, size_t elementSize,
             const Triple &region) {
  size_t rowBytes = region[0] * elementSize;
  char *first = to.base;
  if (std::all_of(texel.begin(), texel.begin() + elementSize,
                  [&](unsigned char c) { return c == texel[0]; })) {
    std::memset(first, texel[0], rowBytes);
  } else {
    std::memcpy(first, texel.data(), elementSize);
    for (size_t filled = elementSize; filled < rowBytes;) {
      size_t step = std::min(filled, rowBytes - filled);
      std::memcpy(first + filled, first, step);
      filled += step;
    }
  }
  for (size_t z = 0; z < region[2]; ++z) {
    for (size_t y = 0; y < region[1]; ++y) {
      if (y != 0 || z != 0) std::memcpy(first + z * to.step2 + y * to.step1, first, rowBytes);
    }
  }
}

}  // namespace

cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue command_queue, cl_mem image,
                                      cl_bool blocking_read, const size_t *origin,
                                      const size_t *region, size_t row_pitch, size_t slice_pitch,
                                      void *ptr, cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    enqueueHostTransfer(command_queue, image, true, blocking_read, origin, region, row_pitch,
                        slice_pitch, ptr, num_events_in_wait_list, event_wait_list, event);
  });
}

cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image,
                                       cl_bool blocking_write, const size_t *origin,
                                       const size_t *region, size_t input_row_pitch,
                                       size_t input_slice_pitch, const void *ptr,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    enqueueHostTransfer(command_queue, image, false, blocking_write, origin, region,
                        input_row_pitch, input_slice_pitch, const_cast<void *>(ptr),
                        num_events_in_wait_list, event_wait_list, event);
  });
}

Command fillImageCommand(cl_command_queue command_queue, cl_mem image, const void *fill_color,
                         const size_t *origin, const size_t *region) {
  const ImageLayout &layout = imageOf(image);
  checkSameContext(command_queue, image);
  // "CL_INVALID_VALUE if fill_color is NULL", then the box's checks.
  check(fill_color != nullptr, CL_INVALID_VALUE);
  Triple box = regionOf(region);
  Triple start = boxIn(layout, origin, box);
  // Converted now: the application may reuse fill_color once this returns.
  std::array<unsigned char, 16> texel{};
  packFillColor(layout.format, fill_color, texel.data());
  return [mem = Ref(image), to = stridedIn(image, start), texel, elementSize = layout.elementSize,
          box] {
    fillBox(to, texel, elementSize, box);
    return CL_SUCCESS;
  };
}

cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue, cl_mem image,
                                      const void *fill_color, const size_t *origin,
                                      const size_t *region, cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    checkedHostQueue(command_queue);
    enqueueCommand(command_queue, CL_COMMAND_FILL_IMAGE, num_events_in_wait_list, event_wait_list,
                   event, fillImageCommand(command_queue, image, fill_color, origin, region));
  });
}

}  // namespace lockstep::api

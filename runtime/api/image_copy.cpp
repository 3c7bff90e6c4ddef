// Image commands that copy inside the device's memory: clEnqueueCopyImage,
// clEnqueueCopyImageToBuffer and clEnqueueCopyBufferToImage. Images of any
// two types may exchange a box; a buffer holds the box tightly packed.
#include "api/commands.h"
#include "api/enqueue.h"
#include "api/entry_points.h"
#include "api/image_region.h"

using namespace lockstep::runtime;

namespace lockstep::api {

namespace {

bool isBuffer(cl_mem mem) { return isValid(mem) && mem->type() == CL_MEM_OBJECT_BUFFER; }

// Whether two boxes of one image share a texel: they do when they overlap
// along every dimension.
bool boxesOverlap(const Triple &a, const Triple &b, const Triple &region) {
  for (unsigned d = 0; d < 3; ++d) {
    if (a[d] + region[d] <= b[d] || b[d] + region[d] <= a[d]) return false;
  }
  return true;
}

// The buffer's side of an image/buffer copy: "CL_INVALID_VALUE if ... the
// region specified by offset and offset + cb refer to a region outside
// buffer", cb being the box's bytes tightly packed.
Strided bufferSide(cl_mem buffer, size_t offset, size_t elementSize, const Triple &region) {
  size_t bytes = region[0] * elementSize * region[1] * region[2];  // bounded by the image's size
  check(offset <= buffer->size() && bytes <= buffer->size() - offset, CL_INVALID_VALUE);
  return tight(buffer->address() + offset, elementSize, region);
}

// Both directions of an image/buffer copy, after each caller checked its
// handles in the spec's order.
Command imageBufferCopy(cl_command_queue queue, cl_mem image, cl_mem buffer, bool toBuffer,
                        const size_t *imageOrigin, size_t bufferOffset, const size_t *regionArg) {
  const ImageLayout &layout = *image->image();
  // "CL_INVALID_MEM_OBJECT if <the image> is a 1D image buffer object
  // created from <the buffer>."
  check(!(layout.type == CL_MEM_OBJECT_IMAGE1D_BUFFER && image->parent() == buffer),
        CL_INVALID_MEM_OBJECT);
  checkSameContext(queue, image);
  checkSameContext(queue, buffer);
  Triple region = regionOf(regionArg);
  Strided stored = stridedIn(image, boxIn(layout, imageOrigin, region));
  Strided linear = bufferSide(buffer, bufferOffset, layout.elementSize, region);
  size_t rowBytes = region[0] * layout.elementSize;
  return
      [from = Ref(toBuffer ? image : buffer), to = Ref(toBuffer ? buffer : image),
       source = toBuffer ? stored : linear, target = toBuffer ? linear : stored, rowBytes, region] {
        copyBox(target, source, rowBytes, region);
        return CL_SUCCESS;
      };
}

}  // namespace

Command copyImageCommand(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image,
                         const size_t *src_origin, const size_t *dst_origin, const size_t *region,
                         cl_uint num_events_in_wait_list, const cl_event *event_wait_list) {
  const ImageLayout &src = imageOf(src_image);
  const ImageLayout &dst = imageOf(dst_image);
  checkSameContext(command_queue, src_image);
  checkSameContext(command_queue, dst_image);
  // "CL_IMAGE_FORMAT_MISMATCH if src_image and dst_image do not use the
  // same image format."
  check(src.format.image_channel_order == dst.format.image_channel_order &&
            src.format.image_channel_data_type == dst.format.image_channel_data_type,
        CL_IMAGE_FORMAT_MISMATCH);
  Triple box = regionOf(region);
  Triple from = boxIn(src, src_origin, box);
  Triple to = boxIn(dst, dst_origin, box);
  // The spec lists CL_MEM_COPY_OVERLAP after the wait list's errors.
  checkWaitList(*command_queue, num_events_in_wait_list, event_wait_list);
  // "CL_MEM_COPY_OVERLAP if src_image and dst_image are the same image
  // object and the source and destination regions overlap."
  check(src_image != dst_image || !boxesOverlap(from, to, box), CL_MEM_COPY_OVERLAP);
  return [source = Ref(src_image), target = Ref(dst_image), fromBox = stridedIn(src_image, from),
          toBox = stridedIn(dst_image, to), rowBytes = box[0] * src.elementSize, box] {
    copyBox(toBox, fromBox, rowBytes, box);
    return CL_SUCCESS;
  };
}

Command copyImageToBufferCommand(cl_command_queue command_queue, cl_mem src_image,
                                 cl_mem dst_buffer, const size_t *src_origin, const size_t *region,
                                 size_t dst_offset) {
  imageOf(src_image);
  check(isBuffer(dst_buffer), CL_INVALID_MEM_OBJECT);
  return imageBufferCopy(command_queue, src_image, dst_buffer, true, src_origin, dst_offset,
                         region);
}

Command copyBufferToImageCommand(cl_command_queue command_queue, cl_mem src_buffer,
                                 cl_mem dst_image, size_t src_offset, const size_t *dst_origin,
                                 const size_t *region) {
  check(isBuffer(src_buffer), CL_INVALID_MEM_OBJECT);
  imageOf(dst_image);
  return imageBufferCopy(command_queue, dst_image, src_buffer, false, dst_origin, src_offset,
                         region);
}

cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image,
                                      cl_mem dst_image, const size_t *src_origin,
                                      const size_t *dst_origin, const size_t *region,
                                      cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    checkedHostQueue(command_queue);
    enqueueCommand(command_queue, CL_COMMAND_COPY_IMAGE, num_events_in_wait_list, event_wait_list,
                   event,
                   copyImageCommand(command_queue, src_image, dst_image, src_origin, dst_origin,
                                    region, num_events_in_wait_list, event_wait_list));
  });
}

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image,
                                              cl_mem dst_buffer, const size_t *src_origin,
                                              const size_t *region, size_t dst_offset,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    checkedHostQueue(command_queue);
    enqueueCommand(command_queue, CL_COMMAND_COPY_IMAGE_TO_BUFFER, num_events_in_wait_list,
                   event_wait_list, event,
                   copyImageToBufferCommand(command_queue, src_image, dst_buffer, src_origin,
                                            region, dst_offset));
  });
}

cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer,
                                              cl_mem dst_image, size_t src_offset,
                                              const size_t *dst_origin, const size_t *region,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    checkedHostQueue(command_queue);
    enqueueCommand(command_queue, CL_COMMAND_COPY_BUFFER_TO_IMAGE, num_events_in_wait_list,
                   event_wait_list, event,
                   copyBufferToImageCommand(command_queue, src_buffer, dst_image, src_offset,
                                            dst_origin, region));
  });
}

}  // namespace lockstep::api

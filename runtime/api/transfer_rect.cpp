// Rectangular buffer commands: clEnqueue{Read,Write,Copy}BufferRect.
#include <algorithm>
#include <array>
#include <cstring>

#include "Context.h"
#include "Memory.h"
#include "Queue.h"
#include "api/commands.h"
#include "api/enqueue.h"
#include "api/entry_points.h"

using namespace lockstep::runtime;

namespace lockstep::api {

namespace {

using Triple = std::array<size_t, 3>;

// One side of a rectangular copy: where the box starts and how rows and
// slices are laid out (pitches already defaulted).
struct Layout {
  Triple origin;
  size_t rowPitch;
  size_t slicePitch;
  size_t offset() const { return origin[2] * slicePitch + origin[1] * rowPitch + origin[0]; }
  // One past the last byte the box touches.
  size_t end(const Triple &region) const {
    return offset() + (region[2] - 1) * slicePitch + (region[1] - 1) * rowPitch + region[0];
  }
};

Triple tripleOf(const size_t *values) {
  check(values != nullptr, CL_INVALID_VALUE);
  return {values[0], values[1], values[2]};
}

// The spec's pitch rules: 0 means tightly packed; else a row pitch is at
// least region[0], a slice pitch at least region[1] * row pitch and a
// multiple of it. Sizes that overflow are out of bounds anyway.
Layout layoutOf(const size_t *origin, const Triple &region, size_t rowPitch, size_t slicePitch) {
  Layout layout{tripleOf(origin), rowPitch, slicePitch};
  if (layout.rowPitch == 0) layout.rowPitch = region[0];
  check(layout.rowPitch >= region[0], CL_INVALID_VALUE);
  size_t minSlice;
  check(!__builtin_mul_overflow(region[1], layout.rowPitch, &minSlice), CL_INVALID_VALUE);
  if (layout.slicePitch == 0) layout.slicePitch = minSlice;
  check(layout.slicePitch >= minSlice && layout.slicePitch % layout.rowPitch == 0,
        CL_INVALID_VALUE);
  // The furthest byte must be representable, the sums of origin and region
  // included (an origin near SIZE_MAX wrapped them around to a small end
  // that passed the bounds check; found by fuzz/host_api_fuzzer.cpp).
  size_t x, y, z, a, b, c;
  check(!__builtin_add_overflow(layout.origin[0], region[0], &x) &&
            !__builtin_add_overflow(layout.origin[1], region[1], &y) &&
            !__builtin_add_overflow(layout.origin[2], region[2], &z) &&
            !__builtin_mul_overflow(z, layout.slicePitch, &a) &&
            !__builtin_mul_overflow(y, layout.rowPitch, &b) &&
            !__builtin_add_overflow(a, b, &c) && !__builtin_add_overflow(c, x, &c),
        CL_INVALID_VALUE);
  return layout;
}

Triple regionOf(const size_t *region) {
  Triple r = tripleOf(region);
  // "CL_INVALID_VALUE if any region array element is 0."
  check(r[0] != 0 && r[1] != 0 && r[2] != 0, CL_INVALID_VALUE);
  return r;
}

void copyBox(char *dst, const Layout &to, const char *src, const Layout &from,
             const Triple &region) {
  for (size_t z = 0; z < region[2]; ++z) {
    for (size_t y = 0; y < region[1]; ++y) {
      std::memmove(dst + to.offset() + z * to.slicePitch + y * to.rowPitch,
                   src + from.offset() + z * from.slicePitch + y * from.rowPitch, region[0]);
    }
  }
}

// Host transfers: `toHost` reads the buffer into ptr, else writes it.
void enqueueHostRect(cl_command_queue queue, cl_mem buffer, bool toHost, cl_bool blocking,
                     const size_t *bufferOrigin, const size_t *hostOrigin, const size_t *regionArg,
                     size_t bufferRowPitch, size_t bufferSlicePitch, size_t hostRowPitch,
                     size_t hostSlicePitch, void *ptr, cl_uint numEvents, const cl_event *waitList,
                     cl_event *event) {
  checkedHostQueue(queue);
  check(isValid(buffer) && buffer->type() == CL_MEM_OBJECT_BUFFER, CL_INVALID_MEM_OBJECT);
  check(buffer->context() == queue->context(), CL_INVALID_CONTEXT);
  Triple region = regionOf(regionArg);
  Layout inBuffer = layoutOf(bufferOrigin, region, bufferRowPitch, bufferSlicePitch);
  Layout inHost = layoutOf(hostOrigin, region, hostRowPitch, hostSlicePitch);
  check(inBuffer.end(region) <= buffer->size(), CL_INVALID_VALUE);
  check(ptr != nullptr, CL_INVALID_VALUE);
  check(toHost ? buffer->hostCanRead() : buffer->hostCanWrite(), CL_INVALID_OPERATION);
  enqueueCommand(
      queue, toHost ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT, numEvents,
      waitList, event,
      [mem = Ref(buffer), toHost, inBuffer, inHost, region, host = static_cast<char *>(ptr)] {
        if (toHost)
          copyBox(host, inHost, mem->address(), inBuffer, region);
        else
          copyBox(mem->address(), inBuffer, host, inHost, region);
        return CL_SUCCESS;
      },
      blocking, true);
}

// Whether two boxes of the same storage share a byte: the OpenCL spec's
// check_copy_overlap (Appendix D), on byte offsets from the lower of the two
// bases so that sub-buffers of one buffer are compared too. With equal
// pitches the boxes are disjoint when one's rows fit in the gap the other's
// leave in each row (x) or each slice (y); slice pitches are multiples of
// row pitches (layoutOf), so an offset modulo a pitch is the box's position
// within a row or slice. Different pitches fall back to the byte ranges the
// boxes span (overlap if those intersect).
bool boxesOverlap(const char *srcBase, const Layout &src, const char *dstBase, const Layout &dst,
                  const Triple &region) {
  const char *srcBegin = srcBase + src.offset(), *srcEnd = srcBase + src.end(region);
  const char *dstBegin = dstBase + dst.offset(), *dstEnd = dstBase + dst.end(region);
  if (srcEnd <= dstBegin || dstEnd <= srcBegin) return false;
  if (src.rowPitch != dst.rowPitch || src.slicePitch != dst.slicePitch) return true;
  const char *base = std::min(srcBase, dstBase);
  size_t from = size_t(srcBegin - base), to = size_t(dstBegin - base);
  size_t row = src.rowPitch, slice = src.slicePitch;
  auto fitsInGap = [](size_t a, size_t b, size_t size, size_t pitch) {
    return (b >= a + size && b + size <= a + pitch) || (a >= b + size && a + size <= b + pitch);
  };
  if (fitsInGap(from % row, to % row, region[0], row)) return false;
  size_t sliceSize = (region[1] - 1) * row + region[0];
  return !fitsInGap(from % slice, to % slice, sliceSize, slice);
}

}  // namespace

cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                           cl_bool blocking_read, const size_t *buffer_origin,
                                           const size_t *host_origin, const size_t *region,
                                           size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                           size_t host_row_pitch, size_t host_slice_pitch,
                                           void *ptr, cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    enqueueHostRect(command_queue, buffer, true, blocking_read, buffer_origin, host_origin, region,
                    buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr,
                    num_events_in_wait_list, event_wait_list, event);
  });
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                            cl_bool blocking_write, const size_t *buffer_origin,
                                            const size_t *host_origin, const size_t *region,
                                            size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                            size_t host_row_pitch, size_t host_slice_pitch,
                                            const void *ptr, cl_uint num_events_in_wait_list,
                                            const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    enqueueHostRect(command_queue, buffer, false, blocking_write, buffer_origin, host_origin,
                    region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch,
                    const_cast<void *>(ptr), num_events_in_wait_list, event_wait_list, event);
  });
}

Command copyBufferRectCommand(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                              const size_t *src_origin, const size_t *dst_origin,
                              const size_t *region, size_t src_row_pitch, size_t src_slice_pitch,
                              size_t dst_row_pitch, size_t dst_slice_pitch) {
  check(isValid(src_buffer) && isValid(dst_buffer) && src_buffer->type() == CL_MEM_OBJECT_BUFFER &&
            dst_buffer->type() == CL_MEM_OBJECT_BUFFER,
        CL_INVALID_MEM_OBJECT);
  check(src_buffer->context() == command_queue->context() &&
            dst_buffer->context() == command_queue->context(),
        CL_INVALID_CONTEXT);
  Triple box = regionOf(region);
  Layout src = layoutOf(src_origin, box, src_row_pitch, src_slice_pitch);
  Layout dst = layoutOf(dst_origin, box, dst_row_pitch, dst_slice_pitch);
  check(src.end(box) <= src_buffer->size() && dst.end(box) <= dst_buffer->size(),
        CL_INVALID_VALUE);
  // "CL_INVALID_VALUE if src_buffer and dst_buffer are the same buffer
  // object and src_slice_pitch is not equal to dst_slice_pitch and
  // src_row_pitch is not equal to dst_row_pitch."
  if (src_buffer == dst_buffer)
    check(src.slicePitch == dst.slicePitch || src.rowPitch == dst.rowPitch, CL_INVALID_VALUE);
  check(!boxesOverlap(src_buffer->address(), src, dst_buffer->address(), dst, box),
        CL_MEM_COPY_OVERLAP);
  return [from = Ref(src_buffer), to = Ref(dst_buffer), src, dst, box] {
    copyBox(to->address(), dst, from->address(), src, box);
    return CL_SUCCESS;
  };
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer,
                                           cl_mem dst_buffer, const size_t *src_origin,
                                           const size_t *dst_origin, const size_t *region,
                                           size_t src_row_pitch, size_t src_slice_pitch,
                                           size_t dst_row_pitch, size_t dst_slice_pitch,
                                           cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
  return guarded([&] {
    checkedHostQueue(command_queue);
    enqueueCommand(command_queue, CL_COMMAND_COPY_BUFFER_RECT, num_events_in_wait_list,
                   event_wait_list, event,
                   copyBufferRectCommand(command_queue, src_buffer, dst_buffer, src_origin,
                                         dst_origin, region, src_row_pitch, src_slice_pitch,
                                         dst_row_pitch, dst_slice_pitch));
  });
}

}  // namespace lockstep::api

// What the image commands share (image_transfer.cpp, image_copy.cpp,
// map.cpp): checking an image argument and an (origin, region) box in the
// API's convention, and moving a box of bytes between two strided layouts.
//
// The API names a box by origin and region, each (x, y-or-layer, z-or-layer)
// in texels: a 1D array keeps its layers in dimension 1, a 2D array in
// dimension 2. Every side of a transfer (an image, host memory, a buffer)
// says how far apart dimension 1 and dimension 2 steps lie in its bytes, so
// one copy loop serves every pair of image types.
#pragma once

#include <array>
#include <cstring>

#include "Context.h"
#include "Memory.h"
#include "Queue.h"

namespace lockstep::api {

using Triple = std::array<size_t, 3>;

// An image argument of a command: CL_INVALID_MEM_OBJECT unless `mem` is a
// valid image (a buffer or a foreign handle is not).
inline const runtime::ImageLayout &imageOf(cl_mem mem) {
  runtime::check(runtime::isValid(mem) && mem->image() != nullptr, CL_INVALID_MEM_OBJECT);
  return *mem->image();
}

// "CL_INVALID_CONTEXT if the context associated with command_queue and
// <the memory object> are not the same."
inline void checkSameContext(cl_command_queue queue, cl_mem mem) {
  runtime::check(mem->context() == queue->context(), CL_INVALID_CONTEXT);
}

// The region argument: non-null, and "the values in region cannot be 0".
inline Triple regionOf(const size_t *region) {
  runtime::check(region != nullptr, CL_INVALID_VALUE);
  runtime::check(region[0] != 0 && region[1] != 0 && region[2] != 0, CL_INVALID_VALUE);
  return {region[0], region[1], region[2]};
}

// The origin argument, with the box it starts inside the image. The extents
// of the dimensions an image type lacks are 1, so this also enforces the
// spec's rules ("if image is a 2D image object, origin[2] must be 0 and
// region[2] must be 1", and so on for each type).
inline Triple boxIn(const runtime::ImageLayout &image, const size_t *origin, const Triple &region) {
  runtime::check(origin != nullptr, CL_INVALID_VALUE);
  for (unsigned d = 0; d < 3; ++d) {
    size_t extent = image.extent(d);
    runtime::check(origin[d] <= extent && region[d] <= extent - origin[d], CL_INVALID_VALUE);
  }
  return {origin[0], origin[1], origin[2]};
}

// One side of a box transfer: its first byte and the byte distance of one
// step in API dimensions 1 and 2.
struct Strided {
  char *base;
  size_t step1;
  size_t step2;
};

// An image's side of a box starting at `origin` (already checked). As the
// kernels' addressing has it (ImageAbi.h), dimension 1 steps a row, or a
// layer of a 1D array (whose row and slice pitches are equal), and
// dimension 2 a slice or a layer of a 2D array.
inline Strided stridedIn(cl_mem image, const Triple &origin) {
  const runtime::ImageLayout &layout = *image->image();
  return {image->address() + layout.offsetOf(origin.data()), layout.rowPitch, layout.slicePitch};
}

// Tightly packed texels (a buffer's side of an image/buffer copy, or host
// memory with both pitches 0).
inline Strided tight(char *base, size_t elementSize, const Triple &region) {
  size_t row = region[0] * elementSize;
  return {base, row, row * region[1]};
}

// Copies region[1] x region[2] rows of `rowBytes` bytes. Layouts that are
// contiguous in a dimension on both sides merge it into longer rows, so a
// tight image copies with one memmove. memmove: host memory given to a read
// or write may lie inside the image's own storage (CL_MEM_USE_HOST_PTR).
inline void copyBox(Strided to, Strided from, size_t rowBytes, const Triple &region) {
  size_t rows = region[1], slices = region[2];
  if (rows == 1 || (to.step1 == rowBytes && from.step1 == rowBytes)) {
    rowBytes *= rows;
    rows = 1;
    if (slices == 1 || (to.step2 == rowBytes && from.step2 == rowBytes)) {
      rowBytes *= slices;
      slices = 1;
    }
  }
  for (size_t z = 0; z < slices; ++z) {
    for (size_t y = 0; y < rows; ++y) {
      std::memmove(to.base + z * to.step2 + y * to.step1,
                   from.base + z * from.step2 + y * from.step1, rowBytes);
    }
  }
}

}  // namespace lockstep::api

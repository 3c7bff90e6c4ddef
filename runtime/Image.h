// What an image adds to a memory object: its type, format and geometry, the
// descriptor compiled kernels read (lockstep/compiler/ImageAbi.h), and the
// format knowledge the host side needs (texel sizes, the supported list,
// packing a fill colour).
//
// An image is a _cl_mem (one handle type, one tag) whose image() is set.
// Its storage is host memory like a buffer's: owned, the application's
// (CL_MEM_USE_HOST_PTR, zero copy), or another object's (a 1D buffer image
// or a 2D image from a buffer: the buffer's bytes; an image from an image:
// the other image's bytes).
#pragma once

#include <CL/cl.h>

#include <cstddef>
#include <span>

#include "lockstep/compiler/ImageAbi.h"

namespace lockstep::runtime {

struct ImageLayout {
  cl_mem_object_type type = 0;  // CL_MEM_OBJECT_IMAGE1D, ...
  cl_image_format format{};
  size_t elementSize = 0;  // bytes per texel
  // As clGetImageInfo reports them: 0 where the image type has no such
  // dimension (a 1D image's height and depth, a 2D image's depth, the array
  // size of a non-array image).
  size_t width = 0, height = 0, depth = 0, arraySize = 0;
  // Of the storage, in bytes. slicePitch is 0 for 1D and 2D images, the row
  // pitch for 1D arrays (CL_IMAGE_SLICE_PITCH reports these).
  size_t rowPitch = 0, slicePitch = 0;
  // CL_IMAGE_ROW_PITCH where it is not rowPitch: the row pitch the
  // application gave a 1D array over its memory (CL_MEM_USE_HOST_PTR), whose
  // layers lie slicePitch apart all the same.
  size_t givenRowPitch = 0;
  // What kernels see (its address goes into argument blocks).
  lockstep_image_descriptor descriptor{};

  // Dimensions in the API's origin/region convention: (width, height or
  // layers, depth or layers), each at least 1.
  size_t extent(unsigned dimension) const;
  // Byte offset of the texel at `origin` (API convention: a 1D array's layer
  // in origin[1], a 2D array's in origin[2]).
  size_t offsetOf(const size_t origin[3]) const;
  // Bytes from the first texel to just past the last one.
  size_t storageSize() const;
};

// Image types whose texels lie in slices or layers (1D and 2D arrays, 3D
// images): their host memory and maps have a slice pitch.
inline bool hasSlices(cl_mem_object_type type) {
  return type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
         type == CL_MEM_OBJECT_IMAGE3D;
}

// Bytes per texel of a format, or 0 when the format (its order, its type or
// the pair) is not one an image can have.
size_t imageElementSize(const cl_image_format &format);
// Components stored per texel (the descriptor's channelCount): CL_Rx one,
// CL_RGx two, CL_sRGBx four, as the CTS's image harness counts them.
int imageChannelCount(const cl_image_format &format);

// The formats clGetSupportedImageFormats reports for an image type and
// access flags (every one works for every image type that allows it).
std::span<const cl_image_format> supportedImageFormats(cl_mem_flags flags, cl_mem_object_type type);
bool isSupportedImageFormat(const cl_image_format &format, cl_mem_flags flags, cl_mem_object_type type);

// clEnqueueFillImage: the texel bytes (elementSize of them) that `color`
// (float[4], int[4] or uint[4] by the format's channel type) becomes,
// converted as write_imagef/i/ui would convert it.
void packFillColor(const cl_image_format &format, const void *color, unsigned char *texel);

}  // namespace lockstep::runtime

/* The binary interface of images and samplers between the runtime and
 * compiled kernels. This one header is read by C++ (the runtime fills
 * ImageDescriptor) and by OpenCL C (the image built-ins in builtins/lib read
 * it), so it is written in the subset of C both accept.
 *
 * An image kernel argument's slot in the argument block holds a pointer to
 * the image's ImageDescriptor, which lives as long as the cl_mem does and
 * never changes after the image is created. A sampler argument's slot holds
 * a uint32: the sampler's bits as OpenCL C's CLK_* constants spell them
 * (kSampler* below), the same value a `constant sampler_t` initializer has.
 *
 * Texel addressing, whatever the image type:
 *   data + x * elementSize + y * rowPitch + z * slicePitch
 * where (x, y, z) is (x, 0, 0) for 1D and 1D buffer images, (x, layer, 0)
 * for 1D arrays (rowPitch == slicePitch there, both the size of one row),
 * (x, y, 0) for 2D, (x, y, layer) for 2D arrays and (x, y, z) for 3D.
 * Dimensions an image type lacks are 1 (height, depth) or 0 (arraySize of
 * a non-array image).
 */
#ifndef LOCKSTEP_COMPILER_IMAGE_ABI_H
#define LOCKSTEP_COMPILER_IMAGE_ABI_H

#if defined(__OPENCL_C_VERSION__) || defined(__OPENCL_VERSION__)
#define LOCKSTEP_IMAGE_ABI_OPENCL_C 1
typedef ulong lockstep_u64;
typedef int lockstep_i32;
#define LOCKSTEP_IMAGE_DATA global uchar *
#else
#include <cstdint>
typedef uint64_t lockstep_u64;
typedef int32_t lockstep_i32;
#define LOCKSTEP_IMAGE_DATA unsigned char *
#endif

struct lockstep_image_descriptor {
  LOCKSTEP_IMAGE_DATA data;   /* texel (0,0,0) */
  lockstep_u64 rowPitch;      /* bytes between rows (1D arrays: between layers) */
  lockstep_u64 slicePitch;    /* bytes between 2D slices or array layers */
  lockstep_i32 width;
  lockstep_i32 height;        /* 1 for 1D images and 1D arrays */
  lockstep_i32 depth;         /* 1 unless 3D */
  lockstep_i32 arraySize;     /* layers of an array image, 0 otherwise */
  lockstep_i32 channelOrder;  /* CL_R, CL_RGBA, ... (cl_channel_order) */
  lockstep_i32 channelType;   /* CL_UNORM_INT8, ... (cl_channel_type) */
  lockstep_i32 elementSize;   /* bytes per texel */
  lockstep_i32 channelCount;  /* components stored per texel (CL_RGB packed types: 3) */
  lockstep_i32 imageType;     /* CL_MEM_OBJECT_IMAGE1D, ... (cl_mem_object_type) */
  lockstep_i32 reserved[5];   /* zero; keeps the size a multiple of 16 */
};

/* Sampler bits: OpenCL C's CLK_* values (opencl-c-base.h). */
#define LOCKSTEP_SAMPLER_NORMALIZED_COORDS 0x1
#define LOCKSTEP_SAMPLER_ADDRESS_MASK 0xE
#define LOCKSTEP_SAMPLER_ADDRESS_NONE 0x0
#define LOCKSTEP_SAMPLER_ADDRESS_CLAMP_TO_EDGE 0x2
#define LOCKSTEP_SAMPLER_ADDRESS_CLAMP 0x4
#define LOCKSTEP_SAMPLER_ADDRESS_REPEAT 0x6
#define LOCKSTEP_SAMPLER_ADDRESS_MIRRORED_REPEAT 0x8
#define LOCKSTEP_SAMPLER_FILTER_MASK 0x30
#define LOCKSTEP_SAMPLER_FILTER_NEAREST 0x10
#define LOCKSTEP_SAMPLER_FILTER_LINEAR 0x20

#ifndef LOCKSTEP_IMAGE_ABI_OPENCL_C
static_assert(sizeof(lockstep_image_descriptor) == 80, "ImageAbi: descriptor layout");
#endif

#endif

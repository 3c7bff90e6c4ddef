// Image geometry and the image formats Lockstep offers.
//
// The format table pairs channel orders with the channel types the OpenCL
// 3.0 spec allows for them (its "Image Channel Order" and "Image Channel
// Data Type" tables). Every valid pair a CPU reads and writes exactly is
// supported, for every access and every image type that allows the order;
// that list contains the spec's minimum list of formats.
#include "Image.h"

#include <algorithm>
#include <iterator>
#include <vector>

namespace lockstep::runtime {

namespace {

// Channel types with one value per channel (as opposed to packed ones).
constexpr cl_channel_type kEveryUnpackedType[] = {
    CL_SNORM_INT8,     CL_SNORM_INT16,    CL_UNORM_INT8,   CL_UNORM_INT16,
    CL_SIGNED_INT8,    CL_SIGNED_INT16,   CL_SIGNED_INT32, CL_UNSIGNED_INT8,
    CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT,   CL_FLOAT,
};
// "This format can only be used if channel data type = CL_UNORM_SHORT_565,
// CL_UNORM_SHORT_555 or CL_UNORM_INT_101010" (CL_RGB, CL_RGBx).
constexpr cl_channel_type kPackedTypes[] = {CL_UNORM_SHORT_565, CL_UNORM_SHORT_555,
                                            CL_UNORM_INT_101010};
// CL_BGRA, CL_ARGB, CL_ABGR.
constexpr cl_channel_type kEightBitTypes[] = {CL_UNORM_INT8, CL_SNORM_INT8, CL_SIGNED_INT8,
                                              CL_UNSIGNED_INT8};
// CL_INTENSITY, CL_LUMINANCE.
constexpr cl_channel_type kNormalizedOrFloatTypes[] = {
    CL_UNORM_INT8, CL_UNORM_INT16, CL_SNORM_INT8, CL_SNORM_INT16, CL_HALF_FLOAT, CL_FLOAT};
constexpr cl_channel_type kSrgbTypes[] = {CL_UNORM_INT8};
constexpr cl_channel_type kDepthTypes[] = {CL_UNORM_INT16, CL_FLOAT};

struct OrderRule {
  cl_channel_order order;
  std::span<const cl_channel_type> types;
};

// Which types each order pairs with. CL_DEPTH comes last: it is the one
// order only 2D images and 2D image arrays may have.
constexpr OrderRule kOrderRules[] = {
    {CL_R, kEveryUnpackedType},
    {CL_A, kEveryUnpackedType},
    {CL_RG, kEveryUnpackedType},
    {CL_RA, kEveryUnpackedType},
    {CL_RGBA, kEveryUnpackedType},
    {CL_Rx, kEveryUnpackedType},
    {CL_RGx, kEveryUnpackedType},
    {CL_RGB, kPackedTypes},
    {CL_RGBx, kPackedTypes},
    {CL_BGRA, kEightBitTypes},
    {CL_ARGB, kEightBitTypes},
    {CL_ABGR, kEightBitTypes},
    {CL_INTENSITY, kNormalizedOrFloatTypes},
    {CL_LUMINANCE, kNormalizedOrFloatTypes},
    {CL_sRGB, kSrgbTypes},
    {CL_sRGBA, kSrgbTypes},
    {CL_sBGRA, kSrgbTypes},
    {CL_sRGBx, kSrgbTypes},
    {CL_DEPTH, kDepthTypes},
};

const OrderRule *ruleOf(cl_channel_order order) {
  for (const OrderRule &rule : kOrderRules)
    if (rule.order == order) return &rule;
  return nullptr;
}

// Bytes of one channel, or of the whole texel for packed types; 0 if unknown.
size_t channelTypeSize(cl_channel_type type) {
  switch (type) {
    case CL_SNORM_INT8:
    case CL_UNORM_INT8:
    case CL_SIGNED_INT8:
    case CL_UNSIGNED_INT8:
      return 1;
    case CL_SNORM_INT16:
    case CL_UNORM_INT16:
    case CL_SIGNED_INT16:
    case CL_UNSIGNED_INT16:
    case CL_HALF_FLOAT:
    case CL_UNORM_SHORT_565:
    case CL_UNORM_SHORT_555:
      return 2;
    case CL_SIGNED_INT32:
    case CL_UNSIGNED_INT32:
    case CL_FLOAT:
    case CL_UNORM_INT_101010:
      return 4;
  }
  return 0;
}

bool isPacked(cl_channel_type type) {
  return std::ranges::find(kPackedTypes, type) != std::end(kPackedTypes);
}

// Every supported format, in table order (CL_DEPTH formats last).
struct FormatList {
  std::vector<cl_image_format> all;
  size_t withoutDepth = 0;  // how many come before the CL_DEPTH ones
};

const FormatList &formatList() {
  static const FormatList list = [] {
    FormatList result;
    for (const OrderRule &rule : kOrderRules) {
      if (rule.order == CL_DEPTH) result.withoutDepth = result.all.size();
      for (cl_channel_type type : rule.types) result.all.push_back({rule.order, type});
    }
    return result;
  }();
  return list;
}

}  // namespace

// Components stored per texel; the packed CL_RGB/CL_RGBx types store three.
// CL_Rx and CL_RGx store no padding component (a texel is an R or RG texel,
// only the border colour differs), CL_sRGBx stores a fourth byte: the sizes
// the Khronos CTS expects (CL_IMAGE_ELEMENT_SIZE, its reference images).
int imageChannelCount(const cl_image_format &format) {
  if (isPacked(format.image_channel_data_type)) return 3;
  switch (format.image_channel_order) {
    case CL_RG:
    case CL_RA:
    case CL_RGx:
      return 2;
    case CL_RGB:
    case CL_sRGB:
      return 3;
    case CL_RGBA:
    case CL_BGRA:
    case CL_ARGB:
    case CL_ABGR:
    case CL_RGBx:
    case CL_sRGBA:
    case CL_sBGRA:
    case CL_sRGBx:
      return 4;
    default:
      return 1;
  }
}

size_t imageElementSize(const cl_image_format &format) {
  const OrderRule *rule = ruleOf(format.image_channel_order);
  if (!rule || std::ranges::find(rule->types, format.image_channel_data_type) == rule->types.end())
    return 0;
  size_t size = channelTypeSize(format.image_channel_data_type);
  return isPacked(format.image_channel_data_type) ? size : size * imageChannelCount(format);
}

std::span<const cl_image_format> supportedImageFormats(cl_mem_flags, cl_mem_object_type type) {
  // Every format serves every kind of access (read, write, read-write).
  const FormatList &list = formatList();
  std::span<const cl_image_format> all(list.all);
  bool depthAllowed = type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  return depthAllowed ? all : all.first(list.withoutDepth);
}

bool isSupportedImageFormat(const cl_image_format &format, cl_mem_flags flags,
                            cl_mem_object_type type) {
  return std::ranges::any_of(supportedImageFormats(flags, type), [&](const cl_image_format &f) {
    return f.image_channel_order == format.image_channel_order &&
           f.image_channel_data_type == format.image_channel_data_type;
  });
}

size_t ImageLayout::extent(unsigned dimension) const {
  switch (dimension) {
    case 0:
      return width;
    case 1:
      return type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? arraySize : std::max<size_t>(height, 1);
    default:
      if (type == CL_MEM_OBJECT_IMAGE2D_ARRAY) return arraySize;
      return std::max<size_t>(depth, 1);
  }
}

size_t ImageLayout::offsetOf(const size_t origin[3]) const {
  // A 1D array's layers lie rowPitch apart (== slicePitch); origin[2] is 0
  // for every type without a third dimension.
  return origin[0] * elementSize + origin[1] * rowPitch + origin[2] * slicePitch;
}

size_t ImageLayout::storageSize() const {
  const size_t last[3] = {extent(0) - 1, extent(1) - 1, extent(2) - 1};
  return offsetOf(last) + elementSize;
}

}  // namespace lockstep::runtime

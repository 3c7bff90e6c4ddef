// The image benchmarks' kernels: a program of their own, built beside
// kernels.cl only on a device that reports image support (and not part of
// the `build` benchmark's suite). Written the way one writes them for a GPU:
// one work-item per output pixel, images read through samplers.

// Nearest texel, coordinates in pixels, edges repeated: a 3x3 neighbourhood
// without bounds checks.
constant sampler_t kNearestClamped =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

// 3x3 box blur of an RGBA UNORM_INT8 image into another.
kernel void image_blur(read_only image2d_t in, write_only image2d_t out) {
  int x = get_global_id(0), y = get_global_id(1);
  float4 sum = (float4)(0.0f);
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      sum += read_imagef(in, kNearestClamped, (int2)(x + dx, y + dy));
  write_imagef(out, (int2)(x, y), sum * (1.0f / 9.0f));
}

// The same blur over RGBA8 pixels in buffers: the clamping and the
// normalization that the image path does in its built-ins, written out.
kernel void buffer_blur(global const uchar4 *in, global uchar4 *out, int width, int height) {
  int x = get_global_id(0), y = get_global_id(1);
  float4 sum = (float4)(0.0f);
  for (int dy = -1; dy <= 1; ++dy) {
    int row = clamp(y + dy, 0, height - 1) * width;
    for (int dx = -1; dx <= 1; ++dx)
      sum += convert_float4(in[row + clamp(x + dx, 0, width - 1)]) * (1.0f / 255.0f);
  }
  out[y * width + x] = convert_uchar4_sat_rte(sum * (1.0f / 9.0f) * 255.0f);
}

// Bilinear resize: each output pixel samples the source at its centre in
// normalized coordinates; `sampler` is linear and clamps to the edge.
kernel void image_resize(read_only image2d_t in, write_only image2d_t out, sampler_t sampler) {
  int x = get_global_id(0), y = get_global_id(1);
  float2 scale = (float2)(1.0f / get_image_width(out), 1.0f / get_image_height(out));
  float2 coord = ((float2)(x, y) + 0.5f) * scale;
  write_imagef(out, (int2)(x, y), read_imagef(in, sampler, coord));
}

// Format conversion, RGBA UNORM_INT8 to RGBA FLOAT, through the samplerless read.
kernel void image_convert(read_only image2d_t in, write_only image2d_t out) {
  int2 coord = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(out, coord, read_imagef(in, coord));
}

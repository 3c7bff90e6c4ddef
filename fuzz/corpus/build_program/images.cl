-cl-std=CL3.0
constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
kernel void blur(read_only image2d_t src, write_only image2d_t dst, sampler_t linear) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float4 sum = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) sum += read_imagef(src, nearest, p + (int2)(dx, dy));
  float2 uv = (convert_float2(p) + 0.5f) / convert_float2(get_image_dim(src));
  write_imagef(dst, p, sum / 9.0f + 0.0f * read_imagef(src, linear, uv));
}
kernel void rw(read_write image3d_t img, read_only image1d_buffer_t buf, read_only image2d_array_t arr,
               read_only image2d_depth_t depth) {
  int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  uint4 v = read_imageui(img, p);
  atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);
  write_imageui(img, p, v + read_imageui(buf, p.x) + convert_uint4(read_imagei(arr, p)));
  float d = read_imagef(depth, p.xy);
  (void)d;
}

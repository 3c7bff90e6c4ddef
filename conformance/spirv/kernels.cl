// Source of kernels.spvasm: clang-15 -cc1 -triple spir64-unknown-unknown
// -cl-std=CL2.0 -finclude-default-header -no-opaque-pointers -O2
// -cl-ext=+cl_khr_subgroups -emit-llvm-bc, then llvm-spirv-15
// --spirv-max-version=1.2 and spirv-dis.
kernel void reverse_in_group(global const float *in, global float *out, local float *tile) {
  size_t lid = get_local_id(0), n = get_local_size(0);
  tile[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = sqrt(tile[n - 1 - lid]) + (float)get_group_id(0);
}

kernel void count_odd(global const int *in, global atomic_int *odd, global int *legacy) {
  int v = in[get_global_id(0)];
  if (v & 1) {
    atomic_fetch_add_explicit(odd, 1, memory_order_relaxed, memory_scope_device);
    atomic_inc(legacy);
  }
}

kernel void group_sums(global const int *in, global int *sums, global int *prefix) {
  int v = in[get_global_id(0)];
  int total = work_group_reduce_add(v);
  prefix[get_global_id(0)] = work_group_scan_inclusive_add(v);
  if (get_local_id(0) == 0) sums[get_group_id(0)] = total;
}

kernel void sample(read_only image2d_t image, sampler_t sampler, global const float2 *coords,
                   global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(image, sampler, coords[i]);
}

constant sampler_t kNearestClamp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

kernel void sample_constant(read_only image2d_t image, global const int2 *coords, global uint4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imageui(image, kNearestClamp, coords[i]);
}

typedef struct {
  int count;
  float scale;
} Params;

kernel void scale_by_value(Params params, global float *data, int4 offsets) {
  size_t i = get_global_id(0);
  if (i < params.count) data[i] = data[i] * params.scale + offsets.x - offsets.w;
}

// Sub-groups (cl_khr_subgroups' functions, compiled with it enabled).
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void sub_group_sums(global const int *in, global int *sums, global int *first, global uint *ids) {
  size_t i = get_global_id(0);
  int v = in[i];
  sums[i] = sub_group_reduce_add(v);
  first[i] = sub_group_broadcast(v, 0);
  ids[i] = get_sub_group_id() * 1000 + get_sub_group_local_id();
}

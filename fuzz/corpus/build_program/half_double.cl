-cl-std=CL1.2
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void conv(global half *h, global float *f, global double *d) {
  size_t i = get_global_id(0);
  float4 v = vload_half4(i, h);
  vstore_half4_rtz(v * 2.0f, i, h);
  d[i] = (double)f[i] * 3.0 + sqrt(d[i]);
  f[i] = (float)fma(d[i], 2.0, 1.0);
}

-cl-std=CL1.2
kernel void big(global int *a) {
  int p[4096];
  for (int i = 0; i < 4096; ++i) p[i] = a[i] * i;
  barrier(CLK_GLOBAL_MEM_FENCE);
  int s = 0;
  for (int i = 0; i < 4096; i += 7) s += p[(i * 13) & 4095];
  a[get_global_id(0)] = s;
}

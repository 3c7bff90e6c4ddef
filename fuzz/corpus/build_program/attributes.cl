-cl-std=CL3.0 -cl-kernel-arg-info
__attribute__((work_group_size_hint(16, 1, 1))) __attribute__((vec_type_hint(float4)))
kernel void hinted(global const volatile int *restrict a, constant float *c, local int *l, const uint n,
                   global struct { int x; float y; } *s) {
  l[get_local_id(0)] = a[0] + (int)c[0] + (int)n + s->x;
}
__attribute__((reqd_work_group_size(4, 2, 1))) kernel void fixed(global int *a) { a[get_local_linear_id()] = 1; }
kernel void noargs() {}

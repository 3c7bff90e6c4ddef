-cl-std=CL1.2
kernel void hello(global const int *a, float f) {
  size_t i = get_global_id(0);
  printf("item %u: %d %5.2f %s %c %x %lu\n", (uint)i, a[i], f, "str", 'c', 255u, (ulong)i);
  printf("%v4hld %v2f %#o %%\n", (short4)(1, 2, 3, 4), (float2)(1.5f, 2.5f), 8);
  printf("no args\n");
  printf("%p %e %g %a\n", a, f, f, f);
}

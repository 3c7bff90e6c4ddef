-cl-std=CL3.0
kernel void histogram(global const uchar *data, global atomic_uint *bins, global int *old,
                      local atomic_int *l) {
  if (get_local_id(0) == 0) atomic_init(l, 0);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  atomic_fetch_add_explicit(&bins[data[get_global_id(0)]], 1u, memory_order_relaxed,
                            memory_scope_device);
  atomic_fetch_max_explicit(l, (int)get_global_id(0), memory_order_relaxed, memory_scope_work_group);
  int expected = 0;
  atomic_compare_exchange_strong((global atomic_int *)old, &expected, 1);
  atomic_inc((volatile global int *)old + 1);
  atomic_xchg((volatile global int *)old + 2, 5);
}

-cl-std=CL1.2
kernel void div(global int *a, local int *l) {
  int id = get_local_id(0);
  if (a[id] > 0) {
    l[id] = a[id];
    barrier(CLK_LOCAL_MEM_FENCE);
    a[id] = l[(id + 1) % get_local_size(0)];
  }
  for (int i = 0; i < a[0]; ++i) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i == 3) break;
  }
  while (id < 4) { id += a[id]; if (id > 100) return; }
  switch (a[1]) { case 0: barrier(CLK_LOCAL_MEM_FENCE); break; default: a[2] = 1; }
}

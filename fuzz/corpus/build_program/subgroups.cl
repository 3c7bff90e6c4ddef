-cl-std=CL3.0
kernel void sg(global int *a, global uint *b) {
  int v = a[get_global_id(0)];
  a[get_global_id(0)] = sub_group_reduce_add(v) + sub_group_scan_inclusive_max(v);
  if (v & 1) b[get_global_id(0)] = sub_group_ballot_bit_count(sub_group_ballot(v > 2)) + get_sub_group_local_id();
  b[0] = work_group_reduce_add((uint)v) + work_group_broadcast((uint)v, 0u);
  b[1] = sub_group_shuffle(v, 0) + sub_group_shuffle_xor(v, 1) + sub_group_clustered_reduce_add(v, 4u);
}

// Source of pipes.spvasm: clang-15 -cc1 -triple spir64-unknown-unknown
// -cl-std=CL2.0 -finclude-default-header -no-opaque-pointers -O2
// -emit-llvm-bc, then llvm-spirv-15 --spirv-max-version=1.2 and spirv-dis.
// Each producer work-item writes its two packets through one reservation;
// each group of consumers takes one group reservation; the last kernel
// reads what is left, unreserved, and counts it.
kernel void produce(global const int *src, write_only pipe int out, global int *failed) {
  size_t i = get_global_id(0);
  reserve_id_t r = reserve_write_pipe(out, 2);
  if (!is_valid_reserve_id(r)) {
    atomic_inc(failed);
    return;
  }
  write_pipe(out, r, 0, &src[2 * i]);
  write_pipe(out, r, 1, &src[2 * i + 1]);
  commit_write_pipe(out, r);
}
kernel void consume_groups(read_only pipe int in, global int *dst, global int *failed) {
  reserve_id_t r = work_group_reserve_read_pipe(in, get_local_size(0));
  if (is_valid_reserve_id(r)) {
    if (read_pipe(in, r, get_local_id(0), &dst[get_global_id(0)]) != 0) atomic_inc(failed);
    work_group_commit_read_pipe(in, r);
  } else if (get_local_id(0) == 0) {
    atomic_inc(failed);
  }
}
kernel void drain(read_only pipe int in, global int *dst, global int *count) {
  int n = 0;
  count[0] = get_pipe_num_packets(in);
  while (read_pipe(in, &dst[n]) == 0) ++n;
  count[1] = n;
  count[2] = get_pipe_max_packets(in);
}

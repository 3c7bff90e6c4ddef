-cl-std=CL3.0 -cl-mad-enable -DTILE=8
__attribute__((reqd_work_group_size(TILE, TILE, 1)))
kernel void matmul(global const float *a, global const float *b, global float *c, int n) {
  local float ta[TILE][TILE], tb[TILE][TILE];
  int row = get_global_id(1), col = get_global_id(0);
  int lr = get_local_id(1), lc = get_local_id(0);
  float sum = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    ta[lr][lc] = a[row * n + t * TILE + lc];
    tb[lr][lc] = b[(t * TILE + lr) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k) sum = mad(ta[lr][k], tb[k][lc], sum);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = sum;
}

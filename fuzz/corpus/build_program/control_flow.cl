-cl-std=CL3.0 -cl-opt-disable
kernel void cf(global int *a, int n) {
  int i = get_global_id(0), acc = 0;
  do {
    if (a[i] % 3 == 0) continue;
    acc += a[i] / (n | 1) + a[i] % (n | 1);
  } while (++i < n);
  a[get_global_id(0)] = acc << (n & 31);
  a[1] = INT_MIN / n;
  a[2] = clz(acc) + popcount(n) + mul_hi(acc, n) + rotate(acc, n) + abs_diff(acc, n);
}

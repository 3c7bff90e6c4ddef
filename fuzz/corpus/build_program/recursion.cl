
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
int even(int n);
int odd(int n) { return n == 0 ? 0 : even(n - 1); }
int even(int n) { return n == 0 ? 1 : odd(n - 1); }
kernel void k(global int *a) { a[0] = fact(a[1]) + even(a[2]); }

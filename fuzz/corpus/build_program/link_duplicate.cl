@|
int f(void) { return 1; }
//@unit
int f(void) { return 2; }
kernel void k(global int *a) { a[0] = f(); }
//@unit
kernel void k(global int *a) { a[1] = 0; }

-Werror
kernel void k(global int *a) { int unused; a[0] = 1 }

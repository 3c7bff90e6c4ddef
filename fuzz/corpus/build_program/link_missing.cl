@-cl-std=CL1.2|-cl-denorms-are-zero
extern int missing(int);
kernel void k(global int *a) { a[0] = missing(a[0]); }

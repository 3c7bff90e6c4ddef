@-DLIB|-create-library -enable-link-options
float twice(float x) { return 2.0f * x; }
//@unit
float twice(float x);
kernel void k(global float *f) { f[0] = twice(f[1]); }

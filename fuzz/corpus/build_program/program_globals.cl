-cl-std=CL3.0
global int counter = 0;
global float table[16] = {1, 2, 3};
constant int lut[4] = {4, 3, 2, 1};
kernel void use(global int *out) {
  static global int calls;
  out[get_global_id(0)] = counter++ + (int)table[get_global_id(0) & 15] + lut[get_global_id(0) & 3] + calls++;
}

@-cl-std=CL3.0|
//@header common.h
#define SCALE 3
int helper(int x);
//@unit
#include "common.h"
int helper(int x) { return x * SCALE; }
//@unit
#include "common.h"
kernel void user(global int *a) { a[get_global_id(0)] = helper(a[0]); }

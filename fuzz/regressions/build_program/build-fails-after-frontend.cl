
int helper(int x);
kernel void calls(global int *out) { out[0] = helper(1); }

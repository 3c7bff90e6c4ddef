// Source of linked.spvasm (as kernels.cl, but llvm-spirv-15's default
// version, 1.4): a kernel calling a function that
// another program defines (an Import in SPIR-V's Linkage), and a function
// exported for others to call.
int lockstep_test_helper(int x);

kernel void call_helper(global int *data) {
  size_t i = get_global_id(0);
  data[i] = lockstep_test_helper(data[i]);
}

int lockstep_test_triple(int x) { return 3 * x; }

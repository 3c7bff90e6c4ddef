
kernel void broken(global int *a) {
  int x = a[0]
  a[1] = x +;
  undeclared_fn(x);
}

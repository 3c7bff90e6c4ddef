-cl-std=CL9.9 -Dfoo= -I -cl-no-such-flag -x spir
kernel void k() {}

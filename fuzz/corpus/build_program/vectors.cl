-cl-std=CL1.2 -cl-fast-relaxed-math
typedef struct { float4 pos; int3 id; char c; } item_t;
kernel void vec(global float4 *v, global int8 *w, global uchar16 *u, global item_t *items, global float *f) {
  size_t i = get_global_id(0);
  float4 a = v[i].wzyx * (float4)(1.0f, 2.0f, 3.0f, 4.0f);
  int8 b = convert_int8_sat(w[i].s01234567 * 3);
  uchar16 c = as_uchar16(a) + u[i].sfedcba9876543210;
  float3 d = vload3(i, f);
  vstore3(d.zxy + cross(d, d), i, f);
  items[i].pos = select(a, -a, (int4)(b.lo < b.hi));
  items[i].id = (int3)(b.s0, b.s1, b.s2);
  w[i] = b >> 1;
  u[i] = rotate(c, (uchar16)3);
  v[i] = (float4)(dot(a, a), length(a.xy), fast_normalize(a).z, native_sin(a.w));
}

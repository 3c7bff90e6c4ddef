// The benchmark kernels, written the way one writes them for a GPU: one
// work-item per output element, __local tiles and barriers where the algorithm
// reuses data within a work-group, local atomics for the histogram. Nothing
// here is tuned for a CPU; that is the point of the comparison.

// Launch overhead. Work-item 0 counts the launch, so the host can check that
// every launch it timed really ran, once.
kernel void count_launch(global uint *counter) {
  if (get_global_id(0) == 0) counter[0] += 1;
}

kernel void vector_add(global const float *a, global const float *b, global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

// STREAM's triad: a = b + s * c.
kernel void triad(global float *a, global const float *b, global const float *c, float s) {
  size_t i = get_global_id(0);
  a[i] = b[i] + s * c[i];
}

// C = A * B (row-major, n x n), one work-item per element of C, straight from
// global memory.
kernel void sgemm_naive(global const float *a, global const float *b, global float *c, uint n) {
  uint col = get_global_id(0);
  uint row = get_global_id(1);
  float sum = 0.0f;
  for (uint k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
}

#define GEMM_TILE 16
// The same product in GEMM_TILE x GEMM_TILE blocks: each work-group copies one
// block of A and one of B into __local memory per step, so every element read
// from global memory is used GEMM_TILE times. The first barrier keeps work-items
// from reading a tile before it is complete, the second from overwriting it
// while others still read it.
kernel void sgemm_tiled(global const float *a, global const float *b, global float *c, uint n) {
  local float a_tile[GEMM_TILE][GEMM_TILE];
  local float b_tile[GEMM_TILE][GEMM_TILE];
  uint lx = get_local_id(0), ly = get_local_id(1);
  uint col = get_global_id(0), row = get_global_id(1);
  float sum = 0.0f;
  for (uint base = 0; base < n; base += GEMM_TILE) {
    a_tile[ly][lx] = a[row * n + base + lx];
    b_tile[ly][lx] = b[(base + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < GEMM_TILE; ++k) sum += a_tile[ly][k] * b_tile[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = sum;
}

// Sum of n floats, one partial sum per work-group. Each work-item first adds a
// grid-strided slice (consecutive work-items read consecutive elements), then
// the group halves its __local scratch until one value is left.
kernel void reduce_sum(global const float *in, global float *partials, uint n,
                       local float *scratch) {
  uint lid = get_local_id(0);
  float sum = 0.0f;
  for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) sum += in[i];
  scratch[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint width = get_local_size(0) / 2; width > 0; width /= 2) {
    if (lid < width) scratch[lid] += scratch[lid + width];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partials[get_group_id(0)] = scratch[0];
}

// Exclusive prefix sum of each block of 2 * local_size uints (work-efficient:
// an up-sweep builds partial sums in a tree, a down-sweep distributes them),
// and the block's total for a later pass over the blocks.
kernel void scan_blocks(global const uint *in, global uint *out, global uint *block_sums,
                        local uint *tree) {
  uint lid = get_local_id(0);
  uint items = get_local_size(0);  // each work-item holds two elements
  uint count = 2 * items;
  size_t base = get_group_id(0) * count;
  tree[lid] = in[base + lid];
  tree[lid + items] = in[base + lid + items];

  uint stride = 1;
  for (uint active = items; active > 0; active /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < active) {
      uint left = stride * (2 * lid + 1) - 1;
      tree[left + stride] += tree[left];
    }
    stride *= 2;
  }
  if (lid == 0) {
    block_sums[get_group_id(0)] = tree[count - 1];
    tree[count - 1] = 0;
  }
  for (uint active = 1; active < count; active *= 2) {
    stride /= 2;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < active) {
      uint left = stride * (2 * lid + 1) - 1;
      uint carried = tree[left];
      tree[left] = tree[left + stride];
      tree[left + stride] += carried;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + lid] = tree[lid];
  out[base + lid + items] = tree[lid + items];
}

#define TRANSPOSE_TILE 16
// out = in^T through a __local tile, so both the reads and the writes of a
// work-group walk rows. The extra column keeps a GPU's banks conflict-free.
kernel void transpose_tiled(global const float *in, global float *out, uint n) {
  local float tile[TRANSPOSE_TILE][TRANSPOSE_TILE + 1];
  uint lx = get_local_id(0), ly = get_local_id(1);
  uint x = get_group_id(0) * TRANSPOSE_TILE + lx;
  uint y = get_group_id(1) * TRANSPOSE_TILE + ly;
  tile[ly][lx] = in[y * n + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  x = get_group_id(1) * TRANSPOSE_TILE + lx;
  y = get_group_id(0) * TRANSPOSE_TILE + ly;
  out[y * n + x] = tile[lx][ly];
}

#define STENCIL_TILE 16
#define HALO_TILE (STENCIL_TILE + 2)
// One Jacobi sweep of the 5-point average. The work-group loads its block and
// a one-cell halo around it into __local memory (each work-item loads one or
// two cells, clamped at the grid's edge), then every work-item reads its four
// neighbours from there. Border cells keep their value.
kernel void stencil_5point(global const float *in, global float *out, uint n) {
  local float tile[HALO_TILE][HALO_TILE];
  int lx = get_local_id(0), ly = get_local_id(1);
  int origin_x = get_group_id(0) * STENCIL_TILE - 1;
  int origin_y = get_group_id(1) * STENCIL_TILE - 1;
  for (int i = ly * STENCIL_TILE + lx; i < HALO_TILE * HALO_TILE;
       i += STENCIL_TILE * STENCIL_TILE) {
    int sx = clamp(origin_x + i % HALO_TILE, 0, (int)n - 1);
    int sy = clamp(origin_y + i / HALO_TILE, 0, (int)n - 1);
    tile[i / HALO_TILE][i % HALO_TILE] = in[sy * n + sx];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  uint x = get_global_id(0), y = get_global_id(1);
  float centre = tile[ly + 1][lx + 1];
  float value = centre;
  if (x > 0 && y > 0 && x < n - 1 && y < n - 1)
    value = 0.2f * (centre + tile[ly][lx + 1] + tile[ly + 2][lx + 1] + tile[ly + 1][lx] +
                    tile[ly + 1][lx + 2]);
  out[y * n + x] = value;
}

// All-pairs gravitational accelerations. The work-group walks the bodies in
// tiles of local_size, staged in __local memory so each position is read from
// global memory once per group rather than once per work-item.
kernel void nbody_forces(global const float4 *pos, global float4 *acc, uint n, float softening2,
                         local float4 *tile) {
  uint i = get_global_id(0);
  uint lid = get_local_id(0);
  uint size = get_local_size(0);
  float4 me = pos[i];
  float3 a = (float3)(0.0f);
  for (uint base = 0; base < n; base += size) {
    tile[lid] = pos[base + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < size; ++j) {
      float4 other = tile[j];
      float3 d = other.xyz - me.xyz;
      float inv_r = rsqrt(dot(d, d) + softening2);
      a += (other.w * inv_r * inv_r * inv_r) * d;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  acc[i] = (float4)(a, 0.0f);
}

// Escape iteration count per pixel: divergent trip counts between neighbours.
kernel void mandelbrot(global uint *iters, uint width, float x0, float y0, float dx, float dy,
                       uint max_iter) {
  uint px = get_global_id(0), py = get_global_id(1);
  float cr = x0 + px * dx, ci = y0 + py * dy;
  float zr = 0.0f, zi = 0.0f;
  uint k = 0;
  while (k < max_iter && zr * zr + zi * zi <= 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++k;
  }
  iters[py * width + px] = k;
}

// 256-bin histogram: each work-group counts its grid-strided slice into a
// __local histogram with local atomics, then adds it to the global one.
kernel void histogram256(global const uchar *data, uint n, global uint *bins) {
  local uint counts[256];
  uint lid = get_local_id(0), size = get_local_size(0);
  for (uint b = lid; b < 256; b += size) counts[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) atomic_inc(&counts[data[i]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < 256; b += size)
    if (counts[b] != 0) atomic_add(&bins[b], counts[b]);
}

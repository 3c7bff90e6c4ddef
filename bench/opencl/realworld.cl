// The real-world kernel set: kernels written the way they appear in
// tutorials, vendor samples and application code, rather than the way the
// compiler was tuned on. Signed `int` sizes and index arithmetic
// (in[y * W + x] with int W), GPU-style 16 x 16 __local tiles with a 16 x 17
// transpose tile, a halo loaded by the work-items on the group's edge, local
// atomics over a grid-stride loop, global atomics a work-item per byte, a
// loop along a row per work-item, float4 and int4 vectors, and a 3-D
// NDRange. The host (RealWorldBenchmarks.cpp) launches some with a 16 x 16
// local size and some with NULL (the platform chooses).

// C = A * B (row-major, N x N), one work-item per element, straight from
// global memory; launched with a NULL local size.
kernel void rw_sgemm_naive(global const float *A, global const float *B, global float *C, int N) {
  int col = get_global_id(0);
  int row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < N; k++) acc += A[row * N + k] * B[k * N + col];
  C[row * N + col] = acc;
}

#define TS 16
// The textbook tiled SGEMM: 16 x 16 work-groups, one tile of A and one of B
// in __local per step.
kernel void rw_sgemm_tiled(global const float *A, global const float *B, global float *C, int N) {
  __local float As[TS][TS];
  __local float Bs[TS][TS];
  int tx = get_local_id(0);
  int ty = get_local_id(1);
  int col = get_group_id(0) * TS + tx;
  int row = get_group_id(1) * TS + ty;
  float acc = 0.0f;
  int numTiles = N / TS;
  for (int t = 0; t < numTiles; t++) {
    As[ty][tx] = A[row * N + t * TS + tx];
    Bs[ty][tx] = B[(t * TS + ty) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; k++) acc += As[ty][k] * Bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * N + col] = acc;
}

// out = in^T through a 16 x 17 __local tile (the padding column is the GPU
// bank-conflict habit), int indices.
kernel void rw_transpose(global const float *in, global float *out, int N) {
  __local float tile[TS][TS + 1];
  int lx = get_local_id(0), ly = get_local_id(1);
  int bx = get_group_id(0) * TS, by = get_group_id(1) * TS;
  tile[ly][lx] = in[(by + ly) * N + bx + lx];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[(bx + ly) * N + by + lx] = tile[lx][ly];
}

// out = in^T straight from global memory, int indices, 16 x 16 groups: the
// loads run along the rows, the stores down the columns.
kernel void rw_transpose_naive(global const float *in, global float *out, int N) {
  int x = get_global_id(0), y = get_global_id(1);
  out[x * N + y] = in[y * N + x];
}

// 5-point Jacobi sweep (border copied) through an 18 x 18 __local tile whose
// halo is loaded by the work-items on the group's edge; 16 x 16 groups.
kernel void rw_stencil_halo(global const float *in, global float *out, int W, int H) {
  __local float tile[TS + 2][TS + 2];
  int x = get_global_id(0), y = get_global_id(1);
  int lx = get_local_id(0), ly = get_local_id(1);
  tile[ly + 1][lx + 1] = in[y * W + x];
  if (lx == 0) tile[ly + 1][0] = in[y * W + max(x - 1, 0)];
  if (lx == TS - 1) tile[ly + 1][TS + 1] = in[y * W + min(x + 1, W - 1)];
  if (ly == 0) tile[0][lx + 1] = in[max(y - 1, 0) * W + x];
  if (ly == TS - 1) tile[TS + 1][lx + 1] = in[min(y + 1, H - 1) * W + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  float c = tile[ly + 1][lx + 1];
  if (x > 0 && y > 0 && x < W - 1 && y < H - 1)
    c = 0.2f * (c + tile[ly][lx + 1] + tile[ly + 2][lx + 1] + tile[ly + 1][lx] +
                tile[ly + 1][lx + 2]);
  out[y * W + x] = c;
}

// The same sweep straight from global memory, the border handled by an early
// return; launched with 16 x 16 groups and with NULL.
kernel void rw_stencil_global(global const float *in, global float *out, int W, int H) {
  int x = get_global_id(0), y = get_global_id(1);
  int i = y * W + x;
  if (x == 0 || y == 0 || x == W - 1 || y == H - 1) {
    out[i] = in[i];
    return;
  }
  out[i] = 0.2f * (in[i] + in[i - W] + in[i + W] + in[i - 1] + in[i + 1]);
}

// 256-bin histogram: a __local histogram filled with local atomics over a
// grid-stride loop (int index), then added to the global one.
kernel void rw_histogram(global const uchar *data, int n, global uint *bins) {
  __local uint hist[256];
  int lid = get_local_id(0);
  for (int b = lid; b < 256; b += get_local_size(0)) hist[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) atomic_add(&hist[data[i]], 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int b = lid; b < 256; b += get_local_size(0)) atomic_add(&bins[b], hist[b]);
}

// The same histogram as most first versions write it: one work-item per
// byte, a global atomic_inc each.
kernel void rw_histogram_global(global const uchar *data, global uint *bins) {
  atomic_inc(&bins[data[get_global_id(0)]]);
}

// Matrix-vector product, one work-item per row (a dot product along the
// row) behind the usual guard, int indices, local size NULL.
kernel void rw_gemv(global const float *A, global const float *x, global float *y, int N) {
  int row = get_global_id(0);
  if (row < N) {
    float sum = 0.0f;
    for (int k = 0; k < N; k++) sum += A[row * N + k] * x[k];
    y[row] = sum;
  }
}

// 1-D convolution with a filter in __constant memory, a work-item per
// output behind the usual guard (the host rounds the global size up to a
// multiple of the group), the filter's length an argument.
kernel void rw_conv1d(global const float *in, global float *out, constant float *w, int taps, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  float acc = 0.0f;
  for (int k = 0; k < taps; k++) acc += in[i + k] * w[k];
  out[i] = acc;
}

// AMD APP SDK's SimpleConvolution: a 1-D range over an image, each
// work-item's row and column the quotient and remainder of its id by the
// width, the window's loops run from them (unsigned) to the mask's end,
// behind the guard on both.
kernel void rw_conv2d_linear(global const float *in, constant float *mask, global float *out, uint2 size,
                             uint2 mask_size, uint pitch) {
  uint tid = get_global_id(0);
  uint width = size.x, height = size.y;
  uint x = tid % width, y = tid / width;
  if (x >= width || y >= height) return;
  float sum = 0.0f;
  uint m = 0;
  for (uint j = y; j < y + mask_size.y; ++j, ++m) {
    uint k = 0;
    for (uint i = x; i < x + mask_size.x; ++i, ++k) sum += in[j * pitch + i] * mask[m * mask_size.x + k];
  }
  out[tid] = sum;
}

// SAXPY on float4: out = a * x + y.
kernel void rw_saxpy4(global const float4 *x, global const float4 *y, global float4 *out,
                      float a) {
  int i = get_global_id(0);
  out[i] = a * x[i] + y[i];
}

// Integer arithmetic on int4: out = (a * 3 + b) ^ (a >> 3).
kernel void rw_int4(global const int4 *a, global const int4 *b, global int4 *out) {
  int i = get_global_id(0);
  int4 va = a[i];
  out[i] = (va * 3 + b[i]) ^ (va >> 3);
}

// 7-point Jacobi sweep on an N x N x N grid, one work-item per cell of a 3-D
// NDRange launched with NULL local size; the border is copied.
kernel void rw_stencil3d(global const float *in, global float *out, int N) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  int i = (z * N + y) * N + x;
  if (x == 0 || y == 0 || z == 0 || x == N - 1 || y == N - 1 || z == N - 1) {
    out[i] = in[i];
    return;
  }
  int plane = N * N;
  out[i] = 0.4f * in[i] +
           0.1f * (in[i - 1] + in[i + 1] + in[i - N] + in[i + N] + in[i - plane] + in[i + plane]);
}

// Parboil's stencil: each work-item marches along z through an nx x ny x nz
// grid, carrying the planes below and at it, behind the guard Parboil
// writes (`int` ids offset by one; 32 x 4 groups, the global size rounded
// up to whole groups, so the last groups along x and y are split).
kernel void rw_stencil_zmarch(float c0, float c1, global const float *A0, global float *Anext, int nx, int ny,
                              int nz) {
  int i = get_global_id(0) + 1;
  int j = get_global_id(1) + 1;
  if (i >= nx - 1 || j >= ny - 1) return;
  float bottom = A0[i + nx * (j + ny * 0)];
  float current = A0[i + nx * (j + ny * 1)];
  for (int k = 1; k < nz - 1; k++) {
    float top = A0[i + nx * (j + ny * (k + 1))];
    Anext[i + nx * (j + ny * k)] = (top + bottom + A0[i + nx * (j + 1 + ny * k)] + A0[i + nx * (j - 1 + ny * k)] +
                                    A0[i + 1 + nx * (j + ny * k)] + A0[i - 1 + nx * (j + ny * k)]) * c1 -
                                   current * c0;
    bottom = current;
    current = top;
  }
}

// Sums of the 16 x 16 tiles of an n x n grid: each group loads its tile into
// __local memory and halves it by a tree over the linear local id, written
// the way 2-D image code writes it (`int l = ly * 16 + lx; if (l < o)`).
kernel void rw_reduce2d(global const float *in, global float *sums, int N) {
  __local float part[TS * TS];
  int lx = get_local_id(0), ly = get_local_id(1), l = ly * TS + lx;
  part[l] = in[get_global_id(1) * N + get_global_id(0)];
  for (int o = TS * TS / 2; o > 0; o >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < o) part[l] += part[l + o];
  }
  if (l == 0) sums[get_group_id(1) * get_num_groups(0) + get_group_id(0)] = part[0];
}

// Sobel gradient magnitude of RGBA uchar4 pixels (grey from R, G, B), one
// work-item per pixel, local size NULL; the border work-items return early.
kernel void rw_sobel_rgba(global const uchar4 *in, global uchar4 *out, int W, int H) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < 1 || y < 1 || x >= W - 1 || y >= H - 1) {
    out[y * W + x] = (uchar4)(0, 0, 0, 255);
    return;
  }
  float g[3][3];
  for (int j = -1; j <= 1; j++)
    for (int i = -1; i <= 1; i++) {
      float4 p = convert_float4(in[(y + j) * W + x + i]);
      g[j + 1][i + 1] = 0.299f * p.x + 0.587f * p.y + 0.114f * p.z;
    }
  float gx = g[0][2] + 2.0f * g[1][2] + g[2][2] - g[0][0] - 2.0f * g[1][0] - g[2][0];
  float gy = g[2][0] + 2.0f * g[2][1] + g[2][2] - g[0][0] - 2.0f * g[0][1] - g[0][2];
  uchar m = convert_uchar_sat(sqrt(gx * gx + gy * gy));
  out[y * W + x] = (uchar4)(m, m, m, 255);
}

// Stream compaction: each work-item whose value passes the test appends it
// through a global counter (a detector's list of corners, a queue's slots).
kernel void rw_compact(global const float *in, global float *out, volatile global int *count, float threshold) {
  float x = in[get_global_id(0)];
  if (x > threshold) out[atomic_inc(count)] = x;
}

// A byte table lookup (a gamma or contrast map over pixels), the table in
// __constant.
kernel void rw_lut(global const uchar *in, global uchar *out, constant uchar *lut) {
  int i = get_global_id(0);
  out[i] = lut[in[i]];
}

// k-means' assignment step (Rodinia's shape): each work-item labels its
// point with the nearest centroid, looping over the centroids and, inside,
// the coordinates (their count a kernel argument).
kernel void rw_kmeans(global const float *pts, global const float *cent, global int *label, int k, int dim) {
  int i = get_global_id(0);
  float best = INFINITY;
  int bi = 0;
  for (int c = 0; c < k; c++) {
    float d = 0.0f;
    for (int j = 0; j < dim; j++) {
      float t = pts[i * dim + j] - cent[c * dim + j];
      d += t * t;
    }
    if (d < best) {
      best = d;
      bi = c;
    }
  }
  label[i] = bi;
}

// Rodinia's pathfinder (dynproc_kernel): each group of BLOCK work-items
// sweeps `iteration` rows of a dynamic program over BLOCK - 2 * iteration
// columns of its own, a halo of `iteration` on each side; each work-item's
// clamped neighbours and validity computed with ternaries before a loop of
// barriers, a `computed` flag kept across them.
#define PF_IN_RANGE(x, min, max) ((x) >= (min) && (x) <= (max))
#define PF_MIN(a, b) ((a) <= (b) ? (a) : (b))
kernel void rw_pathfinder(int iteration, global const int *wall, global const int *src, global int *results,
                          int cols, int startStep, int border, local int *prev, local int *result) {
  int BLOCK = get_local_size(0);
  int bx = get_group_id(0);
  int tx = get_local_id(0);
  int small_block_cols = BLOCK - iteration * 2;
  int blkX = small_block_cols * bx - border;
  int blkXmax = blkX + BLOCK - 1;
  int xidx = blkX + tx;
  int validXmin = (blkX < 0) ? -blkX : 0;
  int validXmax = (blkXmax > cols - 1) ? BLOCK - 1 - (blkXmax - cols + 1) : BLOCK - 1;
  int W = tx - 1;
  int E = tx + 1;
  W = (W < validXmin) ? validXmin : W;
  E = (E > validXmax) ? validXmax : E;
  bool isValid = PF_IN_RANGE(tx, validXmin, validXmax);
  if (PF_IN_RANGE(xidx, 0, cols - 1)) prev[tx] = src[xidx];
  barrier(CLK_LOCAL_MEM_FENCE);
  bool computed;
  for (int i = 0; i < iteration; i++) {
    computed = false;
    if (PF_IN_RANGE(tx, i + 1, BLOCK - i - 2) && isValid) {
      computed = true;
      int shortest = PF_MIN(prev[W], prev[tx]);
      shortest = PF_MIN(shortest, prev[E]);
      result[tx] = shortest + wall[cols * (startStep + i) + xidx];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i == iteration - 1) break;
    if (computed) prev[tx] = result[tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (computed) results[xidx] = result[tx];
}

// The TypeScript backend's matrix product in WebAssembly SIMD (AssemblyScript; part of
// wasm/kernels.ts, called by src/torch/js/wasm-gemm.ts): C = A B over float32 matrices in the
// module's memory, A [M, K] and B [K, N] each with its own row stride (lda, ldb elements; columns
// dense), C [M, N] dense. A tile of 4 rows by 8
// columns keeps 8 four-lane accumulators: each step broadcasts one element of A's 4 rows and
// multiplies 2 vectors of B's row k. Products accumulate in float32 as a BLAS's do.

// @ts-nocheck: AssemblyScript, not TypeScript (v128, usize, load and store are its builtins)

/**
 * C[i, j] = sum_k A[i, k] B[k, j] (+ bias[j] where `bias` is not 0) for i < M, j < N (every
 * element of C written), A[i, k] at a + 4 (i lda + k), B[k, j] at b + 4 (k ldb + j).
 */
export function gemm(
  a: usize,
  b: usize,
  c: usize,
  M: i32,
  K: i32,
  N: i32,
  bias: usize,
  lda: i32,
  ldb: i32,
): void {
  const rowA = (<usize>lda) << 2;
  const rowB = (<usize>ldb) << 2;
  const rowC = (<usize>N) << 2;
  const n8 = N & ~7;
  let i = 0;
  for (; i + 4 <= M; i += 4) {
    const a0 = a + <usize>i * rowA;
    const c0 = c + <usize>i * rowC;
    for (let j = 0; j < n8; j += 8) {
      let s00 = f32x4.splat(0),
        s01 = f32x4.splat(0);
      let s10 = f32x4.splat(0),
        s11 = f32x4.splat(0);
      let s20 = f32x4.splat(0),
        s21 = f32x4.splat(0);
      let s30 = f32x4.splat(0),
        s31 = f32x4.splat(0);
      let pb = b + ((<usize>j) << 2);
      let pa = a0;
      for (let k = 0; k < K; k++) {
        const b0 = v128.load(pb);
        const b1 = v128.load(pb, 16);
        const x0 = v128.load32_splat(pa);
        const x1 = v128.load32_splat(pa + rowA);
        const x2 = v128.load32_splat(pa + 2 * rowA);
        const x3 = v128.load32_splat(pa + 3 * rowA);
        s00 = f32x4.add(s00, f32x4.mul(x0, b0));
        s01 = f32x4.add(s01, f32x4.mul(x0, b1));
        s10 = f32x4.add(s10, f32x4.mul(x1, b0));
        s11 = f32x4.add(s11, f32x4.mul(x1, b1));
        s20 = f32x4.add(s20, f32x4.mul(x2, b0));
        s21 = f32x4.add(s21, f32x4.mul(x2, b1));
        s30 = f32x4.add(s30, f32x4.mul(x3, b0));
        s31 = f32x4.add(s31, f32x4.mul(x3, b1));
        pb += rowB;
        pa += 4;
      }
      if (bias) {
        const q0 = v128.load(bias + ((<usize>j) << 2));
        const q1 = v128.load(bias + ((<usize>j) << 2), 16);
        s00 = f32x4.add(s00, q0);
        s01 = f32x4.add(s01, q1);
        s10 = f32x4.add(s10, q0);
        s11 = f32x4.add(s11, q1);
        s20 = f32x4.add(s20, q0);
        s21 = f32x4.add(s21, q1);
        s30 = f32x4.add(s30, q0);
        s31 = f32x4.add(s31, q1);
      }
      const pc = c0 + ((<usize>j) << 2);
      v128.store(pc, s00);
      v128.store(pc, s01, 16);
      v128.store(pc + rowC, s10);
      v128.store(pc + rowC, s11, 16);
      v128.store(pc + 2 * rowC, s20);
      v128.store(pc + 2 * rowC, s21, 16);
      v128.store(pc + 3 * rowC, s30);
      v128.store(pc + 3 * rowC, s31, 16);
    }
    for (let r = 0; r < 4; r++)
      tail(a0 + <usize>r * rowA, b, c0 + <usize>r * rowC, K, N, ldb, n8, bias);
  }
  for (; i < M; i++) {
    const a0 = a + <usize>i * rowA;
    const c0 = c + <usize>i * rowC;
    for (let j = 0; j < n8; j += 8) {
      let s0 = f32x4.splat(0),
        s1 = f32x4.splat(0);
      let pb = b + ((<usize>j) << 2);
      for (let k = 0; k < K; k++) {
        const x = f32x4.splat(load<f32>(a0 + ((<usize>k) << 2)));
        s0 = f32x4.add(s0, f32x4.mul(x, v128.load(pb)));
        s1 = f32x4.add(s1, f32x4.mul(x, v128.load(pb, 16)));
        pb += rowB;
      }
      if (bias) {
        s0 = f32x4.add(s0, v128.load(bias + ((<usize>j) << 2)));
        s1 = f32x4.add(s1, v128.load(bias + ((<usize>j) << 2), 16));
      }
      v128.store(c0 + ((<usize>j) << 2), s0);
      v128.store(c0 + ((<usize>j) << 2), s1, 16);
    }
    tail(a0, b, c0, K, N, ldb, n8, bias);
  }
}

/** The columns from `from` to N of one row of C, one at a time. */
function tail(
  a0: usize,
  b: usize,
  c0: usize,
  K: i32,
  N: i32,
  ldb: i32,
  from: i32,
  bias: usize,
): void {
  for (let j = from; j < N; j++) {
    let s: f32 = 0;
    for (let k = 0; k < K; k++)
      s += load<f32>(a0 + ((<usize>k) << 2)) * load<f32>(b + ((<usize>k * ldb + j) << 2));
    if (bias) s += load<f32>(bias + ((<usize>j) << 2));
    store<f32>(c0 + ((<usize>j) << 2), s);
  }
}

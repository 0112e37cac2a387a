// The TypeScript backend's matrix product (docs/design.md §3b): C = A B or A B^T over dense
// row-major buffers at offsets, the cost of every network forward pass on this backend. float32
// products go to the WebAssembly SIMD kernel (wasm-gemm.ts) where it runs, accumulating in
// float32 as a BLAS does; the rest (float64, integers, a runtime without it) to the loop below,
// each output element accumulated in float64 (JavaScript's number) and stored once.
import type { Buf } from './buffers.js';
import { wasmGemm } from './wasm-gemm.js';

/** Where a product's operands and result lie: buffers, offsets, and M x K times K x N. */
interface Operands {
  A: Buf;
  aOff: number;
  B: Buf;
  bOff: number;
  C: Buf;
  cOff: number;
  M: number;
  K: number;
  N: number;
  bias: Buf | null;
}

/** C = A B^T: rows of A against rows of B, four outputs at a time sharing each A element. */
function loopTransposed({ A, aOff, B, bOff, C, cOff, M, K, N, bias }: Operands): void {
  const q = (j: number) => (bias ? bias[j]! : 0); // added to the float64 sum, stored once
  for (let i = 0; i < M; i++) {
    const a0 = aOff + i * K;
    let j = 0;
    for (; j + 4 <= N; j += 4) {
      const b0 = bOff + j * K;
      const b1 = b0 + K;
      const b2 = b1 + K;
      const b3 = b2 + K;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let k = 0; k < K; k++) {
        const a = A[a0 + k]!;
        s0 += a * B[b0 + k]!;
        s1 += a * B[b1 + k]!;
        s2 += a * B[b2 + k]!;
        s3 += a * B[b3 + k]!;
      }
      const c = cOff + i * N + j;
      C[c] = s0 + q(j);
      C[c + 1] = s1 + q(j + 1);
      C[c + 2] = s2 + q(j + 2);
      C[c + 3] = s3 + q(j + 3);
    }
    for (; j < N; j++) {
      const b0 = bOff + j * K;
      let s = 0;
      for (let k = 0; k < K; k++) s += A[a0 + k]! * B[b0 + k]!;
      C[cOff + i * N + j] = s + q(j);
    }
  }
}

/** C = A B: a row of C at a time, accumulated in float64 over the rows of B. */
function loopPlain({ A, aOff, B, bOff, C, cOff, M, K, N, bias }: Operands): void {
  const acc = new Float64Array(N);
  for (let i = 0; i < M; i++) {
    acc.fill(0);
    const a0 = aOff + i * K;
    for (let k = 0; k < K; k++) {
      const a = A[a0 + k]!;
      const b0 = bOff + k * N;
      for (let j = 0; j < N; j++) acc[j]! += a * B[b0 + j]!;
    }
    const c = cOff + i * N;
    for (let j = 0; j < N; j++) C[c + j] = acc[j]! + (bias ? bias[j]! : 0);
  }
}

/**
 * C[cOff + i N + j] = sum_k A[aOff + i K + k] * B(k, j) (+ bias[j] where given, after the sum,
 * as addmm adds it) for i < M, j < N, where B(k, j) is B[bOff + k N + j], or B[bOff + j K + k]
 * when `transB` (B stored [N, K], as a linear layer's weight).
 */
export function gemm(
  A: Buf,
  aOff: number,
  B: Buf,
  bOff: number,
  C: Buf,
  cOff: number,
  M: number,
  K: number,
  N: number,
  transB: boolean,
  bias: Buf | null = null,
): void {
  if (
    A instanceof Float32Array &&
    B instanceof Float32Array &&
    C instanceof Float32Array &&
    (bias === null || bias instanceof Float32Array) &&
    K >= 8 &&
    wasmGemm(A, aOff, B, bOff, C, cOff, M, K, N, transB, bias)
  )
    return;
  const o = { A, aOff, B, bOff, C, cOff, M, K, N, bias };
  if (transB) loopTransposed(o);
  else loopPlain(o);
}

// The TypeScript backend's float32 matrix product in WebAssembly SIMD (wasm/gemm.ts, in the
// module of wasm-module.ts): the operands copied into its memory (B transposed where it is stored
// [N, K], as a linear layer's weight, and kept there for the next call) and C copied out. A batch
// of strided matrices (attention's heads, a transposed key) is read in place from its buffer's
// span, copied in once, each matrix packed dense only where its columns are not. Where
// WebAssembly SIMD is missing, gemm.ts's JavaScript loop serves instead.

import { writeEpoch } from './buffers.js';
import {
  BASE,
  type Kernels,
  keptBytesEnd,
  kernels,
  Scratch,
  setKeptBytesEnd,
  viewSpan,
} from './wasm-module.js';

/** Whether the WebAssembly kernel runs here. */
export const hasWasmGemm = (): boolean => kernels() !== null;

/**
 * The transposed weights kept in the kernel's memory, from its start: a linear layer's weight
 * [N, K] is laid out [K, N] once, not at every call. An entry is valid while its source buffer
 * has not been written in place since (buffers.ts writeEpoch); past CACHE_BYTES the cache
 * starts over.
 */
const CACHE_BYTES = 256 * 2 ** 20;
let cache = new WeakMap<Float32Array, Map<string, { at: number; epoch: number }>>();

function transposedWeight(k: Kernels, B: Float32Array, bOff: number, N: number, K: number): number {
  const key = `${bOff}:${N}:${K}`;
  const epoch = writeEpoch(B);
  let byKey = cache.get(B);
  const hit = byKey?.get(key);
  if (hit && hit.epoch === epoch) return hit.at;
  if (keptBytesEnd() + 4 * N * K > CACHE_BYTES) {
    cache = new WeakMap();
    setKeptBytesEnd(BASE);
    byKey = undefined;
  }
  const at = keptBytesEnd();
  setKeptBytesEnd(at + 4 * N * K);
  const mem = new Scratch().view(k);
  const bt = at >> 2;
  for (let n = 0; n < N; n++) {
    const row = bOff + n * K;
    for (let q = 0; q < K; q++) mem[bt + q * N + n] = B[row + q]!;
  }
  if (!byKey) {
    byKey = new Map();
    cache.set(B, byKey);
  }
  byKey.set(key, { at, epoch });
  return at;
}

/**
 * C[cOff ..] = A[aOff ..] (M x K) times B[bOff ..] (K x N, or N x K when `transB`, then kept
 * transposed in the kernel's memory), plus `bias` [N] on each row where given, float32; false
 * (nothing written) where the kernel does not run.
 */
export function wasmGemm(
  A: Float32Array,
  aOff: number,
  B: Float32Array,
  bOff: number,
  C: Float32Array,
  cOff: number,
  M: number,
  K: number,
  N: number,
  transB: boolean,
  bias: Float32Array | null = null,
): boolean {
  const k = kernels();
  if (k === null) return false;
  const kept = transB ? transposedWeight(k, B, bOff, N, K) : 0;
  const s = new Scratch();
  const b = transB ? kept : s.alloc(K * N);
  const a = s.alloc(M * K);
  const c = s.alloc(M * N);
  const q = bias ? s.alloc(N) : 0;
  const mem = s.view(k);
  mem.set(A.subarray(aOff, aOff + M * K), a >> 2);
  if (!transB) mem.set(B.subarray(bOff, bOff + K * N), b >> 2);
  if (bias) mem.set(bias, q >> 2);
  k.gemm(a, b, c, M, K, N, q, K, N);
  C.set(mem.subarray(c >> 2, (c >> 2) + M * N), cOff);
  return true;
}

/** Matrices R x Cn of one buffer: matrix q's element (r, c) at data[offsets[q] + r rs + c cs]. */
export interface StridedBatch {
  data: Float32Array;
  offsets: readonly number[];
  rs: number;
  cs: number;
}

/** The storage range [lo, hi) that a batch of R x Cn matrices reads (strides not negative). */
function spanOf(x: StridedBatch, R: number, Cn: number): [number, number] {
  const extent = viewSpan(0, [R, Cn], [x.rs, x.cs])![1]; // one matrix's, strides checked first
  let lo = Number.POSITIVE_INFINITY;
  let hi = 0;
  for (const o of x.offsets) {
    lo = Math.min(lo, o);
    hi = Math.max(hi, o + extent);
  }
  return [lo, hi];
}

/**
 * C[q M N ..] = A_q (M x K) times B_q (K x N) for each matrix q of the batches, float32, C dense
 * [count, M, N]; false (nothing written) where the kernel does not run or a stride is negative.
 */
export function wasmGemmBatched(
  A: StridedBatch,
  B: StridedBatch,
  C: Float32Array,
  M: number,
  K: number,
  N: number,
): boolean {
  const k = kernels();
  const count = A.offsets.length;
  if (k === null || Math.min(A.rs, A.cs, B.rs, B.cs) < 0) return false;
  const s = new Scratch();
  // each buffer's span copied in once (A and B often views of one buffer, as q, k and v are)
  let [aLo, aHi] = spanOf(A, M, K);
  let [bLo, bHi] = spanOf(B, K, N);
  const shared = A.data === B.data;
  if (shared) {
    aLo = bLo = Math.min(aLo, bLo);
    aHi = bHi = Math.max(aHi, bHi);
  }
  const aSpan = s.alloc(aHi - aLo);
  const bSpan = shared ? aSpan : s.alloc(bHi - bLo);
  const packA = A.cs === 1 ? 0 : s.alloc(M * K);
  const packB = B.cs === 1 ? 0 : s.alloc(K * N);
  const c = s.alloc(count * M * N);
  const mem = s.view(k);
  mem.set(A.data.subarray(aLo, aHi), aSpan >> 2);
  if (!shared) mem.set(B.data.subarray(bLo, bHi), bSpan >> 2);
  /** matrix q of x: its address and row stride, packed dense first where its columns are not */
  const operand = (
    x: StridedBatch,
    q: number,
    span: number,
    lo: number,
    pack: number,
    R: number,
    Cn: number,
  ) => {
    const at = span + 4 * (x.offsets[q]! - lo);
    if (x.cs === 1) return { at, ld: x.rs };
    k.gather(at, pack, 1, 1, 1, 1, R, Cn, 0, 0, 0, 0, x.rs, x.cs);
    return { at: pack, ld: Cn };
  };
  for (let q = 0; q < count; q++) {
    const a = operand(A, q, aSpan, aLo, packA, M, K);
    const b = operand(B, q, bSpan, bLo, packB, K, N);
    k.gemm(a.at, b.at, c + 4 * q * M * N, M, K, N, 0, a.ld, b.ld);
  }
  C.set(mem.subarray(c >> 2, (c >> 2) + count * M * N));
  return true;
}

// The TypeScript backend's float32 matrix product in WebAssembly SIMD (wasm/gemm.ts, its bytes in
// gemm-wasm.ts, instantiated by wasm-module.ts): the operands copied into its memory (B
// transposed where it is stored [N, K], as a linear layer's weight, and kept there for the next
// call) and C copied out. Where
// WebAssembly SIMD is missing, gemm.ts's JavaScript loop serves instead.

import { writeEpoch } from './buffers.js';
import { GEMM_WASM } from './gemm-wasm.js';
import { gatherStrided } from './tensor-data.js';
import { BASE, float32Memory, instantiate } from './wasm-module.js';

interface Kernel {
  gemm: (a: number, b: number, c: number, M: number, K: number, N: number, bias: number) => void;
}

let kernel: ReturnType<typeof instantiate<Kernel>> | undefined;

/** The instantiated kernel, or null where this runtime cannot run it. */
function instance() {
  kernel ??= instantiate<Kernel>(GEMM_WASM);
  return kernel;
}

/** Whether the WebAssembly kernel runs here. */
export const hasWasmGemm = (): boolean => instance() !== null;

/**
 * The transposed weights kept in the kernel's memory, from its start: a linear layer's weight
 * [N, K] is laid out [K, N] once, not at every call. An entry is valid while its source buffer
 * has not been written in place since (buffers.ts writeEpoch); past CACHE_BYTES the cache
 * starts over.
 */
const CACHE_BYTES = 256 * 2 ** 20;
let cache = new WeakMap<Float32Array, Map<string, { at: number; epoch: number }>>();
let cacheEnd = BASE;

function transposedWeight(
  k: NonNullable<ReturnType<typeof instance>>,
  B: Float32Array,
  bOff: number,
  N: number,
  K: number,
): number {
  const key = `${bOff}:${N}:${K}`;
  const epoch = writeEpoch(B);
  let byKey = cache.get(B);
  const hit = byKey?.get(key);
  if (hit && hit.epoch === epoch) return hit.at;
  if (cacheEnd + 4 * N * K > CACHE_BYTES) {
    cache = new WeakMap();
    cacheEnd = BASE;
    byKey = undefined;
  }
  const at = cacheEnd;
  cacheEnd += 4 * N * K;
  const mem = float32Memory(k.memory, cacheEnd);
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
  const k = instance();
  if (k === null) return false;
  const b = transB ? transposedWeight(k, B, bOff, N, K) : cacheEnd;
  const a = transB ? cacheEnd : b + 4 * K * N;
  const c = a + 4 * M * K;
  const q = c + 4 * M * N; // the bias, after C
  const mem = float32Memory(k.memory, q + (bias ? 4 * N : 0));
  mem.set(A.subarray(aOff, aOff + M * K), a >> 2);
  if (!transB) mem.set(B.subarray(bOff, bOff + K * N), b >> 2);
  if (bias) mem.set(bias, q >> 2);
  k.gemm(a, b, c, M, K, N, bias ? q : 0);
  C.set(mem.subarray(c >> 2, (c >> 2) + M * N), cOff);
  return true;
}

/** A matrix operand as a strided view: element (r, c) at data[offset + r rs + c cs]. */
export interface StridedMatrix {
  data: Float32Array;
  offset: number;
  rs: number;
  cs: number;
}

/** R x Cn elements of `x` into the kernel's memory `mem` from element `at`, in row-major order. */
function load(mem: Float32Array, at: number, x: StridedMatrix, R: number, Cn: number): void {
  if (x.cs === 1 && x.rs === Cn) mem.set(x.data.subarray(x.offset, x.offset + R * Cn), at);
  else gatherStrided(x.data, [R, Cn], [x.rs, x.cs], x.offset, mem.subarray(at, at + R * Cn));
}

/**
 * C[cOff ..] = A (M x K) times B (K x N), float32, both read through their strides straight into
 * the kernel's memory (a view such as attention's heads or a transposed key is copied once, not
 * made dense first); false (nothing written) where the kernel does not run.
 */
export function wasmGemmStrided(
  A: StridedMatrix,
  B: StridedMatrix,
  C: Float32Array,
  cOff: number,
  M: number,
  K: number,
  N: number,
): boolean {
  const k = instance();
  if (k === null) return false;
  const b = cacheEnd;
  const a = b + 4 * K * N;
  const c = a + 4 * M * K;
  const mem = float32Memory(k.memory, c + 4 * M * N);
  load(mem, a >> 2, A, M, K);
  load(mem, b >> 2, B, K, N);
  k.gemm(a, b, c, M, K, N, 0);
  C.set(mem.subarray(c >> 2, (c >> 2) + M * N), cOff);
  return true;
}

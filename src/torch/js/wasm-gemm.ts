// The TypeScript backend's float32 matrix product in WebAssembly SIMD (wasm/gemm.ts, its bytes in
// gemm-wasm.ts, instantiated by wasm-module.ts): the operands copied into its memory (B
// transposed where it is stored [N, K], as a linear layer's weight) and C copied out. Where
// WebAssembly SIMD is missing, gemm.ts's JavaScript loop serves instead.
import { GEMM_WASM } from './gemm-wasm.js';
import { BASE, float32Memory, instantiate } from './wasm-module.js';

interface Kernel {
  gemm: (a: number, b: number, c: number, M: number, K: number, N: number) => void;
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
 * C[cOff ..] = A[aOff ..] (M x K) times B[bOff ..] (K x N, or N x K when `transB`), float32; false
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
): boolean {
  const k = instance();
  if (k === null) return false;
  const a = BASE;
  const b = a + 4 * M * K;
  const c = b + 4 * K * N;
  const mem = float32Memory(k.memory, c + 4 * M * N);
  mem.set(A.subarray(aOff, aOff + M * K), a >> 2);
  if (transB) {
    const bt = b >> 2;
    for (let n = 0; n < N; n++) {
      const row = bOff + n * K;
      for (let q = 0; q < K; q++) mem[bt + q * N + n] = B[row + q]!;
    }
  } else mem.set(B.subarray(bOff, bOff + K * N), b >> 2);
  k.gemm(a, b, c, M, K, N);
  C.set(mem.subarray(c >> 2, (c >> 2) + M * N), cOff);
  return true;
}

// The TypeScript backend's exp-bound float32 ops in WebAssembly SIMD (wasm/elementwise.ts, its
// bytes in elementwise-wasm.ts): exact GELU and softmax (or its log) of rows, the input copied
// into the module's memory, worked in place there and copied out. false (nothing written) where
// WebAssembly SIMD is missing: the callers' loops serve instead.
import { ELEMENTWISE_WASM } from './elementwise-wasm.js';
import { BASE, float32Memory, instantiate } from './wasm-module.js';

interface Kernels {
  gelu: (p: number, n: number) => void;
  softmax: (p: number, rows: number, n: number, log: number) => void;
}

let kernels: ReturnType<typeof instantiate<Kernels>> | undefined;
const instance = () => {
  kernels ??= instantiate<Kernels>(ELEMENTWISE_WASM);
  return kernels;
};

/** out = GELU(src), n elements (the kernel works in fours: the tail is padded). */
export function wasmGelu(src: Float32Array, out: Float32Array): boolean {
  const k = instance();
  if (k === null) return false;
  const n = src.length;
  const padded = (n + 3) & ~3;
  const mem = float32Memory(k.memory, BASE + 4 * padded);
  const at = BASE >> 2;
  mem.set(src, at);
  mem.fill(0, at + n, at + padded);
  k.gelu(BASE, padded);
  out.set(mem.subarray(at, at + n));
  return true;
}

/** out = softmax (or log-softmax) of each row of n elements of src. */
export function wasmSoftmax(
  src: Float32Array,
  n: number,
  log: boolean,
  out: Float32Array,
): boolean {
  const k = instance();
  if (k === null || n === 0) return false;
  const mem = float32Memory(k.memory, BASE + 4 * src.length);
  const at = BASE >> 2;
  mem.set(src, at);
  k.softmax(BASE, src.length / n, n, log ? 1 : 0);
  out.set(mem.subarray(at, at + src.length));
  return true;
}

// The TypeScript backend's exp-bound float32 ops in WebAssembly SIMD (wasm/elementwise.ts, in the
// module of wasm-module.ts): exact GELU and softmax (or its log) of rows, the input copied into
// the module's memory, worked in place there and copied out. false (nothing written) where
// WebAssembly SIMD is missing: the callers' loops serve instead.
import { kernels, Scratch } from './wasm-module.js';

/** out = GELU(src), n elements (the kernel works in fours: the tail is padded). */
export function wasmGelu(src: Float32Array, out: Float32Array): boolean {
  const k = kernels();
  if (k === null) return false;
  const n = src.length;
  const padded = (n + 3) & ~3;
  const s = new Scratch();
  const p = s.alloc(padded);
  const mem = s.view(k);
  const at = p >> 2;
  mem.set(src, at);
  mem.fill(0, at + n, at + padded);
  k.gelu(p, padded);
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
  const k = kernels();
  if (k === null || n === 0) return false;
  const s = new Scratch();
  const p = s.alloc(src.length);
  const mem = s.view(k);
  const at = p >> 2;
  mem.set(src, at);
  k.softmax(p, src.length / n, n, log ? 1 : 0);
  out.set(mem.subarray(at, at + src.length));
  return true;
}

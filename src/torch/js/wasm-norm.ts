// The TypeScript backend's float32 layer normalisation in WebAssembly SIMD (wasm/norm.ts, in the
// module of wasm-module.ts), for nn-ops.ts: the input, scale and shift copied in, the result
// copied out; the statistics and each element's arithmetic in float64 as nn-ops.ts's loop does.
import { kernels, Scratch } from './wasm-module.js';

/**
 * out = (x - mean) / sqrt(var + eps) over each run of `inner` elements, times scale plus shift
 * where given; false (nothing written) where the kernel does not run here.
 */
export function wasmLayerNorm(
  x: Float32Array,
  out: Float32Array,
  inner: number,
  eps: number,
  scale: Float32Array | null,
  shift: Float32Array | null,
): boolean {
  const k = kernels();
  if (k === null || inner === 0) return false;
  const s = new Scratch();
  const px = s.alloc(x.length);
  const pw = scale ? s.alloc(inner) : 0;
  const pb = shift ? s.alloc(inner) : 0;
  const mem = s.view(k);
  mem.set(x, px >> 2);
  if (scale) mem.set(scale, pw >> 2);
  if (shift) mem.set(shift, pb >> 2);
  k.layerNorm(px, px, x.length / inner, inner, eps, pw, pb);
  out.set(mem.subarray(px >> 2, (px >> 2) + x.length));
  return true;
}

// A strided float32 view made dense in WebAssembly (wasm/gather.ts, in the module of
// wasm-module.ts), for tensor-data.ts's values(): the view's span of its buffer copied in once,
// gathered in row-major order, and copied out. Dimensions of size 1 are dropped first.
import { kernels, Scratch, viewSpan } from './wasm-module.js';

/**
 * out = the elements of the view (shape over strides from offset) in row-major order; false
 * (nothing written) where the kernel does not run here, a stride is negative or more than six
 * dimensions are left.
 */
export function wasmGather(
  src: Float32Array,
  shape: readonly number[],
  strides: readonly number[],
  offset: number,
  out: Float32Array,
): boolean {
  const k = kernels();
  if (k === null) return false;
  const span = viewSpan(offset, shape, strides);
  if (span === null) return false;
  const hi = span[1];
  const kept = shape.flatMap((size, d) => (size === 1 ? [] : [d]));
  const n = kept.map((d) => shape[d]!);
  const st = kept.map((d) => strides[d]!);
  if (n.length > 6) return false;
  while (n.length < 6) {
    n.unshift(1);
    st.unshift(0);
  }
  const s = new Scratch();
  const ps = s.alloc(hi - offset);
  const po = s.alloc(out.length);
  const mem = s.view(k);
  mem.set(src.subarray(offset, hi), ps >> 2);
  k.gather(ps, po, ...n, ...st);
  out.set(mem.subarray(po >> 2, (po >> 2) + out.length));
  return true;
}

// The TypeScript backend's float32 add, sub, mul and div in WebAssembly SIMD (wasm/binary.ts, in
// the module of wasm-module.ts), for elementwise.ts's binaryMap: the result's dimensions merged
// where both operands allow, each operand's span of its buffer copied in once and read through its
// strides, the result copied out. Bit-equal to the JavaScript loop (IEEE float32 arithmetic).
import { kernels, Scratch, viewSpan } from './wasm-module.js';

/** The ops the kernel has, by its code. */
export const WASM_BINARY_OPS = { add: 0, sub: 1, mul: 2, div: 3 } as const;

/** An operand read over the result's shape: element i at d[off + sum_k index_k st[k]]. */
export interface StridedOperand {
  d: Float32Array;
  st: readonly number[];
  off: number;
}

/**
 * The result's dimensions with those of size 1 dropped and neighbours merged where both operands
 * read them as one: [size, a's stride, b's stride] from the innermost out.
 */
function mergedDims(shape: readonly number[], a: StridedOperand, b: StridedOperand): number[][] {
  const dims: number[][] = [];
  for (let d = shape.length - 1; d >= 0; d--) {
    const n = shape[d]!;
    if (n === 1) continue;
    const sa = a.st[d]!;
    const sb = b.st[d]!;
    const inner = dims.at(-1);
    if (inner && sa === inner[1]! * inner[0]! && sb === inner[2]! * inner[0]!) inner[0]! *= n;
    else dims.push([n, sa, sb]);
  }
  return dims.length ? dims : [[1, 0, 0]];
}

/**
 * out (dense over `shape`) = a op b; false (nothing written) where the kernel does not run here
 * or the operands' layout is not one it reads: more than three merged dimensions, or a last
 * stride other than 0 or 1.
 */
export function wasmBinary(
  op: keyof typeof WASM_BINARY_OPS,
  shape: readonly number[],
  a: StridedOperand,
  b: StridedOperand,
  out: Float32Array,
): boolean {
  const k = kernels();
  if (k === null) return false;
  const dims = mergedDims(shape, a, b);
  const [n2, ua, ub] = dims[0]!;
  if (dims.length > 3 || ua! > 1 || ub! > 1) return false;
  const sizes = dims.map((d) => d[0]!);
  const sa = viewSpan(
    a.off,
    sizes,
    dims.map((d) => d[1]!),
  );
  const sb = viewSpan(
    b.off,
    sizes,
    dims.map((d) => d[2]!),
  );
  if (!sa || !sb) return false;
  while (dims.length < 3) dims.push([1, 0, 0]);
  const [n1, sa1, sb1] = dims[1]!;
  const [n0, sa0, sb0] = dims[2]!;
  const s = new Scratch();
  const pa = s.alloc(sa[1] - sa[0]);
  const pb = s.alloc(sb[1] - sb[0]);
  const po = s.alloc(out.length);
  const mem = s.view(k);
  mem.set(a.d.subarray(sa[0], sa[1]), pa >> 2);
  mem.set(b.d.subarray(sb[0], sb[1]), pb >> 2);
  k.binary(WASM_BINARY_OPS[op], po, pa, pb, n0!, n1!, n2!, sa0!, sa1!, ua!, sb0!, sb1!, ub!);
  out.set(mem.subarray(po >> 2, (po >> 2) + out.length));
  return true;
}

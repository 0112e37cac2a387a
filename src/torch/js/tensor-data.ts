// The TypeScript backend's tensor (docs/design.md §3b): a strided view of a typed array, as a
// libtorch tensor is a strided view of its storage, so that narrow, select, transpose, expand and
// the other views share their base's elements and an in-place op on a view writes through, as
// the samplers rely on. Element types as libtorch has them: float64 in a Float64Array, float32 in
// a Float32Array; int64 in a Float64Array (exact to 2^53, and a value past it is refused where it
// enters, never rounded); bool and uint8 in a Uint8Array, int32 in an Int32Array. float16 and
// bfloat16 are stored rounded to their precision in a Float32Array (dtypes.ts has the promotion
// and the conversions).
import type { DType } from '../types.js';
import { type Buf, newBuf } from './buffers.js';
import { wasmGather } from './wasm-gather.js';

/** The largest integer an int64 element holds exactly here (Number.MAX_SAFE_INTEGER). */
export const INT64_EXACT = 2 ** 53 - 1;

export class JsTensor {
  disposed = false;
  requiresGrad = false;
  handedOut = false; // returned by the op table (backend.ts): counted on its buffer until disposed
  constructor(
    readonly dtype: DType,
    readonly shape: number[],
    readonly strides: number[],
    readonly offset: number,
    readonly data: Buf,
  ) {}

  get numel(): number {
    return numelOf(this.shape);
  }
  /** Row-major with no gaps, from the start of its buffer to its end. */
  get isDense(): boolean {
    return this.offset === 0 && this.data.length === this.numel && isContiguous(this);
  }
}

export const numelOf = (shape: readonly number[]): number => {
  let n = 1;
  for (const s of shape) n *= s;
  return n;
};

/** The row-major strides of `shape`. */
export function rowMajor(shape: readonly number[]): number[] {
  const st = new Array<number>(shape.length);
  let s = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    st[i] = s;
    s *= shape[i]!;
  }
  return st;
}

export function isContiguous(t: { shape: number[]; strides: number[] }): boolean {
  let s = 1;
  for (let i = t.shape.length - 1; i >= 0; i--) {
    if (t.shape[i] !== 1 && t.strides[i] !== s) return false;
    s *= t.shape[i]!;
  }
  return true;
}

/** A new dense tensor over `data` (a fresh buffer of zeros when absent). */
export function dense(dtype: DType, shape: number[], data?: Buf): JsTensor {
  const n = numelOf(shape);
  const buf = data ?? newBuf(dtype, n);
  if (buf.length !== n) throw new Error(`js backend: ${buf.length} elements for shape [${shape}]`);
  return new JsTensor(dtype, shape, rowMajor(shape), 0, buf);
}

/** A new dense tensor whose every element the caller writes (its buffer may hold old values). */
export const denseUnset = (dtype: DType, shape: number[]): JsTensor =>
  dense(dtype, shape, newBuf(dtype, numelOf(shape), true));

/** A view of `t`'s elements with another shape, strides and offset. */
export const view = (t: JsTensor, shape: number[], strides: number[], offset: number): JsTensor =>
  new JsTensor(t.dtype, shape, strides, offset, t.data);

/**
 * Calls fn(storage index, logical index) for every element of a shape walked in row-major order
 * over `strides` from `offset`.
 */
export function forEachIndex(
  shape: readonly number[],
  strides: readonly number[],
  offset: number,
  fn: (at: number, i: number) => void,
): void {
  const n = numelOf(shape);
  if (n === 0) return;
  const nd = shape.length;
  if (nd === 0) {
    fn(offset, 0);
    return;
  }
  const inner = shape[nd - 1]!;
  const innerStride = strides[nd - 1]!;
  const counter = new Array<number>(nd).fill(0);
  let base = offset;
  for (let i = 0; i < n; i += inner) {
    for (let k = 0; k < inner; k++) fn(base + k * innerStride, i + k);
    // carry into the outer dimensions
    for (let d = nd - 2; d >= 0; d--) {
      counter[d]!++;
      base += strides[d]!;
      if (counter[d]! < shape[d]!) break;
      base -= counter[d]! * strides[d]!;
      counter[d] = 0;
    }
  }
}

/**
 * out[i] = src[the storage index of logical index i] for a shape walked row-major over `strides`
 * from `offset`: nested loops over at most six dimensions (the views the networks make), with no
 * call per element; more dimensions take forEachIndex.
 */
export function gatherStrided(
  src: ArrayLike<number>,
  shape: readonly number[],
  strides: readonly number[],
  offset: number,
  out: Buf | Float64Array,
): void {
  const nd = shape.length;
  if (nd > 6) {
    forEachIndex(shape, strides, offset, (at, i) => {
      out[i] = src[at]!;
    });
    return;
  }
  // padded on the left to six dimensions of size 1
  const n = [1, 1, 1, 1, 1, 1];
  const st = [0, 0, 0, 0, 0, 0];
  for (let d = 0; d < nd; d++) {
    n[6 - nd + d] = shape[d]!;
    st[6 - nd + d] = strides[d]!;
  }
  const [n0, n1, n2, n3, n4, n5] = n as [number, number, number, number, number, number];
  const [s0, s1, s2, s3, s4, s5] = st as [number, number, number, number, number, number];
  let i = 0;
  for (let a = 0; a < n0; a++)
    for (let b = 0; b < n1; b++)
      for (let c = 0; c < n2; c++)
        for (let d = 0; d < n3; d++)
          for (let e = 0; e < n4; e++) {
            const base = offset + a * s0 + b * s1 + c * s2 + d * s3 + e * s4;
            for (let f = 0; f < n5; f++) out[i++] = src[base + f * s5]!;
          }
}

/** The elements of `t` in row-major order, as a dense buffer (its own where already dense). */
export function values(t: JsTensor): Buf {
  if (t.isDense) return t.data;
  const out = newBuf(t.dtype, t.numel, true); // every element copied below
  const src = t.data;
  if (isContiguous(t)) {
    out.set(src.subarray(t.offset, t.offset + out.length) as never);
    return out;
  }
  if (
    src instanceof Float32Array &&
    out.length >= WASM_GATHER_MIN &&
    wasmGather(src, t.shape, t.strides, t.offset, out as Float32Array)
  )
    return out;
  gatherStrided(src, t.shape, t.strides, t.offset, out);
  return out;
}

/** Views smaller than this are gathered by the JavaScript loop (a kernel call costs its copies). */
const WASM_GATHER_MIN = 1024;

/** A dense copy of `t` (never its own buffer). */
export function cloneDense(t: JsTensor): JsTensor {
  const v = values(t);
  return dense(t.dtype, t.shape.slice(), v === t.data ? v.slice() : v);
}

/** Normalises a possibly negative dimension of an `nd`-dimensional tensor (throws out of range). */
export function dimOf(dim: number, nd: number, op: string): number {
  const n = Math.max(nd, 1);
  const d = dim < 0 ? dim + n : dim;
  if (!Number.isInteger(d) || d < 0 || d >= n)
    throw new Error(
      `${op}: Dimension out of range (expected to be in range of [${-n}, ${n - 1}], but got ${dim})`,
    );
  return d;
}

/** The shape two shapes broadcast to (throws naming both when they do not). */
export function broadcastShapes(a: readonly number[], b: readonly number[], op: string): number[] {
  const n = Math.max(a.length, b.length);
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const x = a[a.length - n + i] ?? 1;
    const y = b[b.length - n + i] ?? 1;
    if (x !== y && x !== 1 && y !== 1)
      throw new Error(
        `${op}: The size of tensor a (${x}) must match the size of tensor b (${y}) at non-singleton dimension ${i}`,
      );
    out[i] = x === 1 ? y : x;
  }
  return out;
}

/** `t`'s strides when broadcast to `shape` (0 along the dimensions it is repeated over). */
export function broadcastStrides(t: JsTensor, shape: readonly number[]): number[] {
  const n = shape.length;
  const out = new Array<number>(n).fill(0);
  const off = n - t.shape.length;
  for (let i = 0; i < t.shape.length; i++)
    out[off + i] = t.shape[i] === 1 && shape[off + i] !== 1 ? 0 : t.strides[i]!;
  return out;
}

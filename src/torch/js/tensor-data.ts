// The TypeScript backend's tensor (docs/design.md §3b): a strided view of a typed array, as a
// libtorch tensor is a strided view of its storage, so that narrow, select, transpose, expand and
// the other views share their base's elements and an in-place op on a view writes through, as
// the samplers rely on. Element types as libtorch has them: float64 in a Float64Array, float32 in
// a Float32Array; int64 in a Float64Array (exact to 2^53, and a value past it is refused where it
// enters, never rounded); bool and uint8 in a Uint8Array, int32 in an Int32Array. float16 and
// bfloat16 are stored rounded to their precision in a Float32Array. PyTorch's type promotion
// (torch.result_type) picks the dtype of an op's result.
import type { DType } from '../types.js';
import { newBuf } from './buffers.js';
import { wasmGather } from './wasm-gather.js';

export type Buf = Float32Array | Float64Array | Int32Array | Uint8Array;

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

// ---- dtypes and promotion (PyTorch's torch.result_type) ----

/** bool 0 < integers 1 < floating 2. */
export const category = (d: DType): 0 | 1 | 2 =>
  d === 'bool' ? 0 : d === 'uint8' || d === 'int32' || d === 'int64' ? 1 : 2;

export const isFloating = (d: DType): boolean => category(d) === 2;

/** Refuses an op on a dtype that is not floating, in libtorch's words. */
export function checkFloat(dtype: DType, op: string): void {
  if (!isFloating(dtype)) throw new Error(`${op}: not implemented for '${dtype}'`);
}

const RANK: Record<DType, number> = {
  bool: 0,
  uint8: 1,
  int32: 2,
  int64: 3,
  float16: 4,
  bfloat16: 4,
  float32: 5,
  float64: 6,
};

/** torch.promote_types for two dtypes. */
export function promoteTypes(a: DType, b: DType): DType {
  if (a === b) return a;
  if ((a === 'float16' && b === 'bfloat16') || (a === 'bfloat16' && b === 'float16'))
    return 'float32';
  return RANK[a] >= RANK[b] ? a : b;
}

export type Operand = JsTensor | number | boolean;

/** The dtype of a scalar operand: bool, int64 for an integral number, else float64. */
const scalarDtype = (x: number | boolean): DType =>
  typeof x === 'boolean' ? 'bool' : Number.isInteger(x) && Math.abs(x) < 9e15 ? 'int64' : 'float64';

/**
 * The result dtype of an op on `operands` (torch.result_type): tensors of one or more dimensions
 * first, then zero-dimensional tensors, then scalars; a later group raises the result only to a
 * higher category, and then to that category's default (a scalar's: int64, float32).
 */
export function resultType(...operands: Operand[]): DType {
  const groups: (DType | null)[] = [null, null, null];
  for (const o of operands) {
    const [g, d] =
      o instanceof JsTensor ? [o.shape.length > 0 ? 0 : 1, o.dtype] : [2, scalarDtype(o)];
    groups[g] = groups[g] === null ? d : promoteTypes(groups[g]!, d);
  }
  let out: DType | null = null;
  for (let g = 0; g < 3; g++) {
    const d = groups[g];
    if (d === null || d === undefined) continue;
    if (out === null) out = g === 2 && d === 'float64' ? 'float32' : d;
    else if (category(d) > category(out))
      out = g === 2 ? (category(d) === 2 ? 'float32' : 'int64') : d;
  }
  return out ?? 'float32';
}

// ---- element conversion ----

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** x rounded to bfloat16 (round to nearest even), as a number. */
export function toBfloat16(x: number): number {
  f32[0] = x;
  if (Number.isNaN(x)) return x;
  const u = u32[0]!;
  u32[0] = ((u + 0x7fff + ((u >>> 16) & 1)) >>> 16) << 16;
  return f32[0]!;
}

/** x rounded to float16's precision and range, as a number. */
export function toFloat16(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const a = Math.abs(x);
  if (a >= 65520) return Math.sign(x) * Number.POSITIVE_INFINITY;
  // the spacing of float16 at |x|: 2^(e - 10), subnormals below 2^-14
  const e = Math.max(Math.floor(Math.log2(a)), -14);
  const q = 2 ** (e - 10);
  const r = a / q;
  let n = Math.round(r);
  if (Math.abs(r - Math.trunc(r) - 0.5) < 1e-12 && n % 2 === 1) n -= 1; // ties to even
  return Math.sign(x) * n * q;
}

/** A number as an element of `dtype` (integers truncated toward zero, bools 0 or 1). */
export function convertScalar(x: number, dtype: DType): number {
  switch (dtype) {
    case 'bool':
      return x !== 0 && !Number.isNaN(x) ? 1 : 0;
    case 'uint8':
      return Math.trunc(x) & 255;
    case 'int32':
      return Math.trunc(x) | 0;
    case 'int64': {
      const v = Math.trunc(x);
      if (!Number.isFinite(v) || Math.abs(v) > INT64_EXACT)
        throw new Error(
          `js backend: ${x} as int64 lies beyond 2^53, which the TypeScript backend holds exactly (use the libtorch backend)`,
        );
      return v;
    }
    case 'bfloat16':
      return toBfloat16(x);
    case 'float16':
      return toFloat16(x);
    default:
      return x;
  }
}

/** A dense buffer of `src`'s values as `dtype` (the same buffer when no conversion is needed). */
export function convertBuf(src: Buf, from: DType, to: DType): Buf {
  if (from === to) return src;
  const out = newBuf(to, src.length);
  const exactCopy =
    (from === 'int64' && to === 'float64') ||
    (to === 'float64' && (from === 'float32' || from === 'int32' || from === 'uint8')) ||
    (to === 'float32' && (from === 'bfloat16' || from === 'float16'));
  if (exactCopy || (to === 'int64' && (from === 'int32' || from === 'uint8' || from === 'bool'))) {
    out.set(src as never);
    return out;
  }
  for (let i = 0; i < src.length; i++) out[i] = convertScalar(src[i]!, to);
  return out;
}

/** `t` as a dense tensor of `dtype` (t itself when it already is one). */
export function asDtype(t: JsTensor, dtype: DType): JsTensor {
  if (t.dtype === dtype) return t;
  return dense(dtype, t.shape.slice(), convertBuf(values(t), t.dtype, dtype));
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

/** Rounds a buffer of bfloat16 or float16 elements to their precision (others as they are). */
export function finish(t: JsTensor): JsTensor {
  if (t.dtype === 'bfloat16' || t.dtype === 'float16') {
    const d = t.data;
    for (let i = 0; i < d.length; i++) d[i] = convertScalar(d[i]!, t.dtype);
  }
  return t;
}

// Broadcast reading for the TypeScript backend's elementwise ops (elementwise.ts; docs/design.md
// §3b): an operand's reader over a result's shape, and binaryMap, out = f(a, b) broadcast, by
// rows of written-out loops (ROWS) or, for float32 add, sub, mul and div, the WebAssembly kernel.
import type { DType } from '../types.js';
import { type Buf, newBuf } from './buffers.js';
import { category, convertScalar, finish, type Operand } from './dtypes.js';
import {
  broadcastShapes,
  broadcastStrides,
  denseUnset,
  gatherStrided,
  JsTensor,
  numelOf,
} from './tensor-data.js';
import { wasmBinary } from './wasm-binary.js';

/** A tensor operand's broadcast reading: its buffer, strides over `shape` and offset. */
export interface Reader {
  data: Buf | null; // null: the scalar `value`
  strides: number[];
  offset: number;
  value: number;
}

export function readerOf(x: Operand, shape: number[], dtype: DType): Reader {
  if (x instanceof JsTensor) {
    if (x.numel === 1 && x.shape.length === 0)
      return { data: null, strides: [], offset: 0, value: convertScalar(x.data[x.offset]!, dtype) };
    return { data: x.data, strides: broadcastStrides(x, shape), offset: x.offset, value: 0 };
  }
  return { data: null, strides: [], offset: 0, value: convertScalar(Number(x), dtype) };
}

export const shapeOf = (x: Operand): number[] => (x instanceof JsTensor ? x.shape : []);

/** One row of a binary op: o[oi + k] = f(a[pa + k sa], b[pb + k sb]) for k < n. */
export type Row = (
  o: Buf,
  oi: number,
  ad: ArrayLike<number>,
  pa: number,
  sa: number,
  bd: ArrayLike<number>,
  pb: number,
  sb: number,
  n: number,
) => void;

const rowOf =
  (f: (x: number, y: number) => number): Row =>
  (o, oi, ad, pa, sa, bd, pb, sb, n) => {
    for (let k = 0; k < n; k++) o[oi + k] = f(ad[pa + k * sa]!, bd[pb + k * sb]!);
  };

type RowName = 'add' | 'sub' | 'mul' | 'div';

/**
 * The hot arithmetic written out, so that no call is made per element; the runs both dense, or
 * the second one element, without the stride products.
 */
const makeRows = (): Record<RowName, Row> => ({
  add: (o, oi, ad, pa, sa, bd, pb, sb, n) => {
    if (sa === 1 && sb === 1) for (let k = 0; k < n; k++) o[oi + k] = ad[pa + k]! + bd[pb + k]!;
    else if (sa === 1 && sb === 0) {
      const y = bd[pb]!;
      for (let k = 0; k < n; k++) o[oi + k] = ad[pa + k]! + y;
    } else for (let k = 0; k < n; k++) o[oi + k] = ad[pa + k * sa]! + bd[pb + k * sb]!;
  },
  sub: (o, oi, ad, pa, sa, bd, pb, sb, n) => {
    if (sa === 1 && sb === 1) for (let k = 0; k < n; k++) o[oi + k] = ad[pa + k]! - bd[pb + k]!;
    else if (sa === 1 && sb === 0) {
      const y = bd[pb]!;
      for (let k = 0; k < n; k++) o[oi + k] = ad[pa + k]! - y;
    } else for (let k = 0; k < n; k++) o[oi + k] = ad[pa + k * sa]! - bd[pb + k * sb]!;
  },
  mul: (o, oi, ad, pa, sa, bd, pb, sb, n) => {
    if (sa === 1 && sb === 1) for (let k = 0; k < n; k++) o[oi + k] = ad[pa + k]! * bd[pb + k]!;
    else if (sa === 1 && sb === 0) {
      const y = bd[pb]!;
      for (let k = 0; k < n; k++) o[oi + k] = ad[pa + k]! * y;
    } else for (let k = 0; k < n; k++) o[oi + k] = ad[pa + k * sa]! * bd[pb + k * sb]!;
  },
  div: (o, oi, ad, pa, sa, bd, pb, sb, n) => {
    if (sa === 1 && sb === 1) for (let k = 0; k < n; k++) o[oi + k] = ad[pa + k]! / bd[pb + k]!;
    else if (sa === 1 && sb === 0) {
      const y = bd[pb]!;
      for (let k = 0; k < n; k++) o[oi + k] = ad[pa + k]! / y;
    } else for (let k = 0; k < n; k++) o[oi + k] = ad[pa + k * sa]! / bd[pb + k * sb]!;
  },
});

export const ROWS = makeRows();
/**
 * The same rows made again, called only on float32 buffers: each closure then sees one kind of
 * array, which V8 compiles to its fastest loads and stores (a network's arithmetic is float32).
 */
const ROWS32 = makeRows();
/** Each row of ROWS to its float32 twin in ROWS32. */
const FLOAT32_ROW = new Map<Row, Row>(
  (Object.keys(ROWS) as RowName[]).map((k) => [ROWS[k], ROWS32[k]]),
);
/** Each float32 row to its op's name, for the WebAssembly kernel (wasm-binary.ts). */
const FLOAT32_OP = new Map<Row, RowName>(
  (Object.keys(ROWS32) as RowName[]).map((k) => [ROWS32[k], k]),
);
/** Results smaller than this stay in the JavaScript loop (a kernel call costs its copies). */
const WASM_MIN = 256;

/** One side of a binary op: its elements (one for a scalar), strides over the result, offset. */
interface Side {
  d: ArrayLike<number>;
  st: number[];
  off: number;
}

/**
 * An operand read over `shape` at the computation's dtype: one of another dtype is converted first
 * (int64 -> bfloat16, ...) unless the computation is a float that holds it exactly; a scalar is a
 * one-element buffer read with stride 0.
 */
function sideOf(x: Operand, shape: number[], compute: DType): Side {
  let r = readerOf(x, shape, compute);
  const exact = category(compute) === 2 && compute !== 'bfloat16' && compute !== 'float16';
  if (x instanceof JsTensor && r.data !== null && x.dtype !== compute && !exact) {
    const c = newBuf(compute, x.data.length);
    for (let i = 0; i < c.length; i++) c[i] = convertScalar(x.data[i]!, compute);
    r = { ...r, data: c };
  }
  return r.data === null
    ? { d: Float64Array.of(r.value), st: new Array<number>(shape.length).fill(0), off: 0 }
    : { d: r.data, st: r.strides, off: r.offset };
}

/**
 * A float32 result of add, sub, mul or div: its row in float32 arithmetic (ROWS32), and the
 * whole op in the WebAssembly kernel where the result is large enough (true: done).
 */
function float32Binary(row: Row, shape: number[], A: Side, B: Side, o: Buf): Row | true {
  const row32 = FLOAT32_ROW.get(row);
  if (
    !row32 ||
    !(o instanceof Float32Array) ||
    !(A.d instanceof Float32Array || A.d.length === 1) ||
    !(B.d instanceof Float32Array || B.d.length === 1)
  )
    return row;
  if (!(A.d instanceof Float32Array)) A.d = Float32Array.of(A.d[0]!);
  if (!(B.d instanceof Float32Array)) B.d = Float32Array.of(B.d[0]!);
  const operand = (x: Side) => ({ d: x.d as Float32Array, st: x.st, off: x.off });
  const done =
    o.length >= WASM_MIN && wasmBinary(FLOAT32_OP.get(row32)!, shape, operand(A), operand(B), o);
  return done || row32;
}

/** Row by row over the last dimension of `shape`, the outer ones counted. */
function stridedRows(row: Row, shape: number[], A: Side, B: Side, o: Buf): void {
  const nd = shape.length;
  const inner = shape[nd - 1]!;
  const counter = new Array<number>(nd - 1).fill(0);
  let pa = A.off;
  let pb = B.off;
  for (let oi = 0; oi < o.length; oi += inner) {
    row(o, oi, A.d, pa, A.st[nd - 1]!, B.d, pb, B.st[nd - 1]!, inner);
    for (let d = nd - 2; d >= 0; d--) {
      counter[d]!++;
      pa += A.st[d]!;
      pb += B.st[d]!;
      if (counter[d]! < shape[d]!) break;
      pa -= counter[d]! * A.st[d]!;
      pb -= counter[d]! * B.st[d]!;
      counter[d] = 0;
    }
  }
}

/**
 * out[i] = f(a[i], b[i]) broadcast, computed on values as `compute` holds them, stored as `out`'s
 * dtype; `row` (ROWS) where f is one of the ops written out.
 */
export function binaryMap(
  a: Operand,
  b: Operand,
  compute: DType,
  outDtype: DType,
  f: (x: number, y: number) => number,
  op: string,
  row: Row = rowOf(f),
): JsTensor {
  const shape = broadcastShapes(shapeOf(a), shapeOf(b), op);
  const out = denseUnset(outDtype, shape); // every element written below
  const o = out.data;
  if (o.length === 0) return out;
  const A = sideOf(a, shape, compute);
  const B = sideOf(b, shape, compute);
  const r = float32Binary(row, shape, A, B, o);
  if (r === true) return out;
  const nd = shape.length;
  const still = (st: number[]) => nd === 0 || st.every((s) => s === 0);
  if ((still(A.st) || isRowMajor(shape, A.st)) && (still(B.st) || isRowMajor(shape, B.st))) {
    // one run over every element: each side dense in the out's order, or one element
    r(o, 0, A.d, A.off, still(A.st) ? 0 : 1, B.d, B.off, still(B.st) ? 0 : 1, o.length);
    return finish(out);
  }
  stridedRows(r, shape, A, B, o);
  return finish(out);
}

/** Whether `strides` are the row-major strides of `shape` (dims of size 1 free). */
function isRowMajor(shape: number[], strides: number[]): boolean {
  let s = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    if (shape[i] !== 1 && strides[i] !== s) return false;
    s *= shape[i]!;
  }
  return true;
}

/** A reader's elements broadcast to `shape`, row-major. */
export function gatherBroadcast(r: Reader, shape: number[]): Float64Array {
  const out = new Float64Array(numelOf(shape));
  gatherStrided(r.data!, shape, r.strides, r.offset, out);
  return out;
}

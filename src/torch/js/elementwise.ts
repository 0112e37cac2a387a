// The TypeScript backend's elementwise ops (docs/design.md §3b): addon-ops.ts's UNARY and BINARY
// families, where, clamp, gelu, masked_fill and the in-place ops, with libtorch's broadcasting
// and type promotion (tensor-data.ts). Each result element is computed in float64 and stored
// once at the result's dtype, so float32 arithmetic is correctly rounded as libtorch's is.
import type { BinaryOp, UnaryOp } from '../addon-ops.js';
import type { DType } from '../types.js';
import { markWritten, newBuf } from './buffers.js';
import { erf, erf32, erfinv, lgamma, roundHalfEven } from './special.js';
import {
  type Buf,
  broadcastShapes,
  broadcastStrides,
  category,
  convertScalar,
  dense,
  denseUnset,
  forEachIndex,
  gatherStrided,
  isFloating,
  JsTensor,
  numelOf,
  type Operand,
  resultType,
  values,
} from './tensor-data.js';
import { wasmBinary } from './wasm-binary.js';
import { wasmGelu } from './wasm-elementwise.js';

/** Rounds a buffer of bfloat16 or float16 elements to their precision (others as they are). */
export function finish(t: JsTensor): JsTensor {
  if (t.dtype === 'bfloat16' || t.dtype === 'float16') {
    const d = t.data;
    for (let i = 0; i < d.length; i++) d[i] = convertScalar(d[i]!, t.dtype);
  }
  return t;
}

/** A tensor operand's broadcast reading: its buffer, strides over `shape` and offset. */
interface Reader {
  data: Buf | null; // null: the scalar `value`
  strides: number[];
  offset: number;
  value: number;
}

function readerOf(x: Operand, shape: number[], dtype: DType): Reader {
  if (x instanceof JsTensor) {
    if (x.numel === 1 && x.shape.length === 0)
      return { data: null, strides: [], offset: 0, value: convertScalar(x.data[x.offset]!, dtype) };
    return { data: x.data, strides: broadcastStrides(x, shape), offset: x.offset, value: 0 };
  }
  return { data: null, strides: [], offset: 0, value: convertScalar(Number(x), dtype) };
}

const shapeOf = (x: Operand): number[] => (x instanceof JsTensor ? x.shape : []);

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
  const n = o.length;
  if (n === 0) return out;
  // operands of a dtype other than the computation's are converted first (int64 -> bfloat16, ...)
  const conv = (x: Operand, r: Reader): Reader => {
    if (!(x instanceof JsTensor) || r.data === null || x.dtype === compute) return r;
    if (category(compute) === 2 && compute !== 'bfloat16' && compute !== 'float16') return r; // exact
    const c = newBuf(compute, x.data.length);
    for (let i = 0; i < c.length; i++) c[i] = convertScalar(x.data[i]!, compute);
    return { ...r, data: c };
  };
  const nd = shape.length;
  // a scalar is a one-element buffer read with stride 0
  const side = (x: Operand) => {
    const r = conv(x, readerOf(x, shape, compute));
    return r.data === null
      ? {
          d: Float64Array.of(r.value) as ArrayLike<number>,
          st: new Array<number>(nd).fill(0),
          off: 0,
        }
      : { d: r.data as ArrayLike<number>, st: r.strides, off: r.offset };
  };
  const A = side(a);
  const B = side(b);
  const row32 = FLOAT32_ROW.get(row);
  if (
    row32 &&
    o instanceof Float32Array &&
    (A.d instanceof Float32Array || A.d.length === 1) &&
    (B.d instanceof Float32Array || B.d.length === 1)
  ) {
    row = row32;
    if (!(A.d instanceof Float32Array)) A.d = Float32Array.of(A.d[0]!);
    if (!(B.d instanceof Float32Array)) B.d = Float32Array.of(B.d[0]!);
    const wasmOp = FLOAT32_OP.get(row32)!;
    const operand = (x: typeof A) => ({ d: x.d as Float32Array, st: x.st, off: x.off });
    if (n >= WASM_MIN && wasmBinary(wasmOp, shape, operand(A), operand(B), o)) return out;
  }
  const flat = (st: number[]) => nd === 0 || st.every((s) => s === 0) || isRowMajor(shape, st);
  if (flat(A.st) && flat(B.st)) {
    // one run over every element: each side dense in the out's order, or one element
    const sa = nd === 0 || A.st.every((s) => s === 0) ? 0 : 1;
    const sb = nd === 0 || B.st.every((s) => s === 0) ? 0 : 1;
    row(o, 0, A.d, A.off, sa, B.d, B.off, sb, n);
    return finish(out);
  }
  // row by row over the last dimension, the outer ones counted
  const inner = shape[nd - 1]!;
  const counter = new Array<number>(nd - 1).fill(0);
  let pa = A.off;
  let pb = B.off;
  for (let oi = 0; oi < n; oi += inner) {
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
function gatherBroadcast(r: Reader, shape: number[]): Float64Array {
  const out = new Float64Array(numelOf(shape));
  gatherStrided(r.data!, shape, r.strides, r.offset, out);
  return out;
}

// ---- unary ----

const sigmoid = (x: number) => (x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x)));

/** Each unary op: its function, and whether it keeps an integer input's dtype or gives bool. */
const UNARY_FN: Record<UnaryOp, { f: (x: number) => number; out?: 'same' | 'bool' }> = {
  neg: { f: (x) => -x, out: 'same' },
  abs: { f: Math.abs, out: 'same' },
  exp: { f: Math.exp },
  log: { f: Math.log },
  log1p: { f: Math.log1p },
  expm1: { f: Math.expm1 },
  sqrt: { f: Math.sqrt },
  rsqrt: { f: (x) => 1 / Math.sqrt(x) },
  tanh: { f: Math.tanh },
  sigmoid: { f: sigmoid },
  erf: { f: erf },
  erfinv: { f: erfinv },
  relu: { f: (x) => (x > 0 ? x : Number.isNaN(x) ? x : 0), out: 'same' },
  silu: { f: (x) => x * sigmoid(x) },
  sin: { f: Math.sin },
  cos: { f: Math.cos },
  floor: { f: Math.floor, out: 'same' },
  ceil: { f: Math.ceil, out: 'same' },
  round: { f: roundHalfEven, out: 'same' },
  trunc: { f: Math.trunc, out: 'same' },
  sign: { f: (x) => (x > 0 ? 1 : x < 0 ? -1 : x), out: 'same' },
  reciprocal: { f: (x) => 1 / x },
  square: { f: (x) => x * x, out: 'same' },
  lgamma: { f: lgamma },
  logical_not: { f: (x) => (x === 0 ? 1 : 0), out: 'bool' },
  isnan: { f: (x) => (Number.isNaN(x) ? 1 : 0), out: 'bool' },
  isinf: { f: (x) => (x === Infinity || x === -Infinity ? 1 : 0), out: 'bool' },
  isfinite: { f: (x) => (Number.isFinite(x) ? 1 : 0), out: 'bool' },
  log2: { f: Math.log2 },
  exp2: { f: (x) => 2 ** x },
};

export function unary(op: UnaryOp, t: JsTensor): JsTensor {
  const { f, out } = UNARY_FN[op];
  const dtype: DType =
    out === 'bool'
      ? 'bool'
      : out === 'same'
        ? op === 'square' && t.dtype === 'bool'
          ? 'int64'
          : t.dtype
        : isFloating(t.dtype)
          ? t.dtype
          : 'float32';
  if (out === 'same' && t.dtype === 'bool' && op !== 'square' && op !== 'abs')
    throw new Error(`${op}: not implemented for 'Bool'`);
  const src = values(t);
  const r = denseUnset(dtype, t.shape.slice());
  const o = r.data;
  for (let i = 0; i < o.length; i++) o[i] = f(src[i]!);
  if (dtype === 'int32') for (let i = 0; i < o.length; i++) o[i] = o[i]! | 0;
  return finish(r);
}

// ---- binary ----

const pyMod = (x: number, y: number) => {
  const m = x % y;
  return m !== 0 && m < 0 !== y < 0 ? m + y : m;
};

type Kind = 'arith' | 'float' | 'compare' | 'logical' | 'bitwise';
const BINARY_FN: Record<BinaryOp, { f: (x: number, y: number) => number; kind: Kind }> = {
  add: { f: (x, y) => x + y, kind: 'arith' },
  sub: { f: (x, y) => x - y, kind: 'arith' },
  mul: { f: (x, y) => x * y, kind: 'arith' },
  div: { f: (x, y) => x / y, kind: 'float' },
  pow: { f: (x, y) => x ** y, kind: 'arith' },
  maximum: {
    f: (x, y) => (Number.isNaN(x) || Number.isNaN(y) ? Number.NaN : Math.max(x, y)),
    kind: 'arith',
  },
  minimum: {
    f: (x, y) => (Number.isNaN(x) || Number.isNaN(y) ? Number.NaN : Math.min(x, y)),
    kind: 'arith',
  },
  eq: { f: (x, y) => (x === y ? 1 : 0), kind: 'compare' },
  ne: { f: (x, y) => (x !== y ? 1 : 0), kind: 'compare' },
  lt: { f: (x, y) => (x < y ? 1 : 0), kind: 'compare' },
  le: { f: (x, y) => (x <= y ? 1 : 0), kind: 'compare' },
  gt: { f: (x, y) => (x > y ? 1 : 0), kind: 'compare' },
  ge: { f: (x, y) => (x >= y ? 1 : 0), kind: 'compare' },
  logical_and: { f: (x, y) => (x !== 0 && y !== 0 ? 1 : 0), kind: 'logical' },
  logical_or: { f: (x, y) => (x !== 0 || y !== 0 ? 1 : 0), kind: 'logical' },
  logical_xor: { f: (x, y) => ((x !== 0) !== (y !== 0) ? 1 : 0), kind: 'logical' },
  remainder: { f: pyMod, kind: 'arith' },
  fmod: { f: (x, y) => x % y, kind: 'arith' },
  atan2: { f: Math.atan2, kind: 'float' },
  floor_divide: { f: (x, y) => Math.floor(x / y), kind: 'arith' },
  xlogy: {
    f: (x, y) => (Number.isNaN(y) ? Number.NaN : x === 0 ? 0 : x * Math.log(y)),
    kind: 'float',
  },
  bitwise_and: { f: bitAnd, kind: 'bitwise' },
  bitwise_or: { f: bitOr, kind: 'bitwise' },
};

/** Bitwise on integers beyond 32 bits (int64 elements up to 2^53) through BigInt when needed. */
function bitAnd(x: number, y: number): number {
  if (Math.abs(x) < 2 ** 31 && Math.abs(y) < 2 ** 31) return x & y;
  return Number(BigInt(x) & BigInt(y));
}
function bitOr(x: number, y: number): number {
  if (Math.abs(x) < 2 ** 31 && Math.abs(y) < 2 ** 31) return x | y;
  return Number(BigInt(x) | BigInt(y));
}

export function binary(op: BinaryOp, a: Operand, b: Operand): JsTensor {
  if (!(a instanceof JsTensor) && !(b instanceof JsTensor))
    throw new Error(`${op}: needs a tensor operand`);
  const { f, kind } = BINARY_FN[op];
  const common = resultType(a, b);
  let compute = common;
  let out = common;
  if (kind === 'float' && !isFloating(common)) compute = out = 'float32';
  if (kind === 'compare' || kind === 'logical') out = 'bool';
  if (kind === 'bitwise' && isFloating(common))
    throw new Error(`${op}: not implemented for '${common}'`);
  if (kind === 'arith' && common === 'bool' && op !== 'maximum' && op !== 'minimum') {
    if (op === 'sub') throw new Error('sub: subtraction with two bool tensors is not supported');
    // bool + bool and bool * bool stay bool (logical or, and) as in libtorch
  }
  if (!isFloating(compute) && (op === 'remainder' || op === 'fmod' || op === 'floor_divide')) {
    const check = (x: Operand) =>
      !(x instanceof JsTensor) ? x === 0 : values(x).some((v) => v === 0);
    if (check(b)) throw new Error('ZeroDivisionError');
  }
  let g = f;
  if (out === 'int32') g = (x, y) => f(x, y) | 0;
  else if (out === 'bool' && kind === 'arith') g = (x, y) => (f(x, y) !== 0 ? 1 : 0);
  else if (out === 'int64' && op === 'pow') g = (x, y) => Math.trunc(f(x, y));
  const row = g === f && op in ROWS ? ROWS[op as keyof typeof ROWS] : undefined;
  return binaryMap(a, b, compute, out, g, op, row);
}

// ---- the rest of the elementwise table ----

export function where(cond: JsTensor, a: Operand, b: Operand): JsTensor {
  const dtype = resultType(a, b);
  const shape = broadcastShapes(
    broadcastShapes(cond.shape, shapeOf(a), 'where'),
    shapeOf(b),
    'where',
  );
  const pick = (x: Operand) => {
    const r = readerOf(x, shape, dtype);
    return r.data === null ? null : gatherBroadcast(r, shape);
  };
  const c = gatherBroadcast(readerOf(cond, shape, 'bool'), shape);
  const av = pick(a);
  const bv = pick(b);
  const A = readerOf(a, shape, dtype).value;
  const B = readerOf(b, shape, dtype).value;
  const out = denseUnset(dtype, shape);
  const o = out.data;
  for (let i = 0; i < o.length; i++)
    o[i] = c[i] ? (av ? convertScalar(av[i]!, dtype) : A) : bv ? convertScalar(bv[i]!, dtype) : B;
  return out;
}

export function clamp(t: JsTensor, min: Operand | null, max?: Operand | null): JsTensor {
  let r = t;
  if (min !== null && min !== undefined) r = binary('maximum', r, min);
  if (max !== null && max !== undefined) r = binary('minimum', r, max);
  if (r === t) throw new Error("clamp: at least one of 'min' or 'max' must not be None");
  return r;
}

export function gelu(t: JsTensor, approximate: 'none' | 'tanh' = 'none'): JsTensor {
  if (!isFloating(t.dtype)) throw new Error(`GeluKernelImpl: not implemented for '${t.dtype}'`);
  const k = Math.sqrt(2 / Math.PI);
  const src = values(t);
  const out = denseUnset(t.dtype, t.shape.slice());
  const o = out.data;
  if (approximate === 'tanh')
    for (let i = 0; i < o.length; i++) {
      const x = src[i]!;
      o[i] = 0.5 * x * (1 + Math.tanh(k * (x + 0.044715 * x * x * x)));
    }
  else if (t.dtype === 'float32' && wasmGelu(src as Float32Array, o as Float32Array)) return out;
  else {
    const e = t.dtype === 'float64' ? erf : erf32;
    for (let i = 0; i < o.length; i++) {
      const x = src[i]!;
      o[i] = 0.5 * x * (1 + e(x * Math.SQRT1_2));
    }
  }
  return finish(out);
}

export function maskedFill(t: JsTensor, mask: JsTensor, value: Operand): JsTensor {
  if (mask.dtype !== 'bool')
    throw new Error(
      `masked_fill_ only supports boolean masks, but got mask with dtype ${mask.dtype}`,
    );
  if (value instanceof JsTensor && value.shape.length !== 0)
    throw new Error(
      `masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ${value.shape.length} dimension(s).`,
    );
  const v = value instanceof JsTensor ? value.data[value.offset]! : Number(value);
  const shape = broadcastShapes(t.shape, mask.shape, 'masked_fill');
  if (shape.length !== t.shape.length || shape.some((s, i) => s !== t.shape[i]))
    throw new Error(`masked_fill: the mask [${mask.shape}] does not broadcast to [${t.shape}]`);
  const m = gatherBroadcast(readerOf(mask, shape, 'bool'), shape);
  const out = dense(t.dtype, t.shape.slice(), values(t).slice());
  const o = out.data;
  const fill = convertScalar(v, t.dtype);
  for (let i = 0; i < o.length; i++) if (m[i]) o[i] = fill;
  return out;
}

/** Writes `src` (broadcast to t's shape, converted to t's dtype) into t's elements in place. */
export function writeInto(t: JsTensor, src: Operand): void {
  const r = readerOf(src, t.shape, t.dtype);
  const d = t.data;
  markWritten(d);
  if (r.data === null) {
    forEachIndex(t.shape, t.strides, t.offset, (at) => {
      d[at] = r.value;
    });
    return;
  }
  const s = src as JsTensor;
  const same =
    s.dtype === t.dtype ||
    (isFloating(t.dtype) &&
      t.dtype !== 'bfloat16' &&
      t.dtype !== 'float16' &&
      (t.dtype === 'float64' || s.dtype !== 'float64'));
  const v = gatherBroadcast(r, t.shape);
  if (t.isDense && same) {
    d.set(v as never);
    return;
  }
  forEachIndex(t.shape, t.strides, t.offset, (at, i) => {
    d[at] = same ? v[i]! : convertScalar(v[i]!, t.dtype);
  });
}

/** An in-place op's result checked castable to t's dtype (libtorch refuses float into int). */
export function assignResult(t: JsTensor, r: JsTensor, op: string): void {
  if (category(r.dtype) > category(t.dtype))
    throw new Error(
      `${op}: result type ${r.dtype} can't be cast to the desired output type ${t.dtype}`,
    );
  const shape = broadcastShapes(t.shape, r.shape, op);
  if (shape.length !== t.shape.length || shape.some((s, i) => s !== t.shape[i]))
    throw new Error(
      `${op}: output with shape [${t.shape}] doesn't match the broadcast shape [${shape}]`,
    );
  writeInto(t, r);
}

export function lerp(t: JsTensor, end: JsTensor, weight: number): JsTensor {
  const w = convertScalar(weight, t.dtype);
  return binaryMap(
    t,
    end,
    t.dtype,
    t.dtype,
    (x, y) => (Math.abs(w) < 0.5 ? x + w * (y - x) : y - (y - x) * (1 - w)),
    'lerp',
  );
}

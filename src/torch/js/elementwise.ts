// The TypeScript backend's elementwise ops (docs/design.md §3b): addon-ops.ts's UNARY and BINARY
// families, where, clamp, gelu, masked_fill and the in-place ops, with libtorch's broadcasting
// and type promotion (tensor-data.ts). Each result element is computed in float64 and stored
// once at the result's dtype, so float32 arithmetic is correctly rounded as libtorch's is.
import type { BinaryOp, UnaryOp } from '../addon-ops.js';
import type { DType } from '../types.js';
import { binaryMap, gatherBroadcast, ROWS, readerOf, shapeOf } from './broadcast-map.js';
import { markWritten } from './buffers.js';
import { category, convertScalar, finish, isFloating, type Operand, resultType } from './dtypes.js';
import { erf, erf32, erfinv, lgamma, roundHalfEven } from './special.js';
import {
  broadcastShapes,
  dense,
  denseUnset,
  forEachIndex,
  JsTensor,
  values,
} from './tensor-data.js';
import { wasmGelu } from './wasm-elementwise.js';

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

// The TypeScript backend's reductions (docs/design.md §3b): sum, mean, amax, amin, logsumexp,
// var, std, norm, argmax, argmin, max and min along a dimension, all and any, with libtorch's
// result dtypes (an integer sum is int64, a mean of integers is refused) and NaN propagation.
// Sums accumulate in float64 and are stored once at the result's dtype (scans.ts has the ops
// along a line: cumsum, softmax, sort, topk).
import type { Dims } from '../addon-signature.js';
import type { DType } from '../types.js';
import { finish, isFloating } from './dtypes.js';
import { permute } from './layout.js';
import { dense, dimOf, type JsTensor, numelOf, values } from './tensor-data.js';

/** The dims a reduction covers (all of them when none are given). */
function dimsOf(t: JsTensor, dims: Dims | undefined, op: string): number[] {
  const nd = t.shape.length;
  if (dims === undefined || (Array.isArray(dims) && dims.length === 0)) return [...t.shape.keys()];
  const list = (Array.isArray(dims) ? dims : [dims]).map((d) => dimOf(d, nd, op));
  if (new Set(list).size !== list.length)
    throw new Error(`${op}: dim appears multiple times in the list of dims`);
  return list.sort((a, b) => a - b);
}

/**
 * t's elements as rows over the reduced dims: [outer, inner] row-major in a Float64Array, and the
 * result's shape with and without the reduced dims kept.
 */
function rows(t: JsTensor, reduced: number[]) {
  const kept = [...t.shape.keys()].filter((d) => !reduced.includes(d));
  const moved = t.shape.length === 0 ? t : permute(t, [...kept, ...reduced]);
  const inner = numelOf(reduced.map((d) => t.shape[d]!));
  const outer = numelOf(kept.map((d) => t.shape[d]!));
  const v = values(moved);
  const data = v instanceof Float64Array ? v : Float64Array.from(v);
  const keepShape = t.shape.map((s, d) => (reduced.includes(d) ? 1 : s));
  const dropShape = kept.map((d) => t.shape[d]!);
  return { data, outer, inner, keepShape, dropShape };
}

/** A reduction of each row by `f` into a tensor of `dtype`. */
function reduceRows(
  t: JsTensor,
  dims: Dims | undefined,
  keepdim: boolean,
  dtype: DType,
  op: string,
  f: (row: Float64Array) => number,
): JsTensor {
  const r = rows(t, dimsOf(t, dims, op));
  const out = dense(dtype, keepdim ? r.keepShape : r.dropShape);
  for (let o = 0; o < r.outer; o++)
    out.data[o] = f(r.data.subarray(o * r.inner, (o + 1) * r.inner));
  return finish(out);
}

const sumOf = (row: Float64Array) => {
  let s = 0;
  for (let i = 0; i < row.length; i++) s += row[i]!;
  return s;
};

const floatOut = (t: JsTensor) => (isFloating(t.dtype) ? t.dtype : 'float32');

export const sum = (t: JsTensor, dims?: Dims, keepdim = false) =>
  reduceRows(t, dims, keepdim, isFloating(t.dtype) ? t.dtype : 'int64', 'sum', sumOf);

export function mean(t: JsTensor, dims?: Dims, keepdim = false): JsTensor {
  if (!isFloating(t.dtype))
    throw new Error(
      `mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: ${t.dtype}`,
    );
  return reduceRows(t, dims, keepdim, t.dtype, 'mean', runningMean);
}

const extreme = (sign: 1 | -1) => (row: Float64Array) => {
  if (row.length === 0)
    throw new Error('amax(): Expected reduction dim to be specified for input.numel() == 0.');
  let m = row[0]!;
  for (let i = 1; i < row.length; i++) {
    const x = row[i]!;
    if (Number.isNaN(x)) return x;
    if (sign * (x - m) > 0) m = x;
  }
  return m;
};

export const amax = (t: JsTensor, dims?: Dims, keepdim = false) =>
  reduceRows(t, dims, keepdim, t.dtype, 'amax', extreme(1));
export const amin = (t: JsTensor, dims?: Dims, keepdim = false) =>
  reduceRows(t, dims, keepdim, t.dtype, 'amin', extreme(-1));

export const logsumexp = (t: JsTensor, dims: Dims, keepdim = false) =>
  reduceRows(t, dims, keepdim, floatOut(t), 'logsumexp', (row) => {
    let m = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < row.length; i++) if (row[i]! > m) m = row[i]!;
    if (!Number.isFinite(m)) return m === Number.NEGATIVE_INFINITY ? m : m + 0;
    let s = 0;
    for (let i = 0; i < row.length; i++) s += Math.exp(row[i]! - m);
    return m + Math.log(s);
  });

/** A running mean: exactly the value for a row of one value, as libtorch's mean is. */
const runningMean = (row: Float64Array) => {
  let m = 0;
  for (let i = 0; i < row.length; i++) m += (row[i]! - m) / (i + 1);
  return row.length === 0 ? Number.NaN : m;
};

/** Welford's running variance (libtorch's): exactly 0 for a row of one value. */
const variance = (unbiased: boolean) => (row: Float64Array) => {
  let m = 0;
  let m2 = 0;
  for (let i = 0; i < row.length; i++) {
    const x = row[i]!;
    const d = x - m;
    m += d / (i + 1);
    m2 += d * (x - m);
  }
  return m2 / Math.max(row.length - (unbiased ? 1 : 0), 0);
};

export const varOp = (t: JsTensor, dims?: Dims, unbiased = true, keepdim = false) =>
  reduceRows(t, dims, keepdim, floatOut(t), 'var', variance(unbiased));
export const stdOp = (t: JsTensor, dims?: Dims, unbiased = true, keepdim = false) =>
  reduceRows(t, dims, keepdim, floatOut(t), 'std', (row) => Math.sqrt(variance(unbiased)(row)));

export function norm(t: JsTensor, p: number, dims?: Dims, keepdim = false): JsTensor {
  if (!isFloating(t.dtype))
    throw new Error(
      `linalg.vector_norm: Expected a floating point or complex tensor as input. Got ${t.dtype}`,
    );
  return reduceRows(t, dims, keepdim, t.dtype, 'norm', (row) => {
    if (p === Number.POSITIVE_INFINITY) return row.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
    if (p === 0) return row.reduce((n, x) => n + (x !== 0 ? 1 : 0), 0);
    let s = 0;
    for (let i = 0; i < row.length; i++) s += Math.abs(row[i]!) ** p;
    return s ** (1 / p);
  });
}

/** The index of each row's extreme (the first, NaN counting as the extreme). */
const argExtreme = (sign: 1 | -1) => (row: Float64Array) => {
  let k = 0;
  for (let i = 1; i < row.length; i++) {
    const x = row[i]!;
    if (Number.isNaN(row[k]!)) break;
    if (Number.isNaN(x) || sign * (x - row[k]!) > 0) k = i;
  }
  return k;
};

function argReduce(
  t: JsTensor,
  sign: 1 | -1,
  dim: number | undefined,
  keepdim: boolean,
  op: string,
) {
  if (t.numel === 0)
    throw new Error(`${op}(): Expected reduction dim to be specified for input.numel() == 0.`);
  if (dim === undefined) {
    const flat = dense(t.dtype, [t.numel], values(t));
    const r = reduceRows(flat, 0, false, 'int64', op, argExtreme(sign));
    return keepdim
      ? dense(
          'int64',
          t.shape.map(() => 1),
          r.data,
        )
      : r;
  }
  return reduceRows(t, dim, keepdim, 'int64', op, argExtreme(sign));
}

export const argmax = (t: JsTensor, dim?: number, keepdim = false) =>
  argReduce(t, 1, dim, keepdim, 'argmax');
export const argmin = (t: JsTensor, dim?: number, keepdim = false) =>
  argReduce(t, -1, dim, keepdim, 'argmin');

export function maxDim(t: JsTensor, dim: number, keepdim = false): [JsTensor, JsTensor] {
  const i = argReduce(t, 1, dim, keepdim, 'max');
  return [reduceRows(t, dim, keepdim, t.dtype, 'max', extreme(1)), i];
}
export function minDim(t: JsTensor, dim: number, keepdim = false): [JsTensor, JsTensor] {
  const i = argReduce(t, -1, dim, keepdim, 'min');
  return [reduceRows(t, dim, keepdim, t.dtype, 'min', extreme(-1)), i];
}

const logicalOut = (t: JsTensor): DType => (t.dtype === 'uint8' ? 'uint8' : 'bool');
export const all = (t: JsTensor, dim?: number, keepdim = false) =>
  reduceRows(t, dim, keepdim, logicalOut(t), 'all', (row) => (row.every((x) => x !== 0) ? 1 : 0));
export const any = (t: JsTensor, dim?: number, keepdim = false) =>
  reduceRows(t, dim, keepdim, logicalOut(t), 'any', (row) => (row.some((x) => x !== 0) ? 1 : 0));

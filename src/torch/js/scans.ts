// The TypeScript backend's ops along a line of a dimension (docs/design.md §3b): cumsum, softmax
// and log_softmax (the last dimension's float32 rows in the WebAssembly kernel), sort and topk
// (stable, NaN the largest value as in libtorch), each line taken in float64 and stored at the
// result's dtype.
import type { DType } from '../types.js';
import { newBuf } from './buffers.js';
import { checkFloat, finish, isFloating } from './dtypes.js';
import { permute } from './layout.js';
import { dense, denseUnset, dimOf, type JsTensor, numelOf, values } from './tensor-data.js';
import { wasmSoftmax } from './wasm-elementwise.js';

/**
 * Applies `f` to each line of t along `dim` (a row of length shape[dim]), in place in a float64
 * copy laid out with `dim` last, and returns the result in t's layout as `dtype`.
 */
function alongDim(
  t: JsTensor,
  dim: number,
  dtype: DType,
  op: string,
  f: (line: Float64Array) => void,
): JsTensor {
  const nd = t.shape.length;
  if (nd === 0) {
    const line = Float64Array.of(t.data[t.offset]!);
    f(line);
    return finish(dense(dtype, [], convertLine(line, dtype)));
  }
  const d = dimOf(dim, nd, op);
  const n = t.shape[d]!;
  if (d === nd - 1) {
    // the lines are rows already: one copy, worked in place
    const data = Float64Array.from(values(t));
    for (let o = 0; o + n <= data.length && n > 0; o += n) f(data.subarray(o, o + n));
    return finish(dense(dtype, t.shape.slice(), convertLine(data, dtype)));
  }
  const order = [...t.shape.keys()].filter((k) => k !== d).concat([d]);
  const moved = permute(t, order);
  const v = values(moved);
  const data = Float64Array.from(v);
  for (let o = 0; o + n <= data.length && n > 0; o += n) f(data.subarray(o, o + n));
  const back = dense(dtype, moved.shape, convertLine(data, dtype));
  // the inverse permutation puts dim back
  const inverse = order.map((_, i) => order.indexOf(i));
  return finish(dense(dtype, t.shape.slice(), values(permute(back, inverse))));
}

function convertLine(x: Float64Array, dtype: DType) {
  if (dtype === 'float64' || dtype === 'int64') return x;
  const out = newBuf(dtype, x.length);
  out.set(x);
  return out;
}

export function cumsum(t: JsTensor, dim: number): JsTensor {
  return alongDim(t, dim, isFloating(t.dtype) ? t.dtype : 'int64', 'cumsum', (line) => {
    for (let i = 1; i < line.length; i++) line[i]! += line[i - 1]!;
  });
}

function softmaxLine(line: Float64Array, log: boolean) {
  let m = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < line.length; i++) if (line[i]! > m || Number.isNaN(line[i]!)) m = line[i]!;
  let s = 0;
  for (let i = 0; i < line.length; i++) s += Math.exp(line[i]! - m);
  if (log) {
    const l = m + Math.log(s);
    for (let i = 0; i < line.length; i++) line[i] = line[i]! - l;
  } else for (let i = 0; i < line.length; i++) line[i] = Math.exp(line[i]! - m) / s;
}

/** Softmax (or its log) along the last dimension, row by row from t's elements into a new tensor. */
function softmaxLast(t: JsTensor, log: boolean): JsTensor {
  const src = values(t);
  const out = denseUnset(t.dtype, t.shape.slice()); // every row written
  const o = out.data;
  const n = t.shape.at(-1)!;
  if (t.dtype === 'float32' && wasmSoftmax(src as Float32Array, n, log, o as Float32Array))
    return out;
  const e = new Float64Array(n);
  for (let at = 0; at + n <= src.length && n > 0; at += n) {
    let m = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < n; i++) {
      const x = src[at + i]!;
      if (x > m || Number.isNaN(x)) m = x;
    }
    let sum = 0;
    for (let i = 0; i < n; i++) {
      e[i] = Math.exp(src[at + i]! - m);
      sum += e[i]!;
    }
    if (log) {
      const l = m + Math.log(sum);
      for (let i = 0; i < n; i++) o[at + i] = src[at + i]! - l;
    } else for (let i = 0; i < n; i++) o[at + i] = e[i]! / sum;
  }
  return finish(out);
}

const isLast = (t: JsTensor, dim: number, op: string) =>
  t.shape.length > 0 && dimOf(dim, t.shape.length, op) === t.shape.length - 1;

export function softmax(t: JsTensor, dim: number): JsTensor {
  checkFloat(t.dtype, 'softmax');
  if (isLast(t, dim, 'softmax')) return softmaxLast(t, false);
  return alongDim(t, dim, t.dtype, 'softmax', (l) => softmaxLine(l, false));
}
export function logSoftmax(t: JsTensor, dim: number): JsTensor {
  checkFloat(t.dtype, 'log_softmax');
  if (isLast(t, dim, 'log_softmax')) return softmaxLast(t, true);
  return alongDim(t, dim, t.dtype, 'log_softmax', (l) => softmaxLine(l, true));
}

/** NaN sorts above every number (last ascending, first descending), as libtorch's sort. */
const compareAsc = (a: number, b: number) =>
  Number.isNaN(a) ? (Number.isNaN(b) ? 0 : 1) : Number.isNaN(b) ? -1 : a - b;

/** Sorted values and indices along dim (stable: equal elements keep their order). */
export function sort(t: JsTensor, dim: number, descending = false): [JsTensor, JsTensor] {
  const idx: number[][] = [];
  const vals = alongDim(t, dim, t.dtype, 'sort', (line) => {
    const order = [...line.keys()].sort((i, j) =>
      descending
        ? compareAsc(line[j]!, line[i]!) || i - j
        : compareAsc(line[i]!, line[j]!) || i - j,
    );
    const copy = line.slice();
    order.forEach((k, i) => {
      line[i] = copy[k]!;
    });
    idx.push(order);
  });
  let n = 0;
  const indices = alongDim(t, dim, 'int64', 'sort', (line) => {
    const order = idx[n++]!;
    for (let i = 0; i < line.length; i++) line[i] = order[i]!;
  });
  return [vals, indices];
}

export function topk(
  t: JsTensor,
  k: number,
  dim: number,
  largest = true,
  _sorted = true,
): [JsTensor, JsTensor] {
  const nd = t.shape.length;
  const d = dimOf(dim, nd, 'topk');
  const size = nd === 0 ? 1 : t.shape[d]!;
  if (k < 0 || k > size) throw new Error('selected index k out of range');
  const [v, i] = sort(t, d, largest);
  const take = (x: JsTensor) => {
    if (nd === 0) return x;
    const shape = x.shape.slice();
    shape[d] = k;
    const order = [...x.shape.keys()].filter((q) => q !== d).concat([d]);
    const moved = values(permute(x, order));
    const outer = numelOf(order.slice(0, -1).map((q) => x.shape[q]!));
    const buf = dense(x.dtype, [...order.slice(0, -1).map((q) => x.shape[q]!), k]);
    for (let o = 0; o < outer; o++)
      for (let j = 0; j < k; j++) buf.data[o * k + j] = moved[o * size + j]!;
    const inverse = order.map((_, q) => order.indexOf(q));
    return dense(x.dtype, shape, values(permute(buf, inverse)));
  };
  return [take(v), take(i)];
}

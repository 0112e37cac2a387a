// The TypeScript backend's network ops (docs/design.md §3b): layer_norm, group_norm and
// cross_entropy, as libtorch computes them: normalisation statistics in float64 with the biased
// variance, the loss's mean over the targets not ignored (weighted where weights are given) and
// label smoothing spread over every class; the image ops are conv-ops.ts'.
import type { Reduction } from '../types.js';
import { checkFloat, finish } from './dtypes.js';
import { dense, denseUnset, type JsTensor, numelOf, values } from './tensor-data.js';
import { wasmLayerNorm } from './wasm-norm.js';

/**
 * (x - mean) / sqrt(var + eps) over each group of `inner` elements, times scale[i] plus shift[i]
 * where given (layer_norm's affine over the normalised elements; group_norm's comes after).
 */
function normalise(
  x: Float32Array | Float64Array,
  out: Float32Array | Float64Array,
  groups: number,
  inner: number,
  eps: number,
  scale: ArrayLike<number> | null = null,
  shift: ArrayLike<number> | null = null,
) {
  for (let g = 0; g < groups; g++) {
    const o = g * inner;
    let m = 0;
    for (let i = 0; i < inner; i++) m += x[o + i]!;
    m /= inner;
    let v = 0;
    for (let i = 0; i < inner; i++) v += (x[o + i]! - m) ** 2;
    const r = 1 / Math.sqrt(v / inner + eps);
    if (scale && shift)
      for (let i = 0; i < inner; i++) out[o + i] = (x[o + i]! - m) * r * scale[i]! + shift[i]!;
    else if (scale) for (let i = 0; i < inner; i++) out[o + i] = (x[o + i]! - m) * r * scale[i]!;
    else if (shift) for (let i = 0; i < inner; i++) out[o + i] = (x[o + i]! - m) * r + shift[i]!;
    else for (let i = 0; i < inner; i++) out[o + i] = (x[o + i]! - m) * r;
  }
}

/** out = out * scale + shift, the element k of each run of `every` elements taking scale[k]. */
function affine(
  out: Float32Array | Float64Array,
  scale: ArrayLike<number> | null,
  shift: ArrayLike<number> | null,
  every: number,
  repeat = 1,
) {
  // element i belongs to channel floor(i / repeat) % every
  for (let at = 0; at < out.length; at += every * repeat)
    for (let k = 0; k < every; k++) {
      const w = scale ? scale[k]! : 1;
      const b = shift ? shift[k]! : 0;
      const from = at + k * repeat;
      for (let i = from; i < from + repeat; i++) out[i] = out[i]! * w + b;
    }
}

export function layerNorm(
  x: JsTensor,
  normalizedShape: number[],
  weight?: JsTensor | null,
  bias?: JsTensor | null,
  eps = 1e-5,
): JsTensor {
  checkFloat(x.dtype, 'layer_norm');
  const k = normalizedShape.length;
  const tail = x.shape.slice(x.shape.length - k);
  if (k > x.shape.length || tail.some((s, i) => s !== normalizedShape[i]))
    throw new Error(
      `Given normalized_shape=[${normalizedShape.join(', ')}], expected input with shape [*, ${normalizedShape.join(', ')}], but got input of size[${x.shape.join(', ')}]`,
    );
  const inner = numelOf(normalizedShape);
  const w = weight ? values(weight) : null;
  const b = bias ? values(bias) : null;
  const out = denseUnset(x.dtype, x.shape.slice()); // every element normalised
  const o = out.data as Float32Array;
  const xs = values(x);
  const f32 = (t: typeof w) => t === null || t instanceof Float32Array;
  if (
    xs instanceof Float32Array &&
    o instanceof Float32Array &&
    f32(w) &&
    f32(b) &&
    wasmLayerNorm(xs, o, inner, eps, w as Float32Array | null, b as Float32Array | null)
  )
    return out;
  normalise(xs as Float32Array, o, x.numel / Math.max(inner, 1), inner, eps, w, b);
  return finish(out);
}

export function groupNorm(
  x: JsTensor,
  groups: number,
  weight?: JsTensor | null,
  bias?: JsTensor | null,
  eps = 1e-5,
): JsTensor {
  checkFloat(x.dtype, 'group_norm');
  const [N, C] = x.shape as [number, number];
  if (C % groups !== 0)
    throw new Error(
      `Expected number of channels in input to be divisible by num_groups, but got input of shape [${x.shape.join(', ')}] and num_groups=${groups}`,
    );
  const spatial = numelOf(x.shape.slice(2));
  const inner = (C / groups) * spatial;
  const w = weight ? values(weight) : null;
  const b = bias ? values(bias) : null;
  const out = dense(x.dtype, x.shape.slice());
  const o = out.data as Float32Array;
  normalise(values(x) as Float32Array, o, N * groups, inner, eps);
  if (w || b) affine(o, w, b, C, spatial);
  return finish(out);
}

/** logp [K] = log_softmax over the classes of logits [N, K, rest] at (n, r), in float64. */
function logSoftmaxAt(
  x: ArrayLike<number>,
  n: number,
  r: number,
  K: number,
  rest: number,
  logp: Float64Array,
): void {
  let m = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < K; k++) m = Math.max(m, x[(n * K + k) * rest + r]!);
  let s = 0;
  for (let k = 0; k < K; k++) s += Math.exp(x[(n * K + k) * rest + r]! - m);
  const lse = m + Math.log(s);
  for (let k = 0; k < K; k++) logp[k] = x[(n * K + k) * rest + r]! - lse;
}

/** logits [N, K, ...] against int64 targets [N, ...]. */
export function crossEntropy(
  logits: JsTensor,
  target: JsTensor,
  weight: JsTensor | null | undefined,
  reduction: Reduction,
  ignoreIndex = -100,
  labelSmoothing = 0,
): JsTensor {
  checkFloat(logits.dtype, 'cross_entropy');
  if (target.dtype !== 'int64')
    throw new Error(`expected scalar type Long but found ${target.dtype}`);
  const oneD = logits.shape.length === 1;
  const N = oneD ? 1 : logits.shape[0]!;
  const K = oneD ? logits.shape[0]! : logits.shape[1]!;
  const rest = oneD ? 1 : numelOf(logits.shape.slice(2));
  const tshape = oneD ? [] : [N, ...logits.shape.slice(2)];
  if (target.shape.length !== tshape.length || target.shape.some((s, i) => s !== tshape[i]))
    throw new Error(`cross_entropy: expected target of shape [${tshape}], got [${target.shape}]`);
  const x = values(logits);
  const t = values(target);
  const w = weight ? values(weight) : null;
  const losses = new Float64Array(N * rest);
  const weights = new Float64Array(N * rest);
  const logp = new Float64Array(K);
  for (let n = 0; n < N; n++)
    for (let r = 0; r < rest; r++) {
      const i = n * rest + r;
      const y = t[i]!;
      if (y === ignoreIndex) continue;
      if (y < 0 || y >= K) throw new Error(`Target ${y} is out of bounds.`);
      logSoftmaxAt(x, n, r, K, rest, logp);
      const wy = w ? w[y]! : 1;
      let loss = -(1 - labelSmoothing) * wy * logp[y]!;
      if (labelSmoothing > 0) {
        let smooth = 0;
        for (let k = 0; k < K; k++) smooth -= (w ? w[k]! : 1) * logp[k]!;
        loss += (labelSmoothing / K) * smooth;
      }
      losses[i] = loss;
      weights[i] = wy;
    }
  if (reduction === 'none') {
    const out = dense(logits.dtype, tshape);
    out.data.set(losses);
    return finish(out);
  }
  let total = 0;
  let wsum = 0;
  for (let i = 0; i < losses.length; i++) {
    total += losses[i]!;
    wsum += weights[i]!;
  }
  const v = reduction === 'sum' ? total : total / wsum;
  const out = dense(logits.dtype, []);
  out.data[0] = v;
  return finish(out);
}

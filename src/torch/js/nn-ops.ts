// The TypeScript backend's network ops (docs/design.md §3b): layer_norm, group_norm, conv2d (by
// im2col and the matrix kernel), upsample_nearest2d, avg_pool2d and cross_entropy, as libtorch
// computes them: normalisation statistics in float64 with the biased variance, the convolution's
// padding with zeros, the loss's mean over the targets not ignored (weighted where weights are
// given) and label smoothing spread over every class.
import type { Reduction } from '../types.js';
import { finish } from './elementwise.js';
import { gemm } from './gemm.js';
import { dense, denseUnset, isFloating, type JsTensor, numelOf, values } from './tensor-data.js';
import { wasmLayerNorm } from './wasm-norm.js';

function checkFloat(t: JsTensor, op: string) {
  if (!isFloating(t.dtype))
    throw new Error(`${op}: expected a floating point input, got ${t.dtype}`);
}

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
  checkFloat(x, 'layer_norm');
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
  checkFloat(x, 'group_norm');
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

/** x [N, C, H, W], weight [O, C/groups, kh, kw], bias [O] -> [N, O, H', W']. */
export function conv2d(
  x: JsTensor,
  weight: JsTensor,
  bias: JsTensor | null | undefined,
  stride: number[],
  padding: number[],
  groups = 1,
): JsTensor {
  checkFloat(x, 'conv2d');
  if (x.shape.length !== 4 || weight.shape.length !== 4)
    throw new Error(
      `conv2d: expected 4-D input and weight, got [${x.shape}] and [${weight.shape}]`,
    );
  if (x.dtype !== weight.dtype)
    throw new Error(
      `conv2d: Input type (${x.dtype}) and weight type (${weight.dtype}) should be the same`,
    );
  const [N, C, H, W] = x.shape as [number, number, number, number];
  const [O, Cg, kh, kw] = weight.shape as [number, number, number, number];
  const [sh, sw] = [stride[0] ?? 1, stride[1] ?? stride[0] ?? 1];
  const [ph, pw] = [padding[0] ?? 0, padding[1] ?? padding[0] ?? 0];
  if (Cg * groups !== C)
    throw new Error(
      `Given groups=${groups}, weight of size [${weight.shape.join(', ')}], expected input[${x.shape.join(', ')}] to have ${Cg * groups} channels, but got ${C} channels instead`,
    );
  const Ho = Math.floor((H + 2 * ph - kh) / sh) + 1;
  const Wo = Math.floor((W + 2 * pw - kw) / sw) + 1;
  if (Ho <= 0 || Wo <= 0)
    throw new Error(`conv2d: kernel size can't be greater than actual input size`);
  const Og = O / groups;
  const xs = values(x);
  const ws = values(weight);
  const out = dense(x.dtype, [N, O, Ho, Wo]);
  const P = Ho * Wo;
  const Kc = Cg * kh * kw;
  // [Cg kh kw, Ho Wo] in the input's precision, so that float32 goes to the SIMD kernel
  const cols = x.dtype === 'float64' ? new Float64Array(Kc * P) : new Float32Array(Kc * P);
  for (let n = 0; n < N; n++)
    for (let g = 0; g < groups; g++) {
      cols.fill(0);
      for (let c = 0; c < Cg; c++) {
        const xc = (n * C + g * Cg + c) * H * W;
        for (let i = 0; i < kh; i++)
          for (let j = 0; j < kw; j++) {
            const row = ((c * kh + i) * kw + j) * P;
            for (let oy = 0; oy < Ho; oy++) {
              const y = oy * sh - ph + i;
              if (y < 0 || y >= H) continue;
              for (let ox = 0; ox < Wo; ox++) {
                const xx = ox * sw - pw + j;
                if (xx >= 0 && xx < W) cols[row + oy * Wo + ox] = xs[xc + y * W + xx]!;
              }
            }
          }
      }
      // out[n, g Og .. , :] = weight[g Og .., Kc] x cols [Kc, P]
      gemm(ws, g * Og * Kc, cols, 0, out.data, (n * O + g * Og) * P, Og, Kc, P, false);
    }
  if (bias) {
    const b = values(bias);
    for (let n = 0; n < N; n++)
      for (let o = 0; o < O; o++) {
        const at = (n * O + o) * P;
        for (let p = 0; p < P; p++) out.data[at + p]! += b[o]!;
      }
  }
  return finish(out);
}

export function upsampleNearest2d(x: JsTensor, outputSize: number[]): JsTensor {
  const [N, C, H, W] = x.shape as [number, number, number, number];
  const [Ho, Wo] = outputSize as [number, number];
  const xs = values(x);
  const out = dense(x.dtype, [N, C, Ho, Wo]);
  for (let p = 0; p < N * C; p++)
    for (let oy = 0; oy < Ho; oy++) {
      const y = Math.min(Math.floor((oy * H) / Ho), H - 1);
      for (let ox = 0; ox < Wo; ox++) {
        const xx = Math.min(Math.floor((ox * W) / Wo), W - 1);
        out.data[(p * Ho + oy) * Wo + ox] = xs[(p * H + y) * W + xx]!;
      }
    }
  return out;
}

export function avgPool2d(x: JsTensor, kernel: number[], stride: number[]): JsTensor {
  checkFloat(x, 'avg_pool2d');
  const [N, C, H, W] = x.shape as [number, number, number, number];
  const [kh, kw] = [kernel[0]!, kernel[1] ?? kernel[0]!];
  const [sh, sw] = stride.length ? [stride[0]!, stride[1] ?? stride[0]!] : [kh, kw];
  const Ho = Math.floor((H - kh) / sh) + 1;
  const Wo = Math.floor((W - kw) / sw) + 1;
  const xs = values(x);
  const out = dense(x.dtype, [N, C, Ho, Wo]);
  for (let p = 0; p < N * C; p++)
    for (let oy = 0; oy < Ho; oy++)
      for (let ox = 0; ox < Wo; ox++) {
        let s = 0;
        for (let i = 0; i < kh; i++)
          for (let j = 0; j < kw; j++) s += xs[(p * H + oy * sh + i) * W + ox * sw + j]!;
        out.data[(p * Ho + oy) * Wo + ox] = s / (kh * kw);
      }
  return finish(out);
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
  checkFloat(logits, 'cross_entropy');
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
      let m = Number.NEGATIVE_INFINITY;
      for (let k = 0; k < K; k++) m = Math.max(m, x[(n * K + k) * rest + r]!);
      let s = 0;
      for (let k = 0; k < K; k++) s += Math.exp(x[(n * K + k) * rest + r]! - m);
      const lse = m + Math.log(s);
      for (let k = 0; k < K; k++) logp[k] = x[(n * K + k) * rest + r]! - lse;
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

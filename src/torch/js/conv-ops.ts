// The TypeScript backend's image ops (docs/design.md §3b): conv2d by im2col and the matrix kernel
// (padding with zeros, groups), upsample_nearest2d and avg_pool2d, as libtorch computes them.

import { checkFloat, finish } from './dtypes.js';
import { gemm } from './gemm.js';
import { dense, type JsTensor, values } from './tensor-data.js';

/** A convolution's geometry: input [N, C, H, W], kernel [O, Cg, kh, kw], strides, padding, output. */
interface ConvGeometry {
  C: number;
  H: number;
  W: number;
  Cg: number;
  kh: number;
  kw: number;
  sh: number;
  sw: number;
  ph: number;
  pw: number;
  Ho: number;
  Wo: number;
}

/** cols [Cg kh kw, Ho Wo] of sample n's group g: the patches each output pixel reads (zero padded). */
function im2col(
  xs: ArrayLike<number>,
  cols: Float32Array | Float64Array,
  n: number,
  g: number,
  d: ConvGeometry,
): void {
  const { C, H, W, Cg, kh, kw, sh, sw, ph, pw, Ho, Wo } = d;
  const P = Ho * Wo;
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
}

/** The geometry of conv2d(x, weight) with its checks (PyTorch's messages). */
function convGeometry(
  x: JsTensor,
  weight: JsTensor,
  stride: number[],
  padding: number[],
  groups: number,
): ConvGeometry {
  if (x.shape.length !== 4 || weight.shape.length !== 4)
    throw new Error(
      `conv2d: expected 4-D input and weight, got [${x.shape}] and [${weight.shape}]`,
    );
  if (x.dtype !== weight.dtype)
    throw new Error(
      `conv2d: Input type (${x.dtype}) and weight type (${weight.dtype}) should be the same`,
    );
  const [, C, H, W] = x.shape as [number, number, number, number];
  const [, Cg, kh, kw] = weight.shape as [number, number, number, number];
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
  return { C, H, W, Cg, kh, kw, sh, sw, ph, pw, Ho, Wo };
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
  checkFloat(x.dtype, 'conv2d');
  const d = convGeometry(x, weight, stride, padding, groups);
  const N = x.shape[0]!;
  const O = weight.shape[0]!;
  const Og = O / groups;
  const xs = values(x);
  const ws = values(weight);
  const out = dense(x.dtype, [N, O, d.Ho, d.Wo]);
  const P = d.Ho * d.Wo;
  const Kc = d.Cg * d.kh * d.kw;
  // [Cg kh kw, Ho Wo] in the input's precision, so that float32 goes to the SIMD kernel
  const cols = x.dtype === 'float64' ? new Float64Array(Kc * P) : new Float32Array(Kc * P);
  for (let n = 0; n < N; n++)
    for (let g = 0; g < groups; g++) {
      im2col(xs, cols, n, g, d);
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
  checkFloat(x.dtype, 'avg_pool2d');
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

// How the pixel-space baselines of tab:cifar10_fid see a level a in 0..K-1 (app:cifar10-imagenet):
//   scalar  DDPM on pixel values: one number, 2 a / (K - 1) - 1 in [-1, 1]; decoded by rounding
//           to the nearest level;
//   bits    Bit Diffusion's analog bits (Chen et al.): the ceil(log2 K) binary digits of a, most
//           significant first, each as -1 or +1; decoded by thresholding at 0 (a code above K - 1
//           is clamped to K - 1).
import { cat, type Tensor, tensor, tidy } from '../torch/index.js';

export interface PixelEncoding {
  readonly name: 'scalar' | 'bits';
  readonly dim: number; // D: numbers a token
  /** levels [B, L] int64 -> [B, L, D] float64 */
  encode(x0: Tensor): Tensor;
  /** [B, L, D] -> levels [B, L] int64 */
  decode(x: Tensor): Tensor;
}

export function scalarEncoding(K: number): PixelEncoding {
  if (!(Number.isInteger(K) && K >= 2)) throw new Error(`levels must be >= 2, got ${K}`);
  return {
    name: 'scalar',
    dim: 1,
    encode: (x0) =>
      tidy(() =>
        x0
          .to('float64')
          .mul(2 / (K - 1))
          .sub(1)
          .unsqueeze(-1),
      ),
    decode: (x) =>
      tidy(() =>
        x
          .squeeze(-1)
          .add(1)
          .mul((K - 1) / 2)
          .round()
          .clamp(0, K - 1)
          .to('int64'),
      ),
  };
}

/** The bits a level of K needs. */
export const bitsFor = (K: number): number => Math.max(1, Math.ceil(Math.log2(K)));

export function analogBits(K: number): PixelEncoding {
  if (!(Number.isInteger(K) && K >= 2)) throw new Error(`levels must be >= 2, got ${K}`);
  const D = bitsFor(K);
  const weights = Array.from({ length: D }, (_, j) => 2 ** (D - 1 - j)); // MSB first
  return {
    name: 'bits',
    dim: D,
    encode: (x0) =>
      tidy(() => {
        const a = x0.unsqueeze(-1); // [B, L, 1]
        const planes = weights.map((w) => a.floorDivide(w).remainder(2)); // D x [B, L, 1] of 0, 1
        return cat(planes, -1).to('float64').mul(2).sub(1); // [B, L, D] of -1, +1
      }),
    decode: (x) =>
      tidy(() => {
        const bits = x.gt(0).to('int64'); // [B, L, D]
        const code = bits.mul(tensor(weights, [D], 'int64')).sum([-1]); // [B, L]
        return code.clamp(0, K - 1);
      }),
  };
}

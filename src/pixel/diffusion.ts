// The two pixel-space Gaussian baselines of tab:cifar10_fid, as the paper's settings describe
// them (app:cifar10-imagenet, "Model-specific settings"):
//   ddpm     DDPM (Ho et al.): pixel values in [-1, 1] (encoding.ts's scalar), the linear-beta
//            chain (schedule.ts), epsilon-prediction trained by L_simple = |eps - eps_theta|^2,
//            sampled by the ancestral step (sample.ts);
//   bitdiff  Bit Diffusion (Chen et al., analog bits): a level's bits as -1 / +1, the linear
//            signal schedule, x0-prediction trained by |x0 - x0_theta|^2, deterministic DDIM
//            sampling on a uniform grid, no self-conditioning.
// Neither is a limit of the SJD process (nothing sticks, nothing is categorical): they live here,
// outside process/, and share only the U-Net layers (model/unet-layers.ts) and the trainer.
// The forward law is x_t = sqrt(abar(t)) x_0 + sqrt(1 - abar(t)) eps, in float64.
import type { UNetRegressor } from '../model/unet-regressor.js';
import type { PixelProcessName } from '../process/choice.js';
import { type Tensor, type TorchGenerator, tensor, tidy } from '../torch/index.js';
import { analogBits, type PixelEncoding, scalarEncoding } from './encoding.js';
import { ddpmSchedule, linearSignalSchedule, type PixelSchedule } from './schedule.js';

export interface PixelDiffusion {
  readonly name: PixelProcessName;
  readonly schedule: PixelSchedule;
  readonly encoding: PixelEncoding;
  readonly prediction: 'eps' | 'x0'; // what the network outputs and the loss regresses
  readonly sampler: 'ancestral' | 'ddim';
}

/** The process `name` over K levels. */
export function pixelDiffusion(name: PixelProcessName, K: number): PixelDiffusion {
  if (name === 'ddpm')
    return {
      name,
      schedule: ddpmSchedule(),
      encoding: scalarEncoding(K),
      prediction: 'eps',
      sampler: 'ancestral',
    };
  return {
    name,
    schedule: linearSignalSchedule,
    encoding: analogBits(K),
    prediction: 'x0',
    sampler: 'ddim',
  };
}

/** Per-row factors [B, 1, 1] float64 of a per-row quantity. */
export const rowFactor = (v: number[]): Tensor => tensor(v, [v.length, 1, 1], 'float64');

export interface PixelCorrupted {
  x0: Tensor; // [B, L, D] float64 the encoded clean image
  eps: Tensor; // [B, L, D] float64
  xt: Tensor; // [B, L, D] float64
  times: number[]; // [B] the snapped times
}

/** The forward law at times t (snapped to the schedule's): x_t from x_0 levels [B, L] int64. */
export function corruptPixels(
  d: PixelDiffusion,
  x0: Tensor,
  t: Float64Array,
  gen: TorchGenerator,
): PixelCorrupted {
  const times = Array.from(t, (x) => d.schedule.snap(x));
  const ab = times.map((s) => d.schedule.alphaBar(s));
  const x0v = d.encoding.encode(x0); // [B, L, D]
  const eps = gen.randn(x0v.shape, 'float64'); // [B, L, D]
  const xt = tidy(() =>
    x0v.mul(rowFactor(ab.map(Math.sqrt))).add(eps.mul(rowFactor(ab.map((a) => Math.sqrt(1 - a))))),
  );
  return { x0: x0v, eps, xt, times };
}

/**
 * The training loss at times t: the mean squared error of the network's prediction (epsilon for
 * DDPM, x_0 for Bit Diffusion) over every number of the batch; x0 [B, L] int64 levels.
 */
export function pixelLoss(
  model: UNetRegressor,
  d: PixelDiffusion,
  x0: Tensor,
  t: Float64Array,
  gen: TorchGenerator,
): Tensor {
  const c = corruptPixels(d, x0, t, gen);
  const out = model.forward(c.xt.to('float32'), tensor(c.times, [c.times.length], 'float32')); // [B, L, D]
  const target = (d.prediction === 'eps' ? c.eps : c.x0).to('float32');
  return out.sub(target).square().mean();
}

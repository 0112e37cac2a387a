// Sampling the pixel-space baselines (app:cifar10-imagenet): from x_1 ~ N(0, I) down a grid of
// NFE + 1 times 1 = t_NFE > ... > t_0 = 0, uniform and snapped to the schedule (DDPM: its
// chain's steps evenly respaced, as Nichol & Dhariwal respace a 1000-step chain). Each step reads
// the network once at t and predicts x0_hat (from epsilon for DDPM: (x_t - sqrt(1 - abar_t)
// eps_theta) / sqrt(abar_t)), clipped to [-1, 1] as both papers do; then
//   ancestral (DDPM)  x_s ~ N(mean, beta), the mean that of the Gaussian posterior q(x_s | x_t,
//                     x0_hat) of the VP chain with a = abar_t / abar_s: sqrt(abar_s) (1 - a) /
//                     (1 - abar_t) x0_hat + sqrt(a) (1 - abar_s) / (1 - abar_t) x_t; the variance
//                     the step's beta = 1 - a (Ho et al.'s "fixedlarge", their CIFAR-10 setting:
//                     the posterior's beta-tilde leaves data of small spread 4% under-dispersed
//                     even on the full 1000-step chain, test/pixel.test.ts);
//   ddim (Bit Diff.)  x_s = sqrt(abar_s) x0_hat + sqrt(1 - abar_s) eps_hat, eps_hat = (x_t -
//                     sqrt(abar_t) x0_hat) / sqrt(1 - abar_t): deterministic (DDIM, eta = 0).
// At t_0 = 0 both give x0_hat, decoded to levels (encoding.ts). The state is float64 (the network
// reads float32). Sequences in chunks seeded seed + start, as sampling/batched.ts does, each step
// drawing from its own generator (step-random.ts stepGenerator, as a grid run's), so a sample does not depend on
// how many come after it; one chunk can be taken step by step.
import type { UNetRegressor } from '../model/unet-regressor.js';
import type { Watch } from '../sampling/batched.js';
import { DEFAULT_BATCH } from '../sampling/defaults.js';
import { doneWithinChunk } from '../sampling/run.js';
import { stepGenerator } from '../sampling/step-random.js';
import type { TrajectoryStep } from '../sampling/types.js';
import {
  noGrad,
  type TorchGenerator as RandomGenerator,
  type Tensor,
  tensor,
  tidy,
} from '../torch/index.js';
import type { PixelDiffusion } from './diffusion.js';

export interface PixelSampleOptions {
  n: number;
  nfe: number;
  seed: number;
  batch?: number; // default 64
  /** told the images' worth of work done of `n` as it grows (sampling/run.ts doneWithinChunk) */
  progress?: (done: number, n: number) => void;
}

/** The times 1 = t_NFE > ... > t_0 = 0 of a run at `nfe` network passes (ascending). */
export function pixelGrid(d: PixelDiffusion, nfe: number): number[] {
  if (!(Number.isInteger(nfe) && nfe >= 1))
    throw new Error(`NFE must be a whole number >= 1, got ${nfe}`);
  const times = Array.from({ length: nfe + 1 }, (_, i) => (i === 0 ? 0 : d.schedule.snap(i / nfe)));
  for (let i = 1; i <= nfe; i++)
    if (!(times[i]! > times[i - 1]!))
      throw new Error(`${d.name} takes at most ${Math.round(1 / times[1]!)} steps, got NFE ${nfe}`);
  return times;
}

/** One step t -> s of a chunk: the new state and the clipped x0_hat, both [B, L, D] float64. */
function pixelStep(
  model: UNetRegressor,
  d: PixelDiffusion,
  x: Tensor,
  t: number,
  s: number,
  gen: RandomGenerator,
): { x: Tensor; x0: Tensor } {
  const B = x.size(0);
  const at = d.schedule.alphaBar(t);
  const as = s === 0 ? 1 : d.schedule.alphaBar(s);
  return tidy(() => {
    const out = noGrad(() => model.forward(x.to('float32'), tensor(new Array(B).fill(t), [B])));
    const pred = out.to('float64'); // [B, L, D]
    const x0 = (
      d.prediction === 'x0' ? pred : x.sub(pred.mul(Math.sqrt(1 - at))).div(Math.sqrt(at))
    ).clamp(-1, 1);
    if (s === 0) return { x: x0.clone(), x0 };
    if (d.sampler === 'ddim') {
      const eps = x.sub(x0.mul(Math.sqrt(at))).div(Math.sqrt(1 - at));
      return { x: x0.mul(Math.sqrt(as)).add(eps.mul(Math.sqrt(1 - as))), x0 };
    }
    const a = at / as;
    const mean = x0
      .mul((Math.sqrt(as) * (1 - a)) / (1 - at))
      .add(x.mul((Math.sqrt(a) * (1 - as)) / (1 - at)));
    const sd = Math.sqrt(1 - a); // beta of the (respaced) step
    return { x: mean.add(gen.randn(x.shape, 'float64').mul(sd)), x0 };
  });
}

/**
 * A step as the trace and the page show it: every site "committed" to the level its current
 * state x_s decodes to (a Gaussian diffusion has no stuck sites; what one watches is the state
 * denoising), the prediction x0_hat's levels as the classifier's top token.
 */
function snapshot(
  d: PixelDiffusion,
  t: number,
  nfe: number,
  x: Tensor,
  x0: Tensor,
): TrajectoryStep {
  return tidy(() => {
    const state = d.encoding.decode(x.clamp(-1, 1)).reshape([-1]).toArray() as number[]; // [B * L]
    const guess = d.encoding.decode(x0).reshape([-1]).toArray() as number[]; // [B * L]
    return {
      t,
      nfe,
      committed: new Uint8Array(state.length).fill(1),
      tokens: state,
      yNorm: x.norm(2, [-1]).reshape([-1]).to('float32').data() as Float32Array,
      argmax: Int32Array.from(guess),
      confidence: new Float32Array(state.length).fill(1),
    };
  });
}

/**
 * `o.n` images of `length` tokens in chunks, as sampling/batched.ts's batchedSteps: each step
 * yielded (null where not watched: every chunk's for 'all', which takes one chunk only, the
 * first chunk's for 'first'), returning the rows of levels and the NFE each spent.
 */
export function* pixelSampleSteps(
  model: UNetRegressor,
  d: PixelDiffusion,
  length: number,
  o: PixelSampleOptions,
  watch: Watch,
): Generator<TrajectoryStep | null, { rows: number[][]; nfe: number }> {
  const size = o.batch ?? DEFAULT_BATCH;
  if (!(Number.isInteger(o.n) && o.n >= 1)) throw new Error(`n must be >= 1, got ${o.n}`);
  if (watch === 'all' && o.n > size)
    throw new Error(`a stepwise run takes 1 to ${size} images (one batch), asked for ${o.n}`);
  const grid = pixelGrid(d, o.nfe);
  const rows: number[][] = [];
  for (let start = 0; start < o.n; start += size) {
    const B = Math.min(size, o.n - start);
    const seen = watch === 'all' || (watch === 'first' && start === 0);
    const seed = o.seed + start;
    let x = stepGenerator(seed, -1).randn([B, length, d.encoding.dim], 'float64'); // [B, L, D]
    try {
      for (let i = o.nfe; i >= 1; i--) {
        const r = pixelStep(model, d, x, grid[i]!, grid[i - 1]!, stepGenerator(seed, o.nfe - i));
        x.dispose();
        x = r.x;
        const step = seen ? snapshot(d, grid[i - 1]!, o.nfe - i + 1, x, r.x0) : null;
        r.x0.dispose();
        o.progress?.(doneWithinChunk(start, B, o.nfe - i + 1, o.nfe), o.n);
        yield step;
      }
      const levels = d.encoding.decode(x).toArray() as number[]; // [B * L]
      for (let b = 0; b < B; b++) rows.push(levels.slice(b * length, (b + 1) * length));
      o.progress?.(start + B, o.n);
    } finally {
      x.dispose();
    }
  }
  return { rows, nfe: o.nfe };
}

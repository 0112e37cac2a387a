// The one sampling driver (md4's split: pure step functions, one loop): builds the grid for an
// NFE budget, starts from the prior (y ~ N(0, I), or the mask point), keeps conditioned
// positions committed, runs the named sampler with step i's randomness from a generator
// seeded by (seed, i) alone, and optionally records the trajectory for plots and the web page.
import type { SJDProcess } from '../process/index.js';
import { embedding, Generator, noGrad, type Tensor, tidy, where, zeros } from '../torch/index.js';
import { type GridKind, timeGrid } from './grid.js';
import { getSampler } from './registry.js';
import type { Denoiser, SamplerState } from './types.js';

export interface SampleOptions {
  process: SJDProcess;
  denoiser: Denoiser;
  anchors: Tensor; // [K, d]
  batch: number;
  length: number;
  sampler?: string; // 'sjd' (Alg. 2) | 'mdlm' (masked preset) | registered names
  nfe: number; // model evaluations (steps = nfe / the sampler's NFE per step)
  grid?: GridKind;
  temperature?: number;
  topP?: number;
  seed: number;
  /** tokens [B, L] int64 and mask [B, L] bool of conditioned (clamped) positions */
  condition?: { tokens: Tensor; mask: Tensor };
  record?: boolean;
}

export interface TrajectoryStep {
  t: number;
  committed: Uint8Array; // [B * L]
  tokens: number[]; // [B * L] (-1 where not committed)
  yNorm: Float32Array; // [B * L] |y_i|
}

export interface SampleResult {
  tokens: Tensor; // [B, L] int64
  y: Tensor; // [B, L, d] float64, final state
  nfe: number; // classifier evaluations spent (each over the whole batch)
  trajectory?: TrajectoryStep[];
}

/** A generator for step i of a run seeded `seed`: step i is reproducible on its own. */
export function stepGenerator(seed: number, i: number): Generator {
  return new Generator(BigInt(seed) * 1_000_003n + BigInt(i) + 1n);
}

function snapshot(t: number, s: SamplerState): TrajectoryStep {
  const committed = s.committed.to('uint8').data() as Uint8Array;
  const tokens = s.tokens.toArray().map((v, k) => (committed[k] ? v : -1));
  return { t, committed, tokens, yNorm: Float32Array.from(s.y.norm(2, [-1]).toArray()) };
}

export function sample(o: SampleOptions): SampleResult {
  const proc = o.process;
  const name = o.sampler ?? 'sjd';
  const { step, nfePerStep } = getSampler(name);
  const steps = Math.floor(o.nfe / nfePerStep);
  if (steps < 1)
    throw new Error(
      `an NFE budget of ${o.nfe} is less than one step of the ${name} sampler (${nfePerStep} NFE a step)`,
    );
  const E = o.anchors.detach().to('float64'); // [K, d]
  const [K, d] = E.shape as [number, number];
  const [B, L] = [o.batch, o.length];
  if (proc.blend.L !== L)
    throw new Error(`the process's W is for length ${proc.blend.L}, sampling length ${L}`);
  const grid = timeGrid(o.grid ?? 'cosine', steps, proc.T);
  let nfe = 0;
  const ctx = {
    process: proc,
    denoiser: (y: Tensor, t: number, committed: Tensor) => {
      nfe++;
      return o.denoiser(y, t, committed);
    },
    anchors: E,
    temperature: o.temperature ?? 1,
    topP: o.topP ?? 1,
  };
  return noGrad(() => {
    let state: SamplerState = tidy(() => {
      const prior =
        proc.config.kernel === 'mask'
          ? zeros([B, L, d], 'float64')
          : stepGenerator(o.seed, -1).randn([B, L, d], 'float64');
      const committed = o.condition ? o.condition.mask.clone() : zeros([B, L], 'bool');
      const tokens = o.condition ? o.condition.tokens.clone() : zeros([B, L], 'int64');
      if (
        o.condition &&
        o.condition.tokens
          .lt(0)
          .logicalOr(o.condition.tokens.ge(K))
          .logicalAnd(committed)
          .any()
          .item() > 0
      ) {
        throw new Error(`condition tokens must lie in 0..${K - 1}`);
      }
      const y = where(committed.unsqueeze(-1), embedding(E, tokens.clamp(0, K - 1)), prior);
      return { y, committed, tokens };
    });
    const trajectory: TrajectoryStep[] = [];
    if (o.record) trajectory.push(snapshot(grid[0]!, state));
    for (let i = 0; i < steps; i++) {
      const prev = state;
      state = tidy(() =>
        step(ctx, prev, grid[i]!, grid[i + 1]!, i === steps - 1, stepGenerator(o.seed, i)),
      );
      for (const x of Object.values(prev)) if (!Object.values(state).includes(x)) x.dispose();
      if (o.record) trajectory.push(snapshot(grid[i + 1]!, state));
    }
    return { tokens: state.tokens, y: state.y, nfe, trajectory: o.record ? trajectory : undefined };
  });
}

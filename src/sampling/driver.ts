// The sampling driver: a run of B rows (`sample`, `sampleSteps`) through the one loop (loop.ts)
// as a source that never refills: the rows start from the prior (y ~ N(0, I), or the mask
// point), conditioned positions committed, and step under the named sampler's plan
// (step-plans.ts): a grid sampler steps every row along the time grid built for the NFE budget,
// step i's randomness from a generator seeded by (seed, i) alone; an adaptive one steps only the
// rows with active sites, each at its own time and keyed by the row, until none is left or its
// budget is spent (its last step fills the row; each row may have a budget of its own). The
// classifier evaluations each row takes part in are counted, and the trajectory is recorded for
// plots and the web page when asked. The loop is a generator: `sampleSteps` yields each step as it
// is made, so a server can stream it and let its event loop turn between steps; `sample` drains
// it (`drain`, which every batch answer uses: the batch answer is the last step of the stream).
// The checks of a run's options are driver-options.ts's.
import { type Tensor, tidy } from '../torch/index.js';
import { checkSampleOptions, lastSteps, type SampleOptions, stepsOf } from './driver-options.js';
import { timeGrid } from './grid.js';
import { rowSteps, samplingSteps } from './loop.js';
import { getSampler } from './registry.js';
import type { RowJob, RowSource } from './rows.js';
import { drain, shown } from './run.js';
import { adaptivePlan, gridPlan } from './step-plans.js';
import type { TrajectoryStep } from './types.js';

export type { TrajectoryStep } from './types.js';

export interface SampleResult {
  tokens: Tensor; // [B, L] int64
  y: Tensor; // [B, L, d] final state, in stateDtype(process)
  nfe: number; // classifier evaluations spent (each over the rows still sampled)
  rowNfe: Int32Array; // [B] the evaluations each row took part in
  trajectory?: TrajectoryStep[];
}

/**
 * The driver step by step (for streaming): yields the state after the prior and after
 * every step as it is made (with the last classifier pass's argmax and confidence per site) and
 * returns what `sample` returns. Each step runs without autograd and frees what it does not keep;
 * a consumer may stop early (`return()`), which frees the state. Steps equal `sample`'s.
 */
export function sampleSteps(o: SampleOptions): Generator<TrajectoryStep, SampleResult> {
  return shown(driverSteps(o, true));
}

/** The whole run: drains the driver (recording the trajectory when `record`). */
export function sample(o: SampleOptions): SampleResult {
  return drain(driverSteps(o, o?.record === true), o?.record === true);
}

/** The B rows of a run as jobs: row b keyed by (seed, b), its budget, its conditioned sites. */
function rowJobs(o: SampleOptions, lastStep: Int32Array, nfePerStep: number): RowJob[] {
  const L = o.length;
  const [tokens, mask] = o.condition
    ? tidy(() => [o.condition!.tokens.toArray(), o.condition!.mask.to('uint8').toArray()])
    : [undefined, undefined];
  return Array.from({ length: o.batch }, (_, b) => ({
    seed: o.seed,
    id: b,
    attempt: 0,
    budget: (lastStep[b]! + 1) * nfePerStep,
    condition:
      tokens && mask
        ? { tokens: tokens.slice(b * L, (b + 1) * L), mask: mask.slice(b * L, (b + 1) * L) }
        : undefined,
  }));
}

/**
 * The run through the one loop, its B rows in B slots that never refill (row b ends in slot b);
 * `watch` snapshots each state (else yields null, which costs nothing). Every sampling path runs
 * it: `sample` and `sampleSteps` here, the batched runs (batched.ts) and the tasks' solves and
 * samples above them.
 */
export function* driverSteps(
  o: SampleOptions,
  watch: boolean,
): Generator<TrajectoryStep | null, SampleResult> {
  checkSampleOptions(o);
  const sampler = getSampler(o.sampler);
  const steps = stepsOf(o, o.sampler, sampler.nfePerStep);
  const adaptive = sampler.kind === 'adaptive';
  const lastStep = lastSteps(o, o.batch, steps, sampler.nfePerStep, adaptive); // [B]
  const waiting = rowJobs(o, lastStep, sampler.nfePerStep);
  const rowNfe = new Int32Array(o.batch);
  const source: RowSource = {
    take: () => waiting.shift(),
    done: (job, answer) => {
      rowNfe[job.id] = answer.nfe;
    },
  };
  const plan =
    sampler.kind === 'adaptive'
      ? adaptivePlan(sampler, o.process)
      : gridPlan(sampler, timeGrid(o.grid, steps, o.process.T), o.seed);
  const run = rowSteps({ ...o, batchSize: o.batch }, source, watch ? 'all' : 'none', plan);
  const r = yield* samplingSteps(run);
  return { tokens: r.tokens, y: r.y, nfe: r.passes, rowNfe };
}

// The one sampling driver (md4's split: pure step functions, one loop): starts from the prior
// (y ~ N(0, I), or the mask point), keeps conditioned positions committed, runs the named
// sampler with step i's randomness from a generator seeded by (seed, i) alone, counts the
// classifier evaluations each row takes part in, and optionally records the trajectory for
// plots and the web page. A grid sampler steps every row along the time grid built for the NFE
// budget; an adaptive one steps only the rows with active sites, each at its own time, until
// none is left or the budget is spent (its last step fills every row; each row may have a budget
// of its own): its run is a refilled batch (refill.ts), each row's randomness keyed by the row.
// The loop is a generator:
// `sampleSteps` yields each step as it is made, so a server can stream it and let its event loop
// turn between steps; `sample` drains it (`drain`, which every batch answer uses: the batch
// answer is the last step of the stream). The checks of a run's options are driver-options.ts's;
// stepping some rows of a batch only, driver-rows.ts's.
import {
  noGrad,
  TorchGenerator as RandomGenerator,
  type Tensor,
  tidy,
  zeros,
} from '../torch/index.js';
import { checkSampleOptions, lastSteps, type SampleOptions, stepsOf } from './driver-options.js';
import { freeUnkept } from './driver-rows.js';
import { timeGrid } from './grid.js';
import { type RowJob, type RowSource, refillSteps, samplingSteps } from './refill.js';
import { getSampler } from './registry.js';
import { drain, shown } from './run.js';
import { stateDtype, stateTensors } from './state.js';
import { anchoredState, readPass, stateView } from './step-view.js';
import type { SamplerState, StepContext, Time, TrajectoryStep } from './types.js';

export type { TrajectoryStep } from './types.js';

export interface SampleResult {
  tokens: Tensor; // [B, L] int64
  y: Tensor; // [B, L, d] final state, in stateDtype(process)
  nfe: number; // classifier evaluations spent (each over the rows still sampled)
  rowNfe: Int32Array; // [B] the evaluations each row took part in
  trajectory?: TrajectoryStep[];
}

/** A generator for step i of a run seeded `seed`: step i is reproducible on its own. */
export function stepGenerator(seed: number, i: number): RandomGenerator {
  return new RandomGenerator(BigInt(seed) * 1_000_003n + BigInt(i) + 1n);
}

/** What the last classifier pass said of each site [B * L]: argmax and tempered probability. */
interface Reads {
  argmax: Int32Array;
  confidence: Float32Array;
}

function snapshot(t: number, nfe: number, s: SamplerState, reads: Reads): TrajectoryStep {
  return { t, nfe, ...stateView(s), ...structuredClone(reads) };
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

/**
 * The state at t = T: y from the prior (N(0, I), or the mask point at the origin), conditioned
 * positions committed on their anchors (and, for a searching sampler, a fresh record of its
 * commits); refuses condition tokens outside 0..K-1.
 */
function priorState(
  o: SampleOptions,
  E: Tensor,
  B: number,
  L: number,
  search: boolean,
): SamplerState {
  const [K, d] = E.shape as [number, number];
  return noGrad(() =>
    tidy(() => {
      const dtype = stateDtype(o.process);
      const prior =
        o.process.config.kernel === 'mask'
          ? zeros([B, L, d], dtype)
          : stepGenerator(o.seed, -1).randn([B, L, d], dtype);
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
      return anchoredState(prior, committed, tokens, E, search);
    }),
  );
}

/**
 * The loop; `watch` snapshots each state (else yields null, which costs nothing) and reads each
 * classifier pass. Every sampling path runs it: `sample` and `sampleSteps` here, the batched
 * runs (batched.ts) and the tasks' solves and samples above them. An adaptive sampler's run is a
 * refilled batch (refill.ts) of the B rows, row b keyed by (seed, b).
 */
export function* driverSteps(
  o: SampleOptions,
  watch: boolean,
): Generator<TrajectoryStep | null, SampleResult> {
  checkSampleOptions(o);
  const sampler = getSampler(o.sampler);
  const steps = stepsOf(o, o.sampler, sampler.nfePerStep);
  const lastStep = lastSteps(o, o.batch, steps, sampler.nfePerStep, sampler.kind === 'adaptive'); // [B]
  if (sampler.kind === 'adaptive') return yield* adaptiveSteps(o, lastStep, watch);
  const proc = o.process;
  const [B, L] = [o.batch, o.length];
  const grid = timeGrid(o.grid, steps, proc.T);
  let nfe = 0;
  const rowNfe = new Int32Array(B);
  const rows: number[] = Array.from({ length: B }, (_, b) => b); // the rows the step sees
  const temperature = o.temperature;
  const reads: Reads = {
    argmax: new Int32Array(B * L).fill(-1),
    confidence: new Float32Array(B * L),
  };
  const E = tidy(() => o.anchors.detach().to(stateDtype(proc))); // [K, d]
  const ctx: StepContext = {
    process: proc,
    classifier: (y: Tensor, t: Time, committed: Tensor) => {
      nfe++;
      for (const b of rows) rowNfe[b]!++;
      const logits = o.classifier(y, t, committed); // [rows, L, K]
      if (watch)
        readPass(logits, temperature, (r, argmax, confidence) => {
          reads.argmax.set(argmax, rows[r]! * L);
          reads.confidence.set(confidence, rows[r]! * L);
        });
      return logits;
    },
    anchors: E,
    temperature,
    topP: o.topP,
    commit: o.commit,
    exclude: o.exclude,
  };
  let state: SamplerState | undefined;
  let finished = false;
  try {
    state = priorState(o, E, B, L, sampler.search === true);
    const look = (i: number, s: SamplerState) => (watch ? snapshot(grid[i]!, nfe, s, reads) : null);
    yield look(0, state);
    for (let i = 0; i < steps; i++) {
      const prev: SamplerState = state;
      const last = i === steps - 1;
      const gen = stepGenerator(o.seed, i);
      state = noGrad(() => tidy(() => sampler.step(ctx, prev, grid[i]!, grid[i + 1]!, last, gen)));
      freeUnkept(prev, [state]);
      yield look(i + 1, state);
    }
    finished = true;
    return { tokens: state.tokens, y: state.y, nfe, rowNfe };
  } finally {
    E.dispose();
    if (state) {
      const answer = finished ? [state.tokens, state.y] : [];
      for (const x of stateTensors(state)) if (!answer.includes(x)) x.dispose();
    }
  }
}

/**
 * An adaptive sampler's run: the B rows as one refilled batch of B slots (refill.ts), row b keyed
 * by (seed, b) with its last step `lastStep[b]`; the slots end holding row b in slot b.
 */
function* adaptiveSteps(
  o: SampleOptions,
  lastStep: Int32Array, // [B]
  watch: boolean,
): Generator<TrajectoryStep | null, SampleResult> {
  const [B, L] = [o.batch, o.length];
  const perStep = getSampler(o.sampler).nfePerStep;
  const [tokens, mask] = o.condition
    ? tidy(() => [o.condition!.tokens.toArray(), o.condition!.mask.to('uint8').toArray()])
    : [undefined, undefined];
  const waiting: RowJob[] = Array.from({ length: B }, (_, b) => ({
    seed: o.seed,
    id: b,
    attempt: 0,
    budget: (lastStep[b]! + 1) * perStep,
    condition:
      tokens && mask
        ? { tokens: tokens.slice(b * L, (b + 1) * L), mask: mask.slice(b * L, (b + 1) * L) }
        : undefined,
  }));
  const rowNfe = new Int32Array(B);
  const source: RowSource = {
    take: () => waiting.shift(),
    done: (job, answer) => {
      rowNfe[job.id] = answer.nfe;
    },
  };
  const run = refillSteps({ ...o, batchSize: B }, source, watch ? 'all' : 'none');
  const r = yield* samplingSteps(run);
  return { tokens: r.tokens, y: r.y, nfe: r.passes, rowNfe };
}

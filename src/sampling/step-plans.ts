// How the rows of a run step (loop.ts), by the sampler's kind. A grid sampler steps every row of
// its batch together along one time grid (Alg. 2's and MDLM's), step i's noise, and the prior's,
// from a generator seeded by (seed, i) alone; a row is done when its steps are taken (the last
// fills it). An adaptive sampler (app:sudoku) steps only the rows still working, each at its own
// time, its noise keyed by the row (step-random.ts rowKey), so a row's answer does not depend on
// what it is batched with; a row is done when every site is committed. The loop is the same.
import type { SJDProcess } from '../process/index.js';
import { type DType, noGrad, type Tensor, tidy, withParallelThreads } from '../torch/index.js';
import { boardTime } from './board-time.js';
import { stepRows } from './driver-rows.js';
import type { Sampler } from './registry.js';
import type { RowJob, Slot } from './rows.js';
import { RowKeyedRandom, rowKey, stepGenerator } from './step-random.js';
import type { SamplerState, StepContext } from './types.js';

/** What differs between the kinds of sampler, the loop's questions to its plan. */
export interface StepPlan {
  nfePerStep: number;
  search: boolean; // the sampler keeps a record of its commits (remask-step.ts)
  /** The prior's noise of the rows entering: [n, L, d] in `dtype`. */
  noise(jobs: RowJob[], shape: number[], dtype: DType): Tensor;
  /** The rows `part` of `prev` a step on (`last`: the step their budgets end at, which fills them). */
  step(
    ctx: StepContext,
    prev: SamplerState,
    part: number[],
    slots: (Slot | null)[],
    blanks: Float64Array, // [S] each slot's sites not conditioned
    last: boolean,
  ): SamplerState;
  /**
   * Whether a row is done: by its slot's steps taken, or by `full()`, every site committed (read
   * from the state only when asked: a grid run never asks).
   */
  done(full: () => boolean, slot: Slot): boolean;
  /** The time a snapshot shows, from the slots and their committed sites [S * L]. */
  time(slots: (Slot | null)[], committed: Uint8Array): number;
}

/** A grid sampler's plan: every row along `grid` (steps + 1 times from T), the run seeded `seed`. */
export function gridPlan(
  sampler: Sampler & { kind?: 'grid' },
  grid: ArrayLike<number>,
  seed: number,
): StepPlan {
  return {
    nfePerStep: sampler.nfePerStep,
    search: sampler.search === true,
    noise: (_, shape, dtype) => stepGenerator(seed, -1).randn(shape, dtype),
    step: (ctx, prev, part, slots, _, last) => {
      if (part.length !== prev.committed.size(0))
        throw new Error('a grid sampler steps every row of its batch at once');
      const i = slots[part[0]!]!.step;
      const gen = stepGenerator(seed, i);
      return noGrad(() => tidy(() => sampler.step(ctx, prev, grid[i]!, grid[i + 1]!, last, gen)));
    },
    done: (_, slot) => slot.step > slot.last,
    time: (slots) => grid[slots[0]?.step ?? 0]!,
  };
}

/** An adaptive sampler's plan: each row at its own time, its noise keyed by the row. */
export function adaptivePlan(sampler: Sampler & { kind: 'adaptive' }, proc: SJDProcess): StepPlan {
  return {
    nfePerStep: sampler.nfePerStep,
    search: sampler.search === true,
    noise: (jobs, shape, dtype) =>
      new RowKeyedRandom(jobs.map((j) => rowKey(j.seed, j.id, j.attempt, -1))).randn(shape, dtype),
    step: (ctx, prev, part, slots, blanks, last) => {
      const random = new RowKeyedRandom(
        part.map((b) =>
          rowKey(slots[b]!.job.seed, slots[b]!.job.id, slots[b]!.job.attempt, slots[b]!.step),
        ),
      );
      // the steps' own tensors run on one thread (the network's pass keeps its threads)
      return withParallelThreads(1, () =>
        stepRows(sampler.step, ctx, prev, part, blanks, last, random),
      );
    },
    done: (full) => full(),
    time: (slots, committed) => {
      const first = slots[0];
      if (!first) return 0;
      let active = 0;
      for (let i = 0; i < first.argmax.length; i++) active += committed[i] ? 0 : 1;
      return boardTime(proc, active / (first.blanks || 1));
    },
  };
}

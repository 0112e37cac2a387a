// The driver's rows (driver.ts): an adaptive sampler steps only the rows of a batch that still
// have active sites, each at its own time, so the rows a step sees are taken out of the batch's
// state and put back, the others neither evaluated nor changed; and the tensors of a state no
// later state holds are freed as soon as it is replaced.
import { noGrad, type Tensor, tensor, tidy } from '../torch/index.js';
import { mapState, stateTensors } from './state.js';
import type { StepRandom } from './step-random.js';
import type { AdaptiveStepFn, SamplerState, StepContext } from './types.js';

/** The rows of `s` at idx [n] int64. */
export function rowsOf(s: SamplerState, idx: Tensor): SamplerState {
  return mapState(s, (x) => x.indexSelect(0, idx));
}

/** `s` with its rows idx [n] int64 replaced by `part`'s. */
export function withRows(s: SamplerState, idx: Tensor, part: SamplerState): SamplerState {
  return mapState(
    s,
    (x, p) => x.scatter(0, idx.view([-1, ...x.shape.slice(1).map(() => 1)]).expand(p!.shape), p!),
    part,
  );
}

/** Frees the tensors of `s` that none of `kept` holds. */
export function freeUnkept(s: SamplerState, kept: SamplerState[]): void {
  const held = kept.flatMap(stateTensors);
  for (const x of stateTensors(s)) if (!held.includes(x)) x.dispose();
}

/** The rows with active sites (those an adaptive step sees). */
export function activeRows(s: SamplerState): number[] {
  const done = tidy(() => s.committed.all(-1).toArray()); // [B]
  return [...done.keys()].filter((b) => !done[b]);
}

/**
 * An adaptive step of `rows` only, each at its own time (`blanks` [B]: its sites not
 * conditioned); the other rows stay as they are and are not evaluated.
 */
export function stepRows(
  step: AdaptiveStepFn,
  ctx: StepContext,
  prev: SamplerState,
  rows: number[],
  blanks: Float64Array,
  last: boolean,
  gen: StepRandom,
): SamplerState {
  return noGrad(() =>
    tidy(() => {
      if (rows.length === prev.committed.shape[0]) return step(ctx, prev, blanks, last, gen);
      const idx = tensor(rows, [rows.length], 'int64');
      const mine = Float64Array.from(rows, (b) => blanks[b]!); // [rows]
      return withRows(prev, idx, step(ctx, rowsOf(prev, idx), mine, last, gen));
    }),
  );
}

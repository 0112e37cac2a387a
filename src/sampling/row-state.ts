// The state of a run's slots (loop.ts): a row checked before it enters, the prior of the rows
// entering (y from the prior, N(0, I) drawn as the step plan says, or the mask point; their
// conditioned sites committed on their anchors, eq:forward at t = T), placed in the free slots or
// appended, and a snapshot of the slots for a watcher.
import type { SJDProcess } from '../process/index.js';
import { cat, noGrad, type Tensor, tensor, tidy, zeros } from '../torch/index.js';
import { rowsOf, withRows } from './driver-rows.js';
import type { RefillStep, RowJob, Slot } from './rows.js';
import { mapState, stateDtype } from './state.js';
import { anchoredState, stateView } from './step-view.js';
import type { SamplerState } from './types.js';

/** Refuses a row the run cannot start: a budget under one step, condition of the wrong length or values. */
export function checkJob(job: RowJob, L: number, K: number, nfePerStep: number): void {
  if (!(Number.isInteger(job.budget) && job.budget >= nfePerStep))
    throw new Error(
      `a row's NFE budget must be a whole number of at least ${nfePerStep} (one step), got ${job.budget}`,
    );
  const c = job.condition;
  if (!c) return;
  if (c.tokens.length !== L || c.mask.length !== L)
    throw new Error(`a row's condition must have ${L} sites, got ${c.tokens.length}`);
  for (let i = 0; i < L; i++)
    if (c.mask[i] && !(Number.isInteger(c.tokens[i]) && c.tokens[i]! >= 0 && c.tokens[i]! < K))
      throw new Error(`condition tokens must lie in 0..${K - 1}`);
}

/**
 * The new rows' state at t = T: y from the prior (`noise` [n, L, d], or the mask point),
 * conditioned sites committed on their anchors, a fresh search record for a searching sampler.
 */
export function priorRows(
  proc: SJDProcess,
  E: Tensor, // [K, d] in the state's dtype
  jobs: RowJob[],
  L: number,
  search: boolean,
  noise: (shape: number[]) => Tensor,
): SamplerState {
  const d = E.size(1);
  const n = jobs.length;
  return noGrad(() =>
    tidy(() => {
      const prior =
        proc.config.kernel === 'mask' ? zeros([n, L, d], stateDtype(proc)) : noise([n, L, d]);
      const maskFlat = new Float64Array(n * L);
      const tokFlat = new Float64Array(n * L);
      jobs.forEach((j, r) => {
        if (!j.condition) return;
        for (let i = 0; i < L; i++) {
          if (!j.condition.mask[i]) continue;
          maskFlat[r * L + i] = 1;
          tokFlat[r * L + i] = j.condition.tokens[i]!;
        }
      });
      const committed = tensor(maskFlat, [n, L], 'float64').gt(0); // [n, L]
      const tokens = tensor(tokFlat, [n, L], 'float64').to('int64'); // [n, L]
      return anchoredState(prior, committed, tokens, E, search);
    }),
  );
}

/**
 * A snapshot of the slots (free slots show their last row), with the last passes' reads, at the
 * time `timeOf` reads from the slots and their committed sites [S * L].
 */
export function snapshot(
  slots: (Slot | null)[],
  s: SamplerState,
  passes: number,
  timeOf: (slots: (Slot | null)[], committed: Uint8Array) => number,
): RefillStep {
  const L = s.committed.size(1);
  const view = stateView(s);
  const argmax = new Int32Array(slots.length * L).fill(-1);
  const confidence = new Float32Array(slots.length * L);
  slots.forEach((slot, b) => {
    if (!slot) return;
    argmax.set(slot.argmax, b * L);
    confidence.set(slot.confidence, b * L);
  });
  return {
    step: { t: timeOf(slots, view.committed), nfe: passes, ...view, argmax, confidence },
    jobs: slots.map((x) => x?.job ?? null),
  };
}

/** `prev` (absent: no rows yet) with the rows of `fresh` in its slots `reuse`, the rest appended. */
export function place(
  prev: SamplerState | undefined,
  fresh: SamplerState,
  reuse: number[],
): SamplerState {
  if (!prev) return fresh;
  const n = fresh.committed.size(0);
  return noGrad(() =>
    tidy(() => {
      let s = prev;
      if (reuse.length > 0) {
        const at = tensor(reuse, [reuse.length], 'int64');
        const head = tensor([...reuse.keys()], [reuse.length], 'int64');
        s = withRows(s, at, rowsOf(fresh, head));
      }
      if (reuse.length === n) return s;
      const tail = tensor(
        Array.from({ length: n - reuse.length }, (_, k) => reuse.length + k),
        [n - reuse.length],
        'int64',
      );
      return mapState(s, (x, f) => cat([x, f!], 0), rowsOf(fresh, tail));
    }),
  );
}

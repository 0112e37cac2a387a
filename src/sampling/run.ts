// A sampling run as the generator of its steps (every sampling path is one, the batch answer its
// return): drained to its end for a batch answer, keeping the steps it showed (the trajectory), or
// shown step by step for a stream. A step not watched is null (the driver then snapshots nothing)
// and is skipped by both.
import type { TrajectoryStep } from './types.js';

/**
 * A run to its end (every sampling path is a generator of steps, the batch answer its return):
 * its result, with the steps it showed as `trajectory` when `record` (a step not watched is null
 * and skipped), telling `onStep` the count after each step.
 */
export function drain<R extends object>(
  run: Generator<TrajectoryStep | null, R>,
  record: boolean,
  onStep?: (steps: number) => void, // told the steps taken so far after each (a progress report)
): R & { trajectory?: TrajectoryStep[] } {
  const trajectory: TrajectoryStep[] = [];
  for (let steps = 1; ; steps++) {
    const r = run.next();
    if (r.done) return record ? { ...r.value, trajectory } : r.value;
    if (r.value) trajectory.push(r.value);
    onStep?.(steps);
  }
}

/**
 * A run as a stream of the steps it shows, each through `f` (a retry's seen on the puzzle itself,
 * say); nulls are skipped. Closing this closes `run`.
 */
export function* shown<R>(
  run: Generator<TrajectoryStep | null, R>,
  f: (s: TrajectoryStep) => TrajectoryStep = (s) => s,
): Generator<TrajectoryStep, R> {
  try {
    for (;;) {
      const r = run.next();
      if (r.done) return r.value;
      if (r.value) yield f(r.value);
    }
  } finally {
    run.return(undefined as R);
  }
}

/**
 * The sequences' worth of work done (a progress report's count) after `k` of the `nfe` steps of a
 * chunk of `B` that starts at `start`: B times the share of its NFE taken, never the whole chunk
 * before it ends (its end reports start + B).
 */
export const doneWithinChunk = (start: number, B: number, k: number, nfe: number): number =>
  start + Math.min(B - 1, Math.floor((B * k) / nfe));

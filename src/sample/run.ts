// A sampling run as the generator of its steps (issue #28: every sampling path is one, the batch
// answer its return): drained to its end for a batch answer, keeping the steps it showed (the
// trajectory), or shown step by step for a stream. A step not watched is null (the driver then
// snapshots nothing) and is skipped by both.
import type { TrajectoryStep } from './types.js';

/**
 * A run to its end (every sampling path is a generator of steps, the batch answer its return):
 * its result and the steps it showed (the trajectory; a step not watched is null and skipped).
 */
export function drain<R>(run: Generator<TrajectoryStep | null, R>): {
  result: R;
  trajectory: TrajectoryStep[];
} {
  const trajectory: TrajectoryStep[] = [];
  for (;;) {
    const r = run.next();
    if (r.done) return { result: r.value, trajectory };
    if (r.value) trajectory.push(r.value);
  }
}

/** A run whose every step is watched, as a stream of steps; closing this closes `run`. */
export function* shown<R>(run: Generator<TrajectoryStep | null, R>): Generator<TrajectoryStep, R> {
  try {
    for (;;) {
      const r = run.next();
      if (r.done) return r.value;
      if (r.value) yield r.value;
    }
  } finally {
    run.return(undefined as R);
  }
}

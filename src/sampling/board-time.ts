// A board's time from its state (for the adaptive sampler): under the forward process every blank
// (non-conditioned site) is still stuck on its data anchor at time t with probability S(t)
// (sec:sim-free: S(t) = exp(-Lambda(t)), the hazard with w(a) = 1), so the expected fraction of
// blanks already unstuck -- the active ones -- is 1 - S(t). A board with `active` of its `blanks`
// sites still uncommitted is put at the time where they agree,
//   1 - S(t_board) = f := active / blanks   <=>   t_board = Lambda^{-1}(-log(1 - f)),
// clipped into [T_CLIP, T] (the times training showed the network). For the log-linear hazard
// S(t) = 1 - t/T this is t_board = f T; for the cosine hazard t_board = (2T/pi) acos(1 - f).
// A finished board (f = 0) has time 0.
import { type SJDProcess, T_CLIP } from '../process/index.js';

/** t with 1 - S(t) = f for f in (0, 1], clipped into [T_CLIP, T]; 0 at f = 0. */
export function boardTime(proc: SJDProcess, f: number): number {
  if (!(f >= 0 && f <= 1)) throw new Error(`fraction of active blanks must be in [0, 1], got ${f}`);
  if (f === 0) return 0;
  const t = proc.hazard.cumulativeInverse(-Math.log1p(-f)); // Infinity at f = 1
  return Math.min(proc.T, Math.max(T_CLIP, t));
}

/** Per-row times from active [B] and blanks [B] site counts. */
export function boardTimes(
  proc: SJDProcess,
  active: ArrayLike<number>,
  blanks: ArrayLike<number>,
): Float64Array {
  return Float64Array.from({ length: active.length }, (_, b) =>
    boardTime(proc, active[b]! === 0 ? 0 : active[b]! / blanks[b]!),
  );
}

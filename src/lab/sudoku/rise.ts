// A run's rise: the first training evaluation at which its held-out board accuracy reaches half of
// the best it ever reaches. The paper's takeoff (tab:sudoku_schedule_ablations: the step at which
// a seed first solves a board) orders runs only when the evaluations come often enough to see it;
// at this machine's cadence every run may solve a board by its first evaluation, so the report
// gives this step beside it: it orders how soon runs learn whatever their final level, and it
// needs only the curve that metrics.csv already holds (kept runs included).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_FILES } from '../../train/index.js';
import { metricsRows } from '../../train/metrics.js';
import { maxOf } from '../../util/fold.js';

/** The fraction of a run's best held-out board accuracy that its rise step first reaches. */
export const RISE_FRACTION = 0.5;

/**
 * The first step of `curve` (step, held-out board accuracy; in step order) whose accuracy reaches
 * RISE_FRACTION of the curve's best; null when the curve is empty or never solves a board.
 */
export function riseStep(curve: { step: number; accuracy: number }[]): number | null {
  const best = maxOf(
    curve.map((p) => p.accuracy),
    0,
  );
  if (best <= 0) return null;
  return curve.find((p) => p.accuracy >= RISE_FRACTION * best)!.step;
}

/**
 * The held-out board accuracy that a run folder's metrics.csv logged, in step order (the log is
 * appended step by step, and a resumed run truncates it at its checkpoint); [] without one.
 */
export function boardCurve(dir: string): { step: number; accuracy: number }[] {
  const path = join(dir, RUN_FILES.metrics);
  if (!existsSync(path)) return [];
  return metricsRows(readFileSync(path, 'utf8'))
    .filter((r) => r.board_accuracy !== null && r.board_accuracy !== undefined)
    .map((r) => ({ step: r.step!, accuracy: r.board_accuracy! }));
}

// A run kept as results without its weights (scripts/keep-results.sh: config, manifest, metrics
// and the comparison's caches), trained again when a comparison needs more of it than its caches
// hold (a frontier point, an NFE not yet scored) and the weights are gone (another machine).
// Training is reproducible on one machine (docs/design.md §4: one generator, exact resume), so
// there the same config repeats the kept run bit for bit and its caches stand; on another CPU it
// need not (BLAS kernels differ), so that is checked, not assumed: the kept
// metrics are held beside the run (kept-metrics.csv) while it trains, and once it finishes, the
// last logged row (every column but the wall-clock throughput) must be the kept one, or the
// caches are set aside (renamed *.stale, never deleted) and scored again from the new weights.
import { existsSync, readdirSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { TrainConfig } from '../train/config.js';
import { metricsRows } from '../train/metrics.js';
import {
  checkpointDir,
  finishedStep,
  isKeptResult,
  KEPT_METRICS,
  RUN_FILES,
} from '../train/run-folder.js';
import { writeFileAtomic } from '../util/atomic.js';
import { readCache } from '../util/cache.js';

/** The last logged row of a metrics.csv's text, without tokens_per_s (wall clock). */
function lastRow(csv: string): Record<string, number | null> {
  const { tokens_per_s: _, ...row } = metricsRows(csv).at(-1) ?? {};
  return row;
}

/**
 * Prepares `dir` to be trained again when it is a run kept without its weights (a config.json,
 * no checkpoint, cached results): its config must be `config` (another config is a different
 * run, refused in one line), and its metrics are held as kept-metrics.csv. Does nothing to any
 * other folder, nor to one already being trained again.
 */
export function startRetrain(dir: string, config: TrainConfig, log?: (line: string) => void): void {
  const configPath = join(dir, RUN_FILES.config);
  if (!existsSync(configPath) || checkpointDir(dir) !== null) return;
  if (existsSync(join(dir, KEPT_METRICS)) || !readdirSync(dir).some(isKeptResult)) return;
  const kept = JSON.parse(readFileSync(configPath, 'utf8'));
  if (!isDeepStrictEqual(kept, JSON.parse(JSON.stringify(config))))
    throw new Error(
      `${dir} holds results kept under another config; move it away to train this run`,
    );
  const metrics = join(dir, RUN_FILES.metrics);
  writeFileAtomic(join(dir, KEPT_METRICS), existsSync(metrics) ? readFileSync(metrics) : '');
  log?.(`${dir}: kept without its weights; trained again, its cached results checked after`);
}

/**
 * Once a run trained again has finished: its cached results stand when its last logged row is
 * the kept run's; otherwise each is renamed to *.stale (to be scored again). Returns whether
 * they stood (null: `dir` was not being trained again, or has not finished).
 */
export function settleRetrain(
  dir: string,
  steps: number,
  log?: (line: string) => void,
): boolean | null {
  const keptPath = join(dir, KEPT_METRICS);
  if (!existsSync(keptPath) || finishedStep(dir) < steps) return null;
  const kept = lastRow(readFileSync(keptPath, 'utf8'));
  const now = lastRow(readFileSync(join(dir, RUN_FILES.metrics), 'utf8'));
  const same = isDeepStrictEqual(kept, now);
  if (same) log?.(`${dir}: repeats the kept run (step ${now.step}); its cached results stand`);
  else {
    const results = readdirSync(dir).filter(isKeptResult);
    for (const f of results) renameSync(join(dir, f), join(dir, `${f}.stale`));
    log?.(
      `${dir}: differs from the kept run at step ${now.step} (${JSON.stringify(kept)} against ${JSON.stringify(now)}); ${results.join(', ')} set aside as *.stale`,
    );
  }
  unlinkSync(keptPath);
  return same;
}

/**
 * The result cached in `file` beside a run kept without its weights (no checkpoint), when its
 * key is `key`, with the run's takeoff step read from its metrics (the first evaluation where
 * `takeoffMetric` was positive, as the trainer records it); undefined for a run that has a
 * checkpoint (its own state says) or no such result.
 */
export function keptResult<T>(
  dir: string,
  file: string,
  key: unknown,
  takeoffMetric: string,
): { value: T; takeoff: number | null } | undefined {
  if (checkpointDir(dir) !== null) return undefined;
  const value = readCache<T>(join(dir, file), key);
  const metrics = join(dir, RUN_FILES.metrics);
  if (value === undefined || !existsSync(metrics)) return undefined;
  const first = metricsRows(readFileSync(metrics, 'utf8')).find(
    (row) => (row[takeoffMetric] ?? 0) > 0,
  );
  return { value, takeoff: first?.step ?? null };
}

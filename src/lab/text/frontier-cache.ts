// A run's frontiers cached beside it (the text comparison's and the hazard tables'): traced once
// per sampler (frontier-<sampler>.json; with w = 1 at sampling, frontier-<sampler>-w1.json) and
// read back only at the N, step, seed and sampler they were traced at; each point is kept as it
// is traced, so a trace stopped part-way resumes at its next point, and a frontier traced at more
// NFE budgets serves fewer.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { SamplerName } from '../../sampling/index.js';
import {
  FRONTIER_NFES,
  type FrontierPoint,
  frontier,
  writeFrontier,
} from '../../tasks/text/frontier.js';
import type { TextScores } from '../../tasks/text/metrics.js';
import { type TextTask, textShape } from '../../tasks/text/task.js';
import { loadTransformer } from '../../train/index.js';
import { writeFileAtomic } from '../../util/atomic.js';

const frontierStem = (sampler: SamplerName, read: { uniformHazard?: boolean }) =>
  `frontier-${sampler}${read.uniformHazard ? '-w1' : ''}`;

/**
 * What a trace's points were traced at: a cached or stopped trace's points are taken only at the
 * same N, step, seed and sampler (a point depends on those, its NFE and its temperature alone).
 */
interface TraceAt {
  n: number;
  step: number;
  seed: number;
  sampler: SamplerName;
}

/** The frontiers' sampling: N samples a point, at these NFE budgets, of the run at `steps`. */
export interface TraceOptions {
  n: number;
  steps: number;
  nfes?: number[]; // default FRONTIER_NFES
}

/** The comparison's trace of a run under `sampler` (seed 0: every frontier samples from it). */
const traceAt = (sampler: SamplerName, o: TraceOptions): TraceAt => ({
  n: o.n,
  step: o.steps,
  seed: 0,
  sampler,
});

/** Whether a saved trace (a frontier's JSON or a partial trace) was traced at `at`. */
const tracedAt = (saved: Partial<TraceAt>, at: TraceAt) =>
  (Object.keys(at) as (keyof TraceAt)[]).every((k) => saved[k] === at[k]);

/** The points of a saved trace (a frontier's JSON or a partial trace), if traced at `at`. */
function pointsAt(file: string, at: TraceAt): FrontierPoint[] {
  if (!existsSync(file)) return [];
  const saved = JSON.parse(readFileSync(file, 'utf8'));
  if (!tracedAt(saved, at)) return [];
  return saved.points ?? saved.curves[0].points;
}

/** The points at the NFE budgets `nfes`, if they cover every one of them (else null). */
function covering(points: FrontierPoint[], nfes: number[]): FrontierPoint[] | null {
  const at = points.filter((p) => nfes.includes(p.nfe));
  const traced = new Set(at.map((p) => p.nfe));
  return nfes.every((k) => traced.has(k)) ? at : null;
}

/**
 * A run's cached frontier under one sampler at `o`'s NFE budgets, if it was traced at this N and
 * step with every one of them (a frontier traced at more budgets serves fewer).
 */
export function readCachedFrontier(
  dir: string,
  sampler: SamplerName,
  o: TraceOptions,
  read: { uniformHazard?: boolean } = {},
): FrontierPoint[] | null {
  const cache = join(dir, `${frontierStem(sampler, read)}.json`);
  return covering(pointsAt(cache, traceAt(sampler, o)), o.nfes ?? FRONTIER_NFES);
}

/**
 * A frontier cached beside its run (frontier-<sampler>.json; with w = 1 at sampling,
 * frontier-<sampler>-w1.json), or traced and cached.
 */
export async function cachedFrontier(
  dir: string,
  name: string,
  sampler: SamplerName,
  task: TextTask,
  o: TraceOptions,
  reference: TextScores,
  read: { uniformHazard?: boolean } = {},
  log?: (line: string) => void, // a line for each point traced
): Promise<FrontierPoint[]> {
  const stem = frontierStem(sampler, read);
  const at = traceAt(sampler, o);
  const nfes = o.nfes ?? FRONTIER_NFES;
  const before = pointsAt(join(dir, `${stem}.json`), at);
  const cached = covering(before, nfes);
  if (cached) return cached;
  const { model, process: proc } = loadTransformer(dir, textShape, 'text', read);
  // each point is kept as it is traced, so a trace stopped part-way resumes at its next point;
  // a frontier cached at other NFE budgets gives the points it has and keeps the rest
  const progress = join(dir, `${stem}.partial.json`);
  const kept = pointsAt(progress, at);
  const points = frontier(model, proc, task.scorer, {
    ...at,
    nfes,
    done: [...kept, ...before],
    onPoint: (p) => {
      kept.push(p);
      writeFileAtomic(progress, JSON.stringify({ ...at, points: kept }));
      log?.(
        `${dir}: ${sampler} at NFE ${p.nfe}, temperature ${p.temperature.toFixed(3)}: valid words >= 5 ${(100 * p.valid_words5).toFixed(1)}%`,
      );
    },
  });
  const label = `${name}, ${sampler}${read.uniformHazard ? ', w = 1' : ''}`;
  const saved = [...before.filter((p) => !nfes.includes(p.nfe)), ...points].sort(
    (p, q) => p.nfe - q.nfe || p.temperature - q.temperature,
  );
  await writeFrontier(
    join(dir, `${stem}.json`),
    join(dir, `${stem}.svg`),
    [{ label, points: saved }],
    { ...at, nfes: [...new Set(saved.map((p) => p.nfe))].sort((a, b) => a - b) },
    reference,
  );
  rmSync(progress, { force: true });
  return points;
}

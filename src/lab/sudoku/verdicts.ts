// The paper's Sudoku claims (sec:exp-sudoku, tab:sudoku_schedule_ablations) judged on one
// comparison's runs, seed by seed: SJD's solve rate above MDM's and above CADD's (the model alone,
// under the adaptive sampler and under the confidence policy), CADD's takeoff after SJD's (the
// paper: 50k steps against 203k; and its rise, rise.ts, which orders runs that take off by the
// first evaluation), and CADD's collapse (the paper's 47.12 +- 47.12: a seed near
// 0%). Runs are paired by seed; a claim holds "on every seed" only where two or more seeds share
// both runs and each shows it, and one shared seed gives its figures and no verdict. Each rate's
// difference carries the binomial standard error of the test set's size, the spread one
// evaluation alone gives.
import { maxOf } from '../../util/fold.js';
import { mean } from '../../util/stats.js';
import { COLLAPSE_BELOW, label, type RunSummary } from './options.js';

/** The runs of models `a` and `b` that share a seed, in seed order. */
function pairs(runs: RunSummary[], a: string, b: string): [RunSummary, RunSummary][] {
  const of = (m: string) => new Map(runs.filter((r) => r.model === m).map((r) => [r.seed, r]));
  const [ra, rb] = [of(a), of(b)];
  return [...ra.keys()]
    .filter((s) => rb.has(s))
    .sort((x, y) => x - y)
    .map((s) => [ra.get(s)!, rb.get(s)!]);
}

/** "holds on every seed", "reversed on", "tied on" it, "holds on k of n seeds", or one seed's none. */
function verdict(holds: number, against: number, n: number): string {
  if (n < 2) return 'one seed: no verdict';
  if (holds === n) return `holds on every seed (${n} of ${n})`;
  if (against === n) return `reversed on every seed (${n} of ${n})`;
  if (holds === 0 && against === 0) return `tied on every seed (${n} of ${n})`;
  return `holds on ${holds} of ${n} seeds`;
}

const points = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}`;

/**
 * `a` above `b` by a rate of each run (null: the run has none), seed by seed: the verdict, the
 * differences in points, their mean, and the largest binomial SE of one difference on `n` puzzles.
 */
function above(
  ps: [RunSummary, RunSummary][],
  rate: (r: RunSummary) => number | null,
  n: number,
): string | undefined {
  const d = ps
    .map(([x, y]) => [rate(x), rate(y)] as const)
    .filter((v): v is readonly [number, number] => v[0] !== null && v[1] !== null);
  if (d.length === 0) return undefined;
  const diffs = d.map(([x, y]) => x - y);
  const se = maxOf(d.map(([x, y]) => Math.sqrt((x * (1 - x) + y * (1 - y)) / n)));
  const v = verdict(diffs.filter((x) => x > 0).length, diffs.filter((x) => x < 0).length, d.length);
  return `${v}; per seed ${diffs.map(points).join(', ')} points (mean ${points(mean(diffs))}; one difference's SE on ${n} puzzles at most ${(100 * se).toFixed(1)})`;
}

/** The bullet of `a` above `b`: under the adaptive sampler, then under the confidence policy. */
function aboveLine(runs: RunSummary[], a: string, b: string, n: number): string | undefined {
  const ps = pairs(runs, a, b);
  const adaptive = above(ps, (r) => r.solveRate, n);
  if (adaptive === undefined) return undefined;
  const confidence = above(ps, (r) => r.confidenceRate, n);
  return `- **${label(a)} above ${label(b)}** (model alone), adaptive sampler: ${adaptive}.${confidence ? ` Confidence policy: ${confidence}.` : ''}`;
}

/**
 * `a`'s step after `b`'s, seed by seed (a run with no such step: after any that has one): the
 * verdict and the steps per seed.
 */
function later(ps: [RunSummary, RunSummary][], at: (r: RunSummary) => number | null): string {
  const step = (r: RunSummary) => at(r) ?? Number.POSITIVE_INFINITY;
  const after = ps.filter(([a, b]) => step(a) > step(b)).length;
  const before = ps.filter(([a, b]) => step(a) < step(b)).length;
  const said = (r: RunSummary) => String(at(r) ?? 'none');
  return `${verdict(after, before, ps.length)}; per seed ${ps.map(([a, b]) => `${said(a)} against ${said(b)}`).join(', ')}`;
}

/** CADD's takeoff after SJD's, seed by seed, and its rise (rise.ts) after SJD's. */
function takeoffLine(runs: RunSummary[], sjd: string, cadd: string): string | undefined {
  const ps = pairs(runs, cadd, sjd);
  if (ps.length === 0) return undefined;
  return `- **${label(cadd)} takes off after ${label(sjd)}**: takeoff ${later(ps, (r) => r.takeoff)}. Rise (the first evaluation at half the seed's best): ${later(ps, (r) => r.rise)}.`;
}

/** CADD's collapsed seeds: those whose final adaptive solve rate is below COLLAPSE_BELOW. */
function collapseLine(runs: RunSummary[], cadd: string): string | undefined {
  const rs = runs.filter((r) => r.model === cadd).sort((x, y) => x.seed - y.seed);
  if (rs.length === 0) return undefined;
  const k = rs.filter((r) => r.collapsed).length;
  const v = rs.length < 2 ? 'one seed: no verdict' : k > 0 ? 'holds' : 'not seen';
  return `- **${label(cadd)} collapses on some seed**: ${v}; ${k} of ${rs.length} seeds below ${100 * COLLAPSE_BELOW}% (final adaptive solve rates ${rs.map((r) => `${(100 * r.solveRate).toFixed(1)}%`).join(', ')}).`;
}

/**
 * The report's section on the paper's claims, for the models of `models` present (SJD: the first
 * 'sjd' or 'sjd-<sigma_W>'; MDM: 'masked'; CADD: 'hybrid'); '' where none applies. `n`: the size
 * of the final test set.
 */
export function claimsSection(runs: RunSummary[], models: string[], n: number): string {
  const sjd = models.find((m) => m === 'sjd' || m.startsWith('sjd-'));
  const has = (m: string) => models.includes(m);
  const lines = [
    sjd && has('masked') ? aboveLine(runs, sjd, 'masked', n) : undefined,
    sjd && has('hybrid') ? aboveLine(runs, sjd, 'hybrid', n) : undefined,
    sjd && has('hybrid') ? takeoffLine(runs, sjd, 'hybrid') : undefined,
    has('hybrid') ? collapseLine(runs, 'hybrid') : undefined,
  ].filter((l): l is string => l !== undefined);
  if (lines.length === 0) return '';
  return `## The paper's claims in this setting

Runs paired by seed; a claim holds on every seed only where two or more seeds have both runs.

${lines.join('\n')}
`;
}

// The paper's text comparison at this machine's scale (sec:exp-text8, fig:text8,
// fig:text8-frontier): MDLM, CADD (W = I) and SJD over the sigma_W sweep, same network,
// optimiser, budget and seeds. Each run is a resumable run folder, its frontier cached beside
// it (frontier.json), so the comparison continues across sessions. Writes a Markdown table of
// the maximum valid-word fraction per model and NFE (mean +- std over seeds), the same maximum
// restricted to the diversity of held-out text (the paper's high-diversity regime), the
// training budget, and the frontiers with held-out text as the reference point.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type Precision, precisionNote } from '../../../model/precision.js';
import { describeProcess, describeSchedule, parseProcessName } from '../../../process/index.js';
import {
  loadTransformer,
  RUN_FILES,
  readConfig,
  type TrainHooks,
  trainUnlessScored,
  workThrough,
} from '../../../train/index.js';
import { makeDir, writeFileAtomic } from '../../../util/atomic.js';
import { reproduceFooter } from '../../../util/comparison-report.js';
import { maxOf } from '../../../util/fold.js';
import { mean, separation, std } from '../../../util/stats.js';
import type { TextScores } from '../metrics.js';
import { TEXT_SIZES, textConfig } from '../presets.js';
import { type TextTask, textShape } from '../task.js';
import {
  FRONTIER_NFES,
  type FrontierPoint,
  frontier,
  frontierMaxima,
  heldOutReference,
  REFERENCE_LABEL,
  REFERENCE_WINDOWS,
  writeFrontier,
} from './frontier.js';

export interface TextCompareOptions {
  wait?: boolean; // false (--no-wait): runs other processes hold are left to them (run-queue.ts)
  out: string;
  size: string;
  precision?: Precision; // the networks' compute precision (model/precision.ts)
  steps: number;
  seeds: number[];
  models: string[]; // 'masked', 'hybrid', 'sjd-<sigma>', 'sjd-row-<sigma>'
  /** samplers of the Gaussian models (hybrid, sjd); masked models use MDLM's ancestral sampler */
  samplers: string[];
  n: number; // samples per frontier point
  nfes: number[]; // the frontiers' NFE budgets (FRONTIER_NFES by default); the verdicts at the largest
  doc: string; // Markdown path; the plot goes beside it (.svg)
  command: string;
}

export interface TextRunSummary {
  model: string;
  sampler: string;
  seed: number;
  dir: string;
  points: FrontierPoint[];
}

/** The comparison's configs, one per model name. */
const modelConfig = (name: string, o: TextCompareOptions, seed: number) =>
  textConfig({
    ...parseProcessName(name),
    size: o.size,
    seed,
    steps: o.steps,
    precision: o.precision,
  });

const label = (name: string, o: TextCompareOptions) =>
  describeProcess(modelConfig(name, o, 0).process);

/** The samplers a model is traced under: MDLM's for masked models, `o.samplers` for the rest. */
const samplersOf = (name: string, o: TextCompareOptions) =>
  name === 'masked' ? ['mdlm'] : o.samplers;

const frontierStem = (sampler: string, read: { uniformHazard?: boolean }) =>
  `frontier-${sampler}${read.uniformHazard ? '-w1' : ''}`;

/**
 * What a trace's points were traced at: a cached or stopped trace's points are taken only at the
 * same N, step, seed and sampler (a point depends on those, its NFE and its temperature alone).
 */
interface TraceAt {
  n: number;
  step: number;
  seed: number;
  sampler: string;
}

/** The frontiers' sampling: N samples a point, at these NFE budgets, of the run at `steps`. */
export interface TraceOptions {
  n: number;
  steps: number;
  nfes?: number[]; // default FRONTIER_NFES
}

/** The comparison's trace of a run under `sampler` (seed 0: every frontier samples from it). */
const traceAt = (sampler: string, o: TraceOptions): TraceAt => ({
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
  sampler: string,
  o: TraceOptions,
  read: { uniformHazard?: boolean } = {},
): FrontierPoint[] | null {
  const cache = join(dir, `${frontierStem(sampler, read)}.json`);
  return covering(pointsAt(cache, traceAt(sampler, o)), o.nfes ?? FRONTIER_NFES);
}

/** Whether every frontier the comparison needs of a run is cached (trainUnlessScored). */
const runScored = (dir: string, name: string, o: TextCompareOptions) =>
  samplersOf(name, o).every((s) => readCachedFrontier(dir, s, o) !== null);

/**
 * A frontier cached beside its run (frontier-<sampler>.json; with w = 1 at sampling,
 * frontier-<sampler>-w1.json), or traced and cached.
 */
export async function cachedFrontier(
  dir: string,
  name: string,
  sampler: string,
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

export async function runTextComparison(
  task: TextTask,
  o: TextCompareOptions,
  hooks: TrainHooks = {},
): Promise<TextRunSummary[] | null> {
  const reference = heldOutReference(task.scorer, task.corpus.valid, TEXT_SIZES[o.size]!.length);
  const queue = o.seeds.flatMap((seed) =>
    o.models.map((name) => {
      const dir = join(o.out, `${name}-seed${seed}`);
      const scored = () => runScored(dir, name, o);
      const work = async (): Promise<TextRunSummary[] | null> => {
        const config = { ...modelConfig(name, o, seed), data: task.corpus.source };
        hooks.log?.(`${label(name, o)}, seed ${seed}`);
        if (!(await trainUnlessScored(dir, config, task, scored(), hooks))) return null;
        const traced: TextRunSummary[] = [];
        for (const sampler of samplersOf(name, o)) {
          const points = await cachedFrontier(
            dir,
            name,
            sampler,
            task,
            o,
            reference,
            {},
            hooks.log,
          );
          const max = frontierMaxima(points);
          hooks.log?.(
            `${dir}, ${sampler}: max valid words >= 5 at NFE ${o.nfes.join('/')}: ${o.nfes.map((k) => (100 * max[k]!.valid_words5).toFixed(1)).join('/')}%`,
          );
          traced.push({ model: name, sampler, seed, dir, points });
        }
        return traced;
      };
      return { dir, work, scored };
    }),
  );
  // A partial report after every run: a comparison that spans sessions shows where it is.
  const done = await workThrough(queue, {
    log: hooks.log,
    wait: o.wait,
    onResult: (runs) => writeTextReport(o, runs.flat(), reference),
  });
  return done?.flat() ?? null;
}

type Key = 'valid_words5' | 'valid_words6';

/** The best valid-word fraction (%) of each seed's frontier at one NFE. */
const bestBySeed = (rs: TextRunSummary[], nfe: number, key: Key, minUnique = 0) =>
  rs.map((r) => 100 * (frontierMaxima(r.points, minUnique)[nfe]?.[key] ?? Number.NaN));

/** A cell: mean +- std over seeds (one seed: the value). */
function cell(ys: number[]): string {
  if (ys.length === 0 || ys.some(Number.isNaN)) return '-';
  return ys.length > 1 ? `${mean(ys).toFixed(1)} +- ${std(ys).toFixed(1)}` : mean(ys).toFixed(1);
}

/**
 * One claim "a beats b": the difference of the means over seeds with both standard deviations,
 * and whether every seed of a beats every seed of b (or the reverse).
 */
function verdict(aName: string, a: number[], bName: string, b: number[]): string {
  if (a.length === 0 || b.length === 0) return `${aName} against ${bName}: not measured yet`;
  const diff = mean(a) - mean(b);
  const side = separation(a, b);
  const sep =
    side === 'overlap'
      ? 'the seeds overlap'
      : `every seed of ${aName} ${side} every seed of ${bName}`;
  return `${aName} ${mean(a).toFixed(1)} +- ${std(a).toFixed(1)} against ${bName} ${mean(b).toFixed(1)} +- ${std(b).toFixed(1)} (${a.length} and ${b.length} seeds): difference ${diff >= 0 ? '+' : ''}${diff.toFixed(1)} points, ${sep}`;
}

/** The claims over the seeds' best points `at(model, sampler)` (NaN where none qualifies). */
function verdicts(
  o: TextCompareOptions,
  exact: string,
  at: (m: string, s: string) => number[],
): string[] {
  const v = (aName: string, a: number[], bName: string, b: number[]) =>
    a.some(Number.isNaN) || b.some(Number.isNaN)
      ? `${aName} against ${bName}: no temperature of one of them reaches that diversity`
      : verdict(aName, a, bName, b);
  return [
    ...o.models
      .filter((m) => m !== 'masked')
      .map((m) => v(`${label(m, o)} (${exact})`, at(m, exact), 'MDLM', at('masked', 'mdlm'))),
    ...o.models
      .filter((m) => m.startsWith('sjd-') && o.models.includes('hybrid'))
      .map((m) =>
        v(`${label(m, o)} (${exact})`, at(m, exact), `CADD (${exact})`, at('hybrid', exact)),
      ),
    ...o.models
      .filter((m) => m !== 'masked')
      .flatMap((m) =>
        o.samplers.slice(1).map((s) => v(`${label(m, o)}: ${exact}`, at(m, exact), s, at(m, s))),
      ),
  ];
}

/** The report and what goes beside it: the frontiers' plot (.svg) and their points (.json). */
export function textReportFiles(doc: string) {
  const stem = doc.replace(/\.md$/, '');
  return { report: doc, svg: `${stem}.svg`, json: `${stem}.json` };
}

async function writeTextReport(
  o: TextCompareOptions,
  runs: TextRunSummary[],
  reference: TextScores,
): Promise<void> {
  const pct = (x: number) => (100 * x).toFixed(1);
  const rows = o.models.flatMap((m) => samplersOf(m, o).map((s) => ({ m, s })));
  const of = (m: string, s: string) => runs.filter((r) => r.model === m && r.sampler === s);
  const table = (key: Key, minUnique = 0) =>
    [
      `| model | sampler | seeds | ${o.nfes.map((k) => `NFE ${k}`).join(' | ')} |`,
      `|---|---|---|${o.nfes.map(() => '---').join('|')}|`,
      ...rows.map(({ m, s }) => {
        const rs = of(m, s);
        return `| ${label(m, o)} | ${s} | ${rs.length} | ${o.nfes.map((k) => cell(bestBySeed(rs, k, key, minUnique))).join(' | ')} |`;
      }),
      `| ${REFERENCE_LABEL} | | | ${o.nfes.map(() => pct(reference[key])).join(' | ')} |`,
    ].join('\n');
  // The claims at the largest NFE (128 by default), valid words >= 5: each Gaussian model under
  // the first (exact) sampler against MDLM, and each SJD model against CADD; over the whole
  // frontier, and over its points at least as diverse as held-out text (the paper's
  // high-diversity regime).
  const exact = o.samplers[0]!;
  const verdictNfe = maxOf(o.nfes);
  const claimsAt = (minUnique: number) => {
    const at = (m: string, s: string) =>
      bestBySeed(of(m, s), verdictNfe, 'valid_words5', minUnique);
    return verdicts(o, exact, at);
  };
  const claims = claimsAt(0);
  const diverseClaims = claimsAt(reference.unique_words);
  const { svg, json } = textReportFiles(o.doc);
  const configs = runs.map((r) => readConfig(join(r.dir, RUN_FILES.config)));
  const schedules = [
    ...new Set(configs.filter((c) => c.process.vp).map((c) => describeSchedule(c.process.vp))),
  ];
  const size = TEXT_SIZES[o.size]!;
  const windows = o.steps * size.batch;
  const md = `# Text: MDLM, CADD and SJD at this machine's scale

Size \`${o.size}\` (same DiT and optimiser for every model${precisionNote(o.precision)}), ${o.steps} steps, seeds ${o.seeds.join(', ')}
(the seeds column says how many are done: the comparison resumes across sessions and rewrites
this file after every run).
Training budget per model: ${o.steps} steps of ${size.batch} windows of ${size.length} characters, ${windows.toLocaleString('en-US')} windows
(${(windows * size.length).toLocaleString('en-US')} characters).
Corpus: ${configs[0]?.data ?? ''}. Noise schedule of the continuous coordinate (CADD, SJD):
${schedules.length > 0 ? schedules.join('; ') : 'none (no continuous model is done yet)'}; all models share the log-linear hazard.
Samplers: \`mdlm\` MDLM's ancestral step (masked models); \`ancestral\` the exact ancestral step
of the hybrid (src/sampling/ancestral-step.ts); \`sjd\` the paper's Algorithm 2; \`candi\`,
\`candi-cache\` CANDI's samplers; \`-refresh\` the authors' logit refresh.
Each number is the maximum over the 11-temperature frontier (temperatures 0.05 to 1) of the
valid-word fraction in percent (${o.n} samples of ${size.length} characters per point; dictionary: the
distinct words of the test split), mean +- std over the seeds done.
The last row scores ${REFERENCE_WINDOWS} evenly spaced windows of the valid split the same way (unique-word
fraction ${pct(reference.unique_words)}%).

## Verdicts (valid words >= 5, NFE ${verdictNfe})

${claims.map((c) => `- ${c}`).join('\n')}

At the diversity of held-out text (the best point whose unique-word fraction is at least
${pct(reference.unique_words)}%, as in the last table):

${diverseClaims.map((c) => `- ${c}`).join('\n')}

## Valid words, length >= 5

${table('valid_words5')}

## Valid words, length >= 6

${table('valid_words6')}

## Valid words, length >= 5, at the diversity of held-out text

The maximum over the frontier points whose unique-word fraction is at least held-out text's
(${pct(reference.unique_words)}%); - where no temperature reaches it.

${table('valid_words5', reference.unique_words)}

![frontiers: valid-word fraction (>= 5) against unique-word fraction](${svg.split('/').pop()})

The frontiers' points, run by run: [${json.split('/').pop()}](${json.split('/').pop()}).

${reproduceFooter(o.command)}`;
  makeDir(dirname(o.doc));
  writeFileAtomic(o.doc, md);
  await writeFrontier(
    json,
    svg,
    runs.map((r) => ({ label: `${r.model} ${r.sampler} seed ${r.seed}`, points: r.points })),
    { size: o.size, steps: o.steps, seeds: o.seeds, n: o.n, nfes: o.nfes, samplers: o.samplers },
    reference,
  );
}

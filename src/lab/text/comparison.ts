// The paper's text comparison at this machine's scale (sec:exp-text8, fig:text8,
// fig:text8-frontier): MDLM, CADD (W = I) and SJD over the sigma_W sweep, same network,
// optimiser, budget and seeds. Each run is a resumable run folder, its frontier cached beside
// it (frontier-cache.ts), so the comparison continues across sessions. Writes a Markdown table of
// the maximum valid-word fraction per model and NFE (mean +- std over seeds), the same maximum
// restricted to the diversity of held-out text (the paper's high-diversity regime), the
// training budget, and the frontiers with held-out text as the reference point.
import { dirname, join } from 'node:path';
import { precisionNote } from '../../model/precision.js';
import { describeProcess, describeSchedule, parseProcessName } from '../../process/index.js';
import type { SamplerName } from '../../sampling/index.js';
import type { ComparisonRuns } from '../../tasks/common/task-spec.js';
import {
  type FrontierPoint,
  frontierMaxima,
  heldOutReference,
  REFERENCE_LABEL,
  REFERENCE_WINDOWS,
  writeFrontier,
} from '../../tasks/text/frontier.js';
import type { TextScores } from '../../tasks/text/metrics.js';
import { TEXT_SIZES, textConfig } from '../../tasks/text/presets.js';
import type { TextTask } from '../../tasks/text/task.js';
import { RUN_FILES, readConfig, type TrainHooks } from '../../train/index.js';
import { counted } from '../../util/article.js';
import { makeDir, writeFileAtomic } from '../../util/atomic.js';
import { maxOf } from '../../util/fold.js';
import { mean, std } from '../../util/stats.js';
import { reproduceFooter, seedVerdict } from '../comparison-report.js';
import { modelSeedRuns, workThrough } from '../run-queue.js';
import { trainUnlessScored } from '../train-to-end.js';
import { cachedFrontier, readCachedFrontier } from './frontier-cache.js';

export interface TextCompareOptions extends ComparisonRuns {
  models: string[]; // 'masked', 'hybrid', 'sjd-<sigma>', 'sjd-row-<sigma>'
  /** samplers of the Gaussian models (hybrid, sjd); masked models use MDLM's ancestral sampler */
  samplers: SamplerName[];
  n: number; // samples per frontier point
  nfes: number[]; // the frontiers' NFE budgets (FRONTIER_NFES by default); the verdicts at the largest
  doc: string; // Markdown path; the plot goes beside it (.svg)
}

export interface TextRunSummary {
  model: string;
  sampler: SamplerName;
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
const samplersOf = (name: string, o: TextCompareOptions): SamplerName[] =>
  name === 'masked' ? ['mdlm'] : o.samplers;

/** Whether every frontier the comparison needs of a run is cached (trainUnlessScored). */
const runScored = (dir: string, name: string, o: TextCompareOptions) =>
  samplersOf(name, o).every((s) => readCachedFrontier(dir, s, o) !== null);

export async function runTextComparison(
  task: TextTask,
  o: TextCompareOptions,
  hooks: TrainHooks = {},
): Promise<TextRunSummary[] | null> {
  const reference = heldOutReference(task.scorer, task.corpus.valid, TEXT_SIZES[o.size]!.length);
  const queue = modelSeedRuns(o, (name, seed, dir) => {
    const scored = () => runScored(dir, name, o);
    const work = async (): Promise<TextRunSummary[] | null> => {
      const config = { ...modelConfig(name, o, seed), data: task.corpus.source };
      hooks.log?.(`${label(name, o)}, seed ${seed}`);
      if (!(await trainUnlessScored(dir, config, task, scored(), hooks))) return null;
      const traced: TextRunSummary[] = [];
      for (const sampler of samplersOf(name, o)) {
        const points = await cachedFrontier(dir, name, sampler, task, o, reference, {}, hooks.log);
        const max = frontierMaxima(points);
        hooks.log?.(
          `${dir}, ${sampler}: max valid words >= 5 at NFE ${o.nfes.join('/')}: ${o.nfes.map((k) => (100 * max[k]!.valid_words5).toFixed(1)).join('/')}%`,
        );
        traced.push({ model: name, sampler, seed, dir, points });
      }
      return traced;
    };
    return { dir, work, scored };
  });
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

/** The claims over the seeds' best points `at(model, sampler)` (NaN where none qualifies). */
function verdicts(
  o: TextCompareOptions,
  exact: string,
  at: (m: string, s: string) => number[],
): string[] {
  const v = (aName: string, a: number[], bName: string, b: number[]) =>
    a.some(Number.isNaN) || b.some(Number.isNaN)
      ? `${aName} against ${bName}: no temperature of one of them reaches that diversity`
      : seedVerdict(aName, a, bName, b, { digits: 1, difference: 'points' });
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

/** A fraction in percent, one decimal. */
const pct = (x: number) => (100 * x).toFixed(1);

/** A table of the best `key` per model and sampler at each NFE (points at least `minUnique` diverse), held-out text last. */
function frontierTable(
  o: TextCompareOptions,
  runs: TextRunSummary[],
  reference: TextScores,
  key: Key,
  minUnique = 0,
): string {
  const rows = o.models.flatMap((m) => samplersOf(m, o).map((s) => ({ m, s })));
  const of = (m: string, s: string) => runs.filter((r) => r.model === m && r.sampler === s);
  return [
    `| model | sampler | seeds | ${o.nfes.map((k) => `NFE ${k}`).join(' | ')} |`,
    `|---|---|---|${o.nfes.map(() => '---').join('|')}|`,
    ...rows.map(({ m, s }) => {
      const rs = of(m, s);
      return `| ${label(m, o)} | ${s} | ${rs.length} | ${o.nfes.map((k) => cell(bestBySeed(rs, k, key, minUnique))).join(' | ')} |`;
    }),
    `| ${REFERENCE_LABEL} | | | ${o.nfes.map(() => pct(reference[key])).join(' | ')} |`,
  ].join('\n');
}

/**
 * The claims at the largest NFE (128 by default), valid words >= 5: each Gaussian model under
 * the first (exact) sampler against MDLM, and each SJD model against CADD; over the whole
 * frontier (minUnique 0), or over its points at least as diverse as held-out text (the paper's
 * high-diversity regime).
 */
function frontierClaims(
  o: TextCompareOptions,
  runs: TextRunSummary[],
  minUnique: number,
): string[] {
  const of = (m: string, s: string) => runs.filter((r) => r.model === m && r.sampler === s);
  const at = (m: string, s: string) =>
    bestBySeed(of(m, s), maxOf(o.nfes), 'valid_words5', minUnique);
  return verdicts(o, o.samplers[0]!, at);
}

/** The report's setting: size, budget, corpus, schedules, samplers and how a number is read. */
function textSetting(o: TextCompareOptions, runs: TextRunSummary[], reference: TextScores): string {
  const configs = runs.map((r) => readConfig(join(r.dir, RUN_FILES.config)));
  const schedules = [
    ...new Set(configs.filter((c) => c.process.vp).map((c) => describeSchedule(c.process.vp))),
  ];
  const size = TEXT_SIZES[o.size]!;
  const windows = o.steps * size.batch;
  return `Size \`${o.size}\` (same DiT and optimiser for every model${precisionNote(o.precision)}), ${o.steps} steps, seeds ${o.seeds.join(', ')}
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
valid-word fraction in percent (${counted(o.n, 'sample')} of ${size.length} characters per point; dictionary: the
distinct words of the test split), mean +- std over the seeds done.
The last row scores ${REFERENCE_WINDOWS} evenly spaced windows of the valid split the same way (unique-word
fraction ${pct(reference.unique_words)}%).`;
}

/** The report (setting, verdicts, the three tables, the plot and the points' file) and its frontiers' plot and data. */
async function writeTextReport(
  o: TextCompareOptions,
  runs: TextRunSummary[],
  reference: TextScores,
): Promise<void> {
  const table = (key: Key, minUnique = 0) => frontierTable(o, runs, reference, key, minUnique);
  const claims = frontierClaims(o, runs, 0);
  const diverseClaims = frontierClaims(o, runs, reference.unique_words);
  const { svg, json } = textReportFiles(o.doc);
  const md = `# Text: MDLM, CADD and SJD at this machine's scale

${textSetting(o, runs, reference)}

## Verdicts (valid words >= 5, NFE ${maxOf(o.nfes)})

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

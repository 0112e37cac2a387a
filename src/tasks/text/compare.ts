// The paper's text comparison at this machine's scale (sec:exp-text8, fig:text8,
// fig:text8-frontier): MDLM, CADD (W = I) and SJD over the sigma_W sweep, same network,
// optimiser, budget and seeds. Each run is a resumable run folder, its frontier cached beside
// it (frontier.json), so the comparison continues across sessions. Writes a Markdown table of
// the maximum valid-word fraction per model and NFE (mean +- std over seeds), the same maximum
// restricted to the diversity of held-out text (the paper's high-diversity regime), the
// training budget, and the frontiers with held-out text as the reference point.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { mean, std } from '../../eval/stats.js';
import { describeProcess, describeSchedule, parseProcessName } from '../../process/index.js';
import {
  loadTransformer,
  RUN_FILES,
  readConfig,
  type TrainHooks,
  trainToEnd,
} from '../../train/index.js';
import { makeDir, writeFileAtomic } from '../../util/atomic.js';
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
import type { TextScores } from './metrics.js';
import { TEXT_SIZES, textConfig } from './presets.js';
import { type TextTask, textShape } from './task.js';

export interface TextCompareOptions {
  out: string;
  size: string;
  steps: number;
  seeds: number[];
  models: string[]; // 'masked', 'hybrid', 'sjd-<sigma>'
  n: number; // samples per frontier point
  doc: string; // Markdown path; the plot goes beside it (.svg)
  command: string;
}

export interface TextRunSummary {
  model: string;
  seed: number;
  dir: string;
  points: FrontierPoint[];
}

/** The comparison's configs, one per model name. */
const modelConfig = (name: string, o: TextCompareOptions, seed: number) =>
  textConfig({ ...parseProcessName(name), size: o.size, seed, steps: o.steps });

const label = (name: string, o: TextCompareOptions) =>
  describeProcess(modelConfig(name, o, 0).process);

export async function runTextComparison(
  task: TextTask,
  o: TextCompareOptions,
  hooks: TrainHooks = {},
): Promise<TextRunSummary[] | null> {
  const runs: TextRunSummary[] = [];
  const reference = heldOutReference(task.scorer, task.corpus.valid, TEXT_SIZES[o.size]!.length);
  for (const seed of o.seeds) {
    for (const name of o.models) {
      const dir = join(o.out, `${name}-seed${seed}`);
      const config = { ...modelConfig(name, o, seed), data: task.corpus.source };
      hooks.log?.(`${label(name, o)}, seed ${seed}`);
      if (!(await trainToEnd(dir, config, task, hooks))) return null;
      const cache = join(dir, 'frontier.json');
      let points: FrontierPoint[];
      const cached = existsSync(cache) ? JSON.parse(readFileSync(cache, 'utf8')) : null;
      if (cached && cached.n === o.n && cached.step === o.steps) {
        points = cached.curves[0].points;
      } else {
        const { model, process: proc } = loadTransformer(dir, textShape, 'text');
        points = frontier(model, proc, task.scorer, { n: o.n, seed: 0 });
        await writeFrontier(
          cache,
          join(dir, 'frontier.svg'),
          [{ label: name, points }],
          { n: o.n, step: o.steps, seed: 0 },
          reference,
        );
      }
      const max = frontierMaxima(points);
      hooks.log?.(
        `${dir}: max valid words >= 5 at NFE ${FRONTIER_NFES.join('/')}: ${FRONTIER_NFES.map((k) => (100 * max[k]!.valid_words5).toFixed(1)).join('/')}%`,
      );
      runs.push({ model: name, seed, dir, points });
    }
  }
  await writeTextReport(o, runs, reference);
  return runs;
}

async function writeTextReport(
  o: TextCompareOptions,
  runs: TextRunSummary[],
  reference: TextScores,
): Promise<void> {
  type Key = 'valid_words5' | 'valid_words6';
  const pct = (x: number) => (100 * x).toFixed(1);
  const cell = (rs: TextRunSummary[], nfe: number, key: Key, minUnique: number) => {
    const xs = rs.map((r) => frontierMaxima(r.points, minUnique)[nfe]?.[key]);
    if (xs.some((x) => x === undefined)) return '-';
    const ys = xs.map((x) => 100 * x!);
    return rs.length > 1 ? `${mean(ys).toFixed(1)} +- ${std(ys).toFixed(1)}` : mean(ys).toFixed(1);
  };
  const table = (key: Key, minUnique = 0) =>
    [
      `| model | ${FRONTIER_NFES.map((k) => `NFE ${k}`).join(' | ')} |`,
      `|---|${FRONTIER_NFES.map(() => '---').join('|')}|`,
      ...o.models.map((m) => {
        const rs = runs.filter((r) => r.model === m);
        return `| ${label(m, o)} | ${FRONTIER_NFES.map((k) => cell(rs, k, key, minUnique)).join(' | ')} |`;
      }),
      `| ${REFERENCE_LABEL} | ${FRONTIER_NFES.map(() => pct(reference[key])).join(' | ')} |`,
    ].join('\n');
  const svg = o.doc.replace(/\.md$/, '.svg');
  const configs = runs.map((r) => readConfig(join(r.dir, RUN_FILES.config)));
  const schedules = [
    ...new Set(configs.filter((c) => c.process.vp).map((c) => describeSchedule(c.process.vp))),
  ];
  const size = TEXT_SIZES[o.size]!;
  const windows = o.steps * size.batch;
  const md = `# Text: MDLM, CADD and SJD at this machine's scale

Size \`${o.size}\` (same DiT and optimiser for every model), ${o.steps} steps, seeds ${o.seeds.join(', ')}.
Training budget per model: ${o.steps} steps of ${size.batch} windows of ${size.length} characters, ${windows.toLocaleString('en-US')} windows
(${(windows * size.length).toLocaleString('en-US')} characters).
Corpus: ${configs[0]?.data ?? ''}. Noise schedule of the continuous coordinate (CADD, SJD):
${schedules.join('; ')}; all models share the log-linear hazard.
Each number is the maximum over the 11-temperature frontier (temperatures 0.05 to 1) of the
valid-word fraction in percent (${o.n} samples of ${size.length} characters per point; dictionary: the
distinct words of the test split), mean +- std over seeds where there are several.
The last row scores ${REFERENCE_WINDOWS} evenly spaced windows of the valid split the same way (unique-word
fraction ${pct(reference.unique_words)}%).

## Valid words, length >= 5

${table('valid_words5')}

## Valid words, length >= 6

${table('valid_words6')}

## Valid words, length >= 5, at the diversity of held-out text

The maximum over the frontier points whose unique-word fraction is at least held-out text's
(${pct(reference.unique_words)}%); - where no temperature reaches it.

${table('valid_words5', reference.unique_words)}

![frontiers: valid-word fraction (>= 5) against unique-word fraction](${svg.split('/').pop()})

Reproduce: \`${o.command}\` (resumable: run it again to continue).
`;
  makeDir(dirname(o.doc));
  writeFileAtomic(o.doc, md);
  const jsonPath = o.doc.replace(/\.md$/, '.json');
  await writeFrontier(
    jsonPath,
    svg,
    runs.map((r) => ({ label: `${r.model} seed ${r.seed}`, points: r.points })),
    { size: o.size, steps: o.steps, seeds: o.seeds, n: o.n },
    reference,
  );
}

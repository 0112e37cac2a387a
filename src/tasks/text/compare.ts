// The paper's text comparison at this machine's scale (sec:exp-text8, fig:text8,
// fig:text8-frontier): MDLM, CADD (W = I) and SJD over the sigma_W sweep, same network,
// optimiser, budget and seeds. Each run is a resumable run folder, its frontier cached beside
// it (frontier.json), so the comparison continues across sessions. Writes a Markdown table of
// the maximum valid-word fraction per model and NFE (mean +- std over seeds) and the frontiers.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { VPConfig } from '../../process/index.js';
import { loadModel } from '../../train/model-io.js';
import { writeTextAtomic } from '../../train/plot.js';
import { mean, std } from '../../train/stats.js';
import { type TrainHooks, trainToEnd } from '../../train/trainer.js';
import {
  FRONTIER_NFES,
  type FrontierPoint,
  frontier,
  frontierMaxima,
  writeFrontier,
} from './frontier.js';
import { TEXT_SIZES, textConfig } from './presets.js';
import { type TextTask, textShape } from './task.js';

export interface TextCompareOptions {
  out: string;
  size: string;
  steps: number;
  seeds: number[];
  models: string[]; // 'mdlm', 'cadd', 'sjd-<sigma>'
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

/** 'mdlm' | 'cadd' | 'sjd-1.5' -> the preset and sigma_W. */
export function parseModelName(name: string): { preset: string; sigmaW?: number } {
  const m = /^sjd-(\d+(?:\.\d+)?)$/.exec(name);
  if (m) return { preset: 'sjd', sigmaW: Number(m[1]) };
  if (name === 'mdlm' || name === 'cadd') return { preset: name };
  throw new Error(`unknown model '${name}' (mdlm, cadd, or sjd-SIGMA such as sjd-1.5)`);
}

const LABELS: Record<string, string> = { mdlm: 'MDLM (masked)', cadd: 'CADD (W = I)' };
const label = (m: string) => LABELS[m] ?? `SJD sigma_W = ${m.slice(4)}`;

export async function runTextComparison(
  task: TextTask,
  o: TextCompareOptions,
  hooks: TrainHooks = {},
): Promise<TextRunSummary[] | null> {
  const runs: TextRunSummary[] = [];
  for (const seed of o.seeds) {
    for (const name of o.models) {
      const { preset, sigmaW } = parseModelName(name);
      const dir = join(o.out, `${name}-seed${seed}`);
      const config = {
        ...textConfig(o.size, preset, seed, { sigmaW, steps: o.steps }),
        data: task.corpus.source,
      };
      hooks.log?.(`${label(name)}, seed ${seed}`);
      if (!(await trainToEnd(dir, config, task, hooks))) return null;
      const cache = join(dir, 'frontier.json');
      let points: FrontierPoint[];
      const cached = existsSync(cache) ? JSON.parse(readFileSync(cache, 'utf8')) : null;
      if (cached && cached.n === o.n && cached.step === o.steps) {
        points = cached.curves[0].points;
      } else {
        const { model, process: proc } = loadModel(dir, textShape, 'text');
        points = frontier(model, proc, task.scorer, { n: o.n, seed: 0 });
        await writeFrontier(cache, join(dir, 'frontier.svg'), [{ label: name, points }], {
          n: o.n,
          step: o.steps,
          seed: 0,
        });
      }
      const max = frontierMaxima(points);
      hooks.log?.(
        `${dir}: max valid words >= 5 at NFE ${FRONTIER_NFES.join('/')}: ${FRONTIER_NFES.map((k) => (100 * max[k]!.valid_words5).toFixed(1)).join('/')}%`,
      );
      runs.push({ model: name, seed, dir, points });
    }
  }
  await writeTextReport(o, runs);
  return runs;
}

function scheduleName(vp: VPConfig): string {
  return vp.kind === 'rank'
    ? `CANDI's rank degradation, r from ${vp.rMin} to ${vp.rMax}`
    : `linear VP, beta from ${vp.betaMin} to ${vp.betaMax}`;
}

async function writeTextReport(o: TextCompareOptions, runs: TextRunSummary[]): Promise<void> {
  const cell = (rs: TextRunSummary[], nfe: number, key: 'valid_words5' | 'valid_words6') => {
    const xs = rs.map((r) => 100 * frontierMaxima(r.points)[nfe]![key]);
    return rs.length > 1 ? `${mean(xs).toFixed(1)} +- ${std(xs).toFixed(1)}` : mean(xs).toFixed(1);
  };
  const table = (key: 'valid_words5' | 'valid_words6') =>
    o.models
      .map((m) => {
        const rs = runs.filter((r) => r.model === m);
        return `| ${label(m)} | ${FRONTIER_NFES.map((k) => cell(rs, k, key)).join(' | ')} |`;
      })
      .join('\n');
  const head = `| model | ${FRONTIER_NFES.map((k) => `NFE ${k}`).join(' | ')} |\n|---|${FRONTIER_NFES.map(() => '---').join('|')}|`;
  const svg = o.doc.replace(/\.md$/, '.svg');
  const configs = runs.map((r) => JSON.parse(readFileSync(join(r.dir, 'config.json'), 'utf8')));
  const schedules = [
    ...new Set(configs.filter((c) => c.process.vp).map((c) => scheduleName(c.process.vp))),
  ];
  const md = `# Text: MDLM, CADD and SJD at this machine's scale

Size \`${o.size}\` (same DiT and optimiser for every model), ${o.steps} steps, seeds ${o.seeds.join(', ')}.
Corpus: ${configs[0]?.data ?? ''}. Noise schedule of the continuous coordinate (CADD, SJD):
${schedules.join('; ')}; all models share the log-linear hazard.
Each number is the maximum over the 11-temperature frontier (temperatures 0.05 to 1) of the
valid-word fraction in percent (${o.n} samples of ${TEXT_SIZES[o.size]!.length} characters per point; dictionary: the
distinct words of the test split), mean +- std over seeds where there are several.

## Valid words, length >= 5

${head}
${table('valid_words5')}

## Valid words, length >= 6

${head}
${table('valid_words6')}

![frontiers: valid-word fraction (>= 5) against unique-word fraction](${svg.split('/').pop()})

Reproduce: \`${o.command}\` (resumable: run it again to continue).
`;
  writeTextAtomic(o.doc, md);
  const jsonPath = o.doc.replace(/\.md$/, '.json');
  await writeFrontier(
    jsonPath,
    svg,
    runs.map((r) => ({ label: `${r.model} seed ${r.seed}`, points: r.points })),
    { size: o.size, steps: o.steps, seeds: o.seeds, n: o.n },
  );
}
